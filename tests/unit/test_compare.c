/* Tests of the comparison statistics (Mann-Whitney, percentile bootstrap) and verdicts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/compare.h"
#include "analysis/pairs.h"
#include "lib/collect.h"
#include "lib/ingest.h"
#include "model/xalloc.h"

static uint64_t rs = 12345;
static double unif(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return ((double)(rs >> 11) + 0.5) / 9007199254740992.0;
}

/* n lognormal-ish latencies around median_ns, sorted. */
static int64_t *sample(size_t n, double median_ns)
{
    int64_t *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++) {
        double z = sqrt(-2 * log(unif())) * cos(6.283185307179586 * unif());
        v[i] = (int64_t)(median_ns * exp(0.4 * z));
    }
    pr_sort_i64(v, n);
    return v;
}

static void test_compare__mann_whitney_exact_small(void **state)
{
    (void)state;
    /* a = {1,2,3}, b = {4,5,6}: every b above every a -> U = 9, A12 = 1 */
    int64_t a[] = {1, 2, 3}, b[] = {4, 5, 6};
    pr_mw_result r;
    assert_int_equal(pr_mann_whitney(a, 3, b, 3, &r), 0);
    assert_true(r.u == 9);
    assert_true(r.a12 == 1);
    /* with ties: a = {1,2,2}, b = {2,3,3}: pairs ranks 1, 3, 3, 3, 5.5, 5.5 -> R_b = 14, U_b = 14 - 6 = 8 */
    int64_t c[] = {1, 2, 2}, d[] = {2, 3, 3};
    assert_int_equal(pr_mann_whitney(c, 3, d, 3, &r), 0);
    assert_true(fabs(r.u - 8) < 1e-12);
    /* identical samples: U = n²/2, z = 0, p = 1 */
    assert_int_equal(pr_mann_whitney(a, 3, a, 3, &r), 0);
    assert_true(r.u == 4.5 && r.z == 0 && r.p_value == 1);
    assert_int_equal(pr_mann_whitney(a, 0, b, 3, &r), -1);
}

static void test_compare__mann_whitney_identical_vs_shifted(void **state)
{
    (void)state;
    rs = 99;
    int64_t *a = sample(5000, 10e6), *b = sample(5000, 10e6), *c = sample(5000, 11e6);
    pr_mw_result same, shifted;
    pr_mann_whitney(a, 5000, b, 5000, &same);
    pr_mann_whitney(a, 5000, c, 5000, &shifted);
    assert_true(same.p_value > 0.01);       /* same distribution: no evidence */
    assert_true(fabs(same.a12 - 0.5) < 0.03);
    assert_true(shifted.p_value < 1e-6);    /* 10% shift in 5000 samples: clear */
    assert_true(shifted.a12 > 0.53);
    /* doubles version agrees on the order statistics */
    double x[] = {3, 1, 2}, y[] = {6, 5, 4};
    pr_mw_result r;
    pr_mann_whitney_d(x, 3, y, 3, &r);
    assert_true(r.u == 9);
    free(a);
    free(b);
    free(c);
}

/* U against the pairwise definition on random samples with many ties. */
static void test_compare__mann_whitney_brute_force(void **state)
{
    (void)state;
    rs = 4242;
    for (int round = 0; round < 20; round++) {
        size_t na = 1 + (size_t)(unif() * 40), nb = 1 + (size_t)(unif() * 40);
        int64_t a[64], b[64];
        for (size_t i = 0; i < na; i++)
            a[i] = (int64_t)(unif() * 10);
        for (size_t i = 0; i < nb; i++)
            b[i] = (int64_t)(unif() * 10);
        pr_sort_i64(a, na);
        pr_sort_i64(b, nb);
        double u = 0;
        for (size_t i = 0; i < na; i++)
            for (size_t j = 0; j < nb; j++)
                u += b[j] > a[i] ? 1 : b[j] == a[i] ? 0.5 : 0;
        pr_mw_result r;
        assert_int_equal(pr_mann_whitney(a, na, b, nb, &r), 0);
        assert_true(fabs(r.u - u) < 1e-9);
        assert_true(r.p_value >= 0 && r.p_value <= 1);
    }
}

