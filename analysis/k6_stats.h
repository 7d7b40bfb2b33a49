/* k6's end-of-test summary from a run: its text layout (the "legacy" summary of k6 v0.30 -
 * v0.5x, js/summary.js) printed from data in the handleSummary shape ({metrics: {name: {type,
 * contains, values, thresholds}}, root_group}), and that data computed from a run's samples
 * with k6's percentile rule or ours. */
#ifndef PR_K6_STATS_H
#define PR_K6_STATS_H
#include <jansson.h>
#include <stddef.h>
#include "model/run.h"
#include "model/sample.h"

/* k6's percentile of sorted values v[0..n): linear interpolation between the closest ranks,
 * i = p * (n - 1), v[floor(i)] + (v[ceil(i)] - v[floor(i)]) * (i - floor(i)); p in 0..1.
 * (grafana/k6 metrics/sink.go TrendSink.P). 0 for n == 0. */
double pr_k6_percentile(const double *sorted, size_t n, double p);

/* The summary data of a run with samples: http_req_duration (and its expected_response:true
 * submetric), http_req_failed and http_reqs from the samples, checks, vus, iterations and data
 * counters from the run's k6 series; thresholds from a joined k6 summary. k6_pct: k6's
 * percentiles, else ours (nearest rank). Rates use the run's k6 test duration when a joined
 * summary gives it (handleSummary's state, else --summary-export's http_reqs count / rate),
 * else the samples' span (*span_rates set to 1). A joined summary that counts the samples'
 * requests is of the same run: every metric it printed is k6's own (*span_rates set to 2).
 * New reference. */
json_t *pr_k6_data_from_samples(const pr_run *run, const pr_sample *s, size_t n, int k6_pct,
                                int *span_rates);
/* The same, a batch at a time: `expected` sizes the exact latencies (kept once, with their
 * outcome); bounded keeps histograms. finish returns the data and frees a. */
typedef struct pr_k6_acc pr_k6_acc;
pr_k6_acc *pr_k6_new(const pr_run *run, size_t expected, int k6_pct, int bounded);
void pr_k6_add(pr_k6_acc *a, const pr_sample *s, size_t n);
json_t *pr_k6_finish(pr_k6_acc *a, int *span_rates);
/* k6's summary text of `data` (caller frees). */
char *pr_k6_summary_text(const json_t *data);

#endif
