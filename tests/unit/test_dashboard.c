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
    pr_run_points pts = {{n, t, lat, ok}, NULL, 0};
    json_t *run = json_pack("{s:i, s:s, s:[]}", "id", 1, "name", "r", "labels");
    pr_dash_lat dl;
    pr_dashboard_lat(&pts, 2, &dl);
    json_t *d = pr_dashboard_run_data(run, &dl);
    pr_dashboard_lat_dispose(&dl);
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
    pr_run_points pts = {{n, t, lat, ok}, NULL, 0};
    json_t *run = json_pack("{s:i, s:s, s:[]}", "id", 1, "name", "r", "labels");
    pr_dash_lat l1, l2;
    pr_dashboard_lat(&pts, 1, &l1);
    pr_dashboard_lat(&pts, 2, &l2);
    json_t *one = pr_dashboard_run_data(run, &l1);
    json_t *two = pr_dashboard_run_data(run, &l2);
    pr_dashboard_lat_dispose(&l1);
    pr_dashboard_lat_dispose(&l2);
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

/* The latency data as the page made it before (flat points, a log10 per point for its row):
 * the reference the chunked, row-edge path must equal. */
typedef struct ref_lat {
    int64_t w, dw;
    double lo, hi;
    pr_dash_col cols[PR_DASH_COLUMNS];
    uint32_t cells[PR_DASH_DENSITY_COLS * PR_DASH_DENSITY_ROWS];
} ref_lat;

static int ref_compute(size_t n, const int64_t *t, const int64_t *lat, const uint8_t *ok,
                       ref_lat *r)
{
    int64_t tmax = -1, lmin = INT64_MAX, lmax = 0;
    for (size_t i = 0; i < n; i++) {
        if (lat[i] < 0 || t[i] < 0)
            continue;
        tmax = t[i] > tmax ? t[i] : tmax;
        if (lat[i] > 0 && lat[i] < lmin)
            lmin = lat[i];
        lmax = lat[i] > lmax ? lat[i] : lmax;
    }
    if (tmax < 0)
        return 0;
    r->w = tmax / PR_DASH_COLUMNS + 1;
    r->dw = tmax / PR_DASH_DENSITY_COLS + 1;
    r->lo = log10((double)(lmin == INT64_MAX ? 1 : lmin));
    r->hi = log10((double)(lmax > 0 ? lmax : 1));
    if (r->hi <= r->lo)
        r->hi = r->lo + 1;
    for (size_t c = 0; c < PR_DASH_COLUMNS; c++)
        r->cols[c] = (pr_dash_col){-1, -1, -1, -1, 0, 0};
    memset(r->cells, 0, sizeof r->cells);
    const size_t rows = PR_DASH_DENSITY_ROWS, dcols = PR_DASH_DENSITY_COLS;
    for (size_t i = 0; i < n; i++) {
        int64_t l = lat[i];
        if (l < 0 || t[i] < 0)
            continue;
        pr_dash_col *k = &r->cols[t[i] / r->w];
        int good = ok[i];
        int64_t *mn = good ? &k->okmin : &k->errmin, *mx = good ? &k->okmax : &k->errmax;
        if (*mn < 0 || l < *mn)
            *mn = l;
        if (l > *mx)
            *mx = l;
        k->n++;
        k->nerr += !good;
        size_t c = (size_t)(t[i] / r->dw);
        double f = (log10((double)(l > 0 ? l : 1)) - r->lo) / (r->hi - r->lo);
        size_t row = f <= 0 ? 0 : f >= 1 ? rows - 1 : (size_t)(f * (double)rows);
        r->cells[(c < dcols ? c : dcols - 1) * rows + row]++;
    }
    return 1;
}

static void assert_lat_equal(const pr_dash_lat *L, const ref_lat *r)
{
    assert_true(L->w_ns == r->w && L->dens_w_ns == r->dw);
    assert_true(L->lo == r->lo && L->hi == r->hi);
    for (size_t c = 0; c < PR_DASH_COLUMNS; c++) {
        const pr_dash_col *a = &L->cols[c], *b = &r->cols[c];
        assert_true(a->okmin == b->okmin && a->okmax == b->okmax);
        assert_true(a->errmin == b->errmin && a->errmax == b->errmax);
        assert_true(a->n == b->n && a->nerr == b->nerr);
    }
    assert_memory_equal(L->cells, r->cells, sizeof r->cells);
}

