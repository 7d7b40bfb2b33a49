/* Unit tests: ApacheBench readers (-g TSV, text report, -e CSV) and ab's tables (ab_stats). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/ab_stats.h"
#include "model/xalloc.h"
#include "parsers/ab.h"
#include "parsers/join.h"
#include "parsers/textsum.h"
#include "tests/unit/lib/collect.h"
#include "tests/unit/lib/jcheck.h"
#include "tests/unit/lib/files.h"
#include "tests/unit/lib/gen.h"
#include "tests/unit/lib/ingest.h"
#include <unistd.h>

/* Fixtures with a -g file (and a .txt report and a -e .csv from the same run). */
static const char *const with_tsv[] = {
    "ab_big_64k",   "ab_error_500", "ab_keepalive_c50", "ab_missing_404",  "ab_plain_c10",
    "ab_post_json", "ab_refused_r", "ab_small_n20",     "ab_timelimit_t2", "ab_varlen_length",
};
#define NTSV (sizeof with_tsv / sizeof with_tsv[0])

static char *path_of(const char *base, const char *ext)
{
    char rel[256];
    snprintf(rel, sizeof rel, "ab/%s%s", base, ext);
    return pr_xstrdup(testdata(rel));
}

static void parse_ok(collect *c, const char *parser, const char *base, const char *ext)
{
    char *p = path_of(base, ext);
    pr_error err;
    pr_error_clear(&err);
    collect_init(c);
    int rc = collect_parse_file(c, parser, p, NULL, &err);
    if (rc != 0) {
        char b[1200];
        fail_msg("%s: rc %d: %s", p, rc, pr_error_format(&err, b, sizeof b));
    }
    free(p);
}

/* Compares one computed row with the row ab printed (tool."Connection Times (ms)".<name>). */
static void check_row(const char *fx, const char *name, const pr_ab_row *r, const json_t *tbl)
{
    const json_t *p = jobj(tbl, name);
    if (r->min_ms != jint(p, "min") || r->max_ms != jint(p, "max"))
        fail_msg("%s %s: min/max %lld/%lld, ab printed %lld/%lld", fx, name, (long long)r->min_ms,
                 (long long)r->max_ms, (long long)jint(p, "min"), (long long)jint(p, "max"));
    if (llabs(r->mean_ms - jint(p, "mean")) > 1 || llabs(r->median_ms - jint(p, "median")) > 1)
        fail_msg("%s %s: mean/median %lld/%lld, ab printed %lld/%lld", fx, name,
                 (long long)r->mean_ms, (long long)r->median_ms, (long long)jint(p, "mean"),
                 (long long)jint(p, "median"));
    /* ab prints sd with one decimal: compare with the printed value's own rounding slack */
    if (fabs(r->sd_ms - jnum(p, "sd")) > 0.5 + 0.05 + 1e-9)
        fail_msg("%s %s: sd %.3f, ab printed %.1f", fx, name, r->sd_ms, jnum(p, "sd"));
}

static void test_ab__tables_match_ab_for_every_fixture(void **st)
{
    for (size_t f = 0; f < NTSV; f++) {
        collect tsv, txt;
        parse_ok(&tsv, "ab-gnuplot", with_tsv[f], ".tsv");
        parse_ok(&txt, "ab-text", with_tsv[f], ".txt");
        const json_t *sum = txt.run->summary;
        const json_t *tool = jobj(sum, "tool");
        assert_int_equal(tsv.n, jint(sum, "requests"));
        pr_ab_tables t;
        pr_error err;
        assert_int_equal(pr_ab_stats_from_samples(tsv.run, tsv.s, tsv.n, &t, &err), 0);
        const json_t *tbl = jobj(tool, "Connection Times (ms)");
        check_row(with_tsv[f], "Connect", &t.connect, tbl);
        check_row(with_tsv[f], "Processing", &t.processing, tbl);
        check_row(with_tsv[f], "Waiting", &t.waiting, tbl);
        check_row(with_tsv[f], "Total", &t.total, tbl);
        assert_true(t.has_percentiles);
        const json_t *pct = jobj(tool, "Percentage served (ms)");
        for (int i = 0; i < PR_AB_NPERCS; i++) {
            char k[16];
            snprintf(k, sizeof k, "%d", pr_ab_percs[i]);
            if (t.pct_ms[i] != jint(pct, k))
                fail_msg("%s %s%%: %lld, ab printed %lld", with_tsv[f], k, (long long)t.pct_ms[i],
                         (long long)jint(pct, k));
        }
        collect_free(&tsv);
        collect_free(&txt);
    }
}

