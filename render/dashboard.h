/* The interactive report: the data its charts draw (per-pixel-column, min/max-preserving
 * downsampling of every sample, the model's time series), and the script and charting library
 * (uPlot, embedded at build time) that a report page inlines. docs/templates.md, `dashboard`. */
#ifndef PR_DASHBOARD_H
#define PR_DASHBOARD_H
#include <jansson.h>
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

/* Sets ctx.dashboard = {data, words, script, library, library_css, library_licence,
 * library_version} for the runs of ctx (the report model); points may be NULL (no
 * latency-over-time data). data and words are JSON safe to inline in a <script> element. */
int pr_dashboard_add(json_t *ctx, pr_points_fn points, void *payload, pr_error *err);

/* The words of the interactive charts as JSON text (safe inside <script>): chart titles,
 * series names and units by the keys render/js/dashboard.js uses, in the reader's language. */
json_t *pr_dashboard_words(void);

/* The run's data object (exposed for tests): ts, labels, latency columns, findings, breakdown. */
json_t *pr_dashboard_run_data(json_t *run, const pr_chart_points *pts);

#endif
