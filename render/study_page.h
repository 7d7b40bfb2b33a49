/* The charts of a study (analysis/study.h): the capacity curve of every series and, with
 * several configurations, p50 and throughput by load level, as PNG files beside a Markdown
 * report or inline SVG (data: URIs) in HTML. */
#ifndef PR_STUDY_PAGE_H
#define PR_STUDY_PAGE_H
#include <jansson.h>
#include "model/error.h"

/* Draws the charts of the study document and records their references: capacity.series[i].
 * chart, and charts.{p50_by_level, throughput_by_level}. Returns 0 or a negative code. */
int pr_study_page_charts(json_t *study, const char *output, int inline_charts, pr_error *err);

#endif
