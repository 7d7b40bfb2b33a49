/* HTTP/1.1 client pieces: URL parsing, request serialisation, streaming response parser. */
#include "gen/http.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "model/version.h"
#include "model/xalloc.h"

#define PR_HTTP_USER_AGENT "perfreport/" PR_VERSION /* one version: model/version.h */

int pr_http_url_parse(pr_http_url *out, const char *url, pr_error *err)
{
    memset(out, 0, sizeof *out);
    const char *p;
    if (!strncasecmp(url, "http://", 7)) {
        p = url + 7;
        out->port = 80;
    } else if (!strncasecmp(url, "https://", 8)) {
        p = url + 8;
        out->tls = 1;
        out->port = 443;
    } else {
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            "%s: expected a URL starting with http:// or https://", url);
    }
    const char *end = p + strcspn(p, "/?#");
    if (memchr(p, '@', (size_t)(end - p)))
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0, "%s: user info in URLs is not supported",
                            url);
    const char *hs = p, *he, *portp = NULL;
    if (*p == '[') {
        const char *rb = memchr(p, ']', (size_t)(end - p));
        if (!rb)
            return pr_error_set(err, PR_EUSAGE, NULL, 0, 0, "%s: expected ']' after IPv6 address",
                                url);
        hs = p + 1;
        he = rb;
        if (rb + 1 < end) {
            if (rb[1] != ':')
                return pr_error_set(err, PR_EUSAGE, NULL, 0, 0, "%s: expected ':' after ']'", url);
            portp = rb + 2;
        }
    } else {
        const char *c = memchr(p, ':', (size_t)(end - p));
        he = c ? c : end;
        if (c)
            portp = c + 1;
    }
    if (he == hs)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0, "%s: expected a host name", url);
    if (portp) {
        long port = 0;
        const char *q = portp;
        for (; q < end && isdigit((unsigned char)*q) && port <= 65535; q++)
            port = port * 10 + (*q - '0');
        if (q != end || q == portp || port < 1 || port > 65535)
            return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                                "%s: expected a port number between 1 and 65535", url);
        out->port = (int)port;
    }
    out->host = pr_xstrndup(hs, (size_t)(he - hs));
    out->authority = pr_xstrndup(p, (size_t)(end - p));
    size_t plen = strcspn(end, "#");
    if (plen == 0 || *end == '?')
        out->path = pr_xasprintf("/%.*s", (int)plen, end);
    else
        out->path = pr_xstrndup(end, plen);
    return 0;
}

void pr_http_url_dispose(pr_http_url *u)
{
    free(u->host);
    free(u->path);
    free(u->authority);
    memset(u, 0, sizeof *u);
}

static int has_header(const char *const *headers, size_t n, const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < n; i++)
        if (!strncasecmp(headers[i], name, len) && headers[i][len] == ':')
            return 1;
    return 0;
}

void pr_http_request_build(pr_buf *out, const char *method, const pr_http_url *u,
                           const char *const *headers, size_t nheaders, const void *body,
                           size_t body_len, int keepalive)
{
    pr_buf_printf(out, "%s %s HTTP/1.1\r\n", method, u->path);
    if (!has_header(headers, nheaders, "Host"))
        pr_buf_printf(out, "Host: %s\r\n", u->authority);
    for (size_t i = 0; i < nheaders; i++)
        pr_buf_printf(out, "%s\r\n", headers[i]);
    if (!has_header(headers, nheaders, "User-Agent"))
        pr_buf_puts(out, "User-Agent: " PR_HTTP_USER_AGENT "\r\n");
    if (!has_header(headers, nheaders, "Content-Length") &&
        (body_len > 0 || !strcmp(method, "POST") || !strcmp(method, "PUT") ||
         !strcmp(method, "PATCH")))
        pr_buf_printf(out, "Content-Length: %zu\r\n", body_len);
    if (!keepalive && !has_header(headers, nheaders, "Connection"))
        pr_buf_puts(out, "Connection: close\r\n");
    pr_buf_puts(out, "\r\n");
    if (body_len)
        pr_buf_append(out, body, body_len);
}

/* ---- response parser ---- */