static void test_compare__bootstrap_ci(void **state)
{
    (void)state;
    rs = 7;
    int64_t *a = sample(4000, 10e6), *b = sample(4000, 10e6), *c = sample(4000, 13e6);
    double lo, hi, lo2, hi2;
    assert_int_equal(pr_bootstrap_pdiff(a, 4000, b, 4000, 99, 2000, 0.99, 1, &lo, &hi), 0);
    assert_true(lo < 0 && hi > 0); /* same distribution: CI covers 0 */
    assert_int_equal(pr_bootstrap_pdiff(a, 4000, c, 4000, 50, 2000, 0.99, 1, &lo, &hi), 0);
    double d = (double)c[1999] - (double)a[1999]; /* observed p50 difference */
    assert_true(lo > 0 && lo < d && hi > d);       /* excludes 0, brackets the estimate */
    /* deterministic for a seed */
    assert_int_equal(pr_bootstrap_pdiff(a, 4000, c, 4000, 50, 2000, 0.99, 1, &lo2, &hi2), 0);
    assert_true(lo == lo2 && hi == hi2);
    /* a constant sample has a zero-width interval */
    int64_t k[50];
    for (int i = 0; i < 50; i++)
        k[i] = 5;
    assert_int_equal(pr_bootstrap_pdiff(k, 50, k, 50, 99, 500, 0.99, 3, &lo, &hi), 0);
    assert_true(lo == 0 && hi == 0);
    free(a);
    free(b);
    free(c);
}

static json_t *row(json_t *doc, const char *metric)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(doc, "metrics"), i, r)
        if (!strcmp(json_string_value(json_object_get(r, "metric")), metric))
            return r;
    return NULL;
}

static const char *verdict(json_t *doc, const char *metric, size_t run)
{
    return json_string_value(json_object_get(json_array_get(json_object_get(row(doc, metric), "diffs"), run), "verdict"));
}

static void test_compare__fixtures_verdicts(void **state)
{
    (void)state;
    pr_store *st = test_store_open();
    int64_t basic = test_ingest(st, "vegeta-gob", testdata("vegeta/basic.bin"), NULL);
    int64_t mixed = test_ingest(st, "vegeta-gob", testdata("vegeta/mixed.bin"), NULL);
    assert_true(basic > 0 && mixed > 0);
    pr_compare_side s[3];
    pr_error err;
    pr_error_clear(&err);
    assert_int_equal(pr_compare_side_load(st, &basic, 1, NULL, NULL, &s[0], &err), 0);
    assert_int_equal(pr_compare_side_load(st, &mixed, 1, NULL, NULL, &s[1], &err), 0);
    assert_int_equal(pr_compare_side_load(st, &basic, 1, "again", NULL, &s[2], &err), 0);
    assert_int_equal(s[0].latency.n, 1000);
    pr_compare_opts o;
    pr_compare_opts_init(&o);
    json_t *doc = pr_compare_build(s, 3, &o);
    assert_string_equal(json_string_value(json_object_get(doc, "schema")), "perfreport-compare");
    /* mixed against basic: slower and failing */
    assert_string_equal(verdict(doc, "p99", 0), "regression");
    assert_string_equal(verdict(doc, "p50", 0), "regression");
    assert_string_equal(verdict(doc, "error_ratio", 0), "regression");
    assert_string_equal(verdict(doc, "throughput", 0), "regression");
    assert_string_equal(verdict(doc, "max", 0), "untested");
    /* basic against itself: the same everywhere */
    assert_string_equal(verdict(doc, "p99", 1), "same");
    assert_string_equal(verdict(doc, "mean", 1), "same");
    assert_string_equal(verdict(doc, "throughput", 1), "same");
    json_t *rel = json_object_get(json_array_get(json_object_get(row(doc, "p50"), "diffs"), 0), "rel");
    assert_true(fabs(json_number_value(rel) - (287257.0 - 141430.0) / 141430.0) < 0.01);
    assert_true(json_integer_value(json_object_get(doc, "regressions")) >= 5);
    /* a large min effect turns regressions into "same" */
    o.min_effect = 1e9;
    json_t *doc2 = pr_compare_build(s, 2, &o);
    assert_string_equal(verdict(doc2, "p50", 0), "same");
    json_decref(doc2);
    json_decref(doc);
    for (int i = 0; i < 3; i++)
        pr_compare_side_dispose(&s[i]);
    test_store_close(st);
}

