/* `perfreport trend`: one metric over a history of runs, with statistically tested change points. */
#include "analysis/changepoint.h"
#include "analysis/history.h"
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

typedef struct trend {
    const metric *m;
    const char *by;
    double min_effect;
    pr_cp_opts cpo;
    point *pts;
    size_t np, skipped;
} trend;

static int parse_opt(int c, trend *T, const char **store, int *json, int *fail)
{
    char *end;
    switch (c) {
    case 'S': *store = optarg; return 0;
    case 'j': *json = 1; return 0;
    case 'F': *fail = 1; return 0;
    case 'b':
        if (strncmp(optarg, "tag:", 4) || !optarg[4] || strchr(optarg, ',') || strchr(optarg, '=')) {
            pr_cli_errorf("--by expects tag:KEY (one key), got '%s'", optarg);
            return PR_EXIT_USAGE;
        }
        T->by = optarg + 4;
        return 0;
    case 'e':
        T->min_effect = strtod(optarg, &end);
        if (*end == '%') {
            T->min_effect /= 100;
            end++;
        }
        if (*end || !(T->min_effect >= 0)) {
            pr_cli_errorf("--min-effect expects a percentage like 5%%, got '%s'", optarg);
            return PR_EXIT_USAGE;
        }
        return 0;
    case 'a':
        T->cpo.alpha = strtod(optarg, &end);
        if (*end || !(T->cpo.alpha > 0 && T->cpo.alpha < 1)) {
            pr_cli_errorf("--alpha expects a probability like 0.01, got '%s'", optarg);
            return PR_EXIT_USAGE;
        }
        return 0;
    case 'p':
        T->cpo.permutations = atoi(optarg);
        if (T->cpo.permutations < 99 || T->cpo.permutations > 100000) {
            pr_cli_errorf("--permutations expects 99 to 100000, got '%s'", optarg);
            return PR_EXIT_USAGE;
        }
        return 0;
    case 'm':
        T->cpo.min_size = (size_t)atoi(optarg);
        if (T->cpo.min_size < 2 || T->cpo.min_size > 1000) {
            pr_cli_errorf("--min-size expects 2 to 1000, got '%s'", optarg);
            return PR_EXIT_USAGE;
        }
        return 0;
    default: return PR_EXIT_USAGE;
    }
}

/* One point per selected run that has the --by tag and a value for the metric, in order. */
static int collect(pr_store *st, trend *T, const int64_t *ids, size_t n)
{
    pr_report_opts ro;
    pr_report_opts_init(&ro);
    ro.timeseries = 0;
    ro.histogram = 0;
    T->pts = n ? pr_xcalloc(n, sizeof *T->pts) : NULL;
    for (size_t i = 0; i < n; i++) {
        json_t *model;
        pr_error err;
        pr_error_clear(&err);
        if (pr_report_run(st, ids[i], &ro, &model, &err) < 0) {
            pr_cli_print_error(&err);
            return PR_EXIT_ERROR;
        }
        const char *key = T->by ? json_string_value(json_object_get(json_object_get(model, "tags"), T->by)) : NULL;
        double v = metric_value(model, T->m);
        if ((T->by && !key) || !isfinite(v)) {
            T->skipped += T->by && !key ? 0 : 1;
            json_decref(model);
            continue;
        }
        T->pts[T->np++] = (point){ids[i], key, (int64_t)num(model, "start_ns"), v, model};
    }
    if (T->np == 0) {
        if (T->by)
            pr_cli_errorf("no run has the tag '%s' and a value for the metric", T->by);
        else
            pr_cli_errorf("no run has a value for the metric");
        return PR_EXIT_ERROR;
    }
    qsort(T->pts, T->np, sizeof *T->pts, cmp_point);
    return 0;
}

