/* `perfreport render` and `perfreport templates`: reports from Mustache templates. */
#include "analysis/points.h"
#include "analysis/report.h"
#include "analysis/threshold.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/study.h"
#include "model/buf.h"
#include "model/native.h"
#include "model/run.h"
#include "model/threads.h"
#include "model/l10n.h"
#include "model/lex.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "render/chart.h"
#include "render/dashboard.h"
#include "render/markdown.h"
#include "render/mustache.h"
#include "render/report_page.h"
#include "render/study_page.h"
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* mkdir -p of the folders above path. */
static int make_parent_dirs(const char *path)
{
    char *p = pr_xstrdup(path);
    int rc = 0;
    for (char *s = strchr(p + 1, '/'); s && rc == 0; s = strchr(s + 1, '/')) {
        *s = 0;
        if (mkdir(p, 0777) < 0 && errno != EEXIST)
            rc = -1;
        *s = '/';
    }
    free(p);
    return rc;
}

/* ---- the page's points: the latency chart's, and the interactive charts' data ----------- */

/* A run's points in chunks (analysis/points.h), on a connection of its own to the store. */
static int load_chunks(const char *store, int64_t id, int threads, pr_points *p, pr_error *err)
{
    pr_store *st;
    int rc = pr_store_open(&st, store ? store : pr_cli_store_path(), 0, err);
    if (rc < 0) {
        memset(p, 0, sizeof *p);
        return rc;
    }
    rc = pr_points_load_chunks(st, id, PR_UNKNOWN, PR_UNKNOWN, threads, p, err);
    pr_store_close(st);
    return rc;
}

/* The chunks of p as a chart draws them: *ck (p->nchunks entries) is the caller's to free. */
static void run_points(const pr_points *p, pr_chart_point_chunk **ck, pr_run_points *out)
{
    *ck = pr_xcalloc(p->nchunks ? p->nchunks : 1, sizeof **ck);
    for (size_t i = 0; i < p->nchunks; i++) {
        const pr_points_chunk *k = &p->chunks[i];
        (*ck)[i] = (pr_chart_point_chunk){
            k->n,       k->t0_ns,   k->l0_ns,   k->dt,      k->dl,      k->t_ns,  k->latency_ns,
            k->ok_bits, k->tmin_ns, k->tmax_ns, k->lmin_ns, k->lmax_ns, k->errors};
    }
    *out = (pr_run_points){{0, NULL, NULL, NULL}, *ck, p->nchunks};
}

/* The interactive charts' latency data of a run, from its points. */
static int make_lat(const char *store, int64_t id, int threads, pr_dash_lat *out, pr_error *err)
{
    pr_points p;
    int rc = load_chunks(store, id, threads, &p, err);
    if (rc == 0) {
        pr_chart_point_chunk *ck;
        pr_run_points rp;
        run_points(&p, &ck, &rp);
        pr_dashboard_lat(&rp, threads, out);
        free(ck);
    }
    pr_points_dispose(&p);
    return rc;
}

typedef struct pts_ctx {
    const char *store;
    int threads;
    pr_points p;
    pr_chart_point_chunk *ck;
} pts_ctx;

/* Loads a run's points for the latency-over-time chart (run NULL: releases them). */
static int load_points(json_t *run, pr_run_points *out, pr_error *err, void *payload)
{
    pts_ctx *pc = payload;
    pr_points_dispose(&pc->p);
    free(pc->ck);
    pc->ck = NULL;
    if (!run)
        return 0;
    int rc = load_chunks(pc->store, json_integer_value(json_object_get(run, "id")), pc->threads,
                         &pc->p, err);
    if (rc == 0)
        run_points(&pc->p, &pc->ck, out);
    return rc;
}

/* The interactive charts' latency data of a run, made after the report model: beside it on a
 * thread of its own it was no faster on two cores (the model's scan uses both) and held the
 * run's points (80 MB at 10 M samples) while the model held its own. */
static int dash_lat(json_t *run, pr_dash_lat *out, pr_error *err, void *payload)
{
    pts_ctx *pc = payload;
    int64_t id = json_integer_value(json_object_get(run, "id"));
    return make_lat(pc->store, id, pc->threads, out, err);
}

typedef struct render_args {
    const char *store, *tname, *output, *format, *data, *partials, *metafile;
    int merge, charts, static_charts, json;
    pr_cli_study study; /* a study context instead of the report model (cli/study.h) */
    pr_threshold *ts;
    size_t nts, tcap;
    pr_report_opts o;
} render_args;

