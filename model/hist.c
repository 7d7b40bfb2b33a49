/* The log-linear histogram: octaves of 512 buckets, allocated over the range seen. */
#include "model/hist.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/xalloc.h"

#define SUB PR_HIST_SUB

void pr_hist_init(pr_hist *h)
{
    memset(h, 0, sizeof *h);
    h->lo_oct = h->hi_oct = -1;
    h->min = INT64_MAX;
    h->max = INT64_MIN;
}

void pr_hist_dispose(pr_hist *h)
{
    free(h->b);
    pr_hist_init(h);
}

void pr_hist_reset(pr_hist *h)
{
    if (h->b)
        memset(h->b, 0, pr_hist_bytes(h));
    h->n = h->negatives = 0;
    h->sum = 0;
    h->sumsq = 0;
    h->sumsq_big = 0;
    h->min = INT64_MAX;
    h->max = INT64_MIN;
}

static int64_t bucket_lo(int oct, int sub)
{
    return oct == 0 ? sub : (int64_t)(((uint64_t)SUB + (uint64_t)sub) << (oct - 1));
}

static int64_t bucket_width(int oct)
{
    return oct == 0 ? 1 : (int64_t)1 << (oct - 1);
}

/* Widens the bucket range to cover octaves [lo, hi] (lo <= hi): one allocation, the new
 * octaves zeroed, the old buckets moved up when the range grows down. */
static void widen_to(pr_hist *h, int lo, int hi)
{
    if (h->lo_oct < 0) {
        h->b = pr_xcalloc((size_t)(hi - lo + 1) * SUB, sizeof *h->b);
        h->lo_oct = lo;
        h->hi_oct = hi;
        return;
    }
    lo = lo < h->lo_oct ? lo : h->lo_oct;
    hi = hi > h->hi_oct ? hi : h->hi_oct;
    if (lo == h->lo_oct && hi == h->hi_oct)
        return;
    size_t old = (size_t)(h->hi_oct - h->lo_oct + 1) * SUB, n = (size_t)(hi - lo + 1) * SUB;
    size_t below = (size_t)(h->lo_oct - lo) * SUB;
    h->b = pr_xrealloc(h->b, n * sizeof *h->b);
    if (below)
        memmove(h->b + below, h->b, old * sizeof *h->b);
    memset(h->b, 0, below * sizeof *h->b);
    memset(h->b + below + old, 0, (n - below - old) * sizeof *h->b);
    h->lo_oct = lo;
    h->hi_oct = hi;
}

void pr_hist_widen(pr_hist *h, int oct)
{
    widen_to(h, oct, oct);
}

/* The octave of a value (pr_hist_add's rule; negatives in octave 0). */
static int octave_of(int64_t x)
{
    if (x < PR_HIST_SUB)
        return 0;
    return 63 - __builtin_clzll((uint64_t)x) - PR_HIST_SUB_BITS + 1;
}

void pr_hist_add_many(pr_hist *h, const int64_t *x, size_t n)
{
    if (!n)
        return;
    int64_t mn = x[0], mx = x[0];
    __int128 sum = 0;
    unsigned __int128 sq = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t v = x[i];
        uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
        sum += v;
        if (u < PR_HIST_SQ_EXACT)
            sq += (unsigned __int128)u * u;
        else
            h->sumsq_big += (long double)v * v; /* in order, as pr_hist_add */
        mn = v < mn ? v : mn;
        mx = v > mx ? v : mx;
    }
    h->n += n;
    h->sum += sum;
    h->sumsq += sq;
    if (mn < h->min)
        h->min = mn;
    if (mx > h->max)
        h->max = mx;
    /* the octave is monotonic in the value: the lot's extremes' octaves bound every other */
    int lo = octave_of(mn), hi = octave_of(mx);
    if (lo < h->lo_oct || hi > h->hi_oct)
        widen_to(h, lo, hi);
    uint64_t *b = h->b;
    int base = h->lo_oct;
    for (size_t i = 0; i < n; i++) {
        int64_t v = x[i];
        if (v < SUB) { /* octave 0 (then lo_oct is 0): exact values, negatives in bucket 0 */
            h->negatives += v < 0;
            b[v < 0 ? 0 : v]++;
            continue;
        }
        int oct = 63 - __builtin_clzll((uint64_t)v) - PR_HIST_SUB_BITS + 1;
        b[(size_t)(oct - base) * SUB + (((uint64_t)v >> (oct - 1)) - SUB)]++;
    }
}

void pr_hist_merge(pr_hist *a, const pr_hist *b)
{
    if (b->lo_oct < 0)
        return;
    widen_to(a, b->lo_oct, b->hi_oct);
    size_t off = (size_t)(b->lo_oct - a->lo_oct) * SUB;
    size_t nb = (size_t)(b->hi_oct - b->lo_oct + 1) * SUB;
    for (size_t i = 0; i < nb; i++)
        a->b[off + i] += b->b[i];
    a->n += b->n;
    a->sum += b->sum;
    a->sumsq += b->sumsq;
    a->sumsq_big += b->sumsq_big;
    a->negatives += b->negatives;
    if (b->min < a->min)
        a->min = b->min;
    if (b->max > a->max)
        a->max = b->max;
}

long double pr_hist_sum(const pr_hist *h)
{
    return (long double)h->sum;
}

long double pr_hist_sumsq(const pr_hist *h)
{
    return (long double)h->sumsq + h->sumsq_big;
}

int64_t pr_hist_percentile(const pr_hist *h, double p)
{
    if (!h->n)
        return 0;
    if (p <= 0)
        return h->min;
    if (p >= 100)
        return h->max;
    long double r = (long double)p * (long double)h->n / 100.0L;
    uint64_t rank = (uint64_t)ceill(r - 1e-9L);
    if (rank < 1)
        rank = 1;
    uint64_t seen = 0;
    size_t nb = (size_t)(h->hi_oct - h->lo_oct + 1) * SUB;
    for (size_t i = 0; i < nb; i++) {
        seen += h->b[i];
        if (seen >= rank) {
            int oct = h->lo_oct + (int)(i / SUB), sub = (int)(i % SUB);
            int64_t v = bucket_lo(oct, sub) + bucket_width(oct) / 2;
            return v < h->min ? h->min : v > h->max ? h->max : v;
        }
    }
    return h->max;
}

uint64_t pr_hist_count_below(const pr_hist *h, int64_t x)
{
    uint64_t c = 0;
    size_t nb = h->lo_oct < 0 ? 0 : (size_t)(h->hi_oct - h->lo_oct + 1) * SUB;
    for (size_t i = 0; i < nb; i++) {
        int oct = h->lo_oct + (int)(i / SUB), sub = (int)(i % SUB);
        if (bucket_lo(oct, sub) >= x)
            break;
        c += h->b[i];
    }
    return c;
}

size_t pr_hist_bytes(const pr_hist *h)
{
    return h->lo_oct < 0 ? 0 : (size_t)(h->hi_oct - h->lo_oct + 1) * SUB * sizeof *h->b;
}
