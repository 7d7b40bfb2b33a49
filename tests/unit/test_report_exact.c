/* Unit tests: the report's exact mode (one sorted array of latencies and cells, analysis/
 * report_acc.c) against the old exact computation on random data: a sorted copy of every
 * series' values (pr_percentile_sorted, pr_dist_compute) per run, label, "other" row,
 * interval and label interval, for every duration, with windows, merged runs, transaction
 * samples, unknown values, top rows and URL patterns. Every number must be the same. */
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
#include "analysis/cellsort.h"
#include "analysis/jmeter_stats.h"
#include "analysis/pattern.h"
#include "analysis/peer_stats.h"
#include "analysis/vegeta_stats.h"
#include "analysis/report.h"
#include "analysis/report_acc.h"
#include "analysis/stats.h"
#include "model/native.h"
#include "tests/unit/lib/gen.h"
#include "tests/unit/lib/ingest.h"
#include "model/xalloc.h"

/* A series of the reference: the values of each duration, kept and sorted (the old way). */
typedef struct ref {
    char name[256];
    pr_vec v[PR_NDUR];
} ref;

typedef struct refset {
    ref *r;
    size_t n;
} refset;

static ref *ref_get(refset *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->r[i].name, name))
            return &s->r[i];
    s->r = realloc(s->r, (s->n + 1) * sizeof *s->r);
    ref *r = &s->r[s->n++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    return r;
}

static void ref_add(ref *r, const pr_sample *x)
{
    if (x->latency_ns != PR_UNKNOWN)
        pr_vec_push(&r->v[PR_D_LATENCY], x->latency_ns);
    if (x->connect_ns != PR_UNKNOWN)
        pr_vec_push(&r->v[PR_D_CONNECT], x->connect_ns);
    if (x->ttfb_ns != PR_UNKNOWN) {
        pr_vec_push(&r->v[PR_D_TTFB], x->ttfb_ns);
        if (x->latency_ns != PR_UNKNOWN && x->latency_ns >= x->ttfb_ns)
            pr_vec_push(&r->v[PR_D_RECEIVE], x->latency_ns - x->ttfb_ns);
    }
    if (x->lateness_ns != PR_UNKNOWN)
        pr_vec_push(&r->v[PR_D_LATENESS], x->lateness_ns);
}

static void refset_free(refset *s)
{
    for (size_t i = 0; i < s->n; i++)
        for (int d = 0; d < PR_NDUR; d++)
            pr_vec_dispose(&s->r[i].v[d]);
    free(s->r);
}

static const char *const dur_names[PR_NDUR] = {"latency_ns", "connect_ns", "ttfb_ns", "receive_ns",
                                               "lateness_ns"};

static void pkey(double p, char *buf, size_t n)
{
    snprintf(buf, n, "p%g", p);
    for (char *c = buf; *c; c++)
        if (*c == '.')
            *c = '_';
}

static int64_t jint(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    assert_true(json_is_integer(v));
    return (int64_t)json_integer_value(v);
}

/* The model's distribution obj[name] against the sorted reference values. */
static void check_dist(json_t *obj, const char *name, pr_vec *v, const pr_report_opts *o)
{
    json_t *d = json_object_get(obj, name);
    if (v->n == 0) {
        assert_null(d);
        return;
    }
    assert_non_null(d);
    pr_dist want;
    pr_dist_compute(v, &want); /* sorts */
    assert_int_equal(jint(d, "min"), want.min);
    assert_int_equal(jint(d, "max"), want.max);
    assert_int_equal(jint(d, "mean"), (int64_t)llround(want.mean));
    assert_int_equal(jint(d, "stdev"), (int64_t)llround(want.stdev));
    char key[32];
    for (size_t i = 0; i < o->npercentiles; i++) {
        pkey(o->percentiles[i], key, sizeof key);
        assert_int_equal(jint(d, key), pr_percentile_sorted(v->v, v->n, o->percentiles[i]));
    }
}