static void test_compare__summary_only_untested(void **state)
{
    (void)state;
    pr_store *st = test_store_open();
    int64_t a = test_ingest(st, NULL, testdata("vegeta/basic.report.txt"), "printed");
    int64_t b = test_ingest(st, NULL, testdata("vegeta/mixed.report.txt"), "printed2");
    assert_true(a > 0 && b > 0);
    pr_compare_side s[2];
    pr_error err;
    pr_error_clear(&err);
    assert_int_equal(pr_compare_side_load(st, &a, 1, NULL, NULL, &s[0], &err), 0);
    assert_int_equal(pr_compare_side_load(st, &b, 1, NULL, NULL, &s[1], &err), 0);
    assert_int_equal(s[0].latency.n, 0);
    json_t *doc = pr_compare_build(s, 2, NULL);
    assert_string_equal(verdict(doc, "p99", 0), "untested");
    json_t *v = json_array_get(json_object_get(row(doc, "p99"), "values"), 1);
    assert_true(json_number_value(json_object_get(v, "value")) > 2e9); /* mixed's printed 3.001 s */
    json_decref(doc);
    pr_compare_side_dispose(&s[0]);
    pr_compare_side_dispose(&s[1]);
    test_store_close(st);
}

/* A run of 4 samples against 4 (tests/data/study-observed, 180 ms against 1.8 s): no latency
 * test can reach p < 0.01 with so few (Mann-Whitney's smallest p is 0.03), so the tenfold
 * difference is untested (too_few_samples), never "same" nor a regression; the summary-only
 * runs' equal figures are untested too (no_samples). */
static void test_compare__too_few_samples_untested(void **state)
{
    (void)state;
    pr_store *st = test_store_open();
    int64_t a = test_ingest(st, "vegeta-gob", testdata("study-observed/hotspot-2-2s.bin"), NULL);
    int64_t b = test_ingest(st, "vegeta-gob", testdata("study-observed/openj9-2-2s.bin"), NULL);
    int64_t c = test_ingest(st, NULL, testdata("study-observed/hotspot-50-10s.report.txt"), "c");
    pr_compare_side s[3];
    pr_error err;
    pr_error_clear(&err);
    assert_int_equal(pr_compare_side_load(st, &a, 1, NULL, NULL, &s[0], &err), 0);
    assert_int_equal(pr_compare_side_load(st, &b, 1, NULL, NULL, &s[1], &err), 0);
    assert_int_equal(pr_compare_side_load(st, &c, 1, NULL, NULL, &s[2], &err), 0);
    assert_int_equal(s[0].latency.n, 4);
    const char *names[] = {"p50", "p99", "mean"};
    for (size_t i = 0; i < 3; i++) {
        json_t *d = pr_compare_metric(&s[0], &s[1], names[i], NULL);
        assert_string_equal(json_string_value(json_object_get(d, "verdict")), "untested");
        assert_string_equal(json_string_value(json_object_get(d, "untested_why")),
                            "too_few_samples");
        assert_true(json_is_null(json_object_get(d, "significant")));
        json_decref(d);
    }
    json_t *d = pr_compare_metric(&s[2], &s[2], "p50", NULL); /* equal printed figures */
    assert_string_equal(json_string_value(json_object_get(d, "verdict")), "untested");
    assert_string_equal(json_string_value(json_object_get(d, "untested_why")), "no_samples");
    json_decref(d);
    json_t *doc = pr_compare_build(s, 2, NULL);
    json_t *lt = json_array_get(json_object_get(doc, "latency_tests"), 0);
    assert_null(json_object_get(lt, "p_value"));
    assert_string_equal(json_string_value(json_object_get(lt, "untested_why")), "too_few_samples");
    json_decref(doc);
    for (int i = 0; i < 3; i++)
        pr_compare_side_dispose(&s[i]);
    test_store_close(st);
}

