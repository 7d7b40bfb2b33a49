/* Builds the report model from the scans of analysis/report_acc.c: the JSON of every statistic. */
#include "analysis/report.h"
#include "analysis/printed_series.h"
#include "analysis/cellsort.h"
#include "analysis/findings.h"
#include "analysis/headline.h"
#include "analysis/human.h"
#include "analysis/load.h"
#include "analysis/report_acc.h"
#include "analysis/report_labels.h"
#include "analysis/stats.h"
#include "model/buf.h"
#include "model/clock.h"
#include "model/l10n.h"
#include "model/sysmem.h"
#include "model/lex.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pr_report_opts_init(pr_report_opts *o)
{
    memset(o, 0, sizeof *o);
    static const double def[] = {50, 90, 95, 99, 99.9};
    memcpy(o->percentiles, def, sizeof def);
    o->npercentiles = 5;
    o->from_ns = o->to_ns = PR_UNKNOWN;
    o->apdex_t_ns = 500000000;
    o->apdex_f_ns = 1500000000;
    o->timeseries = 1;
    o->histogram = 1;
    o->exact_limit = -1; /* from the memory available */
    o->top = 100;
    o->findings = 1;
    o->durations = 1;
    o->rows = 1;
    o->run_durations = 1;
    o->label_extras = 1;
    o->generated_s = pr_clock_now_s();
}

static const char *const by_names[] = {"label",  "url", "method",      "status",       "error",
                                       "thread", "tag", "url-pattern", "label-pattern"};

int pr_report_parse_by(pr_report_opts *o, const char *list)
{
    pr_str f[5];
    size_t n = pr_lex_split(list, strlen(list), ',', f, 4);
    if (n == 0 || n > 4)
        return -1;
    for (size_t i = 0; i < n; i++) {
        pr_str t = pr_str_trim(f[i]);
        int found = -1;
        for (int k = 0; k < (int)(sizeof by_names / sizeof by_names[0]); k++)
            if (k != PR_BY_TAG && pr_str_eq(t, by_names[k]))
                found = k;
        if (found < 0 && pr_str_starts(t, "tag:") && t.n > 4 && t.n - 4 < sizeof o->by_tag[i]) {
            found = PR_BY_TAG;
            memcpy(o->by_tag[i], t.p + 4, t.n - 4);
            o->by_tag[i][t.n - 4] = 0;
        }
        if (found < 0)
            return -1;
        o->by[i] = found;
    }
    o->nby = n;
    return 0;
}

int pr_report_parse_percentiles(pr_report_opts *o, const char *list)
{
    pr_str f[PR_MAX_PERCENTILES + 1];
    size_t n = pr_lex_split(list, strlen(list), ',', f, PR_MAX_PERCENTILES);
    if (n == 0 || n > PR_MAX_PERCENTILES)
        return -1;
    for (size_t i = 0; i < n; i++) {
        pr_str t = pr_str_trim(f[i]);
        double p;
        if (pr_lex_double(t.p, t.n, &p) < 0 || p < 0 || p > 100)
            return -1;
        o->percentiles[i] = p;
    }
    o->npercentiles = n;
    o->percentiles_set = 1;
    return 0;
}

void pr_error_group(const char *msg, char *out, size_t size)
{
    size_t o = 0;
    for (const char *p = msg; *p && o + 2 < size;) {
        if ((*p >= '0' && *p <= '9')) {
            while ((*p >= '0' && *p <= '9') || *p == '.')
                p++;
            out[o++] = 'N';
        } else {
            out[o++] = *p++;
        }
    }
    out[o] = 0;
}

/* ---- accumulation (analysis/report_acc.c) ---------------------------------------------- */

typedef pr_clock_res clock_res;
typedef pr_acc acc;

/* Widens c to r's clocks: the coarsest of merged runs holds for all. */
static void clock_widen(clock_res *c, const pr_run *r)
{
    json_int_t l = json_integer_value(json_object_get(r->meta, "latency_resolution_ns"));
    json_int_t t = json_integer_value(json_object_get(r->meta, "time_resolution_ns"));
    if (l > c->lat_ns)
        c->lat_ns = (int64_t)l;
    if (t > c->time_ns)
        c->time_ns = (int64_t)t;
}

/* A 1-2-5 interval giving at most ~max_points points over span. */
static int64_t auto_interval(int64_t span, int max_points)
{
    static const int64_t steps[] = {
        1000000,      2000000,       5000000,      10000000,    20000000,     50000000,
        100000000,    200000000,     500000000,    1000000000,  2000000000,   5000000000,
        10000000000,  15000000000,   30000000000,  60000000000, 120000000000, 300000000000,
        600000000000, 1800000000000, 3600000000000};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (span / steps[i] < max_points)
            return steps[i];
    return 3600000000000;
}

/* ---- JSON helpers ---------------------------------------------------------------------- */

static void set_int(json_t *o, const char *k, int64_t v)
{
    json_object_set_new(o, k, v == PR_UNKNOWN ? json_null() : json_integer(v));
}

static void set_real(json_t *o, const char *k, double v)
{
    json_object_set_new(o, k, isfinite(v) ? json_real(v) : json_null());
}

static void set_str(json_t *o, const char *k, const char *v)
{
    json_object_set_new(o, k, v ? json_string(v) : json_null());
}

static void pkey(double p, char *buf, size_t n)
{
    snprintf(buf, n, "p%g", p);
    for (char *c = buf; *c; c++)
        if (*c == '.')
            *c = '_';
}

/* {"min":…, "mean":…, "stdev":…, "max":…, "p50":…} in ns and the same keys in human form
 * (values measured with a clock of res ns). */
