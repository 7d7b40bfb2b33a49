/* Unit tests: the Gatling (text and binary), Locust, Artillery and autocannon readers on real
 * files and on records built after each writer's source. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/printed_series.h"
#include "model/xalloc.h"
#include "tests/unit/lib/collect.h"
#include "tests/unit/lib/files.h"

static size_t count_label(const collect *c, const char *label, int ok)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(pr_run_str(c->run, c->s[i].label), label) &&
            (ok < 0 || c->s[i].success == (ok ? PR_OK_SUCCESS : PR_FAIL)))
            n++;
    return n;
}

static const pr_sample *find(const collect *c, const char *label)
{
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(pr_run_str(c->run, c->s[i].label), label))
            return &c->s[i];
    return NULL;
}

static int64_t meta_int(const pr_run *r, const char *obj, const char *key)
{
    return json_integer_value(json_object_get(json_object_get(r->meta, obj), key));
}

static void test_peers__gatling_395(void **st)
{
    collect c;
    assert_int_equal(collect_parse_ok(&c, "gatling", "gatling/gatling395_computerdb.log", COLLECT_TRUNC_OK), 0);
    assert_int_equal(c.n, 60);
    /* OK/KO per request name as counted in the file (awk in tests/data/gatling/README.md) */
    assert_int_equal(count_label(&c, "01_Get_Specific_Post", 1), 20);
    assert_int_equal(count_label(&c, "02_Get_Comments_For_Post", 1), 20);
    assert_int_equal(count_label(&c, "03_Create_Post", 1), 20);
    assert_string_equal(c.run->tool_version, "3.9.5");
    /* REQUEST 1767825935194 1767825935216: 22 ms, while one user is active */
    assert_true(c.s[0].start_ns == 1767825935194000000LL);
    assert_true(c.s[0].latency_ns == 22000000);
    assert_int_equal(c.s[0].threads, 1);
    assert_int_equal(meta_int(c.run, "gatling", "users_max"), 6);
    assert_int_equal(meta_int(c.run, "gatling", "user_starts"), 20);
    assert_string_equal(json_string_value(json_object_get(json_object_get(c.run->meta, "gatling"),
                                                          "layout")), "3.4-3.12");
    collect_free(&c);
}

static void test_peers__gatling_22(void **st)
{
    collect c;
    assert_int_equal(collect_parse_ok(&c, "gatling", "gatling/gatling22_known_stats.log", COLLECT_TRUNC_OK), 0);
    assert_int_equal(c.n, 8);
    assert_int_equal(count_label(&c, "Test Request", 1), 8);
    assert_true(c.s[1].latency_ns == 9000000000LL); /* 1000 → 10000 ms */
    assert_null(c.run->tool_version);          /* "2.0" is the log format, not Gatling's */
    collect_free(&c);
}

/* Gatling 2.1 (FileDataWriter) and 3.3 (LogFileDataWriter) records, with groups and a KO. */
static const char log21[] =
    "ASSERTION\tPATH\tGlobal\tTARGET\tmax\tCONDITION\tLTE\n"
    "com.Sim\tsim-1\tRUN\t1400000000000\t \t2.0\n"
    "Scn\t1\tUSER\tSTART\t1400000000100\t0\n"
    "Scn\t1\tREQUEST\tShop,Cart\tadd\t1400000000200\t1400000000210\t1400000000250\t1400000000300\tKO\tstatus.find.is(200), but actually found 500\textra\n"
    "Scn\t1\tGROUP\tShop,Cart\t1400000000200\t1400000000400\t100\t0\t1\tKO\n"
    "Scn\t1\tUSER\tEND\t1400000000100\t1400000000500\n";
