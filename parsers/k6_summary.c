/* Reader of k6's end-of-test summary JSON as a summary-only run: `--summary-export` (metrics
 * flattened to their values, thresholds as {expr: failed}) and the handleSummary(data) object
 * ({metrics: {name: {type, contains, values, thresholds: {expr: {ok}}}}, root_group, options,
 * state}). The tool's numbers are kept as printed (summary "tool"."k6", normalised to the
 * handleSummary shape so `summary --format k6` can print k6's layout). */
#include "parsers/parser.h"
#include "parsers/sniff.h"
#include "parsers/textsum.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define K6_SUMMARY_MAX (16u << 20) /* summaries are kilobytes; refuse anything huge */

static int sniff(const unsigned char *buf, size_t len)
{
    pr_str obj;
    if (pr_sniff_json(buf, len, &obj) < 0)
        return 0;
    int metrics = pr_sniff_has(obj, "\"metrics\""), root = pr_sniff_has(obj, "\"root_group\"");
    int k6 = pr_sniff_has(obj, "\"iteration_duration\"") || pr_sniff_has(obj, "\"http_reqs\"") ||
             pr_sniff_has(obj, "\"vus_max\"");
    if (metrics && root && k6)
        return 90;
    return metrics && k6 && pr_sniff_has(obj, "\"testRunDurationMs\"") ? 80 : 0;
}

/* Export layout: a metric's type from its value keys. */
static const char *type_of_values(json_t *v)
{
    if (json_object_get(v, "passes") && json_object_get(v, "fails"))
        return "rate";
    if (json_object_get(v, "rate") && json_object_get(v, "count") && !json_object_get(v, "avg"))
        return "counter";
    if (json_object_get(v, "value") && json_object_get(v, "min") && !json_object_get(v, "avg"))
        return "gauge";
    return "trend";
}

/* Export layout: what a metric's values measure (the export drops `contains`). */
static const char *contains_of(const char *name, const char *type)
{
    static const char *const data[] = {"data_sent", "data_received"};
    for (size_t i = 0; i < 2; i++)
        if (!strncmp(name, data[i], strlen(data[i])))
            return "data";
    if (!strcmp(type, "trend") &&
        (!strncmp(name, "http_req_", 9) || !strncmp(name, "iteration_duration", 18) ||
         !strncmp(name, "group_duration", 14)))
        return "time";
    return "default";
}

/* One metric in the handleSummary shape. */
static json_t *normalise(const char *name, json_t *m, int export_layout)
{
    if (!export_layout)
        return json_deep_copy(m);
    json_t *values = json_deep_copy(m);
    json_t *th = json_object_get(values, "thresholds");
    json_t *out = json_object();
    if (th) {
        json_t *t = json_object();
        const char *expr;
        json_t *failed;
        json_object_foreach (th, expr, failed) /* the export writes {expr: failed} */
            json_object_set_new(t, expr, json_pack("{s:b}", "ok", !json_is_true(failed)));
        json_object_set_new(out, "thresholds", t);
        json_object_del(values, "thresholds");
    }
    const char *type = type_of_values(values);
    if (!strcmp(type, "rate") && json_object_get(values, "value")) { /* export renamed it */
        json_object_set(values, "rate", json_object_get(values, "value"));
        json_object_del(values, "value");
    }
    json_object_set_new(out, "type", json_string(type));
    json_object_set_new(out, "contains", json_string(contains_of(name, type)));
    json_object_set_new(out, "values", values);
    return out;
}

