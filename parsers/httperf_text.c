/* Reader of httperf's printed statistics as a summary-only run. */
#include "parsers/parser.h"
#include "parsers/textsum.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

static int sniff(const unsigned char *buf, size_t len)
{
    int cmd = len >= 9 && memcmp(buf, "httperf ", 8) == 0;
    int total = memmem(buf, len, "Total: connections ", 19) != NULL;
    int burst = memmem(buf, len, "Maximum connect burst length:", 29) != NULL;
    if ((cmd || burst) && total)
        return 95;
    if (total && memmem(buf, len, "Connection rate:", 16))
        return 80;
    return cmd ? 40 : 0;
}

/* o[k] = the number in text (an integer when it has no '.'). */
static void put_num(json_t *o, const char *k, pr_str text, double d)
{
    int64_t i;
    if (pr_lex_i64(text.p, text.n, &i) == 0)
        pr_textsum_int(o, k, i);
    else
        pr_textsum_real(o, k, d);
}

/* Stores "word NUMBER" and "key=NUMBER" pairs of a value into o; a leading number is
 * stored as "value" (its unit as "unit"). Stops at a '(' token. */
static void pairs(json_t *o, pr_str v)
{
    pr_str r = v, prev = {NULL, 0};
    int first = 1;
    for (;;) {
        pr_str tok = pr_textsum_token(&r);
        if (!tok.n || tok.p[0] == '(')
            break;
        double d;
        pr_str rest;
        const char *eq = memchr(tok.p, '=', tok.n);
        if (eq && eq > tok.p && (size_t)(eq - tok.p) < 32) {
            pr_str num = {eq + 1, tok.n - (size_t)(eq - tok.p) - 1};
            if (pr_lex_double(num.p, num.n, &d) == 0) {
                char k[40];
                snprintf(k, sizeof k, "%.*s", (int)(eq - tok.p), tok.p);
                put_num(o, k, num, d);
            }
        } else if (pr_textsum_num(tok, &d, &rest) == 0 && rest.n == 0) {
            if (first) {
                put_num(o, "value", tok, d);
                pr_str u = r;
                u = pr_textsum_token(&u);
                if (u.n && u.p[0] != '(' && u.n < 32)
                    pr_textsum_str(o, "unit", u.p, u.n);
            } else if (prev.n && prev.n < 32 && isalpha((unsigned char)prev.p[0])) {
                char k[40];
                snprintf(k, sizeof k, "%.*s", (int)prev.n, prev.p);
                put_num(o, k, tok, d);
            }
        }
        prev = tok;
        first = 0;
    }
}

static double get(json_t *o, const char *k, int *ok)
{
    json_t *v = json_object_get(o, k);
    *ok = json_is_number(v);
    return *ok ? json_number_value(v) : 0;
}

/* The value of option `opt` ("--rate=") in httperf's echoed command line; 0 if absent. */
static double option_value(pr_str cmd, const char *opt)
{
    size_t n = strlen(opt);
    const char *r = memmem(cmd.p, cmd.n, opt, n);
    double d;
    pr_str rest;
    if (!r)
        return 0;
    pr_str rv = {r + n, cmd.n - (size_t)(r + n - cmd.p)};
    return pr_textsum_num(rv, &d, &rest) == 0 && d > 0 ? d : 0;
}

/* httperf's --rate counts connections per second, each making --num-calls requests (1 by
 * default): the offered request rate is their product (500 conn/s × 5 = 2500 req/s). */
