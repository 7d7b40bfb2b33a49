/* Run comparison: per-metric and per-label differences between runs (or merged selections of
 * runs) with statistical tests, so a change is called a regression or an improvement only when
 * it is both significant and larger than a minimum effect (docs/metrics.md). */
#ifndef PR_COMPARE_H
#define PR_COMPARE_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "analysis/cellsort.h"
#include "analysis/stats.h"
#include "model/error.h"
#include "store/store.h"

#define PR_COMPARE_SCHEMA_VERSION 1

/* Mann-Whitney U test of two samples (each sorted ascending), normal approximation with tie
 * correction and continuity correction. u is U of b (pairs where b > a, ties count ½);
 * a12 = u / (na nb), the probability that a value of b exceeds one of a (0.5 = no shift). */
typedef struct pr_mw_result {
    double u, z, p_value, a12;
} pr_mw_result;
/* Returns 0, or -1 when a sample is empty (result set to NaN). */
int pr_mann_whitney(const int64_t *a, size_t na, const int64_t *b, size_t nb, pr_mw_result *out);
/* Same for doubles (unsorted input allowed; copies and sorts). */
int pr_mann_whitney_d(const double *a, size_t na, const double *b, size_t nb, pr_mw_result *out);

/* Bootstrap confidence interval (level conf, e.g. 0.99) of q_p(b) − q_p(a), the difference of
 * nearest-rank p-percentiles (p in (0,100]) of two sorted samples, from `resamples` resamples
 * drawn with a deterministic generator seeded by `seed`. The resampled order statistic is drawn
 * exactly (the k-th of n draws from the sample is x[ceil(n·U)] with U ~ Beta(k, n−k+1)), so a
 * resample costs O(1) whatever n is. Returns 0, or -1 on an empty sample. */
int pr_bootstrap_pdiff(const int64_t *a, size_t na, const int64_t *b, size_t nb, double p,
                       int resamples, double conf, uint64_t seed, double *lo, double *hi);

/* One side of a comparison: a run or several runs merged (a tag selection). */
typedef struct pr_compare_side {
    char *name;      /* display name (run name, or the selection text) */
    char *selection; /* as given on the command line */
    int64_t *ids;
    size_t nids;
    json_t *model;      /* the report model of the (merged) run */
    pr_cellsort pairs;  /* every latency with its label index, sorted (each kept once) */
    pr_vec latency;     /* every latency, sorted (a view of pairs); empty for summary-only runs */
    char **label_names; /* labels with their latency counts and (for the labels asked for by
                          * pr_compare_side_labels) their latencies, sorted */
    pr_vec *label_lat;
    size_t *label_n;
    size_t nlabels;
} pr_compare_side;

/* Loads a side: the report model of ids (merged when more than one) and its latencies. */
int pr_compare_side_load(pr_store *st, const int64_t *ids, size_t nids, const char *name,
                         const char *selection, pr_compare_side *out, pr_error *err);
void pr_compare_side_dispose(pr_compare_side *s);
/* Fills label_lat for the labels named (the others emptied): one pass over the pairs, so a
 * comparison holds the latencies of a batch of labels at a time beside the sides' pairs. */
void pr_compare_side_labels(pr_compare_side *s, const char *const *names, size_t n);

typedef struct pr_compare_opts {
    double min_effect; /* relative, default 0.05 */
    double alpha;      /* significance level, default 0.01 */
    int resamples;     /* bootstrap resamples, default 2000 */
    uint64_t seed;     /* default 1 */
} pr_compare_opts;

void pr_compare_opts_init(pr_compare_opts *o);

/* A verdict ("regression", "improvement", "same", "untested", "mixed") and a metric name
 * ("p99", "error_ratio", "throughput") in the reader's language, for verdict_text and
 * metric_text; anything else is returned as it is. */
const char *pr_compare_verdict_text(const char *verdict);
const char *pr_compare_metric_text(const char *metric);

/* A relative change b/a − 1 as a table prints it: "+12.3%", or beyond a factor of 2 the
 * factor itself, "10.1×" (B is 10.1 times A) or "÷40.4" (A is 40.4 times B), never "+910.0%";
 * 2 decimals below 10, 1 below 100, none above. "-" for NaN. */
void pr_compare_rel_text(double rel, char *buf, size_t size);

/* The comparison document (schema "perfreport-compare", docs/metrics.md): sides[0] is the
 * baseline, every other side is compared with it. A new reference. */
json_t *pr_compare_build(pr_compare_side *sides, size_t n, const pr_compare_opts *o);

/* One metric of side b against side a with the metric's test and verdict, as a diffs[] item
 * of the document (plus "metric", "a_value", "b_value"). metric: a row of the document
 * (requests, throughput, rate, error_ratio, mean, p50, p90, p99, max) or p95, p99.9, min.
 * NULL for an unknown metric. A new reference. */
json_t *pr_compare_metric(const pr_compare_side *a, const pr_compare_side *b, const char *metric,
                          const pr_compare_opts *o);

#endif