/* Hard-coded oracles from the fixtures' printed reports. */
static void test_ab__tables_known_values(void **st)
{
    static const struct {
        const char *fx;
        size_t n;
        int64_t pct[PR_AB_NPERCS];
        int64_t tmin, tmax, pmax;
    } cases[] = {
        {"ab_plain_c10", 5000, {1, 1, 1, 1, 1, 2, 2, 2, 4}, 0, 4, 3},
        {"ab_timelimit_t2", 164, {113, 143, 161, 173, 188, 195, 199, 200, 201}, 2, 201, 201},
        {"ab_post_json", 2000, {1, 1, 1, 1, 1, 3, 4, 5, 8}, 0, 8, 8},
        {"ab_refused_r", 100, {0, 0, 0, 0, 0, 0, 0, 3, 3}, 0, 3, 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        collect c;
        parse_ok(&c, "ab-gnuplot", cases[i].fx, ".tsv");
        assert_int_equal(c.n, cases[i].n);
        pr_ab_tables t;
        assert_int_equal(pr_ab_stats_from_samples(c.run, c.s, c.n, &t, NULL), 0);
        for (int k = 0; k < PR_AB_NPERCS; k++)
            assert_int_equal(t.pct_ms[k], cases[i].pct[k]);
        assert_int_equal(t.total.min_ms, cases[i].tmin);
        assert_int_equal(t.total.max_ms, cases[i].tmax);
        assert_int_equal(t.processing.max_ms, cases[i].pmax);
        collect_free(&c);
    }
}

/* Processing min/max need ab's separately rounded dtime, carried in attrs. */
static void test_ab__dtime_kept_when_rounding_differs(void **st)
{
    const char *tsv = "starttime\tseconds\tctime\tdtime\tttime\twait\n"
                      "Mon Nov 30 15:09:36 2026\t1796051376\t1\t1\t1\t0\n"
                      "Mon Nov 30 15:09:37 2026\t1796051377\t0\t2\t2\t2\n";
    collect c;
    collect_init(&c);
    pr_error err;
    assert_int_equal(collect_parse_mem(&c, "ab-gnuplot", tsv, strlen(tsv), NULL, &err), 0);
    assert_int_equal(c.n, 2);
    assert_string_equal(pr_run_str(c.run, c.s[0].attrs), PR_AB_DTIME_ATTR "1");
    assert_int_equal(c.s[1].attrs, PR_NOSTR);
    assert_true(c.s[0].start_ns == 1796051376000000000LL);
    assert_true(c.s[0].connect_ns == 1000000 && c.s[0].latency_ns == 1000000);
    assert_true(c.s[1].ttfb_ns == 2000000);
    assert_int_equal(c.s[0].status, 0);
    assert_int_equal(c.s[0].success, PR_SUCCESS_UNKNOWN);
    pr_ab_tables t;
    assert_int_equal(pr_ab_stats_from_samples(c.run, c.s, c.n, &t, NULL), 0);
    assert_int_equal(t.processing.min_ms, 1);
    assert_int_equal(t.processing.max_ms, 2);
    /* n = 2 even: ab's median is the upper middle element */
    assert_int_equal(t.total.median_ms, 2);
    assert_true(c.run->start_ns == 1796051376000000000LL);
    assert_true(c.run->end_ns == 1796051377002000000LL);
    assert_int_equal(json_integer_value(json_object_get(c.run->meta, "time_resolution_ns")),
                     1000000000);
    assert_int_equal(json_integer_value(json_object_get(c.run->meta, "utc_offset_min")), 0);
    assert_int_equal(c.run->load_model, PR_LOAD_CLOSED);
    collect_free(&c);
}

static void test_ab__median_parity_rule(void **st)
{
    /* odd n = 3: ab averages s[1] and s[2] → (2000 + 4000) / 2 = 3000 µs → 3 ms */
    int64_t c[3] = {0, 0, 0}, p[3] = {1000, 2000, 4000}, w[3] = {0, 0, 0},
            t[3] = {4000, 1000, 2000};
    pr_ab_tables tb;
    assert_int_equal(pr_ab_stats_compute(c, p, w, t, 3, &tb), 0);
    assert_int_equal(tb.total.median_ms, 3);
    assert_int_equal(tb.total.mean_ms, 2); /* 7000/3 = 2333 µs → 2 ms */
    assert_int_equal(tb.pct_ms[0], 2);     /* 50%: s[floor(3*50/100)] = s[1] */
    assert_int_equal(tb.pct_ms[8], 4);
    assert_true(fabs(tb.total.sd_ms - 1.527525) < 1e-5);
    /* n = 1: no percentage table, sd 0 */
    int64_t one[1] = {500}, z1[1] = {0}, z2[1] = {0}, z3[1] = {0};
    assert_int_equal(pr_ab_stats_compute(z1, z2, z3, one, 1, &tb), 0);
    assert_false(tb.has_percentiles);
    assert_int_equal(tb.total.min_ms, 1); /* 500 µs rounds half up */
    assert_true(tb.total.sd_ms == 0);
    assert_int_equal(pr_ab_stats_compute(z1, z2, z3, one, 0, &tb), PR_EUSAGE);
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void large_case(size_t n, unsigned spread)
{
    int64_t *c = pr_xmalloc(n * 8), *p = pr_xmalloc(n * 8), *w = pr_xmalloc(n * 8),
            *t = pr_xmalloc(n * 8), *ref = pr_xmalloc(n * 8);
    uint64_t x = 88172645463325252ULL;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        t[i] = ref[i] = spread == 1 ? (int64_t)(x % 5000000000ULL) >> (x % 24)
                        : spread == 2
                            ? (x % 10 < 6 ? 7000 : (int64_t)(x % 100000)) /* mostly one value */
                            : (int64_t)(x % 9) * 1000 + 500;
        c[i] = p[i] = w[i] = (int64_t)(i % 7) * 1000;
    }
    qsort(ref, n, 8, cmp64);
    long double sum = 0; /* what ab's mean has always been computed from */
    for (size_t i = 0; i < n; i++)
        sum += ref[i];
    pr_ab_tables tb;
    assert_int_equal(pr_ab_stats_compute(c, p, w, t, n, &tb), 0);
    assert_int_equal(tb.total.mean_ms, ((int64_t)(sum / (long double)n) + 500) / 1000);
    assert_int_equal(tb.total.max_ms, (ref[n - 1] + 500) / 1000);
    int64_t median = n % 2 ? (ref[n / 2] + ref[n / 2 + 1]) / 2 : ref[n / 2];
    assert_int_equal(tb.total.median_ms, (median + 500) / 1000);
    for (int i = 0; i < PR_AB_NPERCS; i++) {
        size_t at = pr_ab_percs[i] >= 100 ? n - 1 : n * (size_t)pr_ab_percs[i] / 100;
        assert_int_equal(tb.pct_ms[i], (ref[at] + 500) / 1000);
    }
    /* the other columns' medians: i % 7 thousands */
    qsort(c, n, 8, cmp64);
    int64_t cm = n % 2 ? (c[n / 2] + c[n / 2 + 1]) / 2 : c[n / 2];
    assert_int_equal(tb.connect.median_ms, (cm + 500) / 1000);
    free(c);
    free(p);
    free(w);
    free(t);
    free(ref);
}

/* The selected medians and percentage rows against a plain sort, odd and even sizes, few
 * distinct values, wide ones, and one value most of them are (its bucket too full to collect:
 * the selection in place). */
static void test_ab__large_input_sort(void **st)
{
    for (size_t n = 20001; n <= 20004; n++)
        for (unsigned spread = 0; spread < 3; spread++)
            large_case(n, spread);
}

/* -e rows: round-half-up of each CSV value is the -g ttime at ab's CSV index. */
static void test_ab__csv_index_rule(void **st)
{
    for (size_t f = 0; f < NTSV; f++) {
        collect tsv, csv;
        parse_ok(&tsv, "ab-gnuplot", with_tsv[f], ".tsv");
        parse_ok(&csv, "ab-csv", with_tsv[f], ".csv");
        size_t n = tsv.n;
        int64_t *t = pr_xmalloc(n * sizeof *t);
        for (size_t i = 0; i < n; i++)
            t[i] = tsv.s[i].latency_ns / 1000000;
        for (size_t i = 1; i < n; i++) /* the file is in ab's (total time) order */
            assert_true(t[i - 1] <= t[i]);
        const json_t *raw = jobj(jobj(csv.run->summary, "tool"), "Percentage served,Time in ms");
        int checked = 0;
        for (int i = 0; i <= 100; i++) {
            size_t idx = pr_ab_csv_index(n, i);
            if (idx >= n)
                continue;
            char k[16];
            snprintf(k, sizeof k, "%d", i);
            int64_t us = llround(jnum(raw, k) * 1000);
            if ((us + 500) / 1000 != t[idx])
                fail_msg("%s row %d: %.3f vs ttime[%zu] = %lld", with_tsv[f], i, jnum(raw, k), idx,
                         (long long)t[idx]);
            checked++;
        }
        assert_true(checked >= 98);
        free(t);
        collect_free(&tsv);
        collect_free(&csv);
    }
    assert_int_equal(pr_ab_csv_index(20, 97), 19);
    assert_int_equal(pr_ab_csv_index(20, 98), 20); /* past the end: ab's garbage rows */
    assert_int_equal(pr_ab_csv_index(20, 100), 19);
    assert_int_equal(pr_ab_csv_index(5000, 50), 2500);
}

static void test_ab__csv_small_run_garbage_rows(void **st)
{
    collect c;
    parse_ok(&c, "ab-csv", "ab_small_n20", ".csv");
    const json_t *sum = c.run->summary;
    assert_true(c.run->summary_only);
    assert_string_equal(c.run->format, "ab-csv");
    const json_t *lat = jobj(sum, "latency_ns");
    assert_int_equal(jint(lat, "p97"), 347000);
    assert_null(json_object_get(lat, "p98"));
    assert_null(json_object_get(lat, "p99"));
    assert_int_equal(jint(lat, "max"), 347000);
    json_t *bad = json_object_get(jobj(sum, "tool"), "unreliable_rows");
    assert_int_equal(json_array_size(bad), 2);
    assert_int_equal(json_integer_value(json_array_get(bad, 0)), 98);
    assert_int_equal(c.warnings, 1);
    collect_free(&c);

    /* cut after row 49: PR_ETRUNC with rows 0..49 */
    {
        char *p = path_of("ab_plain_c10", ".csv");
        char *buf = test_read_file(p, 4095, NULL);
        const char *cut = strstr(buf, "\n50,");
        assert_non_null(cut);
        pr_error err;
        collect_init(&c);
        assert_int_equal(collect_parse_mem(&c, "ab-csv", buf, (size_t)(cut - buf) + 1, NULL, &err),
                         PR_ETRUNC);
        assert_true(strstr(err.msg, "found 50") != NULL);
        lat = jobj(c.run->summary, "latency_ns");
        assert_non_null(json_object_get(lat, "p49"));
        assert_null(json_object_get(lat, "p50"));
        collect_free(&c);
        free(buf);
        free(p);
    }

    parse_ok(&c, "ab-csv", "ab_plain_c10", ".csv");
    lat = jobj(c.run->summary, "latency_ns");
    assert_int_equal(jint(lat, "min"), 69000);
    assert_int_equal(jint(lat, "p1"), 213000);
    assert_int_equal(c.warnings, 0);
    collect_free(&c);
}

static void test_ab__text_key_numbers(void **st)
{
    collect c;
    parse_ok(&c, "ab-text", "ab_plain_c10", ".txt");
    const json_t *s = c.run->summary, *tool = jobj(s, "tool");
    assert_true(c.run->summary_only);
    assert_int_equal(c.n, 0);
    assert_string_equal(c.run->tool_version, "2.3");
    assert_int_equal(jint(s, "requests"), 5000);
    assert_int_equal(jint(s, "failures"), 0);
    assert_int_equal(jint(s, "concurrency"), 10);
    assert_int_equal(c.run->concurrency, 10);
    assert_int_equal(jint(s, "duration_ns"), 399000000);
    assert_true(jnum(s, "rate_per_s") == 12523.51);
    assert_int_equal(jint(s, "bytes_in_total"), 1835000);
    assert_int_equal(jint(jobj(s, "latency_ns"), "p95"), 2000000);
    assert_int_equal(jint(jobj(s, "latency_ns"), "max"), 4000000);
    assert_int_equal(jint(jobj(s, "connect_ns"), "stdev"), 200000);
    assert_true(jnum(tool, "Time per request") == 0.798);
    assert_true(jnum(tool, "Time per request (across all concurrent requests)") == 0.080);
    assert_true(jnum(tool, "Transfer rate") == 4488.41);
    assert_string_equal(json_string_value(json_object_get(tool, "Server Software")),
                        "nginx/1.22.1");
    assert_int_equal(jint(tool, "Document Length"), 135);
    assert_int_equal(json_array_size(json_object_get(tool, "warnings")), 1);
    assert_true(strstr(json_string_value(json_array_get(json_object_get(tool, "warnings"), 0)),
                       "processing time are more than twice") != NULL);
    collect_free(&c);

    parse_ok(&c, "ab-text", "ab_post_json", ".txt");
    s = c.run->summary;
    tool = jobj(s, "tool");
    assert_int_equal(jint(s, "bytes_out_total"), 418000);
    assert_true(jnum(tool, "Transfer rate sent (kb/s)") == 2397.22);
    assert_true(jnum(tool, "Transfer rate total (kb/s)") == 4163.59);
    collect_free(&c);

    parse_ok(&c, "ab-text", "ab_keepalive_c50", ".txt");
    assert_int_equal(jint(jobj(c.run->summary, "tool"), "Keep-Alive requests"), 5000);
    collect_free(&c);

    parse_ok(&c, "ab-text", "ab_missing_404", ".txt");
    s = c.run->summary;
    assert_int_equal(jint(jobj(s, "tool"), "Non-2xx responses"), 1000);
    /* ab does not count non-2xx responses as failed; perfreport does (docs/metrics.md) */
    assert_int_equal(jint(jobj(s, "tool"), "Failed requests"), 0);
    assert_int_equal(jint(s, "failures"), 1000);
    collect_free(&c);

    parse_ok(&c, "ab-text", "ab_error_500", ".txt");
    assert_int_equal(jint(c.run->summary, "failures"), 500);
    collect_free(&c);

    parse_ok(&c, "ab-text", "ab_varlen_length", ".txt");
    s = c.run->summary;
    /* 300 answers all 200 OK whose length varied: ab's 286 Length failures are answers, kept
     * in ab's counters only (issue 32 item 6) */
    assert_int_equal(jint(s, "failures"), 0);
    assert_int_equal(jint(jobj(s, "tool"), "Failed requests"), 286);
    assert_int_equal(jint(jobj(jobj(s, "tool"), "Failed requests breakdown"), "Length"), 286);
    assert_int_equal(json_array_size(json_object_get(s, "errors")), 0);
    assert_int_equal(jint(jobj(s, "tool"), "Document Length"), 11);
    collect_free(&c);

    /* Failed 150 > Complete 100: not a count of requests, kept under tool only */
    parse_ok(&c, "ab-text", "ab_refused_r", ".txt");
    s = c.run->summary;
    tool = jobj(s, "tool");
    assert_null(json_object_get(s, "failures"));
    assert_int_equal(jint(tool, "Failed requests"), 150);
    assert_int_equal(jint(jobj(tool, "Failed requests breakdown"), "Receive"), 100);
    assert_int_equal(jint(jobj(tool, "Failed requests breakdown"), "Exceptions"), 50);
    assert_string_equal(json_string_value(json_object_get(tool, "Server Software")), "");
    assert_int_equal(json_array_size(json_object_get(s, "errors")), 2);
    collect_free(&c);

    parse_ok(&c, "ab-text", "ab_timelimit_t2", ".txt");
    s = c.run->summary;
    assert_int_equal(jint(s, "requests"), 164);
    assert_int_equal(jint(jobj(s, "latency_ns"), "p99"), 200000000);
    assert_true(jnum(jobj(jobj(jobj(s, "tool"), "Connection Times (ms)"), "Total"), "sd") == 56.6);
    collect_free(&c);
}

static void test_ab__text_variants(void **st)
{
    collect c;
    /* -w HTML: no sd/median, Processing derived from aggregates */
    parse_ok(&c, "ab-text", "ab_html_w", ".txt");
    const json_t *s = c.run->summary, *tool = jobj(s, "tool");
    assert_int_equal(jint(s, "requests"), 1000);
    assert_true(jnum(s, "rate_per_s") == 8024.97);
    assert_int_equal(jint(jobj(jobj(tool, "Connection Times (ms)"), "Processing"), "max"), 0);
    assert_int_equal(jint(jobj(jobj(tool, "Connection Times (ms)"), "Total"), "max"), 16);
    assert_int_equal(jint(jobj(s, "latency_ns"), "max"), 16000000);
    assert_true(jnum(tool, "Transfer rate") == 2876.14);
    collect_free(&c);

    /* -d -S: short table, no percentages */
    parse_ok(&c, "ab-text", "ab_nopercentile_dS", ".txt");
    s = c.run->summary;
    tool = jobj(s, "tool");
    assert_int_equal(jint(jobj(jobj(tool, "Connection Times (ms)"), "Total"), "avg"), 1);
    assert_int_equal(jint(jobj(jobj(tool, "Connection Times (ms)"), "Waiting"), "max"), 4);
    assert_null(json_object_get(tool, "Percentage served (ms)"));
    assert_null(json_object_get(jobj(s, "latency_ns"), "p50"));
    collect_free(&c);

    /* -v 2: request/response dumps before the report are noise */
    parse_ok(&c, "ab-text", "ab_verbose_v2", ".txt");
    s = c.run->summary;
    assert_int_equal(jint(s, "requests"), 5);
    assert_int_equal(jint(jobj(s, "tool"), "Total transferred"), 1835);
    assert_null(json_object_get(jobj(s, "tool"), "Content-Length"));
    collect_free(&c);

    /* aborted runs: stdout has no report, nothing was measured: an error at the end of
     * ab's output, not an empty run (issue 13) */
    static const struct {
        const char *base;
        long line, col;
        const char *says;
    } aborted[] = {
        {"ab_timeout_s1", 6, 31, "but ab stopped after 24 requests (its stderr"},
        {"ab_flaky_abort", 6, 30, "but ab stopped after 9 requests (its stderr"},
        {"ab_refused", 5, 39, "but ab stopped before completing a request (its stderr"},
    };
    for (size_t i = 0; i < sizeof aborted / sizeof aborted[0]; i++) {
        char *p = path_of(aborted[i].base, ".txt");
        pr_error err;
        pr_error_clear(&err);
        collect_init(&c);
        assert_int_equal(collect_parse_file(&c, "ab-text", p, NULL, &err), PR_EFORMAT);
        assert_int_equal(err.line, aborted[i].line);
        assert_int_equal(err.col, aborted[i].col);
        assert_non_null(strstr(err.msg, "expected ab's report"));
        assert_non_null(strstr(err.msg, aborted[i].says));
        collect_free(&c);
        free(p);
    }

    /* stdout + stderr pasted together: the fatal error is quoted */
    const char *merged = "This is ApacheBench, Version 2.3 <$Revision$>\n\n"
                         "Benchmarking 127.0.0.1 (be patient)...apr_socket_recv: Connection "
                         "refused (111)\n";
    collect_init(&c);
    pr_error err;
    assert_int_equal(collect_parse_mem(&c, NULL, merged, strlen(merged), NULL, &err), PR_EFORMAT);
    assert_int_equal(err.line, 3);
    assert_non_null(strstr(err.msg, "with 'apr_socket_recv: Connection refused (111)'"));
    collect_free(&c);
}

/* The held-back -r flaky run's counters (ab.md §6) and a report pasted with indentation. */
static void test_ab__text_failure_events_and_pasted(void **st)
{
    const char *txt = "    Server Software:        BaseHTTP/0.6\n"
                      "    Server Hostname:        127.0.0.1\n"
                      "    Complete requests:      300\n"
                      "    Failed requests:        90\n"
                      "       (Connect: 0, Receive: 30, Length: 30, Exceptions: 30)\n"
                      "    Requests per second:    1234.50 [#/sec] (mean)\n"
                      "    Connection Times (ms)\n"
                      "                  min  mean[+/-sd] median   max\n"
                      "    Connect:        0    0   0.1      0       1\n"
                      "    Processing:     0   27  15.2     26      61\n"
                      "    Waiting:        0   26  15.3     26      61\n"
                      "    Total:          0   27  15.2     26      61\n";
    collect c;
    pr_error err;
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, NULL, txt, strlen(txt), NULL, &err), 0);
    assert_string_equal(c.run->format, "ab-text");
    const json_t *s = c.run->summary, *tool = jobj(s, "tool");
    assert_int_equal(jint(s, "requests"), 300);
    assert_null(json_object_get(s, "failures")); /* 30 resets counted 3 times */
    assert_int_equal(jint(tool, "Failed requests"), 90);
    assert_int_equal(json_array_size(json_object_get(s, "errors")), 2); /* Length: answers */
    assert_int_equal(jint(jobj(jobj(tool, "Connection Times (ms)"), "Total"), "median"), 26);
    assert_int_equal(jint(jobj(s, "latency_ns"), "max"), 61000000);
    assert_true(jnum(s, "rate_per_s") == 1234.5);
    collect_free(&c);
}