static void check_series(json_t *obj, ref *r, const pr_report_opts *o)
{
    for (int d = 0; d < PR_NDUR; d++)
        check_dist(obj, dur_names[d], &r->v[d], o);
}

/* The time-series points (p50/p90/p99/max of the latencies sent in each interval) against
 * per-interval sorted copies. */
static void check_bins(json_t *ts, pr_vec *bins, size_t nb, int with_mean)
{
    json_t *pts = json_object_get(ts, "points");
    for (size_t k = 0; k < json_array_size(pts) && k < nb; k++) {
        json_t *p = json_array_get(pts, k);
        pr_vec *v = &bins[k];
        if (!v->n) {
            assert_null(json_object_get(p, "p50_ns"));
            continue;
        }
        pr_dist want;
        pr_dist_compute(v, &want);
        assert_int_equal(jint(p, "p50_ns"), pr_percentile_sorted(v->v, v->n, 50));
        assert_int_equal(jint(p, "p90_ns"), pr_percentile_sorted(v->v, v->n, 90));
        assert_int_equal(jint(p, "p99_ns"), pr_percentile_sorted(v->v, v->n, 99));
        assert_int_equal(jint(p, "max_ns"), want.max);
        if (with_mean)
            assert_int_equal(jint(p, "mean_ns"), (int64_t)llround(want.mean));
    }
}

/* The spectrum and the 1-2-5 histogram of the run's latencies. */
static void check_distribution(json_t *run, pr_vec *lat)
{
    pr_sort_i64(lat->v, lat->n);
    json_t *spec = json_object_get(run, "spectrum");
    assert_int_equal(json_array_size(spec), PR_SPECTRUM_POINTS);
    for (int k = 0; k < PR_SPECTRUM_POINTS; k++)
        assert_int_equal(jint(json_array_get(spec, (size_t)k), "latency_ns"),
                         pr_percentile_sorted(lat->v, lat->n, pr_report_spectrum_pct(k)));
    size_t i;
    json_t *b;
    json_array_foreach (json_object_get(run, "histogram"), i, b) {
        int64_t from = jint(b, "from_ns"), to = jint(b, "to_ns"), c = 0;
        for (size_t j = 0; j < lat->n; j++)
            c += lat->v[j] >= from && lat->v[j] < to;
        if (i == 0) /* the first bucket also holds what is below its bound */
            for (size_t j = 0; j < lat->n; j++)
                c += lat->v[j] < from;
        assert_int_equal(jint(b, "count"), c);
    }
}

typedef struct scenario {
    uint64_t seed;
    size_t n, runs;
    int64_t from_ns, to_ns; /* PR_UNKNOWN: none */
    int64_t top;
    int by_url_pattern;
    int few_codes; /* status codes 0, 200, 300, 400, 500 only (else up to 400 of them) */
    int flagless;  /* the first half of each run's samples without flags (blocks without a
                    * Transaction Controller sample) */
    int long_tail; /* latencies of minutes and hours among them (from 2^38 ns on, which a large
                    * pair set keeps apart: analysis/cellsort.h) */
} scenario;

/* The key of a sample as the model names its row. */
static void key_of(const scenario *sc, const pr_run *run, const pr_sample *x, char *buf, size_t n)
{
    uint32_t id = sc->by_url_pattern ? x->url : x->label;
    const char *s = id ? pr_run_str(run, id) : NULL;
    if (!s) {
        snprintf(buf, n, "(none)");
        return;
    }
    if (!sc->by_url_pattern) {
        snprintf(buf, n, "%s", s);
        return;
    }
    pr_buf b = PR_BUF_INIT;
    pr_pattern_url(s, strlen(s), &b);
    snprintf(buf, n, "%s", b.p ? b.p : "");
    pr_buf_dispose(&b);
}

