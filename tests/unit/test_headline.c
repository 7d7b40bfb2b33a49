/* Tests of the headline numbers' provenance (analysis/headline.c) on real fixtures through the
 * store, of the order-independent join of one run's files (parsers/join.c), and of the tools'
 * layouts filled from a printed summary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/ab_stats.h"
#include "analysis/headline.h"
#include "analysis/report.h"
#include "analysis/vegeta_stats.h"
#include "lib/collect.h"
#include "lib/ingest.h"
#include "lib/jcheck.h"
#include "model/buf.h"
#include "tests/unit/lib/files.h"
#include "model/xalloc.h"

/* The run model of run `id` (owned by *doc). */
static json_t *model_of(pr_store *st, int64_t id, json_t **doc)
{
    pr_report_opts o;
    pr_report_opts_init(&o);
    o.findings = 0;
    pr_error err;
    assert_int_equal(pr_report_build(st, &id, 1, 0, &o, doc, &err), 0);
    return json_array_get(json_object_get(*doc, "runs"), 0);
}

static const char *prov(const json_t *stats, const char *key)
{
    const char *p = json_string_value(json_object_get(jobj(stats, "provenance"), key));
    return p ? p : "(none)";
}

/* ab's -g rows: no outcome, whole seconds; its report's counters and times win. */
static void test_headline__ab_counters_win(void **state)
{
    pr_store *st = test_store_open();
    int64_t id = test_ingest(st, NULL, testdata("ab/ab_plain_c10.txt"), "ab");
    assert_int_equal(test_ingest(st, NULL, testdata("ab/ab_plain_c10.tsv"), "ab"), id);
    json_t *doc, *s = json_object_get(model_of(st, id, &doc), "stats");
    assert_int_equal(jint(s, "requests"), 5000);
    assert_int_equal(jint(s, "errors"), 0);
    assert_int_equal(jint(s, "successes"), 5000);
    assert_int_equal(jint(s, "duration_ns"), 399000000);
    assert_true(json_is_null(json_object_get(s, "wait_ns"))); /* ab's time includes it */
    assert_true(jnum(s, "rate_per_s") == 12523.51);
    assert_true(fabs(jnum(s, "throughput_per_s") - 12523.51) < 1e-9); /* rate × 5000/5000 */
    assert_string_equal(prov(s, "duration_ns"), "tool");
    assert_string_equal(prov(s, "errors"), "tool");
    assert_string_equal(prov(s, "error_ratio"), "derived");
    assert_string_equal(prov(s, "throughput_per_s"), "derived");
    assert_string_equal(prov(s, "requests"), "samples");
    assert_string_equal(prov(s, "latency_ns"), "samples");
    assert_string_equal(json_string_value(json_object_get(s, "tool_report")), "ab's report");
    /* the samples' own figures are kept */
    assert_int_equal(jint(jobj(s, "from_samples"), "duration_ns"), 1000000000);
    /* whole-second stamps bound the rate, no more (ab printed 12523.51/s) */
    assert_true(json_is_null(json_object_get(jobj(s, "from_samples"), "rate_per_s")));
    assert_true(jnum(jobj(jobj(s, "from_samples"), "timing_approx"), "rate_low_per_s") == 2500);
    assert_null(json_object_get(s, "timing_approx"));
    json_decref(doc);
    test_store_close(st);
}

/* hey's CSV has no row for a failed request: its summary's counts, and its errors, win. */
static void test_headline__hey_failures_from_summary(void **state)
{
    pr_store *st = test_store_open();
    int64_t id = test_ingest(st, NULL, testdata("other/hey_mixed_status_summary.txt"), "hey");
    assert_int_equal(test_ingest(st, NULL, testdata("other/hey_mixed_status.csv"), "hey"), id);
    json_t *doc, *r = model_of(st, id, &doc), *s = json_object_get(r, "stats");
    assert_int_equal(jint(s, "requests"), 600);
    assert_int_equal(jint(s, "errors"), 24);
    assert_int_equal(jint(s, "successes"), 576);
    assert_true(fabs(jnum(s, "error_ratio") - 0.04) < 1e-12);
    assert_int_equal(jint(s, "duration_ns"), 8930400000);
    assert_int_equal(jint(jobj(s, "from_samples"), "requests"), 576);
    assert_string_equal(prov(s, "requests"), "tool");
    assert_int_equal(json_array_size(json_object_get(s, "notes")), 1);
    json_t *e = json_array_get(json_object_get(r, "errors"), 0);
    assert_int_equal(jint(e, "count"), 24);
    assert_string_equal(json_string_value(json_object_get(e, "from")), "tool");
    json_decref(doc);
    test_store_close(st);
}