static double num(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* latency_ns and friends from the values (ms) of trend `metric`; a negative or huge one is
 * kept unknown, counted in d. */
static void trend_ns(json_t *sum, const char *key, json_t *values, const char *metric,
                     pr_textsum_doubt *d)
{
    if (!json_is_object(values))
        return;
    json_t *o = pr_textsum_obj(sum, key);
    static const struct {
        const char *k6, *ours;
    } map[] = {{"min", "min"}, {"avg", "mean"}, {"med", "p50"}, {"max", "max"}};
    char where[96];
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (json_is_number(json_object_get(values, map[i].k6))) {
            snprintf(where, sizeof where, "metrics.%s.%s", metric, map[i].k6);
            pr_textsum_int(o, map[i].ours,
                           pr_textsum_checked(d, num(values, map[i].k6), 1e6, where));
        }
    const char *k;
    json_t *v;
    json_object_foreach (values, k, v) {
        size_t n = strlen(k);
        if (n > 3 && n < 16 && k[0] == 'p' && k[1] == '(' && k[n - 1] == ')' && json_is_number(v)) {
            char key2[24];
            snprintf(key2, sizeof key2, "p%.*s", (int)(n - 3), k + 2);
            snprintf(where, sizeof where, "metrics.%s.%s", metric, k);
            pr_textsum_int(o, key2, pr_textsum_checked(d, json_number_value(v), 1e6, where));
        }
    }
}

/* metrics[metric].values[k], a count or a duration in units of unit_ns, checked (d). */
static int64_t figure(json_t *metrics, const char *metric, const char *k, double unit_ns,
                      pr_textsum_doubt *d)
{
    char where[96];
    snprintf(where, sizeof where, "metrics.%s.%s", metric, k);
    return pr_textsum_checked(
        d, num(json_object_get(json_object_get(metrics, metric), "values"), k), unit_ns, where);
}

/* The figures of the normalised metrics that cannot be: a negative or huge time, size or
 * count (k6 never writes one) becomes null, so neither the canonical keys nor k6's own layout
 * (summary --format k6) show it as data; each is counted in d. */
static void impossible_to_null(json_t *metrics, pr_textsum_doubt *d)
{
    const char *name, *k;
    json_t *m, *x;
    json_object_foreach (metrics, name, m) {
        const char *contains = json_string_value(json_object_get(m, "contains"));
        int measure = contains && (!strcmp(contains, "time") || !strcmp(contains, "data"));
        json_t *values = json_object_get(m, "values");
        json_object_foreach (values, k, x) {
            int count = !strcmp(k, "count") || !strcmp(k, "passes") || !strcmp(k, "fails");
            if (!json_is_number(x) || !(count || (measure && strcmp(k, "rate"))))
                continue;
            char where[128];
            snprintf(where, sizeof where, "metrics.%.80s.%.30s", name, k);
            double unit = count || strcmp(contains, "time") ? 1 : 1e6;
            if (pr_textsum_checked(d, json_number_value(x), unit, where) == PR_UNKNOWN)
                json_object_set_new(values, k, json_null());
        }
    }
}

/* The canonical summary keys (model/run.h) from the normalised metrics. */
static void canonical(json_t *sum, json_t *metrics, json_t *state, pr_textsum_doubt *d)
{
    json_t *reqs = json_object_get(json_object_get(metrics, "http_reqs"), "values");
    json_t *failed = json_object_get(json_object_get(metrics, "http_req_failed"), "values");
    if (!isnan(num(reqs, "count")))
        pr_textsum_int(sum, "requests", figure(metrics, "http_reqs", "count", 1, d));
    pr_textsum_real(sum, "rate_per_s", num(reqs, "rate"));
    double pass = num(failed, "passes"), fail = num(failed, "fails");
    if (!isnan(pass) && !isnan(fail)) { /* http_req_failed "passes" are failed requests */
        int64_t np = figure(metrics, "http_req_failed", "passes", 1, d);
        int64_t nf = figure(metrics, "http_req_failed", "fails", 1, d);
        pr_textsum_int(sum, "failures", np);
        pr_textsum_int(sum, "successes", nf);
        if (np != PR_UNKNOWN && nf != PR_UNKNOWN && np + nf > 0)
            pr_textsum_real(sum, "success_ratio", (double)nf / (double)(np + nf));
    }
    trend_ns(sum, "latency_ns",
             json_object_get(json_object_get(metrics, "http_req_duration"), "values"),
             "http_req_duration", d);
    json_t *rx = json_object_get(json_object_get(metrics, "data_received"), "values");
    json_t *tx = json_object_get(json_object_get(metrics, "data_sent"), "values");
    if (!isnan(num(rx, "count")))
        pr_textsum_int(sum, "bytes_in_total", figure(metrics, "data_received", "count", 1, d));
    pr_textsum_real(sum, "bytes_in_per_s", num(rx, "rate"));
    if (!isnan(num(tx, "count")))
        pr_textsum_int(sum, "bytes_out_total", figure(metrics, "data_sent", "count", 1, d));
    /* the most VUs active (k6's vus), else the most allocated (vus_max) */
    double vmax = num(json_object_get(json_object_get(metrics, "vus"), "values"), "max");
    if (isnan(vmax) || !(vmax > 0))
        vmax = num(json_object_get(json_object_get(metrics, "vus_max"), "values"), "max");
    if (!isnan(vmax))
        pr_textsum_int(sum, "concurrency", pr_textsum_round(vmax));
    double ms = num(state, "testRunDurationMs");
    if (!isnan(ms))
        pr_textsum_int(sum, "duration_ns",
                       pr_textsum_checked(d, ms, 1e6, "state.testRunDurationMs"));
}

/* Threshold verdicts as {metric, expr, ok}, and whether any failed. */
static json_t *thresholds(json_t *metrics, int *failed)
{
    json_t *a = json_array();
    const char *name, *expr;
    json_t *m, *t;
    json_object_foreach (metrics, name, m) {
        json_object_foreach (json_object_get(m, "thresholds"), expr, t) {
            int ok = json_is_true(json_object_get(t, "ok"));
            *failed |= !ok;
            pr_textsum_append(a,
                              json_pack("{s:s,s:s,s:b}", "metric", name, "expr", expr, "ok", ok));
        }
    }
    return a;
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    pr_run *run = sink->run;
    const char *name = pr_input_name(in);
    size_t len;
    char *buf = pr_textsum_slurp(in, K6_SUMMARY_MAX, &len, err);
    if (!buf)
        return err->code;
    json_error_t je;
    json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    free(buf);
    json_t *metrics = json_object_get(root, "metrics");
    if (!json_is_object(metrics)) {
        int rc = pr_error_set(err, root ? PR_EFORMAT : PR_EPARSE, name, root ? 1 : je.line,
                              root ? 1 : je.column,
                              "expected a k6 summary object with "
                              "\"metrics\"%s%s",
                              root ? "" : ": ", root ? "" : je.text);
        json_decref(root);
        return rc;
    }
    pr_run_set_format(run, "k6-summary", "k6");
    int export_layout = 1; /* handleSummary data has typed metrics with "values" */
    const char *k;
    json_t *m;
    json_object_foreach (metrics, k, m)
        if (json_is_object(json_object_get(m, "values")) &&
            json_is_string(json_object_get(m, "type")))
            export_layout = 0;
    json_t *norm = json_object();
    json_object_foreach (metrics, k, m)
        if (json_is_object(m))
            json_object_set_new(norm, k, normalise(k, m, export_layout));
    json_t *sum = pr_textsum_begin(run);
    json_t *state = json_object_get(root, "state");
    pr_textsum_doubt d = {0, ""};
    impossible_to_null(norm, &d);
    canonical(sum, norm, state, &d);
    pr_textsum_doubt_end(&d, sink, name);
    json_t *vus = json_object_get(sum, "concurrency");
    if (json_is_integer(vus) && json_integer_value(vus) > 0 &&
        json_integer_value(vus) < 2000000000) {
        run->concurrency = (int32_t)json_integer_value(vus); /* VUs: a closed model */
        run->load_model = PR_LOAD_CLOSED;
    }
    json_t *tool = pr_textsum_obj(sum, "tool");
    json_t *k6 = json_object();
    json_object_set_new(k6, "layout",
                        json_string(export_layout ? "summary-export" : "handleSummary"));
    int failed = 0;
    json_object_set_new(k6, "thresholds", thresholds(norm, &failed));
    json_object_set_new(k6, "metrics", norm);
    static const char *const keep[] = {"root_group", "options", "state"};
    for (size_t i = 0; i < 3; i++)
        if (json_object_get(root, keep[i]))
            json_object_set(k6, keep[i], json_object_get(root, keep[i]));
    json_object_set_new(tool, "k6", k6);
    if (failed)
        pr_textsum_note(run, "k6 thresholds failed (see the summary's k6 thresholds)");
    json_decref(root);
    return 0;
}

const pr_parser pr_parser_k6_summary = {
    "k6-summary", "k6", "k6 end-of-test summary JSON (--summary-export, handleSummary) (summary)",
    sniff, parse};
