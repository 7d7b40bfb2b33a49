/* Gatling's and Locust's console summaries from a run (see peer_stats.h). */
#include "analysis/peer_stats.h"
#include "analysis/vals.h"
#include "model/xalloc.h"
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Gatling ---- */

typedef struct gside {
    pr_vals ms; /* response times in whole ms, as Gatling records them */
} gside;

static void gcell(char *buf, size_t cap, gside *g, int what, double pct, double secs)
{
    size_t n = pr_vals_count(&g->ms);
    if (what == 0) {
        snprintf(buf, cap, "%zu", n);
        return;
    }
    if (n == 0) {
        snprintf(buf, cap, "-");
        return;
    }
    pr_dist d;
    pr_vals_dist(&g->ms, &d);
    switch (what) {
    case 1: snprintf(buf, cap, "%lld", (long long)d.min); break;
    case 2: snprintf(buf, cap, "%lld", (long long)d.max); break;
    case 3: snprintf(buf, cap, "%.0f", d.mean); break;
    case 4: snprintf(buf, cap, "%.0f", d.stdev); break;
    case 5: snprintf(buf, cap, "%lld", (long long)pr_vals_percentile(&g->ms, pct)); break;
    default:
        if (secs > 0)
            snprintf(buf, cap, "%.3f", (double)n / secs);
        else
            snprintf(buf, cap, "-");
    }
}

void pr_gatling_console(const pr_run *run, const pr_sample *s, size_t n, pr_buf *out)
{
    gside all, ok, ko;
    pr_vals_init(&all.ms, 0);
    pr_vals_init(&ok.ms, 0);
    pr_vals_init(&ko.ms, 0);
    int64_t t0 = INT64_MAX, t1 = INT64_MIN;
    size_t band[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        if (s[i].flags & PR_SF_TRANSACTION)
            continue; /* Gatling's global stats count requests only */
        int64_t ms = s[i].latency_ns / 1000000;
        pr_vals_add(&all.ms, ms);
        int good = pr_sample_outcome(&s[i]) != 0;
        pr_vals_add(good ? &ok.ms : &ko.ms, ms);
        if (good)
            band[ms < 800 ? 0 : ms < 1200 ? 1 : 2]++;
        if (s[i].start_ns < t0)
            t0 = s[i].start_ns;
        if (s[i].start_ns + s[i].latency_ns > t1)
            t1 = s[i].start_ns + s[i].latency_ns;
    }
    double secs = t1 > t0 ? (double)(t1 - t0) / 1e9 : 0;
    static const struct { const char *title; int what; double pct; } rows[] = {
        {"request count", 0, 0},         {"min response time", 1, 0},
        {"max response time", 2, 0},     {"mean response time", 3, 0},
        {"std deviation", 4, 0},         {"response time 50th percentile", 5, 50},
        {"response time 75th percentile", 5, 75}, {"response time 95th percentile", 5, 95},
        {"response time 99th percentile", 5, 99}, {"mean requests/sec", 6, 0}};
    pr_buf_puts(out, "================================================================================\n"
                     "---- Global Information --------------------------------------------------------\n");
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        char a[32], b[32], c[32];
        gcell(a, sizeof a, &all, rows[r].what, rows[r].pct, secs);
        gcell(b, sizeof b, &ok, rows[r].what, rows[r].pct, secs);
        gcell(c, sizeof c, &ko, rows[r].what, rows[r].pct, secs);
        pr_buf_printf(out, "> %-48s%8s (OK=%-6s KO=%-6s)\n", rows[r].title, a, b, c);
    }
    size_t total = pr_vals_count(&all.ms), failed = pr_vals_count(&ko.ms);
    static const char *const bands[] = {"t < 800 ms", "800 ms <= t < 1200 ms", "t >= 1200 ms"};
    pr_buf_puts(out, "---- Response Time Distribution ------------------------------------------------\n");
    for (int k = 0; k < 4; k++) {
        size_t v = k < 3 ? band[k] : failed;
        pr_buf_printf(out, "> %-48s%8zu (%3.0f%%)\n", k < 3 ? bands[k] : "failed", v,
                      total ? 100.0 * (double)v / (double)total : 0.0);
    }
    pr_buf_puts(out, "================================================================================\n");
    pr_vals_dispose(&all.ms);
    pr_vals_dispose(&ok.ms);
    pr_vals_dispose(&ko.ms);
}

/* ---- Locust ---- */

typedef struct lrow {
    char type[16];
    const char *name;
    int64_t reqs, fails;
    double avg_ms, min_ms, max_ms, med_ms, rps, fps;
} lrow;

static void lprint_head(pr_buf *out)
{
    pr_buf_printf(out, "%-8s %-60s %7s %12s | %7s %7s %7s %7s | %7s %11s\n", "Type", "Name",
                  "# reqs", "# fails", "Avg", "Min", "Max", "Med", "req/s", "failures/s");
    pr_buf_puts(out, "--------|------------------------------------------------------------|-------"
                     "|-------------|-------|-------|-------|-------|--------|-----------\n");
}

static void lprint(pr_buf *out, const lrow *r)
{
    char fails[48];
    snprintf(fails, sizeof fails, "%lld(%.2f%%)", (long long)r->fails,
             r->reqs ? 100.0 * (double)r->fails / (double)r->reqs : 0.0);
    pr_buf_printf(out, "%-8s %-60.60s %7lld %12s | %7.0f %7.0f %7.0f %7.0f | %7.2f %11.2f\n",
                  r->type, r->name, (long long)r->reqs, fails, r->avg_ms, r->min_ms, r->max_ms,
                  r->med_ms, r->rps, r->fps);
}

