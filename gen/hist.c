/* Log-linear histogram for the generator's running percentiles. */
#include "gen/hist.h"
#include <math.h>
#include <string.h>

void pr_hist_reset(pr_hist *h)
{
    memset(h, 0, sizeof *h);
}

static unsigned bucket_of(uint64_t v)
{
    if (v < (1u << PR_HIST_SUB_BITS))
        return (unsigned)v;
    unsigned msb = 63u - (unsigned)__builtin_clzll(v);
    unsigned shift = msb - PR_HIST_SUB_BITS;
    unsigned sub = (unsigned)(v >> shift) & ((1u << PR_HIST_SUB_BITS) - 1);
    return ((shift + 1) << PR_HIST_SUB_BITS) | sub;
}

static uint64_t bucket_high(unsigned b)
{
    unsigned e = b >> PR_HIST_SUB_BITS, sub = b & ((1u << PR_HIST_SUB_BITS) - 1);
    if (e == 0)
        return sub;
    unsigned shift = e - 1;
    uint64_t lo = ((uint64_t)(sub | (1u << PR_HIST_SUB_BITS))) << shift;
    return lo + ((uint64_t)1 << shift) - 1;
}

void pr_hist_add(pr_hist *h, int64_t v)
{
    if (v < 0)
        v = 0;
    h->b[bucket_of((uint64_t)v)]++;
    h->count++;
    if (v > h->max)
        h->max = v;
}

int64_t pr_hist_quantile(const pr_hist *h, double q)
{
    if (h->count == 0)
        return 0;
    uint64_t rank = (uint64_t)ceil(q * (double)h->count);
    if (rank < 1)
        rank = 1;
    uint64_t seen = 0;
    for (unsigned i = 0; i < PR_HIST_BUCKETS; i++) {
        seen += h->b[i];
        if (seen >= rank) {
            uint64_t hi = bucket_high(i);
            return hi > (uint64_t)h->max ? h->max : (int64_t)hi;
        }
    }
    return h->max;
}
