/* Thresholds on report-model statistics ("max p99=250ms", "min throughput=200/s"): parsing,
 * evaluation, and the verdict a report opens with (pass/fail, critical findings, the limit).
 * `perfreport check` gates CI with them; `render --max/--min/--thresholds` puts the verdict in
 * the report model (docs/templates.md, `verdict`). */
#ifndef PR_THRESHOLD_H
#define PR_THRESHOLD_H
#include <jansson.h>
#include <stddef.h>
#include "analysis/report.h"
#include "model/error.h"

typedef enum pr_threshold_unit {
    PR_TU_NS,
    PR_TU_RATIO,
    PR_TU_PER_S,
    PR_TU_COUNT
} pr_threshold_unit;

typedef struct pr_threshold {
    char metric[32]; /* p99, mean, error_ratio, throughput … ('.' written '_') */
    int is_max;      /* 1: value must be <= limit; 0: >= limit */
    double limit;    /* ns, ratio, per second or count */
    pr_threshold_unit unit;
    char text[96]; /* as written: "p99 <= 250ms" */
} pr_threshold;

/* Parses "p99=250ms", "error_ratio=1%", "throughput=200/s" (bare durations are ms). Returns 0
 * or PR_EUSAGE with a message naming the argument. */
int pr_threshold_parse(pr_threshold *out, const char *arg, int is_max, pr_error *err);
/* Appends the thresholds of a file of lines "max METRIC=VALUE" / "min METRIC=VALUE" (# starts a
 * comment) to *ts (n entries, cap allocated). Returns 0, PR_EIO, or PR_EPARSE naming
 * file:line:col. */
int pr_threshold_read_file(const char *path, pr_threshold **ts, size_t *n, size_t *cap,
                           pr_error *err);
/* The metric's value in a stats object of the report model (run stats or a label); NaN when
 * unknown. */
double pr_threshold_value(json_t *stats, const char *metric);
/* An unknown value never passes. */
int pr_threshold_passes(const pr_threshold *t, double value);
/* Human form of a value in the threshold's unit ("n/a" when unknown); durations at the clock
 * resolution res_ns (pr_human_duration_res; 0 = unknown); buf of size bytes
 * (PR_HUMAN_SIZE holds every form). */
char *pr_threshold_human(const pr_threshold *t, double value, int64_t res_ns, char *buf,
                         size_t size);
/* The percentile (e.g. 99.9) a pNN metric names, or -1. */
double pr_threshold_percentile(const pr_threshold *t);

/* Adds the percentiles the thresholds name to o->percentiles (so their values are computed). */
void pr_threshold_add_percentiles(pr_report_opts *o, const pr_threshold *ts, size_t n);

/* Adds "verdict" to every run of a report document (pr_report_build's output, findings
 * included) and to the document: the thresholds checked (run totals, then with by_label each
 * label's, in the thresholds' order), whether all passed, the critical findings and the finding that answers "what was the
 * limit" (docs/templates.md). Needs no thresholds (then `pass` is null). */
void pr_threshold_verdict(json_t *doc, const pr_threshold *ts, size_t n, int by_label);

#endif
