/* ApacheBench's Connection Times and percentage tables recomputed with ab's own rules. */
#include "analysis/ab_stats.h"
#include "analysis/rank_buckets.h"
#include "analysis/view_stats.h"
#include "analysis/vec.h"
#include "model/hist.h"
#include "model/native.h"
#include "model/threads.h"
#include "model/xalloc.h"
#include "model/sample.h"
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

const int pr_ab_percs[PR_AB_NPERCS] = {50, 66, 75, 80, 90, 95, 98, 99, 100};

/* ap_round_ms: µs → ms, half up (ab's macro; values are never negative there). */
static int64_t round_ms(int64_t us)
{
    return (us + 500) / 1000;
}

/* The ranks a column's figures need, ascending: ab's median (1-based n / 2 + 1, and n / 2 + 2
 * for odd n) and, for the total times, the percentage rows'. */
#define MAX_RANKS (2 + PR_AB_NPERCS)
typedef struct col_ranks {
    size_t n, rank[MAX_RANKS];
    int64_t got[MAX_RANKS];
    size_t median[2], nmedian, pct[PR_AB_NPERCS]; /* each figure's rank (value_at finds it) */
} col_ranks;

/* Adds a rank to r's ascending list; *fig (a figure's rank) names it for value_at. */
static void put_rank(col_ranks *r, size_t rank, size_t *fig)
{
    size_t i = r->n++;
    for (; i > 0 && r->rank[i - 1] > rank; i--) /* insertion, ascending */
        r->rank[i] = r->rank[i - 1];
    r->rank[i] = rank;
    *fig = rank;
}

static int64_t value_at(const col_ranks *r, size_t rank)
{
    size_t i = 0;
    while (r->rank[i] != rank)
        i++;
    return r->got[i];
}

/* A column's values in input order: 8 bytes each (v), or 4 (v32: a stored run's, when every
 * value fits). */
typedef struct ab_col {
    int64_t *v;
    const uint32_t *v32;
    size_t n;
} ab_col;

#define AB_INLINE static inline __attribute__((always_inline))

AB_INLINE int64_t col_get(const ab_col *c, int w32, size_t i)
{
    return w32 ? (int64_t)c->v32[i] : c->v[i];
}

/* Pass 1: min, max, the exact sum, the buckets' counts (w32 constant: one loop per width). */
AB_INLINE void col_count(const ab_col *c, int w32, pr_rank_buckets *rb, int64_t *mn_, int64_t *mx_,
                         __int128 *sum)
{
    int64_t mn = INT64_MAX, mx = INT64_MIN;
    __int128 isum = 0;
    for (size_t i = 0; i < c->n; i++) {
        int64_t x = col_get(c, w32, i);
        mn = x < mn ? x : mn;
        mx = x > mx ? x : mx;
        isum += x;
        pr_rank_buckets_count(rb, x);
    }
    *mn_ = mn;
    *mx_ = mx;
    *sum = isum;
}

/* Pass 2: the squared deviations summed in input order, the wanted buckets' values collected. */
AB_INLINE double col_deviations(const ab_col *c, int w32, pr_rank_buckets *rb, int collect,
                                int64_t mean_us)
{
    double sd = 0;
    for (size_t i = 0; i < c->n; i++) {
        int64_t x = col_get(c, w32, i);
        double a = (double)x - (double)mean_us;
        sd += a * a;
        if (collect)
            pr_rank_buckets_collect(rb, x);
    }
    return sd;
}

/* The values at r's ranks where the buckets were too full to collect: a selection in place
 * (a 32-bit column copied to 64 bits first). */
static void col_select(const ab_col *c, col_ranks *r)
{
    int64_t *v = c->v;
    if (c->v32) {
        v = pr_xmalloc((c->n ? c->n : 1) * sizeof *v);
        for (size_t i = 0; i < c->n; i++)
            v[i] = c->v32[i];
    }
    pr_select_ranks(v, c->n, r->rank, r->n, r->got);
    if (v != c->v)
        free(v);
}

/* One column's figures: min, max, ab's mean (an integer quotient) and sd (summed in input
 * order), and the values at r's ranks: pass 1 counts the values' buckets with the sums, pass 2
 * collects the wanted buckets' values with the deviations, then a selection among those (two
 * passes over the column, which is read-only then; or, where the buckets are too full, a
 * selection in place, a 64-bit column reordered). */
