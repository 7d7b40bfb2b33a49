/* Tests of E-divisive change-point detection on series with known changes and on noise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include "analysis/changepoint.h"

static uint64_t rs;
static double noise(void) /* roughly N(0, 1) */
{
    double s = 0;
    for (int i = 0; i < 12; i++) {
        rs ^= rs << 13;
        rs ^= rs >> 7;
        rs ^= rs << 17;
        s += (double)(rs >> 11) / 9007199254740992.0;
    }
    return s - 6;
}

static void test_changepoint__single_step(void **state)
{
    (void)state;
    rs = 0x1234567;
    double x[40];
    for (int i = 0; i < 40; i++)
        x[i] = (i < 25 ? 100 : 120) + 3 * noise();
    pr_changepoint *cp;
    size_t n = pr_changepoints(x, 40, NULL, &cp);
    assert_int_equal(n, 1);
    assert_int_equal(cp[0].index, 25);
    assert_true(cp[0].p_value < 0.01);
    assert_true(fabs(cp[0].mean_before - 100) < 3 && fabs(cp[0].mean_after - 120) < 3);
    free(cp);
}

static void test_changepoint__two_steps(void **state)
{
    (void)state;
    rs = 0xBEEF;
    double x[60];
    for (int i = 0; i < 60; i++)
        x[i] = (i < 20 ? 50 : i < 40 ? 80 : 60) + 2 * noise();
    pr_changepoint *cp;
    size_t n = pr_changepoints(x, 60, NULL, &cp);
    assert_int_equal(n, 2);
    assert_int_equal(cp[0].index, 20);
    assert_int_equal(cp[1].index, 40);
    assert_true(cp[0].mean_after > cp[0].mean_before);
    assert_true(cp[1].mean_after < cp[1].mean_before);
    free(cp);
}

static void test_changepoint__noise_is_quiet(void **state)
{
    (void)state;
    int false_alarms = 0;
    for (int trial = 0; trial < 20; trial++) {
        rs = 1000 + (uint64_t)trial * 7919;
        double x[30];
        for (int i = 0; i < 30; i++)
            x[i] = 100 + 5 * noise();
        pr_changepoint *cp;
        pr_cp_opts o;
        pr_cp_opts_init(&o);
        o.permutations = 199;
        o.seed = (uint64_t)trial + 1;
        size_t n = pr_changepoints(x, 30, &o, &cp);
        false_alarms += n > 0;
        free(cp);
    }
    assert_true(false_alarms <= 1); /* alpha 0.01 over 20 series */
}

static void test_changepoint__deterministic_and_short(void **state)
{
    (void)state;
    rs = 77;
    double x[24];
    for (int i = 0; i < 24; i++)
        x[i] = (i < 12 ? 10 : 11) + 0.4 * noise();
    pr_changepoint *a, *b;
    size_t na = pr_changepoints(x, 24, NULL, &a), nb = pr_changepoints(x, 24, NULL, &b);
    assert_int_equal(na, nb);
    for (size_t i = 0; i < na; i++)
        assert_true(a[i].index == b[i].index && a[i].p_value == b[i].p_value);
    free(a);
    free(b);
    /* too short for two segments of the minimum size */
    pr_changepoint *c;
    assert_int_equal(pr_changepoints(x, 5, NULL, &c), 0);
    assert_null(c);
    size_t tau;
    double q;
    assert_int_equal(pr_cp_best_split(x, 5, 3, &tau, &q), -1);
    /* the best split of a clean step is the step */
    double y[] = {1, 1, 1, 1, 5, 5, 5, 5};
    assert_int_equal(pr_cp_best_split(y, 8, 2, &tau, &q), 0);
    assert_int_equal(tau, 4);
    assert_true(q > 0);
}

/* The smallest p a permutation test can reach: a perfect step over 7 runs is never a change
 * point at alpha 0.01 (floor 2/C(7,3)), over 12 runs it is. */
static void test_changepoint__power_floor(void **state)
{
    (void)state;
    pr_cp_opts o;
    pr_cp_opts_init(&o);
    assert_true(fabs(pr_cp_min_p(7, 3, &o) - 2.0 / 35) < 1e-12);
    assert_true(fabs(pr_cp_min_p(7, 4, &o) - 2.0 / 35) < 1e-12);
    assert_true(pr_cp_min_p(5, 2, &o) == 1);   /* no split of 5 with 3 a side */
    assert_true(pr_cp_min_p(40, 20, &o) == 1.0 / 1000); /* the Monte Carlo floor */
    assert_int_equal(pr_cp_min_runs(&o), 10); /* 2/C(10,5) = 0.0079 < 0.01 <= 2/C(9,4) */
    double x7[] = {21, 21, 21, 122, 122, 3000, 3000};
    pr_changepoint *cp;
    size_t tau;
    double q;
    assert_int_equal(pr_changepoints(x7, 7, &o, &cp), 0);
    assert_int_equal(pr_cp_best_split(x7, 7, o.min_size, &tau, &q), 0);
    assert_true(pr_cp_min_p(7, tau, &o) >= o.alpha);
    double x12[12];
    for (int i = 0; i < 12; i++)
        x12[i] = i < 6 ? 21 : 122;
    size_t n = pr_changepoints(x12, 12, &o, &cp);
    assert_int_equal(n, 1);
    assert_int_equal(cp[0].index, 6);
    assert_true(cp[0].p_value >= pr_cp_min_p(12, 6, &o));
    free(cp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_changepoint__single_step),
        cmocka_unit_test(test_changepoint__two_steps),
        cmocka_unit_test(test_changepoint__noise_is_quiet),
        cmocka_unit_test(test_changepoint__deterministic_and_short),
        cmocka_unit_test(test_changepoint__power_floor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