static void put_dist(json_t *obj, const char *name, const pr_dres *v, const pr_report_opts *o,
                     int64_t res)
{
    if (v->d.count == 0)
        return;
    pr_dist d = v->d;
    json_t *raw = json_object(), *hum = json_object(), *list = json_array();
    char h[32], key[64];
    set_int(raw, "min", d.min);
    set_int(raw, "mean", (int64_t)llround(d.mean));
    set_int(raw, "stdev", (int64_t)llround(d.stdev));
    set_int(raw, "max", d.max);
    set_str(hum, "min", pr_human_duration_res(d.min, res, h, sizeof h));
    set_str(hum, "mean", pr_human_duration_res((int64_t)llround(d.mean), res, h, sizeof h));
    set_str(hum, "stdev", pr_human_duration_res((int64_t)llround(d.stdev), res, h, sizeof h));
    set_str(hum, "max", pr_human_duration_res(d.max, res, h, sizeof h));
    for (size_t i = 0; i < o->npercentiles; i++) {
        int64_t q = v->q[i];
        pkey(o->percentiles[i], key, sizeof key);
        set_int(raw, key, q);
        set_str(hum, key, pr_human_duration_res(q, res, h, sizeof h));
        json_t *e = json_object();
        char pname[32];
        snprintf(pname, sizeof pname, "%g", o->percentiles[i]);
        set_str(e, "p", pname);
        set_int(e, "ns", q);
        set_str(e, "human", pr_human_duration_res(q, res, h, sizeof h));
        if (i == 0)
            json_object_set_new(e, "first", json_true());
        if (i + 1 == o->npercentiles)
            json_object_set_new(e, "last", json_true());
        json_array_append_new(list, e);
    }
    json_object_set_new(raw, "percentiles", list);
    char k[64];
    snprintf(k, sizeof k, "%s_ns", name);
    json_object_set_new(obj, k, raw);
    json_object_set_new(obj, name, hum);
}

/* A span between start stamps of res ns (ab -g: whole seconds): below res it is "< 1 s" even
 * when a latency added a few ms to it (the wait). */
static char *span_human(int64_t ns, int64_t res, char *h, size_t size)
{
    return pr_human_duration_res(ns != PR_UNKNOWN && ns < res && ns > -res ? 0 : ns, res, h, size);
}

/* Start stamps this coarse (ab -g: whole seconds) know a run's span only to a tick either way. */
#define COARSE_STAMP_NS 1000000000

/* The timing of a series whose start stamps are whole seconds (docs/metrics.md, "Clock
 * resolution"): its start span d is known to within one tick r either way, (d − r, d + r), so
 * the duration is approximate, its wait unknown, and each rate over it is known only between
 * bounds: never a figure with decimals the stamps do not have. */
static void approx_timing(json_t *j, int64_t count, int64_t d, int64_t r)
{
    char h[48];
    set_str(j, "duration", pr_human_duration_approx(d, r, h, sizeof h));
    static const char *const unknown[] = {"wait_ns",
                                          "wait",
                                          "rate_per_s",
                                          "throughput_per_s",
                                          "throughput",
                                          "request_throughput_per_s",
                                          "request_throughput",
                                          "jmeter_throughput_per_s"};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        json_object_set_new(j, unknown[i], json_null());
    double low = count > 0 ? (double)count / ((double)(d + r) / 1e9) : NAN;
    double high = count > 0 && d > r ? (double)count / ((double)(d - r) / 1e9) : NAN;
    set_str(j, "rate", pr_human_rate_range(low, high, h, sizeof h));
    json_t *a = json_object();
    set_int(a, "resolution_ns", r);
    set_int(a, "duration_low_ns", d > r ? d - r : 0);
    set_int(a, "duration_high_ns", d + r);
    set_real(a, "rate_low_per_s", low);
    set_real(a, "rate_high_per_s", high);
    json_object_set_new(j, "timing_approx", a);
}

/* Statistics of a series: counts, ratios, rates, distributions, bytes. */
static json_t *series_json(const pr_series *s, const pr_dres *dur, const pr_report_opts *o,
                           clock_res res)
{
    json_t *j = json_object();
    char h[32];
    pr_rates r;
    pr_rates_compute(s, &r);
    int64_t known = s->count - s->unknown;
    int64_t errors = known - s->successes;
    double err_ratio = known ? (double)errors / (double)known : NAN;
    set_int(j, "requests", s->count);
    if (known) {
        set_int(j, "successes", s->successes);
        set_int(j, "errors", errors);
    } else {
        json_object_set_new(j, "successes", json_null());
        json_object_set_new(j, "errors", json_null());
    }
    if (s->unknown)
        set_int(j, "unknown_outcome", s->unknown);
    set_real(j, "error_ratio", err_ratio);
    set_real(j, "success_ratio", known ? 1.0 - err_ratio : NAN);
    set_str(j, "error_pct", pr_human_percent(err_ratio, h, sizeof h));
    set_str(j, "success_pct", pr_human_percent(known ? 1.0 - err_ratio : NAN, h, sizeof h));
    set_int(j, "duration_ns", r.duration_ns);
    set_str(j, "duration", span_human(r.duration_ns, res.time_ns, h, sizeof h));
    set_int(j, "wait_ns", r.wait_ns);
    set_str(
        j, "wait",
        span_human(r.wait_ns, res.time_ns > res.lat_ns ? res.time_ns : res.lat_ns, h, sizeof h));
    set_int(j, "time_resolution_ns", res.time_ns);
    set_int(j, "latency_resolution_ns", res.lat_ns);
    set_real(j, "rate_per_s", r.rate_per_s);
    set_str(j, "rate", pr_human_rate(r.rate_per_s, h, sizeof h));
    set_real(j, "throughput_per_s", r.throughput_per_s);
    set_str(j, "throughput", pr_human_rate(r.throughput_per_s, h, sizeof h));
    /* requests over the same span as throughput (what JMeter calls throughput) */
    set_real(j, "request_throughput_per_s", r.request_throughput_per_s);
    set_str(j, "request_throughput", pr_human_rate(r.request_throughput_per_s, h, sizeof h));
    set_real(j, "jmeter_throughput_per_s", r.jmeter_throughput_per_s);
    if (s->bytes_in_known) {
        set_int(j, "bytes_in_total", s->bytes_in);
        set_real(j, "bytes_in_mean", (double)s->bytes_in / (double)s->bytes_in_known);
        set_str(j, "bytes_in", pr_human_bytes((double)s->bytes_in, h, sizeof h));
    }
    if (s->bytes_out_known) {
        set_int(j, "bytes_out_total", s->bytes_out);
        set_real(j, "bytes_out_mean", (double)s->bytes_out / (double)s->bytes_out_known);
        set_str(j, "bytes_out", pr_human_bytes((double)s->bytes_out, h, sizeof h));
    }
    int approx = res.time_ns >= COARSE_STAMP_NS && r.duration_ns != PR_UNKNOWN;
    if (approx)
        approx_timing(j, s->count, r.duration_ns, res.time_ns);
    int64_t span = r.duration_ns != PR_UNKNOWN && !approx ? r.duration_ns + r.wait_ns : 0;
    if (s->bytes_in_known && span > 0)
        set_real(j, "bytes_in_per_s", (double)s->bytes_in / ((double)span / 1e9));
    put_dist(j, "latency", &dur[PR_D_LATENCY], o, res.lat_ns);
    double mean_s = dur[PR_D_LATENCY].d.count ? dur[PR_D_LATENCY].d.mean / 1e9 : NAN;
    put_dist(j, "connect", &dur[PR_D_CONNECT], o, res.lat_ns);
    put_dist(j, "ttfb", &dur[PR_D_TTFB], o, res.lat_ns);
    put_dist(j, "receive", &dur[PR_D_RECEIVE], o, res.lat_ns);
    put_dist(j, "lateness", &dur[PR_D_LATENESS], o, res.lat_ns);
    if (isfinite(mean_s) && isfinite(r.throughput_per_s) && !approx) {
        double conc = r.rate_per_s * mean_s;
        set_real(j, "concurrency_estimate", conc);
    }
    set_str(j, "mode", s->latency.bounded ? "histogram" : "exact");
    return j;
}

