/* Unit tests: hey (CSV and summary), wrk, siege and httperf readers, and sniffing of every
 * ab and other-tool fixture. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/xalloc.h"
#include "tests/unit/lib/collect.h"
#include "tests/unit/lib/jcheck.h"
#include "tests/unit/lib/files.h"

static void test_othertools__hey_csv(void **st)
{
    collect c;
    collect_parse_ok(&c, "hey-csv", "other/hey_nginx_c50.csv", COLLECT_FORMAT);
    assert_int_equal(c.n, 5000);
    assert_false(c.run->summary_only);
    /* first row: 0.0029,0.0003,0.0000,0.0001,0.0023,0.0001,200,0.0004 */
    assert_true(c.s[0].latency_ns == 2900000);
    assert_true(c.s[0].connect_ns == 300000);
    assert_true(c.s[0].ttfb_ns == 2800000);
    assert_true(c.s[0].start_ns == 400000);
    assert_int_equal(c.s[0].status, 200);
    assert_int_equal(c.s[0].success, PR_SUCCESS_UNKNOWN);
    assert_true(json_is_true(json_object_get(c.run->meta, "start_is_relative")));
    collect_free(&c);

    /* 600 requests, 24 timed out: only 576 rows */
    collect_parse_ok(&c, "hey-csv", "other/hey_mixed_status.csv", COLLECT_FORMAT);
    assert_int_equal(c.n, 576);
    json_t *notes = json_object_get(c.run->meta, "notes");
    assert_true(strstr(json_string_value(json_array_get(notes, 0)), "successful requests only"));
    collect_free(&c);

    pr_error err;
    const char *bad = "response-time,DNS+dialup,DNS,Request-write,Response-delay,"
                      "Response-read,status-code,offset\n0.1,0.0,0.0,0.0,0.0,0.0,abc,0.1\n";
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "hey-csv", bad, strlen(bad), NULL, &err), PR_EPARSE);
    assert_int_equal(err.line, 2);
    assert_true(strstr(err.msg, "status-code") != NULL);
    collect_free(&c);
}

static void test_othertools__hey_text(void **st)
{
    collect c;
    collect_parse_ok(&c, "hey-text", "other/hey_mixed_status_summary.txt", COLLECT_FORMAT);
    const json_t *s = c.run->summary, *lat = jobj(s, "latency_ns");
    assert_true(c.run->summary_only);
    assert_int_equal(jint(s, "requests"), 600);
    assert_int_equal(jint(s, "failures"), 24);
    assert_int_equal(jint(jobj(s, "status_codes"), "200"), 576);
    assert_true(jnum(s, "rate_per_s") == 67.1859);
    assert_int_equal(jint(s, "duration_ns"), 8930400000);
    assert_int_equal(jint(lat, "p10"), 48000000);
    assert_int_equal(jint(lat, "p99"), 272700000);
    assert_int_equal(jint(lat, "max"), 287000000);
    assert_int_equal(jint(lat, "mean"), 72600000);
    assert_null(json_object_get(lat, "p100"));
    json_t *hist = json_object_get(jobj(s, "tool"), "Response time histogram");
    assert_int_equal(json_array_size(hist), 11);
    assert_int_equal(jint(json_array_get(hist, 3), "count"), 291);
    json_t *e = json_array_get(json_object_get(s, "errors"), 0);
    assert_int_equal(jint(e, "count"), 24);
    assert_true(strstr(json_string_value(json_object_get(e, "message")), "Client.Timeout"));
    assert_true(jnum(jobj(jobj(jobj(s, "tool"), "Details (secs)"), "resp wait"), "average") ==
                0.0304);
    collect_free(&c);

    /* every request failed: no latencies at all (hey prints 0 and NaN) */
    collect_parse_ok(&c, "hey-text", "other/hey_refused_summary.txt", COLLECT_FORMAT);
    s = c.run->summary;
    assert_null(json_object_get(s, "latency_ns"));
    assert_int_equal(jint(s, "requests"), 50);
    assert_int_equal(jint(s, "failures"), 50);
    collect_free(&c);

    /* a status outside 200..399 is a failure too (hey itself counts none) */
    const char *codes = "Summary:\n  Total:\t1.0 secs\n  Requests/sec:\t3.0\n\n"
                        "Status code distribution:\n  [200]\t2 responses\n"
                        "  [404]\t1 responses\n";
    pr_error cerr;
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "hey-text", codes, strlen(codes), NULL, &cerr), 0);
    assert_int_equal(jint(c.run->summary, "requests"), 3);
    assert_int_equal(jint(c.run->summary, "failures"), 1);
    collect_free(&c);

    /* cut before the status codes: PR_ETRUNC, what was read is kept */
    {
        char *buf = test_read_file(testdata("other/hey_nginx_c50_summary.txt"), 4095, NULL);
        const char *cut = strstr(buf, "Status code distribution:");
        assert_non_null(cut);
        pr_error err;
        collect_init(&c);
        assert_int_equal(collect_parse_mem(&c, "hey-text", buf, (size_t)(cut - buf), NULL, &err),
                         PR_ETRUNC);
        assert_int_equal(jint(c.run->summary, "duration_ns"), 139600000);
        collect_free(&c);
        free(buf);
    }

    collect_parse_ok(&c, "hey-text", "other/hey_post_z3s_summary.txt", COLLECT_FORMAT);
    assert_int_equal(jint(c.run->summary, "requests"), 82779);
    assert_int_equal(jint(jobj(c.run->summary, "tool"), "Total data (bytes)"), 993348);
    collect_free(&c);

    collect_parse_ok(&c, "hey-text", "other/hey_nginx_c50_summary.txt", COLLECT_FORMAT);
    assert_int_equal(jint(jobj(c.run->summary, "latency_ns"), "p50"), 800000);
    collect_free(&c);
}

