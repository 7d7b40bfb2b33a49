/* Unit tests: the sanitiser for text from input files (model/text.h): control characters made
 * visible, spreadsheet formulas quoted, JSON trees rewritten in place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "model/run.h"
#include "model/sink.h"
#include "model/text.h"
#include "model/xalloc.h"

static void expect(const char *in, size_t n, unsigned flags, const char *want)
{
    pr_buf b = PR_BUF_INIT;
    pr_text_visible(in, n, flags, &b);
    assert_string_equal(b.p ? b.p : "", want);
    assert_int_equal(pr_text_is_safe(in, n, flags),
                     strcmp(b.p ? b.p : "", in) == 0 && strlen(in) == n);
    pr_buf_dispose(&b);
}
#define EXPECT(lit, flags, want) expect(lit, sizeof lit - 1, flags, want)

static void test_text__controls_visible(void **st)
{
    /* the run name of issue 15: retitle, clear and recolour the terminal */
    EXPECT("atk\x1b]0;PWNED\a\x1b[2J\x1b[31mred", 0, "atk\\x1b]0;PWNED\\x07\\x1b[2J\\x1b[31mred");
    EXPECT("a\nb\tc\rd", 0, "a\\x0ab\\x09c\\x0dd");
    EXPECT("a\nb\tc\rd", PR_TEXT_LINES, "a\nb\tc\\x0dd");
    EXPECT("nul\0in", 0, "nul\\x00in");
    EXPECT("del\x7f", 0, "del\\x7f");
    EXPECT("c1 \xc2\x9b"
           "31m",
           0, "c1 \\u009b31m"); /* U+009B, 8-bit CSI */
    EXPECT("raw \x9b"
           "2J",
           0, "raw \\x9b2J");                      /* not UTF-8 */
    EXPECT("cut \xe4\xbd", 0, "cut \\xe4\\xbd");   /* a sequence cut short */
    EXPECT("over \xc0\xaf", 0, "over \\xc0\\xaf"); /* overlong '/' */
    EXPECT("surrogate \xed\xa0\x80", 0, "surrogate \\xed\\xa0\\x80");
    EXPECT("txt.exe\xe2\x80\xaegpj", 0, "txt.exe\\u202egpj"); /* right-to-left override */
    EXPECT("iso\xe2\x81\xa6x", 0, "iso\\u2066x");
    /* ordinary text is left exactly as it is */
    EXPECT("GET /商品/列表 µs é \xe2\x80\x94 ✅", PR_TEXT_CELL,
           "GET /商品/列表 µs é \xe2\x80\x94 ✅");
    EXPECT("", PR_TEXT_CELL, "");
}

static void test_text__formula_cells(void **st)
{
    EXPECT("=HYPERLINK(\"http://evil\",\"x\")", PR_TEXT_CELL, "'=HYPERLINK(\"http://evil\",\"x\")");
    EXPECT("@SUM(A1:A9)", PR_TEXT_CELL, "'@SUM(A1:A9)");
    EXPECT("+cmd|' /C calc'!A0", PR_TEXT_CELL, "'+cmd|' /C calc'!A0");
    EXPECT("-2+3+cmd|' /C calc'!A0", PR_TEXT_CELL, "'-2+3+cmd|' /C calc'!A0");
    EXPECT("=1+1", 0, "=1+1"); /* only cells are quoted */
    EXPECT("=1+1", PR_TEXT_CELL, "'=1+1");
    EXPECT("@user", PR_TEXT_CELL, "'@user");
    EXPECT("-SUM(1)", PR_TEXT_CELL, "'-SUM(1)");
    /* numbers with a unit, the unknown value and options that call nothing read as they are */
    EXPECT("-3.2%", PR_TEXT_CELL, "-3.2%");
    EXPECT("+1.50 ms", PR_TEXT_CELL, "+1.50 ms");
    EXPECT("-12 req/s", PR_TEXT_CELL, "-12 req/s");
    EXPECT("-250 µs", PR_TEXT_CELL, "-250 µs");
    EXPECT("-", PR_TEXT_CELL, "-");
    EXPECT("-1,234.5", PR_TEXT_CELL, "-1,234.5");
    EXPECT("--", PR_TEXT_CELL, "--");
    EXPECT("- x", PR_TEXT_CELL, "- x");
    EXPECT("-Xmx2g", PR_TEXT_CELL, "-Xmx2g");
    EXPECT("-XX:+UseG1GC", PR_TEXT_CELL, "-XX:+UseG1GC");
    EXPECT("=\x1b[2J", PR_TEXT_CELL, "'=\\x1b[2J");
    /* a tab or CR first (OWASP lists them too) is made visible, so it starts with a backslash */
    EXPECT("\t=1", PR_TEXT_CELL, "\\x09=1");
}

