/* Live attack metrics: the counters and histograms, their OpenMetrics / Prometheus text, and
 * the HTTP listener that serves them from its own thread and event loop. */
#include "gen/metrics.h"
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>
#include "gen/loop.h"
#include "model/xalloc.h"

#define MAX_CONNS 64
/* A scraper has this long, from its connection, to send its request head, and as long again
 * to take the response; a connection that overstays is closed. At the cap, a new connection
 * closes the one that has waited longest for its head (a slow client never locks scrapes out). */
#define HEAD_TIMEOUT_NS 2000000000LL
#define WRITE_TIMEOUT_NS 2000000000LL
#define REQ_MAX 8192

/* Histogram bucket bounds in seconds: a log scale from 0.5 ms to a minute. */
static const double bucket_s[] = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                                  0.25,   0.5,   1,      2.5,   5,    10,    30,   60};
#define NBUCKETS (sizeof bucket_s / sizeof bucket_s[0])

typedef struct histo {
    uint64_t b[NBUCKETS + 1]; /* per bucket (not cumulative); the last is beyond 60 s */
    uint64_t count;
    double sum_s;
} histo;

typedef struct series {
    char *label;
    int nstatus;
    int status[PR_METRICS_MAX_STATUS + 1]; /* -1: "other" */
    uint64_t count[PR_METRICS_MAX_STATUS + 1];
} series;

typedef struct mconn {
    pr_loop_io io;
    pr_loop_timer deadline; /* the head's, then the response's */
    int64_t accepted_ns;
    struct pr_metrics *m;
    char req[REQ_MAX];
    size_t rlen;
    pr_buf out;
    size_t woff;
    struct mconn *prev, *next;
} mconn;

struct pr_metrics {
    pthread_mutex_t mu; /* guards everything below but the listener */
    series *labels;
    size_t nlabels, caplabels;
    const pr_run *run; /* the run whose label ids slot_of maps */
    int *slot_of;      /* run label id -> index in labels + 1 (0: not looked up) */
    size_t nslot;
    histo latency, lateness;
    uint64_t sent;
    int64_t in_flight;
    /* listener */
    int lfd, port, wake[2], nconns;
    int running; /* the listener thread's own flag */
    int started; /* the thread was started (for pr_metrics_free) */
    pthread_t th;
    pr_loop *loop;
    pr_loop_io lio, wio;
    mconn *conns;
};

pr_metrics *pr_metrics_new(void)
{
    pr_metrics *m = pr_xcalloc(1, sizeof *m);
    pthread_mutex_init(&m->mu, NULL);
    m->lfd = m->wake[0] = m->wake[1] = -1;
    return m;
}

/* ---- counting ---- */

static void histo_add(histo *h, int64_t ns)
{
    double s = (double)ns / 1e9;
    size_t i = 0;
    while (i < NBUCKETS && s > bucket_s[i])
        i++;
    h->b[i]++;
    h->count++;
    h->sum_s += s;
}

static size_t label_slot(pr_metrics *m, const pr_run *run, uint32_t id)
{
    if (run != m->run) {
        m->run = run;
        if (m->nslot)
            memset(m->slot_of, 0, m->nslot * sizeof *m->slot_of);
    }
    if (id >= m->nslot) {
        size_t n = (size_t)id + 64;
        m->slot_of = pr_xrealloc(m->slot_of, n * sizeof *m->slot_of);
        memset(m->slot_of + m->nslot, 0, (n - m->nslot) * sizeof *m->slot_of);
        m->nslot = n;
    }
    if (m->slot_of[id])
        return (size_t)m->slot_of[id] - 1;
    const char *text = pr_run_str(run, id);
    size_t i = 0;
    while (i < m->nlabels && strcmp(m->labels[i].label, text) &&
           !(i == PR_METRICS_MAX_LABELS && !strcmp(m->labels[i].label, "other")))
        i++;
    if (i == m->nlabels) {
        m->labels = pr_xgrow(m->labels, &m->caplabels, m->nlabels + 1, sizeof *m->labels);
        memset(&m->labels[i], 0, sizeof m->labels[i]);
        m->labels[i].label = pr_xstrdup(i < PR_METRICS_MAX_LABELS ? text : "other");
        m->nlabels++;
    }
    m->slot_of[id] = (int)i + 1;
    return i;
}

