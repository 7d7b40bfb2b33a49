/* k6's end-of-test summary: data from samples and the text layout of k6's summary.js. */
#include "analysis/k6_stats.h"
#include "analysis/cellsort.h"
#include "analysis/vals.h"
#include "model/buf.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

double pr_k6_percentile(const double *v, size_t n, double p)
{
    if (n == 0)
        return 0;
    if (n == 1)
        return v[0];
    double i = p * ((double)n - 1.0);
    double j = v[(size_t)floor(i)], k = v[(size_t)ceil(i)];
    return j + (k - j) * (i - floor(i));
}

/* One trend (every request, or the expected responses): its count and sum (ms, in input
 * order, as k6 adds them), its ranks from the sorted pass or a histogram (bounded). */
typedef struct ktrend {
    size_t n;
    double sum;
    pr_qdist q;   /* slots: 0 min, 1 max, 2 + 2k and 3 + 2k: percentile k's ranks */
    pr_vals hist; /* bounded */
} ktrend;

static const struct {
    const char *key;
    double p;
} kpct[] = {{"med", 0.5}, {"p(90)", 0.9}, {"p(95)", 0.95}};

/* The ranks a trend's figures read: k6's interpolation between floor and ceil of p (n - 1),
 * or nearest rank ceil(p n). */
static void ktrend_ranks(ktrend *t, int k6_pct)
{
    pr_qdist_init(&t->q, t->n, 0, NULL, 0);
    pr_qdist_rank(&t->q, 1, 0);
    pr_qdist_rank(&t->q, t->n, 1);
    for (int k = 0; k < 3 && t->n; k++) {
        if (k6_pct) {
            double i = kpct[k].p * ((double)t->n - 1.0);
            pr_qdist_rank(&t->q, (uint64_t)floor(i) + 1, 2 + 2 * k);
            pr_qdist_rank(&t->q, (uint64_t)ceil(i) + 1, 3 + 2 * k);
        } else {
            size_t r = (size_t)ceil(kpct[k].p * (double)t->n);
            pr_qdist_rank(&t->q, r ? r : 1, 2 + 2 * k);
        }
    }
}

/* A trend's values (ms). */
static json_t *trend(ktrend *t, int k6_pct)
{
    json_t *o = json_object();
    size_t n = t->n;
    if (!n)
        return o;
    const int64_t *q = t->q.q;
    double mn = t->hist.bounded ? (double)t->hist.h.min / 1e6 : (double)q[0] / 1e6;
    double mx = t->hist.bounded ? (double)t->hist.h.max / 1e6 : (double)q[1] / 1e6;
    json_object_set_new(o, "avg", json_real(t->sum / (double)n));
    json_object_set_new(o, "min", json_real(mn));
    for (int k = 0; k < 3; k++) {
        double x;
        if (t->hist.bounded) {
            x = (double)pr_vals_percentile(&t->hist, kpct[k].p * 100) / 1e6;
        } else if (k6_pct && n > 1) {
            double i = kpct[k].p * ((double)n - 1.0);
            double j = (double)q[2 + 2 * k] / 1e6, kk = (double)q[3 + 2 * k] / 1e6;
            x = j + (kk - j) * (i - floor(i));
        } else {
            x = (double)q[2 + 2 * k] / 1e6;
        }
        json_object_set_new(o, kpct[k].key, json_real(x));
    }
    json_object_set_new(o, "max", json_real(mx));
    return o;
}

static json_t *metric(const char *type, const char *contains, json_t *values)
{
    return json_pack("{s:s,s:s,s:o}", "type", type, "contains", contains, "values", values);
}

/* k6's built-in metrics, for files without Metric lines (CSV, excerpts). */
static const struct {
    const char *name, *type, *contains;
} builtin[] = {
    {"checks", "rate", "default"},
    {"data_received", "counter", "data"},
    {"data_sent", "counter", "data"},
    {"iterations", "counter", "default"},
    {"dropped_iterations", "counter", "default"},
    {"vus", "gauge", "default"},
    {"vus_max", "gauge", "default"},
};

