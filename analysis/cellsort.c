/* Sorted (value, cell) pairs: two arrays, 16-bit cells widened on demand, sorted in place. */
#include "analysis/cellsort.h"
#include "analysis/rsort.h"
#include "analysis/vec.h"
#include <math.h>
#include "model/xalloc.h"
#include <stdlib.h>
#include <string.h>

#define BLOCK 128                      /* pairs per block of a bucketed set */
#define BUCKETS (PR_RSORT_BUCKETS + 1) /* 0: negative values; 1 + pr_rsort_bucket(v) */

/* A bucketed set: the arrays are blocks of BLOCK pairs, each holding pairs of one bucket. */
struct pr_cellsort_bk {
    uint32_t cur[BUCKETS];  /* the bucket's open block + 1 (0: none) */
    uint16_t fill[BUCKETS]; /* pairs in it */
    uint16_t *blk_bucket;   /* per block, in the order taken: its bucket */
    size_t nblocks, capblocks;
};

static void arrays_resize(pr_cellsort *cs, size_t cap)
{
    cs->v = pr_xrealloc(cs->v, cap * sizeof *cs->v);
    if (cs->c32)
        cs->c32 = pr_xrealloc(cs->c32, cap * sizeof *cs->c32);
    else
        cs->c16 = pr_xrealloc(cs->c16, cap * sizeof *cs->c16);
    cs->cap = cap;
}

void pr_cellsort_init(pr_cellsort *cs, size_t cap)
{
    memset(cs, 0, sizeof *cs);
    cs->cap = cap ? cap : 1;
    if (cap >= PR_CELLSORT_BUCKETED) { /* room for a partial block per bucket in use */
        cs->bk = pr_xcalloc(1, sizeof *cs->bk);
        cs->bk->capblocks = (cap + BLOCK - 1) / BLOCK + 1024;
        cs->bk->blk_bucket = pr_xmalloc(cs->bk->capblocks * sizeof *cs->bk->blk_bucket);
        cs->cap = cs->bk->capblocks * BLOCK;
    }
    cs->v = pr_xmalloc(cs->cap * sizeof *cs->v);
    cs->c16 = pr_xmalloc(cs->cap * sizeof *cs->c16);
}

/* 16-bit cells to 32 (once, when a cell does not fit). */
static void widen(pr_cellsort *cs)
{
    size_t n = cs->bk ? cs->bk->nblocks * BLOCK : cs->n;
    cs->c32 = pr_xmalloc(cs->cap * sizeof *cs->c32);
    for (size_t i = 0; i < n; i++)
        cs->c32[i] = cs->c16[i];
    free(cs->c16);
    cs->c16 = NULL;
}

/* The slot of a new pair of value v in a bucketed set. */
static size_t bucket_slot(pr_cellsort *cs, int64_t v)
{
    pr_cellsort_bk *bk = cs->bk;
    size_t b = v < 0 ? 0 : 1 + pr_rsort_bucket((uint64_t)v);
    if (!bk->cur[b] || bk->fill[b] == BLOCK) {
        if (bk->nblocks == bk->capblocks) { /* grows in place mostly (large blocks: mremap) */
            bk->capblocks += bk->capblocks / 8 + 64;
            bk->blk_bucket = pr_xrealloc(bk->blk_bucket, bk->capblocks * sizeof *bk->blk_bucket);
            arrays_resize(cs, bk->capblocks * BLOCK);
        }
        bk->blk_bucket[bk->nblocks] = (uint16_t)b;
        bk->cur[b] = (uint32_t)++bk->nblocks;
        bk->fill[b] = 0;
    }
    return (size_t)(bk->cur[b] - 1) * BLOCK + bk->fill[b]++;
}

void pr_cellsort_add(pr_cellsort *cs, int64_t v, uint32_t cell)
{
    if (!cs->c32 && cell > UINT16_MAX)
        widen(cs);
    size_t at;
    if (cs->bk) {
        at = bucket_slot(cs, v);
    } else {
        if (cs->n == cs->cap) /* sized by the caller's count: grows only if that was short */
            arrays_resize(cs, cs->cap + cs->cap / 2 + 16);
        at = cs->n;
    }
    cs->v[at] = v;
    if (cs->c32)
        cs->c32[at] = cell;
    else
        cs->c16[at] = (uint16_t)cell;
    cs->n++;
}

/* Swaps blocks i and j (values and cells). */
static void swap_blocks(pr_cellsort *cs, size_t i, size_t j, int64_t *tv, uint32_t *tc)
{
    int64_t *a = cs->v + i * BLOCK, *b = cs->v + j * BLOCK;
    memcpy(tv, a, BLOCK * sizeof *tv);
    memcpy(a, b, BLOCK * sizeof *tv);
    memcpy(b, tv, BLOCK * sizeof *tv);
    size_t w = cs->c32 ? sizeof *cs->c32 : sizeof *cs->c16;
    char *ca = (char *)(cs->c32 ? (void *)cs->c32 : (void *)cs->c16) + i * BLOCK * w;
    char *cb = (char *)(cs->c32 ? (void *)cs->c32 : (void *)cs->c16) + j * BLOCK * w;
    memcpy(tc, ca, BLOCK * w);
    memcpy(ca, cb, BLOCK * w);
    memcpy(cb, tc, BLOCK * w);
}

