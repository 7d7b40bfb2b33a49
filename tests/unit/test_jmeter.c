/* Unit tests: JMeter CSV and XML JTL readers, timestamps, sub-results, damaged files, and the
 * JMeter dashboard statistics.
 *
 * Oracles: counts, labels and failures per fixture were computed with Python's csv module and
 * xml.etree over the same files; the dashboard numbers of csv-default.jtl with the formulas of
 * JMeter 5.6 (StatisticsSummaryData: throughput = n / (max end - min start) * 1000, KB = 1024,
 * percentiles = commons-math LEGACY over the last 20000 values; Apdex T=500 F=1500) in Python,
 * independently of this code. The fixtures folder has no JMeter statistics.json for these
 * files, so those Python values are hard-coded below. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/jmeter_stats.h"
#include "model/buf.h"
#include "model/datefmt.h"
#include "model/xalloc.h"
#include "parsers/jmeter_common.h"
#include "parsers/xml_guard.h"
#include "tests/unit/lib/collect.h"
#include "tests/unit/lib/files.h"
#include "tests/unit/lib/gen.h"

/* ---- helpers -------------------------------------------------------------------------- */

static int parse_file(collect *c, const char *parser, const char *rel, const pr_parse_opts *o,
                      pr_error *err)
{
    collect_init(c);
    pr_error_clear(err);
    return collect_parse_file(c, parser, testdata(rel), o, err);
}

static int parse_str(collect *c, const char *parser, const char *text, const pr_parse_opts *o,
                     pr_error *err)
{
    collect_init(c);
    pr_error_clear(err);
    return collect_parse_mem(c, parser, text, strlen(text), o, err);
}

static size_t count_label(const collect *c, const char *label)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n; i++)
        n += strcmp(pr_run_str(c->run, c->s[i].label), label) == 0;
    return n;
}

static size_t count_fail(const collect *c)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n; i++)
        n += c->s[i].success == PR_FAIL;
    return n;
}

static size_t count_flag(const collect *c, unsigned flag)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n; i++)
        n += (c->s[i].flags & flag) != 0;
    return n;
}

static const pr_sample *find_label(const collect *c, const char *label)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(pr_run_str(c->run, c->s[i].label), label) == 0)
            return &c->s[i];
    return NULL;
}

static const char *meta_str(const collect *c, const char *key)
{
    json_t *v = json_object_get(c->run->meta, key);
    return v && json_is_string(v) ? json_string_value(v) : "";
}

static json_int_t meta_int(const collect *c, const char *key)
{
    return json_integer_value(json_object_get(c->run->meta, key));
}

static void assert_close(double got, double want)
{
    double tol = 1e-9 * (fabs(want) > 1 ? fabs(want) : 1);
    if (fabs(got - want) > tol)
        fail_msg("got %.17g, want %.17g", got, want);
}

static pr_parse_opts opts0(void)
{
    pr_parse_opts o;
    memset(&o, 0, sizeof o);
    return o;
}

/* ---- CSV fixtures --------------------------------------------------------------------- */

static void test_jmeter__csv_default(void **st)
{
    collect c;
    pr_error err;
    assert_int_equal(parse_file(&c, NULL, "jmeter/csv-default.jtl", NULL, &err), 0);
    assert_string_equal(c.run->format, "jmeter-csv");
    assert_string_equal(c.run->tool, "jmeter");
    assert_int_equal(c.n, 4200);
    assert_int_equal(count_label(&c, "Home"), 1050);
    assert_int_equal(count_label(&c, "Missing"), 1050);
    assert_int_equal(count_label(&c, "Big"), 600);
    assert_int_equal(count_label(&c, "TX Browse"), 600);
    assert_int_equal(count_label(&c, "Redirect"), 450);
    assert_int_equal(count_label(&c, "Error"), 450);
    assert_int_equal(count_fail(&c), 1500);
    assert_int_equal(count_flag(&c, PR_SF_TRANSACTION), 600);
    assert_int_equal(count_flag(&c, PR_SF_SUBRESULT), 0);
    /* first row: 1796051747236,47,Home,200,OK,Browsers 1-1,text,true,,412,3,5,47 */
    const pr_sample *s = &c.s[0];
    assert_true(s->start_ns == 1796051747236000000LL);
    assert_true(s->latency_ns == 47000000);
    assert_true(s->ttfb_ns == 47000000);
    assert_true(s->connect_ns == PR_UNKNOWN);
    assert_true(s->bytes_in == 412);
    assert_true(s->bytes_out == PR_UNKNOWN);
    assert_int_equal(s->status, 200);
    assert_int_equal(s->success, PR_OK_SUCCESS);
    assert_int_equal(s->threads, 5);
    assert_string_equal(pr_run_str(c.run, s->thread), "Browsers 1-1");
    assert_string_equal(pr_run_str(c.run, s->attrs), "grpThreads=3");
    assert_int_equal(s->error, PR_NOSTR);
    /* failures keep JMeter's error key (code/message), not the multi-line assertion diff */
    const pr_sample *m = find_label(&c, "Missing");
    assert_int_equal(m->status, 404);
    assert_int_equal(m->success, PR_FAIL);
    assert_string_equal(pr_run_str(c.run, m->error), "404/Not Found");
    const pr_sample *tx = find_label(&c, "TX Browse");
    assert_int_equal(tx->flags, PR_SF_TRANSACTION);
    assert_true(c.run->start_ns == 1796051746850000000LL);
    assert_int_equal(c.run->concurrency, 8);
    assert_int_equal(meta_int(&c, "time_resolution_ns"), 1000000);
    assert_string_equal(meta_str(&c, "subresults"), "exclude");
    assert_string_equal(meta_str(&c, "jtl_delimiter"), ",");
    assert_int_equal(c.warnings, 0);
    collect_free(&c);
}

static void test_jmeter__csv_allfields(void **st)
{
    collect c;
    pr_error err;
    assert_int_equal(parse_file(&c, "jmeter-csv", "jmeter/csv-allfields.jtl", NULL, &err), 0);
    assert_int_equal(c.n, 4200);
    assert_int_equal(count_fail(&c), 1500);
    const pr_sample *s = &c.s[0];
    /* 1796051753811,35,Home,200,OK,Browsers 1-1,text,true,,412,1,2,http://127.0.0.1:18180/,,35,
     * ISO-8859-1,1,0,vm,0,27,anchor,1 */
    assert_true(s->connect_ns == 27000000);
    assert_string_equal(pr_run_str(c.run, s->url), "http://127.0.0.1:18180/");
    assert_string_equal(pr_run_str(c.run, s->attrs),
                        "ENV=anchor\x1fITER=1\x1fgrpThreads=1\x1fHostname=vm");
    const pr_sample *tx = find_label(&c, "TX Browse");
    assert_int_equal(tx->url, PR_NOSTR); /* literal "null" */
    const pr_sample *e = find_label(&c, "Error");
    assert_non_null(strstr(pr_run_str(c.run, e->attrs), "Filename=saved/resp_"));
    json_t *cols = json_object_get(c.run->meta, "jtl_columns");
    assert_int_equal(json_array_size(cols), 23);
    assert_string_equal(json_string_value(json_array_get(cols, 21)), "ENV");
    collect_free(&c);
}

static void test_jmeter__csv_nohead(void **st)
{
    collect c;
    pr_error err;
    assert_int_equal(parse_file(&c, NULL, "jmeter/csv-nohead.jtl", NULL, &err), 0);
    assert_string_equal(c.run->format, "jmeter-csv");
    assert_int_equal(c.n, 320);
    assert_int_equal(count_fail(&c), 110);
    assert_int_equal(count_label(&c, "Home"), 80);
    assert_int_equal(count_flag(&c, PR_SF_TRANSACTION), 50);
    assert_false(json_is_true(json_object_get(c.run->meta, "jtl_header")));
    assert_true(c.s[0].start_ns == 1796051752082000000LL);
    assert_true(c.s[0].ttfb_ns == 42000000);
    collect_free(&c);
}

static void test_jmeter__csv_quoted(void **st)
{
    collect c;
    pr_error err;
    assert_int_equal(parse_file(&c, NULL, "jmeter/csv-quoted.jtl", NULL, &err), 0);
    assert_int_equal(c.n, 200);
    assert_int_equal(count_fail(&c), 60);
    static const char *const labels[] = {
        "Home, with comma",
        "Big \"quoted\" label",
        "Label with\nnewline",
        "Label; semicolon\ttab",
        "\xc3\x9cn\xc3\xaf\x63\xc3\xb6\x64\xc3\xa9 \xe9\xa6\x96\xe9\xa1\xb5 "
        "\xe3\x83\xa9\xe3\x83\x99\xe3\x83\xab",
        "Missing, custom message",
        "Home, BSF failure",
        "Error 500",
        "Home msg override",
        "Empty message"};
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
        assert_int_equal(count_label(&c, labels[i]), 20);
    assert_string_equal(pr_run_str(c.run, c.s[0].thread), "Quoting, \"Group\" 1-1");
    assert_string_equal(pr_run_str(c.run, c.s[0].attrs),
                        "NOTE=v1, \"beta\"\x1fgrpThreads=2\x1fHostname=vm");
    /* a 200 that failed an assertion: the error is the failure message */
    const pr_sample *b = find_label(&c, "Home, BSF failure");
    assert_int_equal(b->status, 200);
    assert_int_equal(b->success, PR_FAIL);
    assert_non_null(strstr(pr_run_str(c.run, b->error), "Custom failure, with \"quotes\""));
    collect_free(&c);
}

