/* Unit tests: the interactive report's data (min/max-preserving columns, density, series),
 * per-label Apdex and top errors, thresholds and the verdict. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/report_labels.h"
#include "analysis/threshold.h"
#include "model/xalloc.h"
#include "render/dashboard.h"

static double at(json_t *arr, size_t i)
{
    json_t *v = json_array_get(arr, i);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* 1 M samples of 2 ms and one of 3 s: the spike stays the max of its column, and the counts
 * add up to every sample. */
static void test_dashboard__spike_survives_downsampling(void **state)
{
    (void)state;
    size_t n = 1000000;
    int64_t *t = pr_xmalloc(n * sizeof *t), *lat = pr_xmalloc(n * sizeof *lat);
    uint8_t *ok = pr_xmalloc(n);
    for (size_t i = 0; i < n; i++) {
        t[i] = (int64_t)i * 60000; /* 60 s */
        lat[i] = 2000000;
        ok[i] = i % 100 != 0;
    }
    lat[654321] = 3000000000LL;
    pr_chart_points pts = {n, t, lat, ok};
    json_t *run = json_pack("{s:i, s:s, s:[]}", "id", 1, "name", "r", "labels");
    json_t *d = pr_dashboard_run_data(run, &pts);
    json_t *L = json_object_get(d, "lat");
    assert_non_null(L);
    json_t *mx = json_object_get(L, "okmax"), *cnt = json_object_get(L, "n");
    assert_int_equal(json_array_size(mx), PR_DASH_COLUMNS);
    double w = json_number_value(json_object_get(L, "w_s"));
    size_t col = (size_t)(654321 * 60e-6 / w);
    assert_true(fabs(at(mx, col) - 3000.0) < 1e-6);
    double best = 0, total = 0, errs = 0;
    for (size_t i = 0; i < json_array_size(mx); i++) {
        if (i != col)
            best = fmax(best, at(mx, i));
        total += at(cnt, i);
        errs += at(json_object_get(L, "nerr"), i);
    }
    assert_true(fabs(best - 2.0) < 1e-9);
    assert_true(total == (double)n);
    assert_true(errs == (double)(n / 100));
    json_t *dens = json_object_get(L, "dens");
    double dsum = 0;
    for (size_t i = 0; i < json_array_size(json_object_get(dens, "c")); i++)
        dsum += at(json_object_get(dens, "c"), i);
    assert_true(dsum == (double)n);
    json_decref(d);
    json_decref(run);
    free(t);
    free(lat);
    free(ok);
}

/* 1.2 M random points (some unknown): the columns' counts and the density grid against a plain
 * division and log10 per point, and the same document on one analysis thread and on two. */
static void test_dashboard__columns_match_plain_division(void **state)
{
    (void)state;
    size_t n = 1200000;
    int64_t *t = pr_xmalloc(n * sizeof *t), *lat = pr_xmalloc(n * sizeof *lat);
    uint8_t *ok = pr_xmalloc(n);
    uint64_t r = 88172645463325252ull;
    for (size_t i = 0; i < n; i++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        t[i] = (int64_t)(r % 3600000000000ull); /* an hour */
        lat[i] = r % 97 == 0 ? -1 : (int64_t)(r >> 20) % 5000000000LL;
        ok[i] = r % 31 != 0;
    }
    pr_chart_points pts = {n, t, lat, ok};
    json_t *run = json_pack("{s:i, s:s, s:[]}", "id", 1, "name", "r", "labels");
    setenv("PERFREPORT_THREADS", "1", 1);
    json_t *one = pr_dashboard_run_data(run, &pts);
    setenv("PERFREPORT_THREADS", "2", 1);
    json_t *two = pr_dashboard_run_data(run, &pts);
    unsetenv("PERFREPORT_THREADS");
    assert_true(json_equal(one, two));
    int64_t tmax = -1, lmin = INT64_MAX, lmax = 0;
    for (size_t i = 0; i < n; i++)
        if (lat[i] >= 0) {
            tmax = t[i] > tmax ? t[i] : tmax;
            lmin = lat[i] > 0 && lat[i] < lmin ? lat[i] : lmin;
            lmax = lat[i] > lmax ? lat[i] : lmax;
        }
    int64_t w = tmax / PR_DASH_COLUMNS + 1, dw = tmax / PR_DASH_DENSITY_COLS + 1;
    double lo = log10((double)lmin), hi = log10((double)lmax);
    double *cnt = calloc(PR_DASH_COLUMNS, sizeof *cnt);
    double *cells = calloc(PR_DASH_DENSITY_COLS * PR_DASH_DENSITY_ROWS, sizeof *cells);
    for (size_t i = 0; i < n; i++) {
        if (lat[i] < 0)
            continue;
        cnt[t[i] / w]++;
        double f = (log10((double)(lat[i] > 0 ? lat[i] : 1)) - lo) / (hi - lo);
        size_t row = f <= 0   ? 0
                     : f >= 1 ? PR_DASH_DENSITY_ROWS - 1
                              : (size_t)(f * PR_DASH_DENSITY_ROWS);
        cells[(size_t)(t[i] / dw) * PR_DASH_DENSITY_ROWS + row]++;
    }
    json_t *L = json_object_get(one, "lat");
    for (size_t i = 0; i < json_array_size(json_object_get(L, "n")); i++)
        assert_true(at(json_object_get(L, "n"), i) == cnt[i]);
    json_t *c = json_object_get(json_object_get(L, "dens"), "c");
    assert_int_equal(json_array_size(c), PR_DASH_DENSITY_COLS * PR_DASH_DENSITY_ROWS);
    for (size_t i = 0; i < json_array_size(c); i++)
        assert_true(at(c, i) == cells[i]);
    free(cnt);
    free(cells);
    json_decref(one);
    json_decref(two);
    json_decref(run);
    free(t);
    free(lat);
    free(ok);
}

