/* Unit tests: times at the edges. Every reader's time parser is walked through the years 1,
 * 1677, 1678, 2261, 2262 and 9999: int64 ns since 1970 holds 1677-09-21..2262-04-11, readers
 * accept the whole years 1678..2261 and refuse the others with a clear error (or keep Go's
 * zero time as "unknown"), never overflowing (UBSan in `make check` would stop on one).
 * The readers with times: Vegeta JSON, CSV, gob and JSON report; JMeter CSV (epoch ms and
 * dates) and XML; ab -g; Gatling text and binary; Locust's history; Artillery; k6 CSV and JSON;
 * HdrHistogram logs. The others hold none (ab's, wrk's, siege's, httperf's and hey's printed
 * reports, hey's CSV with offsets from its start, hgrm), keep them as text (autocannon's start
 * and finish) or store ns as written (the native stream). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/buf.h"
#include "model/datefmt.h"
#include "model/lex.h"
#include "model/xalloc.h"
#include "tests/unit/lib/collect.h"

static const int years[] = {1, 1677, 1678, 2261, 2262, 9999};
#define NYEARS (sizeof years / sizeof years[0])
#define IN_RANGE(y) ((y) >= PR_TIME_YEAR_MIN && (y) <= PR_TIME_YEAR_MAX)

/* Seconds since 1970 of January 1st of y, 00:00:00 UTC (no overflow for any year here). */
static int64_t jan1_s(int y)
{
    return pr_days_from_civil(y, 1, 1) * 86400;
}

/* January 1st of y in ns where it is a time (0 outside 1678..2261: never multiplied there). */
static int64_t jan1_ns(int y)
{
    return IN_RANGE(y) ? jan1_s(y) * 1000000000LL : 0;
}

/* The decimal text of jan1_s(y) * 10^zeros, exactly, even where it overflows int64. */
static void epoch_text(int y, int zeros, char *out, size_t cap)
{
    int n = snprintf(out, cap, "%lld", (long long)jan1_s(y));
    for (int i = 0; i < zeros && (size_t)n + 1 < cap; i++)
        out[n++] = '0';
    out[n] = 0;
}

typedef struct outcome {
    int rc;
    size_t n;
    int64_t start_ns;
    int warnings;
    char msg[1100];
} outcome;

static outcome parse(const char *parser, const void *data, size_t len)
{
    collect c;
    pr_error err;
    pr_error_clear(&err);
    collect_init(&c);
    outcome o = {0};
    o.rc = collect_parse_mem(&c, parser, data, len, NULL, &err);
    o.n = c.n;
    o.start_ns = c.n ? c.s[0].start_ns : c.run->start_ns;
    o.warnings = c.warnings;
    pr_error_format(&err, o.msg, sizeof o.msg);
    if (o.rc == 0 && c.warnings)
        snprintf(o.msg, sizeof o.msg, "%s", c.last_warning);
    collect_free(&c);
    return o;
}

/* In range: parsed, the first sample at January 1st of y. Out of range: refused, the message
 * naming the range (or the number that cannot be one). */
static void expect_year(const char *what, int y, outcome o, int64_t want_ns)
{
    if (IN_RANGE(y)) {
        if (o.rc != 0 || o.start_ns != want_ns)
            fail_msg("%s, year %d: rc %d, start %lld, want %lld (%s)", what, y, o.rc,
                     (long long)o.start_ns, (long long)want_ns, o.msg);
    } else if (o.rc != PR_EPARSE ||
               (!strstr(o.msg, "1678..2261") && !strstr(o.msg, "integer") &&
                !strstr(o.msg, "out of range") && !strstr(o.msg, "epoch milliseconds"))) {
        fail_msg("%s, year %d: rc %d, want a clear refusal (%s)", what, y, o.rc, o.msg);
    }
}

