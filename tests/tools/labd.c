/* Test tool: the behaviour lab (issue 32, docs/findings.md "The lab"). A loopback HTTP/1.x
 * server whose behaviour is set by the request path, so a recording of a real load tool
 * against it has a known truth. `labd` listens on a free 127.0.0.1 port, prints the port and
 * serves until SIGTERM or its lifetime (`-t SECONDS`, default 300). Time in a path is seconds
 * since the first request for that path (its epoch); latencies are milliseconds.
 *
 *   /ok                        200 at once
 *   /status/N                  status N at once (a fast 500: /status/500)
 *   /cap/R[/Q]                 one worker serving R requests/s, first come first served (a
 *                              queue); with Q, a request that finds Q waiting gets 503 at once
 *   /pool/W/MS                 W workers, each request takes MS (capacity W*1000/MS per s)
 *   /episode/S/E/A/B           latency about A, about B from S to E s, then A again
 *   /warmup/S/A/B              latency A falling linearly to B over the first S s, B after
 *   /leak/A/G                  latency A plus G per second since the epoch
 *   /stall/P/D/A               latency A; every P s the server stalls D ms (requests wait)
 *   /bimodal/A/B/PCT           PCT% of requests take B, the rest A
 *   /errors/S/E/N/A            status N from S to E s, 200 otherwise; latency A
 *   /hang/PCT/A                PCT% of requests are never answered, the rest after A
 *   /slowbody/A/MS             headers after A, the body MS later
 *   /limit/R/A                 a token bucket of R/s: beyond it 429 at once, else 200 after A
 *   /cpu/S/E/MS/A              latency A; from S to E s each request first burns MS of CPU in
 *                              the server's one thread (a CPU-bound episode: everything waits)
 *   /varlen/A                  200 after A with a body whose length varies (a dynamic page)
 *   /reset/PCT/A               PCT% of requests get their connection reset (RST) after A
 *
 * Latencies "about A" vary ±20% (deterministically, by request number) and 1% of requests take
 * 1.3 A, so percentiles spread as a real server's do. One thread, poll(2), at most MAXC
 * connections; each holds at most one request in service (no pipelining). */

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAXC 4096
#define INBUF 8192

typedef struct conn {
    int fd;
    size_t in_len;
    char in[INBUF];
    int busy;        /* a request is in service */
    int hang;        /* never answered */
    int reset;       /* reset instead of answered */
    int varlen;      /* the body's length varies by request */
    int keep;        /* keep-alive after the response */
    int64_t due_ns;  /* when the head (and body unless split) goes out */
    int64_t body_ns; /* slowbody: when the body goes out, else 0 */
    int status;
    uint64_t qseq; /* waiting for a worker (order of arrival), 0 if not */
    double svc_ms; /* its service time */
    int svc_about; /* the service time varies (about()) */
    uint64_t n;    /* request number */
    char out[512];
    size_t out_len, out_off;
    int head_sent;
} conn;

static conn *conns[MAXC];
static struct pollfd pfd[MAXC + 1];
static volatile sig_atomic_t stop;
static int64_t epoch_ns = -1;
static uint64_t nreq;
/* /cap and /pool: a first-come-first-served queue before W workers. A request whose client
 * went away while it waited is dropped from the queue, as a server that checks its socket
 * does; one in service keeps its worker to the end. */
static int64_t worker_free_ns[256];
static int workers = 1;
static long queued;
static uint64_t queue_seq;
static double bucket_tokens = -1;
static int64_t bucket_ns;