/* A hostile report with thousands of labels and warnings stays bounded. */
static void test_ab__summary_bounded(void **st)
{
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, "Server Software:        x\nComplete requests:      0\n");
    for (int i = 0; i < 5000; i++)
        pr_buf_printf(&b, "Label %d:   %d\nWARNING: w\n  more\n", i, i);
    collect c;
    pr_error err;
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "ab-text", b.p, b.len, NULL, &err), 0);
    const json_t *tool = jobj(c.run->summary, "tool");
    assert_true(json_object_size(tool) <= PR_TEXTSUM_MAX_KEYS + 1);
    assert_true(json_array_size(json_object_get(tool, "warnings")) <= PR_TEXTSUM_MAX_ITEMS);
    collect_free(&c);
    pr_buf_dispose(&b);
}

static void test_ab__text_truncated(void **st)
{
    char *p = path_of("ab_plain_c10", ".txt");
    size_t n;
    char *buf = test_read_file(p, (1 << 20) - 1, &n);
    const char *cut = strstr(buf, "Processing:");
    assert_non_null(cut);
    collect c;
    collect_init(&c);
    pr_error err;
    pr_error_clear(&err);
    int rc = collect_parse_mem(&c, "ab-text", buf, (size_t)(cut - buf), NULL, &err);
    assert_int_equal(rc, PR_ETRUNC);
    assert_true(strstr(err.msg, "Total:") != NULL);
    assert_int_equal(jint(c.run->summary, "requests"), 5000); /* what came before is kept */
    collect_free(&c);
    cut = strstr(buf, "  99%");
    collect_init(&c);
    rc = collect_parse_mem(&c, "ab-text", buf, (size_t)(cut - buf), NULL, &err);
    assert_int_equal(rc, PR_ETRUNC);
    collect_free(&c);
    free(buf);
    free(p);
}

