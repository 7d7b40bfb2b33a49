/* The load generator's connections: open (trying the host's other addresses), send the
 * request, read the response in bounded slices, record the outcome as a sample, and the
 * plain-socket side of the transport (TLS in tls.c). */
#include "gen/engine.h"
#include <errno.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/xalloc.h"

static void conn_io(pr_loop *l, pr_loop_io *io, unsigned ready, void *payload);
static int conn_open(pr_worker *w, pr_conn *c, int epi);

/* ---- connection bookkeeping ---- */

static int connecting_state(int st)
{
    return st == C_CONNECTING || st == C_HANDSHAKE;
}

void pr_conn_set_state(pr_worker *w, pr_conn *c, int st)
{
    w->connecting += connecting_state(st) - connecting_state(c->state);
    c->state = st;
}

int pr_conn_want(pr_worker *w, pr_conn *c, unsigned events)
{
    return pr_loop_modify(w->loop, &c->io, events);
}

static void idle_remove(pr_worker *w, pr_conn *c)
{
    if (c->state != C_IDLE)
        return;
    if (c->prev)
        c->prev->next = c->next;
    else
        w->idle[c->ep] = c->next;
    if (c->next)
        c->next->prev = c->prev;
    c->prev = c->next = NULL;
}

void pr_conn_close(pr_worker *w, pr_conn *c)
{
    if (c->ep < 0)
        return;
    idle_remove(w, c);
    pr_loop_unwatch(w->loop, &c->io);
    if (c->ssl) {
        SSL_free(c->ssl);
        c->ssl = NULL;
    }
    close(c->io.fd);
    c->io.fd = -1;
    c->ep = -1;
    pr_conn_set_state(w, c, C_NONE);
    w->open--;
}

void pr_conn_release(pr_worker *w, pr_conn *c)
{
    pr_conn_close(w, c);
    c->next = w->spare;
    w->spare = c;
}

pr_conn *pr_conn_new(pr_worker *w)
{
    pr_conn *c = w->spare;
    if (c) {
        w->spare = c->next;
        c->next = NULL;
        return c;
    }
    c = pr_xcalloc(1, sizeof *c);
    c->w = w;
    c->ep = -1;
    c->io.fd = -1;
    c->io.fn = conn_io;
    c->io.payload = c;
    w->all = pr_xgrow(w->all, &w->capall, w->nall + 1, sizeof *w->all);
    w->all[w->nall++] = c;
    return c;
}

/* ---- request timeouts: the worker's list in start order and one timer at its head ---- */

static void timeout_fire(pr_loop *l, pr_loop_timer *t, void *payload)
{
    pr_worker *w = payload;
    int64_t now = pr_loop_now_ns();
    while (w->thead && w->thead->deadline <= now)
        pr_conn_fail(w, w->thead, "timeout", 1); /* records it: off the list */
    if (w->thead)
        pr_loop_timer_set(l, t, w->thead->deadline);
}

/* c's request times out at `deadline`, after every request already on the list. The timer
 * stays where it is when the head leaves early: it fires, then moves to the new head. */
static void deadline_add(pr_worker *w, pr_conn *c, int64_t deadline)
{
    c->deadline = deadline;
    c->timed = 1;
    c->tnext = NULL;
    c->tprev = w->ttail;
    if (w->ttail)
        w->ttail->tnext = c;
    else
        w->thead = c;
    w->ttail = c;
    if (!w->timeout_timer.slot) {
        w->timeout_timer.fn = timeout_fire;
        w->timeout_timer.payload = w;
        pr_loop_timer_set(w->loop, &w->timeout_timer, deadline);
    }
}

static void deadline_remove(pr_worker *w, pr_conn *c)
{
    if (!c->timed)
        return;
    c->timed = 0;
    if (c->tprev)
        c->tprev->tnext = c->tnext;
    else
        w->thead = c->tnext;
    if (c->tnext)
        c->tnext->tprev = c->tprev;
    else
        w->ttail = c->tprev;
    c->tprev = c->tnext = NULL;
}

/* ---- outcomes ---- */

static const char *errno_text(int e)
{
    switch (e) {
    case ECONNREFUSED: return "connection refused";
    case ECONNRESET: return "connection reset";
    case EPIPE: return "connection reset";
    case ETIMEDOUT: return "timeout";
    case ENETUNREACH: return "network unreachable";
    case EHOSTUNREACH: return "host unreachable";
    case EADDRNOTAVAIL: return "no local address available";
    case EMFILE:
    case ENFILE: return "too many open files";
    default: return "socket error";
    }
}

