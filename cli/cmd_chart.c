/* `perfreport chart`: one chart of runs as PNG, SVG or PDF. */
#include "analysis/points.h"
#include "analysis/report.h"
#include "analysis/rsort.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "model/buf.h"
#include "model/lex.h"
#include "model/threads.h"
#include "model/xalloc.h"
#include "render/chart.h"
#include "render/model_charts.h"
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static int list_kinds(void)
{
    for (size_t i = 0; i < pr_chart_nkinds; i++)
        printf("%-12s %s\n", pr_chart_kinds[i].name, pr_chart_kinds[i].summary);
    return 0;
}

/* Whether a summary-only run model r holds what kind draws: the time series its tool printed
 * (Locust's history, Artillery's periods) or its printed labels. */
static int printed_drawable(const pr_chart_kind *kind, json_t *r)
{
    unsigned nd = kind->needs & PR_CHART_NEEDS_SAMPLES;
    if (nd == PR_CHART_NEEDS_TS)
        return json_array_size(json_object_get(json_object_get(r, "timeseries"), "points")) > 0;
    if (nd == PR_CHART_NEEDS_LABELS)
        return json_array_size(json_object_get(r, "labels")) > 0;
    return 0;
}

/* Why run model r has nothing kind could show, or NULL when it has samples (or, summary only,
 * what its tool printed is what kind draws). */
static const char *no_samples(const pr_chart_kind *kind, json_t *r, char *buf, size_t n)
{
    const char *tool = json_string_value(json_object_get(r, "tool"));
    json_t *s = json_object_get(r, "stats");
    if (json_is_true(json_object_get(r, "summary_only")) && printed_drawable(kind, r))
        return NULL;
    if (json_is_true(json_object_get(r, "summary_only")))
        snprintf(buf, n, "has no samples (summary only: the numbers %s printed)",
                 tool ? tool : "its tool");
    else if (json_is_true(json_object_get(json_object_get(r, "window"), "empty")))
        snprintf(buf, n, "has no samples in the window (--from/--to)");
    else if (json_integer_value(json_object_get(s, "requests")) == 0)
        snprintf(buf, n, "has no samples");
    else
        return NULL;
    return buf;
}

/* A kind drawn from samples draws the first run (overlays: every run). A run without samples
 * is an error rather than an empty chart; an overlay leaves it out with a warning, and fails
 * only when no run is left. Returns 0 or PR_EXIT_ERROR (printed). */
static int check_samples(const pr_chart_kind *kind, json_t *doc)
{
    if (!(kind->needs & PR_CHART_NEEDS_SAMPLES))
        return 0;
    int overlay = (kind->needs & PR_CHART_NEEDS_DISTS) != 0;
    json_t *runs = json_object_get(doc, "runs");
    size_t n = overlay ? json_array_size(runs) : 1, usable = 0;
    char why[160];
    const char *last = NULL;
    json_t *lastrun = NULL;
    for (size_t i = 0; i < n; i++) {
        json_t *r = json_array_get(runs, i);
        const char *w = no_samples(kind, r, why, sizeof why);
        if (!w) {
            usable++;
            continue;
        }
        last = w;
        lastrun = r;
        if (n > 1)
            fprintf(stderr, "perfreport: warning: chart %s: run %lld '%s' %s: left out\n",
                    kind->name, (long long)json_integer_value(json_object_get(r, "id")),
                    json_string_value(json_object_get(r, "name")), w);
    }
    if (usable || !lastrun)
        return 0;
    pr_buf others = PR_BUF_INIT;
    for (size_t i = 0; i < pr_chart_nkinds; i++)
        if (!(pr_chart_kinds[i].needs & PR_CHART_NEEDS_SAMPLES))
            pr_buf_printf(&others, "%s%s", others.len ? ", " : "", pr_chart_kinds[i].name);
    if (n > 1)
        pr_cli_errorf("chart %s: no run has samples to draw (the kinds %s draw from a run's "
                      "statistics)",
                      kind->name, others.p ? others.p : "");
    else
        pr_cli_errorf("chart %s: run %lld '%s' %s: nothing to draw (the kinds %s draw from a run's "
                      "statistics)",
                      kind->name, (long long)json_integer_value(json_object_get(lastrun, "id")),
                      json_string_value(json_object_get(lastrun, "name")), last,
                      others.p ? others.p : "");
    pr_buf_dispose(&others);
    return PR_EXIT_ERROR;
}

