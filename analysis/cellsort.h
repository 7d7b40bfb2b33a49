/* Values with a cell each (a label, a row and interval…), sorted together in place: each
 * value kept once, read back in ascending order to take every cell's order statistics in one
 * pass (analysis/report_acc.c, the tools' layouts). A large set keeps a value in 4 bytes (its
 * low half; its high half is its bucket's, since values below 2^38 share it within a bucket)
 * and a cell in 2 while the cells fit 16 bits (they widen to 32 when one does not): 6 bytes a
 * pair. Its values below 0 or from 2^38 (4.6 minutes in ns) on are kept apart, 8 bytes each. */
#ifndef PR_CELLSORT_H
#define PR_CELLSORT_H
#include <stddef.h>
#include <stdint.h>
#include "analysis/rsort.h"
#include "analysis/vec.h"

#define PR_CELLSORT_BLOCK 128                      /* pairs per block of a bucketed set */
#define PR_CELLSORT_BUCKETS (PR_RSORT_BUCKETS + 1) /* 1 + pr_rsort_bucket (0: unused) */

/* A bucketed set's state (internal to cellsort.c but for pr_cellsort_add's inline common case):
 * the arrays are blocks of PR_CELLSORT_BLOCK pairs, each holding pairs of one bucket. Two
 * fillers on two threads (pr_cellsort_part_open) share the arrays: the set takes blocks from
 * the bottom, its part from the top, counted together in one atomic `taken`. */
typedef struct pr_cellsort_bk {
    uint32_t cur[PR_CELLSORT_BUCKETS];  /* the bucket's open block + 1 (0: none) */
    uint16_t fill[PR_CELLSORT_BUCKETS]; /* pairs in it */
    uint16_t *blk_bucket; /* per block, in the order taken: its bucket (EMPTY: a gap) */
    size_t nblocks, capblocks;
    _Atomic size_t *taken; /* two fillers: blocks taken by both (NULL: one filler) */
    _Atomic size_t taken_both;
    int top;              /* the part: its k-th block is capblocks - 1 - k */
    int lost;             /* two fillers: a pair found no room (they neither grow nor widen) */
    unsigned char *pairs; /* after a join: pairs per block (NULL: full but the open ones) */
} pr_cellsort_bk;

/* Values a large set keeps in 4 bytes: [0, PR_CELLSORT_NARROW). */
#define PR_CELLSORT_NARROW ((uint64_t)1 << 38)
#define PR_CELLSORT_HIGHS 64 /* their high halves: 0 .. 63 */

typedef struct pr_cellsort {
    int64_t *v;               /* the values of a flat set (small, or pr_cellsort_flatten) */
    uint32_t *lo;             /* a large set's values in [0, PR_CELLSORT_NARROW): the low halves */
    uint16_t *c16;            /* the cells of v or lo */
    uint32_t *c32;            /* cells wider than 16 bits */
    size_t n, cap;            /* n: every pair, those of `wide` too */
    pr_cellsort_bk *bk;       /* large sets: the pairs come in by value buckets (cellsort.c) */
    struct pr_cellsort *wide; /* a large set's other pairs (a flat set; NULL: none yet) */
    size_t *high; /* sorted large set: high[h], the first of lo whose high half is >= h */
    size_t nneg;  /* sorted large set: wide's negative values (they come first) */
} pr_cellsort;

/* Room for cap pairs (grows if more come). From PR_CELLSORT_BUCKETED pairs on, each pair goes
 * at once into a block of its value's bucket (pr_rsort_bucket), so the sort moves whole blocks
 * and then sorts buckets that fit in cache, rather than moving every pair at random. */
#define PR_CELLSORT_BUCKETED (1u << 20)
void pr_cellsort_init(pr_cellsort *cs, size_t cap);
/* pr_cellsort_init with room for `fillers` (1 or 2) to add pairs at once (a partial block per
 * bucket each). */
void pr_cellsort_init_fillers(pr_cellsort *cs, size_t cap, int fillers);
/* pr_cellsort_add's other cases: a new block, 32-bit cells, an unbucketed set. */
void pr_cellsort_add_slow(pr_cellsort *cs, int64_t v, uint32_t cell);
/* Adds a pair. Inline for the common case of the report's scan, one call per sample: a bucketed
 * set with 16-bit cells whose bucket's open block has room. */
static inline void pr_cellsort_add(pr_cellsort *cs, int64_t v, uint32_t cell)
{
    pr_cellsort_bk *bk = cs->bk;
    if (bk && cs->c16 && cell <= UINT16_MAX && (uint64_t)v < PR_CELLSORT_NARROW) {
        size_t b = 1 + pr_rsort_bucket((uint64_t)v);
        if (bk->cur[b] && bk->fill[b] < PR_CELLSORT_BLOCK) {
            size_t at = (size_t)(bk->cur[b] - 1) * PR_CELLSORT_BLOCK + bk->fill[b]++;
            cs->lo[at] = (uint32_t)v;
            cs->c16[at] = (uint16_t)cell;
            cs->n++;
            return;
        }
    }
    pr_cellsort_add_slow(cs, v, cell);
}