/* Changes beyond a factor of 2 read as the factor, never "+910.0%". */
static void test_compare__rel_text(void **state)
{
    (void)state;
    char b[32];
    pr_compare_rel_text(0.123, b, sizeof b);
    assert_string_equal(b, "+12.3%");
    pr_compare_rel_text(-0.5 + 1e-9, b, sizeof b);
    assert_string_equal(b, "-50.0%");
    pr_compare_rel_text(0.999, b, sizeof b);
    assert_string_equal(b, "+99.9%");
    pr_compare_rel_text(9.1, b, sizeof b);
    assert_string_equal(b, "10.1\xc3\x97");
    pr_compare_rel_text(1, b, sizeof b);
    assert_string_equal(b, "2.00\xc3\x97");
    pr_compare_rel_text(1.0 / 40.4 - 1, b, sizeof b);
    assert_string_equal(b, "\xc3\xb7"
                           "40.4");
    pr_compare_rel_text(3801, b, sizeof b);
    assert_string_equal(b, "3802\xc3\x97");
    pr_compare_rel_text(NAN, b, sizeof b);
    assert_string_equal(b, "-");
}

static void test_compare__sign_test(void **state)
{
    (void)state;
    assert_true(fabs(pr_sign_test_p(0, 6) - 2.0 / 64) < 1e-12);
    assert_true(fabs(pr_sign_test_p(6, 6) - 2.0 / 64) < 1e-12);
    assert_true(fabs(pr_sign_test_p(1, 6) - 2.0 * 7 / 64) < 1e-12);
    assert_true(pr_sign_test_p(3, 6) == 1);
    assert_true(pr_sign_test_p(0, 0) == 1);
    assert_true(fabs(pr_sign_test_p(0, 8) - 2.0 / 256) < 1e-12); /* 8 pairs can reach 0.01 */
}

/* One metric between two sides: the same test and verdict as the comparison document's row. */
static void test_compare__one_metric(void **state)
{
    (void)state;
    pr_store *st = test_store_open();
    int64_t basic = test_ingest(st, "vegeta-gob", testdata("vegeta/basic.bin"), NULL);
    int64_t mixed = test_ingest(st, "vegeta-gob", testdata("vegeta/mixed.bin"), NULL);
    pr_compare_side s[2];
    pr_error err;
    pr_error_clear(&err);
    assert_int_equal(pr_compare_side_load(st, &basic, 1, NULL, NULL, &s[0], &err), 0);
    assert_int_equal(pr_compare_side_load(st, &mixed, 1, NULL, NULL, &s[1], &err), 0);
    json_t *doc = pr_compare_build(s, 2, NULL);
    const char *names[] = {"p99", "mean", "error_ratio", "throughput", "max"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        json_t *d = pr_compare_metric(&s[0], &s[1], names[i], NULL);
        assert_non_null(d);
        assert_string_equal(json_string_value(json_object_get(d, "verdict")), verdict(doc, names[i], 0));
        json_decref(d);
    }
    /* metrics the table does not show: p95 and p99.9 by bootstrap, min untested */
    json_t *d = pr_compare_metric(&s[0], &s[1], "p99.9", NULL);
    assert_string_equal(json_string_value(json_object_get(d, "test")), "bootstrap");
    assert_string_equal(json_string_value(json_object_get(d, "verdict")), "regression");
    json_decref(d);
    d = pr_compare_metric(&s[0], &s[1], "min", NULL);
    assert_string_equal(json_string_value(json_object_get(d, "verdict")), "untested");
    json_decref(d);
    assert_null(pr_compare_metric(&s[0], &s[1], "p77", NULL));
    json_decref(doc);
    pr_compare_side_dispose(&s[0]);
    pr_compare_side_dispose(&s[1]);
    test_store_close(st);
}

