/* Unit tests: model/input.c's large reads straight into the caller's buffer give the same
 * bytes, offsets and content digest as reads through the input's own buffer (small reads, a
 * memory input), whatever the mix of read sizes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/input.h"

static void test_input_read__direct_reads_same_bytes_and_digest(void **state)
{
    (void)state;
    size_t n = (5u << 20) + 12345;
    unsigned char *data = malloc(n);
    uint64_t r = 88172645463325252ull;
    for (size_t i = 0; i < n; i++) {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        data[i] = (unsigned char)r;
    }
    char path[64];
    snprintf(path, sizeof path, "/tmp/pr-input-%ld.bin", (long)getpid());
    FILE *f = fopen(path, "wb");
    fwrite(data, 1, n, f);
    fclose(f);
    pr_input *mem = pr_input_mem("mem", data, n);
    unsigned char *buf = malloc(n);
    assert_int_equal(pr_input_read(mem, buf, n, NULL), (long)n);
    char want[PR_DIGEST_HEX];
    pr_input_digest(mem, want);
    pr_input_close(mem);
    /* chunk sizes: small (through the buffer), 1 MiB (direct), mixed after a peek */
    static const size_t chunks[] = {100, 1u << 20, 70000, 3};
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        pr_error err;
        pr_input *in = pr_input_open(path, &err);
        assert_non_null(in);
        size_t got, done = 0, k = chunks[c];
        if (c == 2)
            pr_input_peek(in, 4096, &got);
        memset(buf, 0, n);
        for (;;) {
            size_t want_n = c == 3 && done ? (done % 2 ? 200000 : 7) : k;
            long rd = pr_input_read(in, buf + done, n - done < want_n ? n - done : want_n, &err);
            assert_true(rd >= 0);
            if (rd == 0)
                break;
            done += (size_t)rd;
            assert_int_equal(pr_input_offset(in), (long long)done);
        }
        assert_int_equal(done, n);
        assert_memory_equal(buf, data, n);
        char have[PR_DIGEST_HEX];
        pr_input_digest(in, have);
        assert_string_equal(have, want);
        pr_input_close(in);
    }
    unlink(path);
    free(buf);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_input_read__direct_reads_same_bytes_and_digest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