long pr_conn_errno_fail(pr_conn *c, int e)
{
    c->why = errno_text(e);
    c->why_static = 1;
    c->why_errno = e;
    return PR_XFER_FAIL;
}

int64_t pr_conn_rx_time(const pr_conn *c, int64_t now)
{
    return c->rx_ns >= c->started && c->rx_ns <= now ? c->rx_ns : now;
}

/* Records the outcome of c's request, ended now, or for a response when it arrived. error:
 * NULL on a complete response. known_latency: 0 when the request was cut short (the latency
 * is not known). */
static void record(pr_worker *w, pr_conn *c, const char *error, int error_static, int known_latency)
{
    pr_engine *a = w->a;
    int64_t now = pr_loop_now_ns();
    int64_t end = error ? now : pr_conn_rx_time(c, now); /* a response: when it arrived */
    pr_sample *s = pr_worker_sample(w);
    const uint32_t *ts = &a->target_str[3 * c->ti];
    s->start_ns = c->intended + a->mono_to_real;
    s->latency_ns = known_latency ? end - c->intended : PR_UNKNOWN;
    s->connect_ns = c->connect_ns;
    s->ttfb_ns = c->first_byte ? c->first_byte - c->intended : PR_UNKNOWN;
    s->lateness_ns = a->o->model == PR_LOAD_OPEN ? c->started - c->intended : PR_UNKNOWN;
    s->bytes_in = c->bytes_in;
    s->bytes_out = c->bytes_out;
    s->method = ts[0];
    s->url = ts[1];
    s->label = ts[2];
    s->error = error ? pr_worker_error_id(w, error, error_static) : PR_NOSTR;
    s->thread = w->thread_str;
    s->attrs = PR_NOSTR;
    s->threads = a->o->model == PR_LOAD_CLOSED ? a->o->connections : -1;
    s->status = error ? 0 : (uint16_t)c->resp.status; /* 0: no complete response */
    s->success = PR_SUCCESS_UNKNOWN; /* the model's rule (pr_sample_ok): 200 <= status < 400 */
    s->success = !error && pr_sample_ok(s) ? PR_OK_SUCCESS : PR_FAIL;
    s->flags = 0;
    c->busy = 0;
    w->inflight--;
    deadline_remove(w, c);
    pr_worker_sample_done(w, now);
}

void pr_conn_fail(pr_worker *w, pr_conn *c, const char *error, int error_static)
{
    record(w, c, error, error_static, 1);
    pr_worker_request_done(w, c, 0);
}

void pr_conn_cut(pr_worker *w, pr_conn *c, const char *error)
{
    record(w, c, error, 1, 0);
    pr_conn_close(w, c);
}

/* ---- plain transport (same contract as pr_tls_send / pr_tls_recv) ---- */

static long conn_send(pr_worker *w, pr_conn *c, const void *p, size_t n)
{
    if (c->ssl)
        return pr_tls_send(w, c, p, n);
    for (;;) {
        ssize_t r = send(c->io.fd, p, n, MSG_NOSIGNAL);
        if (r >= 0)
            return r;
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            pr_conn_want(w, c, PR_LOOP_READ | PR_LOOP_WRITE); /* and see an early close */
            return PR_XFER_AGAIN;
        }
        return pr_conn_errno_fail(c, errno);
    }
}

ssize_t pr_recv_stamped(int fd, void *p, size_t n, int64_t *rt_off, int64_t *rx_ns)
{
    union {
        char b[CMSG_SPACE(sizeof(struct timespec))];
        struct cmsghdr align;
    } ctl;
    struct iovec iov = {.iov_base = p, .iov_len = n};
    struct msghdr m = {
        .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b, .msg_controllen = sizeof ctl.b};
    ssize_t r = recvmsg(fd, &m, 0);
    if (r <= 0)
        return r;
    *rx_ns = 0;
    for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h)) {
        if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_TIMESTAMPNS)
            continue;
        struct timespec at;
        memcpy(&at, CMSG_DATA(h), sizeof at);
        if (!*rt_off) {
            struct timespec rt;
            int64_t mono = pr_loop_now_ns();
            clock_gettime(CLOCK_REALTIME, &rt);
            *rt_off = (int64_t)rt.tv_sec * 1000000000 + rt.tv_nsec - mono;
        }
        *rx_ns = (int64_t)at.tv_sec * 1000000000 + at.tv_nsec - *rt_off;
    }
    return r;
}

