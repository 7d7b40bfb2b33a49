/* Unit tests: the report's bounded mode (histograms, analysis/report_acc.c) on random data
 * with labels, intervals, errors, transaction samples and several runs: the main scan on two
 * threads gives one thread's model byte for byte, and a chart's model, which reads only the
 * columns its kind draws from (pr_model_charts_opts), gives the figures the whole model
 * gives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analysis/report.h"
#include "analysis/report_acc.h"
#include "render/model_charts.h"
#include "tests/unit/lib/gen.h"
#include "tests/unit/lib/ingest.h"
#include "model/xalloc.h"

#define NRUNS 2
#define NSAMPLES (PR_ACC_PAR_MIN + 50000) /* past the two-thread limit, several blocks */

/* What the random samples are made to hold besides gen_samples' variety. */
enum { DATA_RAW, DATA_TIMING };

/* NRUNS runs of random samples ingested into st (ids[]). DATA_TIMING: every field but the
 * start and the latency the same in every sample (a chart's scan reads those alone). Status
 * codes are few in both (more than the intervals track make the parts rescan on one thread). */
static void ingest(pr_store *st, uint64_t seed, int data, int64_t *ids)
{
    for (size_t i = 0; i < NRUNS; i++) {
        pr_run *run = pr_run_new();
        pr_sample *s = calloc(NSAMPLES, sizeof *s);
        gen_samples(run, s, NSAMPLES, seed + i);
        for (size_t k = 0; k < NSAMPLES; k++) {
            if (s[k].status)
                s[k].status = (uint16_t)(200 + s[k].status % 4 * 100);
            if (data == DATA_TIMING) {
                pr_sample t = s[0];
                t.start_ns = s[k].start_ns;
                t.latency_ns = s[k].latency_ns;
                t.flags = 0;
                s[k] = t;
            }
        }
        char name[24];
        snprintf(name, sizeof name, "r%zu", i);
        ids[i] = test_ingest_samples(st, run, s, NSAMPLES, name);
        assert_true(ids[i] > 0);
        free(s);
        pr_run_free(run);
    }
}

/* The model of the runs as text, on `threads` analysis threads. */
static char *model_text(pr_store *st, const int64_t *ids, int merge, const pr_report_opts *o,
                        const char *threads)
{
    setenv("PERFREPORT_THREADS", threads, 1);
    json_t *doc;
    pr_error err;
    pr_error_clear(&err);
    assert_int_equal(pr_report_build(st, ids, NRUNS, merge, o, &doc, &err), 0);
    char *t = json_dumps(doc, JSON_SORT_KEYS);
    json_decref(doc);
    unsetenv("PERFREPORT_THREADS");
    return t;
}

/* Bounded options: every part of the model, with a time series per label. */
static void bounded_opts(pr_report_opts *o)
{
    pr_report_opts_init(o);
    o->exact_limit = 1;
    o->label_timeseries = 1;
}

/* Two threads give one thread's model, for the whole model and for chart models, one run by
 * one and merged, windowed, by URL pattern, and with fewer rows than labels (the rows decided
 * by a count first); each time but the last the parts did merge. */
static void test_report_bounded__threads(void **st_)
{
    (void)st_;
    setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
    pr_store *st = test_store_open();
    int64_t ids[NRUNS];
    ingest(st, 41, DATA_RAW, ids);
    for (int variant = 0; variant < 6; variant++) {
        pr_report_opts o;
        bounded_opts(&o);
        if (variant == 1) { /* a window */
            o.from_ns = 1000000000;
            o.to_ns = 40000000000;
        } else if (variant == 2) {
            assert_int_equal(pr_report_parse_by(&o, "url-pattern"), 0);
        } else if (variant == 3) { /* the chart of the latency histogram */
            pr_model_charts_opts(pr_chart_kind_find("histogram"), &o);
        } else if (variant == 4) { /* the labels chart */
            pr_model_charts_opts(pr_chart_kind_find("labels"), &o);
        } else if (variant == 5) {
            o.top = 2; /* rows decided by a count, scanned again on one thread */
        }
        for (int merge = 0; merge <= 1; merge++) {
            char *one = model_text(st, ids, merge, &o, "1");
            unsigned long before = pr_acc_parts_merged();
            char *two = model_text(st, ids, merge, &o, "2");
            if (variant != 5)
                assert_true(pr_acc_parts_merged() >= before + NRUNS);
            assert_string_equal(one, two);
            free(one);
            free(two);
        }
    }
    test_store_close(st);
    unsetenv("SOURCE_DATE_EPOCH");
}

