/* The load generator engine: workers with their own event loops, connections and sample
 * batches; open (scheduled) and closed (fixed connections) models; hand-off to the sink. */
#include "gen/attack.h"
#include "model/version.h"
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "gen/hist.h"
#include "gen/http.h"
#include "gen/loop.h"
#include "gen/metrics.h"
#include "model/lex.h"
#include "model/strtab.h"
#include "model/xalloc.h"

#define READ_BUF 65536
#define HANDOFF_NS 100000000        /* hand a partial batch over after 100 ms */
#define STOP_GRACE_NS 1000000000    /* in-flight requests get 1 s after a stop */
#define POLL_NS 50000000            /* longest wait in one loop round */

/* ---- schedule arithmetic ---- */

void pr_sched_init(pr_sched *s, double rate_per_s, int64_t duration_ns, int64_t requests,
                   int shard, int nshards, int worker, int nworkers)
{
    s->period_ns = 1e9L / (long double)rate_per_s;
    s->offset = (int64_t)shard + (int64_t)nshards * worker;
    s->stride = (int64_t)nshards * nworkers;
    int64_t total = INT64_MAX;
    if (duration_ns > 0) {
        long double n = ceill((long double)duration_ns / s->period_ns);
        total = n >= 9e18L ? INT64_MAX : (int64_t)n;
    }
    if (requests > 0 && requests < total)
        total = requests;
    s->total = total;
}

int64_t pr_sched_count(const pr_sched *s)
{
    if (s->total <= s->offset)
        return 0;
    return (s->total - s->offset - 1) / s->stride + 1;
}

static int parse_number(const char *s, size_t n, double *out)
{
    return n > 0 && pr_lex_double(s, n, out) == 0 && *out > 0 && isfinite(*out) ? 0 : -1;
}

int pr_attack_parse_rate(const char *s, double *lo, double *hi, double *step, pr_error *err)
{
    const char *slash = strchr(s, '/');
    size_t numlen = slash ? (size_t)(slash - s) : strlen(s);
    double per_ns = 1e9;
    if (slash) {
        const char *u = slash + 1;
        char tmp[64];
        if (*u && !isdigit((unsigned char)*u) && *u != '.') {
            snprintf(tmp, sizeof tmp, "1%s", u); /* "/s" means "/1s" */
            u = tmp;
        }
        int64_t ns;
        if (pr_lex_duration(u, strlen(u), 0, &ns) < 0 || ns <= 0)
            return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                                "--rate %s: expected a time unit after '/' (s, m, 500ms...)", s);
        per_ns = (double)ns;
    }
    double v[3];
    int nv = 0;
    const char *p = s, *end = s + numlen;
    while (p <= end && nv < 3) {
        const char *c = memchr(p, ':', (size_t)(end - p));
        const char *e = c ? c : end;
        if (parse_number(p, (size_t)(e - p), &v[nv]) < 0)
            return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                                "--rate %s: expected a positive number of requests", s);
        nv++;
        p = e + 1;
        if (!c)
            break;
    }
    if (p <= end || (nv != 1 && nv != 3))
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            "--rate %s: expected N/UNIT or LO:HI:STEP/UNIT", s);
    double scale = 1e9 / per_ns;
    *lo = v[0] * scale;
    *hi = nv == 3 ? v[1] * scale : *lo;
    *step = nv == 3 ? v[2] * scale : 0;
    if (*hi < *lo)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            "--rate %s: the last rate is below the first", s);
    return 0;
}

int64_t pr_attack_steps(double lo, double hi, double step)
{
    if (!(step > 0))
        return 1;
    return (int64_t)floor((hi - lo) / step * (1 + 1e-9)) + 1;
}

int64_t pr_attack_share(int64_t total, int i, int n)
{
    return total / n + (i < total % n ? 1 : 0);
}

/* ---- shared attack state ---- */

#define EP_ADDRS 4 /* addresses kept per host name (tried in turn when one refuses) */

typedef struct endpoint {
    struct sockaddr_storage addr[EP_ADDRS];
    socklen_t addrlen[EP_ADDRS];
    int naddr;
    int tls;
    int ip_literal;
    char *host;
    int port;
} endpoint;

typedef struct batch {
    struct batch *next;
    int worker;
    uint64_t sent;   /* the worker's requests started so far */
    size_t n;
    pr_sample s[PR_ATTACK_BATCH];
} batch;

typedef struct worker worker;

typedef struct attack {
    const pr_attack_opts *o;
    const pr_targets *targets;
    int nworkers;
    endpoint *eps;
    size_t neps;
    int *target_ep;            /* endpoint of each target */
    uint32_t *target_str;      /* per target: method, url, label ids (gen strings) */
    SSL_CTX *ssl;
    int64_t t0_mono, mono_to_real;
    pr_strtab *strings;        /* generator strings (ids used in worker samples) */
    pthread_mutex_t mu;        /* guards strings, the queue, the free list, finished */
    pthread_cond_t cv;
    batch *head, *tail, *spare;
    int finished;              /* workers done */
    atomic_int halt;           /* stop early: the sink failed or a worker did not start */
    worker *w;
} attack;

enum { C_NONE, C_CONNECTING, C_HANDSHAKE, C_WRITING, C_READING, C_IDLE };

typedef struct conn {
    pr_loop_io io;
    pr_loop_timer timer;
    worker *w;
    SSL *ssl;
    int ep;             /* endpoint of the socket, -1 when none */
    int state;
    int busy;           /* a request is in progress */
    int queued;         /* on the worker's run queue (closed model) */
    int reused;         /* the current request went on an already used connection */
    int addr_tries;     /* other addresses of the host tried for this request */
    int retried;
    uint32_t requests;  /* requests sent on this socket */
    struct conn *prev, *next; /* idle list, spare list or run queue */
    /* the request in progress */
    uint32_t ti;
    size_t woff;
    int64_t intended, started, conn_start, connect_ns, first_byte;
    int64_t bytes_in, bytes_out;
    pr_http_resp resp;
} conn;