/* The scenario's runs, generated and ingested through the native reader into st. */
static void ingest_runs(pr_store *st, const scenario *sc, pr_run **runs, pr_sample **samples,
                        int64_t *ids)
{
    for (size_t i = 0; i < sc->runs; i++) {
        runs[i] = pr_run_new();
        samples[i] = calloc(sc->n, sizeof **samples);
        gen_samples(runs[i], samples[i], sc->n, sc->seed + i);
        for (size_t k = 0; sc->few_codes && k < sc->n; k++)
            if (samples[i][k].status)
                samples[i][k].status = (uint16_t)(200 + samples[i][k].status % 4 * 100);
        for (size_t k = 0; sc->flagless && k < sc->n / 2; k++)
            samples[i][k].flags = 0;
        for (size_t k = 0; sc->long_tail && k < sc->n; k += 499)
            samples[i][k].latency_ns = ((int64_t)(k % 7) << 38) + (int64_t)k * 1000003;
        char name[24];
        snprintf(name, sizeof name, "r%zu", i);
        ids[i] = test_ingest_samples(st, runs[i], samples[i], sc->n, name);
        assert_true(ids[i] > 0);
    }
}

/* The rows of the model: each shown label against its reference, the other row against the
 * union of the rest. */
static void check_rows(json_t *run, refset *rows, const scenario *sc, const pr_report_opts *o)
{
    json_t *labels = json_object_get(run, "labels");
    refset other = {0};
    ref *oth = ref_get(&other, "other");
    size_t shown = 0, i;
    json_t *l;
    json_array_foreach (labels, i, l) {
        if (json_is_true(json_object_get(l, "other")))
            continue;
        ref *r = ref_get(rows, json_string_value(json_object_get(l, "label")));
        check_series(l, r, o);
        r->name[0] = 0; /* used */
        shown++;
    }
    for (size_t k = 0; k < rows->n; k++)
        for (int d = 0; rows->r[k].name[0] && d < PR_NDUR; d++)
            for (size_t j = 0; j < rows->r[k].v[d].n; j++)
                pr_vec_push(&oth->v[d], rows->r[k].v[d].v[j]);
    json_t *last = json_array_get(labels, json_array_size(labels) - 1);
    /* more keys than the top rows: an "other" row, and it holds every key not shown */
    assert_int_equal(json_is_true(json_object_get(last, "other")),
                     sc->top > 0 && rows->n > (size_t)sc->top);
    if (json_is_true(json_object_get(last, "other")))
        check_series(last, oth, o);
    else
        assert_int_equal(oth->v[PR_D_LATENCY].n, 0);
    if (sc->top)
        assert_true(shown <= (size_t)sc->top);
    refset_free(&other);
}

