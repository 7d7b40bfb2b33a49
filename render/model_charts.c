/* Converts the report model's JSON into the chart library's input structs. */
#include "render/model_charts.h"
#include "model/native.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void *own(pr_model_charts *mc, size_t bytes)
{
    void *p = pr_xcalloc(1, bytes ? bytes : 1);
    if (mc->nowned < (int)(sizeof mc->owned / sizeof mc->owned[0]))
        mc->owned[mc->nowned++] = p;
    return p;
}

static int64_t ival(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
}

static double dval(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void fill_ts(pr_model_charts *mc, json_t *ts)
{
    json_t *pts = json_object_get(ts, "points");
    size_t n = json_array_size(pts);
    if (!n)
        return;
    pr_chart_timeseries *t = &mc->ts;
    memset(t, 0, sizeof *t);
    t->n = n;
    t->interval_ns = ival(ts, "interval_ns");
    int64_t *tt = own(mc, n * sizeof *tt), *p50 = own(mc, n * sizeof *p50),
            *p90 = own(mc, n * sizeof *p90), *p99 = own(mc, n * sizeof *p99),
            *mx = own(mc, n * sizeof *mx);
    double *okps = own(mc, n * sizeof *okps), *failps = own(mc, n * sizeof *failps),
           *rate = own(mc, n * sizeof *rate), *thr = NULL;
    double secs = (double)t->interval_ns / 1e9;
    int codes[64], ncodes = 0;
    size_t i;
    json_t *p;
    json_array_foreach (pts, i, p) {
        tt[i] = ival(p, "t_ns");
        p50[i] = ival(p, "p50_ns");
        p90[i] = ival(p, "p90_ns");
        p99[i] = ival(p, "p99_ns");
        mx[i] = ival(p, "max_ns");
        okps[i] = (double)ival(p, "successes") / secs;
        failps[i] = (double)ival(p, "errors") / secs;
        if (json_is_null(json_object_get(p, "successes")) || ival(p, "successes") < 0)
            okps[i] = failps[i] = NAN;
        rate[i] = dval(p, "rate_per_s");
        if (json_object_get(p, "threads")) {
            if (!thr) {
                thr = own(mc, n * sizeof *thr);
                for (size_t k = 0; k < n; k++)
                    thr[k] = NAN; /* intervals without samples say nothing about threads */
            }
            thr[i] = (double)ival(p, "threads");
        }
        const char *k;
        json_t *v;
        json_object_foreach (json_object_get(p, "status_codes"), k, v) {
            int code = strcmp(k, "other") ? atoi(k) : 999;
            int seen = 0;
            for (int c = 0; c < ncodes; c++)
                seen |= codes[c] == code;
            if (!seen && ncodes < 64)
                codes[ncodes++] = code;
        }
    }
    qsort(codes, (size_t)ncodes, sizeof *codes, cmp_int);
    int *cc = own(mc, (size_t)ncodes * sizeof *cc);
    double *counts = own(mc, (size_t)ncodes * n * sizeof *counts);
    memcpy(cc, codes, (size_t)ncodes * sizeof *cc);
    json_array_foreach (pts, i, p) {
        json_t *sc = json_object_get(p, "status_codes");
        for (int c = 0; c < ncodes; c++) {
            char k[16];
            if (cc[c] == 999)
                snprintf(k, sizeof k, "other");
            else
                snprintf(k, sizeof k, "%d", cc[c]);
            counts[(size_t)c * n + i] = (double)(json_integer_value(json_object_get(sc, k))) / secs;
        }
    }
    t->t_ns = tt;
    t->p50_ns = p50;
    t->p90_ns = p90;
    t->p99_ns = p99;
    t->max_ns = mx;
    t->ok_per_s = okps;
    t->fail_per_s = failps;
    t->rate_per_s = rate;
    t->threads = thr;
    t->n_codes = (size_t)ncodes;
    t->codes = cc;
    t->code_counts = counts;
    mc->has_ts = 1;
}

static void fill_dist(pr_model_charts *mc, json_t *run)
{
    json_t *spec = json_object_get(run, "spectrum"), *hist = json_object_get(run, "histogram");
    size_t ns = json_array_size(spec), nh = json_array_size(hist);
    if (!ns && !nh)
        return;
    pr_chart_dist *d = &mc->dist;
    memset(d, 0, sizeof *d);
    d->name = json_string_value(json_object_get(run, "name"));
    double *pct = own(mc, ns * sizeof *pct);
    int64_t *pl = own(mc, ns * sizeof *pl), *lo = own(mc, nh * sizeof *lo),
            *hi = own(mc, nh * sizeof *hi);
    uint64_t *cnt = own(mc, nh * sizeof *cnt);
    size_t i;
    json_t *e;
    json_array_foreach (spec, i, e) {
        pct[i] = dval(e, "percentile");
        pl[i] = ival(e, "latency_ns");
    }
    json_array_foreach (hist, i, e) {
        lo[i] = ival(e, "from_ns");
        hi[i] = ival(e, "to_ns");
        cnt[i] = (uint64_t)ival(e, "count");
    }
    d->n_pct = ns;
    d->pct = pct;
    d->pct_latency_ns = pl;
    d->n_buckets = nh;
    d->bucket_lo_ns = lo;
    d->bucket_hi_ns = hi;
    d->bucket_count = cnt;
    mc->has_dist = 1;
}

static void fill_labels(pr_model_charts *mc, json_t *run, const char *stat)
{
    json_t *labels = json_object_get(run, "labels");
    size_t n = json_array_size(labels);
    pr_chart_label *v = own(mc, n * sizeof *v);
    size_t i;
    json_t *l;
    json_array_foreach (labels, i, l) {
        v[i].name = json_string_value(json_object_get(l, "label"));
        v[i].latency_ns = ival(json_object_get(l, "latency_ns"), stat);
        v[i].count = (uint64_t)ival(l, "requests");
        int64_t e = ival(l, "errors");
        v[i].errors = e > 0 ? (uint64_t)e : 0;
    }
    mc->labels.n = n;
    mc->labels.v = v;
    mc->labels.stat = stat;
}

void pr_model_charts_run(pr_model_charts *mc, json_t *run, const char *label_stat)
{
    fill_ts(mc, json_object_get(run, "timeseries"));
    fill_dist(mc, run);
    fill_labels(mc, run, label_stat ? label_stat : "p99");
}

void pr_model_charts_runs(pr_model_charts *mc, json_t *doc, const char *load_tag)
{
    json_t *runs = json_object_get(doc, "runs");
    size_t n = json_array_size(runs);
    const char **names = own(mc, n * sizeof *names);
    double *vals = own(mc, 4 * n * sizeof *vals);
    double *offered = own(mc, n * sizeof *offered), *thr = own(mc, n * sizeof *thr),
           *err = own(mc, n * sizeof *err);
    int64_t *p99 = own(mc, n * sizeof *p99);
    size_t i, ncap = 0;
    json_t *r;
    json_array_foreach (runs, i, r) {
        json_t *s = json_object_get(r, "stats");
        json_t *lat = json_object_get(s, "latency_ns");
        names[i] = json_string_value(json_object_get(r, "name"));
        int64_t v50 = ival(lat, "p50"), v99 = ival(lat, "p99");
        vals[0 * n + i] = v50 >= 0 ? (double)v50 : NAN;
        vals[1 * n + i] = v99 >= 0 ? (double)v99 : NAN;
        vals[2 * n + i] = dval(s, "throughput_per_s");
        vals[3 * n + i] = dval(s, "error_ratio");
        double load = dval(r, "offered_rate_per_s");
        if (load_tag) {
            const char *t =
                json_string_value(json_object_get(json_object_get(r, "tags"), load_tag));
            load = t ? atof(t) : NAN;
        }
        if (isfinite(load)) {
            offered[ncap] = load;
            thr[ncap] = dval(s, "throughput_per_s");
            p99[ncap] = v99;
            err[ncap] = dval(s, "error_ratio");
            ncap++;
        }
    }
    mc->metrics[0] = (pr_chart_metric){"p50", PR_CHART_UNIT_NS};
    mc->metrics[1] = (pr_chart_metric){"p99", PR_CHART_UNIT_NS};
    mc->metrics[2] = (pr_chart_metric){"throughput", PR_CHART_UNIT_PER_S};
    mc->metrics[3] = (pr_chart_metric){"error ratio", PR_CHART_UNIT_RATIO};
    mc->compare.n_runs = n;
    mc->compare.run_names = names;
    mc->compare.n_metrics = 4;
    mc->compare.metrics = mc->metrics;
    mc->compare.values = vals;
    if (ncap >= 2) {
        mc->capacity.n = ncap;
        mc->capacity.offered_per_s = offered;
        mc->capacity.throughput_per_s = thr;
        mc->capacity.p99_ns = p99;
        mc->capacity.error_ratio = err;
        mc->capacity.knee = pr_chart_capacity_knee(&mc->capacity);
        mc->has_capacity = 1;
    }
}

void pr_model_charts_capacity(pr_model_charts *mc, json_t *analysis, const char *load_title)
{
    json_t *pts = json_object_get(analysis, "points"), *k = json_object_get(analysis, "knee");
    size_t n = json_array_size(pts), i;
    double *load = own(mc, n * sizeof *load), *thr = own(mc, n * sizeof *thr),
           *err = own(mc, n * sizeof *err);
    int64_t *p99 = own(mc, n * sizeof *p99);
    json_t *p;
    json_array_foreach (pts, i, p) {
        load[i] = dval(p, "load");
        thr[i] = dval(p, "throughput_per_s");
        err[i] = dval(p, "error_ratio");
        p99[i] = isfinite(dval(p, "p99_ns")) ? (int64_t)dval(p, "p99_ns") : -1;
    }
    mc->capacity = (pr_chart_capacity){n,
                                       load,
                                       thr,
                                       p99,
                                       err,
                                       json_is_object(k) ? (long)dval(k, "index") : -1,
                                       json_string_value(json_object_get(k, "reason")),
                                       load_title};
    mc->has_capacity = 1;
}

pr_chart_input pr_model_charts_input(pr_model_charts *mc)
{
    pr_chart_input in;
    memset(&in, 0, sizeof in);
    in.ts = mc->has_ts ? &mc->ts : NULL;
    in.dists = mc->has_dist ? &mc->dist : NULL;
    in.n_dists = mc->has_dist ? 1 : 0;
    in.labels = &mc->labels;
    in.compare = mc->compare.n_runs ? &mc->compare : NULL;
    in.capacity = mc->has_capacity ? &mc->capacity : NULL;
    return in;
}

void pr_model_charts_dispose(pr_model_charts *mc)
{
    for (int i = 0; i < mc->nowned; i++)
        free(mc->owned[i]);
    memset(mc, 0, sizeof *mc);
}

/* The sample columns a kind's figures are made from, beside the start (the window, the
 * intervals) and the flags (a transaction sample stays out of the run's figures); 0: every
 * column. A chart decodes no other column. */
static unsigned kind_cols(const pr_chart_kind *kind)
{
    static const struct {
        const char *kind;
        unsigned cols;
    } cols[] = {
        /* per interval: the latencies sent */
        {"percentiles", PR_COLBIT(PR_COL_LATENCY)},
        /* responses by outcome where they completed (start + latency), requests, threads */
        {"throughput", PR_COLBIT(PR_COL_LATENCY) | PR_COLBIT(PR_COL_SUCCESS) |
                           PR_COLBIT(PR_COL_STATUS) | PR_COLBIT(PR_COL_ERROR) |
                           PR_COLBIT(PR_COL_THREADS)},
        /* status codes where the responses completed */
        {"status", PR_COLBIT(PR_COL_LATENCY) | PR_COLBIT(PR_COL_STATUS)},
        /* the run's latencies */
        {"spectrum", PR_COLBIT(PR_COL_LATENCY)},
        {"histogram", PR_COLBIT(PR_COL_LATENCY)},
        /* per label: requests, errors (the outcome) and a latency percentile */
        {"labels", PR_COLBIT(PR_COL_LABEL) | PR_COLBIT(PR_COL_LATENCY) | PR_COLBIT(PR_COL_SUCCESS) |
                       PR_COLBIT(PR_COL_STATUS) | PR_COLBIT(PR_COL_ERROR)},
    };
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++)
        if (!strcmp(kind->name, cols[i].kind))
            return cols[i].cols | PR_COLBIT(PR_COL_START) | PR_COLBIT(PR_COL_FLAGS);
    return 0;
}

