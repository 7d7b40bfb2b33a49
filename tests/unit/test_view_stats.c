/* Unit tests: the views' figures straight from the columns (analysis/view_stats.c) against
 * the report model's (pr_report_run with the options cli/views.c used) on random runs: in
 * and out of time order, unknown starts, latencies and outcomes, Transaction Controller
 * samples, equal latencies, tiny runs, one interval, and the runs it leaves to the model. Every
 * figure must be the same, computed from the store and while the blocks are stored (the
 * ingest's feed); the order statistics also against sorted copies. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analysis/report.h"
#include "analysis/view_stats.h"
#include "model/native.h"
#include "tests/unit/lib/gen.h"
#include "tests/unit/lib/ingest.h"
#include "model/xalloc.h"

static int64_t jint(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : PR_UNKNOWN;
}

static double jreal(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void same_real(double a, double b)
{
    if (isnan(a) || isnan(b))
        assert_true(isnan(a) && isnan(b));
    else
        assert_true(a == b);
}

/* The model's figures, read as cli/views.c reads them, against s and its points. */
static void check_against_model(pr_store *st, int64_t id, const pr_store_stats *s)
{
    pr_report_opts o;
    pr_report_opts_init(&o);
    o.histogram = 0;
    o.findings = 0;
    o.rows = 0;
    json_t *run;
    pr_error err;
    assert_int_equal(pr_report_run(st, id, &o, &run, &err), 0);
    json_t *j = json_object_get(run, "stats"), *lat = json_object_get(j, "latency_ns");
    assert_int_equal(s->requests, jint(j, "requests"));
    assert_int_equal(s->successes, jint(j, "successes"));
    assert_int_equal(s->errors, jint(j, "errors"));
    same_real(s->error_ratio, jreal(j, "error_ratio"));
    assert_int_equal(s->duration_ns, jint(j, "duration_ns"));
    same_real(s->rate_per_s, jreal(j, "rate_per_s"));
    same_real(s->throughput_per_s, jreal(j, "throughput_per_s"));
    same_real(s->apdex, jreal(json_object_get(j, "apdex"), "score"));
    static const char *const keys[] = {"min", "mean", "p50", "p90", "p95", "p99", "p99_9", "max"};
    const int64_t got[] = {s->min_ns, s->mean_ns, s->p50_ns,  s->p90_ns,
                           s->p95_ns, s->p99_ns,  s->p999_ns, s->max_ns};
    for (size_t i = 0; i < 8; i++)
        assert_int_equal(got[i], jint(lat, keys[i]));
    json_t *ts = json_object_get(run, "timeseries"), *pts = json_object_get(ts, "points");
    assert_int_equal(s->interval_ns, jint(ts, "interval_ns"));
    assert_int_equal(s->npoints, json_array_size(pts));
    int64_t t0 = jint(ts, "start_ns");
    for (size_t i = 0; i < s->npoints; i++) {
        json_t *p = json_array_get(pts, i);
        const pr_store_point *q = &s->points[i];
        assert_int_equal(q->t_ns, t0 + jint(p, "t_ns"));
        assert_int_equal(q->requests, jint(p, "requests"));
        assert_int_equal(q->successes, jint(p, "successes"));
        assert_int_equal(q->errors, jint(p, "errors"));
        assert_int_equal(q->bytes_in, jint(p, "bytes_in"));
        same_real(q->throughput_per_s, jreal(p, "throughput_per_s"));
        same_real(q->rate_per_s, jreal(p, "rate_per_s"));
        assert_int_equal(q->p50_ns, jint(p, "p50_ns"));
        assert_int_equal(q->p90_ns, jint(p, "p90_ns"));
        assert_int_equal(q->p99_ns, jint(p, "p99_ns"));
        assert_int_equal(q->max_ns, jint(p, "max_ns"));
    }
    json_decref(run);
}