struct worker {
    attack *a;
    int id;
    pthread_t th;
    pr_loop *loop;
    conn **all;
    size_t nall, capall;
    conn *spare;         /* conns without a socket */
    conn **idle;         /* per endpoint: idle keep-alive conns */
    int *addr_idx;       /* per endpoint: the address connections go to */
    conn *runq;          /* closed model: conns waiting to send their next request */
    int open;            /* conns with a socket */
    int connecting;      /* conns in TCP connect or TLS handshake */
    int max_open;
    int inflight;
    int stopping;
    int nested;          /* inside an immediate closed-model send */
    int64_t stop_deadline;
    /* open model */
    pr_sched sched;
    int64_t k, kcount;
    pr_loop_timer sched_timer;
    /* closed model */
    int nconns;          /* connections of this worker */
    int64_t quota;       /* requests left, -1 = unlimited */
    int64_t end_mono;    /* INT64_MAX = no duration */
    uint64_t next_target;
    /* samples */
    batch *b;
    int64_t last_handoff;
    uint64_t sent, abandoned, opened;
    int64_t first_send, last_send;
    uint32_t thread_str;
    const char *err_text[16];
    uint32_t err_id[16];
    unsigned nerr;
    char rbuf[READ_BUF];
};

/* ---- strings ---- */

static uint32_t intern_locked(attack *a, const char *s)
{
    pthread_mutex_lock(&a->mu);
    uint32_t id = pr_strtab_intern_cstr(a->strings, s);
    pthread_mutex_unlock(&a->mu);
    return id;
}

/* Error text id; static texts are cached per worker by pointer. */
static uint32_t error_id(worker *w, const char *text, int is_static)
{
    if (is_static)
        for (unsigned i = 0; i < w->nerr; i++)
            if (w->err_text[i] == text)
                return w->err_id[i];
    uint32_t id = intern_locked(w->a, text);
    if (is_static && w->nerr < 16) {
        w->err_text[w->nerr] = text;
        w->err_id[w->nerr++] = id;
    }
    return id;
}

/* ---- hand-off ---- */

static batch *batch_get(attack *a)
{
    pthread_mutex_lock(&a->mu);
    batch *b = a->spare;
    if (b)
        a->spare = b->next;
    pthread_mutex_unlock(&a->mu);
    if (!b)
        b = pr_xmalloc(sizeof *b);
    b->next = NULL;
    b->n = 0;
    return b;
}

static void handoff(worker *w, int64_t now)
{
    attack *a = w->a;
    batch *b = w->b;
    w->last_handoff = now;
    if (b->n == 0)
        return;
    b->worker = w->id;
    b->sent = w->sent;
    pthread_mutex_lock(&a->mu);
    if (a->tail)
        a->tail->next = b;
    else
        a->head = b;
    a->tail = b;
    pthread_cond_signal(&a->cv);
    pthread_mutex_unlock(&a->mu);
    w->b = batch_get(a);
}

/* ---- connections ---- */

static void conn_io(pr_loop *l, pr_loop_io *io, unsigned ready, void *payload);
static void conn_timeout(pr_loop *l, pr_loop_timer *t, void *payload);

static int connecting_state(int st)
{
    return st == C_CONNECTING || st == C_HANDSHAKE;
}

/* Changes c's state, counting the worker's connections still being set up. */
static void set_state(worker *w, conn *c, int st)
{
    w->connecting += connecting_state(st) - connecting_state(c->state);
    c->state = st;
}

static void idle_remove(worker *w, conn *c)
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

static void conn_close(worker *w, conn *c)
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
    set_state(w, c, C_NONE);
    w->open--;
}

static void conn_release(worker *w, conn *c)
{
    conn_close(w, c);
    c->next = w->spare;
    w->spare = c;
}

static conn *conn_new(worker *w)
{
    conn *c = w->spare;
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
    c->timer.fn = conn_timeout;
    c->timer.payload = c;
    w->all = pr_xgrow(w->all, &w->capall, w->nall + 1, sizeof *w->all);
    w->all[w->nall++] = c;
    return c;
}

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
    case EMFILE: case ENFILE: return "too many open files";
    default: return "socket error";
    }
}

/* Records the outcome of c's request. error: NULL on a complete response. */
static void record(worker *w, conn *c, const char *error, int error_static)
{
    attack *a = w->a;
    int64_t now = pr_loop_now_ns();
    pr_sample *s = &w->b->s[w->b->n++];
    const uint32_t *ts = &a->target_str[3 * c->ti];
    s->start_ns = c->intended + a->mono_to_real;
    s->latency_ns = now - c->intended;
    s->connect_ns = c->connect_ns;
    s->ttfb_ns = c->first_byte ? c->first_byte - c->intended : PR_UNKNOWN;
    s->lateness_ns = a->o->model == PR_LOAD_OPEN ? c->started - c->intended : PR_UNKNOWN;
    s->bytes_in = c->bytes_in;
    s->bytes_out = c->bytes_out;
    s->method = ts[0];
    s->url = ts[1];
    s->label = ts[2];
    s->error = error ? error_id(w, error, error_static) : PR_NOSTR;
    s->thread = w->thread_str;
    s->attrs = PR_NOSTR;
    s->threads = a->o->model == PR_LOAD_CLOSED ? a->o->connections : -1;
    s->status = error ? 0 : (uint16_t)c->resp.status; /* 0: no complete response */
    s->success = PR_SUCCESS_UNKNOWN; /* the model's rule (pr_sample_ok): 200 <= status < 400 */
    s->success = !error && pr_sample_ok(s) ? PR_OK_SUCCESS : PR_FAIL;
    s->flags = 0;
    c->busy = 0;
    w->inflight--;
    pr_loop_timer_clear(w->loop, &c->timer);
    if (w->b->n == PR_ATTACK_BATCH)
        handoff(w, now);
}

/* After a request ends: reuse, park or close the connection and let the model continue. */
static void closed_send_next(worker *w, conn *c);

static void after_request(worker *w, conn *c, int reusable)
{
    if (!reusable || !w->a->o->keepalive)
        conn_close(w, c);
    if (w->a->o->model == PR_LOAD_CLOSED) {
        if (!w->nested && !c->queued) {
            /* Send the next request at once (as a closed-loop client does); a failure inside
             * it queues the connection instead of recursing. */
            w->nested = 1;
            closed_send_next(w, c);
            w->nested = 0;
            return;
        }
        if (!c->queued) {
            c->queued = 1;
            c->prev = NULL;
            c->next = w->runq;
            w->runq = c;
        }
        return;
    }
    if (c->ep < 0) {
        conn_release(w, c);
        return;
    }
    set_state(w, c, C_IDLE);
    c->prev = NULL;
    c->next = w->idle[c->ep];
    if (c->next)
        c->next->prev = c;
    w->idle[c->ep] = c;
}

