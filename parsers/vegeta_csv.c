/* Vegeta results as CSV (`vegeta encode --to csv`): 12 columns, no header, RFC 4180 quoting. */
#include "parsers/parser.h"
#include "parsers/sniff.h"
#include "parsers/vegeta.h"
#include "model/lex.h"
#include "model/xalloc.h"
#include <stdlib.h>
#include <string.h>

#define NCOLS 12

enum {
    C_TS,
    C_CODE,
    C_LATENCY,
    C_BYTES_OUT,
    C_BYTES_IN,
    C_ERROR,
    C_BODY,
    C_ATTACK,
    C_SEQ,
    C_METHOD,
    C_URL,
    C_HEADERS
};

/* Splits a CSV line into at most NCOLS fields (see pr_lex_split_csv). */
static int split(const char *line, size_t len, pr_str *f, char *out, size_t *bad_at)
{
    return pr_lex_split_csv(line, len, ',', f, NCOLS, out, bad_at);
}

static int all_digits(pr_str s)
{
    if (s.n == 0)
        return 0;
    for (size_t i = 0; i < s.n; i++)
        if (s.p[i] < '0' || s.p[i] > '9')
            if (!(i == 0 && s.p[i] == '-' && s.n > 1))
                return 0;
    return 1;
}

static int sniff(const unsigned char *buf, size_t len)
{
    pr_str line;
    int whole = pr_sniff_line(buf, len, &line);
    const char *p = line.p;
    size_t n = line.n;
    if (n == 0)
        return 0;
    /* The first five fields are plain integers: unix-ns timestamp, code, latency, bytes. */
    size_t i = 0;
    for (int k = 0; k < 5; k++) {
        const char *c = memchr(p + i, ',', n - i);
        if (!c)
            return 0;
        pr_str f = {p + i, (size_t)(c - (p + i))};
        if (!all_digits(f) || (k == 0 && f.n < 10))
            return 0;
        i = (size_t)(c - p) + 1;
    }
    if (!whole)
        return 60; /* a first line longer than the sniffed bytes (a big body) */
    pr_str f[NCOLS];
    char *out = pr_xmalloc(n + 1);
    size_t bad;
    int k = split(p, n, f, out, &bad);
    free(out);
    if (k < 7 || k > NCOLS)
        return 0;
    return k == NCOLS ? 85 : 50;
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    static const char *const names[] = {"timestamp", "code", "latency", "bytes_out", "bytes_in"};
    pr_run_set_format(sink->run, "vegeta-csv", "vegeta");
    pr_vegeta_acc acc;
    pr_vegeta_acc_init(&acc, sink, pr_input_name(in));
    char *out = NULL;
    size_t out_cap = 0;
    pr_vegeta_rec r;
    const char *line;
    size_t len;
    int rc;
    while ((rc = pr_input_getline(in, &line, &len, err)) == 1) {
        long ln = pr_input_lineno(in);
        int cut = !pr_input_line_terminated(in);
        if (len && line[len - 1] == '\r')
            len--;
        if (len == 0)
            continue;
        pr_str f[NCOLS];
        size_t bad = 0;
        out = pr_xgrow(out, &out_cap, len + 1, 1);
        int k = split(line, len, f, out, &bad);
        if (k < 0) {
            rc = pr_error_set(err, cut ? PR_ETRUNC : PR_EPARSE, pr_input_name(in), ln,
                              (long)bad + 1, "unterminated or malformed quoted field");
            break;
        }
        if (k < 7 || k > NCOLS) {
            rc = pr_error_set(err, cut ? PR_ETRUNC : PR_EPARSE, pr_input_name(in), ln, 0,
                              "expected 12 fields (7 in old Vegeta versions), found %s%d",
                              k > NCOLS ? "more than " : "", k > NCOLS ? NCOLS : k);
            break;
        }
        pr_vegeta_rec_clear(&r);
        int64_t v[5];
        for (int i = 0; i < 5; i++) {
            if (pr_lex_i64(f[i].p, f[i].n, &v[i]) < 0) {
                long col = (long)(f[i].p - line) + 1;
                if (f[i].p < line || f[i].p > line + len)
                    col = 0;
                rc = pr_error_set(err, cut ? PR_ETRUNC : PR_EPARSE, pr_input_name(in), ln, col,
                                  "expected an integer %s, found \"%.*s\"", names[i],
                                  (int)(f[i].n > 40 ? 40 : f[i].n), f[i].p);
                goto out;
            }
        }
        if (v[C_TS] == PR_VEGETA_CSV_ZERO_NS) { /* Go's zero time, wrapped by UnixNano */
            r.go_zero = 1;
        } else if (pr_time_from_epoch(v[C_TS], 1, &r.ts_ns) < 0) {
            rc = pr_error_set(err, PR_EPARSE, pr_input_name(in), ln, 1,
                              "timestamp %lld ns is outside the years 1678..2261",
                              (long long)v[C_TS]);
            goto out;
        } else {
            r.has_ts = 1;
        }
        r.code = v[C_CODE];
        r.latency_ns = v[C_LATENCY];
        r.bytes_out = v[C_BYTES_OUT];
        r.bytes_in = v[C_BYTES_IN];
        r.error = f[C_ERROR];
        if (k > C_ATTACK)
            r.attack = f[C_ATTACK];
        if (k > C_METHOD)
            r.method = f[C_METHOD];
        if (k > C_URL)
            r.url = f[C_URL];
        if (cut && k < NCOLS) {
            rc = pr_error_set(err, PR_ETRUNC, pr_input_name(in), ln, 0,
                              "last line is cut short (%d of 12 fields)", k);
            break;
        }
        if ((rc = pr_vegeta_acc_add(&acc, &r, err)) < 0)
            break;
    }
out:
    if (rc == 0 || rc == PR_ETRUNC)
        pr_vegeta_acc_finish(&acc);
    free(out);
    return rc < 0 ? rc : 0;
}

const pr_parser pr_parser_vegeta_csv = {
    "vegeta-csv", "vegeta", "Vegeta results as CSV (vegeta encode --to csv)", sniff, parse,
};
