/* Unit tests: exact statistics (sorting, nearest-rank percentiles, moments, rates, merges). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/human.h"
#include "analysis/report.h"
#include "analysis/vals.h"
#include "gen/attack.h"
#include "model/hist.h" /* with vals.h and the generator's header: one PR_HIST_SUB_BITS */
#include "model/run.h"
#include "analysis/stats.h"
#include "model/xalloc.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int cmp(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void test_stats__radix_sort_matches_qsort(void **st)
{
    static const size_t sizes[] = {0, 1, 5, 2047, 2048, 100000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        int64_t *a = malloc((n + 1) * sizeof *a), *b = malloc((n + 1) * sizeof *b);
        for (size_t i = 0; i < n; i++) {
            /* latencies, negatives, huge values and duplicates */
            uint64_t r = next();
            a[i] = r % 4 == 0   ? (int64_t)(r % 1000)
                   : r % 4 == 1 ? -(int64_t)(r % 100000)
                   : r % 4 == 2 ? (int64_t)(r >> 1)
                                : (int64_t)(r % 3000000000ull);
            b[i] = a[i];
        }
        pr_sort_i64(a, n);
        qsort(b, n, sizeof *b, cmp);
        assert_memory_equal(a, b, n * sizeof *a);
        free(a);
        free(b);
    }
}

static void test_stats__nearest_rank(void **st)
{
    int64_t v[10];
    for (int i = 0; i < 10; i++)
        v[i] = (i + 1) * 10; /* 10..100 */
    assert_int_equal(pr_percentile_sorted(v, 10, 0), 10);
    assert_int_equal(pr_percentile_sorted(v, 10, 10), 10);   /* rank ceil(1) = 1 */
    assert_int_equal(pr_percentile_sorted(v, 10, 10.1), 20); /* rank ceil(1.01) = 2 */
    assert_int_equal(pr_percentile_sorted(v, 10, 50), 50);
    assert_int_equal(pr_percentile_sorted(v, 10, 90), 90);
    assert_int_equal(pr_percentile_sorted(v, 10, 99), 100);
    assert_int_equal(pr_percentile_sorted(v, 10, 100), 100);
    /* 99.9% of 1000 values is exactly rank 999, despite floating point */
    int64_t *w = malloc(1000 * sizeof *w);
    for (int i = 0; i < 1000; i++)
        w[i] = i + 1;
    assert_int_equal(pr_percentile_sorted(w, 1000, 99.9), 999);
    assert_int_equal(pr_percentile_sorted(w, 1000, 99.99), 1000);
    assert_int_equal(pr_percentile_sorted(w, 1000, 0.1), 1);
    free(w);
}

static void test_stats__moments(void **st)
{
    pr_vec v = {0};
    int64_t xs[] = {2, 4, 4, 4, 5, 5, 7, 9};
    for (size_t i = 0; i < 8; i++)
        pr_vec_push(&v, xs[i]);
    pr_dist d;
    pr_dist_compute(&v, &d);
    assert_int_equal(d.count, 8);
    assert_int_equal(d.min, 2);
    assert_int_equal(d.max, 9);
    assert_true(fabs(d.mean - 5.0) < 1e-12);
    assert_true(fabs(d.stdev - 2.0) < 1e-12); /* the textbook population example */
    pr_vec_dispose(&v);
    pr_vec empty = {0};
    pr_dist_compute(&empty, &d);
    assert_int_equal(d.count, 0);
    assert_true(d.min == PR_UNKNOWN);
}

static pr_sample mk(int64_t start, int64_t lat, uint16_t status)
{
    pr_sample s;
    pr_sample_init(&s);
    s.start_ns = start;
    s.latency_ns = lat;
    s.status = status;
    return s;
}