static void column(const ab_col *c, pr_ab_row *row, col_ranks *r)
{
    size_t n = c->n;
    pr_rank_buckets rb;
    pr_rank_buckets_init(&rb);
    int64_t mn, mx;
    __int128 isum;
    if (c->v32)
        col_count(c, 1, &rb, &mn, &mx, &isum);
    else
        col_count(c, 0, &rb, &mn, &mx, &isum);
    int64_t mean_us = (int64_t)(isum / (__int128)n); /* C truncation, as ab's integer / */
    uint64_t amax = mx > 0 ? (uint64_t)mx : 0, amin = mn < 0 ? 0 - (uint64_t)mn : 0;
    if (amin > amax)
        amax = amin;
    if (amax && (uint64_t)n > ((uint64_t)1 << 62) / amax) {
        /* values so large that a long double sum (what this has always computed) is not the
         * exact one: that sum, for the same figures as before */
        long double sum = 0;
        for (size_t i = 0; i < n; i++)
            sum += c->v32 ? (long double)c->v32[i] : (long double)c->v[i];
        mean_us = (int64_t)(sum / (long double)n);
    } /* else the long double sum and quotient were exact up to truncation: the same mean */
    int collect = mn < mx && pr_rank_buckets_plan(&rb, r->rank, r->n, n);
    double sd = c->v32 ? col_deviations(c, 1, &rb, collect, mean_us)
                       : col_deviations(c, 0, &rb, collect, mean_us);
    sd = n > 1 ? sqrt(sd / (double)(n - 1)) : 0;
    if (mn == mx) /* all equal (a column the file does not have) */
        for (size_t i = 0; i < r->n; i++)
            r->got[i] = mn;
    else if (collect)
        pr_rank_buckets_values(&rb, r->got);
    else
        col_select(c, r);
    pr_rank_buckets_dispose(&rb);
    int64_t m0 = value_at(r, r->median[0]);
    row->min_ms = round_ms(mn);
    row->max_ms = round_ms(mx);
    row->mean_ms = round_ms(mean_us);
    row->median_ms = round_ms(r->nmedian == 2 ? (m0 + value_at(r, r->median[1])) / 2 : m0);
    row->sd_ms = sd / 1000.0;
}

/* The index of ab's percentage row p in n sorted values: floor(n p / 100), 100% the last. */
static size_t pct_index(size_t n, int p)
{
    return p >= 100 ? n - 1 : (size_t)((unsigned long long)n * (unsigned)p / 100);
}

/* The ranks of a column of n values (n > 0): its median's, and with pct its percentages'. */
static void ranks_init(col_ranks *r, size_t n, int pct)
{
    memset(r, 0, sizeof *r);
    r->nmedian = n > 1 && n % 2 ? 2 : 1; /* ab's rule: s[n / 2], or s[n / 2] and s[n / 2 + 1] */
    put_rank(r, n / 2 + 1, &r->median[0]);
    if (r->nmedian == 2)
        put_rank(r, n / 2 + 2, &r->median[1]);
    for (int i = 0; pct && i < PR_AB_NPERCS; i++)
        put_rank(r, pct_index(n, pr_ab_percs[i]) + 1, &r->pct[i]);
}

void pr_ab_stats_column(int64_t *v, size_t n, pr_ab_row *row)
{
    if (!n) {
        memset(row, 0, sizeof *row);
        return;
    }
    col_ranks r;
    ranks_init(&r, n, 0);
    column(&(ab_col){v, NULL, n}, row, &r);
}

/* pr_ab_stats_column of a 32-bit column. */
static void column32(const uint32_t *v, size_t n, pr_ab_row *row)
{
    col_ranks r;
    ranks_init(&r, n, 0);
    column(&(ab_col){NULL, v, n}, row, &r);
}

/* The total times' row and the percentage table together (one pair of passes). */
static void total_and_percentages(const ab_col *total, pr_ab_tables *out)
{
    size_t n = total->n;
    col_ranks r;
    ranks_init(&r, n, 1);
    column(total, &out->total, &r);
    out->has_percentiles = n > 1;
    for (int i = 0; i < PR_AB_NPERCS; i++)
        out->pct_ms[i] = round_ms(value_at(&r, r.pct[i]));
}

int pr_ab_stats_compute(int64_t *connect_us, int64_t *processing_us, int64_t *waiting_us,
                        int64_t *total_us, size_t n, pr_ab_tables *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0)
        return PR_EUSAGE;
    out->n = n;
    pr_ab_stats_column(connect_us, n, &out->connect);
    pr_ab_stats_column(processing_us, n, &out->processing);
    pr_ab_stats_column(waiting_us, n, &out->waiting);
    total_and_percentages(&(ab_col){total_us, NULL, n}, out);
    return 0;
}