/* --max (X), --min (Y) or --thresholds (T) into a->ts. */
static int add_thresholds(render_args *a, int c, const char *arg)
{
    return pr_cli_add_thresholds(&a->ts, &a->nts, &a->tcap,
                                 c == 'T'   ? 'f'
                                 : c == 'X' ? 'x'
                                            : 'n',
                                 arg);
}

static int parse_args(render_args *a, int argc, char **argv)
{
    static const struct option longopts[] = {{"store", required_argument, NULL, 'S'},
                                             {"template", required_argument, NULL, 't'},
                                             {"output", required_argument, NULL, 'o'},
                                             {"format", required_argument, NULL, 'f'},
                                             {"data", required_argument, NULL, 'd'},
                                             {"partials", required_argument, NULL, 'P'},
                                             {"meta", required_argument, NULL, 'm'},
                                             {"now", required_argument, NULL, 'N'},
                                             {"percentiles", required_argument, NULL, 'p'},
                                             {"merge", no_argument, NULL, 'M'},
                                             {"no-charts", no_argument, NULL, 'C'},
                                             {"max", required_argument, NULL, 'X'},
                                             {"min", required_argument, NULL, 'Y'},
                                             {"thresholds", required_argument, NULL, 'T'},
                                             {"static-charts", no_argument, NULL, 'G'},
                                             {"json", no_argument, NULL, 'J'},
                                             {"top", required_argument, NULL, 'U'},
                                             {"patterns", required_argument, NULL, 'W'},
                                             PR_STUDY_LONGOPTS,
                                             {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "t:o:f:d:p:", longopts, NULL)) != -1) {
        switch (c) {
        case 'S': a->store = optarg; break;
        case 't': a->tname = optarg; break;
        case 'o': a->output = optarg; break;
        case 'f': a->format = optarg; break;
        case 'd': a->data = optarg; break;
        case 'P': a->partials = optarg; break;
        case 'm': a->metafile = optarg; break;
        case 'M': a->merge = 1; break;
        case 'C': a->charts = 0; break;
        case 'G': a->static_charts = 1; break;
        case 'J': a->json = 1; break;
        case 'U':
        case 'W':
            if (pr_cli_rows_option(&a->o, c == 'U' ? "--top" : "--patterns", optarg) < 0)
                return PR_EXIT_USAGE;
            break;
        case 'X':
        case 'Y':
        case 'T':
            if (add_thresholds(a, c, optarg) < 0)
                return PR_EXIT_USAGE;
            break;
        case 'p':
            if (pr_report_parse_percentiles(&a->o, optarg) < 0) {
                pr_cli_errorf("--percentiles expects a list like 50,90,99.9");
                return PR_EXIT_USAGE;
            }
            break;
        case 'N': {
            int64_t ns, v;
            if (pr_lex_rfc3339(optarg, strlen(optarg), &ns, NULL) == 0)
                a->o.generated_s = ns / 1000000000LL;
            else if (pr_lex_i64(optarg, strlen(optarg), &v) == 0)
                a->o.generated_s = v;
            else {
                pr_cli_errorf("--now expects RFC 3339 or Unix seconds, got '%s'", optarg);
                return PR_EXIT_USAGE;
            }
            break;
        }
        default:
            if (!pr_cli_study_is_option(c))
                return PR_EXIT_USAGE;
            int src = pr_cli_study_option(&a->study, c, optarg);
            if (src)
                return src;
        }
    }
    a->study.on |= pr_cli_study_template(a->tname);
    if (a->format && strcmp(a->format, "html") && strcmp(a->format, "md")) {
        pr_cli_errorf("--format expects md or html");
        return PR_EXIT_USAGE;
    }
    return 0;
}

/* The metadata: --meta FILE wins, else what ingest --meta stored with the first run. Its
 * "thresholds" (["max p99=250ms", …]) join the command line's. */
