/* The time-series intervals' one rule, shared by the report model (report_acc.c) and the
 * views' figures (view_stats.c): which interval holds a time, and which one a response
 * completed in. Inline: both call them once or twice per sample. */
#ifndef PR_INTERVAL_H
#define PR_INTERVAL_H
#include "model/sample.h"
#include <stddef.h>
#include <stdint.h>

/* n intervals of `width` ns from t0; inv_width = 1.0 / width. */
typedef struct pr_intervals {
    int64_t t0, width;
    double inv_width;
    size_t n;
} pr_intervals;

/* The interval holding time t (ns since the epoch): its index, -1 when there are no
 * intervals, t is unknown or t is past the last one (times before the first count in it). */
static inline long pr_interval_of(const pr_intervals *iv, int64_t t)
{
    if (!iv->n || t == PR_UNKNOWN)
        return -1;
    int64_t d = t - iv->t0, k;
    if (d < 0)
        return 0;
    if (d < ((int64_t)1 << 52)) { /* a multiplication, corrected, instead of a division */
        k = (int64_t)((double)d * iv->inv_width);
        if (k * iv->width > d)
            k--;
        else if ((k + 1) * iv->width <= d)
            k++;
    } else {
        k = d / iv->width;
    }
    return (size_t)k < iv->n ? (long)k : -1;
}

/* The interval a response completed in (start + latency); ks is the interval of its start,
 * where most responses complete. -1: past the last one. */
static inline long pr_interval_done(const pr_intervals *iv, int64_t start_ns, int64_t latency_ns,
                                    long ks)
{
    if (latency_ns != PR_UNKNOWN && latency_ns > 0) {
        int64_t end = start_ns + latency_ns;
        if (end - iv->t0 >= ((int64_t)ks + 1) * iv->width)
            return pr_interval_of(iv, end);
    }
    return ks;
}

#endif
