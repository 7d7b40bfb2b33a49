/* Trends: one metric over stored runs, with step tests and change points. */
#include "analysis/trend.h"
#include "analysis/history.h"
#include "analysis/human.h"
#include "analysis/report.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const pr_trend_metric metrics[] = {
    {"p50", "p50", 1, 1},
    {"p90", "p90", 1, 1},
    {"p95", "p95", 1, 1},
    {"p99", "p99", 1, 1},
    {"p99.9", "p99_9", 1, 1},
    {"mean", "mean", 1, 1},
    {"max", "max", 1, 1},
    {"min", "min", 1, 1},
    {"throughput", "throughput_per_s", 0, 0},
    {"rate", "rate_per_s", 0, 0},
    {"error_ratio", "error_ratio", 0, 1},
};

const pr_trend_metric *pr_trend_metric_find(const char *name)
{
    for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++)
        if (!strcmp(name, metrics[i].name))
            return &metrics[i];
    return NULL;
}

void pr_trend_opts_init(pr_trend_opts *o)
{
    memset(o, 0, sizeof *o);
    o->min_effect = 0.05;
    pr_cp_opts_init(&o->cp);
}

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static double metric_value(json_t *model, const pr_trend_metric *m)
{
    json_t *s = json_object_get(model, "stats");
    if (m->latency) {
        json_t *l = json_object_get(s, "latency_ns");
        double v = num(l, m->key);
        if (!isfinite(v) && !strcmp(m->key, "p99_9"))
            v = num(l, "p99.9"); /* summary-only key */
        return v;
    }
    double v = num(s, m->key);
    if (!isfinite(v) && !strcmp(m->key, "error_ratio") && isfinite(num(s, "success_ratio")))
        v = 1 - num(s, "success_ratio");
    return v;
}

char *pr_trend_human(const pr_trend_metric *m, double v, char *buf, size_t size)
{
    if (m->latency)
        pr_human_duration(isfinite(v) ? (int64_t)llround(v) : PR_UNKNOWN, buf, size);
    else if (!strcmp(m->key, "error_ratio"))
        pr_human_percent(v, buf, size);
    else
        pr_human_rate(v, buf, size);
    return buf;
}

typedef struct point {
    int64_t id;
    const char *key; /* ordering key (tag value) or NULL */
    int64_t start_ns;
    double v;
    json_t *model;
} point;