void pr_ab_stats_percentages(int64_t *total, size_t n, pr_ab_tables *out)
{
    out->has_percentiles = n > 1;
    if (!n)
        return;
    col_ranks r;
    ranks_init(&r, n, 1);
    pr_select_ranks(total, n, r.rank, r.n, r.got);
    for (int i = 0; i < PR_AB_NPERCS; i++)
        out->pct_ms[i] = round_ms(value_at(&r, r.pct[i]));
}

size_t pr_ab_csv_index(size_t n, int i)
{
    if (n == 0)
        return 0;
    if (i <= 0)
        return 0;
    if (i >= 100)
        return n - 1;
    return (size_t)(0.5 + (double)n * i / 100.0);
}

/* ns → µs for ab's arithmetic; unknown counts as 0, negatives clamp to 0 (ab's ap_max). */
static int64_t us_of(int64_t ns)
{
    if (ns == PR_UNKNOWN || ns <= 0)
        return 0;
    return (ns + 500) / 1000;
}

/* ab's processing time (µs) from total and connect (µs): time - ctime, or ab's own dtime
 * where ab -g wrote it in the sample's attrs. */
static int64_t processing_us(const pr_run *run, int64_t t, int64_t c, uint32_t attrs)
{
    int64_t p = t - c > 0 ? t - c : 0;
    if (attrs != PR_NOSTR && run) { /* ab's own dtime where ab -g wrote it */
        const char *a = pr_run_str(run, attrs);
        size_t plen = strlen(PR_AB_DTIME_ATTR);
        if (strncmp(a, PR_AB_DTIME_ATTR, plen) == 0) {
            char *end;
            long long ms = strtoll(a + plen, &end, 10);
            if (*end == 0 && ms >= 0 && ms < 9000000000000LL)
                p = ms * 1000;
        }
    }
    return p;
}

int64_t pr_ab_value(const pr_run *run, const pr_sample *s, int col)
{
    int64_t t = us_of(s->latency_ns), c = us_of(s->connect_ns);
    switch (col) {
    case PR_AB_CONNECT: return c;
    case PR_AB_WAITING: return us_of(s->ttfb_ns);
    case PR_AB_TOTAL: return t;
    default: break;
    }
    return processing_us(run, t, c, s->attrs);
}

int pr_ab_stats_from_samples(const pr_run *run, const pr_sample *s, size_t n, pr_ab_tables *out,
                             pr_error *err)
{
    if (n == 0) {
        memset(out, 0, sizeof *out);
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0, "no samples: ab prints no tables");
    }
    int64_t *col = pr_xmalloc(4 * n * sizeof *col);
    int64_t *c = col, *p = col + n, *w = col + 2 * n, *t = col + 3 * n;
    for (size_t i = 0; i < n; i++) {
        c[i] = pr_ab_value(run, &s[i], PR_AB_CONNECT);
        p[i] = pr_ab_value(run, &s[i], PR_AB_PROCESSING);
        w[i] = pr_ab_value(run, &s[i], PR_AB_WAITING);
        t[i] = pr_ab_value(run, &s[i], PR_AB_TOTAL);
    }
    int rc = pr_ab_stats_compute(c, p, w, t, n, out);
    free(col);
    return rc;
}

/* ---- the tables of a stored run ---------------------------------------------------------- */

/* The stored columns each of ab's columns is made of. */
static const unsigned col_need[4] = {[PR_AB_CONNECT] = PR_COLBIT(PR_COL_CONNECT),
                                     [PR_AB_PROCESSING] = PR_COLBIT(PR_COL_CONNECT) |
                                                          PR_COLBIT(PR_COL_LATENCY) |
                                                          PR_COLBIT(PR_COL_ATTRS),
                                     [PR_AB_WAITING] = PR_COLBIT(PR_COL_TTFB),
                                     [PR_AB_TOTAL] = PR_COLBIT(PR_COL_LATENCY)};

/* Value i of a decoded block's column c (its constant when it does not vary). */
static inline int64_t col_at(const pr_block_cols *b, int c, size_t i)
{
    return b->varying & PR_COLBIT(c) ? b->vals[c][i] : b->konst[c];
}

/* A block's values in ab's column `col` (µs, as pr_ab_value) to o[0], o[step], o[2 step]...:
 * the single-column cases straight from the decoded column, without building samples. */