static void on_term(int sig)
{
    (void)sig;
    stop = 1;
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A latency "about ms": ±20% by request number, 1% of requests at 1.3×. */
static int64_t about(double ms, uint64_t n)
{
    uint64_t h = n * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    double u = (double)(h % 10000) / 10000.0;
    double f = 0.8 + 0.4 * u;
    if (h % 100 == 7)
        f = 1.3;
    return (int64_t)(ms * f * 1e6);
}

static int parts(const char *path, const char *name, double *v, int max)
{
    size_t n = strlen(name);
    if (strncmp(path, name, n) ||
        (path[n] != '/' && path[n] != 0 && path[n] != ' ' && path[n] != '?'))
        return -1;
    int k = 0;
    const char *p = path + n;
    while (k < max && *p == '/') {
        char *end;
        v[k] = strtod(p + 1, &end);
        if (end == p + 1)
            break;
        k++;
        p = end;
    }
    return k;
}

static void enqueue(conn *c, int w, double ms, int vary, uint64_t n)
{
    workers = w;
    c->qseq = ++queue_seq;
    c->svc_ms = ms;
    c->svc_about = vary;
    c->n = n;
    c->due_ns = INT64_MAX;
    queued++;
}

/* Gives each free worker the oldest waiting request. */
static void serve_queue(int64_t now)
{
    for (int w = 0; w < workers && queued > 0; w++) {
        while (worker_free_ns[w] <= now && queued > 0) {
            conn *best = NULL;
            for (int i = 0; i < MAXC; i++)
                if (conns[i] && conns[i]->qseq && (!best || conns[i]->qseq < best->qseq))
                    best = conns[i];
            if (!best)
                return;
            best->qseq = 0;
            queued--;
            int64_t start = worker_free_ns[w] > now - 1000000 ? worker_free_ns[w] : now;
            int64_t svc =
                best->svc_about ? about(best->svc_ms, best->n) : (int64_t)(best->svc_ms * 1e6);
            best->due_ns = start + svc;
            worker_free_ns[w] = best->due_ns;
        }
    }
}

/* Decides the response to a request for `path` arriving at `t` (ns since the epoch). */
/* The epoch of a path: the time of its first request (each recording starts its own clock). */
static int64_t path_epoch(const char *path, int64_t now)
{
    static char seen[64][128];
    static int64_t at[64];
    static int n;
    for (int i = 0; i < n; i++)
        if (!strncmp(seen[i], path, sizeof seen[i] - 1))
            return at[i];
    if (n == 64)
        return epoch_ns;
    snprintf(seen[n], sizeof seen[n], "%.*s", (int)sizeof seen[n] - 1, path);
    at[n] = now;
    return at[n++];
}

static void decide(conn *c, const char *path, int64_t now)
{
    double v[4] = {0};
    int64_t t = now - path_epoch(path, now);
    double ts = (double)t / 1e9;
    uint64_t n = nreq++;
    c->status = 200;
    c->due_ns = now;
    c->body_ns = 0;
    c->hang = 0;
    c->reset = 0;
    c->varlen = 0;
    c->n = n;
    if (parts(path, "/ok", v, 0) >= 0) {
    } else if (parts(path, "/status", v, 1) == 1) {
        c->status = (int)v[0];
    } else if (parts(path, "/cap", v, 2) >= 1 && v[0] > 0) {
        if (v[1] > 0 && queued >= (long)v[1]) {
            c->status = 503;
        } else {
            enqueue(c, 1, 1e3 / v[0], 0, n);
        }
    } else if (parts(path, "/pool", v, 2) == 2 && v[0] >= 1 && v[0] <= 256) {
        enqueue(c, (int)v[0], v[1], 1, n);
    } else if (parts(path, "/episode", v, 4) == 4) {
        c->due_ns = now + about(ts >= v[0] && ts < v[1] ? v[3] : v[2], n);
    } else if (parts(path, "/warmup", v, 3) == 3) {
        double ms = ts >= v[0] ? v[2] : v[1] + (v[2] - v[1]) * ts / v[0];
        c->due_ns = now + about(ms, n);
    } else if (parts(path, "/leak", v, 2) == 2) {
        c->due_ns = now + about(v[0] + v[1] * ts, n);
    } else if (parts(path, "/stall", v, 3) == 3 && v[0] > 0) {
        double in = ts - v[0] * (double)(int64_t)(ts / v[0]); /* s into the period */
        double wait_ms = in * 1000 < v[1] ? v[1] - in * 1000 : 0;
        c->due_ns = now + (int64_t)(wait_ms * 1e6) + about(v[2], n);
    } else if (parts(path, "/bimodal", v, 3) == 3) {
        c->due_ns = now + about((double)(n * 7919 % 100) < v[2] ? v[1] : v[0], n);
    } else if (parts(path, "/errors", v, 4) == 4) {
        if (ts >= v[0] && ts < v[1])
            c->status = (int)v[2];
        c->due_ns = now + about(v[3], n);
    } else if (parts(path, "/hang", v, 2) == 2) {
        c->hang = (double)(n * 7919 % 100) < v[0];
        c->due_ns = now + about(v[1], n);
    } else if (parts(path, "/cpu", v, 4) == 4) {
        if (ts >= v[0] && ts < v[1]) { /* real work on the one thread: every request waits */
            int64_t until = now_ns() + (int64_t)(v[2] * 1e6);
            volatile uint64_t x = n;
            while (now_ns() < until)
                x = x * 6364136223846793005ull + 1;
        }
        c->due_ns = now_ns() + about(v[3], n);
    } else if (parts(path, "/varlen", v, 1) == 1) {
        c->varlen = 1;
        c->due_ns = now + about(v[0], n);
    } else if (parts(path, "/reset", v, 2) == 2) {
        c->reset = (double)(n * 7919 % 100) < v[0];
        c->due_ns = now + about(v[1], n);
    } else if (parts(path, "/slowbody", v, 2) == 2) {
        c->due_ns = now + about(v[0], n);
        c->body_ns = c->due_ns + (int64_t)(v[1] * 1e6);
    } else if (parts(path, "/limit", v, 2) == 2 && v[0] > 0) {
        if (bucket_tokens < 0)
            bucket_tokens = v[0], bucket_ns = now;
        bucket_tokens += (double)(now - bucket_ns) / 1e9 * v[0];
        if (bucket_tokens > v[0])
            bucket_tokens = v[0];
        bucket_ns = now;
        if (bucket_tokens >= 1) {
            bucket_tokens -= 1;
            c->due_ns = now + about(v[1], n);
        } else {
            c->status = 429;
        }
    } else {
        c->status = 404;
    }
}

static const char *reason(int s)
{
    switch (s) {
    case 200: return "OK";
    case 404: return "Not Found";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    default: return "Status";
    }
}

static void close_conn(int i)
{
    if (conns[i]->qseq)
        queued--;
    close(conns[i]->fd);
    free(conns[i]);
    conns[i] = NULL;
}

/* Parses a complete request head in c->in; returns 1 if one was taken. */
static int take_request(conn *c, int64_t now)
{
    c->in[c->in_len < INBUF ? c->in_len : INBUF - 1] = 0;
    char *end = strstr(c->in, "\r\n\r\n");
    if (!end)
        return 0;
    size_t head = (size_t)(end + 4 - c->in);
    size_t body = 0;
    char *cl = strcasestr(c->in, "\r\ncontent-length:");
    if (cl && cl < end)
        body = strtoul(cl + 17, NULL, 10);
    if (head + body > c->in_len)
        return 0;
    char path[1024] = "/";
    sscanf(c->in, "%*s %1023s", path);
    int http10 = strstr(c->in, "HTTP/1.0\r\n") != NULL;
    char *conn_h = strcasestr(c->in, "\r\nconnection:");
    c->keep = !http10;
    if (conn_h && conn_h < end) {
        if (strncasecmp(conn_h + 13 + strspn(conn_h + 13, " "), "close", 5) == 0)
            c->keep = 0;
        else if (strncasecmp(conn_h + 13 + strspn(conn_h + 13, " "), "keep-alive", 10) == 0)
            c->keep = 1;
    }
    memmove(c->in, c->in + head + body, c->in_len - head - body);
    c->in_len -= head + body;
    if (epoch_ns < 0)
        epoch_ns = now;
    decide(c, path, now);
    c->busy = 1;
    c->head_sent = 0;
    return 1;
}

/* Writes what is due; returns -1 when the connection is done with. */
static int send_due(conn *c, int64_t now)
{
    if (!c->busy || c->hang || now < c->due_ns)
        return 0;
    if (c->reset) {
        struct linger l = {1, 0};
        setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
        return -1;
    }
    if (!c->head_sent && c->out_len == 0) {
        const char *body = "hello from the lab\n";
        if (c->varlen)
            body = "hello from the lab, a page of a varying size\n" + c->n % 17;
        c->out_len = (size_t)snprintf(c->out, sizeof c->out,
                                      "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\n"
                                      "Content-Length: %zu\r\nConnection: %s\r\n\r\n%s",
                                      c->status, reason(c->status), strlen(body),
                                      c->keep ? "keep-alive" : "close", c->body_ns ? "" : body);
        c->out_off = 0;
    }
    if (c->head_sent && c->out_len == 0) {
        if (now < c->body_ns)
            return 0;
        const char *body = "hello from the lab\n";
        c->out_len = strlen(body);
        memcpy(c->out, body, c->out_len);
        c->out_off = 0;
        c->body_ns = 0;
    }
    while (c->out_off < c->out_len) {
        ssize_t w = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
        if (w < 0)
            return errno == EAGAIN ? 0 : -1;
        c->out_off += (size_t)w;
    }
    c->out_len = 0;
    if (!c->head_sent && c->body_ns) {
        c->head_sent = 1;
        return 0;
    }
    c->busy = 0;
    return c->keep ? 0 : -1;
}

static int listen_any(void)
{
    int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int one = 1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(s, (struct sockaddr *)&a, sizeof a) || listen(s, 4096))
        return -1;
    socklen_t len = sizeof a;
    getsockname(s, (struct sockaddr *)&a, &len);
    printf("%d\n", ntohs(a.sin_port));
    fflush(stdout);
    return s;
}

