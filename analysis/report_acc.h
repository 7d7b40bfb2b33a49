/* The report's accumulation, private to analysis/report.c and report_acc.c: the scans of a
 * selection's samples into per-row counters, per-interval bins and, for the durations,
 * either one array of every value (exact mode: each latency kept once, with the cell it falls
 * in, sorted in place, every row's, interval's and the run's percentiles read in one pass
 * over it) or log-linear histograms (bounded mode, analysis/vals.h).
 *
 * Rows are the lines of the model's "labels" list: a breakdown key each, at most
 * pr_report_opts.top of them, every other key counted in one "other" row. Keys of a
 * high-cardinality label or URL dimension are grouped by pattern first (report_pattern). */
#ifndef PR_REPORT_ACC_H
#define PR_REPORT_ACC_H
#include <stddef.h>
#include <stdint.h>
#include "analysis/report.h"
#include "analysis/report_labels.h"
#include "analysis/stats.h"
#include "model/run.h"
#include "model/strtab.h"
#include "store/store.h"

#define PR_BIN_CODES 12     /* status codes tracked per interval; the rest count as "other" */
#define PR_PATTERN_MIN 1000 /* distinct labels (or URLs) past which they are grouped by pattern */
#define PR_SPECTRUM_POINTS 52
#define PR_HIST_STEPS 60
/* Bounded mode scans a run on two threads from this many samples: below, a thread's start
 * and the merge cost more than half a scan saves. */
#define PR_ACC_PAR_MIN 100000

/* The durations of a series, in the order the model prints them. */
enum pr_dur { PR_D_LATENCY = 0, PR_D_CONNECT, PR_D_TTFB, PR_D_RECEIVE, PR_D_LATENESS, PR_NDUR };

/* A distribution as the model prints it: count, moments and the values at the percentiles of
 * pr_report_opts (q[i] for o->percentiles[i]). */
typedef struct pr_dres {
    pr_dist d;
    int64_t q[PR_MAX_PERCENTILES];
} pr_dres;

/* One time-series interval. Requests, latencies and threads count where a request was sent
 * (its start); responses, their outcomes, bytes and status codes where it completed (start +
 * latency): docs/metrics.md, "Time series". */
typedef struct pr_bin {
    int64_t count, sent_fail, sent_unknown; /* requests sent; failed, outcome unknown */
    int64_t done, ok, fail, unknown;        /* responses completed, by outcome */
    int64_t bytes_in;
    int64_t connect_sum, connect_n, ttfb_sum, ttfb_n; /* for the means per interval (sent) */
    int32_t threads;
    int64_t lat_n;    /* latencies of requests sent in the interval */
    int64_t lat_q[4]; /* their p50, p90, p99, max */
    pr_vals lat;      /* bounded mode: their histogram */
    int64_t codes[PR_BIN_CODES + 1];
} pr_bin;

/* The clocks of the runs' inputs (meta latency_resolution_ns, time_resolution_ns; 1 = ns):
 * a value below the resolution is printed "< 1 ms", not "0 ns" (pr_human_duration_res). */
typedef struct pr_clock_res {
    int64_t lat_ns;  /* durations (latency, connect, ttfb…) */
    int64_t time_ns; /* start stamps, hence the run's duration */
} pr_clock_res;

/* A line of the labels list. */
typedef struct pr_row {
    uint32_t key; /* names id of the breakdown value (0: none) */
    int other;    /* the row of every key past the top rows */
    int64_t keys; /* other: how many keys it holds */
    int tx;       /* holds Transaction Controller samples */
    pr_series s;  /* counters (and, bounded, the histograms) */
    pr_dres d[PR_NDUR];
} pr_row;

typedef struct pr_report_acc pr_report_acc;

/* What the scans produced, read by the model's JSON (analysis/report.c). */
typedef struct pr_acc {
    const pr_report_opts *o;
    pr_clock_res res;
    pr_strtab *names; /* labels and errors, interned across merged runs */
    pr_series total;
    pr_dres total_d[PR_NDUR];
    int64_t spectrum[PR_SPECTRUM_POINTS]; /* latency at pr_report_spectrum_pct(k) */
    int64_t hist_lo;                      /* the histogram's first bound (1-2-5 steps) */
    int64_t hist_bound[PR_HIST_STEPS];    /* the steps' upper bounds (nhist of them) */
    size_t hist_below[PR_HIST_STEPS];     /* latencies of the run below each bound */
    int nhist;
    pr_row *rows;
    size_t nrows;
    int64_t *errors; /* count per names id of error text */
    size_t errors_cap;
    int64_t status[1000];
    int64_t apdex_s, apdex_t;
    int64_t apdex_su, apdex_tu; /* the same of samples with no known outcome (ab -g) */
    int64_t tx_samples;         /* Transaction Controller samples (not in the totals) */
    int64_t t0, from, to;       /* absolute bounds of the window */
    int64_t interval;
    pr_bin *bins;
    size_t nbins;
    int has_threads;
    int bounded;             /* histograms instead of every value (pr_report_opts.exact_limit) */
    char bounded_why[160];   /* why, when the memory available decided it */
    int codes[PR_BIN_CODES]; /* the status codes tracked per interval, in order of appearance */
    int ncodes;
    pr_label_extras lx;    /* per row: Apdex, top errors, time series (report_labels.h) */
    int64_t distinct_keys; /* breakdown values seen (before grouping) */
    int patterned;         /* keys were grouped by URL pattern */
    pr_report_acc *priv;   /* the scans' working state */
} pr_acc;

/* Scans the runs (their metadata loaded in runs[]) into a, whose o, res, t0, from, to,
 * interval, nbins (bins allocated) and bounded are set. Fills everything above. */
int pr_acc_scan(pr_acc *a, pr_store *st, const int64_t *ids, pr_run **runs, size_t nids,
                pr_error *err);
/* 0: the main scan takes its general path only, never its fast mode (report_acc.c fast_mode);
 * for the tests, which compare the two. 1 (the default) otherwise. */
extern int pr_acc_fast_mode;
void pr_acc_dispose(pr_acc *a);
/* Second parts of two-thread scans merged so far in this process: a test that compares a
 * scan with one thread's checks with it that the scan did run on two. */
unsigned long pr_acc_parts_merged(void);

/* The spectrum's percentiles: evenly spaced on the 1/(1-p) log scale (0, 20.6, 36.9 … 90, …
 * 99, … 99.999) and 100, k in [0, PR_SPECTRUM_POINTS). */
double pr_report_spectrum_pct(int k);

#endif
