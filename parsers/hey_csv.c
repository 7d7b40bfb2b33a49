/* Reader of hey's `-o csv` output: one sample per successful request (hey omits failures). */
#include "parsers/parser.h"
#include "parsers/sniff.h"
#include "parsers/textsum.h"
#include <string.h>

#define HEY_CSV_HEADER                                                                             \
    "response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset"

enum { C_RESP, C_DIAL, C_DNS, C_WRITE, C_DELAY, C_READ, C_STATUS, C_OFFSET, NCOL };
static const char *const col_names[NCOL] = {"response-time", "DNS+dialup",     "DNS",
                                            "Request-write", "Response-delay", "Response-read",
                                            "status-code",   "offset"};

static int sniff(const unsigned char *buf, size_t len)
{
    return pr_sniff_header(buf, len, HEY_CSV_HEADER, 31);
}

/* "0.0029" (seconds, hey's %4.4f) → ns exactly. -1 if not a non-negative decimal. */
static int secs_ns(pr_str f, int64_t *out)
{
    if (f.n == 0 || ((f.p[0] < '0' || f.p[0] > '9') && f.p[0] != '.') || memchr(f.p, 'e', f.n) ||
        memchr(f.p, 'E', f.n))
        return -1;
    return pr_lex_decimal_ns(f.p, f.n, 9, out);
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    pr_run *run = sink->run;
    const char *name = pr_input_name(in);
    const char *line;
    size_t len;
    int rc = pr_input_getline(in, &line, &len, err);
    if (rc < 0)
        return rc;
    pr_str f[NCOL + 1];
    int map[NCOL]; /* column index of each field */
    for (int c = 0; c < NCOL; c++)
        map[c] = -1;
    size_t nf = 0;
    if (rc > 0) {
        pr_str l = pr_textsum_line(line, len);
        nf = pr_lex_split(l.p, l.n, ',', f, NCOL);
        for (size_t i = 0; i < nf && i < NCOL; i++)
            for (int c = 0; c < NCOL; c++)
                if (pr_str_eq(pr_str_trim(f[i]), col_names[c]))
                    map[c] = (int)i;
    }
    for (int c = 0; c < NCOL; c++)
        if (map[c] < 0)
            return pr_error_set(err, PR_EFORMAT, name, 1, 1,
                                "expected hey's CSV header (" HEY_CSV_HEADER "), column '%s' "
                                "missing",
                                col_names[c]);
    pr_run_set_format(run, "hey-csv", "hey");
    run->load_model = PR_LOAD_CLOSED;
    pr_sample s;
    for (;;) {
        rc = pr_input_getline(in, &line, &len, err);
        if (rc < 0)
            goto out;
        if (rc == 0)
            break;
        long lineno = pr_input_lineno(in);
        pr_str l = pr_textsum_line(line, len);
        if (l.n == 0)
            continue;
        if (!pr_input_line_terminated(in)) {
            rc = pr_error_set(err, PR_ETRUNC, name, lineno, (long)l.n + 1,
                              "input ends inside a row (no newline after the last row)");
            goto out;
        }
        nf = pr_lex_split(l.p, l.n, ',', f, NCOL);
        if (nf != NCOL) {
            rc = pr_error_set(err, PR_EPARSE, name, lineno, 1,
                              "expected %d comma-separated fields, found %s%zu", NCOL,
                              nf > NCOL ? "more than " : "", nf > NCOL ? (size_t)NCOL : nf);
            goto out;
        }
        int64_t v[NCOL];
        for (int c = 0; c < NCOL; c++) {
            pr_str x = f[map[c]];
            int bad = c == C_STATUS ? pr_lex_i64(x.p, x.n, &v[c]) < 0 || v[c] < 0 || v[c] > 999
                                    : secs_ns(x, &v[c]) < 0;
            if (bad) {
                rc = pr_error_set(err, PR_EPARSE, name, lineno, (long)(x.p - l.p) + 1,
                                  "field '%s': expected %s", col_names[c],
                                  c == C_STATUS ? "an HTTP status code" : "seconds");
                goto out;
            }
        }
        pr_sample_init(&s);
        s.latency_ns = v[C_RESP];
        s.connect_ns = v[C_DIAL];
        s.ttfb_ns = v[C_RESP] >= v[C_READ] ? v[C_RESP] - v[C_READ] : 0;
        s.status = (uint16_t)v[C_STATUS];
        s.start_ns = v[C_OFFSET];
        rc = pr_sink_emit(sink, &s, err);
        if (rc < 0)
            goto out;
    }
    rc = 0;
out:
    pr_run_meta_set(run, "time_resolution_ns", json_integer(100000));
    pr_run_meta_resolution(run, "latency_resolution_ns", 100000); /* seconds, 4 decimals */
    /* failed requests have no row: hey's printed counts and times win */
    json_t *lossy = json_array();
    json_array_append_new(lossy, json_string("requests"));
    json_array_append_new(lossy, json_string("timing"));
    pr_run_meta_set(run, "lossy", lossy);
    pr_run_meta_set(run, "start_is_relative", json_true());
    pr_run_meta_set(run, "time_origin", json_string("hey process start"));
    pr_textsum_note(run, "hey -o csv lists successful requests only: transport errors and "
                         "client timeouts are not in the file (hey's text summary counts them "
                         "under 'Error distribution'); HTTP 4xx/5xx are rows");
    pr_textsum_note(run, "hey -o csv: start times are offsets from the hey process start, "
                         "not wall-clock times; rows are in completion order; times have "
                         "0.1 ms resolution");
    pr_textsum_note(run, "ttfb = response-time - Response-read (hey's first-byte mark); "
                         "connect = DNS+dialup, 0 when hey reused a connection");
    return rc;
}

const pr_parser pr_parser_hey_csv = {"hey-csv", "hey", "hey -o csv (per-request, successes only)",
                                     sniff, parse};
