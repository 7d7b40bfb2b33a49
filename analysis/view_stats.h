/* The figures behind the store's Grafana views (run_summary, run_series) straight from a run's
 * columns: the headline figures and time series of the report model (analysis/report.c, its
 * default options) without building the model. One scan of the columns they need (two halves
 * of the run's blocks on two threads when two may run, merged in order), each latency kept once
 * (4 or 8 bytes, 4 more when samples come out of time order), the percentiles selected per
 * interval (pr_select_ranks_u32) and for the run (analysis/rank_buckets.h). The same numbers as the model (tests/unit/
 * test_view_stats.c compares them on random data). */
#ifndef PR_VIEW_STATS_H
#define PR_VIEW_STATS_H
#include <stddef.h>
#include <stdint.h>
#include "model/error.h"
#include "store/store.h"

/* Fills *s (all but basis_samples) and *points (malloc'd, s->points = *points) from the
 * samples of run (loaded by pr_store_load_run) in st. Returns 1 when done; 0 when the figures
 * need the whole model (a summary-only run, a run with a tool's printed summary beside its
 * samples, a run analysed in bounded mode): nothing is filled; PR_ESTORE. */
int pr_view_stats(pr_store *st, const pr_run *run, pr_store_stats *s, pr_store_point **points,
                  pr_error *err);

/* The same figures computed while an ingest stores a run's native blocks (an observer of
 * the ingest, store.h), so they need not be read back after the commit: on a second thread
 * when two may run, from the run the input declares before its samples (the native footer).
 * Owned by the caller: new, then pr_view_feed_block for each stored block, then after the
 * commit pr_view_feed_finish with the run as stored, then free. */
typedef struct pr_view_feed pr_view_feed;
pr_view_feed *pr_view_feed_new(void);
/* pr_ingest_observer's signature; payload: the feed. */
void pr_view_feed_block(const pr_run *run, const pr_sink *sink, const pr_block_cols *cols,
                        const unsigned char *raw, size_t len, void *payload);
/* Fills *s and *points as pr_view_stats when the feed saw exactly the samples of `run` (as
 * loaded after the commit) and the run's intervals are the declared run's: 1. Else 0,
 * nothing filled (an input that declared nothing or something else, a run that had samples
 * before, one the views take from the model): the caller calls pr_view_stats. Once only. */
int pr_view_feed_finish(pr_view_feed *f, const pr_run *run, pr_store_stats *s,
                        pr_store_point **points);
void pr_view_feed_free(pr_view_feed *f); /* NULL: nothing */

/* The values at the 1-based ascending ranks rank[0..nr) of v[0..n) into out[0..nr), v
 * reordered (quickselect, linear on average): the order statistics of an unsorted array. */
void pr_select_ranks(int64_t *v, size_t n, const size_t *rank, size_t nr, int64_t *out);
/* The same for 32-bit values, v reordered or not: from n = PR_RANKS_HIST_MIN on (and for at
 * most PR_RANKS_MAX ranks), one pass for the least and greatest value, one counting 2,048 equal
 * buckets of [least, greatest], one gathering the values of the ranks' buckets, and a
 * selection among those only (a quickselect's partitions mispredict a branch a value or so:
 * 2.5x less CPU on the intervals of a 10 M-sample ingest); below, quickselect. */
#define PR_RANKS_MAX 16
#define PR_RANKS_HIST_MIN 1024
void pr_select_ranks_u32(uint32_t *v, size_t n, const size_t *rank, size_t nr, int64_t *out);

#endif