static void fail_request(worker *w, conn *c, const char *error, int error_static)
{
    record(w, c, error, error_static);
    after_request(w, c, 0);
}

static void tls_fail(worker *w, conn *c, const char *what)
{
    char buf[300];
    long vr = c->ssl ? SSL_get_verify_result(c->ssl) : X509_V_OK;
    unsigned long e = ERR_peek_last_error();
    if (vr != X509_V_OK)
        snprintf(buf, sizeof buf, "tls: %s", X509_verify_cert_error_string(vr));
    else if (e)
        snprintf(buf, sizeof buf, "tls: %s", ERR_reason_error_string(e) ? ERR_reason_error_string(e)
                                                                         : what);
    else
        snprintf(buf, sizeof buf, "tls: %s", what);
    ERR_clear_error();
    fail_request(w, c, buf, 0);
}

static int want(worker *w, conn *c, unsigned events)
{
    return pr_loop_modify(w->loop, &c->io, events);
}

static void do_write(worker *w, conn *c);
static void do_read(worker *w, conn *c);

static void start_tls(worker *w, conn *c)
{
    attack *a = w->a;
    endpoint *ep = &a->eps[c->ep];
    c->ssl = SSL_new(a->ssl);
    if (!c->ssl || !SSL_set_fd(c->ssl, c->io.fd)) {
        tls_fail(w, c, "cannot create session");
        return;
    }
    if (!ep->ip_literal)
        SSL_set_tlsext_host_name(c->ssl, ep->host);
    if (!a->o->insecure) {
        X509_VERIFY_PARAM *vp = SSL_get0_param(c->ssl);
        if (ep->ip_literal)
            X509_VERIFY_PARAM_set1_ip_asc(vp, ep->host);
        else
            X509_VERIFY_PARAM_set1_host(vp, ep->host, 0);
    }
    SSL_set_connect_state(c->ssl);
    set_state(w, c, C_HANDSHAKE);
}

static void do_handshake(worker *w, conn *c)
{
    ERR_clear_error();
    int r = SSL_do_handshake(c->ssl);
    if (r == 1) {
        c->connect_ns = pr_loop_now_ns() - c->conn_start;
        set_state(w, c, C_WRITING);
        do_write(w, c);
        return;
    }
    int e = SSL_get_error(c->ssl, r);
    if (e == SSL_ERROR_WANT_READ)
        want(w, c, PR_LOOP_READ);
    else if (e == SSL_ERROR_WANT_WRITE)
        want(w, c, PR_LOOP_READ | PR_LOOP_WRITE);
    else if (e == SSL_ERROR_SYSCALL && errno && !ERR_peek_error())
        fail_request(w, c, errno_text(errno), 1);
    else
        tls_fail(w, c, "handshake failed");
}

static int conn_open(worker *w, conn *c, int epi);

/* A connect failed with e. When the host name has more addresses (localhost: ::1 and
 * 127.0.0.1) and this one is unreachable, the worker moves to the next address and c
 * tries it; otherwise the request fails. */
static void connect_failed(worker *w, conn *c, int e)
{
    int epi = c->ep;
    endpoint *ep = &w->a->eps[epi];
    int unreachable = e == ECONNREFUSED || e == ENETUNREACH || e == EHOSTUNREACH ||
                      e == EADDRNOTAVAIL || e == EAFNOSUPPORT;
    if (unreachable && c->addr_tries + 1 < ep->naddr) {
        c->addr_tries++;
        w->addr_idx[epi] = (w->addr_idx[epi] + 1) % ep->naddr;
        conn_close(w, c);
        conn_open(w, c, epi);
        return;
    }
    fail_request(w, c, errno_text(e), 1);
}

/* Opens a socket to endpoint ep for c and starts connecting. 0, or -1 when the request
 * already failed (recorded). */
