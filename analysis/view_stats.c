/* The views' figures (run_summary, run_series) from a run's columns, as the report model has
 * them: counts, rates, Apdex and latency order statistics of the run and of each interval. */
#include "analysis/view_stats.h"
#include "analysis/interval.h"
#include "analysis/rank_buckets.h"
#include "analysis/report.h"
#include "analysis/report_labels.h"
#include "analysis/stats.h"
#include "model/blockq.h"
#include "model/native.h"
#include "model/threads.h"
#include "model/xalloc.h"
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- order statistics in place ----------------------------------------------------------- */

#define SEL_NAME(x) x##_i64
#define SEL_T int64_t
#include "analysis/select_impl.h"
#undef SEL_NAME
#undef SEL_T
#define SEL_NAME(x) x##_u32
#define SEL_T uint32_t
#include "analysis/select_impl.h"
#undef SEL_NAME
#undef SEL_T

void pr_select_ranks(int64_t *v, size_t n, const size_t *rank, size_t nr, int64_t *out)
{
    select_ranks_i64(v, n, rank, nr, out);
}

/* Equal buckets over the set's own range, a histogram on the stack: rank_buckets.h's log-linear
 * buckets are for large sets (a 64 KiB histogram to clear, a malloc per wanted bucket), not
 * for an interval's few thousand latencies. */
#define RANK_BUCKETS 2048

void pr_select_ranks_u32(uint32_t *v, size_t n, const size_t *rank, size_t nr, int64_t *out)
{
    if (n < PR_RANKS_HIST_MIN || nr > PR_RANKS_MAX) {
        select_ranks_u32(v, n, rank, nr, out);
        return;
    }
    uint32_t lo = v[0], hi = v[0];
    for (size_t i = 1; i < n; i++) {
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
    }
    uint32_t span = hi - lo;
    int shift = 0;
    while ((span >> shift) >= RANK_BUCKETS)
        shift++;
    size_t nb = (size_t)(span >> shift) + 1;
    uint32_t hist[RANK_BUCKETS];
    memset(hist, 0, nb * sizeof *hist);
    for (size_t i = 0; i < n; i++)
        hist[(v[i] - lo) >> shift]++;
    /* each rank's bucket and its rank there; the buckets wanted, each a slot of the gather */
    size_t bucket[PR_RANKS_MAX], within[PR_RANKS_MAX], slot_at[PR_RANKS_MAX + 1];
    uint8_t slot_of[RANK_BUCKETS];
    memset(slot_of, 0, nb);
    size_t cum = 0, b = 0, nslots = 0, need = 0;
    for (size_t i = 0; i < nr; i++) {
        if (rank[i] == 1 || rank[i] == n) { /* the least or the greatest: known */
            out[i] = rank[i] == 1 ? lo : hi;
            bucket[i] = SIZE_MAX;
            continue;
        }
        while (cum + hist[b] < rank[i])
            cum += hist[b++];
        bucket[i] = b;
        within[i] = rank[i] - cum;
        if (!slot_of[b]) {
            slot_of[b] = (uint8_t)++nslots;
            slot_at[nslots - 1] = need;
            need += hist[b];
        }
    }
    if (!nslots)
        return;
    if (need > n / 4) { /* the values crowd a few buckets: in place, no copy of them */
        select_ranks_u32(v, n, rank, nr, out);
        return;
    }
    uint32_t *got = pr_xmalloc(need * sizeof *got);
    size_t fill[PR_RANKS_MAX];
    memcpy(fill, slot_at, nslots * sizeof *fill);
    for (size_t i = 0; i < n; i++) {
        uint8_t s = slot_of[(v[i] - lo) >> shift];
        if (s)
            got[fill[s - 1]++] = v[i];
    }
    for (size_t i = 0; i < nr; i++)
        if (bucket[i] != SIZE_MAX) {
            size_t s = slot_of[bucket[i]] - 1u;
            select_ranks_u32(got + slot_at[s], hist[bucket[i]], &within[i], 1, &out[i]);
        }
    free(got);
}

/* The latencies: 4 bytes each while every one is in [0, 2^32) (4.29 s), else 8. */
typedef struct lats {
    uint32_t *v32;
    int64_t *v64;
    size_t n, cap;
} lats;

