/* Unit tests: the producer-consumer queue of buffer copies (model/blockq.h): order, copies
 * (the producer's buffer reused at once), meta, a failure that stops the queue, drain, and a
 * free that drops what is queued. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/blockq.h"

typedef struct seen {
    size_t n, bytes;
    uint64_t sum; /* of every byte, position-weighted: order and content */
    int fail_at;  /* take fails on this buffer (-1: never) */
    int slow;     /* take sleeps, so puts wait for free slots */
    int ended;
    int64_t last_meta; /* the meta of the last buffer taken */
} seen;

static int take(void *ctx, const unsigned char *p, size_t len, const void *meta)
{
    seen *s = ctx;
    if ((int)s->n == s->fail_at)
        return -7;
    if (s->slow)
        usleep(200);
    for (size_t i = 0; i < len; i++)
        s->sum = s->sum * 31 + p[i];
    memcpy(&s->last_meta, meta, sizeof s->last_meta);
    s->n++;
    s->bytes += len;
    return 0;
}

static void end(void *ctx)
{
    ((seen *)ctx)->ended = 1;
}

static const pr_blockq_ops ops = {take, end};

/* The expected sum of buffers 0..n-1 as put below. */
static uint64_t expect_sum(size_t n)
{
    uint64_t sum = 0;
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < k % 300 + 1; i++)
            sum = sum * 31 + (unsigned char)(k + i);
    return sum;
}

static int put_all(pr_blockq *q, size_t n)
{
    unsigned char buf[300];
    for (size_t k = 0; k < n; k++) {
        size_t len = k % 300 + 1;
        for (size_t i = 0; i < len; i++)
            buf[i] = (unsigned char)(k + i);
        int64_t meta = (int64_t)k;
        int rc = pr_blockq_put(q, buf, len, &meta);
        memset(buf, 0xEE, sizeof buf); /* the queue holds its own copy */
        if (rc)
            return rc;
    }
    return 0;
}

static void test_blockq__order_and_copies(void **st)
{
    for (int slow = 0; slow <= 1; slow++) {
        seen s = {.fail_at = -1, .slow = slow};
        pr_blockq *q = pr_blockq_new(3, sizeof(int64_t), &ops, &s);
        assert_non_null(q);
        size_t n = slow ? 500 : 20000;
        assert_int_equal(put_all(q, n), 0);
        assert_int_equal(pr_blockq_drain(q), 0);
        assert_int_equal(s.n, n);
        assert_int_equal(s.sum, expect_sum(n));
        assert_int_equal(s.last_meta, (int64_t)n - 1);
        pr_blockq_free(q);
        assert_true(s.ended);
    }
}

static void test_blockq__failure_stops(void **st)
{
    seen s = {.fail_at = 100};
    pr_blockq *q = pr_blockq_new(4, sizeof(int64_t), &ops, &s);
    assert_int_equal(put_all(q, 1000), -7); /* a put after the failure returns it */
    assert_int_equal(pr_blockq_drain(q), -7);
    assert_int_equal(s.n, 100); /* nothing taken after it */
    assert_int_equal(s.sum, expect_sum(100));
    pr_blockq_free(q);
}

static void test_blockq__free_drops_and_limits(void **st)
{
    seen s = {.fail_at = -1, .slow = 1};
    pr_blockq *q = pr_blockq_new(2, sizeof(int64_t), &ops, &s);
    assert_int_equal(put_all(q, 50), 0);
    pr_blockq_free(q); /* no drain: what is queued is dropped */
    assert_true(s.n <= 50);
    assert_true(s.ended);
    assert_null(pr_blockq_new(0, 0, &ops, &s));
    assert_null(pr_blockq_new(PR_BLOCKQ_DEPTH_MAX + 1, 0, &ops, &s));
    assert_null(pr_blockq_new(2, PR_BLOCKQ_META_MAX + 1, &ops, &s));
    pr_blockq_free(NULL);
}

/* pr_blockq_put_swap: the caller's buffers travel without a copy, each comes back for reuse,
 * mixed with copied puts, in order; after a free nothing leaks (ASan). */
static void test_blockq__swap(void **st)
{
    seen s = {.fail_at = -1};
    pr_blockq *q = pr_blockq_new(3, sizeof(int64_t), &ops, &s);
    unsigned char *buf = malloc(300);
    for (size_t k = 0; k < 2000; k++) {
        size_t len = k % 300 + 1;
        for (size_t i = 0; i < len; i++)
            buf[i] = (unsigned char)(k + i);
        int64_t meta = (int64_t)k;
        if (k % 3) {
            void *b = buf;
            assert_int_equal(pr_blockq_put_swap(q, &b, 300, len, &meta), 0);
            assert_non_null(b);
            assert_ptr_not_equal(b, buf); /* the slot's buffer now, the old one queued */
            buf = b;
        } else {
            assert_int_equal(pr_blockq_put(q, buf, len, &meta), 0);
        }
    }
    assert_int_equal(pr_blockq_drain(q), 0);
    assert_int_equal(s.n, 2000);
    assert_int_equal(s.sum, expect_sum(2000));
    pr_blockq_free(q);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blockq__order_and_copies),
        cmocka_unit_test(test_blockq__failure_stops),
        cmocka_unit_test(test_blockq__free_drops_and_limits),
        cmocka_unit_test(test_blockq__swap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
