/* `perfreport capacity`: a series of runs at increasing load, its knee and a USL fit. */
#include "analysis/capacity.h"
#include "analysis/human.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/selection.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "render/chart.h"
#include "render/model_charts.h"
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The USL line: the fit with its quality, or why there is none. */
static void print_usl(json_t *a)
{
    char h[32], r[32];
    json_t *u = json_object_get(a, "usl");
    if (!json_is_object(u)) {
        printf("  USL fit: %s\n", json_string_value(json_object_get(a, "usl_note")));
        if (!strcmp(json_string_value(json_object_get(a, "load_kind")), "rate"))
            printf(
                "    (for a rate series the capacity is the maximum sustainable throughput above;\n"
                "    the X/offered column is the share of the offered load served)\n");
        return;
    }
    double rse = num(u, "residual_se_per_s"), mr = num(u, "max_residual_per_s");
    pr_human_rate(rse, h, sizeof h);
    pr_human_rate(fabs(mr), r, sizeof r);
    printf("  USL fit: lambda %.4g, sigma %.4g, kappa %.4g on %lld points (%lld degree(s) of "
           "freedom): R^2 %.3f, residual standard error %s, largest residual %s%s at load %g\n",
           num(u, "lambda"), num(u, "sigma"), num(u, "kappa"),
           (long long)json_integer_value(json_object_get(u, "points")),
           (long long)json_integer_value(json_object_get(u, "degrees_of_freedom")), num(u, "r2"), h,
           mr < 0 ? "-" : "+", r, num(u, "max_residual_load"));
    if (isfinite(num(u, "peak_load")))
        printf("    predicted peak %s at load %.3g\n",
               pr_human_rate(num(u, "peak_throughput_per_s"), h, sizeof h), num(u, "peak_load"));
    else
        printf("    no retrograde region (kappa = 0): throughput levels off at lambda/sigma\n");
}

static void print_series(json_t *a, const char *series_name, const char *load_name)
{
    char h[32];
    int rate = !strcmp(json_string_value(json_object_get(a, "load_kind")), "rate");
    if (series_name)
        printf("series %s\n", series_name);
    printf("  %12s %12s %10s %8s %10s  %s\n", load_name, "throughput", "p99", "errors",
           rate ? "X/offered" : "scaling", "run");
    size_t i;
    json_t *p;
    json_array_foreach (json_object_get(a, "points"), i, p) {
        double e = num(p, "efficiency");
        char eff[16];
        snprintf(eff, sizeof eff, isfinite(e) ? "%.2f" : "-", e);
        printf("  %12g %12s %10s %8s %10s  %s%s\n", num(p, "load"),
               json_string_value(json_object_get(p, "throughput")),
               json_string_value(json_object_get(p, "p99")),
               json_string_value(json_object_get(p, "error_pct")), eff,
               json_string_value(json_object_get(p, "name")),
               json_is_true(json_object_get(p, "knee")) ? "  <- knee" : "");
    }
    json_t *k = json_object_get(a, "knee");
    if (json_is_object(k))
        printf("  knee: load %g, crossed: %s\n", num(k, "load"),
               json_string_value(json_object_get(k, "detail")));
    else
        printf("  knee: none within the tested loads\n");
    json_t *m = json_object_get(a, "max_sustainable");
    if (json_is_object(m))
        printf("  maximum sustainable throughput: %s at load %g\n",
               pr_human_rate(num(m, "throughput_per_s"), h, sizeof h), num(m, "load"));
    else
        printf("  maximum sustainable throughput: none (%s)\n",
               json_string_value(json_object_get(a, "max_sustainable_note")));
    print_usl(a);
}

