/* `perfreport capacity`: a series of runs at increasing load, its knee and a USL fit. */
#include "analysis/capacity.h"
#include "analysis/human.h"
#include "analysis/report.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/selection.h"
#include "model/buf.h"
#include "model/lex.h"
#include "model/text.h"
#include "model/run.h"
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

typedef struct row {
    json_t *model;
    double load;
    char *series;
} row;

/* The USL line: the fit with its quality, or why there is none. */
static void print_usl(json_t *a)
{
    char h[32], r[32];
    json_t *u = json_object_get(a, "usl");
    if (!json_is_object(u)) {
        printf("  USL fit: %s\n", json_string_value(json_object_get(a, "usl_note")));
        if (!strcmp(json_string_value(json_object_get(a, "load_kind")), "rate"))
            printf("    (for a rate series the capacity is the maximum sustainable throughput above;\n"
                   "    the X/offered column is the share of the offered load served)\n");
        return;
    }
    double rse = num(u, "residual_se_per_s"), mr = num(u, "max_residual_per_s");
    pr_human_rate(rse, h);
    pr_human_rate(fabs(mr), r);
    printf("  USL fit: lambda %.4g, sigma %.4g, kappa %.4g on %lld points (%lld degree(s) of "
           "freedom): R^2 %.3f, residual standard error %s, largest residual %s%s at load %g\n",
           num(u, "lambda"), num(u, "sigma"), num(u, "kappa"),
           (long long)json_integer_value(json_object_get(u, "points")),
           (long long)json_integer_value(json_object_get(u, "degrees_of_freedom")), num(u, "r2"), h,
           mr < 0 ? "-" : "+", r, num(u, "max_residual_load"));
    if (isfinite(num(u, "peak_load")))
        printf("    predicted peak %s at load %.3g\n", pr_human_rate(num(u, "peak_throughput_per_s"), h),
               num(u, "peak_load"));
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
    json_array_foreach(json_object_get(a, "points"), i, p) {
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
        printf("  knee: load %g, crossed: %s\n", num(k, "load"), json_string_value(json_object_get(k, "detail")));
    else
        printf("  knee: none within the tested loads\n");
    json_t *m = json_object_get(a, "max_sustainable");
    if (json_is_object(m))
        printf("  maximum sustainable throughput: %s at load %g\n",
               pr_human_rate(num(m, "throughput_per_s"), h), num(m, "load"));
    else
        printf("  maximum sustainable throughput: none (the first load already failed)\n");
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
        snprintf(slo_label, sizeof slo_label, "p99 SLO %s", pr_human_duration((int64_t)slo_ns, h));
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

static size_t strlen_utf8(const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        n += (*p & 0xC0) != 0x80;
    return n;
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
    json_array_foreach(series, i, a) {
        json_array_foreach(json_object_get(a, "points"), k, p) {
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
    json_array_foreach(json_object_get(a, "points"), k, p)
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
    json_array_foreach(series, i, a) {
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
        json_array_foreach(series, i, a)
            printf(" %*.*s", w, w, json_string_value(json_object_get(a, "name")));
    printf("\n");
    for (size_t l = 0; l < nl; l++) {
        printf("  %12g", loads[l]);
        for (size_t c = 0; c < 3; c++)
            for (i = 0; i < ns; i++) {
                double v = series_value(json_array_get(series, i), loads[l], cols[c].key);
                char h[32];
                if (c == 0)
                    pr_human_rate(v, h);
                else if (c == 1)
                    pr_human_duration(isfinite(v) ? (int64_t)v : PR_UNKNOWN, h);
                else
                    pr_human_percent(v, h);
                printf(" %*s", w + (int)(strlen(h) - strlen_utf8(h)), h);
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
    char (*mnames)[32] = pr_xcalloc(nl + 1, sizeof *mnames);
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

/* What run() gathers: the options, then one row per run. */
typedef struct study {
    const char *load;     /* --load */
    int load_is_rate;
    char **by;            /* --by keys */
    size_t nby;
    pr_capacity_opts co;
    pr_load_kind kind;
    const char *load_name;
    int64_t *ids;
    size_t n;
    row *rows;
} study;

/* The series name of a run: its --by tag values joined by '/' ("(no KEY)" for a missing one). */
static char *series_name(const study *S, json_t *tags)
{
    pr_buf b = PR_BUF_INIT;
    for (size_t k = 0; k < S->nby; k++) {
        const char *v = json_string_value(json_object_get(tags, S->by[k]));
        if (v)
            pr_buf_printf(&b, "%s%s", k ? "/" : "", v);
        else
            pr_buf_printf(&b, "%s(no %s)", k ? "/" : "", S->by[k]);
    }
    char *r = pr_buf_steal(&b);
    return r ? r : pr_xstrdup("");
}

/* Loads each run's model, its series and (for --load tag:KEY) its load. */
static int load_rows(pr_store *st, study *S, int *all_rate, int *all_conc)
{
    pr_report_opts ro;
    pr_report_opts_init(&ro);
    ro.timeseries = 0;
    ro.histogram = 0;
    *all_rate = *all_conc = 1;
    S->rows = S->n ? pr_xcalloc(S->n, sizeof *S->rows) : NULL;
    for (size_t i = 0; i < S->n; i++) {
        pr_error err;
        pr_error_clear(&err);
        if (pr_report_run(st, S->ids[i], &ro, &S->rows[i].model, &err) < 0) {
            pr_cli_print_error(&err);
            return PR_EXIT_ERROR;
        }
        json_t *m = S->rows[i].model, *tags = json_object_get(m, "tags");
        *all_rate &= num(m, "offered_rate_per_s") > 0;
        *all_conc &= num(m, "concurrency") > 0;
        if (S->nby)
            S->rows[i].series = series_name(S, tags);
        if (S->load && !strncmp(S->load, "tag:", 4)) {
            const char *v = json_string_value(json_object_get(tags, S->load + 4));
            char *end = NULL;
            S->rows[i].load = v ? strtod(v, &end) : NAN;
            if (!v || end == v || !isfinite(S->rows[i].load)) {
                pr_cli_errorf("run %lld (%s): tag '%s' %s", (long long)S->ids[i],
                              json_string_value(json_object_get(m, "name")), S->load + 4,
                              v ? "is not a number" : "is missing");
                return PR_EXIT_ERROR;
            }
        }
    }
    return 0;
}

/* The load of every row and its kind: --load, else what every run records. */
static int choose_load(study *S, int all_rate, int all_conc)
{
    const char *load = S->load;
    S->kind = PR_LOAD_KIND_CONCURRENCY;
    S->load_name = "load";
    if (load && !strncmp(load, "tag:", 4)) {
        S->kind = S->load_is_rate ? PR_LOAD_KIND_RATE : PR_LOAD_KIND_CONCURRENCY;
        S->co.load_source = load;
        S->load_name = load + 4;
        return 0;
    }
    int rate = (!load && all_rate) || (load && !strcmp(load, "rate"));
    int conc = !rate && ((!load && all_conc) || (load && !strcmp(load, "concurrency")));
    if (!rate && !conc) {
        pr_cli_errorf("the runs do not all record an offered rate or a concurrency: name the "
                      "load with --load tag:KEY (e.g. perfreport tag RUN rate=500)");
        return PR_EXIT_ERROR;
    }
    if ((rate && !all_rate) || (conc && !all_conc)) {
        pr_cli_errorf("--load %s: some runs have no %s (use --load tag:KEY)", load,
                      rate ? "offered rate" : "concurrency");
        return PR_EXIT_ERROR;
    }
    S->kind = rate ? PR_LOAD_KIND_RATE : PR_LOAD_KIND_CONCURRENCY;
    S->co.load_source = rate ? "offered_rate" : "concurrency";
    S->load_name = rate ? "offered/s" : "concurrency";
    for (size_t i = 0; i < S->n; i++)
        S->rows[i].load = num(S->rows[i].model, rate ? "offered_rate_per_s" : "concurrency");
    return 0;
}

/* The tags (other than --by's) whose values differ between two runs, ","-joined into buf. */
static void tags_differing(json_t *ta, json_t *tb, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = 0;
    for (int side = 0; side < 2; side++) {
        const char *k;
        json_t *v;
        json_object_foreach(side ? tb : ta, k, v) {
            json_t *w = json_object_get(side ? ta : tb, k);
            if ((w && json_equal(v, w)) || (side && json_object_get(ta, k)))
                continue;
            int n = snprintf(buf + o, size - o, "%s%s", o ? "," : "", k);
            if (n < 0 || (size_t)n >= size - o)
                return;
            o += (size_t)n;
        }
    }
}

/* Two runs of one series at the same load would be mixed silently: an error naming them. */
static int check_conflicts(const study *S, const size_t *idx, size_t k)
{
    for (size_t i = 0; i < k; i++)
        for (size_t j = i + 1; j < k; j++) {
            const row *a = &S->rows[idx[i]], *b = &S->rows[idx[j]];
            if (a->load != b->load)
                continue;
            char diff[256];
            tags_differing(json_object_get(a->model, "tags"), json_object_get(b->model, "tags"),
                           diff, sizeof diff);
            pr_buf by = PR_BUF_INIT;
            for (size_t q = 0; q < S->nby; q++)
                pr_buf_printf(&by, "%s,", S->by[q]);
            pr_buf_puts(&by, diff);
            char where[160];
            snprintf(where, sizeof where, "%s%s", a->series ? "series " : "one series", a->series ? a->series : "");
            if (*diff)
                pr_cli_errorf("runs %lld (%s) and %lld (%s) are both at load %g in %s; a capacity "
                              "curve takes one run per load. They differ in %s: keep them apart "
                              "with --by tag:%s, or select one of them", (long long)S->ids[idx[i]],
                              json_string_value(json_object_get(a->model, "name")), (long long)S->ids[idx[j]],
                              json_string_value(json_object_get(b->model, "name")), a->load, where, diff, by.p);
            else
                pr_cli_errorf("runs %lld (%s) and %lld (%s) are both at load %g in %s; a capacity "
                              "curve takes one run per load: select one of them (or tell them apart "
                              "with a tag and --by)", (long long)S->ids[idx[i]],
                              json_string_value(json_object_get(a->model, "name")), (long long)S->ids[idx[j]],
                              json_string_value(json_object_get(b->model, "name")), a->load, where);
            pr_buf_dispose(&by);
            return PR_EXIT_ERROR;
        }
    return 0;
}

/* One analysis per series (distinct --by values in order of first appearance). */
static int build_series(study *S, json_t *series)
{
    size_t *idx = pr_xcalloc(S->n + 1, sizeof *idx);
    int rc = 0;
    for (size_t i = 0; i < S->n && rc == 0; i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = S->nby && !strcmp(S->rows[j].series, S->rows[i].series);
        if (seen || (!S->nby && i))
            continue;
        size_t k = 0;
        for (size_t j = i; j < S->n; j++)
            if (!S->nby || !strcmp(S->rows[j].series, S->rows[i].series))
                idx[k++] = j;
        if ((rc = check_conflicts(S, idx, k)) != 0)
            break;
        pr_capacity_point *pts = pr_xcalloc(k, sizeof *pts);
        for (size_t q = 0; q < k; q++) {
            json_t *m = S->rows[idx[q]].model, *st = json_object_get(m, "stats");
            pts[q].run_id = S->ids[idx[q]];
            pts[q].name = json_string_value(json_object_get(m, "name"));
            pts[q].load = S->rows[idx[q]].load;
            pts[q].throughput_per_s = num(st, "throughput_per_s");
            pts[q].p99_ns = num(json_object_get(st, "latency_ns"), "p99");
            pts[q].error_ratio = num(st, "error_ratio");
            if (!isfinite(pts[q].error_ratio) && isfinite(num(st, "success_ratio")))
                pts[q].error_ratio = 1 - num(st, "success_ratio");
        }
        json_t *a = pr_capacity_analyse(pts, k, &S->co);
        json_object_set_new(a, "name", S->nby ? json_string(S->rows[i].series) : json_null());
        json_array_append_new(series, a);
        free(pts);
    }
    free(idx);
    return rc;
}

static int print_all(const study *S, json_t *doc, int json)
{
    json_t *series = json_object_get(doc, "series");
    if (json) {
        char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
        size_t len = strlen(text);
        text[len] = '\n';
        int rc = pr_cli_write_file("-", text, len + 1) < 0 ? PR_EXIT_ERROR : 0;
        free(text);
        return rc;
    }
    pr_text_visible_json(doc, 0); /* series and run names come from the files */
    printf("capacity: load = %s", S->co.load_source);
    if (isfinite(S->co.slo_p99_ns)) {
        char h[32];
        printf(", SLO p99 <= %s", pr_human_duration((int64_t)S->co.slo_p99_ns, h));
    }
    printf(", errors <= %g%%\n", 100 * S->co.max_error_ratio);
    size_t i;
    json_t *a;
    json_array_foreach(series, i, a)
        print_series(a, S->nby ? json_string_value(json_object_get(a, "name")) : NULL, S->load_name);
    if (json_array_size(series) > 1)
        print_study(series, S->load_name);
    return fflush(stdout) != 0 ? PR_EXIT_ERROR : 0;
}

static int draw_all(const study *S, json_t *series, const char *out, int json)
{
    size_t i;
    json_t *a;
    int rc = 0;
    json_array_foreach(series, i, a) {
        const char *name = json_string_value(json_object_get(a, "name"));
        char *path = NULL, *title = pr_xasprintf("Capacity%s%s", name ? ": " : "", name ? name : "");
        if (json_array_size(series) > 1) {
            const char *dot = strrchr(out, '.');
            path = pr_xasprintf("%.*s-%s%s", (int)(dot - out), out, name, dot);
            for (char *q = path + (dot - out) + 1; *q && q < path + strlen(path) - strlen(dot); q++)
                if (*q == '/' || *q == ' ')
                    *q = '_';
        } else {
            path = pr_xstrdup(out);
        }
        if (draw(a, path, title, S->kind, S->co.slo_p99_ns, S->load_name))
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

static int parse_opt(int c, study *S, const char **store, const char **out, int *json)
{
    switch (c) {
    case 'S': *store = optarg; return 0;
    case 'j': *json = 1; return 0;
    case 'l': S->load = optarg; return 0;
    case 'o': *out = optarg; return 0;
    case 'r': S->load_is_rate = 1; return 0;
    case 'b':
        pr_cli_keys_free(S->by, S->nby);
        return pr_cli_parse_keys("--by", optarg, &S->by, &S->nby);
    case 's': return pr_cli_parse_slo(optarg, &S->co.slo_p99_ns);
    case 'e': return pr_cli_parse_max_errors(optarg, &S->co.max_error_ratio);
    default: return PR_EXIT_USAGE;
    }
}

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"store", required_argument, NULL, 'S'},  {"json", no_argument, NULL, 'j'},
        {"load", required_argument, NULL, 'l'},   {"slo", required_argument, NULL, 's'},
        {"max-errors", required_argument, NULL, 'e'}, {"by", required_argument, NULL, 'b'},
        {"output", required_argument, NULL, 'o'}, {"load-is-rate", no_argument, NULL, 'r'},
        {NULL, 0, NULL, 0}};
    const char *store = NULL, *out = NULL;
    int json = 0, c, rc = 0;
    study S;
    memset(&S, 0, sizeof S);
    pr_capacity_opts_init(&S.co);
    optind = 1;
    while (rc == 0 && (c = getopt_long(argc, argv, "jo:", longopts, NULL)) != -1)
        rc = parse_opt(c, &S, &store, &out, &json);
    if (rc == 0 && S.load && strcmp(S.load, "rate") && strcmp(S.load, "concurrency") &&
        strncmp(S.load, "tag:", 4)) {
        pr_cli_errorf("--load expects rate, concurrency or tag:KEY, got '%s'", S.load);
        rc = PR_EXIT_USAGE;
    }
    if (rc == 0 && out && pr_chart_format_for_path(out) < 0) {
        pr_cli_errorf("-o: %s: the chart file must end in .png, .svg or .pdf", out);
        rc = PR_EXIT_USAGE;
    }
    pr_store *st = NULL;
    if (rc == 0)
        rc = pr_cli_open_store(store, 0, &st);
    if (rc == 0)
        rc = pr_cli_select_runs(st, argv + optind, argc - optind, &S.ids, &S.n);
    int all_rate, all_conc;
    if (rc == 0)
        rc = load_rows(st, &S, &all_rate, &all_conc);
    if (rc == 0)
        rc = choose_load(&S, all_rate, all_conc);
    S.co.kind = S.kind;
    json_t *doc = json_object(), *series = json_array();
    json_object_set_new(doc, "schema", json_string("perfreport-capacity"));
    json_object_set_new(doc, "version", json_integer(1));
    json_object_set_new(doc, "series", series);
    if (rc == 0)
        rc = build_series(&S, series);
    if (rc == 0)
        rc = print_all(&S, doc, json);
    if (rc == 0 && out)
        rc = draw_all(&S, series, out, json);
    json_decref(doc);
    for (size_t i = 0; S.rows && i < S.n; i++) {
        json_decref(S.rows[i].model);
        free(S.rows[i].series);
    }
    free(S.rows);
    free(S.ids);
    pr_cli_keys_free(S.by, S.nby);
    if (st)
        pr_store_close(st);
    return rc;
}

const pr_command pr_cmd_capacity = {
    "capacity", "capacity [OPTIONS] RUN…|tag:KEY=VALUE…", "capacity curve, knee and USL fit of a load series",
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
    "examples:\n  perfreport capacity tag:study=rates --load tag:rate --load-is-rate --slo p99=250ms -o cap.png\n"
    "  perfreport capacity --load tag:rate --load-is-rate --by tag:jvm,duration tag:study=jvms\n",
    run};