static void test_times__conversions(void **st)
{
    int64_t ns;
    assert_int_equal(pr_time_from_civil(1678, 1, 1, 0, 0, 0, &ns), 0);
    assert_true(ns == PR_TIME_MIN_NS);
    assert_int_equal(pr_time_from_civil(2261, 12, 31, 86399, 999999999, 0, &ns), 0);
    assert_true(ns == PR_TIME_MAX_NS);
    assert_int_equal(pr_time_from_civil(1677, 12, 31, 86399, 999999999, 0, &ns), PR_TIME_RANGE);
    assert_int_equal(pr_time_from_civil(2262, 1, 1, 0, 0, 0, &ns), PR_TIME_RANGE);
    /* an offset can bring the neighbouring year in: the instant decides */
    assert_int_equal(pr_time_from_civil(2262, 1, 1, 0, 0, 3600, &ns), 0);
    assert_int_equal(pr_time_from_civil(1, 1, 1, 0, 0, 0, &ns), PR_TIME_RANGE);
    assert_int_equal(pr_time_from_civil(INT64_MAX, 1, 1, 0, 0, 0, &ns), PR_TIME_RANGE);
    assert_int_equal(pr_time_from_civil(INT64_MIN, 1, 1, 0, 0, 0, &ns), PR_TIME_RANGE);
    assert_int_equal(pr_time_from_epoch(INT64_MAX, 1000000, &ns), PR_TIME_RANGE);
    assert_int_equal(pr_time_from_epoch(INT64_MIN, 1000000000LL, &ns), PR_TIME_RANGE);
    assert_int_equal(pr_time_from_epoch(PR_TIME_END_S - 1, 1000000000LL, &ns), 0);
    assert_int_equal(pr_time_from_epoch(PR_TIME_END_S, 1000000000LL, &ns), PR_TIME_RANGE);
    assert_int_equal(pr_time_from_epoch(PR_TIME_MIN_S, 1000000000LL, &ns), 0);
    assert_int_equal(pr_time_from_epoch(PR_TIME_MIN_S - 1, 1000000000LL, &ns), PR_TIME_RANGE);
    assert_true(pr_time_is_go_zero("0001-01-01T00:00:00Z", 20));
    assert_false(pr_time_is_go_zero("0001-01-01T00:00:01Z", 20));
    /* RFC 3339 and SimpleDateFormat: the shared parsers */
    pr_datefmt f;
    assert_int_equal(pr_datefmt_compile(&f, "yyyy/MM/dd HH:mm:ss.SSS", NULL, 0), 0);
    for (size_t i = 0; i < NYEARS; i++) {
        char s[64];
        int y = years[i];
        snprintf(s, sizeof s, "%04d-01-01T00:00:00.5Z", y);
        int rc = pr_lex_rfc3339(s, strlen(s), &ns, NULL);
        assert_int_equal(rc, IN_RANGE(y) ? 0 : PR_TIME_RANGE);
        if (rc == 0)
            assert_true(ns == jan1_ns(y) + 500000000);
        snprintf(s, sizeof s, "%04d/01/01 00:00:00.000", y);
        rc = pr_datefmt_parse(&f, s, strlen(s), 0, &ns);
        assert_int_equal(rc, IN_RANGE(y) ? 0 : PR_TIME_RANGE);
    }
}

