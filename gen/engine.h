/* Internal to the load generator (included by the files of gen/ only, never by other
 * modules): the state its pieces share behind gen/attack.h.
 *   gen/attack.c    options, run metadata, the consumer (calling thread) and pr_attack_run
 *   gen/sched.c     rates and the open-model schedule arithmetic
 *   gen/worker.c    worker threads: the open and closed models, hand-off of sample batches
 *   gen/conn.c      connections: connect, send, read the response, record the outcome
 *   gen/tls.c       TLS context, handshake and the TLS side of send/receive
 *   gen/endpoint.c  targets resolved to addresses (DNS), one endpoint per host:port:scheme
 * Threads: each worker owns its loop, connections and batch; only the batch queue, the spare
 * batches and the generator's string table are shared, under attack.mu. */
#ifndef PR_GEN_ENGINE_H
#define PR_GEN_ENGINE_H
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include "gen/attack.h"
#include "gen/http.h"
#include "gen/loop.h"
#include "model/strtab.h"

#define PR_READ_BUF 65536         /* one recv */
#define PR_READ_SLICE (4 * 65536) /* bytes read from one connection per readiness callback */
#define PR_EP_ADDRS 4             /* addresses kept per host name (tried in turn) */

typedef struct pr_endpoint {
    struct sockaddr_storage addr[PR_EP_ADDRS];
    socklen_t addrlen[PR_EP_ADDRS];
    int naddr;
    int tls;
    int ip_literal;
    char *host;
    int port;
} pr_endpoint;

typedef struct pr_batch {
    struct pr_batch *next;
    int worker;
    uint64_t sent; /* the worker's requests started so far */
    size_t n;
    pr_sample s[PR_ATTACK_BATCH];
} pr_batch;

typedef struct pr_worker pr_worker;

typedef struct pr_engine {
    const pr_attack_opts *o;
    const pr_targets *targets;
    int nworkers;
    pr_endpoint *eps;
    size_t neps;
    int *target_ep;       /* endpoint of each target */
    uint32_t *target_str; /* per target: method, url, label ids (generator strings) */
    SSL_CTX *ssl;
    int64_t t0_mono, mono_to_real;
    pr_strtab *strings; /* generator strings (ids used in worker samples) */
    pthread_mutex_t mu; /* guards strings, the queue, the spare batches, finished */
    pthread_cond_t cv;
    pr_batch *head, *tail, *spare;
    int finished;    /* workers done */
    atomic_int halt; /* stop early: the sink failed or a worker did not start */
    pr_worker *w;
} pr_engine;

enum { C_NONE, C_CONNECTING, C_HANDSHAKE, C_WRITING, C_READING, C_IDLE };

/* Transport results (pr_conn_send, pr_conn_recv, pr_tls_send, pr_tls_recv): >= 0 bytes (0 on
 * receive: the peer closed), or one of these. */
enum {
    PR_XFER_AGAIN = -1, /* would block: the connection's wanted events are set */
    PR_XFER_FAIL = -2   /* failed: conn.why (static when why_static), why_errno (0: TLS) */
};

typedef struct pr_conn {
    pr_loop_io io;
    pr_worker *w;
    SSL *ssl;
    int ep; /* endpoint of the socket, -1 when none */
    int state;
    int busy;       /* a request is in progress */
    int queued;     /* on the worker's run queue (closed model) */
    int reused;     /* the current request went on an already used connection */
    int addr_tries; /* other addresses of the host tried for this request */
    int retried;
    uint32_t requests;             /* requests sent on this socket */
    struct pr_conn *prev, *next;   /* idle list, spare list or run queue */
    struct pr_conn *tprev, *tnext; /* the worker's timeout list (while timed) */
    int timed;
    int64_t deadline; /* the request's timeout */
    /* the request in progress */
    uint32_t ti;
    size_t woff;
    int64_t intended, started, conn_start, connect_ns, first_byte;
    int64_t rx_ns; /* when the kernel received the last read's data (CLOCK_MONOTONIC), 0: not
                    * known (TLS, a socket that would not stamp, or the kernel had not yet
                    * turned stamping on) */
    int64_t bytes_in, bytes_out;
    const char *why; /* the failure of the last transport call */
    int why_static, why_errno;
    pr_http_resp resp;
} pr_conn;

