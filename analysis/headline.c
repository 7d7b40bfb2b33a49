/* Headline numbers of a run and their provenance: the samples, the tool's summary, or derived. */
#include "analysis/headline.h"
#include "analysis/human.h"
#include "model/l10n.h"
#include "model/sample.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char FROM_SAMPLES[] = "samples", FROM_TOOL[] = "tool", FROM_DERIVED[] = "derived";

/* Keys whose provenance the model states. */
static const char *const headline_keys[] = {
    "requests",    "successes",  "errors",     "error_ratio",      "success_ratio",
    "duration_ns", "wait_ns",    "rate_per_s", "throughput_per_s", "request_throughput_per_s",
    "latency_ns",  "connect_ns", "ttfb_ns",    "bytes_in_total",   "bytes_out_total"};
#define NKEYS (sizeof headline_keys / sizeof headline_keys[0])

/* Display names of tools whose name is not written as their command. */
static const struct {
    const char *tool, *name;
} tool_names[] = {{"vegeta", "Vegeta"},
                  {"jmeter", "JMeter"},
                  {"gatling", "Gatling"},
                  {"locust", "Locust"},
                  {"artillery", "Artillery"}};

const char *pr_headline_report_name(const pr_run *run, char *buf, size_t size)
{
    const char *t = run->tool ? run->tool : _("the tool");
    for (size_t i = 0; i < sizeof tool_names / sizeof tool_names[0]; i++)
        if (!strcmp(t, tool_names[i].tool))
            t = tool_names[i].name;
    snprintf(buf, size, _("%s's report"), t);
    return buf;
}

static int64_t ival(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : PR_UNKNOWN;
}

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void put_int(json_t *o, const char *k, int64_t v)
{
    json_object_set_new(o, k, v == PR_UNKNOWN ? json_null() : json_integer(v));
}

static void put_real(json_t *o, const char *k, double v)
{
    json_object_set_new(o, k, isfinite(v) ? json_real(v) : json_null());
}

static void put_str(json_t *o, const char *k, const char *v)
{
    json_object_set_new(o, k, json_string(v));
}

/* The human forms beside the raw headline numbers. */
static void humanize(json_t *s)
{
    char h[32];
    double er = num(s, "error_ratio"), sr = num(s, "success_ratio");
    if (json_object_get(s, "error_ratio") || json_object_get(s, "success_ratio")) {
        put_str(s, "error_pct", pr_human_percent(er, h, sizeof h));
        put_str(s, "success_pct", pr_human_percent(sr, h, sizeof h));
    }
    if (json_object_get(s, "duration_ns"))
        put_str(s, "duration", pr_human_duration(ival(s, "duration_ns"), h, sizeof h));
    /* an unknown wait (inside a tool's test time) has no human form: templates test for it */
    if (json_object_get(s, "wait_ns"))
        json_object_set_new(s, "wait",
                            ival(s, "wait_ns") == PR_UNKNOWN
                                ? json_null()
                                : json_string(pr_human_duration(ival(s, "wait_ns"), h, sizeof h)));
    static const char *const rates[][2] = {{"rate_per_s", "rate"},
                                           {"throughput_per_s", "throughput"},
                                           {"request_throughput_per_s", "request_throughput"}};
    for (size_t i = 0; i < 3; i++)
        if (json_object_get(s, rates[i][0]))
            put_str(s, rates[i][1], pr_human_rate(num(s, rates[i][0]), h, sizeof h));
}

/* The test time beside a duration with a wait of its own: first request start to last
 * response end, duration + wait (Vegeta's total, `runs`' TEST TIME; not Vegeta's printed
 * total, which it rounds apart, to the second from a minute on). A duration without a known
 * wait is already the tool's test time. */
static void test_time(json_t *s)
{
    int64_t d = ival(s, "duration_ns"), w = ival(s, "wait_ns");
    json_object_del(s, "test_time_ns");
    json_object_del(s, "test_time");
    if (d == PR_UNKNOWN || w == PR_UNKNOWN)
        return;
    int64_t t = d + w;
    char h[32];
    put_int(s, "test_time_ns", t);
    put_str(s, "test_time", pr_human_duration(t, h, sizeof h));
}