/* Change points of the one-value-per-run series, and whether the test could decide at all. */
static json_t *changepoints_json(trend *T, int *regs, unsigned char *flagged)
{
    double *x = pr_xmalloc((T->np + 1) * sizeof *x);
    for (size_t i = 0; i < T->np; i++)
        x[i] = T->pts[i].v;
    pr_changepoint *cps = NULL;
    size_t ncp = pr_changepoints(x, T->np, &T->cpo, &cps), tau = 0;
    double q, pmin = pr_cp_best_split(x, T->np, T->cpo.min_size, &tau, &q) == 0
                         ? pr_cp_min_p(T->np, tau, &T->cpo) : 1;
    json_t *cp = json_object(), *changes = json_array();
    json_object_set_new(cp, "method", json_string("e-divisive"));
    json_object_set_new(cp, "min_p_value", json_real(pmin));
    json_object_set_new(cp, "can_decide", json_boolean(pmin < T->cpo.alpha));
    json_object_set_new(cp, "runs_needed", json_integer((json_int_t)pr_cp_min_runs(&T->cpo)));
    for (size_t k = 0; k < ncp; k++) {
        pr_changepoint *c = &cps[k];
        double rel = c->mean_before != 0 ? (c->mean_after - c->mean_before) / fabs(c->mean_before) : NAN;
        int worse = T->m->higher_worse ? c->mean_after > c->mean_before : c->mean_after < c->mean_before;
        int large = isfinite(rel) ? fabs(rel) >= T->min_effect : c->mean_after != c->mean_before;
        const char *verdict = !large ? "small" : worse ? "regression" : "improvement";
        if (large && worse && !flagged[c->index]++)
            (*regs)++;
        json_t *e = json_object();
        json_object_set_new(e, "index", json_integer((json_int_t)c->index));
        json_object_set_new(e, "run_id", json_integer(T->pts[c->index].id));
        json_object_set_new(e, "key", T->pts[c->index].key ? json_string(T->pts[c->index].key) : json_null());
        json_object_set_new(e, "mean_before", json_real(c->mean_before));
        json_object_set_new(e, "mean_after", json_real(c->mean_after));
        json_object_set_new(e, "rel", isfinite(rel) ? json_real(rel) : json_null());
        json_object_set_new(e, "p_value", json_real(c->p_value));
        json_object_set_new(e, "stat", json_real(c->stat));
        json_object_set_new(e, "verdict", json_string(verdict));
        json_array_append_new(changes, e);
    }
    json_object_set_new(cp, "change_points", changes);
    free(cps);
    free(x);
    return cp;
}

static json_t *series_json(const trend *T, json_t *steps)
{
    json_t *series = json_array();
    char h[32];
    for (size_t i = 0; i < T->np; i++) {
        json_t *e = json_object(), *st = json_array_get(steps, i);
        json_object_set_new(e, "run_id", json_integer(T->pts[i].id));
        json_object_set(e, "name", json_object_get(T->pts[i].model, "name"));
        json_object_set_new(e, "key", T->pts[i].key ? json_string(T->pts[i].key) : json_null());
        json_object_set_new(e, "value", json_real(T->pts[i].v));
        human(T->m, T->pts[i].v, h);
        json_object_set_new(e, "human", json_string(h));
        json_object_set(e, "vs_previous", st ? json_object_get(st, "vs_previous") : json_null());
        json_object_set(e, "vs_first", st ? json_object_get(st, "vs_first") : json_null());
        json_array_append_new(series, e);
    }
    return series;
}

/* The document: series (with each run's step tests), change points, regressions. */
static int build_doc(pr_store *st, trend *T, json_t **out)
{
    pr_compare_opts co;
    pr_compare_opts_init(&co);
    co.alpha = T->cpo.alpha;
    co.min_effect = T->min_effect;
    int64_t *ids = pr_xmalloc((T->np + 1) * sizeof *ids);
    for (size_t i = 0; i < T->np; i++)
        ids[i] = T->pts[i].id;
    json_t *steps = NULL;
    pr_error err;
    pr_error_clear(&err);
    int rc = pr_history_steps(st, ids, T->np, T->m->name, &co, &steps, &err);
    free(ids);
    if (rc < 0) {
        pr_cli_print_error(&err);
        return PR_EXIT_ERROR;
    }
    unsigned char *flagged = pr_xcalloc(T->np + 1, 1);
    int regs = 0, steps_regs = 0;
    json_t *doc = json_object();
    json_object_set_new(doc, "schema", json_string("perfreport-trend"));
    json_object_set_new(doc, "version", json_integer(2));
    json_object_set_new(doc, "metric", json_string(T->m->name));
    json_object_set_new(doc, "by", T->by ? json_string(T->by) : json_null());
    json_object_set_new(doc, "alpha", json_real(T->cpo.alpha));
    json_object_set_new(doc, "permutations", json_integer(T->cpo.permutations));
    json_object_set_new(doc, "min_effect", json_real(T->min_effect));
    for (size_t i = 1; i < T->np; i++) {
        json_t *d = json_object_get(json_array_get(steps, i), "vs_previous");
        if (json_is_true(json_object_get(d, "is_regression"))) {
            steps_regs++;
            regs += !flagged[i]++;
        }
    }
    json_t *cp = changepoints_json(T, &regs, flagged);
    json_object_set_new(doc, "series", series_json(T, steps));
    json_object_set(doc, "change_points", json_object_get(cp, "change_points"));
    json_object_del(cp, "change_points");
    json_object_set_new(doc, "change_point_test", cp);
    json_t *drift = T->np > 1 ? json_object_get(json_array_get(steps, T->np - 1), "vs_first") : NULL;
    json_object_set(doc, "last_vs_first", drift ? drift : json_null());
    int drift_reg = json_is_true(json_object_get(drift, "is_regression"));
    json_object_set_new(doc, "step_regressions", json_integer(steps_regs));
    json_object_set_new(doc, "regressions", json_integer(regs + (drift_reg && regs == 0)));
    json_object_set_new(doc, "skipped_runs", json_integer((json_int_t)T->skipped));
    json_decref(steps);
    free(flagged);
    *out = doc;
    return 0;
}