static int draw(json_t *a, const char *path, const char *title, pr_load_kind kind, double slo_ns,
                const char *load_name)
{
    char *xt = kind == PR_LOAD_KIND_RATE ? NULL : pr_xasprintf("Load (%s)", load_name);
    pr_model_charts mc;
    memset(&mc, 0, sizeof mc);
    pr_model_charts_capacity(&mc, a, xt);
    pr_chart_input in = pr_model_charts_input(&mc);
    pr_chart_opts co;
    pr_chart_opts_init(&co);
    co.title = title;
    char h[32], slo_label[64];
    pr_chart_threshold th = {slo_ns, slo_label};
    if (isfinite(slo_ns)) {
        snprintf(slo_label, sizeof slo_label, "p99 SLO %s",
                 pr_human_duration((int64_t)slo_ns, h, sizeof h));
        co.thresholds = &th;
        co.n_thresholds = 1;
    }
    pr_error e;
    pr_error_clear(&e);
    int rc = 0;
    if (pr_chart_render_file(pr_chart_kind_find("capacity"), &in, &co, path, NULL, &e) < 0) {
        pr_cli_print_error(&e);
        rc = PR_EXIT_ERROR;
    }
    free(xt);
    pr_model_charts_dispose(&mc);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The distinct loads over every series, ascending (at most max). */
static size_t study_loads(json_t *series, double *loads, size_t max)
{
    size_t n = 0, i, k;
    json_t *a, *p;
    json_array_foreach (series, i, a) {
        json_array_foreach (json_object_get(a, "points"), k, p) {
            double l = num(p, "load");
            int seen = 0;
            for (size_t j = 0; j < n; j++)
                seen |= loads[j] == l;
            if (!seen && n < max && isfinite(l))
                loads[n++] = l;
        }
    }
    qsort(loads, n, sizeof *loads, cmp_double);
    return n;
}

static double series_value(json_t *a, double load, const char *key)
{
    size_t k;
    json_t *p;
    json_array_foreach (json_object_get(a, "points"), k, p)
        if (num(p, "load") == load)
            return num(p, key);
    return NAN;
}

/* A study (several series): one table, rows = loads, columns = series, per metric. */
static void print_study(json_t *series, const char *load_name)
{
    double loads[64];
    size_t nl = study_loads(series, loads, 64), ns = json_array_size(series), i;
    json_t *a;
    static const struct {
        const char *title, *key;
    } cols[] = {{"throughput", "throughput_per_s"}, {"p99", "p99_ns"}, {"errors", "error_ratio"}};
    int w = 10;
    json_array_foreach (series, i, a) {
        int len = (int)strlen(json_string_value(json_object_get(a, "name")));
        if (len > w && len <= 30)
            w = len;
    }
    printf("\nstudy: %s by series\n  %12s", load_name, "");
    for (size_t c = 0; c < 3; c++) {
        int span = (w + 1) * (int)ns - 1;
        printf(" %-*s", c == 2 ? 0 : span, cols[c].title);
    }
    printf("\n  %12s", load_name);
    for (size_t c = 0; c < 3; c++)
        json_array_foreach (series, i, a)
            printf(" %*.*s", w, w, json_string_value(json_object_get(a, "name")));
    printf("\n");
    for (size_t l = 0; l < nl; l++) {
        printf("  %12g", loads[l]);
        for (size_t c = 0; c < 3; c++)
            for (i = 0; i < ns; i++) {
                double v = series_value(json_array_get(series, i), loads[l], cols[c].key);
                char h[32];
                if (c == 0)
                    pr_human_rate(v, h, sizeof h);
                else if (c == 1)
                    pr_human_duration(isfinite(v) ? (int64_t)v : PR_UNKNOWN, h, sizeof h);
                else
                    pr_human_percent(v, h, sizeof h);
                printf(" %*s", w + (int)(strlen(h) - pr_cli_text_width(h, (size_t)-1)), h);
            }
        printf("\n");
    }
}

/* A study's charts: one file per metric (FILE-study-throughput.png …), a panel per load, a bar per
 * series (the chart kind "compare"). */
static int draw_study(json_t *series, const char *out)
{
    double loads[12];
    size_t nl = study_loads(series, loads, 12), ns = json_array_size(series);
    static const struct {
        const char *name, *key;
        pr_chart_unit unit;
        double scale;
    } ms[] = {{"throughput", "throughput_per_s", PR_CHART_UNIT_PER_S, 1},
              {"p99", "p99_ns", PR_CHART_UNIT_NS, 1},
              {"errors", "error_ratio", PR_CHART_UNIT_RATIO, 1}};
    const char **names = pr_xcalloc(ns + 1, sizeof *names);
    char(*mnames)[32] = pr_xcalloc(nl + 1, sizeof *mnames);
    pr_chart_metric *metrics = pr_xcalloc(nl + 1, sizeof *metrics);
    double *values = pr_xcalloc(nl * ns + 1, sizeof *values);
    for (size_t r = 0; r < ns; r++)
        names[r] = json_string_value(json_object_get(json_array_get(series, r), "name"));
    int rc = 0;
    const char *dot = strrchr(out, '.');
    for (size_t m = 0; m < 3 && rc == 0; m++) {
        for (size_t l = 0; l < nl; l++) {
            snprintf(mnames[l], sizeof mnames[l], "%s at %g", ms[m].name, loads[l]);
            metrics[l].name = mnames[l];
            metrics[l].unit = ms[m].unit;
            for (size_t r = 0; r < ns; r++)
                values[l * ns + r] = series_value(json_array_get(series, r), loads[l], ms[m].key);
        }
        pr_chart_compare cmp = {ns, names, nl, metrics, values};
        pr_chart_input in;
        memset(&in, 0, sizeof in);
        in.compare = &cmp;
        pr_chart_opts co;
        pr_chart_opts_init(&co);
        char *title = pr_xasprintf("Capacity study: %s by load", ms[m].name);
        co.title = title;
        char *path = pr_xasprintf("%.*s-study-%s%s", (int)(dot - out), out, ms[m].name, dot);
        pr_error e;
        pr_error_clear(&e);
        if (pr_chart_render_file(pr_chart_kind_find("compare"), &in, &co, path, NULL, &e) < 0) {
            pr_cli_print_error(&e);
            rc = PR_EXIT_ERROR;
        } else {
            printf("chart: %s\n", path);
        }
        free(title);
        free(path);
    }
    free(names);
    free(mnames);
    free(metrics);
    free(values);
    return rc;
}

/* What the options ask for. */
typedef struct capacity_args {
    const char *store, *out;
    int json;
    char **by; /* --by keys */
    size_t nby;
    pr_capacity_runs_opts o;
} capacity_args;

/* The load basis every point of every series shares, or NULL. */
static const char *shared_basis(json_t *series)
{
    const char *basis = NULL;
    size_t i, k;
    json_t *a, *p;
    json_array_foreach (series, i, a)
        json_array_foreach (json_object_get(a, "points"), k, p) {
            const char *b = json_string_value(json_object_get(p, "load_basis"));
            if (!b || (basis && strcmp(b, basis)))
                return NULL;
            basis = b;
        }
    return basis;
}

static int print_all(const pr_capacity_runs_opts *o, json_t *doc)
{
    pr_text_visible_json(doc, 0); /* series and run names come from the files */
    json_t *series = json_object_get(doc, "series");
    printf("capacity: load = %s", o->capacity.load_source);
    const char *basis = strncmp(o->capacity.load_source, "tag:", 4) ? shared_basis(series) : NULL;
    if (basis) /* where the loads came from: httperf's rate is of connections × calls */
        printf(" (%s)", basis);
    if (isfinite(o->capacity.slo_p99_ns)) {
        char h[32];
        printf(", SLO p99 <= %s", pr_human_duration((int64_t)o->capacity.slo_p99_ns, h, sizeof h));
    }
    printf(", errors <= %g%%\n", 100 * o->capacity.max_error_ratio);
    size_t i;
    json_t *a;
    json_array_foreach (series, i, a)
        print_series(a, o->nby ? json_string_value(json_object_get(a, "name")) : NULL,
                     o->load_name);
    if (json_array_size(series) > 1)
        print_study(series, o->load_name);
    return 0;
}

static int draw_all(const pr_capacity_runs_opts *o, json_t *series, const char *out, int json)
{
    size_t i;
    json_t *a;
    int rc = 0;
    json_array_foreach (series, i, a) {
        const char *name = json_string_value(json_object_get(a, "name"));
        char *path = NULL,
             *title = pr_xasprintf("Capacity%s%s", name ? ": " : "", name ? name : "");
        if (json_array_size(series) > 1) {
            const char *dot = strrchr(out, '.');
            path = pr_xasprintf("%.*s-%s%s", (int)(dot - out), out, name, dot);
            for (char *q = path + (dot - out) + 1; *q && q < path + strlen(path) - strlen(dot); q++)
                if (*q == '/' || *q == ' ')
                    *q = '_';
        } else {
            path = pr_xstrdup(out);
        }
        if (draw(a, path, title, o->capacity.kind, o->capacity.slo_p99_ns, o->load_name))
            rc = PR_EXIT_ERROR;
        else if (!json)
            printf("chart: %s\n", path);
        free(path);
        free(title);
    }
    if (rc == 0 && json_array_size(series) > 1 && draw_study(series, out))
        rc = PR_EXIT_ERROR;
    pr_chart_shutdown();
    return rc;
}

static int parse_opt(capacity_args *a, int c, const char *arg)
{
    switch (c) {
    case 'S': a->store = arg; return 0;
    case 'j': a->json = 1; return 0;
    case 'l': a->o.load = arg; return 0;
    case 'o': a->out = arg; return 0;
    case 'r': a->o.load_is_rate = 1; return 0;
    case 'b':
        pr_cli_keys_free(a->by, a->nby);
        return pr_cli_parse_keys("--by", arg, &a->by, &a->nby);
    case 's': return pr_cli_parse_slo(arg, &a->o.capacity.slo_p99_ns);
    case 'e': return pr_cli_parse_max_errors(arg, &a->o.capacity.max_error_ratio);
    default: return PR_EXIT_USAGE;
    }
}

static int parse_args(capacity_args *a, int argc, char **argv)
{
    static const struct option longopts[] = {{"store", required_argument, NULL, 'S'},
                                             {"json", no_argument, NULL, 'j'},
                                             {"load", required_argument, NULL, 'l'},
                                             {"slo", required_argument, NULL, 's'},
                                             {"max-errors", required_argument, NULL, 'e'},
                                             {"by", required_argument, NULL, 'b'},
                                             {"output", required_argument, NULL, 'o'},
                                             {"load-is-rate", no_argument, NULL, 'r'},
                                             {NULL, 0, NULL, 0}};
    memset(a, 0, sizeof *a);
    pr_capacity_opts_init(&a->o.capacity);
    int c, rc = 0;
    optind = 1;
    while (rc == 0 && (c = getopt_long(argc, argv, "jo:", longopts, NULL)) != -1)
        rc = parse_opt(a, c, optarg);
    const char *load = a->o.load;
    if (rc == 0 && load && strcmp(load, "rate") && strcmp(load, "concurrency") &&
        strncmp(load, "tag:", 4)) {
        pr_cli_errorf("--load expects rate, concurrency or tag:KEY, got '%s'", load);
        rc = PR_EXIT_USAGE;
    }
    if (rc == 0 && a->out && pr_chart_format_for_path(a->out) < 0) {
        pr_cli_errorf("-o: %s: the chart file must end in .png, .svg or .pdf", a->out);
        rc = PR_EXIT_USAGE;
    }
    a->o.by = a->by;
    a->o.nby = a->nby;
    return rc;
}

static int run(int argc, char **argv)
{
    capacity_args a;
    json_t *doc = NULL;
    pr_cli_runs sel;
    int rc = parse_args(&a, argc, argv);
    if (rc == 0)
        rc = pr_cli_runs_open(&sel, a.store, argv + optind, argc - optind, 0);
    if (rc == 0) {
        pr_error err;
        pr_error_clear(&err);
        if (pr_capacity_runs(sel.st, sel.ids, sel.n, &a.o, &doc, &err) < 0) {
            pr_cli_print_error(&err);
            rc = PR_EXIT_ERROR;
        }
        pr_cli_runs_close(&sel);
    }
    if (rc == 0)
        rc = a.json ? pr_cli_print_json(doc, "-") : print_all(&a.o, doc);
    if (rc == 0 && a.out)
        rc = draw_all(&a.o, json_object_get(doc, "series"), a.out, a.json);
    json_decref(doc);
    pr_cli_keys_free(a.by, a.nby);
    return rc;
}

const pr_command pr_cmd_capacity = {
    "capacity", "capacity [OPTIONS] RUN…|tag:KEY=VALUE…",
    "capacity curve, knee and USL fit of a load series",
    "Orders the runs by load and prints the capacity curve (load, throughput, p99, error ratio,\n"
    "efficiency: throughput / offered rate for a rate load, the scaling (X/N)/(X0/N0) for a\n"
    "concurrency load), the knee (the first load where throughput stops following the load,\n"
    "p99 crosses the SLO or errors pass the limit; it names what crossed), the maximum\n"
    "sustainable throughput and, for a concurrency load with at least 4 distinct loads, a\n"
    "Universal Scalability Law fit X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1)) with its\n"
    "R^2 and residuals and its predicted peak N* = sqrt((1-sigma)/kappa). The load is the runs'\n"
    "offered rate, else their concurrency, or a numeric tag. Two runs at the same load in one\n"
    "series are an error (e.g. a 10 s and a 60 s run): keep them apart with --by.\n"
    "Method: docs/metrics.md.\n\n"
    "options:\n"
    "      --load L             rate, concurrency or tag:KEY (default: what every run records)\n"
    "      --load-is-rate       the tag holds an offered rate (throughput should equal it)\n"
    "      --slo p99=D          latency objective, e.g. p99=250ms\n"
    "      --max-errors R       highest sustainable error ratio (default 1%)\n"
    "      --by tag:KEY[,KEY…]  one series per value of the tags (e.g. two JVMs, or JVM and\n"
    "                           duration), plus a study table and one chart per metric\n"
    "      --json               the analysis as JSON\n"
    "  -o, --output FILE        draw the capacity chart (.png, .svg, .pdf; one per series)\n"
    "      --store PATH         store file\n\n"
    "examples:\n  perfreport capacity tag:study=rates --load tag:rate --load-is-rate --slo "
    "p99=250ms -o cap.png\n"
    "  perfreport capacity --load tag:rate --load-is-rate --by tag:jvm,duration tag:study=jvms\n",
    run};
