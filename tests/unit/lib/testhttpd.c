/* Test helper: a scripted one-thread HTTP server on the loopback interface. */
#include "tests/unit/lib/testhttpd.h"
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAXC 256

typedef struct client {
    int fd;
    char buf[8192];
    size_t len;
    long long respond_at; /* ms; 0 = no pending response */
    char path[64];
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
};

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
        if (h->mode == HTTPD_SILENT)
            return 1;
    }
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
            p[i + 2] = (struct pollfd){h->c[i].fd, POLLIN, 0};
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
            if (p[i + 2].revents) {
                ssize_t n = recv(c->fd, c->buf + c->len, sizeof c->buf - 1 - c->len, 0);
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
        if (p[1].revents) {
            int fd = accept(h->lfd, NULL, NULL);
            if (fd >= 0) {
                if (h->nc == MAXC) {
                    close(fd);
                } else {
                    memset(&h->c[h->nc], 0, sizeof h->c[h->nc]);
                    h->c[h->nc++].fd = fd;
                    pthread_mutex_lock(&h->mu);
                    h->connections++;
                    pthread_mutex_unlock(&h->mu);
                }
            }
        }
    }
    return NULL;
}

httpd *httpd_start(httpd_mode mode, int delay_ms, int ipv6)
{
    httpd *h = calloc(1, sizeof *h);
    h->mode = mode;
    h->delay_ms = delay_ms;
    h->lfd = socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
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
    if (h->lfd < 0 || bind(h->lfd, (struct sockaddr *)&ss, len) < 0 || listen(h->lfd, 128) < 0 ||
        getsockname(h->lfd, (struct sockaddr *)&ss, &len) < 0 || pipe(h->pipefd) < 0) {
        if (h->lfd >= 0)
            close(h->lfd);
        free(h);
        return NULL;
    }
    h->port = ntohs(ipv6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                         : ((struct sockaddr_in *)&ss)->sin_port);
    pthread_mutex_init(&h->mu, NULL);
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
    for (int i = 0; i < h->nc; i++)
        close(h->c[i].fd);
    close(h->lfd);
    close(h->pipefd[0]);
    close(h->pipefd[1]);
    pthread_mutex_destroy(&h->mu);
    free(h);
}
