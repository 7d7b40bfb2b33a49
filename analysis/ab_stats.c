/* ApacheBench's Connection Times and percentage tables recomputed with ab's own rules. */
#include "analysis/ab_stats.h"
#include "analysis/rsort.h"
#include "analysis/vec.h"
#include "model/threads.h"
#include "model/xalloc.h"
#include "model/sample.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

const int pr_ab_percs[PR_AB_NPERCS] = {50, 66, 75, 80, 90, 95, 98, 99, 100};

/* ap_round_ms: µs → ms, half up (ab's macro; values are never negative there). */
static int64_t round_ms(int64_t us)
{
    return (us + 500) / 1000;
}

void pr_ab_stats_column(int64_t *v, size_t n, pr_ab_row *row)
{
    int64_t mn = INT64_MAX, mx = INT64_MIN;
    long double sum = 0; /* exact for realistic sums; avoids int64 overflow on hostile data */
    for (size_t i = 0; i < n; i++) {
        if (v[i] < mn)
            mn = v[i];
        if (v[i] > mx)
            mx = v[i];
        sum += v[i];
    }
    int64_t mean_us = (int64_t)(sum / (long double)n); /* C truncation, as ab's integer / */
    double sd = 0;
    for (size_t i = 0; i < n; i++) {
        double a = (double)v[i] - (double)mean_us;
        sd += a * a;
    }
    sd = n > 1 ? sqrt(sd / (double)(n - 1)) : 0;
    if (mn < mx) /* all equal (a column the file does not have): already in order */
        pr_rsort_i64_par(v, n, pr_threads());
    int64_t median_us;
    if (n > 1 && n % 2)
        median_us = (v[n / 2] + v[n / 2 + 1]) / 2;
    else
        median_us = v[n / 2];
    row->min_ms = round_ms(mn);
    row->max_ms = round_ms(mx);
    row->mean_ms = round_ms(mean_us);
    row->median_ms = round_ms(median_us);
    row->sd_ms = sd / 1000.0;
}

int pr_ab_stats_compute(int64_t *connect_us, int64_t *processing_us, int64_t *waiting_us,
                        int64_t *total_us, size_t n, pr_ab_tables *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0)
        return PR_EUSAGE;
    out->n = n;
    pr_ab_stats_column(connect_us, n, &out->connect);
    pr_ab_stats_column(processing_us, n, &out->processing);
    pr_ab_stats_column(waiting_us, n, &out->waiting);
    pr_ab_stats_column(total_us, n, &out->total);
    pr_ab_stats_percentages(total_us, n, out);
    return 0;
}

void pr_ab_stats_percentages(const int64_t *total_sorted, size_t n, pr_ab_tables *out)
{
    out->has_percentiles = n > 1;
    for (int i = 0; i < PR_AB_NPERCS && n; i++) {
        int p = pr_ab_percs[i];
        size_t idx = p >= 100 ? n - 1 : (size_t)((unsigned long long)n * (unsigned)p / 100);
        out->pct_ms[i] = round_ms(total_sorted[idx]);
    }
}

size_t pr_ab_csv_index(size_t n, int i)
{
    if (n == 0)
        return 0;
    if (i <= 0)
        return 0;
    if (i >= 100)
        return n - 1;
    return (size_t)(0.5 + (double)n * i / 100.0);
}

/* ns → µs for ab's arithmetic; unknown counts as 0, negatives clamp to 0 (ab's ap_max). */
static int64_t us_of(int64_t ns)
{
    if (ns == PR_UNKNOWN || ns <= 0)
        return 0;
    return (ns + 500) / 1000;
}