static void test_jmeter__csv_semicolon(void **st)
{
    collect c;
    pr_error err;
    assert_int_equal(parse_file(&c, NULL, "jmeter/csv-semicolon.jtl", NULL, &err), 0);
    assert_string_equal(meta_str(&c, "jtl_delimiter"), ";");
    assert_int_equal(c.n, 320);
    assert_int_equal(count_fail(&c), 110);
    assert_int_equal(count_flag(&c, PR_SF_TRANSACTION), 50);
    collect_free(&c);
}

static void test_jmeter__csv_tab_pipe(void **st)
{
    static const char tab[] =
        "timeStamp\telapsed\tlabel\tresponseCode\tresponseMessage\tthreadName\tsuccess\tbytes\n"
        "1796051762246\t35\tHome, a;b\t200\tOK\tT 1-1\ttrue\t412\r\n"
        "1796051762249\t 5 \tLead space \t500\tErr\tT 1-2\tfalse\t10\r\n";
    collect c;
    pr_error err;
    assert_int_equal(parse_str(&c, NULL, tab, NULL, &err), PR_EPARSE); /* " 5 " not a number */
    assert_int_equal(err.line, 3);
    assert_int_equal(err.col, 15);
    collect_free(&c);
    static const char pipe[] = "timeStamp|elapsed|label|responseCode|success\n"
                               "1796051762246|35|A, b; c\tt|200|true\n"
                               "1796051762247|36|\"q|uoted\"|503|false\n";
    assert_int_equal(parse_str(&c, NULL, pipe, NULL, &err), 0);
    assert_string_equal(meta_str(&c, "jtl_delimiter"), "|");
    assert_int_equal(c.n, 2);
    assert_string_equal(pr_run_str(c.run, c.s[0].label), "A, b; c\tt");
    assert_string_equal(pr_run_str(c.run, c.s[1].label), "q|uoted");
    assert_string_equal(pr_run_str(c.run, c.s[1].error), "503");
    collect_free(&c);
    static const char t2[] =
        "timeStamp\telapsed\tlabel\tresponseCode\tresponseMessage\tthreadName\tsuccess\tbytes\n"
        "1796051762246\t35\tHome, a;b\t200\tOK\tT 1-1\ttrue\t412\r\n"
        "1796051762249\t5\tLead space \t500\tErr\tT 1-2\tfalse\t10\r\n";
    assert_int_equal(parse_str(&c, NULL, t2, NULL, &err), 0);
    assert_string_equal(meta_str(&c, "jtl_delimiter"), "\\t");
    assert_int_equal(c.n, 2);
    assert_string_equal(pr_run_str(c.run, c.s[0].label), "Home, a;b");
    assert_string_equal(pr_run_str(c.run, c.s[1].label), "Lead space "); /* spaces kept */
    collect_free(&c);
}

static void test_jmeter__connrefused(void **st)
{
    collect c;
    pr_error err;
    assert_int_equal(parse_file(&c, NULL, "jmeter/connrefused.jtl", NULL, &err), 0);
    assert_int_equal(c.n, 80);
    assert_int_equal(count_fail(&c), 60);
    size_t refused = 0, timeout = 0;
    for (size_t i = 0; i < c.n; i++) {
        const char *e = pr_run_str(c.run, c.s[i].error);
        if (strcmp(e, "Non HTTP response code: java.net.ConnectException/Non HTTP response "
                      "message: Connection refused") == 0) {
            refused++;
            assert_int_equal(c.s[i].status, 0);
        }
        if (strstr(e, "java.net.SocketTimeoutException")) {
            timeout++;
            assert_int_equal(c.s[i].status, 0);
            assert_true(c.s[i].latency_ns >= 300000000);
        }
    }
    assert_int_equal(refused, 40);
    assert_int_equal(timeout, 20);
    assert_int_equal(find_label(&c, "Home OK")->status, 200);
    collect_free(&c);
}

/* ---- timestamps ----------------------------------------------------------------------- */

static void test_jmeter__datefmt_fixture(void **st)
{
    collect c;
    pr_error err;
    assert_int_equal(parse_file(&c, NULL, "jmeter/csv-datefmt.jtl", NULL, &err), 0);
    assert_int_equal(c.n, 320);
    /* 2026/11/30 15:15:58.763 in the JVM zone (UTC) */
    assert_true(c.s[0].start_ns == 1796051758763000000LL);
    assert_string_equal(meta_str(&c, "timestamp_format"), "yyyy/MM/dd HH:mm:ss.SSS");
    assert_int_equal(meta_int(&c, "time_resolution_ns"), 1000000);
    assert_non_null(strstr(meta_str(&c, "time_zone"), "assumed"));
    collect_free(&c);
    pr_parse_opts o = opts0();
    o.tz = "+01:00";
    assert_int_equal(parse_file(&c, NULL, "jmeter/csv-datefmt.jtl", &o, &err), 0);
    assert_true(c.s[0].start_ns == 1796051758763000000LL - 3600000000000LL);
    assert_string_equal(meta_str(&c, "time_zone"), "+01:00");
    collect_free(&c);
}

static void test_jmeter__timestamp_forms(void **st)
{
    collect c;
    pr_error err;
    static const char iso[] = "timeStamp,elapsed,label,responseCode,success\n"
                              "2026-11-30T15:16:00.505+0000,10,A,200,true\n"
                              "2026-11-30T16:16:00.505+0100,10,A,200,true\n";
    assert_int_equal(parse_str(&c, NULL, iso, NULL, &err), 0);
    assert_int_equal(c.n, 2);
    assert_true(c.s[0].start_ns == 1796051760505000000LL);
    assert_true(c.s[1].start_ns == c.s[0].start_ns);
    assert_string_equal(meta_str(&c, "time_zone"), "");
    collect_free(&c);
    /* 1-second resolution, said so */
    static const char secs[] = "timeStamp,elapsed,label,responseCode,success\n"
                               "2026/11/30 15:16:00,10,A,200,true\n";
    assert_int_equal(parse_str(&c, NULL, secs, NULL, &err), 0);
    assert_true(c.s[0].start_ns == 1796051760000000000LL);
    assert_int_equal(meta_int(&c, "time_resolution_ns"), 1000000000);
    assert_non_null(strstr(meta_str(&c, "time_note_resolution"), "1-second"));
    collect_free(&c);
    /* time of day only, across midnight, rows slightly out of order */
    static const char tod[] = "timeStamp,elapsed,label,responseCode,success\n"
                              "23:59:58,10,A,200,true\n"
                              "00:00:01,10,A,200,true\n"
                              "23:59:59,10,A,200,true\n"
                              "00:00:02,10,A,200,true\n";
    assert_int_equal(parse_str(&c, NULL, tod, NULL, &err), 0);
    assert_int_equal(c.n, 4);
    assert_true(c.s[0].start_ns == (86400LL - 2) * 1000000000LL);
    assert_true(c.s[1].start_ns == (86400LL + 1) * 1000000000LL);
    assert_true(c.s[2].start_ns == (86400LL - 1) * 1000000000LL);
    assert_true(c.s[3].start_ns == (86400LL + 2) * 1000000000LL);
    assert_non_null(strstr(meta_str(&c, "time_note_date"), "1970-01-01"));
    collect_free(&c);
    /* user pattern and end stamps */
    static const char own[] = "timeStamp,elapsed,label,responseCode,success\n"
                              "30.11.2026 15h16m00s250,250,A,200,true\n";
    pr_parse_opts o = opts0();
    o.jtl_time_format = "dd.MM.yyyy HH'h'mm'm'ss's'SSS";
    o.jtl_timestamp_end = 1;
    assert_int_equal(parse_str(&c, NULL, own, &o, &err), 0);
    assert_true(c.s[0].start_ns == 1796051760000000000LL);
    assert_string_equal(meta_str(&c, "timestamp_marks"), "end");
    collect_free(&c);
    /* a stamp no format matches */
    static const char bad[] = "timeStamp,elapsed,label,responseCode,success\n"
                              "yesterday,10,A,200,true\n";
    assert_int_equal(parse_str(&c, NULL, bad, NULL, &err), PR_EPARSE);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 1);
    assert_non_null(strstr(err.msg, "--jtl-time-format"));
    collect_free(&c);
}

