/* E-divisive change-point detection: energy statistic, binary segmentation, permutation test. */
#include "analysis/changepoint.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void pr_cp_opts_init(pr_cp_opts *o)
{
    o->alpha = 0.01;
    o->permutations = 999;
    o->min_size = 3;
    o->seed = 1;
}

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int pr_cp_best_split(const double *x, size_t n, size_t min_size, size_t *tau, double *q)
{
    if (min_size < 2)
        min_size = 2;
    if (n < 2 * min_size)
        return -1;
    /* sums at the first split t = min_size, then moved one element at a time */
    size_t t = min_size;
    double wl = 0, wr = 0, b = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            double d = fabs(x[i] - x[j]);
            if (j < t)
                wl += d;
            else if (i >= t)
                wr += d;
            else
                b += d;
        }
    double best = -INFINITY;
    size_t best_t = t;
    for (;;) {
        double m = (double)t, k = (double)(n - t);
        double e = 2 * b / (m * k) - wl / (m * (m - 1) / 2) - wr / (k * (k - 1) / 2);
        double stat = m * k / (m + k) * e;
        if (stat > best) {
            best = stat;
            best_t = t;
        }
        if (t + 1 > n - min_size)
            break;
        double z = x[t], dl = 0, dr = 0;
        for (size_t i = 0; i < t; i++)
            dl += fabs(x[i] - z);
        for (size_t j = t + 1; j < n; j++)
            dr += fabs(z - x[j]);
        wl += dl;
        wr -= dr;
        b += dr - dl;
        t++;
    }
    *tau = best_t;
    *q = best;
    return 0;
}

double pr_cp_min_p(size_t n, size_t tau, const pr_cp_opts *o)
{
    size_t ms = o->min_size < 2 ? 2 : o->min_size;
    if (n < 2 * ms || tau < ms || tau > n - ms)
        return 1;
    double lc = lgamma((double)n + 1) - lgamma((double)tau + 1) - lgamma((double)(n - tau) + 1);
    double share = 2 * exp(-lc), floor_mc = 1.0 / (o->permutations + 1);
    double p = share > floor_mc ? share : floor_mc;
    return p > 1 ? 1 : p;
}

size_t pr_cp_min_runs(const pr_cp_opts *o)
{
    size_t ms = o->min_size < 2 ? 2 : o->min_size;
    for (size_t n = 2 * ms; n < 100000; n++)
        if (pr_cp_min_p(n, n / 2, o) < o->alpha)
            return n;
    return 0;
}

typedef struct seg {
    size_t s, e;
} seg;

static double mean_of(const double *x, size_t s, size_t e)
{
    double m = 0;
    for (size_t i = s; i < e; i++)
        m += x[i];
    return e > s ? m / (double)(e - s) : NAN;
}

static int cmp_cp(const void *a, const void *b)
{
    const pr_changepoint *x = a, *y = b;
    return (x->index > y->index) - (x->index < y->index);
}

size_t pr_changepoints(const double *x, size_t n, const pr_cp_opts *o, pr_changepoint **out)
{
    pr_cp_opts def;
    if (!o) {
        pr_cp_opts_init(&def);
        o = &def;
    }
    *out = NULL;
    size_t ms = o->min_size < 2 ? 2 : o->min_size;
    size_t nout = 0, cap = 0, nseg = 0, segcap = 0;
    seg *stack = NULL;
    stack = pr_xgrow(stack, &segcap, 1, sizeof *stack);
    stack[nseg++] = (seg){0, n};
    double *perm = pr_xmalloc((n + 1) * sizeof *perm);
    uint64_t rng = o->seed;
    while (nseg) {
        seg sg = stack[--nseg];
        size_t len = sg.e - sg.s, tau;
        double q;
        if (pr_cp_best_split(x + sg.s, len, ms, &tau, &q) < 0 || !(q > 0))
            continue;
        size_t ge = 0;
        memcpy(perm, x + sg.s, len * sizeof *perm);
        for (int p = 0; p < o->permutations; p++) {
            for (size_t i = len - 1; i > 0; i--) {
                size_t j = (size_t)(next(&rng) % (i + 1));
                double t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
            }
            size_t pt;
            double pq;
            if (pr_cp_best_split(perm, len, ms, &pt, &pq) == 0 && pq >= q)
                ge++;
        }
        double pv = (double)(ge + 1) / (double)(o->permutations + 1);
        if (pv >= o->alpha)
            continue;
        size_t at = sg.s + tau;
        out[0] = pr_xgrow(out[0], &cap, nout + 1, sizeof **out);
        (*out)[nout++] = (pr_changepoint){at, q, pv, mean_of(x, sg.s, at), mean_of(x, at, sg.e)};
        stack = pr_xgrow(stack, &segcap, nseg + 2, sizeof *stack);
        stack[nseg++] = (seg){at, sg.e};
        stack[nseg++] = (seg){sg.s, at};
    }
    free(stack);
    free(perm);
    if (nout)
        qsort(*out, nout, sizeof **out, cmp_cp);
    /* means between neighbouring change points, for the reported step sizes */
    for (size_t i = 0; i < nout; i++) {
        size_t lo = i ? (*out)[i - 1].index : 0, hi = i + 1 < nout ? (*out)[i + 1].index : n;
        (*out)[i].mean_before = mean_of(x, lo, (*out)[i].index);
        (*out)[i].mean_after = mean_of(x, (*out)[i].index, hi);
    }
    return nout;
}