/* Counters, gauges and rates kept as series by the k6 readers. */
static void from_series(json_t *out, const pr_run *run, double dur_s)
{
    json_t *k6 = json_object_get(run->meta, "k6");
    json_t *ms = json_object_get(k6, "metrics");
    const char *name;
    json_t *m;
    json_object_foreach (ms, name, m) {
        const char *type = json_string_value(json_object_get(m, "type"));
        const char *contains = json_string_value(json_object_get(m, "contains"));
        double sum = json_number_value(json_object_get(m, "sum"));
        json_int_t count = json_integer_value(json_object_get(m, "count"));
        for (size_t i = 0; !type && i < sizeof builtin / sizeof builtin[0]; i++)
            if (!strcmp(name, builtin[i].name)) {
                type = builtin[i].type;
                contains = builtin[i].contains;
            }
        if (!type)
            continue; /* a custom metric without its Metric line: its kind is unknown */
        if (!contains)
            contains = "default";
        if (!strcmp(type, "counter")) {
            json_object_set_new(out, name,
                                metric(type, contains,
                                       json_pack("{s:f,s:f}", "count", sum, "rate",
                                                 dur_s > 0 ? sum / dur_s : 0.0)));
        } else if (!strcmp(type, "gauge") && json_object_get(m, "last")) {
            json_object_set_new(
                out, name,
                metric(type, contains,
                       json_pack("{s:O,s:O,s:O}", "value", json_object_get(m, "last"), "min",
                                 json_object_get(m, "min"), "max", json_object_get(m, "max"))));
        } else if (!strcmp(type, "rate")) {
            json_int_t pass = (json_int_t)llround(sum);
            json_object_set_new(out, name,
                                metric(type, contains,
                                       json_pack("{s:f,s:I,s:I}", "rate",
                                                 count ? (double)pass / (double)count : 0.0,
                                                 "passes", pass, "fails", count - pass)));
        }
    }
}

/* k6's test duration in ms from a joined summary: handleSummary's state.testRunDurationMs,
 * else (--summary-export prints none) http_reqs' count over its rate; NAN without one. */
static double k6_duration_ms(const json_t *ksum)
{
    double ms =
        json_number_value(json_object_get(json_object_get(ksum, "state"), "testRunDurationMs"));
    if (ms > 0)
        return ms;
    json_t *v =
        json_object_get(json_object_get(json_object_get(ksum, "metrics"), "http_reqs"), "values");
    double count = json_number_value(json_object_get(v, "count"));
    double rate = json_number_value(json_object_get(v, "rate"));
    return count > 0 && rate > 0 ? count / rate * 1000 : NAN;
}

struct pr_k6_acc {
    const pr_run *run;
    int k6_pct, bounded;
    ktrend all, ok;
    size_t failed;
    int64_t first, last;
    pr_cellsort cs; /* exact: (latency, expected response) of every request */
};

pr_k6_acc *pr_k6_new(const pr_run *run, size_t expected, int k6_pct, int bounded)
{
    pr_k6_acc *a = pr_xcalloc(1, sizeof *a);
    a->run = run;
    a->k6_pct = k6_pct;
    a->bounded = bounded;
    a->first = INT64_MAX;
    a->last = INT64_MIN;
    pr_vals_init(&a->all.hist, bounded);
    pr_vals_init(&a->ok.hist, bounded);
    if (!bounded)
        pr_cellsort_init(&a->cs, expected);
    return a;
}

void pr_k6_add(pr_k6_acc *a, const pr_sample *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i].latency_ns == PR_UNKNOWN)
            continue;
        double ms = (double)s[i].latency_ns / 1e6;
        int good = s[i].success == PR_OK_SUCCESS;
        ktrend *ts[2] = {&a->all, good ? &a->ok : NULL};
        for (int k = 0; k < 2 && ts[k]; k++) {
            ts[k]->n++;
            ts[k]->sum += ms;
            if (a->bounded)
                pr_vals_add(&ts[k]->hist, s[i].latency_ns);
        }
        if (!a->bounded)
            pr_cellsort_add(&a->cs, s[i].latency_ns, (uint32_t)good);
        a->failed += !good;
        if (s[i].start_ns != PR_UNKNOWN) {
            a->first = s[i].start_ns < a->first ? s[i].start_ns : a->first;
            int64_t end = s[i].start_ns + s[i].latency_ns;
            a->last = end > a->last ? end : a->last;
        }
    }
}