static void block_values(const pr_run *run, const pr_block_cols *b, int col, int64_t *o,
                         ptrdiff_t step)
{
    if (col == PR_AB_PROCESSING) {
        for (size_t i = 0; i < b->n; i++)
            o[(ptrdiff_t)i * step] = processing_us(run, us_of(col_at(b, PR_COL_LATENCY, i)),
                                                   us_of(col_at(b, PR_COL_CONNECT, i)),
                                                   (uint32_t)col_at(b, PR_COL_ATTRS, i));
        return;
    }
    int c = col == PR_AB_CONNECT   ? PR_COL_CONNECT
            : col == PR_AB_WAITING ? PR_COL_TTFB
                                   : PR_COL_LATENCY;
    if (!(b->varying & PR_COLBIT(c))) {
        int64_t v = us_of(b->konst[c]);
        for (size_t i = 0; i < b->n; i++)
            o[(ptrdiff_t)i * step] = v;
        return;
    }
    const int64_t *x = b->vals[c];
    for (size_t i = 0; i < b->n; i++)
        o[(ptrdiff_t)i * step] = us_of(x[i]);
}

/* One part of a column's scan into the one shared array v[0..cap) of esz-byte values (8, or
 * 4 while every value fits): part 0 writes upward from v[0], part 1 (on its own thread)
 * downward from v[cap - 1], its values put back in order after the scan. Each block's room is
 * reserved in `used` first, so the parts never meet; a part that finds no room (the run holds
 * more samples than it said) stops with AB_FULL, and a 4-byte scan that meets a value of 2^32
 * µs or more (71 minutes) with AB_WIDE. A scan on one thread (grow) enlarges v instead. */
typedef struct ab_fill {
    const pr_run *run;
    int col;
    int down, grow;
    unsigned char **v;
    size_t *cap, esz;
    atomic_size_t *used;
    size_t n;     /* values this part wrote */
    int64_t *tmp; /* a 4-byte scan: a block's values */
    size_t tmpcap;
} ab_fill;

#define AB_FULL 1
#define AB_WIDE 2

/* A block's values (µs) into the 4-byte slots o[0], o[step]…; AB_WIDE when one does not fit. */
static int put_values32(ab_fill *f, const pr_block_cols *b, uint32_t *o, ptrdiff_t step)
{
    f->tmp = pr_xgrow(f->tmp, &f->tmpcap, b->n ? b->n : 1, sizeof *f->tmp);
    block_values(f->run, b, f->col, f->tmp, 1);
    uint64_t top = 0;
    for (size_t i = 0; i < b->n; i++) {
        top |= (uint64_t)f->tmp[i];
        o[(ptrdiff_t)i * step] = (uint32_t)f->tmp[i];
    }
    return top > UINT32_MAX ? AB_WIDE : 0; /* never negative (us_of, processing_us) */
}

static int fill_block(const pr_block_cols *b, void *payload)
{
    ab_fill *f = payload;
    size_t m = b->n;
    if (f->grow) {
        if (f->n + m > *f->cap)
            *f->v = pr_xgrow(*f->v, f->cap, f->n + m, f->esz);
    } else if (atomic_fetch_add(f->used, m) + m > *f->cap) {
        return AB_FULL;
    }
    size_t at = f->down ? *f->cap - 1 - f->n : f->n;
    ptrdiff_t step = f->down ? -1 : 1;
    if (f->esz == 4) {
        int rc = put_values32(f, b, (uint32_t *)(void *)*f->v + at, step);
        if (rc)
            return rc;
    } else {
        block_values(f->run, b, f->col, (int64_t *)(void *)*f->v + at, step);
    }
    f->n += m;
    return 0;
}

/* Part 1's n1 values, written downward from the end of the array, back in order after part
 * 0's n0. */
static void join_parts(unsigned char *v, size_t cap, size_t esz, size_t n0, size_t n1)
{
    unsigned char *p1 = v + (cap - n1) * esz, t[8];
    for (size_t i = 0; i < n1 / 2; i++) {
        memcpy(t, p1 + i * esz, esz);
        memcpy(p1 + i * esz, p1 + (n1 - 1 - i) * esz, esz);
        memcpy(p1 + (n1 - 1 - i) * esz, t, esz);
    }
    if (p1 != v + n0 * esz) /* the run held fewer samples than it said */
        memmove(v + n0 * esz, p1, n1 * esz);
}

/* Column `col` of the run into *v (esz-byte values, capacity *cap, grown if need be) in
 * storage order, *n values: decoded on two threads where pr_threads() and the store allow.
 * 0, AB_WIDE (a 4-byte scan met a value that does not fit) or the scan's error. */
