/* The findings engine: one table of rules over a run of the report model (docs/findings.md). */
#include "analysis/findings.h"
#include "analysis/human.h"
#include "model/l10n.h"
#include "model/sample.h"
#include "model/xalloc.h"
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void pr_findings_opts_init(pr_findings_opts *o)
{
    memset(o, 0, sizeof *o);
    o->min_severity = PR_SEV_INFO;
}

const char *pr_severity_name(pr_severity s)
{
    return s == PR_SEV_CRITICAL ? "critical" : s == PR_SEV_WARNING ? "warning" : "info";
}

const char *pr_severity_text(const char *name)
{
    static const char *const words[] = {NC_("severity", "critical"), NC_("severity", "warning"),
                                        NC_("severity", "info")};
    for (size_t i = 0; name && i < sizeof words / sizeof words[0]; i++)
        if (!strcmp(strchr(words[i], '\004') + 1, name))
            return pr_l10n_pgettext(words[i]);
    return name ? name : "?";
}

/* ---- the run, pre-digested ---------------------------------------------------------------- */

/* One time-series interval. Requests (and their latencies, threads and sent_err) count where
 * they were sent, responses (done, ok, err, thr) where they completed (docs/metrics.md). */
typedef struct pt {
    int64_t t_ns;
    double req, done, ok, err;
    double sent_err;           /* failed requests among those sent in the interval */
    double p50, p90, p99, max; /* ns; NAN when the interval has no latency */
    double thr;                /* successes completed per second */
    double threads;            /* NAN if unknown */
} pt;

typedef struct pr_fctx {
    json_t *run, *stats, *out;
    const pr_finding_rule *rule;
    json_t *runs; /* the document's runs (opts->runs), or NULL */
    int summary_only, closed, open;
    double requests, errors, error_ratio, rate, throughput, offered, concurrency;
    double lat_min, lat_mean, lat_p50, lat_p90, lat_p99, lat_max;
    double duration_ns;
    pt *pts; /* full intervals of the sending period: up to the last send, left out */
    size_t npts;
    pt *all; /* every interval: the partial one and those of the wait included */
    size_t nall;
    int64_t interval_ns;
    int has_threads;
} pr_fctx;

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static double num2(const json_t *o, const char *k1, const char *k2)
{
    return num(json_object_get(o, k1), k2);
}

/* A model number as int64, for times: clamped to ±1e17 ns (3 years) so differences of two
 * never overflow; NaN gives 0. */
static int64_t to_i64(double x)
{
    if (!isfinite(x))
        return 0;
    if (x > 1e17)
        return (int64_t)1e17;
    if (x < -1e17)
        return -(int64_t)1e17;
    return (int64_t)x;
}

static int finite_pos(double x)
{
    return isfinite(x) && x > 0;
}

static char *hdur(double ns, char *buf, size_t size)
{
    return pr_human_duration(isfinite(ns) ? (int64_t)llround(ns) : PR_UNKNOWN, buf, size);
}

static char *hrate(double r, char *buf, size_t size)
{
    return pr_human_rate(r, buf, size);
}

static char *hpct(double r, char *buf, size_t size)
{
    return pr_human_percent(r, buf, size);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of the finite values among v[0..n). NAN when none. */
static double median(const double *v, size_t n)
{
    double *c = pr_xmalloc((n + 1) * sizeof *c);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]))
            c[k++] = v[i];
    double m = NAN;
    if (k) {
        qsort(c, k, sizeof *c, cmp_double);
        m = k % 2 ? c[k / 2] : (c[k / 2 - 1] + c[k / 2]) / 2;
    }
    free(c);
    return m;
}

/* Median over points [from, to) of a field (offset into pt), points without requests skipped. */
static double pts_median(const pt *p, size_t from, size_t to, size_t field)
{
    double *v = pr_xmalloc((to - from + 1) * sizeof *v);
    size_t k = 0;
    for (size_t i = from; i < to; i++)
        if (p[i].req > 0)
            v[k++] = *(const double *)((const char *)&p[i] + field);
    double m = median(v, k);
    free(v);
    return m;
}

#define F_P50 offsetof(pt, p50)
#define F_P90 offsetof(pt, p90)
#define F_P99 offsetof(pt, p99)
#define F_MAX offsetof(pt, max)
#define F_THR offsetof(pt, thr)
#define F_REQ offsetof(pt, req)
#define F_THREADS offsetof(pt, threads)

/* Weighted (by requests) median of the points' p50 over [from, to). */
static double pts_wmedian_p50(const pt *p, size_t from, size_t to)
{
    double total = 0;
    size_t n = 0;
    for (size_t i = from; i < to; i++)
        if (p[i].req > 0 && isfinite(p[i].p50)) {
            total += p[i].req;
            n++;
        }
    if (!n)
        return NAN;
    pt *c = pr_xmalloc(n * sizeof *c);
    size_t k = 0;
    for (size_t i = from; i < to; i++)
        if (p[i].req > 0 && isfinite(p[i].p50))
            c[k++] = p[i];
    /* insertion sort by p50: windows are small */
    for (size_t i = 1; i < k; i++) {
        pt x = c[i];
        size_t j = i;
        while (j > 0 && c[j - 1].p50 > x.p50) {
            c[j] = c[j - 1];
            j--;
        }
        c[j] = x;
    }
    double acc = 0, m = c[k - 1].p50;
    for (size_t i = 0; i < k; i++) {
        acc += c[i].req;
        if (acc >= total / 2) {
            m = c[i].p50;
            break;
        }
    }
    free(c);
    return m;
}

/* Number of points (from the start) holding at least `share` of the full points' requests. */
static size_t pts_prefix(const pr_fctx *c, double share)
{
    double total = 0, acc = 0;
    for (size_t i = 0; i < c->npts; i++)
        total += c->pts[i].req;
    for (size_t i = 0; i < c->npts; i++) {
        acc += c->pts[i].req;
        if (acc >= share * total)
            return i + 1;
    }
    return c->npts;
}

/* Share of the requests sent in points [from, to) that failed; NAN without requests. */
static double pts_sent_error_ratio(const pt *p, size_t from, size_t to)
{
    double req = 0, err = 0;
    for (size_t i = from; i < to; i++)
        if (p[i].req > 0 && isfinite(p[i].sent_err)) {
            req += p[i].req;
            err += p[i].sent_err;
        }
    return req > 0 ? err / req : NAN;
}

static size_t pts_with_requests(const pt *p, size_t from, size_t to)
{
    size_t k = 0;
    for (size_t i = from; i < to; i++)
        k += p[i].req > 0;
    return k;
}

static void load_points(pr_fctx *c)
{
    json_t *ts = json_object_get(c->run, "timeseries");
    json_t *points = json_object_get(ts, "points");
    size_t n = json_array_size(points);
    c->interval_ns = to_i64(num(ts, "interval_ns"));
    if (!n || c->interval_ns <= 0)
        return;
    c->all = pr_xcalloc(n, sizeof *c->all);
    for (size_t i = 0; i < n; i++) {
        json_t *p = json_array_get(points, i);
        pt *q = &c->all[i];
        q->t_ns = to_i64(num(p, "t_ns"));
        q->req = num(p, "requests");
        q->ok = num(p, "successes");
        q->err = num(p, "errors");
        q->done = num(p, "responses");
        if (!isfinite(q->done)) /* a model binned by send time only */
            q->done = isfinite(q->ok) && isfinite(q->err) ? q->ok + q->err : q->req;
        q->sent_err = num(p, "sent_errors");
        if (!isfinite(q->sent_err))
            q->sent_err = q->err;
        q->p50 = num(p, "p50_ns");
        q->p90 = num(p, "p90_ns");
        q->p99 = num(p, "p99_ns");
        q->max = num(p, "max_ns");
        q->thr = num(p, "throughput_per_s");
        q->threads = num(p, "threads");
        if (!isfinite(q->req))
            q->req = 0;
        if (isfinite(q->threads))
            c->has_threads = 1;
    }
    c->nall = n;
    c->pts = c->all;
    /* the interval of the last send is partial (its rates are understated) and the ones after
     * it hold only the wait for the last responses: trend rules leave them out */
    size_t last = n - 1;
    while (last > 0 && !(c->all[last].req > 0))
        last--;
    c->npts = last + 1 > 2 ? last : last + 1;
}

/* The error messages with counts, from the samples' error set or a summary's printed errors. */
static json_t *error_list(const pr_fctx *c)
{
    json_t *e = json_object_get(c->run, "errors");
    if (json_is_array(e))
        return e;
    e = json_object_get(c->stats, "errors");
    return json_is_array(e) ? e : NULL;
}

/* Count of responses with status codes in [lo, hi] (excluding `except`). */
static double status_count(const pr_fctx *c, int lo, int hi, int except)
{
    double n = 0;
    json_t *codes = json_object_get(c->run, "status_codes");
    if (json_is_array(codes)) {
        size_t i;
        json_t *e;
        json_array_foreach (codes, i, e) {
            double cd = num(e, "code");
            int code = isfinite(cd) && fabs(cd) < 1e6 ? (int)cd : -1;
            if (code >= lo && code <= hi && code != except)
                n += num(e, "count");
        }
        return n;
    }
    codes = json_object_get(c->stats, "status_codes");
    if (json_is_object(codes)) {
        const char *k;
        json_t *v;
        json_object_foreach (codes, k, v) {
            int code = atoi(k);
            if (code >= lo && code <= hi && code != except && json_is_number(v))
                n += json_number_value(v);
        }
    }
    return n;
}

static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = hay; *p; p++)
        if (!strncasecmp(p, needle, n))
            return 1;
    return 0;
}

static int matches_any(const char *msg, const char *const *pats)
{
    for (size_t i = 0; pats[i]; i++)
        if (contains_ci(msg, pats[i]))
            return 1;
    return 0;
}

static const char *const timeout_pats[] = {"timeout", "timed out", "deadline exceeded", NULL};
static const char *const refused_pats[] = {"refused", NULL};
static const char *const reset_pats[] = {
    "reset by peer",  "connection reset",  "broken pipe",   "EOF",
    "NoHttpResponse", "connection closed", "server closed", NULL};

/* Sums the counts of error messages matching pats; collects up to 3 examples into ex. NAN when
 * a matching message has no count (a printed error set such as Vegeta's text report). */
static double error_count_matching(const pr_fctx *c, const char *const *pats, json_t *ex)
{
    json_t *errs = error_list(c);
    double n = 0;
    size_t i;
    json_t *e;
    json_array_foreach (errs, i, e) {
        const char *m = json_string_value(json_object_get(e, "message"));
        if (!m || !matches_any(m, pats))
            continue;
        n += num(e, "count");
        if (ex && json_array_size(ex) < 3)
            json_array_append_new(ex, json_string(m));
    }
    return n;
}

/* An error message that only restates an HTTP status ("404 Not Found", as Vegeta writes). */
static int status_message(const char *m)
{
    return isdigit((unsigned char)m[0]) && isdigit((unsigned char)m[1]) &&
           isdigit((unsigned char)m[2]) && m[3] == ' ';
}

/* For an error set printed without counts: the count of a class of transport errors is the
 * number of responses without a status when every transport error message (one that is not
 * a status) is of that class; NAN otherwise. */
