/* Unit tests: the pieces readers share (decimal-to-ns, quote-aware CSV split, the JSON
 * scanner and JSON-lines reader, header and JSON sniffing). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "model/jscan.h"
#include "model/lex.h"
#include "parsers/sniff.h"

static int64_t dec(const char *s, int unit)
{
    int64_t v = -12345;
    if (pr_lex_decimal_ns(s, strlen(s), unit, &v) < 0)
        return -99999;
    return v;
}

static void test_pieces__decimal_ns(void **st)
{
    assert_int_equal(dec("0.0029", 9), 2900000);
    assert_int_equal(dec("57.0746", 6), 57074600);
    assert_int_equal(dec("0.432926", 6), 432926);
    assert_int_equal(dec("1e-06", 6), 1);
    assert_int_equal(dec("2.5e3", 3), 2500000);
    assert_int_equal(dec("1782873910", 9), 1782873910000000000LL);
    assert_int_equal(dec("1782873910123", 6), 1782873910123000000LL);
    assert_int_equal(dec("0.0000004", 6), 0);    /* 0.4 ns rounds down */
    assert_int_equal(dec("0.0000005", 6), 1);    /* 0.5 ns rounds away from zero */
    assert_int_equal(dec("0.00000000006", 9), 0); /* 0.06 ns */
    assert_int_equal(dec("-3", 6), -3000000);
    assert_int_equal(dec(".5", 9), 500000000);
    assert_int_equal(dec("3264.992537000001", 6), 3264992537);
    assert_int_equal(dec("9300000000", 9), -99999); /* beyond int64 ns */
    assert_int_equal(dec("", 9), -99999);
    assert_int_equal(dec("1.2.3", 9), -99999);
    assert_int_equal(dec("12a", 9), -99999);
    assert_int_equal(dec("e5", 9), -99999);
}

static void test_pieces__split_csv(void **st)
{
    const char *l = "a,\"b,\"\"c\"\"\",,\"\"";
    char out[64];
    pr_str f[8];
    size_t bad = 0;
    int k = pr_lex_split_csv(l, strlen(l), ',', f, 8, out, &bad);
    assert_int_equal(k, 4);
    assert_true(pr_str_eq(f[0], "a"));
    assert_true(pr_str_eq(f[1], "b,\"c\""));
    assert_int_equal(f[2].n, 0);
    assert_int_equal(f[3].n, 0);
    assert_int_equal(pr_lex_split_csv("a,b,c", 5, ',', f, 2, out, &bad), 3); /* more than max */
    assert_int_equal(pr_lex_split_csv("\"abc", 4, ',', f, 8, out, &bad), -1);
    assert_int_equal(bad, 4);
    assert_int_equal(pr_lex_split_csv("\"a\"x,b", 6, ',', f, 8, out, &bad), -1);
    assert_int_equal(bad, 3);
}

