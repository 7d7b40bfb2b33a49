/* The figures behind the store's Grafana views (run_summary, run_series) straight from a run's
 * columns: the headline figures and time series of the report model (analysis/report.c, its
 * default options) without building the model. One scan of the columns they need (two halves
 * of the run's blocks on two threads when two may run, merged in order), each latency kept once
 * (4 or 8 bytes, 4 more when samples come out of time order), the percentiles selected in
 * place per interval and for the run. The same numbers as the model (tests/unit/
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

/* The values at the 1-based ascending ranks rank[0..nr) of v[0..n) into out[0..nr), v
 * reordered (quickselect, linear on average): the order statistics of an unsorted array. */
void pr_select_ranks(int64_t *v, size_t n, const size_t *rank, size_t nr, int64_t *out);

#endif