/* Successes and failures from whichever the summary has, with the requests. */
typedef struct counts {
    int64_t requests, successes, failures;
    const char *ok_from, *fail_from;
} counts;

static counts printed_counts(const json_t *t)
{
    counts c = {ival(t, "requests"), ival(t, "successes"), ival(t, "failures"), FROM_TOOL,
                FROM_TOOL};
    int req = c.requests != PR_UNKNOWN;
    if (c.failures == PR_UNKNOWN && c.successes != PR_UNKNOWN && req && c.successes <= c.requests) {
        c.failures = c.requests - c.successes;
        c.fail_from = FROM_DERIVED;
    }
    if (c.successes == PR_UNKNOWN && c.failures != PR_UNKNOWN && req && c.failures <= c.requests) {
        c.successes = c.requests - c.failures;
        c.ok_from = FROM_DERIVED;
    }
    return c;
}

/* Sets the outcome counts and ratios of `s` from c; 0 when c has no known outcome. */
static int set_outcomes(json_t *s, json_t *prov, const counts *c)
{
    if (c->failures == PR_UNKNOWN || c->successes == PR_UNKNOWN)
        return 0;
    put_int(s, "successes", c->successes);
    put_int(s, "errors", c->failures);
    put_str(prov, "successes", c->ok_from);
    put_str(prov, "errors", c->fail_from);
    json_object_del(s, "unknown_outcome");
    int64_t n = c->successes + c->failures;
    put_real(s, "error_ratio", n > 0 ? (double)c->failures / (double)n : NAN);
    put_real(s, "success_ratio", n > 0 ? (double)c->successes / (double)n : NAN);
    put_str(prov, "error_ratio", FROM_DERIVED);
    put_str(prov, "success_ratio", FROM_DERIVED);
    return 1;
}

/* `count` (successes, or requests) per second over the whole test, duration + wait, from the
 * headline numbers of s. A tool that prints no wait (ab, hey, wrk, siege, httperf) times the
 * whole test and its rate is requests over that time, computed before rounding it: then
 * rate * count / requests, the same span. */
static double per_test_second(const json_t *s, int64_t count)
{
    int64_t req = ival(s, "requests");
    int64_t d = ival(s, "duration_ns"), w = ival(s, "wait_ns");
    double rate = num(s, "rate_per_s");
    if (count == PR_UNKNOWN)
        return NAN;
    if (w == PR_UNKNOWN && isfinite(rate) && req != PR_UNKNOWN && req > 0)
        return rate * (double)count / (double)req;
    if (d == PR_UNKNOWN || d + (w == PR_UNKNOWN ? 0 : w) <= 0)
        return NAN;
    return (double)count / ((double)(d + (w == PR_UNKNOWN ? 0 : w)) / 1e9);
}

static double throughput_of(const json_t *s)
{
    return per_test_second(s, ival(s, "successes"));
}

