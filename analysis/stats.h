/* Exact statistics over series of samples: nearest-rank percentiles over all values, moments,
 * rates with Vegeta's and JMeter's definitions, log-bucket histograms (docs/metrics.md). */
#ifndef PR_STATS_H
#define PR_STATS_H
#include <stddef.h>
#include <stdint.h>
#include "model/sample.h"

/* Sorts n non-negative-or-negative int64 values ascending (LSD radix sort, O(n)). */
void pr_sort_i64(int64_t *v, size_t n);
/* Nearest-rank percentile of sorted values: the smallest value such that at least p% of the
 * values are <= it; p in [0,100]; p = 0 gives the minimum. n must be > 0. */
int64_t pr_percentile_sorted(const int64_t *sorted, size_t n, double p);

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

/* An accumulating series (a run, a label, a time window…). */
typedef struct pr_series {
    int64_t count, successes;
    int64_t unknown;                   /* samples whose outcome is unknown (pr_sample_outcome) */
    int64_t bytes_in, bytes_out;       /* totals over samples that know them */
    int64_t bytes_in_known, bytes_out_known;
    int64_t first_start, last_start;   /* PR_UNKNOWN until seen */
    int64_t max_end;                   /* max(start + latency) */
    int64_t min_start_end;             /* JMeter: first start; (end of the last sample below) */
    pr_vec latency, connect, ttfb;
} pr_series;

void pr_series_init(pr_series *s);
/* outcome: 1 success, 0 failure, -1 unknown (pr_sample_outcome). */
void pr_series_add(pr_series *s, const pr_sample *x, int outcome);
/* Adds all of b into a (merging series is exact). */
void pr_series_merge(pr_series *a, const pr_series *b);
void pr_series_dispose(pr_series *s);

/* Rates of a series, Vegeta's definitions (docs/metrics.md). */
typedef struct pr_rates {
    int64_t duration_ns; /* latest start - earliest start */
    int64_t wait_ns;     /* max end - latest start */
    double rate_per_s;   /* count / duration (count when duration is 0) */
    double throughput_per_s; /* successes / (duration + wait) */
    double jmeter_throughput_per_s; /* count / (last end - first start) */
} pr_rates;

void pr_rates_compute(const pr_series *s, pr_rates *out);

static inline void pr_vec_push(pr_vec *a, int64_t x)
{
    if (a->n == a->cap)
        pr_vec_reserve(a, a->n + 1);
    a->v[a->n++] = x;
}

#endif