static void run_scenario(const scenario *sc)
{
    pr_store *st = test_store_open();
    assert_non_null(st);
    pr_run **runs = calloc(sc->runs, sizeof *runs);
    pr_sample **samples = calloc(sc->runs, sizeof *samples);
    int64_t ids[4];
    ingest_runs(st, sc, runs, samples, ids);
    pr_report_opts o;
    pr_report_opts_init(&o);
    static const double pcts[] = {0, 25, 50, 90, 99, 99.9, 100};
    memcpy(o.percentiles, pcts, sizeof pcts);
    o.npercentiles = 7;
    o.label_timeseries = 1;
    o.findings = 0;
    o.exact_limit = 0;
    o.from_ns = sc->from_ns;
    o.to_ns = sc->to_ns;
    o.top = sc->top;
    if (sc->by_url_pattern)
        assert_int_equal(pr_report_parse_by(&o, "url-pattern"), 0);
    json_t *doc;
    pr_error err;
    pr_error_clear(&err);
    assert_int_equal(pr_report_build(st, ids, sc->runs, sc->runs > 1, &o, &doc, &err), 0);
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    assert_string_equal(json_string_value(json_object_get(json_object_get(run, "stats"), "mode")),
                        "exact");
    /* the reference, from the samples in scan order */
    json_t *ts = json_object_get(run, "timeseries");
    int64_t t0 = ts ? jint(ts, "start_ns") : 0, iv = ts ? jint(ts, "interval_ns") : 1;
    size_t nb = ts ? json_array_size(json_object_get(ts, "points")) + 1000 : 0;
    pr_vec *bins = calloc(nb + 1, sizeof *bins);
    int64_t rs = INT64_MAX;
    for (size_t i = 0; i < sc->runs; i++) /* the runs' start: their earliest sample */
        for (size_t k = 0; k < sc->n; k++)
            if (samples[i][k].start_ns != PR_UNKNOWN && samples[i][k].start_ns < rs)
                rs = samples[i][k].start_ns;
    refset rows = {0};
    ref total = {.name = "total"};
    for (size_t i = 0; i < sc->runs; i++)
        for (size_t k = 0; k < sc->n; k++) {
            const pr_sample *x = &samples[i][k];
            if (x->start_ns != PR_UNKNOWN &&
                ((sc->from_ns != PR_UNKNOWN && x->start_ns < rs + sc->from_ns) ||
                 (sc->to_ns != PR_UNKNOWN && x->start_ns >= rs + sc->to_ns)))
                continue;
            char key[256];
            key_of(sc, runs[i], x, key, sizeof key);
            ref_add(ref_get(&rows, key), x);
            if (x->flags & PR_SF_TRANSACTION)
                continue;
            ref_add(&total, x);
            if (ts && x->start_ns != PR_UNKNOWN && x->latency_ns != PR_UNKNOWN) {
                int64_t b = (x->start_ns - t0) / iv;
                if (b < 0)
                    b = 0;
                if ((size_t)b < nb)
                    pr_vec_push(&bins[b], x->latency_ns);
            }
        }
    check_series(json_object_get(run, "stats"), &total, &o);
    check_distribution(run, &total.v[PR_D_LATENCY]);
    if (ts)
        check_bins(ts, bins, nb, 0);
    check_rows(run, &rows, sc, &o);
    json_decref(doc);
    refset_free(&rows);
    for (int d = 0; d < PR_NDUR; d++)
        pr_vec_dispose(&total.v[d]);
    for (size_t k = 0; k < nb; k++)
        pr_vec_dispose(&bins[k]);
    free(bins);
    for (size_t k = 0; k < sc->runs; k++) {
        free(samples[k]);
        pr_run_free(runs[k]);
    }
    free(samples);
    free(runs);
    test_store_close(st);
}

/* Label intervals (the dashboards' per-label series) against per-label, per-interval copies:
 * one label, so every sample of the run is in it (transaction samples included). */
static void test_report_exact__label_intervals(void **st_)
{
    scenario sc = {11, 20000, 1, PR_UNKNOWN, PR_UNKNOWN, 0, 0, 0, 0, 0};
    pr_store *st = test_store_open();
    pr_run *run = pr_run_new();
    pr_sample *s = calloc(sc.n, sizeof *s);
    gen_samples(run, s, sc.n, sc.seed);
    uint32_t one = pr_run_intern(run, "only", 4);
    for (size_t i = 0; i < sc.n; i++)
        s[i].label = one;
    int64_t id = test_ingest_samples(st, run, s, sc.n, "one");
    pr_report_opts o;
    pr_report_opts_init(&o);
    o.label_timeseries = 1;
    o.findings = 0;
    o.exact_limit = 0;
    json_t *doc;
    pr_error err;
    assert_int_equal(pr_report_build(st, &id, 1, 0, &o, &doc, &err), 0);
    json_t *r = json_array_get(json_object_get(doc, "runs"), 0);
    json_t *ts = json_object_get(r, "timeseries");
    json_t *lts = json_object_get(json_array_get(json_object_get(r, "labels"), 0), "timeseries");
    assert_non_null(lts);
    int64_t t0 = jint(ts, "start_ns"), iv = jint(ts, "interval_ns");
    size_t nb = json_array_size(json_object_get(ts, "points")) + 1000;
    pr_vec *bins = calloc(nb, sizeof *bins);
    for (size_t i = 0; i < sc.n; i++) {
        if (s[i].start_ns == PR_UNKNOWN || s[i].latency_ns == PR_UNKNOWN)
            continue;
        int64_t b = (s[i].start_ns - t0) / iv;
        if (b < 0)
            b = 0;
        if ((size_t)b < nb)
            pr_vec_push(&bins[b], s[i].latency_ns);
    }
    check_bins(lts, bins, nb, 1);
    for (size_t k = 0; k < nb; k++)
        pr_vec_dispose(&bins[k]);
    free(bins);
    json_decref(doc);
    free(s);
    pr_run_free(run);
    test_store_close(st);
}