static void test_stats__rates_vegeta_definitions(void **st)
{
    pr_series s;
    pr_series_init(&s);
    /* starts at 0, 1 s, 2 s; the last takes 500 ms; one failure */
    pr_sample a = mk(0, 100, 200), b = mk(1000000000, 200, 500), c = mk(2000000000, 500000000, 200);
    pr_series_add(&s, &c, pr_sample_outcome(&c)); /* completion order does not matter */
    pr_series_add(&s, &a, pr_sample_outcome(&a));
    pr_series_add(&s, &b, pr_sample_outcome(&b));
    pr_rates r;
    pr_rates_compute(&s, &r);
    assert_true(r.duration_ns == 2000000000);
    assert_true(r.wait_ns == 500000000);
    assert_true(fabs(r.rate_per_s - 1.5) < 1e-12);              /* 3 / 2 s */
    assert_true(fabs(r.throughput_per_s - 0.8) < 1e-12);        /* 2 / 2.5 s */
    assert_true(fabs(r.jmeter_throughput_per_s - 1.2) < 1e-12); /* 3 / 2.5 s */
    pr_series_dispose(&s);
    /* a single result: no division (Vegeta) */
    pr_series one;
    pr_series_init(&one);
    pr_series_add(&one, &a, 1);
    pr_rates_compute(&one, &r);
    assert_true(r.rate_per_s == 1 && r.throughput_per_s == 1);
    pr_series_dispose(&one);
}

static void test_stats__unknown_outcomes(void **st)
{
    pr_sample s;
    pr_sample_init(&s); /* ab -g: no status, no error, no flag */
    assert_int_equal(pr_sample_outcome(&s), -1);
    s.status = 503;
    assert_int_equal(pr_sample_outcome(&s), 0);
    s.status = 302;
    assert_int_equal(pr_sample_outcome(&s), 1);
    s.success = PR_FAIL; /* the source's own notion wins */
    assert_int_equal(pr_sample_outcome(&s), 0);
}

static void test_stats__merge_equals_whole(void **st)
{
    pr_series a, b, all;
    pr_series_init(&a);
    pr_series_init(&b);
    pr_series_init(&all);
    for (int i = 0; i < 5000; i++) {
        pr_sample x = mk((int64_t)(next() % 1000000000), (int64_t)(next() % 50000000),
                         next() % 10 ? 200 : 500);
        int o = pr_sample_outcome(&x);
        pr_series_add(i % 3 ? &a : &b, &x, o);
        pr_series_add(&all, &x, o);
    }
    pr_series_merge(&a, &b);
    assert_int_equal(a.count, all.count);
    assert_int_equal(a.successes, all.successes);
    pr_dist da, dall;
    pr_vals_dist(&a.latency, &da);
    pr_vals_dist(&all.latency, &dall);
    assert_memory_equal(a.latency.v.v, all.latency.v.v, all.latency.v.n * sizeof(int64_t));
    assert_true(pr_vals_percentile(&a.latency, 99) == pr_vals_percentile(&all.latency, 99));
    pr_series_dispose(&a);
    pr_series_dispose(&b);
    pr_series_dispose(&all);
}