/* "GET /path" → type GET, name "/path" (Locust keys entries by method and name). */
static void split_label(const char *label, lrow *r)
{
    const char *sp = strchr(label, ' ');
    size_t k = sp ? (size_t)(sp - label) : 0;
    int upper = k > 0 && k < sizeof r->type;
    for (size_t i = 0; i < k && upper; i++)
        upper = label[i] >= 'A' && label[i] <= 'Z';
    r->type[0] = 0;
    r->name = label;
    if (upper) {
        memcpy(r->type, label, k);
        r->type[k] = 0;
        r->name = sp + 1;
    }
}

static double ms_of(json_t *lat, const char *k)
{
    json_t *v = json_object_get(lat, k);
    return json_is_integer(v) ? (double)json_integer_value(v) / 1e6 : NAN;
}

static void lrow_json(json_t *o, lrow *r)
{
    json_t *lat = json_object_get(o, "latency_ns");
    r->reqs = json_integer_value(json_object_get(o, "requests"));
    r->fails = json_integer_value(json_object_get(o, "failures"));
    r->avg_ms = ms_of(lat, "mean");
    r->min_ms = ms_of(lat, "min");
    r->max_ms = ms_of(lat, "max");
    r->med_ms = ms_of(lat, json_object_get(lat, "median") ? "median" : "p50");
    r->rps = json_number_value(json_object_get(o, "rate_per_s"));
    r->fps = json_number_value(json_object_get(o, "failures_per_s"));
}

static void locust_from_summary(const pr_run *run, pr_buf *out)
{
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(run->summary, "labels"), i, l) {
        lrow r;
        split_label(json_string_value(json_object_get(l, "label")) ? json_string_value(json_object_get(l, "label")) : "", &r);
        lrow_json(l, &r);
        lprint(out, &r);
    }
    lrow t = {"", "Aggregated", 0, 0, 0, 0, 0, 0, 0, 0};
    lrow_json(run->summary, &t);
    pr_buf_puts(out, "--------|------------------------------------------------------------|-------"
                     "|-------------|-------|-------|-------|-------|--------|-----------\n");
    lprint(out, &t);
}

typedef struct lacc {
    pr_vals ms;
    int64_t fails;
    double sum_ms;
} lacc;

static void lacc_row(lacc *a, lrow *r, double secs)
{
    pr_dist d;
    size_t n = pr_vals_count(&a->ms);
    r->reqs = (int64_t)n;
    r->fails = a->fails;
    if (n) {
        pr_vals_dist(&a->ms, &d);
        r->avg_ms = d.mean / 1e6;
        r->min_ms = (double)d.min / 1e6;
        r->max_ms = (double)d.max / 1e6;
        r->med_ms = (double)pr_vals_percentile(&a->ms, 50) / 1e6;
    }
    r->rps = secs > 0 ? (double)n / secs : 0;
    r->fps = secs > 0 ? (double)a->fails / secs : 0;
}

void pr_locust_console(const pr_run *run, const pr_sample *s, size_t n, pr_buf *out)
{
    lprint_head(out);
    if (n == 0) {
        locust_from_summary(run, out);
        return;
    }
    size_t cap = 0;
    lacc *by = NULL, all;
    uint32_t maxid = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i].label > maxid)
            maxid = s[i].label;
    by = pr_xgrow(NULL, &cap, (size_t)maxid + 1, sizeof *by);
    memset(by, 0, cap * sizeof *by);
    for (size_t i = 0; i <= maxid; i++)
        pr_vals_init(&by[i].ms, 0);
    memset(&all, 0, sizeof all);
    pr_vals_init(&all.ms, 0);
    int64_t t0 = INT64_MAX, t1 = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        if (s[i].flags & PR_SF_TRANSACTION)
            continue;
        int bad = pr_sample_outcome(&s[i]) == 0;
        pr_vals_add(&by[s[i].label].ms, s[i].latency_ns);
        by[s[i].label].fails += bad;
        pr_vals_add(&all.ms, s[i].latency_ns);
        all.fails += bad;
        if (s[i].start_ns < t0)
            t0 = s[i].start_ns;
        if (s[i].start_ns + s[i].latency_ns > t1)
            t1 = s[i].start_ns + s[i].latency_ns;
    }
    double secs = t1 > t0 ? (double)(t1 - t0) / 1e9 : 0;
    for (uint32_t id = 0; id <= maxid; id++) {
        if (!pr_vals_count(&by[id].ms))
            continue;
        lrow r;
        memset(&r, 0, sizeof r);
        split_label(pr_run_str(run, id), &r);
        lacc_row(&by[id], &r, secs);
        lprint(out, &r);
    }
    lrow t = {"", "Aggregated", 0, 0, 0, 0, 0, 0, 0, 0};
    lacc_row(&all, &t, secs);
    pr_buf_puts(out, "--------|------------------------------------------------------------|-------"
                     "|-------------|-------|-------|-------|-------|--------|-----------\n");
    lprint(out, &t);
    for (uint32_t id = 0; id <= maxid; id++)
        pr_vals_dispose(&by[id].ms);
    pr_vals_dispose(&all.ms);
    free(by);
}