static double uncounted_class(const pr_fctx *c, const char *const *pats)
{
    size_t i, matched = 0;
    json_t *e;
    json_array_foreach (error_list(c), i, e) {
        const char *m = json_string_value(json_object_get(e, "message"));
        if (!m || status_message(m))
            continue;
        if (!matches_any(m, pats))
            return NAN;
        matched++;
    }
    double noresp = status_count(c, 0, 0, -1);
    return matched && noresp > 0 ? noresp : NAN;
}

/* The count of an error class: the messages' counts, else (printed without counts) the
 * responses without a status when they can only be that class; *by_status says which. */
static double class_count(const pr_fctx *c, const char *const *pats, json_t *ex, int *by_status)
{
    double n = error_count_matching(c, pats, ex);
    *by_status = 0;
    if (!isfinite(n)) {
        n = uncounted_class(c, pats);
        *by_status = isfinite(n);
    }
    return n;
}

/* "request" or "requests" for a count, in the reader's language. */
static const char *requests_word(double n)
{
    return n_("request", "requests", n == 1 ? 1 : n < 1e9 ? (unsigned long)n : 1000000000ul);
}

/* ---- emitting ----------------------------------------------------------------------------- */

static json_t *emit(pr_fctx *c, const char *title, json_t *evidence, const char *rec,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static json_t *emit(pr_fctx *c, const char *title, json_t *evidence, const char *rec,
                    const char *fmt, ...)
{
    char text[2400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    json_t *f = json_object();
    json_object_set_new(f, "id", json_string(c->rule->id));
    const char *sev = pr_severity_name(c->rule->severity);
    json_object_set_new(f, "severity", json_string(sev));
    json_object_set_new(f, "severity_text", json_string(pr_severity_text(sev)));
    json_object_set_new(f, "title", json_string(title));
    json_object_set_new(f, "explanation", json_string(text));
    json_object_set_new(f, "evidence", evidence ? evidence : json_object());
    json_object_set_new(f, "recommendation", json_string(rec));
    json_array_append_new(c->out, f);
    return f;
}

static void ev_num(json_t *ev, const char *k, double v)
{
    if (!isfinite(v))
        json_object_set_new(ev, k, json_null());
    else if (v == floor(v) && fabs(v) < 9e15)
        json_object_set_new(ev, k, json_integer((json_int_t)v));
    else
        json_object_set_new(ev, k, json_real(v));
}

/* ev_num for a value that may not apply: left out when not finite. */
static void ev_opt(json_t *ev, const char *k, double v)
{
    if (isfinite(v))
        ev_num(ev, k, v);
}

static void set_t(json_t *f, int64_t t_ns)
{
    json_object_set_new(f, "t_ns", json_integer(t_ns));
}

/* ---- rules -------------------------------------------------------------------------------- */

/* Little's law in-flight requests needed to sustain `rate` at the mean latency. */
static double in_flight(double rate, double mean_ns)
{
    return rate * mean_ns / 1e9;
}

/* Latency steady over the run: last third's median p50 under 1.5× the first third's. */
static int latency_steady(const pr_fctx *c)
{
    if (c->npts < 6)
        return 1;
    size_t t = c->npts / 3;
    double a = pts_median(c->pts, 0, t, F_P50), b = pts_median(c->pts, c->npts - t, c->npts, F_P50);
    return !(isfinite(a) && isfinite(b) && b > 1.5 * a);
}

static int generator_bound(const pr_fctx *c)
{
    if (!finite_pos(c->offered) || !isfinite(c->rate) || c->rate >= 0.9 * c->offered)
        return 0;
    if (isfinite(c->error_ratio) && c->error_ratio >= 0.01)
        return 0;
    if (!latency_steady(c))
        return 0;
    if (finite_pos(c->concurrency) && isfinite(c->lat_mean))
        return in_flight(c->offered, c->lat_mean) <= c->concurrency;
    return c->open;
}

static void rule_generator(pr_fctx *c)
{
    if (!generator_bound(c))
        return;
    char a[32], b[32], d[32];
    json_t *ev = json_object();
    ev_num(ev, "offered_rate_per_s", c->offered);
    ev_num(ev, "rate_per_s", c->rate);
    ev_num(ev, "rate_ratio", c->rate / c->offered);
    ev_num(ev, "latency_mean_ns", c->lat_mean);
    ev_num(ev, "concurrency", c->concurrency);
    ev_num(ev, "needed_in_flight", in_flight(c->offered, c->lat_mean));
    ev_num(ev, "error_ratio_max", 0.01);
    if (finite_pos(c->concurrency))
        emit(c, _("The load generator did not reach the offered rate"), ev,
             _("Give the load generator more CPU, threads or machines (or lower its per-request "
               "work: assertions, logging, listeners) and re-run; the server was not the limit."),
             _("Requests were sent at %s, %.0f%% of the offered %s, while latency stayed low "
               "(mean %s, steady over the run) and errors stayed under 1%%. By Little's law the "
               "offered rate needed only %.1f requests in flight at that latency, within the %.0f "
               "configured threads/connections: the generator, not the server, fell short."),
             hrate(c->rate, a, sizeof a), 100 * c->rate / c->offered,
             hrate(c->offered, b, sizeof b), hdur(c->lat_mean, d, sizeof d),
             in_flight(c->offered, c->lat_mean), c->concurrency);
    else
        emit(c, _("The load generator did not reach the offered rate"), ev,
             _("Give the load generator more CPU, workers or machines and re-run; the server was "
               "not the limit."),
             _("The open-model generator sent %s, %.0f%% of the offered %s, while latency stayed "
               "low (mean %s, steady over the run) and errors stayed under 1%%: it could not "
               "schedule requests fast enough."),
             hrate(c->rate, a, sizeof a), 100 * c->rate / c->offered,
             hrate(c->offered, b, sizeof b), hdur(c->lat_mean, d, sizeof d));
}

/* Successes known or derived from a printed success ratio; NAN if neither. */
static double successes(const pr_fctx *c)
{
    double ok = num(c->stats, "successes");
    if (!isfinite(ok) && isfinite(c->error_ratio) && isfinite(c->requests))
        ok = round((1 - c->error_ratio) * c->requests);
    return ok;
}

/* What shows that the server, not the test, limited the throughput (docs/findings.md,
 * saturation): latency rising through the run (queueing), a mean latency that is a large share
 * of the sending time (summary-only runs: Little's law), or answers that say "over capacity"
 * (503, 429). Adds its numbers to ev and a sentence to out; 0 when none holds. */
static int capacity_signal(const pr_fctx *c, json_t *ev, char *out, size_t size)
{
    char a[32], b[32], d[32];
    size_t t = c->npts / 3;
    if (t >= 2 && pts_with_requests(c->pts, 0, c->npts) >= 6) {
        double l1 = pts_median(c->pts, 0, t, F_P90),
               l3 = pts_median(c->pts, c->npts - t, c->npts, F_P90);
        if (finite_pos(l1) && isfinite(l3) && l3 >= 2 * l1 && l3 - l1 >= 10e6) {
            ev_num(ev, "p90_first_third_ns", l1);
            ev_num(ev, "p90_last_third_ns", l3);
            snprintf(out, size,
                     _(" Latency grew while the load held, a queue building up: the "
                       "median p90 of the intervals went from %s in the first third of the run to "
                       "%s in the last."),
                     hdur(l1, a, sizeof a), hdur(l3, b, sizeof b));
            return 1;
        }
    } else if (c->summary_only && finite_pos(c->duration_ns) && finite_pos(c->lat_mean) &&
               c->lat_mean >= 0.1 * c->duration_ns &&
               !(isfinite(c->lat_p50) && c->lat_p50 < 0.05 * c->duration_ns)) {
        ev_num(ev, "attack_duration_ns", c->duration_ns);
        ev_num(ev, "latency_mean_share_of_duration", c->lat_mean / c->duration_ns);
        snprintf(out, size,
                 _(" The mean latency is %s of the %s over which the requests were "
                   "sent: they waited in a queue rather than being answered as they arrived."),
                 hpct(c->lat_mean / c->duration_ns, a, sizeof a),
                 hdur(c->duration_ns, b, sizeof b));
        return 1;
    }
    /* A queue full from the start: the requests went out at the offered pace, the typical one
     * waited near the ceiling where many ended by a timeout (latency plateaus, it cannot grow) */
    json_t *ex = json_array();
    int by_status;
    double tmo = class_count(c, timeout_pats, ex, &by_status);
    json_decref(ex);
    if (finite_pos(c->offered) && isfinite(c->rate) && c->rate >= 0.9 * c->offered &&
        c->requests > 0 && isfinite(tmo) && tmo / c->requests >= 0.01 && finite_pos(c->lat_max) &&
        c->lat_max >= 100e6 && isfinite(c->lat_p50) && c->lat_p50 >= 0.25 * c->lat_max) {
        ev_num(ev, "timeout_errors", tmo);
        ev_num(ev, "timeout_ratio", tmo / c->requests);
        ev_num(ev, "latency_p50_ns", c->lat_p50);
        ev_num(ev, "latency_max_ns", c->lat_max);
        ev_num(ev, "latency_p50_share_of_max_min", 0.25);
        snprintf(out, size,
                 _(" The requests went out at the offered pace, but %s of them timed out and the "
                   "median request waited %s, near the slowest %s: the queue was full from early "
                   "in the run."),
                 hpct(tmo / c->requests, a, sizeof a), hdur(c->lat_p50, b, sizeof b),
                 hdur(c->lat_max, d, sizeof d));
        return 1;
    }
    double over = status_count(c, 503, 503, -1) + status_count(c, 429, 429, -1);
    /* a burst of 503s that ends while the load holds is an episode, not a limit: with a time
     * series the failures must last into the last quarter of the run */
    size_t q = c->npts / 4;
    int lasting = 1;
    if (q >= 2 && pts_with_requests(c->pts, 0, c->npts) >= 8 && isfinite(c->error_ratio)) {
        double tail = pts_sent_error_ratio(c->pts, c->npts - q, c->npts);
        lasting = !(isfinite(tail) && tail < 0.5 * c->error_ratio);
    }
    if (c->requests > 0 && over >= 1 && over / c->requests >= 0.01 && lasting) {
        ev_num(ev, "over_capacity_responses", over);
        ev_num(ev, "over_capacity_ratio", over / c->requests);
        snprintf(out, size,
                 _(" %.0f %s (%s) answered 503 or 429: the server said it was over "
                   "capacity."),
                 over, requests_word(over), hpct(over / c->requests, a, sizeof a));
        return 1;
    }
    return 0;
}

/* The server's limit: with a time series, the mean of the upper half of the full intervals'
 * successful throughput (its best sustained pace: a queue that collapses later does not hide it), never
 * under what it served over the run; otherwise what it served. */
static double server_limit(const pr_fctx *c, double served)
{
    double *v = pr_xmalloc((c->npts + 1) * sizeof *v);
    size_t k = 0;
    for (size_t i = 0; i < c->npts; i++)
        if (c->pts[i].req > 0 && isfinite(c->pts[i].thr))
            v[k++] = c->pts[i].thr;
    double lim = served;
    if (k >= 6) {
        qsort(v, k, sizeof *v, cmp_double);
        double sum = 0;
        for (size_t i = k / 2; i < k; i++)
            sum += v[i];
        if (sum / (double)(k - k / 2) > lim)
            lim = sum / (double)(k - k / 2);
    }
    free(v);
    return lim;
}

/* Condition A: what the server served (successes and client errors: a fast 404 is not lost
 * capacity) fell short of the offered rate, and the server shows its limit. */
static int saturation_offered(pr_fctx *c)
{
    double ok = successes(c), client = status_count(c, 400, 499, 429);
    if (!finite_pos(c->offered) || !finite_pos(ok) || !isfinite(c->throughput) ||
        generator_bound(c))
        return 0;
    double served = c->throughput * (ok + client) / ok;
    if (json_is_object(json_object_get(c->run, "window")) && isfinite(c->rate) &&
        isfinite(c->error_ratio) && c->requests > 0)
        served = c->rate * (1 - c->error_ratio + client / c->requests);
    if (!(served < 0.9 * c->offered))
        return 0;
    json_t *ev = json_object();
    char why[800];
    if (!capacity_signal(c, ev, why, sizeof why)) {
        json_decref(ev);
        return 0;
    }
    char a[32], b[32], d[32], e[32], g[32], h[32];
    const char *src =
        json_string_value(json_object_get(json_object_get(c->run, "load"), "offered_rate_source"));
    int inferred = src && !strcmp(src, "inferred");
    ev_num(ev, "offered_rate_per_s", c->offered);
    if (src)
        json_object_set_new(ev, "offered_rate_source", json_string(src));
    ev_num(ev, "served_per_s", served);
    ev_num(ev, "served_ratio", served / c->offered);
    ev_num(ev, "throughput_per_s", c->throughput);
    ev_num(ev, "client_errors", client);
    ev_num(ev, "rate_per_s", c->rate);
    ev_num(ev, "latency_mean_ns", c->lat_mean);
    ev_num(ev, "error_ratio", c->error_ratio);
    ev_num(ev, "in_flight_estimate", in_flight(served, c->lat_mean));
    double limit = server_limit(c, served);
    ev_num(ev, "server_limit_per_s", limit);
    emit(c, _("Throughput stopped well below the offered rate"), ev,
         _("The system under test is saturated at this load: find the resource at its limit "
           "(CPU, a connection or thread pool, a database) and run a series of increasing "
           "rates (perfreport capacity) to locate the knee."),
         _("Served %s (%s, %.0f%%) of the %s offered%s: the server's limit is about %s. "
           "Requests were sent at %s and %s failed.%s With a mean latency of %s, Little's law "
           "puts about %.1f requests in flight: the server, not the load generator, held the "
           "throughput down."),
         hrate(served, a, sizeof a),
         client > 0 ? _("successes and client errors") : _("successful responses"),
         100 * served / c->offered, hrate(c->offered, b, sizeof b),
         inferred ? _(" (inferred)") : "", hrate(limit, h, sizeof h), hrate(c->rate, d, sizeof d),
         hpct(c->error_ratio, e, sizeof e), why, hdur(c->lat_mean, g, sizeof g),
         in_flight(served, c->lat_mean));
    return 1;
}

/* The series a closed-model run belongs to: the document's runs of the same tool and target
 * (labels, or ab's document path), closed model, concurrency known. The key goes to buf. */
static void series_key(const json_t *run, char *buf, size_t size)
{
    const char *tool = json_string_value(json_object_get(run, "tool"));
    const char *path = json_string_value(json_object_get(
        json_object_get(json_object_get(run, "tool_summary"), "tool"), "Document Path"));
    size_t n = (size_t)snprintf(buf, size, "%s|%s", tool ? tool : "", path ? path : "");
    size_t i;
    json_t *l;
    json_array_foreach (json_object_get(run, "labels"), i, l) {
        const char *name = json_string_value(json_object_get(l, "label"));
        if (n < size)
            n += (size_t)snprintf(buf + n, size - n, "|%s", name ? name : "");
    }
}

typedef struct series_pt {
    double n, x, r, min; /* concurrency, throughput, mean latency, min latency */
    int self;
} series_pt;

static int cmp_series(const void *a, const void *b)
{
    const series_pt *x = a, *y = b;
    return (x->n > y->n) - (x->n < y->n);
}

/* Collects the closed-model series of c->run into *out (sorted by concurrency); returns the
 * number of points, 0 when the run has no series of at least 3 concurrencies. */
static size_t series_points(const pr_fctx *c, series_pt **out)
{
    char key[1024], k2[1024];
    *out = NULL;
    if (!c->closed || !finite_pos(c->concurrency) || !json_is_array(c->runs))
        return 0;
    series_key(c->run, key, sizeof key);
    series_pt *v = pr_xcalloc(json_array_size(c->runs) + 1, sizeof *v);
    size_t k = 0, i;
    json_t *r;
    json_array_foreach (c->runs, i, r) {
        const char *lm = json_string_value(json_object_get(r, "load_model"));
        json_t *st = json_object_get(r, "stats");
        double n = num(r, "concurrency"), x = num(st, "throughput_per_s"),
               rr = num2(st, "latency_ns", "mean"), mn = num2(st, "latency_ns", "min");
        if (!lm || strcmp(lm, "closed") || !finite_pos(n) || !finite_pos(x) || !finite_pos(rr))
            continue;
        series_key(r, k2, sizeof k2);
        if (strcmp(key, k2))
            continue;
        v[k++] = (series_pt){n, x, rr, mn, r == c->run};
    }
    qsort(v, k, sizeof *v, cmp_series);
    for (size_t j = 1; j < k; j++)
        if (v[j].n == v[j - 1].n) { /* one run per concurrency, or no series */
            free(v);
            return 0;
        }
    if (k < 3) {
        free(v);
        return 0;
    }
    *out = v;
    return k;
}

/* Condition C: in a series of closed-model runs, throughput stopped growing with the
 * concurrency while the mean latency grew with it (Little's law: the extra users queued). */
static int saturation_series(pr_fctx *c)
{
    series_pt *v;
    size_t k = series_points(c, &v);
    if (!k)
        return 0;
    size_t me = 0;
    while (!v[me].self)
        me++;
    int sat = 0;
    for (size_t i = 0; i < k && !sat; i++) {
        if (i < me) /* fewer users gave as much: the added ones only waited */
            sat = v[me].x <= 1.1 * v[i].x && v[me].r >= 1.3 * v[i].r;
        else if (i > me) /* more users gave no more, and this run already queued */
            sat = v[i].x <= 1.1 * v[me].x && v[i].r >= 1.3 * v[me].r && finite_pos(v[me].min) &&
                  v[me].r >= 2 * v[me].min;
    }
    if (!sat) {
        free(v);
        return 0;
    }
    /* the flat stretch: the runs from the lowest concurrency whose throughput is within 10% of
     * this run's (both ways) */
    size_t lo = me, hi = me;
    while (lo > 0 && v[lo - 1].x >= v[me].x / 1.1 && v[lo - 1].x <= 1.1 * v[me].x)
        lo--;
    while (hi + 1 < k && v[hi + 1].x >= v[me].x / 1.1 && v[hi + 1].x <= 1.1 * v[me].x)
        hi++;
    double xmin = v[lo].x, xmax = v[lo].x;
    char list[256] = "";
    size_t len = 0;
    json_t *ev = json_object(), *pts = json_array();
    for (size_t i = lo; i <= hi; i++) {
        xmin = fmin(xmin, v[i].x), xmax = fmax(xmax, v[i].x);
        const char *sep = i == lo ? "" : i == hi ? _(" and ") : ", ";
        if (len < sizeof list)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%.0f", sep, v[i].n);
        json_t *p = json_object();
        ev_num(p, "concurrency", v[i].n);
        ev_num(p, "throughput_per_s", v[i].x);
        ev_num(p, "latency_mean_ns", v[i].r);
        ev_num(p, "littles_law_concurrency", v[i].x * v[i].r / 1e9);
        json_array_append_new(pts, p);
    }
    json_object_set_new(ev, "series", pts);
    ev_num(ev, "throughput_min_per_s", xmin);
    ev_num(ev, "throughput_max_per_s", xmax);
    ev_num(ev, "concurrency", v[me].n);
    ev_num(ev, "throughput_per_s", v[me].x);
    ev_num(ev, "latency_mean_ns", v[me].r);
    ev_num(ev, "littles_law_concurrency", v[me].x * v[me].r / 1e9);
    char a[32], b[32], d[32], e[32], g[32], h[32];
    emit(c, _("Throughput stopped growing with the concurrency"), ev,
         _("The system under test is saturated: more users only wait longer. Find the resource "
           "at its limit (CPU, a connection or thread pool, a database); size the test's "
           "concurrency at the knee, the lowest concurrency of the flat stretch."),
         _("%s to %s at %s concurrent users; latency grew with the users (mean %s at %.0f, %s at "
           "%.0f): the server set the pace. Here, %.0f users at %s and a mean latency of %s give "
           "%.1f in flight by Little's law: every user was waiting on the server."),
         hrate(xmin, a, sizeof a), hrate(xmax, b, sizeof b), list, hdur(v[lo].r, d, sizeof d),
         v[lo].n, hdur(v[hi].r, e, sizeof e), v[hi].n, v[me].n, hrate(v[me].x, g, sizeof g),
         hdur(v[me].r, h, sizeof h), v[me].x * v[me].r / 1e9);
    free(v);
    return 1;
}

static void rule_saturation(pr_fctx *c)
{
    char a[32], b[32], d[32], e[32];
    if (saturation_offered(c) || saturation_series(c))
        return;
    /* throughput flat while concurrency rises (a ramp of threads) */
    if (!c->has_threads || pts_with_requests(c->pts, 0, c->npts) < 8)
        return;
    size_t q = c->npts / 4;
    if (q < 2)
        return;
    double th1 = pts_median(c->pts, 0, q, F_THREADS),
           th4 = pts_median(c->pts, c->npts - q, c->npts, F_THREADS);
    double x1 = pts_median(c->pts, 0, q, F_THR),
           x4 = pts_median(c->pts, c->npts - q, c->npts, F_THR);
    double l1 = pts_median(c->pts, 0, q, F_P50),
           l4 = pts_median(c->pts, c->npts - q, c->npts, F_P50);
    if (!(finite_pos(th1) && finite_pos(x1) && finite_pos(l1) && isfinite(th4) && isfinite(x4) &&
          isfinite(l4)))
        return;
    if (th4 >= 1.5 * th1 && x4 <= 1.1 * x1 && l4 >= 1.3 * l1) {
        json_t *ev = json_object();
        ev_num(ev, "threads_first_quarter", th1);
        ev_num(ev, "threads_last_quarter", th4);
        ev_num(ev, "throughput_first_quarter_per_s", x1);
        ev_num(ev, "throughput_last_quarter_per_s", x4);
        ev_num(ev, "p50_first_quarter_ns", l1);
        ev_num(ev, "p50_last_quarter_ns", l4);
        ev_num(ev, "from_ns", (double)c->pts[c->npts - q].t_ns);
        json_t *f = emit(
            c, _("Throughput stayed flat while concurrency rose"), ev,
            _("The extra threads only queued: the system is saturated at the lower concurrency. "
              "Look for the pool, lock or CPU that limits it, and size the test's concurrency "
              "below this point."),
            _("Active threads rose from %.0f (first quarter of the run) to %.0f (last quarter), "
              "but throughput went from %s to only %s while the median latency grew from %s to "
              "%s. By Little's law (concurrency = throughput × latency) the added concurrency "
              "turned into waiting, not work."),
            th1, th4, hrate(x1, a, sizeof a), hrate(x4, b, sizeof b), hdur(l1, d, sizeof d),
            hdur(l4, e, sizeof e));
        set_t(f, c->pts[c->npts - q].t_ns);
    }
}

/* From the percentile spectrum: *frac, a lower bound of the share of latencies within 5% of
 * the maximum (the first percentile p whose latency reaches 0.95 max: at least 1 − p/100 are at
 * or above it, *ceiling that latency), and *band, an upper bound of the share in [0.8 max,
 * 0.95 max) (from the last percentile p' under 0.8 max: at most 1 − p'/100 are above it). A
 * pile at a ceiling has few latencies just under it. */
static void near_max_shares(const pr_fctx *c, double *frac, double *ceiling, double *band)
{
    double below = 1;
    *frac = 0, *ceiling = NAN;
    json_t *spec = json_object_get(c->run, "spectrum");
    if (json_is_array(spec) && isfinite(c->lat_max) && c->lat_max > 0) {
        size_t i;
        json_t *e;
        json_array_foreach (spec, i, e) {
            double q = num(e, "latency_ns"), p = num(e, "percentile");
            if (!isfinite(q) || !isfinite(p))
                continue;
            if (q < 0.8 * c->lat_max)
                below = 1 - p / 100;
            if (q >= 0.95 * c->lat_max) {
                *frac = p < 100 ? 1 - p / 100 : 0;
                *ceiling = q;
                break;
            }
        }
    }
    *band = below - *frac;
}

/* The default client timeout of the tools that have one (their documentation: Vegeta
 * -timeout 30s, hey -t 20, k6 timeout 60s, ab -s 30); 0 when none or unknown. */
static double default_timeout_ns(const char *tool)
{
    static const struct {
        const char *tool;
        double s;
    } d[] = {{"vegeta", 30}, {"hey", 20}, {"k6", 60}, {"ab", 30}};
    for (size_t i = 0; tool && i < sizeof d / sizeof d[0]; i++)
        if (!strcmp(d[i].tool, tool))
            return d[i].s * 1e9;
    return 0;
}

static void rule_timeouts(pr_fctx *c)
{
    json_t *ex = json_array();
    int by_status;
    double tmo = class_count(c, timeout_pats, ex, &by_status);
    double frac, ceiling, band;
    near_max_shares(c, &frac, &ceiling, &band);
    double noresp = status_count(c, 0, 0, -1);
    int by_msg = tmo >= 1 && c->requests > 0 && tmo / c->requests >= 0.001;
    /* status 0 also marks samples whose outcome is unknown (ab -g): count it only as far as
     * errors are known */
    if (!isfinite(c->errors))
        noresp = 0;
    else if (noresp > c->errors)
        noresp = c->errors;
    int by_pile = frac >= 0.01 && frac * c->requests >= 3 && frac >= 2 * band &&
                  finite_pos(c->lat_p50) && ceiling >= 3 * c->lat_p50 && c->requests > 0 &&
                  noresp / c->requests >= 0.01;
    /* a summary's failures without a status whose p99 or max sits at the tool's default
     * timeout: the tool's own ceiling, whatever its error messages say */
    const char *tool = json_string_value(json_object_get(c->run, "tool"));
    double dflt = default_timeout_ns(tool), at = NAN;
    if (dflt > 0 && noresp >= 1) {
        if (isfinite(c->lat_max) && c->lat_max >= 0.995 * dflt && c->lat_max <= 1.05 * dflt)
            at = c->lat_max;
        else if (isfinite(c->lat_p99) && c->lat_p99 >= 0.995 * dflt && c->lat_p99 <= 1.05 * dflt)
            at = c->lat_p99;
    }
    int by_default = isfinite(at);
    if (!by_msg && !by_pile && !by_default) {
        json_decref(ex);
        return;
    }
    char a[32], b[32], d[32], e[32];
    json_t *ev = json_object();
    ev_num(ev, "timeout_errors", tmo);
    ev_num(ev, "timeout_ratio", c->requests > 0 ? tmo / c->requests : NAN);
    if (by_status)
        json_object_set_new(ev, "timeout_errors_from", json_string("no_response"));
    ev_num(ev, "no_response", noresp);
    ev_num(ev, "latency_max_ns", c->lat_max);
    ev_num(ev, "near_max_band", 0.05);
    ev_num(ev, "near_max_ratio_min", frac);
    ev_num(ev, "below_ceiling_ratio_max", band > 0 ? band : 0);
    ev_num(ev, "latency_p50_ns", c->lat_p50);
    json_object_set_new(ev, "messages", ex);
    if (by_pile) {
        double n = by_msg ? tmo : noresp;
        double ratio = c->lat_max / c->lat_p50;
        char times[32];
        if (ratio >= 10)
            snprintf(times, sizeof times, "%.0f", ratio);
        else
            snprintf(times, sizeof times, "%.1f", ratio);
        ev_num(ev, "max_over_p50", ratio);
        emit(c, _("Requests hit the client timeout"), ev,
             _("The server did not answer these requests within the client's timeout. Find what "
               "they waited on (slow dependency, exhausted pool, lock); raising the timeout only "
               "hides it. Percentiles above the ceiling are cut off by the timeout."),
             _("%.0f %s (%s) ended without a response; at least %s of all latencies sit within "
               "%.0f%% of the maximum %s, a ceiling %s times the median %s: a configured "
               "client timeout, not the server's answer time."),
             n, requests_word(n), hpct(n / c->requests, a, sizeof a), hpct(frac, b, sizeof b),
             0.05 * 100, hdur(c->lat_max, d, sizeof d), times, hdur(c->lat_p50, e, sizeof e));
        return;
    }
    if (by_default) {
        ev_num(ev, "tool_default_timeout_ns", dflt);
        ev_num(ev, at == c->lat_max ? "latency_max_ns" : "latency_p99_ns", at);
        double n = by_msg ? tmo : noresp;
        emit(c, _("Requests hit the client timeout"), ev,
             _("The server did not answer these requests within the client's timeout. Find what "
               "they waited on (slow dependency, exhausted pool, lock); raising the timeout only "
               "hides it. Percentiles above the ceiling are cut off by the timeout."),
             _("%.0f %s (%s) ended without a response, and the %s latency is %s, at %s's "
               "default timeout of %s: these requests were cut off by the client, not answered "
               "slowly."),
             n, requests_word(n), hpct(n / c->requests, a, sizeof a),
             at == c->lat_max ? _("maximum") : "p99", hdur(at, d, sizeof d), tool,
             hdur(dflt, e, sizeof e));
        return;
    }
    const char *m = json_string_value(json_array_get(ex, 0));
    emit(c, _("Requests hit the client timeout"), ev,
         _("The server did not answer these requests within the client's timeout. Find what they "
           "waited on (slow dependency, exhausted pool, lock); raising the timeout only hides it."),
         _("%.0f %s (%s) failed with a timeout error (e.g. \"%s\")%s; the slowest recorded request "
           "took %s."),
         tmo, requests_word(tmo), hpct(tmo / c->requests, a, sizeof a), m ? m : "",
         by_status ? _(", counted as the responses without a status: the tool printed its errors "
                       "without counts")
                   : "",
         hdur(c->lat_max, d, sizeof d));
}

static void rule_error_onset(pr_fctx *c)
{
    if (!finite_pos(c->errors) || !(c->error_ratio >= 0.001) || c->nall < 2)
        return;
    double r = c->error_ratio;
    size_t onset = c->nall;
    /* which requests failed: by send time (a timeout shows up a timeout later) */
    for (size_t i = 0; i < c->nall; i++)
        if (c->all[i].req > 0 && isfinite(c->all[i].sent_err) &&
            c->all[i].sent_err / c->all[i].req >= 0.5 * r) {
            onset = i;
            break;
        }
    if (onset == c->nall)
        return;
    double before = 0, total = 0, eb = 0, ea = 0;
    for (size_t i = 0; i < c->nall; i++) {
        double e = isfinite(c->all[i].sent_err) ? c->all[i].sent_err : 0;
        total += c->all[i].req;
        if (i < onset) {
            before += c->all[i].req;
            eb += e;
        } else {
            ea += e;
        }
    }
    double rb = before, ra = total - before;
    /* an onset needs a clean stretch before it: at least 10% of the requests, with an error
     * ratio under a quarter of the one after */
    int from_start = rb < 0.10 * total || !(ra > 0) || eb / rb > 0.25 * (ea / ra);
    int64_t t = from_start ? c->all[0].t_ns : c->all[onset].t_ns;
    char a[32], b[32], d[32], e[32], g[32], h[32], k[32], m[32];
    json_t *ev = json_object();
    ev_num(ev, "onset_ns", (double)t);
    ev_num(ev, "errors", c->errors);
    ev_num(ev, "error_ratio", r);
    ev_num(ev, "clean_share_min", 0.10);
    json_t *f;
    if (from_start) {
        f = emit(
            c, _("Errors throughout the run, from the start"), ev,
            _("Errors present from the first interval point at the test setup or the target "
              "(wrong URL, missing data, service down) rather than at load: see the error-class "
              "findings and fix them before reading the latency numbers."),
            _("%.0f %s failed (%s), spread over the run from its start (no clean stretch of "
              "at least %.0f%% of the requests before errors appear): they do not come from "
              "the load building up."),
            c->errors, requests_word(c->errors), hpct(r, a, sizeof a), 0.10 * 100);
    } else {
        size_t b0 = onset > 5 ? onset - 5 : 0, a1 = onset + 5 < c->nall ? onset + 5 : c->nall;
        double p_before = pts_median(c->all, b0, onset, F_P50);
        double p_after = pts_median(c->all, onset, a1, F_P50);
        double x_before = pts_median(c->all, b0, onset, F_THR);
        double x_after = pts_median(c->all, onset, a1, F_THR);
        ev_num(ev, "p50_before_ns", p_before);
        ev_num(ev, "p50_after_ns", p_after);
        ev_num(ev, "throughput_before_per_s", x_before);
        ev_num(ev, "throughput_after_per_s", x_after);
        ev_num(ev, "error_ratio_before", rb > 0 ? eb / rb : NAN);
        ev_num(ev, "error_ratio_after", ra > 0 ? ea / ra : NAN);
        f = emit(
            c, _("Errors start partway through the run"), ev,
            _("Errors that begin under sustained load point at a limit being reached (pool, "
              "queue, memory, rate limit): correlate this moment with the server's metrics and "
              "logs, and see the error classes for the kind of failure."),
            _("Errors start %s into the run (first interval with at least half the run's "
              "error ratio of %s): before, %s of requests failed with a median latency of %s "
              "and %s successful; after, %s failed, median %s and %s successful."),
            hdur((double)t, a, sizeof a), hpct(r, b, sizeof b),
            hpct(rb > 0 ? eb / rb : NAN, d, sizeof d), hdur(p_before, e, sizeof e),
            hrate(x_before, g, sizeof g), hpct(ra > 0 ? ea / ra : NAN, h, sizeof h),
            hdur(p_after, k, sizeof k), hrate(x_after, m, sizeof m));
    }
    set_t(f, t);
}

/* Labels whose error ratio is at least 50%: where a broken request lives. */
static json_t *failing_labels(const pr_fctx *c)
{
    json_t *arr = json_array();
    size_t i;
    json_t *l;
    json_array_foreach (json_object_get(c->run, "labels"), i, l) {
        if (num(l, "error_ratio") >= 0.5 && json_array_size(arr) < 10)
            json_array_append_new(arr,
                                  json_string(json_string_value(json_object_get(l, "label"))
                                                  ? json_string_value(json_object_get(l, "label"))
                                                  : ""));
    }
    return arr;
}

static void error_class(pr_fctx *c, double n, int by_status, json_t *ex, const char *title,
                        const char *why, const char *rec)
{
    if (!(n >= 1) || !(c->requests > 0) || n / c->requests < 0.001) {
        json_decref(ex);
        return;
    }
    char a[32];
    json_t *ev = json_object();
    ev_num(ev, "count", n);
    ev_num(ev, "ratio", n / c->requests);
    if (by_status) /* an error set printed without counts */
        json_object_set_new(ev, "count_from", json_string("no_response"));
    if (ex)
        json_object_set_new(ev, "examples", ex);
    json_t *fl = failing_labels(c);
    if (json_array_size(fl))
        json_object_set_new(ev, "labels", fl);
    else
        json_decref(fl);
    json_t *f = emit(c, title, ev, rec, _("%.0f %s (%s) %s%s"), n, requests_word(n),
                     hpct(n / c->requests, a, sizeof a), why,
                     by_status ? _(" Counted as the responses without a status: the tool printed "
                                   "its errors without counts.")
                               : "");
    json_t *lb = json_object_get(ev, "labels");
    if (json_array_size(lb) == 1)
        json_object_set(f, "label", json_array_get(lb, 0));
}

/* The error classes (docs/findings.md, "Error classes"), a row each: the messages or the
 * statuses that count a request in, and the finding's words. */
typedef struct error_class_rule {
    const char *const *pats; /* messages containing one of these, else: */
    int lo, hi, except;      /* statuses lo..hi but except */
    const char *title, *why, *rec;
} error_class_rule;

enum { EC_REFUSED, EC_RESET, EC_5XX, EC_429, EC_4XX };
static const error_class_rule error_classes[] = {
    [EC_REFUSED] =
        {refused_pats, 0, 0, -1, N_("Connections refused: nothing listening"),
         N_("failed with \"connection refused\": the target host answered that no "
            "process listens on that port (service down, wrong port or host, or a listen "
            "backlog overflowing)."),
         N_("Check that the service is up and the URL's host and port are right; if it "
            "happens only under load, raise the listen backlog (somaxconn) and accept "
            "rate.")},
    [EC_RESET] = {reset_pats, 0, 0, -1, N_("Connections reset or closed by the server"),
                  N_("failed because the server or a proxy dropped the connection (reset, broken "
                     "pipe, EOF): typical of overload protection, connection or file-descriptor "
                     "limits, or idle keep-alive connections closed by the other side."),
                  N_("Check the server's and proxy's connection limits (max connections, worker "
                     "count, ulimit -n) and keep-alive timeouts against the test's concurrency.")},
    [EC_5XX] =
        {NULL, 500, 599, -1, N_("Server errors (5xx)"),
         N_("got a 5xx status: the server (or a gateway in front of it) failed to handle "
            "them; 502/503/504 usually mean an upstream was down, overloaded or too slow."),
         N_("Read the server logs at the error times; if 5xx grow with load, the server runs "
            "out of a resource before the client does.")},
    [EC_429] =
        {NULL, 429, 429, -1, N_("Rate limited (429)"),
         N_("got 429 Too Many Requests: a rate limiter refused them, so the test measured "
            "the limiter, not the service."),
         N_("Exempt the load generator from the rate limit (or raise it) if the service's "
            "capacity is what you want to measure; otherwise this is the expected ceiling.")},
    [EC_4XX] = {NULL, 400, 499, 429, N_("Client errors (4xx): check the test script"),
                N_("got a 4xx status other than 429: the requests themselves are wrong (missing "
                   "page, bad payload, expired token), which points at the test script or test "
                   "data rather than the server's capacity."),
                N_("Fix the failing requests (URLs, bodies, authentication, test data) before "
                   "reading the latency numbers: failing requests are often much faster or slower "
                   "than real ones.")},
};

/* ab's report counts its failures by category, never by cause: "Connect" is a connect that
 * failed (refused); "Receive" a read that failed, a connection the server reset or, when
 * not one byte ever came back and every request failed so, a connection refused at once (ab
 * -r sees a refusal at its first read). Returns the count of the class (refused or reset),
 * NAN when the run has no such counter. ("Exceptions" count the same requests again.) */
static double ab_connection_failures(const pr_fctx *c, int refused, json_t *ex)
{
    double conn = NAN, recv = NAN;
    size_t i;
    json_t *e;
    json_array_foreach (error_list(c), i, e) {
        const char *m = json_string_value(json_object_get(e, "message"));
        if (m && !strcmp(m, "Failed requests (Connect)"))
            conn = num(e, "count");
        else if (m && !strcmp(m, "Failed requests (Receive)"))
            recv = num(e, "count");
    }
    double bytes = num(c->stats, "bytes_in_total");
    int nothing = isfinite(recv) && bytes == 0 && recv >= c->requests;
    double n = refused ? (isfinite(conn) ? conn : 0) + (nothing ? recv : 0)
                       : (isfinite(recv) && !nothing ? recv : NAN);
    if (refused && !isfinite(conn) && !nothing)
        n = NAN;
    if (isfinite(n) && n > 0 && ex && json_array_size(ex) < 3)
        json_array_append_new(ex, json_string(refused && !nothing ? "Failed requests (Connect)"
                                                                  : "Failed requests (Receive)"));
    return n;
}

/* An error class's finding (the rule's row of error_classes). */
static void rule_error_class(pr_fctx *c)
{
    const error_class_rule *r = c->rule->params;
    json_t *ex = NULL;
    int by_status = 0;
    double n;
    if (r->pats) {
        ex = json_array();
        n = class_count(c, r->pats, ex, &by_status);
    } else {
        n = status_count(c, r->lo, r->hi, r->except);
    }
    const char *why = _(r->why);
    if (r == &error_classes[EC_REFUSED] || r == &error_classes[EC_RESET]) {
        int refused = r == &error_classes[EC_REFUSED];
        double ab = ab_connection_failures(c, refused, ex);
        if (isfinite(ab) && ab > 0 && !(n > 0)) {
            n = ab;
            const char *m = json_string_value(json_array_get(ex, 0));
            why = refused && m && !strcmp(m, "Failed requests (Receive)")
                      ? _("failed before one byte came back (ab's \"Failed requests (Receive)\" "
                          "for every request, nothing transferred): refused connections, as ab "
                          "-r sees them; nothing listened on the target's port.")
                  : refused ? _("failed to connect (ab's \"Failed requests (Connect)\"): the "
                                "target refused the connection or could not be reached.")
                            : _("failed while ab read the response (ab's \"Failed requests "
                                "(Receive)\"): the server or a proxy dropped the connection "
                                "(reset, closed), typical of overload protection or connection "
                                "limits.");
        }
    }
    error_class(c, n, by_status, ex, _(r->title), why, _(r->rec));
}

/* Failures a printed summary counts without saying why: no failing status code and no error
 * message in the run (ab's "Non-2xx responses", wrk's "Non-2xx or 3xx responses"). */
static void rule_unexplained(pr_fctx *c)
{
    /* ab's -g rows carry status 0 for "not recorded", not for "no response" */
    int no_status = json_is_false(json_object_get(json_object_get(c->run, "meta"), "status_known"));
    double failing = status_count(c, no_status ? 1 : 0, 199, -1) + status_count(c, 400, 999, -1);
    if (failing > 0 || json_array_size(error_list(c)) > 0)
        return;
    const char *report = json_string_value(json_object_get(c->stats, "tool_report"));
    /* the printed counter that says what they were: answers with a status outside 2xx */
    json_t *tool = json_object_get(json_object_get(c->run, "tool_summary"), "tool");
    static const char *const non2xx_keys[] = {"Non-2xx responses", "Non-2xx or 3xx responses"};
    for (size_t i = 0; i < 2; i++) {
        double n = num(tool, non2xx_keys[i]);
        if (!finite_pos(n) || !finite_pos(c->errors) || n > c->errors)
            continue;
        char why[400];
        snprintf(why, sizeof why,
                 _("were answered with a status outside %s (%s \"%s\"): the server answered "
                   "them, so they are neither timeouts nor connection failures; the report does "
                   "not say which status."),
                 i == 0 ? "2xx" : "2xx and 3xx", report ? report : _("the source"), non2xx_keys[i]);
        error_class(c, n, 0, NULL, _("Responses with a failing status"), why,
                    _("Read the server's log at these requests for the status and its cause; keep "
                      "the per-request results (hey -o csv, a Vegeta results file, JMeter's "
                      "JTL) to see the codes in the report."));
        return;
    }
    char why[400];
    snprintf(why, sizeof why,
             _("failed, as %s counts them; it gives no status code or error "
               "message that would tell why."),
             report ? report : _("the source"));
    error_class(c, c->errors, 0, NULL, _("Failed requests without a cause"), why,
                _("Keep the per-request results next to the printed report (ab -g, hey -o csv, "
                  "a Vegeta results file) or read the server's access log: the status codes "
                  "and error messages say which requests failed and why."));
}

static void rule_tail(pr_fctx *c)
{
    if (!(c->requests >= 100) || !finite_pos(c->lat_p50) || !isfinite(c->lat_p99))
        return;
    double ratio = c->lat_p99 / c->lat_p50;
    if (ratio < 10 || c->lat_p99 - c->lat_p50 < 10e6)
        return;
    char a[32], b[32], d[32];
    json_t *ev = json_object();
    ev_num(ev, "p50_ns", c->lat_p50);
    ev_num(ev, "p90_ns", c->lat_p90);
    ev_num(ev, "p99_ns", c->lat_p99);
    ev_num(ev, "max_ns", c->lat_max);
    ev_num(ev, "p99_over_p50", ratio);
    /* the label with the highest p99 among labels with at least 1% of the requests */
    const char *worst = NULL;
    double worst_p99 = -1;
    size_t i;
    json_t *l;
    json_array_foreach (json_object_get(c->run, "labels"), i, l) {
        double p = num2(l, "latency_ns", "p99");
        if (num(l, "requests") >= 0.01 * c->requests && p > worst_p99) {
            worst_p99 = p;
            worst = json_string_value(json_object_get(l, "label"));
        }
    }
    if (worst && json_array_size(json_object_get(c->run, "labels")) > 1)
        json_object_set_new(ev, "slowest_label", json_string(worst));
    json_t *f =
        emit(c, _("Long latency tail"), ev,
             _("Find what the slowest requests have in common (endpoint, payload size, time, "
               "server instance): GC pauses, lock contention, cache misses, retries and queueing "
               "all show up in the tail first. Users who make many requests meet the p99 often."),
             _("The 99th percentile (%s) is %.0f times the median (%s): one request in a hundred "
               "waits far longer than the typical one.%s%s"),
             hdur(c->lat_p99, a, sizeof a), ratio, hdur(c->lat_p50, b, sizeof b),
             worst && json_array_size(json_object_get(c->run, "labels")) > 1
                 ? _(" Slowest label by p99: ")
                 : "",
             worst && json_array_size(json_object_get(c->run, "labels")) > 1 ? worst : "");
    (void)d;
    if (worst && json_array_size(json_object_get(c->run, "labels")) > 1)
        json_object_set_new(f, "label", json_string(worst));
}

static void rule_bimodal(pr_fctx *c)
{
    json_t *hist = json_object_get(c->run, "histogram");
    size_t n = json_array_size(hist);
    if (n < 3 || !(c->requests >= 100))
        return;
    double *d = pr_xcalloc(n, sizeof *d), *cnt = pr_xcalloc(n, sizeof *cnt), total = 0;
    double *lo = pr_xcalloc(n, sizeof *lo), *hi = pr_xcalloc(n, sizeof *hi);
    for (size_t i = 0; i < n; i++) {
        json_t *b = json_array_get(hist, i);
        lo[i] = num(b, "from_ns");
        hi[i] = num(b, "to_ns");
        cnt[i] = num(b, "count");
        if (!isfinite(cnt[i]) || !(lo[i] > 0) || !(hi[i] > lo[i]))
            cnt[i] = 0;
        /* a zero minimum means a coarse clock (ms resolution): the first bucket holds the
         * "< 1 tick" readings, not a population */
        if (i == 0 && c->lat_min == 0)
            cnt[i] = 0;
        total += cnt[i];
    }
    for (size_t i = 0; i < n; i++)
        d[i] = cnt[i] > 0 ? cnt[i] / log10(hi[i] / lo[i]) : 0;
    size_t A = 0;
    for (size_t i = 1; i < n; i++)
        if (d[i] > d[A])
            A = i;
    size_t best = n;
    double best_d = 0, valley_best = 0;
    for (size_t j = 0; j < n; j++) {
        if (j == A || d[j] <= 0)
            continue;
        if ((j > 0 && d[j - 1] > d[j]) || (j + 1 < n && d[j + 1] > d[j]))
            continue; /* not a local maximum */
        size_t s = j < A ? j : A, e = j < A ? A : j;
        if (e - s < 2)
            continue; /* adjacent buckets are one population */
        size_t v = s + 1;
        for (size_t k = s + 1; k < e; k++)
            if (d[k] < d[v])
                v = k;
        if (d[v] > 0.5 * d[j])
            continue;
        double mass_j = 0;
        for (size_t k = 0; k < n; k++)
            if ((j < A && k < v) || (j > A && k > v))
                mass_j += cnt[k];
        if (mass_j < 0.05 * total || total - mass_j - cnt[v] < 0.05 * total)
            continue;
        if (d[j] > best_d) {
            best_d = d[j];
            best = j;
            valley_best = (double)v;
        }
    }
    if (best < n && total > 0) {
        size_t f1 = best < A ? best : A, f2 = best < A ? A : best, v = (size_t)valley_best;
        double m1 = 0, m2 = 0;
        for (size_t k = 0; k < n; k++) {
            if (k < v)
                m1 += cnt[k];
            else if (k > v)
                m2 += cnt[k];
        }
        char a[32], b[32], e[32], g[32], h[32], k[32];
        json_t *ev = json_object();
        ev_num(ev, "fast_mode_from_ns", lo[f1]);
        ev_num(ev, "fast_mode_to_ns", hi[f1]);
        ev_num(ev, "fast_share", m1 / total);
        ev_num(ev, "slow_mode_from_ns", lo[f2]);
        ev_num(ev, "slow_mode_to_ns", hi[f2]);
        ev_num(ev, "slow_share", m2 / total);
        ev_num(ev, "valley_from_ns", lo[v]);
        ev_num(ev, "valley_to_ns", hi[v]);
        emit(c, _("Two latency populations"), ev,
             _("Averages and single percentiles describe neither group: report the two separately "
               "(split by label, cache status or backend), and find what sends requests down the "
               "slow path (cache misses, a slow dependency, a second code path)."),
             _("The latency histogram has two separate peaks: %s of requests around %s–%s and "
               "%s around %s–%s, with few in between."),
             hpct(m1 / total, a, sizeof a), hdur(lo[f1], b, sizeof b), hdur(hi[f1], e, sizeof e),
             hpct(m2 / total, g, sizeof g), hdur(lo[f2], h, sizeof h), hdur(hi[f2], k, sizeof k));
    }
    free(d);
    free(cnt);
    free(lo);
    free(hi);
}

/* The warm-up window and steady state, as described in docs/findings.md. */
static int warmup_detect(const pr_fctx *c, double *p_w, double *p_s, size_t *end)
{
    if (pts_with_requests(c->pts, 0, c->npts) < 10)
        return 0;
    size_t w = pts_prefix(c, 0.10), s = pts_prefix(c, 0.20);
    if (s >= c->npts)
        return 0;
    /* medians compare like with like only if about as many requests fail in both windows
     * (fast failures, or timeouts, move a median that mixes them with successes) */
    double ew = pts_sent_error_ratio(c->pts, 0, w), es = pts_sent_error_ratio(c->pts, s, c->npts);
    if (isfinite(ew) && isfinite(es) && fabs(ew - es) > 0.05)
        return 0;
    *p_w = pts_wmedian_p50(c->pts, 0, w);
    *p_s = pts_wmedian_p50(c->pts, s, c->npts);
    if (!finite_pos(*p_s) || !isfinite(*p_w) || *p_w < 1.5 * *p_s || *p_w - *p_s < 2e6)
        return 0;
    *end = 0;
    for (size_t i = 0; i + 1 < c->npts; i++) {
        if (c->pts[i].req > 0 && c->pts[i].p50 <= 1.2 * *p_s && c->pts[i + 1].req > 0 &&
            c->pts[i + 1].p50 <= 1.2 * *p_s) {
            *end = i;
            break;
        }
    }
    return 1;
}

static void rule_warmup(pr_fctx *c)
{
    double pw, ps;
    size_t end;
    if (!warmup_detect(c, &pw, &ps, &end))
        return;
    int64_t t = c->pts[end].t_ns;
    char a[32], b[32], d[32], arg[32];
    snprintf(arg, sizeof arg, "%gs", ceil((double)t / 1e8) / 10);
    json_t *ev = json_object();
    ev_num(ev, "warmup_p50_ns", pw);
    ev_num(ev, "steady_p50_ns", ps);
    ev_num(ev, "slowdown", pw / ps);
    ev_num(ev, "warmup_share", 0.10);
    ev_num(ev, "steady_after_share", 0.20);
    ev_num(ev, "warmup_end_ns", (double)t);
    json_object_set_new(ev, "skip_warmup", json_string(arg));
    char rec[600];
    snprintf(rec, sizeof rec,
             _("Leave the warm-up out of the statistics (perfreport summary --skip-warmup %s), or "
               "warm the system up before measuring; if real users meet cold starts, report them "
               "separately."),
             arg);
    json_t *f =
        emit(c, _("Warm-up: the first part of the run was slower"), ev, rec,
             _("The first %.0f%% of the requests had a median latency of %s against %s in the "
               "steady state (after %.0f%% of the requests): %.1f times slower, as with JIT "
               "compilation, cold caches or connection pools filling. Latency settles %s "
               "into the run."),
             0.10 * 100, hdur(pw, a, sizeof a), hdur(ps, b, sizeof b), 0.20 * 100, pw / ps,
             hdur((double)t, d, sizeof d));
    set_t(f, t);
}

static void rule_degradation(pr_fctx *c)
{
    size_t from = pts_prefix(c, 0.10); /* leave a warm-up out of the trend */
    if (from >= c->npts || pts_with_requests(c->pts, from, c->npts) < 9)
        return;
    size_t n = c->npts - from, t = n / 3;
    const pt *p = c->pts + from;
    double l1 = pts_median(p, 0, t, F_P50), l2 = pts_median(p, t, n - t, F_P50),
           l3 = pts_median(p, n - t, n, F_P50);
    double x1 = pts_median(p, 0, t, F_THR), x2 = pts_median(p, t, n - t, F_THR),
           x3 = pts_median(p, n - t, n, F_THR);
    int lat = finite_pos(l1) && isfinite(l2) && isfinite(l3) && l3 >= 1.5 * l1 && l2 >= l1 &&
              l2 <= l3 && l3 - l1 >= 2e6;
    int thr =
        finite_pos(x1) && isfinite(x2) && isfinite(x3) && x3 <= 0.8 * x1 && x2 <= x1 && x2 >= x3;
    /* the load must hold: the active threads (or, open model, the sent rate) of the last third
     * within 10% of the first third's; more threads is a ramp, fewer a ramp-down */
    double th1 = NAN, th3 = NAN, r1 = NAN, r3 = NAN, secs = (double)c->interval_ns / 1e9;
    if (c->has_threads) {
        th1 = pts_median(p, 0, t, F_THREADS), th3 = pts_median(p, n - t, n, F_THREADS);
        if (isfinite(th1) && isfinite(th3) && fabs(th3 - th1) > 0.1 * th1)
            lat = thr = 0;
    } else if (c->open) {
        r1 = pts_median(p, 0, t, F_REQ) / secs, r3 = pts_median(p, n - t, n, F_REQ) / secs;
        if (isfinite(r1) && isfinite(r3) && fabs(r3 - r1) > 0.1 * r1)
            lat = thr = 0;
    } else if (thr && !(x3 * l3 >= 0.8 * x1 * l1)) {
        /* a closed (or unknown) model without a thread count: by Little's law the requests in
         * flight (throughput × latency) fell, so clients stopped, not the server */
        thr = 0;
    }
    if (!lat && !thr)
        return;
    char a[32], b[32], d[32], e[32], g[32], h[32], k[32], m[32], load[400];
    if (isfinite(th1) && isfinite(th3))
        snprintf(load, sizeof load, _("while the active threads went only %.0f → %.0f"), th1, th3);
    else if (isfinite(r1) && isfinite(r3))
        snprintf(load, sizeof load, _("while requests were sent at %s → %s"),
                 hrate(r1, k, sizeof k), hrate(r3, m, sizeof m));
    else
        snprintf(load, sizeof load,
                 _("(the run has no thread count per interval: whether its "
                   "load held is not known)"));
    json_t *ev = json_object();
    ev_num(ev, "left_out_share", 0.10);
    ev_opt(ev, "threads_first_third", th1);
    ev_opt(ev, "threads_last_third", th3);
    ev_opt(ev, "rate_first_third_per_s", r1);
    ev_opt(ev, "rate_last_third_per_s", r3);
    ev_num(ev, "p50_first_third_ns", l1);
    ev_num(ev, "p50_middle_third_ns", l2);
    ev_num(ev, "p50_last_third_ns", l3);
    ev_num(ev, "throughput_first_third_per_s", x1);
    ev_num(ev, "throughput_middle_third_per_s", x2);
    ev_num(ev, "throughput_last_third_per_s", x3);
    json_object_set_new(ev, "latency_rising", json_boolean(lat));
    json_object_set_new(ev, "throughput_falling", json_boolean(thr));
    json_t *f = emit(
        c, lat ? _("Latency rose over the run") : _("Throughput fell over the run"), ev,
        _("Something accumulates while the test runs: look at memory and GC over time, pool and "
          "queue sizes, open connections or file descriptors, table or cache growth; a longer "
          "run at the same load shows whether it levels off."),
        _("Splitting the run (after the first %.0f%% of requests) into thirds, the median latency "
          "went %s → %s → %s and the successful throughput %s → %s → %s: the system got %s %s."),
        0.10 * 100, hdur(l1, a, sizeof a), hdur(l2, b, sizeof b), hdur(l3, d, sizeof d),
        hrate(x1, e, sizeof e), hrate(x2, g, sizeof g), hrate(x3, h, sizeof h),
        lat && thr ? _("slower and served less")
        : lat      ? _("steadily slower")
                   : _("steadily less productive"),
        load);
    set_t(f, p[n - t].t_ns);
}

static void rule_stalls(pr_fctx *c)
{
    size_t k = pts_with_requests(c->pts, 0, c->npts);
    if (k < 12)
        return;
    double m = pts_median(c->pts, 0, c->npts, F_P99);
    if (!finite_pos(m))
        return;
    int64_t starts[256];
    size_t ns = 0, spike_pts = 0;
    int in = 0;
    for (size_t i = 0; i < c->npts; i++) {
        const pt *q = &c->pts[i];
        int s = q->req > 0 && isfinite(q->p99) && q->p99 >= 4 * m && q->p99 - m >= 10e6;
        if (s) {
            spike_pts++;
            if (!in && ns < 256)
                starts[ns++] = q->t_ns;
        }
        if (q->req > 0)
            in = s;
    }
    if (ns < 3 || (double)spike_pts > 0.25 * (double)k)
        return;
    double mean = 0, var = 0;
    for (size_t i = 1; i < ns; i++)
        mean += (double)(starts[i] - starts[i - 1]);
    mean /= (double)(ns - 1);
    for (size_t i = 1; i < ns; i++) {
        double g = (double)(starts[i] - starts[i - 1]) - mean;
        var += g * g;
    }
    double cv = sqrt(var / (double)(ns - 1)) / mean;
    if (cv > 0.25)
        return;
    char a[32], b[32];
    json_t *ev = json_object();
    ev_num(ev, "spikes", (double)ns);
    ev_num(ev, "period_ns", mean);
    ev_num(ev, "period_cv", cv);
    ev_num(ev, "median_interval_p99_ns", m);
    ev_num(ev, "spike_factor", 4);
    json_t *ts = json_array();
    for (size_t i = 0; i < ns && i < 20; i++)
        json_array_append_new(ts, json_integer(starts[i]));
    json_object_set_new(ev, "spike_t_ns", ts);
    json_t *f = emit(
        c, _("Periodic latency stalls"), ev,
        _("Regular stalls come from something scheduled: GC cycles, log or cache flushes, "
          "checkpoints, cron jobs, health checks or autoscaler ticks. Match the period with the "
          "server's GC and job logs."),
        _("The per-interval p99 jumped to %d times or more its usual %s in %zu separate spikes, "
          "one every %s on average (spacing varies by only %.0f%%)."),
        4, hdur(m, a, sizeof a), ns, hdur(mean, b, sizeof b), 100 * cv);
    set_t(f, starts[0]);
}

/* One window in which latency stood well above the rest of the run and came back after
 * (docs/findings.md, latency_episode): not a trend (degradation), not the start (warm-up), not
 * a repeated spike (periodic_stalls). */
static void rule_episode(pr_fctx *c)
{
    size_t k = pts_with_requests(c->pts, 0, c->npts);
    if (k < 12)
        return;
    double m = pts_median(c->pts, 0, c->npts, F_P50);
    if (!finite_pos(m))
        return;
    /* the windows of consecutive points (those without requests skipped) whose p50 is >= 2x
     * the run's median p50 and >= 1 ms above it */
    size_t from = 0, to = 0, nwin = 0, cur = 0, run = 0;
    for (size_t i = 0; i <= c->npts; i++) {
        const pt *q = i < c->npts ? &c->pts[i] : NULL;
        if (q && !(q->req > 0))
            continue;
        int hi = q && isfinite(q->p50) && q->p50 >= 2 * m && q->p50 - m >= 1e6;
        if (hi) {
            if (!run)
                cur = i;
            run++;
            continue;
        }
        if (run >= 3) {
            nwin++;
            from = cur, to = i; /* [from, to) */
        }
        run = 0;
    }
    if (nwin != 1)
        return;
    size_t before = pts_with_requests(c->pts, 0, from),
           inside = pts_with_requests(c->pts, from, to),
           after = pts_with_requests(c->pts, to, c->npts);
    if (before < 3 || after < 3 || (double)inside > 0.6 * (double)k)
        return;
    double b50 = pts_median(c->pts, 0, from, F_P50), i50 = pts_median(c->pts, from, to, F_P50),
           a50 = pts_median(c->pts, to, c->npts, F_P50);
    double b99 = pts_median(c->pts, 0, from, F_P99), i99 = pts_median(c->pts, from, to, F_P99),
           a99 = pts_median(c->pts, to, c->npts, F_P99);
    /* back to where it was: not a step up that stays (degradation) nor a fall (warm-up) */
    if (!(finite_pos(b50) && finite_pos(a50) && a50 <= 1.5 * b50 && b50 <= 1.5 * a50))
        return;
    int64_t t0 = c->pts[0].t_ns, ts = c->pts[from].t_ns - t0,
            te = (to < c->npts ? c->pts[to].t_ns : c->pts[to - 1].t_ns + c->interval_ns) - t0;
    char s1[32], s2[32], s3[32], s4[32], s5[32], s6[32], s7[32], s8[32];
    json_t *ev = json_object();
    ev_num(ev, "start_offset_ns", (double)ts);
    ev_num(ev, "end_offset_ns", (double)te);
    ev_num(ev, "run_median_p50_ns", m);
    ev_num(ev, "p50_before_ns", b50);
    ev_num(ev, "p50_inside_ns", i50);
    ev_num(ev, "p50_after_ns", a50);
    ev_num(ev, "p99_before_ns", b99);
    ev_num(ev, "p99_inside_ns", i99);
    ev_num(ev, "p99_after_ns", a99);
    ev_num(ev, "factor", 2);
    json_t *f = emit(
        c, _("A latency episode"), ev,
        _("Something happened on the server side in that window and then stopped: match its "
          "start and end with the server's logs and metrics (a batch job, a deploy, a GC storm, "
          "a noisy neighbour, a failover)."),
        _("From %s to %s into the run the median latency stood at %s (p99 %s), against %s (p99 "
          "%s) before and %s (p99 %s) after: one window at %d times or more the run's usual "
          "latency, then back; not a trend."),
        hdur((double)ts, s1, sizeof s1), hdur((double)te, s2, sizeof s2), hdur(i50, s3, sizeof s3),
        hdur(i99, s4, sizeof s4), hdur(b50, s5, sizeof s5), hdur(b99, s6, sizeof s6),
        hdur(a50, s7, sizeof s7), hdur(a99, s8, sizeof s8), 2);
    set_t(f, c->pts[from].t_ns);
}

static void rule_label_time(pr_fctx *c)
{
    json_t *labels = json_object_get(c->run, "labels");
    size_t n = json_array_size(labels), i;
    if (n < 2)
        return;
    double total = 0, reqs = 0, best = 0, best_req = 0, best_mean = NAN;
    const char *name = NULL;
    json_t *l;
    json_array_foreach (labels, i, l) {
        double r = num(l, "requests"), mean = num2(l, "latency_ns", "mean");
        if (!isfinite(r) || !isfinite(mean))
            continue;
        total += r * mean;
        reqs += r;
        if (r * mean > best) {
            best = r * mean;
            best_req = r;
            best_mean = mean;
            name = json_string_value(json_object_get(l, "label"));
        }
    }
    if (!name || !(total > 0) || best / total < 0.5 || best / total < 2 * best_req / reqs)
        return;
    char a[32], b[32], d[32], e[32];
    json_t *ev = json_object();
    ev_num(ev, "time_share", best / total);
    ev_num(ev, "request_share", best_req / reqs);
    ev_num(ev, "mean_latency_ns", best_mean);
    ev_num(ev, "run_mean_latency_ns", total / reqs);
    json_t *f = emit(
        c, _("One label takes most of the time"), ev,
        _("Optimise this request first: it is where the users' waiting time goes. Check whether "
          "its slowness is inherent (large work) or contention."),
        _("\"%s\" accounts for %s of all the time spent waiting for responses but only %s of the "
          "requests (mean latency %s against %s over all labels)."),
        name, hpct(best / total, a, sizeof a), hpct(best_req / reqs, b, sizeof b),
        hdur(best_mean, d, sizeof d), hdur(total / reqs, e, sizeof e));
    json_object_set_new(f, "label", json_string(name));
}

/* Every known latency order statistic (min, percentiles, max) is a whole number of
 * milliseconds (ab, JMeter): a millisecond clock. */
static int coarse_clock(const pr_fctx *c)
{
    /* the means of a whole-ms source (ab's text) beside finer percentiles (its -e CSV) */
    if (num(c->stats, "latency_resolution_ns") >= 1e6)
        return 1;
    const double v[] = {c->lat_min, c->lat_p50, c->lat_p90, c->lat_p99, c->lat_max};
    int known = 0;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        if (!isfinite(v[i]))
            continue;
        known++;
        if (fmod(v[i], 1e6) != 0)
            return 0;
    }
    return known > 0;
}

static void rule_connect(pr_fctx *c)
{
    double cm = num2(c->stats, "connect_ns", "mean");
    if (!finite_pos(cm) || !finite_pos(c->lat_mean) || cm / c->lat_mean < 0.5 || cm < 1e6)
        return;
    char a[32], b[32], d[32];
    json_t *ev = json_object();
    ev_num(ev, "connect_mean_ns", cm);
    ev_num(ev, "latency_mean_ns", c->lat_mean);
    ev_num(ev, "connect_share", cm / c->lat_mean);
    emit(c, _("Connection setup dominates latency"), ev,
         _("Reuse connections: enable keep-alive in the load generator (and check the server "
           "does not close them), or use a connection pool; with TLS, enable session resumption. "
           "If real clients do connect per request, this cost is real."),
         _("Setting up connections took %s on average, %s of the mean latency of %s: most of "
           "each request's time is spent before the request is even sent (TCP and TLS "
           "handshakes)."),
         hdur(cm, a, sizeof a), hpct(cm / c->lat_mean, b, sizeof b),
         hdur(c->lat_mean, d, sizeof d));
}

static void rule_download(pr_fctx *c)
{
    /* failed requests often have no first byte (a timeout, JMeter's latency 0): take the means
     * over the labels without errors when they hold most requests, else over the run when it
     * has (almost) no errors */
    double tm = NAN, lm = NAN, sl = 0, st = 0, sn = 0;
    size_t i;
    json_t *l;
    json_array_foreach (json_object_get(c->run, "labels"), i, l) {
        double r = num(l, "requests"), lmean = num2(l, "latency_ns", "mean"),
               tmean = num2(l, "ttfb_ns", "mean"), er = num(l, "error_ratio");
        if (isfinite(r) && isfinite(lmean) && isfinite(tmean) && isfinite(er) && er <= 0.01) {
            sl += r * lmean;
            st += r * tmean;
            sn += r;
        }
    }
    if (sn > 0 && sn >= 0.5 * c->requests) {
        lm = sl / sn;
        tm = st / sn;
    } else if (isfinite(c->error_ratio) && c->error_ratio <= 0.01) {
        lm = c->lat_mean;
        tm = num2(c->stats, "ttfb_ns", "mean");
    }
    if (!isfinite(tm) || !finite_pos(lm))
        return;
    double dl = lm - tm;
    /* a millisecond clock (every latency statistic a whole number of ms) cannot resolve a
     * difference of a few ms */
    double floor_ns = coarse_clock(c) ? 5e6 : 1e6;
    if (dl / lm < 0.5 || dl < floor_ns)
        return;
    char a[32], b[32], d[32], e[32], g[32];
    json_t *ev = json_object();
    ev_num(ev, "download_mean_ns", dl);
    ev_num(ev, "ttfb_mean_ns", tm);
    ev_num(ev, "latency_mean_ns", lm);
    ev_num(ev, "download_share", dl / lm);
    ev_num(ev, "bytes_in_mean", num(c->stats, "bytes_in_mean"));
    ev_num(ev, "bytes_in_per_s", num(c->stats, "bytes_in_per_s"));
    double bm = num(c->stats, "bytes_in_mean");
    emit(c, _("Downloading the response dominates latency"), ev,
         _("Make responses smaller (compression, pagination, fewer fields) or check the network "
           "bandwidth between the load generator and the server; the server's processing is "
           "not the main cost."),
         _("On average the first byte arrived after %s but the last after %s: %s of the latency "
           "(%s per request) is spent transferring the body%s%s."),
         hdur(tm, a, sizeof a), hdur(lm, b, sizeof b), hpct(dl / lm, d, sizeof d),
         hdur(dl, e, sizeof e), isfinite(bm) ? _(", mean response size ") : "",
         isfinite(bm) ? pr_human_bytes(bm, g, sizeof g) : "");
}

static void rule_coordinated_omission(pr_fctx *c)
{
    if (!c->closed || pts_with_requests(c->pts, 0, c->npts) < 10 || !finite_pos(c->lat_p50))
        return;
    double mreq = pts_median(c->pts, 0, c->npts, F_REQ);
    if (!finite_pos(mreq))
        return;
    size_t stalls = 0;
    double worst = 0;
    int64_t worst_t = 0;
    for (size_t i = 0; i < c->npts; i++) {
        const pt *q = &c->pts[i];
        if (q->req > 0 && isfinite(q->max) && q->max >= 10 * c->lat_p50 && q->max >= 50e6 &&
            q->req <= 0.5 * mreq) {
            stalls++;
            if (q->max > worst) {
                worst = q->max;
                worst_t = q->t_ns;
            }
        }
    }
    if (!stalls)
        return;
    char a[32], b[32], d[32], e[32];
    double rate = mreq / ((double)c->interval_ns / 1e9);
    json_t *ev = json_object();
    double stall_min = 10 * c->lat_p50 > 50e6 ? 10 * c->lat_p50 : 50e6;
    ev_num(ev, "stall_intervals", (double)stalls);
    ev_num(ev, "stall_latency_min_ns", stall_min);
    ev_num(ev, "worst_stall_latency_ns", worst);
    ev_num(ev, "worst_stall_t_ns", (double)worst_t);
    ev_num(ev, "median_rate_per_s", rate);
    double unsent = finite_pos(c->concurrency) ? rate / c->concurrency * worst / 1e9 : NAN;
    ev_num(ev, "unsent_per_connection_estimate", unsent);
    json_t *f = emit(
        c, _("Coordinated omission: percentiles understated"), ev,
        _("Re-run with an open-model generator (constant arrival rate, latency from the intended "
          "send time, e.g. perfreport attack or vegeta) or apply a coordinated-omission "
          "correction; until then read the percentiles as optimistic."),
        _("This closed-model tool waits for each response before sending the next request. In "
          "%zu interval(s) a request took %s or more (the worst %s, at %s) while the request "
          "rate dropped below half its usual %s: the requests users would have sent during the "
          "stall were never sent (and never measured), so their waiting time is missing from "
          "the percentiles."),
        stalls, hdur(stall_min, a, sizeof a), hdur(worst, b, sizeof b),
        hdur((double)worst_t, d, sizeof d), hrate(rate, e, sizeof e));
    set_t(f, worst_t);
}

const pr_finding_rule pr_finding_rules[] = {
    {"saturation", PR_SEV_CRITICAL, rule_saturation, NULL},
    {"generator_bottleneck", PR_SEV_WARNING, rule_generator, NULL},
    {"client_timeouts", PR_SEV_CRITICAL, rule_timeouts, NULL},
    {"error_onset", PR_SEV_WARNING, rule_error_onset, NULL},
    {"errors_refused", PR_SEV_CRITICAL, rule_error_class, &error_classes[EC_REFUSED]},
    {"errors_reset", PR_SEV_WARNING, rule_error_class, &error_classes[EC_RESET]},
    {"errors_5xx", PR_SEV_WARNING, rule_error_class, &error_classes[EC_5XX]},
    {"errors_429", PR_SEV_WARNING, rule_error_class, &error_classes[EC_429]},
    {"errors_4xx", PR_SEV_WARNING, rule_error_class, &error_classes[EC_4XX]},
    {"errors_unexplained", PR_SEV_WARNING, rule_unexplained, NULL},
    {"tail_amplification", PR_SEV_WARNING, rule_tail, NULL},
    {"bimodal_latency", PR_SEV_INFO, rule_bimodal, NULL},
    {"warmup", PR_SEV_WARNING, rule_warmup, NULL},
    {"degradation", PR_SEV_WARNING, rule_degradation, NULL},
    {"periodic_stalls", PR_SEV_WARNING, rule_stalls, NULL},
    {"latency_episode", PR_SEV_WARNING, rule_episode, NULL},
    {"label_dominates", PR_SEV_INFO, rule_label_time, NULL},
    {"connect_dominates", PR_SEV_WARNING, rule_connect, NULL},
    {"download_dominates", PR_SEV_INFO, rule_download, NULL},
    {"coordinated_omission", PR_SEV_WARNING, rule_coordinated_omission, NULL},
};
const size_t pr_finding_nrules = sizeof pr_finding_rules / sizeof pr_finding_rules[0];

static int selected(const char *only, const char *id)
{
    if (!only)
        return 1;
    size_t n = strlen(id);
    for (const char *p = only; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && !strncmp(p, id, n))
            return 1;
        p += len + (e != NULL);
    }
    return 0;
}

