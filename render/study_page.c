/* The charts of a study: capacity curves per series, and bars per configuration by level. */
#include "render/study_page.h"
#include "analysis/human.h"
#include "render/model_charts.h"
#include "render/report_page.h"
#include "model/l10n.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *jstr(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The capacity chart of one series (with the SLO line when there is one). */
static int capacity_chart(json_t *cap, json_t *series, const char *output, int inline_charts,
                          pr_error *err)
{
    char *xt = json_is_true(json_object_get(cap, "load_is_rate"))
                   ? NULL
                   : pr_xasprintf(_("Load (%s)"), json_is_string(json_object_get(cap, "load_key"))
                                                      ? jstr(cap, "load_key")
                                                      : jstr(cap, "load_source"));
    pr_model_charts mc;
    memset(&mc, 0, sizeof mc);
    pr_model_charts_capacity(&mc, series, xt);
    pr_chart_input in = pr_model_charts_input(&mc);
    pr_chart_opts o;
    pr_chart_opts_init(&o);
    o.width = 1000;
    o.height = 500;
    char *title = pr_xasprintf(_("Capacity: %s"), jstr(series, "name"));
    o.title = title;
    double slo = num(cap, "slo_p99_ns");
    char h[32], label[64];
    pr_chart_threshold th = {slo, label};
    if (isfinite(slo)) {
        snprintf(label, sizeof label, _("p99 SLO %s"),
                 pr_human_duration((int64_t)slo, h, sizeof h));
        o.thresholds = &th;
        o.n_thresholds = 1;
    }
    char name[64];
    snprintf(name, sizeof name, "study-capacity-%lld",
             (long long)json_integer_value(json_object_get(series, "index")));
    pr_buf ref = PR_BUF_INIT;
    int rc = pr_report_page_chart(pr_chart_kind_find("capacity"), &in, &o, output, name,
                                  inline_charts, &ref, err);
    if (rc == 0)
        json_object_set_new(series, "chart", json_string(ref.p ? ref.p : ""));
    pr_buf_dispose(&ref);
    pr_model_charts_dispose(&mc);
    free(title);
    free(xt);
    return rc;
}

/* The value of the first row of configuration c at level l in the all-requests table. */
static double cell_value(json_t *rows, const char *config, const char *level, const char *metric)
{
    size_t i;
    json_t *r;
    json_array_foreach (rows, i, r) {
        if (strcmp(jstr(r, "configuration"), config) || strcmp(jstr(r, "level"), level))
            continue;
        return !strcmp(metric, "p50") ? num(json_object_get(r, "latency_ns"), "p50")
                                      : num(r, "throughput_per_s");
    }
    return NAN;
}

/* Grouped bars: a panel per level, a bar per configuration (the chart kind "compare"). */
static int level_chart(json_t *study, const char *metric, const char *output, int inline_charts,
                       json_t *charts, pr_error *err)
{
    json_t *configs = json_object_get(study, "configurations"),
           *levels = json_object_get(study, "levels");
    json_t *rows = json_object_get(json_array_get(json_object_get(study, "interfaces"), 0), "rows");
    size_t nc = json_array_size(configs), nl = json_array_size(levels);
    const char **names = pr_xcalloc(nc + 1, sizeof *names);
    pr_chart_metric *ms = pr_xcalloc(nl + 1, sizeof *ms);
    double *vals = pr_xcalloc(nc * nl + 1, sizeof *vals);
    for (size_t c = 0; c < nc; c++)
        names[c] = jstr(json_array_get(configs, c), "name");
    int p50 = !strcmp(metric, "p50");
    for (size_t l = 0; l < nl; l++) {
        const char *lk = jstr(json_array_get(levels, l), "key_text");
        ms[l].name = lk;
        ms[l].unit = p50 ? PR_CHART_UNIT_NS : PR_CHART_UNIT_PER_S;
        for (size_t c = 0; c < nc; c++)
            vals[l * nc + c] = cell_value(rows, names[c], lk, metric);
    }
    pr_chart_compare cmp = {nc, names, nl, ms, vals};
    pr_chart_input in;
    memset(&in, 0, sizeof in);
    in.compare = &cmp;
    pr_chart_opts o;
    pr_chart_opts_init(&o);
    o.width = 1000;
    o.height = 500;
    o.title = p50 ? _("p50 by load level") : _("Throughput by load level");
    char name[64], key[64];
    snprintf(name, sizeof name, "study-%s-by-level", metric);
    snprintf(key, sizeof key, "%s_by_level", metric);
    pr_buf ref = PR_BUF_INIT;
    int rc = pr_report_page_chart(pr_chart_kind_find("compare"), &in, &o, output, name,
                                  inline_charts, &ref, err);
    if (rc == 0)
        json_object_set_new(charts, key, json_string(ref.p ? ref.p : ""));
    pr_buf_dispose(&ref);
    free(names);
    free(ms);
    free(vals);
    return rc;
}

int pr_study_page_charts(json_t *study, const char *output, int inline_charts, pr_error *err)
{
    json_t *cap = json_object_get(study, "capacity"), *s;
    size_t i;
    int rc = 0;
    json_array_foreach (json_object_get(cap, "series"), i, s)
        if (rc == 0 && json_is_true(json_object_get(s, "has_curve")))
            rc = capacity_chart(cap, s, output, inline_charts, err);
    json_t *charts = json_object();
    if (rc == 0 && json_is_true(json_object_get(study, "several_configurations")))
        rc = level_chart(study, "p50", output, inline_charts, charts, err);
    if (rc == 0 && json_is_true(json_object_get(study, "several_configurations")))
        rc = level_chart(study, "throughput", output, inline_charts, charts, err);
    json_object_set_new(study, "charts", charts);
    return rc;
}