static int conn_open(worker *w, conn *c, int epi)
{
    endpoint *ep = &w->a->eps[epi];
    int ai = w->addr_idx[epi];
    int fd = socket(ep->addr[ai].ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        fail_request(w, c, errno_text(errno), 1);
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    c->io.fd = fd;
    c->ep = epi;
    c->requests = 0;
    w->open++;
    w->opened++;
    c->conn_start = pr_loop_now_ns();
    if (pr_loop_watch(w->loop, &c->io, PR_LOOP_WRITE) < 0) {
        fail_request(w, c, errno_text(errno), 1);
        return -1;
    }
    set_state(w, c, C_CONNECTING);
    if (connect(fd, (struct sockaddr *)&ep->addr[ai], ep->addrlen[ai]) == 0) {
        c->connect_ns = pr_loop_now_ns() - c->conn_start;
        if (ep->tls) {
            start_tls(w, c);
            if (c->busy)
                do_handshake(w, c);
        } else {
            set_state(w, c, C_WRITING);
            do_write(w, c);
        }
    } else if (errno != EINPROGRESS) {
        connect_failed(w, c, errno);
        return -1;
    }
    return 0;
}

/* Starts request ti on c (c may hold an idle socket to the right endpoint, or none). */
static void start_request(worker *w, conn *c, uint32_t ti, int64_t intended)
{
    attack *a = w->a;
    int64_t now = pr_loop_now_ns();
    c->ti = ti;
    c->woff = 0;
    c->intended = intended ? intended : now;
    c->started = now;
    c->connect_ns = PR_UNKNOWN;
    c->first_byte = 0;
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
        pr_loop_timer_set(w->loop, &c->timer, now + a->o->timeout_ns);
    int epi = a->target_ep[ti];
    if (c->ep >= 0 && c->ep != epi)
        conn_close(w, c);
    if (c->ep >= 0) {
        idle_remove(w, c);
        c->reused = 1;
        c->connect_ns = 0;
        set_state(w, c, C_WRITING);
        do_write(w, c);
        return;
    }
    c->reused = 0;
    conn_open(w, c, epi);
}

/* Keep-alive race: the server closed an idle connection just as we sent. Retry once on a
 * fresh connection (the timing keeps counting from the original start). */
static void retry_fresh(worker *w, conn *c)
{
    int epi = c->ep;
    conn_close(w, c);
    c->retried = 1;
    c->reused = 0;
    c->woff = 0;
    c->bytes_in = 0;
    pr_http_resp_init(&c->resp, c->resp.head);
    conn_open(w, c, epi);
}

static void do_write(worker *w, conn *c)
{
    const pr_buf *req = &w->a->targets->v[c->ti].request;
    while (c->woff < req->len) {
        long n;
        if (c->ssl) {
            ERR_clear_error();
            int r = SSL_write(c->ssl, req->p + c->woff, (int)(req->len - c->woff));
            if (r <= 0) {
                int e = SSL_get_error(c->ssl, r);
                if (e == SSL_ERROR_WANT_WRITE) {
                    want(w, c, PR_LOOP_READ | PR_LOOP_WRITE);
                    return;
                }
                if (e == SSL_ERROR_WANT_READ) {
                    want(w, c, PR_LOOP_READ);
                    return;
                }
                if (e == SSL_ERROR_SYSCALL && !ERR_peek_error()) {
                    fail_request(w, c, errno_text(errno ? errno : ECONNRESET), 1);
                    return;
                }
                tls_fail(w, c, "write failed");
                return;
            }
            n = r;
        } else {
            n = send(c->io.fd, req->p + c->woff, req->len - c->woff, MSG_NOSIGNAL);
            if (n < 0) {
                if (errno == EAGAIN || errno == EWOULDBLOCK) {
                    want(w, c, PR_LOOP_READ | PR_LOOP_WRITE);
                    return;
                }
                if (errno == EINTR)
                    continue;
                if (c->reused && !c->retried && c->requests > 0 &&
                    (errno == EPIPE || errno == ECONNRESET)) {
                    retry_fresh(w, c);
                    return;
                }
                fail_request(w, c, errno_text(errno), 1);
                return;
            }
        }
        c->woff += (size_t)n;
        c->bytes_out += n;
    }
    c->requests++;
    set_state(w, c, C_READING);
    want(w, c, PR_LOOP_READ);
}

/* Reads what is available: 0 done/waiting, handles completion and errors. */
static void do_read(worker *w, conn *c)
{
    for (;;) {
        long n;
        if (c->ssl) {
            ERR_clear_error();
            int r = SSL_read(c->ssl, w->rbuf, READ_BUF);
            if (r <= 0) {
                int e = SSL_get_error(c->ssl, r);
                if (e == SSL_ERROR_WANT_READ)
                    return;
                if (e == SSL_ERROR_WANT_WRITE) {
                    want(w, c, PR_LOOP_READ | PR_LOOP_WRITE);
                    return;
                }
                if (e == SSL_ERROR_ZERO_RETURN ||
                    (e == SSL_ERROR_SYSCALL && !ERR_peek_error() && errno == 0)) {
                    n = 0;
                } else if (e == SSL_ERROR_SYSCALL && !ERR_peek_error()) {
                    fail_request(w, c, errno_text(errno), 1);
                    return;
                } else {
                    tls_fail(w, c, "read failed");
                    return;
                }
            } else {
                n = r;
            }
        } else {
            n = recv(c->io.fd, w->rbuf, READ_BUF, 0);
            if (n < 0) {
                if (errno == EAGAIN || errno == EWOULDBLOCK)
                    return;
                if (errno == EINTR)
                    continue;
                if (errno == ECONNRESET && c->reused && !c->retried && c->bytes_in == 0) {
                    retry_fresh(w, c);
                    return;
                }
                fail_request(w, c, errno_text(errno), 1);
                return;
            }
        }
        if (n == 0) {
            if (pr_http_resp_eof(&c->resp) == 0) {
                record(w, c, NULL, 0);
                after_request(w, c, 0);
                return;
            }
            if (c->bytes_in == 0 && c->reused && !c->retried) {
                retry_fresh(w, c);
                return;
            }
            fail_request(w, c, c->resp.error, 1);
            return;
        }
        if (c->bytes_in == 0)
            c->first_byte = pr_loop_now_ns();
        c->bytes_in += n;
        long used = pr_http_resp_feed(&c->resp, w->rbuf, (size_t)n);
        if (used < 0) {
            fail_request(w, c, c->resp.error, 1);
            return;
        }
        if (pr_http_resp_done(&c->resp)) {
            /* Bytes beyond the response (none expected without pipelining): do not reuse. */
            int reusable = c->resp.keepalive && used == n;
            record(w, c, NULL, 0);
            after_request(w, c, reusable);
            return;
        }
        if (n < READ_BUF && !c->ssl)
            return;
    }
}

static void conn_io(pr_loop *l, pr_loop_io *io, unsigned ready, void *payload)
{
    conn *c = payload;
    worker *w = c->w;
    switch (c->state) {
    case C_CONNECTING: {
        int e = 0;
        socklen_t len = sizeof e;
        if (getsockopt(io->fd, SOL_SOCKET, SO_ERROR, &e, &len) < 0)
            e = errno;
        if (e) {
            connect_failed(w, c, e);
            return;
        }
        c->connect_ns = pr_loop_now_ns() - c->conn_start;
        if (w->a->eps[c->ep].tls) {
            start_tls(w, c);
            if (c->busy)
                do_handshake(w, c);
        } else {
            set_state(w, c, C_WRITING);
            do_write(w, c);
        }
        return;
    }
    case C_HANDSHAKE:
        do_handshake(w, c);
        return;
    case C_WRITING:
        if (ready & (PR_LOOP_WRITE | PR_LOOP_ERROR))
            do_write(w, c);
        else if (ready & PR_LOOP_READ)
            do_read(w, c); /* early response or close while sending */
        return;
    case C_READING:
        do_read(w, c);
        return;
    case C_IDLE: {
        /* The server closed (or wrote to) an idle connection: drop it. */
        conn_release(w, c);
        return;
    }
    default:
        return;
    }
}

static void conn_timeout(pr_loop *l, pr_loop_timer *t, void *payload)
{
    conn *c = payload;
    if (c->busy)
        fail_request(c->w, c, "timeout", 1);
}

/* ---- the models ---- */

static void sched_wake(pr_loop *l, pr_loop_timer *t, void *payload)
{
    (void)l, (void)t, (void)payload; /* the worker loop issues after every round */
}

/* Open model: sends every request whose intended time has come, as connections allow. */
static void open_issue(worker *w)
{
    attack *a = w->a;
    int64_t now = pr_loop_now_ns();
    size_t nt = a->targets->n;
    while (!w->stopping && w->k < w->kcount) {
        int64_t when = a->t0_mono + pr_sched_time_ns(&w->sched, w->k);
        if (when > now) {
            pr_loop_timer_set(w->loop, &w->sched_timer, when);
            return;
        }
        uint32_t ti = (uint32_t)((uint64_t)pr_sched_global(&w->sched, w->k) % nt);
        int epi = a->target_ep[ti];
        conn *c = w->idle[epi];
        if (!c) {
            if (w->connecting >= PR_ATTACK_MAX_CONNECTING) {
                /* A connection storm does not help an overloaded server: wait for the
                 * connections being set up (the wait shows as lateness). */
                return;
            }
            if (w->open >= w->max_open) {
                /* At the cap: take an idle connection to another endpoint, else wait for
                 * one to free up (the request is late, and its latency says so). */
                for (size_t e = 0; e < a->neps && !c; e++)
                    c = w->idle[e];
                if (!c)
                    return;
            } else {
                c = conn_new(w);
            }
        }
        w->k++;
        start_request(w, c, ti, when); /* a failure at once returns c to the spare list */
        now = pr_loop_now_ns();
    }
}

static int closed_can_issue(worker *w, int64_t now)
{
    return !w->stopping && w->quota != 0 && now < w->end_mono;
}

/* Closed model: c sends its next request, or closes when the run is over. */
static void closed_send_next(worker *w, conn *c)
{
    if (!closed_can_issue(w, pr_loop_now_ns())) {
        conn_close(w, c);
        return;
    }
    if (w->quota > 0)
        w->quota--;
    uint32_t ti = (uint32_t)(w->next_target++ % w->a->targets->n);
    start_request(w, c, ti, 0);
}

/* Closed model: every connection on the run queue sends its next request. */
static void closed_issue(worker *w)
{
    conn *q = w->runq;
    w->runq = NULL;
    w->nested = 1;
    while (q) {
        conn *c = q;
        q = c->next;
        c->next = NULL;
        c->queued = 0;
        closed_send_next(w, c);
    }
    w->nested = 0;
}

static void abandon_all(worker *w)
{
    for (size_t i = 0; i < w->nall; i++) {
        conn *c = w->all[i];
        if (c->busy) {
            c->busy = 0;
            w->inflight--;
            w->abandoned++;
            pr_loop_timer_clear(w->loop, &c->timer);
        }
        conn_close(w, c);
    }
}

/* The user asked to stop (SIGINT), or the output failed. */
static int stop_requested(attack *a)
{
    return (a->o->stop && atomic_load_explicit(a->o->stop, memory_order_relaxed)) ||
           atomic_load_explicit(&a->halt, memory_order_relaxed);
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    attack *a = w->a;
    const pr_attack_opts *o = a->o;
    w->b = batch_get(a);
    w->last_handoff = pr_loop_now_ns();
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL); /* wake at the intended send times */
    if (o->model == PR_LOAD_CLOSED) {
        for (int i = 0; i < w->nconns; i++) {
            conn *c = conn_new(w);
            c->queued = 1;
            c->next = w->runq;
            w->runq = c;
        }
        /* wait for the common start */
        for (int64_t now; (now = pr_loop_now_ns()) < a->t0_mono &&
                          !stop_requested(a);)
            pr_loop_run_once(w->loop, a->t0_mono - now < POLL_NS ? a->t0_mono - now : POLL_NS);
    }
    for (;;) {
        int64_t now = pr_loop_now_ns();
        if (!w->stopping && stop_requested(a)) {
            w->stopping = 1;
            w->stop_deadline = now + STOP_GRACE_NS;
            pr_loop_timer_clear(w->loop, &w->sched_timer);
        }
        if (o->model == PR_LOAD_OPEN)
            open_issue(w);
        else
            closed_issue(w);
        int issuing = o->model == PR_LOAD_OPEN ? (!w->stopping && w->k < w->kcount)
                                                : w->runq != NULL;
        if (!issuing && w->inflight == 0)
            break;
        if (w->stopping && now >= w->stop_deadline) {
            abandon_all(w);
            break;
        }
        if (now - w->last_handoff >= HANDOFF_NS)
            handoff(w, now);
        int64_t wait = POLL_NS;
        if (now - w->last_handoff + wait > HANDOFF_NS)
            wait = HANDOFF_NS - (now - w->last_handoff);
        if (wait < 0)
            wait = 0;
        if (pr_loop_run_once(w->loop, wait) < 0) {
            abandon_all(w);
            break;
        }
    }
    abandon_all(w);
    handoff(w, pr_loop_now_ns());
    pthread_mutex_lock(&a->mu);
    a->finished++;
    if (w->b) {
        w->b->next = a->spare;
        a->spare = w->b;
        w->b = NULL;
    }
    pthread_cond_signal(&a->cv);
    pthread_mutex_unlock(&a->mu);
    return NULL;
}