static void count_status(series *s, int status)
{
    int i = 0;
    while (i < s->nstatus && s->status[i] != status)
        i++;
    if (i == s->nstatus) {
        if (s->nstatus >= PR_METRICS_MAX_STATUS) {
            status = -1;
            for (i = 0; i < s->nstatus && s->status[i] != -1; i++)
                ;
        }
        if (i == s->nstatus) {
            s->status[i] = status;
            s->count[i] = 0;
            s->nstatus++;
        }
    }
    s->count[i]++;
}

void pr_metrics_observe(pr_metrics *m, const pr_run *run, const pr_sample *s, size_t n)
{
    pthread_mutex_lock(&m->mu);
    for (size_t i = 0; i < n; i++) {
        size_t slot = label_slot(m, run, s[i].label);
        count_status(&m->labels[slot], (int)s[i].status);
        if (s[i].latency_ns != PR_UNKNOWN)
            histo_add(&m->latency, s[i].latency_ns);
        if (s[i].lateness_ns != PR_UNKNOWN)
            histo_add(&m->lateness, s[i].lateness_ns > 0 ? s[i].lateness_ns : 0);
    }
    pthread_mutex_unlock(&m->mu);
}

void pr_metrics_progress(pr_metrics *m, uint64_t sent, int64_t in_flight)
{
    pthread_mutex_lock(&m->mu);
    m->sent = sent;
    m->in_flight = in_flight > 0 ? in_flight : 0;
    pthread_mutex_unlock(&m->mu);
}

/* ---- exposition text ---- */

static void label_value(pr_buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\' || *s == '"')
            pr_buf_putc(b, '\\');
        if (*s == '\n')
            pr_buf_puts(b, "\\n");
        else
            pr_buf_putc(b, *s);
    }
}

/* "# TYPE"/"# HELP" (and "# UNIT") lines; OpenMetrics names a counter family without its
 * "_total", the 0.0.4 format with it. */
static void family(pr_buf *b, int om, const char *name, const char *type, const char *unit,
                   const char *help)
{
    int counter = !strcmp(type, "counter");
    const char *suffix = counter && !om ? "_total" : "";
    pr_buf_printf(b, "# HELP %s%s %s\n# TYPE %s%s %s\n", name, suffix, help, name, suffix, type);
    if (om && unit)
        pr_buf_printf(b, "# UNIT %s %s\n", name, unit);
}

static void histogram(pr_buf *b, int om, const char *name, const char *help, const histo *h)
{
    family(b, om, name, "histogram", "seconds", help);
    uint64_t cum = 0;
    for (size_t i = 0; i < NBUCKETS; i++) {
        cum += h->b[i];
        pr_buf_printf(b, "%s_bucket{le=\"%g\"} %llu\n", name, bucket_s[i], (unsigned long long)cum);
    }
    pr_buf_printf(b, "%s_bucket{le=\"+Inf\"} %llu\n%s_sum %.9g\n%s_count %llu\n", name,
                  (unsigned long long)h->count, name, h->sum_s, name, (unsigned long long)h->count);
}

void pr_metrics_render(pr_metrics *m, int om, pr_buf *b)
{
    pthread_mutex_lock(&m->mu);
    family(b, om, "perfreport_requests", "counter", NULL,
           "Requests completed, by label and HTTP status (0: no response).");
    for (size_t i = 0; i < m->nlabels; i++) {
        const series *s = &m->labels[i];
        for (int k = 0; k < s->nstatus; k++) {
            pr_buf_puts(b, "perfreport_requests_total{label=\"");
            label_value(b, s->label);
            if (s->status[k] < 0)
                pr_buf_printf(b, "\",status=\"other\"} %llu\n", (unsigned long long)s->count[k]);
            else
                pr_buf_printf(b, "\",status=\"%d\"} %llu\n", s->status[k],
                              (unsigned long long)s->count[k]);
        }
    }
    family(b, om, "perfreport_requests_sent", "counter", NULL, "Requests sent.");
    pr_buf_printf(b, "perfreport_requests_sent_total %llu\n", (unsigned long long)m->sent);
    family(b, om, "perfreport_requests_in_flight", "gauge", NULL,
           "Requests sent and not completed (as of the workers' last hand-off, <= 100 ms ago).");
    pr_buf_printf(b, "perfreport_requests_in_flight %lld\n", (long long)m->in_flight);
    histogram(b, om, "perfreport_latency_seconds",
              "Latency to the last byte (open model: from the intended send time).", &m->latency);
    histogram(b, om, "perfreport_send_lateness_seconds",
              "Open model: actual minus intended send time.", &m->lateness);
    pthread_mutex_unlock(&m->mu);
    if (om)
        pr_buf_puts(b, "# EOF\n");
}

