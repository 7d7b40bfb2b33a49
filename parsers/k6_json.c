/* Reader of k6's `--out json` NDJSON (Metric and Point lines, both key layouts: v0.41+ puts
 * "metric" first, older versions last): HTTP request points joined into samples (k6.h). */
#include "parsers/k6.h"
#include "parsers/parser.h"
#include "parsers/sniff.h"
#include "model/jscan.h"
#include "model/xalloc.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

typedef struct line {
    pr_str type, metric, time, value, tags;
    const char *data; /* the data object's text, when read after the metric name */
    size_t data_n;
    const char *data_at, *time_at, *value_at, *tags_at; /* where each was read in the line */
    char msg[160];                                      /* an error that quotes the text */
} line;

/* The JSON value at `at` as written (a string with its quotes), at most 48 bytes, into buf. */
static const char *as_written(const char *at, const char *end, char *buf, size_t size)
{
    size_t n = 0;
    if (at < end && *at == '"') {
        for (n = 1; at + n < end && at[n] != '"'; n++)
            if (at[n] == '\\' && at + n + 1 < end)
                n++;
        n += at + n < end;
    } else {
        while (at + n < end && !strchr(",}] \t\r\n", at[n]))
            n++;
    }
    snprintf(buf, size, "%.*s%s", (int)(n > 48 ? 48 : n), at, n > 48 ? "…" : "");
    return buf;
}

/* *what = "EXPECTED, found VALUE" for the value at `at`, in l->msg. */
static void expected_found(line *l, const pr_jscan *s, const char *at, const char *expected,
                           const char **what)
{
    char v[64];
    snprintf(l->msg, sizeof l->msg, "%s in a k6 Point, found %s", expected,
             as_written(at, s->end, v, sizeof v));
    *what = l->msg;
}

/* Reader state kept across lines: the tag text of the last point and its hash (points of
 * one request follow each other with the same text), and the tag unescape buffer. */
typedef struct k6j {
    const line *cur;
    char last_tags[2048];
    size_t last_n;
    uint64_t last_hash;
    char tagbuf[4 * PR_K6_STR_MAX];
    char timebuf[256]; /* an escaped time of a data object read again */
} k6j;

/* Reads the data object of a Point: time, value, tags (kept as a span), metadata skipped. */
static int point_data(pr_jscan *s, line *l, const char **what)
{
    int first, rc;
    pr_str k;
    l->data_at = s->p;
    if (pr_jscan_object(s, &first, what) < 0)
        return -1;
    while ((rc = pr_jscan_member(s, &first, &k, what)) == 1) {
        const char *at = s->p;
        if (pr_str_eq(k, "time")) {
            l->time_at = at;
            if (pr_jscan_string(s, &l->time, 1) < 0) {
                s->p = at;
                expected_found(l, s, at, "expected a time string", what);
                return -1;
            }
        } else if (pr_str_eq(k, "value")) {
            l->value_at = at;
            if (pr_jscan_number(s, &l->value) < 0) {
                s->p = at;
                expected_found(l, s, at, "expected a number value", what);
                return -1;
            }
        } else if (pr_str_eq(k, "tags")) {
            l->tags_at = at;
            if (pr_jscan_null(s))
                l->tags = (pr_str){"", 0};
            else if (s->p < s->end && *s->p == '{' && pr_jscan_skip(s) == 0)
                l->tags = (pr_str){at, (size_t)(s->p - at)};
            else {
                s->p = at;
                if (at < s->end && *at != '{') /* another type of value: quoted */
                    expected_found(l, s, at, "expected a tags object or null", what);
                else /* a malformed or cut object */
                    *what = "expected a tags object or null";
                return -1;
            }
        } else if (pr_jscan_skip(s) < 0) {
            *what = "malformed JSON value";
            return -1;
        }
    }
    return rc;
}

