/* Gatling's and Locust's console summaries from a run (see peer_stats.h). */
#include "analysis/peer_stats.h"
#include "analysis/cellsort.h"
#include "analysis/vals.h"
#include "model/xalloc.h"
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Gatling ---- */

/* One side (all, OK, KO) of Gatling's table: response times in whole ms, as Gatling records
 * them; exact from the sorted pass or a histogram (bounded). */
typedef struct gside {
    uint64_t n;
    long double sum;
    pr_qdist q;   /* exact: percentiles 50, 75, 95, 99 */
    pr_vals hist; /* bounded */
} gside;

static const double gatling_pcts[4] = {50, 75, 95, 99};

static void gcell(char *buf, size_t cap, gside *g, int what, int pct, double secs)
{
    size_t n = (size_t)g->n;
    if (what == 0) {
        snprintf(buf, cap, "%zu", n);
        return;
    }
    if (n == 0) {
        snprintf(buf, cap, "-");
        return;
    }
    pr_dist d;
    if (g->hist.bounded)
        pr_vals_dist(&g->hist, &d);
    else
        pr_qdist_dist(&g->q, &d);
    switch (what) {
    case 1: snprintf(buf, cap, "%lld", (long long)d.min); break;
    case 2: snprintf(buf, cap, "%lld", (long long)d.max); break;
    case 3: snprintf(buf, cap, "%.0f", d.mean); break;
    case 4: snprintf(buf, cap, "%.0f", d.stdev); break;
    case 5:
        snprintf(buf, cap, "%lld",
                 (long long)(g->hist.bounded ? pr_vals_percentile(&g->hist, gatling_pcts[pct])
                                             : g->q.q[pct]));
        break;
    default:
        if (secs > 0)
            snprintf(buf, cap, "%.3f", (double)n / secs);
        else
            snprintf(buf, cap, "-");
    }
}

struct pr_gatling_acc {
    gside side[3]; /* all, OK, KO */
    int64_t t0, t1;
    size_t band[3];
    pr_cellsort cs; /* exact: (ms, good) of every request */
    int bounded;
};

pr_gatling_acc *pr_gatling_new(size_t expected, int bounded)
{
    pr_gatling_acc *a = pr_xcalloc(1, sizeof *a);
    a->t0 = INT64_MAX;
    a->t1 = INT64_MIN;
    a->bounded = bounded;
    for (int k = 0; k < 3; k++)
        pr_vals_init(&a->side[k].hist, bounded);
    if (!bounded)
        pr_cellsort_init(&a->cs, expected);
    return a;
}

void pr_gatling_add(pr_gatling_acc *a, const pr_sample *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i].flags & PR_SF_TRANSACTION)
            continue; /* Gatling's global stats count requests only */
        int64_t ms = s[i].latency_ns / 1000000;
        int good = pr_sample_outcome(&s[i]) != 0;
        gside *sides[2] = {&a->side[0], &a->side[good ? 1 : 2]};
        for (int k = 0; k < 2; k++) {
            sides[k]->n++;
            sides[k]->sum += ms;
            if (a->bounded)
                pr_vals_add(&sides[k]->hist, ms);
        }
        if (!a->bounded)
            pr_cellsort_add(&a->cs, ms, (uint32_t)good);
        if (good)
            a->band[ms < 800 ? 0 : ms < 1200 ? 1 : 2]++;
        if (s[i].start_ns < a->t0)
            a->t0 = s[i].start_ns;
        if (s[i].start_ns + s[i].latency_ns > a->t1)
            a->t1 = s[i].start_ns + s[i].latency_ns;
    }
}

/* Exact mode: the three sides' figures in one pass over the sorted times. */
static void gatling_exact(pr_gatling_acc *a)
{
    for (int k = 0; k < 3; k++)
        pr_qdist_init(&a->side[k].q, a->side[k].n, a->side[k].sum, gatling_pcts, 4);
    pr_cellsort_sort(&a->cs);
    pr_cellsort_it it;
    pr_cellsort_it_init(&it, &a->cs);
    int64_t v;
    uint32_t good;
    while (pr_cellsort_next(&it, &v, &good)) {
        pr_qdist_step(&a->side[0].q, v);
        pr_qdist_step(&a->side[good ? 1 : 2].q, v);
    }
    pr_cellsort_dispose(&a->cs);
}

