/* Reader of k6's `--out csv` (header metric_name,timestamp,metric_value, the enabled system
 * tags sorted, extra_tags[, metadata]: 18 columns up to v0.42, 19 since v0.43), every
 * timeFormat (unix, unix_milli, unix_micro, unix_nano, rfc3339, rfc3339_nano). Rows are
 * joined per request like the NDJSON points (k6.h). */
#include "parsers/k6.h"
#include "parsers/parser.h"
#include "parsers/sniff.h"
#include "model/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define K6_CSV_HEAD "metric_name,timestamp,metric_value,"
#define K6_CSV_MAXCOL 64

typedef struct k6c {
    pr_str names[K6_CSV_MAXCOL]; /* header names (into hdr) */
    char *hdr;
    size_t ncol;
    int extra_col, meta_col;
    pr_str f[K6_CSV_MAXCOL + 1];
    int64_t res_ns; /* resolution of the first timestamp */
} k6c;

static int sniff(const unsigned char *buf, size_t len)
{
    pr_str l;
    pr_sniff_line(buf, len, &l);
    if (!pr_str_starts(l, K6_CSV_HEAD))
        return len < sizeof K6_CSV_HEAD - 1 && len > 20 && memcmp(buf, K6_CSV_HEAD, len) == 0 ? 40
                                                                                              : 0;
    return pr_sniff_has(l, "extra_tags") ? 95 : 70;
}

/* Timestamp in any of k6's timeFormats. */
static int stamp(const k6c *c, pr_str s, int64_t *ns, int *off, int *zone, int64_t *res)
{
    if (s.n > 10 && s.p[4] == '-') {
        *zone = 1;
        *res = memchr(s.p, '.', s.n) ? 1 : 1000000000;
        return pr_lex_rfc3339(s.p, s.n, ns, off);
    }
    int64_t v;
    if (pr_lex_i64(s.p, s.n, &v) < 0 || v < 0)
        return -1;
    *zone = 0;
    /* seconds until 5138 AD have at most 11 digits; ms 13-14, µs 16-17, ns 19 */
    static const int64_t mult[] = {1000000000LL, 1000000LL, 1000LL, 1};
    int k = s.n <= 11 ? 0 : s.n <= 14 ? 1 : s.n <= 17 ? 2 : 3;
    int rc = pr_time_from_epoch(v, mult[k], ns); /* the one checked conversion: 1678..2261 */
    if (rc < 0)
        return rc;
    *res = mult[k];
    (void)c;
    return 0;
}

static int tags_cb(pr_k6_tags *t, void *payload)
{
    k6c *c = payload;
    for (size_t i = 3; i < c->ncol; i++) {
        if ((int)i == c->meta_col)
            continue;
        if ((int)i != c->extra_col) {
            pr_k6_tags_add(t, c->names[i], c->f[i]);
            continue;
        }
        pr_str e = c->f[i]; /* "k=v&k2=v2", unescaped */
        while (e.n) {
            const char *amp = memchr(e.p, '&', e.n);
            pr_str kv = {e.p, amp ? (size_t)(amp - e.p) : e.n};
            const char *eq = memchr(kv.p, '=', kv.n);
            if (eq)
                pr_k6_tags_add(t, (pr_str){kv.p, (size_t)(eq - kv.p)},
                               (pr_str){eq + 1, kv.n - (size_t)(eq - kv.p) - 1});
            e.p += kv.n + (amp ? 1 : 0);
            e.n -= kv.n + (amp ? 1 : 0);
        }
    }
    return 0;
}

/* The 1-based column where field idx of the line starts (quotes respected). */
static long field_col(const char *line, size_t len, size_t idx)
{
    size_t f = 0;
    int quoted = 0;
    for (size_t i = 0; i < len && f < idx; i++) {
        if (line[i] == '"')
            quoted = !quoted;
        else if (line[i] == ',' && !quoted && ++f == idx)
            return (long)i + 2;
    }
    return f == idx ? 1 : (long)len + 1;
}

