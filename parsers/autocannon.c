/* Reader of autocannon's JSON result (`autocannon -j`): a summary-only run (the file holds
 * totals and per-second distributions, no time series). */
#include "parsers/jsondoc.h"
#include "parsers/parser.h"
#include "parsers/sniff.h"
#include "parsers/textsum.h"
#include <stdio.h>
#include <string.h>

static int sniff(const unsigned char *buf, size_t len)
{
    pr_str obj;
    if (pr_sniff_json(buf, len, &obj) < 0)
        return 0;
    return pr_sniff_has(obj, "\"connections\"") && pr_sniff_has(obj, "\"sampleInt\"") &&
                   pr_sniff_has(obj, "\"latency\"")
               ? 95
               : 0;
}

/* autocannon's percentile keys: "p2_5" → "p2.5", "p99_999" → "p99.999". */
static void pct_key(const char *k, char *out, size_t cap)
{
    size_t i = 0;
    for (; k[i] && i + 1 < cap; i++)
        out[i] = k[i] == '_' ? '.' : k[i];
    out[i] = 0;
}

/* The latency object: ms → ns for min, mean, stdev, max and every pNN key (a negative or
 * huge one kept unknown, counted in d). */
static json_t *latency_ns(json_t *lat, pr_textsum_doubt *d)
{
    json_t *o = json_object();
    static const char *const lead[][2] = {
        {"min", "min"}, {"mean", "mean"}, {"stddev", "stdev"}, {"max", "max"}};
    double v;
    char where[48];
    for (size_t i = 0; i < sizeof lead / sizeof lead[0]; i++)
        if (pr_jsondoc_num(lat, lead[i][0], &v) == 0) {
            snprintf(where, sizeof where, "latency.%s", lead[i][0]);
            pr_textsum_int(o, lead[i][1], pr_textsum_checked(d, v, 1e6, where));
        }
    const char *k;
    json_t *x;
    json_object_foreach (lat, k, x) {
        if (k[0] != 'p' || k[1] < '0' || k[1] > '9' || !json_is_number(x))
            continue;
        char key[32];
        pct_key(k, key, sizeof key);
        snprintf(where, sizeof where, "latency.%.30s", k);
        pr_textsum_int(o, key, pr_textsum_checked(d, json_number_value(x), 1e6, where));
    }
    return o;
}

/* doc[key], a count: 0 when absent; a negative or huge one is kept unknown (PR_UNKNOWN,
 * counted in d under the name `in` + key). */
static int64_t count_of(const json_t *doc, const char *in, const char *key, pr_textsum_doubt *d)
{
    double v;
    char where[64];
    snprintf(where, sizeof where, "%s%s", in, key);
    return pr_jsondoc_num(doc, key, &v) == 0 ? pr_textsum_checked(d, v, 1, where) : 0;
}

/* a + b, unknown when either is */
static int64_t add(int64_t a, int64_t b)
{
    return a == PR_UNKNOWN || b == PR_UNKNOWN ? PR_UNKNOWN : a + b;
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    json_t *doc;
    int rc = pr_jsondoc_load(in, &doc, err);
    if (rc < 0)
        return rc;
    json_t *lat = json_object_get(doc, "latency"), *req = json_object_get(doc, "requests");
    if (!json_is_object(lat) || !json_is_object(req)) {
        json_decref(doc);
        return pr_error_set(err, PR_EFORMAT, pr_input_name(in), 1, 1,
                            "expected autocannon's JSON result (\"latency\" and \"requests\" "
                            "objects)");
    }
    pr_run *run = sink->run;
    json_t *s = pr_textsum_begin(run);
    pr_run_meta_resolution(run, "latency_resolution_ns", 1000000); /* its histogram: whole ms */
    pr_textsum_doubt d = {0, ""};
    int64_t responses = count_of(req, "requests.", "total", &d);
    int64_t errors = count_of(doc, "", "errors", &d), non2xx = count_of(doc, "", "non2xx", &d);
    /* every request ends in a response or an error (timeouts are counted among errors) */
    int64_t requests = add(responses, errors), successes = add(responses, -non2xx);
    if (non2xx == PR_UNKNOWN)
        successes = PR_UNKNOWN;
    pr_textsum_int(s, "requests", requests);
    pr_textsum_int(s, "successes", successes);
    pr_textsum_int(s, "failures", add(non2xx, errors));
    if (requests != PR_UNKNOWN && successes != PR_UNKNOWN && requests > 0)
        pr_textsum_real(s, "success_ratio", (double)successes / (double)requests);
    double v;
    if (pr_jsondoc_num(doc, "duration", &v) == 0)
        pr_textsum_int(s, "duration_ns", pr_textsum_checked(&d, v, 1e9, "duration"));
    if (pr_jsondoc_num(req, "average", &v) == 0) /* the mean of its per-second samples */
        pr_textsum_real(s, "rate_per_s", v);
    if (pr_jsondoc_num(doc, "connections", &v) == 0) {
        pr_textsum_int(s, "concurrency", pr_textsum_round(v));
        run->concurrency = (int32_t)(v > 0 && v < 1e9 ? v : -1);
        run->load_model = PR_LOAD_CLOSED;
    }
    int64_t lat_n = count_of(lat, "latency.", "totalCount", &d);
    if (lat_n > 0) /* no response, no latency (autocannon prints zeros) */
        json_object_set_new(s, "latency_ns", latency_ns(lat, &d));
    json_t *thr = json_object_get(doc, "throughput");
    if (json_is_object(thr)) {
        if (pr_jsondoc_num(thr, "total", &v) == 0)
            pr_textsum_int(s, "bytes_in_total", pr_textsum_checked(&d, v, 1, "throughput.total"));
        if (pr_jsondoc_num(thr, "average", &v) == 0)
            pr_textsum_real(s, "bytes_in_per_s", v);
    }
    json_t *codes = json_object(), *sc = json_object_get(doc, "statusCodeStats");
    const char *k;
    json_t *x;
    json_object_foreach (sc, k, x)
        pr_textsum_int(codes, k, count_of(x, "statusCodeStats.*.", "count", &d));
    if (json_object_size(codes))
        json_object_set_new(s, "status_codes", codes);
    else
        json_decref(codes);
    json_t *errs = pr_textsum_arr(s, "errors");
    if (errors && errors != PR_UNKNOWN)
        pr_textsum_append(errs, json_pack("{s:s,s:I}", "message",
                                          "request errors (autocannon records no message)", "count",
                                          (json_int_t)errors));
    json_t *tool = pr_textsum_obj(s, "tool");
    static const char *const keep[] = {
        "url",      "start",      "finish",   "sampleInt",  "samples", "pipelining", "workers",
        "timeouts", "mismatches", "resets",   "non2xx",     "1xx",     "2xx",        "3xx",
        "4xx",      "5xx",        "requests", "throughput", "errors"};
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++)
        if ((x = json_object_get(doc, keep[i])))
            json_object_set(tool, keep[i], x);
    pr_run_meta_set(run, "series", json_string("autocannon's JSON holds no time series"));
    pr_textsum_doubt_end(&d, sink, pr_input_name(in));
    json_decref(doc);
    return 0;
}

const pr_parser pr_parser_autocannon = {"autocannon", "autocannon",
                                        "autocannon -j JSON result: summary-only", sniff, parse};