void pr_gatling_finish(pr_gatling_acc *a, pr_buf *out)
{
    if (!a->bounded)
        gatling_exact(a);
    double secs = a->t1 > a->t0 ? (double)(a->t1 - a->t0) / 1e9 : 0;
    static const struct {
        const char *title;
        int what;
        int pct;
    } rows[] = {{"request count", 0, 0},
                {"min response time", 1, 0},
                {"max response time", 2, 0},
                {"mean response time", 3, 0},
                {"std deviation", 4, 0},
                {"response time 50th percentile", 5, 0},
                {"response time 75th percentile", 5, 1},
                {"response time 95th percentile", 5, 2},
                {"response time 99th percentile", 5, 3},
                {"mean requests/sec", 6, 0}};
    pr_buf_puts(
        out, "================================================================================\n"
             "---- Global Information --------------------------------------------------------\n");
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        char c[3][32];
        for (int k = 0; k < 3; k++)
            gcell(c[k], sizeof c[k], &a->side[k], rows[r].what, rows[r].pct, secs);
        pr_buf_printf(out, "> %-48s%8s (OK=%-6s KO=%-6s)\n", rows[r].title, c[0], c[1], c[2]);
    }
    size_t total = (size_t)a->side[0].n, failed = (size_t)a->side[2].n;
    static const char *const bands[] = {"t < 800 ms", "800 ms <= t < 1200 ms", "t >= 1200 ms"};
    pr_buf_puts(
        out, "---- Response Time Distribution ------------------------------------------------\n");
    for (int k = 0; k < 4; k++) {
        size_t v = k < 3 ? a->band[k] : failed;
        pr_buf_printf(out, "> %-48s%8zu (%3.0f%%)\n", k < 3 ? bands[k] : "failed", v,
                      total ? 100.0 * (double)v / (double)total : 0.0);
    }
    pr_buf_puts(
        out, "================================================================================\n");
    for (int k = 0; k < 3; k++)
        pr_vals_dispose(&a->side[k].hist);
    pr_cellsort_dispose(&a->cs);
    free(a);
}

void pr_gatling_console(const pr_run *run, const pr_sample *s, size_t n, pr_buf *out)
{
    (void)run;
    pr_gatling_acc *a = pr_gatling_new(n, 0);
    pr_gatling_add(a, s, n);
    pr_gatling_finish(a, out);
}

/* ---- Locust ---- */

typedef struct lrow {
    char type[16];
    const char *name;
    int64_t reqs, fails;
    double avg_ms, min_ms, max_ms, med_ms, rps, fps;
} lrow;

/* Locust's console table as its stats.py prints it: 2.x's (get_stats_summary and
 * StatsEntry.to_string) with the name column of a non-terminal (STATS_NAME_WIDTH 80, so 76),
 * or, for a file of a Locust that wrote no failures/s (≤ 0.13's _requests.csv), 0.9's
 * (print_stats, STATS_NAME_WIDTH 60): no failures/s column, a Total line of its own. Numbers
 * go through Python's %d, which truncates (a 0.55 ms minimum prints 0), and %-Ns pads by
 * code points, not display width. */
#define LOCUST_NAME_W 76
#define LOCUST_OLD_NAME_W 60

/* s left-aligned in width code points, as Python's %-Ns. */
static void lpad(pr_buf *out, const char *s, size_t width)
{
    size_t cp = 0;
    for (const char *q = s; *q; q++)
        cp += ((unsigned char)*q & 0xC0) != 0x80;
    pr_buf_puts(out, s);
    for (; cp < width; cp++)
        pr_buf_putc(out, ' ');
}

/* Python's '%7d' % x for a float x: int(x), toward zero. */
static long long ltrunc(double x)
{
    return isfinite(x) ? (long long)x : 0;
}

static void lsep(pr_buf *out, int old)
{
    if (old) {
        for (int i = 0; i < 80 + LOCUST_OLD_NAME_W; i++)
            pr_buf_putc(out, '-');
        pr_buf_putc(out, '\n');
        return;
    }
    pr_buf_puts(out, "--------|");
    for (int i = 0; i < LOCUST_NAME_W; i++)
        pr_buf_putc(out, '-');
    pr_buf_puts(out,
                "|-------|-------------|-------|-------|-------|-------|--------|-----------\n");
}

static void lprint_head(pr_buf *out, int old)
{
    if (old) {
        pr_buf_putc(out, ' ');
        lpad(out, "Name", LOCUST_OLD_NAME_W);
        pr_buf_printf(out, " %7s %12s %7s %7s %7s  | %7s %7s\n", "# reqs", "# fails", "Avg", "Min",
                      "Max", "Median", "req/s");
    } else {
        pr_buf_printf(out, "%-8s ", "Type");
        lpad(out, "Name", LOCUST_NAME_W);
        pr_buf_printf(out, " %7s %12s |%7s %7s %7s%7s | %7s %11s\n", "# reqs", "# fails", "Avg",
                      "Min", "Max", "Med", "req/s", "failures/s");
    }
    lsep(out, old);
}

