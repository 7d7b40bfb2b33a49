/* The report page: wraps rendered Markdown as one self-contained HTML file (inline CSS, inline
 * charts, a small table-sorting script), and places the charts a report refers to. */
#ifndef PR_REPORT_PAGE_H
#define PR_REPORT_PAGE_H
#include <jansson.h>
#include <stddef.h>
#include "model/buf.h"
#include "model/error.h"

/* Converts md (Markdown) to HTML and wraps it in a complete page titled from ctx.meta.title. */
int pr_report_page_html(const char *md, size_t len, json_t *ctx, pr_buf *out, pr_error *err);

#include "render/chart.h"

/* A run's per-sample points: flat arrays, and compact chunks drawn as if appended to them
 * (pr_chart_input.point_chunks; analysis/points.h loads them so). */
typedef struct pr_run_points {
    pr_chart_points flat;
    const pr_chart_point_chunk *chunks;
    size_t nchunks;
} pr_run_points;

/* Supplies the per-sample points of a run (the latency-over-time chart draws every sample,
 * which the report model does not hold). Called with run = NULL to release the last points. */
typedef int (*pr_points_fn)(json_t *run, pr_run_points *out, pr_error *err, void *payload);

/* Draws the standard charts of every run in ctx (the report model) and records them in
 * runs[i].charts.{latency_over_time, percentiles_over_time, throughput, distribution}:
 * files in OUTPUT_files/ referenced relatively, or data: URIs when inline (HTML output).
 * points may be NULL (no latency-over-time chart). */
int pr_report_page_charts(json_t *ctx, const char *output, int inline_charts, pr_points_fn points,
                          void *payload, pr_error *err);

/* Draws one chart for a report written to output: a data: URI (inline_charts: SVG) or a PNG
 * written to OUTPUT_files/NAME.png, whose path relative to the report goes into ref. */
int pr_report_page_chart(const pr_chart_kind *kind, const pr_chart_input *in,
                         const pr_chart_opts *o, const char *output, const char *name,
                         int inline_charts, pr_buf *ref, pr_error *err);

#endif
