/* Vegeta's report metrics over samples, with Vegeta's definitions (lib/metrics.go v12) except
 * percentiles, which are exact nearest-rank here (Vegeta's are t-digest estimates), and the
 * two printed layouts of `vegeta report` (text and -type=json).
 *
 * Every result is independent of the order of the samples except where noted: the error set
 * is ordered by first appearance in time (earliest start, then array position), which is
 * Vegeta's file order whenever the file is in time order for the first occurrence of each
 * error. */
#ifndef PR_VEGETA_STATS_H
#define PR_VEGETA_STATS_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "model/run.h"
#include "model/sample.h"

typedef struct pr_vegeta_code_count {
    unsigned code;
    uint64_t count;
} pr_vegeta_code_count;

typedef struct pr_vegeta_error_count {
    uint32_t error; /* interned id in the run's string table */
    uint64_t count;
} pr_vegeta_error_count;

typedef struct pr_vegeta_stats {
    uint64_t requests, successes;
    int64_t earliest_ns, latest_ns, end_ns; /* earliest/latest start, max(start + latency) */
    int tz_offset_min;                      /* zone for printing times (run meta) */
    int64_t duration_ns;                    /* latest - earliest */
    int64_t wait_ns;                        /* end - latest */
    double rate_per_s;                      /* requests / duration (requests if duration 0) */
    double throughput_per_s;                /* successes / (duration + wait) */
    double success_ratio;
    int64_t lat_total_ns, lat_min_ns, lat_mean_ns, lat_max_ns;
    int64_t lat_p50_ns, lat_p90_ns, lat_p95_ns, lat_p99_ns; /* exact, nearest rank */
    int bounded; /* percentiles from a histogram (within 0.1%) */
    uint64_t bytes_in_total, bytes_out_total;
    double bytes_in_mean, bytes_out_mean;
    pr_vegeta_code_count *codes; /* sorted as strings ("0" < "200" < "404"), as Vegeta does */
    size_t ncodes;
    pr_vegeta_error_count *errors; /* distinct errors in order of first appearance */
    size_t nerrors;
} pr_vegeta_stats;

/* Computes the metrics of n samples of `run` (its strings name the errors). Samples with an
 * unknown start are left out of the time metrics. Always succeeds; free with
 * pr_vegeta_stats_dispose. */
void pr_vegeta_stats_compute(pr_vegeta_stats *out, const pr_sample *s, size_t n, const pr_run *run);
void pr_vegeta_stats_dispose(pr_vegeta_stats *st);

/* The same, a batch at a time (samples in the run's order): `expected` sizes the latency
 * array; bounded keeps a histogram instead (percentiles within 0.1%, memory independent of
 * the run's size). finish fills out and frees the accumulator. */
typedef struct pr_vegeta_stats_acc pr_vegeta_stats_acc;
pr_vegeta_stats_acc *pr_vegeta_stats_new(const pr_run *run, size_t expected, int bounded);
void pr_vegeta_stats_add(pr_vegeta_stats_acc *a, const pr_sample *s, size_t n);
void pr_vegeta_stats_finish(pr_vegeta_stats_acc *a, pr_vegeta_stats *out);

/* Exact nearest-rank percentile of sorted values: the value at rank ceil(q/100 * n). */
int64_t pr_vegeta_percentile(const int64_t *sorted, size_t n, double q);

/* Go's time.Duration.String() ("1h2m3.5s", "27.9ms", "191.054µs", "0s"); buf >= 32 bytes. */
char *pr_vegeta_duration_string(int64_t ns, char *buf);
/* Vegeta's round(): >= 1h to the minute, >= 1m to the second, >= 1s to the ms, >= 1ms to the
 * µs, smaller values unchanged (Go's Duration.Round, halves away from zero). */
int64_t pr_vegeta_round(int64_t ns);

/* The text layout of `vegeta report` (tabwriter minwidth 0, tabwidth 8, padding 2).
 * Returns a heap string (caller frees). */
char *pr_vegeta_stats_text(const pr_vegeta_stats *st, const pr_run *run);
/* The one-line JSON of `vegeta report -type=json`, byte for byte in Vegeta's key order and
 * number formatting, with a trailing newline. Heap string (caller frees). */
char *pr_vegeta_stats_json_text(const pr_vegeta_stats *st, const pr_run *run);
/* The layout of `vegeta report -type='hist[b0,b1,...]'` over n samples: bucket i counts
 * latencies in [b_i, b_i+1), the last [b_n-1, +Inf); as in Vegeta, a latency below b0 lands in
 * the last bucket. nb >= 1 bounds in ascending order. Heap string (caller frees). */
char *pr_vegeta_hist_text(const pr_sample *s, size_t n, const int64_t *bounds_ns, size_t nb);

/* The text layout of `vegeta report` filled from a summary-only run's printed numbers
 * (run->summary, model/run.h): what the tool did not print is "-" (nothing is computed but
 * the ratio and byte means that follow from printed counts). A tool that prints no wait
 * times its whole test: that is Vegeta's total, and attack and wait are "-". Heap string. */
char *pr_vegeta_summary_text(const pr_run *run);
/* Same for the one-line JSON of `vegeta report -type=json`, unknown values null. */
char *pr_vegeta_summary_json_text(const pr_run *run);

/* The canonical summary object (model/run.h) of these metrics; new reference. Errors carry
 * counts, which Vegeta's report lacks. */
json_t *pr_vegeta_stats_summary(const pr_vegeta_stats *st, const pr_run *run);

#endif
