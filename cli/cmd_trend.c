/* `perfreport trend`: one metric over a history of runs, with statistically tested change points. */
#include "analysis/changepoint.h"
#include "analysis/human.h"
#include "analysis/report.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/selection.h"
#include "model/text.h"
#include "model/xalloc.h"
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct metric {
    const char *name;
    const char *key;     /* stats key, or latency_ns key when latency */
    int latency;
    int higher_worse;
} metric;

static const metric metrics[] = {
    {"p50", "p50", 1, 1},       {"p90", "p90", 1, 1},         {"p95", "p95", 1, 1},
    {"p99", "p99", 1, 1},       {"p99.9", "p99_9", 1, 1},     {"mean", "mean", 1, 1},
    {"max", "max", 1, 1},       {"min", "min", 1, 1},
    {"throughput", "throughput_per_s", 0, 0}, {"rate", "rate_per_s", 0, 0},
    {"error_ratio", "error_ratio", 0, 1},
};

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static double metric_value(json_t *model, const metric *m)
{
    json_t *s = json_object_get(model, "stats");
    if (m->latency) {
        json_t *l = json_object_get(s, "latency_ns");
        double v = num(l, m->key);
        if (!isfinite(v) && !strcmp(m->key, "p99_9"))
            v = num(l, "p99.9"); /* summary-only key */
        return v;
    }
    double v = num(s, m->key);
    if (!isfinite(v) && !strcmp(m->key, "error_ratio") && isfinite(num(s, "success_ratio")))
        v = 1 - num(s, "success_ratio");
    return v;
}

static void human(const metric *m, double v, char *buf)
{
    if (m->latency)
        pr_human_duration(isfinite(v) ? (int64_t)llround(v) : PR_UNKNOWN, buf);
    else if (!strcmp(m->key, "error_ratio"))
        pr_human_percent(v, buf);
    else
        pr_human_rate(v, buf);
}

typedef struct point {
    int64_t id;
    const char *key;   /* ordering key (tag value) or NULL */
    int64_t start_ns;
    double v;
    json_t *model;
} point;

