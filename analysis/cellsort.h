/* Values with a cell each (a label, a row and interval…), sorted together in place: each
 * value kept once, 10 bytes a pair while the cells fit 16 bits (they widen to 32 when one
 * does not), read back in ascending order to take every cell's order statistics in one pass
 * (analysis/report_acc.c, the tools' layouts). */
#ifndef PR_CELLSORT_H
#define PR_CELLSORT_H
#include <stddef.h>
#include <stdint.h>
#include "analysis/rsort.h"
#include "analysis/vec.h"

#define PR_CELLSORT_BLOCK 128                      /* pairs per block of a bucketed set */
#define PR_CELLSORT_BUCKETS (PR_RSORT_BUCKETS + 1) /* 0: negative values; 1 + pr_rsort_bucket */

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

typedef struct pr_cellsort {
    int64_t *v;
    uint16_t *c16;
    uint32_t *c32; /* cells wider than 16 bits */
    size_t n, cap;
    pr_cellsort_bk *bk; /* large sets: the pairs come in by value buckets (cellsort.c) */
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
    if (bk && cs->c16 && cell <= UINT16_MAX) {
        size_t b = v < 0 ? 0 : 1 + pr_rsort_bucket((uint64_t)v);
        if (bk->cur[b] && bk->fill[b] < PR_CELLSORT_BLOCK) {
            size_t at = (size_t)(bk->cur[b] - 1) * PR_CELLSORT_BLOCK + bk->fill[b]++;
            cs->v[at] = v;
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
