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
    static const char *const units[] = {"B", "KB", "MB", "GB", "TB"};
    pr_str rest;
    double v;
    if (pr_textsum_num(s, &v, &rest) < 0)
        return -1;
    double m = 1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++, m *= 1024.0)
        if (pr_str_eq(rest, units[i])) {
            *out = v * m;
            return 0;
        }
    return -1;
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

/* What the reader gathers. */
typedef struct wrk {
    pr_run *run;
    json_t *sum, *tool;
    int saw_run, saw_rps, in_dist, saw_stats;
} wrk;

/* "Running 5s test @ http://…" */
static void running_line(wrk *w, pr_str t)
{
    const char *at = memmem(t.p, t.n, " test @ ", 8);
    if (!at || at < t.p + 8)
        return;
    pr_str d1 = {t.p + 8, (size_t)(at - t.p) - 8};
    pr_textsum_str(w->tool, "Running", d1.p, d1.n);
    pr_textsum_str(w->tool, "url", at + 8, t.n - (size_t)(at + 8 - t.p));
    w->saw_run = 1;
}

/* "2 threads and 50 connections" */
static void threads_line(wrk *w, pr_str t)
{
    pr_str rest;
    int64_t th, co;
    if (pr_textsum_i64(t, &th, &rest) < 0 || !pr_str_starts(rest, "threads and "))
        return;
    pr_str r2 = {rest.p + 12, rest.n - 12};
    if (pr_textsum_i64(r2, &co, &rest) < 0 || !pr_str_eq(rest, "connections"))
        return;
    pr_textsum_int(w->tool, "threads", th);
    pr_textsum_int(w->tool, "connections", co);
    pr_textsum_int(w->sum, "concurrency", co);
    if (co > 0 && co <= INT32_MAX)
        w->run->concurrency = (int32_t)co;
}

/* "50%    0.90ms" in the Latency Distribution; 0 when t is not such a line. */
static int dist_line(wrk *w, pr_str t)
{
    pr_str rest;
    double d;
    int64_t n;
    if (pr_textsum_num(t, &d, &rest) < 0 || rest.n <= 1 || rest.p[0] != '%')
        return 0;
    pr_str v = {rest.p + 1, rest.n - 1};
    v = pr_str_trim(v);
    if (dur(v, &n) == 0 && d > 0 && d < 100) {
        char k[16];
        snprintf(k, sizeof k, "p%g", d);
        pr_textsum_int(pr_textsum_obj(w->sum, "latency_ns"), k, n);
        snprintf(k, sizeof k, "%g", d);
        pr_textsum_str(pr_textsum_obj(w->tool, "Latency Distribution"), k, v.p, v.n);
    }
    return 1;
}

/* "229123 requests in 5.04s, 81.29MB read"; 0 when t is not that line. */
static int requests_line(wrk *w, pr_str t)
{
    pr_str rest;
    int64_t n;
    double d;
    if (pr_textsum_i64(t, &n, &rest) < 0 || !pr_str_starts(rest, "requests in "))
        return 0;
    pr_textsum_int(w->sum, "requests", n);
    pr_str r2 = {rest.p + 12, rest.n - 12};
    pr_str parts[3];
    if (pr_lex_split(r2.p, r2.n, ',', parts, 2) != 2)
        return 1;
    pr_str dd = pr_str_trim(parts[0]), rb = pr_str_trim(parts[1]);
    int64_t ns;
    if (dur(dd, &ns) == 0) {
        pr_textsum_int(w->sum, "duration_ns", ns);
        pr_textsum_str(w->tool, "duration", dd.p, dd.n);
    }
    if (rb.n > 5 && memcmp(rb.p + rb.n - 5, " read", 5) == 0) {
        pr_str b = {rb.p, rb.n - 5};
        if (bytes(b, &d) == 0) {
            pr_textsum_int(w->sum, "bytes_in_total", pr_textsum_round(d));
            pr_textsum_str(w->tool, "read", b.p, b.n);
        }
    }
    return 1;
}

/* "connect 0, read 0, write 0, timeout 7": the counts, and an error for each that is not 0. */
static void socket_errors(wrk *w, pr_str value)
{
    json_t *se = pr_textsum_obj(w->tool, "Socket errors");
    pr_str parts[5], rest;
    int64_t n;
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
            pr_textsum_append(pr_textsum_arr(w->sum, "errors"), e);
        }
    }
}

