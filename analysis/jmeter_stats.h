/* JMeter dashboard statistics from samples: per label and Total, computed exactly as JMeter's
 * report generator does (statistics.json and the Apdex table), with our exact percentiles or
 * JMeter's own estimator, and a writer of JSON in the layout of JMeter's statistics.json. */
#ifndef PR_JMETER_STATS_H
#define PR_JMETER_STATS_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "model/error.h"
#include "model/run.h"
#include "model/sample.h"

enum pr_jstats_pct {
    PR_JSTATS_PCT_EXACT = 0, /* nearest rank over all samples: sorted[ceil(p/100*n)-1] */
    PR_JSTATS_PCT_JMETER     /* JMeter's: commons-math LEGACY estimator, position p*(n+1)/100
                              * interpolated, over the last `window` samples in input order */
};

typedef struct pr_jstats_opts {
    int64_t apdex_satisfied_ms; /* T: satisfied when elapsed <= T (default 500) */
    int64_t apdex_tolerated_ms; /* F: tolerated when T < elapsed <= F (default 1500) */
    int percentiles;            /* enum pr_jstats_pct */
    double pct[3];              /* the three percentile columns (default 90, 95, 99) */
    size_t window;              /* JMeter's statistic_window (default 20000) */
} pr_jstats_opts;

typedef struct pr_jstats_row {
    char *label;        /* owned; "Total" for the total row */
    int is_transaction; /* the label is a Transaction Controller's */
    uint64_t samples, errors;
    double error_pct; /* errors * 100 / samples */
    double mean_ms, min_ms, max_ms, median_ms;
    double pct_ms[3];
    double throughput_per_s;  /* samples / (last end - first start) */
    double received_kb_per_s; /* KB = 1024 bytes */
    double sent_kb_per_s;
    int64_t first_start_ms, last_end_ms;
    uint64_t apdex_satisfied, apdex_tolerated;
    double apdex; /* (satisfied + tolerated/2) / samples */
} pr_jstats_row;

typedef struct pr_jstats {
    pr_jstats_opts opts;
    pr_jstats_row total; /* Total: every sample except Transaction Controller ones
                                 * (as JMeter); its apdex covers every sample, TC included
                                 * (as JMeter's Apdex table) */
    pr_jstats_row *rows; /* one per label, sorted by label bytes */
    size_t nrows;
} pr_jstats;

/* Defaults: T=500 ms, F=1500 ms, exact percentiles 90/95/99, window 20000. */
void pr_jstats_opts_default(pr_jstats_opts *o);
/* Computes the statistics of samples s[0..n) of `run` (labels are its interned strings).
 * Order matters only for PR_JSTATS_PCT_JMETER (the window keeps the last samples). Samples
 * flagged PR_SF_TRANSACTION get their own label rows but are left out of Total. Never fails
 * (out-of-memory aborts); free the result with pr_jstats_free. */
pr_jstats *pr_jstats_compute(const pr_sample *s, size_t n, const pr_run *run,
                             const pr_jstats_opts *o);
void pr_jstats_free(pr_jstats *st);
/* The same a batch at a time, in input order: `expected` sizes the exact percentiles' array
 * (each elapsed time kept once with its label); bounded keeps histograms instead (exact rule
 * only; JMeter's estimator keeps its windows). finish frees the accumulator. */
typedef struct pr_jstats_acc pr_jstats_acc;
pr_jstats_acc *pr_jstats_new(const pr_run *run, const pr_jstats_opts *o, size_t expected,
                             int bounded);
void pr_jstats_add(pr_jstats_acc *a, const pr_sample *s, size_t n);
pr_jstats *pr_jstats_finish(pr_jstats_acc *a);
/* The percentile estimators, over values v[0..n) (sorted ascending). n > 0. */
double pr_jstats_pct_exact(const double *sorted, size_t n, double p);
double pr_jstats_pct_legacy(const double *sorted, size_t n, double p);
/* JSON in the layout of JMeter's statistics.json: {"Total": {...}, "<label>": {...}, ...}
 * with keys transaction, sampleCount, errorCount, errorPct, meanResTime, medianResTime,
 * minResTime, maxResTime, pct1ResTime, pct2ResTime, pct3ResTime, throughput,
 * receivedKBytesPerSec, sentKBytesPerSec. New reference. */
json_t *pr_jstats_json(const pr_jstats *st);
/* The Apdex table as JSON: {"thresholds": {"satisfied_ms","tolerated_ms"}, "overall": {...},
 * "items": [{"label","apdex","satisfied","tolerated","samples"}]}. New reference. */
json_t *pr_jstats_apdex_json(const pr_jstats *st);
/* Writes pr_jstats_json (indented, keys in order) to f. 0 or PR_EIO with err filled. */
int pr_jstats_write(const pr_jstats *st, FILE *f, const char *path, pr_error *err);
/* The Total row of statistics.json filled from a summary-only run's printed numbers
 * (run->summary): sampleCount = requests, errorCount = failures, the latencies in ms
 * (median = p50, pct1..3 = p90, p95, p99), throughput and KB/s over the tool's test time;
 * what the tool did not print is null. New reference. */
json_t *pr_jstats_summary_json(const pr_run *run);
/* Writes pr_jstats_summary_json like pr_jstats_write. */
int pr_jstats_write_summary(const pr_run *run, FILE *f, const char *path, pr_error *err);

#endif
