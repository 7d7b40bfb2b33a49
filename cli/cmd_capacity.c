/* `perfreport capacity`: a series of runs at increasing load, its knee and a USL fit. */
#include "analysis/capacity.h"
#include "analysis/human.h"
#include "analysis/report.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/selection.h"
#include "model/lex.h"
#include "model/text.h"
#include "model/run.h"
#include "model/xalloc.h"
#include "render/chart.h"
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

/* --slo "p99=250ms" or "250ms". */
static int parse_slo(const char *s, double *ns)
{
    if (!strncmp(s, "p99=", 4))
        s += 4;
    else if (strchr(s, '='))
        return -1;
    int64_t v;
    if (pr_lex_duration(s, strlen(s), 1000000, &v) < 0 || v <= 0)
        return -1;
    *ns = (double)v;
    return 0;
}

static void print_series(json_t *a, const char *series_name, const char *load_name)
{
    char h[32];
    if (series_name)
        printf("series %s\n", series_name);
    printf("  %12s %12s %10s %8s %10s  %s\n", load_name, "throughput", "p99", "errors",
           "efficiency", "run");
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
        printf("  knee: load %g (%s)\n", num(k, "load"), json_string_value(json_object_get(k, "reason")));
    else
        printf("  knee: none within the tested loads\n");
    json_t *m = json_object_get(a, "max_sustainable");
    if (json_is_object(m))
        printf("  maximum sustainable throughput: %s at load %g\n",
               pr_human_rate(num(m, "throughput_per_s"), h), num(m, "load"));
    else
        printf("  maximum sustainable throughput: none (the first load already failed)\n");
    json_t *u = json_object_get(a, "usl");
    if (json_is_object(u)) {
        printf("  USL fit: lambda %.4g, sigma %.4g, kappa %.4g (R^2 %.3f)", num(u, "lambda"),
               num(u, "sigma"), num(u, "kappa"), num(u, "r2"));
        if (isfinite(num(u, "peak_load")))
            printf("; predicted peak %s at load %.3g\n", pr_human_rate(num(u, "peak_throughput_per_s"), h),
                   num(u, "peak_load"));
        else
            printf("; no retrograde region (kappa = 0): throughput levels off at lambda/sigma\n");
    } else {
        printf("  USL fit: needs at least 3 points with throughput\n");
    }
}