static int header(k6c *c, const char *line, size_t len, const char *name, pr_error *err)
{
    c->hdr = pr_xstrndup(line, len);
    size_t k = pr_lex_split(c->hdr, len, ',', c->names, K6_CSV_MAXCOL);
    if (k > K6_CSV_MAXCOL || k < 3 || !pr_str_eq(c->names[0], "metric_name") ||
        !pr_str_eq(c->names[1], "timestamp") || !pr_str_eq(c->names[2], "metric_value"))
        return pr_error_set(err, PR_EFORMAT, name, 1, 1,
                            "expected k6's CSV header \"metric_name,timestamp,metric_value,...\"");
    c->ncol = k;
    c->extra_col = c->meta_col = -1;
    for (size_t i = 3; i < k; i++) {
        if (pr_str_eq(c->names[i], "extra_tags"))
            c->extra_col = (int)i;
        if (pr_str_eq(c->names[i], "metadata"))
            c->meta_col = (int)i;
    }
    return 0;
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    pr_run_set_format(sink->run, "k6-csv", "k6");
    const char *name = pr_input_name(in);
    k6c *c = pr_xcalloc(1, sizeof *c);
    pr_k6_acc *acc = pr_k6_acc_new(sink, name);
    char *out = NULL;
    size_t out_cap = 0;
    const char *line;
    size_t len;
    int rc = pr_input_getline(in, &line, &len, err);
    if (rc == 0)
        rc = pr_error_set(err, PR_EFORMAT, name, 1, 1, "empty input: expected k6's CSV header");
    if (rc > 0) {
        if (len && line[len - 1] == '\r')
            len--;
        rc = header(c, line, len, name, err);
    }
    while (rc >= 0 && (rc = pr_input_getline(in, &line, &len, err)) == 1) {
        long ln = pr_input_lineno(in);
        int cut = !pr_input_line_terminated(in);
        if (len && line[len - 1] == '\r')
            len--;
        if (len == 0)
            continue;
        out = pr_xgrow(out, &out_cap, len + 1, 1);
        size_t bad = 0;
        int k = pr_lex_split_csv(line, len, ',', c->f, c->ncol, out, &bad);
        if (k != (int)c->ncol) {
            rc = k < 0 ? pr_error_set(err, cut ? PR_ETRUNC : PR_EPARSE, name, ln, (long)bad + 1,
                                      "unterminated or malformed quoted field")
                       : pr_error_set(err, cut ? PR_ETRUNC : PR_EPARSE, name, ln, (long)len + 1,
                                      "expected %zu fields as in the header, found %s%d", c->ncol,
                                      k > (int)c->ncol ? "more than " : "",
                                      k > (int)c->ncol ? (int)c->ncol : k);
            break;
        }
        pr_k6_point p;
        memset(&p, 0, sizeof p);
        p.metric = c->f[0];
        p.value = c->f[2];
        p.value_col = field_col(line, len, 2);
        p.tags_col = field_col(line, len, 3);
        int64_t res;
        int sr = stamp(c, c->f[1], &p.time_ns, &p.tz_offset_min, &p.has_zone, &res);
        if (sr < 0) {
            rc =
                pr_error_set(err, cut ? PR_ETRUNC : PR_EPARSE, name, ln, field_col(line, len, 1),
                             "%s, found \"%.*s\"",
                             sr == PR_TIME_RANGE ? "a k6 timestamp outside the years 1678..2261"
                                                 : "expected a k6 timestamp (unix seconds/ms/µs/ns "
                                                   "or RFC 3339)",
                             (int)(c->f[1].n > 40 ? 40 : c->f[1].n), c->f[1].p);
            break;
        }
        if (!c->res_ns) {
            c->res_ns = res;
            pr_run_meta_set(sink->run, "time_resolution_ns", json_integer(res));
        }
        /* the request's identity: its timestamp and every tag column */
        p.key = XXH3_64bits(c->f[1].p, c->f[1].n);
        for (size_t i = 3; i < c->ncol; i++)
            p.key = p.key * 1099511628211ULL ^ XXH3_64bits(c->f[i].p, c->f[i].n);
        p.tags = tags_cb;
        p.payload = c;
        if ((rc = pr_k6_acc_point(acc, &p, ln, err)) < 0) {
            if (cut)
                err->code = rc = PR_ETRUNC;
            break;
        }
    }
    rc = pr_k6_acc_end(acc, rc, err);
    free(out);
    free(c->hdr);
    free(c);
    return rc < 0 ? rc : 0;
}

const pr_parser pr_parser_k6_csv = {"k6-csv", "k6", "k6 --out csv results (joined per request)",
                                    sniff, parse};
