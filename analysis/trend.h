/* A trend: one metric over a history of stored runs, in the order of a tag (numeric-aware) or
 * of the runs' starts, with each step tested on the samples (analysis/history.h) and the
 * change points of the one-value-per-run series (analysis/changepoint.h). The document is what
 * `perfreport trend --json` prints (schema "perfreport-trend"). Method: docs/metrics.md. */
#ifndef PR_TREND_H
#define PR_TREND_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "analysis/changepoint.h"
#include "model/error.h"
#include "store/store.h"

typedef struct pr_trend_metric {
    const char *name; /* as typed: p99, p99.9, throughput … */
    const char *key;  /* the stats key (the latency_ns key for a latency) */
    int latency;      /* a duration in latency_ns */
    int higher_worse;
} pr_trend_metric;

/* The metric of that name, or NULL. PR_TREND_METRICS lists the names for messages. */
const pr_trend_metric *pr_trend_metric_find(const char *name);
#define PR_TREND_METRICS "p50, p90, p95, p99, p99.9, mean, max, min, throughput, rate, error_ratio"
/* The metric's value in human form (pr_human_duration, _percent or _rate). */
char *pr_trend_human(const pr_trend_metric *m, double v, char *buf, size_t size);

typedef struct pr_trend_opts {
    const pr_trend_metric *metric;
    const char *by;    /* order by this tag (runs without it are left out); NULL: run start */
    double min_effect; /* smallest relative step called a regression (default 0.05) */
    pr_cp_opts cp;     /* the change-point test */
} pr_trend_opts;

void pr_trend_opts_init(pr_trend_opts *o);

/* The trend of the runs ids[0..n): {"schema", "version": 2, "metric", "by", "alpha",
 * "permutations", "min_effect", "series": [{run_id, name, key, value, human, vs_previous,
 * vs_first}], "change_points", "change_point_test", "last_vs_first", "step_regressions",
 * "regressions", "skipped_runs" (runs with the tag but no value)} (docs/metrics.md). Returns 0
 * and *out (the caller's), or a negative code with err set: a store error, or PR_ENOTFOUND
 * when no run has the tag and a value for the metric. */
int pr_trend_build(pr_store *st, const int64_t *ids, size_t n, const pr_trend_opts *o, json_t **out,
                   pr_error *err);

#endif