/* lats_put past the fast case: widening, growing. */
static void lats_put_slow(lats *l, int64_t v)
{
    if (l->v32 && (v < 0 || v > (int64_t)UINT32_MAX)) { /* widen what is there */
        l->v64 = pr_xmalloc(l->cap * sizeof *l->v64);
        for (size_t i = 0; i < l->n; i++)
            l->v64[i] = l->v32[i];
        free(l->v32);
        l->v32 = NULL;
    }
    if (l->n == l->cap && l->v32)
        l->v32 = pr_xgrow(l->v32, &l->cap, l->n + 1, sizeof *l->v32);
    else if (l->n == l->cap)
        l->v64 = pr_xgrow(l->v64, &l->cap, l->n + 1, sizeof *l->v64);
    if (l->v32)
        l->v32[l->n++] = (uint32_t)v;
    else
        l->v64[l->n++] = v;
}

static inline void lats_put(lats *l, int64_t v)
{
    if (l->v32 && (uint64_t)v <= UINT32_MAX && l->n < l->cap)
        l->v32[l->n++] = (uint32_t)v;
    else
        lats_put_slow(l, v);
}

static inline int64_t lats_get(const lats *l, size_t i)
{
    return l->v32 ? (int64_t)l->v32[i] : l->v64[i];
}

static inline void lats_swap(lats *l, size_t i, size_t j)
{
    if (l->v32)
        swap_u32(l->v32, i, j);
    else
        swap_i64(l->v64, i, j);
}

static void lats_ranks(lats *l, size_t from, size_t n, const size_t *rank, size_t nr, int64_t *out)
{
    if (l->v32)
        pr_select_ranks_u32(l->v32 + from, n, rank, nr, out);
    else
        select_ranks_i64(l->v64 + from, n, rank, nr, out);
}

/* ---- the scan ---------------------------------------------------------------------------- */

/* One interval: requests and latencies where sent, responses where completed (as report_acc). */
typedef struct vbin {
    int64_t count, lat_n;
    int64_t done, ok, fail, bytes_in;
} vbin;

#define NPCT 5 /* the run's percentiles (view_pct) */

typedef struct vacc {
    pr_series total;
    int64_t apdex_t_ns, apdex_f_ns, apdex_s, apdex_t;
    int64_t t0, interval;
    double inv_interval;
    vbin *bins;
    size_t nbins;
    lats lat;      /* the latencies of the run's requests, in scan order until grouped */
    uint32_t *bin; /* each one's interval (nbins: none), once they are out of interval order */
    uint32_t last_bin;
    __int128 sum;
    int64_t min, max;
    pr_rank_buckets q; /* the run's percentiles: its latencies' buckets (rank_buckets.h) */
} vacc;

/* The interval holding t, -1 when none (analysis/interval.h's rule). */
static inline long bin_of(const vacc *a, int64_t t)
{
    pr_intervals iv = {a->t0, a->interval, a->inv_interval, a->nbins};
    return pr_interval_of(&iv, t);
}

/* A response where it completed (start + latency); ks: the interval of its start. */
static void add_response(vacc *a, const pr_sample *x, int outcome, long ks)
{
    pr_intervals iv = {a->t0, a->interval, a->inv_interval, a->nbins};
    long k = pr_interval_done(&iv, x->start_ns, x->latency_ns, ks);
    if (k < 0)
        return;
    vbin *b = &a->bins[k];
    b->done++;
    b->ok += outcome == 1;
    b->fail += outcome == 0;
    if (x->bytes_in != PR_UNKNOWN)
        b->bytes_in += x->bytes_in;
}

/* Each latency's interval made explicit (a->bin, room for `cap` of them) from the implicit
 * order: interval 0's latencies, then interval 1's..., then those of no interval. */
static void bins_explicit(vacc *a, size_t cap)
{
    a->bin = pr_xmalloc((cap > a->lat.n ? cap : a->lat.n + 1) * sizeof *a->bin);
    size_t i = 0;
    for (size_t j = 0; j <= a->nbins; j++)
        for (int64_t m = j < a->nbins ? a->bins[j].lat_n : (int64_t)(a->lat.n - i); m > 0; m--)
            a->bin[i++] = (uint32_t)j;
}