/* Series: counts per interval become rates, ns become ms, a code's absence is 0 per second. */
static void test_dashboard__series_units(void **state)
{
    (void)state;
    json_error_t je;
    json_t *run = json_loads(
        "{\"id\": 2, \"labels\": [], \"timeseries\": {\"interval_ns\": 500000000, \"points\": ["
        "{\"t_ns\": 0, \"requests\": 10, \"successes\": 9, \"errors\": 1, \"p50_ns\": 1500000,"
        " \"status_codes\": {\"200\": 9, \"500\": 1}},"
        "{\"t_ns\": 500000000, \"requests\": 4, \"successes\": 4, \"errors\": 0,"
        " \"status_codes\": {\"200\": 4}}]},"
        " \"findings\": [{\"index\": 1, \"id\": \"x\", \"t_ns\": 500000000}]}",
        0, &je);
    assert_non_null(run);
    json_t *d = pr_dashboard_run_data(run, NULL);
    json_t *ts = json_object_get(d, "ts");
    assert_true(at(json_object_get(ts, "req"), 0) == 20.0);
    assert_true(at(json_object_get(ts, "ok"), 1) == 8.0);
    assert_true(fabs(at(json_object_get(ts, "p50"), 0) - 1.5) < 1e-12);
    assert_true(isnan(at(json_object_get(ts, "p50"), 1))); /* unknown stays a gap */
    assert_true(at(json_object_get(json_object_get(ts, "codes"), "500"), 1) == 0.0);
    assert_null(json_object_get(ts, "thr")); /* no thread counts, no series */
    json_t *f = json_array_get(json_object_get(d, "findings"), 0);
    assert_true(json_number_value(json_object_get(f, "t")) == 0.5);
    assert_true(json_number_value(json_object_get(f, "from")) < 0.5);
    assert_true(json_number_value(json_object_get(f, "to")) > 0.5);
    json_decref(d);
    json_decref(run);
}

/* Apdex per label (errors frustrated) and the top errors, most frequent first. */
static void test_dashboard__label_apdex_top_errors(void **state)
{
    (void)state;
    pr_strtab *names = pr_strtab_new();
    uint32_t e1 = pr_strtab_intern_cstr(names, "timeout"), e2 = pr_strtab_intern_cstr(names, "500");
    pr_label_extras lx;
    pr_label_extras_init(&lx, 2, 0, 500000000, 1500000000);
    pr_sample s;
    static const int64_t lat[] = {100000000, 700000000, 2000000000, 100000000, 100000000};
    for (int i = 0; i < 5; i++) {
        pr_sample_init(&s);
        s.latency_ns = lat[i];
        pr_label_extras_add(&lx, 1, &s, i < 3 ? 1 : 0, i == 3 ? e1 : i == 4 ? e2 : 0, i % 2);
    }
    pr_sample_init(&s);
    pr_label_extras_add(&lx, 1, &s, 0, e2, 0);
    json_t *l = json_object();
    pr_label_extras_json(&lx, 1, l, names, 1000000000, 2);
    json_t *ap = json_object_get(l, "apdex");
    assert_int_equal(json_integer_value(json_object_get(ap, "satisfied")), 1);
    assert_int_equal(json_integer_value(json_object_get(ap, "tolerating")), 1);
    assert_true(fabs(json_number_value(json_object_get(ap, "score")) - 1.5 / 6) < 1e-12);
    assert_string_equal(json_string_value(json_object_get(ap, "score_text")), "0.250");
    json_t *top = json_object_get(l, "top_errors");
    assert_int_equal(json_array_size(top), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(top, 0), "message")),
                        "500");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(top, 0), "count")), 2);
    json_t *pts = json_object_get(json_object_get(l, "timeseries"), "points");
    assert_int_equal(json_array_size(pts), 2);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(pts, 0), "requests")), 4);
    json_decref(l);
    pr_label_extras_dispose(&lx);
    pr_strtab_free(names);
}