static json_t *run_meta_json(const pr_run *run)
{
    json_t *j = json_object();
    char buf[40];
    set_int(j, "id", run->id);
    set_str(j, "name", run->name);
    set_str(j, "tool", run->tool);
    set_str(j, "format", run->format);
    set_str(j, "tool_version", run->tool_version);
    json_object_set_new(j, "summary_only", json_boolean(run->summary_only));
    set_str(j, "load_model", pr_load_model_name(run->load_model));
    set_str(j, "load_model_text", pr_load_model_text(run->load_model));
    set_real(j, "offered_rate_per_s", run->offered_rate);
    if (run->concurrency >= 0)
        set_int(j, "concurrency", run->concurrency);
    else
        json_object_set_new(j, "concurrency", json_null());
    set_int(j, "start_ns", run->start_ns);
    set_int(j, "end_ns", run->end_ns);
    /* some sources stamp time since the tool started, not wall-clock time (hey's CSV) */
    int relative = json_is_true(json_object_get(run->meta, "start_is_relative"));
    set_str(j, "start",
            run->start_ns != PR_UNKNOWN && !relative ? pr_l10n_time(run->start_ns, buf) : NULL);
    set_str(j, "end",
            run->end_ns != PR_UNKNOWN && !relative ? pr_l10n_time(run->end_ns, buf) : NULL);
    json_t *tags = json_object(), *taglist = json_array();
    for (size_t i = 0; i < run->ntags; i++) {
        json_object_set_new(tags, run->tags[i].key, json_string(run->tags[i].value));
        json_t *t = json_object();
        set_str(t, "key", run->tags[i].key);
        set_str(t, "value", run->tags[i].value);
        json_array_append_new(taglist, t);
    }
    json_object_set_new(j, "tags", tags);
    json_object_set_new(j, "tag_list", taglist);
    json_object_set(j, "meta", run->meta);
    return j;
}

typedef struct label_ref {
    uint32_t row;
    const pr_row *r;
} label_ref;

static int cmp_label(const void *x, const void *y)
{
    const label_ref *a = x, *b = y;
    /* "other" last, then most requests first, then by name for a stable order */
    if (a->r->other != b->r->other)
        return a->r->other ? 1 : -1;
    if (a->r->s.count != b->r->s.count)
        return a->r->s.count > b->r->s.count ? -1 : 1;
    return (a->r->key > b->r->key) - (a->r->key < b->r->key);
}

typedef struct err_ref {
    uint32_t id;
    int64_t count;
} err_ref;

static int cmp_err(const void *x, const void *y)
{
    const err_ref *a = x, *b = y;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

static void mark_first_last(json_t *arr)
{
    size_t n = json_array_size(arr);
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(arr, i);
        json_object_set_new(e, "first", json_boolean(i == 0));
        json_object_set_new(e, "last", json_boolean(i + 1 == n));
        json_object_set_new(e, "index", json_integer((json_int_t)i + 1));
    }
}

static json_t *labels_json(acc *a)
{
    size_t n = 0;
    label_ref *refs = pr_xmalloc((a->nrows + 1) * sizeof *refs);
    for (size_t i = 0; i < a->nrows; i++)
        if (a->rows[i].s.count)
            refs[n++] = (label_ref){(uint32_t)i, &a->rows[i]};
    qsort(refs, n, sizeof *refs, cmp_label);
    json_t *arr = json_array();
    char other[64];
    for (size_t i = 0; i < n; i++) {
        const pr_row *r = refs[i].r;
        json_t *j = series_json(&r->s, r->d, a->o, a->res);
        if (r->other) { /* every key past the top rows */
            snprintf(other, sizeof other, "other (%lld label%s)", (long long)r->keys,
                     r->keys == 1 ? "" : "s");
            set_str(j, "label", other);
            json_object_set_new(j, "other", json_true());
            set_int(j, "labels", r->keys);
        } else {
            set_str(j, "label", r->key ? pr_strtab_get(a->names, r->key) : "(none)");
        }
        if (r->tx)
            json_object_set_new(j, "transaction", json_true());
        size_t used = a->nbins; /* the run's series ends at its last interval with requests */
        while (used > 1 && a->bins[used - 1].count == 0)
            used--;
        pr_label_extras_json(&a->lx, refs[i].row, j, a->names, a->interval, used);
        json_array_append_new(arr, j);
    }
    free(refs);
    mark_first_last(arr);
    return arr;
}

static json_t *errors_json(acc *a, json_t **groups_out)
{
    size_t n = 0;
    err_ref *refs = pr_xmalloc((a->errors_cap + 1) * sizeof *refs);
    for (size_t i = 0; i < a->errors_cap; i++)
        if (a->errors[i])
            refs[n++] = (err_ref){(uint32_t)i, a->errors[i]};
    qsort(refs, n, sizeof *refs, cmp_err);
    json_t *arr = json_array(), *groups = json_array();
    json_t *gindex = json_object();
    char g[512];
    for (size_t i = 0; i < n; i++) {
        const char *msg = pr_strtab_get(a->names, refs[i].id);
        json_t *e = json_object();
        set_str(e, "message", msg);
        set_int(e, "count", refs[i].count);
        set_real(e, "ratio", a->total.count ? (double)refs[i].count / (double)a->total.count : NAN);
        pr_error_group(msg, g, sizeof g);
        set_str(e, "group", g);
        json_array_append_new(arr, e);
        json_t *ge = json_object_get(gindex, g);
        if (!ge) {
            ge = json_object();
            set_str(ge, "pattern", g);
            set_int(ge, "count", 0);
            set_int(ge, "messages", 0);
            set_str(ge, "example", msg);
            json_object_set_new(gindex, g, ge);
            json_array_append(groups, ge);
        }
        set_int(ge, "count", json_integer_value(json_object_get(ge, "count")) + refs[i].count);
        set_int(ge, "messages", json_integer_value(json_object_get(ge, "messages")) + 1);
    }
    json_decref(gindex);
    free(refs);
    mark_first_last(arr);
    mark_first_last(groups);
    *groups_out = groups;
    return arr;
}

