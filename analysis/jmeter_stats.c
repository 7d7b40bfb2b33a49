/* JMeter-dashboard-compatible statistics (see jmeter_stats.h); formulas follow JMeter 5.6's
 * StatisticsSummaryData / ApdexSummaryConsumer so the doubles come out the same. */
#include "analysis/jmeter_stats.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/cellsort.h"
#include "analysis/rsort.h"
#include "analysis/vals.h"
#include "model/xalloc.h"

void pr_jstats_opts_default(pr_jstats_opts *o)
{
    memset(o, 0, sizeof *o);
    o->apdex_satisfied_ms = 500;
    o->apdex_tolerated_ms = 1500;
    o->percentiles = PR_JSTATS_PCT_EXACT;
    o->pct[0] = 90;
    o->pct[1] = 95;
    o->pct[2] = 99;
    o->window = 20000;
}

double pr_jstats_pct_exact(const double *v, size_t n, double p)
{
    double r = ceil(p / 100.0 * (double)n);
    size_t k = r < 1 ? 1 : (size_t)r;
    if (k > n)
        k = n;
    return v[k - 1];
}

double pr_jstats_pct_legacy(const double *v, size_t n, double p)
{
    double pos = p * ((double)n + 1) / 100.0;
    double fpos = floor(pos);
    double dif = pos - fpos;
    if (pos < 1)
        return v[0];
    if (pos >= (double)n)
        return v[n - 1];
    size_t ip = (size_t)fpos;
    double lower = v[ip - 1], upper = v[ip];
    return lower + dif * (upper - lower);
}

typedef struct acc {
    uint64_t n, errors, sat, tol, apdex_n;
    double sum_ms;
    int64_t min_ns, max_ns, first_ms, last_ms;
    int64_t bytes, sent;
    int is_tc;
    uint32_t label; /* the run string id of the label */
    int64_t *win;   /* JMeter's estimator: the last opts.window elapsed times (ns), a ring */
    size_t nwin, wcap;
    pr_vals hist; /* bounded mode */
    double q[4];  /* median, pct[0..2] (ms), from the sorted pass */
} acc;

static void acc_init(acc *a, int bounded)
{
    memset(a, 0, sizeof *a);
    pr_vals_init(&a->hist, bounded);
    a->min_ns = INT64_MAX;
    a->max_ns = INT64_MIN;
    a->first_ms = INT64_MAX;
    a->last_ms = INT64_MIN;
}

/* Adds one sample; `stats` = counts toward the statistics columns, `apdex` = toward Apdex. */
static void acc_add(acc *a, const pr_sample *s, const pr_jstats_opts *o, int stats, int apdex)
{
    int64_t el = s->latency_ns == PR_UNKNOWN ? 0 : s->latency_ns;
    if (apdex) {
        a->apdex_n++;
        if (s->success == PR_OK_SUCCESS) {
            if (el <= o->apdex_satisfied_ms * 1000000)
                a->sat++;
            else if (el <= o->apdex_tolerated_ms * 1000000)
                a->tol++;
        }
    }
    if (!stats)
        return;
    a->n++;
    if (s->success == PR_FAIL)
        a->errors++;
    double ms = (double)el / 1e6;
    a->sum_ms += ms;
    if (el < a->min_ns)
        a->min_ns = el;
    if (el > a->max_ns)
        a->max_ns = el;
    /* JMeter works in whole milliseconds: start = timeStamp, end = start + elapsed */
    int64_t st = s->start_ns / 1000000 - (s->start_ns % 1000000 < 0);
    int64_t en = st + el / 1000000;
    if (st < a->first_ms)
        a->first_ms = st;
    if (en > a->last_ms)
        a->last_ms = en;
    /* sums saturate instead of overflowing on absurd inputs */
    if (s->bytes_in != PR_UNKNOWN && __builtin_add_overflow(a->bytes, s->bytes_in, &a->bytes))
        a->bytes = s->bytes_in > 0 ? INT64_MAX : INT64_MIN;
    if (s->bytes_out != PR_UNKNOWN && __builtin_add_overflow(a->sent, s->bytes_out, &a->sent))
        a->sent = s->bytes_out > 0 ? INT64_MAX : INT64_MIN;
    if (o->percentiles == PR_JSTATS_PCT_JMETER) { /* the last `window` in input order */
        size_t w = o->window ? o->window : SIZE_MAX;
        if (a->nwin < w && a->nwin == a->wcap)
            a->win = pr_xgrow(a->win, &a->wcap, a->nwin + 1, sizeof *a->win);
        a->win[a->nwin < w ? a->nwin : (a->n - 1) % w] = el;
        if (a->nwin < w)
            a->nwin++;
    } else if (a->hist.bounded) {
        pr_vals_add(&a->hist, el);
    }
}

