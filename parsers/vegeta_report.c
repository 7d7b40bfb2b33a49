/* Vegeta's printed reports (text, -type=json, hist) read as summary-only runs. */
#include "parsers/parser.h"
#include "model/lex.h"
#include "model/xalloc.h"
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define REPORT_MAX (1u << 20) /* reports are a few hundred bytes; refuse anything huge */

/* Reads the whole (small) input into a NUL-terminated heap buffer. */
static char *slurp(pr_input *in, size_t *len, pr_error *err)
{
    size_t cap = 0, n = 0;
    char *buf = NULL;
    for (;;) {
        buf = pr_xgrow(buf, &cap, n + 4096 + 1, 1);
        size_t want = cap - 1 - n;
        if (n + want > REPORT_MAX + 1)
            want = REPORT_MAX + 1 - n;
        long r = pr_input_read(in, buf + n, want, err);
        if (r < 0) {
            free(buf);
            return NULL;
        }
        n += (size_t)r;
        if ((size_t)r < want || n > REPORT_MAX)
            break;
    }
    if (n > REPORT_MAX) {
        free(buf);
        pr_error_set(err, PR_EPARSE, pr_input_name(in), 0, 0,
                     "a Vegeta report larger than %u bytes", REPORT_MAX);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

static json_t *summary_of(pr_run *run)
{
    run->summary_only = 1;
    if (!run->summary)
        run->summary = json_object();
    return run->summary;
}

/* Vegeta's success is 200 <= code < 400 and its report lists every code: the counts of
 * successes and failures follow exactly from the status codes. */
static void outcomes(json_t *s)
{
    json_t *req = json_object_get(s, "requests"), *codes = json_object_get(s, "status_codes");
    if (!json_is_integer(req) || !json_is_object(codes))
        return;
    json_int_t ok = 0, all = 0;
    const char *k;
    json_t *v;
    json_object_foreach (codes, k, v) {
        int code = atoi(k);
        json_int_t n = json_integer_value(v);
        if (n < 0 || n > INT64_MAX / 4)
            return;
        all += n;
        if (code >= 200 && code < 400)
            ok += n;
    }
    if (all != json_integer_value(req))
        return;
    json_object_set_new(s, "successes", json_integer(ok));
    json_object_set_new(s, "failures", json_integer(all - ok));
}

static json_t *sub(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!v) {
        v = json_object();
        json_object_set_new(o, key, v);
    }
    return v;
}

/* ---- text report ---- */

static int sniff_text(const unsigned char *buf, size_t len)
{
    pr_str s = {(const char *)buf, len};
    if (pr_str_starts(s, "Requests") && memmem(buf, len, "[total", 6))
        return 90;
    return 0;
}

/* Splits "a, b, c" into trimmed items. */
static size_t items(pr_str s, pr_str *out, size_t max)
{
    size_t k = 0;
    while (s.n && k < max) {
        const char *c = memchr(s.p, ',', s.n);
        size_t n = c ? (size_t)(c - s.p) : s.n;
        out[k++] = pr_str_trim((pr_str){s.p, n});
        if (!c)
            break;
        s.p += n + 1;
        s.n -= n + 1;
    }
    return k;
}

static const struct {
    const char *section, *item;
    const char *obj, *key; /* obj NULL: top-level summary key */
    char type;             /* 'i' integer, 'f' number, 'd' duration, '%' percentage */
} text_map[] = {
    {"Requests", "total", NULL, "requests", 'i'},
    {"Requests", "rate", NULL, "rate_per_s", 'f'},
    {"Requests", "throughput", NULL, "throughput_per_s", 'f'},
    {"Duration", "total", "tool", "duration_total_ns", 'd'},
    {"Duration", "attack", NULL, "duration_ns", 'd'},
    {"Duration", "wait", NULL, "wait_ns", 'd'},
    {"Latencies", "min", "latency_ns", "min", 'd'},
    {"Latencies", "mean", "latency_ns", "mean", 'd'},
    {"Latencies", "50", "latency_ns", "p50", 'd'},
    {"Latencies", "90", "latency_ns", "p90", 'd'},
    {"Latencies", "95", "latency_ns", "p95", 'd'},
    {"Latencies", "99", "latency_ns", "p99", 'd'},
    {"Latencies", "max", "latency_ns", "max", 'd'},
    {"Bytes In", "total", NULL, "bytes_in_total", 'i'},
    {"Bytes In", "mean", "tool", "bytes_in_mean", 'f'},
    {"Bytes Out", "total", NULL, "bytes_out_total", 'i'},
    {"Bytes Out", "mean", "tool", "bytes_out_mean", 'f'},
    {"Success", "ratio", NULL, "success_ratio", '%'},
};

static int text_value(json_t *summary, pr_str section, pr_str name, pr_str val)
{
    for (size_t i = 0; i < sizeof text_map / sizeof text_map[0]; i++) {
        if (!pr_str_eq(section, text_map[i].section) || !pr_str_eq(name, text_map[i].item))
            continue;
        json_t *o = text_map[i].obj ? sub(summary, text_map[i].obj) : summary;
        int64_t iv;
        double dv;
        switch (text_map[i].type) {
        case 'i':
            if (pr_lex_i64(val.p, val.n, &iv) < 0)
                return -1;
            json_object_set_new(o, text_map[i].key, json_integer(iv));
            return 0;
        case 'f':
            if (pr_lex_double(val.p, val.n, &dv) < 0)
                return -1;
            json_object_set_new(o, text_map[i].key, json_real(dv));
            return 0;
        case 'd':
            if (pr_lex_duration(val.p, val.n, 0, &iv) < 0)
                return -1;
            json_object_set_new(o, text_map[i].key, json_integer(iv));
            return 0;
        case '%':
            if (!val.n || val.p[val.n - 1] != '%' || pr_lex_double(val.p, val.n - 1, &dv) < 0)
                return -1;
            json_object_set_new(o, text_map[i].key, json_real(dv / 100.0));
            return 0;
        }
    }
    /* Unknown item (another Vegeta version): keep it as printed under "tool". */
    char key[128];
    snprintf(key, sizeof key, "%.*s %.*s", (int)(section.n > 60 ? 60 : section.n), section.p,
             (int)(name.n > 60 ? 60 : name.n), name.p);
    json_object_set_new(sub(summary, "tool"), key, json_stringn(val.p, val.n));
    return 0;
}

static int parse_text(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    pr_run_set_format(sink->run, "vegeta-text", "vegeta");
    size_t len;
    char *buf = slurp(in, &len, err);
    if (!buf)
        return err->code;
    json_t *summary = summary_of(sink->run);
    int rc = 0, in_errors = 0, seen = 0;
    json_t *errors = NULL;
    long ln = 0;
    for (const char *p = buf; p < buf + len;) {
        const char *e = memchr(p, '\n', (size_t)(buf + len - p));
        pr_str line = {p, e ? (size_t)(e - p) : (size_t)(buf + len - p)};
        p = e ? e + 1 : buf + len;
        ln++;
        if (line.n && line.p[line.n - 1] == '\r')
            line.n--;
        if (in_errors) {
            if (line.n) {
                json_t *x = json_object();
                json_object_set_new(x, "message", json_stringn(line.p, line.n));
                json_array_append_new(errors, x);
            }
            continue;
        }
        if (pr_str_eq(pr_str_trim(line), "Error Set:")) {
            in_errors = 1;
            errors = json_array();
            json_object_set_new(summary, "errors", errors);
            continue;
        }
        if (pr_str_trim(line).n == 0)
            continue;
        const char *lb = memchr(line.p, '[', line.n);
        const char *rb = lb ? memchr(lb, ']', (size_t)(line.p + line.n - lb)) : NULL;
        if (!rb) {
            rc = pr_error_set(err, PR_EPARSE, pr_input_name(in), ln, 1,
                              "expected \"Name [items] values\" in a Vegeta text report");
            break;
        }
        pr_str section = pr_str_trim((pr_str){line.p, (size_t)(lb - line.p)});
        pr_str names[16], vals[64];
        size_t nn = items((pr_str){lb + 1, (size_t)(rb - lb - 1)}, names, 16);
        pr_str rest = pr_str_trim((pr_str){rb + 1, (size_t)(line.p + line.n - rb - 1)});
        if (pr_str_eq(section, "Status Codes")) {
            json_t *codes = json_object();
            json_object_set_new(summary, "status_codes", codes);
            while (rest.n) {
                const char *sp = memchr(rest.p, ' ', rest.n);
                pr_str tok = {rest.p, sp ? (size_t)(sp - rest.p) : rest.n};
                const char *colon = memchr(tok.p, ':', tok.n);
                int64_t count;
                if (!colon ||
                    pr_lex_i64(colon + 1, (size_t)(tok.p + tok.n - colon - 1), &count) < 0) {
                    rc = pr_error_set(err, PR_EPARSE, pr_input_name(in), ln,
                                      (long)(tok.p - line.p) + 1, "expected code:count");
                    goto done;
                }
                char code[32];
                snprintf(code, sizeof code, "%.*s",
                         (int)((size_t)(colon - tok.p) > 20 ? 20 : (size_t)(colon - tok.p)), tok.p);
                json_object_set_new(codes, code, json_integer(count));
                rest = pr_str_trim((pr_str){tok.p + tok.n, rest.n - tok.n});
            }
            seen++;
            continue;
        }
        size_t nv = items(rest, vals, 64);
        if (nv != nn) {
            rc = pr_error_set(err, PR_EPARSE, pr_input_name(in), ln, (long)(rest.p - line.p) + 1,
                              "expected %zu values for %.*s, found %zu", nn, (int)section.n,
                              section.p, nv);
            break;
        }
        for (size_t i = 0; i < nn; i++) {
            if (text_value(summary, section, names[i], vals[i]) < 0) {
                rc = pr_error_set(err, PR_EPARSE, pr_input_name(in), ln,
                                  (long)(vals[i].p - line.p) + 1, "bad value \"%.*s\" for %.*s",
                                  (int)(vals[i].n > 40 ? 40 : vals[i].n), vals[i].p,
                                  (int)names[i].n, names[i].p);
                goto done;
            }
        }
        seen++;
    }
    if (rc == 0 && seen == 0)
        rc = pr_error_set(err, PR_EFORMAT, pr_input_name(in), 0, 0,
                          "not a Vegeta text report (no \"Requests [total, ...]\" line)");
    if (rc == 0)
        outcomes(summary);
done:
    free(buf);
    return rc;
}

/* ---- JSON report ---- */

static int sniff_json(const unsigned char *buf, size_t len)
{
    pr_str s = pr_str_trim((pr_str){(const char *)buf, len});
    if (pr_str_starts(s, "{\"latencies\":{") && memmem(buf, len, "\"bytes_in\"", 10))
        return 90;
    if (pr_str_starts(s, "{") && memmem(buf, len, "\"latencies\":{", 13) &&
        memmem(buf, len, "\"status_codes\"", 14) && memmem(buf, len, "\"throughput\"", 12))
        return 70;
    return 0;
}

static int64_t int_of(json_t *o, const char *k, int *ok)
{
    json_t *v = json_object_get(o, k);
    if (!json_is_integer(v)) {
        *ok = 0;
        return 0;
    }
    return json_integer_value(v);
}

static int parse_json(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    pr_run *run = sink->run;
    pr_run_set_format(run, "vegeta-report-json", "vegeta");
    size_t len;
    char *buf = slurp(in, &len, err);
    if (!buf)
        return err->code;
    json_error_t je;
    json_t *doc = json_loadb(buf, len, JSON_DISABLE_EOF_CHECK, &je);
    free(buf);
    if (!doc || !json_is_object(doc) || !json_is_object(json_object_get(doc, "latencies"))) {
        int rc =
            pr_error_set(err, PR_EFORMAT, pr_input_name(in), doc ? 1 : je.line, doc ? 1 : je.column,
                         "not a Vegeta JSON report: %s", doc ? "no \"latencies\" object" : je.text);
        json_decref(doc);
        return rc;
    }
    json_t *s = summary_of(run);
    json_t *tool = sub(s, "tool");
    int ok = 1;
    json_t *lat = json_object_get(doc, "latencies");
    json_t *l = json_object();
    static const char *const lk[][2] = {{"min", "min"},  {"mean", "mean"}, {"50th", "p50"},
                                        {"90th", "p90"}, {"95th", "p95"},  {"99th", "p99"},
                                        {"max", "max"}};
    for (size_t i = 0; i < 7; i++) {
        json_t *v = json_object_get(lat, lk[i][0]);
        if (json_is_integer(v))
            json_object_set(l, lk[i][1], v);
    }
    json_object_set_new(s, "latency_ns", l);
    if (json_is_integer(json_object_get(lat, "total")))
        json_object_set(tool, "latency_total_ns", json_object_get(lat, "total"));
    json_object_set_new(s, "requests", json_integer(int_of(doc, "requests", &ok)));
    json_object_set_new(s, "duration_ns", json_integer(int_of(doc, "duration", &ok)));
    json_object_set_new(s, "wait_ns", json_integer(int_of(doc, "wait", &ok)));
    static const char *const nums[][2] = {
        {"rate", "rate_per_s"}, {"throughput", "throughput_per_s"}, {"success", "success_ratio"}};
    for (size_t i = 0; i < 3; i++) {
        json_t *v = json_object_get(doc, nums[i][0]);
        if (json_is_number(v))
            json_object_set_new(s, nums[i][1], json_real(json_number_value(v)));
        else
            ok = 0;
    }
    static const char *const bytes[][3] = {{"bytes_in", "bytes_in_total", "bytes_in_mean"},
                                           {"bytes_out", "bytes_out_total", "bytes_out_mean"}};
    for (size_t i = 0; i < 2; i++) {
        json_t *b = json_object_get(doc, bytes[i][0]);
        json_object_set_new(s, bytes[i][1], json_integer(int_of(b, "total", &ok)));
        json_t *m = json_object_get(b, "mean");
        if (json_is_number(m))
            json_object_set_new(tool, bytes[i][2], json_real(json_number_value(m)));
    }
    json_t *codes = json_object_get(doc, "status_codes");
    if (json_is_object(codes))
        json_object_set(s, "status_codes", codes);
    json_t *errs = json_array();
    json_t *e;
    size_t i;
    json_array_foreach (json_object_get(doc, "errors"), i, e) {
        if (!json_is_string(e))
            continue;
        json_t *x = json_object();
        json_object_set(x, "message", e);
        json_array_append_new(errs, x);
    }
    json_object_set_new(s, "errors", errs);
    static const char *const times[] = {"earliest", "latest", "end"};
    for (size_t t = 0; t < 3; t++) {
        json_t *v = json_object_get(doc, times[t]);
        int64_t ns;
        int off;
        if (!json_is_string(v))
            continue;
        json_object_set(tool, times[t], v);
        const char *ts = json_string_value(v);
        size_t tn = json_string_length(v);
        if (pr_time_is_go_zero(ts, tn)) /* an empty attack: no time, unknown */
            continue;
        int rc = pr_lex_rfc3339(ts, tn, &ns, &off);
        if (rc == PR_TIME_RANGE)
            pr_sink_warn(sink, pr_input_name(in), 0, 0,
                         "%s %.40s is outside the years "
                         "1678..2261: kept as unknown",
                         times[t], ts);
        if (rc < 0)
            continue;
        if (t == 0) {
            run->start_ns = ns;
            pr_run_meta_set(run, "tz_offset_min", json_integer(off));
        } else if (t == 2) {
            run->end_ns = ns;
        }
    }
    run->load_model = PR_LOAD_OPEN;
    outcomes(s);
    json_decref(doc);
    if (!ok)
        return pr_error_set(err, PR_EFORMAT, pr_input_name(in), 1, 1,
                            "Vegeta JSON report lacks requests, duration, wait, rate, "
                            "throughput, success or bytes totals");
    return 0;
}

/* ---- hist report ---- */

static int sniff_hist(const unsigned char *buf, size_t len)
{
    pr_str s = {(const char *)buf, len};
    const char *nl = memchr(buf, '\n', len);
    if (pr_str_starts(s, "Bucket") && nl && memmem(buf, (size_t)(nl - s.p), "Histogram", 9))
        return 90;
    return 0;
}

static int parse_hist(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    pr_run_set_format(sink->run, "vegeta-hist", "vegeta");
    size_t len;
    char *buf = slurp(in, &len, err);
    if (!buf)
        return err->code;
    json_t *summary = summary_of(sink->run);
    json_t *hist = json_array();
    json_object_set_new(sub(summary, "tool"), "histogram", hist);
    int rc = 0;
    long ln = 0;
    for (const char *p = buf; p < buf + len;) {
        const char *e = memchr(p, '\n', (size_t)(buf + len - p));
        pr_str line = {p, e ? (size_t)(e - p) : (size_t)(buf + len - p)};
        p = e ? e + 1 : buf + len;
        if (++ln == 1 || pr_str_trim(line).n == 0)
            continue;
        /* [lo,  hi]  count  pct%  bars */
        const char *rb = line.n && line.p[0] == '[' ? memchr(line.p, ']', line.n) : NULL;
        pr_str f[2];
        int64_t lo, hi = -1, count;
        if (!rb || items((pr_str){line.p + 1, (size_t)(rb - line.p - 1)}, f, 2) != 2 ||
            pr_lex_duration(f[0].p, f[0].n, 0, &lo) < 0 ||
            (!pr_str_eq(f[1], "+Inf") && pr_lex_duration(f[1].p, f[1].n, 0, &hi) < 0)) {
            rc = pr_error_set(err, PR_EPARSE, pr_input_name(in), ln, 1,
                              "expected a bucket \"[lo, hi]\" in a Vegeta histogram");
            break;
        }
        pr_str rest = pr_str_trim((pr_str){rb + 1, (size_t)(line.p + line.n - rb - 1)});
        const char *sp = memchr(rest.p, ' ', rest.n);
        pr_str cnt = {rest.p, sp ? (size_t)(sp - rest.p) : rest.n};
        pr_str pct = pr_str_trim((pr_str){cnt.p + cnt.n, rest.n - cnt.n});
        const char *sp2 = memchr(pct.p, ' ', pct.n);
        if (sp2)
            pct.n = (size_t)(sp2 - pct.p);
        double ratio;
        if (pr_lex_i64(cnt.p, cnt.n, &count) < 0 || pct.n < 2 || pct.p[pct.n - 1] != '%' ||
            pr_lex_double(pct.p, pct.n - 1, &ratio) < 0) {
            rc = pr_error_set(err, PR_EPARSE, pr_input_name(in), ln, (long)(rest.p - line.p) + 1,
                              "expected \"count percent%%\" after the bucket");
            break;
        }
        json_t *b = json_object();
        json_object_set_new(b, "lo_ns", json_integer(lo));
        json_object_set_new(b, "hi_ns", hi < 0 ? json_null() : json_integer(hi));
        json_object_set_new(b, "count", json_integer(count));
        json_object_set_new(b, "percent", json_real(ratio));
        json_array_append_new(hist, b);
    }
    if (rc == 0 && json_array_size(hist) == 0)
        rc = pr_error_set(err, PR_EFORMAT, pr_input_name(in), 0, 0,
                          "not a Vegeta histogram (no buckets)");
    free(buf);
    return rc;
}

const pr_parser pr_parser_vegeta_text = {
    "vegeta-text", "vegeta", "Vegeta's text report (vegeta report)", sniff_text, parse_text,
};
const pr_parser pr_parser_vegeta_report_json = {
    "vegeta-report-json", "vegeta",   "Vegeta's JSON report (vegeta report -type=json)",
    sniff_json,           parse_json,
};
const pr_parser pr_parser_vegeta_hist = {
    "vegeta-hist", "vegeta",   "Vegeta's histogram report (vegeta report -type=hist[...])",
    sniff_hist,    parse_hist,
};