/* One entry of a status code list: {code, count, ratio, pct, class}. */
static json_t *status_entry(int code, int64_t count, double ratio)
{
    char h[32], cls[8];
    json_t *e = json_object();
    set_int(e, "code", code);
    set_int(e, "count", count);
    set_real(e, "ratio", ratio);
    set_str(e, "pct", pr_human_percent(ratio, h, sizeof h));
    snprintf(cls, sizeof cls, code ? "%dxx" : "none", code / 100);
    set_str(e, "class", cls);
    return e;
}

/* The status codes seen. Status 0 whose samples all come from a source that records no
 * status or outcome (ab -g) is marked not_recorded: those are not "no response". */
static json_t *status_json(acc *a)
{
    json_t *arr = json_array();
    for (int code = 0; code < 1000; code++) {
        if (!a->status[code])
            continue;
        json_t *e =
            status_entry(code, a->status[code], (double)a->status[code] / (double)a->total.count);
        if (!code && a->total.unknown >= a->status[0])
            json_object_set_new(e, "not_recorded", json_true());
        json_array_append_new(arr, e);
    }
    mark_first_last(arr);
    return arr;
}

int pr_report_status_unrecorded(const json_t *run)
{
    json_t *codes = json_object_get(run, "status_codes");
    return json_array_size(codes) == 1 &&
           json_is_true(json_object_get(json_array_get(codes, 0), "not_recorded"));
}

static json_t *timeseries_json(acc *a)
{
    /* bins past the last start and the last completion */
    while (a->nbins > 1 && a->bins[a->nbins - 1].count == 0 && a->bins[a->nbins - 1].done == 0)
        a->nbins--;
    json_t *ts = json_object(), *pts = json_array();
    set_int(ts, "interval_ns", a->interval);
    set_int(ts, "start_ns", a->t0);
    set_str(ts, "requests_by", "send");
    set_str(ts, "responses_by", "completion");
    set_str(ts, "latency_by", "send");
    for (size_t i = 0; i < a->nbins; i++) {
        pr_bin *b = &a->bins[i];
        json_t *p = json_object();
        set_int(p, "t_ns", (int64_t)i * a->interval);
        set_int(p, "requests", b->count);
        set_int(p, "responses", b->done);
        int known = b->ok + b->fail > 0 || b->done == 0;
        if (known) {
            set_int(p, "successes", b->ok);
            set_int(p, "errors", b->fail);
            if (b->count > b->sent_unknown || b->count == 0)
                set_int(p, "sent_errors", b->sent_fail);
            set_real(p, "throughput_per_s", (double)b->ok / ((double)a->interval / 1e9));
        } else { /* outcomes unknown (ab -g) */
            json_object_set_new(p, "successes", json_null());
            json_object_set_new(p, "errors", json_null());
            json_object_set_new(p, "throughput_per_s", json_null());
        }
        set_real(p, "rate_per_s", (double)b->count / ((double)a->interval / 1e9));
        set_int(p, "bytes_in", b->bytes_in);
        if (b->lat_n) {
            set_int(p, "p50_ns", b->lat_q[0]);
            set_int(p, "p90_ns", b->lat_q[1]);
            set_int(p, "p99_ns", b->lat_q[2]);
            set_int(p, "max_ns", b->lat_q[3]);
        }
        if (a->has_threads && b->count)
            set_int(p, "threads", b->threads);
        if (b->connect_n)
            set_int(p, "connect_mean_ns", b->connect_sum / b->connect_n);
        if (b->ttfb_n)
            set_int(p, "ttfb_mean_ns", b->ttfb_sum / b->ttfb_n);
        json_t *codes = json_object();
        for (int c = 0; c <= PR_BIN_CODES && c <= a->ncodes; c++) {
            if (!b->codes[c])
                continue;
            char k[16];
            if (c < a->ncodes)
                snprintf(k, sizeof k, "%d", a->codes[c]);
            else
                snprintf(k, sizeof k, "other");
            set_int(codes, k, b->codes[c]);
        }
        json_object_set_new(p, "status_codes", codes);
        json_array_append_new(pts, p);
    }
    json_object_set_new(ts, "points", pts);
    return ts;
}

/* Histogram on 1-2-5 bucket bounds and the percentile spectrum of the run's latencies. */
static void distribution_json(json_t *run, const acc *a, int64_t res)
{
    size_t n = (size_t)a->total_d[PR_D_LATENCY].d.count;
    if (n == 0)
        return;
    json_t *hist = json_array();
    size_t i = 0;
    int64_t base = a->hist_lo;
    for (int step = 0; i < n && step < a->nhist; step++) {
        int64_t hi = a->hist_bound[step];
        int64_t from = base;
        size_t start = i;
        i = a->hist_below[step];
        if (i < start)
            i = start;
        json_t *b = json_object();
        char h1[32], h2[32], lbl[80];
        set_int(b, "from_ns", from);
        set_int(b, "to_ns", hi);
        set_int(b, "count", (int64_t)(i - start));
        set_real(b, "ratio", (double)(i - start) / (double)n);
        snprintf(lbl, sizeof lbl, "%s – %s", pr_human_duration(from, h1, sizeof h1),
                 pr_human_duration(hi, h2, sizeof h2));
        set_str(b, "range", lbl);
        json_array_append_new(hist, b);
        base = hi;
    }
    mark_first_last(hist);
    json_object_set_new(run, "histogram", hist);
    json_t *spec = json_array();
    char h[32];
    for (int k = 0; k < PR_SPECTRUM_POINTS; k++) {
        json_t *e = json_object();
        set_real(e, "percentile", pr_report_spectrum_pct(k));
        int64_t q = a->spectrum[k];
        set_int(e, "latency_ns", q);
        set_str(e, "latency", pr_human_duration_res(q, res, h, sizeof h));
        json_array_append_new(spec, e);
    }
    json_object_set_new(run, "spectrum", spec);
}

