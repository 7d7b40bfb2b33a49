/* Per-label Apdex, top errors and time series, accumulated during the report scan. */
#include "analysis/report_labels.h"
#include "analysis/human.h"
#include "analysis/vals.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct lbin {
    int64_t count;          /* requests sent in the interval */
    int64_t done, ok, fail; /* responses completed in it, as the run's (docs/metrics.md) */
    int64_t lat_n;          /* latencies: how many, their sum, p50, p90, p99 and max */
    long double lat_sum;
    int64_t lat_q[4]; /* exact mode: set by the report's pass over the sorted latencies */
    pr_vals lat;      /* bounded mode */
} lbin;

typedef struct err_count {
    uint32_t id;
    int64_t count;
} err_count;

struct pr_label_extra {
    int64_t count, apdex_s, apdex_t;
    int64_t unknown; /* samples with no known outcome: not in the Apdex (as the run's)… */
    int64_t apdex_su, apdex_tu; /* …unless lx->unknown_ok: theirs within T and F */
    err_count *errs;
    size_t nerrs, errs_cap;
    int64_t errs_untracked; /* errors beyond PR_LABEL_ERRORS_MAX distinct messages */
    lbin *bins;             /* nbins, or NULL */
};

void pr_label_extras_init(pr_label_extras *lx, size_t nbins, int bounded, int64_t apdex_t_ns,
                          int64_t apdex_f_ns)
{
    memset(lx, 0, sizeof *lx);
    lx->nbins = nbins;
    lx->bounded = bounded;
    lx->apdex_t_ns = apdex_t_ns;
    lx->apdex_f_ns = apdex_f_ns;
    lx->ts_max = PR_LABEL_TS_MAX;
}

static void extras_grow(pr_label_extras *lx, uint32_t lid)
{
    size_t old = lx->cap;
    lx->v = pr_xgrow(lx->v, &lx->cap, (size_t)lid + 1, sizeof *lx->v);
    memset(lx->v + old, 0, (lx->cap - old) * sizeof *lx->v);
}

/* Inline: pr_label_extras_add, once per sample of the report's scan, calls it. */
static inline pr_label_extra *extra(pr_label_extras *lx, uint32_t lid)
{
    if (lid >= lx->cap)
        extras_grow(lx, lid);
    return &lx->v[lid];
}

static void count_error(pr_label_extra *e, uint32_t id)
{
    for (size_t i = 0; i < e->nerrs; i++)
        if (e->errs[i].id == id) {
            e->errs[i].count++;
            return;
        }
    if (e->nerrs == PR_LABEL_ERRORS_MAX) {
        e->errs_untracked++;
        return;
    }
    e->errs = pr_xgrow(e->errs, &e->errs_cap, e->nerrs + 1, sizeof *e->errs);
    e->errs[e->nerrs++] = (err_count){id, 1};
}

/* Label lid's bins, made if it may have them (NULL if not). */
static lbin *label_bins(pr_label_extras *lx, pr_label_extra *e, uint32_t lid)
{
    if (e->bins)
        return e->bins;
    if (lx->with_ts >= lx->ts_max) {
        lx->refused = 1;
        return NULL;
    }
    lx->ts_order = pr_xgrow(lx->ts_order, &lx->ts_order_cap, lx->with_ts + 1, sizeof *lx->ts_order);
    lx->ts_order[lx->with_ts++] = lid;
    e->bins = pr_xcalloc(lx->nbins, sizeof *e->bins);
    for (size_t k = 0; k < lx->nbins; k++)
        pr_vals_init(&e->bins[k].lat, lx->bounded);
    return e->bins;
}

void pr_label_extras_add(pr_label_extras *lx, uint32_t lid, const pr_sample *x, int outcome,
                         uint32_t error_id, long bin, long done_bin)
{
    pr_label_extra *e = extra(lx, lid);
    e->count++;
    e->unknown += outcome < 0;
    if (outcome != 0 && x->latency_ns != PR_UNKNOWN) {
        int u = outcome < 0;
        if (x->latency_ns <= lx->apdex_t_ns)
            *(u ? &e->apdex_su : &e->apdex_s) += 1;
        else if (x->latency_ns <= lx->apdex_f_ns)
            *(u ? &e->apdex_tu : &e->apdex_t) += 1;
    }
    if (error_id) {
        count_error(e, error_id);
        lx->refused |= e->errs_untracked != 0;
    }
    if (bin < 0 || (size_t)bin >= lx->nbins)
        return;
    lbin *bins = label_bins(lx, e, lid);
    if (!bins)
        return;
    lbin *b = &bins[bin];
    b->count++;
    if (done_bin >= 0 && (size_t)done_bin < lx->nbins) {
        lbin *d = &bins[done_bin];
        d->done++;
        d->ok += outcome == 1;
        d->fail += outcome == 0;
    }
    if (x->latency_ns != PR_UNKNOWN) {
        b->lat_n++;
        b->lat_sum += x->latency_ns;
        if (lx->bounded)
            pr_vals_add(&b->lat, x->latency_ns);
    }
}