static void test_ab__tsv_errors(void **st)
{
    collect c;
    pr_error err;
    const char *bad = "starttime\tseconds\tctime\tdtime\tttime\twait\n"
                      "Mon Nov 30 15:09:36 2026\t1796051376\t0\t0\t0\t0\n"
                      "Mon Nov 30 15:09:36 2026\t1796051376\t0\tx\t0\t0\n";
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "ab-gnuplot", bad, strlen(bad), NULL, &err), PR_EPARSE);
    assert_int_equal(err.line, 3);
    assert_true(strstr(err.msg, "dtime") != NULL);
    collect_free(&c);
    const char *few = "starttime\tseconds\tctime\tdtime\tttime\twait\n"
                      "Mon Nov 30 15:09:36 2026\t1796051376\t0\t0\n";
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "ab-gnuplot", few, strlen(few), NULL, &err), PR_EPARSE);
    assert_true(strstr(err.msg, "found 4") != NULL);
    collect_free(&c);
    const char *cut = "starttime\tseconds\tctime\tdtime\tttime\twait\n"
                      "Mon Nov 30 15:09:36 2026\t1796051376\t0\t0\t0\t0\n"
                      "Mon Nov 30 15:09:36 2026\t1796051376\t0\t0\t1";
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "ab-gnuplot", cut, strlen(cut), NULL, &err), PR_ETRUNC);
    assert_int_equal(c.n, 1);
    assert_int_equal(err.line, 3);
    collect_free(&c);
    const char *nohead = "seconds\tctime\n";
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "ab-gnuplot", nohead, strlen(nohead), NULL, &err),
                     PR_EFORMAT);
    collect_free(&c);
}

