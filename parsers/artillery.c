/* Reader of Artillery's JSON report (`artillery run -o report.json`): a summary-only run from
 * the aggregate, per-endpoint summaries, and a time series from the intermediate periods. */
#include "parsers/jsondoc.h"
#include "parsers/parser.h"
#include "parsers/sniff.h"
#include "parsers/textsum.h"
#include <stdlib.h>
#include <string.h>

#define ENDPOINT "plugins.metrics-by-endpoint."
#define ENDPOINT_RT ENDPOINT "response_time."

static int sniff(const unsigned char *buf, size_t len)
{
    pr_str obj;
    if (pr_sniff_json(buf, len, &obj) < 0)
        return 0;
    return pr_sniff_has(obj, "\"aggregate\"") && pr_sniff_has(obj, "\"counters\"") ? 95 : 0;
}

/* A summary (ms): min, mean, max and pNN ("p999" is p99.9) to ns; a negative or huge one
 * kept unknown, counted in d under `in`.KEY. */
static json_t *latency_ns(json_t *sum, const char *in, pr_textsum_doubt *d)
{
    json_t *o = json_object();
    const char *k;
    json_t *x;
    json_object_foreach (sum, k, x) {
        if (!json_is_number(x))
            continue;
        char key[32];
        if (!strcmp(k, "min") || !strcmp(k, "max") || !strcmp(k, "mean"))
            snprintf(key, sizeof key, "%s", k);
        else if (!strcmp(k, "p999"))
            snprintf(key, sizeof key, "p99.9");
        else if (k[0] == 'p' && k[1] >= '0' && k[1] <= '9' && strlen(k) < 8)
            snprintf(key, sizeof key, "%s", k);
        else
            continue;
        char where[160];
        snprintf(where, sizeof where, "%s.%s", in, k);
        pr_textsum_int(o, key, pr_textsum_checked(d, json_number_value(x), 1e6, where));
    }
    return o;
}

/* A counter: 0 when absent; a negative or huge one is kept unknown (PR_UNKNOWN, counted in
 * d; when d is NULL it was counted already). */
static int64_t counter(const json_t *counters, const char *key, pr_textsum_doubt *d)
{
    double v;
    if (pr_jsondoc_num(counters, key, &v) < 0)
        return 0;
    pr_textsum_doubt none = {0, ""};
    char where[160];
    snprintf(where, sizeof where, "counters.%s", key);
    return pr_textsum_checked(d ? d : &none, v, 1, where);
}

/* n, or 0 when unknown (a sum of counters goes on without it: it was counted in the doubts) */
static int64_t known(int64_t n)
{
    return n == PR_UNKNOWN ? 0 : n;
}

/* Requests, outcomes, codes and errors of one period (aggregate or intermediate) into o. */
static void period(const json_t *p, json_t *o, int full, pr_textsum_doubt *d)
{
    json_t *c = json_object_get(p, "counters");
    int64_t req = counter(c, "http.requests", d), ok = 0, bad = 0, errs = 0;
    json_t *codes = json_object(), *errors = json_array();
    const char *k;
    json_t *x;
    json_object_foreach (c, k, x) {
        if (!strncmp(k, "http.codes.", 11)) {
            int64_t n = counter(c, k, d);
            pr_textsum_int(codes, k + 11, n);
            n = known(n);
            int st = atoi(k + 11);
            if (st >= 200 && st < 400)
                ok += n;
            else
                bad += n;
        } else if (!strncmp(k, "errors.", 7)) {
            int64_t n = counter(c, k, d);
            errs += known(n);
            if (n != PR_UNKNOWN)
                pr_textsum_append(errors,
                                  json_pack("{s:s,s:I}", "message", k + 7, "count", (json_int_t)n));
        }
    }
    pr_textsum_int(o, "requests", req);
    pr_textsum_int(o, "successes", ok);
    pr_textsum_int(o, "failures", bad + errs);
    if (full && req > 0)
        pr_textsum_real(o, "success_ratio", (double)ok / (double)req);
    json_object_set_new(o, "status_codes", codes);
    json_object_set_new(o, "errors", errors);
    double v;
    if (pr_jsondoc_num(json_object_get(p, "rates"), "http.request_rate", &v) == 0)
        pr_textsum_real(o, "rate_per_s", v);
    json_t *rt = json_object_get(json_object_get(p, "summaries"), "http.response_time");
    if (json_is_object(rt))
        json_object_set_new(o, "latency_ns", latency_ns(rt, "summaries.http.response_time", d));
    if (json_object_get(c, "http.downloaded_bytes"))
        pr_textsum_int(o, "bytes_in_total", counter(c, "http.downloaded_bytes", d));
}