static void test_text__dup_and_json(void **st)
{
    char *d = pr_text_visible_dup(NULL, 0);
    assert_string_equal(d, "");
    free(d);
    d = pr_text_visible_dup("ok", 0);
    assert_string_equal(d, "ok");
    free(d);
    json_error_t je;
    json_t *doc = json_loads("{\"runs\": [{\"name\": \"a\\u001b[31m\", \"n\": 3, "
                             "\"meta\": {\"k\\u0007\": \"v\\u009b\", \"ok\": [\"\\u202e\"]}}]}",
                             0, &je);
    assert_non_null(doc);
    pr_text_visible_json(doc, 0);
    char *s = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS);
    assert_string_equal(s,
                        "{\"runs\":[{\"meta\":{\"k\\\\x07\":\"v\\\\u009b\",\"ok\":[\"\\\\u202e\"]},"
                        "\"n\":3,\"name\":\"a\\\\x1b[31m\"}]}");
    free(s);
    json_decref(doc);
}

static int gate_collect(const char *p, size_t n, void *payload)
{
    pr_buf *b = payload;
    if (b->max && b->len + n > b->max)
        return -1; /* a full output */
    pr_buf_append(b, p, n);
    return 0;
}

/* The gate of an output stream: text cut anywhere, even inside a character, comes out as
 * pr_text_visible makes the whole; safe text and JSON pass unchanged. */
static void test_text__stream_gate(void **st)
{
    (void)st;
    static const char in[] = "ok 中文 \x1b\033]0;T\007 c1 \xc2\x9b nel \xc2\x85 bidi \xe2\x80\xae "
                             "raw \x9b cut \xe4\xbd tab\tnl\n emoji \xf0\x9f\x98\x80 end";
    size_t n = sizeof in - 1;
    pr_buf want = PR_BUF_INIT;
    pr_text_visible(in, n, PR_TEXT_LINES, &want);
    for (size_t cut1 = 0; cut1 <= n; cut1++)
        for (size_t cut2 = cut1; cut2 <= n; cut2 += 3) {
            pr_buf got = PR_BUF_INIT;
            pr_text_gate g = {gate_collect, &got, {0}, 0};
            assert_int_equal(pr_text_gate_put(&g, in, cut1), 0);
            assert_int_equal(pr_text_gate_put(&g, in + cut1, cut2 - cut1), 0);
            assert_int_equal(pr_text_gate_put(&g, in + cut2, n - cut2), 0);
            assert_int_equal(pr_text_gate_end(&g), 0);
            assert_int_equal(got.len, want.len);
            assert_memory_equal(got.p, want.p, want.len);
            pr_buf_dispose(&got);
        }
    assert_non_null(strstr(want.p, "\\x1b]0;T\\x07 c1 \\u009b nel \\u0085 bidi \\u202e raw \\x9b"));
    assert_non_null(strstr(want.p, "cut \\xe4\\xbd tab\tnl\n emoji \xf0\x9f\x98\x80 end"));
    pr_buf_dispose(&want);
    /* a lead byte held at the end of the stream is written as what it is: not UTF-8 */
    pr_buf got = PR_BUF_INIT;
    pr_text_gate g = {gate_collect, &got, {0}, 0};
    assert_int_equal(pr_text_gate_put(&g, "x\xe4", 2), 0);
    assert_int_equal(got.len, 1);
    assert_int_equal(pr_text_gate_end(&g), 0);
    assert_int_equal(got.len, 5);
    assert_memory_equal(got.p, "x\\xe4", 5);
    pr_buf_dispose(&got);
    /* JSON with its C0 escaped passes as valid JSON: the C1 control becomes \u0085 */
    const char *js = "{\"a\": \"x\\u001b\xc2\x85\"}\n";
    got = (pr_buf)PR_BUF_INIT;
    g = (pr_text_gate){gate_collect, &got, {0}, 0};
    assert_int_equal(pr_text_gate_put(&g, js, strlen(js)), 0);
    pr_buf_putc(&got, 0);
    json_error_t je;
    json_t *doc = json_loads(got.p, 0, &je);
    assert_non_null(doc);
    assert_string_equal(json_string_value(json_object_get(doc, "a")), "x\x1b\xc2\x85");
    json_decref(doc);
    pr_buf_dispose(&got);
    /* a failed write is returned */
    got = (pr_buf)PR_BUF_INIT;
    got.max = 4;
    g = (pr_text_gate){gate_collect, &got, {0}, 0};
    assert_true(pr_text_gate_put(&g, "abc\x1b" "def", 7) < 0);
    pr_buf_dispose(&got);
}