/* Exact mode: both trends' ranks in one pass over the sorted latencies. */
static void k6_exact(pr_k6_acc *a)
{
    ktrend_ranks(&a->all, a->k6_pct);
    ktrend_ranks(&a->ok, a->k6_pct);
    pr_cellsort_sort(&a->cs);
    pr_cellsort_it it;
    pr_cellsort_it_init(&it, &a->cs);
    int64_t v;
    uint32_t good;
    while (pr_cellsort_next(&it, &v, &good)) {
        pr_qdist_step(&a->all.q, v);
        if (good)
            pr_qdist_step(&a->ok.q, v);
    }
    pr_cellsort_dispose(&a->cs);
}

json_t *pr_k6_finish(pr_k6_acc *a, int *span_rates)
{
    const pr_run *run = a->run;
    if (!a->bounded)
        k6_exact(a);
    size_t na = a->all.n, failed = a->failed;
    json_t *ksum = json_object_get(json_object_get(run->summary, "tool"), "k6");
    double dur_ms = k6_duration_ms(ksum);
    /* k6's summary of the same run (it counts these requests): its printed figures win */
    json_t *kreqs =
        json_object_get(json_object_get(json_object_get(ksum, "metrics"), "http_reqs"), "values");
    int printed = json_number_value(json_object_get(kreqs, "count")) == (double)na && na > 0;
    *span_rates = printed ? 2 : !(dur_ms > 0);
    if (!(dur_ms > 0))
        dur_ms = a->last > a->first ? (double)(a->last - a->first) / 1e6 : 0;
    json_t *metrics = json_object();
    from_series(metrics, run, dur_ms / 1000);
    json_object_set_new(metrics, "http_req_duration",
                        metric("trend", "time", trend(&a->all, a->k6_pct)));
    json_object_set_new(metrics, "http_req_duration{expected_response:true}",
                        metric("trend", "time", trend(&a->ok, a->k6_pct)));
    json_object_set_new(
        metrics, "http_req_failed",
        metric("rate", "default",
               json_pack("{s:f,s:I,s:I}", "rate", na ? (double)failed / (double)na : 0.0, "passes",
                         (json_int_t)failed, "fails", (json_int_t)(na - failed))));
    json_object_set_new(metrics, "http_reqs",
                        metric("counter", "default",
                               json_pack("{s:I,s:f}", "count", (json_int_t)na, "rate",
                                         dur_ms > 0 ? (double)na / (dur_ms / 1000) : 0.0)));
    /* threshold verdicts from a joined k6 summary; every figure it printed, when it is of
     * these requests */
    const char *name;
    json_t *m;
    json_object_foreach (json_object_get(ksum, "metrics"), name, m) {
        json_t *mine = json_object_get(metrics, name), *th = json_object_get(m, "thresholds");
        if (printed)
            json_object_set(metrics, name, m);
        else if (mine && th)
            json_object_set(mine, "thresholds", th);
    }
    pr_vals_dispose(&a->all.hist);
    pr_vals_dispose(&a->ok.hist);
    pr_cellsort_dispose(&a->cs);
    free(a);
    json_t *data = json_pack("{s:o}", "metrics", metrics);
    json_t *checks = json_object_get(json_object_get(run->meta, "k6"), "checks");
    if (json_object_size(checks)) {
        json_t *arr = json_array();
        json_object_foreach (checks, name, m)
            json_array_append_new(arr, json_pack("{s:s,s:O,s:O}", "name", name, "passes",
                                                 json_object_get(m, "passes"), "fails",
                                                 json_object_get(m, "fails")));
        json_object_set_new(data, "root_group",
                            json_pack("{s:s,s:o,s:[]}", "name", "", "checks", arr, "groups"));
    } else if (json_object_get(ksum, "root_group")) {
        json_object_set(data, "root_group", json_object_get(ksum, "root_group"));
    }
    return data;
}

json_t *pr_k6_data_from_samples(const pr_run *run, const pr_sample *s, size_t n, int k6_pct,
                                int *span_rates)
{
    pr_k6_acc *a = pr_k6_new(run, n, k6_pct, 0);
    pr_k6_add(a, s, n);
    return pr_k6_finish(a, span_rates);
}

/* ---- the text layout of k6's summary.js ---- */

/* JavaScript's Number.prototype.toFixed: the decimal nearest to the exact value, ties to the
 * larger number (glibc's printf rounds exact ties to even). */
