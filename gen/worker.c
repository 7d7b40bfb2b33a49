/* The load generator's worker threads: the open model (a schedule timer that sends every
 * request whose intended time has come) and the closed model (each connection sends its next
 * request when the last one ends), the end of a run, and the hand-off of sample batches. */
#include "gen/engine.h"
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "model/xalloc.h"

#define HANDOFF_NS 100000000     /* hand a partial batch over after 100 ms */
#define STOP_GRACE_NS 1000000000 /* in-flight requests get 1 s after a stop */
#define POLL_NS 50000000         /* longest wait in one loop round */
#define NAP_NS 20000             /* the nap before blocking, when it pays (nap_for) */
#define NAP_MIN_INFLIGHT 8       /* fewer in flight: nothing to batch, no nap */
#define NAP_WINDOW_NS 2000000    /* the request cycle measured over 2 ms */

/* ---- strings and batches ---- */

uint32_t pr_worker_error_id(pr_worker *w, const char *text, int is_static)
{
    if (is_static)
        for (unsigned i = 0; i < w->nerr; i++)
            if (w->err_text[i] == text)
                return w->err_id[i];
    pr_engine *a = w->a;
    pthread_mutex_lock(&a->mu);
    uint32_t id = pr_strtab_intern_cstr(a->strings, text);
    pthread_mutex_unlock(&a->mu);
    if (is_static && w->nerr < 16) {
        w->err_text[w->nerr] = text;
        w->err_id[w->nerr++] = id;
    }
    return id;
}

static pr_batch *batch_get(pr_engine *a)
{
    pthread_mutex_lock(&a->mu);
    pr_batch *b = a->spare;
    if (b)
        a->spare = b->next;
    pthread_mutex_unlock(&a->mu);
    if (!b)
        b = pr_xmalloc(sizeof *b);
    b->next = NULL;
    b->n = 0;
    return b;
}

static void handoff(pr_worker *w, int64_t now)
{
    pr_engine *a = w->a;
    pr_batch *b = w->b;
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

pr_sample *pr_worker_sample(pr_worker *w)
{
    return &w->b->s[w->b->n++];
}

void pr_worker_sample_done(pr_worker *w, int64_t now)
{
    if (w->b->n == PR_ATTACK_BATCH)
        handoff(w, now);
}

/* ---- the models ---- */

static void closed_send_next(pr_worker *w, pr_conn *c);

void pr_worker_request_done(pr_worker *w, pr_conn *c, int reusable)
{
    if (!reusable || !w->a->o->keepalive)
        pr_conn_close(w, c);
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
        pr_conn_release(w, c);
        return;
    }
    pr_conn_set_state(w, c, C_IDLE);
    c->prev = NULL;
    c->next = w->idle[c->ep];
    if (c->next)
        c->next->prev = c;
    w->idle[c->ep] = c;
}

/* The connection for the open model's next request to endpoint epi, or NULL to wait. */
static pr_conn *open_conn_for(pr_worker *w, int epi)
{
    pr_conn *c = w->idle[epi];
    if (c)
        return c;
    if (w->connecting >= PR_ATTACK_MAX_CONNECTING)
        return NULL; /* a connection storm does not help an overloaded server: the wait
                      * shows as lateness */
    if (w->open < w->max_open)
        return pr_conn_new(w);
    /* At the cap: take an idle connection to another endpoint, else wait for one to free
     * up (the request is late, and its latency says so). */
    for (size_t e = 0; e < w->a->neps; e++)
        if (w->idle[e])
            return w->idle[e];
    return NULL;
}

/* Open model: sends every request whose intended time has come, as connections allow; arms
 * the schedule timer for the next one. */
static void open_issue(pr_worker *w)
{
    pr_engine *a = w->a;
    int64_t now = pr_loop_now_ns();
    size_t nt = a->targets->n;
    while (!w->stopping && w->k < w->kcount) {
        int64_t when = a->t0_mono + pr_sched_time_ns(&w->sched, w->k);
        if (when > now) {
            pr_loop_timer_set(w->loop, &w->sched_timer, when);
            return;
        }
        uint32_t ti = (uint32_t)((uint64_t)pr_sched_global(&w->sched, w->k) % nt);
        pr_conn *c = open_conn_for(w, a->target_ep[ti]);
        if (!c)
            return; /* the next round, or a freed connection, tries again */
        w->k++;
        pr_conn_start(w, c, ti, when); /* a failure at once returns c to the spare list */
        now = pr_loop_now_ns();
    }
}

/* The schedule's own timer: it fires between other connections' callbacks (gen/loop.c), so
 * reading responses never delays a send. */
static void sched_fire(pr_loop *l, pr_loop_timer *t, void *payload)
{
    open_issue(payload);
}

static int closed_can_issue(pr_worker *w, int64_t now)
{
    return !w->stopping && w->quota != 0 && now < w->end_mono;
}

/* Closed model: c sends its next request, or closes when the run is over. */
static void closed_send_next(pr_worker *w, pr_conn *c)
{
    if (!closed_can_issue(w, pr_loop_now_ns())) {
        pr_conn_close(w, c);
        return;
    }
    if (w->quota > 0)
        w->quota--;
    uint32_t ti = (uint32_t)(w->next_target++ % w->a->targets->n);
    pr_conn_start(w, c, ti, 0);
}

/* Closed model: every connection on the run queue sends its next request. */
static void closed_issue(pr_worker *w)
{
    pr_conn *q = w->runq;
    w->runq = NULL;
    w->nested = 1;
    while (q) {
        pr_conn *c = q;
        q = c->next;
        c->next = NULL;
        c->queued = 0;
        closed_send_next(w, c);
    }
    w->nested = 0;
}

