/* The interactive report: the data its charts draw (per-pixel-column, min/max-preserving
 * downsampling of every sample, the model's time series), and the script and charting library
 * (uPlot, embedded at build time) that a report page inlines. docs/templates.md, `dashboard`. */
#ifndef PR_DASHBOARD_H
#define PR_DASHBOARD_H
#include <jansson.h>
#include <stdint.h>
#include "model/error.h"
#include "render/mustache.h"
#include "render/report_page.h"

/* Built-in assets (tests/tools/embed.sh -t pr_builtin_assets): dashboard.js, uPlot.min.js,
 * uPlot.min.css, uPlot.LICENSE. */
extern const pr_builtin_template pr_builtin_assets[];

/* Columns the latency-over-time data keeps per run (each: min and max of successes and of
 * errors, and the count), and the density grid under it (columns × rows, log latency). */
#define PR_DASH_COLUMNS 2000
#define PR_DASH_DENSITY_COLS 500
#define PR_DASH_DENSITY_ROWS 64

/* The text of a built-in asset, or NULL. */
const char *pr_dashboard_asset(const char *name, size_t *len);

/* The latency-over-time data of one run (its "lat" object), made from the run's points apart
 * from the model, so that a caller may make it on another thread while the model is built:
 * per column of the run's time the least and greatest latency of successes and of errors
 * (-1: none) and the counts, and the density grid (PR_DASH_DENSITY_COLS x _ROWS counts, rows
 * by log latency from 10^lo to 10^hi ns). Caller-owned; zeroed: no point to draw. */
typedef struct pr_dash_col {
    int64_t okmin, okmax, errmin, errmax;
    uint32_t n, nerr;
} pr_dash_col;

typedef struct pr_dash_lat {
    int64_t w_ns;      /* column width; 0: no point with a known time and latency */
    pr_dash_col *cols; /* PR_DASH_COLUMNS */
    int64_t dens_w_ns; /* density column width */
    double lo, hi;     /* log10 of the density rows' range (ns) */
    uint32_t *cells;   /* column-major: cells[col * PR_DASH_DENSITY_ROWS + row] */
} pr_dash_lat;

/* Fills out from the points with a time >= 0 and a latency >= 0 (those a chart draws), on up
 * to `threads` threads (at most 2): the same data for any number. */
void pr_dashboard_lat(const pr_run_points *pts, int threads, pr_dash_lat *out);
void pr_dashboard_lat_dispose(pr_dash_lat *lat);

/* Supplies a run's latency-over-time data (0, out filled or left zeroed; < 0: none). */
typedef int (*pr_dash_lat_fn)(json_t *run, pr_dash_lat *out, pr_error *err, void *payload);

/* Sets ctx.dashboard = {data, words, script, library, library_css, library_licence,
 * library_version} for the runs of ctx (the report model); lat may be NULL (no
 * latency-over-time data). data and words are JSON safe to inline in a <script> element. */
int pr_dashboard_add(json_t *ctx, pr_dash_lat_fn lat, void *payload, pr_error *err);

/* The words of the interactive charts as JSON text (safe inside <script>): chart titles,
 * series names and units by the keys render/js/dashboard.js uses, in the reader's language. */
json_t *pr_dashboard_words(void);

/* The run's data object (exposed for tests): ts, labels, latency columns (lat may be NULL),
 * findings, breakdown. */
json_t *pr_dashboard_run_data(json_t *run, const pr_dash_lat *lat);

#endif
