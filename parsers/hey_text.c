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

/* What the reader gathers. */
typedef struct hey {
    json_t *sum, *tool;
    json_t *lat; /* added to the summary only if hey had results */
    int saw_summary, saw_status, have_avg;
    int64_t responses, errors;
} hey;

/* The section a title line opens (S_NONE for any other line in column 0). */
static int section_of(hey *h, pr_str t)
{
    static const struct {
        const char *title;
        int prefix, sec;
    } titles[] = {{"Summary:", 0, S_SUMMARY},
                  {"Response time histogram:", 0, S_HIST},
                  {"Latency distribution:", 0, S_LAT},
                  {"Details (average, fastest, slowest):", 1, S_DETAILS},
                  {"Status code distribution:", 0, S_STATUS},
                  {"Error distribution:", 0, S_ERRORS}};
    for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++) {
        if (titles[i].prefix ? !pr_str_starts(t, titles[i].title) : !pr_str_eq(t, titles[i].title))
            continue;
        h->saw_summary |= titles[i].sec == S_SUMMARY;
        h->saw_status |= titles[i].sec == S_STATUS;
        return titles[i].sec;
    }
    return S_NONE;
}

/* "  Total:\t0.3410 secs", "  Requests/sec:\t2932.4", "  Total data:\t12 bytes". */
static void summary_line(hey *h, pr_str t)
{
    pr_str label, value, rest;
    double d;
    int64_t n;
    if (pr_textsum_kv(t, &label, &value) < 0)
        return;
    if (pr_str_eq(label, "Requests/sec")) {
        if (pr_textsum_num(value, &d, &rest) == 0) {
            pr_textsum_real(h->sum, "rate_per_s", d);
            pr_textsum_real(h->tool, "Requests/sec", d);
        }
    } else if (pr_str_eq(label, "Total data") || pr_str_eq(label, "Size/request")) {
        if (pr_textsum_i64(value, &n, &rest) == 0) {
            char k[32];
            snprintf(k, sizeof k, "%.*s (bytes)", (int)label.n, label.p);
            pr_textsum_int(h->tool, k, n);
        }
    } else if (secs(value, &d) == 0) {
        char k[48];
        snprintf(k, sizeof k, "%.*s (secs)", (int)(label.n < 32 ? label.n : 32), label.p);
        pr_textsum_real(h->tool, k, d);
        if (pr_str_eq(label, "Total"))
            pr_textsum_int(h->sum, "duration_ns", pr_textsum_ns(d, 1e9));
        else if (pr_str_eq(label, "Slowest"))
            pr_textsum_int(h->lat, "max", pr_textsum_ns(d, 1e9));
        else if (pr_str_eq(label, "Fastest"))
            pr_textsum_int(h->lat, "min", pr_textsum_ns(d, 1e9));
        else if (pr_str_eq(label, "Average")) {
            pr_textsum_int(h->lat, "mean", pr_textsum_ns(d, 1e9));
            h->have_avg = 1;
        }
    }
}

/* "0.030 [10]\t|■": the mark is the bucket's upper bound. */
static void hist_line(hey *h, pr_str t)
{
    pr_str rest, r2;
    double d;
    int64_t n;
    if (pr_textsum_num(t, &d, &rest) < 0 || rest.n < 3 || rest.p[0] != '[')
        return;
    pr_str in2 = {rest.p + 1, rest.n - 1};
    if (pr_textsum_i64(in2, &n, &r2) < 0 || r2.n == 0 || r2.p[0] != ']')
        return;
    json_t *b = json_object();
    pr_textsum_real(b, "upper_s", d);
    json_object_set_new(b, "count", json_integer((json_int_t)n));
    pr_textsum_append(pr_textsum_arr(h->tool, "Response time histogram"), b);
}

/* "10% in 0.0480 secs". */
static void lat_line(hey *h, pr_str t)
{
    pr_str rest;
    double d, s;
    if (pr_textsum_num(t, &d, &rest) < 0 || !pr_str_starts(rest, "% in "))
        return;
    pr_str v = {rest.p + 5, rest.n - 5};
    if (secs(v, &s) < 0 || d <= 0 || d >= 100)
        return;
    char k[16];
    snprintf(k, sizeof k, "p%g", d);
    pr_textsum_int(h->lat, k, pr_textsum_ns(s, 1e9));
    snprintf(k, sizeof k, "%g", d);
    pr_textsum_real(pr_textsum_obj(h->tool, "Latency distribution (secs)"), k, s);
}

/* "DNS+dialup:\t0.0008 secs, 0.0010 secs, 0.2870 secs" (average, fastest, slowest). */
static void details_line(hey *h, pr_str t)
{
    pr_str label, value;
    double d;
    if (pr_textsum_kv(t, &label, &value) < 0 || label.n == 0 || label.n > 32)
        return;
    pr_str parts[4];
    size_t np = pr_lex_split(value.p, value.n, ',', parts, 3);
    if (np != 3)
        return;
    char k[40];
    snprintf(k, sizeof k, "%.*s", (int)label.n, label.p);
    json_t *o = pr_textsum_obj(pr_textsum_obj(h->tool, "Details (secs)"), k);
    static const char *const names[3] = {"average", "fastest", "slowest"};
    for (int i = 0; i < 3; i++)
        if (secs(pr_str_trim(parts[i]), &d) == 0)
            pr_textsum_real(o, names[i], d);
    if (pr_str_eq(label, "DNS+dialup") && secs(pr_str_trim(parts[0]), &d) == 0)
        pr_textsum_int(pr_textsum_obj(h->sum, "connect_ns"), "mean", pr_textsum_ns(d, 1e9));
}

