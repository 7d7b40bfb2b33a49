/* In-place JSON scanning of one-object-per-line input (see jscan.h). */
#include "model/jscan.h"
#include "model/xalloc.h"
#include <stdlib.h>
#include <string.h>

void pr_jscan_init(pr_jscan *s, const char *text, size_t n, char *out, size_t out_cap,
                   size_t str_max)
{
    s->p = s->start = text;
    s->end = text + n;
    s->out = out;
    s->out_len = 0;
    s->out_cap = out_cap;
    s->str_max = str_max;
}

void pr_jscan_ws(pr_jscan *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\r' || *s->p == '\n'))
        s->p++;
}

long pr_jscan_col(const pr_jscan *s)
{
    return (long)(s->p - s->start) + 1;
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

/* UTF-8 bytes of code point u into buf; returns the count. */
static size_t utf8(unsigned u, char *buf)
{
    if (u < 0x80) {
        buf[0] = (char)u;
        return 1;
    }
    if (u < 0x800) {
        buf[0] = (char)(0xC0 | u >> 6);
        buf[1] = (char)(0x80 | (u & 0x3F));
        return 2;
    }
    if (u < 0x10000) {
        buf[0] = (char)(0xE0 | u >> 12);
        buf[1] = (char)(0x80 | (u >> 6 & 0x3F));
        buf[2] = (char)(0x80 | (u & 0x3F));
        return 3;
    }
    buf[0] = (char)(0xF0 | u >> 18);
    buf[1] = (char)(0x80 | (u >> 12 & 0x3F));
    buf[2] = (char)(0x80 | (u >> 6 & 0x3F));
    buf[3] = (char)(0x80 | (u & 0x3F));
    return 4;
}

/* One escape sequence at *pp (after the backslash's position); bytes into buf. */
static int escape(const char **pp, const char *end, char *buf, size_t *k)
{
    const char *p = *pp;
    if (p + 1 >= end)
        return -1;
    char e = p[1];
    p += 2;
    *k = 1;
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
        if (hex4(p, end, &u) < 0)
            return -1;
        p += 4;
        if (u >= 0xD800 && u < 0xDC00 && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
            unsigned lo;
            if (hex4(p + 2, end, &lo) == 0 && lo >= 0xDC00 && lo < 0xE000) {
                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                p += 6;
            }
        }
        if (u >= 0xD800 && u < 0xE000)
            u = 0xFFFD;
        *k = utf8(u, buf);
        break;
    }
    default: return -1;
    }
    *pp = p;
    return 0;
}

