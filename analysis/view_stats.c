/* The views' figures (run_summary, run_series) from a run's columns, as the report model has
 * them: counts, rates, Apdex and latency order statistics of the run and of each interval. */
#include "analysis/view_stats.h"
#include "analysis/report.h"
#include "analysis/report_labels.h"
#include "analysis/stats.h"
#include "model/native.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- order statistics in place ----------------------------------------------------------- */

static inline void swap64(int64_t *v, size_t i, size_t j)
{
    int64_t t = v[i];
    v[i] = v[j];
    v[j] = t;
}

/* Reorders v[0..n) so that v[k] holds the value of 0-based rank k, no larger value before it
 * and no smaller one after it (Hoare's partition around a median of three). */
static void select_k(int64_t *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1; /* inclusive */
    while (hi - lo > 16) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < v[lo])
            swap64(v, mid, lo);
        if (v[hi] < v[lo])
            swap64(v, hi, lo);
        if (v[hi] < v[mid])
            swap64(v, hi, mid);
        int64_t p = v[mid];
        size_t i = lo, j = hi;
        for (;;) { /* v[lo] <= p <= v[hi]: both scans stop inside [lo, hi] */
            while (v[i] < p)
                i++;
            while (v[j] > p)
                j--;
            if (i >= j)
                break;
            swap64(v, i, j);
            i++;
            j--;
        }
        /* v[lo..j] <= p <= v[j+1..hi], lo <= j < hi */
        if (k <= j)
            hi = j;
        else
            lo = j + 1;
    }
    for (size_t i = lo + 1; i <= hi; i++) { /* the last few: insertion sort */
        int64_t x = v[i];
        size_t j = i;
        while (j > lo && v[j - 1] > x) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

void pr_select_ranks(int64_t *v, size_t n, const size_t *rank, size_t nr, int64_t *out)
{
    size_t lo = 0; /* v[0..lo) holds the lo smallest values, the selected ranks in place */
    for (size_t i = 0; i < nr; i++) {
        size_t k = rank[i] - 1;
        if (k < lo) { /* the rank selected before */
            out[i] = v[k];
        } else if (k == n - 1) { /* the maximum: a scan */
            int64_t m = v[lo];
            for (size_t j = lo + 1; j < n; j++)
                m = v[j] > m ? v[j] : m;
            out[i] = m;
        } else if (k == lo) { /* the smallest left: a scan */
            size_t at = lo;
            for (size_t j = lo + 1; j < n; j++)
                at = v[j] < v[at] ? j : at;
            swap64(v, lo, at);
            out[i] = v[lo++];
        } else {
            select_k(v + lo, n - lo, k - lo);
            out[i] = v[k];
            lo = k + 1;
        }
    }
}

/* ---- the scan ---------------------------------------------------------------------------- */

/* One interval: requests and latencies where sent, responses where completed (as report_acc). */
typedef struct vbin {
    int64_t count, lat_n;
    int64_t done, ok, fail, bytes_in;
} vbin;

typedef struct vacc {
    pr_series total;
    int64_t apdex_t_ns, apdex_f_ns, apdex_s, apdex_t;
    int64_t t0, interval;
    double inv_interval;
    vbin *bins;
    size_t nbins;
    int64_t *lat;  /* the latencies of the run's requests, in scan order until grouped */
    uint32_t *bin; /* each one's interval (nbins: none), once they are out of interval order */
    size_t n, cap;
    uint32_t last_bin;
    __int128 sum;
} vacc;

/* The interval holding t, -1 when none (report_acc.c's bin_index). */
static inline long bin_of(const vacc *a, int64_t t)
{
    if (!a->nbins || t == PR_UNKNOWN)
        return -1;
    int64_t d = t - a->t0, k;
    if (d < 0)
        return 0;
    if (d < ((int64_t)1 << 52)) {
        k = (int64_t)((double)d * a->inv_interval);
        if (k * a->interval > d)
            k--;
        else if ((k + 1) * a->interval <= d)
            k++;
    } else {
        k = d / a->interval;
    }
    return (size_t)k < a->nbins ? (long)k : -1;
}

/* A response where it completed (start + latency); ks: the interval of its start. */
static void add_response(vacc *a, const pr_sample *x, int outcome, long ks)
{
    long k = ks;
    if (x->latency_ns != PR_UNKNOWN && x->latency_ns > 0) {
        int64_t end = x->start_ns + x->latency_ns;
        if (end - a->t0 >= ((int64_t)ks + 1) * a->interval)
            k = bin_of(a, end);
    }
    if (k < 0)
        return;
    vbin *b = &a->bins[k];
    b->done++;
    b->ok += outcome == 1;
    b->fail += outcome == 0;
    if (x->bytes_in != PR_UNKNOWN)
        b->bytes_in += x->bytes_in;
}

/* A latency and its interval: intervals stay implicit while they come in order. */
static void add_latency(vacc *a, int64_t v, long k)
{
    uint32_t b = k >= 0 ? (uint32_t)k : (uint32_t)a->nbins;
    if (!a->bin && b < a->last_bin) { /* out of order: from now on each one's interval */
        a->bin = pr_xmalloc((a->cap ? a->cap : 1) * sizeof *a->bin);
        size_t i = 0;
        for (size_t j = 0; j <= a->nbins; j++)
            for (int64_t m = j < a->nbins ? a->bins[j].lat_n : (int64_t)(a->n - i); m > 0; m--)
                a->bin[i++] = (uint32_t)j;
    }
    if (a->n == a->cap) {
        size_t cap = a->cap;
        a->lat = pr_xgrow(a->lat, &a->cap, a->n + 1, sizeof *a->lat);
        if (a->bin)
            a->bin = pr_xgrow(a->bin, &cap, a->n + 1, sizeof *a->bin);
    }
    if (a->bin)
        a->bin[a->n] = b;
    a->lat[a->n++] = v;
    a->last_bin = b > a->last_bin ? b : a->last_bin;
    a->sum += v;
    if (k >= 0)
        a->bins[k].lat_n++;
}

static void add_sample(vacc *a, const pr_sample *x)
{
    int outcome = pr_sample_outcome(x);
    pr_series_count(&a->total, x, outcome);
    if (outcome == 1 && x->latency_ns != PR_UNKNOWN) {
        if (x->latency_ns <= a->apdex_t_ns)
            a->apdex_s++;
        else if (x->latency_ns <= a->apdex_f_ns)
            a->apdex_t++;
    }
    long k = bin_of(a, x->start_ns);
    if (x->latency_ns != PR_UNKNOWN)
        add_latency(a, x->latency_ns, k);
    if (k < 0)
        return;
    a->bins[k].count++;
    add_response(a, x, outcome, k);
}

#define VIEW_COLS                                                                                  \
    (PR_COLBIT(PR_COL_START) | PR_COLBIT(PR_COL_LATENCY) | PR_COLBIT(PR_COL_BYTES_IN) |            \
     PR_COLBIT(PR_COL_BYTES_OUT) | PR_COLBIT(PR_COL_ERROR) | PR_COLBIT(PR_COL_STATUS) |            \
     PR_COLBIT(PR_COL_SUCCESS) | PR_COLBIT(PR_COL_FLAGS))

static int view_block(const pr_block_cols *c, void *payload)
{
    vacc *a = payload;
    static const int cols[] = {PR_COL_START, PR_COL_LATENCY, PR_COL_BYTES_IN, PR_COL_BYTES_OUT,
                               PR_COL_ERROR, PR_COL_STATUS,  PR_COL_SUCCESS,  PR_COL_FLAGS};
    const int64_t *p[8];
    size_t step[8];
    for (int j = 0; j < 8; j++) {
        p[j] = c->vals[cols[j]] ? c->vals[cols[j]] : &c->konst[cols[j]];
        step[j] = c->vals[cols[j]] ? 1 : 0;
    }
    pr_sample x;
    pr_sample_init(&x);
    for (size_t i = 0; i < c->n; i++) {
        if ((uint8_t)p[7][i * step[7]] & PR_SF_TRANSACTION)
            continue; /* a Transaction Controller sample: not in the run's totals */
        x.start_ns = p[0][i * step[0]];
        x.latency_ns = p[1][i * step[1]];
        x.bytes_in = p[2][i * step[2]];
        x.bytes_out = p[3][i * step[3]];
        x.error = (uint32_t)p[4][i * step[4]];
        x.status = (uint16_t)p[5][i * step[5]];
        x.success = (uint8_t)p[6][i * step[6]];
        add_sample(a, &x);
    }
    return 0;
}

/* ---- the figures ------------------------------------------------------------------------- */

/* Groups the latencies by interval in place (one pass of swaps, American flag order):
 * interval k's are lat[from[k] .. from[k + 1]). */
static void group_by_bin(vacc *a, size_t *from)
{
    size_t nb = a->nbins + 1;
    size_t *next = pr_xmalloc(nb * sizeof *next);
    from[0] = 0;
    for (size_t k = 0; k < nb; k++) {
        int64_t m = k < a->nbins ? a->bins[k].lat_n : 0;
        from[k + 1] = from[k] + (size_t)m;
    }
    from[nb] = a->n; /* the latencies of no interval */
    memcpy(next, from, nb * sizeof *next);
    for (size_t k = 0; k < nb; k++) {
        while (next[k] < from[k + 1]) {
            size_t i = next[k];
            uint32_t b = a->bin[i];
            if (b == k) {
                next[k]++;
                continue;
            }
            size_t j = next[b]++;
            swap64(a->lat, i, j);
            a->bin[i] = a->bin[j];
            a->bin[j] = b;
        }
    }
    free(next);
}

static double finite_or_nan(double v)
{
    return isfinite(v) ? v : NAN;
}

/* The run's headline figures (report.c's series_json and samples_model). */
static void headline(vacc *a, pr_store_stats *s)
{
    pr_rates r;
    pr_rates_compute(&a->total, &r);
    int64_t known = a->total.count - a->total.unknown;
    s->requests = a->total.count;
    s->successes = known ? a->total.successes : PR_UNKNOWN;
    s->errors = known ? known - a->total.successes : PR_UNKNOWN;
    s->error_ratio =
        known ? finite_or_nan((double)(known - a->total.successes) / (double)known) : NAN;
    s->duration_ns = r.duration_ns;
    s->rate_per_s = finite_or_nan(r.rate_per_s);
    s->throughput_per_s = finite_or_nan(r.throughput_per_s);
    int64_t count = a->total.unknown < a->total.count ? a->total.count : 0;
    s->apdex =
        count ? finite_or_nan(((double)a->apdex_s + (double)a->apdex_t / 2) / (double)count) : NAN;
    s->min_ns = s->mean_ns = s->p50_ns = s->p90_ns = s->p95_ns = PR_UNKNOWN;
    s->p99_ns = s->p999_ns = s->max_ns = PR_UNKNOWN;
    if (!a->n)
        return;
    long double mean = (long double)a->sum / (long double)a->n;
    s->mean_ns = (int64_t)llround((double)mean);
    static const double pct[] = {50, 90, 95, 99, 99.9};
    size_t rank[7];
    int64_t q[7];
    rank[0] = 1;
    for (size_t i = 0; i < 5; i++)
        rank[i + 1] = pr_percentile_rank(a->n, pct[i]);
    rank[6] = a->n;
    pr_select_ranks(a->lat, a->n, rank, 7, q);
    s->min_ns = q[0];
    s->p50_ns = q[1];
    s->p90_ns = q[2];
    s->p95_ns = q[3];
    s->p99_ns = q[4];
    s->p999_ns = q[5];
    s->max_ns = q[6];
}

/* The series points (report.c's timeseries_json); the latencies grouped by interval. */
static size_t series(vacc *a, pr_store_stats *s, pr_store_point **out)
{
    size_t nb = a->nbins;
    while (nb > 1 && a->bins[nb - 1].count == 0 && a->bins[nb - 1].done == 0)
        nb--; /* past the last start and the last completion */
    size_t *from = pr_xmalloc((a->nbins + 2) * sizeof *from);
    if (a->bin) {
        group_by_bin(a, from);
    } else {
        from[0] = 0;
        for (size_t k = 0; k < a->nbins; k++)
            from[k + 1] = from[k] + (size_t)a->bins[k].lat_n;
    }
    *out = pr_xcalloc(nb ? nb : 1, sizeof **out);
    double per_s = (double)a->interval / 1e9;
    for (size_t k = 0; k < nb; k++) {
        const vbin *b = &a->bins[k];
        pr_store_point *p = &(*out)[k];
        p->t_ns = a->t0 + (int64_t)k * a->interval;
        p->requests = b->count;
        int known = b->ok + b->fail > 0 || b->done == 0;
        p->successes = known ? b->ok : PR_UNKNOWN;
        p->errors = known ? b->fail : PR_UNKNOWN;
        p->throughput_per_s = known ? finite_or_nan((double)b->ok / per_s) : NAN;
        p->rate_per_s = finite_or_nan((double)b->count / per_s);
        p->bytes_in = b->bytes_in;
        p->p50_ns = p->p90_ns = p->p99_ns = p->max_ns = PR_UNKNOWN;
        if (!b->lat_n)
            continue;
        size_t m = (size_t)b->lat_n;
        size_t rank[4] = {pr_percentile_rank(m, 50), pr_percentile_rank(m, 90),
                          pr_percentile_rank(m, 99), m};
        int64_t q[4];
        pr_select_ranks(a->lat + from[k], m, rank, 4, q);
        p->p50_ns = q[0];
        p->p90_ns = q[1];
        p->p99_ns = q[2];
        p->max_ns = q[3];
    }
    free(from);
    s->interval_ns = a->interval;
    return nb;
}

/* The intervals of the run's model (report.c's acc_init and set_bins, no window). */
static void set_bins(vacc *a, const pr_run *run, const pr_report_opts *o)
{
    int64_t lo = run->start_ns, hi = run->end_ns;
    a->t0 = lo;
    if (lo == PR_UNKNOWN || hi == PR_UNKNOWN || hi <= lo)
        return;
    a->interval = pr_report_interval(o, run, run->samples, lo, hi);
    a->inv_interval = 1.0 / (double)a->interval;
    int64_t span = hi - lo;
    a->nbins = span / a->interval + 1 > 100000 ? 100000 : (size_t)(span / a->interval) + 1;
    a->bins = pr_xcalloc(a->nbins, sizeof *a->bins);
}

int pr_view_stats(pr_store *st, const pr_run *run, pr_store_stats *s, pr_store_point **points,
                  pr_error *err)
{
    pr_report_opts o;
    pr_report_opts_init(&o);
    char why[160];
    if (run->summary_only || json_is_object(run->summary) ||
        pr_report_bounded(&o, run->samples, why, sizeof why))
        return 0;
    vacc a;
    memset(&a, 0, sizeof a);
    pr_series_init(&a.total);
    a.apdex_t_ns = o.apdex_t_ns;
    a.apdex_f_ns = o.apdex_f_ns;
    a.interval = PR_UNKNOWN;
    set_bins(&a, run, &o);
    a.lat = pr_xmalloc((run->samples > 0 ? (size_t)run->samples : 1) * sizeof *a.lat);
    a.cap = run->samples > 0 ? (size_t)run->samples : 1;
    int rc = pr_store_scan_cols(st, run->id, VIEW_COLS, view_block, &a, err);
    if (rc == 0) { /* the intervals' order statistics first: they need the latencies grouped */
        if (a.nbins) {
            s->npoints = series(&a, s, points);
        } else {
            *points = pr_xcalloc(1, sizeof **points);
            s->npoints = 0;
            s->interval_ns = PR_UNKNOWN;
        }
        s->points = *points;
        headline(&a, s);
    }
    pr_series_dispose(&a.total);
    free(a.bins);
    free(a.lat);
    free(a.bin);
    return rc < 0 ? rc : 1;
}