static void lprint(pr_buf *out, const lrow *r, int old)
{
    char fails[48];
    /* 0.9 counted failures apart from requests: its ratio is failures / (requests + failures) */
    int64_t of = old ? r->reqs + r->fails : r->reqs;
    snprintf(fails, sizeof fails, "%lld(%.2f%%)", (long long)r->fails,
             of ? 100.0 * (double)r->fails / (double)of : 0.0);
    if (old) {
        char name[600];
        snprintf(name, sizeof name, "%s%s%s", r->type, *r->type ? " " : "", r->name);
        pr_buf_putc(out, ' ');
        lpad(out, name, LOCUST_OLD_NAME_W);
        pr_buf_printf(out, " %7lld %12s %7lld %7lld %7lld  | %7lld %7.2f\n", (long long)r->reqs,
                      fails, ltrunc(r->avg_ms), ltrunc(r->min_ms), ltrunc(r->max_ms),
                      ltrunc(r->med_ms), r->rps);
        return;
    }
    pr_buf_printf(out, "%-8s ", r->type);
    lpad(out, r->name, LOCUST_NAME_W);
    pr_buf_printf(out, " %7lld %12s |%7lld %7lld %7lld%7lld | %7.2f %11.2f\n", (long long)r->reqs,
                  fails, ltrunc(r->avg_ms), ltrunc(r->min_ms), ltrunc(r->max_ms), ltrunc(r->med_ms),
                  r->rps, isfinite(r->fps) ? r->fps : 0.0);
}

/* 0.9's Total line: requests, failures and the summed rate. */
static void lprint_old_total(pr_buf *out, const lrow *t)
{
    char fails[48];
    int64_t of = t->reqs + t->fails;
    snprintf(fails, sizeof fails, "%lld(%.2f%%)", (long long)t->fails,
             of ? 100.0 * (double)t->fails / (double)of : 0.0);
    pr_buf_putc(out, ' ');
    lpad(out, "Total", LOCUST_OLD_NAME_W);
    pr_buf_printf(out, " %7lld %12s %42.2f\n", (long long)t->reqs, fails, t->rps);
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
    /* a Locust that wrote no failures/s (≤ 0.13) printed 0.9's table */
    int old = !json_object_get(run->summary, "failures_per_s");
    lprint_head(out, old);
    json_array_foreach (json_object_get(run->summary, "labels"), i, l) {
        lrow r;
        split_label(json_string_value(json_object_get(l, "label"))
                        ? json_string_value(json_object_get(l, "label"))
                        : "",
                    &r);
        lrow_json(l, &r);
        lprint(out, &r, old);
    }
    lrow t = {"", "Aggregated", 0, 0, 0, 0, 0, 0, 0, 0};
    lrow_json(run->summary, &t);
    lsep(out, old);
    if (old)
        lprint_old_total(out, &t);
    else
        lprint(out, &t, 0);
}

typedef struct lacc {
    uint32_t label;
    uint64_t n;
    int64_t fails;
    long double sum;
    pr_qdist q;   /* exact: the median */
    pr_vals hist; /* bounded */
} lacc;

static void lacc_row(lacc *a, lrow *r, double secs)
{
    pr_dist d;
    size_t n = (size_t)a->n;
    r->reqs = (int64_t)n;
    r->fails = a->fails;
    if (n) {
        if (a->hist.bounded)
            pr_vals_dist(&a->hist, &d);
        else
            pr_qdist_dist(&a->q, &d);
        r->avg_ms = d.mean / 1e6;
        r->min_ms = (double)d.min / 1e6;
        r->max_ms = (double)d.max / 1e6;
        r->med_ms = (double)(a->hist.bounded ? pr_vals_percentile(&a->hist, 50) : a->q.q[0]) / 1e6;
    }
    r->rps = secs > 0 ? (double)n / secs : 0;
    r->fps = secs > 0 ? (double)a->fails / secs : 0;
}

struct pr_locust_acc {
    const pr_run *run;
    uint32_t *dense; /* label id -> index in per + 1 */
    size_t dense_cap;
    lacc *per, all;
    size_t nper, cap;
    int64_t t0, t1;
    pr_cellsort cs; /* exact: (latency, label index) of every request */
    int bounded;
    size_t given; /* samples given, transactions included (none: the run's own table) */
};