static const char log33[] =
    "RUN\tcom.Sim\tsim\t1500000000000\t \t3.3.1\n"
    "USER\tScn\t7\tSTART\t1500000000100\t1500000000100\n"
    "USER\tScn\t8\tSTART\t1500000000100\t1500000000100\n"
    "REQUEST\t7\t\tGET home\t1500000000200\t1500000000260\tOK\t \n"
    "REQUEST\t8\tLogin\tPOST login\t1500000000200\t1500000000290\tKO\t \n"
    "GROUP\t8\tLogin\t1500000000200\t1500000000300\t90\tKO\n"
    "ERROR\tCrash in feeder\t1500000000300\n"
    "ERROR\tCrash in feeder\t1500000000301\n"
    "USER\tScn\t7\tEND\t1500000000100\t1500000000400\n";

static void test_peers__gatling_old_layouts(void **st)
{
    collect c;
    pr_error err;
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "gatling", log21, sizeof log21 - 1, NULL, &err), 0);
    assert_int_equal(c.n, 2);
    assert_string_equal(pr_run_str(c.run, c.s[0].label), "Shop / Cart / add");
    assert_true(c.s[0].latency_ns == 100000000); /* respEnd - reqStart */
    assert_int_equal(c.s[0].success, PR_FAIL);
    assert_string_equal(pr_run_str(c.run, c.s[0].error),
                        "status.find.is(200), but actually found 500");
    assert_string_equal(pr_run_str(c.run, c.s[1].label), "Shop / Cart");
    assert_int_equal(c.s[1].flags, PR_SF_TRANSACTION);
    collect_free(&c);

    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "gatling", log33, sizeof log33 - 1, NULL, &err), 0);
    assert_int_equal(c.n, 3);
    assert_int_equal(find(&c, "GET home")->success, PR_OK_SUCCESS);
    assert_int_equal(find(&c, "GET home")->threads, 2);
    assert_string_equal(pr_run_str(c.run, find(&c, "Login / POST login")->error), "KO");
    assert_int_equal(find(&c, "Login")->flags, PR_SF_TRANSACTION);
    assert_int_equal(meta_int(c.run, "gatling", "error_records"), 2);
    json_t *errs = json_object_get(json_object_get(c.run->meta, "gatling"), "errors");
    assert_int_equal(json_integer_value(json_object_get(errs, "Crash in feeder")), 2);
    collect_free(&c);
}

static void test_peers__gatling_damaged(void **st)
{
    collect c;
    pr_error err;
    /* cut in the middle of the 7th line */
    const char *cut = "RUN\tcom.Sim\tsim\t1500000000000\t \t3.9.5\n"
                      "REQUEST\t\tone\t1500000000200\t1500000000260\tOK\t \n"
                      "REQUEST\t\ttwo\t1500000000200\t15000";
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "gatling", cut, strlen(cut), NULL, &err), PR_ETRUNC);
    assert_int_equal(err.line, 3);
    assert_int_equal(c.n, 1);
    collect_free(&c);
    const char *bad = "RUN\tcom.Sim\tsim\t1500000000000\t \t3.9.5\n"
                      "REQUEST\t\tone\t15000x\t1500000000260\tOK\t \n";
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "gatling", bad, strlen(bad), NULL, &err), PR_EPARSE);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 14);
    assert_non_null(strstr(err.msg, "timestamp"));
    collect_free(&c);
}

/* ---- binary (3.13+), written after LogFileDataWriter.scala of 3.15 ---- */
typedef struct bb {
    unsigned char b[1024];
    size_t n;
} bb;
static void be32(bb *b, int32_t v)
{
    uint32_t u = (uint32_t)v;
    b->b[b->n++] = (unsigned char)(u >> 24);
    b->b[b->n++] = (unsigned char)(u >> 16);
    b->b[b->n++] = (unsigned char)(u >> 8);
    b->b[b->n++] = (unsigned char)u;
}
static void be64(bb *b, int64_t v)
{
    be32(b, (int32_t)((uint64_t)v >> 32));
    be32(b, (int32_t)(uint32_t)v);
}
static void latin1(bb *b, const char *s) /* s: Latin-1 bytes */
{
    be32(b, (int32_t)strlen(s));
    memcpy(b->b + b->n, s, strlen(s));
    b->n += strlen(s);
    if (*s)
        b->b[b->n++] = 0;
}
static void utf16(bb *b, const uint16_t *u, int n)
{
    be32(b, n * 2);
    for (int i = 0; i < n; i++) {
        b->b[b->n++] = (unsigned char)(u[i] & 0xff);
        b->b[b->n++] = (unsigned char)(u[i] >> 8);
    }
    b->b[b->n++] = 1;
}

