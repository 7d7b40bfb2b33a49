/* Test helper: a small HTTP server on 127.0.0.1 (one thread, poll) with scripted
 * misbehaviours, for the load generator's tests. Every server is stopped by the test. */
#ifndef PR_TEST_HTTPD_H
#define PR_TEST_HTTPD_H

typedef enum {
    HTTPD_OK,        /* 200, Content-Length body "hello", keep-alive */
    HTTPD_SLOW,      /* as OK after delay_ms */
    HTTPD_RESET,     /* reads the request, then resets the connection (RST) */
    HTTPD_MALFORMED, /* "HTTP/1.1 abc" status line */
    HTTPD_CHUNKED,   /* 200 with a chunked body "hello world" written in pieces */
    HTTPD_MIDBODY,   /* Content-Length 100, sends 10 bytes, closes */
    HTTPD_SILENT,    /* reads the request and never answers */
    HTTPD_CLOSE,     /* 200 with a close-delimited body */
    HTTPD_STATUS,    /* keep-alive, status from the request path "/status/NNN" */
    HTTPD_GARBAGE,   /* answers 64 KiB of binary bytes that are no HTTP at all */
    HTTPD_HEADERS,   /* a 200 status line followed by 100,000 header lines (1.9 MB) */
    HTTPD_ENDLESS    /* 200 with a chunked body that never ends (16 KiB chunks, at full speed) */
} httpd_mode;

typedef struct httpd httpd;

/* Starts a server (ipv6: on ::1); returns NULL if it cannot listen. */
httpd *httpd_start(httpd_mode mode, int delay_ms, int ipv6);
int httpd_port(const httpd *h);
/* Requests received and connections accepted so far. */
long httpd_requests(httpd *h);
long httpd_connections(httpd *h);
void httpd_stop(httpd *h);

#endif