/* The printer reproduces ab's layout byte for byte where the whole-ms data gives ab's
 * exact numbers (ab_timelimit_t2 and ab_refused_r). */
static void test_ab__print_matches_ab_layout(void **st)
{
    static const char *const fx[] = {"ab_timelimit_t2", "ab_refused_r"};
    for (size_t i = 0; i < 2; i++) {
        collect c;
        parse_ok(&c, "ab-gnuplot", fx[i], ".tsv");
        pr_ab_tables t;
        assert_int_equal(pr_ab_stats_from_samples(c.run, c.s, c.n, &t, NULL), 0);
        pr_buf b = PR_BUF_INIT;
        pr_ab_stats_print(&t, &b);
        char *p = path_of(fx[i], ".txt");
        size_t n;
        char *txt = test_read_file(p, (1 << 20) - 1, &n);
        const char *from = strstr(txt, "Connection Times (ms)");
        assert_non_null(from);
        if (strcmp(from, b.p) != 0)
            fail_msg("%s: printed\n%s\nab printed\n%s", fx[i], b.p, from);
        free(txt);
        free(p);
        pr_buf_dispose(&b);
        collect_free(&c);
    }
}

static void test_ab__merge_text_and_csv(void **st)
{
    collect txt, csv;
    parse_ok(&txt, "ab-text", "ab_plain_c10", ".txt");
    parse_ok(&csv, "ab-csv", "ab_plain_c10", ".csv");
    pr_run_join(txt.run, csv.run);
    json_t *into = txt.run->summary;
    const json_t *lat = jobj(into, "latency_ns");
    /* one spectrum, the CSV's (µs, 99 rows), never the text's whole ms between its rows */
    assert_int_equal(jint(lat, "p49"), 658000);
    assert_int_equal(jint(lat, "p50"), 663000);
    assert_int_equal(jint(lat, "p51"), 669000);
    assert_int_equal(jint(lat, "p90"), 1350000);
    assert_int_equal(jint(lat, "min"), 69000); /* its ends too: row 0 and row 100 */
    assert_int_equal(jint(lat, "max"), 3786000);
    assert_int_equal(jint(lat, "mean"), 1000000); /* the text's Total row (the CSV has none) */
    int64_t prev = jint(lat, "min");
    for (int p = 1; p <= 99; p++) {
        char k[16];
        snprintf(k, sizeof k, "p%d", p);
        assert_true(jint(lat, k) >= prev);
        prev = jint(lat, k);
    }
    assert_true(jint(lat, "max") >= prev);
    assert_int_equal(jint(into, "requests"), 5000);
    /* ab's printed table stays for --format ab, the CSV's beside it */
    const json_t *tbl = jobj(jobj(into, "tool"), "Percentage served (ms)");
    assert_int_equal(jint(tbl, "50"), 1);
    assert_null(json_object_get(tbl, "49"));
    assert_non_null(json_object_get(jobj(into, "tool"), "Percentage served,Time in ms"));
    collect_free(&txt);
    collect_free(&csv);
}