/* ---- options, metadata ---- */

void pr_attack_opts_init(pr_attack_opts *o)
{
    memset(o, 0, sizeof *o);
    o->model = PR_LOAD_CLOSED;
    o->connections = 1;
    o->timeout_ns = 30 * (int64_t)1000000000;
    o->keepalive = 1;
    o->nshards = 1;
    o->tool_version = PR_VERSION;
}

int pr_attack_validate(const pr_attack_opts *o, pr_error *err)
{
    if (!o->targets || o->targets->n == 0)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0, "no targets");
    if (o->nshards < 1 || o->shard < 0 || o->shard >= o->nshards)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            "--shard: expected i/N with 0 <= i < N");
    if (o->duration_ns <= 0 && o->requests <= 0)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            "expected --duration or --requests (or both)");
    if (o->model == PR_LOAD_OPEN) {
        if (!(o->rate_per_s > 0) || !isfinite(o->rate_per_s))
            return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                                "the open model needs a positive --rate");
        if (o->max_connections < 0)
            return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                                "--max-connections: expected a positive number");
    } else if (o->model == PR_LOAD_CLOSED) {
        if (o->connections < o->nshards)
            return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                                "--connections: expected at least one connection per shard");
    } else {
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0, "unknown load model");
    }
    if (o->workers < 0 || o->workers > 1024)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0, "--workers: expected 1..1024");
    return 0;
}