static void same_i64(const int64_t *a, const int64_t *b, size_t n)
{
    assert_true(n == 0 || (a && b));
    if (n)
        assert_memory_equal(a, b, n * sizeof *a);
}

/* Doubles computed the same way from the same counts have the same bits (NaN included). */
static void same_f64(const double *a, const double *b, size_t n)
{
    assert_true((a == NULL) == (b == NULL));
    if (n && a)
        assert_memory_equal(a, b, n * sizeof *a);
}

/* What a kind draws of the run: the chart model's (c) and the whole model's (w). */
static void same_figures(const pr_chart_kind *kind, const pr_model_charts *c,
                         const pr_model_charts *w)
{
    unsigned nd = kind->needs;
    if (nd & PR_CHART_NEEDS_TS) {
        const pr_chart_timeseries *a = &c->ts, *b = &w->ts;
        assert_true(c->has_ts && w->has_ts && a->n > 10);
        assert_int_equal(a->n, b->n);
        assert_int_equal(a->interval_ns, b->interval_ns);
        same_i64(a->t_ns, b->t_ns, a->n);
        if (!strcmp(kind->name, "percentiles")) {
            same_i64(a->p50_ns, b->p50_ns, a->n);
            same_i64(a->p90_ns, b->p90_ns, a->n);
            same_i64(a->p99_ns, b->p99_ns, a->n);
            same_i64(a->max_ns, b->max_ns, a->n);
        } else if (!strcmp(kind->name, "throughput")) {
            same_f64(a->ok_per_s, b->ok_per_s, a->n);
            same_f64(a->fail_per_s, b->fail_per_s, a->n);
            same_f64(a->rate_per_s, b->rate_per_s, a->n);
            same_f64(a->threads, b->threads, a->n);
        } else {
            assert_true(a->n_codes >= 1);
            assert_int_equal(a->n_codes, b->n_codes);
            assert_memory_equal(a->codes, b->codes, a->n_codes * sizeof *a->codes);
            same_f64(a->code_counts, b->code_counts, a->n_codes * a->n);
        }
    }
    if (nd & PR_CHART_NEEDS_DISTS) {
        const pr_chart_dist *a = &c->dist, *b = &w->dist;
        assert_true(c->has_dist && w->has_dist && a->n_buckets > 0);
        assert_int_equal(a->n_pct, b->n_pct);
        assert_int_equal(a->n_buckets, b->n_buckets);
        same_f64(a->pct, b->pct, a->n_pct);
        same_i64(a->pct_latency_ns, b->pct_latency_ns, a->n_pct);
        same_i64(a->bucket_lo_ns, b->bucket_lo_ns, a->n_buckets);
        same_i64(a->bucket_hi_ns, b->bucket_hi_ns, a->n_buckets);
        assert_memory_equal(a->bucket_count, b->bucket_count,
                            a->n_buckets * sizeof *a->bucket_count);
    }
    if (nd & PR_CHART_NEEDS_LABELS) {
        assert_true(c->labels.n >= 1);
        assert_int_equal(c->labels.n, w->labels.n);
        for (size_t i = 0; i < c->labels.n; i++) {
            const pr_chart_label *a = &c->labels.v[i], *b = &w->labels.v[i];
            assert_string_equal(a->name, b->name);
            assert_int_equal(a->latency_ns, b->latency_ns);
            assert_int_equal(a->count, b->count);
            assert_int_equal(a->errors, b->errors);
        }
    }
}

/* Each kind's figures, from its chart model (only the columns it reads: on DATA_TIMING the
 * scan of blocks where only the start and the latency vary) and from the whole model, for
 * every run; the run's request count, which says whether it has samples to draw, too. */