/* The label object of endpoint name[0..n) in labels (an object keyed by endpoint while the
 * aggregate is read), made on first use. */
static json_t *endpoint(json_t *by_name, const char *name, size_t n)
{
    char key[512];
    if (n >= sizeof key)
        n = sizeof key - 1;
    memcpy(key, name, n);
    key[n] = 0;
    json_t *l = json_object_get(by_name, key);
    if (!l) {
        l = json_object();
        pr_textsum_str(l, "label", key, n);
        json_object_set_new(by_name, key, l);
    }
    return l;
}

static void add_count(json_t *o, const char *key, int64_t n)
{
    json_t *x = json_object_get(o, key);
    pr_textsum_int(o, key, (x ? json_integer_value(x) : 0) + n);
}

/* One counter of the metrics-by-endpoint plugin ("<prefix><endpoint>.codes.<status>" or
 * "<prefix><endpoint>.errors.<message>") into its endpoint's requests, outcomes, codes and
 * errors. Endpoints may contain dots: the last ".codes." and the first ".errors." split. */
static void endpoint_counter(json_t *by_name, const char *k, int64_t n)
{
    const char *ep = k + sizeof ENDPOINT - 1, *c = NULL, *e = strstr(ep, ".errors.");
    for (const char *q = strstr(ep, ".codes."); q; q = strstr(q + 1, ".codes."))
        c = q;
    if (c && (!e || c < e) && c[7] >= '0' && c[7] <= '9') {
        json_t *l = endpoint(by_name, ep, (size_t)(c - ep));
        int st = atoi(c + 7);
        add_count(l, "requests", n);
        add_count(l, st >= 200 && st < 400 ? "successes" : "failures", n);
        add_count(pr_textsum_obj(l, "status_codes"), c + 7, n);
    } else if (e && e[8]) {
        json_t *l = endpoint(by_name, ep, (size_t)(e - ep));
        add_count(l, "requests", n);
        add_count(l, "failures", n);
        pr_textsum_append(pr_textsum_arr(l, "errors"),
                          json_pack("{s:s,s:I}", "message", e + 8, "count", (json_int_t)n));
    }
}

/* The metrics-by-endpoint plugin's per-endpoint counters (codes, errors: the endpoint's
 * requests and outcomes) and response-time summaries as labels, in the report's order. An
 * endpoint none of whose requests got a response (refused, timed out) has no summary. */
static void endpoints(const json_t *agg, json_t *s, pr_textsum_doubt *d)
{
    json_t *by_name = json_object(), *sums = json_object_get(agg, "summaries");
    json_t *counters = json_object_get(agg, "counters");
    const char *k;
    json_t *x;
    json_object_foreach (counters, k, x) {
        if (!strncmp(k, ENDPOINT, sizeof ENDPOINT - 1) && counter(counters, k, d) != PR_UNKNOWN)
            endpoint_counter(by_name, k, counter(counters, k, NULL));
    }
    json_object_foreach (sums, k, x) {
        if (strncmp(k, ENDPOINT_RT, sizeof ENDPOINT_RT - 1) || !json_is_object(x))
            continue;
        const char *ep = k + sizeof ENDPOINT_RT - 1;
        json_t *l = endpoint(by_name, ep, strlen(ep));
        double v;
        char where[160];
        snprintf(where, sizeof where, "summaries.%.140s", k);
        if (!json_object_get(l, "requests") && pr_jsondoc_num(x, "count", &v) == 0)
            pr_textsum_int(l, "requests", pr_textsum_checked(d, v, 1, where)); /* responses */
        json_object_set_new(l, "latency_ns", latency_ns(x, where, d));
    }
    json_t *labels = pr_textsum_arr(s, "labels");
    json_object_foreach (by_name, k, x) {
        json_t *req = json_object_get(x, "requests"), *ok = json_object_get(x, "successes");
        if (req && json_integer_value(req) > 0 && (ok || json_object_get(x, "failures")))
            pr_textsum_real(x, "success_ratio",
                            (double)(ok ? json_integer_value(ok) : 0) /
                                (double)json_integer_value(req));
        pr_textsum_append(labels, json_incref(x));
    }
    json_decref(by_name);
}