static void test_othertools__wrk(void **st)
{
    collect c;
    collect_parse_ok(&c, "wrk-text", "other/wrk_nginx_t2c50_latency.txt", COLLECT_FORMAT);
    const json_t *s = c.run->summary, *lat = jobj(s, "latency_ns"), *tool = jobj(s, "tool");
    assert_int_equal(jint(s, "requests"), 229123);
    assert_int_equal(jint(s, "duration_ns"), 5040000000);
    assert_int_equal(jint(s, "concurrency"), 50);
    assert_int_equal(c.run->concurrency, 50);
    assert_int_equal(jint(tool, "threads"), 2);
    assert_true(jnum(s, "rate_per_s") == 45455.41);
    assert_int_equal(jint(lat, "mean"), 4180000);
    assert_int_equal(jint(lat, "stdev"), 15410000);
    assert_int_equal(jint(lat, "max"), 175560000);
    assert_int_equal(jint(lat, "p50"), 900000);
    assert_int_equal(jint(lat, "p99"), 83660000);
    assert_true(jnum(jobj(tool, "Req/Sec"), "avg") == 23380);
    assert_int_equal(jint(s, "failures"), 0); /* wrk prints no error line: none */
    assert_int_equal(jint(s, "bytes_in_total"), (json_int_t)(81.29 * 1024 * 1024 + 0.5));
    json_t *notes = json_object_get(c.run->meta, "notes");
    assert_true(strstr(json_string_value(json_array_get(notes, 0)), "coordinated omission"));
    collect_free(&c);

    collect_parse_ok(&c, "wrk-text", "other/wrk_missing_404_latency.txt", COLLECT_FORMAT);
    s = c.run->summary;
    assert_int_equal(jint(jobj(s, "tool"), "Non-2xx or 3xx responses"), 108066);
    assert_int_equal(jint(s, "failures"), 108066); /* every response was a 404 */
    assert_int_equal(jint(jobj(s, "latency_ns"), "p50"), 236000);
    collect_free(&c);

    collect_parse_ok(&c, "wrk-text", "other/wrk_nolatency_big.txt", COLLECT_FORMAT);
    s = c.run->summary;
    assert_null(json_object_get(jobj(s, "latency_ns"), "p50"));
    assert_int_equal(jint(s, "requests"), 52038);
    assert_true(jnum(s, "bytes_in_per_s") == 1.06 * 1024 * 1024 * 1024);
    collect_free(&c);

    /* timeouts (held-back fixture's form) */
    const char *to = "Running 5s test @ http://127.0.0.1:18281/mixed\n"
                     "  2 threads and 10 connections\n"
                     "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
                     "    Latency   110.57ms  141.93ms 996.86ms   93.62%\n"
                     "    Req/Sec    48.71     19.53    90.00     62.89%\n"
                     "  453 requests in 5.01s, 71.54KB read\n"
                     "  Socket errors: connect 0, read 0, write 0, timeout 7\n"
                     "Requests/sec:     90.46\n"
                     "Transfer/sec:     14.29KB\n";
    pr_error err;
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, NULL, to, strlen(to), NULL, &err), 0);
    assert_string_equal(c.run->format, "wrk-text");
    s = c.run->summary;
    json_t *e = json_array_get(json_object_get(s, "errors"), 0);
    assert_string_equal(json_string_value(json_object_get(e, "message")), "socket error: timeout");
    assert_int_equal(jint(e, "count"), 7);
    assert_int_equal(jint(jobj(jobj(s, "tool"), "Socket errors"), "connect"), 0);
    assert_null(json_object_get(s, "failures")); /* socket errors are outside the count */
    assert_true(jnum(jobj(jobj(s, "tool"), "Req/Sec"), "avg") == 48.71);
    collect_free(&c);
    /* cut before Requests/sec */
    collect_init(&c);
    const char *cut = strstr(to, "  Socket");
    assert_int_equal(collect_parse_mem(&c, "wrk-text", to, (size_t)(cut - to), NULL, &err),
                     PR_ETRUNC);
    assert_int_equal(jint(c.run->summary, "requests"), 453);
    collect_free(&c);
}