/* The per-label rows agree with the run (docs/metrics.md, provenance rule 10): ab's one row
 * has ab's outcomes and its rate over ab's 0.399 s, not its -g stamps' 1 s; hey's row keeps
 * its 576 samples' outcomes, its rates over hey's 8.93 s; a lossless run's rows are its own. */
static void test_headline__label_rows_agree(void **state)
{
    pr_store *st = test_store_open();
    int64_t ab = test_ingest(st, NULL, testdata("ab/ab_plain_c10.tsv"), "ab");
    assert_int_equal(test_ingest(st, NULL, testdata("ab/ab_plain_c10.txt"), "ab"), ab);
    json_t *doc, *r = model_of(st, ab, &doc), *s = json_object_get(r, "stats");
    json_t *l = json_array_get(json_object_get(r, "labels"), 0);
    assert_int_equal(json_array_size(json_object_get(r, "labels")), 1);
    assert_int_equal(jint(l, "errors"), 0);
    assert_int_equal(jint(l, "successes"), 5000);
    assert_int_equal(jint(l, "duration_ns"), 399000000);
    assert_true(jnum(l, "rate_per_s") == jnum(s, "rate_per_s"));
    assert_true(jnum(l, "request_throughput_per_s") == jnum(s, "request_throughput_per_s"));
    assert_true(jnum(l, "throughput_per_s") == jnum(s, "throughput_per_s"));
    assert_string_equal(json_string_value(json_object_get(l, "error_pct")), "0.00%");
    assert_null(json_object_get(l, "unknown_outcome"));
    assert_int_equal(jint(jobj(l, "from_samples"), "duration_ns"), 1000000000);
    assert_int_equal(jint(jobj(l, "from_samples"), "unknown_outcome"), 5000);
    /* ab printed no failure: every -g row is a success, all within T (max 4 ms) */
    assert_true(jnum(jobj(s, "apdex"), "score") == 1.0);
    assert_true(jnum(jobj(l, "apdex"), "score") == 1.0);
    assert_int_equal(jint(jobj(l, "apdex"), "satisfied"), 5000);
    json_decref(doc);

    /* the -g file alone: no outcome is known, the run's and the row's Apdex are unknown */
    int64_t g = test_ingest(st, NULL, testdata("ab/ab_keepalive_c50.tsv"), "g");
    r = model_of(st, g, &doc);
    l = json_array_get(json_object_get(r, "labels"), 0);
    assert_true(json_is_null(json_object_get(jobj(jobj(r, "stats"), "apdex"), "score")));
    assert_true(json_is_null(json_object_get(jobj(l, "apdex"), "score")));
    assert_null(json_object_get(l, "from_samples"));
    json_decref(doc);
    /* ab counted 1000 non-2xx responses: not every row is a success, nothing is assumed */
    int64_t m = test_ingest(st, NULL, testdata("ab/ab_missing_404.tsv"), "m");
    assert_int_equal(test_ingest(st, NULL, testdata("ab/ab_missing_404.txt"), "m"), m);
    r = model_of(st, m, &doc);
    l = json_array_get(json_object_get(r, "labels"), 0);
    assert_true(json_is_null(json_object_get(jobj(jobj(r, "stats"), "apdex"), "score")));
    assert_true(json_is_null(json_object_get(jobj(l, "apdex"), "score")));
    assert_int_equal(jint(l, "errors"), 1000);
    json_decref(doc);

    int64_t hey = test_ingest(st, NULL, testdata("other/hey_mixed_status.csv"), "hey");
    assert_int_equal(test_ingest(st, NULL, testdata("other/hey_mixed_status_summary.txt"), "hey"),
                     hey);
    r = model_of(st, hey, &doc);
    s = json_object_get(r, "stats");
    l = json_array_get(json_object_get(r, "labels"), 0);
    assert_int_equal(jint(l, "requests"), 576);
    assert_int_equal(jint(l, "errors"), 0); /* its own rows: the 24 timeouts have none */
    assert_int_equal(jint(l, "duration_ns"), 8930400000);
    assert_true(fabs(jnum(l, "rate_per_s") - jnum(s, "rate_per_s") * 576 / 600) < 1e-9);
    assert_true(fabs(jnum(l, "throughput_per_s") - jnum(s, "throughput_per_s")) < 1e-9);
    json_decref(doc);

    int64_t v = test_ingest(st, NULL, testdata("vegeta/mixed.bin"), "v");
    assert_int_equal(test_ingest(st, NULL, testdata("vegeta/mixed.report.txt"), "v"), v);
    r = model_of(st, v, &doc);
    json_t *row;
    size_t i;
    json_array_foreach (json_object_get(r, "labels"), i, row)
        assert_null(json_object_get(row, "from_samples"));
    json_decref(doc);
    test_store_close(st);
}

