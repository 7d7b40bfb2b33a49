/* Unit tests: the generator's HTTP response parser (every split point), URLs, requests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen/http.h"

typedef struct outcome {
    int rc;          /* 0 complete, -1 error, 1 incomplete */
    int status;
    int64_t body;
    int keepalive;
    size_t used;     /* bytes consumed in total */
    const char *error;
} outcome;

/* Feeds `in` split at the given points (sorted, up to 2) and then EOF if eof. */
static outcome feed_split(const char *in, size_t n, int head, size_t s1, size_t s2, int eof)
{
    pr_http_resp *r = malloc(sizeof *r);
    pr_http_resp_init(r, head);
    outcome o = {1, 0, 0, 0, 0, NULL};
    size_t cuts[3] = {s1, s2, n}, at = 0;
    for (int i = 0; i < 3 && o.rc == 1; i++) {
        size_t end = cuts[i] < at ? at : cuts[i];
        if (end > n)
            end = n;
        long used = pr_http_resp_feed(r, in + at, end - at);
        if (used < 0) {
            o.rc = -1;
            break;
        }
        o.used += (size_t)used;
        at = end;
        if (pr_http_resp_done(r))
            o.rc = 0;
    }
    if (o.rc == 1 && eof)
        o.rc = pr_http_resp_eof(r);
    o.status = r->status;
    o.body = r->body_bytes;
    o.keepalive = r->keepalive;
    o.error = r->error;
    free(r);
    return o;
}

/* Checks that every single and double split of `in` gives the same outcome. */
static void every_split(const char *in, int head, int eof, outcome want)
{
    size_t n = strlen(in);
    for (size_t a = 0; a <= n; a++) {
        for (size_t b = a; b <= n; b += (n > 200 ? 7 : 1)) {
            outcome o = feed_split(in, n, head, a, b, eof);
            if (o.rc != want.rc || o.status != want.status ||
                (want.rc == 0 && (o.body != want.body || o.keepalive != want.keepalive ||
                                  o.used != want.used)) ||
                (want.rc < 0 && (!o.error || strcmp(o.error, want.error)))) {
                print_error("split %zu/%zu: rc %d status %d body %lld ka %d used %zu err %s\n", a,
                            b, o.rc, o.status, (long long)o.body, o.keepalive, o.used,
                            o.error ? o.error : "-");
                fail();
            }
        }
    }
}

static void test_http__content_length(void **st)
{
    const char *r = "HTTP/1.1 200 OK\r\nServer: x\r\nContent-Length: 5\r\n\r\nhello";
    every_split(r, 0, 0, (outcome){0, 200, 5, 1, strlen(r), NULL});
}

static void test_http__leftover_not_consumed(void **st)
{
    const char *r = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhiHTTP/1.1 200";
    pr_http_resp h;
    pr_http_resp_init(&h, 0);
    long used = pr_http_resp_feed(&h, r, strlen(r));
    assert_int_equal(used, strlen(r) - 12);
    assert_true(pr_http_resp_done(&h));
}

static void test_http__chunked(void **st)
{
    const char *r = "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
                    "5\r\nhello\r\n6;name=val\r\n world\r\nA \r\n0123456789\r\n0\r\n"
                    "X-Trailer: 1\r\n\r\n";
    every_split(r, 0, 0, (outcome){0, 200, 21, 1, strlen(r), NULL});
}

static void test_http__chunked_bad(void **st)
{
    const char *r = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n";
    every_split(r, 0, 0, (outcome){-1, 200, 0, 0, 0, "malformed response: invalid chunk size"});
    r = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhiX\r\n";
    every_split(r, 0, 0,
                (outcome){-1, 200, 0, 0, 0, "malformed response: missing CRLF after chunk data"});
    r = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\n";
    every_split(r, 0, 0, (outcome){-1, 200, 0, 0, 0, "malformed response: invalid chunk size"});
}

static void test_http__head_ignores_length(void **st)
{
    const char *r = "HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\n";
    every_split(r, 1, 0, (outcome){0, 200, 0, 1, strlen(r), NULL});
}

static void test_http__no_body_statuses(void **st)
{
    const char *r = "HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n";
    every_split(r, 0, 0, (outcome){0, 204, 0, 1, strlen(r), NULL});
    r = "HTTP/1.1 304 Not Modified\r\n\r\n";
    every_split(r, 0, 0, (outcome){0, 304, 0, 1, strlen(r), NULL});
    /* 100 Continue is skipped; the final response counts. */
    r = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 3\r\n\r\nabc";
    every_split(r, 0, 0, (outcome){0, 201, 3, 1, strlen(r), NULL});
}