/* The model of a points-only chart: the first run's identity, its request count and whether
 * its window kept any sample (check_samples), from its metadata and the loaded points. */
static int points_model(pr_store *st, int64_t id, const pr_report_opts *ro, const pr_points *pts,
                        json_t **out, pr_error *err)
{
    pr_run *run;
    if (pr_store_load_run(st, id, &run, err) < 0)
        return -1;
    json_t *r = json_pack("{s:I,s:s,s:s?,s:b,s:I,s:{s:I}}", "id", (json_int_t)run->id, "name",
                          run->name ? run->name : "", "tool", run->tool, "summary_only",
                          run->summary_only, "start_ns", (json_int_t)run->start_ns, "stats",
                          "requests", (json_int_t)run->samples);
    if (ro->from_ns != PR_UNKNOWN || ro->to_ns != PR_UNKNOWN)
        json_object_set_new(r, "window", json_pack("{s:b}", "empty", pts->in_window == 0));
    pr_run_free(run);
    *out = json_pack("{s:[o]}", "runs", r);
    return 0;
}

/* What the options ask for. */
typedef struct chart_args {
    const char *store, *output, *stat, *load_tag;
    const pr_chart_kind *kind;
    pr_chart_opts co;
    pr_chart_threshold th;
    pr_report_opts ro;
} chart_args;

/* --from, --to, --interval. */
static int parse_duration_opt(chart_args *a, int c, const char *arg)
{
    int64_t ns;
    if (pr_lex_duration(arg, strlen(arg), 1000000000, &ns) < 0) {
        pr_cli_errorf("expected a duration like 10s, got '%s'", arg);
        return PR_EXIT_USAGE;
    }
    if (c == 'F')
        a->ro.from_ns = ns;
    else if (c == 't')
        a->ro.to_ns = ns;
    else
        a->ro.interval_ns = ns;
    return 0;
}

/* --threshold [LABEL=]DURATION, e.g. "p99 SLO=250ms". */
static int parse_threshold(chart_args *a, const char *arg)
{
    const char *eq = strrchr(arg, '=');
    int64_t ns;
    const char *v = eq ? eq + 1 : arg;
    if (pr_lex_duration(v, strlen(v), 1000000, &ns) < 0) {
        pr_cli_errorf("--threshold expects [LABEL=]DURATION, got '%s'", arg);
        return PR_EXIT_USAGE;
    }
    a->th.value = (double)ns;
    a->th.label = arg;
    a->co.thresholds = &a->th;
    a->co.n_thresholds = 1;
    return 0;
}

/* One option; -1 for --list (the kinds printed). */
static int parse_opt(chart_args *a, int c, const char *arg)
{
    switch (c) {
    case 'S': a->store = arg; return 0;
    case 'o': a->output = arg; return 0;
    case 'T': a->co.title = arg; return 0;
    case 'W': a->co.width = atoi(arg); return 0;
    case 'H': a->co.height = atoi(arg); return 0;
    case 's': a->co.scale = atof(arg); return 0;
    case 'l': a->co.log_y = PR_CHART_LOG_ON; return 0;
    case 'L': a->co.log_y = PR_CHART_LOG_OFF; return 0;
    case 'a': a->co.abs_time = 1; return 0;
    case 'K': list_kinds(); return -1;
    case 'p': a->stat = arg; return 0;
    case 'h': return parse_threshold(a, arg);
    case 'F':
    case 't':
    case 'i': return parse_duration_opt(a, c, arg);
    case 'b':
        if (!strcmp(arg, "label"))
            return 0;
        pr_cli_errorf("--by: only 'label' is supported");
        return PR_EXIT_USAGE;
    case 'd':
        if (!strncmp(arg, "tag:", 4)) {
            a->load_tag = arg + 4;
            return 0;
        }
        pr_cli_errorf("--load expects tag:KEY");
        return PR_EXIT_USAGE;
    default: return PR_EXIT_USAGE;
    }
}