/* Pairs by tags: one pair per shared key, the rest listed with the reason, nothing merged. */
static void test_compare__pairs(void **state)
{
    (void)state;
    pr_store *st = test_store_open();
    static const struct {
        const char *file, *cfg, *rate;
    } runs[] = {{"vegeta/basic.bin", "a", "100"}, {"vegeta/mixed.bin", "b", "100"},
                {"vegeta/post.bin", "a", "200"}, {"vegeta/refused.bin", "b", "200"},
                {"vegeta/basic.report.txt", "b", "200"}, {"vegeta/mixed.report.txt", "a", "300"}};
    int64_t id[6];
    for (int i = 0; i < 6; i++) {
        char name[16];
        snprintf(name, sizeof name, "r%d", i);
        id[i] = test_ingest(st, NULL, testdata(runs[i].file), name);
        assert_true(id[i] > 0);
        assert_int_equal(test_tag(st, id[i], "rate", runs[i].rate), 0);
    }
    int64_t a[] = {id[0], id[2], id[5]}, b[] = {id[1], id[3], id[4]};
    pr_pair_side A = {"a", "tag:cfg=a", a, 3}, B = {"b", "tag:cfg=b", b, 3};
    char *keys[] = {"rate"};
    json_t *doc;
    pr_error err;
    pr_error_clear(&err);
    assert_int_equal(pr_compare_pairs(st, &A, &B, keys, 1, NULL, &doc, &err), 0);
    json_t *pg = json_object_get(doc, "pairing");
    assert_int_equal(json_integer_value(json_object_get(pg, "n_pairs")), 1);
    json_t *p = json_array_get(json_object_get(pg, "pairs"), 0);
    assert_string_equal(json_string_value(json_object_get(p, "key_text")), "rate=100");
    /* rate 200: B has two runs (never merged) and A's one has no sure partner; rate 300: A only */
    json_t *u = json_object_get(pg, "unpaired");
    assert_int_equal(json_array_size(u), 3);
    assert_non_null(strstr(json_string_value(json_object_get(json_array_get(u, 0), "reason")), "ambiguous"));
    assert_non_null(strstr(json_string_value(json_object_get(json_array_get(u, 1), "reason")), "2 runs of B"));
    assert_string_equal(json_string_value(json_object_get(json_array_get(u, 2), "reason")),
                        "no run of B has rate=300");
    /* the pair's p99 row is the two-run comparison's: mixed is slower than basic */
    json_t *m = json_array_get(json_object_get(pg, "metrics"), 3);
    assert_string_equal(json_string_value(json_object_get(m, "metric")), "p99");
    assert_string_equal(json_string_value(json_object_get(m, "verdict")), "regression");
    assert_false(json_is_true(json_object_get(json_object_get(m, "sign_test"), "can_decide")));
    assert_string_equal(json_string_value(json_object_get(doc, "verdict")), "regression");
    json_decref(doc);
    test_store_close(st);
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare__mann_whitney_exact_small),
        cmocka_unit_test(test_compare__mann_whitney_identical_vs_shifted),
        cmocka_unit_test(test_compare__mann_whitney_brute_force),
        cmocka_unit_test(test_compare__bootstrap_ci),
        cmocka_unit_test(test_compare__fixtures_verdicts),
        cmocka_unit_test(test_compare__summary_only_untested),
        cmocka_unit_test(test_compare__too_few_samples_untested),
        cmocka_unit_test(test_compare__rel_text),
        cmocka_unit_test(test_compare__sign_test),
        cmocka_unit_test(test_compare__one_metric),
        cmocka_unit_test(test_compare__pairs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
