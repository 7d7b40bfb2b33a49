/* `perfreport render` and `perfreport templates`: reports from Mustache templates. */
#include "analysis/points.h"
#include "analysis/report.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "model/buf.h"
#include "model/lex.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "render/chart.h"
#include "render/markdown.h"
#include "render/mustache.h"
#include "render/report_page.h"
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    pr_buf b = PR_BUF_INIT;
    b.max = PR_TPL_MAX_BYTES * 16;
    char tmp[65536];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
        pr_buf_append(&b, tmp, n);
    int bad = ferror(f) || b.overflow;
    fclose(f);
    if (bad) {
        pr_buf_dispose(&b);
        return NULL;
    }
    *len = b.len;
    return pr_buf_steal(&b);
}

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

typedef struct pts_ctx {
    const char *store;
    pr_points p;
} pts_ctx;

/* Loads a run's points for the latency-over-time chart (run NULL: releases them). */
static int load_points(void *payload, json_t *run, pr_chart_points *out, pr_error *err)
{
    pts_ctx *pc = payload;
    pr_points_dispose(&pc->p);
    if (!run)
        return 0;
    pr_store *st;
    int rc = pr_store_open(&st, pc->store ? pc->store : pr_store_default_path(), 0, err);
    if (rc < 0)
        return rc;
    rc = pr_points_load(st, json_integer_value(json_object_get(run, "id")), PR_UNKNOWN,
                        PR_UNKNOWN, &pc->p, err);
    pr_store_close(st);
    if (rc == 0) {
        out->n = pc->p.n;
        out->t_ns = pc->p.t_ns;
        out->latency_ns = pc->p.latency_ns;
        out->ok = pc->p.ok;
    }
    return rc;
}

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"store", required_argument, NULL, 'S'},    {"template", required_argument, NULL, 't'},
        {"output", required_argument, NULL, 'o'},   {"format", required_argument, NULL, 'f'},
        {"data", required_argument, NULL, 'd'},     {"partials", required_argument, NULL, 'P'},
        {"meta", required_argument, NULL, 'm'},     {"now", required_argument, NULL, 'N'},
        {"percentiles", required_argument, NULL, 'p'}, {"merge", no_argument, NULL, 'M'},
        {"no-charts", no_argument, NULL, 'C'},
        {NULL, 0, NULL, 0}};
    const char *store = NULL, *tname = "report.md", *output = "-", *format = NULL;
    const char *data = NULL, *partials = NULL, *metafile = NULL;
    int merge = 0, charts = 1, c;
    pr_report_opts o;
    pr_report_opts_init(&o);
    optind = 1;
    while ((c = getopt_long(argc, argv, "t:o:f:d:p:", longopts, NULL)) != -1) {
        switch (c) {
        case 'S': store = optarg; break;
        case 't': tname = optarg; break;
        case 'o': output = optarg; break;
        case 'f': format = optarg; break;
        case 'd': data = optarg; break;
        case 'P': partials = optarg; break;
        case 'm': metafile = optarg; break;
        case 'M': merge = 1; break;
        case 'C': charts = 0; break;
        case 'p':
            if (pr_report_parse_percentiles(&o, optarg) < 0) {
                pr_cli_errorf("--percentiles expects a list like 50,90,99.9");
                return PR_EXIT_USAGE;
            }
            break;
        case 'N': {
            int64_t ns, v;
            if (pr_lex_rfc3339(optarg, strlen(optarg), &ns, NULL) == 0)
                o.generated_s = ns / 1000000000LL;
            else if (pr_lex_i64(optarg, strlen(optarg), &v) == 0)
                o.generated_s = v;
            else {
                pr_cli_errorf("--now expects RFC 3339 or Unix seconds, got '%s'", optarg);
                return PR_EXIT_USAGE;
            }
            break;
        }
        default: return PR_EXIT_USAGE;
        }
    }
    /* the template: a file path wins, else a built-in name */
    pr_error err;
    pr_error_clear(&err);
    char *text = NULL;
    size_t len = 0;
    char tpl_dir[4096] = "";
    if (is_file(tname)) {
        text = read_all(tname, &len);
        if (!text) {
            pr_cli_errorf("%s: cannot read template: %s", tname, strerror(errno));
            return PR_EXIT_ERROR;
        }
        char *copy = pr_xstrdup(tname);
        snprintf(tpl_dir, sizeof tpl_dir, "%s", dirname(copy));
        free(copy);
    } else {
        pr_tpl_builtin bt = {NULL, NULL};
        pr_tpl_loader bl = pr_tpl_builtin_loader(&bt);
        if (bl.load(bl.payload, tname, &text, &len, &err) < 0) {
            pr_cli_errorf("no template '%s': not a file and not a built-in (perfreport templates "
                          "lists them)", tname);
            return PR_EXIT_USAGE;
        }
    }
    int html_tpl = pr_cli_is_html(tname);
    int want_html = format ? !strcmp(format, "html")
                           : (pr_cli_is_html(output) || html_tpl);
    if (format && strcmp(format, "html") && strcmp(format, "md")) {
        pr_cli_errorf("--format expects md or html");
        free(text);
        return PR_EXIT_USAGE;
    }
    /* the context */
    json_t *ctx = NULL;
    int rc = 0;
    if (data) {
        json_error_t je;
        ctx = json_load_file(data, JSON_DECODE_ANY, &je);
        if (!ctx) {
            pr_cli_errorf("%s:%d:%d: %s", data, je.line, je.column, je.text);
            free(text);
            return PR_EXIT_ERROR;
        }
    } else {
        pr_store *st;
        if ((rc = pr_cli_open_store(store, 0, &st)) != 0) {
            free(text);
            return rc;
        }
        int64_t *ids = NULL;
        size_t n = 0;
        rc = pr_cli_select_runs(st, argv + optind, argc - optind, &ids, &n);
        if (rc == 0 && pr_report_build(st, ids, n, merge, &o, &ctx, &err) < 0) {
            pr_cli_print_error(&err);
            rc = PR_EXIT_ERROR;
        }
        free(ids);
        pr_store_close(st);
        if (rc) {
            free(text);
            return rc;
        }
        /* --meta wins; else the metadata stored with the first run at ingest (--meta there) */
        json_t *stored = json_object_get(
            json_object_get(json_array_get(json_object_get(ctx, "runs"), 0), "meta"), "report");
        json_t *meta = json_is_object(stored) ? json_deep_copy(stored) : json_object();
        if (metafile) {
            json_error_t je;
            json_t *m = json_load_file(metafile, 0, &je);
            if (!json_is_object(m)) {
                pr_cli_errorf("%s:%d:%d: %s", metafile, je.line, je.column,
                              m ? "expected a JSON object" : je.text);
                json_decref(m);
                json_decref(meta);
                json_decref(ctx);
                free(text);
                return PR_EXIT_ERROR;
            }
            json_decref(meta);
            meta = m;
        }
        pr_cli_prepare_meta(meta);
        json_object_set_new(ctx, "meta", meta);
        json_object_set_new(ctx, "version", json_string(PR_VERSION));
        if (strcmp(output, "-") && make_parent_dirs(output) < 0) {
            pr_cli_errorf("%s: cannot create its folder: %s", output, strerror(errno));
            json_decref(ctx);
            free(text);
            return PR_EXIT_ERROR;
        }
        if (charts && strcmp(output, "-")) {
            pts_ctx pc = {store, {0}};
            rc = pr_report_page_charts(ctx, output, want_html, load_points, &pc, &err);
        }
        if (rc < 0) {
            pr_cli_print_error(&err);
            json_decref(ctx);
            free(text);
            return PR_EXIT_ERROR;
        }
    }
    /* partials: --partials DIR, else the template's own folder, then the built-ins; a partial
     * may omit the template's extension ({{> header}} finds header.md) */
    const char *dot = strrchr(tname, '.');
    const char *ext = dot && !strchr(dot, '/') ? dot : NULL;
    pr_tpl_dir dir;
    memset(&dir, 0, sizeof dir);
    pr_tpl_builtin bt = {NULL, ext};
    pr_tpl_loader bl = pr_tpl_builtin_loader(&bt), dl, chain_l;
    pr_tpl_chain chain = {NULL, &bl};
    const char *pdir = partials ? partials : (tpl_dir[0] ? tpl_dir : NULL);
    if (pdir) {
        if (pr_tpl_dir_init(&dir, pdir, &err) < 0) {
            pr_cli_print_error(&err);
            json_decref(ctx);
            free(text);
            return PR_EXIT_ERROR;
        }
        dir.ext = ext;
        dl = pr_tpl_dir_loader(&dir);
        chain.first = &dl;
    }
    chain_l = pr_tpl_chain_loader(&chain);
    pr_buf out = PR_BUF_INIT;
    int esc = html_tpl ? PR_ESC_HTML : PR_ESC_MARKDOWN;
    /* names, labels and errors come from the files: visible everywhere in the page, also
     * through {{{raw}}} tags and the model a page embeds for its script (model/text.h); line
     * breaks and tabs stay (Markdown turns them into spaces) */
    pr_text_visible_json(ctx, PR_TEXT_LINES);
    if (pr_mustache_render(text, len, tname, ctx, &chain_l, esc, &out, &err) < 0) {
        pr_cli_print_error(&err);
        rc = PR_EXIT_ERROR;
    }
    if (rc == 0 && want_html && !html_tpl) {
        pr_buf page = PR_BUF_INIT;
        if (pr_report_page_html(out.p ? out.p : "", out.len, ctx, &page, &err) < 0) {
            pr_cli_print_error(&err);
            rc = PR_EXIT_ERROR;
        }
        pr_buf_dispose(&out);
        out = page;
    }
    if (rc == 0 && pr_cli_write_file(output, out.p ? out.p : "", out.len) < 0)
        rc = PR_EXIT_ERROR;
    pr_buf_dispose(&out);
    json_decref(ctx);
    free(text);
    pr_chart_shutdown(); /* release font caches: no chart is drawn after this */
    return rc;
}