static int cmp_point(const void *a, const void *b)
{
    const point *x = a, *y = b;
    if (x->key && y->key) {
        int c = strverscmp(x->key, y->key);
        if (c)
            return c;
    }
    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* The points, in order, and the options. */
typedef struct trend {
    const pr_trend_opts *o;
    point *pts;
    size_t np, skipped;
} trend;

/* One point per selected run that has the --by tag and a value for the metric, in order. */
static int collect(pr_store *st, trend *T, const int64_t *ids, size_t n, pr_error *err)
{
    pr_report_opts ro;
    pr_report_opts_init(&ro);
    ro.timeseries = 0;
    ro.histogram = 0;
    T->pts = n ? pr_xcalloc(n, sizeof *T->pts) : NULL;
    for (size_t i = 0; i < n; i++) {
        json_t *model;
        int rc = pr_report_run(st, ids[i], &ro, &model, err);
        if (rc < 0)
            return rc;
        const char *key =
            T->o->by ? json_string_value(json_object_get(json_object_get(model, "tags"), T->o->by))
                     : NULL;
        double v = metric_value(model, T->o->metric);
        if ((T->o->by && !key) || !isfinite(v)) {
            T->skipped += T->o->by && !key ? 0 : 1;
            json_decref(model);
            continue;
        }
        T->pts[T->np++] = (point){ids[i], key, (int64_t)num(model, "start_ns"), v, model};
    }
    if (T->np == 0 && T->o->by)
        return pr_error_set(err, PR_ENOTFOUND, NULL, 0, 0,
                            "no run has the tag '%s' and a value for the metric", T->o->by);
    if (T->np == 0)
        return pr_error_set(err, PR_ENOTFOUND, NULL, 0, 0, "no run has a value for the metric");
    qsort(T->pts, T->np, sizeof *T->pts, cmp_point);
    return 0;
}

/* Change points of the one-value-per-run series, and whether the test could decide at all. */
static json_t *changepoints_json(trend *T, int *regs, unsigned char *flagged)
{
    double *x = pr_xmalloc((T->np + 1) * sizeof *x);
    for (size_t i = 0; i < T->np; i++)
        x[i] = T->pts[i].v;
    pr_changepoint *cps = NULL;
    size_t ncp = pr_changepoints(x, T->np, &T->o->cp, &cps), tau = 0;
    double q, pmin = pr_cp_best_split(x, T->np, T->o->cp.min_size, &tau, &q) == 0
                         ? pr_cp_min_p(T->np, tau, &T->o->cp)
                         : 1;
    json_t *cp = json_object(), *changes = json_array();
    json_object_set_new(cp, "method", json_string("e-divisive"));
    json_object_set_new(cp, "min_p_value", json_real(pmin));
    json_object_set_new(cp, "can_decide", json_boolean(pmin < T->o->cp.alpha));
    json_object_set_new(cp, "runs_needed", json_integer((json_int_t)pr_cp_min_runs(&T->o->cp)));
    for (size_t k = 0; k < ncp; k++) {
        pr_changepoint *c = &cps[k];
        double rel =
            c->mean_before != 0 ? (c->mean_after - c->mean_before) / fabs(c->mean_before) : NAN;
        int worse = T->o->metric->higher_worse ? c->mean_after > c->mean_before
                                               : c->mean_after < c->mean_before;
        int large = isfinite(rel) ? fabs(rel) >= T->o->min_effect : c->mean_after != c->mean_before;
        const char *verdict = !large ? "small" : worse ? "regression" : "improvement";
        if (large && worse && !flagged[c->index]++)
            (*regs)++;
        json_t *e = json_object();
        json_object_set_new(e, "index", json_integer((json_int_t)c->index));
        json_object_set_new(e, "run_id", json_integer(T->pts[c->index].id));
        json_object_set_new(e, "key",
                            T->pts[c->index].key ? json_string(T->pts[c->index].key) : json_null());
        json_object_set_new(e, "mean_before", json_real(c->mean_before));
        json_object_set_new(e, "mean_after", json_real(c->mean_after));
        json_object_set_new(e, "rel", isfinite(rel) ? json_real(rel) : json_null());
        json_object_set_new(e, "p_value", json_real(c->p_value));
        json_object_set_new(e, "stat", json_real(c->stat));
        json_object_set_new(e, "verdict", json_string(verdict));
        json_array_append_new(changes, e);
    }
    json_object_set_new(cp, "change_points", changes);
    free(cps);
    free(x);
    return cp;
}

static json_t *series_json(const trend *T, json_t *steps)
{
    json_t *series = json_array();
    char h[32];
    for (size_t i = 0; i < T->np; i++) {
        json_t *e = json_object(), *st = json_array_get(steps, i);
        json_object_set_new(e, "run_id", json_integer(T->pts[i].id));
        json_object_set(e, "name", json_object_get(T->pts[i].model, "name"));
        json_object_set_new(e, "key", T->pts[i].key ? json_string(T->pts[i].key) : json_null());
        json_object_set_new(e, "value", json_real(T->pts[i].v));
        pr_trend_human(T->o->metric, T->pts[i].v, h, sizeof h);
        json_object_set_new(e, "human", json_string(h));
        json_object_set(e, "vs_previous", st ? json_object_get(st, "vs_previous") : json_null());
        json_object_set(e, "vs_first", st ? json_object_get(st, "vs_first") : json_null());
        json_array_append_new(series, e);
    }
    return series;
}

/* The document: series (with each run's step tests), change points, regressions. */
static int build_doc(pr_store *st, trend *T, json_t **out, pr_error *err)
{
    pr_compare_opts co;
    pr_compare_opts_init(&co);
    co.alpha = T->o->cp.alpha;
    co.min_effect = T->o->min_effect;
    int64_t *ids = pr_xmalloc((T->np + 1) * sizeof *ids);
    for (size_t i = 0; i < T->np; i++)
        ids[i] = T->pts[i].id;
    json_t *steps = NULL;
    int rc = pr_history_steps(st, ids, T->np, T->o->metric->name, &co, &steps, err);
    free(ids);
    if (rc < 0)
        return rc;
    unsigned char *flagged = pr_xcalloc(T->np + 1, 1);
    int regs = 0, steps_regs = 0;
    json_t *doc = json_object();
    json_object_set_new(doc, "schema", json_string("perfreport-trend"));
    json_object_set_new(doc, "version", json_integer(2));
    json_object_set_new(doc, "metric", json_string(T->o->metric->name));
    json_object_set_new(doc, "by", T->o->by ? json_string(T->o->by) : json_null());
    json_object_set_new(doc, "alpha", json_real(T->o->cp.alpha));
    json_object_set_new(doc, "permutations", json_integer(T->o->cp.permutations));
    json_object_set_new(doc, "min_effect", json_real(T->o->min_effect));
    for (size_t i = 1; i < T->np; i++) {
        json_t *d = json_object_get(json_array_get(steps, i), "vs_previous");
        if (json_is_true(json_object_get(d, "is_regression"))) {
            steps_regs++;
            regs += !flagged[i]++;
        }
    }
    json_t *cp = changepoints_json(T, &regs, flagged);
    json_object_set_new(doc, "series", series_json(T, steps));
    json_object_set(doc, "change_points", json_object_get(cp, "change_points"));
    json_object_del(cp, "change_points");
    json_object_set_new(doc, "change_point_test", cp);
    json_t *drift =
        T->np > 1 ? json_object_get(json_array_get(steps, T->np - 1), "vs_first") : NULL;
    json_object_set(doc, "last_vs_first", drift ? drift : json_null());
    int drift_reg = json_is_true(json_object_get(drift, "is_regression"));
    json_object_set_new(doc, "step_regressions", json_integer(steps_regs));
    json_object_set_new(doc, "regressions", json_integer(regs + (drift_reg && regs == 0)));
    json_object_set_new(doc, "skipped_runs", json_integer((json_int_t)T->skipped));
    json_decref(steps);
    free(flagged);
    *out = doc;
    return 0;
}

int pr_trend_build(pr_store *st, const int64_t *ids, size_t n, const pr_trend_opts *o, json_t **out,
                   pr_error *err)
{
    trend T = {o, NULL, 0, 0};
    int rc = collect(st, &T, ids, n, err);
    if (rc == 0)
        rc = build_doc(st, &T, out, err);
    for (size_t i = 0; i < T.np; i++)
        json_decref(T.pts[i].model);
    free(T.pts);
    return rc;
}