/* "[N]" at the start of t: N into *n, what follows the ']' into *rest. */
static int bracketed(pr_str t, int64_t *n, pr_str *rest)
{
    pr_str in2 = {t.p + 1, t.n ? t.n - 1 : 0};
    if (t.n < 3 || t.p[0] != '[' || pr_textsum_i64(in2, n, rest) < 0 || rest->n == 0 ||
        rest->p[0] != ']' || *n < 0)
        return -1;
    rest->p++;
    rest->n--;
    return 0;
}

/* "[200]\t576 responses". */
static void status_line(hey *h, pr_str t)
{
    pr_str rest;
    int64_t n, c;
    if (bracketed(t, &n, &rest) < 0 || n > 999)
        return;
    if (pr_textsum_i64(rest, &c, &rest) < 0 || c < 0)
        return;
    char k[8];
    snprintf(k, sizeof k, "%d", (int)n);
    pr_textsum_int(pr_textsum_obj(h->sum, "status_codes"), k, c);
    if (h->responses <= INT64_MAX - c)
        h->responses += c;
}

/* "[24]\tGet \"http://…\": context deadline exceeded (…)". */
static void error_line(hey *h, pr_str t)
{
    pr_str msg;
    int64_t n;
    if (bracketed(t, &n, &msg) < 0)
        return;
    msg = pr_str_trim(msg);
    json_t *e = json_object();
    json_object_set_new(e, "message", pr_textsum_string(msg.p, msg.n));
    json_object_set_new(e, "count", json_integer((json_int_t)n));
    pr_textsum_append(pr_textsum_arr(h->sum, "errors"), e);
    if (h->errors <= INT64_MAX - n)
        h->errors += n;
}

/* The totals from what the sections said, and the notes on how hey counts. */
static void finish(hey *h, pr_run *run)
{
    /* hey prints 0 for fastest/slowest when no request succeeded: not latencies */
    if (h->have_avg && h->responses > 0)
        json_object_set_new(h->sum, "latency_ns", h->lat);
    else
        json_decref(h->lat);
    h->lat = NULL;
    if (h->saw_status) {
        if (h->responses <= INT64_MAX - h->errors)
            pr_textsum_int(h->sum, "requests", h->responses + h->errors);
        /* hey has no notion of a failed HTTP status: perfreport's rule (200..399 succeed) */
        int64_t bad = h->errors;
        const char *code;
        json_t *c;
        json_object_foreach (json_object_get(h->sum, "status_codes"), code, c) {
            int v = atoi(code);
            if ((v < 200 || v > 399) && bad <= INT64_MAX - json_integer_value(c))
                bad += json_integer_value(c);
        }
        pr_textsum_int(h->sum, "failures", bad);
    }
    pr_textsum_note(run, "hey: requests = responses in the status code distribution + "
                         "errors in the error distribution; failures = those errors + "
                         "responses with a status outside 200..399 (hey itself counts no "
                         "HTTP status as failed); Requests/sec counts errors too");
    pr_textsum_note(run, "hey: the Details DNS+dialup line prints the overall fastest and "
                         "slowest request, not the connection's (hey template bug); only "
                         "its average is used as connect_ns.mean");
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    static void (*const lines[])(hey *, pr_str) = {
        [S_SUMMARY] = summary_line, [S_HIST] = hist_line,     [S_LAT] = lat_line,
        [S_DETAILS] = details_line, [S_STATUS] = status_line, [S_ERRORS] = error_line};
    pr_run *run = sink->run;
    const char *name = pr_input_name(in);
    pr_run_set_format(run, "hey-text", "hey");
    run->load_model = PR_LOAD_CLOSED;
    pr_run_meta_resolution(run, "latency_resolution_ns", 100000); /* seconds, 4 decimals */
    hey h = {0};
    h.sum = pr_textsum_begin(run);
    h.tool = pr_textsum_obj(h.sum, "tool");
    h.lat = json_object();
    int sec = S_NONE, rc;
    const char *line;
    size_t len;
    while ((rc = pr_input_getline(in, &line, &len, err)) > 0) {
        pr_str l = pr_textsum_line(line, len), t = pr_str_trim(l);
        if (t.n == 0)
            continue;
        if (l.p[0] != ' ' && l.p[0] != '\t')
            sec = section_of(&h, t);
        else if (lines[sec])
            lines[sec](&h, t);
    }
    if (rc < 0 || !h.saw_summary) {
        json_decref(h.lat);
        return rc < 0 ? rc
                      : pr_error_set(err, PR_EFORMAT, name, 1, 1,
                                     "not a hey summary: expected 'Summary:'");
    }
    finish(&h, run);
    if (!h.saw_status)
        return pr_error_set(err, PR_ETRUNC, name, pr_input_lineno(in), 0,
                            "input ends before 'Status code distribution:'");
    return 0;
}

const pr_parser pr_parser_hey_text = {"hey-text", "hey", "hey printed summary (summary)", sniff,
                                      parse};
