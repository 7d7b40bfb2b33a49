/* A set of durations for statistics, kept exactly (every value, sorted on demand) or, in
 * bounded mode, in the project's log-linear histogram (model/hist.h: percentiles within 0.1%
 * of the exact value, a value reporting its bucket's midpoint clamped to the exact min and
 * max). Counts, min, max, sum and mean stay exact in both modes. */
#ifndef PR_VALS_H
#define PR_VALS_H
#include <stddef.h>
#include <stdint.h>
#include "analysis/vec.h"
#include "model/hist.h"

typedef struct pr_vals {
    int bounded;
    int sorted;
    pr_vec v;  /* exact mode */
    pr_hist h; /* bounded mode */
} pr_vals;

void pr_vals_init(pr_vals *s, int bounded);
/* Adds x (inline: a bounded scan's per-sample step). */
static inline void pr_vals_add(pr_vals *s, int64_t x)
{
    if (!s->bounded) {
        pr_vec_push(&s->v, x);
        s->sorted = 0;
        return;
    }
    pr_hist_add(&s->h, x);
}
/* Adds x[0..n) as n pr_vals_add calls in that order would (bounded: pr_hist_add_many). */
void pr_vals_add_many(pr_vals *s, const int64_t *x, size_t n);
size_t pr_vals_count(const pr_vals *s);
/* Prepares for queries (sorts in exact mode). */
void pr_vals_finish(pr_vals *s);
/* Nearest-rank percentile (after finish); count must be > 0. */
int64_t pr_vals_percentile(const pr_vals *s, double p);
/* count, min, max, mean, stdev (finishes the set). */
void pr_vals_dist(pr_vals *s, pr_dist *out);
/* Number of values < x (after finish; bounded: at bucket granularity). */
size_t pr_vals_count_below(const pr_vals *s, int64_t x);
/* Turns an exact set into a bounded one holding the same values (no-op when bounded). */
void pr_vals_make_bounded(pr_vals *s);
void pr_vals_merge(pr_vals *a, const pr_vals *b);
void pr_vals_dispose(pr_vals *s);
/* Bytes the set holds (for the bounded-mode memory claim). */
size_t pr_vals_bytes(const pr_vals *s);

#endif