static void test_http__close_delimited(void **st)
{
    const char *r = "HTTP/1.0 200 OK\r\nX: y\r\n\r\nsome body text";
    every_split(r, 0, 1, (outcome){0, 200, 14, 0, strlen(r), NULL});
    /* HTTP/1.0 with keep-alive and a length is reusable */
    r = "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\nok";
    every_split(r, 0, 0, (outcome){0, 200, 2, 1, strlen(r), NULL});
    r = "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok";
    every_split(r, 0, 0, (outcome){0, 200, 2, 0, strlen(r), NULL});
}

static void test_http__truncated(void **st)
{
    const char *r = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort";
    every_split(r, 0, 1,
                (outcome){-1, 200, 0, 0, 0, "connection closed before response complete"});
    every_split("", 0, 1, (outcome){-1, 0, 0, 0, 0, "connection closed before response"});
    every_split("HTTP/1.1 20", 0, 1,
                (outcome){-1, 0, 0, 0, 0, "connection closed before response complete"});
}

static void test_http__malformed_status(void **st)
{
    static const char *bad[] = {
        "HTTP/1.1 abc\r\n\r\n", "HTTP/2 200 OK\r\n\r\n", "HTTP/1.1 20 OK\r\n\r\n",
        "http/1.1 200 OK\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n", "<html>\r\n",
        "HTTP/1.1  200 OK\r\n\r\n", "ICY 200 OK\r\n\r\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        every_split(bad[i], 0, 0,
                    (outcome){-1, 0, 0, 0, 0, "malformed response: invalid status line"});
    every_split("HTTP/1.1 099 X\r\n\r\n", 0, 0,
                (outcome){-1, 0, 0, 0, 0, "malformed response: invalid status code"});
    /* status line without reason phrase is fine */
    every_split("HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n", 0, 0,
                (outcome){0, 200, 0, 1, 35, NULL});
}

static void test_http__malformed_headers(void **st)
{
    every_split("HTTP/1.1 200 OK\r\nNoColon\r\n\r\n", 0, 0,
                (outcome){-1, 200, 0, 0, 0, "malformed response: invalid header line"});
    every_split("HTTP/1.1 200 OK\r\nContent-Length: 12x\r\n\r\n", 0, 0,
                (outcome){-1, 200, 0, 0, 0, "malformed response: invalid Content-Length"});
    every_split("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 0, 0,
                (outcome){-1, 200, 0, 0, 0, "malformed response: conflicting Content-Length"});
}

/* Every byte in a header name: accepted exactly when RFC 9110 calls it a tchar (the parser
 * reads names through a bit table; this is the definition written out). */
static void test_http__header_name_bytes(void **st)
{
    for (int c = 1; c < 256; c++) {
        if (c == ':')
            continue; /* ends the name "A": valid whatever follows */
        char in[96];
        int n =
            snprintf(in, sizeof in, "HTTP/1.1 200 OK\r\nA%cB: v\r\nContent-Length: 0\r\n\r\n", c);
        int tchar = c < 128 && (isalnum(c) || strchr("!#$%&'*+-.^_`|~", c));
        pr_http_resp r;
        pr_http_resp_init(&r, 0);
        long used = pr_http_resp_feed(&r, in, (size_t)n);
        if (tchar != (used == n && pr_http_resp_done(&r))) {
            print_error("byte 0x%02x: used %ld of %d, error %s\n", c, used, n,
                        r.error ? r.error : "-");
            fail();
        }
        if (!tchar)
            assert_string_equal(r.error, "malformed response: invalid header line");
    }
}

