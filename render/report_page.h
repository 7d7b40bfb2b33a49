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

/* Draws the standard charts of every run in ctx (the report model) and records them in
 * runs[i].charts.{latency_over_time, percentiles_over_time, throughput, distribution}:
 * files in OUTPUT_files/ referenced relatively, or data: URIs when inline (HTML output). */
int pr_report_page_charts(json_t *ctx, const char *output, int inline_charts, pr_error *err);

/* The CSS and script of the page (shared with the report.html template as partials). */
extern const char pr_report_page_css[];
extern const char pr_report_page_js[];

#endif