static int sev_rank(const json_t *f)
{
    const char *s = json_string_value(json_object_get(f, "severity"));
    return s && !strcmp(s, "critical") ? 2 : s && !strcmp(s, "warning") ? 1 : 0;
}

json_t *pr_findings_run(json_t *run, const pr_findings_opts *opts)
{
    pr_findings_opts def;
    if (!opts) {
        pr_findings_opts_init(&def);
        opts = &def;
    }
    pr_fctx c;
    memset(&c, 0, sizeof c);
    c.out = json_array();
    c.run = run;
    c.runs = opts->runs;
    c.stats = json_object_get(run, "stats");
    if (!json_is_object(run) || !json_is_object(c.stats))
        return c.out;
    c.summary_only = json_is_true(json_object_get(run, "summary_only"));
    const char *lm = json_string_value(json_object_get(run, "load_model"));
    c.closed = lm && !strcmp(lm, "closed");
    c.open = lm && !strcmp(lm, "open");
    c.requests = num(c.stats, "requests");
    c.errors = num(c.stats, "errors");
    c.error_ratio = num(c.stats, "error_ratio");
    if (!isfinite(c.error_ratio) && isfinite(num(c.stats, "success_ratio")))
        c.error_ratio = 1 - num(c.stats, "success_ratio");
    if (!isfinite(c.errors) && isfinite(num(c.stats, "failures")))
        c.errors = num(c.stats, "failures");
    if (!isfinite(c.errors) && isfinite(c.error_ratio) && isfinite(c.requests))
        c.errors = round(c.error_ratio * c.requests);
    c.rate = num(c.stats, "rate_per_s");
    c.throughput = num(c.stats, "throughput_per_s");
    /* In a window cut out of a run, the wait for the last responses is a property of the cut,
     * not of the system: judge the successes per second of sending time instead. */
    if (json_is_object(json_object_get(run, "window")) && isfinite(c.rate) &&
        isfinite(c.error_ratio))
        c.throughput = c.rate * (1 - c.error_ratio);
    c.offered = num(run, "offered_rate_per_s");
    c.concurrency = num(run, "concurrency");
    if (!isfinite(c.concurrency))
        c.concurrency = num(c.stats, "concurrency");
    json_t *lat = json_object_get(c.stats, "latency_ns");
    c.lat_min = num(lat, "min");
    c.lat_mean = num(lat, "mean");
    c.lat_p50 = num(lat, "p50");
    c.lat_p90 = num(lat, "p90");
    c.lat_p99 = num(lat, "p99");
    c.lat_max = num(lat, "max");
    c.duration_ns = num(c.stats, "duration_ns");
    load_points(&c);
    for (size_t i = 0; i < pr_finding_nrules; i++) {
        if (pr_finding_rules[i].severity < opts->min_severity ||
            !selected(opts->only, pr_finding_rules[i].id))
            continue;
        c.rule = &pr_finding_rules[i];
        pr_finding_rules[i].check(&c);
    }
    free(c.all);
    /* most severe first, table order within a severity (stable insertion sort) */
    size_t n = json_array_size(c.out);
    json_t *sorted = json_array();
    for (int s = 2; s >= 0; s--)
        for (size_t i = 0; i < n; i++)
            if (sev_rank(json_array_get(c.out, i)) == s)
                json_array_append(sorted, json_array_get(c.out, i));
    json_decref(c.out);
    n = json_array_size(sorted);
    for (size_t i = 0; i < n; i++) {
        json_t *f = json_array_get(sorted, i);
        json_object_set_new(f, "index", json_integer((json_int_t)i + 1));
        json_object_set_new(f, "first", json_boolean(i == 0));
        json_object_set_new(f, "last", json_boolean(i + 1 == n));
    }
    return sorted;
}

void pr_findings_annotate(json_t *doc, const pr_findings_opts *opts)
{
    pr_findings_opts o;
    if (opts)
        o = *opts;
    else
        pr_findings_opts_init(&o);
    o.runs = json_object_get(doc, "runs"); /* series rules read the other runs */
    size_t i;
    json_t *r;
    json_array_foreach (o.runs, i, r)
        json_object_set_new(r, "findings", pr_findings_run(r, &o));
}

int pr_findings_print(FILE *f, const json_t *findings)
{
    size_t i;
    json_t *e;
    int bad = 0;
    json_array_foreach (findings, i, e) {
        const char *sev = json_string_value(json_object_get(e, "severity"));
        bad |= fprintf(f, "  [%s] %s\n      %s\n      -> %s\n", pr_severity_text(sev),
                       json_string_value(json_object_get(e, "title")),
                       json_string_value(json_object_get(e, "explanation")),
                       json_string_value(json_object_get(e, "recommendation"))) < 0;
    }
    return bad ? -1 : 0;
}