/* A latency and its interval: intervals stay implicit while they come in order. */
static void add_latency(vacc *a, int64_t v, long k)
{
    uint32_t b = k >= 0 ? (uint32_t)k : (uint32_t)a->nbins;
    if (!a->bin && b < a->last_bin) /* out of order: from now on each one's interval */
        bins_explicit(a, a->lat.cap);
    if (a->bin && a->lat.n == a->lat.cap) {
        size_t cap = a->lat.cap;
        a->bin = pr_xgrow(a->bin, &cap, a->lat.n + 1, sizeof *a->bin);
    }
    if (a->bin)
        a->bin[a->lat.n] = b;
    if (!a->lat.n || v < a->min)
        a->min = v;
    if (!a->lat.n || v > a->max)
        a->max = v;
    lats_put(&a->lat, v);
    a->last_bin = b > a->last_bin ? b : a->last_bin;
    a->sum += v;
    pr_rank_buckets_count(&a->q, v);
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
    size_t mask[8]; /* index mask: all ones for a column of values, 0 for a constant */
    for (int j = 0; j < 8; j++) {
        p[j] = c->vals[cols[j]] ? c->vals[cols[j]] : &c->konst[cols[j]];
        mask[j] = c->vals[cols[j]] ? SIZE_MAX : 0;
    }
    /* Transaction Controller samples are not in the run's totals */
    int some_tx = c->vals[PR_COL_FLAGS] || (c->konst[PR_COL_FLAGS] & PR_SF_TRANSACTION);
    pr_sample x;
    pr_sample_init(&x);
    for (size_t i = 0; i < c->n; i++) {
        if (some_tx && ((uint8_t)p[7][i & mask[7]] & PR_SF_TRANSACTION))
            continue;
        x.start_ns = p[0][i & mask[0]];
        x.latency_ns = p[1][i & mask[1]];
        x.bytes_in = p[2][i & mask[2]];
        x.bytes_out = p[3][i & mask[3]];
        x.error = (uint32_t)p[4][i & mask[4]];
        x.status = (uint16_t)p[5][i & mask[5]];
        x.success = (uint8_t)p[6][i & mask[6]];
        add_sample(a, &x);
    }
    return 0;
}

/* ---- the figures ------------------------------------------------------------------------- */

static const double view_pct[NPCT] = {50, 90, 95, 99, 99.9};

/* The buckets holding the run's percentile ranks, whose values are collected when they are few
 * enough (pr_rank_buckets_plan). */
static void targets_find(pr_rank_buckets *q, size_t n)
{
    size_t rank[NPCT];
    for (size_t i = 0; i < NPCT; i++)
        rank[i] = pr_percentile_rank(n, view_pct[i]);
    pr_rank_buckets_plan(q, rank, NPCT, n);
}

/* The values of the wanted buckets among the latencies [from, to); top: into the other end of
 * the buckets' arrays (a second thread's part). */
static void targets_collect(pr_rank_buckets *q, const lats *l, size_t from, size_t to, int top)
{
    if (!q->collect)
        return;
    if (top)
        for (size_t i = from; i < to; i++)
            pr_rank_buckets_collect_top(q, lats_get(l, i));
    else
        for (size_t i = from; i < to; i++)
            pr_rank_buckets_collect(q, lats_get(l, i));
}

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
    from[nb] = a->lat.n; /* the latencies of no interval */
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
            lats_swap(&a->lat, i, j);
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

/* The run's headline figures (report.c's series_json and samples_model); its percentiles from
 * the collected buckets, or among all the latencies (then reordered). */
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
    size_t n = a->lat.n;
    if (!n)
        return;
    long double mean = (long double)a->sum / (long double)n;
    s->mean_ns = (int64_t)llround((double)mean);
    int64_t q[NPCT];
    if (a->q.collect)
        pr_rank_buckets_values(&a->q, q);
    for (size_t i = 0; i < NPCT && !a->q.collect; i++) {
        size_t rank = pr_percentile_rank(n, view_pct[i]);
        lats_ranks(&a->lat, 0, n, &rank, 1, &q[i]);
    }
    s->min_ns = a->min;
    s->p50_ns = q[0];
    s->p90_ns = q[1];
    s->p95_ns = q[2];
    s->p99_ns = q[3];
    s->p999_ns = q[4];
    s->max_ns = a->max;
}

