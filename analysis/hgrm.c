/* Writes HdrHistogram-compatible percentile distributions from exact data. */
#include "analysis/hgrm.h"
#include "analysis/stats.h"
#include <math.h>

/* Number of values <= x in sorted v (upper bound). */
static size_t count_le(const int64_t *v, size_t n, int64_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void pr_hgrm_write(const int64_t *v, size_t n, pr_buf *out)
{
    pr_buf_puts(out, "       Value     Percentile TotalCount 1/(1-Percentile)\n\n");
    if (n == 0) {
        pr_buf_puts(out, "#[Mean    =          nan, StdDeviation   =          nan]\n"
                         "#[Max     =        0.000, Total count    =            0]\n");
        return;
    }
    const int ticks_per_half = 5;
    double p = 0;
    int64_t last_value = INT64_MIN;
    for (;;) {
        int64_t value = pr_percentile_sorted(v, n, p);
        size_t count = count_le(v, n, value);
        double level = (double)count / (double)n; /* the percentile this value reaches */
        if (value != last_value || p == 0) {
            if (count == n) {
                pr_buf_printf(out, "%12.3f %2.12f %10zu\n", (double)value / 1e6, 1.0, count);
                break;
            }
            pr_buf_printf(out, "%12.3f %2.12f %10zu %14.2f\n", (double)value / 1e6, level, count,
                          1.0 / (1.0 - level));
            last_value = value;
        }
        /* HdrHistogram's percentile iterator: 5 ticks per halving of the distance to 100% */
        double ticks = ticks_per_half * pow(2.0, floor(log2(100.0 / (100.0 - level * 100.0))) + 1);
        double next = p + 100.0 / ticks;
        if (next <= level * 100.0)
            next = level * 100.0 + 1e-9; /* skip levels the same value already covers */
        p = next >= 100.0 ? 100.0 : next;
    }
    long double sum = 0, ss = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    long double mean = sum / n;
    for (size_t i = 0; i < n; i++)
        ss += (v[i] - mean) * (v[i] - mean);
    pr_buf_printf(out, "#[Mean    = %12.3f, StdDeviation   = %12.3f]\n", (double)(mean / 1e6L),
                  (double)(sqrtl(ss / n) / 1e6L));
    pr_buf_printf(out, "#[Max     = %12.3f, Total count    = %12zu]\n", (double)v[n - 1] / 1e6, n);
    pr_buf_printf(out, "#[Buckets = %12d, SubBuckets     = %12d]\n", 0, 0);
}
