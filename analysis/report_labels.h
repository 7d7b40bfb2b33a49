/* Per-label extras of the report model, for dashboards: Apdex, the most frequent errors and a
 * time series per breakdown label (docs/templates.md, `labels[]`). Fed by the report scan. */
#ifndef PR_REPORT_LABELS_H
#define PR_REPORT_LABELS_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "model/sample.h"
#include "model/strtab.h"

/* Labels that get a time series: the first this many seen (their bins cost memory). */
#define PR_LABEL_TS_MAX 64
/* Distinct error messages counted per label; the rest are counted together. */
#define PR_LABEL_ERRORS_MAX 256
/* Errors listed per label (JMeter's dashboard lists the top 5). */
#define PR_LABEL_TOP_ERRORS 5

typedef struct pr_label_extra pr_label_extra; /* internal */

typedef struct pr_label_extras {
    pr_label_extra *v; /* indexed by label id */
    size_t cap;
    size_t nbins;   /* 0: no time series */
    size_t with_ts; /* labels holding bins so far */
    int bounded;    /* latency histograms per interval (analysis/vals.h); else exact
                        * order statistics filled by pr_label_extras_bin_q's caller */
    int64_t apdex_t_ns, apdex_f_ns;
    size_t ts_max;      /* labels that may hold bins (PR_LABEL_TS_MAX unless changed) */
    uint32_t *ts_order; /* the labels holding bins, in the order they got them */
    size_t ts_order_cap;
    int refused; /* a label was refused bins or an error message went untracked */
    /* Set before pr_label_extras_json: the run's printed report says no request failed, so a
     * sample with no outcome of its own (ab -g) counts in the Apdex as a success. */
    int unknown_ok;
} pr_label_extras;

/* nbins: time-series intervals per label (0 = none). */
void pr_label_extras_init(pr_label_extras *lx, size_t nbins, int bounded, int64_t apdex_t_ns,
                          int64_t apdex_f_ns);
/* One sample of label lid. outcome as pr_sample_outcome; error_id: the interned error text
 * (0 = none); bin: the time-series interval it was sent in, or -1 (none), done_bin the one
 * its response completed in (pr_interval_done: its outcome counts there, as the run's). */
void pr_label_extras_add(pr_label_extras *lx, uint32_t lid, const pr_sample *x, int outcome,
                         uint32_t error_id, long bin, long done_bin);
/* Adds b into a, b having been fed the samples that come after a's (a part of one scan, on
 * another thread): label l of b is label lmap[l] of a, error id e of b is emap[e] of a. The
 * result is what a would hold had it been fed b's samples itself, provided b refused nothing
 * (b->refused: 0 is returned only then, else -1 and a is unchanged). Exact mode only. */
int pr_label_extras_merge(pr_label_extras *a, const pr_label_extras *b, const uint32_t *lmap,
                          const uint32_t *emap);
/* Exact mode: the label's interval `bin` as {p50, p90, p99, max} for the report's pass over
 * the sorted latencies to fill, its latency count in *lat_n; NULL when the label has no time
 * series. */
int64_t *pr_label_extras_bin_q(pr_label_extras *lx, uint32_t lid, size_t bin, int64_t *lat_n);
/* Adds "apdex", "top_errors", "error_messages", "errors_untracked" and (with bins) the first
 * npoints intervals as "timeseries" to the label's JSON object; names resolves error ids. */
void pr_label_extras_json(pr_label_extras *lx, uint32_t lid, json_t *label, const pr_strtab *names,
                          int64_t interval_ns, size_t npoints);
/* {score, score_text ("0.993"), t_ns, f_ns, t, f, satisfied, tolerating}: the Apdex object of
 * the model (runs and labels); score null when count is 0. */
json_t *pr_apdex_json(int64_t satisfied, int64_t tolerating, int64_t count, int64_t t_ns,
                      int64_t f_ns);
void pr_label_extras_dispose(pr_label_extras *lx);

#endif
