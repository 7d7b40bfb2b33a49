/* Test helper: a scripted one-thread HTTP server on the loopback interface. */
#include "tests/unit/lib/testhttpd.h"
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAXC 1024

typedef struct client {
    int fd;
    char buf[8192];
    size_t len;
    long long respond_at; /* ms; 0 = no pending response */
    char path[64];
    const char *out;      /* streaming modes: bytes still to send (a shared buffer) */
    size_t outlen, outoff;
} client;

struct httpd {
    httpd_mode mode;
    int delay_ms;
    int lfd, port;
    int pipefd[2];
    pthread_t th;
    pthread_mutex_t mu;
    long requests, connections;
    client c[MAXC];
    int nc;
    char *stream;         /* the streaming mode's response (garbage, headers, first chunk) */
    size_t streamlen;
    char *chunk;          /* HTTPD_ENDLESS: one 16 KiB chunk, repeated forever */
    size_t chunklen;
    /* HTTPD_ENDLESS: a thread per connection writes as fast as the client reads */
    int sfd[MAXC];
    int nstreamers;
    atomic_int stopping;
    pthread_cond_t done;
};

#define GARBAGE_BYTES 65536
#define HEADER_LINES 100000
#define CHUNK_BYTES 16384

static int streaming(httpd_mode m)
{
    return m == HTTPD_GARBAGE || m == HTTPD_HEADERS;
}