static void test_report_exact__matches_sorted_copies(void **st)
{
    static const scenario cases[] = {
        {1, 30000, 1, PR_UNKNOWN, PR_UNKNOWN, 100, 0, 0, 0, 0},
        {2, 5000, 1, PR_UNKNOWN, PR_UNKNOWN, 100, 0, 0, 0, 0},
        {3, 20000, 1, 2000000000LL, 20000000000LL, 100, 0, 0, 0, 0}, /* a window */
        {4, 15000, 3, PR_UNKNOWN, PR_UNKNOWN, 100, 0, 0, 0, 0},      /* merged runs */
        {5, 20000, 1, PR_UNKNOWN, PR_UNKNOWN, 2, 0, 0, 0, 0},        /* top 2 and "other" */
        {6, 20000, 2, PR_UNKNOWN, PR_UNKNOWN, 0, 1, 0, 0, 0},        /* URL patterns, every row */
        {7, 20000, 1, PR_UNKNOWN, PR_UNKNOWN, 0, 0, 0, 0, 0},        /* every row */
        {10, 20000, 2, PR_UNKNOWN, PR_UNKNOWN, 100, 0, 0, 1, 0}, /* blocks without transactions */
        /* past PR_CELLSORT_BUCKETED: the main scan on two threads (PERFREPORT_THREADS unset,
         * 2 cores) merged, and its restart with the rows decided (top 2), which kept the first
         * scan's values in the set before */
        {8, PR_CELLSORT_BUCKETED + 60000, 1, PR_UNKNOWN, PR_UNKNOWN, 100, 0, 1, 0, 0},
        {9, PR_CELLSORT_BUCKETED + 60000, 1, PR_UNKNOWN, PR_UNKNOWN, 2, 0, 1, 0, 0},
        {12, PR_CELLSORT_BUCKETED + 60000, 1, PR_UNKNOWN, PR_UNKNOWN, 100, 0, 1, 0, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_scenario(&cases[i]);
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

static int cmp_dbl(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The tools' layouts, streamed in batches of random sizes, against the old computation: a
 * qsorted copy of the run's latencies (Vegeta), of each label's elapsed times (JMeter). */
static void test_report_exact__tool_layouts(void **st)
{
    for (uint64_t seed = 1; seed <= 4; seed++) {
        size_t n = 20000 + seed * 777;
        pr_run *run = pr_run_new();
        pr_sample *s = calloc(n, sizeof *s);
        gen_samples(run, s, n, seed);
        /* Vegeta */
        pr_vegeta_stats_acc *va = pr_vegeta_stats_new(run, 10, 0); /* grows */
        pr_jstats_opts jo;
        pr_jstats_opts_default(&jo);
        pr_jstats_acc *ja = pr_jstats_new(run, &jo, 10, 0);
        for (size_t at = 0, k = 1; at < n; at += k, k = k * 7 % 997 + 1) {
            size_t m = at + k > n ? n - at : k;
            pr_vegeta_stats_add(va, s + at, m);
            pr_jstats_add(ja, s + at, m);
        }
        pr_vegeta_stats vs;
        pr_vegeta_stats_finish(va, &vs);
        int64_t *lat = malloc(n * sizeof *lat);
        for (size_t i = 0; i < n; i++)
            lat[i] = s[i].latency_ns == PR_UNKNOWN ? 0 : s[i].latency_ns;
        qsort(lat, n, sizeof *lat, cmp_i64);
        assert_int_equal(vs.requests, n);
        assert_int_equal(vs.lat_p50_ns, pr_vegeta_percentile(lat, n, 50));
        assert_int_equal(vs.lat_p90_ns, pr_vegeta_percentile(lat, n, 90));
        assert_int_equal(vs.lat_p95_ns, pr_vegeta_percentile(lat, n, 95));
        assert_int_equal(vs.lat_p99_ns, pr_vegeta_percentile(lat, n, 99));
        assert_int_equal(vs.lat_max_ns, lat[n - 1]);
        pr_vegeta_stats_dispose(&vs);
        /* JMeter: per label and Total (Transaction Controller samples left out of it) */
        pr_jstats *js = pr_jstats_finish(ja);
        double *v = malloc(n * sizeof *v);
        for (size_t r = 0; r <= js->nrows; r++) {
            const pr_jstats_row *row = r < js->nrows ? &js->rows[r] : &js->total;
            size_t k = 0;
            for (size_t i = 0; i < n; i++) {
                const char *l = pr_run_str(run, s[i].label);
                int tc = (s[i].flags & PR_SF_TRANSACTION) != 0;
                if (r < js->nrows ? !strcmp(l ? l : "", row->label) : !tc)
                    v[k++] = (double)(s[i].latency_ns == PR_UNKNOWN ? 0 : s[i].latency_ns) / 1e6;
            }
            assert_int_equal(row->samples, k);
            qsort(v, k, sizeof *v, cmp_dbl);
            assert_true(row->median_ms == pr_jstats_pct_exact(v, k, 50));
            for (int p = 0; p < 3; p++)
                assert_true(row->pct_ms[p] == pr_jstats_pct_exact(v, k, jo.pct[p]));
        }
        pr_jstats_free(js);
        free(v);
        free(lat);
        free(s);
        pr_run_free(run);
    }
}

/* The report model of run `id` as text, on `threads` analysis threads. */
static char *model_text(pr_store *st, int64_t id, const char *threads, const char *by, int top)
{
    setenv("PERFREPORT_THREADS", threads, 1);
    pr_report_opts o;
    pr_report_opts_init(&o);
    o.label_timeseries = 1;
    o.exact_limit = 0;
    o.top = top;
    if (by)
        assert_int_equal(pr_report_parse_by(&o, by), 0);
    json_t *doc;
    pr_error err;
    pr_error_clear(&err);
    assert_int_equal(pr_report_build(st, &id, 1, 0, &o, &doc, &err), 0);
    char *t = json_dumps(doc, JSON_SORT_KEYS);
    json_decref(doc);
    unsetenv("PERFREPORT_THREADS");
    return t;
}

/* The main scan on two threads (its parts merged, or scanned again on one when they cannot
 * be: many status codes) gives the model of one thread, byte for byte, for several rows. */
static void test_report_exact__threads(void **st_)
{
    (void)st_;
    setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
    pr_store *st = test_store_open();
    for (int few = 1; few >= 0; few--) {
        scenario sc = {31 + (uint64_t)few,
                       PR_CELLSORT_BUCKETED + 5000,
                       1,
                       PR_UNKNOWN,
                       PR_UNKNOWN,
                       100,
                       0,
                       few,
                       0,
                       0};
        pr_run *run;
        pr_sample *s;
        int64_t id;
        ingest_runs(st, &sc, &run, &s, &id);
        /* breakdowns by a column, by pattern, by two columns; every row or the top 100 */
        static const struct {
            const char *by;
            int top;
        } cases[] = {{NULL, 100}, {NULL, 0}, {"url-pattern", 100}, {"label,status", 100}};
        for (size_t k = 0; k < (few ? sizeof cases / sizeof cases[0] : 1); k++) {
            char *one = model_text(st, id, "1", cases[k].by, cases[k].top);
            char *two = model_text(st, id, "2", cases[k].by, cases[k].top);
            assert_string_equal(one, two);
            free(one);
            free(two);
        }
        free(s);
        pr_run_free(run);
    }
    test_store_close(st);
    unsetenv("SOURCE_DATE_EPOCH");
}

/* The report model of runs ids as text, the main scan's fast mode on or off. */
static char *model_text_mode(pr_store *st, const int64_t *ids, size_t n, const scenario *sc,
                             int fast)
{
    pr_report_opts o;
    pr_report_opts_init(&o);
    o.label_timeseries = 1;
    o.exact_limit = 0;
    o.top = sc->top;
    o.from_ns = sc->from_ns;
    o.to_ns = sc->to_ns;
    json_t *doc;
    pr_error err;
    pr_error_clear(&err);
    pr_acc_fast_mode = fast;
    assert_int_equal(pr_report_build(st, ids, n, n > 1, &o, &doc, &err), 0);
    pr_acc_fast_mode = 1;
    char *t = json_dumps(doc, JSON_SORT_KEYS);
    json_decref(doc);
    return t;
}

/* The main scan's fast mode (exact, rows by label) against its general path on random data:
 * labels, "other" rows, intervals and label intervals, errors, Transaction Controller
 * samples (and blocks without: FAST_NOTX), windows, merged runs, on one and two threads; the models are the same byte for
 * byte (a sample in the wrong row, group or interval changes a count or a percentile). */
static void test_report_exact__fast_mode(void **st_)
{
    (void)st_;
    setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
    static const scenario cases[] = {
        {41, 30000, 1, PR_UNKNOWN, PR_UNKNOWN, 100, 0, 0, 1, 0},
        {42, 20000, 3, PR_UNKNOWN, PR_UNKNOWN, 100, 0, 1, 0, 0},    /* merged runs */
        {43, 20000, 2, 2000000000LL, 20000000000LL, 0, 0, 0, 1, 0}, /* a window, every row */
        {44, 20000, 1, PR_UNKNOWN, PR_UNKNOWN, 2, 0, 1, 0, 0},      /* top 2 and "other" */
        {45, PR_CELLSORT_BUCKETED + 5000, 1, PR_UNKNOWN, PR_UNKNOWN, 100, 0, 1, 1,
         0}, /* two parts */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const scenario *sc = &cases[c];
        pr_store *st = test_store_open();
        pr_run *runs[4];
        pr_sample *s[4];
        int64_t ids[4];
        ingest_runs(st, sc, runs, s, ids);
        for (int threads = 1; threads <= 2; threads++) {
            setenv("PERFREPORT_THREADS", threads == 1 ? "1" : "2", 1);
            char *fast = model_text_mode(st, ids, sc->runs, sc, 1);
            char *general = model_text_mode(st, ids, sc->runs, sc, 0);
            assert_string_equal(fast, general);
            free(fast);
            free(general);
        }
        unsetenv("PERFREPORT_THREADS");
        for (size_t i = 0; i < sc->runs; i++) {
            free(s[i]);
            pr_run_free(runs[i]);
        }
        test_store_close(st);
    }
    unsetenv("SOURCE_DATE_EPOCH");
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_exact__matches_sorted_copies),
        cmocka_unit_test(test_report_exact__label_intervals),
        cmocka_unit_test(test_report_exact__tool_layouts),
        cmocka_unit_test(test_report_exact__threads),
        cmocka_unit_test(test_report_exact__fast_mode),
    };
    if (getenv("TEST_FILTER")) /* one test by name (a glob) */
        cmocka_set_test_filter(getenv("TEST_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
