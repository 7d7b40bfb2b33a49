/* Sorted (value, cell) pairs: two arrays (a large set's values in 4 bytes, its others apart),
 * 16-bit cells widened on demand, sorted in place. */
#include "analysis/cellsort.h"
#include "analysis/rsort.h"
#include "analysis/vec.h"
#include "model/threads.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK PR_CELLSORT_BLOCK
#define BUCKETS PR_CELLSORT_BUCKETS

#define EMPTY BUCKETS /* the bucket of the unused blocks between two fillers' */
/* The arrays stay in the system's default pages: asking for transparent huge pages
 * (madvise MADV_HUGEPAGE) cut a 10 M-sample summary's page faults from 27,868 to 3,448 but
 * raised its CPU time from 0.78 to 1.0 s on a virtual machine, where zeroing each 2 MiB page
 * on first touch (the kernel's clear_page, a quarter of the summary's samples) costs more
 * than the faults and TLB misses it saves (docs/bench.md). */

static void arrays_resize(pr_cellsort *cs, size_t cap)
{
    if (cs->lo)
        cs->lo = pr_xrealloc(cs->lo, cap * sizeof *cs->lo);
    else
        cs->v = pr_xrealloc(cs->v, cap * sizeof *cs->v);
    if (cs->c32)
        cs->c32 = pr_xrealloc(cs->c32, cap * sizeof *cs->c32);
    else
        cs->c16 = pr_xrealloc(cs->c16, cap * sizeof *cs->c16);
    cs->cap = cap;
}

void pr_cellsort_init_fillers(pr_cellsort *cs, size_t cap, int fillers)
{
    memset(cs, 0, sizeof *cs);
    cs->cap = cap ? cap : 1;
    if (cap >= PR_CELLSORT_BUCKETED) { /* room for a partial block per bucket in use */
        cs->bk = pr_xcalloc(1, sizeof *cs->bk);
        cs->bk->capblocks = (cap + BLOCK - 1) / BLOCK + 1024 * (size_t)(fillers > 1 ? 2 : 1);
        cs->bk->blk_bucket = pr_xmalloc(cs->bk->capblocks * sizeof *cs->bk->blk_bucket);
        cs->cap = cs->bk->capblocks * BLOCK;
    }
    if (cs->bk)
        cs->lo = pr_xmalloc(cs->cap * sizeof *cs->lo);
    else
        cs->v = pr_xmalloc(cs->cap * sizeof *cs->v);
    cs->c16 = pr_xmalloc(cs->cap * sizeof *cs->c16);
}