static int draw(json_t *a, const char *path, const char *title, pr_load_kind kind)
{
    json_t *pts = json_object_get(a, "points");
    size_t n = json_array_size(pts);
    double *load = pr_xcalloc(n + 1, sizeof *load), *thr = pr_xcalloc(n + 1, sizeof *thr),
           *err = pr_xcalloc(n + 1, sizeof *err);
    int64_t *p99 = pr_xcalloc(n + 1, sizeof *p99);
    for (size_t i = 0; i < n; i++) {
        json_t *p = json_array_get(pts, i);
        load[i] = num(p, "load");
        thr[i] = num(p, "throughput_per_s");
        err[i] = num(p, "error_ratio");
        p99[i] = isfinite(num(p, "p99_ns")) ? (int64_t)num(p, "p99_ns") : -1;
    }
    json_t *k = json_object_get(a, "knee");
    pr_chart_capacity cap = {n, load, thr, p99, err, json_is_object(k) ? (long)num(k, "index") : -1};
    pr_chart_input in;
    memset(&in, 0, sizeof in);
    in.capacity = &cap;
    pr_chart_opts co;
    pr_chart_opts_init(&co);
    co.title = title;
    co.subtitle = kind == PR_LOAD_KIND_RATE ? NULL : "x axis: load (concurrency or tag value)";
    pr_error e;
    pr_error_clear(&e);
    int rc = 0;
    if (pr_chart_render_file(pr_chart_kind_find("capacity"), &in, &co, path, NULL, &e) < 0) {
        pr_cli_print_error(&e);
        rc = PR_EXIT_ERROR;
    }
    free(load);
    free(thr);
    free(err);
    free(p99);
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

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"store", required_argument, NULL, 'S'},  {"json", no_argument, NULL, 'j'},
        {"load", required_argument, NULL, 'l'},   {"slo", required_argument, NULL, 's'},
        {"max-errors", required_argument, NULL, 'e'}, {"by", required_argument, NULL, 'b'},
        {"output", required_argument, NULL, 'o'}, {"load-is-rate", no_argument, NULL, 'r'},
        {NULL, 0, NULL, 0}};
    const char *store = NULL, *load = NULL, *by = NULL, *out = NULL;
    int json = 0, load_is_rate = 0, c;
    pr_capacity_opts co;
    pr_capacity_opts_init(&co);
    optind = 1;
    while ((c = getopt_long(argc, argv, "jo:", longopts, NULL)) != -1) {
        switch (c) {
        case 'S': store = optarg; break;
        case 'j': json = 1; break;
        case 'l': load = optarg; break;
        case 'b': by = optarg; break;
        case 'o': out = optarg; break;
        case 'r': load_is_rate = 1; break;
        case 's':
            if (parse_slo(optarg, &co.slo_p99_ns) < 0) {
                pr_cli_errorf("--slo expects p99=DURATION (e.g. p99=250ms), got '%s'", optarg);
                return PR_EXIT_USAGE;
            }
            break;
        case 'e': {
            char *end;
            double v = strtod(optarg, &end);
            if (*end == '%') {
                v /= 100;
                end++;
            }
            if (*end || !(v >= 0 && v <= 1)) {
                pr_cli_errorf("--max-errors expects a ratio like 1%% or 0.01, got '%s'", optarg);
                return PR_EXIT_USAGE;
            }
            co.max_error_ratio = v;
            break;
        }
        default: return PR_EXIT_USAGE;
        }
    }
    if (load && strcmp(load, "rate") && strcmp(load, "concurrency") && strncmp(load, "tag:", 4)) {
        pr_cli_errorf("--load expects rate, concurrency or tag:KEY, got '%s'", load);
        return PR_EXIT_USAGE;
    }
    if (by && (strncmp(by, "tag:", 4) || !by[4])) {
        pr_cli_errorf("--by expects tag:KEY, got '%s'", by);
        return PR_EXIT_USAGE;
    }
    if (out && pr_chart_format_for_path(out) < 0) {
        pr_cli_errorf("-o: %s: the chart file must end in .png, .svg or .pdf", out);
        return PR_EXIT_USAGE;
    }
    pr_store *st;
    int rc = pr_cli_open_store(store, 0, &st);
    if (rc)
        return rc;
    int64_t *ids = NULL;
    size_t n = 0;
    rc = pr_cli_select_flat(st, argv + optind, argc - optind, &ids, &n);
    row *rows = n ? pr_xcalloc(n, sizeof *rows) : NULL;
    pr_report_opts ro;
    pr_report_opts_init(&ro);
    ro.timeseries = 0;
    ro.histogram = 0;
    int all_rate = 1, all_conc = 1;
    for (size_t i = 0; i < n && rc == 0; i++) {
        pr_error err;
        pr_error_clear(&err);
        if (pr_report_run(st, ids[i], &ro, &rows[i].model, &err) < 0) {
            pr_cli_print_error(&err);
            rc = PR_EXIT_ERROR;
            break;
        }
        json_t *m = rows[i].model;
        if (!(num(m, "offered_rate_per_s") > 0))
            all_rate = 0;
        if (!(num(m, "concurrency") > 0))
            all_conc = 0;
        if (by) {
            const char *v = json_string_value(json_object_get(json_object_get(m, "tags"), by + 4));
            rows[i].series = pr_xstrdup(v ? v : "(untagged)");
        }
        if (load && !strncmp(load, "tag:", 4)) {
            const char *v = json_string_value(json_object_get(json_object_get(m, "tags"), load + 4));
            char *end = NULL;
            rows[i].load = v ? strtod(v, &end) : NAN;
            if (!v || end == v || !isfinite(rows[i].load)) {
                pr_cli_errorf("run %lld (%s): tag '%s' %s", (long long)ids[i],
                              json_string_value(json_object_get(m, "name")), load + 4,
                              v ? "is not a number" : "is missing");
                rc = PR_EXIT_ERROR;
            }
        }
    }
    pr_load_kind kind = PR_LOAD_KIND_CONCURRENCY;
    const char *load_name = "load";
    if (rc == 0) {
        if (load && !strncmp(load, "tag:", 4)) {
            kind = load_is_rate ? PR_LOAD_KIND_RATE : PR_LOAD_KIND_CONCURRENCY;
            co.load_source = load;
            load_name = load + 4;
        } else if ((!load && all_rate) || (load && !strcmp(load, "rate"))) {
            if (!all_rate) {
                pr_cli_errorf("--load rate: some runs have no offered rate (use --load tag:KEY)");
                rc = PR_EXIT_ERROR;
            }
            kind = PR_LOAD_KIND_RATE;
            co.load_source = "offered_rate";
            load_name = "offered/s";
            for (size_t i = 0; i < n; i++)
                rows[i].load = num(rows[i].model, "offered_rate_per_s");
        } else if ((!load && all_conc) || (load && !strcmp(load, "concurrency"))) {
            if (!all_conc) {
                pr_cli_errorf("--load concurrency: some runs have no concurrency (use --load tag:KEY)");
                rc = PR_EXIT_ERROR;
            }
            co.load_source = "concurrency";
            load_name = "concurrency";
            for (size_t i = 0; i < n; i++)
                rows[i].load = num(rows[i].model, "concurrency");
        } else {
            pr_cli_errorf("the runs do not all record an offered rate or a concurrency: name the "
                          "load with --load tag:KEY (e.g. perfreport tag RUN rate=500)");
            rc = PR_EXIT_ERROR;
        }
    }
    co.kind = kind;
    json_t *doc = json_object(), *series = json_array();
    json_object_set_new(doc, "schema", json_string("perfreport-capacity"));
    json_object_set_new(doc, "version", json_integer(1));
    /* series: distinct --by values in order of first appearance */
    for (size_t i = 0; i < n && rc == 0; i++) {
        int seen = 0;
        for (size_t j = 0; j < i; j++)
            seen |= by && !strcmp(rows[j].series, rows[i].series);
        if (seen || (!by && i))
            continue;
        pr_capacity_point *pts = pr_xcalloc(n, sizeof *pts);
        size_t k = 0;
        for (size_t j = i; j < n; j++) {
            if (by && strcmp(rows[j].series, rows[i].series))
                continue;
            json_t *m = rows[j].model, *s = json_object_get(m, "stats");
            pts[k].run_id = ids[j];
            pts[k].name = json_string_value(json_object_get(m, "name"));
            pts[k].load = rows[j].load;
            pts[k].throughput_per_s = num(s, "throughput_per_s");
            pts[k].p99_ns = num(json_object_get(s, "latency_ns"), "p99");
            pts[k].error_ratio = num(s, "error_ratio");
            if (!isfinite(pts[k].error_ratio) && isfinite(num(s, "success_ratio")))
                pts[k].error_ratio = 1 - num(s, "success_ratio");
            k++;
        }
        json_t *a = pr_capacity_analyse(pts, k, &co);
        json_object_set_new(a, "name", by ? json_string(rows[i].series) : json_null());
        json_array_append_new(series, a);
        free(pts);
    }
    json_object_set_new(doc, "series", series);
    if (rc == 0) {
        if (json) {
            char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
            size_t len = strlen(text);
            text[len] = '\n';
            if (pr_cli_write_file("-", text, len + 1) < 0)
                rc = PR_EXIT_ERROR;
            free(text);
        } else {
            pr_text_visible_json(doc, 0); /* series and run names come from the files */
            printf("capacity: load = %s", co.load_source);
            if (isfinite(co.slo_p99_ns)) {
                char h[32];
                printf(", SLO p99 <= %s", pr_human_duration((int64_t)co.slo_p99_ns, h));
            }
            printf(", errors <= %g%%\n", 100 * co.max_error_ratio);
            size_t i;
            json_t *a;
            json_array_foreach(series, i, a)
                print_series(a, by ? json_string_value(json_object_get(a, "name")) : NULL, load_name);
            if (json_array_size(series) > 1)
                print_study(series, load_name);
            if (fflush(stdout) != 0)
                rc = PR_EXIT_ERROR;
        }
    }
    if (rc == 0 && out) {
        size_t i;
        json_t *a;
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
            if (draw(a, path, title, kind))
                rc = PR_EXIT_ERROR;
            else if (!json)
                printf("chart: %s\n", path);
            free(path);
            free(title);
        }
        if (rc == 0 && json_array_size(series) > 1 && draw_study(series, out))
            rc = PR_EXIT_ERROR;
        pr_chart_shutdown();
    }
    json_decref(doc);
    for (size_t i = 0; i < n; i++) {
        json_decref(rows[i].model);
        free(rows[i].series);
    }
    free(rows);
    free(ids);
    pr_store_close(st);
    return rc;
}