static int parse_line(pr_jscan *s, line *l, const char **what)
{
    int first, rc;
    pr_str k;
    memset(l, 0, sizeof *l);
    if (pr_jscan_object(s, &first, what) < 0)
        return -1;
    while ((rc = pr_jscan_member(s, &first, &k, what)) == 1) {
        const char *at = s->p;
        if (pr_str_eq(k, "type") || pr_str_eq(k, "metric")) {
            pr_str v;
            if (pr_jscan_string(s, &v, 1) < 0) {
                *what = "expected a string";
                return -1;
            }
            *(k.p[0] == 't' ? &l->type : &l->metric) = v;
        } else if (pr_str_eq(k, "data")) {
            if (pr_str_eq(l->type, "Point") && point_data(s, l, what) < 0)
                return -1;
            if (!pr_str_eq(l->type, "Point")) { /* type not known yet, or a Metric line */
                if (pr_jscan_skip(s) < 0) {
                    *what = "malformed data object";
                    return -1;
                }
                l->data = at;
                l->data_n = (size_t)(s->p - at);
            }
        } else if (pr_jscan_skip(s) < 0) {
            *what = "malformed JSON value";
            return -1;
        }
    }
    if (rc < 0)
        return -1;
    if (pr_jscan_end(s) < 0) {
        *what = "text after the JSON object";
        return -1;
    }
    return 0;
}

/* Walks the tags object text, handing each string pair to fn. 0, or -1 if malformed (*at,
 * when not NULL, gets where: the value that is not a string or null). */
static int tag_pairs(k6j *st, pr_str tags, void (*fn)(pr_str, pr_str, void *), void *payload,
                     const char **at)
{
    if (tags.n == 0)
        return 0;
    pr_jscan s;
    pr_jscan_init(&s, tags.p, tags.n, st->tagbuf, sizeof st->tagbuf, PR_K6_STR_MAX);
    int first, rc;
    const char *what;
    pr_str k, v;
    if (pr_jscan_object(&s, &first, &what) < 0)
        return -1;
    while ((rc = pr_jscan_member(&s, &first, &k, &what)) == 1) {
        if (pr_jscan_null(&s))
            continue;
        const char *vat = s.p;
        if (pr_jscan_string(&s, &v, 1) < 0) {
            if (at)
                *at = vat;
            return -1;
        }
        fn(k, v, payload);
    }
    if (rc < 0 && at)
        *at = s.p;
    return rc;
}

static void add_tag(pr_str k, pr_str v, void *payload)
{
    pr_k6_tags_add(payload, k, v);
}

static int tags_cb(pr_k6_tags *t, void *payload)
{
    k6j *st = payload;
    return tag_pairs(st, st->cur->tags, add_tag, t, NULL);
}

static void hash_pair(pr_str k, pr_str v, void *payload)
{
    uint64_t *h = payload; /* a sum: the same tags in any order give the same hash */
    *h += XXH3_64bits_withSeed(v.p, v.n, XXH3_64bits(k.p, k.n));
}

/* Identity of a point's request: its tags (in any order) and its time text. 0, or the error
 * of a tag that is not a string (the line starts at `start`). */
static int request_key(k6j *st, const line *l, uint64_t *key, const char *start, long ln,
                       const char *name, pr_error *err)
{
    uint64_t h;
    if (l->tags.n == st->last_n && (!l->tags.n || !memcmp(l->tags.p, st->last_tags, l->tags.n))) {
        h = st->last_hash;
    } else {
        h = 0;
        const char *at = l->tags.p;
        if (tag_pairs(st, l->tags, hash_pair, &h, &at) < 0) {
            char v[64];
            return pr_error_set(err, PR_EPARSE, name, ln, (long)(at - start) + 1,
                                "expected a string or null as a tag value in a k6 Point, found %s",
                                as_written(at, l->tags.p + l->tags.n, v, sizeof v));
        }
        st->last_n = l->tags.n <= sizeof st->last_tags ? l->tags.n : (size_t)-1;
        if (st->last_n != (size_t)-1 && l->tags.n)
            memcpy(st->last_tags, l->tags.p, l->tags.n);
        st->last_hash = h;
    }
    *key = h ^ XXH3_64bits(l->time.p, l->time.n);
    return 0;
}

static int sniff(const unsigned char *buf, size_t len)
{
    pr_str l;
    pr_sniff_line(buf, len, &l);
    if (l.n < 20 || l.p[0] != '{')
        return 0;
    int point = pr_sniff_has(l, "\"type\":\"Point\""),
        metric = pr_sniff_has(l, "\"type\":\"Metric\"");
    if ((point || metric) && pr_sniff_has(l, "\"metric\":\"") && pr_sniff_has(l, "\"data\":{"))
        return 95;
    return 0;
}