static void test_jmeter__datefmt_unit(void **st)
{
    pr_datefmt f;
    int64_t ns;
    assert_int_equal(pr_datefmt_compile(&f, "MM/dd/yy hh:mm:ss a", NULL, 0), 0);
    assert_int_equal(pr_datefmt_parse(&f, "11/30/26 03:16:00 PM", 20, 0, &ns), 0);
    assert_true(ns == 1796051760000000000LL);
    assert_int_equal(pr_datefmt_compile(&f, "yyyyMMddHHmmss", NULL, 0), 0);
    assert_int_equal(pr_datefmt_parse(&f, "20261130151600", 14, 60, &ns), 0);
    assert_true(ns == 1796051760000000000LL - 3600000000000LL);
    assert_int_equal(pr_datefmt_compile(&f, "EEE, d MMM yyyy HH:mm:ss z", NULL, 0), 0);
    const char *s = "Mon, 30 Nov 2026 15:16:00 GMT";
    assert_int_equal(pr_datefmt_parse(&f, s, strlen(s), 120, &ns), 0);
    assert_true(ns == 1796051760000000000LL);
    assert_int_equal(pr_datefmt_compile(&f, "yyyy-MM-dd QQ", NULL, 0), -1);
    int off;
    assert_int_equal(pr_tz_offset("UTC", &off), 0);
    assert_int_equal(off, 0);
    assert_int_equal(pr_tz_offset("-05:30", &off), 0);
    assert_int_equal(off, -330);
    assert_int_equal(pr_tz_offset("GMT+2", &off), 0);
    assert_int_equal(off, 120);
    assert_int_equal(pr_tz_offset("Europe/Paris", &off), -1);
}

/* ---- columns -------------------------------------------------------------------------- */

static void test_jmeter__columns_option(void **st)
{
    static const char body[] = "1796051762246;35;A;200;true;x1\n1796051762249;36;B;404;false;x2\n";
    collect c;
    pr_error err;
    assert_int_equal(parse_str(&c, "jmeter-csv", body, NULL, &err), PR_EFORMAT);
    assert_non_null(strstr(err.msg, "--jtl-columns"));
    collect_free(&c);
    pr_parse_opts o = opts0();
    o.jtl_columns = "timeStamp,elapsed,label,responseCode,success,\"VAR\"";
    assert_int_equal(parse_str(&c, "jmeter-csv", body, &o, &err), 0);
    assert_int_equal(c.n, 2);
    assert_string_equal(pr_run_str(c.run, c.s[1].attrs), "VAR=x2");
    assert_string_equal(pr_run_str(c.run, c.s[1].error), "404");
    collect_free(&c);
    /* columns in any order and subset, mapped by name */
    static const char odd[] = "label,success,elapsed,timeStamp,Connect,Latency,sentBytes,bytes\n"
                              "X,true,12,1796051762246,3,7,99,1000\n";
    assert_int_equal(parse_str(&c, NULL, odd, NULL, &err), 0);
    assert_true(c.s[0].latency_ns == 12000000 && c.s[0].connect_ns == 3000000 &&
                c.s[0].ttfb_ns == 7000000 && c.s[0].bytes_out == 99 && c.s[0].bytes_in == 1000);
    assert_int_equal(c.s[0].status, 0);
    assert_int_equal(c.s[0].threads, -1);
    collect_free(&c);
}

static void test_jmeter__long_label(void **st)
{
    size_t n = 200000;
    char *b = pr_xmalloc(n + 200);
    int k = sprintf(b, "timeStamp,elapsed,label,success\n1796051762246,1,\"");
    memset(b + k, 'x', n);
    sprintf(b + k + n, "\",true\n1796051762247,1,short,true\n");
    collect c;
    pr_error err;
    assert_int_equal(parse_str(&c, NULL, b, NULL, &err), 0);
    assert_int_equal(c.n, 2);
    assert_int_equal(strlen(pr_run_str(c.run, c.s[0].label)), PR_STR_MAX);
    free(b);
    collect_free(&c);
}

/* ---- sub-results and transactions ----------------------------------------------------- */

static const char sub5x[] =
    "timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,bytes\n"
    "1000,30,HTTP Request 5,200,OK,G 1-1,true,900\n"
    "1000,10,HTTP Request 5-0,302,Found,G 1-1,true,300\n"
    "1010,20,HTTP Request 5-1,200,OK,G 1-1,true,600\n"
    "1005,5,Login,200,OK,G 1-2,true,50\n"
    "1011,4,Login-1,200,OK,G 1-2,true,50\n" /* a sampler really named Login-1 (not inside) */
    "1040,8,Other,200,OK,G 1-1,true,10\n"
    "1000,48,TX,200,\"Number of samples in transaction : 2, number of failing samples : 0\","
    "G 1-1,true,910\n"
    "1050,0,TX empty,200,\"Number of samples in transaction : 0, number of failing samples : 0\","
    "G 1-1,true,0\n";

static void test_jmeter__subresults_csv(void **st)
{
    collect c;
    pr_error err;
    pr_parse_opts o = opts0();
    assert_int_equal(parse_str(&c, NULL, sub5x, &o, &err), 0);
    /* exclude: parent + Login + Login-1 + Other + TX (empty TX dropped) */
    assert_int_equal(c.n, 5);
    assert_int_equal(count_label(&c, "HTTP Request 5-0"), 0);
    assert_int_equal(find_label(&c, "HTTP Request 5")->flags, PR_SF_PARENT);
    assert_int_equal(find_label(&c, "Login-1")->flags, 0);
    assert_int_equal(find_label(&c, "TX")->flags, PR_SF_TRANSACTION);
    assert_int_equal(meta_int(&c, "subresult_rows"), 2);
    assert_int_equal(meta_int(&c, "empty_transaction_rows"), 1);
    collect_free(&c);
    o.subresults = PR_SUB_INCLUDE;
    assert_int_equal(parse_str(&c, NULL, sub5x, &o, &err), 0);
    assert_int_equal(c.n, 8);
    /* file order is kept: parent, then its sub-results */
    assert_string_equal(pr_run_str(c.run, c.s[0].label), "HTTP Request 5");
    assert_int_equal(c.s[1].flags, PR_SF_SUBRESULT);
    assert_int_equal(c.s[2].flags, PR_SF_SUBRESULT);
    assert_string_equal(meta_str(&c, "subresults"), "include");
    collect_free(&c);
    o.subresults = PR_SUB_ONLY;
    assert_int_equal(parse_str(&c, NULL, sub5x, &o, &err), 0);
    assert_int_equal(c.n, 5); /* 5-0, 5-1, Login, Login-1, Other */
    assert_int_equal(count_label(&c, "HTTP Request 5"), 0);
    assert_int_equal(count_label(&c, "TX"), 0);
    collect_free(&c);
}

/* ---- damaged and appended CSV --------------------------------------------------------- */

static void test_jmeter__csv_truncated(void **st)
{
    static const char cut[] = "timeStamp,elapsed,label,responseCode,success,bytes\n"
                              "1000,1,A,200,true,10\n"
                              "1001,1,B,\"multi\nline\",true,10\n"
                              "1002,1,C,200,true,10\n"
                              "1003,1,D,2";
    collect c;
    pr_error err;
    assert_int_equal(parse_str(&c, NULL, cut, NULL, &err), PR_ETRUNC);
    assert_int_equal(c.n, 3);
    assert_int_equal(err.line, 6);
    collect_free(&c);
    static const char inquote[] = "timeStamp,elapsed,label,responseCode,success,bytes\n"
                                  "1000,1,A,200,true,10\n"
                                  "1001,1,\"B cut";
    assert_int_equal(parse_str(&c, NULL, inquote, NULL, &err), PR_ETRUNC);
    assert_int_equal(c.n, 1);
    assert_int_equal(err.line, 3);
    collect_free(&c);
    /* a real file cut in the middle: the complete records before are kept */
    size_t len;
    char *b = test_read_file(testdata("jmeter/csv-default.jtl"), 0, &len);
    char *p = b + len / 2;
    while (*p != '\n')
        p++;
    p += 20; /* well inside a record */
    *p = 0;
    assert_int_equal(parse_str(&c, NULL, b, NULL, &err), PR_ETRUNC);
    assert_true(c.n > 1500 && c.n < 2700);
    assert_true(err.line > 5000);
    /* no sample emitted after the break */
    for (size_t i = 0; i < c.n; i++)
        assert_true(c.s[i].start_ns > 0);
    free(b);
    collect_free(&c);
}

