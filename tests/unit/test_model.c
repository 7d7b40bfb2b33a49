/* Unit tests: string interning, lexing helpers, input reading, the output timestamp. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "analysis/report.h"
#include "model/clock.h"
#include "model/input.h"
#include "model/lex.h"
#include "model/strtab.h"

static void test_model__intern_same_id(void **st)
{
    pr_strtab *t = pr_strtab_new();
    char buf[32];
    uint32_t ids[1000];
    for (int i = 0; i < 1000; i++) {
        snprintf(buf, sizeof buf, "label-%d", i);
        ids[i] = pr_strtab_intern_cstr(t, buf);
    }
    for (int i = 0; i < 1000; i++) {
        snprintf(buf, sizeof buf, "label-%d", i);
        assert_int_equal(pr_strtab_intern_cstr(t, buf), ids[i]);
        assert_string_equal(pr_strtab_get(t, ids[i]), buf);
    }
    assert_int_equal(pr_strtab_count(t), 1001);
    assert_int_equal(pr_strtab_intern_cstr(t, ""), 0);
    assert_string_equal(pr_strtab_get(t, 0), "");
    assert_int_equal(pr_strtab_intern(t, "a\0b", 3), pr_strtab_intern(t, "a\0b", 3));
    assert_int_not_equal(pr_strtab_intern(t, "a\0b", 3), pr_strtab_intern(t, "a", 1));
    pr_strtab_free(t);
}

static void test_model__lex_numbers(void **st)
{
    int64_t v;
    assert_int_equal(pr_lex_i64("123", 3, &v), 0);
    assert_int_equal(v, 123);
    assert_int_equal(pr_lex_i64("-9223372036854775808", 20, &v), 0);
    assert_true(v == INT64_MIN);
    assert_int_equal(pr_lex_i64("9223372036854775808", 19, &v), -1);
    assert_int_equal(pr_lex_i64("12a", 3, &v), -1);
    assert_int_equal(pr_lex_i64("", 0, &v), -1);
}

static void test_model__lex_durations(void **st)
{
    static const struct {
        const char *s;
        int64_t ns;
    } cases[] = {
        {"27.9ms", 27900000}, {"4.995s", 4995000000}, {"191.054\xc2\xb5s", 191054},
        {"850ns", 850}, {"1m2.5s", 62500000000}, {"12us", 12000}, {"0s", 0},
        {"1.5m", 90000000000}, {"2h", 7200000000000},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t ns = -1;
        assert_int_equal(pr_lex_duration(cases[i].s, strlen(cases[i].s), 0, &ns), 0);
        assert_true(ns == cases[i].ns);
    }
    int64_t ns;
    assert_int_equal(pr_lex_duration("12", 2, 0, &ns), -1);
    assert_int_equal(pr_lex_duration("12", 2, 1000000, &ns), 0);
    assert_true(ns == 12000000);
    assert_int_equal(pr_lex_duration("ms", 2, 0, &ns), -1);
}

static void test_model__rfc3339_roundtrip(void **st)
{
    int64_t ns;
    int off;
    const char *s = "2026-11-30T15:11:09.461933948Z";
    assert_int_equal(pr_lex_rfc3339(s, strlen(s), &ns, &off), 0);
    assert_true(ns == 1796051469461933948LL);
    assert_int_equal(off, 0);
    char buf[40];
    assert_string_equal(pr_format_rfc3339(ns, 0, buf), s);
    const char *z = "2026-11-30T11:41:09.5-03:30";
    assert_int_equal(pr_lex_rfc3339(z, strlen(z), &ns, &off), 0);
    assert_int_equal(off, -210);
    assert_true(ns == 1796051469500000000LL);
    assert_string_equal(pr_format_rfc3339(ns, off, buf), z);
}

static void test_model__input_lines(void **st)
{
    const char text[] = "a,b\r\nsecond\nlast";
    pr_input *in = pr_input_mem("t", text, sizeof text - 1);
    const char *line;
    size_t n;
    pr_error err;
    assert_int_equal(pr_input_getline(in, &line, &n, &err), 1);
    assert_int_equal(n, 4);
    assert_int_equal(pr_input_getline(in, &line, &n, &err), 1);
    assert_memory_equal(line, "second", 6);
    assert_int_equal(pr_input_lineno(in), 2);
    assert_int_equal(pr_input_getline(in, &line, &n, &err), 1);
    assert_memory_equal(line, "last", 4);
    assert_int_equal(pr_input_line_terminated(in), 0);
    assert_int_equal(pr_input_getline(in, &line, &n, &err), 0);
    char hash[PR_DIGEST_HEX];
    pr_input_digest(in, hash);
    assert_int_equal(strlen(hash), 39);
    pr_input *again = pr_input_mem("t2", text, sizeof text - 1);
    pr_input_drain(again, &err);
    char hash2[PR_DIGEST_HEX];
    pr_input_digest(again, hash2);
    assert_string_equal(hash, hash2);
    pr_input_close(again);
    pr_input_close(in);
}

/* SOURCE_DATE_EPOCH is one reader's: whole seconds only, anything else is the wall clock
 * (the report's "generated" read "12abc" as 12 and "-5" as -5). */
static void test_model__source_date(void **st)
{
    (void)st;
    static const struct {
        const char *env;
        int valid;
        int64_t s;
    } cases[] = {{"1796083200", 1, 1796083200}, {"0", 1, 0}, {"253402300799", 1, 253402300799},
                 {"", 0, 0}, {"12abc", 0, 0}, {"-5", 0, 0}, {" 5", 0, 0}, {"1e9", 0, 0},
                 {"253402300800", 0, 0}, {"99999999999999999999999", 0, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        setenv("SOURCE_DATE_EPOCH", cases[i].env, 1);
        int64_t s = -1;
        assert_int_equal(pr_clock_source_date(&s), cases[i].valid);
        assert_int_equal(s, cases[i].valid ? cases[i].s : -1);
        pr_report_opts o;
        pr_report_opts_init(&o);
        if (cases[i].valid)
            assert_int_equal(o.generated_s, cases[i].s);
        else /* the wall clock */
            assert_true(llabs(o.generated_s - (int64_t)time(NULL)) < 5);
    }
    unsetenv("SOURCE_DATE_EPOCH");
    assert_true(llabs(pr_clock_now_s() - (int64_t)time(NULL)) < 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model__intern_same_id),
        cmocka_unit_test(test_model__lex_numbers),
        cmocka_unit_test(test_model__lex_durations),
        cmocka_unit_test(test_model__rfc3339_roundtrip),
        cmocka_unit_test(test_model__input_lines),
        cmocka_unit_test(test_model__source_date),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