typedef struct pkey_ref {
    double p;
    const char *key;
    int64_t ns;
} pkey_ref;

static int cmp_pkey(const void *x, const void *y)
{
    const pkey_ref *a = x, *b = y;
    return (a->p > b->p) - (a->p < b->p);
}

/* Printed percentiles this many or fewer are all listed by default (autocannon's 17; ab -e's 99
 * are a spectrum). */
#define PRINTED_LIST_MAX 20

/* The list latency_ns.percentiles [{p, ns, human}] of a tool's printed percentiles refs[0..n)
 * (sorted): the ones --percentiles asks for, each printed or unknown ("-": nothing is
 * invented); by default every one the tool printed, or for a printed spectrum (ab -e) those of
 * the default list. */
static json_t *printed_list(const pkey_ref *refs, size_t n, const pr_report_opts *o, int64_t res)
{
    json_t *list = json_array();
    int spectrum = !o->percentiles_set && n > PRINTED_LIST_MAX;
    size_t m = o->percentiles_set || spectrum ? o->npercentiles : n;
    char h[32];
    for (size_t i = 0; i < m; i++) {
        const pkey_ref *r = o->percentiles_set || spectrum ? NULL : &refs[i];
        double p = r ? r->p : o->percentiles[i];
        for (size_t k = 0; !r && k < n; k++)
            if (fabs(refs[k].p - p) < 1e-9)
                r = &refs[k];
        if (!r && spectrum)
            continue;
        json_t *e = json_object();
        char pname[32];
        snprintf(pname, sizeof pname, "%g", p);
        set_str(e, "p", pname);
        if (r)
            set_int(e, "ns", r->ns);
        else
            json_object_set_new(e, "ns", json_null());
        set_str(e, "human", r ? pr_human_duration_res(r->ns, res, h, sizeof h) : "-");
        json_array_append_new(list, e);
    }
    mark_first_last(list);
    return list;
}

/* A tool's printed latencies in human form, percentiles in numeric order (p1, p2 … p10 … p100:
 * the store keeps JSON keys sorted as text, p1, p10, p100, p11 …), and, as for samples, the
 * list latency_ns.percentiles [{p, ns, human}]. */
static void summary_latency(json_t *stats, json_t *lat, int64_t res, const pr_report_opts *o)
{
    size_t n = 0;
    pkey_ref *refs = pr_xmalloc((json_object_size(lat) + 1) * sizeof *refs);
    const char *k;
    json_t *v;
    json_object_foreach (lat, k, v) {
        char num[32], *end;
        if (k[0] != 'p' || !json_is_integer(v) || strlen(k) >= sizeof num)
            continue;
        snprintf(num, sizeof num, "%s", k + 1);
        for (char *c = num; *c; c++)
            if (*c == '_')
                *c = '.'; /* p99_9 */
        double p = strtod(num, &end);
        if (end != num && !*end && p >= 0 && p <= 100)
            refs[n++] = (pkey_ref){p, k, json_integer_value(v)};
    }
    qsort(refs, n, sizeof *refs, cmp_pkey);
    json_t *hum = json_object();
    char h[32];
    static const char *const lead[] = {"min", "mean", "stdev"};
    for (size_t i = 0; i < sizeof lead / sizeof lead[0]; i++)
        if (json_is_integer(v = json_object_get(lat, lead[i])))
            set_str(hum, lead[i], pr_human_duration_res(json_integer_value(v), res, h, sizeof h));
    for (size_t i = 0; i < n; i++)
        set_str(hum, refs[i].key, pr_human_duration_res(refs[i].ns, res, h, sizeof h));
    json_object_foreach (lat, k, v) /* max, then anything else the tool printed */
        if (json_is_integer(v) && !json_object_get(hum, k))
            set_str(hum, k, pr_human_duration_res(json_integer_value(v), res, h, sizeof h));
    json_object_set_new(lat, "percentiles", printed_list(refs, n, o, res));
    free(refs);
    json_object_set_new(stats, "latency", hum);
}

/* Summary-only runs: the tool's own numbers and what they imply (analysis/headline.h), in
 * human form with the tool's precision. */
static json_t *summary_only_stats(const pr_run *run, const pr_report_opts *o)
{
    json_t *j = pr_headline_tool_stats(run);
    char h[32];
    /* a tool prints its durations with one precision (ab: whole ms, hey: 0.1 ms…) */
    clock_res res = {1, 1};
    clock_widen(&res, run);
    json_t *lat = json_object_get(j, "latency_ns");
    if (json_is_object(lat))
        summary_latency(j, lat, res.lat_ns, o);
    json_t *v;
    if ((v = json_object_get(j, "duration_ns")) && json_is_integer(v))
        set_str(j, "duration",
                pr_human_duration_res(json_integer_value(v), res.lat_ns, h, sizeof h));
    if ((v = json_object_get(j, "wait_ns")) && json_is_integer(v))
        set_str(j, "wait", pr_human_duration_res(json_integer_value(v), res.lat_ns, h, sizeof h));
    set_int(j, "latency_resolution_ns", res.lat_ns);
    return j;
}

/* The status code list ({code, count, ratio, pct, class}) of a printed summary's codes. */
static json_t *printed_status(const json_t *codes, double requests)
{
    json_t *arr = json_array();
    for (int code = 0; code < 1000; code++) {
        char k[16];
        snprintf(k, sizeof k, "%d", code);
        json_t *v = json_object_get(codes, k);
        if (json_is_integer(v))
            json_array_append_new(
                arr, status_entry(code, json_integer_value(v),
                                  requests > 0 ? (double)json_integer_value(v) / requests : NAN));
    }
    mark_first_last(arr);
    return arr;
}

/* Appends a printed summary's error set ({message, count if printed}) to an error list
 * ({message, count, ratio, group, from}), leaving out messages the list has. */