/* Two threads filling one set: *part becomes a second set over cs's arrays (the first takes
 * their blocks from the bottom, the part from the top), each added to by one thread. Neither
 * grows nor widens its cells: a pair that finds no room, or whose cell needs 32 bits, is lost
 * and pr_cellsort_part_lost says so (the caller then fills cs again on one thread). 0, or -1
 * when cs is not bucketed (below PR_CELLSORT_BUCKETED), has 32-bit cells or was joined. */
int pr_cellsort_part_open(pr_cellsort *cs, pr_cellsort *part);
int pr_cellsort_part_lost(const pr_cellsort *cs, const pr_cellsort *part);
/* Ends the filling on one thread: the part's pairs join cs's, each cell c of the part becoming
 * map[c >> shift] << shift | (c & (2^shift - 1)) (cells widen to 32 bits if one needs it);
 * map NULL drops the part's pairs. The part is emptied; cs can be sorted (not added to). */
void pr_cellsort_part_join(pr_cellsort *cs, pr_cellsort *part, const uint32_t *map, unsigned shift);
/* Sorts by value (cells follow), on pr_threads() threads. */
void pr_cellsort_sort(pr_cellsort *cs);
/* A sorted set read in order: up to max pairs from the from-th on into v and cell; how many
 * (0 past the end). Readers take chunks of PR_CELLSORT_CHUNK on the stack. */
#define PR_CELLSORT_CHUNK 512
size_t pr_cellsort_read(const pr_cellsort *cs, size_t from, int64_t *v, uint32_t *cell, size_t max);
/* The same pair by pair: pr_cellsort_it it; pr_cellsort_it_init(&it, cs);
 * while (pr_cellsort_next(&it, &v, &cell)) … */
typedef struct pr_cellsort_it {
    const pr_cellsort *cs;
    size_t at, j, k;
    int64_t v[PR_CELLSORT_CHUNK];
    uint32_t c[PR_CELLSORT_CHUNK];
} pr_cellsort_it;
static inline void pr_cellsort_it_init(pr_cellsort_it *it, const pr_cellsort *cs)
{
    it->cs = cs;
    it->at = it->j = it->k = 0;
}
static inline int pr_cellsort_next(pr_cellsort_it *it, int64_t *v, uint32_t *cell)
{
    if (it->j == it->k) {
        it->at += it->k;
        it->j = 0;
        it->k = pr_cellsort_read(it->cs, it->at, it->v, it->c, PR_CELLSORT_CHUNK);
        if (!it->k)
            return 0;
    }
    *v = it->v[it->j];
    *cell = it->c[it->j++];
    return 1;
}
/* A sorted set made flat: its values in one array v of 8 bytes each (expanded in place), the
 * cells in the same order (for readers that index the values: analysis/compare.c). */
void pr_cellsort_flatten(pr_cellsort *cs);
/* The i-th cell of a flat set. */
static inline uint32_t pr_cellsort_cell(const pr_cellsort *cs, size_t i)
{
    return cs->c32 ? cs->c32[i] : cs->c16[i];
}
/* The order statistics of one class of the sorted values (a label, the successes…) taken
 * as they go by: nearest-rank percentiles (pr_percentile_rank) and the squared deviations
 * summed in ascending order, so the figures are those of pr_dist_compute over a sorted copy.
 * n and sum (exact, integers) are counted before the pass. */
#define PR_QDIST_MAX 8
typedef struct pr_qdist {
    uint64_t n, seen;
    long double mean, ss;
    int64_t sum, min, max;
    size_t nr, next;
    uint64_t rank[PR_QDIST_MAX];
    int slot[PR_QDIST_MAX];
    int64_t q[PR_QDIST_MAX]; /* q[i]: the value at percentile pcts[i] */
} pr_qdist;

void pr_qdist_init(pr_qdist *q, uint64_t n, long double sum, const double *pcts, size_t np);
/* Wants the value at a 1-based rank of another rule in q->q[slot]. */
void pr_qdist_rank(pr_qdist *q, uint64_t rank, int slot);
static inline void pr_qdist_step(pr_qdist *q, int64_t v)
{
    uint64_t s = ++q->seen;
    if (s == 1)
        q->min = v;
    q->max = v;
    while (q->next < q->nr && q->rank[q->next] == s)
        q->q[q->slot[q->next++]] = v;
    long double d = v - q->mean;
    q->ss += d * d;
}
/* count, min, max, mean, stdev and sum as pr_dist_compute gives them. */
void pr_qdist_dist(const pr_qdist *q, pr_dist *out);

/* Bytes held (for the memory figures). */
size_t pr_cellsort_bytes(const pr_cellsort *cs);
void pr_cellsort_dispose(pr_cellsort *cs);

#endif