static int scan_column(pr_store *st, const pr_run *run, int col, unsigned char **v, size_t *cap,
                       size_t esz, size_t *n, pr_error *err)
{
    atomic_size_t used = 0;
    ab_fill f[2] = {{run, col, 0, 0, v, cap, esz, &used, 0, NULL, 0},
                    {run, col, 1, 0, v, cap, esz, &used, 0, NULL, 0}};
    int rc = 0, done = 0;
    if (pr_threads() >= 2) {
        void *pl[2] = {&f[0], &f[1]};
        int rcs[2] = {0, 0};
        int parts = pr_store_scan_cols_par(st, run->id, col_need[col], fill_block, pl, 2, rcs, err);
        if (parts < 0)
            rc = parts;
        for (int k = 0; k < parts && !rc; k++)
            if (rcs[k] < 0 || rcs[k] == AB_WIDE)
                rc = rcs[k];
        if (!rc && rcs[0] == 0 && (parts < 2 || rcs[1] == 0)) {
            join_parts(*v, *cap, esz, f[0].n, parts == 2 ? f[1].n : 0);
            *n = f[0].n + (parts == 2 ? f[1].n : 0);
            done = 1;
        }
    }
    free(f[1].tmp);
    if (!rc && !done) { /* one thread, or a run fuller than said */
        f[0] = (ab_fill){run, col, 0, 1, v, cap, esz, &used, 0, f[0].tmp, f[0].tmpcap};
        rc = pr_store_scan_cols(st, run->id, col_need[col], fill_block, &f[0], err);
        *n = f[0].n;
    }
    free(f[0].tmp);
    return rc;
}

static int no_samples(pr_error *err)
{
    return pr_error_set(err, PR_EUSAGE, NULL, 0, 0, "no samples: ab prints no tables");
}

/* The exact tables: a column at a time, each value kept once in esz bytes (4: AB_WIDE when a
 * value does not fit). */
static int tables_exact_in(pr_store *st, const pr_run *run, pr_ab_tables *t, size_t esz,
                           pr_error *err)
{
    size_t cap = run->samples > 0 ? (size_t)run->samples : 1, n = 0;
    unsigned char *v = pr_xmalloc(cap * esz);
    pr_ab_row *rows[4] = {&t->connect, &t->processing, &t->waiting, &t->total};
    int rc = 0;
    for (int col = PR_AB_CONNECT; col <= PR_AB_TOTAL && rc == 0; col++) {
        rc = scan_column(st, run, col, &v, &cap, esz, &n, err);
        if (rc == 0 && n == 0)
            rc = no_samples(err);
        if (rc)
            break;
        ab_col c = {esz == 8 ? (int64_t *)(void *)v : NULL,
                    esz == 4 ? (const uint32_t *)(void *)v : NULL, n};
        if (col == PR_AB_TOTAL)
            total_and_percentages(&c, t);
        else if (esz == 4)
            column32(c.v32, n, rows[col]);
        else
            pr_ab_stats_column(c.v, n, rows[col]);
    }
    if (rc == 0)
        t->n = n;
    free(v);
    return rc;
}

/* 4 bytes a sample, or 8 when a value is 2^32 µs or more. */
static int tables_exact(pr_store *st, const pr_run *run, pr_ab_tables *t, pr_error *err)
{
    int rc = tables_exact_in(st, run, t, 4, err);
    if (rc == AB_WIDE) {
        memset(t, 0, sizeof *t);
        rc = tables_exact_in(st, run, t, 8, err);
    }
    return rc;
}

/* A part of the bounded scan: the four columns' histograms. */
typedef struct ab_hists {
    const pr_run *run;
    pr_hist h[4];
} ab_hists;

static int hist_block(const pr_block_cols *b, void *payload)
{
    ab_hists *a = payload;
    for (size_t i = 0; i < b->n; i++) {
        int64_t t = us_of(col_at(b, PR_COL_LATENCY, i)), c = us_of(col_at(b, PR_COL_CONNECT, i));
        pr_hist_add(&a->h[PR_AB_CONNECT], c);
        pr_hist_add(&a->h[PR_AB_PROCESSING],
                    processing_us(a->run, t, c, (uint32_t)col_at(b, PR_COL_ATTRS, i)));
        pr_hist_add(&a->h[PR_AB_WAITING], us_of(col_at(b, PR_COL_TTFB, i)));
        pr_hist_add(&a->h[PR_AB_TOTAL], t);
    }
    return 0;
}