/* WIDE_HEAD, WIDE_TAIL: in order, latencies past 2^32 ns in the first or last quarter only (one
 * half of a two-part scan widened, the other not); REWOUND: in order, the second half starting
 * again from the first's start (gen_native writes blocks of 1,000 samples: at 200,000 the halves
 * of a two-part scan, each in order, the second's first interval before the first's last). */
enum {
    SHUFFLED,
    IN_ORDER,
    SAME_LATENCY,
    NO_OUTCOMES,
    NO_LATENCY,
    APDEX_BOUNDS,
    NEGATIVE,
    WIDE_HEAD,
    WIDE_TAIL,
    REWOUND
};

/* n random samples of layout `how` ingested as a native file; the figures of both ways. */
static void run_case(size_t n, uint64_t seed, int how)
{
    pr_store *st = test_store_open();
    pr_run *run = pr_run_new();
    pr_sample *s = calloc(n ? n : 1, sizeof *s);
    gen_samples(run, s, n, seed);
    for (size_t i = 0; i < n; i++) {
        int in_order = how == IN_ORDER || how == WIDE_HEAD || how == WIDE_TAIL || how == REWOUND;
        size_t at = how == REWOUND && i >= n / 2 ? i - n / 2 : i;
        if (in_order && (s[i].start_ns != PR_UNKNOWN || how == REWOUND)) /* every start known */
            s[i].start_ns = 1796051469000000000LL + (int64_t)at * 1000003;
        if ((how == WIDE_HEAD && i < n / 4 && i % 7 == 0) ||
            (how == WIDE_TAIL && i >= n - n / 4 && i % 7 == 0))
            s[i].latency_ns = 5000000000LL + (int64_t)i;
        if (how == SAME_LATENCY)
            s[i].latency_ns = 7000000;
        if (how == NO_OUTCOMES) {
            s[i].success = PR_SUCCESS_UNKNOWN;
            s[i].status = 0;
            s[i].error = PR_NOSTR;
        }
        if (how == NO_LATENCY)
            s[i].latency_ns = PR_UNKNOWN;
        if (how == APDEX_BOUNDS) /* at and past T (500 ms) and F (2 s) */
            s[i].latency_ns = (int64_t[]){500000000, 500000001, 2000000000, 2000000001}[i % 4];
        if (how == NEGATIVE && i % 5 == 0) /* a clock that stepped back */
            s[i].latency_ns = -(int64_t)i * 1000;
    }
    pr_view_feed *feed = pr_view_feed_new(); /* the same figures while the blocks are stored */
    test_ingest_observe(pr_view_feed_block, feed);
    int64_t id = test_ingest_samples(st, run, s, n, "r");
    test_ingest_observe(NULL, NULL);
    assert_true(id > 0);
    pr_run *stored;
    pr_error err;
    assert_int_equal(pr_store_load_run(st, id, &stored, &err), 0);
    pr_store_stats vs;
    pr_store_point *pts = NULL;
    assert_int_equal(pr_view_stats(st, stored, &vs, &pts, &err), 1);
    check_against_model(st, id, &vs);
    pr_store_stats fs;
    pr_store_point *fpts = NULL;
    int fed = pr_view_feed_finish(feed, stored, &fs, &fpts);
    assert_int_equal(fed, n > 0 && stored->start_ns != PR_UNKNOWN); /* the footer has bounds */
    if (fed)
        check_against_model(st, id, &fs);
    pr_view_feed_free(feed);
    free(fpts);
    free(pts);
    pr_run_free(stored);
    free(s);
    pr_run_free(run);
    test_store_close(st);
}