pr_locust_acc *pr_locust_new(const pr_run *run, size_t expected, int bounded)
{
    pr_locust_acc *a = pr_xcalloc(1, sizeof *a);
    a->run = run;
    a->t0 = INT64_MAX;
    a->t1 = INT64_MIN;
    a->bounded = bounded;
    pr_vals_init(&a->all.hist, bounded);
    if (!bounded)
        pr_cellsort_init(&a->cs, expected);
    return a;
}

static size_t locust_label(pr_locust_acc *a, uint32_t id)
{
    if (id >= a->dense_cap) {
        size_t old = a->dense_cap;
        a->dense = pr_xgrow(a->dense, &a->dense_cap, (size_t)id + 1, sizeof *a->dense);
        memset(a->dense + old, 0, (a->dense_cap - old) * sizeof *a->dense);
    }
    if (!a->dense[id]) {
        a->per = pr_xgrow(a->per, &a->cap, a->nper + 1, sizeof *a->per);
        memset(&a->per[a->nper], 0, sizeof a->per[a->nper]);
        a->per[a->nper].label = id;
        pr_vals_init(&a->per[a->nper].hist, a->bounded);
        a->dense[id] = (uint32_t)++a->nper;
    }
    return a->dense[id] - 1;
}

void pr_locust_add(pr_locust_acc *a, const pr_sample *s, size_t n)
{
    a->given += n;
    for (size_t i = 0; i < n; i++) {
        if (s[i].flags & PR_SF_TRANSACTION)
            continue;
        int bad = pr_sample_outcome(&s[i]) == 0;
        size_t d = locust_label(a, s[i].label);
        lacc *rows[2] = {&a->per[d], &a->all};
        for (int k = 0; k < 2; k++) {
            rows[k]->n++;
            rows[k]->sum += s[i].latency_ns;
            rows[k]->fails += bad;
            if (a->bounded)
                pr_vals_add(&rows[k]->hist, s[i].latency_ns);
        }
        if (!a->bounded)
            pr_cellsort_add(&a->cs, s[i].latency_ns, (uint32_t)d);
        if (s[i].start_ns < a->t0)
            a->t0 = s[i].start_ns;
        if (s[i].start_ns + s[i].latency_ns > a->t1)
            a->t1 = s[i].start_ns + s[i].latency_ns;
    }
}

static int cmp_lacc(const void *x, const void *y)
{
    const lacc *a = x, *b = y;
    return (a->label > b->label) - (a->label < b->label);
}

/* Exact mode: every label's and the aggregate's figures in one pass over sorted latencies. */
static void locust_exact(pr_locust_acc *a)
{
    static const double med[1] = {50};
    for (size_t d = 0; d < a->nper; d++)
        pr_qdist_init(&a->per[d].q, a->per[d].n, a->per[d].sum, med, 1);
    pr_qdist_init(&a->all.q, a->all.n, a->all.sum, med, 1);
    pr_cellsort_sort(&a->cs);
    pr_cellsort_it it;
    pr_cellsort_it_init(&it, &a->cs);
    int64_t v;
    uint32_t d;
    while (pr_cellsort_next(&it, &v, &d)) {
        pr_qdist_step(&a->per[d].q, v);
        pr_qdist_step(&a->all.q, v);
    }
    pr_cellsort_dispose(&a->cs);
}

void pr_locust_finish(pr_locust_acc *a, pr_buf *out)
{
    if (!a->given) {
        locust_from_summary(a->run, out);
    } else {
        if (!a->bounded)
            locust_exact(a);
        qsort(a->per, a->nper, sizeof *a->per, cmp_lacc); /* in label id order */
        double secs = a->t1 > a->t0 ? (double)(a->t1 - a->t0) / 1e9 : 0;
        lprint_head(out, 0);
        for (size_t d = 0; d < a->nper; d++) {
            lrow r;
            memset(&r, 0, sizeof r);
            split_label(pr_run_str(a->run, a->per[d].label), &r);
            lacc_row(&a->per[d], &r, secs);
            lprint(out, &r, 0);
        }
        lrow t = {"", "Aggregated", 0, 0, 0, 0, 0, 0, 0, 0};
        lacc_row(&a->all, &t, secs);
        lsep(out, 0);
        lprint(out, &t, 0);
    }
    for (size_t d = 0; d < a->nper; d++)
        pr_vals_dispose(&a->per[d].hist);
    pr_vals_dispose(&a->all.hist);
    pr_cellsort_dispose(&a->cs);
    free(a->per);
    free(a->dense);
    free(a);
}

void pr_locust_console(const pr_run *run, const pr_sample *s, size_t n, pr_buf *out)
{
    pr_locust_acc *a = pr_locust_new(run, n, 0);
    pr_locust_add(a, s, n);
    pr_locust_finish(a, out);
}
