/* Growable arrays of int64, sorting, nearest-rank percentiles and distributions: the base
 * the statistics (stats.h) and value sets (vals.h) share. */
#ifndef PR_VEC_H
#define PR_VEC_H
#include <stddef.h>
#include <stdint.h>
#include "model/sample.h"

/* Sorts n non-negative-or-negative int64 values ascending (LSD radix sort, O(n)). */
void pr_sort_i64(int64_t *v, size_t n);
/* Nearest-rank percentile of sorted values: the smallest value such that at least p% of the
 * values are <= it; p in [0,100]; p = 0 gives the minimum. n must be > 0. */
int64_t pr_percentile_sorted(const int64_t *sorted, size_t n, double p);
/* The 1-based rank pr_percentile_sorted reads: 1 for p <= 0, n for p >= 100, else
 * ceil(p/100 * n) within [1, n]. n must be > 0. */
size_t pr_percentile_rank(size_t n, double p);

/* A growable array of int64 values. */
typedef struct pr_vec {
    int64_t *v;
    size_t n, cap;
} pr_vec;

static inline void pr_vec_push(pr_vec *a, int64_t x);
void pr_vec_reserve(pr_vec *a, size_t need);
void pr_vec_dispose(pr_vec *a);

/* Summary of a set of durations (ns). */
typedef struct pr_dist {
    int64_t count;
    int64_t min, max;
    double mean, stdev; /* population standard deviation */
    int64_t sum;
} pr_dist;

/* Computes the distribution of v (sorts v in place). count 0 leaves fields at PR_UNKNOWN. */
void pr_dist_compute(pr_vec *v, pr_dist *out);

static inline void pr_vec_push(pr_vec *a, int64_t x)
{
    if (a->n == a->cap)
        pr_vec_reserve(a, a->n + 1);
    a->v[a->n++] = x;
}

#endif
