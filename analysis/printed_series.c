/* A summary-only run's printed time series as the report's "timeseries" (printed_series.h). */
#include "analysis/printed_series.h"
#include "analysis/vec.h"
#include "model/l10n.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int num(const json_t *o, const char *key, double *v)
{
    json_t *x = json_object_get(o, key);
    if (!json_is_number(x) || !isfinite(json_number_value(x)))
        return -1;
    *v = json_number_value(x);
    return 0;
}

static void put_int(json_t *o, const char *key, double v)
{
    if (isfinite(v) && fabs(v) < 9e18)
        json_object_set_new(o, key, json_integer((json_int_t)llround(v)));
}

static void put_real(json_t *o, const char *key, double v)
{
    if (isfinite(v))
        json_object_set_new(o, key, json_real(v));
}

/* The median of the n - 1 gaps between the increasing stamps t[0..n). */
static int64_t median_gap(const int64_t *t, size_t n)
{
    int64_t *gaps = pr_xcalloc(n - 1, sizeof *gaps);
    for (size_t i = 1; i < n; i++)
        gaps[i - 1] = t[i] - t[i - 1];
    pr_sort_i64(gaps, n - 1);
    int64_t g = gaps[(n - 1) / 2];
    free(gaps);
    return g;
}

/* The latency percentiles of a point's "latency_ns": p50 (or the median), p90, p99 and the
 * window's maximum (p100 where the tool has it: Locust's "max" is the whole run's so far). */
static void point_latency(json_t *p, const json_t *lat)
{
    double v;
    if (num(lat, "p50", &v) == 0 || num(lat, "median", &v) == 0)
        put_int(p, "p50_ns", v);
    if (num(lat, "p90", &v) == 0)
        put_int(p, "p90_ns", v);
    if (num(lat, "p99", &v) == 0)
        put_int(p, "p99_ns", v);
    if (num(lat, "p100", &v) == 0 || num(lat, "max", &v) == 0)
        put_int(p, "max_ns", v);
}

/* A point of the printed series starting t_rel after the first, secs long: its counts
 * (differences of a cumulative series' totals), rates, latencies, users and codes. prev is
 * the previous printed row of a cumulative series, else NULL. */
static json_t *point(const json_t *row, const json_t *prev, int64_t t_rel, double secs)
{
    json_t *p = json_object();
    double req = NAN, fail = NAN, ok = NAN, a, b, v;
    json_object_set_new(p, "t_ns", json_integer(t_rel));
    if (num(row, "requests_total", &a) == 0) { /* Locust: totals so far */
        req = num(prev, "requests_total", &b) == 0 ? a - b : NAN;
        if (num(row, "failures_total", &a) == 0 && num(prev, "failures_total", &b) == 0)
            fail = a - b;
        ok = req - fail;
        if (num(row, "current_rps", &v) == 0) /* its moving average, lagging the counts */
            put_real(p, "tool_rate_per_s", v);
    } else {
        if (num(row, "requests", &req) < 0)
            req = NAN;
        if (num(row, "failures", &fail) < 0 || num(row, "successes", &ok) < 0)
            fail = ok = NAN;
        if (num(row, "rate_per_s", &v) == 0) /* over the period's active time */
            put_real(p, "tool_rate_per_s", v);
    }
    put_real(p, "rate_per_s", req / secs);
    put_real(p, "throughput_per_s", ok / secs);
    put_int(p, "requests", req);
    if (isfinite(ok) && isfinite(fail) && ok >= 0 && fail >= 0) {
        put_int(p, "successes", ok);
        put_int(p, "errors", fail);
    } else {
        json_object_set_new(p, "successes", json_null());
        json_object_set_new(p, "errors", json_null());
    }
    point_latency(p, json_object_get(row, "latency_ns"));
    if (prev && num(row, "users", &v) == 0) /* Locust's active users (Artillery's "users"
                                               * are the period's arrivals, not concurrency) */
        put_int(p, "threads", v);
    if (num(row, "bytes_in_total", &v) == 0)
        put_int(p, "bytes_in", v);
    json_t *codes = json_object_get(row, "status_codes");
    json_object_set_new(p, "status_codes",
                        json_is_object(codes) ? json_deep_copy(codes) : json_object());
    return p;
}

json_t *pr_printed_series(const json_t *summary, const char *tool)
{
    json_t *rows = json_object_get(summary, "series");
    size_t n = json_array_size(rows);
    if (n < PR_PRINTED_SERIES_MIN)
        return NULL;
    /* a cumulative series' row closes the window since the previous row: its interval starts
     * there, and the first row is only the base */
    int cumulative = json_object_get(json_array_get(rows, 0), "requests_total") != NULL;
    int64_t *t = pr_xcalloc(n, sizeof *t);
    for (size_t i = 0; i < n; i++) {
        double v;
        if (num(json_array_get(rows, i), "t_ns", &v) < 0 || fabs(v) > 9e18 ||
            (i && (int64_t)v <= t[i - 1])) {
            free(t);
            return NULL; /* unstamped or out of order: not a series */
        }
        t[i] = (int64_t)v;
    }
    int64_t gap = median_gap(t, n), t0 = t[0];
    json_t *ts = json_object(), *pts = json_array();
    json_object_set_new(ts, "interval_ns", json_integer(gap));
    json_object_set_new(ts, "start_ns", json_integer(t0));
    json_object_set_new(ts, "requests_by", json_string("tool"));
    json_object_set_new(ts, "source", json_string(tool ? tool : _("the tool")));
    for (size_t i = cumulative ? 1 : 0; i < n; i++) {
        int64_t start = cumulative ? t[i - 1] : t[i];
        int64_t len = cumulative ? t[i] - t[i - 1] : (i + 1 < n ? t[i + 1] - t[i] : gap);
        json_array_append_new(pts, point(json_array_get(rows, i),
                                         cumulative ? json_array_get(rows, i - 1) : NULL,
                                         start - t0, (double)len / 1e9));
    }
    free(t);
    json_object_set_new(ts, "points", pts);
    return ts;
}
