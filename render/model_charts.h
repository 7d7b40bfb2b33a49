/* Chart inputs taken from the report model (the JSON analysis produces): time series,
 * latency distribution, per-label bars, run comparisons and capacity series. */
#ifndef PR_MODEL_CHARTS_H
#define PR_MODEL_CHARTS_H
#include <jansson.h>
#include "analysis/report.h"
#include "render/chart.h"

/* Owns every array the chart structs point into. */
typedef struct pr_model_charts {
    pr_chart_timeseries ts;
    int has_ts;
    pr_chart_dist dist;
    int has_dist;
    pr_chart_labels labels;
    pr_chart_compare compare;
    pr_chart_capacity capacity;
    int has_capacity;
    void *owned[64];
    int nowned;
    pr_chart_metric metrics[4];
} pr_model_charts;

/* The options of the report model a chart of this kind is drawn from (ro set up by
 * pr_report_opts_init, its window and interval the caller's): only the parts and the sample
 * columns this file reads for the kind (a bounded model, no findings); the whole model for
 * the kinds that compare runs. */
void pr_model_charts_opts(const pr_chart_kind *kind, pr_report_opts *ro);
/* Fills the per-run inputs (time series, distribution, labels) from one run of the model.
 * label_stat: the percentile key drawn per label, e.g. "p99" (NULL: "p99"). */
void pr_model_charts_run(pr_model_charts *mc, json_t *run, const char *label_stat);
/* Fills the comparison (p50, p99, throughput, error ratio) and capacity inputs from the runs
 * of a model document; capacity needs runs with an offered rate (or a `load_tag` tag). */
void pr_model_charts_runs(pr_model_charts *mc, json_t *doc, const char *load_tag);
/* Fills the capacity input from one series of a capacity analysis (pr_capacity_analyse's
 * document: points, knee); load_title: the x axis title, NULL for an offered rate. */
void pr_model_charts_capacity(pr_model_charts *mc, json_t *analysis, const char *load_title);
/* The chart input with everything filled. */
pr_chart_input pr_model_charts_input(pr_model_charts *mc);
void pr_model_charts_dispose(pr_model_charts *mc);

#endif