static void build_bin(bb *b)
{
    b->n = 0;
    b->b[b->n++] = 0; /* RUN */
    latin1(b, "3.14.3");
    latin1(b, "computerdatabase.BasicSimulation");
    be64(b, 1700000000000LL);
    latin1(b, "");
    be32(b, 1);
    latin1(b, "Users");
    be32(b, 0); /* assertions */
    b->b[b->n++] = 2; /* USER scenario 0 start */
    be32(b, 0);
    b->b[b->n++] = 1;
    be32(b, 10);
    b->b[b->n++] = 1; /* REQUEST, groups [Caf\xe9], name "Home" (new 1, 2) */
    be32(b, 1);
    be32(b, 1);
    latin1(b, "Caf\xe9");
    be32(b, 2);
    latin1(b, "Home");
    be32(b, 100);
    be32(b, 150);
    b->b[b->n++] = 1;
    be32(b, 0); /* no message */
    b->b[b->n++] = 1; /* REQUEST, group ref 1, name UTF-16 "日本" (new 3), KO "boom" (new 4) */
    be32(b, 1);
    be32(b, -1);
    be32(b, 3);
    static const uint16_t jp[] = {0x65e5, 0x672c};
    utf16(b, jp, 2);
    be32(b, 200);
    be32(b, 230);
    b->b[b->n++] = 0;
    be32(b, 4);
    latin1(b, "boom");
    b->b[b->n++] = 3; /* GROUP [ref 1] */
    be32(b, 1);
    be32(b, -1);
    be32(b, 100);
    be32(b, 240);
    be32(b, 80);
    b->b[b->n++] = 0;
    b->b[b->n++] = 4; /* ERROR ref "boom" */
    be32(b, -4);
    be32(b, 250);
}

static void test_peers__gatling_binary(void **st)
{
    bb b;
    build_bin(&b);
    int score = 0;
    assert_ptr_equal(pr_parser_sniff(b.b, b.n, &score), pr_parser_find("gatling-binary"));
    collect c;
    pr_error err;
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "gatling-binary", b.b, b.n, NULL, &err), 0);
    assert_int_equal(c.n, 3);
    assert_string_equal(pr_run_str(c.run, c.s[0].label), "Caf\xc3\xa9 / Home");
    assert_true(c.s[0].start_ns == 1700000000100000000LL);
    assert_true(c.s[0].latency_ns == 50000000);
    assert_int_equal(c.s[0].threads, 1);
    assert_string_equal(pr_run_str(c.run, c.s[1].label), "Caf\xc3\xa9 / \xe6\x97\xa5\xe6\x9c\xac");
    assert_string_equal(pr_run_str(c.run, c.s[1].error), "boom");
    assert_int_equal(c.s[2].flags, PR_SF_TRANSACTION);
    assert_string_equal(c.run->tool_version, "3.14.3");
    assert_int_equal(meta_int(c.run, "gatling", "error_records"), 1);
    collect_free(&c);
    /* cut inside the last record: the complete ones stay */
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "gatling-binary", b.b, b.n - 3, NULL, &err), PR_ETRUNC);
    assert_int_equal(c.n, 3);
    assert_non_null(strstr(err.msg, "cut short"));
    collect_free(&c);
    /* a reference to a string never defined */
    b.b[b.n - 6] = 0x7f;
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "gatling-binary", b.b, b.n, NULL, &err), PR_EPARSE);
    collect_free(&c);
}

/* ---- Locust ---- */
static json_t *sget(const collect *c, const char *key)
{
    return json_object_get(c->run->summary, key);
}

