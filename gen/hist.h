/* A log-linear histogram of non-negative ns values (about 1.5% relative error) for the
 * generator's live line and end summary; histograms of the same shape add together. */
#ifndef PR_HIST_H
#define PR_HIST_H
#include <stdint.h>

#define PR_HIST_SUB_BITS 6
#define PR_HIST_BUCKETS ((64 - PR_HIST_SUB_BITS + 1) << PR_HIST_SUB_BITS)

typedef struct pr_hist {
    uint64_t count;
    int64_t max;
    uint64_t b[PR_HIST_BUCKETS];
} pr_hist;

void pr_hist_reset(pr_hist *h);
void pr_hist_add(pr_hist *h, int64_t v);
/* Value at quantile q (0..1): the upper bound of the bucket holding the nearest-rank sample
 * (capped at the maximum seen). 0 when empty. */
int64_t pr_hist_quantile(const pr_hist *h, double q);

#endif