static void test_stats__bounded_mode_within_0_1_percent(void **st)
{
    pr_vals exact, hist, part1, part2, switched;
    pr_vals_init(&exact, 0);
    pr_vals_init(&hist, 1);
    pr_vals_init(&part1, 1);
    pr_vals_init(&part2, 1);
    pr_vals_init(&switched, 0); /* exact for the first 1000 values, a histogram after */
    for (int i = 0; i < 300000; i++) {
        /* lognormal-ish latencies from 20 µs to minutes, plus exact small values */
        double u1 = (double)(next() % 1000000 + 1) / 1000001.0,
               u2 = (double)(next() % 1000000) / 1e6;
        double z = sqrt(-2 * log(u1)) * cos(6.283185307 * u2);
        int64_t x = i % 1000 == 0 ? (int64_t)(next() % 300) : (int64_t)exp(log(3e6) + 1.5 * z);
        pr_vals_add(&exact, x);
        pr_vals_add(&hist, x);
        pr_vals_add(i % 2 ? &part1 : &part2, x);
        if (i == 1000)
            pr_vals_make_bounded(&switched);
        pr_vals_add(&switched, x);
    }
    assert_true(switched.bounded && pr_vals_count(&switched) == 300000);
    pr_vals_merge(&part1, &part2); /* histograms add together */
    pr_vals_finish(&exact);
    static const double ps[] = {0, 1, 10, 50, 90, 99, 99.9, 99.99, 99.999, 100};
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
        double e = (double)pr_vals_percentile(&exact, ps[k]);
        double h = (double)pr_vals_percentile(&hist, ps[k]);
        assert_true(fabs(h - e) <= 0.001 * e + 0.5);
        assert_true(pr_vals_percentile(&part1, ps[k]) == pr_vals_percentile(&hist, ps[k]));
        assert_true(pr_vals_percentile(&switched, ps[k]) == pr_vals_percentile(&hist, ps[k]));
    }
    pr_dist de, dh;
    pr_vals_dist(&exact, &de);
    pr_vals_dist(&hist, &dh);
    assert_true(de.count == dh.count && de.min == dh.min && de.max == dh.max);
    assert_true(fabs(de.mean - dh.mean) < 1e-6 * de.mean);
    assert_true(fabs(de.stdev - dh.stdev) < 1e-6 * de.stdev);
    /* memory is independent of the count: a few octaves of 512 buckets */
    assert_true(pr_vals_bytes(&hist) < 200 * 1024);
    pr_vals_dispose(&exact);
    pr_vals_dispose(&hist);
    pr_vals_dispose(&part1);
    pr_vals_dispose(&part2);
    pr_vals_dispose(&switched);
}

/* The project's one histogram (model/hist.h, used by bounded statistics and the generator's
 * live figures): every value's bucket midpoint within 2^-10 of it, exact below 512, nearest-
 * rank percentiles within that of the exact ones, merges equal to adding everything. */
static void test_stats__hist_precision(void **st)
{
    assert_int_equal(PR_HIST_SUB_BITS, 9);
    enum { N = 200000 };
    int64_t *v = malloc(N * sizeof *v);
    pr_hist all, a, b;
    pr_hist_init(&all);
    pr_hist_init(&a);
    pr_hist_init(&b);
    for (int i = 0; i < N; i++) {
        uint64_t r = next();
        v[i] = i % 7 == 0 ? (int64_t)(r % 512) : (int64_t)(r >> (r % 40 + 20)); /* 0 .. 2^44 */
        pr_hist_add(&all, v[i]);
        pr_hist_add(i % 3 ? &a : &b, v[i]);
        pr_hist one;
        pr_hist_init(&one);
        pr_hist_add(&one, v[i]);
        pr_hist_add(&one, v[i] + (v[i] >> 20)); /* keeps min < max for the midpoint */
        int64_t m = pr_hist_percentile(&one, 1);
        assert_true(fabs((double)m - (double)v[i]) <= (double)v[i] / 1024.0);
        if (v[i] < 512)
            assert_true(m == v[i]);
        pr_hist_dispose(&one);
    }
    pr_hist_merge(&a, &b);
    qsort(v, N, sizeof *v, cmp);
    static const double ps[] = {0, 0.1, 1, 25, 50, 90, 99, 99.9, 99.99, 100};
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
        int64_t e = pr_percentile_sorted(v, N, ps[k]);
        int64_t h = pr_hist_percentile(&all, ps[k]);
        assert_true(fabs((double)h - (double)e) <= (double)e / 1024.0);
        assert_true(pr_hist_percentile(&a, ps[k]) == h);
    }
    assert_true(all.n == N && a.n == N && all.min == v[0] && all.max == v[N - 1]);
    assert_true(pr_hist_count_below(&all, 512) == pr_hist_count_below(&a, 512));
    size_t below = 0;
    while (below < N && v[below] < 512)
        below++;
    assert_int_equal(pr_hist_count_below(&all, 512), below); /* exact below 512 */
    pr_hist_reset(&all);
    assert_true(all.n == 0 && pr_hist_percentile(&all, 50) == 0);
    pr_hist_dispose(&all);
    pr_hist_dispose(&a);
    pr_hist_dispose(&b);
    free(v);
}