json_t *pr_headline_tool_stats(const pr_run *run)
{
    json_t *s = json_is_object(run->summary) ? json_deep_copy(run->summary) : json_object();
    json_object_del(s, "errors");
    json_object_del(s, "status_codes");
    json_t *prov = json_object();
    for (size_t i = 0; i < NKEYS; i++)
        if (json_object_get(s, headline_keys[i]))
            put_str(prov, headline_keys[i], FROM_TOOL);
    counts c = printed_counts(s);
    if (!set_outcomes(s, prov, &c)) { /* no counts: a printed ratio alone (Vegeta's success) */
        double sr = num(s, "success_ratio");
        if (isfinite(sr)) {
            put_real(s, "error_ratio", 1 - sr);
            put_str(prov, "error_ratio", FROM_DERIVED);
        }
    }
    int64_t d = ival(s, "duration_ns");
    double r = num(s, "rate_per_s");
    if (d == PR_UNKNOWN && c.requests != PR_UNKNOWN && c.requests > 0 && isfinite(r) && r > 0 &&
        (double)c.requests / r < 9e9) { /* Locust: its rate is requests over its test time */
        put_int(s, "duration_ns", (int64_t)llround((double)c.requests / r * 1e9));
        put_str(prov, "duration_ns", FROM_DERIVED);
    } else if (!json_object_get(s, "rate_per_s") && c.requests != PR_UNKNOWN && d != PR_UNKNOWN &&
               d > 0) {
        put_real(s, "rate_per_s", (double)c.requests / ((double)d / 1e9));
        put_str(prov, "rate_per_s", FROM_DERIVED);
    }
    if (!json_object_get(s, "throughput_per_s") && isfinite(throughput_of(s))) {
        put_real(s, "throughput_per_s", throughput_of(s));
        put_str(prov, "throughput_per_s", FROM_DERIVED);
    }
    double rt = per_test_second(s, c.requests);
    if (isfinite(rt)) {
        put_real(s, "request_throughput_per_s", rt);
        put_str(prov, "request_throughput_per_s", FROM_DERIVED);
    }
    humanize(s);
    test_time(s);
    json_t *lat = json_object_get(s, "latency_ns");
    if (json_is_object(lat)) {
        json_t *hum = json_object();
        const char *k;
        json_t *v;
        char h[32];
        json_object_foreach (lat, k, v)
            if (json_is_integer(v))
                put_str(hum, k, pr_human_duration(json_integer_value(v), h, sizeof h));
        json_object_set_new(s, "latency", hum);
    }
    put_str(s, "mode", "tool-printed");
    json_object_set_new(s, "provenance", prov);
    char name[64];
    put_str(s, "tool_report", pr_headline_report_name(run, name, sizeof name));
    return s;
}

int pr_headline_lossy(const pr_run *run, const char *what)
{
    size_t i;
    json_t *v;
    json_array_foreach (json_object_get(run->meta, "lossy"), i, v)
        if (json_is_string(v) && !strcmp(json_string_value(v), what))
            return 1;
    return 0;
}

/* Moves stats[key] into from_samples (once) before the tool's value replaces it. */
static void keep_sample_value(json_t *stats, json_t *from_samples, const char *key)
{
    json_t *v = json_object_get(stats, key);
    if (v && !json_object_get(from_samples, key))
        json_object_set(from_samples, key, v);
}

/* The tool's test time: its printed duration, else (k6's --summary-export, which prints no
 * duration) its request count over its printed rate, *derived set. */
static int64_t tool_duration(const json_t *t, int *derived)
{
    int64_t d = ival(t, "duration_ns"), req = ival(t, "requests");
    double r = num(t, "rate_per_s");
    *derived = 0;
    if (d == PR_UNKNOWN && req != PR_UNKNOWN && req > 0 && isfinite(r) && r > 0 &&
        (double)req / r < 9e9) {
        *derived = 1;
        d = (int64_t)llround((double)req / r * 1e9);
    }
    return d;
}

int pr_headline_test_rates(const pr_run *run)
{
    return run && json_is_true(json_object_get(run->meta, "rates_over_test"));
}