static int64_t stamp_ms(const json_t *v)
{
    if (json_is_number(v))
        return pr_textsum_round(json_number_value(v));
    int64_t n;
    const char *s = json_string_value(v); /* intermediate periods write it as a string */
    return s && pr_lex_i64(s, strlen(s), &n) == 0 ? n : PR_UNKNOWN;
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    json_t *doc;
    int rc = pr_jsondoc_load(in, &doc, err);
    if (rc < 0)
        return rc;
    json_t *agg = json_object_get(doc, "aggregate");
    if (!json_is_object(agg) || !json_is_object(json_object_get(agg, "counters"))) {
        json_decref(doc);
        return pr_error_set(err, PR_EFORMAT, pr_input_name(in), 1, 1,
                            "expected Artillery's JSON report (an \"aggregate\" with "
                            "\"counters\")");
    }
    pr_run *run = sink->run;
    json_t *s = pr_textsum_begin(run);
    pr_run_meta_resolution(run, "latency_resolution_ns", 1000000); /* whole ms */
    pr_textsum_doubt d = {0, ""};
    period(agg, s, 1, &d);
    int64_t t0, t1; /* its first and last metric, as times (years 1678..2261) or unknown */
    if (pr_time_from_epoch(stamp_ms(json_object_get(agg, "firstMetricAt")), 1000000, &t0) == 0 &&
        pr_time_from_epoch(stamp_ms(json_object_get(agg, "lastMetricAt")), 1000000, &t1) == 0 &&
        t1 >= t0)
        pr_textsum_int(s, "duration_ns", t1 - t0);
    endpoints(agg, s, &d);
    json_t *series = pr_textsum_arr(s, "series"), *p;
    size_t i;
    json_array_foreach (json_object_get(doc, "intermediate"), i, p) {
        json_t *pt = json_object();
        int64_t t_ns;
        if (pr_time_from_epoch(stamp_ms(json_object_get(p, "period")), 1000000, &t_ns) == 0)
            pr_textsum_int(pt, "t_ns", t_ns);
        period(p, pt, 0, &d);
        pr_textsum_int(pt, "users", counter(json_object_get(p, "counters"), "vusers.created", &d));
        pr_textsum_append(series, pt);
    }
    json_t *tool = pr_textsum_obj(s, "tool");
    json_object_set(tool, "counters", json_object_get(agg, "counters"));
    json_object_set(tool, "rates", json_object_get(agg, "rates"));
    json_t *sl = json_object_get(json_object_get(agg, "summaries"), "vusers.session_length");
    if (sl)
        json_object_set(tool, "vusers.session_length", sl);
    if (t0 != PR_UNKNOWN)
        pr_run_meta_set(run, "first_metric_ms", json_integer(t0));
    pr_run_meta_set(run, "series_rule",
                    json_string("series points are Artillery's intermediate "
                                "periods; users = vusers created in the period"));
    pr_textsum_doubt_end(&d, sink, pr_input_name(in));
    json_decref(doc);
    return 0;
}

const pr_parser pr_parser_artillery = {
    "artillery", "artillery",
    "Artillery run -o JSON report: summary-only, per-endpoint summaries, intermediate periods",
    sniff, parse};