static void check_kinds(pr_store *st, const int64_t *ids, int64_t from_ns)
{
    static const char *const kinds[] = {"percentiles", "throughput", "status",
                                        "spectrum",    "histogram",  "labels"};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        const pr_chart_kind *kind = pr_chart_kind_find(kinds[k]);
        pr_report_opts o, whole;
        pr_report_opts_init(&o);
        o.from_ns = from_ns;
        pr_model_charts_opts(kind, &o);
        assert_true(o.cols != 0);
        whole = o; /* the same parts, and of them every figure */
        whole.cols = 0;
        whole.run_durations = whole.label_extras = 1;
        json_t *dc, *dw;
        pr_error err;
        pr_error_clear(&err);
        assert_int_equal(pr_report_build(st, ids, NRUNS, 0, &o, &dc, &err), 0);
        assert_int_equal(pr_report_build(st, ids, NRUNS, 0, &whole, &dw, &err), 0);
        for (size_t r = 0; r < NRUNS; r++) {
            json_t *rc = json_array_get(json_object_get(dc, "runs"), r);
            json_t *rw = json_array_get(json_object_get(dw, "runs"), r);
            assert_int_equal(
                json_integer_value(json_object_get(json_object_get(rc, "stats"), "requests")),
                json_integer_value(json_object_get(json_object_get(rw, "stats"), "requests")));
            pr_model_charts c, w;
            memset(&c, 0, sizeof c);
            memset(&w, 0, sizeof w);
            pr_model_charts_run(&c, rc, "p99");
            pr_model_charts_run(&w, rw, "p99");
            same_figures(kind, &c, &w);
            pr_model_charts_dispose(&c);
            pr_model_charts_dispose(&w);
        }
        json_decref(dc);
        json_decref(dw);
    }
}

static void test_report_bounded__chart_columns(void **st_)
{
    (void)st_;
    setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
    for (int data = DATA_RAW; data <= DATA_TIMING; data++) {
        pr_store *st = test_store_open();
        int64_t ids[NRUNS];
        ingest(st, 51 + (uint64_t)data, data, ids);
        check_kinds(st, ids, PR_UNKNOWN);
        check_kinds(st, ids, 2000000000); /* a window */
        test_store_close(st);
    }
    unsetenv("SOURCE_DATE_EPOCH");
}

/* The model with the staged latencies and the labels chart's own loop (report_acc.c: stage,
 * bp) against the same model from direct histogram adds through the general loop
 * (pr_acc_fast_mode 0), byte for byte: the whole bounded model and the labels chart's, by one
 * thread and by two (the part's and our staged values flushed before they merge), one run by
 * one and merged, windowed, with fewer rows than labels (rows decided again, staging dropped
 * and started over), on both kinds of data (DATA_TIMING: blocks where only the start and the
 * latency vary, which the labels chart's loop takes). */
static void test_report_bounded__staged(void **st_)
{
    (void)st_;
    setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
    for (int data = DATA_RAW; data <= DATA_TIMING; data++) {
        pr_store *st = test_store_open();
        int64_t ids[NRUNS];
        ingest(st, 61 + (uint64_t)data, data, ids);
        for (int variant = 0; variant < 5; variant++) {
            pr_report_opts o;
            bounded_opts(&o);
            if (variant >= 1) /* the labels chart */
                pr_model_charts_opts(pr_chart_kind_find("labels"), &o);
            if (variant == 2) { /* a window: the start read */
                o.from_ns = 1000000000;
                pr_model_charts_opts(pr_chart_kind_find("labels"), &o);
            } else if (variant == 3) {
                o.top = 3;
            } else if (variant == 4) { /* summary --exact-limit 1: no time series per label */
                o.label_timeseries = 0;
            }
            for (int merge = 0; merge <= 1; merge++) {
                for (int t = 1; t <= 2; t++) {
                    const char *threads = t == 1 ? "1" : "2";
                    pr_acc_fast_mode = 0;
                    char *ref = model_text(st, ids, merge, &o, threads);
                    pr_acc_fast_mode = 1;
                    unsigned long before = pr_acc_parts_merged();
                    char *got = model_text(st, ids, merge, &o, threads);
                    if (t == 2 && variant != 3)
                        assert_true(pr_acc_parts_merged() >= before + NRUNS);
                    assert_string_equal(ref, got);
                    free(ref);
                    free(got);
                }
            }
        }
        test_store_close(st);
    }
    unsetenv("SOURCE_DATE_EPOCH");
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_bounded__threads),
        cmocka_unit_test(test_report_bounded__chart_columns),
        cmocka_unit_test(test_report_bounded__staged),
    };
    if (getenv("TEST_FILTER")) /* one test by name (a glob) */
        cmocka_set_test_filter(getenv("TEST_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