static void js_to_fixed(double v, int prec, char *out, size_t size)
{
    char exact[400];
    snprintf(exact, sizeof exact, "%.60f", fabs(v)); /* exact digits of the double */
    char *dot = strchr(exact, '.');
    size_t keep = (size_t)(dot - exact) + (prec ? (size_t)prec + 1 : 0);
    int up = dot[prec + 1] >= '5';
    exact[keep] = 0;
    for (ssize_t i = (ssize_t)keep - 1; up && i >= 0; i--) {
        if (exact[i] == '.')
            continue;
        if (exact[i] == '9') {
            exact[i] = '0';
        } else {
            exact[i]++;
            up = 0;
        }
    }
    size_t o = 0;
    if (v < 0 && o + 1 < size)
        out[o++] = '-';
    if (up && o + 1 < size)
        out[o++] = '1';
    for (const char *q = exact; *q && o + 1 < size; q++)
        out[o++] = *q;
    out[o] = 0;
}

/* parseFloat(v.toFixed(prec)).toString() */
static void fixed_no_zeros(double v, int prec, char *out, size_t size)
{
    js_to_fixed(v, prec, out, size);
    char *dot = strchr(out, '.');
    if (dot) {
        char *e = out + strlen(out) - 1;
        while (e > dot && *e == '0')
            *e-- = 0;
        if (e == dot)
            *e = 0;
    }
    if (!strcmp(out, "-0"))
        strcpy(out, "0");
}

static void fixed_trunc(double v, int prec, char *out, size_t size)
{
    double mult = pow(10, prec);
    fixed_no_zeros(trunc(mult * v) / mult, prec, out, size);
}

/* humanizeGenericDuration: ms → "380.87ms", "975.09µs", "1.39s", "1m2s", "0s". */
static void duration(double ms, char *out, size_t size)
{
    char b[24];
    if (ms == 0) {
        snprintf(out, size, "0s");
    } else if (ms < 0.001) {
        snprintf(out, size, "%.0fns", trunc(ms * 1000000));
    } else if (ms < 1) {
        fixed_trunc(ms * 1000, 2, b, sizeof b);
        snprintf(out, size, "%sµs", b);
    } else if (ms < 1000) {
        fixed_trunc(ms, 2, b, sizeof b);
        snprintf(out, size, "%sms", b);
    } else {
        fixed_trunc(fmod(ms, 60000) / 1000, ms > 60000 ? 0 : 2, b, sizeof b);
        double rem = trunc(ms / 60000);
        if (rem < 1)
            snprintf(out, size, "%ss", b);
        else if (trunc(rem / 60) < 1)
            snprintf(out, size, "%.0fm%ss", fmod(rem, 60), b);
        else
            snprintf(out, size, "%.0fh%.0fm%ss", trunc(rem / 60), fmod(rem, 60), b);
    }
}

/* humanizeBytes */
static void bytes(double v, char *out, size_t size)
{
    static const char *const units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"};
    if (v < 10) {
        char b[24];
        fixed_no_zeros(v, 6, b, sizeof b);
        snprintf(out, size, "%s B", b);
        return;
    }
    int e = (int)floor(log(v) / log(1000));
    if (e > 8)
        e = 8;
    double x = floor(v / pow(1000, e) * 10 + 0.5) / 10;
    char b[24];
    js_to_fixed(x, x < 10 ? 1 : 0, b, sizeof b);
    snprintf(out, size, "%s %s", b, units[e]);
}

static void humanize(double v, const char *type, const char *contains, char *out, size_t size)
{
    char b[24];
    if (isnan(v)) { /* not in the summary (or not possible: parsers/k6_summary.c) */
        snprintf(out, size, "-");
    } else if (!strcmp(type, "rate")) {
        js_to_fixed(trunc(v * 100 * 100) / 100, 2, b, sizeof b);
        snprintf(out, size, "%s%%", b);
    } else if (!strcmp(contains, "data")) {
        bytes(v, out, size);
    } else if (!strcmp(contains, "time")) {
        duration(v, out, size);
    } else {
        fixed_no_zeros(v, 6, out, size);
    }
}

/* Display width: UTF-8 code points. */
static size_t width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void pad(pr_buf *b, size_t n)
{
    while (n--)
        pr_buf_putc(b, ' ');
}

#define K6_MAX_STATS 16
#define K6_MAX_METRICS 512

