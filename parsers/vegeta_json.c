/* Vegeta results as JSON lines (`vegeta encode --to json`), read with a small in-place scanner. */
#include "parsers/parser.h"
#include "parsers/vegeta.h"
#include "model/lex.h"
#include "model/xalloc.h"
#include <stdlib.h>
#include <string.h>

typedef struct scan {
    const char *p, *start, *end;
    char *out;     /* unescape buffer */
    size_t out_len, out_cap;
} scan;

static void ws(scan *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\r' || *s->p == '\n'))
        s->p++;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static int hex4(const char *p, const char *end, unsigned *out)
{
    if (end - p < 4)
        return -1;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval((unsigned char)p[i]);
        if (h < 0)
            return -1;
        v = v << 4 | (unsigned)h;
    }
    *out = v;
    return 0;
}

/* Scans a string at s->p (at the opening quote). With `keep`, the unescaped text is appended
 * to s->out (capped at PR_VEGETA_STR_MAX) and returned in *str; otherwise only skipped. */
static int string(scan *s, pr_str *str, int keep)
{
    if (s->p >= s->end || *s->p != '"')
        return -1;
    const char *p = ++s->p;
    /* Fast path: no escapes. */
    for (;;) {
        const char *q = memchr(p, '"', (size_t)(s->end - p));
        if (!q)
            return -1;
        const char *bs = memchr(p, '\\', (size_t)(q - p));
        if (!bs) {
            if (str)
                *str = (pr_str){p, (size_t)(q - p)};
            s->p = q + 1;
            return 0;
        }
        break;
    }
    char *o = s->out + s->out_len;
    size_t room = s->out_cap - s->out_len, n = 0;
    if (room > PR_VEGETA_STR_MAX)
        room = PR_VEGETA_STR_MAX;
    while (p < s->end && *p != '"') {
        unsigned char c = (unsigned char)*p;
        char buf[4];
        size_t k = 1;
        if (c == '\\') {
            if (p + 1 >= s->end)
                return -1;
            char e = p[1];
            p += 2;
            switch (e) {
            case '"': buf[0] = '"'; break;
            case '\\': buf[0] = '\\'; break;
            case '/': buf[0] = '/'; break;
            case 'b': buf[0] = '\b'; break;
            case 'f': buf[0] = '\f'; break;
            case 'n': buf[0] = '\n'; break;
            case 'r': buf[0] = '\r'; break;
            case 't': buf[0] = '\t'; break;
            case 'u': {
                unsigned u;
                if (hex4(p, s->end, &u) < 0)
                    return -1;
                p += 4;
                if (u >= 0xD800 && u < 0xDC00 && s->end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
                    unsigned lo;
                    if (hex4(p + 2, s->end, &lo) == 0 && lo >= 0xDC00 && lo < 0xE000) {
                        u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                        p += 6;
                    }
                }
                if (u >= 0xD800 && u < 0xE000)
                    u = 0xFFFD;
                if (u < 0x80) {
                    buf[0] = (char)u;
                } else if (u < 0x800) {
                    buf[0] = (char)(0xC0 | u >> 6);
                    buf[1] = (char)(0x80 | (u & 0x3F));
                    k = 2;
                } else if (u < 0x10000) {
                    buf[0] = (char)(0xE0 | u >> 12);
                    buf[1] = (char)(0x80 | (u >> 6 & 0x3F));
                    buf[2] = (char)(0x80 | (u & 0x3F));
                    k = 3;
                } else {
                    buf[0] = (char)(0xF0 | u >> 18);
                    buf[1] = (char)(0x80 | (u >> 12 & 0x3F));
                    buf[2] = (char)(0x80 | (u >> 6 & 0x3F));
                    buf[3] = (char)(0x80 | (u & 0x3F));
                    k = 4;
                }
                break;
            }
            default:
                return -1;
            }
        } else {
            buf[0] = (char)c;
            p++;
        }
        if (keep && n + k <= room) {
            memcpy(o + n, buf, k);
            n += k;
        }
    }
    if (p >= s->end)
        return -1;
    s->p = p + 1;
    if (str)
        *str = (pr_str){o, n};
    if (keep)
        s->out_len += n;
    return 0;
}

