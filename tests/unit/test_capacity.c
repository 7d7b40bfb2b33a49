/* Tests of the capacity analysis: USL fit on generated points, knee and sustainable throughput. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "analysis/capacity.h"
#include "model/xalloc.h"

static void test_capacity__usl_recovers_exact_parameters(void **state)
{
    (void)state;
    pr_usl truth = {.lambda = 120, .sigma = 0.05, .kappa = 0.002};
    double N[] = {1, 2, 4, 8, 16, 32, 48, 64}, X[8];
    for (int i = 0; i < 8; i++)
        X[i] = pr_usl_eval(&truth, N[i]);
    pr_usl u;
    assert_int_equal(pr_usl_fit(N, X, 8, &u), 0);
    assert_true(fabs(u.lambda - 120) < 1e-6 * 120);
    assert_true(fabs(u.sigma - 0.05) < 1e-6);
    assert_true(fabs(u.kappa - 0.002) < 1e-8);
    assert_true(u.r2 > 0.999999);
    double nstar = sqrt((1 - 0.05) / 0.002); /* 21.79 */
    assert_true(fabs(u.peak_n - nstar) < 1e-4);
    assert_true(fabs(u.peak_x - pr_usl_eval(&truth, nstar)) < 1e-6);
}

static void test_capacity__usl_with_noise(void **state)
{
    (void)state;
    pr_usl truth = {.lambda = 100, .sigma = 0.03, .kappa = 0.0005};
    double N[12], X[12];
    static const double noise[12] = {0.01, -0.02, 0.015, -0.01, 0.02, -0.015,
                                     0.005, -0.005, 0.01, -0.02, 0.015, 0.0};
    for (int i = 0; i < 12; i++) {
        N[i] = 1 + 8 * i;
        X[i] = pr_usl_eval(&truth, N[i]) * (1 + noise[i]);
    }
    pr_usl u;
    assert_int_equal(pr_usl_fit(N, X, 12, &u), 0);
    assert_true(fabs(u.lambda - 100) < 5);
    assert_true(fabs(u.sigma - 0.03) < 0.01);
    assert_true(fabs(u.kappa - 0.0005) < 0.0002);
    assert_true(u.r2 > 0.98);
    assert_true(fabs(u.peak_n - sqrt(0.97 / 0.0005)) < 8); /* 44 */
}

static void test_capacity__usl_linear_and_amdahl(void **state)
{
    (void)state;
    /* perfectly linear: sigma = kappa = 0, no peak */
    double N[] = {1, 2, 3, 4, 5}, X[] = {10, 20, 30, 40, 50};
    pr_usl u;
    assert_int_equal(pr_usl_fit(N, X, 5, &u), 0);
    assert_true(fabs(u.lambda - 10) < 1e-6);
    assert_true(u.sigma < 1e-9 && u.kappa < 1e-9);
    assert_true(isnan(u.peak_n));
    /* exact fit: no residual */
    assert_int_equal((int)u.points, 5);
    assert_true(u.resid_se < 1e-6 && fabs(u.max_resid) < 1e-6);
    /* no more points than parameters: no fit (three points fit any three parameters) */
    assert_int_equal(pr_usl_fit(N, X, 3, &u), -1);
    assert_int_equal(pr_usl_fit(N, X, 2, &u), -1);
    /* four points but only three distinct loads: no fit either */
    double N4[] = {1, 2, 3, 3}, X4[] = {10, 20, 30, 31};
    assert_int_equal(pr_usl_fit(N4, X4, 4, &u), -1);
}

static void test_capacity__usl_residuals(void **state)
{
    (void)state;
    /* linear but for one point 6/s low: the residuals say where the fit is poor */
    double N[] = {1, 2, 3, 4, 5, 6}, X[] = {10, 20, 30, 34, 50, 60};
    pr_usl u;
    assert_int_equal(pr_usl_fit(N, X, 6, &u), 0);
    assert_int_equal((int)u.points, 6);
    assert_true(u.max_resid_n == 4);
    assert_true(u.max_resid < -3);
    double sse = 0;
    for (size_t i = 0; i < 6; i++)
        sse += (X[i] - pr_usl_eval(&u, N[i])) * (X[i] - pr_usl_eval(&u, N[i]));
    assert_true(fabs(u.resid_se - sqrt(sse / 3)) < 1e-9);
}

static pr_capacity_point pt(int64_t id, double load, double x, double p99_ms, double err)
{
    pr_capacity_point p = {id, "r", load, x, p99_ms * 1e6, err, NULL};
    return p;
}

