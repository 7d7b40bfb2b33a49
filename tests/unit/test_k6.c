/* Unit tests: the k6 readers (NDJSON in both key layouts, CSV in every timeFormat, summary
 * JSON), the request join and its bound, k6's percentile rule, and the HdrHistogram readers
 * (hgrm round trip, hlog decoding checked against the logs' own max column). */
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
#include "analysis/hgrm.h"
#include "analysis/k6_stats.h"
#include "model/buf.h"
#include "model/xalloc.h"
#include "parsers/k6.h"
#include "tests/unit/lib/collect.h"
#include "tests/unit/lib/files.h"

static void test_k6__json_layouts(void **st)
{
    collect c;
    /* v0.41+ ("metric" first): one request of nine points, Polish workshop capture */
    collect_parse_ok(&c, "k6-json", "k6/keycloak_v041plus.ndjson", COLLECT_FORMAT);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.s[0].latency_ns, 57074600);
    assert_int_equal(c.s[0].ttfb_ns, 55957000); /* sending 0 + waiting 55.957 */
    assert_int_equal(c.s[0].connect_ns, 0);
    assert_int_equal(c.s[0].status, 200);
    assert_int_equal(c.s[0].success, PR_OK_SUCCESS);
    /* time is the request's end (+02:00 zone): start = end - duration */
    int64_t end;
    assert_int_equal(pr_lex_rfc3339("2025-06-02T18:44:55.8795741+02:00", 33, &end, NULL), 0);
    assert_int_equal(c.s[0].start_ns, end - 57074600);
    assert_string_equal(pr_run_str(c.run, c.s[0].label),
                        "https://3.79.196.112/realms/sample-app/protocol/openid-connect/token");
    assert_string_equal(pr_run_str(c.run, c.s[0].method), "POST");
    assert_non_null(strstr(pr_run_str(c.run, c.s[0].attrs), "myTag=authorize"));
    json_t *chk = json_object_get(json_object_get(json_object_get(c.run->meta, "k6"), "checks"),
                                  "status is 200");
    assert_int_equal(json_integer_value(json_object_get(chk, "passes")), 1);
    collect_free(&c);
    /* v0.35 ("type","data","metric", "sub" key): thresholds kept from the Metric line */
    collect_parse_ok(&c, "k6-json", "k6/docs_v035.ndjson", COLLECT_FORMAT);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.s[0].latency_ns, 118960000);
    json_t *th = json_object_get(json_object_get(json_object_get(json_object_get(c.run->meta, "k6"),
                                                                 "http_metrics"), "http_req_duration"),
                                 "thresholds");
    assert_string_equal(json_string_value(json_array_get(th, 0)), "p(95)<=100");
    collect_free(&c);
    /* a v0.39 run whose points list the same tags in different orders: still one sample per
     * request (three requests, then vus/vus_max) */
    collect_parse_ok(&c, "k6-json", "k6/workloads_v039.ndjson", COLLECT_FORMAT);
    assert_int_equal(c.n, 3);
    assert_int_equal(c.s[0].status, 308);
    assert_int_equal(c.s[0].latency_ns, 131205895);
    assert_int_equal(c.s[0].connect_ns, 129745782);
    assert_int_equal(c.s[1].status, 200);
    assert_int_equal(c.s[1].connect_ns, 123162484 + 148501159);
    assert_non_null(strstr(pr_run_str(c.run, c.s[1].attrs), "tls_version=tls1.3"));
    assert_int_equal(c.warnings, 0);
    collect_free(&c);
    /* k6's own writer test lines (custom metrics, metadata): no request, two series */
    collect_parse_ok(&c, "k6-json", "k6/k6_output_json_test.ndjson", COLLECT_FORMAT);
    assert_int_equal(c.n, 0);
    json_t *m1 = json_object_get(json_object_get(json_object_get(c.run->meta, "k6"), "metrics"),
                                 "my_metric1");
    assert_string_equal(json_string_value(json_object_get(m1, "type")), "gauge");
    assert_int_equal(json_integer_value(json_object_get(m1, "count")), 3);
    assert_true(json_real_value(json_object_get(m1, "last")) == 4);
    assert_int_equal(json_array_size(json_object_get(m1, "series")), 2);
    collect_free(&c);
}

