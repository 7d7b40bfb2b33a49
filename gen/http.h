/* HTTP/1.1 client pieces of the load generator: URL parsing, request serialisation and a
 * streaming response parser fed arbitrary byte chunks (no copies of the body, bounded
 * memory: one header line of at most PR_HTTP_LINE_MAX bytes is buffered). */
#ifndef PR_HTTP_H
#define PR_HTTP_H
#include <stddef.h>
#include <stdint.h>
#include "model/buf.h"
#include "model/error.h"

#define PR_HTTP_LINE_MAX 8192     /* longest status/header/chunk-size line */
#define PR_HTTP_HEADERS_MAX 65536 /* all header bytes of one response */

/* A parsed http:// or https:// URL. Strings are owned (pr_http_url_dispose). */
typedef struct pr_http_url {
    int tls;    /* https */
    char *host; /* without brackets for IPv6 literals */
    int port;
    char *path;      /* path + query, "/" when empty */
    char *authority; /* Host header value: host[:port] as written (brackets kept) */
} pr_http_url;

/* Parses url; 0 or PR_EUSAGE with err naming what is wrong. */
int pr_http_url_parse(pr_http_url *out, const char *url, pr_error *err);
void pr_http_url_dispose(pr_http_url *u);

/* Appends a complete request to out: request line, Host (unless in headers), the given
 * header lines ("Name: value", no CRLF), User-Agent (unless given), Content-Length when a
 * body is given or the method usually has one, "Connection: close" when !keepalive, body. */
void pr_http_request_build(pr_buf *out, const char *method, const pr_http_url *u,
                           const char *const *headers, size_t nheaders, const void *body,
                           size_t body_len, int keepalive);

/* Response parser states (internal, exposed so the struct can live on the stack). */
enum pr_http_state {
    PR_HTTP_STATUS,
    PR_HTTP_HEADER,
    PR_HTTP_BODY_LEN,
    PR_HTTP_BODY_CLOSE,
    PR_HTTP_CHUNK_SIZE,
    PR_HTTP_CHUNK_DATA,
    PR_HTTP_CHUNK_CRLF,
    PR_HTTP_TRAILER,
    PR_HTTP_DONE,
    PR_HTTP_ERROR
};

typedef struct pr_http_resp {
    enum pr_http_state state;
    int head;          /* the request was HEAD: no body whatever the headers say */
    int status;        /* final status (1xx are skipped), 0 until the status line */
    int version_minor; /* HTTP/1.x */
    int keepalive;     /* connection may be reused after this response */
    int chunked;
    int64_t content_length; /* -1 if absent */
    int64_t remaining;      /* body / chunk bytes left */
    int64_t body_bytes;     /* body bytes seen (decoded payload for chunked) */
    size_t header_bytes;    /* header bytes of the current response */
    const char *error;      /* static text when state == PR_HTTP_ERROR */
    size_t linelen;
    char line[PR_HTTP_LINE_MAX];
} pr_http_resp;

/* Prepares r for one response; head: the request method was HEAD. */
void pr_http_resp_init(pr_http_resp *r, int head);
/* Feeds n bytes. Returns the bytes consumed (< n only when the response is complete:
 * the rest belongs to the next response), or -1 on malformed input (r->error says why,
 * e.g. "malformed response: invalid status line"). Check pr_http_resp_done afterwards. */
long pr_http_resp_feed(pr_http_resp *r, const char *p, size_t n);
/* The peer closed the connection: completes a close-delimited body. Returns 0 when the
 * response is complete, -1 otherwise (r->error set). */
int pr_http_resp_eof(pr_http_resp *r);
static inline int pr_http_resp_done(const pr_http_resp *r)
{
    return r->state == PR_HTTP_DONE;
}

#endif