/* -g samples + text counters + CSV percentiles of one run. */
static void test_ab__join_runs(void **st)
{
    collect tsv, txt, csv;
    parse_ok(&tsv, "ab-gnuplot", "ab_varlen_length", ".tsv");
    parse_ok(&txt, "ab-text", "ab_varlen_length", ".txt");
    parse_ok(&csv, "ab-csv", "ab_varlen_length", ".csv");
    pr_run_join(tsv.run, txt.run);
    pr_run_join(tsv.run, csv.run);
    assert_false(tsv.run->summary_only);
    assert_int_equal(tsv.n, 300);
    assert_int_equal(jint(tsv.run->summary, "failures"), 0); /* 286 Length failures: answers */
    assert_int_equal(jint(tsv.run->summary, "requests"), 300);
    assert_int_equal(tsv.run->concurrency, 5);
    assert_string_equal(tsv.run->tool_version, "2.3");
    assert_non_null(json_object_get(jobj(tsv.run->summary, "latency_ns"), "p1"));
    assert_true(json_array_size(json_object_get(tsv.run->meta, "notes")) >= 5);
    assert_false(json_is_true(json_object_get(tsv.run->meta, "status_known")));
    collect_free(&tsv);
    collect_free(&txt);
    collect_free(&csv);
}