static long conn_recv(pr_worker *w, pr_conn *c, void *p, size_t n)
{
    if (c->ssl)
        return pr_tls_recv(w, c, p, n);
    for (;;) {
        ssize_t r = pr_recv_stamped(c->io.fd, p, n, &w->rt_off, &c->rx_ns);
        if (r > 0)
            *(c->rx_ns ? &w->win_stamped : &w->win_unstamped) += 1;
        if (r >= 0)
            return r;
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return PR_XFER_AGAIN;
        return pr_conn_errno_fail(c, errno);
    }
}

/* ---- the exchange ---- */

/* Keep-alive race: the server closed an idle connection just as we sent. Retry once on a
 * fresh connection (the timing keeps counting from the original start). */
static void retry_fresh(pr_worker *w, pr_conn *c)
{
    int epi = c->ep;
    pr_conn_close(w, c);
    c->retried = 1;
    c->reused = 0;
    c->woff = 0;
    c->bytes_in = 0;
    pr_http_resp_init(&c->resp, c->resp.head);
    conn_open(w, c, epi);
}

static int may_retry(const pr_conn *c)
{
    return c->reused && !c->retried && c->bytes_in == 0;
}

void pr_conn_write(pr_worker *w, pr_conn *c)
{
    const pr_buf *req = &w->a->targets->v[c->ti].request;
    while (c->woff < req->len) {
        long n = conn_send(w, c, req->p + c->woff, req->len - c->woff);
        if (n == PR_XFER_AGAIN)
            return;
        if (n < 0) {
            if (may_retry(c) && c->requests > 0 &&
                (c->why_errno == EPIPE || c->why_errno == ECONNRESET))
                retry_fresh(w, c);
            else
                pr_conn_fail(w, c, c->why, c->why_static);
            return;
        }
        c->woff += (size_t)n;
        c->bytes_out += n;
    }
    c->requests++;
    pr_conn_set_state(w, c, C_READING);
    pr_conn_want(w, c, PR_LOOP_READ);
}

/* The peer closed while c was reading. */
static void read_eof(pr_worker *w, pr_conn *c)
{
    if (pr_http_resp_eof(&c->resp) == 0) {
        record(w, c, NULL, 0, 1);
        pr_worker_request_done(w, c, 0);
    } else if (may_retry(c)) {
        retry_fresh(w, c);
    } else {
        pr_conn_fail(w, c, c->resp.error, 1);
    }
}

/* Feeds n received bytes; 1 when the request ended (recorded), 0 to read on. */
static int read_feed(pr_worker *w, pr_conn *c, long n)
{
    if (c->bytes_in == 0)
        c->first_byte = pr_conn_rx_time(c, pr_loop_now_ns());
    c->bytes_in += n;
    long used = pr_http_resp_feed(&c->resp, w->rbuf, (size_t)n);
    if (used < 0) {
        pr_conn_fail(w, c, c->resp.error, 1);
        return 1;
    }
    if (pr_http_resp_done(&c->resp)) {
        /* Bytes beyond the response (none expected without pipelining): do not reuse. */
        int reusable = c->resp.keepalive && used == n;
        record(w, c, NULL, 0, 1);
        pr_worker_request_done(w, c, reusable);
        return 1;
    }
    int64_t max = w->a->o->max_body_bytes;
    if (max > 0 && c->resp.body_bytes > max) {
        pr_conn_fail(w, c, "body too large", 1);
        return 1;
    }
    return 0;
}

/* Reads at most PR_READ_SLICE bytes (the loop calls again while more is waiting, after the
 * other connections and the schedule had their turn). */
static void do_read(pr_worker *w, pr_conn *c)
{
    for (size_t got = 0; got < PR_READ_SLICE;) {
        long n = conn_recv(w, c, w->rbuf, PR_READ_BUF);
        if (n == PR_XFER_AGAIN)
            return;
        if (n < 0) {
            if (c->why_errno == ECONNRESET && may_retry(c))
                retry_fresh(w, c);
            else
                pr_conn_fail(w, c, c->why, c->why_static);
            return;
        }
        if (n == 0) {
            read_eof(w, c);
            return;
        }
        if (read_feed(w, c, n))
            return;
        if (n < PR_READ_BUF && !c->ssl)
            return; /* the socket is drained */
        got += (size_t)n;
    }
}

void pr_conn_connected(pr_worker *w, pr_conn *c)
{
    c->connect_ns = pr_loop_now_ns() - c->conn_start;
    if (w->a->eps[c->ep].tls) {
        pr_tls_start(w, c);
        return;
    }
    pr_conn_set_state(w, c, C_WRITING);
    pr_conn_write(w, c);
}

