/* In-place radix sorts of int64 keys, optionally carrying a 16- or 32-bit payload per key (the
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

/* Threads worth using for analysis: the online processors, at most 2 (the machines this runs
 * on share their cores; PERFREPORT_THREADS overrides, 1 turns threading off). */
int pr_rsort_threads(void);

#endif