static void add_printed_errors(json_t *list, const json_t *printed, double requests)
{
    size_t i, k;
    json_t *e, *have;
    char g[512];
    json_array_foreach (printed, i, e) {
        const char *msg = json_string_value(json_object_get(e, "message"));
        int dup = !msg;
        json_array_foreach (list, k, have)
            dup |= msg && !strcmp(msg, json_string_value(json_object_get(have, "message")));
        if (dup)
            continue;
        json_t *c = json_object_get(e, "count"), *x = json_object();
        set_str(x, "message", msg);
        json_object_set_new(x, "count", json_is_integer(c) ? json_incref(c) : json_null());
        set_real(x, "ratio",
                 json_is_integer(c) && requests > 0 ? (double)json_integer_value(c) / requests
                                                    : NAN);
        pr_error_group(msg, g, sizeof g);
        set_str(x, "group", g);
        set_str(x, "from", "tool");
        json_array_append_new(list, x);
    }
    mark_first_last(list);
}

/* A printed summary's per-label rows (Locust's stats per endpoint, Artillery's summaries per
 * URL…: summary "labels", each a summary object of its own with a "label") as the run's label
 * list, each read as its own summary-only run of the same tool; a row without a duration of
 * its own takes the run's (its rate is its requests over the run's duration). */
static json_t *printed_labels(const pr_run *run, const pr_report_opts *o)
{
    json_t *list = json_array(), *row;
    size_t i;
    json_array_foreach (json_object_get(run->summary, "labels"), i, row) {
        const char *name = json_string_value(json_object_get(row, "label"));
        if (!name || !json_is_object(row))
            continue;
        pr_run view = *run; /* the same run, with this row as its printed summary */
        view.summary = json_copy(row);
        json_t *d = json_object_get(run->summary, "duration_ns");
        if (d && !json_object_get(row, "duration_ns")) /* a label's rate over the run's time */
            json_object_set(view.summary, "duration_ns", d);
        json_t *e = summary_only_stats(&view, o);
        json_decref(view.summary);
        set_str(e, "label", name);
        if (!json_object_get(e, "latency")) /* none printed: not the enclosing section's */
            json_object_set_new(e, "latency", json_object());
        json_object_set_new(e, "transaction", json_false());
        json_array_append_new(list, e);
    }
    mark_first_last(list);
    return list;
}

/* A summary-only run: the tool's numbers (analysis/headline.h) and its status codes and
 * error set as the run's lists. */
static void summary_only_model(json_t *j, const pr_run *run, const pr_report_opts *o)
{
    json_t *stats = summary_only_stats(run, o);
    double requests = json_is_integer(json_object_get(stats, "requests"))
                          ? (double)json_integer_value(json_object_get(stats, "requests"))
                          : NAN;
    json_object_set_new(j, "stats", stats);
    json_object_set_new(j, "status_codes",
                        printed_status(json_object_get(run->summary, "status_codes"), requests));
    json_t *errors = json_array();
    add_printed_errors(errors, json_object_get(run->summary, "errors"), requests);
    json_object_set_new(j, "errors", errors);
    json_object_set_new(j, "labels", printed_labels(run, o));
    set_str(j, "by", "label");
    char tool[64];
    json_t *ts = pr_printed_series(run->summary, pr_headline_report_name(run, tool, sizeof tool));
    if (ts)
        json_object_set_new(j, "timeseries", ts);
}

/* Sets the run's "load" (analysis/load.h) and, from it, the effective load_model,
 * offered_rate_per_s, offered_rate and concurrency of the model. */
static void put_load(json_t *j, const pr_run *run, const pr_load_facts *f)
{
    json_t *l = pr_load_json(run, f);
    json_object_set(j, "load_model", json_object_get(l, "model"));
    json_object_set(j, "load_model_text", json_object_get(l, "model_text"));
    json_object_set(j, "offered_rate_per_s", json_object_get(l, "offered_rate_per_s"));
    json_object_set(j, "offered_rate", json_object_get(l, "offered_rate"));
    json_object_set(j, "concurrency", json_object_get(l, "concurrency"));
    json_object_set_new(j, "load", l);
}

/* The load facts of a scanned series: its sent rate and the sends per interval. */
static void samples_load(json_t *j, const acc *a, const pr_run *run, int merged)
{
    pr_rates r;
    pr_rates_compute(&a->total, &r);
    size_t n = a->nbins;
    while (n > 0 && a->bins[n - 1].count == 0)
        n--;
    int64_t *sends = n ? pr_xmalloc(n * sizeof *sends) : NULL;
    for (size_t i = 0; i < n; i++)
        sends[i] = a->bins[i].count;
    pr_load_facts f = {a->total.count, r.rate_per_s, sends, n, 0, merged};
    put_load(j, run, &f);
    free(sends);
}

int pr_report_bounded(const pr_report_opts *o, int64_t n, char *why, size_t whysize)
{
    why[0] = 0;
    if (o->exact_limit > 0)
        return n > o->exact_limit;
    if (o->exact_limit == 0)
        return 0;
    int64_t avail = pr_sysmem_available();
    int64_t limit = pr_report_exact_limit_auto(avail);
    if (n <= limit)
        return 0;
    char h1[32], h2[32];
    snprintf(why, whysize,
             _("%lld samples need about %s in exact mode, more than half of the %s "
               "this process may use (--exact-limit N to choose)"),
             (long long)n, pr_human_bytes(pr_report_exact_bytes(n), h1, sizeof h1),
             pr_human_bytes((double)avail, h2, sizeof h2));
    return 1;
}

double pr_report_exact_bytes(int64_t n)
{
    return (double)n * (n < (int64_t)PR_CELLSORT_BUCKETED ? PR_EXACT_BYTES_PER_SAMPLE_SMALL
                                                          : PR_EXACT_BYTES_PER_SAMPLE);
}

int64_t pr_report_exact_limit_auto(int64_t avail_bytes)
{
    int64_t small = avail_bytes / 2 / PR_EXACT_BYTES_PER_SAMPLE_SMALL;
    int64_t large = avail_bytes / 2 / PR_EXACT_BYTES_PER_SAMPLE;
    return large < (int64_t)PR_CELLSORT_BUCKETED ? small : large;
}