/* Builds the streaming modes' responses once, at start. */
static void stream_build(httpd *h)
{
    if (h->mode == HTTPD_GARBAGE) {
        h->stream = malloc(GARBAGE_BYTES);
        unsigned x = 12345;
        for (size_t i = 0; i < GARBAGE_BYTES; i++) {
            x = x * 1103515245u + 12345u;
            h->stream[i] = (char)(x >> 16);
        }
        h->stream[0] = '\x01'; /* never "HTTP/" */
        h->streamlen = GARBAGE_BYTES;
    } else if (h->mode == HTTPD_HEADERS) {
        const char *st = "HTTP/1.1 200 OK\r\n";
        h->stream = malloc(strlen(st) + (size_t)HEADER_LINES * 20 + 64);
        size_t n = (size_t)sprintf(h->stream, "%s", st);
        for (int i = 0; i < HEADER_LINES; i++)
            n += (size_t)sprintf(h->stream + n, "X-H%06d: value\r\n", i);
        n += (size_t)sprintf(h->stream + n, "Content-Length: 0\r\n\r\n");
        h->streamlen = n;
    } else if (h->mode == HTTPD_ENDLESS) {
        h->stream = strdup("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
        h->streamlen = strlen(h->stream);
        h->chunk = malloc(CHUNK_BYTES + 16);
        int n = sprintf(h->chunk, "%x\r\n", CHUNK_BYTES);
        memset(h->chunk + n, 'x', CHUNK_BYTES);
        memcpy(h->chunk + n + CHUNK_BYTES, "\r\n", 2);
        h->chunklen = (size_t)n + CHUNK_BYTES + 2;
    }
}

/* Garbage and headers modes: sends what the socket takes, at most 256 KiB per call (so every
 * client and new connections get their turn). Returns 0, or -1 when the peer is gone. */
static int stream_out(httpd *h, client *c)
{
    for (size_t sent = 0; c->out && sent < 262144;) {
        ssize_t w = send(c->fd, c->out + c->outoff, c->outlen - c->outoff, MSG_NOSIGNAL);
        if (w < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
        c->outoff += (size_t)w;
        sent += (size_t)w;
        if (c->outoff < c->outlen)
            continue;
        c->outoff = 0;
        c->out = NULL;
    }
    return 0;
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void drop(httpd *h, int i, int reset)
{
    if (reset) {
        struct linger l = {1, 0};
        setsockopt(h->c[i].fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    }
    close(h->c[i].fd);
    h->c[i] = h->c[--h->nc];
}

static int send_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Sends the scripted answer; returns 1 to keep the connection, 0 to close, -1 to reset. */
static int answer(httpd *h, client *c)
{
    static const char ok[] = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello";
    char tmp[256];
    switch (h->mode) {
    case HTTPD_OK:
    case HTTPD_SLOW:
        return send_all(c->fd, ok, sizeof ok - 1) == 0;
    case HTTPD_STATUS: {
        int st = 200;
        if (!strncmp(c->path, "/status/", 8))
            st = atoi(c->path + 8);
        int n = snprintf(tmp, sizeof tmp, "HTTP/1.1 %d X\r\nContent-Length: 2\r\n\r\nok", st);
        return send_all(c->fd, tmp, (size_t)n) == 0;
    }
    case HTTPD_RESET:
        return -1;
    case HTTPD_MALFORMED:
        send_all(c->fd, "HTTP/1.1 abc\r\n\r\n", 16);
        return 0;
    case HTTPD_CHUNKED: {
        const char *parts[] = {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", "5\r\nhel",
                               "lo\r\n6;ext=1\r\n wor", "ld\r\n0\r\n", "X-Trailer: 1\r\n\r\n"};
        for (int i = 0; i < 5; i++) {
            if (send_all(c->fd, parts[i], strlen(parts[i])) < 0)
                return 0;
            usleep(1000);
        }
        return 1;
    }
    case HTTPD_MIDBODY:
        {
        const char *m = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789";
        send_all(c->fd, m, strlen(m));
        }
        return 0;
    case HTTPD_SILENT:
        return 1;
    case HTTPD_GARBAGE:
    case HTTPD_HEADERS:
        c->out = h->stream;
        c->outlen = h->streamlen;
        c->outoff = 0;
        return stream_out(h, c) == 0 ? 1 : 0;
    case HTTPD_ENDLESS: /* served by streamer threads */
        return 0;
    case HTTPD_CLOSE:
        {
        const char *m = "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nclose-delimited";
        send_all(c->fd, m, strlen(m));
        }
        return 0;
    }
    return 0;
}

/* Handles complete requests in c->buf (request bodies by Content-Length). */
static int serve(httpd *h, client *c)
{
    for (;;) {
        c->buf[c->len < sizeof c->buf ? c->len : sizeof c->buf - 1] = 0;
        char *end = strstr(c->buf, "\r\n\r\n");
        if (!end)
            return 1;
        size_t hl = (size_t)(end + 4 - c->buf);
        size_t body = 0;
        char *cl = strcasestr(c->buf, "\r\nContent-Length:");
        if (cl && cl < end)
            body = (size_t)atol(cl + 17);
        if (c->len < hl + body)
            return 1;
        sscanf(c->buf, "%*s %63s", c->path);
        memmove(c->buf, c->buf + hl + body, c->len - hl - body);
        c->len -= hl + body;
        pthread_mutex_lock(&h->mu);
        h->requests++;
        pthread_mutex_unlock(&h->mu);
        if (h->mode == HTTPD_SLOW) {
            c->respond_at = now_ms() + h->delay_ms;
            return 1;
        }
        int r = answer(h, c);
        if (r <= 0)
            return r;
        if (h->mode == HTTPD_SILENT || streaming(h->mode))
            return 1; /* one answer per connection: the rest of the stream never ends */
    }
}

typedef struct streamer {
    httpd *h;
    int fd;
} streamer;

/* HTTPD_ENDLESS: reads the request, then sends the chunked body until the client goes. */
static void *stream_main(void *arg)
{
    streamer *st = arg;
    httpd *h = st->h;
    char buf[8192];
    size_t len = 0;
    while (len < sizeof buf - 1) {
        ssize_t n = recv(st->fd, buf + len, sizeof buf - 1 - len, 0);
        if (n <= 0)
            break;
        len += (size_t)n;
        buf[len] = 0;
        if (strstr(buf, "\r\n\r\n"))
            break;
    }
    pthread_mutex_lock(&h->mu);
    h->requests++;
    pthread_mutex_unlock(&h->mu);
    int ok = send_all(st->fd, h->stream, h->streamlen) == 0;
    while (ok && !h->stopping)
        ok = send_all(st->fd, h->chunk, h->chunklen) == 0;
    pthread_mutex_lock(&h->mu);
    for (int i = 0; i < h->nstreamers; i++)
        if (h->sfd[i] == st->fd)
            h->sfd[i] = h->sfd[--h->nstreamers];
    close(st->fd);
    pthread_cond_signal(&h->done);
    pthread_mutex_unlock(&h->mu);
    free(st);
    return NULL;
}

/* Starts a streamer for fd; 0, or -1 (fd closed) at the connection cap. */
static int stream_start(httpd *h, int fd)
{
    pthread_mutex_lock(&h->mu);
    if (h->nstreamers == MAXC) {
        pthread_mutex_unlock(&h->mu);
        close(fd);
        return -1;
    }
    h->sfd[h->nstreamers++] = fd;
    h->connections++;
    pthread_mutex_unlock(&h->mu);
    streamer *st = malloc(sizeof *st);
    st->h = h;
    st->fd = fd;
    pthread_t th;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&th, &at, stream_main, st);
    pthread_attr_destroy(&at);
    if (rc != 0) { /* as at the cap: the client sees its connection closed */
        pthread_mutex_lock(&h->mu);
        for (int i = 0; i < h->nstreamers; i++)
            if (h->sfd[i] == fd)
                h->sfd[i] = h->sfd[--h->nstreamers];
        pthread_mutex_unlock(&h->mu);
        close(fd);
        free(st);
        return -1;
    }
    return 0;
}

static void *run(void *arg)
{
    httpd *h = arg;
    for (;;) {
        struct pollfd p[MAXC + 2];
        p[0] = (struct pollfd){h->pipefd[0], POLLIN, 0};
        p[1] = (struct pollfd){h->lfd, POLLIN, 0};
        long long now = now_ms(), wait = 100;
        for (int i = 0; i < h->nc; i++) {
            p[i + 2] = (struct pollfd){h->c[i].fd, POLLIN | (h->c[i].out ? POLLOUT : 0), 0};
            if (h->c[i].respond_at) {
                long long d = h->c[i].respond_at - now;
                if (d < wait)
                    wait = d < 0 ? 0 : d;
            }
        }
        int nc = h->nc;
        if (poll(p, (nfds_t)nc + 2, (int)wait) < 0 && errno != EINTR)
            break;
        if (p[0].revents)
            break;
        now = now_ms();
        for (int i = nc - 1; i >= 0; i--) {
            client *c = &h->c[i];
            int r = 1;
            if ((p[i + 2].revents & POLLOUT) && stream_out(h, c) < 0) {
                drop(h, i, 0);
                continue;
            }
            if (p[i + 2].revents & (POLLIN | POLLHUP | POLLERR)) {
                ssize_t n = recv(c->fd, c->buf + c->len, sizeof c->buf - 1 - c->len, 0);
                if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                    continue;
                if (n <= 0) {
                    drop(h, i, 0);
                    continue;
                }
                c->len += (size_t)n;
                r = serve(h, c);
            }
            if (r > 0 && c->respond_at && c->respond_at <= now) {
                c->respond_at = 0;
                r = answer(h, c);
            }
            if (r <= 0)
                drop(h, i, r < 0);
        }
        /* every pending connection (the listening socket does not block) */
        for (int fd; p[1].revents && (fd = accept(h->lfd, NULL, NULL)) >= 0;) {
            if (h->mode == HTTPD_ENDLESS) {
                stream_start(h, fd);
                continue;
            }
            if (h->nc == MAXC) {
                close(fd);
                continue;
            }
            memset(&h->c[h->nc], 0, sizeof h->c[h->nc]);
            h->c[h->nc++].fd = fd;
            if (streaming(h->mode))
                fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
            pthread_mutex_lock(&h->mu);
            h->connections++;
            pthread_mutex_unlock(&h->mu);
        }
    }
    return NULL;
}

httpd *httpd_start(httpd_mode mode, int delay_ms, int ipv6)
{
    httpd *h = calloc(1, sizeof *h);
    h->mode = mode;
    h->delay_ms = delay_ms;
    h->lfd = socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    int one = 1;
    setsockopt(h->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_storage ss;
    socklen_t len;
    memset(&ss, 0, sizeof ss);
    if (ipv6) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
        a->sin6_family = AF_INET6;
        a->sin6_addr = in6addr_loopback;
        len = sizeof *a;
    } else {
        struct sockaddr_in *a = (struct sockaddr_in *)&ss;
        a->sin_family = AF_INET;
        a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        len = sizeof *a;
    }
    if (h->lfd < 0 || bind(h->lfd, (struct sockaddr *)&ss, len) < 0 || listen(h->lfd, 1024) < 0 ||
        getsockname(h->lfd, (struct sockaddr *)&ss, &len) < 0 || pipe(h->pipefd) < 0) {
        if (h->lfd >= 0)
            close(h->lfd);
        free(h);
        return NULL;
    }
    h->port = ntohs(ipv6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                         : ((struct sockaddr_in *)&ss)->sin_port);
    stream_build(h);
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->done, NULL);
    pthread_create(&h->th, NULL, run, h);
    return h;
}

int httpd_port(const httpd *h)
{
    return h->port;
}

long httpd_requests(httpd *h)
{
    pthread_mutex_lock(&h->mu);
    long n = h->requests;
    pthread_mutex_unlock(&h->mu);
    return n;
}

long httpd_connections(httpd *h)
{
    pthread_mutex_lock(&h->mu);
    long n = h->connections;
    pthread_mutex_unlock(&h->mu);
    return n;
}

void httpd_stop(httpd *h)
{
    if (!h)
        return;
    if (write(h->pipefd[1], "x", 1) != 1)
        return;
    pthread_join(h->th, NULL);
    pthread_mutex_lock(&h->mu);
    h->stopping = 1;
    for (int i = 0; i < h->nstreamers; i++)
        shutdown(h->sfd[i], SHUT_RDWR);
    while (h->nstreamers)
        pthread_cond_wait(&h->done, &h->mu);
    pthread_mutex_unlock(&h->mu);
    pthread_cond_destroy(&h->done);
    for (int i = 0; i < h->nc; i++)
        close(h->c[i].fd);
    close(h->lfd);
    close(h->pipefd[0]);
    close(h->pipefd[1]);
    pthread_mutex_destroy(&h->mu);
    free(h->stream);
    free(h->chunk);
    free(h);
}
