/* A run's headline numbers — requests, successes and errors, error and success ratios,
 * duration, wait, rate, throughput — and where each comes from (docs/metrics.md,
 * "Provenance"):
 *   "samples"  computed from the per-request data;
 *   "tool"     printed by the source tool (its summary: ab's stdout, a Vegeta report…);
 *   "derived"  computed by perfreport from printed numbers (error ratio = failures / requests,
 *              throughput = successes / duration…), or from printed numbers and samples.
 * A run with samples keeps them for every number its per-request files record exactly; for
 * what they record lossily (run meta "lossy", model/run.h) the tool's printed counters win.
 * `stats.provenance` maps each headline key to one of the three words and `stats.tool_report`
 * names the printed summary ("ab's report"). */
#ifndef PR_HEADLINE_H
#define PR_HEADLINE_H
#include <jansson.h>
#include <stddef.h>
#include "model/run.h"

/* "ab's report", "Vegeta's report"… for run->tool; buf >= 64 bytes. */
const char *pr_headline_report_name(const pr_run *run, char *buf, size_t size);

/* The stats object of a summary-only run (a new reference): every number the tool printed,
 * under the canonical keys of model/run.h and `tool`, human forms beside them, and the
 * headline numbers it implies (successes = requests - failures, error_ratio, throughput =
 * successes / (duration + wait)), marked "derived". The printed status codes and error set
 * are left out (the report puts them in the run's lists); `errors` is the failure count. */
json_t *pr_headline_tool_stats(const pr_run *run);

/* For a run with samples: `stats` (computed from the samples) gets its provenance, and where
 * the run's per-request files are lossy and its printed summary has the numbers, those
 * replace the sample figures (kept under `stats.from_samples`); `stats.notes` says where the
 * two disagree on the request count. run NULL (several runs merged): samples only. */
void pr_headline_combine(json_t *stats, const pr_run *run);

/* After pr_headline_combine replaced sample figures with the tool's, the rows of `labels`
 * (the report's per-label objects) are made to agree with them: where the run's timing is the
 * tool's (lossy timing: ab -g's whole-second starts), each row's duration and wait are the
 * run's and its rates are over the same test time; where the run's outcome counts are the
 * tool's and one row holds every request, that row's are the run's. The row's own figures are
 * kept under its `from_samples`. A label's span measured on such stamps may be off by their
 * resolution (a 0.4 s ab run spans 1 s in its -g file), and the rows would disagree with the
 * run. Nothing changes otherwise. */
void pr_headline_labels(json_t *labels, const json_t *stats);

/* 1 when the samples with no outcome of their own (ab -g) are all successes: `stats` (after
 * pr_headline_combine) has the tool's failure count, it is 0, and the `samples` are all its
 * requests; `unknown` of them have no outcome. */
int pr_headline_unrecorded_ok(const json_t *stats, int64_t samples, int64_t unknown);

/* 1 when the run's per-request files do not record `what` exactly ("requests", "outcomes",
 * "timing"; run meta "lossy"). */
int pr_headline_lossy(const pr_run *run, const char *what);

/* 1 when the run's tool gives its rates over its whole test (k6: http_reqs rate = requests
 * over the test's duration; run meta "rates_over_test"): the run's duration is then its span,
 * first start to last end (the tool's test duration when its summary is joined), its wait is
 * inside it, and its rate and throughputs are over it. */
int pr_headline_test_rates(const pr_run *run);

/* The run's test time, first request start to last response end: the tool's own (its
 * duration, plus its wait when it prints one) for a summary-only run or lossy timing, with
 * *printed = 1, else from the samples; PR_UNKNOWN when neither is known. */
int64_t pr_headline_span_ns(const pr_run *run, int *printed);

#endif
