/* Loads per-sample points of a run for scatter charts: flat arrays, or compact chunks. */
#include "analysis/points.h"
#include "model/xalloc.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A worker's scratch: one block's kept points before they are narrowed. */
typedef struct scratch {
    int64_t *bt, *bl;
    uint8_t *bok;
    size_t cap;
} scratch;

#define LOAD_THREADS 2

typedef struct loader {
    pr_points *p;
    size_t cap;
    int64_t from, to;
    uint64_t seen; /* the samples with a start so far (stride > 1: one thread) */
    scratch sc[LOAD_THREADS];
    pthread_mutex_t mu; /* chunked: p's chunks and counts */
} loader;

#define COL(c, k, i) ((c)->vals[k] ? (c)->vals[k][i] : (c)->konst[k])

/* Whether sample i of the block is a point: a known start in the window, every stride-th. */
static int keep(loader *l, const pr_block_cols *c, size_t i, int64_t *t)
{
    int64_t start = COL(c, PR_COL_START, i);
    if (start == PR_UNKNOWN || (l->p->stride > 1 && l->seen++ % l->p->stride != 0))
        return 0;
    *t = start - l->p->start_ns;
    return *t >= l->from && *t < l->to;
}

/* Whether sample i of the block is not a failure. */
static inline uint8_t ok_of(const pr_block_cols *c, size_t i)
{
    return pr_outcome_of((uint8_t)COL(c, PR_COL_SUCCESS, i), (uint16_t)COL(c, PR_COL_STATUS, i),
                         (uint32_t)COL(c, PR_COL_ERROR, i)) != 0;
}

/* A block's points into the flat arrays. */
static int flat_block(const pr_block_cols *c, void *payload)
{
    loader *l = payload;
    pr_points *p = l->p;
    if (p->n + c->n > l->cap) {
        size_t cap = l->cap;
        p->t_ns = pr_xgrow(p->t_ns, &cap, p->n + c->n, sizeof *p->t_ns);
        p->latency_ns = pr_xrealloc(p->latency_ns, cap * sizeof *p->latency_ns);
        p->ok = pr_xrealloc(p->ok, cap);
        l->cap = cap;
    }
    for (size_t i = 0; i < c->n; i++) {
        int64_t t;
        if (!keep(l, c, i, &t))
            continue;
        int64_t lat = COL(c, PR_COL_LATENCY, i);
        p->t_ns[p->n] = t;
        p->latency_ns[p->n] = lat == PR_UNKNOWN ? -1 : lat;
        p->ok[p->n] = ok_of(c, i);
        p->n++;
    }
    return 0;
}

/* n values from lo to hi as offsets from lo when they span less than 2^32, else copied. */
static void narrow(const int64_t *v, size_t n, int64_t lo, int64_t hi, int64_t *base, uint32_t **d,
                   int64_t **wide)
{
    *base = lo;
    if ((uint64_t)hi - (uint64_t)lo <= UINT32_MAX) {
        uint32_t *o = pr_xmalloc(n * sizeof *o);
        for (size_t i = 0; i < n; i++)
            o[i] = (uint32_t)((uint64_t)v[i] - (uint64_t)lo);
        *d = o;
    } else {
        *wide = pr_xmalloc(n * sizeof **wide);
        memcpy(*wide, v, n * sizeof **wide);
    }
}

/* The least and greatest of n values, and the least > 0 (INT64_MAX: none). */
static void span(const int64_t *v, size_t n, int64_t *lo, int64_t *hi, int64_t *pos)
{
    int64_t a = INT64_MAX, b = INT64_MIN, p = INT64_MAX;
    for (size_t i = 0; i < n; i++) {
        a = v[i] < a ? v[i] : a;
        b = v[i] > b ? v[i] : b;
        p = v[i] > 0 && v[i] < p ? v[i] : p;
    }
    *lo = a;
    *hi = b;
    *pos = p;
}

/* A block's kept points with a known latency into the loader's scratch arrays; their count.
 * The outcome columns are read per sample only when one of them varies in the block. */
static size_t gather(loader *l, scratch *sc, const pr_block_cols *c, size_t *in_window,
                     size_t *errors)
{
    pr_points *p = l->p;
    size_t win = 0;
    const int64_t *sv = c->vals[PR_COL_START], *lv = c->vals[PR_COL_LATENCY];
    int64_t sk = c->konst[PR_COL_START], lk = c->konst[PR_COL_LATENCY];
    int vary = c->vals[PR_COL_SUCCESS] || c->vals[PR_COL_STATUS] || c->vals[PR_COL_ERROR];
    uint8_t kok = c->n ? ok_of(c, 0) : 1;
    size_t n = 0, bad = 0;
    for (size_t i = 0; i < c->n; i++) {
        int64_t start = sv ? sv[i] : sk;
        if (start == PR_UNKNOWN || (p->stride > 1 && l->seen++ % p->stride != 0))
            continue;
        int64_t t = start - p->start_ns, lat = lv ? lv[i] : lk;
        if (t < l->from || t >= l->to)
            continue;
        win++;
        if (lat < 0)
            continue; /* unknown (PR_UNKNOWN is negative): the chart skips it */
        uint8_t ok = vary ? ok_of(c, i) : kok;
        sc->bt[n] = t;
        sc->bl[n] = lat;
        sc->bok[n++] = ok;
        bad += !ok;
    }
    *in_window = win;
    *errors = bad;
    return n;
}

/* A block's points with a known latency as one compact chunk, the ordinal-th (empty when
 * none); on any worker. */