static int handle(pr_k6_acc *acc, k6j *st, line *l, const char *start, long ln, const char *name,
                  pr_error *err)
{
    if (pr_str_eq(l->type, "Metric")) {
        json_t *o = json_loadb(l->data, l->data_n, 0, NULL);
        char mname[257];
        snprintf(mname, sizeof mname, "%.*s", (int)(l->metric.n > 256 ? 256 : l->metric.n),
                 l->metric.p);
        if (o)
            pr_k6_acc_declare(acc, mname, o);
        json_decref(o);
        return 0;
    }
    if (!pr_str_eq(l->type, "Point"))
        return 0;  /* other line types: nothing k6 writes today */
    if (l->data) { /* "data" came before "type" */
        const char *what = "malformed data";
        pr_jscan s;
        pr_jscan_init(&s, l->data, l->data_n, st->timebuf, sizeof st->timebuf, sizeof st->timebuf);
        if (point_data(&s, l, &what) < 0)
            return pr_error_set(err, PR_EPARSE, name, ln, (long)(s.p - start) + 1,
                                "%s in a k6 Point", what);
    }
    pr_k6_point p;
    memset(&p, 0, sizeof p);
    p.metric = l->metric;
    p.value = l->value;
    p.value_col = l->value_at ? (long)(l->value_at - start) + 1 : 0;
    p.tags_col = l->tags_at ? (long)(l->tags_at - start) + 1 : 0;
    if (!l->time_at)
        return pr_error_set(err, PR_EPARSE, name, ln, (long)(l->data_at - start) + 1,
                            "expected a \"time\" in the data of a k6 Point");
    int tr = l->time.n ? pr_lex_rfc3339(l->time.p, l->time.n, &p.time_ns, &p.tz_offset_min) : -1;
    if (tr < 0) {
        char v[64];
        return pr_error_set(err, PR_EPARSE, name, ln, (long)(l->time_at - start) + 2,
                            "%s in a k6 Point, found %s",
                            tr == PR_TIME_RANGE ? "a time outside the years 1678..2261"
                                                : "expected an RFC 3339 time",
                            as_written(l->time_at, start + strlen(start), v, sizeof v));
    }
    if (!l->value.n)
        return pr_error_set(err, PR_EPARSE, name, ln, (long)(l->data_at - start) + 1,
                            "expected a \"value\" in the data of a k6 Point");
    p.has_zone = 1;
    if (request_key(st, l, &p.key, start, ln, name, err) < 0)
        return err->code;
    st->cur = l;
    p.tags = tags_cb;
    p.payload = st;
    return pr_k6_acc_point(acc, &p, ln, err);
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    pr_run_set_format(sink->run, "k6-json", "k6");
    const char *name = pr_input_name(in);
    pr_k6_acc *acc = pr_k6_acc_new(sink, name);
    pr_jsonl j;
    pr_jsonl_init(&j, in, PR_K6_STR_MAX);
    pr_jscan s;
    line l;
    k6j *st = pr_xcalloc(1, sizeof *st);
    st->last_n = (size_t)-1;
    int rc, lines = 0;
    while ((rc = pr_jsonl_next(&j, &s, err)) == 1) {
        const char *what = NULL;
        if (parse_line(&s, &l, &what) < 0) {
            if (what == l.msg) /* it quotes the value: the place is the cursor's */
                rc = pr_error_set(
                    err, pr_input_line_terminated(in) ? PR_EPARSE : PR_ETRUNC, name,
                    pr_input_lineno(in), pr_jscan_col(&s), "%s%s",
                    pr_input_line_terminated(in) ? "" : "last line is cut short: ", what);
            else
                rc = pr_jsonl_fail(&j, &s, what, "k6 JSON line", err);
            break;
        }
        if (!l.type.n || !l.metric.n) {
            rc = pr_error_set(err, lines ? PR_EPARSE : PR_EFORMAT, name, pr_input_lineno(in), 1,
                              "expected a k6 line with \"type\", \"metric\" and \"data\"");
            break;
        }
        lines++;
        if ((rc = handle(acc, st, &l, j.line, pr_input_lineno(in), name, err)) < 0) {
            if (!pr_input_line_terminated(in))
                err->code = rc = PR_ETRUNC;
            break;
        }
    }
    rc = pr_k6_acc_end(acc, rc, err);
    pr_jsonl_dispose(&j);
    free(st);
    return rc < 0 ? rc : 0;
}

const pr_parser pr_parser_k6_json = {
    "k6-json", "k6", "k6 --out json results (NDJSON points, joined per request)", sniff, parse};