int pr_jscan_string(pr_jscan *s, pr_str *str, int keep)
{
    if (s->p >= s->end || *s->p != '"')
        return -1;
    const char *p = ++s->p;
    const char *q = memchr(p, '"', (size_t)(s->end - p));
    if (!q)
        return -1;
    if (!memchr(p, '\\', (size_t)(q - p))) { /* fast path: no escapes */
        if (str)
            *str = (pr_str){p, (size_t)(q - p)};
        s->p = q + 1;
        return 0;
    }
    char *o = s->out + s->out_len;
    size_t room = s->out_cap - s->out_len, n = 0;
    if (room > s->str_max)
        room = s->str_max;
    while (p < s->end && *p != '"') {
        char buf[4];
        size_t k = 1;
        if (*p == '\\') {
            if (escape(&p, s->end, buf, &k) < 0)
                return -1;
        } else {
            buf[0] = *p++;
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
        *str = keep ? (pr_str){o, n} : (pr_str){"", 0};
    if (keep)
        s->out_len += n;
    return 0;
}

static int skip_value(pr_jscan *s, int depth);

static int skip_container(pr_jscan *s, char close, int depth)
{
    s->p++;
    pr_jscan_ws(s);
    if (s->p < s->end && *s->p == close) {
        s->p++;
        return 0;
    }
    for (;;) {
        pr_jscan_ws(s);
        if (close == '}') {
            if (pr_jscan_string(s, NULL, 0) < 0)
                return -1;
            pr_jscan_ws(s);
            if (s->p >= s->end || *s->p != ':')
                return -1;
            s->p++;
            pr_jscan_ws(s);
        }
        if (skip_value(s, depth + 1) < 0)
            return -1;
        pr_jscan_ws(s);
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

static int skip_value(pr_jscan *s, int depth)
{
    if (depth > PR_JSCAN_DEPTH || s->p >= s->end)
        return -1;
    char c = *s->p;
    if (c == '"')
        return pr_jscan_string(s, NULL, 0);
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

int pr_jscan_skip(pr_jscan *s)
{
    return skip_value(s, 0);
}

int pr_jscan_number(pr_jscan *s, pr_str *text)
{
    const char *q = s->p;
    while (q < s->end && (*q == '-' || *q == '+' || *q == '.' || *q == 'e' || *q == 'E' ||
                          (*q >= '0' && *q <= '9')))
        q++;
    if (q == s->p)
        return -1;
    *text = (pr_str){s->p, (size_t)(q - s->p)};
    s->p = q;
    return 0;
}

int pr_jscan_i64(pr_jscan *s, int64_t *out)
{
    const char *q = s->p;
    while (q < s->end && (*q == '-' || (*q >= '0' && *q <= '9')))
        q++;
    if (pr_lex_i64(s->p, (size_t)(q - s->p), out) < 0)
        return -1;
    s->p = q;
    return 0;
}

int pr_jscan_double(pr_jscan *s, double *out)
{
    const char *at = s->p;
    pr_str t;
    if (pr_jscan_number(s, &t) < 0 || pr_lex_double(t.p, t.n, out) < 0) {
        s->p = at;
        return -1;
    }
    return 0;
}

int pr_jscan_null(pr_jscan *s)
{
    if (s->end - s->p >= 4 && memcmp(s->p, "null", 4) == 0) {
        s->p += 4;
        return 1;
    }
    return 0;
}

int pr_jscan_object(pr_jscan *s, int *first, const char **what)
{
    pr_jscan_ws(s);
    if (s->p >= s->end || *s->p != '{') {
        *what = "expected a JSON object";
        return -1;
    }
    s->p++;
    *first = 1;
    return 0;
}

int pr_jscan_member(pr_jscan *s, int *first, pr_str *key, const char **what)
{
    pr_jscan_ws(s);
    if (s->p < s->end && *s->p == '}') {
        s->p++;
        return 0;
    }
    if (!*first) {
        if (s->p >= s->end || *s->p != ',') {
            *what = "expected ',' or '}'";
            return -1;
        }
        s->p++;
        pr_jscan_ws(s);
    }
    *first = 0;
    if (pr_jscan_string(s, key, 0) < 0) {
        *what = "expected a key string";
        return -1;
    }
    pr_jscan_ws(s);
    if (s->p >= s->end || *s->p != ':') {
        *what = "expected ':'";
        return -1;
    }
    s->p++;
    pr_jscan_ws(s);
    return 1;
}

int pr_jscan_end(pr_jscan *s)
{
    pr_jscan_ws(s);
    return s->p == s->end ? 0 : -1;
}

void pr_jsonl_init(pr_jsonl *j, pr_input *in, size_t str_max)
{
    memset(j, 0, sizeof *j);
    j->in = in;
    j->str_max = str_max;
    j->out_cap = 4 * str_max;
    j->out = pr_xmalloc(j->out_cap);
}

void pr_jsonl_dispose(pr_jsonl *j)
{
    free(j->out);
    j->out = NULL;
}

int pr_jsonl_next(pr_jsonl *j, pr_jscan *s, pr_error *err)
{
    int rc;
    while ((rc = pr_input_getline(j->in, &j->line, &j->len, err)) == 1) {
        if (j->len == 0 || (j->len == 1 && j->line[0] == '\r'))
            continue;
        pr_jscan_init(s, j->line, j->len, j->out, j->out_cap, j->str_max);
        return 1;
    }
    return rc;
}

int pr_jsonl_fail(pr_jsonl *j, const pr_jscan *s, const char *what, const char *kind, pr_error *err)
{
    long ln = pr_input_lineno(j->in);
    if (!pr_input_line_terminated(j->in))
        return pr_error_set(err, PR_ETRUNC, pr_input_name(j->in), ln, pr_jscan_col(s),
                            "last line is cut short: %s", what);
    return pr_error_set(err, PR_EPARSE, pr_input_name(j->in), ln, pr_jscan_col(s), "%s in a %s",
                        what, kind);
}