/* Points [a, b) with a known latency as one chunk, as analysis/points.c makes them: offsets
 * when a span is under 2^32 ns, else the values; outcome bits only when there is an error. */
static void make_chunk(pr_chart_point_chunk *k, const int64_t *t, const int64_t *lat,
                       const uint8_t *ok, size_t a, size_t b)
{
    memset(k, 0, sizeof *k);
    int64_t *kt = malloc((b - a) * sizeof *kt), *kl = malloc((b - a) * sizeof *kl);
    uint8_t *bits = calloc((b - a) / 8 + 1, 1);
    int64_t tmin = INT64_MAX, tmax = INT64_MIN, lmin = INT64_MAX, lpos = INT64_MAX, lmax = -1;
    size_t n = 0;
    for (size_t i = a; i < b; i++) {
        if (lat[i] < 0)
            continue;
        kt[n] = t[i];
        kl[n] = lat[i];
        bits[n / 8] |= (uint8_t)(ok[i] << (n % 8));
        k->errors += !ok[i];
        tmin = t[i] < tmin ? t[i] : tmin;
        tmax = t[i] > tmax ? t[i] : tmax;
        lmin = lat[i] < lmin ? lat[i] : lmin;
        lpos = lat[i] > 0 && lat[i] < lpos ? lat[i] : lpos;
        lmax = lat[i] > lmax ? lat[i] : lmax;
        n++;
    }
    k->n = n;
    k->tmin_ns = tmin;
    k->tmax_ns = tmax;
    k->lmin_ns = lpos;
    k->lmax_ns = lmax;
    k->ok_bits = k->errors ? bits : NULL;
    if (!k->errors)
        free(bits);
    if (n && (uint64_t)tmax - (uint64_t)tmin <= UINT32_MAX) {
        uint32_t *d = malloc(n * sizeof *d);
        for (size_t i = 0; i < n; i++)
            d[i] = (uint32_t)(kt[i] - tmin);
        k->t0_ns = tmin;
        k->dt = d;
        free(kt);
    } else {
        k->t_ns = kt;
    }
    if (n && (uint64_t)lmax - (uint64_t)lmin <= UINT32_MAX) {
        uint32_t *d = malloc(n * sizeof *d);
        for (size_t i = 0; i < n; i++)
            d[i] = (uint32_t)(kl[i] - lmin);
        k->l0_ns = lmin;
        k->dl = d;
        free(kl);
    } else {
        k->latency_ns = kl;
    }
}

static void free_chunk(pr_chart_point_chunk *k)
{
    free((void *)(uintptr_t)k->dt);
    free((void *)(uintptr_t)k->dl);
    free((void *)(uintptr_t)k->t_ns);
    free((void *)(uintptr_t)k->latency_ns);
    free((void *)(uintptr_t)k->ok_bits);
}

static uint64_t xs(uint64_t *r)
{
    *r ^= *r << 13, *r ^= *r >> 7, *r ^= *r << 17;
    return *r;
}

/* The points of one case as flat arrays and as chunks of random sizes: the data from both, on
 * one thread and on two, equals the reference, and so do the documents made from it. */