typedef struct row {
    const char *name;
    const char *type, *contains;
    char cols[K6_MAX_STATS][96]; /* trend: one per stat; other: value, extras */
    int ncols;
    char mark[4];
} row;

/* The trend stats to print: the run's summaryTrendStats, else k6's default. */
static int trend_stats(const json_t *data, const char *stats[K6_MAX_STATS])
{
    json_t *opt = json_object_get(json_object_get(data, "options"), "summaryTrendStats");
    int n = 0;
    size_t i;
    json_t *v;
    json_array_foreach (opt, i, v)
        if (json_is_string(v) && n < K6_MAX_STATS)
            stats[n++] = json_string_value(v);
    if (n)
        return n;
    static const char *const def[] = {"avg", "min", "med", "max", "p(90)", "p(95)"};
    json_t *d = json_object_get(
        json_object_get(json_object_get(data, "metrics"), "http_req_duration"), "values");
    int has_def = !d || json_object_get(d, "p(90)");
    if (has_def) {
        for (int k = 0; k < 6; k++)
            stats[n++] = def[k];
        return n;
    }
    /* a summary export with other stats: k6's default order, then percentiles, then count */
    static const char *const order[] = {"avg",   "min",   "med",     "max",      "p(90)",
                                        "p(95)", "p(99)", "p(99.9)", "p(99.99)", "count"};
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
        if (json_object_get(d, order[k]))
            stats[n++] = order[k];
    return n;
}

static int name_cmp(const void *a, const void *b)
{
    const row *x = a, *y = b;
    size_t px = strcspn(x->name, "{"), py = strcspn(y->name, "{");
    int c = strncasecmp(x->name, y->name, px < py ? px : py);
    if (c == 0 && px != py)
        return px < py ? -1 : 1;
    if (c == 0)
        c = strcasecmp(x->name + px, y->name + py);
    return c ? c : strcmp(x->name, y->name);
}

static const char *display(const char *name, char *buf, size_t size)
{
    const char *br = strchr(name, '{');
    if (!br)
        return name;
    size_t n = strlen(br);
    snprintf(buf, size, "{ %.*s }", (int)(n > 2 ? n - 2 : 0), br + 1);
    return buf;
}

/* v[k] as a number, NaN when it is not one (null: unknown). */
static double val(const json_t *v, const char *k)
{
    json_t *x = json_object_get(v, k);
    return json_is_number(x) ? json_number_value(x) : NAN;
}

static void fill_row(row *r, json_t *m, const char **stats, int nstats)
{
    json_t *v = json_object_get(m, "values");
    char b[24];
    if (!strcmp(r->type, "trend")) {
        r->ncols = nstats;
        for (int i = 0; i < nstats; i++) {
            double x = val(v, stats[i]);
            if (!strcmp(stats[i], "count") && !isnan(x))
                snprintf(r->cols[i], sizeof r->cols[i], "%.0f", x);
            else
                humanize(x, r->type, r->contains, r->cols[i], 40);
        }
        return;
    }
    if (!strcmp(r->type, "counter")) {
        humanize(val(v, "count"), r->type, r->contains, r->cols[0], 40);
        humanize(val(v, "rate"), r->type, r->contains, b, sizeof b);
        snprintf(r->cols[1], 96, "%s/s", b);
        r->ncols = 2;
    } else if (!strcmp(r->type, "gauge")) {
        humanize(val(v, "value"), r->type, r->contains, r->cols[0], 40);
        humanize(val(v, "min"), r->type, r->contains, b, sizeof b);
        snprintf(r->cols[1], 96, "min=%s", b);
        humanize(val(v, "max"), r->type, r->contains, b, sizeof b);
        snprintf(r->cols[2], 96, "max=%s", b);
        r->ncols = 3;
    } else if (!strcmp(r->type, "rate")) {
        humanize(val(v, "rate"), r->type, r->contains, r->cols[0], 40);
        snprintf(r->cols[1], 96, "✓ %.0f", val(v, "passes"));
        snprintf(r->cols[2], 96, "✗ %.0f", val(v, "fails"));
        for (int c = 1; c < 3; c++)
            if (strstr(r->cols[c], "nan"))
                snprintf(r->cols[c], 96, "%s -", c == 1 ? "✓" : "✗");
        r->ncols = 3;
    } else {
        snprintf(r->cols[0], 96, "[no data]");
        r->ncols = 1;
    }
}