static void test_peers__locust_stats(void **st)
{
    collect c;
    /* Locust 1.1 on Windows: \r\r\n, a GBK name, 99.999% column */
    assert_int_equal(collect_parse_ok(&c, "locust", "locust/gbk11/locust_stats.csv", COLLECT_TRUNC_OK), 0);
    assert_true(c.run->summary_only);
    assert_int_equal(json_integer_value(sget(&c, "requests")), 15);
    json_t *lat = sget(&c, "latency_ns");
    assert_int_equal(json_integer_value(json_object_get(lat, "p99.999")), 88000000);
    assert_int_equal(json_integer_value(json_object_get(lat, "max")), 88272333);
    json_t *l0 = json_array_get(sget(&c, "labels"), 0);
    assert_string_equal(json_string_value(json_object_get(l0, "label")),
                        "GET get\xe6\x8e\xa5\xe5\x8f\xa3");
    assert_int_equal(c.warnings, 1);
    assert_non_null(strstr(c.last_warning, "GBK"));
    collect_free(&c);

    assert_int_equal(collect_parse_ok(&c, "locust", "locust/odoo/results_stats.csv", COLLECT_TRUNC_OK), 0);
    assert_int_equal(json_integer_value(sget(&c, "requests")), 225);
    assert_int_equal(json_integer_value(sget(&c, "failures")), 50);
    assert_int_equal(json_array_size(sget(&c, "labels")), 16);
    collect_free(&c);
}

static void test_peers__locust_history_totals(void **st)
{
    /* the history's last Aggregated row and the stats file of the same run agree */
    collect c;
    assert_int_equal(collect_parse_ok(&c, "locust", "locust/gbk11/locust_stats_history.csv", COLLECT_TRUNC_OK), 0);
    json_t *series = sget(&c, "series");
    assert_int_equal(json_array_size(series), 3);
    json_t *last = json_array_get(series, 2);
    assert_int_equal(json_integer_value(json_object_get(last, "requests_total")), 15);
    assert_int_equal(json_integer_value(json_object_get(last, "users")), 0);
    collect_free(&c);
    /* Locust 2.12 flushes the history every 10 s: the rows after the last flush are lost */
    assert_int_equal(collect_parse_ok(&c, "locust", "locust/own212/run_stats_history.csv", COLLECT_TRUNC_OK), 0);
    series = sget(&c, "series");
    last = json_array_get(series, json_array_size(series) - 1);
    assert_int_equal(json_integer_value(json_object_get(last, "requests_total")), 1337);
    assert_int_equal(meta_int(c.run, "locust_extra", "history_entry_rows"), 80);
    collect_free(&c);
}

static int64_t points_sum(const json_t *ts, const char *key)
{
    int64_t sum = 0;
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(ts, "points"), i, p)
        sum += json_integer_value(json_object_get(p, key));
    return sum;
}