int64_t pr_ab_value(const pr_run *run, const pr_sample *s, int col)
{
    int64_t t = us_of(s->latency_ns), c = us_of(s->connect_ns);
    switch (col) {
    case PR_AB_CONNECT: return c;
    case PR_AB_WAITING: return us_of(s->ttfb_ns);
    case PR_AB_TOTAL: return t;
    default: break;
    }
    int64_t p = t - c > 0 ? t - c : 0;
    if (s->attrs != PR_NOSTR && run) { /* ab's own dtime where ab -g wrote it */
        const char *a = pr_run_str(run, s->attrs);
        size_t plen = strlen(PR_AB_DTIME_ATTR);
        if (strncmp(a, PR_AB_DTIME_ATTR, plen) == 0) {
            char *end;
            long long ms = strtoll(a + plen, &end, 10);
            if (*end == 0 && ms >= 0 && ms < 9000000000000LL)
                p = ms * 1000;
        }
    }
    return p;
}

int pr_ab_stats_from_samples(const pr_run *run, const pr_sample *s, size_t n, pr_ab_tables *out,
                             pr_error *err)
{
    if (n == 0) {
        memset(out, 0, sizeof *out);
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0, "no samples: ab prints no tables");
    }
    int64_t *col = pr_xmalloc(4 * n * sizeof *col);
    int64_t *c = col, *p = col + n, *w = col + 2 * n, *t = col + 3 * n;
    for (size_t i = 0; i < n; i++) {
        c[i] = pr_ab_value(run, &s[i], PR_AB_CONNECT);
        p[i] = pr_ab_value(run, &s[i], PR_AB_PROCESSING);
        w[i] = pr_ab_value(run, &s[i], PR_AB_WAITING);
        t[i] = pr_ab_value(run, &s[i], PR_AB_TOTAL);
    }
    int rc = pr_ab_stats_compute(c, p, w, t, n, out);
    free(col);
    return rc;
}

/* One cell: `sep`, then the value in ab's width, or "-" there when unknown. */
static void cell(pr_buf *b, const char *sep, int width, int64_t v)
{
    if (v == PR_UNKNOWN)
        pr_buf_printf(b, "%s%*s", sep, width, "-");
    else
        pr_buf_printf(b, "%s%*lld", sep, width, (long long)v);
}

static void row(pr_buf *b, const char *label, const pr_ab_row *r)
{
    pr_buf_puts(b, label); /* ab: "%5lld %4lld %5.1f %6lld %7lld" */
    cell(b, "", 5, r->min_ms);
    cell(b, " ", 4, r->mean_ms);
    if (isnan(r->sd_ms))
        pr_buf_printf(b, " %5s", "-");
    else
        pr_buf_printf(b, " %5.1f", r->sd_ms);
    cell(b, " ", 6, r->median_ms);
    cell(b, " ", 7, r->max_ms);
    pr_buf_putc(b, '\n');
}

/* ab's SANE() check of one row. */
static void sane(pr_buf *b, const char *what, const pr_ab_row *r)
{
    if (r->mean_ms == PR_UNKNOWN || r->median_ms == PR_UNKNOWN || isnan(r->sd_ms))
        return;
    double d = (double)r->mean_ms - (double)r->median_ms;
    if (d < 0)
        d = -d;
    if (d > 2 * r->sd_ms)
        pr_buf_printf(b,
                      "ERROR: The median and mean for %s are more than twice the standard\n"
                      "       deviation apart. These results are NOT reliable.\n",
                      what);
    else if (d > r->sd_ms)
        pr_buf_printf(b,
                      "WARNING: The median and mean for %s are not within a normal "
                      "deviation\n        These results are probably not that reliable.\n",
                      what);
}

void pr_ab_stats_print(const pr_ab_tables *t, pr_buf *out)
{
    if (t->n == 0)
        return;
    pr_buf_puts(out, "Connection Times (ms)\n");
    pr_buf_puts(out, "              min  mean[+/-sd] median   max\n");
    row(out, "Connect:    ", &t->connect);
    row(out, "Processing: ", &t->processing);
    row(out, "Waiting:    ", &t->waiting);
    row(out, "Total:      ", &t->total);
    sane(out, "the initial connection time", &t->connect);
    sane(out, "the processing time", &t->processing);
    sane(out, "the waiting time", &t->waiting);
    sane(out, "the total time", &t->total);
    if (!t->has_percentiles)
        return;
    pr_buf_puts(out, "\nPercentage of the requests served within a certain time (ms)\n");
    for (int i = 0; i < PR_AB_NPERCS; i++) {
        pr_buf_printf(out, pr_ab_percs[i] >= 100 ? " %d%%  " : "  %d%%  ", pr_ab_percs[i]);
        cell(out, "", 5, t->pct_ms[i]);
        pr_buf_puts(out, pr_ab_percs[i] >= 100 ? " (longest request)\n" : "\n");
    }
}