/* A value's octave and bucket by the header's definition, by division rather than the bit
 * scan of model/hist.c: octave 0 holds 0..511 one by one, octave k >= 1 holds [512 << (k - 1),
 * 512 << k) in 512 buckets of width 2^(k - 1); negative values count in bucket 0. */
static void ref_bucket(int64_t x, int *oct, int *sub)
{
    *oct = 0;
    *sub = x < 0 ? 0 : (int)(x < 512 ? x : 0);
    for (int k = 1; x >= 512 && k < 64; k++)
        if ((uint64_t)x < (512ull << k)) {
            *oct = k;
            *sub = (int)(((uint64_t)x - (512ull << (k - 1))) / (1ull << (k - 1)));
            return;
        }
}

/* pr_hist_add's integer sums against the histogram as it was (long double sum and sum of
 * squares at every add) and its buckets against their definition, on random data with zeros,
 * negatives and values past 2^42 (whose squares go to the long double side): buckets, count,
 * minimum, maximum and sum the same, the sum of squares within the old one's own rounding
 * (the old rounded at every add; the new is exact below 2^42 and rounds once), and the mean
 * and standard deviation vals.c derives from them equal to 13 digits. Merged halves too. */
static void test_stats__hist_integer_sums_match_long_double(void **st)
{
    enum { N = 300000 };
    int64_t *v = malloc(N * sizeof *v);
    for (int round = 0; round < 3; round++) {
        pr_hist h, half1, half2;
        pr_hist_init(&h);
        pr_hist_init(&half1);
        pr_hist_init(&half2);
        long double osum = 0, osumsq = 0;
        int64_t omin = INT64_MAX, omax = INT64_MIN;
        uint64_t oneg = 0;
        int lo = 64, hi = -1;
        for (int i = 0; i < N; i++) {
            uint64_t r = next();
            int64_t x = (int64_t)(r >> (r % 44 + 20)); /* 0 .. 2^44 */
            if (round == 1 && i % 11 == 0)
                x = -x;
            if (round == 2 && i % 101 == 0)
                x = (int64_t)(next() >> 14); /* up to 2^50: squares past 2^84 */
            v[i] = x;
            pr_hist_add(&h, x);
            pr_hist_add(i % 2 ? &half1 : &half2, x);
            osum += x;
            osumsq += (long double)x * x;
            omin = x < omin ? x : omin;
            omax = x > omax ? x : omax;
            oneg += x < 0;
            int oct, sub;
            ref_bucket(x, &oct, &sub);
            lo = oct < lo ? oct : lo;
            hi = oct > hi ? oct : hi;
        }
        uint64_t *want = calloc((size_t)(hi - lo + 1) * 512, sizeof *want);
        for (int i = 0; i < N; i++) {
            int oct, sub;
            ref_bucket(v[i], &oct, &sub);
            want[(size_t)(oct - lo) * 512 + (size_t)sub]++;
        }
        pr_hist_merge(&half1, &half2);
        const pr_hist *hs[] = {&h, &half1};
        for (int k = 0; k < 2; k++) {
            const pr_hist *a = hs[k];
            assert_true(a->n == N && a->min == omin && a->max == omax && a->negatives == oneg);
            assert_true(a->lo_oct == lo && a->hi_oct == hi);
            assert_memory_equal(a->b, want, (size_t)(hi - lo + 1) * 512 * sizeof *want);
            assert_true(pr_hist_sum(a) == osum); /* every partial sum < 2^64: exact both ways */
            assert_true(fabsl(pr_hist_sumsq(a) - osumsq) / osumsq < 1e-15L);
            long double mean = pr_hist_sum(a) / a->n, omean = osum / N;
            double sd = (double)sqrtl(pr_hist_sumsq(a) / a->n - mean * mean);
            double osd = (double)sqrtl(osumsq / N - omean * omean);
            assert_true((double)mean == (double)omean);
            assert_true(fabs(sd - osd) <= osd * 1e-13);
        }
        free(want);
        pr_hist_dispose(&h);
        pr_hist_dispose(&half1);
        pr_hist_dispose(&half2);
    }
    free(v);
    (void)st;
}