static void checks_text(const json_t *data, pr_buf *b)
{
    json_t *checks = json_object_get(json_object_get(data, "root_group"), "checks");
    size_t i, nchecks = 0;
    json_t *c;
    const char *k;
    json_t *list = json_array();
    if (json_is_array(checks))
        json_array_extend(list, checks);
    else
        json_object_foreach (checks, k, c)
            json_array_append(list, c);
    json_array_foreach (list, i, c) {
        const char *name = json_string_value(json_object_get(c, "name"));
        double pass = json_number_value(json_object_get(c, "passes"));
        double fail = json_number_value(json_object_get(c, "fails"));
        if (fail == 0) {
            pr_buf_printf(b, "     ✓ %s\n", name ? name : "");
        } else {
            pr_buf_printf(b, "     ✗ %s\n      ↳  %.0f%% — ✓ %.0f / ✗ %.0f\n", name ? name : "",
                          floor(100 * pass / (pass + fail)), pass, fail);
        }
        nchecks++;
    }
    json_decref(list);
    if (nchecks)
        pr_buf_putc(b, '\n');
}

char *pr_k6_summary_text(const json_t *data)
{
    const char *stats[K6_MAX_STATS];
    int nstats = trend_stats(data, stats);
    json_t *metrics = json_object_get(data, "metrics");
    row *rows = pr_xcalloc(K6_MAX_METRICS, sizeof *rows);
    size_t n = 0, name_max = 0, trend_w[K6_MAX_STATS] = {0}, val_w = 0, extra_w[2] = {0, 0};
    const char *name;
    json_t *m;
    json_object_foreach (metrics, name, m) {
        if (n == K6_MAX_METRICS)
            break;
        row *r = &rows[n++];
        r->name = name;
        r->type = json_string_value(json_object_get(m, "type"));
        r->contains = json_string_value(json_object_get(m, "contains"));
        r->type = r->type ? r->type : "";
        r->contains = r->contains ? r->contains : "default";
        fill_row(r, m, stats, nstats);
        char db[300];
        size_t w = width(display(name, db, sizeof db)) + (strchr(name, '{') ? 2 : 0);
        name_max = w > name_max ? w : name_max;
        strcpy(r->mark, " ");
        const char *expr;
        json_t *t;
        json_object_foreach (json_object_get(m, "thresholds"), expr, t) {
            if (!strcmp(r->mark, " "))
                strcpy(r->mark, "✓");
            if (!json_is_true(json_object_get(t, "ok")))
                strcpy(r->mark, "✗");
        }
        for (int i = 0; i < r->ncols; i++) {
            size_t cw = width(r->cols[i]);
            if (!strcmp(r->type, "trend"))
                trend_w[i] = cw > trend_w[i] ? cw : trend_w[i];
            else if (i == 0)
                val_w = cw > val_w ? cw : val_w;
            else
                extra_w[i - 1] = cw > extra_w[i - 1] ? cw : extra_w[i - 1];
        }
    }
    qsort(rows, n, sizeof *rows, name_cmp);
    pr_buf b = PR_BUF_INIT;
    checks_text(data, &b);
    for (size_t k = 0; k < n; k++) {
        row *r = &rows[k];
        char db[300];
        const char *disp = display(r->name, db, sizeof db);
        int sub = strchr(r->name, '{') != NULL;
        pr_buf_printf(&b, "   %s%s %s", sub ? "  " : "", r->mark, disp);
        for (size_t d = name_max - width(disp) - (sub ? 2 : 0) + 3; d; d--)
            pr_buf_putc(&b, '.');
        pr_buf_puts(&b, ": ");
        if (!strcmp(r->type, "trend")) {
            for (int i = 0; i < r->ncols; i++) {
                pr_buf_printf(&b, "%s%s=%s", i ? " " : "", stats[i], r->cols[i]);
                pad(&b, trend_w[i] - width(r->cols[i]));
            }
        } else {
            pr_buf_puts(&b, r->cols[0]);
            pad(&b, val_w - width(r->cols[0]));
            for (int i = 1; i < r->ncols; i++) {
                pr_buf_printf(&b, " %s", r->cols[i]);
                if (r->ncols > 2)
                    pad(&b, extra_w[i - 1] - width(r->cols[i]));
            }
        }
        pr_buf_putc(&b, '\n');
    }
    free(rows);
    return pr_buf_steal(&b);
}
