/* Test helper: random samples, native streams in memory, sample comparison. */
#include "tests/unit/lib/gen.h"
#include "model/native.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static int64_t maybe(uint64_t *r, int64_t v)
{
    return next(r) % 10 == 0 ? PR_UNKNOWN : v;
}

void gen_samples(pr_run *run, pr_sample *s, size_t n, uint64_t seed)
{
    uint64_t r = seed * 2654435761u + 88172645463325252ull;
    static const char *const labels[] = {"GET /", "POST /api/items", "登录", "Запрос", "a|b<script>"};
    static const char *const errors[] = {"connection refused", "500 Internal Server Error",
                                         "timeout after 30000 ms"};
    int64_t t = 1796051469000000000LL;
    for (size_t i = 0; i < n; i++) {
        pr_sample *x = &s[i];
        pr_sample_init(x);
        t += (int64_t)(next(&r) % 3000000);
        x->start_ns = next(&r) % 50 == 0 ? PR_UNKNOWN : t - (int64_t)(next(&r) % 100000);
        x->latency_ns = maybe(&r, (int64_t)(next(&r) % 5000000000ull));
        x->connect_ns = maybe(&r, (int64_t)(next(&r) % 1000) * 1000);
        x->ttfb_ns = maybe(&r, (int64_t)(next(&r) % 100000000));
        x->lateness_ns = next(&r) % 2 ? PR_UNKNOWN : -(int64_t)(next(&r) % 1000);
        x->bytes_in = maybe(&r, (int64_t)(next(&r) % 70000));
        x->bytes_out = maybe(&r, (int64_t)(next(&r) % 100));
        const char *l = labels[next(&r) % 5];
        x->label = pr_run_intern(run, l, strlen(l));
        x->method = pr_run_intern(run, next(&r) % 2 ? "GET" : "POST", next(&r) % 2 ? 3 : 4);
        char url[64];
        snprintf(url, sizeof url, "http://127.0.0.1/%u", (unsigned)(next(&r) % 300));
        x->url = pr_run_intern(run, url, strlen(url));
        if (next(&r) % 7 == 0) {
            const char *e = errors[next(&r) % 3];
            x->error = pr_run_intern(run, e, strlen(e));
        }
        x->threads = (int32_t)(next(&r) % 60) - 1;
        x->status = (uint16_t)(next(&r) % 8 == 0 ? 0 : 200 + next(&r) % 400);
        x->success = (uint8_t)(next(&r) % 3);
        x->flags = (uint8_t)(next(&r) % 8);
    }
}

char *gen_native(pr_run *run, const pr_sample *s, size_t n, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    pr_error err;
    pr_native_writer *w = pr_native_writer_new(f, run, &err);
    for (size_t i = 0; i < n; i += 1000) {
        size_t k = n - i < 1000 ? n - i : 1000;
        pr_native_writer_push(w, run, s + i, k, &err);
    }
    pr_native_writer_close(w, run, &err);
    fclose(f);
    return buf;
}

int sample_equal(const pr_run *ra, const pr_sample *a, const pr_run *rb, const pr_sample *b)
{
    return a->start_ns == b->start_ns && a->latency_ns == b->latency_ns &&
           a->connect_ns == b->connect_ns && a->ttfb_ns == b->ttfb_ns &&
           a->lateness_ns == b->lateness_ns && a->bytes_in == b->bytes_in &&
           a->bytes_out == b->bytes_out && a->threads == b->threads && a->status == b->status &&
           a->success == b->success && a->flags == b->flags &&
           !strcmp(pr_run_str(ra, a->label), pr_run_str(rb, b->label)) &&
           !strcmp(pr_run_str(ra, a->url), pr_run_str(rb, b->url)) &&
           !strcmp(pr_run_str(ra, a->method), pr_run_str(rb, b->method)) &&
           !strcmp(pr_run_str(ra, a->error), pr_run_str(rb, b->error)) &&
           !strcmp(pr_run_str(ra, a->thread), pr_run_str(rb, b->thread)) &&
           !strcmp(pr_run_str(ra, a->attrs), pr_run_str(rb, b->attrs));
}

char *gen_stream(pr_run *run, pr_sample *s, size_t n, uint64_t seed, size_t *len)
{
    gen_samples(run, s, n, seed);
    return gen_native(run, s, n, len);
}