static void offered_rate(pr_run *run, pr_str cmd)
{
    double conns = option_value(cmd, "--rate="), calls = option_value(cmd, "--num-calls=");
    if (!(conns > 0))
        return;
    if (!(calls >= 1))
        calls = 1;
    run->offered_rate = conns * calls;
    run->load_model = PR_LOAD_OPEN;
    pr_run_meta_set(run, "offered_connection_rate_per_s", json_real(conns));
    pr_run_meta_set(run, "requests_per_connection", json_real(calls));
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    pr_run *run = sink->run;
    const char *name = pr_input_name(in);
    pr_run_set_format(run, "httperf-text", "httperf");
    pr_run_meta_resolution(run, "latency_resolution_ns", 100000); /* ms, 1 decimal */
    json_t *sum = pr_textsum_begin(run);
    json_t *tool = pr_textsum_obj(sum, "tool");
    int saw_total = 0, saw_errors = 0;
    const char *line;
    size_t len;
    int rc;
    while ((rc = pr_input_getline(in, &line, &len, err)) > 0) {
        pr_str t = pr_str_trim(pr_textsum_line(line, len)), label, value;
        if (pr_str_starts(t, "httperf ")) {
            pr_textsum_str(tool, "command", t.p, t.n);
            offered_rate(run, t);
            continue;
        }
        if (pr_textsum_kv(t, &label, &value) < 0 || label.n == 0 || label.n > 64)
            continue;
        if (pr_str_starts(label, "httperf"))
            continue; /* "httperf: warning: …" (stderr merged) */
        char k[72];
        snprintf(k, sizeof k, "%.*s", (int)label.n, label.p);
        pairs(pr_textsum_obj(tool, k), value);
        if (pr_str_eq(label, "Total"))
            saw_total = 1;
        if (pr_str_eq(label, "Errors"))
            saw_errors = 1;
    }
    if (rc < 0)
        return rc;
    if (!saw_total)
        return pr_error_set(err, PR_EFORMAT, name, 1, 1,
                            "not httperf output: expected 'Total: connections N requests N …'");
    int ok, ok2;
    json_t *o = json_object_get(tool, "Total");
    double v = get(o, "requests", &ok);
    if (ok)
        pr_textsum_int(sum, "requests", pr_textsum_round(v));
    v = get(o, "test-duration", &ok);
    if (ok)
        pr_textsum_int(sum, "duration_ns", pr_textsum_ns(v, 1e9));
    v = get(json_object_get(tool, "Request rate"), "value", &ok);
    if (ok)
        pr_textsum_real(sum, "rate_per_s", v);
    v = get(json_object_get(tool, "Connection time [ms]"), "connect", &ok);
    if (ok)
        pr_textsum_int(pr_textsum_obj(sum, "connect_ns"), "mean", pr_textsum_ns(v, 1e6));
    o = json_object_get(tool, "Reply time [ms]");
    v = get(o, "response", &ok);
    double tr = get(o, "transfer", &ok2);
    if (ok)
        pr_textsum_int(pr_textsum_obj(sum, "ttfb_ns"), "mean", pr_textsum_ns(v, 1e6));
    if (ok && ok2)
        pr_textsum_int(pr_textsum_obj(sum, "latency_ns"), "mean", pr_textsum_ns(v + tr, 1e6));
    /* failed requests: those without a reply, and replies outside 2xx/3xx ("Errors" counts
     * connection events: one can stop several calls of a connection, or come before any) */
    double req = get(json_object_get(tool, "Total"), "requests", &ok);
    double rep = get(json_object_get(tool, "Total"), "replies", &ok2);
    o = json_object_get(tool, "Reply status");
    if (ok && ok2 && rep <= req && json_object_size(o)) {
        double bad = req - rep;
        static const char *const classes[] = {"1xx", "4xx", "5xx"};
        for (size_t i = 0; i < 3; i++) {
            int okc;
            double c = get(o, classes[i], &okc);
            if (okc)
                bad += c;
        }
        pr_textsum_int(sum, "failures", pr_textsum_round(bad));
    }
    o = json_object_get(tool, "Errors");
    const char *key;
    json_t *x;
    json_object_foreach (o, key, x) {
        if (strcmp(key, "total") == 0 || !json_is_number(x) || json_number_value(x) <= 0)
            continue;
        json_t *e = json_object();
        char msg[64];
        snprintf(msg, sizeof msg, "httperf error: %s", key);
        json_object_set_new(e, "message", json_string(msg));
        json_object_set_new(e, "count", json_integer(pr_textsum_round(json_number_value(x))));
        pr_textsum_append(pr_textsum_arr(sum, "errors"), e);
    }
    pr_textsum_note(run, "httperf: latency_ns.mean = Reply time response + transfer (averages "
                         "printed to 0.1 ms); ttfb_ns.mean = response; reply status classes "
                         "(1xx..5xx) are under tool 'Reply status'; failures = requests "
                         "without a reply + 1xx, 4xx and 5xx replies");
    if (!saw_errors)
        return pr_error_set(err, PR_ETRUNC, name, pr_input_lineno(in), 0,
                            "input ends before the 'Errors:' lines");
    return 0;
}

const pr_parser pr_parser_httperf_text = {"httperf-text", "httperf",
                                          "httperf printed statistics (summary)", sniff, parse};