/* How the rows were grouped (pattern, top rows and "other"), in the model and for the text. */
static void labels_grouping_json(json_t *j, const acc *a)
{
    int64_t shown = 0, other = 0;
    for (size_t r = 0; r < a->nrows; r++) {
        if (a->rows[r].other)
            other = a->rows[r].keys;
        else if (a->rows[r].s.count)
            shown++;
    }
    if (!a->patterned && !other)
        return;
    json_t *g = json_object();
    pr_buf t = PR_BUF_INIT;
    set_int(g, "distinct", a->distinct_keys);
    if (a->patterned) {
        set_str(g, "pattern", "url");
        set_int(g, "pattern_threshold", PR_PATTERN_MIN);
        pr_buf_printf(&t,
                      _("%lld distinct values grouped by URL pattern (numbers, UUIDs and hex "
                        "ids in paths and query values shown as {id})"),
                      (long long)a->distinct_keys);
        if (a->o->patterns == 0 && a->o->nby <= 1 &&
            (a->o->nby == 0 || a->o->by[0] == PR_BY_LABEL || a->o->by[0] == PR_BY_URL))
            pr_buf_printf(&t, _(", as there are more than %d"), PR_PATTERN_MIN);
    }
    set_int(g, "shown", shown);
    set_int(g, "other", other);
    if (other)
        pr_buf_printf(&t, _("%sthe top %lld by requests, then one row for the other %lld"),
                      t.len ? "; " : "", (long long)shown, (long long)other);
    set_str(g, "text", t.p);
    pr_buf_dispose(&t);
    json_object_set_new(j, "labels_grouping", g);
}