struct pr_worker {
    pr_engine *a;
    int id;
    pthread_t th;
    pr_loop *loop;
    pr_conn **all;
    size_t nall, capall;
    pr_conn *spare; /* conns without a socket */
    pr_conn **idle; /* per endpoint: idle keep-alive conns */
    int *addr_idx;  /* per endpoint: the address connections go to */
    pr_conn *runq;  /* closed model: conns waiting to send their next request */
    /* requests with a timeout, in start order: every request has the same timeout, so this
     * is deadline order and one timer at the head serves them all (gen/conn.c) */
    pr_conn *thead, *ttail;
    pr_loop_timer timeout_timer;
    int open;       /* conns with a socket */
    int connecting; /* conns in TCP connect or TLS handshake */
    int max_open;
    int inflight;
    int stopping;             /* stop requested: no new requests */
    int64_t rt_off;           /* CLOCK_REALTIME - CLOCK_MONOTONIC this round, 0: not read yet */
    int nap_ok;               /* plain sockets only (TLS reads are not stamped): may nap */
    int64_t win_t0, cycle_ns; /* the last window's request cycle: in flight / answered per ns */
    uint64_t win_done;        /* requests ended before the window */
    uint64_t win_stamped, win_unstamped; /* plain reads with and without a receive stamp */
    int stamped;                         /* the last window's plain reads all had receive stamps */
    int nested;                          /* inside an immediate closed-model send */
    int64_t stop_deadline;
    int64_t end_deadline; /* schedule end + timeout: what is still in flight then times out */
    int64_t issue_end;    /* when this worker sent its last request of the run (0: not yet) */
    uint64_t inflight_at_issue_end;
    /* open model */
    pr_sched sched;
    int64_t k, kcount;
    pr_loop_timer sched_timer;
    /* closed model */
    int nconns;       /* connections of this worker */
    int64_t quota;    /* requests left, -1 = unlimited */
    int64_t end_mono; /* INT64_MAX = no duration */
    uint64_t next_target;
    /* samples */
    pr_batch *b;
    int64_t last_handoff;
    uint64_t sent, cut, opened; /* cut: in flight at a stop or at duration + timeout */
    int64_t first_send, last_send;
    uint32_t thread_str;
    const char *err_text[16];
    uint32_t err_id[16];
    unsigned nerr;
    char why_buf[300]; /* a dynamic failure text (TLS) */
    char rbuf[PR_READ_BUF];
};

/* gen/endpoint.c: fills a->eps and a->target_ep from the targets' URLs. 0 or PR_EUSAGE. */
int pr_endpoints_resolve(pr_engine *a, pr_error *err);
void pr_endpoints_free(pr_engine *a);

/* gen/tls.c */
int pr_tls_setup(pr_engine *a, pr_error *err);   /* a context when any endpoint is https */
void pr_tls_start(pr_worker *w, pr_conn *c);     /* a session on c's socket, then handshake */
void pr_tls_handshake(pr_worker *w, pr_conn *c); /* the socket is ready: continue it */
long pr_tls_send(pr_worker *w, pr_conn *c, const void *p, size_t n);
long pr_tls_recv(pr_worker *w, pr_conn *c, void *p, size_t n);

/* gen/conn.c */
pr_conn *pr_conn_new(pr_worker *w);
void pr_conn_close(pr_worker *w, pr_conn *c);
void pr_conn_release(pr_worker *w, pr_conn *c);
/* Starts request ti on c (c may hold an idle socket to the right endpoint, or none);
 * intended: the open model's intended send time, 0 = now. */
void pr_conn_start(pr_worker *w, pr_conn *c, uint32_t ti, int64_t intended);
/* The socket is connected: TLS handshake or the request write. */
void pr_conn_connected(pr_worker *w, pr_conn *c);
/* Writes (the rest of) the request; then reads the response. */
void pr_conn_write(pr_worker *w, pr_conn *c);
/* recv(2) of at most n bytes into p, with the kernel's receive stamp of what it read (the
 * socket has SO_TIMESTAMPNS): *rx_ns is when its last byte arrived, on CLOCK_MONOTONIC, or 0
 * when it came unstamped. The stamp is on the real clock; *rt_off holds CLOCK_REALTIME -
 * CLOCK_MONOTONIC, read at the first stamp when 0 (the caller clears it once a loop round,
 * after the wait, so a step of the real clock counts for one round at most). Returns what
 * recv(2) returns; *rx_ns is set only when that is > 0. */
ssize_t pr_recv_stamped(int fd, void *p, size_t n, int64_t *rt_off, int64_t *rx_ns);
/* When the data of c's last read arrived: its receive stamp when it has one from this
 * request (between its start and now), else now. */
int64_t pr_conn_rx_time(const pr_conn *c, int64_t now);
/* Sets c->why from errno e; returns PR_XFER_FAIL. */
long pr_conn_errno_fail(pr_conn *c, int e);
/* The request on c failed with `error` (recorded; the connection closed). */
void pr_conn_fail(pr_worker *w, pr_conn *c, const char *error, int error_static);
/* Records c's request as ended now without a response (interrupted / cut at the end). */
void pr_conn_cut(pr_worker *w, pr_conn *c, const char *error);
void pr_conn_set_state(pr_worker *w, pr_conn *c, int st);
int pr_conn_want(pr_worker *w, pr_conn *c, unsigned events);

/* gen/worker.c */
void *pr_worker_main(void *arg);
/* After a request ends: reuse, park or close the connection and let the model continue. */
void pr_worker_request_done(pr_worker *w, pr_conn *c, int reusable);
/* Interned id of an error text (static texts are cached per worker by pointer). */
uint32_t pr_worker_error_id(pr_worker *w, const char *text, int is_static);
/* A slot for the next sample (handed off when the batch is full, by pr_worker_sample_done). */
pr_sample *pr_worker_sample(pr_worker *w);
void pr_worker_sample_done(pr_worker *w, int64_t now);

#endif