/* Records every request still in flight as cut short with `error`; closes all sockets. */
static void cut_all(pr_worker *w, const char *error)
{
    for (size_t i = 0; i < w->nall; i++) {
        pr_conn *c = w->all[i];
        if (c->busy) {
            w->cut++;
            pr_conn_cut(w, c, error);
        }
        pr_conn_close(w, c);
    }
}

/* The user asked to stop (SIGINT), or the output failed. */
static int stop_requested(pr_engine *a)
{
    return (a->o->stop && atomic_load_explicit(a->o->stop, memory_order_relaxed)) ||
           atomic_load_explicit(&a->halt, memory_order_relaxed);
}

static void worker_prepare(pr_worker *w)
{
    pr_engine *a = w->a;
    /* A peer closing a socket is an error sample, never a signal: OpenSSL writes with
     * write(2), so SIGPIPE stays blocked in this thread (the process keeps its disposition). */
    sigset_t pipe;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe, NULL);
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL); /* wake at the intended send times */
    w->b = batch_get(a);
    w->last_handoff = w->win_t0 = pr_loop_now_ns();
    /* A nap needs its core back when the timer fires: with a worker on every core, the wake
     * waits for one, and the naps run long and uneven (measured, 2 workers on 2 cores with
     * nginx: 0.74-1.19x wrk's requests/s, run to run). */
    w->nap_ok = a->nworkers < sysconf(_SC_NPROCESSORS_ONLN);
    for (size_t e = 0; e < a->neps; e++)
        if (a->eps[e].tls)
            w->nap_ok = 0;
    if (a->o->model == PR_LOAD_CLOSED) {
        for (int i = 0; i < w->nconns; i++) {
            pr_conn *c = pr_conn_new(w);
            c->queued = 1;
            c->next = w->runq;
            w->runq = c;
        }
    }
    w->sched_timer.fn = sched_fire;
    w->sched_timer.payload = w;
    /* wait for the common start */
    for (int64_t now; (now = pr_loop_now_ns()) < a->t0_mono && !stop_requested(a);)
        pr_loop_run_once(w->loop, a->t0_mono - now < POLL_NS ? a->t0_mono - now : POLL_NS);
}

/* Whether the model still has requests to send. */
static int issuing(pr_worker *w, int64_t now)
{
    if (w->a->o->model == PR_LOAD_OPEN)
        return !w->stopping && w->k < w->kcount;
    return w->runq != NULL || closed_can_issue(w, now);
}

/* One round's checks: a stop, the end of the schedule, the deadlines. 1 when done. */
static int worker_tick(pr_worker *w, int64_t now)
{
    if (!w->stopping && stop_requested(w->a)) {
        w->stopping = 1;
        w->stop_deadline = now + STOP_GRACE_NS;
        pr_loop_timer_clear(w->loop, &w->sched_timer);
    }
    if (w->a->o->model == PR_LOAD_OPEN)
        open_issue(w);
    else
        closed_issue(w);
    int more = issuing(w, now);
    if (!more && !w->issue_end) {
        w->issue_end = now;
        w->inflight_at_issue_end = (uint64_t)w->inflight;
    }
    if (!more && w->inflight == 0)
        return 1;
    if (w->stopping && now >= w->stop_deadline) {
        cut_all(w, "interrupted");
        return 1;
    }
    if (now >= w->end_deadline) {
        cut_all(w, "timeout"); /* the run's time is up: duration + timeout */
        return 1;
    }
    return 0;
}

/* The nap of the next wait (gen/loop.h). It pays when the server has enough to work on
 * meanwhile: only while every read of the last window came with its receive stamp, with at
 * least NAP_MIN_INFLIGHT requests in flight, and a request cycle (Little's law: in flight /
 * answered per second, over the last NAP_WINDOW_NS) at least 3/2 of what a nap really takes.
 * Below that the server would sit idle while this thread sleeps (measured: 8 connections
 * against nginx, 0.67x the requests/s with a nap). */
static int64_t nap_for(pr_worker *w, int64_t now)
{
    uint64_t done = w->sent - (uint64_t)w->inflight;
    if (now - w->win_t0 >= NAP_WINDOW_NS) {
        uint64_t n = done - w->win_done;
        w->cycle_ns =
            n ? (int64_t)((double)w->inflight * (double)(now - w->win_t0) / (double)n) : INT64_MAX;
        w->win_t0 = now;
        w->win_done = done;
        w->stamped = w->win_stamped > 0 && w->win_unstamped == 0;
        w->win_stamped = w->win_unstamped = 0;
    }
    if (!w->nap_ok || !w->stamped || w->inflight < NAP_MIN_INFLIGHT)
        return 0;
    int64_t took = pr_loop_nap_took(w->loop);
    if (took < NAP_NS)
        took = NAP_NS;
    return w->cycle_ns / 3 >= took / 2 ? NAP_NS : 0;
}

void *pr_worker_main(void *arg)
{
    pr_worker *w = arg;
    pr_engine *a = w->a;
    worker_prepare(w);
    for (;;) {
        int64_t now = pr_loop_now_ns();
        if (worker_tick(w, now))
            break;
        if (now - w->last_handoff >= HANDOFF_NS)
            handoff(w, now);
        int64_t wait = HANDOFF_NS - (now - w->last_handoff);
        wait = wait > POLL_NS ? POLL_NS : wait < 0 ? 0 : wait;
        pr_loop_set_nap(w->loop, nap_for(w, now));
        w->rt_off = 0; /* read again after the wait: the real clock may have been stepped */
        if (pr_loop_run_once(w->loop, wait) < 0) {
            cut_all(w, "interrupted");
            break;
        }
    }
    cut_all(w, "interrupted");
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
