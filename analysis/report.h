/* The report model: one JSON document (schema "perfreport-report", version 1) with, per run,
 * statistics, per-label breakdowns, status codes, error sets, time series and histograms.
 * It is what `summary --json` prints and the context templates render (docs/templates.md). */
#ifndef PR_REPORT_H
#define PR_REPORT_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "model/error.h"
#include "store/store.h"

#define PR_REPORT_SCHEMA_VERSION 1
#define PR_MAX_PERCENTILES 16

/* A report's latencies handed to the caller (pr_report_opts.keep; exact mode only): every
 * latency of the selection once, sorted, each with its row of the labels list, and the rows'
 * labels ("(no label)" for a sample without one). Free with pr_report_latencies_dispose. */
typedef struct pr_report_latencies {
    int64_t *v;
    uint16_t *r16; /* rows, 16 bits (NULL when r32) */
    uint32_t *r32;
    size_t n;
    char **row_names;
    size_t nrows;
    int kept; /* 0: bounded mode or a summary-only run, nothing kept */
} pr_report_latencies;
void pr_report_latencies_dispose(pr_report_latencies *l);

typedef struct pr_report_opts {
    double percentiles[PR_MAX_PERCENTILES]; /* default 50, 90, 95, 99, 99.9 */
    size_t npercentiles;
    int percentiles_set; /* the list was asked for (pr_report_parse_percentiles) */
    int64_t interval_ns; /* time-series interval; 0 = automatic (a few hundred points) */
    int64_t from_ns;     /* trim: offset from run start, PR_UNKNOWN = none */
    int64_t to_ns;
    int64_t apdex_t_ns;  /* default 500 ms */
    int64_t apdex_f_ns;  /* default 4 T (1500 ms when T is 500 ms: JMeter's default F) */
    int timeseries;      /* include time series (default 1) */
    int histogram;       /* include the histogram and percentile spectrum (default 1) */
    int64_t generated_s; /* "generated" timestamp: SOURCE_DATE_EPOCH / --now, else now */
    /* The breakdown (the model's "labels" list): up to 4 dimensions combined, default label. */
    int by[4];          /* enum pr_by */
    char by_tag[4][64]; /* tag key of PR_BY_TAG dimensions */
    size_t nby;
    /* Runs with more samples than this are analysed in bounded mode: durations go into
     * log-linear histograms (percentiles within 0.1%, memory independent of the run's size)
     * and `mode` says "histogram". -1 (the default): as many as half the memory this process
     * may still use holds at PR_EXACT_BYTES_PER_SAMPLE (pr_report_exact_limit_auto), and
     * stats.bounded_reason says why when it switches; 0: always exact; --exact-limit N. */
    int64_t exact_limit;
    /* Rows of the labels list: the top this many keys by requests, then one "other" row
     * (default 100; 0: every key). */
    int64_t top;
    /* Group label and URL values by pattern (ids in paths as {id}): 1 always, 0 past
     * PR_PATTERN_MIN distinct values (default), -1 never. */
    int patterns;
    int findings;  /* run the findings engine (default 1); needs timeseries and histogram */
    int durations; /* latency and the other durations (default 1; 0: counts only, for
                           * charts that draw none) */
    int rows;      /* the labels list (default 1; 0: none, for charts without it) */
    /* The run's own durations (default 1; 0: the caller reads the intervals' or the rows'
     * only, and bounded mode leaves the run's out: a chart of those) */
    int run_durations;
    int label_extras;          /* the rows' Apdex and top errors (default 1; 0: left out) */
    pr_report_latencies *keep; /* when set (one run or merged runs): the sorted latencies */
    int label_timeseries;      /* a time series per label too (default 0; render's dashboards) */
    /* The sample columns the scans read (a PR_COLBIT mask of model/native.h; 0, the default:
     * every one). A caller that uses only part of the model (a chart) names the columns that
     * part is made from; the model's other figures are then those of samples without them. */
    unsigned cols;
} pr_report_opts;

enum pr_by {
    PR_BY_LABEL = 0,
    PR_BY_URL,
    PR_BY_METHOD,
    PR_BY_STATUS,
    PR_BY_ERROR,
    PR_BY_THREAD,
    PR_BY_TAG,
    PR_BY_URL_PATTERN,
    PR_BY_LABEL_PATTERN
};

/* Exact mode keeps each latency once with its 16-bit cell (row and interval): 10 bytes per
 * sample up to PR_CELLSORT_BUCKETED samples, 6 past them (analysis/cellsort.h: 4-byte values
 * below 2^38 ns), 8 when the cells need 32 bits, 10 for a latency of more than 4.6 minutes;
 * the other durations reuse the same arrays. The limit counts 8 past them. */
#define PR_EXACT_BYTES_PER_SAMPLE 8
#define PR_EXACT_BYTES_PER_SAMPLE_SMALL 10
/* The bytes exact mode counts for n samples. */
double pr_report_exact_bytes(int64_t n);
/* The default exact limit for avail_bytes of memory (model/sysmem.h). */
int64_t pr_report_exact_limit_auto(int64_t avail_bytes);
/* 1 when a selection of n samples is analysed in bounded mode: more than o->exact_limit, or,
 * without one (-1), more than half the memory this process may still take holds at
 * PR_EXACT_BYTES_PER_SAMPLE; then why (when it is not an explicit limit) says so. */
int pr_report_bounded(const pr_report_opts *o, int64_t n, char *why, size_t whysize);

/* Parses "label", "url,status", "tag:host", "url-pattern" into o->by. Returns 0 or -1. */
int pr_report_parse_by(pr_report_opts *o, const char *list);

void pr_report_opts_init(pr_report_opts *o);
/* Parses "50,90,99.9" into o->percentiles. Returns 0 or -1 on a bad list. */
int pr_report_parse_percentiles(pr_report_opts *o, const char *list);

/* The time-series interval of the model of the window [lo, hi] (ns since the epoch, hi > lo)
 * of total samples whose first run is first: o->interval_ns, else a 1-2-5 step giving a few
 * hundred points, never finer than the run's time_resolution_ns, at most 100000 points. */
int64_t pr_report_interval(const pr_report_opts *o, const pr_run *first, int64_t total, int64_t lo,
                           int64_t hi);

/* The model of one run (a new reference). */
int pr_report_run(pr_store *st, int64_t run_id, const pr_report_opts *o, json_t **out,
                  pr_error *err);
/* The whole document for several runs: {"schema", "version", "generated", "runs": [...]}.
 * merge != 0 analyses all runs as one series named after the first. */
int pr_report_build(pr_store *st, const int64_t *ids, size_t n, int merge, const pr_report_opts *o,
                    json_t **out, pr_error *err);

/* The clock resolution of a run model's latencies: stats.latency_resolution_ns, 1 (ns) when
 * the model does not say. For pr_human_duration_res. */
int64_t pr_report_latency_res(const json_t *stats);
/* 1 when a run model's sources record no status at all (ab -g): its status_codes are one
 * code 0 entry marked not_recorded. A chart of responses by status has nothing to draw. */
int pr_report_status_unrecorded(const json_t *run);

/* The group of an error message (docs/metrics.md, "Errors"): every run of digits, with the
 * dots inside it, becomes "N"; the rest is kept. out (size bytes) gets the pattern. */
void pr_error_group(const char *msg, char *out, size_t size);

#endif
