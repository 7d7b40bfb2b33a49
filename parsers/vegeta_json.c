/* Vegeta results as JSON lines (`vegeta encode --to json`), read with a small in-place scanner. */
#include "parsers/parser.h"
#include "parsers/sniff.h"
#include "parsers/vegeta.h"
#include "model/jscan.h"
#include "model/lex.h"
#include <stdlib.h>
#include <string.h>

enum key {
    K_OTHER,
    K_ATTACK,
    K_CODE,
    K_TIMESTAMP,
    K_LATENCY,
    K_BYTES_OUT,
    K_BYTES_IN,
    K_ERROR,
    K_METHOD,
    K_URL
};

static enum key key_of(pr_str k)
{
    switch (k.n) {
    case 3: return memcmp(k.p, "url", 3) == 0 ? K_URL : K_OTHER;
    case 4: return memcmp(k.p, "code", 4) == 0 ? K_CODE : K_OTHER;
    case 5: return memcmp(k.p, "error", 5) == 0 ? K_ERROR : K_OTHER;
    case 6:
        if (memcmp(k.p, "attack", 6) == 0)
            return K_ATTACK;
        return memcmp(k.p, "method", 6) == 0 ? K_METHOD : K_OTHER;
    case 7: return memcmp(k.p, "latency", 7) == 0 ? K_LATENCY : K_OTHER;
    case 8: return memcmp(k.p, "bytes_in", 8) == 0 ? K_BYTES_IN : K_OTHER;
    case 9:
        if (memcmp(k.p, "timestamp", 9) == 0)
            return K_TIMESTAMP;
        return memcmp(k.p, "bytes_out", 9) == 0 ? K_BYTES_OUT : K_OTHER;
    }
    return K_OTHER;
}

/* Parses one result object; on error the cursor is where it broke and *what says why. */
static int parse_line(pr_jscan *s, pr_vegeta_rec *r, const char **what)
{
    pr_vegeta_rec_clear(r);
    int first, rc;
    pr_str k;
    if (pr_jscan_object(s, &first, what) < 0)
        return -1;
    while ((rc = pr_jscan_member(s, &first, &k, what)) == 1) {
        enum key key = key_of(k);
        int64_t v;
        pr_str str;
        const char *vstart = s->p;
        switch (key) {
        case K_CODE:
        case K_LATENCY:
        case K_BYTES_IN:
        case K_BYTES_OUT:
            if (pr_jscan_i64(s, &v) < 0) {
                s->p = vstart;
                *what = "expected an integer";
                return -1;
            }
            if (key == K_CODE)
                r->code = v;
            else if (key == K_LATENCY)
                r->latency_ns = v;
            else if (key == K_BYTES_IN)
                r->bytes_in = v;
            else
                r->bytes_out = v;
            break;
        case K_TIMESTAMP:
            if (pr_jscan_string(s, &str, 0) < 0) {
                s->p = vstart;
                *what = "expected an RFC 3339 timestamp string";
                return -1;
            }
            if (pr_time_is_go_zero(str.p, str.n)) { /* Go's "no time": start unknown */
                r->go_zero = 1;
                break;
            }
            rc = pr_lex_rfc3339(str.p, str.n, &r->ts_ns, &r->tz_offset_min);
            if (rc < 0) {
                s->p = vstart;
                *what = rc == PR_TIME_RANGE ? "timestamp outside the years 1678..2261"
                                            : "expected an RFC 3339 timestamp string";
                return -1;
            }
            r->has_ts = 1;
            r->has_zone = 1;
            break;
        case K_ATTACK:
        case K_ERROR:
        case K_METHOD:
        case K_URL:
            if (s->p < s->end && *s->p == 'n') {
                rc = pr_jscan_skip(s); /* null */
                str = (pr_str){"", 0};
            } else {
                rc = pr_jscan_string(s, &str, 1);
            }
            if (rc < 0) {
                s->p = vstart;
                *what = "expected a string";
                return -1;
            }
            if (key == K_ATTACK)
                r->attack = str;
            else if (key == K_ERROR)
                r->error = str;
            else if (key == K_METHOD)
                r->method = str;
            else
                r->url = str;
            break;
        case K_OTHER:
            if (pr_jscan_skip(s) < 0) {
                *what = "malformed JSON value";
                return -1;
            }
            break;
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

static int sniff(const unsigned char *buf, size_t len)
{
    pr_str line;
    int whole = pr_sniff_line(buf, len, &line);
    if (line.n == 0 || line.p[0] != '{')
        return 0;
    int hits = 0;
    static const char *const keys[] = {
        "\"timestamp\":", "\"latency\":", "\"code\":", "\"bytes_in\":"};
    for (size_t i = 0; i < 4; i++)
        hits += pr_sniff_has(line, keys[i]);
    if (hits == 4)
        return 90;
    return hits >= 2 && !whole ? 40 : 0;
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    pr_run_set_format(sink->run, "vegeta-json", "vegeta");
    pr_vegeta_acc acc;
    pr_vegeta_acc_init(&acc, sink, pr_input_name(in));
    pr_vegeta_rec r;
    pr_jsonl j;
    pr_jsonl_init(&j, in, PR_VEGETA_STR_MAX);
    pr_jscan s;
    int rc;
    while ((rc = pr_jsonl_next(&j, &s, err)) == 1) {
        const char *what = NULL;
        if (parse_line(&s, &r, &what) < 0) {
            rc = pr_jsonl_fail(&j, &s, what, "Vegeta JSON result", err);
            break;
        }
        if ((rc = pr_vegeta_acc_add(&acc, &r, err)) < 0)
            break;
    }
    if (rc == 0 || rc == PR_ETRUNC)
        pr_vegeta_acc_finish(&acc);
    pr_jsonl_dispose(&j);
    return rc < 0 ? rc : 0;
}

const pr_parser pr_parser_vegeta_json = {
    "vegeta-json", "vegeta", "Vegeta results as JSON lines (vegeta encode --to json)", sniff, parse,
};