const pr_command pr_cmd_capacity = {
    "capacity", "capacity [OPTIONS] RUN…|tag:KEY=VALUE…", "capacity curve, knee and USL fit of a load series",
    "Orders the runs by load and prints the capacity curve (load, throughput, p99, error ratio,\n"
    "scaling efficiency), the knee (the first load where throughput stops following the load,\n"
    "p99 crosses the SLO or errors pass the limit), the maximum sustainable throughput and a\n"
    "Universal Scalability Law fit X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1)) with its\n"
    "predicted peak N* = sqrt((1-sigma)/kappa). The load is the runs' offered rate, else their\n"
    "concurrency, or a numeric tag. Method: docs/metrics.md.\n\n"
    "options:\n"
    "      --load L             rate, concurrency or tag:KEY (default: what every run records)\n"
    "      --load-is-rate       the tag holds an offered rate (throughput should equal it)\n"
    "      --slo p99=D          latency objective, e.g. p99=250ms\n"
    "      --max-errors R       highest sustainable error ratio (default 1%)\n"
    "      --by tag:KEY         one series per value of the tag (e.g. two JVMs), plus a\n"
    "                           study table and one chart per metric\n"
    "      --json               the analysis as JSON\n"
    "  -o, --output FILE        draw the capacity chart (.png, .svg, .pdf; one per series)\n"
    "      --store PATH         store file\n\n"
    "example:\n  perfreport capacity tag:study=rates --load tag:rate --load-is-rate --slo p99=250ms -o cap.png\n",
    run};