static void test_jmeter__csv_appended(void **st)
{
    size_t len;
    char *b = test_read_file(testdata("jmeter/csv-nohead.jtl"), 0, &len);
    char *twice = pr_xmalloc(2 * len + 1);
    memcpy(twice, b, len);
    memcpy(twice + len, b, len);
    /* shift the second copy two days later: replace the leading 17960517 of each stamp */
    for (char *p = twice + len; (p = strstr(p, "\n17960517")) != NULL; p++)
        memcpy(p + 1, "17962245", 8);
    if (memcmp(twice + len, "17960517", 8) == 0)
        memcpy(twice + len, "17962245", 8);
    twice[2 * len] = 0;
    collect c;
    pr_error err;
    /* a gap of two days: a run of its own by default, and with --split-runs */
    assert_int_equal(parse_str(&c, NULL, twice, NULL, &err), 0);
    assert_int_equal(c.n, 640);
    assert_int_equal(c.splits, 1);
    assert_non_null(strstr(c.last_warning, "gap"));
    collect_free(&c);
    pr_parse_opts o = opts0();
    o.split_runs = 1;
    assert_int_equal(parse_str(&c, NULL, twice, &o, &err), 0);
    assert_int_equal(c.n, 640);
    assert_int_equal(c.splits, 1);
    collect_free(&c);
    /* --no-split-runs: one run, the gap warned and kept in the run's meta */
    o = opts0();
    o.keep_gaps = 1;
    assert_int_equal(parse_str(&c, NULL, twice, &o, &err), 0);
    assert_int_equal(c.n, 640);
    assert_true(c.warnings >= 1);
    assert_non_null(strstr(c.last_warning, "gap"));
    assert_int_equal(c.splits, 0);
    collect_free(&c);
    o.split_runs = 1;
    o.keep_gaps = 0;
    free(twice);
    free(b);
    /* repeated header (JMeter appends without one, other writers with) */
    b = test_read_file(testdata("jmeter/csv-semicolon.jtl"), 0, &len);
    twice = pr_xmalloc(2 * len + 1);
    memcpy(twice, b, len);
    memcpy(twice + len, b, len);
    twice[2 * len] = 0;
    assert_int_equal(parse_str(&c, NULL, twice, &o, &err), 0);
    assert_int_equal(c.n, 640);
    assert_int_equal(c.splits, 1);
    assert_non_null(strstr(c.last_warning, "header"));
    collect_free(&c);
    free(twice);
    free(b);
}

static void test_jmeter__csv_errors(void **st)
{
    collect c;
    pr_error err;
    static const char few[] = "timeStamp,elapsed,label,responseCode,success\n"
                              "1000,1,A,200,true\n"
                              "1001,1,A,true\n"
                              "1002,1,A,200,true\n";
    assert_int_equal(parse_str(&c, NULL, few, NULL, &err), PR_EPARSE);
    assert_int_equal(err.line, 3);
    assert_string_equal(err.msg, "expected 5 fields, found 4");
    collect_free(&c);
    static const char badbool[] = "timeStamp,elapsed,label,responseCode,success\n"
                                  "1000,1,A,200,yes\n";
    assert_int_equal(parse_str(&c, NULL, badbool, NULL, &err), PR_EPARSE);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 14);
    assert_non_null(strstr(err.msg, "success"));
    collect_free(&c);
    assert_int_equal(parse_str(&c, "jmeter-csv", "", NULL, &err), PR_EPARSE);
    collect_free(&c);
}

/* ---- XML ------------------------------------------------------------------------------ */

static void test_jmeter__xml_full(void **st)
{
    collect c;
    pr_error err;
    pr_parse_opts o = opts0();
    assert_int_equal(parse_file(&c, NULL, "jmeter/xml.jtl", &o, &err), 0);
    assert_string_equal(c.run->format, "jmeter-xml");
    assert_int_equal(c.n, 80);
    assert_int_equal(count_fail(&c), 32);
    assert_int_equal(count_label(&c, "Redirect"), 8);
    assert_int_equal(count_label(&c, "TX NoParent"), 8);
    assert_int_equal(count_label(&c, "http://127.0.0.1:18180/redirect"), 0);
    const pr_sample *s = &c.s[0];
    /* <httpSample t="36" it="0" lt="36" ct="28" ts="1796051770824" … lb="Home"> */
    assert_string_equal(pr_run_str(c.run, s->label), "Home");
    assert_true(s->start_ns == 1796051770824000000LL);
    assert_true(s->latency_ns == 36000000 && s->ttfb_ns == 36000000 && s->connect_ns == 28000000);
    assert_string_equal(pr_run_str(c.run, s->url), "http://127.0.0.1:18180/");
    assert_int_equal(s->flags, PR_SF_SUBRESULT);
    const pr_sample *tx = find_label(&c, "TX Browse");
    assert_int_equal(tx->flags, PR_SF_TRANSACTION | PR_SF_PARENT);
    assert_non_null(strstr(pr_run_str(c.run, tx->attrs), "IdleTime=132"));
    assert_int_equal(find_label(&c, "Redirect")->flags, PR_SF_SUBRESULT | PR_SF_PARENT);
    const pr_sample *cr = find_label(&c, "Connection refused");
    assert_int_equal(cr->status, 0);
    assert_non_null(strstr(pr_run_str(c.run, cr->error), "java.net"));
    collect_free(&c);
    o.subresults = PR_SUB_INCLUDE;
    assert_int_equal(parse_file(&c, NULL, "jmeter/xml.jtl", &o, &err), 0);
    assert_int_equal(c.n, 96);
    assert_int_equal(count_label(&c, "http://127.0.0.1:18180/redirect"), 8);
    collect_free(&c);
    o.subresults = PR_SUB_ONLY;
    assert_int_equal(parse_file(&c, NULL, "jmeter/xml.jtl", &o, &err), 0);
    assert_int_equal(c.n, 64);
    assert_int_equal(count_flag(&c, PR_SF_TRANSACTION | PR_SF_PARENT), 0);
    collect_free(&c);
}

static void test_jmeter__xml_default(void **st)
{
    collect c;
    pr_error err;
    assert_int_equal(parse_file(&c, "jmeter-xml", "jmeter/xml-default.jtl", NULL, &err), 0);
    assert_int_equal(c.n, 80);
    assert_int_equal(count_fail(&c), 32);
    assert_true(c.s[0].connect_ns == PR_UNKNOWN);
    assert_int_equal(c.s[0].url, PR_NOSTR);
    collect_free(&c);
}