/* "Label: value" lines: socket errors, non-2xx responses, Requests/sec, Transfer/sec. */
static void kv_line(wrk *w, pr_str t)
{
    pr_str label, value, rest;
    int64_t n;
    double d;
    if (pr_textsum_kv(t, &label, &value) < 0)
        return;
    if (pr_str_eq(label, "Socket errors")) {
        socket_errors(w, value);
    } else if (pr_str_eq(label, "Non-2xx or 3xx responses")) {
        if (pr_textsum_i64(value, &n, &rest) == 0)
            pr_textsum_int(w->tool, "Non-2xx or 3xx responses", n);
    } else if (pr_str_eq(label, "Requests/sec")) {
        if (pr_textsum_num(value, &d, &rest) == 0) {
            pr_textsum_real(w->sum, "rate_per_s", d);
            pr_textsum_real(w->tool, "Requests/sec", d);
            w->saw_rps = 1;
        }
    } else if (pr_str_eq(label, "Transfer/sec")) {
        if (bytes(value, &d) == 0) {
            pr_textsum_real(w->sum, "bytes_in_per_s", d);
            pr_textsum_str(w->tool, "Transfer/sec", value.p, value.n);
        }
    }
}

/* One line of the report (trimmed, not empty). */
static void report_line(wrk *w, pr_str t)
{
    if (pr_str_starts(t, "Running ")) {
        running_line(w, t);
    } else if (memmem(t.p, t.n, " threads and ", 13)) {
        threads_line(w, t);
    } else if (pr_str_starts(t, "Thread Stats")) {
        w->saw_stats = 1;
    } else if (pr_str_starts(t, "Latency Distribution")) {
        w->in_dist = 1;
    } else if (pr_str_starts(t, "Latency ") && !w->in_dist) {
        stats_row(w->sum, w->tool, t, 1);
    } else if (pr_str_starts(t, "Req/Sec ")) {
        stats_row(w->sum, w->tool, t, 0);
    } else if (!(w->in_dist && dist_line(w, t))) {
        w->in_dist = 0;
        if (!requests_line(w, t))
            kv_line(w, t);
    }
}

/* The failures from what wrk printed, and the notes on how wrk counts. */
static void finish(wrk *w)
{
    /* wrk prints 'Non-2xx or 3xx responses' (status > 399) and 'Socket errors' only when not
     * zero. Socket errors are failed attempts outside the request count (a read error loses
     * the request in flight): with any, the failed requests cannot be counted. */
    if (w->saw_rps && json_object_get(w->sum, "requests") &&
        !json_object_get(w->tool, "Socket errors")) {
        json_t *bad = json_object_get(w->tool, "Non-2xx or 3xx responses");
        pr_textsum_int(w->sum, "failures", json_is_integer(bad) ? json_integer_value(bad) : 0);
    }
    pr_textsum_note(w->run, "wrk corrects its latency statistics for coordinated omission "
                            "itself: Avg, Stdev, +/- Stdev and the percentiles include synthetic "
                            "samples wrk adds for long responses (Max and the request count do "
                            "not)");
    pr_textsum_note(w->run, "wrk: Req/Sec is the per-thread distribution of 100 ms request "
                            "rates; 'Non-2xx or 3xx responses' counts only status > 399 "
                            "(failures = that count, 0 when wrk prints none, unknown with "
                            "socket errors); a response slower than --timeout is counted as a "
                            "timeout and not in the latencies; bytes are wrk's rounded binary "
                            "units");
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    wrk w = {sink->run, NULL, NULL, 0, 0, 0, 0};
    const char *name = pr_input_name(in);
    pr_run_set_format(w.run, "wrk-text", "wrk");
    w.run->load_model = PR_LOAD_CLOSED;
    w.sum = pr_textsum_begin(w.run);
    w.tool = pr_textsum_obj(w.sum, "tool");
    const char *line;
    size_t len;
    int rc;
    while ((rc = pr_input_getline(in, &line, &len, err)) > 0) {
        pr_str t = pr_str_trim(pr_textsum_line(line, len));
        if (t.n)
            report_line(&w, t);
    }
    if (rc < 0)
        return rc;
    if (!w.saw_run && !w.saw_stats)
        return pr_error_set(err, PR_EFORMAT, name, 1, 1,
                            "not wrk output: expected 'Running Ns test @ URL'");
    finish(&w);
    if (!w.saw_rps)
        return pr_error_set(err, PR_ETRUNC, name, pr_input_lineno(in), 0,
                            "input ends before 'Requests/sec:'");
    return 0;
}

const pr_parser pr_parser_wrk_text = {"wrk-text", "wrk", "wrk printed report (summary)", sniff,
                                      parse};