/* An interval's point (report.c's timeseries_json), its latencies lat[from, from + m). */
static void point(vacc *a, size_t k, size_t from, pr_store_point *p)
{
    const vbin *b = &a->bins[k];
    double per_s = (double)a->interval / 1e9;
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
        return;
    size_t m = (size_t)b->lat_n;
    size_t rank[4] = {pr_percentile_rank(m, 50), pr_percentile_rank(m, 90),
                      pr_percentile_rank(m, 99), m};
    int64_t q[4];
    lats_ranks(&a->lat, from, m, rank, 4, q);
    p->p50_ns = q[0];
    p->p90_ns = q[1];
    p->p99_ns = q[2];
    p->max_ns = q[3];
}

/* Points of the intervals [from_k, to_k) (a second thread's part of series()). */
typedef struct points_part {
    vacc *a;
    const size_t *from;
    pr_store_point *out;
    size_t from_k, to_k;
} points_part;

static void *points_main(void *arg)
{
    points_part *p = arg;
    for (size_t k = p->from_k; k < p->to_k; k++) {
        point(p->a, k, p->from[k], &p->out[k]);
        targets_collect(&p->a->q, &p->a->lat, p->from[k], p->from[k + 1], 1);
    }
    return NULL;
}

/* Below this many latencies the points are selected on one thread. */
#define POINTS_PAR_MIN ((size_t)1 << 16)

/* The series points, the latencies grouped by interval; the run's wanted buckets collected
 * from each interval while it is at hand. */
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
    /* the points of the later intervals on a second thread (their latencies are apart) */
    points_part later = {a, from, *out, nb / 2, nb};
    pthread_t th;
    int two = nb > 1 && a->lat.n >= POINTS_PAR_MIN && pr_threads() >= 2 &&
              pthread_create(&th, NULL, points_main, &later) == 0;
    size_t mid = two ? nb / 2 : a->nbins;
    for (size_t k = 0; k < mid; k++) {
        if (k < nb)
            point(a, k, from[k], &(*out)[k]);
        targets_collect(&a->q, &a->lat, from[k], from[k + 1], 0);
    }
    if (two)
        pthread_join(th, NULL);
    /* the rest: the intervals past the second thread's, and the latencies of no interval */
    targets_collect(&a->q, &a->lat, two ? from[nb] : from[mid], a->lat.n, 0);
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

static void vacc_dispose(vacc *a)
{
    pr_series_dispose(&a->total);
    free(a->bins);
    free(a->lat.v32);
    free(a->lat.v64);
    free(a->bin);
    pr_rank_buckets_dispose(&a->q);
}

/* An accumulator for the run's figures, room for `cap` latencies. */
static void vacc_init(vacc *a, const pr_run *run, const pr_report_opts *o, size_t cap)
{
    memset(a, 0, sizeof *a);
    pr_series_init(&a->total);
    a->apdex_t_ns = o->apdex_t_ns;
    a->apdex_f_ns = o->apdex_f_ns;
    a->interval = PR_UNKNOWN;
    set_bins(a, run, o);
    a->lat.cap = cap ? cap : 1;
    a->lat.v32 = pr_xmalloc(a->lat.cap * sizeof *a->lat.v32);
    pr_rank_buckets_init(&a->q);
}

/* The latencies in 8 bytes each. */
static void lats_widen(lats *l)
{
    if (!l->v32)
        return;
    l->v64 = pr_xmalloc((l->cap ? l->cap : 1) * sizeof *l->v64);
    for (size_t i = 0; i < l->n; i++)
        l->v64[i] = l->v32[i];
    free(l->v32);
    l->v32 = NULL;
}

/* The interval of b's first latency in its implicit order (a->nbins: none). */
static uint32_t first_bin(const vacc *b)
{
    uint32_t k = 0;
    while (k < b->nbins && !b->bins[k].lat_n)
        k++;
    return k;
}

/* Adds b, the accumulator of the blocks after a's, into a: what one scan of a's blocks then
 * b's gives (counts added, b's latencies after a's, each one's interval explicit unless both
 * keep theirs in order). */