void pr_cellsort_init(pr_cellsort *cs, size_t cap)
{
    pr_cellsort_init_fillers(cs, cap, 1);
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

/* A new block for bucket b: its index, SIZE_MAX when two fillers have no room left. */
static size_t take_block(pr_cellsort *cs, size_t b)
{
    pr_cellsort_bk *bk = cs->bk;
    size_t at = bk->nblocks;
    if (bk->taken) {
        if (atomic_fetch_add_explicit(bk->taken, 1, memory_order_relaxed) >= bk->capblocks) {
            bk->lost = 1;
            return SIZE_MAX;
        }
        if (bk->top)
            at = bk->capblocks - 1 - bk->nblocks;
    } else if (bk->nblocks == bk->capblocks) { /* grows in place mostly (large blocks: mremap) */
        bk->capblocks += bk->capblocks / 8 + 64;
        bk->blk_bucket = pr_xrealloc(bk->blk_bucket, bk->capblocks * sizeof *bk->blk_bucket);
        arrays_resize(cs, bk->capblocks * BLOCK);
    }
    bk->blk_bucket[bk->nblocks++] = (uint16_t)b;
    return at;
}

/* The slot of a new pair of value v in [0, PR_CELLSORT_NARROW) in a bucketed set (SIZE_MAX:
 * lost). */
static size_t bucket_slot(pr_cellsort *cs, int64_t v)
{
    pr_cellsort_bk *bk = cs->bk;
    size_t b = 1 + pr_rsort_bucket((uint64_t)v);
    if (!bk->cur[b] || bk->fill[b] == BLOCK) {
        size_t at = take_block(cs, b);
        if (at == SIZE_MAX)
            return at;
        bk->cur[b] = (uint32_t)at + 1;
        bk->fill[b] = 0;
    }
    return (size_t)(bk->cur[b] - 1) * BLOCK + bk->fill[b]++;
}

void pr_cellsort_add_slow(pr_cellsort *cs, int64_t v, uint32_t cell)
{
    if (!cs->c32 && cell > UINT16_MAX) {
        if (cs->bk && cs->bk->taken) { /* the other filler writes the 16-bit cells */
            cs->bk->lost = 1;
            return;
        }
        widen(cs);
    }
    size_t at;
    if (cs->bk && (uint64_t)v >= PR_CELLSORT_NARROW) { /* this filler's own flat set */
        if (!cs->wide) {
            cs->wide = pr_xmalloc(sizeof *cs->wide);
            pr_cellsort_init(cs->wide, 1024);
        }
        pr_cellsort_add_slow(cs->wide, v, cell);
        cs->n++;
        return;
    }
    if (cs->bk) {
        at = bucket_slot(cs, v);
        if (at == SIZE_MAX)
            return;
        cs->lo[at] = (uint32_t)v;
    } else {
        if (cs->n == cs->cap) /* sized by the caller's count: grows only if that was short */
            arrays_resize(cs, cs->cap + cs->cap / 2 + 16);
        at = cs->n;
        cs->v[at] = v;
    }
    if (cs->c32)
        cs->c32[at] = cell;
    else
        cs->c16[at] = (uint16_t)cell;
    cs->n++;
}

int pr_cellsort_part_open(pr_cellsort *cs, pr_cellsort *part)
{
    memset(part, 0, sizeof *part);
    if (!cs->bk || cs->c32 || cs->bk->taken || cs->bk->pairs)
        return -1;
    pr_cellsort_bk *bk = cs->bk, *pk = pr_xcalloc(1, sizeof *pk);
    atomic_store(&bk->taken_both, bk->nblocks);
    bk->taken = pk->taken = &bk->taken_both;
    pk->top = 1;
    pk->capblocks = bk->capblocks;
    pk->blk_bucket = pr_xmalloc(pk->capblocks * sizeof *pk->blk_bucket);
    *part = (pr_cellsort){.lo = cs->lo, .c16 = cs->c16, .cap = cs->cap, .bk = pk};
    return 0;
}

int pr_cellsort_part_lost(const pr_cellsort *cs, const pr_cellsort *part)
{
    return (cs->bk && cs->bk->lost) || (part->bk && part->bk->lost);
}

/* The part's cells remapped (see pr_cellsort_part_join) in cs's arrays, widened to 32 bits
 * first when one no longer fits in 16; pairs[i]: the pairs block i holds. */
static void remap_part(pr_cellsort *cs, size_t first, const unsigned char *pairs,
                       const uint32_t *map, unsigned shift)
{
    uint32_t mask = (1u << shift) - 1, top = 0;
    size_t nb = cs->bk->capblocks;
    for (size_t k = first; k < nb; k++)
        for (size_t i = k * BLOCK; i < k * BLOCK + pairs[k]; i++) {
            uint32_t c = cs->c16[i];
            uint32_t m = map[c >> shift] << shift | (c & mask);
            top = m > top ? m : top;
        }
    if (top > UINT16_MAX) {
        cs->c32 = pr_xmalloc(cs->cap * sizeof *cs->c32);
        for (size_t i = 0; i < cs->bk->nblocks * BLOCK; i++)
            cs->c32[i] = cs->c16[i];
    }
    for (size_t k = first; k < nb; k++)
        for (size_t i = k * BLOCK; i < k * BLOCK + pairs[k]; i++) {
            uint32_t c = cs->c16[i], m = map[c >> shift] << shift | (c & mask);
            if (cs->c32)
                cs->c32[i] = m;
            else
                cs->c16[i] = (uint16_t)m;
        }
    if (cs->c32) {
        free(cs->c16);
        cs->c16 = NULL;
    }
}

/* A part's other pairs added to cs's, each cell remapped as pr_cellsort_part_join says. */
static void join_wide(pr_cellsort *cs, const pr_cellsort *w, const uint32_t *map, unsigned shift)
{
    if (!w || !w->n)
        return;
    if (!cs->wide) {
        cs->wide = pr_xmalloc(sizeof *cs->wide);
        pr_cellsort_init(cs->wide, w->n);
    }
    uint32_t mask = (1u << shift) - 1;
    for (size_t i = 0; i < w->n; i++) {
        uint32_t c = pr_cellsort_cell(w, i);
        pr_cellsort_add_slow(cs->wide, w->v[i], map[c >> shift] << shift | (c & mask));
    }
}

void pr_cellsort_part_join(pr_cellsort *cs, pr_cellsort *part, const uint32_t *map, unsigned shift)
{
    pr_cellsort_bk *bk = cs->bk, *pk = part->bk;
    size_t nb = bk->capblocks, low = bk->nblocks;
    unsigned char *pairs = pr_xmalloc(nb + 1);
    uint16_t *bucket = pr_xmalloc((nb + 1) * sizeof *bucket);
    memcpy(bucket, bk->blk_bucket, low * sizeof *bucket);
    memset(pairs, BLOCK, low);
    for (size_t i = low; i < nb; i++) {
        bucket[i] = EMPTY;
        pairs[i] = 0;
    }
    for (size_t b = 0; b < BUCKETS; b++)
        if (bk->cur[b])
            pairs[bk->cur[b] - 1] = (unsigned char)bk->fill[b];
    if (map && pk->nblocks) {
        for (size_t k = 0; k < pk->nblocks; k++) {
            bucket[nb - 1 - k] = pk->blk_bucket[k];
            pairs[nb - 1 - k] = BLOCK;
        }
        for (size_t b = 0; b < BUCKETS; b++)
            if (pk->cur[b])
                pairs[pk->cur[b] - 1] = (unsigned char)pk->fill[b];
        remap_part(cs, nb - pk->nblocks, pairs, map, shift);
    }
    if (map) {
        cs->n += part->n; /* its other pairs too, which join cs's with their cells remapped */
        join_wide(cs, part->wide, map, shift);
    }
    if (part->wide) {
        pr_cellsort_dispose(part->wide);
        free(part->wide);
    }
    free(bk->blk_bucket);
    bk->blk_bucket = bucket;
    bk->pairs = pairs;
    bk->nblocks = nb;
    bk->taken = NULL;
    free(pk->blk_bucket);
    free(pk);
    memset(part, 0, sizeof *part);
}

/* Swaps blocks i and j (values and cells). */
static void swap_blocks(pr_cellsort *cs, size_t i, size_t j, uint32_t *tv, uint32_t *tc)
{
    uint32_t *a = cs->lo + i * BLOCK, *b = cs->lo + j * BLOCK;
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

/* pairs[i]: the pairs block i holds, from a join or else full blocks but the open ones. */
static unsigned char *block_pairs(pr_cellsort_bk *bk)
{
    unsigned char *pairs = bk->pairs;
    bk->pairs = NULL;
    if (pairs)
        return pairs;
    pairs = pr_xmalloc(bk->nblocks + 1);
    memset(pairs, BLOCK, bk->nblocks);
    for (size_t b = 0; b < BUCKETS; b++)
        if (bk->cur[b])
            pairs[bk->cur[b] - 1] = (unsigned char)bk->fill[b];
    return pairs;
}

/* After the blocks are in bucket order: each block's pairs moved down to close the gaps of
 * partial and empty blocks; bounds[b], the first pair of bucket b. */
static size_t close_gaps(pr_cellsort *cs, const size_t *start, const unsigned char *dpairs,
                         size_t *bounds)
{
    size_t cw = cs->c32 ? sizeof *cs->c32 : sizeof *cs->c16, w = 0, k = 0;
    char *cells = cs->c32 ? (char *)cs->c32 : (char *)cs->c16;
    for (size_t b = 0; b < BUCKETS; b++) {
        bounds[b] = w;
        for (; k < start[b + 1]; k++) {
            size_t src = k * BLOCK, count = dpairs[k];
            /* a run of full blocks moves at once */
            while (dpairs[k] == BLOCK && k + 1 < start[b + 1] && dpairs[k + 1])
                count += dpairs[++k];
            if (count && src != w) {
                memmove(cs->lo + w, cs->lo + src, count * sizeof *cs->lo);
                memmove(cells + w * cw, cells + src * cw, count * cw);
            }
            w += count;
        }
    }
    bounds[BUCKETS] = w;
    return w;
}

/* A bucket's smallest value: the inverse of 1 + pr_rsort_bucket on the buckets' bounds. */
static uint64_t bucket_low(size_t b)
{
    size_t r = b - 1;
    if (r < 64)
        return r;
    unsigned msb = (unsigned)(r >> 6) + 5;
    return (uint64_t)(64 + (r & 63)) << (msb - 6);
}

/* cs->high from the sorted buckets' bounds: a bucket of [0, PR_CELLSORT_NARROW) is at most
 * 2^31 wide and aligned on its width, so its values share their high half. */
static void high_bounds(pr_cellsort *cs, const size_t *bounds, size_t narrow)
{
    cs->high = pr_xmalloc((PR_CELLSORT_HIGHS + 1) * sizeof *cs->high);
    size_t h = 0;
    for (size_t b = 1; b < BUCKETS && h < PR_CELLSORT_HIGHS; b++) {
        uint64_t top = bucket_low(b) >> 32; /* bucket b's high half */
        while (h <= top && h < PR_CELLSORT_HIGHS)
            cs->high[h++] = bounds[b];
    }
    while (h <= PR_CELLSORT_HIGHS)
        cs->high[h++] = narrow;
}

/* The other pairs sorted (the negative ones first), counted in cs->n. */
static void sort_wide(pr_cellsort *cs, size_t narrow)
{
    cs->n = narrow;
    cs->nneg = 0;
    if (!cs->wide)
        return;
    pr_cellsort_sort(cs->wide);
    while (cs->nneg < cs->wide->n && cs->wide->v[cs->nneg] < 0)
        cs->nneg++;
    cs->n += cs->wide->n;
}

/* A bucketed set sorted: blocks moved to bucket order, the gaps of partial blocks closed,
 * then each bucket sorted on its own (they fit in cache), on the analysis threads. */
static void sort_bucketed(pr_cellsort *cs)
{
    pr_cellsort_bk *bk = cs->bk;
    size_t nb = bk->nblocks;
    unsigned char *pairs = block_pairs(bk), *dpairs = pr_xmalloc(nb + 1);
    size_t *nblk = pr_xcalloc(BUCKETS + 2, sizeof *nblk),
           *start = pr_xmalloc((BUCKETS + 2) * sizeof *start);
    for (size_t i = 0; i < nb; i++)
        nblk[bk->blk_bucket[i]]++;
    start[0] = 0;
    for (size_t b = 0; b <= BUCKETS; b++) /* EMPTY blocks last */
        start[b + 1] = start[b] + nblk[b];
    size_t *dest = pr_xmalloc((nb + 1) * sizeof *dest),
           *next = pr_xmalloc((BUCKETS + 1) * sizeof *next);
    memcpy(next, start, (BUCKETS + 1) * sizeof *next);
    for (size_t i = 0; i < nb; i++) {
        dest[i] = next[bk->blk_bucket[i]]++;
        dpairs[dest[i]] = pairs[i];
    }
    uint32_t *tv = pr_xmalloc(BLOCK * sizeof *tv);
    uint32_t *tc = pr_xmalloc(BLOCK * sizeof *tc);
    for (size_t i = 0; i < nb; i++)
        while (dest[i] != i) {
            size_t j = dest[i];
            if (bk->blk_bucket[i] != EMPTY || bk->blk_bucket[j] != EMPTY)
                swap_blocks(cs, i, j, tv, tc);
            uint16_t t = bk->blk_bucket[i];
            bk->blk_bucket[i] = bk->blk_bucket[j];
            bk->blk_bucket[j] = t;
            dest[i] = dest[j];
            dest[j] = j;
        }
    size_t *bounds = pr_xmalloc((BUCKETS + 1) * sizeof *bounds);
    size_t narrow = close_gaps(cs, start, dpairs, bounds);
    int threads = pr_threads();
    if (cs->c32)
        pr_rsort_u32_u32_ranges(cs->lo, cs->c32, bounds, BUCKETS, threads);
    else
        pr_rsort_u32_u16_ranges(cs->lo, cs->c16, bounds, BUCKETS, threads);
    high_bounds(cs, bounds, narrow);
    sort_wide(cs, narrow);
    free(pairs);
    free(dpairs);
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
    int threads = pr_threads();
    if (cs->c32)
        pr_rsort_i64_u32_par(cs->v, cs->c32, cs->n, threads);
    else
        pr_rsort_i64_u16_par(cs->v, cs->c16, cs->n, threads);
}

/* Reads [from, from + k) of a flat set. */
static void read_flat(const pr_cellsort *cs, size_t from, int64_t *v, uint32_t *cell, size_t k)
{
    memcpy(v, cs->v + from, k * sizeof *v);
    if (cs->c32)
        memcpy(cell, cs->c32 + from, k * sizeof *cell);
    else
        for (size_t j = 0; j < k; j++)
            cell[j] = cs->c16[from + j];
}

/* Reads [from, from + k) of a sorted large set's 4-byte values. */
static void read_narrow(const pr_cellsort *cs, size_t from, int64_t *v, uint32_t *cell, size_t k)
{
    size_t h = 0, end = from + k;
    while (cs->high[h + 1] <= from) /* high[PR_CELLSORT_HIGHS] is past every value */
        h++;
    for (size_t i = from; i < end; h++) {
        size_t stop = cs->high[h + 1] < end ? cs->high[h + 1] : end;
        int64_t base = (int64_t)h << 32;
        for (; i < stop; i++)
            v[i - from] = base | cs->lo[i];
    }
    if (cs->c32)
        memcpy(cell, cs->c32 + from, k * sizeof *cell);
    else
        for (size_t j = 0; j < k; j++)
            cell[j] = cs->c16[from + j];
}

size_t pr_cellsort_read(const pr_cellsort *cs, size_t from, int64_t *v, uint32_t *cell, size_t max)
{
    if (from >= cs->n)
        return 0;
    if (!cs->lo) {
        size_t k = cs->n - from < max ? cs->n - from : max;
        read_flat(cs, from, v, cell, k);
        return k;
    }
    size_t nw = cs->wide ? cs->wide->n : 0, neg = cs->nneg, narrow = cs->n - nw;
    if (from < neg) /* the negative values first, then lo, then the values from 2^38 on */
        return pr_cellsort_read(cs->wide, from, v, cell, neg - from < max ? neg - from : max);
    if (from >= neg + narrow)
        return pr_cellsort_read(cs->wide, from - narrow, v, cell, max);
    size_t k = neg + narrow - from < max ? neg + narrow - from : max;
    read_narrow(cs, from - neg, v, cell, k);
    return k;
}

/* Moves cells [0, narrow) up by nneg and puts the wide ones around them (a flattening). */
static void flatten_cells(pr_cellsort *cs, size_t narrow)
{
    pr_cellsort *w = cs->wide;
    size_t nw = w ? w->n : 0, neg = cs->nneg;
    if (w && w->c32 && !cs->c32) {
        cs->c32 = pr_xmalloc((cs->n + 1) * sizeof *cs->c32);
        for (size_t i = 0; i < narrow; i++)
            cs->c32[i] = cs->c16[i];
        free(cs->c16);
        cs->c16 = NULL;
    }
    size_t cw = cs->c32 ? sizeof *cs->c32 : sizeof *cs->c16;
    if (cs->c32)
        cs->c32 = pr_xrealloc(cs->c32, (cs->n + 1) * cw);
    else
        cs->c16 = pr_xrealloc(cs->c16, (cs->n + 1) * cw);
    char *cells = cs->c32 ? (char *)cs->c32 : (char *)cs->c16;
    memmove(cells + neg * cw, cells, narrow * cw);
    for (size_t j = 0; j < nw; j++) {
        size_t at = j < neg ? j : narrow + j;
        if (cs->c32)
            cs->c32[at] = pr_cellsort_cell(w, j);
        else
            cs->c16[at] = (uint16_t)pr_cellsort_cell(w, j);
    }
}

void pr_cellsort_flatten(pr_cellsort *cs)
{
    if (!cs->lo)
        return;
    size_t nw = cs->wide ? cs->wide->n : 0, narrow = cs->n - nw, neg = cs->nneg;
    /* expanded in place from the end: v[i] covers lo[2i], lo[2i + 1], at or past lo[i - neg],
     * which is read before it is overwritten */
    unsigned char *mem = pr_xrealloc(cs->lo, (cs->n + 1) * sizeof(int64_t));
    for (size_t h = PR_CELLSORT_HIGHS; h-- > 0;) { /* memcpy: the two types share the bytes */
        int64_t base = (int64_t)h << 32;
        for (size_t i = cs->high[h + 1]; i-- > cs->high[h];) {
            uint32_t x;
            memcpy(&x, mem + i * sizeof x, sizeof x);
            int64_t y = base | x;
            memcpy(mem + (i + neg) * sizeof y, &y, sizeof y);
        }
    }
    int64_t *v = (int64_t *)(void *)mem;
    for (size_t j = 0; j < nw; j++)
        v[j < neg ? j : narrow + j] = cs->wide->v[j];
    flatten_cells(cs, narrow);
    cs->lo = NULL;
    cs->v = v;
    cs->cap = cs->n + 1;
    free(cs->high);
    cs->high = NULL;
    cs->nneg = 0;
    if (cs->wide) {
        pr_cellsort_dispose(cs->wide);
        free(cs->wide);
        cs->wide = NULL;
    }
}

size_t pr_cellsort_bytes(const pr_cellsort *cs)
{
    size_t vw = cs->lo ? sizeof *cs->lo : sizeof *cs->v;
    return cs->cap * (vw + (cs->c32 ? sizeof *cs->c32 : sizeof *cs->c16)) +
           (cs->wide ? pr_cellsort_bytes(cs->wide) : 0);
}

void pr_cellsort_dispose(pr_cellsort *cs)
{
    if (cs->bk) {
        free(cs->bk->blk_bucket);
        free(cs->bk->pairs);
    }
    free(cs->bk);
    if (cs->wide) {
        pr_cellsort_dispose(cs->wide);
        free(cs->wide);
    }
    free(cs->high);
    free(cs->lo);
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
