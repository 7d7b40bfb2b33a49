/* The tables behind the store's Grafana views (run_summary, run_series): a run's headline
 * figures and time series, as the report model computes them, written after it changes. */
#ifndef PR_CLI_VIEWS_H
#define PR_CLI_VIEWS_H
#include <stddef.h>
#include <stdint.h>
#include "store/store.h"

/* Recomputes and stores the figures of each run in ids (duplicates are done once). Prints
 * errors; returns 0 or PR_EXIT_ERROR. */
int pr_cli_update_views(pr_store *st, const int64_t *ids, size_t n);

/* A run's figures computed while its ingest stored it (analysis/view_stats.h's feed), to be
 * stored instead of computed again if the run is still as it was then. */
typedef struct pr_cli_view_ready {
    int64_t id, start_ns, end_ns;
    pr_store_stats s;       /* s.basis_samples: the run's samples then */
    pr_store_point *points; /* s.points, malloc'd */
} pr_cli_view_ready;

struct pr_view_feed;
/* Just after the commit of run `id`: its figures from the feed of its ingest into *out, 1;
 * 0 when the feed cannot give them (nothing filled). */
int pr_cli_view_ready_from(pr_store *st, int64_t id, struct pr_view_feed *feed,
                           pr_cli_view_ready *out);
/* pr_cli_update_views, taking the figures of ready[0..nready) for their runs where they are
 * still the run's; frees their points. */
int pr_cli_update_views_ready(pr_store *st, const int64_t *ids, size_t n, pr_cli_view_ready *ready,
                              size_t nready);

#endif
