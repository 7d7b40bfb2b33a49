/* Unit tests: the text-width helpers of cli/common.h that align the text tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "cli/common.h"

/* n bytes of text that end where a page no one may read begins: a read past them faults. */
static char *at_page_end(const char *text, size_t n, void **map, size_t *maplen)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    *maplen = 2 * page;
    char *p = mmap(NULL, *maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(p != MAP_FAILED);
    assert_int_equal(mprotect(p + page, page, PROT_NONE), 0);
    *map = p;
    memcpy(p + page - n, text, n);
    return p + page - n;
}

static void test_cli__text_width_bound_first(void **st)
{
    void *map;
    size_t maplen;
    /* "ab商" without a terminator: the width reads the 5 bytes and not the one after them */
    char *s = at_page_end("ab\xe5\x95\x86", 5, &map, &maplen);
    assert_int_equal(pr_cli_text_width(s, 5), 4);
    assert_int_equal(pr_cli_text_width(s, 2), 2);
    assert_int_equal(pr_cli_text_width(s, 0), 0);
    munmap(map, maplen);
}

static void test_cli__text_width(void **st)
{
    assert_int_equal(pr_cli_text_width("", (size_t)-1), 0);
    assert_int_equal(pr_cli_text_width("GET /x", (size_t)-1), 6);
    assert_int_equal(pr_cli_text_width("测试结论", (size_t)-1), 8);
    assert_int_equal(pr_cli_text_width("µs", (size_t)-1), 2);
    assert_int_equal(pr_cli_text_width("abc\0def", 7), 3); /* stops at the terminator */
    char buf[8];
    assert_string_equal(pr_cli_cut("测试结论", 5, buf, sizeof buf), "测试");
    assert_string_equal(pr_cli_cut("abcdefghij", 20, buf, sizeof buf), "abcdefg");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli__text_width_bound_first),
        cmocka_unit_test(test_cli__text_width),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