/* The value of 0-based rank k (k < n) of a histogram's values, within 0.1%: the nearest rank
 * of p = 100 (k + 1/2) / n is k + 1, half a rank clear of any rounding. */
static int64_t hist_at(const pr_hist *h, size_t k)
{
    return pr_hist_percentile(h, 100.0 * ((double)k + 0.5) / (double)h->n);
}

/* A row with ab's rules from a histogram: min, max and the truncated mean exact, the sd from
 * the exact sums (sum (v - m)^2 = sum v^2 - 2 m sum v + n m^2), the median's ranks as ab's. */
static void hist_row(const pr_hist *h, pr_ab_row *row)
{
    size_t n = (size_t)h->n;
    long double sum = pr_hist_sum(h), m;
    int64_t mean_us = (int64_t)(sum / (long double)n);
    m = (long double)mean_us;
    long double ss = pr_hist_sumsq(h) - 2 * m * sum + (long double)n * m * m;
    row->sd_ms = n > 1 && ss > 0 ? sqrt((double)(ss / (long double)(n - 1))) / 1000.0 : 0;
    int64_t median_us =
        n > 1 && n % 2 ? (hist_at(h, n / 2) + hist_at(h, n / 2 + 1)) / 2 : hist_at(h, n / 2);
    row->min_ms = round_ms(h->min);
    row->max_ms = round_ms(h->max);
    row->mean_ms = round_ms(mean_us);
    row->median_ms = round_ms(median_us);
}

/* The bounded tables: one scan into four histograms (a few hundred KiB whatever the run's
 * size), on two threads where pr_threads() and the store allow, the parts' histograms added. */
static int tables_bounded(pr_store *st, const pr_run *run, pr_ab_tables *t, pr_error *err)
{
    ab_hists a[2];
    for (int k = 0; k < 2; k++) {
        a[k].run = run;
        for (int c = 0; c < 4; c++)
            pr_hist_init(&a[k].h[c]);
    }
    void *pl[2] = {&a[0], &a[1]};
    int rcs[2] = {0, 0};
    int parts = pr_store_scan_cols_par(st, run->id,
                                       PR_COLBIT(PR_COL_CONNECT) | PR_COLBIT(PR_COL_LATENCY) |
                                           PR_COLBIT(PR_COL_ATTRS) | PR_COLBIT(PR_COL_TTFB),
                                       hist_block, pl, pr_threads() >= 2 ? 2 : 1, rcs, err);
    int rc = parts < 0 ? parts : rcs[0] < 0 ? rcs[0] : parts == 2 && rcs[1] < 0 ? rcs[1] : 0;
    for (int c = 0; c < 4; c++)
        pr_hist_merge(&a[0].h[c], &a[1].h[c]);
    const pr_hist *h = a[0].h;
    if (rc == 0 && h[PR_AB_TOTAL].n == 0)
        rc = no_samples(err);
    if (rc == 0) {
        pr_ab_row *rows[4] = {&t->connect, &t->processing, &t->waiting, &t->total};
        for (int c = 0; c < 4; c++)
            hist_row(&h[c], rows[c]);
        t->n = (size_t)h[PR_AB_TOTAL].n;
        t->has_percentiles = t->n > 1;
        for (int i = 0; i < PR_AB_NPERCS; i++) {
            size_t k = pct_index(t->n, pr_ab_percs[i]);
            t->pct_ms[i] =
                round_ms(k == t->n - 1 ? h[PR_AB_TOTAL].max : hist_at(&h[PR_AB_TOTAL], k));
        }
    }
    for (int k = 0; k < 2; k++)
        for (int c = 0; c < 4; c++)
            pr_hist_dispose(&a[k].h[c]);
    return rc;
}

int pr_ab_stats_from_store(pr_store *st, const pr_run *run, int bounded, pr_ab_tables *out,
                           pr_error *err)
{
    memset(out, 0, sizeof *out);
    int rc = bounded ? tables_bounded(st, run, out, err) : tables_exact(st, run, out, err);
    if (rc < 0)
        memset(out, 0, sizeof *out);
    return rc;
}

/* One cell: `sep`, then the value in ab's width, or "-" there when unknown. */
static void cell(pr_buf *b, const char *sep, int width, int64_t v)
{
    if (v == PR_UNKNOWN)
        pr_buf_printf(b, "%s%*s", sep, width, "-");
    else
        pr_buf_printf(b, "%s%*lld", sep, width, (long long)v);
}