static void vacc_merge(vacc *a, vacc *b)
{
    if (b->lat.n && (a->bin || b->bin || first_bin(b) < a->last_bin)) {
        if (!a->bin)
            bins_explicit(a, a->lat.n + b->lat.n);
        if (!b->bin)
            bins_explicit(b, b->lat.n);
        size_t cap = a->lat.n;
        a->bin = pr_xgrow(a->bin, &cap, a->lat.n + b->lat.n, sizeof *a->bin);
        memcpy(a->bin + a->lat.n, b->bin, b->lat.n * sizeof *b->bin);
    }
    if (!a->lat.v32 || !b->lat.v32) {
        lats_widen(&a->lat);
        lats_widen(&b->lat);
    }
    size_t w = a->lat.v32 ? sizeof *a->lat.v32 : sizeof *a->lat.v64;
    void **v = a->lat.v32 ? (void **)&a->lat.v32 : (void **)&a->lat.v64;
    *v = pr_xgrow(*v, &a->lat.cap, a->lat.n + b->lat.n, w);
    memcpy((char *)*v + a->lat.n * w, b->lat.v32 ? (void *)b->lat.v32 : (void *)b->lat.v64,
           b->lat.n * w);
    if (b->lat.n) {
        a->min = a->lat.n && a->min < b->min ? a->min : b->min;
        a->max = a->lat.n && a->max > b->max ? a->max : b->max;
        a->last_bin = b->last_bin > a->last_bin ? b->last_bin : a->last_bin;
    }
    a->lat.n += b->lat.n;
    a->sum += b->sum;
    a->apdex_s += b->apdex_s;
    a->apdex_t += b->apdex_t;
    pr_series_merge(&a->total, &b->total);
    for (size_t k = 0; k < a->nbins; k++) {
        vbin *x = &a->bins[k];
        const vbin *y = &b->bins[k];
        x->count += y->count;
        x->lat_n += y->lat_n;
        x->done += y->done;
        x->ok += y->ok;
        x->fail += y->fail;
        x->bytes_in += y->bytes_in;
    }
    pr_rank_buckets_merge(&a->q, &b->q);
}

/* The run's blocks into a[0]: in two halves on two threads (a[1] the second, then merged) when
 * two may run and the store scans so, else in one scan. 0 or the first failure. */
static int view_scan(pr_store *st, const pr_run *run, const pr_report_opts *o, vacc *a,
                     pr_error *err)
{
    size_t n = run->samples > 0 ? (size_t)run->samples : 1;
    vacc_init(&a[0], run, o, n);
    if (pr_threads() < 2)
        return pr_store_scan_cols(st, run->id, VIEW_COLS, view_block, &a[0], err);
    vacc_init(&a[1], run, o, n / 2 + 1); /* the second part holds at most half the samples */
    void *pl[PR_SCAN_PARTS] = {&a[0], &a[1]};
    int rcs[PR_SCAN_PARTS] = {0};
    int used = pr_store_scan_cols_par(st, run->id, VIEW_COLS, view_block, pl, 2, rcs, err);
    if (used < 0)
        return used;
    for (int k = 0; k < used; k++)
        if (rcs[k] < 0)
            return rcs[k];
    if (used == 2)
        vacc_merge(&a[0], &a[1]);
    return 0;
}

/* The figures from an accumulator that holds the run's samples (its latencies reordered). */
static void figures(vacc *a, pr_store_stats *s, pr_store_point **points)
{
    if (a->lat.n)
        targets_find(&a->q, a->lat.n);
    if (a->nbins) {
        s->npoints = series(a, s, points);
    } else {
        targets_collect(&a->q, &a->lat, 0, a->lat.n, 0);
        *points = pr_xcalloc(1, sizeof **points);
        s->npoints = 0;
        s->interval_ns = PR_UNKNOWN;
    }
    s->points = *points;
    headline(a, s); /* last: it may reorder the latencies */
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
    vacc two[2], *a = &two[0];
    memset(two, 0, sizeof two);
    int rc = view_scan(st, run, &o, two, err);
    if (two[1].q.hist) /* the second part's, merged */
        vacc_dispose(&two[1]);
    if (rc == 0)
        figures(a, s, points);
    vacc_dispose(a);
    return rc < 0 ? rc : 1;
}

/* ---- while the blocks are stored --------------------------------------------------------- */

/* Blocks queued for the feed's thread (model/blockq.h): copies of their encodings. */
#define FEED_QUEUE 4
/* The latencies a feed makes room for before they arrive (16 Mi: 64 MiB). */
#define FEED_CAP0 ((size_t)1 << 24)

struct pr_view_feed {
    int state;         /* 0: no block yet, 1: feeding, -1: given up (the caller scans) */
    const pr_run *run; /* the run of the blocks */
    pr_report_opts o;
    vacc a;
    int64_t seen; /* samples of the blocks fed */
    pr_blockq *q; /* the feed's thread (NULL: the blocks are added as they come) */
    int failed;
};