void pr_http_resp_init(pr_http_resp *r, int head)
{
    r->state = PR_HTTP_STATUS;
    r->head = head;
    r->status = 0;
    r->version_minor = 1;
    r->keepalive = 1;
    r->chunked = 0;
    r->content_length = -1;
    r->remaining = 0;
    r->body_bytes = 0;
    r->header_bytes = 0;
    r->error = NULL;
    r->linelen = 0;
}

static long fail(pr_http_resp *r, const char *msg)
{
    r->state = PR_HTTP_ERROR;
    r->error = msg;
    return -1;
}

/* RFC 9110 tchar: ALPHA / DIGIT / "!#$%&'*+-.^_`|~" (checked against that definition by
 * tests/unit/test_http.c for every byte); bytes from 0x80 are none. */
static const unsigned char tchar[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x00 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x10 */
    0, 1, 0, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 1, 1, 0, /* 0x20  !"#$%&'()*+,-./ */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, /* 0x30 0-9 :;<=>? */
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x40 @A-O */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, /* 0x50 P-Z [\]^_ */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x60 `a-o */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 0, /* 0x70 p-z {|}~ DEL */
};

static int is_digit(char c)
{
    return (unsigned char)(c - '0') < 10;
}

/* Equality of n bytes of a, ASCII letters folded to lower case, with `lower` (lower case):
 * header names and the tokens read here are ASCII whatever the locale. */
static int ascii_ieq(const char *a, const char *lower, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)a[i];
        if ((unsigned char)(c - 'A') < 26)
            c |= 0x20;
        if (c != (unsigned char)lower[i])
            return 0;
    }
    return 1;
}

/* Whether the header name l (n >= 8 bytes, all tchar: header_line checked them) is `lower`
 * (lower-case letters and '-'), eight bytes at a time: OR 0x20 folds the upper-case letters,
 * and no other tchar folds onto a letter or '-' (only CR, no tchar, folds onto '-'). */
static int name_is(const char *l, const char *lower, size_t n)
{
    const uint64_t fold = 0x2020202020202020u;
    uint64_t a, b;
    for (size_t i = 0; i + 8 <= n; i += 8) {
        memcpy(&a, l + i, 8);
        memcpy(&b, lower + i, 8);
        if ((a | fold) != b)
            return 0;
    }
    if (n % 8) {
        memcpy(&a, l + n - 8, 8);
        memcpy(&b, lower + n - 8, 8);
        if ((a | fold) != b)
            return 0;
    }
    return 1;
}

/* Does the comma-separated list v (length n) contain token tok (case-insensitive)? */
static int has_token(const char *v, size_t n, const char *tok)
{
    size_t tl = strlen(tok);
    size_t i = 0;
    while (i < n) {
        while (i < n && (v[i] == ' ' || v[i] == '\t' || v[i] == ','))
            i++;
        size_t s = i;
        while (i < n && v[i] != ',')
            i++;
        size_t e = i;
        while (e > s && (v[e - 1] == ' ' || v[e - 1] == '\t'))
            e--;
        if (e - s == tl && ascii_ieq(v + s, tok, tl))
            return 1;
    }
    return 0;
}

/* Is tok the last token of list v? (Transfer-Encoding: chunked must come last.) */
static int last_token_is(const char *v, size_t n, const char *tok)
{
    size_t e = n;
    while (e > 0 && (v[e - 1] == ' ' || v[e - 1] == '\t'))
        e--;
    size_t s = e;
    while (s > 0 && v[s - 1] != ',' && v[s - 1] != ' ' && v[s - 1] != '\t')
        s--;
    size_t tl = strlen(tok);
    return e - s == tl && ascii_ieq(v + s, tok, tl);
}

static long status_line(pr_http_resp *r, const char *l, size_t n)
{
    if (n < 12 || memcmp(l, "HTTP/1.", 7) || !is_digit(l[7]) || l[8] != ' ' || !is_digit(l[9]) ||
        !is_digit(l[10]) || !is_digit(l[11]) || (n > 12 && l[12] != ' '))
        return fail(r, "malformed response: invalid status line");
    int status = (l[9] - '0') * 100 + (l[10] - '0') * 10 + (l[11] - '0');
    if (status < 100)
        return fail(r, "malformed response: invalid status code");
    for (size_t i = 13; i < n; i++)
        if ((unsigned char)l[i] < 0x20 && l[i] != '\t')
            return fail(r, "malformed response: control character in status line");
    r->status = status;
    r->version_minor = l[7] - '0';
    r->keepalive = r->version_minor >= 1;
    r->chunked = 0;
    r->content_length = -1;
    r->state = PR_HTTP_HEADER;
    return 0;
}

static long end_of_headers(pr_http_resp *r)
{
    if (r->status < 200 && r->status != 101) { /* interim response: the real one follows */
        r->state = PR_HTTP_STATUS;
        r->header_bytes = 0;
        return 0;
    }
    if (r->status == 101)
        r->keepalive = 0;
    if (r->head || r->status < 200 || r->status == 204 || r->status == 304) {
        r->state = PR_HTTP_DONE;
    } else if (r->chunked) {
        r->state = PR_HTTP_CHUNK_SIZE;
    } else if (r->content_length >= 0) {
        r->remaining = r->content_length;
        r->state = r->remaining ? PR_HTTP_BODY_LEN : PR_HTTP_DONE;
    } else {
        r->keepalive = 0;
        r->state = PR_HTTP_BODY_CLOSE;
    }
    return 0;
}

/* A header line l of n bytes; l[n] is the CR or LF that ended it (pr_http_resp_feed). */
static long header_line(pr_http_resp *r, const char *l, size_t n)
{
    if (n == 0)
        return end_of_headers(r);
    if (l[0] == ' ' || l[0] == '\t')
        return 0; /* obsolete line folding: continuation of a header we do not interpret */
    size_t c = 0;
    while (tchar[(unsigned char)l[c]]) /* l[n] is the line's CR or LF: no tchar */
        c++;
    if (c == 0 || c >= n || l[c] != ':')
        return fail(r, "malformed response: invalid header line");
    if (c != 10 && c != 14 && c != 17)
        return 0; /* not a header read here (the names below) */
    const char *v = l + c + 1;
    size_t vn = n - c - 1;
    while (vn && (*v == ' ' || *v == '\t'))
        v++, vn--;
    while (vn && (v[vn - 1] == ' ' || v[vn - 1] == '\t'))
        vn--;
    if (c == 14 && name_is(l, "content-length", 14)) {
        int64_t len = 0;
        if (vn == 0 || vn > 18)
            return fail(r, "malformed response: invalid Content-Length");
        for (size_t i = 0; i < vn; i++) {
            if (!is_digit(v[i]))
                return fail(r, "malformed response: invalid Content-Length");
            len = len * 10 + (v[i] - '0');
        }
        if (r->content_length >= 0 && r->content_length != len)
            return fail(r, "malformed response: conflicting Content-Length");
        r->content_length = len;
    } else if (c == 17 && name_is(l, "transfer-encoding", 17)) {
        if (last_token_is(v, vn, "chunked"))
            r->chunked = 1;
        else
            r->chunked = 0, r->content_length = -2; /* other coding: read until close */
    } else if (c == 10 && name_is(l, "connection", 10)) {
        if (vn == 10 && ascii_ieq(v, "keep-alive", 10)) /* the usual value */
            r->keepalive = 1;
        else if (has_token(v, vn, "close"))
            r->keepalive = 0;
        else if (has_token(v, vn, "keep-alive"))
            r->keepalive = 1;
    }
    return 0;
}

static long chunk_size_line(pr_http_resp *r, const char *l, size_t n)
{
    int64_t size = 0;
    size_t i = 0;
    for (; i < n && isxdigit((unsigned char)l[i]); i++) {
        if (i >= 15)
            return fail(r, "malformed response: invalid chunk size");
        int c = (unsigned char)l[i];
        size = size * 16 + (isdigit(c) ? c - '0' : (tolower(c) - 'a' + 10));
    }
    if (i == 0)
        return fail(r, "malformed response: invalid chunk size");
    while (i < n && (l[i] == ' ' || l[i] == '\t'))
        i++;
    if (i < n && l[i] != ';')
        return fail(r, "malformed response: invalid chunk size");
    if (size == 0) {
        r->state = PR_HTTP_TRAILER;
    } else {
        r->remaining = size;
        r->state = PR_HTTP_CHUNK_DATA;
    }
    return 0;
}

static long on_line(pr_http_resp *r, const char *l, size_t n)
{
    switch (r->state) {
    case PR_HTTP_STATUS:
        if (n == 0)
            return 0; /* tolerate empty lines before the status line (RFC 9112 2.2) */
        return status_line(r, l, n);
    case PR_HTTP_HEADER: return header_line(r, l, n);
    case PR_HTTP_CHUNK_SIZE: return chunk_size_line(r, l, n);
    case PR_HTTP_CHUNK_CRLF:
        if (n != 0)
            return fail(r, "malformed response: missing CRLF after chunk data");
        r->state = PR_HTTP_CHUNK_SIZE;
        return 0;
    case PR_HTTP_TRAILER:
        if (n == 0)
            r->state = PR_HTTP_DONE;
        return 0;
    default: return fail(r, "malformed response: internal parser state");
    }
}

static int line_state(enum pr_http_state s)
{
    return s == PR_HTTP_STATUS || s == PR_HTTP_HEADER || s == PR_HTTP_CHUNK_SIZE ||
           s == PR_HTTP_CHUNK_CRLF || s == PR_HTTP_TRAILER;
}

long pr_http_resp_feed(pr_http_resp *r, const char *p, size_t n)
{
    size_t i = 0;
    if (r->state == PR_HTTP_ERROR)
        return -1;
    while (i < n && r->state != PR_HTTP_DONE) {
        if (line_state(r->state)) {
            const char *nl = memchr(p + i, '\n', n - i);
            size_t take = nl ? (size_t)(nl - (p + i)) + 1 : n - i;
            if (r->state == PR_HTTP_STATUS || r->state == PR_HTTP_HEADER) {
                r->header_bytes += take;
                if (r->header_bytes > PR_HTTP_HEADERS_MAX)
                    return fail(r, "malformed response: headers too long");
            }
            if (r->linelen + take > PR_HTTP_LINE_MAX)
                return fail(r, "malformed response: line too long");
            if (!nl) {
                memcpy(r->line + r->linelen, p + i, take);
                r->linelen += take;
                i = n;
                break;
            }
            const char *l;
            size_t ln;
            if (r->linelen == 0) {
                l = p + i;
                ln = take - 1;
            } else {
                memcpy(r->line + r->linelen, p + i, take);
                l = r->line;
                ln = r->linelen + take - 1;
            }
            r->linelen = 0;
            i += take;
            if (ln && l[ln - 1] == '\r')
                ln--;
            if (on_line(r, l, ln) < 0)
                return -1;
            continue;
        }
        size_t avail = n - i;
        switch (r->state) {
        case PR_HTTP_BODY_LEN:
        case PR_HTTP_CHUNK_DATA: {
            size_t take = (int64_t)avail < r->remaining ? avail : (size_t)r->remaining;
            i += take;
            r->remaining -= (int64_t)take;
            r->body_bytes += (int64_t)take;
            if (r->remaining == 0)
                r->state = r->state == PR_HTTP_BODY_LEN ? PR_HTTP_DONE : PR_HTTP_CHUNK_CRLF;
            break;
        }
        case PR_HTTP_BODY_CLOSE:
            r->body_bytes += (int64_t)avail;
            i = n;
            break;
        default: return fail(r, "malformed response: internal parser state");
        }
    }
    return (long)i;
}

int pr_http_resp_eof(pr_http_resp *r)
{
    if (r->state == PR_HTTP_DONE)
        return 0;
    if (r->state == PR_HTTP_BODY_CLOSE) {
        r->state = PR_HTTP_DONE;
        return 0;
    }
    if (r->state == PR_HTTP_ERROR)
        return -1;
    int nothing =
        r->state == PR_HTTP_STATUS && r->status == 0 && r->linelen == 0 && r->header_bytes == 0;
    fail(r, nothing ? "connection closed before response"
                    : "connection closed before response complete");
    return -1;
}