/* A bucketed set sorted: blocks moved to bucket order, the gaps of partial blocks closed,
 * then each bucket sorted on its own (they fit in cache), on the analysis threads. */
static void sort_bucketed(pr_cellsort *cs)
{
    pr_cellsort_bk *bk = cs->bk;
    size_t nb = bk->nblocks;
    size_t *nblk = pr_xcalloc(BUCKETS + 1, sizeof *nblk),
           *start = pr_xmalloc((BUCKETS + 1) * sizeof *start);
    for (size_t i = 0; i < nb; i++)
        nblk[bk->blk_bucket[i]]++;
    start[0] = 0;
    for (size_t b = 0; b < BUCKETS; b++)
        start[b + 1] = start[b] + nblk[b];
    size_t *dest = pr_xmalloc((nb + 1) * sizeof *dest), *next = pr_xmalloc(BUCKETS * sizeof *next);
    memcpy(next, start, BUCKETS * sizeof *next);
    for (size_t i = 0; i < nb; i++) /* a bucket's blocks in the order taken: the open one last */
        dest[i] = next[bk->blk_bucket[i]]++;
    int64_t *tv = pr_xmalloc(BLOCK * sizeof *tv);
    uint32_t *tc = pr_xmalloc(BLOCK * sizeof *tc);
    for (size_t i = 0; i < nb; i++)
        while (dest[i] != i) {
            size_t j = dest[i];
            swap_blocks(cs, i, j, tv, tc);
            dest[i] = dest[j];
            dest[j] = j;
        }
    size_t *bounds = pr_xmalloc((BUCKETS + 1) * sizeof *bounds), w = 0;
    size_t cw = cs->c32 ? sizeof *cs->c32 : sizeof *cs->c16;
    char *cells = cs->c32 ? (char *)cs->c32 : (char *)cs->c16;
    for (size_t b = 0; b < BUCKETS; b++) {
        size_t count = nblk[b] ? (nblk[b] - 1) * BLOCK + bk->fill[b] : 0, src = start[b] * BLOCK;
        bounds[b] = w;
        if (count && src != w) {
            memmove(cs->v + w, cs->v + src, count * sizeof *cs->v);
            memmove(cells + w * cw, cells + src * cw, count * cw);
        }
        w += count;
    }
    bounds[BUCKETS] = w;
    int threads = pr_rsort_threads();
    if (cs->c32)
        pr_rsort_i64_u32_ranges(cs->v, cs->c32, bounds, BUCKETS, threads);
    else
        pr_rsort_i64_u16_ranges(cs->v, cs->c16, bounds, BUCKETS, threads);
    free(nblk);
    free(start);
    free(dest);
    free(next);
    free(tv);
    free(tc);
    free(bounds);
    free(bk->blk_bucket);
    free(bk);
    cs->bk = NULL;
}

void pr_cellsort_sort(pr_cellsort *cs)
{
    if (cs->bk) {
        sort_bucketed(cs);
        return;
    }
    int threads = pr_rsort_threads();
    if (cs->c32)
        pr_rsort_i64_u32_par(cs->v, cs->c32, cs->n, threads);
    else
        pr_rsort_i64_u16_par(cs->v, cs->c16, cs->n, threads);
}

size_t pr_cellsort_bytes(const pr_cellsort *cs)
{
    return cs->cap * (sizeof *cs->v + (cs->c32 ? sizeof *cs->c32 : sizeof *cs->c16));
}

void pr_cellsort_dispose(pr_cellsort *cs)
{
    if (cs->bk)
        free(cs->bk->blk_bucket);
    free(cs->bk);
    free(cs->v);
    free(cs->c16);
    free(cs->c32);
    memset(cs, 0, sizeof *cs);
}

void pr_qdist_rank(pr_qdist *q, uint64_t rank, int slot)
{
    if (q->nr == PR_QDIST_MAX || rank < 1 || rank > q->n)
        return;
    size_t j = q->nr++;
    while (j > 0 && q->rank[j - 1] > rank) { /* kept ascending */
        q->rank[j] = q->rank[j - 1];
        q->slot[j] = q->slot[j - 1];
        j--;
    }
    q->rank[j] = rank;
    q->slot[j] = slot;
}

void pr_qdist_init(pr_qdist *q, uint64_t n, long double sum, const double *pcts, size_t np)
{
    memset(q, 0, sizeof *q);
    q->n = n;
    q->sum = (int64_t)sum;
    q->mean = n ? sum / (long double)n : 0;
    for (size_t i = 0; i < np && n; i++)
        pr_qdist_rank(q, pr_percentile_rank((size_t)n, pcts[i]), (int)i);
}

void pr_qdist_dist(const pr_qdist *q, pr_dist *out)
{
    memset(out, 0, sizeof *out);
    out->count = (int64_t)q->n;
    if (!q->n) {
        out->min = out->max = INT64_MIN;
        out->mean = out->stdev = NAN;
        return;
    }
    out->min = q->min;
    out->max = q->max;
    out->sum = q->sum;
    out->mean = (double)q->mean;
    out->stdev = (double)sqrtl(q->ss / (long double)q->n);
}