static void check_case(size_t n, const int64_t *t, const int64_t *lat, const uint8_t *ok,
                       uint64_t *rnd, int *narrow, int *wide)
{
    ref_lat *ref = malloc(sizeof *ref);
    assert_true(ref_compute(n, t, lat, ok, ref));
    pr_chart_point_chunk *ck = calloc(n + 1, sizeof *ck);
    size_t nk = 0;
    for (size_t a = 0; a < n;) {
        size_t b = a + 1 + xs(rnd) % 3000;
        b = b > n ? n : b;
        make_chunk(&ck[nk], t, lat, ok, a, b);
        *narrow += ck[nk].dt && ck[nk].dl;
        *wide += !ck[nk].dt || !ck[nk].dl;
        if (ck[nk].n) /* points.c keeps no empty chunk */
            nk++;
        else
            free_chunk(&ck[nk]);
        a = b;
    }
    pr_run_points flat = {{n, t, lat, ok}, NULL, 0}, chunks = {{0, NULL, NULL, NULL}, ck, nk};
    json_t *run = json_pack("{s:i, s:s, s:[]}", "id", 1, "name", "r", "labels");
    json_t *first = NULL;
    for (int th = 1; th <= 2; th++) {
        for (int k = 0; k < 2; k++) {
            pr_dash_lat L;
            pr_dashboard_lat(k ? &chunks : &flat, th, &L);
            assert_lat_equal(&L, ref);
            json_t *d = pr_dashboard_run_data(run, &L);
            if (first)
                assert_true(json_equal(first, d));
            else
                first = json_incref(d);
            json_decref(d);
            pr_dashboard_lat_dispose(&L);
        }
    }
    json_decref(first);
    json_decref(run);
    for (size_t i = 0; i < nk; i++)
        free_chunk(&ck[i]);
    free(ck);
    free(ref);
}

/* 1.3 M random points (unknown latencies, some before the start, errors, latencies log-spread
 * from 0 to 20 s and some on either side of every density row's edge), then a run whose
 * positive latencies are all equal (the rows' range widened to one decade): the chunked
 * data with its rows found among precomputed edges equals a log10 per point. */
static void test_dashboard__chunks_and_row_edges_match_log10(void **state)
{
    (void)state;
    size_t n = 1300000;
    int64_t *t = malloc(n * sizeof *t), *lat = malloc(n * sizeof *lat);
    uint8_t *ok = malloc(n);
    uint64_t r = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = xs(&r);
        /* the first 2 s before the start, as a sample that began before the run's start */
        t[i] = (int64_t)i * 2700000 - 2000000000 + (int64_t)(x % 100000000);
        double e = (double)(x >> 11) / 9007199254740992.0; /* [0, 1) */
        lat[i] = x % 53 == 0 ? -1 : x % 211 == 0 ? 0 : (int64_t)pow(10, 4 + e * (i / 100000 % 3 ? 5.4 : 6.3));
        ok[i] = x % 29 != 0 || i % 50000 < 10000; /* runs of blocks without an error */
    }
    lat[7] = 1000;              /* the least latency > 0 ... */
    lat[n / 2] = 20000000000LL; /* ... and the greatest: rows from 10^3 to 2 * 10^10 ns */
    double lo = 3, hi = log10(20000000000.0);
    for (size_t row = 1; row < PR_DASH_DENSITY_ROWS; row++) {
        int64_t edge =
            (int64_t)llround(pow(10, lo + (hi - lo) * (double)row / PR_DASH_DENSITY_ROWS));
        for (int d = -3; d <= 3; d++)
            lat[xs(&r) % n] = edge + d;
    }
    lat[7] = 1000;
    lat[n / 2] = 20000000000LL;
    int narrow = 0, wide = 0;
    check_case(n, t, lat, ok, &r, &narrow, &wide);
    assert_true(narrow > 100 && wide > 10); /* both kinds of chunk met */
    for (size_t i = 0; i < 5000; i++)
        lat[i] = i % 3 ? 5000000 : 0;
    check_case(5000, t, lat, ok, &r, &narrow, &wide);
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
        pr_label_extras_add(&lx, 1, &s, i < 3 ? 1 : 0, i == 3 ? e1 : i == 4 ? e2 : 0, i % 2, i % 2);
    }
    pr_sample_init(&s);
    pr_label_extras_add(&lx, 1, &s, 0, e2, 0, 0);
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
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dashboard__spike_survives_downsampling),
        cmocka_unit_test(test_dashboard__columns_match_plain_division),
        cmocka_unit_test(test_dashboard__chunks_and_row_edges_match_log10),
        cmocka_unit_test(test_dashboard__series_units),
        cmocka_unit_test(test_dashboard__label_apdex_top_errors),
        cmocka_unit_test(test_dashboard__verdict),
        cmocka_unit_test(test_dashboard__data_is_script_safe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
