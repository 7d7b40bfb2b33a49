/* "Faithful to ab": ApacheBench's own Connection Times and percentage tables recomputed from
 * per-request data with ab's rules (support/ab.c 2.4.x output_results, see docs/metrics.md):
 *  - every column (connect, processing, waiting, total) over all requests, failures included;
 *  - min/max over µs, then rounded half up to whole ms;
 *  - mean = integer (truncating) µs mean, then rounded; sd = sample sd (n-1) against that
 *    truncated mean, in ms with one decimal;
 *  - median per column, inverted parity rule: n even → s[n/2]; n odd (n > 1) →
 *    (s[n/2] + s[n/2+1]) / 2 in integer µs; then rounded;
 *  - percentage table: total time sorted, row p = s[floor(n*p/100)], 100% = max; printed
 *    only when n > 1;
 *  - the -e CSV rule: row i = s[round_half_up(n*i/100)] (index n = past the end, unreliable).
 * From an ab -g file (whole ms) the percentage table and min/max are exact; mean and median
 * are within 1 ms and sd within 0.5 ms of what ab printed from its µs data. */
#ifndef PR_AB_STATS_H
#define PR_AB_STATS_H
#include <stddef.h>
#include <stdint.h>
#include "model/buf.h"
#include "model/error.h"
#include "model/run.h"
#include "model/sample.h"
#include "store/store.h"

#define PR_AB_NPERCS 9
/* ab's percentage rows: 50 66 75 80 90 95 98 99 100. */
extern const int pr_ab_percs[PR_AB_NPERCS];

typedef struct pr_ab_row {
    int64_t min_ms, mean_ms, median_ms, max_ms; /* PR_UNKNOWN: not known (printed "-") */
    double sd_ms; /* unrounded; ab prints it with %5.1f; NaN: not known */
} pr_ab_row;

typedef struct pr_ab_tables {
    size_t n; /* requests (ab's "Complete requests") */
    pr_ab_row connect, processing, waiting, total;
    int has_percentiles;          /* ab prints the percentage table only when n > 1 */
    int64_t pct_ms[PR_AB_NPERCS]; /* for pr_ab_percs; PR_UNKNOWN: not known */
} pr_ab_tables;

/* Computes ab's tables from per-request columns in µs (n entries each; every array is
 * sorted in place). `processing_us` is ab's time - ctime per request. Returns 0, or
 * PR_EUSAGE if n == 0 (ab prints no table then). */
int pr_ab_stats_compute(int64_t *connect_us, int64_t *processing_us, int64_t *waiting_us,
                        int64_t *total_us, size_t n, pr_ab_tables *out);

/* Same from samples of one run (latency = total, connect, ttfb = ab's wait; unknown values
 * count as 0). For ab-gnuplot samples, processing is ab's own dtime when the sample's attrs
 * carries it (parsers/ab.h), else latency - connect. Returns 0 or PR_EUSAGE if n == 0. */
int pr_ab_stats_from_samples(const pr_run *run, const pr_sample *s, size_t n, pr_ab_tables *out,
                             pr_error *err);

/* Same from a stored run's samples, scanned from st. Exact (bounded 0): a column at a time
 * into one array (4 bytes a sample, 8 when a value is 2^32 µs or more), decoded on two
 * threads where pr_threads() and the store allow, each row by pr_ab_stats_column: the
 * tables pr_ab_stats_from_samples makes. Bounded: one scan into four histograms
 * (model/hist.h), memory independent of the run's size: min, max, mean and the reliability checks' sd from exact counts and sums, medians and the
 * percentage rows within 0.1% (ab's ranks looked up in the histograms). Returns 0, PR_EUSAGE
 * when the run has no samples (err: "no samples: ab prints no tables") or the scan's error
 * (out zeroed then). */
int pr_ab_stats_from_store(pr_store *st, const pr_run *run, int bounded, pr_ab_tables *out,
                           pr_error *err);

/* The same tables filled from a summary-only run's printed numbers (run->summary): ab's own
 * rows and percentage table when the summary is ab's report, else Total from latency_ns,
 * Connect from connect_ns, Waiting from ttfb_ns and the percentage rows from the latency
 * percentiles the tool printed, in whole ms (half up). What the tool did not print is unknown
 * (PR_UNKNOWN, sd NaN) and printed "-"; ab's reliability checks run only on known rows.
 * Returns 0, or PR_EUSAGE when the summary has no request count. */
int pr_ab_stats_from_summary(const pr_run *run, pr_ab_tables *out);

/* The columns, and a sample's value (µs) in one with ab's rules (as above). */
enum pr_ab_col { PR_AB_CONNECT = 0, PR_AB_PROCESSING, PR_AB_WAITING, PR_AB_TOTAL };
int64_t pr_ab_value(const pr_run *run, const pr_sample *s, int col);
/* One column's row from its n values in input order (the sd sums in that order, as ab);
 * v is reordered on return (its median selected in place, not sorted). */
void pr_ab_stats_column(int64_t *v, size_t n, pr_ab_row *row);
/* The percentage table from the total times, in any order (reordered: the ranks selected in
 * place). */
void pr_ab_stats_percentages(int64_t *total, size_t n, pr_ab_tables *out);

/* Index into the total-time-sorted array that ab's -e CSV uses for row i (0..100):
 * 0 → 0, 100 → n-1, else round_half_up(n*i/100). A result == n means ab read past its
 * samples (happens when n <= 50): that row of ab's CSV is garbage. */
size_t pr_ab_csv_index(size_t n, int i);

/* Appends the two tables in ab's own layout: "Connection Times (ms)" with its header,
 * four rows, ab's WARNING/ERROR lines, then (if present) a blank line and the percentage
 * table. */
void pr_ab_stats_print(const pr_ab_tables *t, pr_buf *out);

/* The same tables as JSON (the caller's): {requests, connection_times_ms {connect, processing,
 * waiting, total: {min, mean, sd, median, max}}, reliability [{row, level, text}] (ab's
 * WARNING/ERROR lines), percentage_served_ms [{percent, ms}] or null when ab prints none};
 * what is unknown is null. */
json_t *pr_ab_stats_json(const pr_ab_tables *t);

#endif