/* The tool's duration, rate and throughput replace the samples' (lossy timing). */
static void take_timing(json_t *stats, json_t *prov, json_t *was, const json_t *t)
{
    int derived;
    int64_t d = tool_duration(t, &derived);
    if (d == PR_UNKNOWN)
        return;
    static const char *const keys[] = {"duration_ns", "wait_ns", "rate_per_s", "throughput_per_s",
                                       "jmeter_throughput_per_s"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        keep_sample_value(stats, was, keys[i]);
    put_int(stats, "duration_ns", d);
    put_str(prov, "duration_ns", derived ? FROM_DERIVED : FROM_TOOL);
    keep_sample_value(stats, was, "timing_approx"); /* the tool timed its test */
    json_object_del(stats, "timing_approx");
    /* without a printed wait the tool's test time includes it (ab, hey, wrk, siege, httperf) */
    put_int(stats, "wait_ns", ival(t, "wait_ns"));
    if (ival(t, "wait_ns") != PR_UNKNOWN)
        put_str(prov, "wait_ns", FROM_TOOL);
    else
        json_object_del(prov, "wait_ns");
    double rate = num(t, "rate_per_s");
    int64_t req = ival(stats, "requests");
    if (!isfinite(rate) && req != PR_UNKNOWN && d > 0)
        rate = (double)req / ((double)d / 1e9);
    put_real(stats, "rate_per_s", rate);
    put_str(prov, "rate_per_s", isfinite(num(t, "rate_per_s")) ? FROM_TOOL : FROM_DERIVED);
    double thr = num(t, "throughput_per_s");
    put_real(stats, "throughput_per_s", isfinite(thr) ? thr : throughput_of(stats));
    put_str(prov, "throughput_per_s", isfinite(thr) ? FROM_TOOL : FROM_DERIVED);
    /* requests over the whole test (JMeter's throughput) */
    keep_sample_value(stats, was, "request_throughput_per_s");
    double rt = per_test_second(stats, req);
    put_real(stats, "request_throughput_per_s", rt);
    put_real(stats, "jmeter_throughput_per_s", rt);
    put_str(prov, "request_throughput_per_s", FROM_DERIVED);
    double mean_ns = num(json_object_get(stats, "latency_ns"), "mean");
    if (json_object_get(stats, "concurrency_estimate") && isfinite(mean_ns))
        put_real(stats, "concurrency_estimate", num(stats, "rate_per_s") * mean_ns / 1e9);
}

/* A tool whose rates are over its whole test (k6's http_reqs rate: requests over the test's
 * duration; run meta "rates_over_test"): the duration is the samples' whole span, first start
 * to last end, with the wait inside it (unknown), and the rates are over that span. The
 * send span's figures stay in from_samples. A run with whole-second stamps (timing_approx)
 * keeps its bounds. */
static void test_rates(json_t *stats, json_t *was)
{
    int64_t d = ival(stats, "duration_ns"), w = ival(stats, "wait_ns");
    int64_t req = ival(stats, "requests");
    if (json_object_get(stats, "timing_approx") || d == PR_UNKNOWN || w == PR_UNKNOWN)
        return;
    static const char *const keys[] = {"duration_ns",
                                       "wait_ns",
                                       "rate_per_s",
                                       "throughput_per_s",
                                       "request_throughput_per_s",
                                       "concurrency_estimate"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        keep_sample_value(stats, was, keys[i]);
    put_int(stats, "duration_ns", d + w);
    put_int(stats, "wait_ns", PR_UNKNOWN);
    double span_s = (double)(d + w) / 1e9;
    int64_t ok = ival(stats, "successes");
    put_real(stats, "rate_per_s", req != PR_UNKNOWN && span_s > 0 ? (double)req / span_s : NAN);
    put_real(stats, "request_throughput_per_s", num(stats, "rate_per_s"));
    if (json_object_get(stats, "throughput_per_s"))
        put_real(stats, "throughput_per_s",
                 ok != PR_UNKNOWN && span_s > 0 ? (double)ok / span_s : NAN);
    double mean_ns = num(json_object_get(stats, "latency_ns"), "mean");
    if (json_object_get(stats, "concurrency_estimate") && isfinite(mean_ns))
        put_real(stats, "concurrency_estimate", num(stats, "rate_per_s") * mean_ns / 1e9);
    put_str(stats, "rate_basis", "test");
}

/* A note when the samples and the printed summary count different requests. */
static void check_counts(json_t *stats, int64_t samples, int64_t printed, const char *report)
{
    if (samples == PR_UNKNOWN || printed == PR_UNKNOWN || samples == printed)
        return;
    char msg[256];
    if (samples < printed)
        snprintf(msg, sizeof msg,
                 _("%lld samples for the %lld requests in %s: the per-request "
                   "file has no row for %lld of them"),
                 (long long)samples, (long long)printed, report, (long long)(printed - samples));
    else
        snprintf(msg, sizeof msg,
                 _("%lld samples but %lld requests in %s: the files may not be "
                   "of the same run"),
                 (long long)samples, (long long)printed, report);
    json_t *notes = json_object_get(stats, "notes");
    if (!json_is_array(notes)) {
        notes = json_array();
        json_object_set_new(stats, "notes", notes);
    }
    json_array_append_new(notes, json_string(msg));
}

/* Why a run's timing is approximate: its source's stamps ("ab -g records whole seconds"). */
static void approx_why(json_t *stats, const pr_run *run)
{
    json_t *a = json_object_get(stats, "timing_approx");
    if (!json_is_object(a))
        return;
    const char *f = run ? run->format : NULL;
    char why[128];
    if (f && !strcmp(f, "ab-gnuplot"))
        snprintf(why, sizeof why, "%s", _("ab -g records whole seconds"));
    else if (f && !strcmp(f, "k6-csv"))
        snprintf(why, sizeof why, "%s", _("k6's CSV records whole seconds"));
    else
        snprintf(why, sizeof why, "%s", _("the start times are whole seconds"));
    json_object_set_new(a, "why", json_string(why));
}

/* A note when the run holds sessions far apart that were kept together (a JTL ingested with
 * --no-split-runs): its duration and rates span the gaps. */
static void gaps_note(json_t *stats, const pr_run *run)
{
    json_t *g = run ? json_object_get(run->meta, "gaps_kept") : NULL;
    int64_t n = ival(g, "count"), big = ival(g, "largest_ns");
    if (n == PR_UNKNOWN || n <= 0 || big == PR_UNKNOWN)
        return;
    char msg[256], h[32];
    snprintf(msg, sizeof msg,
             n_("%lld gap of %s between sessions is inside this run (--no-split-runs): its "
                "duration and rates span it",
                "%lld gaps of up to %s between sessions are inside this run (--no-split-runs): "
                "its duration and rates span them",
                n == 1 ? 1 : 2),
             (long long)n, pr_human_duration(big, h, sizeof h));
    json_t *notes = json_object_get(stats, "notes");
    if (!json_is_array(notes)) {
        notes = json_array();
        json_object_set_new(stats, "notes", notes);
    }
    json_array_append_new(notes, json_string(msg));
}

void pr_headline_combine(json_t *stats, const pr_run *run)
{
    approx_why(stats, run);
    gaps_note(stats, run);
    json_t *prov = json_object();
    for (size_t i = 0; i < NKEYS; i++)
        if (json_object_get(stats, headline_keys[i]))
            put_str(prov, headline_keys[i], FROM_SAMPLES);
    json_object_set_new(stats, "provenance", prov);
    json_t *was = json_object();
    if (pr_headline_test_rates(run))
        test_rates(stats, was);
    const json_t *t = run ? run->summary : NULL;
    if (!json_is_object(t)) {
        if (json_object_size(was)) {
            humanize(stats);
            json_object_set_new(stats, "from_samples", was);
        } else {
            json_decref(was);
        }
        test_time(stats);
        return;
    }
    char report[64];
    pr_headline_report_name(run, report, sizeof report);
    put_str(stats, "tool_report", report);
    int64_t samples = ival(stats, "requests");
    counts c = printed_counts(t);
    if (pr_headline_lossy(run, "requests") && c.requests != PR_UNKNOWN) {
        keep_sample_value(stats, was, "requests");
        put_int(stats, "requests", c.requests);
        put_str(prov, "requests", FROM_TOOL);
    }
    if ((pr_headline_lossy(run, "requests") || pr_headline_lossy(run, "outcomes")) &&
        c.requests == ival(stats, "requests")) {
        static const char *const keys[] = {"successes", "errors", "error_ratio", "success_ratio"};
        for (size_t i = 0; i < 4; i++)
            keep_sample_value(stats, was, keys[i]);
        if (!set_outcomes(stats, prov, &c))
            for (size_t i = 0; i < 4; i++) /* nothing was replaced: no sample values to keep */
                json_object_del(was, keys[i]);
    }
    if (pr_headline_lossy(run, "timing") || pr_headline_test_rates(run))
        take_timing(stats, prov, was, t);
    for (size_t i = 0; i < 2; i++) { /* byte totals the samples do not record */
        const char *k = i ? "bytes_out_total" : "bytes_in_total";
        if (!json_object_get(stats, k) && ival(t, k) != PR_UNKNOWN) {
            char h[32];
            put_int(stats, k, ival(t, k));
            put_str(stats, i ? "bytes_out" : "bytes_in",
                    pr_human_bytes((double)ival(t, k), h, sizeof h));
            put_str(prov, k, FROM_TOOL);
        }
    }
    humanize(stats);
    test_time(stats);
    if (json_object_size(was))
        json_object_set_new(stats, "from_samples", was);
    else
        json_decref(was);
    check_counts(stats, samples, c.requests, report);
}

/* Whether the run's key came from the tool's report (or was derived from it). */
static int from_tool(const json_t *stats, const char *key)
{
    const char *p = json_string_value(json_object_get(json_object_get(stats, "provenance"), key));
    return p && strcmp(p, FROM_SAMPLES) != 0;
}

int pr_headline_unrecorded_ok(const json_t *stats, int64_t samples, int64_t unknown)
{
    return unknown > 0 && from_tool(stats, "errors") && ival(stats, "errors") == 0 &&
           ival(stats, "requests") == samples;
}

/* A label row's rates over the run's test time (the run's from the tool). */
static void row_timing(json_t *l, json_t *was, const json_t *stats)
{
    static const char *const keys[] = {"duration_ns",
                                       "wait_ns",
                                       "rate_per_s",
                                       "throughput_per_s",
                                       "request_throughput_per_s",
                                       "jmeter_throughput_per_s"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        keep_sample_value(l, was, keys[k]);
    keep_sample_value(l, was, "timing_approx");
    json_object_del(l, "timing_approx");
    int64_t req = ival(stats, "requests"), n = ival(l, "requests");
    double rate = num(stats, "rate_per_s");
    put_int(l, "duration_ns", ival(stats, "duration_ns"));
    put_int(l, "wait_ns", ival(stats, "wait_ns"));
    /* the run's rate is requests over its duration: the same span for the row's */
    put_real(l, "rate_per_s",
             n != PR_UNKNOWN && req > 0 && isfinite(rate) ? rate * (double)n / (double)req : NAN);
    put_real(l, "throughput_per_s", per_test_second(stats, ival(l, "successes")));
    double rt = per_test_second(stats, n);
    put_real(l, "request_throughput_per_s", rt);
    put_real(l, "jmeter_throughput_per_s", rt);
}

void pr_headline_labels(json_t *labels, const json_t *stats)
{
    int timing = from_tool(stats, "duration_ns") && ival(stats, "requests") > 0;
    int64_t req = ival(stats, "requests");
    /* one row with every request: its outcomes are the run's */
    int outcomes = from_tool(stats, "errors") && json_array_size(labels) == 1 &&
                   ival(json_array_get(labels, 0), "requests") == req;
    /* the run's rates over its whole span (k6): each row's over its own */
    const char *basis = json_string_value(json_object_get(stats, "rate_basis"));
    int test = !timing && basis && !strcmp(basis, "test");
    if (!timing && !outcomes && !test)
        return;
    static const char *const okeys[] = {"successes", "errors", "error_ratio", "success_ratio"};
    size_t i;
    json_t *l;
    json_array_foreach (labels, i, l) {
        json_t *was = json_object();
        if (outcomes) {
            for (size_t k = 0; k < sizeof okeys / sizeof okeys[0]; k++) {
                keep_sample_value(l, was, okeys[k]);
                json_object_set(l, okeys[k], json_object_get(stats, okeys[k]));
            }
            if (json_object_get(l, "unknown_outcome")) {
                keep_sample_value(l, was, "unknown_outcome");
                json_object_del(l, "unknown_outcome");
            }
        }
        if (timing)
            row_timing(l, was, stats);
        else if (test)
            test_rates(l, was);
        json_object_set_new(l, "from_samples", was);
        humanize(l);
    }
}

int64_t pr_headline_span_ns(const pr_run *run, int *printed)
{
    const json_t *t = run->summary;
    int derived;
    int64_t d = tool_duration(t, &derived), w = ival(t, "wait_ns");
    *printed = d != PR_UNKNOWN && (run->summary_only || pr_headline_lossy(run, "timing") ||
                                   pr_headline_test_rates(run));
    if (*printed)
        return w == PR_UNKNOWN ? d : d + w;
    if (run->start_ns == PR_UNKNOWN || run->end_ns == PR_UNKNOWN)
        return PR_UNKNOWN;
    return run->end_ns - run->start_ns;
}
