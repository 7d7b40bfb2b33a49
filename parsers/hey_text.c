/* Reader of hey's printed summary (histogram, latency distribution, details, status codes,
 * errors) as a summary-only run. */
#include "parsers/parser.h"
#include "parsers/textsum.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sniff(const unsigned char *buf, size_t len)
{
    size_t i = 0;
    while (i < len && (buf[i] == '\n' || buf[i] == '\r' || buf[i] == ' '))
        i++;
    if (len - i < 16 || memcmp(buf + i, "Summary:", 8) != 0)
        return 0;
    const void *t = memmem(buf + i, len - i, "Total:\t", 7);
    const void *r = memmem(buf + i, len - i, "Requests/sec:\t", 14);
    if (t && r)
        return 90;
    return t || r ? 50 : 0;
}

enum { S_NONE, S_SUMMARY, S_HIST, S_LAT, S_DETAILS, S_STATUS, S_ERRORS };

/* "0.0013 secs" → seconds; -1 for " NaN" and anything else. */
static int secs(pr_str v, double *out)
{
    pr_str rest;
    if (pr_textsum_num(v, out, &rest) < 0)
        return -1;
    return pr_str_eq(rest, "secs") || rest.n == 0 ? 0 : -1;
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    pr_run *run = sink->run;
    const char *name = pr_input_name(in);
    pr_run_set_format(run, "hey-text", "hey");
    run->load_model = PR_LOAD_CLOSED;
    pr_run_meta_resolution(run, "latency_resolution_ns", 100000); /* seconds, 4 decimals */
    json_t *sum = pr_textsum_begin(run);
    json_t *tool = pr_textsum_obj(sum, "tool");
    json_t *lat = json_object(); /* added to the summary only if hey had results */
    int sec = S_NONE, saw_summary = 0, saw_status = 0, have_avg = 0;
    int64_t responses = 0, errors = 0;
    const char *line;
    size_t len;
    int rc;
    while ((rc = pr_input_getline(in, &line, &len, err)) > 0) {
        pr_str l = pr_textsum_line(line, len), t = pr_str_trim(l);
        long lineno = pr_input_lineno(in);
        if (t.n == 0)
            continue;
        if (l.p[0] != ' ' && l.p[0] != '\t') {
            if (pr_str_eq(t, "Summary:"))
                sec = S_SUMMARY, saw_summary = 1;
            else if (pr_str_eq(t, "Response time histogram:"))
                sec = S_HIST;
            else if (pr_str_eq(t, "Latency distribution:"))
                sec = S_LAT;
            else if (pr_str_starts(t, "Details (average, fastest, slowest):"))
                sec = S_DETAILS;
            else if (pr_str_eq(t, "Status code distribution:"))
                sec = S_STATUS, saw_status = 1;
            else if (pr_str_eq(t, "Error distribution:"))
                sec = S_ERRORS;
            else
                sec = S_NONE;
            continue;
        }
        pr_str label, value, rest;
        double d;
        int64_t n;
        switch (sec) {
        case S_SUMMARY:
            if (pr_textsum_kv(t, &label, &value) < 0)
                break;
            if (pr_str_eq(label, "Requests/sec")) {
                if (pr_textsum_num(value, &d, &rest) == 0) {
                    pr_textsum_real(sum, "rate_per_s", d);
                    pr_textsum_real(tool, "Requests/sec", d);
                }
            } else if (pr_str_eq(label, "Total data") || pr_str_eq(label, "Size/request")) {
                if (pr_textsum_i64(value, &n, &rest) == 0) {
                    char k[32];
                    snprintf(k, sizeof k, "%.*s (bytes)", (int)label.n, label.p);
                    pr_textsum_int(tool, k, n);
                }
            } else if (secs(value, &d) == 0) {
                char k[48];
                snprintf(k, sizeof k, "%.*s (secs)", (int)(label.n < 32 ? label.n : 32), label.p);
                pr_textsum_real(tool, k, d);
                if (pr_str_eq(label, "Total"))
                    pr_textsum_int(sum, "duration_ns", pr_textsum_ns(d, 1e9));
                else if (pr_str_eq(label, "Slowest"))
                    pr_textsum_int(lat, "max", pr_textsum_ns(d, 1e9));
                else if (pr_str_eq(label, "Fastest"))
                    pr_textsum_int(lat, "min", pr_textsum_ns(d, 1e9));
                else if (pr_str_eq(label, "Average")) {
                    pr_textsum_int(lat, "mean", pr_textsum_ns(d, 1e9));
                    have_avg = 1;
                }
            }
            break;
        case S_HIST: {
            /* "0.030 [10]\t|■" : the mark is the bucket's upper bound */
            pr_str r2;
            if (pr_textsum_num(t, &d, &rest) < 0 || rest.n < 3 || rest.p[0] != '[')
                break;
            pr_str in2 = {rest.p + 1, rest.n - 1};
            if (pr_textsum_i64(in2, &n, &r2) < 0 || r2.n == 0 || r2.p[0] != ']')
                break;
            json_t *b = json_object();
            pr_textsum_real(b, "upper_s", d);
            json_object_set_new(b, "count", json_integer((json_int_t)n));
            pr_textsum_append(pr_textsum_arr(tool, "Response time histogram"), b);
            break;
        }
        case S_LAT: {
            /* "10% in 0.0480 secs" */
            if (pr_textsum_num(t, &d, &rest) < 0 || !pr_str_starts(rest, "% in "))
                break;
            pr_str v = {rest.p + 5, rest.n - 5};
            double s;
            if (secs(v, &s) < 0 || d <= 0 || d >= 100)
                break;
            char k[16];
            snprintf(k, sizeof k, "p%g", d);
            pr_textsum_int(lat, k, pr_textsum_ns(s, 1e9));
            snprintf(k, sizeof k, "%g", d);
            pr_textsum_real(pr_textsum_obj(tool, "Latency distribution (secs)"), k, s);
            break;
        }
        case S_DETAILS: {
            /* "DNS+dialup:\t0.0008 secs, 0.0010 secs, 0.2870 secs" (avg, fastest, slowest) */
            if (pr_textsum_kv(t, &label, &value) < 0 || label.n == 0 || label.n > 32)
                break;
            pr_str parts[4];
            size_t np = pr_lex_split(value.p, value.n, ',', parts, 3);
            if (np != 3)
                break;
            char k[40];
            snprintf(k, sizeof k, "%.*s", (int)label.n, label.p);
            json_t *o = pr_textsum_obj(pr_textsum_obj(tool, "Details (secs)"), k);
            static const char *const names[3] = {"average", "fastest", "slowest"};
            for (int i = 0; i < 3; i++)
                if (secs(pr_str_trim(parts[i]), &d) == 0)
                    pr_textsum_real(o, names[i], d);
            if (pr_str_eq(label, "DNS+dialup") && secs(pr_str_trim(parts[0]), &d) == 0)
                pr_textsum_int(pr_textsum_obj(sum, "connect_ns"), "mean",
                               pr_textsum_ns(d, 1e9));
            break;
        }
        case S_STATUS: {
            /* "[200]\t576 responses" */
            pr_str in2 = {t.p + 1, t.n ? t.n - 1 : 0};
            if (t.n < 3 || t.p[0] != '[' || pr_textsum_i64(in2, &n, &rest) < 0 || rest.n == 0 ||
                rest.p[0] != ']' || n < 0 || n > 999)
                break;
            pr_str cnt = {rest.p + 1, rest.n - 1};
            int64_t c;
            if (pr_textsum_i64(cnt, &c, &rest) < 0 || c < 0)
                break;
            char k[8];
            snprintf(k, sizeof k, "%d", (int)n);
            pr_textsum_int(pr_textsum_obj(sum, "status_codes"), k, c);
            if (responses <= INT64_MAX - c)
                responses += c;
            break;
        }
        case S_ERRORS: {
            /* "[24]\tGet \"http://…\": context deadline exceeded (…)" */
            pr_str in2 = {t.p + 1, t.n ? t.n - 1 : 0};
            if (t.n < 3 || t.p[0] != '[' || pr_textsum_i64(in2, &n, &rest) < 0 || rest.n == 0 ||
                rest.p[0] != ']' || n < 0)
                break;
            pr_str msg = {rest.p + 1, rest.n - 1};
            msg = pr_str_trim(msg);
            json_t *e = json_object();
            json_object_set_new(e, "message", pr_textsum_string(msg.p, msg.n));
            json_object_set_new(e, "count", json_integer((json_int_t)n));
            pr_textsum_append(pr_textsum_arr(sum, "errors"), e);
            if (errors <= INT64_MAX - n)
                errors += n;
            break;
        }
        default:
            (void)lineno;
            break;
        }
    }
    if (rc < 0) {
        json_decref(lat);
        return rc;
    }
    if (!saw_summary) {
        json_decref(lat);
        return pr_error_set(err, PR_EFORMAT, name, 1, 1,
                            "not a hey summary: expected 'Summary:'");
    }
    /* hey prints 0 for fastest/slowest when no request succeeded: not latencies */
    if (have_avg && responses > 0)
        json_object_set_new(sum, "latency_ns", lat);
    else
        json_decref(lat);
    if (saw_status) {
        if (responses <= INT64_MAX - errors)
            pr_textsum_int(sum, "requests", responses + errors);
        /* hey has no notion of a failed HTTP status: perfreport's rule (200..399 succeed) */
        int64_t bad = errors;
        const char *code;
        json_t *c;
        json_object_foreach(json_object_get(sum, "status_codes"), code, c) {
            int v = atoi(code);
            if ((v < 200 || v > 399) && bad <= INT64_MAX - json_integer_value(c))
                bad += json_integer_value(c);
        }
        pr_textsum_int(sum, "failures", bad);
    }
    pr_textsum_note(run, "hey: requests = responses in the status code distribution + "
                         "errors in the error distribution; failures = those errors + "
                         "responses with a status outside 200..399 (hey itself counts no "
                         "HTTP status as failed); Requests/sec counts errors too");
    pr_textsum_note(run, "hey: the Details DNS+dialup line prints the overall fastest and "
                         "slowest request, not the connection's (hey template bug); only "
                         "its average is used as connect_ns.mean");
    if (!saw_status)
        return pr_error_set(err, PR_ETRUNC, name, pr_input_lineno(in), 0,
                            "input ends before 'Status code distribution:'");
    return 0;
}

const pr_parser pr_parser_hey_text = {"hey-text", "hey", "hey printed summary (summary)", sniff,
                                      parse};
