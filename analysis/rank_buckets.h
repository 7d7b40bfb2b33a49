/* Exact order statistics of a large set in two linear passes instead of a selection over all
 * of it: the first counts the values' log-linear buckets, the second collects the values of the
 * few buckets that hold the wanted ranks, then each rank is selected among those. Used by the
 * views' run percentiles (analysis/view_stats.c) and ab's column medians and percentage table
 * (analysis/ab_stats.c). Caller-owned struct; init, count every value, plan, collect every value
 * again (when the plan says so), values, dispose. */
#ifndef PR_RANK_BUCKETS_H
#define PR_RANK_BUCKETS_H
#include <stddef.h>
#include <stdint.h>

/* 128 buckets per power of two above 256, each value below; every negative value in bucket 0:
 * in the order of the values. */
#define PR_RB_SUB_BITS 7
#define PR_RB_BUCKETS (2 + (64 << PR_RB_SUB_BITS))
#define PR_RB_MAX 16 /* ranks one plan takes */

typedef struct pr_rank_buckets {
    uint64_t *hist;   /* PR_RB_BUCKETS counts */
    uint8_t *slot_of; /* after a plan that collects: bucket -> slot + 1 (0: not wanted) */
    size_t nr, rank_in[PR_RB_MAX], slot[PR_RB_MAX], nslots;
    int64_t *cand[PR_RB_MAX]; /* a slot's values, collected: [0, ncand) and [top, size) */
    size_t ncand[PR_RB_MAX], top[PR_RB_MAX], size[PR_RB_MAX];
    int collect; /* the plan's answer */
} pr_rank_buckets;

static inline uint32_t pr_rank_bucket(int64_t v)
{
    if (v < 0)
        return 0;
    uint64_t u = (uint64_t)v;
    if (u < (2u << PR_RB_SUB_BITS))
        return 1 + (uint32_t)u;
    int e = 63 - __builtin_clzll(u);
    return 1 + ((uint32_t)(e - PR_RB_SUB_BITS) << PR_RB_SUB_BITS) +
           (uint32_t)(u >> (e - PR_RB_SUB_BITS));
}

void pr_rank_buckets_init(pr_rank_buckets *rb);
static inline void pr_rank_buckets_count(pr_rank_buckets *rb, int64_t v)
{
    rb->hist[pr_rank_bucket(v)]++;
}
/* Adds b's counts into a (two parts of one set counted apart). */
void pr_rank_buckets_merge(pr_rank_buckets *a, const pr_rank_buckets *b);
/* For the 1-based ascending ranks rank[0..nr) (nr <= PR_RB_MAX) among the n values counted:
 * 1 when their buckets hold few enough values to collect (at most a quarter of them and
 * 64 Mi), then every value is to be passed to pr_rank_buckets_collect; 0: the caller selects
 * among all the values itself. */
int pr_rank_buckets_plan(pr_rank_buckets *rb, const size_t *rank, size_t nr, size_t n);
static inline void pr_rank_buckets_collect(pr_rank_buckets *rb, int64_t v)
{
    uint8_t s = rb->slot_of[pr_rank_bucket(v)];
    if (s)
        rb->cand[s - 1][rb->ncand[s - 1]++] = v;
}
/* pr_rank_buckets_collect from the other end of each slot's array: a second thread may
 * collect a part of the values so while the first collects the rest the usual way. */
static inline void pr_rank_buckets_collect_top(pr_rank_buckets *rb, int64_t v)
{
    uint8_t s = rb->slot_of[pr_rank_bucket(v)];
    if (s)
        rb->cand[s - 1][--rb->top[s - 1]] = v;
}
/* After a plan that collects and the collecting pass: the values at the plan's ranks into
 * out[0..nr) (the candidates reordered). */
void pr_rank_buckets_values(pr_rank_buckets *rb, int64_t *out);
void pr_rank_buckets_dispose(pr_rank_buckets *rb);

#endif
