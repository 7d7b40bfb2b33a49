/* `perfreport trend`: one metric over a history of runs, with statistically tested change points. */
#include "analysis/trend.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "model/text.h"
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int parse_opt(int c, pr_trend_opts *T, const char **store, int *json, int *fail)
{
    char *end;
    switch (c) {
    case 'S': *store = optarg; return 0;
    case 'j': *json = 1; return 0;
    case 'F': *fail = 1; return 0;
    case 'b':
        if (strncmp(optarg, "tag:", 4) || !optarg[4] || strchr(optarg, ',') ||
            strchr(optarg, '=')) {
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
        T->cp.alpha = strtod(optarg, &end);
        if (*end || !(T->cp.alpha > 0 && T->cp.alpha < 1)) {
            pr_cli_errorf("--alpha expects a probability like 0.01, got '%s'", optarg);
            return PR_EXIT_USAGE;
        }
        return 0;
    case 'p':
        T->cp.permutations = atoi(optarg);
        if (T->cp.permutations < 99 || T->cp.permutations > 100000) {
            pr_cli_errorf("--permutations expects 99 to 100000, got '%s'", optarg);
            return PR_EXIT_USAGE;
        }
        return 0;
    case 'm':
        T->cp.min_size = (size_t)atoi(optarg);
        if (T->cp.min_size < 2 || T->cp.min_size > 1000) {
            pr_cli_errorf("--min-size expects 2 to 1000, got '%s'", optarg);
            return PR_EXIT_USAGE;
        }
        return 0;
    default: return PR_EXIT_USAGE;
    }
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

static void print_header(const pr_trend_opts *T, json_t *doc)
{
    json_t *cp = json_object_get(doc, "change_point_test"),
           *series = json_object_get(doc, "series");
    size_t np = json_array_size(series);
    printf("trend of %s%s%s over %zu run(s); verdict when a change is at least %g%%\n",
           T->metric->name, T->by ? " by " : "", T->by ? T->by : " by run start", np,
           100 * T->min_effect);
    printf("  change points: e-divisive on one value per run, permutation test p < %g, %d "
           "permutations",
           T->cp.alpha, T->cp.permutations);
    if (np < 2 * T->cp.min_size)
        printf("\n    cannot decide with %zu run(s): a change needs at least %zu runs on each side "
               "(--min-size); at least %lld runs are needed\n",
               np, T->cp.min_size,
               (long long)json_integer_value(json_object_get(cp, "runs_needed")));
    else if (!json_is_true(json_object_get(cp, "can_decide")))
        printf(
            "\n    cannot decide with %zu run(s): a permutation test over them cannot reach p < %g "
            "(its smallest p here is %.3g); at least %lld runs are needed\n",
            np, T->cp.alpha, json_number_value(json_object_get(cp, "min_p_value")),
            (long long)json_integer_value(json_object_get(cp, "runs_needed")));
    else
        printf("\n");
    const char *test = NULL;
    size_t i;
    json_t *e;
    json_array_foreach (series, i, e)
        if (!test)
            test = json_string_value(json_object_get(json_object_get(e, "vs_previous"), "test"));
    if (test_words(test))
        printf("  each run against the previous one with the samples: %s (p < %g)\n",
               test_words(test), T->cp.alpha);
    else if (np > 1)
        printf("  each run against the previous one: untested (%s)\n",
               T->metric->latency && strcmp(T->metric->name, "max") &&
                       strcmp(T->metric->name, "min")
                   ? "the runs have no samples"
                   : "no test for this metric");
}

static void print_text(const pr_trend_opts *T, json_t *doc)
{
    print_header(T, doc);
    json_t *changes = json_object_get(doc, "change_points"),
           *series = json_object_get(doc, "series");
    size_t np = json_array_size(series);
    printf("  %-16s %12s  %-20s  %s\n", T->by ? T->by : "start", T->metric->name, "vs previous",
           "run");
    size_t k = 0, nc = json_array_size(changes);
    for (size_t i = 0; i < np; i++) {
        char hb[32], ha[32], keybuf[40], step[48] = "";
        json_t *c = json_array_get(changes, k);
        if (k < nc && (size_t)json_integer_value(json_object_get(c, "index")) == i) {
            pr_trend_human(T->metric, json_number_value(json_object_get(c, "mean_before")), hb,
                           sizeof hb);
            pr_trend_human(T->metric, json_number_value(json_object_get(c, "mean_after")), ha,
                           sizeof ha);
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
        const char *key = json_string_value(json_object_get(e, "key"));
        if (key)
            snprintf(keybuf, sizeof keybuf, "%s", key);
        else
            snprintf(keybuf, sizeof keybuf, "#%zu", i + 1);
        printf("  %-16s %12s  %-20s  %s (run %lld)\n", keybuf,
               json_string_value(json_object_get(e, "human")), step,
               json_string_value(json_object_get(e, "name")),
               (long long)json_integer_value(json_object_get(e, "run_id")));
    }
    json_t *d = json_object_get(doc, "last_vs_first");
    if (json_is_object(d))
        printf("  last against first: %s -> %s (%s): %s\n",
               json_string_value(json_object_get(json_array_get(series, 0), "human")),
               json_string_value(json_object_get(json_array_get(series, np - 1), "human")),
               json_string_value(json_object_get(d, "rel_pct")),
               json_string_value(json_object_get(d, "verdict")));
    size_t untested = 0;
    for (size_t i = 1; i < np; i++)
        untested += !json_is_boolean(json_object_get(
            json_object_get(json_array_get(series, i), "vs_previous"), "significant"));
    printf("%zu change point(s)%s, %lld step regression(s)", nc,
           json_is_true(json_object_get(json_object_get(doc, "change_point_test"), "can_decide"))
               ? ""
               : " (the test could not decide)",
           (long long)json_integer_value(json_object_get(doc, "step_regressions")));
    if (untested)
        printf(" (%zu of %zu steps untested)", untested, np - 1);
    printf(", %lld regression(s)\n",
           (long long)json_integer_value(json_object_get(doc, "regressions")));
}

static int parse_args(pr_trend_opts *T, const char **store, int *json, int *fail, int argc,
                      char **argv)
{
    static const struct option longopts[] = {{"store", required_argument, NULL, 'S'},
                                             {"json", no_argument, NULL, 'j'},
                                             {"by", required_argument, NULL, 'b'},
                                             {"min-effect", required_argument, NULL, 'e'},
                                             {"alpha", required_argument, NULL, 'a'},
                                             {"fail-on-regression", no_argument, NULL, 'F'},
                                             {"permutations", required_argument, NULL, 'p'},
                                             {"min-size", required_argument, NULL, 'm'},
                                             {NULL, 0, NULL, 0}};
    int c, rc = 0;
    pr_trend_opts_init(T);
    optind = 1;
    while (rc == 0 && (c = getopt_long(argc, argv, "j", longopts, NULL)) != -1)
        rc = parse_opt(c, T, store, json, fail);
    if (rc)
        return rc;
    if (optind >= argc) {
        pr_cli_errorf("trend needs a METRIC (" PR_TREND_METRICS ")");
        return PR_EXIT_USAGE;
    }
    T->metric = pr_trend_metric_find(argv[optind]);
    if (!T->metric) {
        pr_cli_errorf("unknown metric '%s' (" PR_TREND_METRICS ")", argv[optind]);
        return PR_EXIT_USAGE;
    }
    optind++;
    return 0;
}

static int run(int argc, char **argv)
{
    const char *store = NULL;
    int json = 0, fail = 0;
    pr_trend_opts T;
    json_t *doc = NULL;
    pr_cli_runs sel;
    int rc = parse_args(&T, &store, &json, &fail, argc, argv);
    if (rc == 0)
        rc = pr_cli_runs_open(&sel, store, argv + optind, argc - optind, 0);
    if (rc == 0) {
        pr_error err;
        pr_error_clear(&err);
        if (pr_trend_build(sel.st, sel.ids, sel.n, &T, &doc, &err) < 0) {
            pr_cli_print_error(&err);
            rc = PR_EXIT_ERROR;
        }
        pr_cli_runs_close(&sel);
    }
    if (rc == 0 && json)
        rc = pr_cli_print_json(doc, "-");
    else if (rc == 0) {
        pr_text_visible_json(doc, 0); /* run names and tag values come from the files */
        print_text(&T, doc);
    }
    if (rc == 0 && fail && json_integer_value(json_object_get(doc, "regressions")) > 0)
        rc = PR_EXIT_THRESHOLD;
    json_decref(doc);
    return rc;
}

const pr_command pr_cmd_trend = {
    "trend", "trend METRIC [OPTIONS] [RUN…|tag:KEY=VALUE…]",
    "a metric over a history of runs, with change points",
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