/* JMeter's estimator over the window (its values sorted, in ms), into a->q. */
static void window_quantiles(acc *a, const pr_jstats_opts *o)
{
    double *v = pr_xmalloc((a->nwin ? a->nwin : 1) * sizeof *v);
    pr_rsort_i64(a->win, a->nwin);
    for (size_t i = 0; i < a->nwin; i++)
        v[i] = (double)a->win[i] / 1e6;
    a->q[0] = pr_jstats_pct_legacy(v, a->nwin, 50);
    for (int i = 0; i < 3; i++)
        a->q[i + 1] = pr_jstats_pct_legacy(v, a->nwin, o->pct[i]);
    free(v);
}

static void finish(pr_jstats_row *r, acc *a, const pr_jstats_opts *o)
{
    r->samples = a->n;
    r->errors = a->errors;
    r->apdex_satisfied = a->sat;
    r->apdex_tolerated = a->tol;
    r->apdex = a->apdex_n ? ((double)a->sat + (double)a->tol / 2) / (double)a->apdex_n : 0;
    r->is_transaction = a->is_tc;
    if (a->n == 0)
        return;
    r->error_pct = (double)a->errors * 100 / (double)a->n;
    r->mean_ms = a->sum_ms / (double)a->n;
    r->min_ms = (double)a->min_ns / 1e6;
    r->max_ms = (double)a->max_ns / 1e6;
    r->first_start_ms = a->first_ms;
    r->last_end_ms = a->last_ms;
    double el = (double)(a->last_ms - a->first_ms);
    if (el > 0) {
        r->throughput_per_s = ((double)a->n / el) * 1000.0;
        r->received_kb_per_s = ((double)a->bytes / (el / 1000)) / 1024;
        r->sent_kb_per_s = ((double)a->sent / (el / 1000)) / 1024;
    }
    if (o->percentiles == PR_JSTATS_PCT_JMETER) {
        window_quantiles(a, o);
    } else if (a->hist.bounded) {
        a->q[0] = (double)pr_vals_percentile(&a->hist, 50) / 1e6;
        for (int i = 0; i < 3; i++)
            a->q[i + 1] = (double)pr_vals_percentile(&a->hist, o->pct[i]) / 1e6;
    }
    r->median_ms = a->q[0];
    for (int i = 0; i < 3; i++)
        r->pct_ms[i] = a->q[i + 1];
}

/* The rank pr_jstats_pct_exact reads. */
static size_t exact_rank(size_t n, double p)
{
    double r = ceil(p / 100.0 * (double)n);
    size_t k = r < 1 ? 1 : (size_t)r;
    return k > n ? n : k;
}

/* A row's (or Total's) exact quantiles as the sorted elapsed times go by. */
typedef struct qrow {
    size_t seen, rank[4], next;
    int order[4]; /* slots of a->q by ascending rank */
} qrow;