static int skip_value(scan *s, int depth);

static int skip_container(scan *s, char close, int depth)
{
    s->p++;
    ws(s);
    if (s->p < s->end && *s->p == close) {
        s->p++;
        return 0;
    }
    for (;;) {
        ws(s);
        if (close == '}') {
            if (string(s, NULL, 0) < 0)
                return -1;
            ws(s);
            if (s->p >= s->end || *s->p != ':')
                return -1;
            s->p++;
            ws(s);
        }
        if (skip_value(s, depth + 1) < 0)
            return -1;
        ws(s);
        if (s->p >= s->end)
            return -1;
        if (*s->p == ',') {
            s->p++;
            continue;
        }
        if (*s->p == close) {
            s->p++;
            return 0;
        }
        return -1;
    }
}

static int skip_value(scan *s, int depth)
{
    if (depth > 32 || s->p >= s->end)
        return -1;
    char c = *s->p;
    if (c == '"')
        return string(s, NULL, 0);
    if (c == '{')
        return skip_container(s, '}', depth);
    if (c == '[')
        return skip_container(s, ']', depth);
    const char *q = s->p;
    while (q < s->end && (*q == '-' || *q == '+' || *q == '.' || (*q >= '0' && *q <= '9') ||
                          (*q >= 'a' && *q <= 'z') || *q == 'E'))
        q++;
    if (q == s->p)
        return -1;
    s->p = q;
    return 0;
}

/* A JSON number that must be an integer (Vegeta writes them so). */
static int integer(scan *s, int64_t *out)
{
    const char *q = s->p;
    while (q < s->end && (*q == '-' || (*q >= '0' && *q <= '9')))
        q++;
    if (pr_lex_i64(s->p, (size_t)(q - s->p), out) < 0)
        return -1;
    s->p = q;
    return 0;
}

enum key { K_OTHER, K_ATTACK, K_CODE, K_TIMESTAMP, K_LATENCY, K_BYTES_OUT, K_BYTES_IN, K_ERROR,
           K_METHOD, K_URL };

static enum key key_of(pr_str k)
{
    switch (k.n) {
    case 3:
        return memcmp(k.p, "url", 3) == 0 ? K_URL : K_OTHER;
    case 4:
        return memcmp(k.p, "code", 4) == 0 ? K_CODE : K_OTHER;
    case 5:
        return memcmp(k.p, "error", 5) == 0 ? K_ERROR : K_OTHER;
    case 6:
        if (memcmp(k.p, "attack", 6) == 0)
            return K_ATTACK;
        return memcmp(k.p, "method", 6) == 0 ? K_METHOD : K_OTHER;
    case 7:
        return memcmp(k.p, "latency", 7) == 0 ? K_LATENCY : K_OTHER;
    case 8:
        return memcmp(k.p, "bytes_in", 8) == 0 ? K_BYTES_IN : K_OTHER;
    case 9:
        if (memcmp(k.p, "timestamp", 9) == 0)
            return K_TIMESTAMP;
        return memcmp(k.p, "bytes_out", 9) == 0 ? K_BYTES_OUT : K_OTHER;
    }
    return K_OTHER;
}