static void row(pr_buf *b, const char *label, const pr_ab_row *r)
{
    pr_buf_puts(b, label); /* ab: "%5lld %4lld %5.1f %6lld %7lld" */
    cell(b, "", 5, r->min_ms);
    cell(b, " ", 4, r->mean_ms);
    if (isnan(r->sd_ms))
        pr_buf_printf(b, " %5s", "-");
    else
        pr_buf_printf(b, " %5.1f", r->sd_ms);
    cell(b, " ", 6, r->median_ms);
    cell(b, " ", 7, r->max_ms);
    pr_buf_putc(b, '\n');
}

/* ab's SANE() check of one row: 2 (its ERROR), 1 (its WARNING) or 0. */
static int sane_level(const pr_ab_row *r)
{
    if (r->mean_ms == PR_UNKNOWN || r->median_ms == PR_UNKNOWN || isnan(r->sd_ms))
        return 0;
    double d = (double)r->mean_ms - (double)r->median_ms;
    if (d < 0)
        d = -d;
    return d > 2 * r->sd_ms ? 2 : d > r->sd_ms;
}

/* ab's SANE() check of one row. */
static void sane(pr_buf *b, const char *what, const pr_ab_row *r)
{
    int level = sane_level(r);
    if (level == 2)
        pr_buf_printf(b,
                      "ERROR: The median and mean for %s are more than twice the standard\n"
                      "       deviation apart. These results are NOT reliable.\n",
                      what);
    else if (level == 1)
        pr_buf_printf(b,
                      "WARNING: The median and mean for %s are not within a normal "
                      "deviation\n        These results are probably not that reliable.\n",
                      what);
}

void pr_ab_stats_print(const pr_ab_tables *t, pr_buf *out)
{
    if (t->n == 0)
        return;
    pr_buf_puts(out, "Connection Times (ms)\n");
    pr_buf_puts(out, "              min  mean[+/-sd] median   max\n");
    row(out, "Connect:    ", &t->connect);
    row(out, "Processing: ", &t->processing);
    row(out, "Waiting:    ", &t->waiting);
    row(out, "Total:      ", &t->total);
    sane(out, "the initial connection time", &t->connect);
    sane(out, "the processing time", &t->processing);
    sane(out, "the waiting time", &t->waiting);
    sane(out, "the total time", &t->total);
    if (!t->has_percentiles)
        return;
    pr_buf_puts(out, "\nPercentage of the requests served within a certain time (ms)\n");
    for (int i = 0; i < PR_AB_NPERCS; i++) {
        pr_buf_printf(out, pr_ab_percs[i] >= 100 ? " %d%%  " : "  %d%%  ", pr_ab_percs[i]);
        cell(out, "", 5, t->pct_ms[i]);
        pr_buf_puts(out, pr_ab_percs[i] >= 100 ? " (longest request)\n" : "\n");
    }
}

static json_t *ms_or_null(int64_t v)
{
    return v == PR_UNKNOWN ? json_null() : json_integer(v);
}

json_t *pr_ab_stats_json(const pr_ab_tables *t)
{
    json_t *j = json_object();
    json_object_set_new(j, "requests", json_integer((json_int_t)t->n));
    static const char *const names[4] = {"connect", "processing", "waiting", "total"};
    static const char *const what[4] = {"the initial connection time", "the processing time",
                                        "the waiting time", "the total time"};
    const pr_ab_row *rows[4] = {&t->connect, &t->processing, &t->waiting, &t->total};
    json_t *ct = json_object(), *checks = json_array();
    for (int i = 0; i < 4; i++) {
        const pr_ab_row *r = rows[i];
        json_t *o = json_object();
        json_object_set_new(o, "min", ms_or_null(r->min_ms));
        json_object_set_new(o, "mean", ms_or_null(r->mean_ms));
        /* ab prints the sd with one decimal: that is its figure */
        json_object_set_new(o, "sd",
                            isnan(r->sd_ms) ? json_null() : json_real(round(r->sd_ms * 10) / 10));
        json_object_set_new(o, "median", ms_or_null(r->median_ms));
        json_object_set_new(o, "max", ms_or_null(r->max_ms));
        json_object_set_new(ct, names[i], o);
        int level = sane_level(r);
        if (!level)
            continue;
        pr_buf b = PR_BUF_INIT;
        sane(&b, what[i], r);
        json_t *c = json_object();
        json_object_set_new(c, "row", json_string(names[i]));
        json_object_set_new(c, "level", json_string(level == 2 ? "error" : "warning"));
        if (b.len && b.p[b.len - 1] == '\n')
            b.p[--b.len] = 0; /* the lines as ab prints them, without the last newline */
        json_object_set_new(c, "text", json_string(b.p));
        pr_buf_dispose(&b);
        json_array_append_new(checks, c);
    }
    json_object_set_new(j, "connection_times_ms", ct);
    json_object_set_new(j, "reliability", checks);
    json_t *pct = json_array();
    for (int i = 0; t->has_percentiles && i < PR_AB_NPERCS; i++) {
        json_t *e = json_object();
        json_object_set_new(e, "percent", json_integer(pr_ab_percs[i]));
        json_object_set_new(e, "ms", ms_or_null(t->pct_ms[i]));
        json_array_append_new(pct, e);
    }
    json_object_set_new(j, "percentage_served_ms", t->has_percentiles ? pct : json_null());
    if (!t->has_percentiles)
        json_decref(pct);
    return j;
}