static void qrow_init(qrow *q, const acc *a, const pr_jstats_opts *o)
{
    memset(q, 0, sizeof *q);
    double ps[4] = {50, o->pct[0], o->pct[1], o->pct[2]};
    for (int i = 0; i < 4; i++) {
        int j = i;
        size_t r = a->n ? exact_rank(a->n, ps[i]) : 0;
        while (j > 0 && q->rank[j - 1] > r) {
            q->rank[j] = q->rank[j - 1];
            q->order[j] = q->order[j - 1];
            j--;
        }
        q->rank[j] = r;
        q->order[j] = i;
    }
}

static inline void qrow_step(qrow *q, acc *a, int64_t el)
{
    q->seen++;
    while (q->next < 4 && q->rank[q->next] == q->seen)
        a->q[q->order[q->next++]] = (double)el / 1e6;
}

/* Exact mode: every row's and Total's quantiles from the elapsed times sorted with their
 * cells (dense label index * 2 + Transaction Controller flag). */
static void exact_quantiles(pr_cellsort *cs, acc *per, size_t nd, acc *tot, const pr_jstats_opts *o)
{
    pr_cellsort_sort(cs);
    qrow *q = pr_xcalloc(nd + 1, sizeof *q), tq;
    for (size_t d = 0; d < nd; d++)
        qrow_init(&q[d], &per[d], o);
    qrow_init(&tq, tot, o);
    pr_cellsort_it it;
    pr_cellsort_it_init(&it, cs);
    int64_t v;
    uint32_t c;
    while (pr_cellsort_next(&it, &v, &c)) {
        qrow_step(&q[c >> 1], &per[c >> 1], v);
        if (!(c & 1))
            qrow_step(&tq, tot, v);
    }
    free(q);
}

static int cmp_row(const void *a, const void *b)
{
    return strcmp(((const pr_jstats_row *)a)->label, ((const pr_jstats_row *)b)->label);
}

struct pr_jstats_acc {
    pr_jstats *st;
    const pr_run *run;
    uint32_t nid;
    uint32_t *dense; /* run string id -> index of its label's accumulator + 1 */
    acc *per;        /* the labels, in the order first seen */
    size_t nper, cap;
    acc tot;
    pr_cellsort cs; /* exact mode: (elapsed ns, label index * 2 + TC flag) of every sample */
    int exact, bounded;
};

pr_jstats_acc *pr_jstats_new(const pr_run *run, const pr_jstats_opts *o, size_t expected,
                             int bounded)
{
    pr_jstats_acc *a = pr_xcalloc(1, sizeof *a);
    a->st = pr_xcalloc(1, sizeof *a->st);
    if (o)
        a->st->opts = *o;
    else
        pr_jstats_opts_default(&a->st->opts);
    a->run = run;
    a->nid = pr_strtab_count(run->strings);
    a->dense = pr_xcalloc(a->nid ? a->nid : 1, sizeof *a->dense);
    int legacy = a->st->opts.percentiles == PR_JSTATS_PCT_JMETER;
    a->exact = !legacy && !bounded;
    a->bounded = bounded && !legacy;
    acc_init(&a->tot, a->bounded);
    if (a->exact)
        pr_cellsort_init(&a->cs, expected);
    return a;
}

/* The accumulator of label l (a run string id), made when first seen. */
static size_t label_acc(pr_jstats_acc *a, uint32_t l)
{
    if (a->dense[l])
        return a->dense[l] - 1;
    a->per = pr_xgrow(a->per, &a->cap, a->nper + 1, sizeof *a->per);
    acc_init(&a->per[a->nper], a->bounded);
    a->per[a->nper].label = l;
    a->dense[l] = (uint32_t)++a->nper;
    return a->nper - 1;
}