/* The options, then the kind; -1 when --list printed the kinds. */
static int parse_args(chart_args *a, int argc, char **argv)
{
    static const struct option longopts[] = {{"store", required_argument, NULL, 'S'},
                                             {"output", required_argument, NULL, 'o'},
                                             {"title", required_argument, NULL, 'T'},
                                             {"width", required_argument, NULL, 'W'},
                                             {"height", required_argument, NULL, 'H'},
                                             {"scale", required_argument, NULL, 's'},
                                             {"log", no_argument, NULL, 'l'},
                                             {"linear", no_argument, NULL, 'L'},
                                             {"from", required_argument, NULL, 'F'},
                                             {"to", required_argument, NULL, 't'},
                                             {"abs-time", no_argument, NULL, 'a'},
                                             {"list", no_argument, NULL, 'K'},
                                             {"by", required_argument, NULL, 'b'},
                                             {"stat", required_argument, NULL, 'p'},
                                             {"load", required_argument, NULL, 'd'},
                                             {"interval", required_argument, NULL, 'i'},
                                             {"threshold", required_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    memset(a, 0, sizeof *a);
    a->stat = "p99";
    pr_chart_opts_init(&a->co);
    pr_report_opts_init(&a->ro);
    static const double pcts[] = {50, 90, 95, 99, 99.9};
    memcpy(a->ro.percentiles, pcts, sizeof pcts);
    a->ro.npercentiles = 5;
    int c, rc = 0;
    optind = 1;
    while (rc == 0 && (c = getopt_long(argc, argv, "o:", longopts, NULL)) != -1)
        rc = parse_opt(a, c, optarg);
    if (rc)
        return rc;
    if (optind >= argc) {
        pr_cli_errorf("chart: name a kind (perfreport chart --list)");
        return PR_EXIT_USAGE;
    }
    a->kind = pr_chart_kind_find(argv[optind]);
    if (!a->kind) {
        pr_cli_errorf("chart: unknown kind '%s' (perfreport chart --list)", argv[optind]);
        return PR_EXIT_USAGE;
    }
    if (!a->output) {
        pr_cli_errorf("chart: -o FILE.png|.svg|.pdf is required");
        return PR_EXIT_USAGE;
    }
    if (pr_chart_format_for_path(a->output) < 0) {
        pr_cli_errorf("chart: %s: the extension must be .png, .svg or .pdf", a->output);
        return PR_EXIT_USAGE;
    }
    pr_model_charts_opts(a->kind, &a->ro);
    a->co.threads = pr_threads(); /* loading and binning the latency chart's points */
    return 0;
}

/* The model the chart draws (and its points, for the kinds that draw every sample). */
static int load_model(chart_args *a, const pr_cli_runs *sel, pr_points *pts, json_t **doc)
{
    pr_error err;
    pr_error_clear(&err);
    int rc = 0;
    if (sel->n > 0 && a->kind->needs == PR_CHART_NEEDS_POINTS) {
        /* every sample drawn: the points, and of the model only what check_samples reads */
        if (pr_points_load_chunks(sel->st, sel->ids[0], a->ro.from_ns, a->ro.to_ns, a->co.threads,
                                  pts, &err) < 0 ||
            points_model(sel->st, sel->ids[0], &a->ro, pts, doc, &err) < 0)
            rc = -1;
    } else if (pr_report_build(sel->st, sel->ids, sel->n, 0, &a->ro, doc, &err) < 0) {
        rc = -1;
    }
    if (rc < 0) {
        pr_cli_print_error(&err);
        return PR_EXIT_ERROR;
    }
    return check_samples(a->kind, *doc);
}

/* Draws the chart of the model (distributions overlay every run) into a->output. */
static int draw(chart_args *a, json_t *doc, const pr_points *pts)
{
    json_t *runs = json_object_get(doc, "runs");
    json_t *first = json_array_get(runs, 0);
    pr_model_charts mc;
    memset(&mc, 0, sizeof mc);
    pr_model_charts_run(&mc, first, a->stat);
    pr_model_charts_runs(&mc, doc, a->load_tag);
    pr_chart_input in = pr_model_charts_input(&mc);
    size_t nr = json_array_size(runs), nd = 0;
    pr_model_charts *per = pr_xcalloc(nr ? nr : 1, sizeof *per);
    pr_chart_dist *dists = pr_xcalloc(nr ? nr : 1, sizeof *dists);
    for (size_t i = 0; i < nr; i++) {
        pr_model_charts_run(&per[i], json_array_get(runs, i), a->stat);
        if (per[i].has_dist)
            dists[nd++] = per[i].dist;
    }
    in.dists = nd ? dists : NULL;
    in.n_dists = nd;
    pr_chart_points cp = {0, NULL, NULL, NULL};
    pr_chart_point_chunk *ck = pr_xcalloc(pts->nchunks ? pts->nchunks : 1, sizeof *ck);
    for (size_t i = 0; i < pts->nchunks; i++) {
        const pr_points_chunk *k = &pts->chunks[i];
        ck[i] = (pr_chart_point_chunk){
            k->n,       k->t0_ns,   k->l0_ns,   k->dt,      k->dl,      k->t_ns,  k->latency_ns,
            k->ok_bits, k->tmin_ns, k->tmax_ns, k->lmin_ns, k->lmax_ns, k->errors};
    }
    if (a->kind->needs & PR_CHART_NEEDS_POINTS) {
        in.points = &cp;
        in.point_chunks = ck;
        in.n_point_chunks = pts->nchunks;
    }
    a->co.start_ns = json_integer_value(json_object_get(first, "start_ns"));
    pr_error err;
    pr_error_clear(&err);
    int rc = 0;
    if (pr_chart_render_file(a->kind, &in, &a->co, a->output, NULL, &err) < 0) {
        pr_cli_print_error(&err);
        rc = err.code == PR_EUSAGE ? PR_EXIT_USAGE : PR_EXIT_ERROR;
    }
    for (size_t i = 0; i < nr; i++)
        pr_model_charts_dispose(&per[i]);
    free(per);
    free(dists);
    free(ck);
    pr_model_charts_dispose(&mc);
    return rc;
}

static int run(int argc, char **argv)
{
    chart_args a;
    int rc = parse_args(&a, argc, argv);
    if (rc)
        return rc < 0 ? 0 : rc; /* --list */
    pr_cli_runs sel;
    rc = pr_cli_runs_open(&sel, a.store, argv + optind + 1, argc - optind - 1, 0);
    if (rc)
        return rc;
    json_t *doc = NULL;
    pr_points pts;
    memset(&pts, 0, sizeof pts);
    rc = load_model(&a, &sel, &pts, &doc);
    if (rc == 0)
        rc = draw(&a, doc, &pts);
    pr_points_dispose(&pts);
    json_decref(doc);
    pr_cli_runs_close(&sel);
    pr_chart_shutdown(); /* release font caches: no chart is drawn after this */
    return rc;
}

const pr_command pr_cmd_chart = {
    "chart", "chart KIND [OPTIONS] [RUN…] -o FILE.png|.svg|.pdf", "draw a chart of runs",
    "Draws one chart of the RUNs (default: every run; time-based kinds use the first).\n"
    "Kinds drawn from samples refuse a run that has none (a tool's printed summary only),\n"
    "except the time-series and labels kinds where the tool printed a series or labels.\n"
    "`perfreport chart --list` names the kinds. The file extension picks the format.\n\n"
    "options:\n"
    "  -o, --output FILE     .png, .svg or .pdf (required)\n"
    "      --title TEXT      --width PX  --height PX  --scale 2 (HiDPI PNG)\n"
    "      --log, --linear   force the latency axis scale (default: log when values span decades)\n"
    "      --from D, --to D  time window from the run start (e.g. 10s)\n"
    "      --abs-time        wall-clock time axis instead of time since start\n"
    "      --by label        (labels kind) one bar per label\n"
    "      --stat pNN        the percentile of the labels kind (default p99)\n"
    "      --load tag:KEY    the offered load of each run for the capacity kind\n"
    "      --threshold [LABEL=]DURATION  a horizontal threshold line (e.g. 'SLO=250ms')\n"
    "      --interval D      time-series interval\n\n"
    "examples:\n"
    "  perfreport chart latency -o latency.png last\n"
    "  perfreport chart spectrum -o tails.svg before after\n",
    run};
