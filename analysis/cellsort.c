/* Sorted (value, cell) pairs: two arrays, 16-bit cells widened on demand, sorted in place. */
#include "analysis/cellsort.h"
#include "analysis/rsort.h"
#include "analysis/vec.h"
#include <math.h>
#include "model/xalloc.h"
#include <stdlib.h>
#include <string.h>

void pr_cellsort_init(pr_cellsort *cs, size_t cap)
{
    memset(cs, 0, sizeof *cs);
    cs->cap = cap ? cap : 1;
    cs->v = pr_xmalloc(cs->cap * sizeof *cs->v);
    cs->c16 = pr_xmalloc(cs->cap * sizeof *cs->c16);
}

/* 16-bit cells to 32 (once, when a cell does not fit). */
static void widen(pr_cellsort *cs)
{
    cs->c32 = pr_xmalloc(cs->cap * sizeof *cs->c32);
    for (size_t i = 0; i < cs->n; i++)
        cs->c32[i] = cs->c16[i];
    free(cs->c16);
    cs->c16 = NULL;
}

void pr_cellsort_add(pr_cellsort *cs, int64_t v, uint32_t cell)
{
    if (cs->n == cs->cap) { /* sized by the caller's count: grows only if that was short */
        size_t cap = cs->cap;
        cs->v = pr_xgrow(cs->v, &cap, cs->n + 1, sizeof *cs->v);
        if (cs->c32)
            cs->c32 = pr_xrealloc(cs->c32, cap * sizeof *cs->c32);
        else
            cs->c16 = pr_xrealloc(cs->c16, cap * sizeof *cs->c16);
        cs->cap = cap;
    }
    if (!cs->c32 && cell > UINT16_MAX)
        widen(cs);
    cs->v[cs->n] = v;
    if (cs->c32)
        cs->c32[cs->n] = cell;
    else
        cs->c16[cs->n] = (uint16_t)cell;
    cs->n++;
}

void pr_cellsort_sort(pr_cellsort *cs)
{
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