void pr_jstats_add(pr_jstats_acc *a, const pr_sample *s, size_t n)
{
    const pr_jstats_opts *o = &a->st->opts;
    for (size_t i = 0; i < n; i++) {
        uint32_t l = s[i].label < a->nid ? s[i].label : 0;
        int tc = (s[i].flags & PR_SF_TRANSACTION) != 0;
        size_t d = label_acc(a, l);
        acc *p = &a->per[d];
        acc_add(p, &s[i], o, 1, 1);
        if (tc)
            p->is_tc = 1;
        acc_add(&a->tot, &s[i], o, !tc, 1);
        if (a->exact) {
            int64_t el = s[i].latency_ns == PR_UNKNOWN ? 0 : s[i].latency_ns;
            pr_cellsort_add(&a->cs, el, (uint32_t)d << 1 | (uint32_t)tc);
        }
    }
}

pr_jstats *pr_jstats_finish(pr_jstats_acc *a)
{
    pr_jstats *st = a->st;
    if (a->exact) {
        exact_quantiles(&a->cs, a->per, a->nper, &a->tot, &st->opts);
        pr_cellsort_dispose(&a->cs);
    }
    st->nrows = a->nper;
    st->rows = pr_xcalloc(st->nrows ? st->nrows : 1, sizeof *st->rows);
    for (size_t k = 0; k < a->nper; k++) {
        acc *p = &a->per[k];
        st->rows[k].label = pr_xstrdup(pr_run_str(a->run, p->label));
        finish(&st->rows[k], p, &st->opts);
        free(p->win);
        pr_vals_dispose(&p->hist);
    }
    st->total.label = pr_xstrdup("Total");
    finish(&st->total, &a->tot, &st->opts);
    free(a->tot.win);
    pr_vals_dispose(&a->tot.hist);
    free(a->per);
    free(a->dense);
    free(a);
    qsort(st->rows, st->nrows, sizeof *st->rows, cmp_row);
    return st;
}

pr_jstats *pr_jstats_compute(const pr_sample *s, size_t n, const pr_run *run,
                             const pr_jstats_opts *o)
{
    pr_jstats_acc *a = pr_jstats_new(run, o, n, 0);
    pr_jstats_add(a, s, n);
    return pr_jstats_finish(a);
}

void pr_jstats_free(pr_jstats *st)
{
    if (!st)
        return;
    for (size_t i = 0; i < st->nrows; i++)
        free(st->rows[i].label);
    free(st->rows);
    free(st->total.label);
    free(st);
}

static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *row_json(const pr_jstats_row *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "transaction", json_string(r->label));
    json_object_set_new(o, "sampleCount", json_integer((json_int_t)r->samples));
    json_object_set_new(o, "errorCount", json_integer((json_int_t)r->errors));
    json_object_set_new(o, "errorPct", num(r->error_pct));
    json_object_set_new(o, "meanResTime", num(r->mean_ms));
    json_object_set_new(o, "medianResTime", num(r->median_ms));
    json_object_set_new(o, "minResTime", num(r->min_ms));
    json_object_set_new(o, "maxResTime", num(r->max_ms));
    json_object_set_new(o, "pct1ResTime", num(r->pct_ms[0]));
    json_object_set_new(o, "pct2ResTime", num(r->pct_ms[1]));
    json_object_set_new(o, "pct3ResTime", num(r->pct_ms[2]));
    json_object_set_new(o, "throughput", num(r->throughput_per_s));
    json_object_set_new(o, "receivedKBytesPerSec", num(r->received_kb_per_s));
    json_object_set_new(o, "sentKBytesPerSec", num(r->sent_kb_per_s));
    return o;
}

json_t *pr_jstats_json(const pr_jstats *st)
{
    json_t *o = json_object();
    json_object_set_new(o, "Total", row_json(&st->total));
    for (size_t i = 0; i < st->nrows; i++)
        if (strcmp(st->rows[i].label, "Total") != 0)
            json_object_set_new(o, st->rows[i].label, row_json(&st->rows[i]));
    return o;
}

static json_t *apdex_item(const pr_jstats_row *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "label", json_string(r->label));
    json_object_set_new(o, "apdex", num(r->apdex));
    json_object_set_new(o, "satisfied", json_integer((json_int_t)r->apdex_satisfied));
    json_object_set_new(o, "tolerated", json_integer((json_int_t)r->apdex_tolerated));
    return o;
}