static void test_times__vegeta(void **st)
{
    for (size_t i = 0; i < NYEARS; i++) {
        int y = years[i];
        int64_t want = jan1_ns(y);
        char line[512], ts[64];
        /* JSON results: the zero time of year 1 is Go's "no time", kept with start unknown */
        snprintf(line, sizeof line,
                 "{\"attack\":\"a\",\"seq\":0,\"code\":200,\"timestamp\":\"%04d-01-01T00:00:00Z\","
                 "\"latency\":1000,\"bytes_out\":0,\"bytes_in\":0,\"error\":\"\",\"body\":null,"
                 "\"method\":\"GET\",\"url\":\"http://x/\",\"headers\":null}\n", y);
        outcome o = parse("vegeta-json", line, strlen(line));
        if (y == 1) {
            assert_int_equal(o.rc, 0);
            assert_int_equal(o.n, 1);
            assert_true(o.start_ns == PR_UNKNOWN);
            assert_non_null(strstr(o.msg, "Go's zero time"));
        } else {
            expect_year("vegeta-json", y, o, want);
        }
        /* CSV: Unix ns (years past 2262 are not even an int64) */
        epoch_text(y, 9, ts, sizeof ts);
        snprintf(line, sizeof line, "%s,200,1000,0,0,,,a,0,GET,http://x/,\n", ts);
        expect_year("vegeta-csv", y, parse("vegeta-csv", line, strlen(line)), want);
        /* the JSON report's earliest/latest/end: out of range is unknown, with a warning */
        snprintf(line, sizeof line,
                 "{\"latencies\":{\"total\":0,\"mean\":0,\"50th\":0,\"90th\":0,\"95th\":0,"
                 "\"99th\":0,\"max\":0,\"min\":0},\"bytes_in\":{\"total\":0,\"mean\":0},"
                 "\"bytes_out\":{\"total\":0,\"mean\":0},\"earliest\":\"%04d-01-01T00:00:00Z\","
                 "\"latest\":\"%04d-01-01T00:00:00Z\",\"end\":\"%04d-01-01T00:00:00Z\","
                 "\"duration\":0,\"wait\":0,\"requests\":0,\"rate\":0,\"throughput\":0,"
                 "\"success\":0,\"status_codes\":{},\"errors\":[]}\n", y, y, y);
        o = parse("vegeta-report-json", line, strlen(line));
        assert_int_equal(o.rc, 0);
        if (IN_RANGE(y)) {
            assert_true(o.start_ns == want);
        } else {
            assert_true(o.start_ns == PR_UNKNOWN);
            assert_int_equal(o.warnings, y == 1 ? 0 : 3); /* each time; Go's zero: none */
        }
    }
    /* Vegeta's CSV of Go's zero time: UnixNano wraps to this value */
    static const char zero[] = "-6795364578871345152,0,0,0,0,,,a,0,GET,http://x/,\n";
    outcome o = parse("vegeta-csv", zero, sizeof zero - 1);
    assert_int_equal(o.rc, 0);
    assert_true(o.start_ns == PR_UNKNOWN);
}

/* The first record of tests/data/vegeta/basic.bin with its time.Time (bytes 0xd9-0xe7,
 * version 1) set to January 1st of y. */
static void test_times__vegeta_gob(void **st)
{
    FILE *f = fopen(testdata("vegeta/basic.bin"), "rb");
    assert_non_null(f);
    unsigned char b[0x27f];
    assert_int_equal(fread(b, 1, sizeof b, f), sizeof b);
    fclose(f);
    for (size_t i = 0; i < NYEARS; i++) {
        int y = years[i];
        uint64_t sec = (uint64_t)(jan1_s(y) + 62135596800LL); /* seconds since year 1 */
        for (int k = 0; k < 8; k++)
            b[0xda + k] = (unsigned char)(sec >> (56 - 8 * k));
        memset(b + 0xe2, 0, 4); /* no nanoseconds */
        outcome o = parse("vegeta-gob", b, sizeof b);
        if (y == 1) { /* Go's zero time */
            assert_int_equal(o.rc, 0);
            assert_true(o.start_ns == PR_UNKNOWN);
        } else {
            expect_year("vegeta-gob", y, o, jan1_ns(y));
        }
    }
}

static void test_times__jmeter(void **st)
{
    for (size_t i = 0; i < NYEARS; i++) {
        int y = years[i];
        int64_t want = jan1_ns(y);
        char doc[512], ms[64];
        epoch_text(y, 3, ms, sizeof ms);
        snprintf(doc, sizeof doc, "timeStamp,elapsed,label,responseCode,success\n%s,1,a,200,true\n",
                 ms);
        expect_year("jmeter-csv ms", y, parse("jmeter-csv", doc, strlen(doc)), want);
        snprintf(doc, sizeof doc, "timeStamp,elapsed,label,responseCode,success\n"
                                  "%04d/01/01 00:00:00.000,1,a,200,true\n", y);
        expect_year("jmeter-csv date", y, parse("jmeter-csv", doc, strlen(doc)), want);
        snprintf(doc, sizeof doc, "<?xml version=\"1.0\"?>\n<testResults version=\"1.2\">\n"
                                  "<httpSample t=\"1\" ts=\"%s\" s=\"true\" lb=\"a\" rc=\"200\"/>\n"
                                  "</testResults>\n", ms);
        expect_year("jmeter-xml", y, parse("jmeter-xml", doc, strlen(doc)), want);
    }
}