/* On the feed's thread: the view's columns of a queued block decoded and added. */
static int feed_take(void *ctx, const unsigned char *p, size_t len, const void *meta)
{
    pr_view_feed *f = ctx;
    pr_block_cols c;
    pr_error err;
    (void)meta;
    if (pr_block_decode_cols(p, len, VIEW_COLS, &c, &err) < 0) {
        f->failed = 1; /* cannot happen: the reader decoded it; the caller scans then */
        return -1;
    }
    view_block(&c, &f->a);
    return 0;
}

static void feed_end(void *ctx)
{
    (void)ctx;
    pr_block_decode_thread_end();
}

pr_view_feed *pr_view_feed_new(void)
{
    pr_view_feed *f = pr_xcalloc(1, sizeof *f);
    pr_report_opts_init(&f->o);
    return f;
}

/* The first block: the accumulator for the run the sink declares, when it declares one
 * that the views compute from columns (else the feed gives up). */
static void feed_start(pr_view_feed *f, const pr_run *run, const pr_sink *sink)
{
    char why[160];
    int64_t span;
    f->state = -1;
    if (sink->declared_samples <= 0 || sink->declared_start_ns == PR_UNKNOWN ||
        sink->declared_end_ns == PR_UNKNOWN ||
        __builtin_sub_overflow(sink->declared_end_ns, sink->declared_start_ns, &span) || span < 0 ||
        pr_report_bounded(&f->o, sink->declared_samples, why, sizeof why))
        return;             /* nothing declared, or nothing a run could hold */
    pr_run declared = *run; /* read only: set_bins reads its bounds, count and metadata */
    declared.start_ns = sink->declared_start_ns;
    declared.end_ns = sink->declared_end_ns;
    declared.samples = sink->declared_samples;
    /* room for the declared latencies, at most FEED_CAP0 of them at first: a file's claim
     * never reserves more (the array grows with what arrives) */
    size_t cap =
        (uint64_t)sink->declared_samples < FEED_CAP0 ? (size_t)sink->declared_samples : FEED_CAP0;
    vacc_init(&f->a, &declared, &f->o, cap);
    f->run = run;
    f->state = 1;
    static const pr_blockq_ops ops = {feed_take, feed_end};
    f->q = pr_threads() >= 2 ? pr_blockq_new(FEED_QUEUE, 0, &ops, f) : NULL;
}

void pr_view_feed_block(const pr_run *run, const pr_sink *sink, const pr_block_cols *c,
                        const unsigned char *raw, size_t len, void *payload)
{
    pr_view_feed *f = payload;
    if (f->state == 0)
        feed_start(f, run, sink);
    if (f->state == 1 && run != f->run)
        f->state = -1; /* the input went on into another run (--split-runs) */
    if (f->state != 1)
        return;
    f->seen += (int64_t)c->n;
    if (!f->q)
        view_block(c, &f->a);
    else if (pr_blockq_put(f->q, raw, len, NULL) < 0)
        f->state = -1; /* a block failed to decode (f->failed) */
}

/* Waits for the feed's thread to add every queued block, and ends it. */
static void feed_stop(pr_view_feed *f)
{
    if (!f->q)
        return;
    pr_blockq_drain(f->q);
    pr_blockq_free(f->q);
    f->q = NULL;
}

int pr_view_feed_finish(pr_view_feed *f, const pr_run *run, pr_store_stats *s,
                        pr_store_point **points)
{
    feed_stop(f);
    char why[160];
    if (f->state != 1 || f->failed || run->summary_only || json_is_object(run->summary) ||
        run->samples != f->seen || pr_report_bounded(&f->o, run->samples, why, sizeof why))
        return 0;
    vacc stored; /* the intervals of the run as stored: the declared run's, or scan again */
    memset(&stored, 0, sizeof stored);
    stored.interval = PR_UNKNOWN;
    set_bins(&stored, run, &f->o);
    int same =
        stored.t0 == f->a.t0 && stored.interval == f->a.interval && stored.nbins == f->a.nbins;
    free(stored.bins);
    if (!same)
        return 0;
    figures(&f->a, s, points);
    f->state = -1; /* its latencies are reordered now */
    return 1;
}

void pr_view_feed_free(pr_view_feed *f)
{
    if (!f)
        return;
    feed_stop(f);
    if (f->state != 0)
        vacc_dispose(&f->a);
    free(f);
}