int pr_label_extras_merge(pr_label_extras *a, const pr_label_extras *b, const uint32_t *lmap,
                          const uint32_t *emap)
{
    if (b->refused)
        return -1;
    for (size_t l = 0; l < b->cap; l++) {
        const pr_label_extra *eb = &b->v[l];
        if (!eb->count)
            continue;
        pr_label_extra *ea = extra(a, lmap[l]);
        ea->count += eb->count;
        ea->unknown += eb->unknown;
        ea->apdex_su += eb->apdex_su;
        ea->apdex_tu += eb->apdex_tu;
        ea->apdex_s += eb->apdex_s;
        ea->apdex_t += eb->apdex_t;
        for (size_t i = 0; i < eb->nerrs; i++) { /* in the order b first saw them */
            uint32_t id = emap[eb->errs[i].id];
            size_t j = 0;
            while (j < ea->nerrs && ea->errs[j].id != id)
                j++;
            if (j < ea->nerrs) {
                ea->errs[j].count += eb->errs[i].count;
            } else if (ea->nerrs == PR_LABEL_ERRORS_MAX) {
                ea->errs_untracked += eb->errs[i].count;
            } else {
                ea->errs = pr_xgrow(ea->errs, &ea->errs_cap, ea->nerrs + 1, sizeof *ea->errs);
                ea->errs[ea->nerrs++] = (err_count){id, eb->errs[i].count};
            }
        }
    }
    for (size_t i = 0; i < b->with_ts; i++) { /* bins in the order b made them */
        uint32_t l = b->ts_order[i];
        lbin *src = b->v[l].bins, *dst = label_bins(a, extra(a, lmap[l]), lmap[l]);
        for (size_t k = 0; dst && k < a->nbins; k++) {
            dst[k].count += src[k].count;
            dst[k].done += src[k].done;
            dst[k].ok += src[k].ok;
            dst[k].fail += src[k].fail;
            dst[k].lat_n += src[k].lat_n;
            dst[k].lat_sum += src[k].lat_sum; /* sums of integers: exact */
            if (a->bounded)
                pr_vals_merge(&dst[k].lat, &src[k].lat); /* histograms add exactly */
        }
    }
    return 0;
}

int64_t *pr_label_extras_bin_q(pr_label_extras *lx, uint32_t lid, size_t bin, int64_t *lat_n)
{
    if (lid >= lx->cap || !lx->v[lid].bins || bin >= lx->nbins)
        return NULL;
    lbin *b = &lx->v[lid].bins[bin];
    *lat_n = b->lat_n;
    return b->lat_q;
}