/* A zero from a coarse clock is "below the resolution", never "0 ns" (issue 13). */
static void test_stats__resolution_aware_durations(void **st)
{
    static const struct {
        int64_t ns, res;
        const char *want;
    } cases[] = {
        {0, 1, "0 ns"},
        {0, 0, "0 ns"},
        {0, 1000000, "< 1 ms"},
        {0, 100000, "< 100 \xc2\xb5s"},
        {0, 10000000, "< 10 ms"},
        {0, 1000000000, "< 1 s"},
        {0, 1000, "< 1 \xc2\xb5s"},
        {1000000, 1000000, "1.00 ms"},
        {834000, 1000000, "834 \xc2\xb5s"},
        {PR_UNKNOWN, 1000000, "-"},
    };
    char buf[32];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_string_equal(pr_human_duration_res(cases[i].ns, cases[i].res, buf, sizeof buf), cases[i].want);
    /* a run joined from several inputs keeps the coarsest clock, in any order */
    pr_run *r = pr_run_new();
    pr_run_meta_resolution(r, "latency_resolution_ns", 1000);
    pr_run_meta_resolution(r, "latency_resolution_ns", 1000000);
    pr_run_meta_resolution(r, "latency_resolution_ns", 1000);
    assert_int_equal(json_integer_value(json_object_get(r->meta, "latency_resolution_ns")),
                     1000000);
    pr_run_free(r);
    json_t *stats = json_pack("{s:i}", "latency_resolution_ns", 1000000);
    assert_int_equal(pr_report_latency_res(stats), 1000000);
    assert_int_equal(pr_report_latency_res(NULL), 1);
    json_decref(stats);
}

static void test_stats__error_groups_and_options(void **st)
{
    char g[256];
    pr_error_group("dial tcp 127.0.0.1:18099: connect: connection refused", g, sizeof g);
    assert_string_equal(g, "dial tcp N:N: connect: connection refused");
    pr_error_group("timeout after 30000 ms", g, sizeof g);
    assert_string_equal(g, "timeout after N ms");
    pr_report_opts o;
    pr_report_opts_init(&o);
    assert_int_equal(pr_report_parse_percentiles(&o, "50, 99.9,100"), 0);
    assert_int_equal(o.npercentiles, 3);
    assert_true(o.percentiles[1] == 99.9);
    assert_int_equal(pr_report_parse_percentiles(&o, "50,101"), -1);
    assert_int_equal(pr_report_parse_by(&o, "url,status,tag:host"), 0);
    assert_int_equal(o.nby, 3);
    assert_int_equal(o.by[2], PR_BY_TAG);
    assert_string_equal(o.by_tag[2], "host");
    assert_int_equal(pr_report_parse_by(&o, "colour"), -1);
}

/* Two histograms hold the same counts, sums, extremes and buckets, over the same octaves. */
static void same_hist(const pr_hist *a, const pr_hist *b)
{
    assert_true(a->n == b->n && a->min == b->min && a->max == b->max);
    assert_true(a->sum == b->sum && a->sumsq == b->sumsq && a->negatives == b->negatives);
    assert_memory_equal(&a->sumsq_big, &b->sumsq_big, sizeof a->sumsq_big); /* same order */
    assert_int_equal(a->lo_oct, b->lo_oct);
    assert_int_equal(a->hi_oct, b->hi_oct);
    assert_int_equal(pr_hist_bytes(a), pr_hist_bytes(b));
    if (pr_hist_bytes(a))
        assert_memory_equal(a->b, b->b, pr_hist_bytes(a));
}

/* A value of the staging tests: zeros, negatives, exact small values, latencies over many
 * octaves, squares past 2^84 (the long double side), and now and then a new extreme. */