static void test_text__utf8_len(void **st)
{
    uint32_t cp = 0;
    assert_int_equal(pr_utf8_len((const unsigned char *)"\xe2\x82\xac", 3, &cp), 3);
    assert_int_equal(cp, 0x20ac);
    assert_int_equal(pr_utf8_len((const unsigned char *)"\xf0\x9f\x98\x80", 4, &cp), 4);
    assert_int_equal(pr_utf8_len((const unsigned char *)"\xf0\x9f\x98", 3, &cp), 0);
    assert_int_equal(pr_utf8_len((const unsigned char *)"\xf4\x90\x80\x80", 4, &cp),
                     0); /* > U+10FFFF */
    assert_int_equal(pr_utf8_len((const unsigned char *)"\xe0\x80\x80", 3, &cp), 0); /* overlong */
    assert_int_equal(pr_utf8_len((const unsigned char *)"\x80", 1, &cp), 0);
}

/* Interned strings are valid UTF-8 without NUL: bad bytes become U+FFFD, and are counted. */
static void test_text__intern_repairs(void **st)
{
    pr_run *r = pr_run_new();
    uint32_t a = pr_run_intern(r, "caf\xe9", 4);
    assert_string_equal(pr_run_str(r, a), "caf\xef\xbf\xbd");
    uint32_t b = pr_run_intern(r, "a\0b", 3);
    assert_string_equal(pr_run_str(r, b), "a\xef\xbf\xbd"
                                          "b");
    uint32_t c = pr_run_intern(r, "\xe9t\xe9 \xc3\xa9t\xc3\xa9", 9);
    assert_string_equal(pr_run_str(r, c), "\xef\xbf\xbdt\xef\xbf\xbd \xc3\xa9t\xc3\xa9");
    assert_int_equal(r->strings_repaired, 3);
    uint32_t d = pr_run_intern(r, "GET /商品", strlen("GET /商品"));
    assert_string_equal(pr_run_str(r, d), "GET /商品");
    assert_int_equal(r->strings_repaired, 3);
    /* cut at PR_STR_MAX on a character boundary, never inside a sequence */
    size_t n = PR_STR_MAX + 2;
    char *big = malloc(n);
    memset(big, 'x', n);
    memcpy(big + PR_STR_MAX - 1, "\xc3\xa9", 2);
    uint32_t e = pr_run_intern(r, big, n);
    assert_int_equal(pr_strtab_len(r->strings, e), PR_STR_MAX - 1);
    assert_int_equal(r->strings_repaired, 3);
    free(big);
    pr_run_free(r);
}

static int keep(pr_run *run, const pr_sample *s, size_t n, pr_error *err, void *payload)
{
    return 0;
}

static int warned;
static char warning[1200];
static void on_warn(const pr_error *w, void *payload)
{
    warned++;
    pr_error_format(w, warning, sizeof warning);
}

/* The sink refuses a negative duration and warns, once per record, about repaired strings. */
static void test_text__sink_checks(void **st)
{
    pr_run *r = pr_run_new();
    pr_sink *k = malloc(sizeof *k);
    pr_sink_init(k, r, keep, NULL);
    k->warn = on_warn;
    k->line = 7;
    pr_error err;
    pr_sample s;
    pr_sample_init(&s);
    s.latency_ns = 5;
    assert_int_equal(pr_sink_emit(k, &s, &err), 0);
    s.label = pr_run_intern(r, "caf\xe9", 4);
    assert_int_equal(pr_sink_emit(k, &s, &err), 0);
    assert_int_equal(warned, 1);
    assert_non_null(strstr(warning, "7: a label, URL, error or other string of this record was "
                                    "not valid UTF-8"));
    assert_int_equal(pr_sink_emit(k, &s, &err), 0); /* the same string again: no new warning */
    assert_int_equal(warned, 1);
    s.latency_ns = -5000000;
    assert_int_equal(pr_sink_emit(k, &s, &err), PR_EPARSE);
    assert_int_equal(err.line, 7);
    assert_non_null(strstr(err.msg, "negative latency"));
    s.latency_ns = 1;
    s.connect_ns = -1;
    assert_int_equal(pr_sink_emit(k, &s, &err), PR_EPARSE);
    s.connect_ns = PR_UNKNOWN;
    assert_int_equal(pr_sink_emit(k, &s, &err), 0);
    free(k);
    pr_run_free(r);
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text__controls_visible), cmocka_unit_test(test_text__formula_cells),
        cmocka_unit_test(test_text__dup_and_json),     cmocka_unit_test(test_text__stream_gate),
        cmocka_unit_test(test_text__utf8_len),         cmocka_unit_test(test_text__intern_repairs),
        cmocka_unit_test(test_text__sink_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
