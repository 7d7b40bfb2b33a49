/* Reader of wrk's printed report (with or without --latency) as a summary-only run. */
#include "parsers/parser.h"
#include "parsers/textsum.h"
#include <stdio.h>
#include <string.h>

static int sniff(const unsigned char *buf, size_t len)
{
    if (len >= 8 && memcmp(buf, "Running ", 8) == 0 && memmem(buf, len, " test @ ", 8)) {
        if (memmem(buf, len, " threads and ", 13) || memmem(buf, len, "Thread Stats", 12))
            return 95;
        return 60;
    }
    if (memmem(buf, len, "Thread Stats   Avg", 18) && memmem(buf, len, "Req/Sec", 7))
        return 70;
    return 0;
}

/* wrk's metric suffixes for Req/Sec ("23.38k"): k M G T, ÷1000. */
static int metric(pr_str s, double *out)
{
    pr_str rest;
    double v;
    if (pr_textsum_num(s, &v, &rest) < 0)
        return -1;
    static const char units[] = "kMGT";
    double m = 1;
    if (rest.n == 1) {
        const char *u = memchr(units, rest.p[0], 4);
        if (!u)
            return -1;
        for (const char *q = units; q <= u; q++)
            m *= 1000;
    } else if (rest.n != 0) {
        return -1;
    }
    *out = v * m;
    return 0;
}

/* wrk's byte units ("81.29MB", "512.00B"): binary K M G T. */
static int bytes(pr_str s, double *out)
{
    pr_str rest;
    double v;
    if (pr_textsum_num(s, &v, &rest) < 0)
        return -1;
    double m = 1;
    if (pr_str_eq(rest, "B"))
        m = 1;
    else if (pr_str_eq(rest, "KB"))
        m = 1024.0;
    else if (pr_str_eq(rest, "MB"))
        m = 1024.0 * 1024;
    else if (pr_str_eq(rest, "GB"))
        m = 1024.0 * 1024 * 1024;
    else if (pr_str_eq(rest, "TB"))
        m = 1024.0 * 1024 * 1024 * 1024;
    else
        return -1;
    *out = v * m;
    return 0;
}

static int pct(pr_str s, double *out)
{
    pr_str rest;
    return pr_textsum_num(s, out, &rest) == 0 && pr_str_eq(rest, "%") ? 0 : -1;
}

static int dur(pr_str s, int64_t *ns)
{
    return pr_lex_duration(s.p, s.n, 0, ns);
}

