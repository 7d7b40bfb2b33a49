/* Exact or bounded (log-linear histogram) value sets for the statistics. */
#include "analysis/vals.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SUB (1 << PR_HIST_SUB_BITS)

void pr_vals_init(pr_vals *s, int bounded)
{
    memset(s, 0, sizeof *s);
    s->bounded = bounded;
    s->lo_oct = s->hi_oct = -1;
    s->min = INT64_MAX;
    s->max = INT64_MIN;
}

/* Octave and sub-bucket of a non-negative value: octave 0 holds 0..SUB-1 exactly, octave k
 * (k >= 1) holds [SUB << (k-1), SUB << k) in SUB buckets of width 2^(k-1). */
static void locate(int64_t x, int *oct, int *sub)
{
    uint64_t u = (uint64_t)x;
    if (u < SUB) {
        *oct = 0;
        *sub = (int)u;
        return;
    }
    int msb = 63 - __builtin_clzll(u);   /* >= PR_HIST_SUB_BITS */
    int k = msb - PR_HIST_SUB_BITS + 1;  /* >= 1 */
    *oct = k;
    *sub = (int)((u >> (k - 1)) - SUB);  /* 0..SUB-1 */
}

static int64_t bucket_lo(int oct, int sub)
{
    return oct == 0 ? sub : (int64_t)(((uint64_t)SUB + (uint64_t)sub) << (oct - 1));
}

static int64_t bucket_width(int oct)
{
    return oct == 0 ? 1 : (int64_t)1 << (oct - 1);
}

static void grow(pr_vals *s, int oct)
{
    if (s->lo_oct < 0) {
        s->b = pr_xcalloc(SUB, sizeof *s->b);
        s->lo_oct = s->hi_oct = oct;
        return;
    }
    int lo = oct < s->lo_oct ? oct : s->lo_oct, hi = oct > s->hi_oct ? oct : s->hi_oct;
    if (lo == s->lo_oct && hi == s->hi_oct)
        return;
    uint64_t *nb = pr_xcalloc((size_t)(hi - lo + 1) * SUB, sizeof *nb);
    memcpy(nb + (size_t)(s->lo_oct - lo) * SUB, s->b,
           (size_t)(s->hi_oct - s->lo_oct + 1) * SUB * sizeof *nb);
    free(s->b);
    s->b = nb;
    s->lo_oct = lo;
    s->hi_oct = hi;
}

void pr_vals_add(pr_vals *s, int64_t x)
{
    if (!s->bounded) {
        pr_vec_push(&s->v, x);
        s->sorted = 0;
        return;
    }
    s->n++;
    s->sum += x;
    s->sumsq += (long double)x * x;
    if (x < s->min)
        s->min = x;
    if (x > s->max)
        s->max = x;
    int oct, sub;
    if (x < 0) {
        s->negatives++;
        oct = 0;
        sub = 0;
    } else {
        locate(x, &oct, &sub);
    }
    if (oct < s->lo_oct || oct > s->hi_oct)
        grow(s, oct);
    s->b[(size_t)(oct - s->lo_oct) * SUB + (size_t)sub]++;
}

size_t pr_vals_count(const pr_vals *s)
{
    return s->bounded ? (size_t)s->n : s->v.n;
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
    if (p <= 0)
        return s->min;
    if (p >= 100)
        return s->max;
    long double r = (long double)p * (long double)s->n / 100.0L;
    uint64_t rank = (uint64_t)ceill(r - 1e-9L);
    if (rank < 1)
        rank = 1;
    uint64_t seen = 0;
    size_t nb = (size_t)(s->hi_oct - s->lo_oct + 1) * SUB;
    for (size_t i = 0; i < nb; i++) {
        seen += s->b[i];
        if (seen >= rank) {
            int oct = s->lo_oct + (int)(i / SUB), sub = (int)(i % SUB);
            int64_t v = bucket_lo(oct, sub) + bucket_width(oct) / 2;
            return v < s->min ? s->min : v > s->max ? s->max : v;
        }
    }
    return s->max;
}

void pr_vals_dist(pr_vals *s, pr_dist *out)
{
    if (!s->bounded) {
        pr_dist_compute(&s->v, out); /* sorts */
        s->sorted = 1;
        return;
    }
    memset(out, 0, sizeof *out);
    out->count = (int64_t)s->n;
    if (!s->n) {
        out->min = out->max = PR_UNKNOWN;
        out->mean = out->stdev = NAN;
        return;
    }
    out->min = s->min;
    out->max = s->max;
    out->sum = (int64_t)s->sum;
    long double mean = s->sum / s->n;
    long double var = s->sumsq / s->n - mean * mean;
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
    uint64_t c = 0;
    size_t nb = s->lo_oct < 0 ? 0 : (size_t)(s->hi_oct - s->lo_oct + 1) * SUB;
    for (size_t i = 0; i < nb; i++) {
        int oct = s->lo_oct + (int)(i / SUB), sub = (int)(i % SUB);
        if (bucket_lo(oct, sub) >= x)
            break;
        c += s->b[i];
    }
    return (size_t)c;
}

void pr_vals_make_bounded(pr_vals *s)
{
    if (s->bounded)
        return;
    pr_vals tmp;
    pr_vals_init(&tmp, 1);
    for (size_t i = 0; i < s->v.n; i++)
        pr_vals_add(&tmp, s->v.v[i]);
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
    if (!a->bounded || !b->bounded) { /* mixed: replay the exact side into the histogram */
        pr_vals_make_bounded(a);
        if (!b->bounded) {
            for (size_t i = 0; i < b->v.n; i++)
                pr_vals_add(a, b->v.v[i]);
            return;
        }
    }
    if (b->lo_oct < 0)
        return;
    grow(a, b->lo_oct);
    grow(a, b->hi_oct);
    for (int oct = b->lo_oct; oct <= b->hi_oct; oct++)
        for (int sub = 0; sub < SUB; sub++)
            a->b[(size_t)(oct - a->lo_oct) * SUB + (size_t)sub] +=
                b->b[(size_t)(oct - b->lo_oct) * SUB + (size_t)sub];
    a->n += b->n;
    a->sum += b->sum;
    a->sumsq += b->sumsq;
    a->negatives += b->negatives;
    if (b->min < a->min)
        a->min = b->min;
    if (b->max > a->max)
        a->max = b->max;
}

void pr_vals_dispose(pr_vals *s)
{
    pr_vec_dispose(&s->v);
    free(s->b);
    s->b = NULL;
    s->lo_oct = s->hi_oct = -1;
}

size_t pr_vals_bytes(const pr_vals *s)
{
    if (!s->bounded)
        return s->v.cap * sizeof *s->v.v;
    return s->lo_oct < 0 ? 0 : (size_t)(s->hi_oct - s->lo_oct + 1) * SUB * sizeof *s->b;
}