/* ---- the tables from a printed summary ---------------------------------------------------- */

static int64_t jint_or_unknown(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : PR_UNKNOWN;
}

/* ns → whole ms, half up (ab prints ms); unknown stays unknown. */
static int64_t ns_ms(int64_t ns)
{
    return ns == PR_UNKNOWN || ns < 0 ? PR_UNKNOWN : (ns + 500000) / 1000000;
}

/* A row as ab printed it ({min, mean, sd, median, max} in ms). */
static void printed_row(const json_t *r, pr_ab_row *out)
{
    out->min_ms = jint_or_unknown(r, "min");
    out->mean_ms = jint_or_unknown(r, "mean");
    out->median_ms = jint_or_unknown(r, "median");
    out->max_ms = jint_or_unknown(r, "max");
    const json_t *sd = json_object_get(r, "sd");
    out->sd_ms = json_is_number(sd) ? json_number_value(sd) : NAN;
}

/* A row from a canonical distribution ({min, mean, stdev, p50, max} in ns). */
static void canonical_row(const json_t *d, pr_ab_row *out)
{
    out->min_ms = ns_ms(jint_or_unknown(d, "min"));
    out->mean_ms = ns_ms(jint_or_unknown(d, "mean"));
    out->median_ms = ns_ms(jint_or_unknown(d, "p50"));
    out->max_ms = ns_ms(jint_or_unknown(d, "max"));
    int64_t sd = jint_or_unknown(d, "stdev");
    out->sd_ms = sd == PR_UNKNOWN ? NAN : (double)sd / 1e6;
}

int pr_ab_stats_from_summary(const pr_run *run, pr_ab_tables *out)
{
    memset(out, 0, sizeof *out);
    const json_t *s = run->summary;
    int64_t n = jint_or_unknown(s, "requests");
    if (!json_is_object(s) || n == PR_UNKNOWN || n <= 0)
        return PR_EUSAGE;
    out->n = (size_t)n;
    const json_t *tool = json_object_get(s, "tool");
    const json_t *ct = json_object_get(tool, "Connection Times (ms)");
    pr_ab_row *rows[4] = {&out->connect, &out->processing, &out->waiting, &out->total};
    static const char *const ab_rows[4] = {"Connect", "Processing", "Waiting", "Total"};
    static const char *const dists[4] = {"connect_ns", NULL, "ttfb_ns", "latency_ns"};
    for (int i = 0; i < 4; i++) {
        if (json_is_object(ct)) /* ab's own report: its rows as printed */
            printed_row(json_object_get(ct, ab_rows[i]), rows[i]);
        else
            canonical_row(dists[i] ? json_object_get(s, dists[i]) : NULL, rows[i]);
    }
    const json_t *pct = json_is_object(ct) ? json_object_get(tool, "Percentage served (ms)") : NULL;
    const json_t *lat = json_object_get(s, "latency_ns");
    for (int i = 0; i < PR_AB_NPERCS; i++) {
        char k[8];
        if (pct) {
            snprintf(k, sizeof k, "%d", pr_ab_percs[i]);
            out->pct_ms[i] = jint_or_unknown(pct, k);
        } else {
            snprintf(k, sizeof k, pr_ab_percs[i] >= 100 ? "max" : "p%d", pr_ab_percs[i]);
            out->pct_ms[i] = ns_ms(jint_or_unknown(lat, k));
        }
        out->has_percentiles |= out->pct_ms[i] != PR_UNKNOWN;
    }
    return 0;
}