static void test_peers__printed_series(void **st)
{
    /* Locust's cumulative history: per-interval counts that add up to its last row's totals
     * (1337 requests; the rows after its last flush are lost), intervals of 1 s */
    collect c;
    assert_int_equal(collect_parse_ok(&c, "locust", "locust/own212/run_stats_history.csv", COLLECT_TRUNC_OK), 0);
    json_t *rows = sget(&c, "series"), *ts = pr_printed_series(c.run->summary, "Locust's report");
    assert_non_null(ts);
    assert_int_equal(json_integer_value(json_object_get(ts, "interval_ns")), 1000000000);
    json_t *pts = json_object_get(ts, "points");
    assert_int_equal(json_array_size(pts), json_array_size(rows) - 1);
    json_t *first = json_array_get(rows, 0), *last = json_array_get(rows, json_array_size(rows) - 1);
    assert_int_equal(points_sum(ts, "requests"),
                     json_integer_value(json_object_get(last, "requests_total")) -
                         json_integer_value(json_object_get(first, "requests_total")));
    assert_int_equal(points_sum(ts, "successes") + points_sum(ts, "errors"), points_sum(ts, "requests"));
    assert_int_equal(json_integer_value(json_object_get(json_array_get(pts, 0), "t_ns")), 0);
    json_decref(ts);
    collect_free(&c);
    /* Artillery's periods: their counts add up to the aggregate's 350 requests; a period's rate
     * is its requests over its 10 s (as the charts draw it), Artillery's own rate over the
     * period's active time is kept beside it (the first period is partial: 106 at 30/s) */
    assert_int_equal(collect_parse_ok(&c, "artillery", "artillery/report.json", COLLECT_TRUNC_OK), 0);
    ts = pr_printed_series(c.run->summary, "Artillery's report");
    assert_non_null(ts);
    assert_int_equal(points_sum(ts, "requests"), 350);
    json_t *p0 = json_array_get(json_object_get(ts, "points"), 0);
    assert_int_equal(json_integer_value(json_object_get(p0, "requests")), 106);
    assert_int_equal(json_integer_value(json_object_get(ts, "interval_ns")), 10000000000);
    assert_float_equal(json_real_value(json_object_get(p0, "rate_per_s")), 10.6, 1e-9);
    assert_float_equal(json_real_value(json_object_get(p0, "throughput_per_s")), 3.4, 1e-9);
    assert_float_equal(json_real_value(json_object_get(p0, "tool_rate_per_s")), 30.0, 1e-9);
    assert_null(json_object_get(p0, "threads"));
    json_decref(ts);
    collect_free(&c);
    /* fewer than two stamped, increasing rows: no series */
    json_t *one = json_pack("{s:[{s:I}]}", "series", "t_ns", (json_int_t)1);
    assert_null(pr_printed_series(one, NULL));
    json_decref(one);
    json_t *back = json_pack("{s:[{s:I},{s:I}]}", "series", "t_ns", (json_int_t)5, "t_ns", (json_int_t)5);
    assert_null(pr_printed_series(back, NULL));
    json_decref(back);
}

static void test_peers__locust_failures_exceptions(void **st)
{
    collect c;
    assert_int_equal(collect_parse_ok(&c, "locust", "locust/own212/run_failures.csv", COLLECT_TRUNC_OK), 0);
    json_t *e = sget(&c, "errors");
    assert_int_equal(json_array_size(e), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(e, 1), "message")),
                        "GET refused port: ConnectionRefusedError(111, 'Connection refused')");
    collect_free(&c);
    assert_int_equal(collect_parse_ok(&c, "locust", "locust/odoo/results_exceptions.csv", COLLECT_TRUNC_OK), 0);
    e = sget(&c, "exceptions");
    assert_int_equal(json_array_size(e), 2);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(e, 0), "count")), 14);
    const char *tb = json_string_value(json_object_get(json_array_get(e, 0), "traceback"));
    assert_non_null(strstr(tb, "line 340, in run\n    self.execute_next_task()"));
    collect_free(&c);
    /* a quoted cell that never closes */
    pr_error err;
    const char *cut = "Count,Message,Traceback,Nodes\r\n3,boom,\"  File x\r\n  line";
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "locust", cut, strlen(cut), NULL, &err), PR_ETRUNC);
    collect_free(&c);
}

