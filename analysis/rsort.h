/* In-place radix sorts of int64 (and unsigned 32-bit) keys, optionally carrying a 16- or 32-bit payload per key (the
 * cell of a sample: analysis/report.c): most significant digit first, the permutation done
 * in place (American flag sort), ranges that fit in cache finished least significant digit
 * first through a small per-thread buffer. Memory beyond the arrays stays constant (a few
 * hundred KB per thread), so a sort of 10 million values never needs a second copy of them.
 * The _par variants sort the top-level buckets on up to `threads` threads. Not stable. */
#ifndef PR_RSORT_H
#define PR_RSORT_H
#include <stddef.h>
#include <stdint.h>

void pr_rsort_i64(int64_t *key, size_t n);
void pr_rsort_i64_u16(int64_t *key, uint16_t *payload, size_t n);
void pr_rsort_i64_u32(int64_t *key, uint32_t *payload, size_t n);
void pr_rsort_i64_par(int64_t *key, size_t n, int threads);
void pr_rsort_i64_u16_par(int64_t *key, uint16_t *payload, size_t n, int threads);
void pr_rsort_i64_u32_par(int64_t *key, uint32_t *payload, size_t n, int threads);

/* Sorts each range [bounds[r], bounds[r + 1]), r < nranges, the ranges shared between threads
 * (analysis/cellsort.c, whose values arrive already bucketed). */
void pr_rsort_i64_ranges(int64_t *key, const size_t *bounds, size_t nranges, int threads);
void pr_rsort_i64_u16_ranges(int64_t *key, uint16_t *payload, const size_t *bounds, size_t nranges,
                             int threads);
void pr_rsort_i64_u32_ranges(int64_t *key, uint32_t *payload, const size_t *bounds, size_t nranges,
                             int threads);
/* The same for unsigned 32-bit keys (analysis/cellsort.c keeps the low half of values whose
 * high half their range shares). */
void pr_rsort_u32_u16_ranges(uint32_t *key, uint16_t *payload, const size_t *bounds, size_t nranges,
                             int threads);
void pr_rsort_u32_u32_ranges(uint32_t *key, uint32_t *payload, const size_t *bounds, size_t nranges,
                             int threads);
void pr_rsort_u32_u16(uint32_t *key, uint16_t *payload, size_t n); /* for tests */

/* The most significant digit the sorts use, monotonic in u (a key minus the smallest, or any
 * non-negative value): u itself below 64, else its octave and the 6 bits below the leading
 * one, 64 buckets per octave; below PR_RSORT_BUCKETS. */
#define PR_RSORT_BUCKETS 3776u
static inline size_t pr_rsort_bucket(uint64_t u)
{
    if (u < 64)
        return (size_t)u;
    unsigned msb = 63 - (unsigned)__builtin_clzll(u);
    return (size_t)(msb - 5) << 6 | (size_t)(u >> (msb - 6) & 63);
}


#endif