static const char xml_small[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testResults version=\"1.2\">\n"
    "<httpSample t=\"700\" lt=\"5\" ts=\"1000\" s=\"false\" lb=\"Slow\" rc=\"200\" rm=\"OK\" "
    "tn=\"G 1-1\" by=\"10\" sby=\"20\" ng=\"1\" na=\"1\" MYVAR=\"v&amp;1\">\n"
    "  <assertionResult><name>ok one</name><failure>false</failure><error>false</error>"
    "</assertionResult>\n"
    "  <assertionResult><name>Duration</name><failure>true</failure><error>false</error>"
    "<failureMessage>The operation lasted too long</failureMessage></assertionResult>\n"
    "  <responseData class=\"java.lang.String\">&lt;html&gt; lots of data</responseData>\n"
    "</httpSample>\n"
    "<sample t=\"1\" ts=\"2000\" s=\"true\" lb=\"J\" rc=\"\" rm=\"\" tn=\"G 1-1\" by=\"0\"/>\n";

static void test_jmeter__xml_assertions(void **st)
{
    char *doc = pr_xasprintf("%s</testResults>\n", xml_small);
    collect c;
    pr_error err;
    assert_int_equal(parse_str(&c, NULL, doc, NULL, &err), 0);
    assert_int_equal(c.n, 2);
    assert_string_equal(pr_run_str(c.run, c.s[0].error), "The operation lasted too long");
    assert_true(c.s[0].bytes_out == 20);
    assert_string_equal(pr_run_str(c.run, c.s[0].attrs), "grpThreads=1\x1fMYVAR=v&1");
    assert_int_equal(c.s[1].status, 0);
    assert_int_equal(c.s[1].error, PR_NOSTR);
    assert_int_equal(c.warnings, 0);
    free(doc);
    collect_free(&c);
}

static void test_jmeter__xml_damaged(void **st)
{
    collect c;
    pr_error err;
    /* killed run: no </testResults> */
    assert_int_equal(parse_str(&c, NULL, xml_small, NULL, &err), 0);
    assert_int_equal(c.n, 2);
    assert_int_equal(c.warnings, 1);
    assert_non_null(strstr(c.last_warning, "</testResults>"));
    collect_free(&c);
    /* the same on the real file */
    size_t len;
    char *b = test_read_file(testdata("jmeter/xml.jtl"), 0, &len);
    char *end = strstr(b, "</testResults>");
    assert_non_null(end);
    *end = 0;
    assert_int_equal(parse_str(&c, NULL, b, NULL, &err), 0);
    assert_int_equal(c.n, 80);
    assert_int_equal(c.warnings, 1);
    collect_free(&c);
    /* cut inside a sample: ETRUNC, complete samples kept */
    char *last = strstr(b + len / 2, "<sample ");
    assert_non_null(last);
    last[40] = 0;
    assert_int_equal(parse_str(&c, NULL, b, NULL, &err), PR_ETRUNC);
    assert_true(c.n > 10 && c.n < 80);
    assert_true(err.line > 0);
    collect_free(&c);
    free(b);
    /* a control character reference, as JMeter writes from binary bodies: inside a body the
     * reader drops unread (parsers/xml_guard.h) it does no harm */
    static const char body[] =
        "<?xml version=\"1.0\"?>\n<testResults version=\"1.2\">\n"
        "<httpSample t=\"1\" ts=\"1000\" s=\"true\" lb=\"A\" rc=\"200\"/>\n"
        "<httpSample t=\"1\" ts=\"1001\" s=\"true\" lb=\"B\" rc=\"200\"><responseData>x&#x0;y"
        "</responseData></httpSample>\n"
        "<httpSample t=\"1\" ts=\"1002\" s=\"true\" lb=\"C\" rc=\"200\"/>\n</testResults>\n";
    assert_int_equal(parse_str(&c, NULL, body, NULL, &err), 0);
    assert_int_equal(c.n, 3);
    assert_int_equal(c.warnings, 0);
    collect_free(&c);
    /* not well-formed where it is read (a failure message): an error, or kept with --recover */
    static const char bad[] =
        "<?xml version=\"1.0\"?>\n<testResults version=\"1.2\">\n"
        "<httpSample t=\"1\" ts=\"1000\" s=\"true\" lb=\"A\" rc=\"200\"/>\n"
        "<httpSample t=\"1\" ts=\"1001\" s=\"false\" lb=\"B\" rc=\"200\"><assertionResult>"
        "<failure>true</failure><failureMessage>x&#x0;y</failureMessage></assertionResult>"
        "</httpSample>\n"
        "<httpSample t=\"1\" ts=\"1002\" s=\"true\" lb=\"C\" rc=\"200\"/>\n</testResults>\n";
    assert_int_equal(parse_str(&c, NULL, bad, NULL, &err), PR_EPARSE);
    assert_int_equal(err.line, 4);
    assert_true(err.col > 0);
    assert_non_null(strstr(err.msg, "--recover"));
    collect_free(&c);
    pr_parse_opts o = opts0();
    o.recover = 1;
    assert_int_equal(parse_str(&c, NULL, bad, &o, &err), 0);
    assert_true(c.n >= 2);
    assert_int_equal(c.warnings, 1);
    collect_free(&c);
}

static void test_jmeter__xml_hostile(void **st)
{
    collect c;
    pr_error err;
    static const char laughs[] =
        "<?xml version=\"1.0\"?>\n<!DOCTYPE testResults [<!ENTITY a \"aaaaaaaaaa\">"
        "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;\">"
        "<!ENTITY ext SYSTEM \"file:///etc/passwd\">]>\n"
        "<testResults version=\"1.2\"><httpSample t=\"1\" ts=\"1\" s=\"true\" lb=\"&c;&ext;\"/>"
        "</testResults>\n";
    int rc = parse_str(&c, "jmeter-xml", laughs, NULL, &err);
    assert_true(rc == PR_EFORMAT || rc == PR_EPARSE);
    assert_int_equal(c.n, 0);
    collect_free(&c);
    /* depth bomb */
    size_t depth = 5000;
    char *deep = pr_xmalloc(depth * 3 + 200);
    size_t k = (size_t)sprintf(deep, "<testResults>");
    for (size_t i = 0; i < depth; i++)
        k += (size_t)sprintf(deep + k, "<a>");
    deep[k] = 0;
    assert_int_equal(parse_str(&c, "jmeter-xml", deep, NULL, &err), PR_EPARSE);
    free(deep);
    collect_free(&c);
    /* markup inside a captured text is skipped, not taken for a sample */
    static const char inner[] =
        "<testResults><httpSample t=\"1\" ts=\"1\" s=\"false\" lb=\"A\" rc=\"200\">"
        "<assertionResult><failure>true</failure><failureMessage>x<sample t=\"1\" ts=\"1\"/>"
        "<httpSample ts=\"2\">y</httpSample>z</failureMessage></assertionResult></httpSample>"
        "</testResults>";
    assert_int_equal(parse_str(&c, "jmeter-xml", inner, NULL, &err), 0);
    assert_int_equal(c.n, 1);
    assert_string_equal(pr_run_str(c.run, c.s[0].error), "xz");
    collect_free(&c);
    static const char wrong[] = "<?xml version=\"1.0\"?><html><body/></html>";
    assert_int_equal(parse_str(&c, "jmeter-xml", wrong, NULL, &err), PR_EFORMAT);
    collect_free(&c);
}

/* ---- statistics ----------------------------------------------------------------------- */

static const pr_jstats_row *row(const pr_jstats *s, const char *label)
{
    for (size_t i = 0; i < s->nrows; i++)
        if (strcmp(s->rows[i].label, label) == 0)
            return &s->rows[i];
    fail_msg("no row %s", label);
    return NULL;
}

static void test_jmeter__stats_dashboard(void **st)
{
    collect c;
    pr_error err;
    assert_int_equal(parse_file(&c, NULL, "jmeter/csv-default.jtl", NULL, &err), 0);
    pr_jstats_opts o;
    pr_jstats_opts_default(&o);
    o.percentiles = PR_JSTATS_PCT_JMETER;
    pr_jstats *s = pr_jstats_compute(c.s, c.n, c.run, &o);
    assert_int_equal(s->nrows, 6);
    const pr_jstats_row *t = &s->total;
    /* Python oracle (see the top of this file) */
    assert_int_equal(t->samples, 3600);
    assert_int_equal(t->errors, 1500);
    assert_close(t->error_pct, 41.666666666666664);
    assert_close(t->mean_ms, 3.0716666666666668);
    assert_close(t->min_ms, 0);
    assert_close(t->max_ms, 232);
    assert_close(t->median_ms, 1.0);
    assert_close(t->pct_ms[0], 6.0);
    assert_close(t->pct_ms[1], 9.0);
    assert_close(t->pct_ms[2], 27.98999999999978);
    assert_close(t->throughput_per_s, 1135.6466876971608);
    assert_close(t->received_kb_per_s, 12472.382073146688);
    assert_close(t->sent_kb_per_s, 0);
    assert_close(t->apdex, 0.6428571428571429); /* Apdex overall includes TC samples */
    const pr_jstats_row *r = row(s, "Redirect");
    assert_int_equal(r->samples, 450);
    assert_close(r->mean_ms, 4.48);
    assert_close(r->pct_ms[1], 12.449999999999989);
    assert_close(r->pct_ms[2], 85.43000000000006);
    assert_close(r->throughput_per_s, 144.78764478764478);
    assert_close(r->received_kb_per_s, 106.75260919401543);
    r = row(s, "TX Browse");
    assert_true(r->is_transaction);
    assert_int_equal(r->samples, 600);
    assert_close(r->mean_ms, 5.841666666666667);
    assert_close(r->throughput_per_s, 192.0);
    assert_close(r->received_kb_per_s, 12410.8125);
    r = row(s, "Missing");
    assert_int_equal(r->errors, 1050);
    assert_close(r->error_pct, 100);
    assert_close(r->apdex, 0); /* failed samples are never satisfied */
    assert_close(r->pct_ms[2], 44.49000000000001);
    assert_close(row(s, "Big")->apdex, 1);
    /* JSON in statistics.json layout */
    json_t *j = pr_jstats_json(s);
    const char *first = json_object_iter_key(json_object_iter(j));
    assert_string_equal(first, "Total");
    json_t *h = json_object_get(j, "Home");
    assert_int_equal(json_integer_value(json_object_get(h, "sampleCount")), 1050);
    assert_close(json_real_value(json_object_get(h, "pct3ResTime")), 31.90000000000009);
    assert_close(json_real_value(json_object_get(h, "throughput")), 331.75355450236964);
    static const char *const keys[] = {
        "transaction",   "sampleCount", "errorCount",           "errorPct",        "meanResTime",
        "medianResTime", "minResTime",  "maxResTime",           "pct1ResTime",     "pct2ResTime",
        "pct3ResTime",   "throughput",  "receivedKBytesPerSec", "sentKBytesPerSec"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        assert_non_null(json_object_get(h, keys[i]));
    assert_int_equal(json_object_size(h), 14);
    assert_int_equal(json_object_size(j), 7);
    json_decref(j);
    FILE *devnull = fopen("/dev/full", "w");
    if (devnull) {
        assert_int_equal(pr_jstats_write(s, devnull, "/dev/full", &err), PR_EIO);
        fclose(devnull);
    }
    pr_jstats_free(s);
    /* our percentiles: exact nearest rank over all samples */
    o.percentiles = PR_JSTATS_PCT_EXACT;
    s = pr_jstats_compute(c.s, c.n, c.run, &o);
    assert_close(s->total.pct_ms[2], 27);
    assert_close(row(s, "Home")->pct_ms[2], 27);
    assert_close(row(s, "Home")->pct_ms[0], 5);
    pr_jstats_free(s);
    collect_free(&c);
}

static void test_jmeter__stats_window(void **st)
{
    pr_run *run = pr_run_new();
    size_t n = 25000;
    pr_sample *v = pr_xcalloc(n, sizeof *v);
    uint32_t a = pr_run_intern(run, "A", 1);
    for (size_t i = 0; i < n; i++) {
        pr_sample_init(&v[i]);
        v[i].label = a;
        v[i].start_ns = (int64_t)i * 1000000;
        v[i].latency_ns = (int64_t)(i + 1) * 1000000;
        v[i].success = i % 2 ? PR_OK_SUCCESS : PR_FAIL;
    }
    pr_jstats_opts o;
    pr_jstats_opts_default(&o);
    o.percentiles = PR_JSTATS_PCT_JMETER;
    o.apdex_satisfied_ms = 100;
    o.apdex_tolerated_ms = 400;
    pr_jstats *s = pr_jstats_compute(v, n, run, &o);
    /* LEGACY over the last 20000 (5001..25000): pos 0.9*20001 = 18000.9 → 23000.9 */
    assert_close(s->total.pct_ms[0], 23000.9);
    assert_close(s->total.median_ms, 15000.5);
    /* Apdex: successes are odd i (elapsed i+1 even): satisfied ≤100 → 50, tolerated 101..400 → 150 */
    assert_int_equal(s->total.apdex_satisfied, 50);
    assert_int_equal(s->total.apdex_tolerated, 150);
    assert_close(s->total.apdex, (50 + 75.0) / 25000);
    pr_jstats_free(s);
    o.percentiles = PR_JSTATS_PCT_EXACT;
    s = pr_jstats_compute(v, n, run, &o);
    assert_close(s->total.pct_ms[0], 22500);
    assert_close(s->total.median_ms, 12500);
    /* throughput: 25000 / (max end 24999+25000 - 0) ms */
    assert_close(s->total.throughput_per_s, 25000.0 / 49999 * 1000.0);
    pr_jstats_free(s);
    free(v);
    pr_run_free(run);
}

static void test_jmeter__sniff(void **st)
{
    const pr_parser *p;
    int score;
    size_t len;
    char *b = test_read_file(testdata("jmeter/csv-nohead.jtl"), 0, &len);
    p = pr_parser_sniff((const unsigned char *)b, len < 4096 ? len : 4096, &score);
    assert_non_null(p);
    assert_string_equal(p->name, "jmeter-csv");
    free(b);
    b = test_read_file(testdata("jmeter/xml-default.jtl"), 0, &len);
    p = pr_parser_sniff((const unsigned char *)b, len < 4096 ? len : 4096, &score);
    assert_non_null(p);
    assert_string_equal(p->name, "jmeter-xml");
    free(b);
    p = pr_parser_sniff((const unsigned char *)"hello world\nfoo bar\n", 20, &score);
    assert_true(p == NULL || strcmp(p->name, "jmeter-csv") != 0);
}

/* The guard's output for `in` fed `chunk` bytes at a time into outputs of `cap` bytes. */
static char *guard_run(const char *in, size_t n, size_t chunk, size_t cap, int *rc)
{
    static const char *const skip[] = {"responseData", NULL};
    pr_xml_guard g;
    pr_xml_guard_init(&g, skip);
    pr_buf b = PR_BUF_INIT;
    char *out = pr_xmalloc(cap);
    pr_error err;
    *rc = 0;
    for (size_t pos = 0; pos < n;) {
        size_t k = n - pos < chunk ? n - pos : chunk, used;
        while (k > 0) {
            long w = pr_xml_guard_filter(&g, in + pos, k, &used, out, cap, "g.jtl", &err);
            if (w < 0) {
                *rc = (int)w;
                free(out);
                return pr_buf_steal(&b);
            }
            pr_buf_append(&b, out, (size_t)w);
            pos += used;
            k -= used;
        }
    }
    free(out);
    return pr_buf_steal(&b);
}

static void test_jmeter__xml_guard(void **st)
{
    /* bodies dropped (line breaks kept), everything else as it was, whatever the chunking */
    static const char in[] =
        "<?xml version=\"1.0\"?>\n<!-- <responseData> in a comment -->\n<testResults a='>'>\n"
        "<v long=\"a value longer than the smallest output, with 'quotes' and <b> and\nlines\"/>"
        "<s lb=\"x=y\"><responseData class=\"s\">body\nline 2 &lt;b&gt;"
        "<![CDATA[ </responseData> <x> ]]>\n<nested a=\"1\"><responseData>in</responseData>"
        "</nested><e/>tail</responseData><responseData/><rm>kept</rm></s>\n</testResults>\n";
    static const char want[] =
        "<?xml version=\"1.0\"?>\n<!-- <responseData> in a comment -->\n<testResults a='>'>\n"
        "<v long=\"a value longer than the smallest output, with 'quotes' and <b> and\nlines\"/>"
        "<s lb=\"x=y\"><responseData class=\"s\">\n\n</responseData><responseData/><rm>kept</rm>"
        "</s>\n</testResults>\n";
    size_t sizes[] = {1, 2, 3, 7, 64, sizeof in};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (size_t cap = 32; cap <= 4096; cap *= 8) {
            int rc;
            char *got = guard_run(in, sizeof in - 1, sizes[i], cap, &rc);
            assert_int_equal(rc, 0);
            assert_string_equal(got, want);
            free(got);
        }
    }
    /* PR_XML_MAX_ATTRS attributes pass ('=' inside values does not count), one more is refused
     * at the tag's line and column */
    pr_buf b = PR_BUF_INIT;
    for (int extra = 0; extra <= 1; extra++) {
        pr_buf_reset(&b);
        pr_buf_puts(&b, "<testResults>\n  <s v=\"a=b=c\"");
        for (int i = 1; i < PR_XML_MAX_ATTRS + extra; i++)
            pr_buf_printf(&b, " a%d=\"%d\"", i, i);
        pr_buf_puts(&b, "/>\n</testResults>\n");
        int rc;
        char *got = guard_run(b.p, b.len, 4000, 4000, &rc);
        assert_int_equal(rc, extra ? PR_EPARSE : 0);
        if (!extra)
            assert_string_equal(got, b.p);
        free(got);
    }
    pr_error err;
    collect c;
    assert_int_equal(parse_str(&c, "jmeter-xml", b.p, NULL, &err), PR_EPARSE);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 3);
    assert_non_null(strstr(err.msg, "more than 1024 attributes"));
    collect_free(&c);
    pr_buf_dispose(&b);
    /* a body of 200,000 lines: split every 65,536 line breaks, lines after it still exact */
    pr_buf_puts(&b, "<testResults>\n<httpSample t=\"1\" ts=\"1\" s=\"true\" lb=\"A\" rc=\"200\">"
                    "<responseData>");
    for (int i = 0; i < 200000; i++)
        pr_buf_puts(&b, "some body text\n");
    pr_buf_puts(
        &b, "</responseData></httpSample>\n<httpSample t=\"1\" ts=\"2\" bad/>\n</testResults>\n");
    int rc;
    char *got = guard_run(b.p, b.len, 65536, 4096, &rc);
    assert_int_equal(rc, 0);
    char *mark = got;
    int marks = 0;
    while ((mark = strstr(mark, "<!---->")))
        marks++, mark++;
    assert_int_equal(marks, 3);
    free(got);
    assert_int_equal(parse_str(&c, "jmeter-xml", b.p, NULL, &err), PR_EPARSE);
    assert_int_equal(err.line, 200003); /* the not well-formed tag */
    assert_non_null(strstr(err.msg, "not well-formed"));
    collect_free(&c);
    pr_buf_dispose(&b);
}