/* A Vegeta results file is lossless: its printed report beside it changes no number. */
static void test_headline__lossless_samples_keep_their_numbers(void **state)
{
    pr_store *st = test_store_open();
    int64_t id = test_ingest(st, NULL, testdata("vegeta/mixed.bin"), "v");
    json_t *doc0, *s0 = json_object_get(model_of(st, id, &doc0), "stats");
    assert_int_equal(test_ingest(st, NULL, testdata("vegeta/mixed.report.txt"), "v"), id);
    json_t *doc, *s = json_object_get(model_of(st, id, &doc), "stats");
    static const char *const keys[] = {"requests", "errors",     "duration_ns",
                                       "wait_ns",  "rate_per_s", "throughput_per_s"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        assert_true(json_equal(json_object_get(s, keys[i]), json_object_get(s0, keys[i])));
        assert_string_equal(prov(s, keys[i]), "samples");
    }
    assert_null(json_object_get(s, "from_samples"));
    json_decref(doc0);
    json_decref(doc);
    test_store_close(st);
}

/* Summary-only runs: what the printed numbers imply, marked derived. */
static void test_headline__summary_only_derived(void **state)
{
    static const struct {
        const char *file;
        json_int_t errors;
        const char *thr_from;
    } cases[] = {
        {"other/wrk_nginx_t2c50_latency.txt", 0, "derived"}, /* wrk printed no error line */
        {"other/wrk_missing_404_latency.txt", 108066, "derived"},
        {"ab/ab_missing_404.txt", 1000, "derived"}, /* ab's non-2xx */
        {"other/siege_nginx_c10_r100_text.txt", 0, "derived"},
        {"vegeta/mixed.report.txt", 200, "tool"},
    };
    pr_store *st = test_store_open();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t id = test_ingest(st, NULL, testdata(cases[i].file), NULL);
        json_t *doc, *r = model_of(st, id, &doc), *s = json_object_get(r, "stats");
        assert_true(json_is_true(json_object_get(r, "summary_only")));
        assert_int_equal(jint(s, "errors"), cases[i].errors);
        double ratio = (double)cases[i].errors / (double)jint(s, "requests");
        assert_true(fabs(jnum(s, "error_ratio") - ratio) < 1e-12);
        assert_string_equal(prov(s, "throughput_per_s"), cases[i].thr_from);
        assert_string_equal(prov(s, "requests"), "tool");
        json_decref(doc);
    }
    test_store_close(st);
}

/* The stored run does not depend on the order its files came in. */
static void test_headline__join_order(void **state)
{
    static const char *const orders[][3] = {
        {"ab/ab_plain_c10.txt", "ab/ab_plain_c10.tsv", "ab/ab_plain_c10.csv"},
        {"ab/ab_plain_c10.csv", "ab/ab_plain_c10.tsv", "ab/ab_plain_c10.txt"},
        {"ab/ab_plain_c10.tsv", "ab/ab_plain_c10.csv", "ab/ab_plain_c10.txt"},
    };
    char *first = NULL;
    for (size_t k = 0; k < 3; k++) {
        pr_store *st = test_store_open();
        int64_t id = 0;
        for (size_t f = 0; f < 3; f++)
            id = test_ingest(st, NULL, testdata(orders[k][f]), "ab");
        pr_run *run;
        pr_error err;
        assert_int_equal(pr_store_load_run(st, id, &run, &err), 0);
        json_t *all = json_pack("{s:s, s:O, s:O, s:s?, s:i}", "format", run->format, "summary",
                                run->summary, "meta", run->meta, "tool_version", run->tool_version,
                                "concurrency", run->concurrency);
        /* the sources differ only by the order of their paths in the test; drop them */
        char *dump = json_dumps(all, JSON_SORT_KEYS | JSON_COMPACT);
        if (!first)
            first = dump;
        else {
            assert_string_equal(dump, first);
            free(dump);
        }
        assert_string_equal(run->format, "ab-gnuplot");
        json_decref(all);
        pr_run_free(run);
        test_store_close(st);
    }
    free(first);
}