/* Header names and the tokens read (close, keep-alive, chunked) in any letter case. */
static void test_http__header_case(void **st)
{
    const char *r = "HTTP/1.1 200 OK\r\nCONTENT-length: 2\r\nconnection: CLOSE\r\n\r\nok";
    every_split(r, 0, 0, (outcome){0, 200, 2, 0, strlen(r), NULL});
    r = "HTTP/1.0 200 OK\r\nCoNnEcTiOn: x, KEEP-ALIVE\r\ncontent-LENGTH: 1\r\n\r\nk";
    every_split(r, 0, 0, (outcome){0, 200, 1, 1, strlen(r), NULL});
    r = "HTTP/1.1 200 OK\r\ntransfer-ENCODING: Chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n";
    every_split(r, 0, 0, (outcome){0, 200, 3, 1, strlen(r), NULL});
    /* a name one letter off is not the header, nor one whose bytes fold onto it */
    r = "HTTP/1.1 200 OK\r\nContent-Lengtx: 2\r\nConnection: closed\r\n\r\nok";
    every_split(r, 0, 1, (outcome){0, 200, 2, 0, strlen(r), NULL});
    r = "HTTP/1.1 200 OK\r\nContent_Length: 2\r\nConnecti`n: close\r\n\r\nok";
    every_split(r, 0, 1, (outcome){0, 200, 2, 0, strlen(r), NULL});
    r = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnecti`n: close\r\n\r\nok";
    every_split(r, 0, 0, (outcome){0, 200, 2, 1, strlen(r), NULL});
}

static void test_http__header_limits(void **st)
{
    size_t n = PR_HTTP_HEADERS_MAX + 1000;
    char *big = malloc(n + 1);
    strcpy(big, "HTTP/1.1 200 OK\r\n");
    size_t at = strlen(big);
    while (at + 100 < n) {
        at += (size_t)sprintf(big + at, "X-Pad: %080d\r\n", 0);
    }
    big[at] = 0;
    pr_http_resp r;
    pr_http_resp_init(&r, 0);
    assert_int_equal(pr_http_resp_feed(&r, big, at), -1);
    assert_string_equal(r.error, "malformed response: headers too long");
    /* one line longer than the line buffer, fed in pieces */
    pr_http_resp_init(&r, 0);
    assert_true(pr_http_resp_feed(&r, "HTTP/1.1 200 OK\r\nX: ", 20) == 20);
    memset(big, 'a', 4096);
    long rc = 0;
    for (int i = 0; i < 4 && rc >= 0; i++)
        rc = pr_http_resp_feed(&r, big, 4096);
    assert_int_equal(rc, -1);
    assert_string_equal(r.error, "malformed response: line too long");
    free(big);
}

static void test_http__url(void **st)
{
    pr_http_url u;
    pr_error err;
    assert_int_equal(pr_http_url_parse(&u, "http://example.com", &err), 0);
    assert_string_equal(u.host, "example.com");
    assert_int_equal(u.port, 80);
    assert_string_equal(u.path, "/");
    assert_int_equal(u.tls, 0);
    pr_http_url_dispose(&u);
    assert_int_equal(pr_http_url_parse(&u, "https://[::1]:8443/a/b?c=d#frag", &err), 0);
    assert_string_equal(u.host, "::1");
    assert_int_equal(u.port, 8443);
    assert_string_equal(u.path, "/a/b?c=d");
    assert_string_equal(u.authority, "[::1]:8443");
    assert_int_equal(u.tls, 1);
    pr_http_url_dispose(&u);
    assert_int_equal(pr_http_url_parse(&u, "http://h:81?x=1", &err), 0);
    assert_string_equal(u.path, "/?x=1");
    pr_http_url_dispose(&u);
    assert_int_equal(pr_http_url_parse(&u, "ftp://h/", &err), PR_EUSAGE);
    assert_non_null(strstr(err.msg, "http://"));
    assert_int_equal(pr_http_url_parse(&u, "http://h:99999/", &err), PR_EUSAGE);
    assert_int_equal(pr_http_url_parse(&u, "http://:80/", &err), PR_EUSAGE);
    assert_int_equal(pr_http_url_parse(&u, "http://[::1/", &err), PR_EUSAGE);
}

static void test_http__request_build(void **st)
{
    pr_http_url u;
    pr_error err;
    assert_int_equal(pr_http_url_parse(&u, "http://127.0.0.1:8080/p?q=1", &err), 0);
    pr_buf b = PR_BUF_INIT;
    const char *h[] = {"X-A: 1", "User-Agent: me"};
    pr_http_request_build(&b, "POST", &u, h, 2, "body", 4, 0);
    assert_string_equal(b.p, "POST /p?q=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX-A: 1\r\n"
                             "User-Agent: me\r\nContent-Length: 4\r\nConnection: close\r\n\r\n"
                             "body");
    pr_buf_reset(&b);
    pr_http_request_build(&b, "GET", &u, NULL, 0, NULL, 0, 1);
    assert_string_equal(b.p, "GET /p?q=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
                             "User-Agent: perfreport/0.1.0\r\n\r\n");
    pr_buf_dispose(&b);
    pr_http_url_dispose(&u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_http__content_length),
        cmocka_unit_test(test_http__leftover_not_consumed),
        cmocka_unit_test(test_http__chunked),
        cmocka_unit_test(test_http__chunked_bad),
        cmocka_unit_test(test_http__head_ignores_length),
        cmocka_unit_test(test_http__no_body_statuses),
        cmocka_unit_test(test_http__close_delimited),
        cmocka_unit_test(test_http__truncated),
        cmocka_unit_test(test_http__malformed_status),
        cmocka_unit_test(test_http__malformed_headers),
        cmocka_unit_test(test_http__header_name_bytes),
        cmocka_unit_test(test_http__header_case),
        cmocka_unit_test(test_http__header_limits),
        cmocka_unit_test(test_http__url),
        cmocka_unit_test(test_http__request_build),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