/* n requests as v0.41+ lines; request `late` gets its last three points after all others. */
static char *requests(int n, int late, size_t *len)
{
    static const char *const m[] = {"http_reqs", "http_req_duration", "http_req_blocked",
                                    "http_req_connecting", "http_req_tls_handshaking",
                                    "http_req_sending", "http_req_waiting", "http_req_receiving",
                                    "http_req_failed"};
    pr_buf b = PR_BUF_INIT;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++)
            for (int k = 0; k < 9; k++) {
                int tail = i == late && k >= 6;
                if (tail != (pass == 1))
                    continue;
                pr_buf_printf(&b, "{\"metric\":\"%s\",\"type\":\"Point\",\"data\":{\"time\":"
                              "\"2025-12-01T12:00:%02d.%06dZ\",\"value\":%s,\"tags\":{\"name\":\"r%d\","
                              "\"status\":\"%d\"}}}\n", m[k], i / 1000000, i % 1000000,
                              k == 1 ? "2.5" : k == 0 ? "1" : k == 8 ? (i % 10 ? "0" : "1") : "0.5",
                              i % 7, i % 10 ? 200 : 503);
            }
    *len = b.len;
    return pr_buf_steal(&b);
}

static void test_k6__join_bound(void **st)
{
    size_t len;
    pr_error err;
    collect c;
    /* points of one request a few hundred requests apart are joined */
    char *t = requests(300, 5, &len);
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "k6-json", t, len, NULL, &err), 0);
    assert_int_equal(c.n, 300);
    assert_int_equal(c.warnings, 0);
    int failed = 0;
    for (size_t i = 0; i < c.n; i++) {
        assert_int_equal(c.s[i].latency_ns, 2500000);
        failed += c.s[i].success == PR_FAIL;
    }
    assert_int_equal(failed, 30); /* http_req_failed = 1 for every tenth (status 503) */
    collect_free(&c);
    free(t);
    /* beyond PR_K6_PENDING requests apart: emitted with what it had, the late points are
     * dropped and said so; memory stays bounded */
    t = requests(PR_K6_PENDING + 100, 5, &len);
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "k6-json", t, len, NULL, &err), 0);
    assert_int_equal(c.n, PR_K6_PENDING + 100);
    assert_int_equal(c.warnings, 1);
    assert_non_null(strstr(c.last_warning, "1 request(s) had points too far apart"));
    assert_non_null(strstr(c.last_warning, "1 point group(s) without http_req_duration"));
    collect_free(&c);
    free(t);
}

static void test_k6__damaged(void **st)
{
    size_t n;
    char *buf = test_read_file(testdata("k6/keycloak_v041plus.ndjson"), 8192, &n);
    /* cut inside the 10th line (the check): the request's nine points are complete */
    size_t cut = 0;
    for (int lines = 0; cut < n && lines < 9; cut++)
        lines += buf[cut] == '\n';
    cut += 30;
    collect c;
    collect_init(&c);
    pr_error err;
    pr_error_clear(&err);
    assert_int_equal(collect_parse_mem(&c, "k6-json", buf, cut, NULL, &err), PR_ETRUNC);
    assert_int_equal(err.line, 10);
    assert_int_equal(c.n, 1);
    collect_free(&c);
    free(buf);
    /* a malformed line in the middle: file:line:col */
    char bad[] = "{\"metric\":\"http_reqs\",\"type\":\"Point\",\"data\":{\"time\":\"2025-01-01T00:00:00Z\","
                 "\"value\":1,\"tags\":{}}}\n{\"metric\":\"x\" \"type\":\"Point\"}\n{}\n";
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "k6-json", bad, strlen(bad), NULL, &err), PR_EPARSE);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 15);
    assert_string_equal(err.msg, "expected ',' or '}' in a k6 JSON line");
    collect_free(&c);
}

