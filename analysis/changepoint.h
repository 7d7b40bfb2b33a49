/* Change points in a series (e.g. one metric over builds): E-divisive with the energy
 * statistic, binary segmentation and a permutation test, as Hunter / Apache Otava do
 * (method: docs/metrics.md). Deterministic: the permutations come from a seeded generator. */
#ifndef PR_CHANGEPOINT_H
#define PR_CHANGEPOINT_H
#include <stddef.h>
#include <stdint.h>

typedef struct pr_changepoint {
    size_t index;       /* first index of the new segment */
    double stat;        /* energy statistic Q of the split */
    double p_value;     /* permutation p-value */
    double mean_before; /* means of the segments on either side (within the enclosing segment) */
    double mean_after;
} pr_changepoint;

typedef struct pr_cp_opts {
    double alpha;     /* significance level (default 0.01) */
    int permutations; /* default 999 */
    size_t min_size;  /* minimum segment length (default 3, at least 2) */
    uint64_t seed;    /* default 1 */
} pr_cp_opts;

void pr_cp_opts_init(pr_cp_opts *o);

/* The energy statistic's best split of x[0..n): *tau in [min_size, n−min_size], *q its value.
 * Returns -1 when n < 2 × min_size. */
int pr_cp_best_split(const double *x, size_t n, size_t min_size, size_t *tau, double *q);

/* The smallest p-value the permutation test can return for the split of n values at tau,
 * whatever the values: at least the orderings that keep the same values on each side (or
 * swap the sides) give the same statistic, a share 2/C(n, tau) of them, and the estimate is
 * never below 1/(permutations + 1). 1 when no split of n values is allowed (n < 2 × min_size). */
double pr_cp_min_p(size_t n, size_t tau, const pr_cp_opts *o);
/* The fewest values whose balanced split can reach p < alpha (the method's power floor). */
size_t pr_cp_min_runs(const pr_cp_opts *o);

/* Finds the significant change points of x[0..n) (NaN values are not allowed). *out is a
 * malloc'd array sorted by index (NULL when none); returns the count. */
size_t pr_changepoints(const double *x, size_t n, const pr_cp_opts *o, pr_changepoint **out);

#endif