/* The verdict: thresholds, failures, critical findings and the limit. */
static void test_dashboard__verdict(void **state)
{
    (void)state;
    pr_threshold ts[2];
    pr_error err;
    assert_int_equal(pr_threshold_parse(&ts[0], "p99=250ms", 1, &err), 0);
    assert_int_equal(pr_threshold_parse(&ts[1], "throughput=100/s", 0, &err), 0);
    assert_int_equal(pr_threshold_parse(&ts[1], "nonsense", 0, &err), PR_EUSAGE);
    assert_int_equal(pr_threshold_parse(&ts[1], "throughput=100/s", 0, &err), 0);
    json_error_t je;
    json_t *doc = json_loads(
        "{\"runs\": [{\"id\": 7, \"stats\": {\"latency_ns\": {\"p99\": 300000000},"
        " \"throughput_per_s\": 150.0}, \"findings\": ["
        "{\"id\": \"tail_amplification\", \"severity\": \"warning\", \"title\": \"tail\"},"
        "{\"id\": \"saturation\", \"severity\": \"critical\", \"title\": \"sat\", \"t_ns\": 5}]}]}",
        0, &je);
    pr_threshold_verdict(doc, ts, 2, 0);
    json_t *v = json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "verdict");
    assert_true(json_is_false(json_object_get(v, "pass")));
    assert_int_equal(json_array_size(json_object_get(v, "failures")), 1);
    assert_string_equal(json_string_value(json_object_get(json_object_get(v, "limit"), "id")),
                        "saturation");
    assert_string_equal(json_string_value(json_object_get(json_object_get(v, "limit"), "anchor")),
                        "finding-7-2");
    assert_int_equal(json_array_size(json_object_get(v, "critical")), 1);
    json_t *dv = json_object_get(doc, "verdict");
    assert_int_equal(json_integer_value(json_object_get(dv, "failed")), 1);
    assert_int_equal(json_integer_value(json_object_get(dv, "checked")), 2);
    pr_threshold_verdict(doc, NULL, 0, 0);
    assert_true(json_is_null(json_object_get(json_object_get(doc, "verdict"), "pass")));
    json_decref(doc);
}

/* The data the page inlines cannot close its <script> element. */
static void test_dashboard__data_is_script_safe(void **state)
{
    (void)state;
    json_error_t je;
    json_t *ctx = json_loads(
        "{\"runs\": [{\"id\": 1, \"name\": \"</script><!--x\", \"labels\": []}]}", 0, &je);
    assert_int_equal(pr_dashboard_add(ctx, NULL, NULL, NULL), 0);
    const char *data =
        json_string_value(json_object_get(json_object_get(ctx, "dashboard"), "data"));
    assert_non_null(data);
    assert_null(strchr(data, '<'));
    assert_non_null(strstr(data, "\\u003c/script\\u003e\\u003c!--x"));
    json_t *back = json_loads(data, 0, &je);
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(json_object_get(back, "runs"), 0), "name")),
                        "</script><!--x");
    json_decref(back);
    const char *lib =
        json_string_value(json_object_get(json_object_get(ctx, "dashboard"), "library"));
    assert_true(lib && strlen(lib) > 10000 && strstr(lib, "uPlot"));
    json_decref(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dashboard__spike_survives_downsampling),
        cmocka_unit_test(test_dashboard__columns_match_plain_division),
        cmocka_unit_test(test_dashboard__series_units),
        cmocka_unit_test(test_dashboard__label_apdex_top_errors),
        cmocka_unit_test(test_dashboard__verdict),
        cmocka_unit_test(test_dashboard__data_is_script_safe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
