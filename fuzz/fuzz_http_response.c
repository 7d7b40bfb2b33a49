/* Fuzz target: the generator's HTTP response parser, fed the input in chunks whose sizes
 * come from the first bytes, checked against the same input fed whole. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gen/http.h"

static int run(const uint8_t *p, size_t n, const uint8_t *cuts, size_t ncuts, int head,
               pr_http_resp *r, size_t *used)
{
    pr_http_resp_init(r, head);
    size_t at = 0, ci = 0;
    *used = 0;
    while (at < n) {
        size_t len = ncuts ? (size_t)cuts[ci++ % ncuts] + 1 : n - at;
        if (len > n - at)
            len = n - at;
        long u = pr_http_resp_feed(r, (const char *)p + at, len);
        if (u < 0)
            return -1;
        if ((size_t)u > len)
            abort();
        *used += (size_t)u;
        if (pr_http_resp_done(r))
            return 0;
        if ((size_t)u != len)
            abort(); /* not done: everything must be consumed */
        at += len;
    }
    return pr_http_resp_eof(r) == 0 ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    int head = data[0] & 1;
    size_t ncuts = data[1] % 8;
    if (size < 2 + ncuts)
        return 0;
    const uint8_t *cuts = data + 2;
    const uint8_t *p = data + 2 + ncuts;
    size_t n = size - 2 - ncuts;
    pr_http_resp *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    size_t ua, ub;
    int ra = run(p, n, NULL, 0, head, a, &ua);
    int rb = run(p, n, cuts, ncuts, head, b, &ub);
    /* Chunking must not change the outcome. */
    if (ra != rb || a->status != b->status)
        abort();
    if (ra == 0 && (ua != ub || a->body_bytes != b->body_bytes || a->keepalive != b->keepalive))
        abort();
    if (ra < 0 && (!a->error || !b->error || strcmp(a->error, b->error)))
        abort();
    free(a);
    free(b);
    return 0;
}