static void test_k6__csv_time_formats(void **st)
{
    collect c;
    collect_parse_ok(&c, "k6-csv", "k6/docs_v035.csv", COLLECT_FORMAT);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.s[0].latency_ns, 114365000);
    assert_int_equal(c.s[0].connect_ns, 117517000 + 415043000);
    assert_int_equal(c.s[0].ttfb_ns, 251000 + 114010000);
    assert_int_equal(c.s[0].start_ns, 1641298536000000000LL - 114365000);
    assert_int_equal(json_integer_value(json_object_get(c.run->meta, "time_resolution_ns")),
                     1000000000);
    collect_free(&c);
    static const char *const stamps[] = {"1641298536123", "1641298536123000",
                                         "1641298536123000000", "2022-01-04T12:15:36.123Z",
                                         "2022-01-04T13:15:36.123+01:00"};
    for (size_t i = 0; i < 5; i++) {
        char t[2048];
        int n = snprintf(t, sizeof t, "metric_name,timestamp,metric_value,check,error,error_code,"
                         "expected_response,group,method,name,proto,scenario,service,status,subproto,"
                         "tls_version,url,extra_tags,metadata\n"
                         "http_reqs,%s,1.000000,,\"dial tcp: i/o timeout\",1211,false,,GET,"
                         "login,HTTP/1.1,default,,0,,,\"http://h/a,b\",vu=3&iter=9,\n"
                         "http_req_duration,%s,2.000000,,\"dial tcp: i/o timeout\",1211,false,,GET,"
                         "login,HTTP/1.1,default,,0,,,\"http://h/a,b\",vu=3&iter=9,\n",
                         stamps[i], stamps[i]);
        collect_init(&c);
        pr_error err;
        assert_int_equal(collect_parse_mem(&c, "k6-csv", t, (size_t)n, NULL, &err), 0);
        /* the two rows of one request (a dial timeout: status 0, error_code 1211) join */
        assert_int_equal(c.n, 1);
        assert_int_equal(c.warnings, 0);
        assert_int_equal(c.s[0].start_ns, 1641298536123000000LL - 2000000);
        assert_string_equal(pr_run_str(c.run, c.s[0].error), "dial tcp: i/o timeout");
        assert_string_equal(pr_run_str(c.run, c.s[0].url), "http://h/a,b");
        assert_int_equal(c.s[0].success, PR_FAIL);
        assert_non_null(strstr(pr_run_str(c.run, c.s[0].attrs), "iter=9"));
        collect_free(&c);
    }
}

static void test_k6__summary(void **st)
{
    collect c;
    collect_parse_ok(&c, "k6-summary", "k6/maribel_handlesummary.json", COLLECT_FORMAT);
    json_t *s = c.run->summary;
    assert_true(c.run->summary_only);
    assert_int_equal(json_integer_value(json_object_get(s, "requests")), 1201);
    assert_int_equal(json_integer_value(json_object_get(s, "failures")), 0);
    assert_int_equal(json_integer_value(json_object_get(s, "duration_ns")), 61415850400LL);
    json_t *lat = json_object_get(s, "latency_ns");
    assert_int_equal(json_integer_value(json_object_get(lat, "p95")), 429768400);
    assert_int_equal(json_integer_value(json_object_get(lat, "min")), 336956100);
    collect_free(&c);
    /* the export: http_req_failed passes are the failed requests */
    collect_parse_ok(&c, "k6-summary", "k6/ticket_reserve_export.json", COLLECT_FORMAT);
    s = c.run->summary;
    assert_int_equal(json_integer_value(json_object_get(s, "failures")), 1);
    assert_int_equal(json_integer_value(json_object_get(s, "successes")), 99);
    collect_free(&c);
    /* export thresholds are {expr: failed}: true means the threshold failed */
    const char *t = "{\"root_group\":{},\"metrics\":{\"http_reqs\":{\"count\":3,\"rate\":3,"
                    "\"thresholds\":{\"rate<100\":false}},\"my_trend\":{\"avg\":15,\"max\":20,"
                    "\"med\":15,\"min\":10,\"p(90)\":19,\"thresholds\":{\"my_trend<1000\":true}}}}";
    collect_init(&c);
    pr_error err;
    assert_int_equal(collect_parse_mem(&c, "k6-summary", t, strlen(t), NULL, &err), 0);
    json_t *th = json_object_get(json_object_get(json_object_get(c.run->summary, "tool"), "k6"),
                                 "thresholds");
    assert_int_equal(json_array_size(th), 2);
    for (size_t i = 0; i < 2; i++) {
        json_t *e = json_array_get(th, i);
        int mine = !strcmp(json_string_value(json_object_get(e, "metric")), "my_trend");
        assert_int_equal(json_is_true(json_object_get(e, "ok")), !mine);
    }
    collect_free(&c);
}

