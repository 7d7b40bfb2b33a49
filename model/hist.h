/* The project's one log-linear histogram of int64 values (durations in ns), used by bounded
 * statistics (analysis/vals.c) and by the load generator's live figures (gen/).
 *
 * Precision: values 0..511 are counted exactly; above, every power of two is split into 512
 * buckets (PR_HIST_SUB_BITS = 9), so a bucket's midpoint is within 2^-10 (0.098%) of any
 * value in it. Quantiles report that midpoint, clamped to the exact minimum and maximum.
 * Count, minimum, maximum, sum and sum of squares are exact: both sums are integers (the
 * squares of values from 2^42 ns, 73 minutes, summed apart in a long double), so adding
 * a value is a few integer instructions. Negative values are counted (n, min, sum) and kept in
 * bucket 0. Buckets exist only over the octaves seen (4 KiB each:
 * a few tens of KiB for a run from microseconds to seconds). Histograms add together. */
#ifndef PR_HIST_H
#define PR_HIST_H
#include <stddef.h>
#include <stdint.h>

#define PR_HIST_SUB_BITS 9
#define PR_HIST_SUB (1 << PR_HIST_SUB_BITS) /* buckets per octave */
/* Values below this (73 minutes in ns) have a square below 2^84, summed exactly in 128 bits:
 * 2^44 of them before the sum could overflow. */
#define PR_HIST_SQ_EXACT ((uint64_t)1 << 42)

typedef struct pr_hist {
    uint64_t *b;        /* buckets of octaves [lo_oct, hi_oct], NULL when empty */
    int lo_oct, hi_oct; /* -1 when empty */
    uint64_t n;
    int64_t min, max;        /* INT64_MAX / INT64_MIN when empty */
    __int128 sum;            /* of every value */
    unsigned __int128 sumsq; /* of the squares of values with |x| < 2^42 */
    long double sumsq_big;   /* of the squares of the others */
    uint64_t negatives;      /* values < 0 */
} pr_hist;

/* Prepares an empty histogram (caller-owned struct; pr_hist_dispose frees its buckets). */
void pr_hist_init(pr_hist *h);
void pr_hist_dispose(pr_hist *h);
/* Empties h, keeping its buckets allocated. */
void pr_hist_reset(pr_hist *h);
/* Widens h's buckets to cover octave oct (pr_hist_add's rare case: a value out of the
 * octaves seen so far). */
void pr_hist_widen(pr_hist *h, int oct);

/* Counts x. Inline: the bounded scans add a value or two per sample, and a call costs as much
 * as the rest. Octave 0 holds 0..PR_HIST_SUB-1 exactly, octave k (k >= 1) holds
 * [PR_HIST_SUB << (k-1), PR_HIST_SUB << k) in PR_HIST_SUB buckets of width 2^(k-1). */
static inline void pr_hist_add(pr_hist *h, int64_t x)
{
    h->n++;
    h->sum += x;
    uint64_t u = x < 0 ? -(uint64_t)x : (uint64_t)x;
    if (u < PR_HIST_SQ_EXACT)
        h->sumsq += (unsigned __int128)u * u;
    else
        h->sumsq_big += (long double)x * x;
    if (x < h->min)
        h->min = x;
    if (x > h->max)
        h->max = x;
    int oct = 0;
    uint64_t sub = 0;
    if (x < 0) {
        h->negatives++; /* kept in bucket 0 */
    } else if (u < PR_HIST_SUB) {
        sub = u;
    } else {
        oct = 63 - __builtin_clzll(u) - PR_HIST_SUB_BITS + 1; /* >= 1 */
        sub = (u >> (oct - 1)) - PR_HIST_SUB;                 /* 0..PR_HIST_SUB-1 */
    }
    if (oct < h->lo_oct || oct > h->hi_oct)
        pr_hist_widen(h, oct);
    h->b[(size_t)(oct - h->lo_oct) * PR_HIST_SUB + sub]++;
}
/* Counts x[0..n) as n pr_hist_add calls in that order would, byte for byte (the squares from
 * 2^42 are summed in the same order), but widens the buckets once for the lot: for a caller
 * that stages a histogram's values and adds them while its buckets are in cache. */
void pr_hist_add_many(pr_hist *h, const int64_t *x, size_t n);
/* The sum of the values and of their squares (exact up to the long double's 64-bit mantissa). */
long double pr_hist_sum(const pr_hist *h);
long double pr_hist_sumsq(const pr_hist *h);
/* a += b (b unchanged). */
void pr_hist_merge(pr_hist *a, const pr_hist *b);
/* Nearest-rank percentile, p in 0..100 (0: the minimum, 100: the maximum); 0 when empty. */
int64_t pr_hist_percentile(const pr_hist *h, double p);
/* Number of values < x, at bucket granularity (a bucket counts when it starts below x). */
uint64_t pr_hist_count_below(const pr_hist *h, int64_t x);
/* Bytes of bucket storage. */
size_t pr_hist_bytes(const pr_hist *h);

#endif