/* Vegeta's report read as a summary-only run prints back as Vegeta printed it. */
static void test_headline__vegeta_layout_from_summary(void **state)
{
    static const char *const fx[] = {"basic", "mixed", "refused", "post", "multi"};
    for (size_t i = 0; i < sizeof fx / sizeof fx[0]; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "vegeta/%s.report.txt", fx[i]);
        collect c;
        pr_error err;
        collect_init(&c);
        assert_int_equal(collect_parse_file(&c, "vegeta-text", testdata(rel), NULL, &err), 0);
        char *ours = pr_vegeta_summary_text(c.run),
             *theirs = test_read_file(testdata(rel), (1 << 20) - 1, NULL);
        assert_string_equal(ours, theirs);
        free(ours);
        free(theirs);
        collect_free(&c);
        snprintf(rel, sizeof rel, "vegeta/%s.report.json", fx[i]);
        collect_init(&c);
        assert_int_equal(collect_parse_file(&c, "vegeta-report-json", testdata(rel), NULL, &err),
                         0);
        ours = pr_vegeta_summary_json_text(c.run);
        theirs = test_read_file(testdata(rel), (1 << 20) - 1, NULL);
        assert_string_equal(ours, theirs);
        free(ours);
        free(theirs);
        collect_free(&c);
    }
}

/* ab's tables from its own report print as ab printed them; unknown cells are "-". */
static void test_headline__ab_layout_from_summary(void **state)
{
    static const char *const fx[] = {"ab_plain_c10",    "ab_missing_404",   "ab_big_64k",
                                     "ab_timelimit_t2", "ab_varlen_length", "ab_small_n20"};
    for (size_t i = 0; i < sizeof fx / sizeof fx[0]; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "ab/%s.txt", fx[i]);
        collect c;
        pr_error err;
        collect_init(&c);
        assert_int_equal(collect_parse_file(&c, "ab-text", testdata(rel), NULL, &err), 0);
        pr_ab_tables t;
        assert_int_equal(pr_ab_stats_from_summary(c.run, &t), 0);
        pr_buf b = PR_BUF_INIT;
        pr_ab_stats_print(&t, &b);
        char *theirs = test_read_file(testdata(rel), (1 << 20) - 1, NULL);
        const char *from = strstr(theirs, "Connection Times (ms)");
        assert_non_null(from);
        assert_string_equal(b.p, from);
        free(theirs);
        pr_buf_dispose(&b);
        collect_free(&c);
    }
    collect c;
    pr_error err;
    collect_init(&c);
    assert_int_equal(
        collect_parse_file(&c, "wrk-text", testdata("other/wrk_nolatency_big.txt"), NULL, &err), 0);
    pr_ab_tables t;
    assert_int_equal(pr_ab_stats_from_summary(c.run, &t), 0);
    pr_buf b = PR_BUF_INIT;
    pr_ab_stats_print(&t, &b);
    assert_non_null(strstr(b.p, "Connect:        -    -     -      -       -\n"));
    assert_non_null(strstr(b.p, "Total:          -   11  48.4      -     430\n"));
    assert_non_null(strstr(b.p, "  50%      -\n"));
    assert_non_null(strstr(b.p, " 100%    430 (longest request)\n"));
    pr_buf_dispose(&b);
    collect_free(&c);
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_headline__ab_counters_win),
        cmocka_unit_test(test_headline__hey_failures_from_summary),
        cmocka_unit_test(test_headline__label_rows_agree),
        cmocka_unit_test(test_headline__lossless_samples_keep_their_numbers),
        cmocka_unit_test(test_headline__summary_only_derived),
        cmocka_unit_test(test_headline__join_order),
        cmocka_unit_test(test_headline__vegeta_layout_from_summary),
        cmocka_unit_test(test_headline__ab_layout_from_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
