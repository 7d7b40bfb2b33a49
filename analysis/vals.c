/* Exact or bounded (the log-linear histogram of model/hist.c) value sets for the statistics. */
#include "analysis/vals.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void pr_vals_init(pr_vals *s, int bounded)
{
    memset(s, 0, sizeof *s);
    s->bounded = bounded;
    pr_hist_init(&s->h);
}

void pr_vals_add_many(pr_vals *s, const int64_t *x, size_t n)
{
    if (s->bounded) {
        pr_hist_add_many(&s->h, x, n);
        return;
    }
    if (!n)
        return;
    pr_vec_reserve(&s->v, s->v.n + n);
    memcpy(s->v.v + s->v.n, x, n * sizeof *x);
    s->v.n += n;
    s->sorted = 0;
}

size_t pr_vals_count(const pr_vals *s)
{
    return s->bounded ? (size_t)s->h.n : s->v.n;
}

void pr_vals_finish(pr_vals *s)
{
    if (!s->bounded && !s->sorted) {
        pr_sort_i64(s->v.v, s->v.n);
        s->sorted = 1;
    }
}

int64_t pr_vals_percentile(const pr_vals *s, double p)
{
    if (!s->bounded)
        return pr_percentile_sorted(s->v.v, s->v.n, p);
    return pr_hist_percentile(&s->h, p);
}

void pr_vals_dist(pr_vals *s, pr_dist *out)
{
    if (!s->bounded) {
        pr_dist_compute(&s->v, out); /* sorts */
        s->sorted = 1;
        return;
    }
    const pr_hist *h = &s->h;
    memset(out, 0, sizeof *out);
    out->count = (int64_t)h->n;
    if (!h->n) {
        out->min = out->max = PR_UNKNOWN;
        out->mean = out->stdev = NAN;
        return;
    }
    out->min = h->min;
    out->max = h->max;
    out->sum = (int64_t)h->sum;
    long double mean = pr_hist_sum(h) / h->n;
    long double var = pr_hist_sumsq(h) / h->n - mean * mean;
    out->mean = (double)mean;
    out->stdev = (double)sqrtl(var > 0 ? var : 0);
}

size_t pr_vals_count_below(const pr_vals *s, int64_t x)
{
    if (!s->bounded) {
        size_t lo = 0, hi = s->v.n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (s->v.v[mid] < x)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo;
    }
    return (size_t)pr_hist_count_below(&s->h, x);
}

void pr_vals_make_bounded(pr_vals *s)
{
    if (s->bounded)
        return;
    pr_vals tmp;
    pr_vals_init(&tmp, 1);
    for (size_t i = 0; i < s->v.n; i++)
        pr_hist_add(&tmp.h, s->v.v[i]);
    pr_vals_dispose(s);
    *s = tmp;
}

void pr_vals_merge(pr_vals *a, const pr_vals *b)
{
    if (!a->bounded && !b->bounded) {
        if (b->v.n) {
            pr_vec_reserve(&a->v, a->v.n + b->v.n);
            memcpy(a->v.v + a->v.n, b->v.v, b->v.n * sizeof *b->v.v);
            a->v.n += b->v.n;
            a->sorted = 0;
        }
        return;
    }
    pr_vals_make_bounded(a); /* mixed: replay the exact side into the histogram */
    if (!b->bounded) {
        for (size_t i = 0; i < b->v.n; i++)
            pr_hist_add(&a->h, b->v.v[i]);
        return;
    }
    pr_hist_merge(&a->h, &b->h);
}

void pr_vals_dispose(pr_vals *s)
{
    pr_vec_dispose(&s->v);
    pr_hist_dispose(&s->h);
}

size_t pr_vals_bytes(const pr_vals *s)
{
    if (!s->bounded)
        return s->v.cap * sizeof *s->v.v;
    return pr_hist_bytes(&s->h);
}