static void test_pieces__jscan(void **st)
{
    const char *t = "{\"a\":1.5,\"b\":\"x\\u00e9\",\"c\":[1,{\"d\":null}],\"e\":null,\"n\":-7}";
    char out[64];
    pr_jscan s;
    pr_jscan_init(&s, t, strlen(t), out, sizeof out, 32);
    int first;
    const char *what = NULL;
    pr_str k, v;
    double d;
    int64_t i;
    assert_int_equal(pr_jscan_object(&s, &first, &what), 0);
    assert_int_equal(pr_jscan_member(&s, &first, &k, &what), 1);
    assert_true(pr_str_eq(k, "a"));
    assert_int_equal(pr_jscan_double(&s, &d), 0);
    assert_true(d == 1.5);
    assert_int_equal(pr_jscan_member(&s, &first, &k, &what), 1);
    assert_int_equal(pr_jscan_string(&s, &v, 1), 0);
    assert_true(pr_str_eq(v, "x\xc3\xa9"));
    assert_int_equal(pr_jscan_member(&s, &first, &k, &what), 1);
    assert_int_equal(pr_jscan_skip(&s), 0);
    assert_int_equal(pr_jscan_member(&s, &first, &k, &what), 1);
    assert_int_equal(pr_jscan_null(&s), 1);
    assert_int_equal(pr_jscan_member(&s, &first, &k, &what), 1);
    assert_int_equal(pr_jscan_i64(&s, &i), 0);
    assert_int_equal(i, -7);
    assert_int_equal(pr_jscan_member(&s, &first, &k, &what), 0);
    assert_int_equal(pr_jscan_end(&s), 0);

    const char *bad = "{\"a\":1 \"b\":2}";
    pr_jscan_init(&s, bad, strlen(bad), out, sizeof out, 32);
    assert_int_equal(pr_jscan_object(&s, &first, &what), 0);
    assert_int_equal(pr_jscan_member(&s, &first, &k, &what), 1);
    assert_int_equal(pr_jscan_skip(&s), 0);
    assert_int_equal(pr_jscan_member(&s, &first, &k, &what), -1);
    assert_string_equal(what, "expected ',' or '}'");
    assert_int_equal(pr_jscan_col(&s), 8);
}

static void test_pieces__jsonl(void **st)
{
    const char *t = "{\"a\":1}\n\n\r\n{\"a\":2}\n{\"a\":";
    pr_input *in = pr_input_mem("t.json", t, strlen(t));
    pr_jsonl j;
    pr_jsonl_init(&j, in, 64);
    pr_jscan s;
    pr_error err;
    pr_error_clear(&err);
    int n = 0, rc;
    while ((rc = pr_jsonl_next(&j, &s, &err)) == 1) {
        int first;
        const char *what = NULL;
        pr_str k;
        int64_t v;
        if (pr_jscan_object(&s, &first, &what) < 0 || pr_jscan_member(&s, &first, &k, &what) != 1 ||
            pr_jscan_i64(&s, &v) < 0) {
            rc = pr_jsonl_fail(&j, &s, what ? what : "expected an integer", "test line", &err);
            break;
        }
        n++;
        assert_int_equal(v, n);
    }
    assert_int_equal(n, 2);
    assert_int_equal(rc, PR_ETRUNC);
    assert_int_equal(err.line, 5);
    assert_int_equal(err.col, 6);
    pr_jsonl_dispose(&j);
    pr_input_close(in);
}

static void test_pieces__sniff(void **st)
{
    const unsigned char *h = (const unsigned char *)"a,b,c\r\n1,2,3\n";
    assert_int_equal(pr_sniff_header(h, 14, "a,b,c", 3), 100);
    assert_int_equal(pr_sniff_header(h, 3, "a,b,c", 3), 60);
    assert_int_equal(pr_sniff_header(h, 2, "a,b,c", 3), 0);
    assert_int_equal(pr_sniff_header(h, 14, "a,b", 3), 0);
    pr_str line;
    assert_int_equal(pr_sniff_line(h, 14, &line), 1);
    assert_true(pr_str_eq(line, "a,b,c"));
    assert_int_equal(pr_sniff_line(h, 4, &line), 0);
    assert_true(pr_str_eq(line, "a,b,"));
    const unsigned char *j = (const unsigned char *)"  \n{\"x\": {\"y\": [1]}} trailing";
    pr_str obj;
    assert_int_equal(pr_sniff_json(j, strlen((const char *)j), &obj), 1);
    assert_true(pr_str_eq(obj, "{\"x\": {\"y\": [1]}}"));
    assert_int_equal(pr_sniff_json(j, 12, &obj), 0);
    assert_int_equal(pr_sniff_json((const unsigned char *)"x{}", 3, &obj), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pieces__decimal_ns), cmocka_unit_test(test_pieces__split_csv),
        cmocka_unit_test(test_pieces__jscan),      cmocka_unit_test(test_pieces__jsonl),
        cmocka_unit_test(test_pieces__sniff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