static const char *test_words(const char *test)
{
    static const struct {
        const char *test, *words;
    } t[] = {{"bootstrap", "bootstrap interval of the difference"},
             {"welch", "Welch test on the latencies"},
             {"mann-whitney", "Mann-Whitney on the per-interval rates"},
             {"two-proportion", "two-proportion test"}};
    for (size_t i = 0; test && i < sizeof t / sizeof t[0]; i++)
        if (!strcmp(t[i].test, test))
            return t[i].words;
    return NULL;
}

static void print_header(const trend *T, json_t *doc)
{
    json_t *cp = json_object_get(doc, "change_point_test"), *series = json_object_get(doc, "series");
    printf("trend of %s%s%s over %zu run(s); verdict when a change is at least %g%%\n", T->m->name,
           T->by ? " by " : "", T->by ? T->by : " by run start", T->np, 100 * T->min_effect);
    printf("  change points: e-divisive on one value per run, permutation test p < %g, %d permutations",
           T->cpo.alpha, T->cpo.permutations);
    if (T->np < 2 * T->cpo.min_size)
        printf("\n    cannot decide with %zu run(s): a change needs at least %zu runs on each side "
               "(--min-size); at least %lld runs are needed\n", T->np, T->cpo.min_size,
               (long long)json_integer_value(json_object_get(cp, "runs_needed")));
    else if (!json_is_true(json_object_get(cp, "can_decide")))
        printf("\n    cannot decide with %zu run(s): a permutation test over them cannot reach p < %g "
               "(its smallest p here is %.3g); at least %lld runs are needed\n", T->np, T->cpo.alpha,
               json_number_value(json_object_get(cp, "min_p_value")),
               (long long)json_integer_value(json_object_get(cp, "runs_needed")));
    else
        printf("\n");
    const char *test = NULL;
    size_t i;
    json_t *e;
    json_array_foreach(series, i, e)
        if (!test)
            test = json_string_value(json_object_get(json_object_get(e, "vs_previous"), "test"));
    if (test_words(test))
        printf("  each run against the previous one with the samples: %s (p < %g)\n", test_words(test),
               T->cpo.alpha);
    else if (T->np > 1)
        printf("  each run against the previous one: untested (%s)\n",
               T->m->latency && strcmp(T->m->name, "max") && strcmp(T->m->name, "min")
                   ? "the runs have no samples" : "no test for this metric");
}