static void test_capacity__knee_rate(void **state)
{
    (void)state;
    /* given out of order: analysis sorts by load */
    pr_capacity_point p[] = {pt(3, 300, 298, 40, 0), pt(1, 100, 100, 13, 0), pt(5, 500, 392, 199, 0.19),
                             pt(2, 200, 199, 20, 0), pt(4, 400, 387, 199, 0), pt(6, 600, 388, 199, 0.33)};
    pr_capacity_opts o;
    pr_capacity_opts_init(&o);
    json_t *a = pr_capacity_analyse(p, 6, &o);
    json_t *k = json_object_get(a, "knee");
    assert_true(json_is_object(k));
    assert_int_equal(json_integer_value(json_object_get(k, "index")), 4);
    assert_true(json_number_value(json_object_get(k, "load")) == 500);
    json_t *m = json_object_get(a, "max_sustainable");
    assert_true(json_number_value(json_object_get(m, "throughput_per_s")) == 387);
    /* a rate load: no USL (it models concurrency), a note says so; efficiency is X / offered */
    assert_true(json_is_null(json_object_get(a, "usl")));
    assert_non_null(strstr(json_string_value(json_object_get(a, "usl_note")), "offered rate"));
    json_t *p0 = json_array_get(json_object_get(a, "points"), 3);
    assert_true(fabs(json_number_value(json_object_get(p0, "efficiency")) - 387.0 / 400) < 1e-12);
    /* the knee at 500 crossed both the throughput and the error limit, and says so */
    json_t *cr = json_object_get(k, "crossed");
    assert_int_equal(json_array_size(cr), 2);
    assert_string_equal(json_string_value(json_array_get(cr, 0)), "throughput");
    assert_string_equal(json_string_value(json_array_get(cr, 1)), "errors");
    json_decref(a);
    /* with a 100 ms SLO the knee moves to 400 and the best sustainable point is 300 */
    o.slo_p99_ns = 100e6;
    a = pr_capacity_analyse(p, 6, &o);
    k = json_object_get(a, "knee");
    assert_true(json_number_value(json_object_get(k, "load")) == 400);
    assert_string_equal(json_string_value(json_object_get(k, "reason")), "p99 above the SLO");
    assert_string_equal(json_string_value(json_array_get(json_object_get(k, "crossed"), 0)), "slo");
    assert_int_equal(json_array_size(json_object_get(k, "crossed")), 1);
    assert_string_equal(json_string_value(json_object_get(k, "detail")), "p99 199 ms > SLO 100 ms");
    assert_true(json_number_value(json_object_get(json_object_get(a, "max_sustainable"), "load")) == 300);
    json_decref(a);
}

static void test_capacity__knee_concurrency_and_none(void **state)
{
    (void)state;
    pr_capacity_point p[] = {pt(1, 1, 100, 10, 0), pt(2, 2, 195, 10, 0), pt(3, 4, 380, 11, 0),
                             pt(4, 8, 700, 12, 0), pt(5, 16, 760, 22, 0), pt(6, 32, 740, 45, 0)};
    pr_capacity_opts o;
    pr_capacity_opts_init(&o);
    o.kind = PR_LOAD_KIND_CONCURRENCY;
    json_t *a = pr_capacity_analyse(p, 6, &o);
    /* 8 -> 16 doubles the load but adds 8.6% throughput: the knee is at 16 */
    assert_true(json_number_value(json_object_get(json_object_get(a, "knee"), "load")) == 16);
    assert_true(json_number_value(json_object_get(json_object_get(a, "max_sustainable"), "load")) == 8);
    /* concurrency with 6 loads: a USL fit with its quality; efficiency relative to the first */
    json_t *u = json_object_get(a, "usl");
    assert_true(json_is_object(u));
    assert_int_equal(json_integer_value(json_object_get(u, "degrees_of_freedom")), 3);
    assert_int_equal(json_array_size(json_object_get(u, "residuals_per_s")), 6);
    json_t *p2 = json_array_get(json_object_get(a, "points"), 2);
    assert_true(fabs(json_number_value(json_object_get(p2, "efficiency")) - (380.0 / 4) / 100) < 1e-12);
    json_decref(a);
    /* three loads: no fit, and the note says why */
    a = pr_capacity_analyse(p, 3, &o);
    assert_true(json_is_null(json_object_get(a, "usl")));
    assert_non_null(strstr(json_string_value(json_object_get(a, "usl_note")), "at least 4 distinct loads"));
    json_decref(a);
    /* scaling all the way: no knee, best is the last point */
    a = pr_capacity_analyse(p, 4, &o);
    assert_true(json_is_null(json_object_get(a, "knee")));
    assert_true(json_number_value(json_object_get(json_object_get(a, "max_sustainable"), "load")) == 8);
    json_decref(a);
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capacity__usl_recovers_exact_parameters),
        cmocka_unit_test(test_capacity__usl_with_noise),
        cmocka_unit_test(test_capacity__usl_linear_and_amdahl),
        cmocka_unit_test(test_capacity__usl_residuals),
        cmocka_unit_test(test_capacity__knee_rate),
        cmocka_unit_test(test_capacity__knee_concurrency_and_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