static void test_k6__percentile(void **st)
{
    /* k6's own test (js/summary_test.go TestTextSummary): values 10, 15, 20 give
     * p(90)=19, p(95)=19.5, p(99.9)=19.99 and med=15 */
    double v[] = {10, 15, 20};
    assert_true(fabs(pr_k6_percentile(v, 3, 0.9) - 19) < 1e-9);
    assert_true(fabs(pr_k6_percentile(v, 3, 0.95) - 19.5) < 1e-9);
    assert_true(fabs(pr_k6_percentile(v, 3, 0.999) - 19.99) < 1e-9);
    assert_true(fabs(pr_k6_percentile(v, 3, 0.5) - 15) < 1e-9);
    assert_true(pr_k6_percentile(v, 1, 0.9) == 10);
    assert_true(pr_k6_percentile(v, 0, 0.9) == 0);
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* The rows of a .hgrm (everything before the footer). */
static char *rows(char *text)
{
    char *f = strstr(text, "#[Mean");
    if (f)
        *f = 0;
    return text;
}

static void test_k6__hgrm_round_trip(void **st)
{
    collect a, b;
    collect_parse_ok(&a, "vegeta-gob", "vegeta/basic.bin", COLLECT_FORMAT);
    int64_t *v = pr_xmalloc(a.n * sizeof *v);
    for (size_t i = 0; i < a.n; i++)
        v[i] = a.s[i].latency_ns;
    qsort(v, a.n, sizeof *v, cmp64);
    pr_buf out = PR_BUF_INIT;
    pr_hgrm_write(v, a.n, &out);
    collect_init(&b);
    pr_error err;
    assert_int_equal(collect_parse_mem(&b, "hdr-hgrm", out.p, out.len, NULL, &err), 0);
    assert_int_equal(b.n, a.n);
    int64_t *w = pr_xmalloc(b.n * sizeof *w);
    for (size_t i = 0; i < b.n; i++)
        w[i] = b.s[i].latency_ns;
    qsort(w, b.n, sizeof *w, cmp64);
    pr_buf again = PR_BUF_INIT;
    pr_hgrm_write(w, b.n, &again);
    assert_string_equal(rows(again.p), rows(out.p)); /* every listed percentile the same */
    pr_buf_dispose(&out);
    pr_buf_dispose(&again);
    free(v);
    free(w);
    collect_free(&a);
    collect_free(&b);
}

static void test_k6__hgrm_wrk2(void **st)
{
    collect c;
    collect_parse_ok(&c, "hdr-hgrm", "hdr/wrk2_readme_latency.txt", COLLECT_FORMAT);
    assert_int_equal(c.n, 39500);
    json_t *lat = json_object_get(c.run->summary, "latency_ns");
    assert_int_equal(json_integer_value(json_object_get(lat, "p99")), 11180000); /* wrk2's own */
    assert_int_equal(json_integer_value(json_object_get(lat, "mean")), 6602000);
    /* the p50 row: 19783 values up to 6.671 ms */
    int le = 0;
    for (size_t i = 0; i < c.n; i++)
        le += c.s[i].latency_ns <= 6671000;
    assert_int_equal(le, 19783);
    collect_free(&c);
}

/* The max of each tag's values equals the log's Interval_Max column to the histogram's
 * precision (3 significant digits: within 0.1%). */
static void test_k6__hlog(void **st)
{
    collect c;
    collect_parse_ok(&c, "hdr-hlog", "hdr/tagged-non-monotonic.hlog", COLLECT_FORMAT);
    static const struct {
        const char *tag;
        double max_ms;
    } want[] = {{"A", 0.426}, {"B", 2.769}, {"C", 0.459}};
    for (size_t k = 0; k < 3; k++) {
        int64_t mx = 0;
        for (size_t i = 0; i < c.n; i++)
            if (!strcmp(pr_run_str(c.run, c.s[i].label), want[k].tag) && c.s[i].latency_ns > mx)
                mx = c.s[i].latency_ns;
        assert_true(fabs((double)mx / 1e6 - want[k].max_ms) / want[k].max_ms < 0.001);
    }
    assert_int_equal(json_integer_value(json_object_get(c.run->meta, "value_unit_ns")), 1);
    collect_free(&c);
    collect_parse_ok(&c, "hdr-hlog", "hdr/jHiccup-2.0.7S.logV2.hlog", COLLECT_FORMAT);
    /* interval 8 starts 7.134 s after StartTime 1441753532.570 and holds the 960.496 ms max */
    int64_t t8 = 1441753532570000000LL + 7134000000LL, mx = 0;
    for (size_t i = 0; i < c.n; i++)
        if (c.s[i].start_ns == t8 && c.s[i].latency_ns > mx)
            mx = c.s[i].latency_ns;
    assert_true(fabs((double)mx / 1e6 - 960.496) / 960.496 < 0.001);
    collect_free(&c);
}

/* Crafted counts (tests/data/hdr/crafted/) are refused at the histogram's line and column, the
 * byte of the inflated histogram named, with no sample emitted; the readers' expansion limit
 * (parsers/parser.h) holds for the default rule and for --max-samples. */
static void test_k6__hdr_crafted(void **st)
{
    static const struct {
        const char *file, *byte;
    } bad[] = {{"crafted-min-run.hlog", "byte 40 "},     {"crafted-index-wrap.hlog", "byte 40 "},
               {"crafted-bucket-2e31.hlog", "byte 40 "}, {"crafted-top-value.hlog", "byte 43 "},
               {"crafted-huge-count.hlog", "byte 41 "},  {"bomb.hlog", "byte 42 "}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "hdr/crafted/%s", bad[i].file);
        collect c;
        collect_init(&c);
        pr_error err;
        assert_int_equal(collect_parse_file(&c, "hdr-hlog", testdata(rel), NULL, &err), PR_EPARSE);
        assert_int_equal(err.line, 3);
        assert_int_equal(err.col, 19);
        assert_non_null(strstr(err.msg, bad[i].byte));
        assert_int_equal(c.n, 0); /* nothing reaches the consumer */
        collect_free(&c);
    }
    collect c;
    collect_init(&c);
    pr_error err;
    assert_int_equal(
        collect_parse_file(&c, "hdr-hgrm", testdata("hdr/crafted/bomb.hgrm"), NULL, &err),
        PR_EPARSE);
    assert_int_equal(err.line, 4);
    assert_int_equal(c.n, 0);
    collect_free(&c);
    pr_parse_opts o = {0};
    assert_int_equal(pr_expand_limit(&o, 0), PR_EXPAND_BASE);
    assert_int_equal(pr_expand_limit(&o, 216), PR_EXPAND_BASE + 216 * PR_EXPAND_PER_BYTE);
    assert_int_equal(pr_expand_limit(&o, INT64_MAX), INT64_MAX);
    o.max_samples = 4489;
    collect_init(&c);
    assert_int_equal(
        collect_parse_file(&c, "hdr-hlog", testdata("hdr/tagged-non-monotonic.hlog"), &o, &err),
        PR_EPARSE);
    assert_true(c.n <= 4489);
    collect_free(&c);
    o.max_samples = 4490;
    collect_init(&c);
    assert_int_equal(
        collect_parse_file(&c, "hdr-hlog", testdata("hdr/tagged-non-monotonic.hlog"), &o, &err), 0);
    assert_int_equal(c.n, 4490);
    collect_free(&c);
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_k6__json_layouts),   cmocka_unit_test(test_k6__join_bound),
        cmocka_unit_test(test_k6__damaged),        cmocka_unit_test(test_k6__csv_time_formats),
        cmocka_unit_test(test_k6__summary),        cmocka_unit_test(test_k6__percentile),
        cmocka_unit_test(test_k6__hgrm_round_trip), cmocka_unit_test(test_k6__hgrm_wrk2),
        cmocka_unit_test(test_k6__hlog),           cmocka_unit_test(test_k6__hdr_crafted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