/* What the report model of a chart of this kind needs: no findings; a time series, the
 * distribution or the labels only for the kinds that draw them; no durations for the kinds
 * that draw counts; only the columns the kind's figures come from. A chart draws
 * percentiles from histograms (bounded mode, within 0.1%: below a pixel at any chart size),
 * so drawing 10 million samples does not sort them. */
void pr_model_charts_opts(const pr_chart_kind *kind, pr_report_opts *ro)
{
    unsigned nd = kind->needs;
    if (nd & (PR_CHART_NEEDS_COMPARE | PR_CHART_NEEDS_CAPACITY))
        return; /* several runs' headline figures: the whole model */
    ro->findings = 0;
    ro->timeseries = (nd & PR_CHART_NEEDS_TS) != 0;
    ro->histogram = (nd & PR_CHART_NEEDS_DISTS) != 0;
    ro->rows = (nd & PR_CHART_NEEDS_LABELS) != 0;
    ro->durations = strcmp(kind->name, "throughput") && strcmp(kind->name, "status");
    /* the run's own latencies only for its distribution; no label's Apdex or errors */
    ro->run_durations = ro->histogram;
    ro->label_extras = 0;
    ro->exact_limit = 1;
    ro->cols = kind_cols(kind);
    /* the start places a sample in the window and in the intervals: without either (the labels
     * and distribution kinds, unwindowed) nothing drawn comes from it */
    if (ro->cols && !ro->timeseries && ro->from_ns == PR_UNKNOWN && ro->to_ns == PR_UNKNOWN)
        ro->cols &= ~PR_COLBIT(PR_COL_START);
}