/* ---- Artillery, autocannon ---- */
static void test_peers__artillery(void **st)
{
    collect c;
    assert_int_equal(collect_parse_ok(&c, "artillery", "artillery/report.json", COLLECT_TRUNC_OK), 0);
    /* the console summary: http.requests 350, codes 200: 110, 404: 110, ECONNREFUSED 130 */
    assert_int_equal(json_integer_value(sget(&c, "requests")), 350);
    json_t *codes = sget(&c, "status_codes");
    assert_int_equal(json_integer_value(json_object_get(codes, "200")), 110);
    assert_int_equal(json_integer_value(json_object_get(codes, "404")), 110);
    json_t *err0 = json_array_get(sget(&c, "errors"), 0);
    assert_string_equal(json_string_value(json_object_get(err0, "message")), "ECONNREFUSED");
    assert_int_equal(json_integer_value(json_object_get(err0, "count")), 130);
    assert_int_equal(json_integer_value(json_object_get(sget(&c, "latency_ns"), "p99")), 2000000);
    /* the periods add up to the aggregate */
    json_t *series = sget(&c, "series"), *p;
    size_t i;
    int64_t sum = 0;
    json_array_foreach(series, i, p)
        sum += json_integer_value(json_object_get(p, "requests"));
    assert_int_equal(sum, 350);
    /* metrics-by-endpoint: "/" 200: 110, "/missing" 404: 110, ":9/refused" ECONNREFUSED 130
     * (no response, so no response-time summary) */
    json_t *labels = sget(&c, "labels");
    assert_int_equal(json_array_size(labels), 3);
    static const struct { const char *name; int req, fail; } want[] = {
        {"/", 110, 0}, {"/missing", 110, 110}, {":9/refused", 130, 130}};
    for (size_t k = 0; k < 3; k++) {
        json_t *l = json_array_get(labels, k);
        assert_string_equal(json_string_value(json_object_get(l, "label")), want[k].name);
        assert_int_equal(json_integer_value(json_object_get(l, "requests")), want[k].req);
        json_t *f = json_object_get(l, "failures");
        assert_int_equal(f ? json_integer_value(f) : 0, want[k].fail);
        assert_int_equal(json_object_get(l, "latency_ns") != NULL, k < 2);
    }
    collect_free(&c);
}

static void test_peers__autocannon(void **st)
{
    collect c;
    assert_int_equal(collect_parse_ok(&c, "autocannon", "autocannon/index.json", COLLECT_TRUNC_OK), 0);
    assert_int_equal(json_integer_value(sget(&c, "requests")), 81398);
    assert_int_equal(c.run->concurrency, 10);
    assert_int_equal(json_integer_value(json_object_get(sget(&c, "latency_ns"), "p97.5")), 3000000);
    collect_free(&c);
    assert_int_equal(collect_parse_ok(&c, "autocannon", "autocannon/refused.json", COLLECT_TRUNC_OK), 0);
    assert_int_equal(json_integer_value(sget(&c, "failures")), 10078);
    assert_null(sget(&c, "latency_ns")); /* no response: no latency, not zeros */
    collect_free(&c);
}

static void test_peers__sniff(void **st)
{
    static const char *const files[][2] = {
        {"gatling/gatling374_rates.log", "gatling"},   {"gatling/gatling22_known_stats.log", "gatling"},
        {"locust/reqres/results_stats.csv", "locust"}, {"locust/reqres/results_stats_history.csv", "locust"},
        {"locust/odoo/results_failures.csv", "locust"}, {"locust/odoo/results_exceptions.csv", "locust"},
        {"artillery/report.json", "artillery"},         {"autocannon/404.json", "autocannon"}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t n;
        char *buf = test_read_file(testdata(files[i][0]), 65536, &n);
        int score;
        const pr_parser *p = pr_parser_sniff((const unsigned char *)buf, n, &score);
        free(buf);
        assert_non_null(p);
        assert_string_equal(p->name, files[i][1]); /* a Locust CSV is not a JTL */
    }
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_peers__gatling_395),
        cmocka_unit_test(test_peers__gatling_22),
        cmocka_unit_test(test_peers__gatling_old_layouts),
        cmocka_unit_test(test_peers__gatling_damaged),
        cmocka_unit_test(test_peers__gatling_binary),
        cmocka_unit_test(test_peers__locust_stats),
        cmocka_unit_test(test_peers__locust_history_totals),
        cmocka_unit_test(test_peers__locust_failures_exceptions),
        cmocka_unit_test(test_peers__printed_series),
        cmocka_unit_test(test_peers__artillery),
        cmocka_unit_test(test_peers__autocannon),
        cmocka_unit_test(test_peers__sniff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