/* ---- the listener ---- */

static void conn_close(mconn *c)
{
    pr_metrics *m = c->m;
    pr_loop_timer_clear(m->loop, &c->deadline);
    pr_loop_unwatch(m->loop, &c->io);
    close(c->io.fd);
    if (c->prev)
        c->prev->next = c->next;
    else
        m->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    m->nconns--;
    pr_buf_dispose(&c->out);
    free(c);
}

/* The response to a complete request head. */
static void respond(mconn *c)
{
    pr_buf body = PR_BUF_INIT;
    int ok = !strncmp(c->req, "GET /metrics ", 13) || !strncmp(c->req, "GET /metrics?", 13);
    const char *type = "text/plain; charset=utf-8";
    if (ok) {
        int om = 0;
        for (const char *p = c->req; (p = strchr(p, '\n')) && !om; p++)
            om = !strncasecmp(p + 1, "accept:", 7) &&
                 strstr(p + 1, "application/openmetrics-text") != NULL;
        pr_metrics_render(c->m, om, &body);
        type = om ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
                  : "text/plain; version=0.0.4; charset=utf-8";
    } else {
        pr_buf_puts(&body, "perfreport attack: metrics are at /metrics\n");
    }
    pr_buf_printf(&c->out,
                  "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                  "Connection: close\r\n\r\n",
                  ok ? "200 OK" : "404 Not Found", type, body.len);
    pr_buf_append(&c->out, body.p ? body.p : "", body.len);
    pr_buf_dispose(&body);
}

static void conn_io(pr_loop *l, pr_loop_io *io, unsigned ready, void *payload)
{
    mconn *c = payload;
    if (!c->out.len && (ready & (PR_LOOP_READ | PR_LOOP_ERROR))) {
        ssize_t n = read(io->fd, c->req + c->rlen, sizeof c->req - 1 - c->rlen);
        if (n <= 0 && !(n < 0 && (errno == EAGAIN || errno == EINTR))) {
            conn_close(c);
            return;
        }
        c->rlen += n > 0 ? (size_t)n : 0;
        c->req[c->rlen] = 0;
        if (strstr(c->req, "\r\n\r\n") || strstr(c->req, "\n\n") || c->rlen == sizeof c->req - 1) {
            respond(c);
            pr_loop_modify(l, io, PR_LOOP_WRITE);
            pr_loop_timer_set(l, &c->deadline, pr_loop_now_ns() + WRITE_TIMEOUT_NS);
        }
        return;
    }
    if (c->out.len && (ready & (PR_LOOP_WRITE | PR_LOOP_ERROR))) {
        /* a scraper that hangs up is a closed connection, never a SIGPIPE in the process */
        ssize_t n = send(io->fd, c->out.p + c->woff, c->out.len - c->woff, MSG_NOSIGNAL);
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            return;
        c->woff += n > 0 ? (size_t)n : 0;
        if (n <= 0 || c->woff == c->out.len)
            conn_close(c);
    }
}

static void on_deadline(pr_loop *l, pr_loop_timer *t, void *payload)
{
    (void)l, (void)t;
    conn_close(payload);
}

/* The connection still reading its head that came first, or NULL. */
static mconn *oldest_reading(pr_metrics *m)
{
    mconn *o = NULL;
    for (mconn *c = m->conns; c; c = c->next)
        if (!c->out.len && (!o || c->accepted_ns < o->accepted_ns))
            o = c;
    return o;
}