static int load_meta(render_args *a, json_t *ctx, json_t **out)
{
    json_t *stored = json_object_get(
        json_object_get(json_array_get(json_object_get(ctx, "runs"), 0), "meta"), "report");
    json_t *meta = json_is_object(stored) ? json_deep_copy(stored) : json_object();
    if (a->metafile) {
        json_error_t je;
        json_t *m = json_load_file(a->metafile, 0, &je);
        if (!json_is_object(m)) {
            pr_cli_errorf("%s:%d:%d: %s", a->metafile, je.line, je.column,
                          m ? "expected a JSON object" : je.text);
            json_decref(m);
            json_decref(meta);
            return PR_EXIT_ERROR;
        }
        json_decref(meta);
        meta = m;
    }
    size_t i;
    json_t *t;
    json_array_foreach (json_object_get(meta, "thresholds"), i, t) {
        const char *s = json_string_value(t);
        const char *sp = s ? strchr(s, ' ') : NULL;
        int is_max = s && !strncmp(s, "max ", 4), is_min = s && !strncmp(s, "min ", 4);
        if (!sp || !(is_max || is_min) || add_thresholds(a, is_max ? 'X' : 'Y', sp + 1) < 0) {
            pr_cli_errorf("%s: thresholds[%zu]: expected \"max METRIC=VALUE\" or \"min "
                          "METRIC=VALUE\"",
                          a->metafile ? a->metafile : "stored meta", i);
            json_decref(meta);
            return PR_EXIT_USAGE;
        }
    }
    pr_cli_prepare_meta(meta);
    *out = meta;
    return 0;
}

/* The report model of the runs (as pr_cli_report). */
static int report_model(render_args *a, char **runs, int nruns, json_t **ctx)
{
    pr_cli_runs sel;
    int rc = pr_cli_runs_open(&sel, a->store, runs, nruns, 0);
    if (rc)
        return rc;
    pr_error err;
    pr_error_clear(&err);
    if (pr_report_build(sel.st, sel.ids, sel.n, a->merge, &a->o, ctx, &err) < 0) {
        pr_cli_print_error(&err);
        rc = PR_EXIT_ERROR;
    }
    pr_cli_runs_close(&sel);
    return rc;
}

/* The report model of the selected runs, with meta, verdict, charts and (HTML) the
 * interactive dashboard's data. */
static int build_context(render_args *a, char **runs, int nruns, int want_html, int html_tpl,
                         json_t **out)
{
    pr_error err;
    pr_error_clear(&err);
    /* the percentiles --max/--min name (meta thresholds are read with the model below) */
    pr_threshold_add_percentiles(&a->o, a->ts, a->nts);
    json_t *ctx = NULL;
    int rc;
    int dash = want_html && a->charts && !a->json && !a->study.on;
    if (a->study.on) {
        pr_cli_runs sel;
        rc = pr_cli_runs_open(&sel, a->store, runs, nruns, 0);
        if (rc == 0)
            rc = pr_cli_study_build(&a->study, sel.st, sel.ids, sel.n, &a->o, &ctx);
        pr_cli_runs_close(&sel);
    } else {
        rc = report_model(a, runs, nruns, &ctx);
    }
    if (rc == 0)
        pr_cli_warn_bounded(ctx);
    json_t *meta = NULL;
    if (rc == 0 && (rc = load_meta(a, ctx, &meta)) == 0) {
        json_object_set_new(ctx, "meta", meta);
        json_object_set_new(ctx, "version", json_string(PR_VERSION));
        if (!a->study.on)
            pr_threshold_verdict(ctx, a->ts, a->nts, 0);
    }
    if (rc == 0 && strcmp(a->output, "-") && make_parent_dirs(a->output) < 0) {
        pr_cli_errorf("%s: cannot create its folder: %s", a->output, strerror(errno));
        rc = PR_EXIT_ERROR;
    }
    /* before the charts and the dashboard's data are made from it (model/text.h) */
    if (rc == 0 && !a->json)
        pr_text_visible_json(ctx, PR_TEXT_LINES);
    pts_ctx pc = {a->store, pr_threads(), {0}, NULL};
    int draw = rc == 0 && a->charts && strcmp(a->output, "-") && !a->json;
    /* a study's charts are static: files beside Markdown, inline SVG in HTML */
    if (draw && a->study.on && pr_study_page_charts(ctx, a->output, want_html, &err) < 0)
        rc = PR_EXIT_ERROR;
    /* static charts: files beside Markdown, inline SVG in a page made from Markdown; an HTML
     * template draws its charts interactively (--static-charts adds the images too) */
    if (rc == 0 && draw && !a->study.on && (!html_tpl || a->static_charts) &&
        pr_report_page_charts(ctx, a->output, want_html, load_points, &pc, &err) < 0)
        rc = PR_EXIT_ERROR;
    if (rc == 0 && dash && pr_dashboard_add(ctx, dash_lat, &pc, &err) < 0)
        rc = PR_EXIT_ERROR;
    if (rc == PR_EXIT_ERROR && err.code)
        pr_cli_print_error(&err);
    if (rc) {
        json_decref(ctx);
        return rc;
    }
    *out = ctx;
    return 0;
}

