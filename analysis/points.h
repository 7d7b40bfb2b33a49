/* Every sample of a run as (time since start, latency, success) triples, for the
 * latency-over-time chart, which draws each sample rather than an aggregate. */
#ifndef PR_POINTS_H
#define PR_POINTS_H
#include <stddef.h>
#include <stdint.h>
#include "model/error.h"
#include "store/store.h"

typedef struct pr_points {
    size_t n;
    int64_t *t_ns;       /* start - run start */
    int64_t *latency_ns; /* -1 when unknown */
    uint8_t *ok;
    int64_t start_ns; /* the run's start */
    uint64_t stride;  /* 1: every sample; k: every k-th (runs above PR_POINTS_MAX) */
} pr_points;

/* Most points loaded: larger runs keep every k-th sample so memory stays bounded (a density
 * chart of 20 million points is indistinguishable from one of all of them). */
#define PR_POINTS_MAX 20000000

/* Loads the run's samples with a known start time (window [from, to) relative to the start
 * when from/to are not PR_UNKNOWN). */
int pr_points_load(pr_store *st, int64_t run_id, int64_t from_ns, int64_t to_ns, pr_points *out,
                   pr_error *err);
void pr_points_dispose(pr_points *p);

#endif
