/* Exact statistics: radix sort, nearest-rank percentiles, moments and rates. */
#include "analysis/stats.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void pr_vec_reserve(pr_vec *a, size_t need)
{
    a->v = pr_xgrow(a->v, &a->cap, need, sizeof *a->v);
}

void pr_vec_dispose(pr_vec *a)
{
    free(a->v);
    a->v = NULL;
    a->n = a->cap = 0;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

void pr_sort_i64(int64_t *v, size_t n)
{
    if (n < 2)
        return;
    if (n < 2048) {
        qsort(v, n, sizeof *v, cmp_i64);
        return;
    }
    /* LSD radix on the sign-flipped value, 16 bits per pass; passes where every value has
     * the same digit are skipped (latencies rarely need more than 3 passes). */
    uint64_t *a = (uint64_t *)(void *)v;
    uint64_t *tmp = pr_xmalloc(n * sizeof *tmp);
    size_t *count = pr_xmalloc(65536 * sizeof *count);
    uint64_t or_all = 0, and_all = ~0ull;
    for (size_t i = 0; i < n; i++) {
        a[i] ^= 1ull << 63;
        or_all |= a[i];
        and_all &= a[i];
    }
    uint64_t *src = a, *dst = tmp;
    for (unsigned shift = 0; shift < 64; shift += 16) {
        if ((((or_all ^ and_all) >> shift) & 0xffff) == 0)
            continue; /* this digit is the same in every value */
        memset(count, 0, 65536 * sizeof *count);
        for (size_t i = 0; i < n; i++)
            count[(src[i] >> shift) & 0xffff]++;
        size_t sum = 0;
        for (size_t d = 0; d < 65536; d++) {
            size_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            dst[count[(src[i] >> shift) & 0xffff]++] = src[i];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, n * sizeof *a);
    for (size_t i = 0; i < n; i++)
        a[i] ^= 1ull << 63;
    free(tmp);
    free(count);
}

size_t pr_percentile_rank(size_t n, double p)
{
    if (p <= 0)
        return 1;
    if (p >= 100)
        return n;
    /* rank = ceil(p/100 * n), computed so that e.g. 99.9% of 1000 is exactly 999 */
    long double r = (long double)p * (long double)n / 100.0L;
    size_t rank = (size_t)ceill(r - 1e-9L);
    if (rank < 1)
        rank = 1;
    if (rank > n)
        rank = n;
    return rank;
}

int64_t pr_percentile_sorted(const int64_t *sorted, size_t n, double p)
{
    return sorted[pr_percentile_rank(n, p) - 1];
}

void pr_dist_compute(pr_vec *v, pr_dist *out)
{
    memset(out, 0, sizeof *out);
    out->count = (int64_t)v->n;
    if (v->n == 0) {
        out->min = out->max = PR_UNKNOWN;
        out->mean = out->stdev = NAN;
        return;
    }
    pr_sort_i64(v->v, v->n);
    out->min = v->v[0];
    out->max = v->v[v->n - 1];
    long double sum = 0;
    for (size_t i = 0; i < v->n; i++)
        sum += v->v[i];
    out->sum = (int64_t)sum;
    long double mean = sum / v->n;
    long double ss = 0;
    for (size_t i = 0; i < v->n; i++) {
        long double d = v->v[i] - mean;
        ss += d * d;
    }
    out->mean = (double)mean;
    out->stdev = (double)sqrtl(ss / v->n);
}

void pr_series_init_mode(pr_series *s, int bounded)
{
    memset(s, 0, sizeof *s);
    s->first_start = s->last_start = s->max_end = PR_UNKNOWN;
    pr_vals_init(&s->latency, bounded);
    pr_vals_init(&s->connect, bounded);
    pr_vals_init(&s->ttfb, bounded);
    pr_vals_init(&s->receive, bounded);
    pr_vals_init(&s->lateness, bounded);
}

void pr_series_init(pr_series *s)
{
    pr_series_init_mode(s, 0);
}

void pr_series_add(pr_series *s, const pr_sample *x, int outcome)
{
    pr_series_count(s, x, outcome);
    if (x->latency_ns != PR_UNKNOWN)
        pr_vals_add(&s->latency, x->latency_ns);
    pr_series_add_others(s, x);
}

static int64_t min_known(int64_t a, int64_t b)
{
    return a == PR_UNKNOWN ? b : b == PR_UNKNOWN ? a : a < b ? a : b;
}

static int64_t max_known(int64_t a, int64_t b)
{
    return a == PR_UNKNOWN ? b : b == PR_UNKNOWN ? a : a > b ? a : b;
}

void pr_series_merge(pr_series *a, const pr_series *b)
{
    a->count += b->count;
    a->successes += b->successes;
    a->unknown += b->unknown;
    a->bytes_in += b->bytes_in;
    a->bytes_out += b->bytes_out;
    a->bytes_in_known += b->bytes_in_known;
    a->bytes_out_known += b->bytes_out_known;
    a->first_start = min_known(a->first_start, b->first_start);
    a->last_start = max_known(a->last_start, b->last_start);
    a->max_end = max_known(a->max_end, b->max_end);
    pr_vals_merge(&a->latency, &b->latency);
    pr_vals_merge(&a->connect, &b->connect);
    pr_vals_merge(&a->ttfb, &b->ttfb);
    pr_vals_merge(&a->receive, &b->receive);
    pr_vals_merge(&a->lateness, &b->lateness);
}

void pr_series_make_bounded(pr_series *s)
{
    pr_vals_make_bounded(&s->latency);
    pr_vals_make_bounded(&s->connect);
    pr_vals_make_bounded(&s->ttfb);
    pr_vals_make_bounded(&s->receive);
    pr_vals_make_bounded(&s->lateness);
}

void pr_series_dispose(pr_series *s)
{
    pr_vals_dispose(&s->latency);
    pr_vals_dispose(&s->connect);
    pr_vals_dispose(&s->ttfb);
    pr_vals_dispose(&s->receive);
    pr_vals_dispose(&s->lateness);
}

void pr_rates_compute(const pr_series *s, pr_rates *out)
{
    memset(out, 0, sizeof *out);
    if (s->first_start == PR_UNKNOWN) {
        out->duration_ns = out->wait_ns = PR_UNKNOWN;
        out->rate_per_s = out->throughput_per_s = out->jmeter_throughput_per_s = NAN;
        out->request_throughput_per_s = NAN;
        return;
    }
    out->duration_ns = s->last_start - s->first_start;
    out->wait_ns = s->max_end - s->last_start;
    if (out->duration_ns > 0) {
        out->rate_per_s = (double)s->count / ((double)out->duration_ns / 1e9);
        out->throughput_per_s =
            (double)s->successes / ((double)(out->duration_ns + out->wait_ns) / 1e9);
        out->request_throughput_per_s =
            (double)s->count / ((double)(out->duration_ns + out->wait_ns) / 1e9);
    } else {
        out->rate_per_s = (double)s->count;
        out->throughput_per_s = (double)s->successes;
        out->request_throughput_per_s = (double)s->count;
    }
    if (s->unknown == s->count) /* nothing says which requests succeeded */
        out->throughput_per_s = NAN;
    int64_t span = s->max_end - s->first_start;
    out->jmeter_throughput_per_s = span > 0 ? (double)s->count / ((double)span / 1e9) : NAN;
}