static void test_times__ab_gatling_locust_artillery(void **st)
{
    for (size_t i = 0; i < NYEARS; i++) {
        int y = years[i];
        int64_t want = jan1_ns(y);
        char doc[2048], sec[64], ms[64];
        epoch_text(y, 0, sec, sizeof sec);
        epoch_text(y, 3, ms, sizeof ms);
        /* ab -g: epoch seconds */
        snprintf(doc, sizeof doc, "starttime\tseconds\tctime\tdtime\tttime\twait\n"
                                  "Mon Nov 30 15:09:36 2026\t%s\t0\t1\t1\t1\n", sec);
        expect_year("ab-gnuplot", y, parse("ab-gnuplot", doc, strlen(doc)), want);
        /* Gatling text: epoch ms */
        snprintf(doc, sizeof doc, "RUN\tsim.S\ts\t%s\t \t3.7.4\n"
                                  "REQUEST\t\treq\t%s\t%s\tOK\t \n", ms, ms, ms);
        expect_year("gatling", y, parse("gatling", doc, strlen(doc)), want);
        /* Locust stats history: epoch seconds, summary-only (the series' first point) */
        snprintf(doc, sizeof doc,
                 "Timestamp,User Count,Type,Name,Requests/s,Failures/s,50%%,66%%,75%%,80%%,90%%,"
                 "95%%,98%%,99%%,99.9%%,99.99%%,100%%,Total Request Count,Total Failure Count\n"
                 "%s,1,,Aggregated,0,0,1,1,1,1,1,1,1,1,1,1,1,1,0\n", sec);
        outcome o = parse("locust", doc, strlen(doc));
        if (IN_RANGE(y))
            assert_int_equal(o.rc, 0);
        else
            expect_year("locust", y, o, 0);
        /* Artillery: periods in ms (a series point's time, or none out of range) */
        snprintf(doc, sizeof doc,
                 "{\"aggregate\":{\"counters\":{\"http.requests\":1},\"firstMetricAt\":%s,"
                 "\"lastMetricAt\":%s},\"intermediate\":[{\"counters\":{},\"period\":\"%s\"}]}",
                 ms, ms, ms);
        o = parse("artillery", doc, strlen(doc));
        assert_int_equal(o.rc, 0);
    }
}

/* Gatling 3.13+ binary log: the RUN record's start (epoch ms), then offsets from it. */
static void be(unsigned char *b, size_t *n, uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; i--)
        b[(*n)++] = (unsigned char)(v >> (8 * i));
}
static void latin1(unsigned char *b, size_t *n, const char *s)
{
    be(b, n, strlen(s), 4);
    memcpy(b + *n, s, strlen(s));
    *n += strlen(s);
    if (*s)
        b[(*n)++] = 0;
}

static void test_times__gatling_binary(void **st)
{
    for (size_t i = 0; i < NYEARS; i++) {
        int y = years[i];
        unsigned char b[256];
        size_t n = 0;
        b[n++] = 0; /* RUN */
        latin1(b, &n, "3.14.3");
        latin1(b, &n, "sim.S");
        /* the start in ms: year 9999 fits in ms; the check must come before any sum */
        be(b, &n, (uint64_t)(jan1_s(y) * 1000), 8);
        latin1(b, &n, "");
        be(b, &n, 1, 4);
        latin1(b, &n, "Users");
        be(b, &n, 0, 4);
        b[n++] = 1; /* REQUEST, no groups, name "Home", 0..0 ms, OK, no message */
        be(b, &n, 0, 4);
        be(b, &n, 1, 4);
        latin1(b, &n, "Home");
        be(b, &n, 0, 4);
        be(b, &n, 0, 4);
        b[n++] = 1;
        be(b, &n, 0, 4);
        outcome o = parse("gatling-binary", b, n);
        expect_year("gatling-binary", y, o, jan1_ns(y));
    }
    /* a start next to INT64_MAX: an offset added to it would overflow */
    unsigned char b[256];
    size_t n = 0;
    b[n++] = 0;
    latin1(b, &n, "3.14.3");
    latin1(b, &n, "sim.S");
    be(b, &n, (uint64_t)INT64_MAX - 5, 8);
    latin1(b, &n, "");
    be(b, &n, 0, 4);
    be(b, &n, 0, 4);
    assert_int_equal(parse("gatling-binary", b, n).rc, PR_EPARSE);
}

