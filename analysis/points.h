/* Every sample of a run as (time since start, latency, success) triples, for the
 * latency-over-time chart, which draws each sample rather than an aggregate. */
#ifndef PR_POINTS_H
#define PR_POINTS_H
#include <stddef.h>
#include <stdint.h>
#include "model/error.h"
#include "store/store.h"

/* The points of one stored block, compact: times and latencies as 32-bit offsets from the
 * block's least when they span less than 2^32 ns (4.3 s), else as themselves; the outcomes
 * as bits, only when the block has an error. 8 bytes a point for most runs instead of 17. */
typedef struct pr_points_chunk {
    size_t n;
    int64_t t0_ns, l0_ns;       /* the bases of the offsets */
    uint32_t *dt, *dl;          /* t = t0 + dt[i], latency = l0 + dl[i]; NULL: */
    int64_t *t_ns, *latency_ns; /* the values themselves */
    uint8_t *ok_bits;           /* bit i % 8 of byte i / 8: 1 success, 0 error; NULL: all 1 */
    int64_t tmin_ns, tmax_ns;   /* the times' range */
    int64_t lmin_ns, lmax_ns;   /* the least latency > 0 (INT64_MAX: none), the greatest */
    size_t errors;
} pr_points_chunk;

typedef struct pr_points {
    size_t n;
    int64_t *t_ns;       /* start - run start */
    int64_t *latency_ns; /* -1 when unknown */
    uint8_t *ok;
    int64_t start_ns; /* the run's start */
    uint64_t stride;  /* 1: every sample; k: every k-th (runs above PR_POINTS_MAX) */
    /* pr_points_load_chunks: the points with a known latency by block (n counts them, the
     * arrays above stay NULL) and how many the window held with or without a latency */
    pr_points_chunk *chunks;
    size_t nchunks, chunks_cap, in_window;
} pr_points;

/* Most points loaded: larger runs keep every k-th sample so memory stays bounded (a density
 * chart of 20 million points is indistinguishable from one of all of them). */
#define PR_POINTS_MAX 20000000

/* Loads the run's samples with a known start time (window [from, to) relative to the start
 * when from/to are not PR_UNKNOWN). */
int pr_points_load(pr_store *st, int64_t run_id, int64_t from_ns, int64_t to_ns, pr_points *out,
                   pr_error *err);
/* The same points, those with a known latency only, in compact chunks (out->chunks, in
 * storage order), the blocks decoded on `threads` threads (at most 2; one for runs above
 * PR_POINTS_MAX): the same chunks for any number. */
int pr_points_load_chunks(pr_store *st, int64_t run_id, int64_t from_ns, int64_t to_ns, int threads,
                          pr_points *out, pr_error *err);
void pr_points_dispose(pr_points *p);

#endif