static void test_ab__sniff_every_fixture(void **st)
{
    static const struct {
        const char *file;
        const char *format; /* NULL: nobody claims it */
    } cases[] = {
        {"ab/ab_plain_c10.tsv", "ab-gnuplot"}, {"ab/ab_small_n20.tsv", "ab-gnuplot"},
        {"ab/ab_plain_c10.csv", "ab-csv"},     {"ab/ab_small_n20.csv", "ab-csv"},
        {"ab/ab_plain_c10.txt", "ab-text"},    {"ab/ab_html_w.txt", "ab-text"},
        {"ab/ab_verbose_v2.txt", "ab-text"},   {"ab/ab_nopercentile_dS.txt", "ab-text"},
        {"ab/ab_refused.txt", "ab-text"},      {"ab/ab_timeout_s1.txt", "ab-text"},
        {"ab/ab_flaky_abort.txt", "ab-text"},  {"ab/ab_refused_r.txt", "ab-text"},
        {"ab/ab_plain_c10.stderr.txt", NULL},  {"ab/ab_refused.stderr.txt", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n;
        char *buf = test_read_file(testdata(cases[i].file), (1 << 20) - 1, &n);
        int score;
        const pr_parser *p =
            pr_parser_sniff((const unsigned char *)buf, n < 4096 ? n : 4096, &score);
        if (cases[i].format == NULL) {
            if (p)
                fail_msg("%s claimed by %s", cases[i].file, p->name);
        } else if (!p || strcmp(p->name, cases[i].format) != 0) {
            fail_msg("%s: sniffed %s, expected %s", cases[i].file, p ? p->name : "nothing",
                     cases[i].format);
        }
        free(buf);
    }
}

enum { STORE_N = 150001 }; /* odd: ab's two-value medians */

/* A stored run of random samples (tests/unit/lib/gen.h), some with ab's own dtime in their
 * attrs and the middle third without a TTFB (blocks where the column is constant); wide: one
 * late sample of 5,000 s, past what the tables keep in 4 bytes (2^32 µs), so they start again
 * in 8. */
static int64_t ingest_random_run(pr_store *st, int wide)
{
    pr_run *run = pr_run_new();
    pr_sample *s = calloc(STORE_N, sizeof *s);
    gen_samples(run, s, STORE_N, 18);
    for (size_t i = 0; i < STORE_N; i++) {
        if (i % 11 == 0) {
            char a[64];
            snprintf(a, sizeof a, "%s%zu", PR_AB_DTIME_ATTR, i % 4000);
            s[i].attrs = pr_run_intern(run, a, strlen(a));
        }
        if (i > STORE_N / 3 && i < 2 * STORE_N / 3)
            s[i].ttfb_ns = PR_UNKNOWN;
    }
    if (wide)
        s[STORE_N - 7].latency_ns = 5000000000000LL;
    int64_t id = test_ingest_samples(st, run, s, STORE_N, "ab");
    free(s);
    pr_run_free(run);
    return id;
}

static void assert_rows_equal(const pr_ab_row *a, const pr_ab_row *b)
{
    assert_true(a->min_ms == b->min_ms && a->mean_ms == b->mean_ms);
    assert_true(a->median_ms == b->median_ms && a->max_ms == b->max_ms);
    assert_true(a->sd_ms == b->sd_ms);
}

/* |a - b| within 0.1% of b (the histogram) and the rounding to whole ms. */
static void assert_ms_near(int64_t a, int64_t b)
{
    assert_true(llabs(a - b) <= 1 + b / 1000);
}

/* A bounded row against the exact one: min, max and mean the same, sd as good as equal,
 * the median within the histogram's precision. */
static void assert_row_near(const pr_ab_row *a, const pr_ab_row *b)
{
    assert_true(a->min_ms == b->min_ms && a->mean_ms == b->mean_ms && a->max_ms == b->max_ms);
    assert_true(fabs(a->sd_ms - b->sd_ms) <= 1e-9 * b->sd_ms);
    assert_ms_near(a->median_ms, b->median_ms);
}

/* ab's tables of a stored run (pr_ab_stats_from_store): on one thread and on two the same
 * tables, sd included, as pr_ab_stats_from_samples of the run's samples; bounded, the same
 * min/max/mean and the medians and percentage rows within 0.1%. */
static void tables_from_store(int wide)
{
    pr_store *st = test_store_open();
    int64_t id = ingest_random_run(st, wide);
    assert_true(id > 0);
    pr_error err;
    pr_error_clear(&err);
    pr_run *run;
    assert_int_equal(pr_store_load_run(st, id, &run, &err), 0);
    gather c = {0};
    assert_int_equal(pr_store_scan(st, id, gather_cb, &c, &err), 0);
    assert_int_equal(c.n, STORE_N);
    pr_ab_tables want, got;
    assert_int_equal(pr_ab_stats_from_samples(run, c.s, c.n, &want, &err), 0);
    /* the columns differ, so a mix-up of them shows */
    assert_true(want.processing.median_ms != want.total.median_ms);
    assert_true(want.waiting.max_ms != want.total.max_ms && want.connect.max_ms < 1000);
    assert_true(wide ? want.total.max_ms == 5000000 : want.total.max_ms < 10000);
    for (int th = 1; th <= 2; th++) {
        setenv("PERFREPORT_THREADS", th == 1 ? "1" : "2", 1);
        assert_int_equal(pr_ab_stats_from_store(st, run, 0, &got, &err), 0);
        assert_int_equal(got.n, STORE_N);
        assert_rows_equal(&got.connect, &want.connect);
        assert_rows_equal(&got.processing, &want.processing);
        assert_rows_equal(&got.waiting, &want.waiting);
        assert_rows_equal(&got.total, &want.total);
        assert_true(got.has_percentiles);
        assert_memory_equal(got.pct_ms, want.pct_ms, sizeof got.pct_ms);
        assert_int_equal(pr_ab_stats_from_store(st, run, 1, &got, &err), 0);
        assert_int_equal(got.n, STORE_N);
        assert_row_near(&got.connect, &want.connect);
        assert_row_near(&got.processing, &want.processing);
        assert_row_near(&got.waiting, &want.waiting);
        assert_row_near(&got.total, &want.total);
        for (int i = 0; i < PR_AB_NPERCS; i++)
            assert_ms_near(got.pct_ms[i], want.pct_ms[i]);
        assert_int_equal(got.pct_ms[PR_AB_NPERCS - 1], want.pct_ms[PR_AB_NPERCS - 1]);
    }
    unsetenv("PERFREPORT_THREADS");
    free(c.s);
    pr_run_free(run);
    test_store_close(st);
}

static void test_ab__tables_from_store_match_samples(void **st_)
{
    tables_from_store(0);
    tables_from_store(1);
    (void)st_;
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ab__tables_match_ab_for_every_fixture),
        cmocka_unit_test(test_ab__tables_known_values),
        cmocka_unit_test(test_ab__dtime_kept_when_rounding_differs),
        cmocka_unit_test(test_ab__median_parity_rule),
        cmocka_unit_test(test_ab__large_input_sort),
        cmocka_unit_test(test_ab__csv_index_rule),
        cmocka_unit_test(test_ab__csv_small_run_garbage_rows),
        cmocka_unit_test(test_ab__text_key_numbers),
        cmocka_unit_test(test_ab__text_variants),
        cmocka_unit_test(test_ab__text_truncated),
        cmocka_unit_test(test_ab__summary_bounded),
        cmocka_unit_test(test_ab__text_failure_events_and_pasted),
        cmocka_unit_test(test_ab__tsv_errors),
        cmocka_unit_test(test_ab__print_matches_ab_layout),
        cmocka_unit_test(test_ab__merge_text_and_csv),
        cmocka_unit_test(test_ab__join_runs),
        cmocka_unit_test(test_ab__sniff_every_fixture),
        cmocka_unit_test(test_ab__tables_from_store_match_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