const pr_command pr_cmd_render = {
    "render", "render [--template NAME|PATH] [OPTIONS] [RUN…]",
    "render a report (Markdown or HTML) from a template",
    "Renders the report model of the RUNs (default: every run) through a Mustache template:\n"
    "a built-in one (perfreport templates) or a file. Markdown goes to HTML through md4c\n"
    "when --format html or the output ends in .html. Charts are written beside the output\n"
    "file in OUTPUT_files/ (HTML output inlines them, so one file is the whole report).\n\n"
    "options:\n"
    "  -t, --template NAME|PATH  default report.md\n"
    "  -o, --output FILE         default stdout\n"
    "  -f, --format md|html\n"
    "      --meta FILE.json      purpose, system, versions, hardware, topology, tuning…\n"
    "  -d, --data FILE.json      render against this JSON instead of the store\n"
    "      --partials DIR        where partials come from (default: the template's folder)\n"
    "      --now TIME            the report date (RFC 3339 or Unix s; also SOURCE_DATE_EPOCH)\n"
    "  -p, --percentiles LIST    --merge  --no-charts  --store PATH\n\n"
    "examples:\n"
    "  perfreport render -t report.md --meta meta.json -o out/report.md\n"
    "  perfreport render -t my-report.md -o out/report.html 3 4\n",
    run};

static int templates_main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "show")) {
        for (size_t i = 0; pr_builtin_templates[i].name; i++) {
            if (!strcmp(pr_builtin_templates[i].name, argv[2])) {
                return pr_cli_write_file("-", pr_builtin_templates[i].text,
                                         pr_builtin_templates[i].len) < 0 ? PR_EXIT_ERROR : 0;
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