/* Random markup without skipped elements (names past 32 bytes, both quotes, '=', '>', '/'
 * and line breaks inside values, line breaks between attributes) passes through the guard
 * unchanged whatever the chunking and room, and its line and column at the end are the
 * input's (the runs it copies at once count them as a byte at a time would). */
static void test_jmeter__xml_guard_random(void **st)
{
    static const char *const skip[] = {"responseData", NULL};
    static const char *const pieces[] = {" a=\"1\"",    " lb='x\"y'",        " v=\"a=b>c/d\"",
                                         "\n  n=\"2\"", " m=\"l1\nl2\nl3\"", " q='\n'",
                                         " e=\"\""};
    uint64_t r = 0x2545F4914F6CDD1DULL;
    pr_buf b = PR_BUF_INIT;
    for (int doc = 0; doc < 40; doc++) {
        pr_buf_reset(&b);
        pr_buf_puts(&b, "<testResults>\n");
        for (int t = 0; t < 60; t++) {
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            int name = (int)(r % 3);
            pr_buf_puts(&b, name == 0   ? "<httpSample"
                            : name == 1 ? "<sample"
                                        : "<aVeryLongElementNameOfMoreThanThirtyTwoBytes");
            for (int a = 0; a < (int)(r >> 8 & 15); a++)
                pr_buf_puts(&b, pieces[(r >> (12 + a % 16)) % 7]);
            pr_buf_puts(&b, r >> 40 & 1 ? "/>" : "></x>");
            pr_buf_puts(&b, r >> 41 & 1 ? "\ntext\n" : "");
        }
        pr_buf_puts(&b, "</testResults>\n");
        long line = 1, col = 1;
        for (size_t i = 0; i < b.len; i++)
            b.p[i] == '\n' ? (line++, col = 1) : col++;
        size_t chunk = 1 + (size_t)(r % 97), cap = 32 + (size_t)(r >> 20) % 200;
        pr_xml_guard g;
        pr_xml_guard_init(&g, skip);
        pr_buf out = PR_BUF_INIT;
        char *o = pr_xmalloc(cap);
        pr_error err;
        for (size_t pos = 0; pos < b.len;) {
            size_t k = b.len - pos < chunk ? b.len - pos : chunk, used;
            long w = pr_xml_guard_filter(&g, b.p + pos, k, &used, o, cap, "r.jtl", &err);
            assert_true(w >= 0);
            pr_buf_append(&out, o, (size_t)w);
            pos += used;
        }
        assert_int_equal(out.len, b.len);
        assert_memory_equal(out.p, b.p, b.len);
        assert_int_equal(g.line, line);
        assert_int_equal(g.col, col);
        free(o);
        pr_buf_dispose(&out);
    }
    pr_buf_dispose(&b);
    (void)st;
}