static int nworkers_for(const pr_attack_opts *o)
{
    int n = o->workers;
    if (n <= 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n = c > 0 ? (int)c : 1;
    }
    if (o->model == PR_LOAD_CLOSED) {
        int64_t conns = pr_attack_share(o->connections, o->shard, o->nshards);
        if (n > conns)
            n = (int)conns;
    }
    return n < 1 ? 1 : n;
}

void pr_attack_describe(const pr_attack_opts *o, pr_run *run)
{
    pr_run_set_format(run, "attack", "perfreport"); /* format: how the samples were made */
    free(run->tool_version);
    run->tool_version = pr_xstrdup(o->tool_version ? o->tool_version : "unknown");
    run->load_model = o->model;
    if (o->model == PR_LOAD_OPEN) {
        run->offered_rate = o->rate_per_s;
        run->concurrency = -1;
    } else {
        run->offered_rate = NAN;
        run->concurrency = o->connections;
    }
    json_t *t = json_array();
    for (size_t i = 0; i < o->targets->n && i < 100; i++) {
        char *s = pr_xasprintf("%s %s", o->targets->v[i].method, o->targets->v[i].url);
        json_array_append_new(t, json_string(s));
        free(s);
    }
    pr_run_meta_set(run, "targets", t);
    pr_run_meta_set(run, "targets_count", json_integer((json_int_t)o->targets->n));
    pr_run_meta_set(run, "load_model", json_string(pr_load_model_name(o->model)));
    if (o->model == PR_LOAD_OPEN) {
        pr_run_meta_set(run, "rate_per_s", json_real(o->rate_per_s));
        pr_run_meta_set(run, "max_connections",
                        json_integer(o->max_connections ? o->max_connections
                                                        : PR_ATTACK_MAX_CONNECTIONS));
    } else {
        pr_run_meta_set(run, "connections", json_integer(o->connections));
    }
    if (o->duration_ns > 0)
        pr_run_meta_set(run, "duration_ns", json_integer(o->duration_ns));
    if (o->requests > 0)
        pr_run_meta_set(run, "requests", json_integer(o->requests));
    pr_run_meta_set(run, "timeout_ns", json_integer(o->timeout_ns));
    pr_run_meta_set(run, "keepalive", json_boolean(o->keepalive));
    pr_run_meta_set(run, "workers", json_integer(nworkers_for(o)));
    pr_run_meta_set(run, "shard", json_pack("{s:i,s:i}", "index", o->shard, "count",
                                            o->nshards));
    pr_run_meta_set(run, "latency_origin",
                    json_string(o->model == PR_LOAD_OPEN ? "intended send time"
                                                         : "actual send time"));
    pr_run_meta_set(run, "interrupted", json_false());
}

/* ---- setup ---- */

static int resolve(attack *a, pr_error *err)
{
    const pr_targets *t = a->targets;
    a->target_ep = pr_xcalloc(t->n, sizeof *a->target_ep);
    for (size_t i = 0; i < t->n; i++) {
        const pr_http_url *u = &t->v[i].u;
        size_t e;
        for (e = 0; e < a->neps; e++)
            if (a->eps[e].port == u->port && a->eps[e].tls == u->tls &&
                !strcmp(a->eps[e].host, u->host))
                break;
        if (e == a->neps) {
            struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res = NULL;
            char port[16];
            snprintf(port, sizeof port, "%d", u->port);
            int rc = getaddrinfo(u->host, port, &hints, &res);
            if (rc != 0 || !res)
                return pr_error_set(err, PR_EUSAGE, NULL, 0, 0, "%s: cannot resolve host: %s",
                                    t->v[i].url, gai_strerror(rc));
            a->eps = pr_xrealloc(a->eps, (a->neps + 1) * sizeof *a->eps);
            endpoint *ep = &a->eps[a->neps++];
            memset(ep, 0, sizeof *ep);
            for (struct addrinfo *ai = res; ai && ep->naddr < EP_ADDRS; ai = ai->ai_next) {
                memcpy(&ep->addr[ep->naddr], ai->ai_addr, ai->ai_addrlen);
                ep->addrlen[ep->naddr++] = ai->ai_addrlen;
            }
            ep->tls = u->tls;
            ep->port = u->port;
            ep->host = pr_xstrdup(u->host);
            unsigned char tmp[16];
            ep->ip_literal = inet_pton(AF_INET, u->host, tmp) == 1 ||
                             inet_pton(AF_INET6, u->host, tmp) == 1;
            freeaddrinfo(res);
        }
        a->target_ep[i] = (int)e;
    }
    return 0;
}