json_t *pr_jstats_apdex_json(const pr_jstats *st)
{
    json_t *o = json_object();
    json_t *t = json_object();
    json_object_set_new(t, "satisfied_ms", json_integer(st->opts.apdex_satisfied_ms));
    json_object_set_new(t, "tolerated_ms", json_integer(st->opts.apdex_tolerated_ms));
    json_object_set_new(o, "thresholds", t);
    json_object_set_new(o, "overall", apdex_item(&st->total));
    json_t *items = json_array();
    for (size_t i = 0; i < st->nrows; i++)
        json_array_append_new(items, apdex_item(&st->rows[i]));
    json_object_set_new(o, "items", items);
    return o;
}

/* Writes o (stolen) indented, keys in order. */
static int write_json(json_t *o, FILE *f, const char *path, pr_error *err)
{
    int rc = json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(o);
    if (rc != 0 || fputc('\n', f) == EOF || fflush(f) != 0)
        return pr_error_set(err, PR_EIO, path, 0, 0, "cannot write the statistics JSON");
    return 0;
}

int pr_jstats_write(const pr_jstats *st, FILE *f, const char *path, pr_error *err)
{
    return write_json(pr_jstats_json(st), f, path, err);
}

static double sum_num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* ns in a printed distribution → ms (NaN when not printed). */
static double sum_ms(const json_t *dist, const char *k)
{
    return sum_num(dist, k) / 1e6;
}

json_t *pr_jstats_summary_json(const pr_run *run)
{
    const json_t *s = run->summary, *lat = json_object_get(s, "latency_ns");
    pr_jstats_row r;
    memset(&r, 0, sizeof r);
    r.label = (char *)"Total";
    double n = sum_num(s, "requests"), bad = sum_num(s, "failures");
    if (!isfinite(bad) && isfinite(sum_num(s, "successes")))
        bad = n - sum_num(s, "successes");
    r.error_pct = n > 0 ? bad * 100 / n : NAN;
    r.mean_ms = sum_ms(lat, "mean");
    r.median_ms = sum_ms(lat, "p50");
    r.min_ms = sum_ms(lat, "min");
    r.max_ms = sum_ms(lat, "max");
    static const char *const pk[3] = {"p90", "p95", "p99"};
    for (int i = 0; i < 3; i++)
        r.pct_ms[i] = sum_ms(lat, pk[i]);
    /* JMeter's throughput and byte rates are over the whole test: duration + wait, or for a
     * tool that prints no wait (its time covers it) requests / its rate, which it computed
     * from its time before rounding it */
    double rate = sum_num(s, "rate_per_s"), wait = sum_num(s, "wait_ns");
    double secs =
        isfinite(wait) || !(rate > 0) ? (sum_num(s, "duration_ns") + wait) / 1e9 : n / rate;
    if (!isfinite(wait) && !(rate > 0))
        secs = sum_num(s, "duration_ns") / 1e9;
    r.throughput_per_s = secs > 0 ? n / secs : NAN;
    r.received_kb_per_s = secs > 0 ? sum_num(s, "bytes_in_total") / secs / 1024 : NAN;
    r.sent_kb_per_s = secs > 0 ? sum_num(s, "bytes_out_total") / secs / 1024 : NAN;
    json_t *row = row_json(&r);
    json_object_set_new(row, "sampleCount",
                        isfinite(n) ? json_integer((json_int_t)n) : json_null());
    json_object_set_new(row, "errorCount",
                        isfinite(bad) ? json_integer((json_int_t)bad) : json_null());
    json_t *o = json_object();
    json_object_set_new(o, "Total", row);
    return o;
}

int pr_jstats_write_summary(const pr_run *run, FILE *f, const char *path, pr_error *err)
{
    return write_json(pr_jstats_summary_json(run), f, path, err);
}