/* Renders text (the template) against ctx; partials come from --partials DIR, else the
 * template's own folder, then the built-ins (a partial may omit the template's extension:
 * {{> header}} finds header.md). */
static int render_template(render_args *a, const char *text, size_t len, const char *tpl_dir,
                           json_t *ctx, int want_html, int html_tpl, pr_buf *out)
{
    pr_error err;
    pr_error_clear(&err);
    const char *dot = strrchr(a->tname, '.');
    const char *ext = dot && !strchr(dot, '/') ? dot : NULL;
    pr_tpl_dir dir;
    memset(&dir, 0, sizeof dir);
    pr_tpl_builtin bt = {NULL, ext};
    pr_tpl_loader bl = pr_tpl_builtin_loader(&bt), dl, chain_l;
    pr_tpl_chain chain = {NULL, &bl};
    const char *pdir = a->partials ? a->partials : (tpl_dir[0] ? tpl_dir : NULL);
    if (pdir) {
        if (pr_tpl_dir_init(&dir, pdir, &err) < 0) {
            pr_cli_print_error(&err);
            return PR_EXIT_ERROR;
        }
        dir.ext = ext;
        dl = pr_tpl_dir_loader(&dir);
        chain.first = &dl;
    }
    chain_l = pr_tpl_chain_loader(&chain);
    int esc = html_tpl ? PR_ESC_HTML : PR_ESC_MARKDOWN;
    /* names, labels and errors come from the files: visible everywhere in the page, also
     * through {{{raw}}} tags and the model a page embeds for its script (model/text.h); line
     * breaks and tabs stay (Markdown turns them into spaces). Done once more here for --data. */
    pr_text_visible_json(ctx, PR_TEXT_LINES);
    if (pr_mustache_render(text, len, a->tname, ctx, &chain_l, esc, out, &err) < 0) {
        pr_cli_print_error(&err);
        return PR_EXIT_ERROR;
    }
    if (want_html && !html_tpl) {
        pr_buf page = PR_BUF_INIT;
        int rc = pr_report_page_html(out->p ? out->p : "", out->len, ctx, &page, &err);
        pr_buf_dispose(out);
        *out = page;
        if (rc < 0) {
            pr_cli_print_error(&err);
            return PR_EXIT_ERROR;
        }
    }
    return 0;
}

