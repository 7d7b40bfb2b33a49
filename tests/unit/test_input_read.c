/* Unit tests: model/input.c's large reads straight into the caller's buffer give the same
 * bytes, offsets and content digest as reads through the input's own buffer (small reads, a
 * memory input), whatever the mix of read sizes; so does the digest on a second thread. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>
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

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static size_t rnd(size_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (size_t)(rng % n);
}

/* The digest on the hashing thread equals XXH3-128 of the file computed in one go, for files
 * of random sizes read in random chunk sizes (small through the buffer, large straight into
 * the caller's buffer), the caller overwriting its buffer after each pr_input_sync as the gob
 * reader does, and sometimes stopping early and draining the rest. */
static void test_input_read__async_digest_same(void **state)
{
    (void)state;
    enum { CASES = 24, SIZE_MAX_ = 3 << 20 };
    unsigned char *data = malloc(SIZE_MAX_), *buf = malloc(SIZE_MAX_);
    assert_non_null(data);
    assert_non_null(buf);
    char path[64];
    snprintf(path, sizeof path, "/tmp/pr-input-async-%ld.bin", (long)getpid());
    for (int c = 0; c < CASES; c++) {
        size_t n = c == 0 ? 0 : rnd(4) == 0 ? (1u << 20) + rnd(3) - 1 : rnd(SIZE_MAX_);
        for (size_t i = 0; i < n; i++)
            data[i] = (unsigned char)rnd(256);
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(data, 1, n, f), n);
        fclose(f);
        XXH128_hash_t h = XXH3_128bits(data, n);
        char want[PR_DIGEST_HEX];
        snprintf(want, sizeof want, "xxh128:%016llx%016llx", (unsigned long long)h.high64,
                 (unsigned long long)h.low64);
        pr_error err;
        pr_input *in = pr_input_open(path, &err);
        assert_non_null(in);
        assert_int_equal(pr_input_async_digest(in), 1);
        size_t done = 0, stop = rnd(3) == 0 ? rnd(n + 1) : n;
        while (done < stop) {
            size_t k = rnd(4) == 0 ? 1 + rnd(1000) : (600u << 10) + rnd(2u << 20);
            size_t at = rnd(2) ? 0 : rnd(4096); /* the same buffer again and again */
            if (k > SIZE_MAX_ - at)
                k = SIZE_MAX_ - at;
            long rd = pr_input_read(in, buf + at, k, &err);
            assert_true(rd > 0);
            /* half the time the bytes are checked; else the buffer is reused at once (the
             * digest must not see the scribble: a sync that did not wait would show) */
            if (rnd(2))
                assert_memory_equal(buf + at, data + done, (size_t)rd);
            pr_input_sync(in);
            memset(buf + at, 0xA5, (size_t)rd);
            done += (size_t)rd;
            assert_int_equal(pr_input_offset(in), (long long)done);
        }
        assert_int_equal(pr_input_drain(in, &err), 0);
        char have[PR_DIGEST_HEX];
        pr_input_digest(in, have);
        assert_string_equal(have, want);
        pr_input_close(in);
    }
    /* memory inputs keep the digest on the calling thread */
    pr_input *mem = pr_input_mem("mem", data, 10);
    assert_int_equal(pr_input_async_digest(mem), 0);
    pr_input_close(mem);
    unlink(path);
    free(buf);
    free(data);
}

/* A mapped file cut short by someone else while it is read: the access past its new end ends
 * the process with status 1 and a message naming the file (model/input.c catch_sigbus), not
 * with the signal. In a child process. */
static void test_input_read__window_of_cut_file_exits_cleanly(void **state)
{
    (void)state;
    size_t n = 6u << 20;
    char path[64], errpath[80];
    snprintf(path, sizeof path, "/tmp/pr-input-cut-%ld.bin", (long)getpid());
    snprintf(errpath, sizeof errpath, "%s.err", path);
    FILE *f = fopen(path, "wb");
    unsigned char *data = calloc(1, n);
    fwrite(data, 1, n, f);
    fclose(f);
    free(data);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        freopen(errpath, "w", stderr);
        pr_error err;
        pr_input *in = pr_input_open(path, &err);
        pr_input_set_window(in, 4 << 20);
        size_t len;
        int last;
        const unsigned char *w = pr_input_window(in, 0, &len, &last, &err);
        if (!w || len != (4u << 20))
            _exit(3);
        if (truncate(path, 4096) != 0)
            _exit(4);
        volatile unsigned char x = w[len - 1]; /* past the new end */
        (void)x;
        _exit(5);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 1);
    char msg[512] = {0};
    f = fopen(errpath, "r");
    assert_non_null(f);
    size_t k = fread(msg, 1, sizeof msg - 1, f);
    fclose(f);
    assert_true(k > 0);
    assert_non_null(strstr(msg, "the file was cut short while it was being read"));
    assert_non_null(strstr(msg, path));
    unlink(path);
    unlink(errpath);
}

int main(void)
{
    /* the hashing thread is what is tested, whatever the machine or the caller's setting */
    setenv("PERFREPORT_THREADS", "2", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_input_read__direct_reads_same_bytes_and_digest),
        cmocka_unit_test(test_input_read__async_digest_same),
        cmocka_unit_test(test_input_read__window_of_cut_file_exits_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