static int cmp_err(const void *x, const void *y)
{
    const err_count *a = x, *b = y;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

static void put_int(json_t *o, const char *k, int64_t v)
{
    json_object_set_new(o, k, json_integer(v));
}

static void put_real(json_t *o, const char *k, double v)
{
    json_object_set_new(o, k, isfinite(v) ? json_real(v) : json_null());
}

static json_t *bins_json(const pr_label_extras *lx, pr_label_extra *e, int64_t interval_ns,
                         size_t npoints)
{
    json_t *pts = json_array();
    double secs = (double)interval_ns / 1e9;
    for (size_t i = 0; i < npoints; i++) {
        lbin *b = &e->bins[i];
        json_t *p = json_object();
        put_int(p, "t_ns", (int64_t)i * interval_ns);
        put_int(p, "requests", b->count);
        put_int(p, "responses", b->done);
        if (b->ok + b->fail > 0 || b->done == 0) {
            put_int(p, "successes", b->ok);
            put_int(p, "errors", b->fail);
            put_real(p, "throughput_per_s", (double)b->ok / secs);
        } else { /* outcomes unknown (ab -g) */
            json_object_set_new(p, "successes", json_null());
            json_object_set_new(p, "errors", json_null());
            json_object_set_new(p, "throughput_per_s", json_null());
        }
        put_real(p, "rate_per_s", (double)b->count / secs);
        if (b->lat_n && lx->bounded) {
            pr_dist d;
            pr_vals_dist(&b->lat, &d);
            put_int(p, "mean_ns", (int64_t)llround(d.mean));
            put_int(p, "p50_ns", pr_vals_percentile(&b->lat, 50));
            put_int(p, "p90_ns", pr_vals_percentile(&b->lat, 90));
            put_int(p, "p99_ns", pr_vals_percentile(&b->lat, 99));
            put_int(p, "max_ns", d.max);
        } else if (b->lat_n) { /* the sum of integers is exact: the mean as pr_dist_compute's */
            put_int(p, "mean_ns", (int64_t)llround((double)(b->lat_sum / (long double)b->lat_n)));
            put_int(p, "p50_ns", b->lat_q[0]);
            put_int(p, "p90_ns", b->lat_q[1]);
            put_int(p, "p99_ns", b->lat_q[2]);
            put_int(p, "max_ns", b->lat_q[3]);
        }
        json_array_append_new(pts, p);
    }
    return pts;
}

void pr_label_extras_json(pr_label_extras *lx, uint32_t lid, json_t *label, const pr_strtab *names,
                          int64_t interval_ns, size_t npoints)
{
    if (lid >= lx->cap || lx->v[lid].count == 0)
        return;
    pr_label_extra *e = &lx->v[lid];
    json_object_set_new(label, "apdex",
                        lx->unknown_ok
                            ? pr_apdex_json(e->apdex_s + e->apdex_su, e->apdex_t + e->apdex_tu,
                                            e->count, lx->apdex_t_ns, lx->apdex_f_ns)
                            : pr_apdex_json(e->apdex_s, e->apdex_t, e->count - e->unknown,
                                            lx->apdex_t_ns, lx->apdex_f_ns));
    if (e->nerrs)
        qsort(e->errs, e->nerrs, sizeof *e->errs, cmp_err);
    json_t *top = json_array();
    for (size_t i = 0; i < e->nerrs && i < PR_LABEL_TOP_ERRORS; i++) {
        json_t *t = json_object();
        json_object_set_new(t, "message", json_string(pr_strtab_get(names, e->errs[i].id)));
        put_int(t, "count", e->errs[i].count);
        double ratio = (double)e->errs[i].count / (double)e->count;
        char h[32];
        put_real(t, "ratio", ratio);
        json_object_set_new(t, "pct", json_string(pr_human_percent(ratio, h, sizeof h)));
        json_object_set_new(t, "first", json_boolean(i == 0));
        json_object_set_new(t, "last",
                            json_boolean(i + 1 == e->nerrs || i + 1 == PR_LABEL_TOP_ERRORS));
        json_array_append_new(top, t);
    }
    json_object_set_new(label, "top_errors", top);
    put_int(label, "error_messages", (int64_t)e->nerrs);
    if (e->errs_untracked)
        put_int(label, "errors_untracked", e->errs_untracked);
    if (e->bins) {
        json_t *ts = json_object();
        put_int(ts, "interval_ns", interval_ns);
        /* the run's definitions: requests and latency by send time, responses by completion */
        json_object_set_new(ts, "requests_by", json_string("send"));
        json_object_set_new(ts, "responses_by", json_string("completion"));
        json_object_set_new(ts, "latency_by", json_string("send"));
        json_object_set_new(
            ts, "points", bins_json(lx, e, interval_ns, npoints < lx->nbins ? npoints : lx->nbins));
        json_object_set_new(label, "timeseries", ts);
    }
}

json_t *pr_apdex_json(int64_t satisfied, int64_t tolerating, int64_t count, int64_t t_ns,
                      int64_t f_ns)
{
    json_t *ap = json_object();
    double score = count ? ((double)satisfied + (double)tolerating / 2) / (double)count : NAN;
    char h[32];
    put_real(ap, "score", score);
    if (isfinite(score)) {
        snprintf(h, sizeof h, "%.3f", score);
        json_object_set_new(ap, "score_text", json_string(h));
    } else {
        json_object_set_new(ap, "score_text", json_string("-"));
    }
    put_int(ap, "t_ns", t_ns);
    put_int(ap, "f_ns", f_ns);
    json_object_set_new(ap, "t", json_string(pr_human_duration(t_ns, h, sizeof h)));
    json_object_set_new(ap, "f", json_string(pr_human_duration(f_ns, h, sizeof h)));
    put_int(ap, "satisfied", satisfied);
    put_int(ap, "tolerating", tolerating);
    return ap;
}

void pr_label_extras_dispose(pr_label_extras *lx)
{
    for (size_t i = 0; i < lx->cap; i++) {
        free(lx->v[i].errs);
        if (lx->v[i].bins) {
            for (size_t k = 0; k < lx->nbins; k++)
                pr_vals_dispose(&lx->v[i].bins[k].lat);
            free(lx->v[i].bins);
        }
    }
    free(lx->v);
    free(lx->ts_order);
    memset(lx, 0, sizeof *lx);
}