static int run(int argc, char **argv)
{
    render_args a;
    memset(&a, 0, sizeof a);
    a.tname = "report.md";
    a.output = "-";
    a.charts = 1;
    pr_report_opts_init(&a.o);
    a.o.label_timeseries = 1;
    pr_cli_study_init(&a.study);
    char *text = NULL;
    size_t len = 0;
    char tpl_dir[4096] = "";
    json_t *ctx = NULL;
    pr_buf out = PR_BUF_INIT;
    int rc = parse_args(&a, argc, argv);
    if (rc == 0)
        pr_cli_template_language(a.tname);
    if (rc == 0)
        rc = pr_cli_load_template(a.tname, &text, &len, tpl_dir, sizeof tpl_dir);
    int html_tpl = pr_cli_is_html(a.tname);
    int want_html = a.format ? !strcmp(a.format, "html") : (pr_cli_is_html(a.output) || html_tpl);
    if (rc == 0 && a.data) {
        json_error_t je;
        ctx = json_load_file(a.data, JSON_DECODE_ANY, &je);
        if (!ctx) {
            pr_cli_errorf("%s:%d:%d: %s", a.data, je.line, je.column, je.text);
            rc = PR_EXIT_ERROR;
        }
    } else if (rc == 0) {
        rc = build_context(&a, argv + optind, argc - optind, want_html, html_tpl, &ctx);
    }
    if (rc == 0 && a.json) { /* the context the template would see */
        char *dump =
            json_dumps(ctx, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
        size_t dl = strlen(dump);
        dump[dl] = '\n';
        pr_buf_append(&out, dump, dl + 1);
        free(dump);
    } else if (rc == 0) {
        rc = render_template(&a, text, len, tpl_dir, ctx, want_html, html_tpl, &out);
    }
    if (rc == 0 && pr_cli_write_file(a.output, out.p ? out.p : "", out.len) < 0)
        rc = PR_EXIT_ERROR;
    pr_buf_dispose(&out);
    json_decref(ctx);
    free(text);
    free(a.ts);
    pr_cli_study_dispose(&a.study);
    pr_chart_shutdown(); /* release font caches: no chart is drawn after this */
    return rc;
}

const pr_command pr_cmd_render = {
    "render", "render [--template NAME|PATH] [OPTIONS] [RUN…]",
    "render a report (Markdown or HTML) from a template",
    "Renders the report model of the RUNs (default: every run) through a Mustache template:\n"
    "a built-in one by NAME (perfreport templates), or a file given as a PATH (./mine.md,\n"
    "tpl/mine.md, /abs/mine.md: a name without a '/' is never a file of the working folder).\n"
    "Markdown goes to HTML through md4c when --format html or the output ends in .html.\n"
    "Charts are written beside the output file in OUTPUT_files/ (HTML output inlines them,\n"
    "so one file is the whole report).\n\n"
    "options:\n"
    "  -t, --template NAME|PATH  a built-in NAME, or a file's PATH (with a '/'); default\n"
    "                            report.md (the built-in)\n"
    "  -o, --output FILE         default stdout\n"
    "  -f, --format md|html\n"
    "      --meta FILE.json      purpose, system, versions, hardware, topology, tuning…\n"
    "  -d, --data FILE.json      render against this JSON instead of the store\n"
    "      --partials DIR        where partials come from (default: a template file's\n"
    "                            folder; a built-in's come from the built-ins)\n"
    "      --now TIME            the report date (RFC 3339 or Unix s; also SOURCE_DATE_EPOCH)\n"
    "      --max METRIC=V, --min METRIC=V, --thresholds FILE\n"
    "                            thresholds the report's verdict checks (as `check`)\n"
    "      --static-charts       HTML templates: also the PNG/SVG chart images\n"
    "      --top N               labels shown: the N with most requests, then 'other'\n"
    "                            (default 100; 0: every label)\n"
    "      --patterns WHEN       group labels and URLs by pattern: auto (past 1000\n"
    "                            distinct values), always, never\n"
    "      --json                print the context the template would see\n"
    "study (a set of runs grouped by tags; implied by these options and by a template\n"
    "named study*: study.md, study.zh.md, study.html, study.zh.html):\n"
    "      --pair tag:KEY[,KEY…] the tags of a load level (e.g. tag:rate,duration)\n"
    "      --by tag:KEY[,KEY…]   the tags of a configuration (e.g. tag:jvm); the first\n"
    "                            configuration met is the baseline\n"
    "      --load rate|concurrency|tag:KEY  --load-is-rate  the capacity curve's load\n"
    "                            (default: the first --pair tag)\n"
    "      --slo p99=D  --max-errors R  --study\n"
    "  -p, --percentiles LIST    --merge  --no-charts  --store PATH\n\n"
    "examples:\n"
    "  perfreport render -t report.md --meta meta.json -o out/report.md\n"
    "  perfreport render -t ./my-report.md -o out/report.html 3 4\n"
    "  perfreport render -t study.md --by tag:cache --pair tag:rate -o out/study.md tag:cache\n",
    run};

static int templates_main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "show")) {
        for (size_t i = 0; pr_builtin_templates[i].name; i++) {
            if (!strcmp(pr_builtin_templates[i].name, argv[2])) {
                return pr_cli_write_file("-", pr_builtin_templates[i].text,
                                         pr_builtin_templates[i].len) < 0
                           ? PR_EXIT_ERROR
                           : 0;
            }
        }
        pr_cli_errorf("no built-in template '%s'", argv[2]);
        return PR_EXIT_USAGE;
    }
    if (argc > 1) {
        pr_cli_errorf("templates: usage: perfreport templates [show NAME]");
        return PR_EXIT_USAGE;
    }
    for (size_t i = 0; pr_builtin_templates[i].name; i++)
        printf("%s\n", pr_builtin_templates[i].name);
    return 0;
}

const pr_command pr_cmd_templates = {
    "templates", "templates [show NAME]", "list the built-in report templates or print one",
    "Lists the templates compiled into perfreport; `templates show NAME` prints one, as a\n"
    "starting point for your own (which may also inherit from it and override one block:\n"
    "{{<report.md}}{{$findings}}…{{/findings}}{{/report.md}}).\n",
    templates_main};