static void on_accept(pr_loop *l, pr_loop_io *io, unsigned ready, void *payload)
{
    pr_metrics *m = payload;
    int fd;
    while ((fd = accept4(io->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
        mconn *old = m->nconns >= MAX_CONNS ? oldest_reading(m) : NULL;
        if (old)
            conn_close(old);
        if (m->nconns >= MAX_CONNS) {
            close(fd);
            continue;
        }
        mconn *c = pr_xcalloc(1, sizeof *c);
        c->m = m;
        c->io.fd = fd;
        c->io.fn = conn_io;
        c->io.payload = c;
        c->accepted_ns = pr_loop_now_ns();
        c->deadline.fn = on_deadline;
        c->deadline.payload = c;
        pr_loop_timer_set(l, &c->deadline, c->accepted_ns + HEAD_TIMEOUT_NS);
        if (pr_loop_watch(l, &c->io, PR_LOOP_READ) < 0) {
            pr_loop_timer_clear(l, &c->deadline);
            close(fd);
            free(c);
            continue;
        }
        c->next = m->conns;
        if (m->conns)
            m->conns->prev = c;
        m->conns = c;
        m->nconns++;
    }
}

static void on_wake(pr_loop *l, pr_loop_io *io, unsigned ready, void *payload)
{
    ((pr_metrics *)payload)->running = 0;
}

static void *serve(void *arg)
{
    pr_metrics *m = arg;
    while (m->running)
        if (pr_loop_run_once(m->loop, 1000000000) < 0)
            break;
    while (m->conns)
        conn_close(m->conns);
    return NULL;
}

/* Parses "HOST:PORT" / "[HOST]:PORT" into a socket address. */
static int parse_addr(const char *addr, struct sockaddr_storage *ss, socklen_t *len)
{
    char host[128];
    const char *colon = strrchr(addr, ':');
    if (!colon || colon == addr || (size_t)(colon - addr) >= sizeof host)
        return -1;
    const char *h = addr;
    size_t hl = (size_t)(colon - addr);
    if (addr[0] == '[' && colon[-1] == ']') {
        h++;
        hl -= 2;
    }
    memcpy(host, h, hl);
    host[hl] = 0;
    char *end;
    long port = strtol(colon + 1, &end, 10);
    if (*end || colon[1] == 0 || port < 0 || port > 65535)
        return -1;
    memset(ss, 0, sizeof *ss);
    struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
        *len = sizeof *v4;
    } else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)port);
        *len = sizeof *v6;
    } else {
        return -1;
    }
    return 0;
}

static int bound_port(int fd)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
        return 0;
    return ntohs(ss.ss_family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port
                                         : ((struct sockaddr_in6 *)&ss)->sin6_port);
}

int pr_metrics_listen(pr_metrics *m, const char *addr, pr_error *err)
{
    struct sockaddr_storage ss;
    socklen_t len;
    if (parse_addr(addr, &ss, &len) < 0)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            "--metrics-listen %s: expected HOST:PORT with a numeric address "
                            "(e.g. 127.0.0.1:9464)",
                            addr);
    int one = 1;
    m->lfd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (m->lfd < 0 || setsockopt(m->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
        bind(m->lfd, (struct sockaddr *)&ss, len) < 0 || listen(m->lfd, 64) < 0)
        return pr_error_set(err, PR_EIO, NULL, 0, 0, "--metrics-listen %s: %s", addr,
                            strerror(errno));
    m->port = bound_port(m->lfd);
    if (pipe2(m->wake, O_CLOEXEC | O_NONBLOCK) < 0 || !(m->loop = pr_loop_new()))
        return pr_error_set(err, PR_EIO, NULL, 0, 0, "metrics listener: %s", strerror(errno));
    m->lio = (pr_loop_io){m->lfd, 0, on_accept, m};
    m->wio = (pr_loop_io){m->wake[0], 0, on_wake, m};
    m->running = 1;
    if (pr_loop_watch(m->loop, &m->lio, PR_LOOP_READ) < 0 ||
        pr_loop_watch(m->loop, &m->wio, PR_LOOP_READ) < 0 ||
        pthread_create(&m->th, NULL, serve, m) != 0) {
        m->running = 0;
        return pr_error_set(err, PR_EIO, NULL, 0, 0, "metrics listener: cannot start");
    }
    m->started = 1;
    return 0;
}

int pr_metrics_port(const pr_metrics *m)
{
    return m->port;
}

void pr_metrics_free(pr_metrics *m)
{
    if (!m)
        return;
    if (m->started) {
        if (write(m->wake[1], "x", 1) < 0) {
            /* the pipe is empty and non-blocking: this cannot fail but is checked */
        }
        pthread_join(m->th, NULL);
    }
    pr_loop_free(m->loop);
    if (m->lfd >= 0)
        close(m->lfd);
    for (int i = 0; i < 2; i++)
        if (m->wake[i] >= 0)
            close(m->wake[i]);
    for (size_t i = 0; i < m->nlabels; i++)
        free(m->labels[i].label);
    free(m->labels);
    free(m->slot_of);
    pthread_mutex_destroy(&m->mu);
    free(m);
}