static int chunk_block(const pr_block_cols *c, size_t ordinal, int worker, void *payload)
{
    loader *l = payload;
    pr_points *p = l->p;
    scratch *sc = &l->sc[worker];
    if (c->n > sc->cap) {
        size_t cap = sc->cap;
        sc->bt = pr_xgrow(sc->bt, &cap, c->n, sizeof *sc->bt);
        sc->bl = pr_xrealloc(sc->bl, cap * sizeof *sc->bl);
        sc->bok = pr_xrealloc(sc->bok, cap);
        sc->cap = cap;
    }
    size_t win, errors, n = gather(l, sc, c, &win, &errors);
    pr_points_chunk k = {0};
    if (n) {
        int64_t tmin, tmax, tpos, lmin, lmax, lpos;
        span(sc->bt, n, &tmin, &tmax, &tpos);
        span(sc->bl, n, &lmin, &lmax, &lpos);
        k = (pr_points_chunk){n,    0,    0,    NULL, NULL, NULL,  NULL,
                              NULL, tmin, tmax, lpos, lmax, errors};
        narrow(sc->bt, n, tmin, tmax, &k.t0_ns, &k.dt, &k.t_ns);
        narrow(sc->bl, n, lmin, lmax, &k.l0_ns, &k.dl, &k.latency_ns);
        if (errors) {
            k.ok_bits = pr_xcalloc((n + 7) / 8, 1);
            for (size_t i = 0; i < n; i++)
                k.ok_bits[i / 8] |= (uint8_t)(sc->bok[i] << (i % 8));
        }
    }
    pthread_mutex_lock(&l->mu);
    if (ordinal >= p->chunks_cap) {
        size_t old = p->chunks_cap;
        p->chunks = pr_xgrow(p->chunks, &p->chunks_cap, ordinal + 1, sizeof *p->chunks);
        memset(p->chunks + old, 0, (p->chunks_cap - old) * sizeof *p->chunks);
    }
    p->chunks[ordinal] = k;
    p->nchunks = ordinal + 1 > p->nchunks ? ordinal + 1 : p->nchunks;
    p->n += n;
    p->in_window += win;
    pthread_mutex_unlock(&l->mu);
    return 0;
}

/* The chunks without the empty ones, in storage order. */
static void drop_empty(pr_points *p)
{
    size_t m = 0;
    for (size_t i = 0; i < p->nchunks; i++)
        if (p->chunks[i].n)
            p->chunks[m++] = p->chunks[i];
    p->nchunks = m;
}

static int load(pr_store *st, int64_t run_id, int64_t from_ns, int64_t to_ns, int threads,
                pr_points *out, pr_error *err)
{
    memset(out, 0, sizeof *out);
    pr_run *run;
    int rc = pr_store_load_run(st, run_id, &run, err);
    if (rc < 0)
        return rc;
    out->start_ns = run->start_ns == PR_UNKNOWN ? 0 : run->start_ns;
    loader l;
    memset(&l, 0, sizeof l);
    l.p = out;
    l.from = from_ns == PR_UNKNOWN ? INT64_MIN : from_ns;
    l.to = to_ns == PR_UNKNOWN ? INT64_MAX : to_ns;
    out->stride = run->samples > PR_POINTS_MAX
                      ? (uint64_t)((run->samples + PR_POINTS_MAX - 1) / PR_POINTS_MAX)
                      : 1;
    if (run->samples > 0 && !threads) {
        l.cap = (size_t)(run->samples / (int64_t)out->stride + 1);
        out->t_ns = pr_xmalloc(l.cap * sizeof *out->t_ns);
        out->latency_ns = pr_xmalloc(l.cap * sizeof *out->latency_ns);
        out->ok = pr_xmalloc(l.cap);
    }
    pr_run_free(run);
    unsigned want = PR_COLBIT(PR_COL_START) | PR_COLBIT(PR_COL_LATENCY) |
                    PR_COLBIT(PR_COL_SUCCESS) | PR_COLBIT(PR_COL_STATUS) | PR_COLBIT(PR_COL_ERROR);
    if (!threads) {
        rc = pr_store_scan_cols(st, run_id, want, flat_block, &l, err);
        out->in_window = out->n;
    } else {
        /* every stride-th sample: counted in storage order, on one thread */
        int nt = out->stride > 1 ? 1 : threads > LOAD_THREADS ? LOAD_THREADS : threads;
        pthread_mutex_init(&l.mu, NULL);
        rc = pr_store_scan_cols_mt(st, run_id, want, nt, chunk_block, &l, err);
        pthread_mutex_destroy(&l.mu);
        drop_empty(out);
    }
    for (int i = 0; i < LOAD_THREADS; i++) {
        free(l.sc[i].bt);
        free(l.sc[i].bl);
        free(l.sc[i].bok);
    }
    if (rc < 0)
        pr_points_dispose(out);
    return rc;
}

int pr_points_load(pr_store *st, int64_t run_id, int64_t from_ns, int64_t to_ns, pr_points *out,
                   pr_error *err)
{
    return load(st, run_id, from_ns, to_ns, 0, out, err);
}

int pr_points_load_chunks(pr_store *st, int64_t run_id, int64_t from_ns, int64_t to_ns, int threads,
                          pr_points *out, pr_error *err)
{
    return load(st, run_id, from_ns, to_ns, threads < 1 ? 1 : threads, out, err);
}

void pr_points_dispose(pr_points *p)
{
    free(p->t_ns);
    free(p->latency_ns);
    free(p->ok);
    for (size_t i = 0; i < p->nchunks; i++) {
        pr_points_chunk *k = &p->chunks[i];
        free(k->dt);
        free(k->dl);
        free(k->t_ns);
        free(k->latency_ns);
        free(k->ok_bits);
    }
    free(p->chunks);
    memset(p, 0, sizeof *p);
}