static int cmp_point(const void *a, const void *b)
{
    const point *x = a, *y = b;
    if (x->key && y->key) {
        int c = strverscmp(x->key, y->key);
        if (c)
            return c;
    }
    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"store", required_argument, NULL, 'S'},        {"json", no_argument, NULL, 'j'},
        {"by", required_argument, NULL, 'b'},           {"min-effect", required_argument, NULL, 'e'},
        {"alpha", required_argument, NULL, 'a'},        {"fail-on-regression", no_argument, NULL, 'F'},
        {"permutations", required_argument, NULL, 'p'}, {"min-size", required_argument, NULL, 'm'},
        {NULL, 0, NULL, 0}};
    const char *store = NULL, *by = NULL;
    int json = 0, fail = 0, c;
    double min_effect = 0.05;
    pr_cp_opts cpo;
    pr_cp_opts_init(&cpo);
    optind = 1;
    while ((c = getopt_long(argc, argv, "j", longopts, NULL)) != -1) {
        char *end;
        switch (c) {
        case 'S': store = optarg; break;
        case 'j': json = 1; break;
        case 'F': fail = 1; break;
        case 'b':
            if (strncmp(optarg, "tag:", 4) || !optarg[4]) {
                pr_cli_errorf("--by expects tag:KEY, got '%s'", optarg);
                return PR_EXIT_USAGE;
            }
            by = optarg + 4;
            break;
        case 'e':
            min_effect = strtod(optarg, &end);
            if (*end == '%') {
                min_effect /= 100;
                end++;
            }
            if (*end || !(min_effect >= 0)) {
                pr_cli_errorf("--min-effect expects a percentage like 5%%, got '%s'", optarg);
                return PR_EXIT_USAGE;
            }
            break;
        case 'a':
            cpo.alpha = strtod(optarg, &end);
            if (*end || !(cpo.alpha > 0 && cpo.alpha < 1)) {
                pr_cli_errorf("--alpha expects a probability like 0.01, got '%s'", optarg);
                return PR_EXIT_USAGE;
            }
            break;
        case 'p':
            cpo.permutations = atoi(optarg);
            if (cpo.permutations < 99 || cpo.permutations > 100000) {
                pr_cli_errorf("--permutations expects 99 to 100000, got '%s'", optarg);
                return PR_EXIT_USAGE;
            }
            break;
        case 'm':
            cpo.min_size = (size_t)atoi(optarg);
            if (cpo.min_size < 2 || cpo.min_size > 1000) {
                pr_cli_errorf("--min-size expects 2 to 1000, got '%s'", optarg);
                return PR_EXIT_USAGE;
            }
            break;
        default: return PR_EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        pr_cli_errorf("trend needs a METRIC (p50, p90, p95, p99, p99.9, mean, max, min, "
                      "throughput, rate, error_ratio)");
        return PR_EXIT_USAGE;
    }
    const metric *m = NULL;
    for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++)
        if (!strcmp(argv[optind], metrics[i].name))
            m = &metrics[i];
    if (!m) {
        pr_cli_errorf("unknown metric '%s' (p50, p90, p95, p99, p99.9, mean, max, min, "
                      "throughput, rate, error_ratio)", argv[optind]);
        return PR_EXIT_USAGE;
    }
    optind++;
    pr_store *st;
    int rc = pr_cli_open_store(store, 0, &st);
    if (rc)
        return rc;
    int64_t *ids = NULL;
    size_t n = 0;
    rc = pr_cli_select_flat(st, argv + optind, argc - optind, &ids, &n);
    point *pts = n ? pr_xcalloc(n, sizeof *pts) : NULL;
    size_t np = 0, skipped = 0;
    pr_report_opts ro;
    pr_report_opts_init(&ro);
    ro.timeseries = 0;
    ro.histogram = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        json_t *model;
        pr_error err;
        pr_error_clear(&err);
        if (pr_report_run(st, ids[i], &ro, &model, &err) < 0) {
            pr_cli_print_error(&err);
            rc = PR_EXIT_ERROR;
            break;
        }
        const char *key = by ? json_string_value(json_object_get(json_object_get(model, "tags"), by)) : NULL;
        double v = metric_value(model, m);
        if ((by && !key) || !isfinite(v)) {
            skipped += by && !key ? 0 : 1;
            json_decref(model);
            continue;
        }
        pts[np++] = (point){ids[i], key, (int64_t)num(model, "start_ns"), v, model};
    }
    if (rc == 0 && np == 0) {
        pr_cli_errorf(by ? "no run has the tag '%s' and a value for the metric" : "no run has a value for the metric%s",
                      by ? by : "");
        rc = PR_EXIT_ERROR;
    }
    json_t *doc = NULL;
    int regressions = 0;
    if (rc == 0) {
        qsort(pts, np, sizeof *pts, cmp_point);
        double *x = pr_xmalloc(np * sizeof *x);
        for (size_t i = 0; i < np; i++)
            x[i] = pts[i].v;
        pr_changepoint *cps = NULL;
        size_t ncp = pr_changepoints(x, np, &cpo, &cps);
        doc = json_object();
        json_object_set_new(doc, "schema", json_string("perfreport-trend"));
        json_object_set_new(doc, "version", json_integer(1));
        json_object_set_new(doc, "metric", json_string(m->name));
        json_object_set_new(doc, "by", by ? json_string(by) : json_null());
        json_object_set_new(doc, "method", json_string("e-divisive"));
        json_object_set_new(doc, "alpha", json_real(cpo.alpha));
        json_object_set_new(doc, "permutations", json_integer(cpo.permutations));
        json_object_set_new(doc, "min_effect", json_real(min_effect));
        json_t *series = json_array(), *changes = json_array();
        char h[32];
        for (size_t i = 0; i < np; i++) {
            json_t *e = json_object();
            json_object_set_new(e, "run_id", json_integer(pts[i].id));
            json_object_set(e, "name", json_object_get(pts[i].model, "name"));
            json_object_set_new(e, "key", pts[i].key ? json_string(pts[i].key) : json_null());
            json_object_set_new(e, "value", json_real(pts[i].v));
            human(m, pts[i].v, h);
            json_object_set_new(e, "human", json_string(h));
            json_array_append_new(series, e);
        }
        for (size_t k = 0; k < ncp; k++) {
            pr_changepoint *cp = &cps[k];
            double rel = cp->mean_before != 0 ? (cp->mean_after - cp->mean_before) / fabs(cp->mean_before) : NAN;
            int worse = m->higher_worse ? cp->mean_after > cp->mean_before : cp->mean_after < cp->mean_before;
            int large = isfinite(rel) ? fabs(rel) >= min_effect : cp->mean_after != cp->mean_before;
            const char *verdict = !large ? "small" : worse ? "regression" : "improvement";
            regressions += large && worse;
            json_t *e = json_object();
            json_object_set_new(e, "index", json_integer((json_int_t)cp->index));
            json_object_set_new(e, "run_id", json_integer(pts[cp->index].id));
            json_object_set_new(e, "key", pts[cp->index].key ? json_string(pts[cp->index].key) : json_null());
            json_object_set_new(e, "mean_before", json_real(cp->mean_before));
            json_object_set_new(e, "mean_after", json_real(cp->mean_after));
            json_object_set_new(e, "rel", isfinite(rel) ? json_real(rel) : json_null());
            json_object_set_new(e, "p_value", json_real(cp->p_value));
            json_object_set_new(e, "stat", json_real(cp->stat));
            json_object_set_new(e, "verdict", json_string(verdict));
            json_array_append_new(changes, e);
        }
        json_object_set_new(doc, "series", series);
        json_object_set_new(doc, "change_points", changes);
        json_object_set_new(doc, "regressions", json_integer(regressions));
        json_object_set_new(doc, "skipped_runs", json_integer((json_int_t)skipped));
        if (json) {
            char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
            size_t len = strlen(text);
            text[len] = '\n';
            if (pr_cli_write_file("-", text, len + 1) < 0)
                rc = PR_EXIT_ERROR;
            free(text);
        } else {
            pr_text_visible_json(doc, 0); /* run names and tag values come from the files */
            printf("trend of %s%s%s over %zu run(s); change points: e-divisive, permutation test "
                   "p < %g, %d permutations; verdict when the step is at least %g%%\n",
                   m->name, by ? " by " : "", by ? by : " by run start", np, cpo.alpha,
                   cpo.permutations, 100 * min_effect);
            printf("  %-16s %12s  %s\n", by ? by : "start", m->name, "run");
            size_t k = 0;
            for (size_t i = 0; i < np; i++) {
                char hb[32], ha[32];
                if (k < ncp && cps[k].index == i) {
                    json_t *e = json_array_get(changes, k);
                    double rel = json_number_value(json_object_get(e, "rel"));
                    human(m, cps[k].mean_before, hb);
                    human(m, cps[k].mean_after, ha);
                    printf("  ---- change point: %s -> %s (%+.1f%%, p = %.3g): %s\n", hb, ha,
                           100 * rel, cps[k].p_value,
                           json_string_value(json_object_get(e, "verdict")));
                    k++;
                }
                human(m, pts[i].v, h);
                char keybuf[40];
                if (pts[i].key)
                    snprintf(keybuf, sizeof keybuf, "%s", pts[i].key);
                else
                    snprintf(keybuf, sizeof keybuf, "#%zu", i + 1);
                printf("  %-16s %12s  %s (run %lld)\n", keybuf, h,
                       json_string_value(json_object_get(pts[i].model, "name")), (long long)pts[i].id);
            }
            printf("%zu change point(s), %d regression(s)\n", ncp, regressions);
            if (fflush(stdout) != 0)
                rc = PR_EXIT_ERROR;
        }
        free(cps);
        free(x);
        if (rc == 0 && fail && regressions)
            rc = PR_EXIT_THRESHOLD;
    }
    json_decref(doc);
    for (size_t i = 0; i < np; i++)
        json_decref(pts[i].model);
    free(pts);
    free(ids);
    pr_store_close(st);
    return rc;
}

const pr_command pr_cmd_trend = {
    "trend", "trend METRIC [OPTIONS] [RUN…|tag:KEY=VALUE…]", "a metric over a history of runs, with change points",
    "Prints METRIC (p50, p90, p95, p99, p99.9, mean, max, min, throughput, rate, error_ratio)\n"
    "for each run, ordered by the --by tag's value (numeric-aware: build 9 before build 10) or by\n"
    "run start, and marks the change points found by E-divisive (energy statistic, binary\n"
    "segmentation, permutation test; deterministic). A change point whose step is at least\n"
    "--min-effect in the bad direction is a regression. Method: docs/metrics.md.\n\n"
    "options:\n"
    "      --by tag:KEY         order by this tag (runs without it are left out)\n"
    "      --alpha A            significance level of the permutation test (default 0.01)\n"
    "      --permutations N     permutations per test (default 999)\n"
    "      --min-size N         shortest segment between change points (default 3)\n"
    "      --min-effect P       smallest step called a regression (default 5%)\n"
    "      --fail-on-regression exit 3 when a regression is found\n"
    "      --json               the series and change points as JSON\n"
    "      --store PATH         store file\n\n"
    "example:\n  perfreport trend p99 --by tag:build --fail-on-regression\n",
    run};