static void test_othertools__siege(void **st)
{
    collect c;
    collect_parse_ok(&c, "siege-text", "other/siege_nginx_c10_r100_text.txt", COLLECT_FORMAT);
    const json_t *s = c.run->summary;
    assert_string_equal(c.run->tool_version, "4.0.7");
    assert_int_equal(jint(s, "requests"), 1000);
    assert_int_equal(jint(s, "successes"), 1000);
    assert_int_equal(jint(s, "failures"), 0);
    assert_int_equal(jint(s, "concurrency"), 10);
    assert_true(jnum(s, "rate_per_s") == 5263.16);
    assert_int_equal(jint(s, "duration_ns"), 190000000);
    assert_int_equal(jint(jobj(s, "latency_ns"), "max"), 80000000);
    assert_true(jnum(jobj(s, "tool"), "Concurrency") == 7.42);
    assert_true(jnum(jobj(s, "tool"), "Availability") == 100.0);
    collect_free(&c);

    const char *js = "{\n\t\"transactions\":\t\t\t         453,\n\t\"availability\":\t\t\t      "
                     "100.00,\n\t\"elapsed_time\":\t\t\t        4.99,\n\t\"data_transferred\":\t"
                     "\t        0.01,\n\t\"response_time\":\t\t        0.11,\n\t"
                     "\"transaction_rate\":\t\t       90.78,\n\t\"throughput\":\t\t\t        "
                     "0.00,\n\t\"concurrency\":\t\t\t        9.93,\n\t"
                     "\"successful_transactions\":\t         453,\n\t\"failed_transactions\":\t"
                     "\t           0,\n\t\"longest_transaction\":\t\t        0.21,\n\t"
                     "\"shortest_transaction\":\t\t        0.00\n}\n";
    pr_error err;
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, NULL, js, strlen(js), NULL, &err), 0);
    assert_string_equal(c.run->format, "siege-json");
    s = c.run->summary;
    assert_int_equal(jint(s, "requests"), 453);
    assert_int_equal(jint(jobj(s, "latency_ns"), "mean"), 110000000);
    assert_true(jnum(s, "rate_per_s") == 90.78);
    collect_free(&c);
}

static void test_othertools__httperf(void **st)
{
    collect c;
    collect_parse_ok(&c, "httperf-text", "other/httperf_nginx_rate500.txt", COLLECT_FORMAT);
    const json_t *s = c.run->summary, *tool = jobj(s, "tool");
    assert_int_equal(jint(s, "requests"), 10000);
    assert_int_equal(jint(s, "duration_ns"), 3999000000);
    assert_true(jnum(s, "rate_per_s") == 2500.8);
    assert_int_equal(jint(s, "failures"), 0);
    assert_int_equal(jint(jobj(s, "connect_ns"), "mean"), 700000);
    assert_int_equal(jint(jobj(s, "ttfb_ns"), "mean"), 1200000);
    assert_int_equal(jint(jobj(tool, "Reply status"), "2xx"), 10000);
    assert_true(jnum(jobj(tool, "Connection time [ms]"), "median") == 0.5);
    assert_int_equal(jint(jobj(tool, "Total"), "connections"), 2000);
    /* --rate=500 connections/s × --num-calls=5: 2500 requests/s offered */
    assert_true(c.run->offered_rate == 2500);
    assert_int_equal(c.run->load_model, PR_LOAD_OPEN);
    assert_null(json_object_get(s, "errors"));
    collect_free(&c);

    /* failures: requests without a reply + 1xx/4xx/5xx replies, not the connection errors */
    const char *h = "httperf --rate=10\nTotal: connections 4 requests 8 replies 6 "
                    "test-duration 1.0 s\nReply status: 1xx=0 2xx=3 3xx=1 4xx=1 5xx=1\n"
                    "Errors: total 1 client-timo 1 socket-timo 0 connrefused 0\n";
    pr_error err;
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "httperf-text", h, strlen(h), NULL, &err), 0);
    assert_int_equal(jint(c.run->summary, "failures"), 2 + 1 + 1);
    collect_free(&c);
}