/* The guard's 64-byte tag scan against its byte-table scan (g.narrow) on random markup, the
 * two fed the same chunks into the same room side by side: the same bytes written and taken at
 * every call, the same refusals, line, column and attribute count. The pieces make values
 * longer than a step, both quotes, '=', '>' and '/' inside values, line breaks inside and
 * between attributes, end tags with '=' and tags near the attribute cap. */
static void test_jmeter__xml_guard_wide(void **st)
{
    static const char *const skip[] = {"responseData", NULL};
    static const char *const pieces[] = {
        " a=\"1\"",
        " lb='x\"y'",
        " v=\"a=b>c/d\"",
        "\n  n=\"2\"",
        " m=\"l1\nl2\nl3\"",
        " q='\n'",
        " e=\"\"",
        " rm=\"a value of more than sixty-four bytes, = and > and / and ' in it\"",
        " u=\"line one\nline two of a long value that goes past one step of the scan\n\"",
        "=",
        "\n",
        " x = \"y\"",
        "'",
        "\"",
        "  ",
        "<b>"};
    uint64_t r = 0x9E3779B97F4A7C15ULL;
    pr_buf b = PR_BUF_INIT;
    for (int doc = 0; doc < 300; doc++) {
        pr_buf_reset(&b);
        pr_buf_puts(&b, "<testResults>\n");
        for (int t = 0; t < 40; t++) {
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            int kind = (int)(r % 5);
            pr_buf_puts(&b, kind == 0 ? "<httpSample" : kind == 1 ? "</x" : "<s");
            int near_cap = kind == 4 && doc % 3 == 0; /* well-formed attributes only */
            int n = near_cap ? PR_XML_MAX_ATTRS - 4 + (int)(r >> 50 & 7) : (int)(r >> 8 & 31);
            uint64_t q = r;
            for (int a = 0; a < n; a++) {
                q ^= q << 13, q ^= q >> 7, q ^= q << 17;
                int pick = (int)(q % 64);
                pr_buf_puts(&b, pick < 16 && !near_cap ? pieces[pick] : pieces[pick % 3 ? 0 : 7]);
            }
            pr_buf_puts(&b, r >> 40 & 1 ? "/>" : "></s>");
            pr_buf_puts(&b, r >> 41 & 1 ? "\ntext\n" : "");
        }
        pr_buf_puts(&b, "</testResults>\n");
        size_t chunk = 1 + (size_t)(r % 4099), cap = 32 + (size_t)(r >> 20) % 3000;
        pr_xml_guard g[2];
        char *o[2];
        pr_error err[2];
        for (int i = 0; i < 2; i++) {
            pr_xml_guard_init(&g[i], skip);
            g[i].narrow = i;
            o[i] = pr_xmalloc(cap);
            pr_error_clear(&err[i]);
        }
        for (size_t pos = 0; pos < b.len;) {
            size_t k = b.len - pos < chunk ? b.len - pos : chunk, used[2];
            long w[2];
            for (int i = 0; i < 2; i++)
                w[i] =
                    pr_xml_guard_filter(&g[i], b.p + pos, k, &used[i], o[i], cap, "w.jtl", &err[i]);
            assert_int_equal(w[0], w[1]);
            assert_int_equal(used[0], used[1]);
            assert_int_equal(g[0].line, g[1].line);
            assert_int_equal(g[0].col, g[1].col);
            assert_int_equal(g[0].attrs, g[1].attrs);
            assert_int_equal(g[0].state, g[1].state);
            if (w[0] < 0) {
                assert_int_equal(err[0].line, err[1].line);
                assert_int_equal(err[0].col, err[1].col);
                assert_string_equal(err[0].msg, err[1].msg);
                break;
            }
            assert_memory_equal(o[0], o[1], (size_t)w[0]);
            pos += used[0];
        }
        free(o[0]);
        free(o[1]);
    }
    pr_buf_dispose(&b);
    (void)st;
}

/* Attributes of a sample element for test_jmeter__xml_blank_same: the well-formed ones that
 * a tag has at most once (mostly)... */
static const char *const blank_names[] = {
    " t=\"5\"",      " lt=\"3\"",       " ct=\"1\"",   " s=\"true\"", " s=\"false\"", " lb=\"A\"",
    " lb=\"B b\"",   " rc=\"200\"",     " rc=\"500\"", " rm=\"OK\"",  " tn=\"T 1\"",  " by=\"12\"",
    " sby=\"7\"",    " ng=\"5\"",       " na=\"3\"",   " hn=\"h\"",   " dt=\"text\"", " dt=\"bin\"",
    " de=\"utf-8\"", " dt=\"a&amp;b\"", " dt=\"\"",    " it=\"0\"",   " it=\"7\"",    " sc=\"1\"",
    " sc=\"2\"",     " ec=\"0\"",       " ec=\"1\""};
/* ... and the odd ones, one now and then */
static const char *const blank_odd[] = {"\tdt=\"text\"",
                                        " dt = \"text\"",
                                        " dt='text'",
                                        " it=\"0\"sc=\"1\"",
                                        " dt=\"x<y\"",
                                        " j:dt=\"x\"",
                                        " xdt=\"x\"",
                                        "\n dt=\"text\"",
                                        " na=\"x\"",
                                        " it=\"0\" it=\"0\"",
                                        " sc=\"1\" sc=\"1\"",
                                        " ec=\"0\"  ec=\"0\"",
                                        " dt=\"é\"",
                                        " v=\"sc=&quot;1&quot;\"",
                                        " sc=\"1\"/",
                                        " ts=\"99999999999999999\"",
                                        " xmlns=\"urn:x\"",
                                        " t=\"5\" t=\"6\"",
                                        " lb=\"a&amp;b\"",
                                        " lb=\"é\"",
                                        " rm=\"x>y\"",
                                        " rm=\"\"",
                                        " t=\"-1\"",
                                        " xmlns:j=\"urn:j\" j:v=\"1\"",
                                        " lb=\"x\" lb=\"x\"",
                                        " tn=\"a\xD3\"",
                                        " tn=\"\xC3\"",
                                        " lb=\"\xE4\xB8\xAD\xE6\x96\x87\"",
                                        " lb=\"\xF0\x9F\x98\x80\"",
                                        " lb=\"\xEF\xBF\xBE\"",
                                        " lb=\"\xED\xA0\x80\"",
                                        " lb=\"\xC0\xAF\"",
                                        " rm=\"a\tb\"",
                                        " rm=\"\x01\"",
                                        " dt=\"\xC3\xA9\" lb=\"\xFF\"",
                                        " tn=\"a\xD3\" dt=\"text\"",
                                        " lb=\"\xC3\" sc=\"1\""};
/* Markup around samples: their guard entries must go by in step. */
static const char *const blank_around[] = {
    "<unknown>\n  <httpSample ts=\"1796051770824\" t=\"9\" lb=\"skipped\"/>\n</unknown>\n",
    "<!-- <httpSample ts=\"1\" t=\"2\"/> -->\n",
    "<unknown><![CDATA[<httpSample ts=\"1\" t=\"2\"/>]]><sample ts=\"1\"/></unknown>\n",
    "<?pi <httpSample ts=\"1\"/> ?>\n",
    "<httpSample ts=\"1\" t=\"2\" lb=\"\xC3\xA9\"/></sEample>\n",
    "<httpSample ts=\"1\" t=\"2\" lb=\"e\"/></sEample>\n",
    "<a><b><sample ts=\"1\" t=\"3\"/></b></a>\n"};