static void print_text(const trend *T, json_t *doc)
{
    print_header(T, doc);
    json_t *changes = json_object_get(doc, "change_points"), *series = json_object_get(doc, "series");
    printf("  %-16s %12s  %-20s  %s\n", T->by ? T->by : "start", T->m->name, "vs previous", "run");
    size_t k = 0, nc = json_array_size(changes);
    for (size_t i = 0; i < T->np; i++) {
        char hb[32], ha[32], keybuf[40], step[48] = "";
        json_t *c = json_array_get(changes, k);
        if (k < nc && (size_t)json_integer_value(json_object_get(c, "index")) == i) {
            human(T->m, json_number_value(json_object_get(c, "mean_before")), hb);
            human(T->m, json_number_value(json_object_get(c, "mean_after")), ha);
            printf("  ---- change point: %s -> %s (%+.1f%%, p = %.3g): %s\n", hb, ha,
                   100 * json_number_value(json_object_get(c, "rel")),
                   json_number_value(json_object_get(c, "p_value")),
                   json_string_value(json_object_get(c, "verdict")));
            k++;
        }
        json_t *e = json_array_get(series, i), *d = json_object_get(e, "vs_previous");
        if (json_is_object(d))
            snprintf(step, sizeof step, "%8s %s", json_string_value(json_object_get(d, "rel_pct")),
                     json_string_value(json_object_get(d, "verdict")));
        if (T->pts[i].key)
            snprintf(keybuf, sizeof keybuf, "%s", T->pts[i].key);
        else
            snprintf(keybuf, sizeof keybuf, "#%zu", i + 1);
        printf("  %-16s %12s  %-20s  %s (run %lld)\n", keybuf, json_string_value(json_object_get(e, "human")),
               step, json_string_value(json_object_get(T->pts[i].model, "name")), (long long)T->pts[i].id);
    }
    json_t *d = json_object_get(doc, "last_vs_first");
    if (json_is_object(d))
        printf("  last against first: %s -> %s (%s): %s\n", json_string_value(json_object_get(json_array_get(series, 0), "human")),
               json_string_value(json_object_get(json_array_get(series, T->np - 1), "human")),
               json_string_value(json_object_get(d, "rel_pct")), json_string_value(json_object_get(d, "verdict")));
    size_t untested = 0;
    for (size_t i = 1; i < T->np; i++)
        untested += !json_is_boolean(json_object_get(
            json_object_get(json_array_get(series, i), "vs_previous"), "significant"));
    printf("%zu change point(s)%s, %lld step regression(s)", nc,
           json_is_true(json_object_get(json_object_get(doc, "change_point_test"), "can_decide"))
               ? "" : " (the test could not decide)",
           (long long)json_integer_value(json_object_get(doc, "step_regressions")));
    if (untested)
        printf(" (%zu of %zu steps untested)", untested, T->np - 1);
    printf(", %lld regression(s)\n", (long long)json_integer_value(json_object_get(doc, "regressions")));
}

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"store", required_argument, NULL, 'S'},        {"json", no_argument, NULL, 'j'},
        {"by", required_argument, NULL, 'b'},           {"min-effect", required_argument, NULL, 'e'},
        {"alpha", required_argument, NULL, 'a'},        {"fail-on-regression", no_argument, NULL, 'F'},
        {"permutations", required_argument, NULL, 'p'}, {"min-size", required_argument, NULL, 'm'},
        {NULL, 0, NULL, 0}};
    const char *store = NULL;
    int json = 0, fail = 0, c, rc = 0;
    trend T;
    memset(&T, 0, sizeof T);
    T.min_effect = 0.05;
    pr_cp_opts_init(&T.cpo);
    optind = 1;
    while (rc == 0 && (c = getopt_long(argc, argv, "j", longopts, NULL)) != -1)
        rc = parse_opt(c, &T, &store, &json, &fail);
    if (rc)
        return rc;
    if (optind >= argc) {
        pr_cli_errorf("trend needs a METRIC (p50, p90, p95, p99, p99.9, mean, max, min, "
                      "throughput, rate, error_ratio)");
        return PR_EXIT_USAGE;
    }
    for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++)
        if (!strcmp(argv[optind], metrics[i].name))
            T.m = &metrics[i];
    if (!T.m) {
        pr_cli_errorf("unknown metric '%s' (p50, p90, p95, p99, p99.9, mean, max, min, "
                      "throughput, rate, error_ratio)", argv[optind]);
        return PR_EXIT_USAGE;
    }
    optind++;
    pr_store *st;
    if ((rc = pr_cli_open_store(store, 0, &st)) != 0)
        return rc;
    int64_t *ids = NULL;
    size_t n = 0;
    json_t *doc = NULL;
    rc = pr_cli_select_runs(st, argv + optind, argc - optind, &ids, &n);
    if (rc == 0)
        rc = collect(st, &T, ids, n);
    if (rc == 0)
        rc = build_doc(st, &T, &doc);
    if (rc == 0 && json) {
        char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
        size_t len = strlen(text);
        text[len] = '\n';
        if (pr_cli_write_file("-", text, len + 1) < 0)
            rc = PR_EXIT_ERROR;
        free(text);
    } else if (rc == 0) {
        pr_text_visible_json(doc, 0); /* run names and tag values come from the files */
        print_text(&T, doc);
        if (fflush(stdout) != 0)
            rc = PR_EXIT_ERROR;
    }
    if (rc == 0 && fail && json_integer_value(json_object_get(doc, "regressions")) > 0)
        rc = PR_EXIT_THRESHOLD;
    json_decref(doc);
    for (size_t i = 0; i < T.np; i++)
        json_decref(T.pts[i].model);
    free(T.pts);
    free(ids);
    pr_store_close(st);
    return rc;
}

const pr_command pr_cmd_trend = {
    "trend", "trend METRIC [OPTIONS] [RUN…|tag:KEY=VALUE…]", "a metric over a history of runs, with change points",
    "Prints METRIC (p50, p90, p95, p99, p99.9, mean, max, min, throughput, rate, error_ratio)\n"
    "for each run, ordered by the --by tag's value (numeric-aware: build 9 before build 10) or by\n"
    "run start. Two methods decide whether it changed:\n"
    "  - each run against the previous one (and the last against the first) with the samples,\n"
    "    by the test compare uses for the metric (bootstrap interval of a percentile's\n"
    "    difference, Welch for the mean, Mann-Whitney on per-interval rates, two-proportion for\n"
    "    the error ratio): a significant change of at least --min-effect is a regression or an\n"
    "    improvement;\n"
    "  - change points of the one-value-per-run series by E-divisive (energy statistic, binary\n"
    "    segmentation, permutation test; deterministic). With few runs it cannot reach the\n"
    "    significance level whatever the values, and says so (10 runs at the defaults).\n"
    "Method: docs/metrics.md.\n\n"
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