static int tls_setup(attack *a, pr_error *err)
{
    int any = 0;
    for (size_t e = 0; e < a->neps; e++)
        any |= a->eps[e].tls;
    if (!any)
        return 0;
    a->ssl = SSL_CTX_new(TLS_client_method());
    if (!a->ssl)
        return pr_error_set(err, PR_EIO, NULL, 0, 0, "tls: cannot create a context");
    SSL_CTX_set_mode(a->ssl, SSL_MODE_ENABLE_PARTIAL_WRITE |
                             SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
#ifdef SSL_OP_IGNORE_UNEXPECTED_EOF
    SSL_CTX_set_options(a->ssl, SSL_OP_IGNORE_UNEXPECTED_EOF);
#endif
    if (a->o->insecure) {
        SSL_CTX_set_verify(a->ssl, SSL_VERIFY_NONE, NULL);
    } else {
        SSL_CTX_set_verify(a->ssl, SSL_VERIFY_PEER, NULL);
        SSL_CTX_set_default_verify_paths(a->ssl);
    }
    return 0;
}

/* ---- the consumer side (calling thread) ---- */

typedef struct consumer {
    pr_sink *sink;
    uint32_t *xlat;    /* generator string id -> run string id (0 = not yet) */
    size_t nxlat;
    pr_hist lat, late;
    pr_attack_stats st;
    uint64_t *sent;    /* per worker */
    int64_t start_real, end_real;
} consumer;

static uint32_t xlat_id(attack *a, consumer *k, uint32_t id)
{
    if (id == PR_NOSTR)
        return PR_NOSTR;
    if (id < k->nxlat && k->xlat[id])
        return k->xlat[id];
    pthread_mutex_lock(&a->mu);
    uint32_t count = pr_strtab_count(a->strings);
    const char *s = pr_strtab_get(a->strings, id);
    size_t len = pr_strtab_len(a->strings, id);
    uint32_t rid = pr_run_intern(k->sink->run, s, len);
    pthread_mutex_unlock(&a->mu);
    if (id >= k->nxlat) {
        size_t n = count > id ? count : id + 1;
        k->xlat = pr_xrealloc(k->xlat, n * sizeof *k->xlat);
        memset(k->xlat + k->nxlat, 0, (n - k->nxlat) * sizeof *k->xlat);
        k->nxlat = n;
    }
    k->xlat[id] = rid;
    return rid;
}

static int consume(attack *a, consumer *k, batch *b, pr_error *err)
{
    k->sent[b->worker] = b->sent;
    for (size_t i = 0; i < b->n; i++) {
        pr_sample s = b->s[i];
        s.method = xlat_id(a, k, s.method);
        s.url = xlat_id(a, k, s.url);
        s.label = xlat_id(a, k, s.label);
        s.error = xlat_id(a, k, s.error);
        s.thread = xlat_id(a, k, s.thread);
        k->st.completed++;
        /* successes and errors as the report counts them (pr_sample_outcome) */
        int outcome = pr_sample_outcome(&s);
        k->st.successes += outcome == 1;
        k->st.errors += outcome == 0;
        k->st.status[s.status < 600 ? s.status / 100 : 0]++;
        k->st.bytes_in += (uint64_t)s.bytes_in;
        k->st.bytes_out += (uint64_t)s.bytes_out;
        pr_hist_add(&k->lat, s.latency_ns);
        if (s.lateness_ns != PR_UNKNOWN)
            pr_hist_add(&k->late, s.lateness_ns);
        if (k->start_real == PR_UNKNOWN || s.start_ns < k->start_real)
            k->start_real = s.start_ns;
        if (s.start_ns + s.latency_ns > k->end_real)
            k->end_real = s.start_ns + s.latency_ns;
        if (a->o->metrics)
            pr_metrics_observe(a->o->metrics, k->sink->run, &s, 1);
        int rc = pr_sink_emit(k->sink, &s, err);
        if (rc < 0)
            return rc;
    }
    if (a->o->metrics) {
        uint64_t sent = 0;
        for (int i = 0; i < a->nworkers; i++)
            sent += k->sent[i];
        pr_metrics_progress(a->o->metrics, sent, (int64_t)(sent - k->st.completed));
    }
    return 0;
}

static void stats_fill(attack *a, consumer *k, int64_t now_mono)
{
    k->st.elapsed_ns = now_mono - a->t0_mono;
    if (k->st.elapsed_ns < 0)
        k->st.elapsed_ns = 0;
    k->st.sent = 0;
    for (int i = 0; i < a->nworkers; i++)
        k->st.sent += k->sent[i];
    k->st.p50_ns = pr_hist_quantile(&k->lat, 0.5);
    k->st.p90_ns = pr_hist_quantile(&k->lat, 0.9);
    k->st.p99_ns = pr_hist_quantile(&k->lat, 0.99);
    k->st.max_ns = k->lat.max;
    k->st.lateness_p99_ns = pr_hist_quantile(&k->late, 0.99);
    k->st.lateness_max_ns = k->late.max;
}

static void attack_free(attack *a)
{
    if (a->w) {
        for (int i = 0; i < a->nworkers; i++) {
            worker *w = &a->w[i];
            for (size_t j = 0; j < w->nall; j++)
                free(w->all[j]);
            free(w->all);
            free(w->idle);
            free(w->addr_idx);
            free(w->b);
            pr_loop_free(w->loop);
        }
        free(a->w);
    }
    while (a->head) {
        batch *b = a->head;
        a->head = b->next;
        free(b);
    }
    while (a->spare) {
        batch *b = a->spare;
        a->spare = b->next;
        free(b);
    }
    for (size_t e = 0; e < a->neps; e++)
        free(a->eps[e].host);
    free(a->eps);
    free(a->target_ep);
    free(a->target_str);
    if (a->ssl)
        SSL_CTX_free(a->ssl);
    pr_strtab_free(a->strings);
    pthread_mutex_destroy(&a->mu);
    pthread_cond_destroy(&a->cv);
}

static int64_t real_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int pr_attack_run(const pr_attack_opts *o, pr_sink *sink, pr_attack_stats *out, pr_error *err)
{
    int rc = pr_attack_validate(o, err);
    if (rc < 0)
        return rc;
    /* A peer closing a socket must be an error sample, not a signal (TLS writes use write). */
    struct sigaction sa;
    if (sigaction(SIGPIPE, NULL, &sa) == 0 && sa.sa_handler == SIG_DFL)
        signal(SIGPIPE, SIG_IGN);

    attack A;
    attack *a = &A;
    memset(a, 0, sizeof *a);
    a->o = o;
    a->targets = o->targets;
    a->strings = pr_strtab_new();
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->cv, NULL);
    consumer K;
    memset(&K, 0, sizeof K);
    K.sink = sink;
    K.start_real = PR_UNKNOWN;
    K.end_real = INT64_MIN;
    pr_hist_reset(&K.lat);
    pr_hist_reset(&K.late);

    if ((rc = resolve(a, err)) < 0 || (rc = tls_setup(a, err)) < 0) {
        attack_free(a);
        return rc;
    }
    size_t nt = o->targets->n;
    a->target_str = pr_xcalloc(3 * nt, sizeof *a->target_str);
    for (size_t i = 0; i < nt; i++) {
        const pr_target *t = &o->targets->v[i];
        a->target_str[3 * i] = pr_strtab_intern_cstr(a->strings, t->method);
        a->target_str[3 * i + 1] = pr_strtab_intern_cstr(a->strings, t->url);
        char *label = pr_xasprintf("%s %s", t->method, t->url);
        a->target_str[3 * i + 2] = pr_strtab_intern_cstr(a->strings, label);
        free(label);
    }

    int64_t now_mono = pr_loop_now_ns(), now_real = real_now_ns();
    a->mono_to_real = now_real - now_mono;
    a->t0_mono = o->start_real_ns > 0 ? o->start_real_ns - a->mono_to_real
                                      : now_mono + 5000000; /* 5 ms for the threads to start */

    int W = nworkers_for(o);
    a->nworkers = W;
    a->w = pr_xcalloc((size_t)W, sizeof *a->w);
    K.sent = pr_xcalloc((size_t)W, sizeof *K.sent);
    int64_t conns_here = pr_attack_share(o->connections, o->shard, o->nshards);
    int64_t reqs_here = o->requests > 0 ? pr_attack_share(o->requests, o->shard, o->nshards) : -1;
    for (int i = 0; i < W; i++) {
        worker *w = &a->w[i];
        w->a = a;
        w->id = i;
        w->loop = pr_loop_new();
        if (!w->loop) {
            a->nworkers = i;
            attack_free(a);
            free(K.sent);
            return pr_error_set(err, PR_EIO, NULL, 0, 0, "cannot create an event loop: %s",
                                strerror(errno));
        }
        w->idle = pr_xcalloc(a->neps, sizeof *w->idle);
        w->addr_idx = pr_xcalloc(a->neps, sizeof *w->addr_idx);
        w->sched_timer.fn = sched_wake;
        w->sched_timer.payload = w;
        char name[64];
        if (o->nshards > 1)
            snprintf(name, sizeof name, "shard-%d-worker-%d", o->shard, i);
        else
            snprintf(name, sizeof name, "worker-%d", i);
        w->thread_str = pr_strtab_intern_cstr(a->strings, name);
        if (o->model == PR_LOAD_OPEN) {
            pr_sched_init(&w->sched, o->rate_per_s, o->duration_ns, o->requests, o->shard,
                          o->nshards, i, W);
            w->kcount = pr_sched_count(&w->sched);
            int cap = o->max_connections > 0 ? o->max_connections : PR_ATTACK_MAX_CONNECTIONS;
            w->max_open = (int)pr_attack_share(cap, i, W);
            if (w->max_open < 1)
                w->max_open = 1;
        } else {
            w->nconns = (int)pr_attack_share(conns_here, i, W);
            w->quota = reqs_here < 0 ? -1 : pr_attack_share(reqs_here, i, W);
            w->end_mono = o->duration_ns > 0 ? a->t0_mono + o->duration_ns : INT64_MAX;
            w->next_target = (uint64_t)o->shard * (uint64_t)W + (uint64_t)i;
            w->max_open = w->nconns;
        }
    }
    int started = 0;
    for (; started < W; started++)
        if (pthread_create(&a->w[started].th, NULL, worker_main, &a->w[started]) != 0)
            break;
    if (started < W) {
        /* Could not start every worker: stop the ones running and report. */
        atomic_store(&a->halt, 1);
        rc = pr_error_set(err, PR_EIO, NULL, 0, 0, "cannot start worker threads");
    }

    int64_t next_progress = now_mono + (o->progress_interval_ns > 0 ? o->progress_interval_ns : 0);
    int sink_rc = 0;
    pthread_mutex_lock(&a->mu);
    for (;;) {
        while (a->head) {
            batch *b = a->head;
            a->head = b->next;
            if (!a->head)
                a->tail = NULL;
            pthread_mutex_unlock(&a->mu);
            if (sink_rc == 0 && (sink_rc = consume(a, &K, b, err)) < 0)
                atomic_store(&a->halt, 1); /* the output failed: stop sending */
            pthread_mutex_lock(&a->mu);
            b->next = a->spare;
            a->spare = b;
        }
        if (a->finished == started)
            break;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 100000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&a->cv, &a->mu, &ts);
        if (o->progress && o->progress_interval_ns > 0) {
            int64_t t = pr_loop_now_ns();
            if (t >= next_progress) {
                next_progress = t + o->progress_interval_ns;
                pthread_mutex_unlock(&a->mu);
                stats_fill(a, &K, t);
                o->progress(o->progress_payload, &K.st);
                pthread_mutex_lock(&a->mu);
            }
        }
    }
    pthread_mutex_unlock(&a->mu);
    for (int i = 0; i < started; i++)
        pthread_join(a->w[i].th, NULL);
    int64_t first = INT64_MAX, last = 0;
    for (int i = 0; i < started; i++) {
        worker *w = &a->w[i];
        K.st.abandoned += w->abandoned;
        K.st.connections_opened += w->opened;
        K.sent[i] = w->sent;
        if (w->sent && w->first_send < first)
            first = w->first_send;
        if (w->sent && w->last_send > last)
            last = w->last_send;
    }
    stats_fill(a, &K, pr_loop_now_ns());
    K.st.interrupted = o->stop && atomic_load(o->stop);
    if (K.st.sent > 1 && last > first)
        K.st.send_rate_per_s = (double)(K.st.sent - 1) * 1e9 / (double)(last - first);
    if (sink_rc == 0)
        sink_rc = pr_sink_flush(sink, err);
    pr_run *run = sink->run;
    if (K.start_real != PR_UNKNOWN) {
        run->start_ns = K.start_real;
        run->end_ns = K.end_real;
    }
    pr_run_meta_set(run, "interrupted", json_boolean(K.st.interrupted));
    if (K.st.abandoned)
        pr_run_meta_set(run, "abandoned_requests", json_integer((json_int_t)K.st.abandoned));
    if (o->model == PR_LOAD_OPEN)
        pr_run_meta_set(run, "lateness_p99_ns", json_integer(K.st.lateness_p99_ns));
    pr_run_meta_set(run, "connections_opened",
                    json_integer((json_int_t)K.st.connections_opened));
    if (out)
        *out = K.st;
    free(K.xlat);
    free(K.sent);
    attack_free(a);
    if (rc < 0)
        return rc;
    return sink_rc;
}