#define NELEM(a) (sizeof(a) / sizeof(a)[0])

/* The attributes of one random sample tag into b (r the generator's state). */
static void blank_tag_attrs(pr_buf *b, uint64_t r, int odd, int i)
{
    if (!odd || r % 23 != 0)
        pr_buf_printf(b, " ts=\"%lld\"", 1796051770824LL + i);
    uint64_t q = r;
    char used[NELEM(blank_names)][4];
    size_t nused = 0;
    /* an odd piece in one tag in four, anywhere among the others */
    size_t at = (r >> 33) % 4 == 0 ? (size_t)(r >> 40) % (NELEM(blank_names) + 1) : SIZE_MAX;
    const char *piece = blank_odd[(size_t)(r >> 12) % NELEM(blank_odd)];
    for (size_t k = 0; k <= NELEM(blank_names); k++) {
        if (odd && k == at)
            pr_buf_puts(b, piece);
        if (k == NELEM(blank_names))
            break;
        q ^= q << 13, q ^= q >> 7, q ^= q << 17;
        if (q % 3 != 0)
            continue;
        size_t dup = 0;
        while (dup < nused && memcmp(used[dup], blank_names[k], 4) != 0)
            dup++;
        if (dup < nused && !(odd && q % 50 == 0))
            continue;
        memcpy(used[nused++], blank_names[k], 4);
        pr_buf_puts(b, blank_names[k]);
    }
    if (odd && q % 97 == 5) /* more attributes than the guard takes */
        for (int v = 0; v < 70; v++)
            pr_buf_printf(b, " v%d=\"%d\"", v, v);
}

/* A random JTL document into b: doc picks its kind; *r is the generator's state. */
static void blank_doc(pr_buf *b, uint64_t *r, int doc)
{
    pr_buf_reset(b);
    /* UTF-8 declared or by default, or another encoding (where no byte past ASCII is blanked) */
    static const char *const prolog[] = {"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
                                         "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n", "",
                                         "<?xml version='1.0' encoding='utf-8' ?>\n"};
    pr_buf_puts(b, prolog[doc % 7 == 3 ? 1 : doc % 7 == 5 ? 2 : doc % 7 == 6 ? 3 : 0]);
    pr_buf_puts(b, "<testResults version=\"1.2\">\n");
    if (doc % 50 == 1) /* past the lines libxml2 keeps in a node (65,535) */
        for (int i = 0; i < 70000; i++)
            pr_buf_puts(b, "\n");
    int nsamples = 20 + (int)(*r % 60), odd = doc % 4 == 0; /* a tag in four has an odd one */
    for (int i = 0; i < nsamples; i++) {
        uint64_t x = *r;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        *r = x;
        pr_buf_puts(b, x & 1 ? "<httpSample" : "<sample");
        blank_tag_attrs(b, x, odd, i);
        if (x >> 20 & 1) {
            pr_buf_puts(b, "/>\n");
            continue;
        }
        pr_buf_puts(b, x >> 23 & 7 ? ">\n  <java.net.URL>http://h/x</java.net.URL>\n"
                                   : ">\n  <java.net.URL>h<httpSample ts=\"1\" "
                                     "t=\"1\"/>x</java.net.URL>\n");
        if (x >> 21 & 1)
            pr_buf_puts(b, "  <assertionResult>\n    <failure>true</failure>\n    "
                           "<failureMessage>m</failureMessage>\n  </assertionResult>\n");
        if (x >> 22 & 1)
            pr_buf_puts(b, "  <httpSample ts=\"1796051770824\" t=\"1\" dt=\"text\" it=\"0\" "
                           "lb=\"sub\" sc=\"1\" ec=\"0\"/>\n");
        pr_buf_puts(b, x & 1 ? "</httpSample>\n" : "</sample>\n");
        if ((x >> 26) % 16 == 3)
            pr_buf_puts(b, blank_around[(x >> 30) % NELEM(blank_around)]);
    }
    pr_buf_puts(b, "</testResults>\n");
    if (doc % 5 == 4)
        b->len = b->len / 2 + (size_t)(*r >> 30) % (b->len / 2); /* a killed run */
}

/* b read with the guard's help and without it: the same, --recover or not. *ok counts the
 * reads that succeeded, *n the samples. */
static void blank_compare(const pr_buf *b, long *ok, long *n)
{
    for (int recover = 0; recover <= 1; recover++) {
        collect c[2];
        pr_error err[2];
        int rc[2];
        pr_parse_opts o = opts0();
        o.recover = recover;
        for (int i = 0; i < 2; i++) {
            pr_jtl_xml_blank = i == 0;
            collect_init(&c[i]);
            pr_error_clear(&err[i]);
            rc[i] = collect_parse_mem(&c[i], "jmeter-xml", b->p, b->len, &o, &err[i]);
        }
        pr_jtl_xml_blank = 1;
        assert_int_equal(rc[0], rc[1]);
        *ok += rc[0] == 0;
        *n += (long)c[0].n;
        assert_string_equal(err[0].msg, err[1].msg);
        assert_int_equal(err[0].line, err[1].line);
        assert_int_equal(err[0].col, err[1].col);
        assert_int_equal(c[0].warnings, c[1].warnings);
        assert_string_equal(c[0].last_warning, c[1].last_warning);
        assert_int_equal(c[0].n, c[1].n);
        for (size_t i = 0; i < c[0].n; i++)
            assert_true(sample_equal(c[0].run, &c[0].s[i], c[1].run, &c[1].s[i]));
        collect_free(&c[0]);
        collect_free(&c[1]);
    }
}

/* The attributes the guard blanks before libxml2 (pr_jtl_xml_blank: dt, de, it="0", sc="1",
 * ec="0"), and the whole attribute lists it takes out of the bytes (pr_xml_guard_take), change
 * nothing: random JTL documents, with attributes in every form (defaults or not, duplicated,
 * unsafe values, non-ASCII, entities, xmlns, odd spacing, single quotes, prefixes, line
 * breaks, more than the guard takes), bad numbers, missing time stamps, nesting, samples in
 * skipped elements, captured text, comments and CDATA, more than 65,535 lines, and cut ends,
 * read the same samples, warnings and errors (line and column too) with and without the
 * guard's help, --recover or not. */
static void test_jmeter__xml_blank_same(void **st)
{
    uint64_t r = 0x2545F4914F6CDD1DULL;
    pr_buf b = PR_BUF_INIT;
    long ok = 0, n = 0;
    long long taken0 = pr_jtl_xml_taken;
    for (int doc = 0; doc < 200; doc++) {
        blank_doc(&b, &r, doc);
        blank_compare(&b, &ok, &n);
    }
    assert_true(ok > 100 && n > 5000);             /* most documents read to their end */
    assert_true(pr_jtl_xml_taken - taken0 > 2000); /* most tags taken by the guard */
    pr_buf_dispose(&b);
    (void)st;
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jmeter__csv_default),
        cmocka_unit_test(test_jmeter__csv_allfields),
        cmocka_unit_test(test_jmeter__csv_nohead),
        cmocka_unit_test(test_jmeter__csv_quoted),
        cmocka_unit_test(test_jmeter__csv_semicolon),
        cmocka_unit_test(test_jmeter__csv_tab_pipe),
        cmocka_unit_test(test_jmeter__connrefused),
        cmocka_unit_test(test_jmeter__datefmt_fixture),
        cmocka_unit_test(test_jmeter__timestamp_forms),
        cmocka_unit_test(test_jmeter__datefmt_unit),
        cmocka_unit_test(test_jmeter__columns_option),
        cmocka_unit_test(test_jmeter__long_label),
        cmocka_unit_test(test_jmeter__subresults_csv),
        cmocka_unit_test(test_jmeter__csv_truncated),
        cmocka_unit_test(test_jmeter__csv_appended),
        cmocka_unit_test(test_jmeter__csv_errors),
        cmocka_unit_test(test_jmeter__xml_full),
        cmocka_unit_test(test_jmeter__xml_default),
        cmocka_unit_test(test_jmeter__xml_assertions),
        cmocka_unit_test(test_jmeter__xml_damaged),
        cmocka_unit_test(test_jmeter__xml_hostile),
        cmocka_unit_test(test_jmeter__xml_guard),
        cmocka_unit_test(test_jmeter__xml_guard_random),
        cmocka_unit_test(test_jmeter__xml_guard_wide),
        cmocka_unit_test(test_jmeter__xml_blank_same),
        cmocka_unit_test(test_jmeter__stats_dashboard),
        cmocka_unit_test(test_jmeter__stats_window),
        cmocka_unit_test(test_jmeter__sniff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