/* k6's CSV (RFC 3339 timeFormat) and JSON points: a request's points carry its end time; the
 * sample starts its duration (114.365 ms) earlier. One second into the year, so that the start
 * of 1678 stays inside the range. */
static void test_times__k6(void **st)
{
    static const char *const metrics[] = {"http_reqs", "http_req_duration", "http_req_blocked",
                                          "http_req_connecting", "http_req_sending",
                                          "http_req_waiting", "http_req_receiving",
                                          "http_req_failed"};
    static const char *const values[] = {"1", "114.365", "0.5", "0.1", "0.251", "114.01",
                                         "0.104", "0"};
    for (size_t i = 0; i < NYEARS; i++) {
        int y = years[i];
        int64_t want = IN_RANGE(y) ? jan1_ns(y) + 1000000000LL - 114365000 : 0;
        pr_buf csv = PR_BUF_INIT, js = PR_BUF_INIT;
        pr_buf_puts(&csv, "metric_name,timestamp,metric_value,check,error,error_code,"
                          "expected_response,group,method,name,proto,scenario,service,status,"
                          "subproto,tls_version,url,extra_tags\n");
        for (size_t m = 0; m < 8; m++) {
            pr_buf_printf(&csv, "%s,%04d-01-01T00:00:01Z,%s,,,,true,,GET,http://x/,HTTP/1.1,"
                                "default,,200,,,http://x/,\n", metrics[m], y, values[m]);
            pr_buf_printf(&js, "{\"type\":\"Point\",\"data\":{\"time\":\"%04d-01-01T00:00:01Z\","
                               "\"value\":%s,\"tags\":{\"expected_response\":\"true\",\"method\":"
                               "\"GET\",\"name\":\"http://x/\",\"status\":\"200\",\"url\":"
                               "\"http://x/\"}},\"metric\":\"%s\"}\n", y, values[m], metrics[m]);
        }
        expect_year("k6-csv", y, parse("k6-csv", csv.p, csv.len), want);
        expect_year("k6-json", y, parse("k6-json", js.p, js.len), want);
        pr_buf_dispose(&csv);
        pr_buf_dispose(&js);
    }
}

/* HdrHistogram interval logs: an interval's start (absolute seconds); outside 1678..2261 it is
 * unknown. The histogram is the first interval of tests/data/hdr/jHiccup-2.0.7S.logV2.hlog. */
static void test_times__hdr_log(void **st)
{
    FILE *f = fopen(testdata("hdr/jHiccup-2.0.7S.logV2.hlog"), "r");
    assert_non_null(f);
    char line[8192], hist[8192] = "";
    while (fgets(line, sizeof line, f))
        if (line[0] >= '0' && line[0] <= '9' && strrchr(line, ',')) {
            snprintf(hist, sizeof hist, "%s", strrchr(line, ',') + 1);
            break;
        }
    fclose(f);
    assert_true(strlen(hist) > 10);
    for (size_t i = 0; i < NYEARS; i++) {
        int y = years[i];
        pr_buf doc = PR_BUF_INIT;
        char sec[64];
        epoch_text(y, 0, sec, sizeof sec);
        pr_buf_printf(&doc, "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
                            "\"Interval_Compressed_Histogram\"\n%s.000,1.000,1.000,%s", sec, hist);
        outcome o = parse("hdr-hlog", doc.p, doc.len);
        pr_buf_dispose(&doc);
        assert_int_equal(o.rc, 0);
        if (IN_RANGE(y))
            assert_true(o.start_ns == jan1_ns(y));
        else
            assert_true(o.start_ns == PR_UNKNOWN);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_times__conversions),
        cmocka_unit_test(test_times__vegeta),
        cmocka_unit_test(test_times__vegeta_gob),
        cmocka_unit_test(test_times__jmeter),
        cmocka_unit_test(test_times__ab_gatling_locust_artillery),
        cmocka_unit_test(test_times__gatling_binary),
        cmocka_unit_test(test_times__k6),
        cmocka_unit_test(test_times__hdr_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
