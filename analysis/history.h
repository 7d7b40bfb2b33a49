/* A history (runs in order, e.g. builds) tested run by run with the distributions: each run
 * against the one before it and against the first, with the test `compare` uses for the
 * metric (method: docs/metrics.md, "Trends"). */
#ifndef PR_HISTORY_H
#define PR_HISTORY_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "analysis/compare.h"
#include "model/error.h"
#include "store/store.h"

/* *out: an array of n objects {"vs_previous": diff|null, "vs_first": diff|null} (diff as
 * pr_compare_metric returns it; null for the first run). At most three runs' samples are held
 * at once. Returns 0, or a negative code with err set. */
int pr_history_steps(pr_store *st, const int64_t *ids, size_t n, const char *metric,
                     const pr_compare_opts *o, json_t **out, pr_error *err);

#endif