/* "Latency     4.18ms   15.41ms 175.56ms   95.29%" */
static void stats_row(json_t *sum, json_t *tool, pr_str t, int latency)
{
    pr_str r = t;
    pr_str label = pr_textsum_token(&r);
    pr_str f[4];
    for (int i = 0; i < 4; i++)
        f[i] = pr_textsum_token(&r);
    json_t *o = pr_textsum_obj(tool, latency ? "Latency" : "Req/Sec");
    (void)label;
    static const char *const names[3] = {"avg", "stdev", "max"};
    json_t *lat = latency ? pr_textsum_obj(sum, "latency_ns") : NULL;
    static const char *const canon[3] = {"mean", "stdev", "max"};
    for (int i = 0; i < 3; i++) {
        if (latency) {
            int64_t ns;
            if (dur(f[i], &ns) == 0) {
                pr_textsum_str(o, names[i], f[i].p, f[i].n);
                pr_textsum_int(lat, canon[i], ns);
            }
        } else {
            double v;
            if (metric(f[i], &v) == 0)
                pr_textsum_real(o, names[i], v);
        }
    }
    double p;
    if (pct(f[3], &p) == 0)
        pr_textsum_real(o, "+/- Stdev (%)", p);
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    pr_run *run = sink->run;
    const char *name = pr_input_name(in);
    pr_run_set_format(run, "wrk-text", "wrk");
    run->load_model = PR_LOAD_CLOSED;
    json_t *sum = pr_textsum_begin(run);
    json_t *tool = pr_textsum_obj(sum, "tool");
    int saw_run = 0, saw_rps = 0, in_dist = 0, saw_stats = 0;
    const char *line;
    size_t len;
    int rc;
    while ((rc = pr_input_getline(in, &line, &len, err)) > 0) {
        pr_str l = pr_textsum_line(line, len), t = pr_str_trim(l);
        pr_str rest, label, value;
        double d;
        int64_t n;
        if (t.n == 0)
            continue;
        if (pr_str_starts(t, "Running ")) {
            /* "Running 5s test @ http://…" */
            const char *at = memmem(t.p, t.n, " test @ ", 8);
            if (at && at >= t.p + 8) {
                pr_str d1 = {t.p + 8, (size_t)(at - t.p) - 8};
                pr_textsum_str(tool, "Running", d1.p, d1.n);
                pr_textsum_str(tool, "url", at + 8, t.n - (size_t)(at + 8 - t.p));
                saw_run = 1;
            }
            continue;
        }
        if (memmem(t.p, t.n, " threads and ", 13)) {
            /* "2 threads and 50 connections" */
            int64_t th, co;
            if (pr_textsum_i64(t, &th, &rest) == 0 && pr_str_starts(rest, "threads and ")) {
                pr_str r2 = {rest.p + 12, rest.n - 12};
                if (pr_textsum_i64(r2, &co, &rest) == 0 && pr_str_eq(rest, "connections")) {
                    pr_textsum_int(tool, "threads", th);
                    pr_textsum_int(tool, "connections", co);
                    pr_textsum_int(sum, "concurrency", co);
                    if (co > 0 && co <= INT32_MAX)
                        run->concurrency = (int32_t)co;
                }
            }
            continue;
        }
        if (pr_str_starts(t, "Thread Stats")) {
            saw_stats = 1;
            continue;
        }
        if (pr_str_starts(t, "Latency Distribution")) {
            in_dist = 1;
            continue;
        }
        if (pr_str_starts(t, "Latency ") && !in_dist) {
            stats_row(sum, tool, t, 1);
            continue;
        }
        if (pr_str_starts(t, "Req/Sec ")) {
            stats_row(sum, tool, t, 0);
            continue;
        }
        if (in_dist && pr_textsum_num(t, &d, &rest) == 0 && rest.n > 1 && rest.p[0] == '%') {
            /* "50%    0.90ms" */
            pr_str v = {rest.p + 1, rest.n - 1};
            v = pr_str_trim(v);
            if (dur(v, &n) == 0 && d > 0 && d < 100) {
                char k[16];
                snprintf(k, sizeof k, "p%g", d);
                pr_textsum_int(pr_textsum_obj(sum, "latency_ns"), k, n);
                snprintf(k, sizeof k, "%g", d);
                pr_textsum_str(pr_textsum_obj(tool, "Latency Distribution"), k, v.p, v.n);
            }
            continue;
        }
        in_dist = 0;
        if (pr_textsum_i64(t, &n, &rest) == 0 && pr_str_starts(rest, "requests in ")) {
            /* "229123 requests in 5.04s, 81.29MB read" */
            pr_textsum_int(sum, "requests", n);
            pr_str r2 = {rest.p + 12, rest.n - 12};
            pr_str parts[3];
            if (pr_lex_split(r2.p, r2.n, ',', parts, 2) == 2) {
                pr_str dd = pr_str_trim(parts[0]), rb = pr_str_trim(parts[1]);
                int64_t ns;
                if (dur(dd, &ns) == 0) {
                    pr_textsum_int(sum, "duration_ns", ns);
                    pr_textsum_str(tool, "duration", dd.p, dd.n);
                }
                if (rb.n > 5 && memcmp(rb.p + rb.n - 5, " read", 5) == 0) {
                    pr_str b = {rb.p, rb.n - 5};
                    if (bytes(b, &d) == 0) {
                        pr_textsum_int(sum, "bytes_in_total", pr_textsum_round(d));
                        pr_textsum_str(tool, "read", b.p, b.n);
                    }
                }
            }
            continue;
        }
        if (pr_textsum_kv(t, &label, &value) < 0)
            continue;
        if (pr_str_eq(label, "Socket errors")) {
            /* "connect 0, read 0, write 0, timeout 7" */
            json_t *se = pr_textsum_obj(tool, "Socket errors");
            pr_str parts[5];
            size_t np = pr_lex_split(value.p, value.n, ',', parts, 4);
            for (size_t i = 0; i < np && i < 4; i++) {
                pr_str r2 = pr_str_trim(parts[i]);
                pr_str k = pr_textsum_token(&r2);
                if (k.n == 0 || k.n > 16 || pr_textsum_i64(r2, &n, &rest) < 0 || rest.n)
                    continue;
                char key[24];
                snprintf(key, sizeof key, "%.*s", (int)k.n, k.p);
                pr_textsum_int(se, key, n);
                if (n > 0) {
                    char msg[48];
                    snprintf(msg, sizeof msg, "socket error: %s", key);
                    json_t *e = json_object();
                    json_object_set_new(e, "message", json_string(msg));
                    json_object_set_new(e, "count", json_integer((json_int_t)n));
                    pr_textsum_append(pr_textsum_arr(sum, "errors"), e);
                }
            }
        } else if (pr_str_eq(label, "Non-2xx or 3xx responses")) {
            if (pr_textsum_i64(value, &n, &rest) == 0)
                pr_textsum_int(tool, "Non-2xx or 3xx responses", n);
        } else if (pr_str_eq(label, "Requests/sec")) {
            if (pr_textsum_num(value, &d, &rest) == 0) {
                pr_textsum_real(sum, "rate_per_s", d);
                pr_textsum_real(tool, "Requests/sec", d);
                saw_rps = 1;
            }
        } else if (pr_str_eq(label, "Transfer/sec")) {
            if (bytes(value, &d) == 0) {
                pr_textsum_real(sum, "bytes_in_per_s", d);
                pr_textsum_str(tool, "Transfer/sec", value.p, value.n);
            }
        }
    }
    if (rc < 0)
        return rc;
    if (!saw_run && !saw_stats)
        return pr_error_set(err, PR_EFORMAT, name, 1, 1,
                            "not wrk output: expected 'Running Ns test @ URL'");
    /* wrk prints 'Non-2xx or 3xx responses' (status > 399) and 'Socket errors' only when not
     * zero. Socket errors are failed attempts outside the request count (a read error loses
     * the request in flight): with any, the failed requests cannot be counted. */
    if (saw_rps && json_object_get(sum, "requests") && !json_object_get(tool, "Socket errors")) {
        json_t *bad = json_object_get(tool, "Non-2xx or 3xx responses");
        pr_textsum_int(sum, "failures", json_is_integer(bad) ? json_integer_value(bad) : 0);
    }
    pr_textsum_note(run, "wrk corrects its latency statistics for coordinated omission itself: "
                         "Avg, Stdev, +/- Stdev and the percentiles include synthetic samples "
                         "wrk adds for long responses (Max and the request count do not)");
    pr_textsum_note(run, "wrk: Req/Sec is the per-thread distribution of 100 ms request rates; "
                         "'Non-2xx or 3xx responses' counts only status > 399 (failures = that "
                         "count, 0 when wrk prints none, unknown with socket errors); a response "
                         "slower than --timeout is counted as a timeout and not in the "
                         "latencies; bytes are wrk's rounded binary units");
    if (!saw_rps)
        return pr_error_set(err, PR_ETRUNC, name, pr_input_lineno(in), 0,
                            "input ends before 'Requests/sec:'");
    return 0;
}

const pr_parser pr_parser_wrk_text = {"wrk-text", "wrk", "wrk printed report (summary)", sniff,
                                      parse};