/* Loads every run once into runs[0..n) (the caller frees them, also on failure). */
static int load_runs(pr_store *st, const int64_t *ids, size_t n, pr_run **runs, pr_error *err)
{
    for (size_t i = 0; i < n; i++) {
        int rc = pr_store_load_run(st, ids[i], &runs[i], err);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* The earliest start and the latest end of the runs (PR_UNKNOWN when none says). */
static void runs_bounds(pr_run *const *runs, size_t n, int64_t *t0, int64_t *t1)
{
    *t0 = runs[0]->start_ns;
    *t1 = runs[0]->end_ns;
    for (size_t i = 1; i < n; i++) {
        if (runs[i]->start_ns == PR_UNKNOWN)
            continue;
        if (*t0 == PR_UNKNOWN || runs[i]->start_ns < *t0)
            *t0 = runs[i]->start_ns;
        if (*t1 == PR_UNKNOWN || runs[i]->end_ns > *t1)
            *t1 = runs[i]->end_ns;
    }
}

int64_t pr_report_interval(const pr_report_opts *o, const pr_run *first, int64_t total, int64_t lo,
                           int64_t hi)
{
    /* a few hundred points, but enough samples per point for percentiles to mean something
     * (about 20 on average) */
    int points = total / 20 < 300 ? (int)(total / 20) : 300;
    if (points < 10)
        points = 10;
    int64_t interval = o->interval_ns > 0 ? o->interval_ns : auto_interval(hi - lo, points);
    /* never finer than the timestamps themselves (ab -g: whole seconds) */
    json_int_t res = json_integer_value(json_object_get(first->meta, "time_resolution_ns"));
    if (o->interval_ns <= 0 && res > interval)
        interval = (int64_t)res;
    if ((hi - lo) / interval + 1 > 100000)
        interval = (hi - lo) / 99999 + 1;
    return interval;
}

/* The time-series bins of the window [lo, hi] of runs that end at t1 and hold total
 * samples. */
static void set_bins(acc *a, const pr_run *first, int64_t total, int64_t lo, int64_t hi, int64_t t1)
{
    a->t0 = lo;
    a->interval = pr_report_interval(a->o, first, total, lo, hi);
    /* responses count where they complete: up to the runs' last end, even past a --to (at
     * most 100000 points; later completions fall outside the series) */
    int64_t span = t1 > hi ? t1 - lo : hi - lo;
    a->nbins = span / a->interval + 1 > 100000 ? 100000 : (size_t)(span / a->interval) + 1;
    a->bins = pr_xcalloc(a->nbins, sizeof *a->bins);
    for (size_t k = 0; k < a->nbins; k++)
        pr_vals_init(&a->bins[k].lat, a->bounded);
}

/* The accumulator of the runs' samples (analysis/report_acc.h): mode, clock, window, bins. */
static void acc_init(acc *a, pr_run *const *runs, size_t n, const pr_report_opts *o, int64_t t0,
                     int64_t t1)
{
    memset(a, 0, sizeof *a);
    a->o = o;
    int64_t total_samples = 0;
    a->res = (clock_res){1, 1};
    for (size_t i = 0; i < n; i++) {
        total_samples += runs[i]->samples;
        clock_widen(&a->res, runs[i]);
    }
    /* bounded mode when the runs hold more samples than exact mode may keep in memory */
    a->bounded = pr_report_bounded(o, total_samples, a->bounded_why, sizeof a->bounded_why);
    a->from = INT64_MIN;
    a->to = INT64_MAX;
    if (t0 != PR_UNKNOWN) {
        if (o->from_ns != PR_UNKNOWN)
            a->from = t0 + o->from_ns;
        if (o->to_ns != PR_UNKNOWN)
            a->to = t0 + o->to_ns;
        int64_t lo = a->from > t0 ? a->from : t0;
        int64_t hi = a->to < t1 ? a->to : t1;
        if (o->timeseries && hi > lo)
            set_bins(a, runs[0], total_samples, lo, hi, t1);
    }
}

/* "by": the breakdown's dimensions as named ("label" by default). */
static void set_by(json_t *j, const pr_report_opts *o)
{
    pr_buf byname = PR_BUF_INIT;
    for (size_t d = 0; d < o->nby; d++) {
        if (d)
            pr_buf_putc(&byname, ',');
        pr_buf_puts(&byname, by_names[o->by[d]]);
        if (o->by[d] == PR_BY_TAG)
            pr_buf_printf(&byname, ":%s", o->by_tag[d]);
    }
    set_str(j, "by", byname.len ? byname.p : "label");
    pr_buf_dispose(&byname);
}

/* The model of the samples accumulated from nids runs (the first is first). */
static void samples_model(json_t *j, acc *a, const pr_run *first, size_t nids, int64_t t0,
                          int64_t t1)
{
    const pr_report_opts *o = a->o;
    samples_load(j, a, first, nids > 1);
    json_t *stats = series_json(&a->total, a->total_d, o, a->res);
    if (a->bounded_why[0])
        set_str(stats, "bounded_reason", a->bounded_why);
    int64_t known = a->total.unknown < a->total.count ? a->total.count : 0;
    json_object_set_new(stats, "apdex",
                        pr_apdex_json(a->apdex_s, a->apdex_t, known, o->apdex_t_ns, o->apdex_f_ns));
    if (a->tx_samples) /* samples that are not requests: say why the counts differ */
        set_int(stats, "transaction_samples", a->tx_samples);
    pr_headline_combine(stats, nids == 1 ? first : NULL);
    if (pr_headline_unrecorded_ok(stats, a->total.count, a->total.unknown)) {
        /* every sample a success: the Apdex of all of them, the run's and each label's */
        a->lx.unknown_ok = 1;
        json_object_set_new(stats, "apdex",
                            pr_apdex_json(a->apdex_s + a->apdex_su, a->apdex_t + a->apdex_tu,
                                          a->total.count, o->apdex_t_ns, o->apdex_f_ns));
    }
    json_object_set_new(j, "stats", stats);
    if (o->from_ns != PR_UNKNOWN || o->to_ns != PR_UNKNOWN) {
        /* a trimmed run (--from/--to/--skip-warmup): say so, rules read it */
        json_t *w = json_object();
        set_int(w, "from_ns", o->from_ns);
        set_int(w, "to_ns", o->to_ns);
        set_int(w, "run_ns", t0 != PR_UNKNOWN && t1 != PR_UNKNOWN ? t1 - t0 : PR_UNKNOWN);
        json_object_set_new(w, "empty", json_boolean(a->total.count == 0)); /* nothing left */
        json_object_set_new(j, "window", w);
    }
    if (first->summary && nids == 1) /* e.g. ab's printed counters beside its -g samples */
        json_object_set(j, "tool_summary", first->summary);
    json_object_set_new(j, "labels", o->rows ? labels_json(a) : json_array());
    pr_headline_labels(json_object_get(j, "labels"), stats);
    set_by(j, o);
    json_object_set_new(j, "status_codes", status_json(a));
    json_t *groups, *errors = errors_json(a, &groups);
    /* errors the per-request files cannot hold (hey's CSV has no row for them) */
    if (nids == 1 && (pr_headline_lossy(first, "requests") || pr_headline_lossy(first, "outcomes")))
        add_printed_errors(errors, json_object_get(first->summary, "errors"),
                           (double)json_integer_value(json_object_get(stats, "requests")));
    json_object_set_new(j, "errors", errors);
    json_object_set_new(j, "error_groups", groups);
    if (a->nbins)
        json_object_set_new(j, "timeseries", timeseries_json(a));
    if (o->histogram)
        distribution_json(j, a, a->res.lat_ns);
    labels_grouping_json(j, a);
}

/* The model of a summary-only run: the numbers its tool printed. */
static void printed_model(json_t *j, const pr_run *run, const pr_report_opts *o)
{
    json_t *sum = run->summary;
    pr_load_facts f = {json_integer_value(json_object_get(sum, "requests")),
                       json_is_number(json_object_get(sum, "rate_per_s"))
                           ? json_number_value(json_object_get(sum, "rate_per_s"))
                           : NAN,
                       NULL,
                       0,
                       1,
                       0};
    put_load(j, run, &f);
    summary_only_model(j, run, o);
}

/* The model of the runs ids[0..nids) analysed as one (each run loaded once). */
static int analyse(pr_store *st, const int64_t *ids, size_t nids, const pr_report_opts *o,
                   json_t **out, pr_error *err)
{
    pr_run **runs = pr_xcalloc(nids, sizeof *runs);
    int rc = load_runs(st, ids, nids, runs, err);
    json_t *j = NULL;
    if (rc == 0) {
        j = run_meta_json(runs[0]);
        if (nids > 1) {
            json_t *m = json_array();
            for (size_t i = 0; i < nids; i++)
                json_array_append_new(m, json_integer(ids[i]));
            json_object_set_new(j, "merged_runs", m);
        }
    }
    if (rc == 0 && runs[0]->summary_only && nids == 1) {
        printed_model(j, runs[0], o);
    } else if (rc == 0) {
        int64_t t0, t1;
        runs_bounds(runs, nids, &t0, &t1);
        acc a;
        acc_init(&a, runs, nids, o, t0, t1);
        rc = pr_acc_scan(&a, st, ids, runs, nids, err); /* bins, rows, the sorted latencies */
        if (rc == 0)
            samples_model(j, &a, runs[0], nids, t0, t1);
        pr_acc_dispose(&a);
    }
    for (size_t i = 0; i < nids; i++)
        pr_run_free(runs[i]);
    free(runs);
    if (rc < 0) {
        json_decref(j);
        return rc;
    }
    *out = j;
    return 0;
}

int64_t pr_report_latency_res(const json_t *stats)
{
    json_int_t r = json_integer_value(json_object_get(stats, "latency_resolution_ns"));
    return r > 1 ? (int64_t)r : 1;
}

int pr_report_run(pr_store *st, int64_t run_id, const pr_report_opts *o, json_t **out,
                  pr_error *err)
{
    return analyse(st, &run_id, 1, o, out, err);
}

int pr_report_build(pr_store *st, const int64_t *ids, size_t n, int merge, const pr_report_opts *o,
                    json_t **out, pr_error *err)
{
    json_t *doc = json_object();
    char buf[40];
    set_str(doc, "schema", "perfreport-report");
    set_int(doc, "version", PR_REPORT_SCHEMA_VERSION);
    set_str(doc, "generated", pr_l10n_time(o->generated_s * 1000000000LL, buf));
    json_t *runs = json_array();
    int rc = 0;
    if (merge && n > 0) {
        json_t *r;
        rc = analyse(st, ids, n, o, &r, err);
        if (rc == 0)
            json_array_append_new(runs, r);
    } else {
        for (size_t i = 0; i < n && rc == 0; i++) {
            json_t *r;
            rc = analyse(st, &ids[i], 1, o, &r, err);
            if (rc == 0)
                json_array_append_new(runs, r);
        }
    }
    mark_first_last(runs);
    json_object_set_new(doc, "runs", runs);
    if (rc == 0 && o->findings) {
        /* the findings engine reads the model just built (docs/findings.md) */
        pr_findings_annotate(doc, NULL);
        int any = 0;
        size_t i;
        json_t *r;
        json_array_foreach (runs, i, r) {
            json_t *f = json_object_get(r, "findings");
            any |= json_array_size(f) > 0;
            mark_first_last(f);
        }
        json_object_set_new(doc, "has_findings", json_boolean(any));
    }
    if (rc < 0) {
        json_decref(doc);
        return rc;
    }
    *out = doc;
    return 0;
}