/* Labels that are not UTF-8 become '?' in keys (jansson would reject them and free the value). */
static void test_othertools__invalid_utf8_labels(void **st)
{
    const char *h = "httperf --rate=10\nTotal: connections 1 requests 1 replies 1 "
                    "test-duration 1.0 s\n\xff\xfeLabel: a 1 b 2\nErrors: total 0\n";
    collect c;
    pr_error err;
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "httperf-text", h, strlen(h), NULL, &err), 0);
    assert_int_equal(jint(jobj(jobj(c.run->summary, "tool"), "??Label"), "b"), 2);
    char *dump = json_dumps(c.run->summary, 0);
    assert_non_null(dump);
    free(dump);
    collect_free(&c);
    const char *y = "Summary:\n  Total:\t1.0 secs\n\nDetails (average, fastest, slowest):\n"
                    "  \xc3(:\t0.1 secs, 0.1 secs, 0.1 secs\n\nStatus code distribution:\n"
                    "  [200]\t1 responses\n";
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "hey-text", y, strlen(y), NULL, &err), 0);
    assert_non_null(json_object_get(jobj(jobj(c.run->summary, "tool"), "Details (secs)"), "?("));
    collect_free(&c);
}

/* Every fixture file is claimed by exactly the right reader (or by none for stderr files). */
static void test_othertools__sniff_all_fixtures(void **st)
{
    static const struct {
        const char *file, *format;
    } cases[] = {
        {"other/hey_mixed_status.csv", "hey-csv"},
        {"other/hey_nginx_c50.csv", "hey-csv"},
        {"other/hey_mixed_status_summary.txt", "hey-text"},
        {"other/hey_nginx_c50_summary.txt", "hey-text"},
        {"other/hey_post_z3s_summary.txt", "hey-text"},
        {"other/hey_refused_summary.txt", "hey-text"},
        {"other/httperf_nginx_rate500.txt", "httperf-text"},
        {"other/httperf_nginx_rate500.stderr.txt", NULL},
        {"other/siege_nginx_c10_r100_text.txt", "siege-text"},
        {"other/wrk_missing_404_latency.txt", "wrk-text"},
        {"other/wrk_nginx_t2c50_latency.txt", "wrk-text"},
        {"other/wrk_nolatency_big.txt", "wrk-text"},
        {"ab/ab_big_64k.csv", "ab-csv"},           {"ab/ab_big_64k.tsv", "ab-gnuplot"},
        {"ab/ab_big_64k.txt", "ab-text"},          {"ab/ab_big_64k.stderr.txt", NULL},
        {"ab/ab_error_500.csv", "ab-csv"},         {"ab/ab_error_500.tsv", "ab-gnuplot"},
        {"ab/ab_error_500.txt", "ab-text"},        {"ab/ab_error_500.stderr.txt", NULL},
        {"ab/ab_flaky_abort.txt", "ab-text"},      {"ab/ab_flaky_abort.stderr.txt", NULL},
        {"ab/ab_html_w.txt", "ab-text"},           {"ab/ab_html_w.stderr.txt", NULL},
        {"ab/ab_keepalive_c50.csv", "ab-csv"},     {"ab/ab_keepalive_c50.tsv", "ab-gnuplot"},
        {"ab/ab_keepalive_c50.txt", "ab-text"},    {"ab/ab_keepalive_c50.stderr.txt", NULL},
        {"ab/ab_missing_404.csv", "ab-csv"},       {"ab/ab_missing_404.tsv", "ab-gnuplot"},
        {"ab/ab_missing_404.txt", "ab-text"},      {"ab/ab_missing_404.stderr.txt", NULL},
        {"ab/ab_nopercentile_dS.txt", "ab-text"},  {"ab/ab_nopercentile_dS.stderr.txt", NULL},
        {"ab/ab_plain_c10.csv", "ab-csv"},         {"ab/ab_plain_c10.tsv", "ab-gnuplot"},
        {"ab/ab_plain_c10.txt", "ab-text"},        {"ab/ab_plain_c10.stderr.txt", NULL},
        {"ab/ab_post_json.csv", "ab-csv"},         {"ab/ab_post_json.tsv", "ab-gnuplot"},
        {"ab/ab_post_json.txt", "ab-text"},        {"ab/ab_post_json.stderr.txt", NULL},
        {"ab/ab_refused.txt", "ab-text"},          {"ab/ab_refused.stderr.txt", NULL},
        {"ab/ab_refused_r.csv", "ab-csv"},         {"ab/ab_refused_r.tsv", "ab-gnuplot"},
        {"ab/ab_refused_r.txt", "ab-text"},        {"ab/ab_refused_r.stderr.txt", NULL},
        {"ab/ab_small_n20.csv", "ab-csv"},         {"ab/ab_small_n20.tsv", "ab-gnuplot"},
        {"ab/ab_small_n20.txt", "ab-text"},        {"ab/ab_small_n20.stderr.txt", NULL},
        {"ab/ab_timelimit_t2.csv", "ab-csv"},      {"ab/ab_timelimit_t2.tsv", "ab-gnuplot"},
        {"ab/ab_timelimit_t2.txt", "ab-text"},     {"ab/ab_timelimit_t2.stderr.txt", NULL},
        {"ab/ab_timeout_s1.txt", "ab-text"},       {"ab/ab_timeout_s1.stderr.txt", NULL},
        {"ab/ab_varlen_length.csv", "ab-csv"},     {"ab/ab_varlen_length.tsv", "ab-gnuplot"},
        {"ab/ab_varlen_length.txt", "ab-text"},    {"ab/ab_varlen_length.stderr.txt", NULL},
        {"ab/ab_verbose_v2.txt", "ab-text"},       {"ab/ab_verbose_v2.stderr.txt", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n;
        char *buf = test_read_file(testdata(cases[i].file), (1 << 20) - 1, &n);
        /* the sniff window the CLI uses may be short: try the first 512 bytes and 4 KiB */
        static const size_t windows[] = {512, 4096};
        for (size_t w = 0; w < 2; w++) {
            size_t k = n < windows[w] ? n : windows[w];
            int score;
            const pr_parser *p = pr_parser_sniff((const unsigned char *)buf, k, &score);
            if (cases[i].format == NULL) {
                if (p)
                    fail_msg("%s claimed by %s", cases[i].file, p->name);
            } else if (!p || strcmp(p->name, cases[i].format) != 0) {
                fail_msg("%s (first %zu bytes): sniffed %s, expected %s", cases[i].file, k,
                         p ? p->name : "nothing", cases[i].format);
            }
            /* no other reader of this helper's set is confident too */
            for (size_t j = 0; cases[i].format && pr_parsers[j]; j++) {
                const pr_parser *q = pr_parsers[j];
                if (strcmp(q->name, cases[i].format) == 0)
                    continue;
                int sc = q->sniff((const unsigned char *)buf, k);
                if (sc >= 20 && sc >= score)
                    fail_msg("%s: %s also claims it (%d)", cases[i].file, q->name, sc);
            }
        }
        /* and the chosen reader parses it, or says that ab stopped before its report (the
         * aborted runs: nothing was measured) */
        if (cases[i].format) {
            static const char *const aborted[] = {"ab/ab_flaky_abort.txt", "ab/ab_refused.txt",
                                                  "ab/ab_timeout_s1.txt"};
            int want_error = 0;
            for (size_t k = 0; k < sizeof aborted / sizeof aborted[0]; k++)
                want_error |= !strcmp(cases[i].file, aborted[k]);
            collect c;
            pr_error err;
            collect_init(&c);
            int rc = collect_parse_file(&c, cases[i].format, testdata(cases[i].file), NULL,
                                        &err);
            if (want_error && (rc != PR_EFORMAT || !strstr(err.msg, "expected ab's report")))
                fail_msg("%s: parse rc %d, expected the no-report error", cases[i].file, rc);
            if (!want_error && rc != 0)
                fail_msg("%s: parse rc %d: %s", cases[i].file, rc, err.msg);
            collect_free(&c);
        }
        free(buf);
    }
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_othertools__hey_csv),
        cmocka_unit_test(test_othertools__hey_text),
        cmocka_unit_test(test_othertools__wrk),
        cmocka_unit_test(test_othertools__siege),
        cmocka_unit_test(test_othertools__httperf),
        cmocka_unit_test(test_othertools__invalid_utf8_labels),
        cmocka_unit_test(test_othertools__sniff_all_fixtures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