static void test_view_stats__match_the_model(void **state)
{
    (void)state;
    static const struct {
        size_t n;
        int how;
    } cases[] = {{30000, SHUFFLED},   {20000, IN_ORDER},   {5000, SAME_LATENCY},
                 {3000, NO_OUTCOMES}, {2000, NO_LATENCY},  {1, SHUFFLED},
                 {2, IN_ORDER},       {37, SHUFFLED},      {250000, IN_ORDER},
                 {120000, SHUFFLED},  {0, SHUFFLED},       {4000, APDEX_BOUNDS},
                 {9000, NEGATIVE},    {200000, WIDE_HEAD}, {200000, WIDE_TAIL},
                 {200000, REWOUND},   {150000, NEGATIVE}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(cases[i].n, 100 + i, cases[i].how);
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* pr_select_ranks against a sorted copy: random, few distinct and sorted values. */
static void test_view_stats__select_ranks(void **state)
{
    (void)state;
    uint64_t r = 88172645463325252ull;
    for (size_t round = 0; round < 300; round++) {
        size_t n = 1 + round * 37 % 5000;
        int64_t *v = malloc(n * sizeof *v), *c = malloc(n * sizeof *c);
        for (size_t i = 0; i < n; i++) {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            v[i] = round % 3 == 0   ? (int64_t)(r % 5)
                   : round % 3 == 1 ? (int64_t)i
                                    : (int64_t)(r >> 1) - INT64_MAX / 2;
        }
        memcpy(c, v, n * sizeof *v);
        qsort(c, n, sizeof *c, cmp_i64);
        size_t rank[6] = {1, 1 + n / 3, 1 + n / 3, 1 + n / 2, n - n / 10, n};
        int64_t out[6];
        pr_select_ranks(v, n, rank, 6, out);
        for (size_t i = 0; i < 6; i++)
            assert_int_equal(out[i], c[rank[i] - 1]);
        free(v);
        free(c);
    }
}

/* pr_select_ranks_u32 (a histogram of the range, then a selection among the ranks' buckets)
 * against a sorted copy: uniform, skewed, few distinct values, one far outlier, sorted, all
 * equal, ranks in one bucket, the least and the greatest, sizes around PR_RANKS_HIST_MIN. */
static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

static void test_view_stats__select_ranks_u32(void **state)
{
    (void)state;
    uint64_t r = 0x9E3779B97F4A7C15ull;
    for (size_t round = 0; round < 400; round++) {
        size_t n = round % 5 == 0 ? PR_RANKS_HIST_MIN - 1 + round % 3 : 1 + round * 131 % 20000;
        uint32_t *v = malloc(n * sizeof *v), *c = malloc(n * sizeof *c);
        for (size_t i = 0; i < n; i++) {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            uint32_t x = (uint32_t)(r >> 20);
            switch (round % 7) {
            case 0: v[i] = x; break;                                     /* uniform over 2^32 */
            case 1: v[i] = 1000000 + x % 50000000 / (1 + x % 97); break; /* skewed */
            case 2: v[i] = 7 + x % 4; break;                             /* few distinct */
            case 3: v[i] = i == n / 2 ? UINT32_MAX : 2000000 + x % 1000; break; /* an outlier */
            case 4: v[i] = (uint32_t)i * 3; break;                              /* sorted */
            case 5: v[i] = 42; break;                                           /* all equal */
            default: v[i] = x % 3000 < 2990 ? 5000000 + x % 3000 : x; break;    /* a crowd */
            }
        }
        memcpy(c, v, n * sizeof *v);
        qsort(c, n, sizeof *c, cmp_u32);
        size_t rank[8] = {1,          1 + n / 3,   1 + n / 3,    1 + n / 2,
                          n - n / 10, n - n / 100, n - n / 1000, n};
        int64_t out[8];
        pr_select_ranks_u32(v, n, rank, 8, out);
        for (size_t i = 0; i < 8; i++)
            assert_int_equal(out[i], c[rank[i] - 1]);
        free(v);
        free(c);
    }
}

/* A feed gives nothing for a run that had samples before (the views scan it), nor for
 * samples that came one by one (not as native blocks). */
static void test_view_stats__feed_declines_what_it_did_not_see(void **state)
{
    (void)state;
    pr_store *st = test_store_open();
    pr_run *run = pr_run_new();
    size_t n = 5000;
    pr_sample *s = calloc(n, sizeof *s);
    gen_samples(run, s, n, 7);
    assert_true(test_ingest_samples(st, run, s, n, "r") > 0);
    pr_view_feed *feed = pr_view_feed_new();
    test_ingest_observe(pr_view_feed_block, feed);
    int64_t id = test_ingest_samples(st, run, s, n, "r"); /* appended to run r */
    test_ingest_observe(NULL, NULL);
    pr_run *stored;
    pr_error err;
    assert_int_equal(pr_store_load_run(st, id, &stored, &err), 0);
    assert_int_equal(stored->samples, 2 * (int64_t)n);
    pr_store_stats fs;
    pr_store_point *fpts = NULL;
    assert_int_equal(pr_view_feed_finish(feed, stored, &fs, &fpts), 0);
    assert_null(fpts);
    pr_view_feed_free(feed);
    pr_run_free(stored);
    /* a feed that saw no block */
    feed = pr_view_feed_new();
    assert_int_equal(pr_store_load_run(st, id, &stored, &err), 0);
    assert_int_equal(pr_view_feed_finish(feed, stored, &fs, &fpts), 0);
    pr_view_feed_free(feed);
    pr_run_free(stored);
    free(s);
    pr_run_free(run);
    test_store_close(st);
}

/* Two streams one after the other (cat a.prf b.prf): the footer ending the file declares the
 * second one's samples only; the feed declines, and the figures from the store are the
 * model's. */
static void test_view_stats__feed_declines_a_footer_that_is_not_the_run(void **state)
{
    (void)state;
    pr_store *st = test_store_open();
    pr_run *run = pr_run_new();
    size_t n = 4000, la, lb;
    pr_sample *s = calloc(n, sizeof *s);
    gen_samples(run, s, n, 9);
    char *a = gen_native(run, s, n / 2, &la), *b = gen_native(run, s + n / 2, n - n / 2, &lb);
    char path[64];
    snprintf(path, sizeof path, "/tmp/pr-cat-%ld.prf", (long)getpid());
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(a, 1, la, f), la);
    assert_int_equal(fwrite(b, 1, lb, f), lb);
    assert_int_equal(fclose(f), 0);
    pr_view_feed *feed = pr_view_feed_new();
    test_ingest_observe(pr_view_feed_block, feed);
    int64_t id = test_ingest(st, "native", path, "cat");
    test_ingest_observe(NULL, NULL);
    unlink(path);
    assert_true(id > 0);
    pr_run *stored;
    pr_error err;
    assert_int_equal(pr_store_load_run(st, id, &stored, &err), 0);
    assert_int_equal(stored->samples, (int64_t)n);
    pr_store_stats fs, vs;
    pr_store_point *fpts = NULL, *pts = NULL;
    assert_int_equal(pr_view_feed_finish(feed, stored, &fs, &fpts), 0);
    assert_int_equal(pr_view_stats(st, stored, &vs, &pts, &err), 1);
    check_against_model(st, id, &vs);
    pr_view_feed_free(feed);
    free(pts);
    pr_run_free(stored);
    free(a);
    free(b);
    free(s);
    pr_run_free(run);
    test_store_close(st);
}

/* A summary-only run is left to the model. */
static void test_view_stats__summary_only_left_to_the_model(void **state)
{
    (void)state;
    pr_run run;
    memset(&run, 0, sizeof run);
    run.summary_only = 1;
    pr_store_stats vs;
    pr_store_point *pts = NULL;
    pr_error err;
    assert_int_equal(pr_view_stats(NULL, &run, &vs, &pts, &err), 0);
    assert_null(pts);
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_view_stats__match_the_model),
        cmocka_unit_test(test_view_stats__select_ranks),
        cmocka_unit_test(test_view_stats__select_ranks_u32),
        cmocka_unit_test(test_view_stats__summary_only_left_to_the_model),
        cmocka_unit_test(test_view_stats__feed_declines_what_it_did_not_see),
        cmocka_unit_test(test_view_stats__feed_declines_a_footer_that_is_not_the_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