/* Parses one result object; on error *col gets the 1-based column and *what a description. */
static int parse_line(scan *s, pr_vegeta_rec *r, const char **what)
{
    pr_vegeta_rec_clear(r);
    s->out_len = 0;
    ws(s);
    if (s->p >= s->end || *s->p != '{') {
        *what = "expected a JSON object";
        return -1;
    }
    s->p++;
    ws(s);
    if (s->p < s->end && *s->p == '}') {
        s->p++;
        goto done;
    }
    for (;;) {
        pr_str k;
        ws(s);
        if (string(s, &k, 0) < 0) {
            *what = "expected a key string";
            return -1;
        }
        ws(s);
        if (s->p >= s->end || *s->p != ':') {
            *what = "expected ':'";
            return -1;
        }
        s->p++;
        ws(s);
        enum key key = key_of(k);
        int rc = 0;
        int64_t v;
        pr_str str;
        const char *vstart = s->p;
        switch (key) {
        case K_CODE:
        case K_LATENCY:
        case K_BYTES_IN:
        case K_BYTES_OUT:
            if ((rc = integer(s, &v)) < 0) {
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
            if (string(s, &str, 0) < 0 ||
                pr_lex_rfc3339(str.p, str.n, &r->ts_ns, &r->tz_offset_min) < 0) {
                s->p = vstart;
                *what = "expected an RFC 3339 timestamp string";
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
                rc = skip_value(s, 0); /* null */
                str = (pr_str){"", 0};
            } else {
                rc = string(s, &str, 1);
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
            if (skip_value(s, 0) < 0) {
                *what = "malformed JSON value";
                return -1;
            }
            break;
        }
        ws(s);
        if (s->p < s->end && *s->p == ',') {
            s->p++;
            continue;
        }
        if (s->p < s->end && *s->p == '}') {
            s->p++;
            break;
        }
        *what = "expected ',' or '}'";
        return -1;
    }
done:
    ws(s);
    if (s->p != s->end) {
        *what = "text after the JSON object";
        return -1;
    }
    return 0;
}

static int sniff(const unsigned char *buf, size_t len)
{
    const char *p = (const char *)buf;
    size_t n = len;
    const char *nl = memchr(p, '\n', n);
    if (nl)
        n = (size_t)(nl - p);
    if (n == 0 || p[0] != '{')
        return 0;
    pr_str line = {p, n};
    int hits = 0;
    static const char *const keys[] = {"\"timestamp\":", "\"latency\":", "\"code\":",
                                       "\"bytes_in\":"};
    for (size_t i = 0; i < 4; i++)
        hits += memmem(line.p, line.n, keys[i], strlen(keys[i])) != NULL;
    if (hits == 4)
        return 90;
    return hits >= 2 && !nl ? 40 : 0;
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    pr_run_set_format(sink->run, "vegeta-json", "vegeta");
    pr_vegeta_acc acc;
    pr_vegeta_acc_init(&acc, sink);
    pr_vegeta_rec r;
    size_t out_cap = 4 * PR_VEGETA_STR_MAX;
    char *out = pr_xmalloc(out_cap);
    const char *line;
    size_t len;
    int rc;
    while ((rc = pr_input_getline(in, &line, &len, err)) == 1) {
        scan s = {line, line, line + len, out, 0, out_cap};
        const char *what = NULL;
        if (len == 0 || (len == 1 && line[0] == '\r'))
            continue;
        if (parse_line(&s, &r, &what) < 0) {
            long ln = pr_input_lineno(in);
            if (!pr_input_line_terminated(in)) {
                rc = pr_error_set(err, PR_ETRUNC, pr_input_name(in), ln, (long)(s.p - line) + 1,
                                  "last line is cut short: %s", what);
                break;
            }
            rc = pr_error_set(err, PR_EPARSE, pr_input_name(in), ln, (long)(s.p - line) + 1,
                              "%s in a Vegeta JSON result", what);
            break;
        }
        if ((rc = pr_vegeta_acc_add(&acc, &r, err)) < 0)
            break;
    }
    if (rc == 0 || rc == PR_ETRUNC)
        pr_vegeta_acc_finish(&acc);
    free(out);
    return rc < 0 ? rc : 0;
}

const pr_parser pr_parser_vegeta_json = {
    "vegeta-json", "vegeta", "Vegeta results as JSON lines (vegeta encode --to json)",
    sniff, parse,
};
