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

#endif
