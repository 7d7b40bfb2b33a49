/* Values with a cell each (a label, a row and interval…), sorted together in place: each
 * value kept once, 10 bytes a pair while the cells fit 16 bits (they widen to 32 when one
 * does not), read back in ascending order to take every cell's order statistics in one pass
 * (analysis/report_acc.c, the tools' layouts). */
#ifndef PR_CELLSORT_H
#define PR_CELLSORT_H
#include <stddef.h>
#include <stdint.h>

typedef struct pr_cellsort {
    int64_t *v;
    uint16_t *c16;
    uint32_t *c32;  /* cells wider than 16 bits */
    size_t n, cap;
} pr_cellsort;

/* Room for cap pairs (grows if more come). */
void pr_cellsort_init(pr_cellsort *cs, size_t cap);
void pr_cellsort_add(pr_cellsort *cs, int64_t v, uint32_t cell);
/* Sorts by value (cells follow), on pr_rsort_threads() threads. */
void pr_cellsort_sort(pr_cellsort *cs);
static inline uint32_t pr_cellsort_cell(const pr_cellsort *cs, size_t i)
{
    return cs->c32 ? cs->c32[i] : cs->c16[i];
}
/* Bytes held (for the memory figures). */
size_t pr_cellsort_bytes(const pr_cellsort *cs);
void pr_cellsort_dispose(pr_cellsort *cs);

#endif
