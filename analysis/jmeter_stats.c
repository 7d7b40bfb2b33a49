/* JMeter-dashboard-compatible statistics (see jmeter_stats.h); formulas follow JMeter 5.6's
 * StatisticsSummaryData / ApdexSummaryConsumer so the doubles come out the same. */
#include "analysis/jmeter_stats.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct acc {
    uint64_t n, errors, sat, tol, apdex_n;
    double sum_ms;
    int64_t min_ns, max_ns, first_ms, last_ms;
    int64_t bytes, sent;
    int is_tc;
    double *vals;     /* elapsed ms in input order */
    size_t nv, cap;
} acc;

static void acc_init(acc *a)
{
    memset(a, 0, sizeof *a);
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
    if (a->nv == a->cap)
        a->vals = pr_xgrow(a->vals, &a->cap, a->nv + 1, sizeof *a->vals);
    a->vals[a->nv++] = ms;
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
    double *v = a->vals;
    size_t nv = a->nv;
    if (o->percentiles == PR_JSTATS_PCT_JMETER && o->window && nv > o->window) {
        v += nv - o->window;
        nv = o->window;
    }
    qsort(v, nv, sizeof *v, cmp_double);
    double (*f)(const double *, size_t, double) =
        o->percentiles == PR_JSTATS_PCT_JMETER ? pr_jstats_pct_legacy : pr_jstats_pct_exact;
    r->median_ms = f(v, nv, 50);
    for (int i = 0; i < 3; i++)
        r->pct_ms[i] = f(v, nv, o->pct[i]);
}


static int cmp_row(const void *a, const void *b)
{
    return strcmp(((const pr_jstats_row *)a)->label, ((const pr_jstats_row *)b)->label);
}

pr_jstats *pr_jstats_compute(const pr_sample *s, size_t n, const pr_run *run,
                             const pr_jstats_opts *o)
{
    pr_jstats *st = pr_xcalloc(1, sizeof *st);
    if (o)
        st->opts = *o;
    else
        pr_jstats_opts_default(&st->opts);
    uint32_t nid = pr_strtab_count(run->strings);
    acc *per = pr_xmalloc((size_t)nid * sizeof *per);
    for (uint32_t i = 0; i < nid; i++)
        acc_init(&per[i]);
    acc tot;
    acc_init(&tot);
    for (size_t i = 0; i < n; i++) {
        uint32_t l = s[i].label < nid ? s[i].label : 0;
        int tc = (s[i].flags & PR_SF_TRANSACTION) != 0;
        acc_add(&per[l], &s[i], &st->opts, 1, 1);
        if (tc)
            per[l].is_tc = 1;
        acc_add(&tot, &s[i], &st->opts, !tc, 1);
    }
    for (uint32_t i = 0; i < nid; i++)
        if (per[i].n)
            st->nrows++;
    st->rows = pr_xcalloc(st->nrows ? st->nrows : 1, sizeof *st->rows);
    size_t k = 0;
    for (uint32_t i = 0; i < nid; i++) {
        if (!per[i].n)
            continue;
        st->rows[k].label = pr_xstrdup(pr_run_str(run, i));
        finish(&st->rows[k], &per[i], &st->opts);
        k++;
        free(per[i].vals);
    }
    st->total.label = pr_xstrdup("Total");
    finish(&st->total, &tot, &st->opts);
    free(tot.vals);
    free(per);
    qsort(st->rows, st->nrows, sizeof *st->rows, cmp_row);
    return st;
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
    double secs = isfinite(wait) || !(rate > 0) ? (sum_num(s, "duration_ns") + wait) / 1e9
                                                 : n / rate;
    if (!isfinite(wait) && !(rate > 0))
        secs = sum_num(s, "duration_ns") / 1e9;
    r.throughput_per_s = secs > 0 ? n / secs : NAN;
    r.received_kb_per_s = secs > 0 ? sum_num(s, "bytes_in_total") / secs / 1024 : NAN;
    r.sent_kb_per_s = secs > 0 ? sum_num(s, "bytes_out_total") / secs / 1024 : NAN;
    json_t *row = row_json(&r);
    json_object_set_new(row, "sampleCount", isfinite(n) ? json_integer((json_int_t)n) : json_null());
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