static void accept_all(int ls)
{
    for (;;) {
        int fd = accept4(ls, NULL, NULL, SOCK_NONBLOCK);
        if (fd < 0)
            return;
        int i = 0;
        while (i < MAXC && conns[i])
            i++;
        if (i == MAXC) {
            close(fd);
            continue;
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        conns[i] = calloc(1, sizeof(conn));
        conns[i]->fd = fd;
    }
}

/* Reads what conns[i] has; returns -1 on EOF or error. */
static int read_conn(int i, int64_t now)
{
    conn *c = conns[i];
    for (;;) {
        if (c->in_len >= INBUF - 1)
            return -1;
        ssize_t r = recv(c->fd, c->in + c->in_len, INBUF - 1 - c->in_len, 0);
        if (r == 0)
            return -1;
        if (r < 0)
            break;
        c->in_len += (size_t)r;
    }
    if (errno != EAGAIN)
        return -1;
    if (!c->busy)
        take_request(c, now);
    return 0;
}

static int next_timeout_ms(int64_t now)
{
    int64_t next = now + 100000000;
    for (int w = 0; w < workers && queued > 0; w++)
        if (worker_free_ns[w] < next)
            next = worker_free_ns[w];
    for (int i = 0; i < MAXC; i++) {
        conn *c = conns[i];
        if (!c || !c->busy || c->hang || c->qseq)
            continue;
        int64_t d = c->head_sent ? c->body_ns : c->due_ns;
        if (d < next)
            next = d;
    }
    return next <= now ? 0 : (int)((next - now + 999999) / 1000000);
}

int main(int argc, char **argv)
{
    int life = 300;
    if (argc == 3 && !strcmp(argv[1], "-t"))
        life = atoi(argv[2]);
    else if (argc != 1) {
        fprintf(stderr, "usage: labd [-t SECONDS]\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = {.sa_handler = on_term};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    int ls = listen_any();
    if (ls < 0) {
        perror("labd: listen");
        return 1;
    }
    int64_t until = now_ns() + (int64_t)life * 1000000000;
    while (!stop && now_ns() < until) {
        int map[MAXC], np = 1;
        pfd[0] = (struct pollfd){.fd = ls, .events = POLLIN};
        for (int i = 0; i < MAXC; i++)
            if (conns[i]) {
                pfd[np] = (struct pollfd){.fd = conns[i]->fd, .events = POLLIN};
                map[np++] = i;
            }
        poll(pfd, (nfds_t)np, next_timeout_ms(now_ns()));
        int64_t now = now_ns();
        if (pfd[0].revents & POLLIN)
            accept_all(ls);
        for (int k = 1; k < np; k++)
            if ((pfd[k].revents & (POLLIN | POLLHUP | POLLERR)) && read_conn(map[k], now) < 0)
                close_conn(map[k]);
        serve_queue(now);
        for (int i = 0; i < MAXC; i++) {
            if (!conns[i])
                continue;
            if (send_due(conns[i], now) < 0)
                close_conn(i);
            else if (!conns[i]->busy && conns[i]->in_len)
                take_request(conns[i], now);
        }
    }
    return 0;
}