/* A connect failed with e. When the host name has more addresses (localhost: ::1 and
 * 127.0.0.1) and this one is unreachable, the worker moves to the next address and c
 * tries it; otherwise the request fails. */
static void connect_failed(pr_worker *w, pr_conn *c, int e)
{
    int epi = c->ep;
    pr_endpoint *ep = &w->a->eps[epi];
    int unreachable = e == ECONNREFUSED || e == ENETUNREACH || e == EHOSTUNREACH ||
                      e == EADDRNOTAVAIL || e == EAFNOSUPPORT;
    if (unreachable && c->addr_tries + 1 < ep->naddr) {
        c->addr_tries++;
        w->addr_idx[epi] = (w->addr_idx[epi] + 1) % ep->naddr;
        pr_conn_close(w, c);
        conn_open(w, c, epi);
        return;
    }
    pr_conn_fail(w, c, errno_text(e), 1);
}

/* Opens a socket to endpoint epi for c and starts connecting. 0, or -1 when the request
 * already failed (recorded). */
static int conn_open(pr_worker *w, pr_conn *c, int epi)
{
    pr_endpoint *ep = &w->a->eps[epi];
    int ai = w->addr_idx[epi];
    int fd = socket(ep->addr[ai].ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        pr_conn_fail(w, c, errno_text(errno), 1);
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    /* The kernel stamps what it receives: a response is timed when it arrived, not when this
     * thread came to read it (after the other ready connections, or a nap). */
    if (!ep->tls)
        setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one); /* else reads say none */
    c->io.fd = fd;
    c->ep = epi;
    c->requests = 0;
    w->open++;
    w->opened++;
    c->conn_start = pr_loop_now_ns();
    if (pr_loop_watch(w->loop, &c->io, PR_LOOP_WRITE) < 0) {
        pr_conn_fail(w, c, errno_text(errno), 1);
        return -1;
    }
    pr_conn_set_state(w, c, C_CONNECTING);
    if (connect(fd, (struct sockaddr *)&ep->addr[ai], ep->addrlen[ai]) == 0) {
        pr_conn_connected(w, c);
    } else if (errno != EINPROGRESS) {
        connect_failed(w, c, errno);
        return -1;
    }
    return 0;
}

void pr_conn_start(pr_worker *w, pr_conn *c, uint32_t ti, int64_t intended)
{
    pr_engine *a = w->a;
    int64_t now = pr_loop_now_ns();
    c->ti = ti;
    c->woff = 0;
    c->intended = intended ? intended : now;
    c->started = now;
    c->connect_ns = PR_UNKNOWN;
    c->first_byte = 0;
    c->rx_ns = 0;
    c->bytes_in = 0;
    c->bytes_out = 0;
    c->retried = 0;
    c->addr_tries = 0;
    c->busy = 1;
    w->inflight++;
    w->sent++;
    if (!w->first_send)
        w->first_send = now;
    w->last_send = now;
    const pr_target *t = &a->targets->v[ti];
    pr_http_resp_init(&c->resp, !strcmp(t->method, "HEAD"));
    if (a->o->timeout_ns > 0)
        deadline_add(w, c, now + a->o->timeout_ns);
    int epi = a->target_ep[ti];
    if (c->ep >= 0 && c->ep != epi)
        pr_conn_close(w, c);
    if (c->ep >= 0) {
        idle_remove(w, c);
        c->reused = 1;
        c->connect_ns = 0;
        pr_conn_set_state(w, c, C_WRITING);
        pr_conn_write(w, c);
        return;
    }
    c->reused = 0;
    conn_open(w, c, epi);
}

static void conn_io(pr_loop *l, pr_loop_io *io, unsigned ready, void *payload)
{
    pr_conn *c = payload;
    pr_worker *w = c->w;
    switch (c->state) {
    case C_CONNECTING: {
        int e = 0;
        socklen_t len = sizeof e;
        if (getsockopt(io->fd, SOL_SOCKET, SO_ERROR, &e, &len) < 0)
            e = errno;
        if (e)
            connect_failed(w, c, e);
        else
            pr_conn_connected(w, c);
        return;
    }
    case C_HANDSHAKE: pr_tls_handshake(w, c); return;
    case C_WRITING:
        if (ready & (PR_LOOP_WRITE | PR_LOOP_ERROR))
            pr_conn_write(w, c);
        else if (ready & PR_LOOP_READ)
            do_read(w, c); /* early response or close while sending */
        return;
    case C_READING: do_read(w, c); return;
    case C_IDLE:
        pr_conn_release(w, c); /* the server closed (or wrote to) an idle connection */
        return;
    default: return;
    }
}