static int64_t staged_value(void)
{
    uint64_t r = next();
    switch (r % 8) {
    case 0: return (int64_t)(r >> 3) % 512;
    case 1: return -(int64_t)((r >> 3) % 100000);
    case 2: return (int64_t)(r >> 20); /* up to 2^44 */
    case 3: return 0;
    default: return (int64_t)((r >> 3) % 3000000000ull) >> (r >> 40) % 20;
    }
}

/* pr_hist_add_many (the report's staged latencies, analysis/report_acc.c) against one
 * pr_hist_add per value on random data: lots of 0 to 40 values into several histograms in
 * turn, each histogram's lots in the order their values came, merged halves flushed before
 * the merge, byte for byte (the squares past 2^42 are summed in the same order); and
 * pr_vals_add_many likewise in both modes. */
static void test_stats__hist_add_many_matches_add(void **st)
{
    enum { NH = 5, ROUNDS = 4000, LOT = 40 };
    pr_hist direct[NH], staged[NH], merged_d, merged_s;
    pr_vals vd[2], vs[2];
    for (int k = 0; k < NH; k++) {
        pr_hist_init(&direct[k]);
        pr_hist_init(&staged[k]);
    }
    for (int m = 0; m < 2; m++) {
        pr_vals_init(&vd[m], m);
        pr_vals_init(&vs[m], m);
    }
    int64_t lot[LOT];
    for (int round = 0; round < ROUNDS; round++) {
        int k = (int)(next() % NH);
        size_t n = (size_t)(next() % (LOT + 1));
        for (size_t i = 0; i < n; i++) {
            lot[i] = staged_value();
            pr_hist_add(&direct[k], lot[i]);
            pr_vals_add(&vd[round % 2], lot[i]);
        }
        pr_hist_add_many(&staged[k], lot, n);
        pr_vals_add_many(&vs[round % 2], lot, n);
        same_hist(&direct[k], &staged[k]);
    }
    for (int k = 0; k < NH; k++)
        assert_true(direct[k].n > 0);
    /* the merge of staged parts: each part's lots added before it merges */
    pr_hist_init(&merged_d);
    pr_hist_init(&merged_s);
    for (int k = 0; k < NH; k++) {
        pr_hist_merge(&merged_d, &direct[k]);
        pr_hist_merge(&merged_s, &staged[k]);
        same_hist(&merged_d, &merged_s);
        int64_t tail[3] = {staged_value(), staged_value(), staged_value()};
        for (int i = 0; i < 3; i++)
            pr_hist_add(&merged_d, tail[i]);
        pr_hist_add_many(&merged_s, tail, 3);
        same_hist(&merged_d, &merged_s);
    }
    for (int m = 0; m < 2; m++) {
        assert_int_equal(pr_vals_count(&vd[m]), pr_vals_count(&vs[m]));
        if (m)
            same_hist(&vd[m].h, &vs[m].h);
        else
            assert_memory_equal(vd[m].v.v, vs[m].v.v, vd[m].v.n * sizeof *vd[m].v.v);
        pr_vals_dispose(&vd[m]);
        pr_vals_dispose(&vs[m]);
    }
    for (int k = 0; k < NH; k++) {
        pr_hist_dispose(&direct[k]);
        pr_hist_dispose(&staged[k]);
    }
    pr_hist_dispose(&merged_d);
    pr_hist_dispose(&merged_s);
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stats__radix_sort_matches_qsort),
        cmocka_unit_test(test_stats__nearest_rank),
        cmocka_unit_test(test_stats__moments),
        cmocka_unit_test(test_stats__rates_vegeta_definitions),
        cmocka_unit_test(test_stats__unknown_outcomes),
        cmocka_unit_test(test_stats__merge_equals_whole),
        cmocka_unit_test(test_stats__bounded_mode_within_0_1_percent),
        cmocka_unit_test(test_stats__hist_precision),
        cmocka_unit_test(test_stats__hist_integer_sums_match_long_double),
        cmocka_unit_test(test_stats__hist_add_many_matches_add),
        cmocka_unit_test(test_stats__error_groups_and_options),
        cmocka_unit_test(test_stats__resolution_aware_durations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