/* ---- the tables from a printed summary ---------------------------------------------------- */

static int64_t jint_or_unknown(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : PR_UNKNOWN;
}

/* ns → whole ms, half up (ab prints ms); unknown stays unknown. */
static int64_t ns_ms(int64_t ns)
{
    return ns == PR_UNKNOWN || ns < 0 ? PR_UNKNOWN : (ns + 500000) / 1000000;
}

/* A row as ab printed it ({min, mean, sd, median, max} in ms). */
static void printed_row(const json_t *r, pr_ab_row *out)
{
    out->min_ms = jint_or_unknown(r, "min");
    out->mean_ms = jint_or_unknown(r, "mean");
    out->median_ms = jint_or_unknown(r, "median");
    out->max_ms = jint_or_unknown(r, "max");
    const json_t *sd = json_object_get(r, "sd");
    out->sd_ms = json_is_number(sd) ? json_number_value(sd) : NAN;
}

/* A row from a canonical distribution ({min, mean, stdev, p50, max} in ns). */
static void canonical_row(const json_t *d, pr_ab_row *out)
{
    out->min_ms = ns_ms(jint_or_unknown(d, "min"));
    out->mean_ms = ns_ms(jint_or_unknown(d, "mean"));
    out->median_ms = ns_ms(jint_or_unknown(d, "p50"));
    out->max_ms = ns_ms(jint_or_unknown(d, "max"));
    int64_t sd = jint_or_unknown(d, "stdev");
    out->sd_ms = sd == PR_UNKNOWN ? NAN : (double)sd / 1e6;
}

int pr_ab_stats_from_summary(const pr_run *run, pr_ab_tables *out)
{
    memset(out, 0, sizeof *out);
    const json_t *s = run->summary;
    int64_t n = jint_or_unknown(s, "requests");
    if (!json_is_object(s) || n == PR_UNKNOWN || n <= 0)
        return PR_EUSAGE;
    out->n = (size_t)n;
    const json_t *tool = json_object_get(s, "tool");
    const json_t *ct = json_object_get(tool, "Connection Times (ms)");
    pr_ab_row *rows[4] = {&out->connect, &out->processing, &out->waiting, &out->total};
    static const char *const ab_rows[4] = {"Connect", "Processing", "Waiting", "Total"};
    static const char *const dists[4] = {"connect_ns", NULL, "ttfb_ns", "latency_ns"};
    for (int i = 0; i < 4; i++) {
        if (json_is_object(ct)) /* ab's own report: its rows as printed */
            printed_row(json_object_get(ct, ab_rows[i]), rows[i]);
        else
            canonical_row(dists[i] ? json_object_get(s, dists[i]) : NULL, rows[i]);
    }
    const json_t *pct = json_is_object(ct) ? json_object_get(tool, "Percentage served (ms)") : NULL;
    const json_t *lat = json_object_get(s, "latency_ns");
    for (int i = 0; i < PR_AB_NPERCS; i++) {
        char k[8];
        if (pct) {
            snprintf(k, sizeof k, "%d", pr_ab_percs[i]);
            out->pct_ms[i] = jint_or_unknown(pct, k);
        } else {
            snprintf(k, sizeof k, pr_ab_percs[i] >= 100 ? "max" : "p%d", pr_ab_percs[i]);
            out->pct_ms[i] = ns_ms(jint_or_unknown(lat, k));
        }
        out->has_percentiles |= out->pct_ms[i] != PR_UNKNOWN;
    }
    return 0;
}
