/* The load generator's entry points: options and run metadata, the engine's setup and
 * teardown, and the consumer on the calling thread (batches from the workers to the sink,
 * live figures). The workers are in gen/worker.c. */
#include "gen/engine.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "gen/metrics.h"
#include "model/hist.h"
#include "model/version.h"
#include "model/xalloc.h"

#define FLUSH_NS 100000000 /* the sink is flushed at least this often (a closed pipe shows) */
#define WAIT_NS 100000000  /* longest wait of the consumer for a batch */

/* ---- options, metadata ---- */

void pr_attack_opts_init(pr_attack_opts *o)
{
    memset(o, 0, sizeof *o);
    o->model = PR_LOAD_CLOSED;
    o->connections = 1;
    o->timeout_ns = 30 * (int64_t)1000000000;
    o->max_body_bytes = PR_ATTACK_MAX_BODY;
    o->keepalive = 1;
    o->nshards = 1;
    o->tool_version = PR_VERSION;
}

static int usage(pr_error *err, const char *msg)
{
    return pr_error_set(err, PR_EUSAGE, NULL, 0, 0, "%s", msg);
}

int pr_attack_validate(const pr_attack_opts *o, pr_error *err)
{
    if (!o->targets || o->targets->n == 0)
        return usage(err, "no targets");
    if (o->nshards < 1 || o->shard < 0 || o->shard >= o->nshards)
        return usage(err, "--shard: expected i/N with 0 <= i < N");
    if (o->duration_ns <= 0 && o->requests <= 0)
        return usage(err, "expected --duration or --requests (or both)");
    if (o->model == PR_LOAD_OPEN) {
        if (!(o->rate_per_s > 0) || !isfinite(o->rate_per_s))
            return usage(err, "the open model needs a positive --rate");
        if (o->max_connections < 0)
            return usage(err, "--max-connections: expected a positive number");
    } else if (o->model == PR_LOAD_CLOSED) {
        if (o->connections < o->nshards)
            return usage(err, "--connections: expected at least one connection per shard");
    } else {
        return usage(err, "unknown load model");
    }
    if (o->workers < 0 || o->workers > 1024)
        return usage(err, "--workers: expected 1..1024");
    if (o->max_body_bytes < 0 || o->timeout_ns < 0)
        return usage(err, "--max-body and --timeout: expected 0 or more");
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

static void describe_model(const pr_attack_opts *o, pr_run *run)
{
    run->load_model = o->model;
    pr_run_meta_set(run, "load_model", json_string(pr_load_model_name(o->model)));
    if (o->model == PR_LOAD_OPEN) {
        run->offered_rate = o->rate_per_s;
        run->concurrency = -1;
        pr_run_meta_set(run, "rate_per_s", json_real(o->rate_per_s));
        pr_run_meta_set(
            run, "max_connections",
            json_integer(o->max_connections ? o->max_connections : PR_ATTACK_MAX_CONNECTIONS));
    } else {
        run->offered_rate = NAN;
        run->concurrency = o->connections;
        pr_run_meta_set(run, "connections", json_integer(o->connections));
    }
}

void pr_attack_describe(const pr_attack_opts *o, pr_run *run)
{
    pr_run_set_format(run, "attack", "perfreport"); /* format: how the samples were made */
    free(run->tool_version);
    run->tool_version = pr_xstrdup(o->tool_version ? o->tool_version : "unknown");
    json_t *t = json_array();
    for (size_t i = 0; i < o->targets->n && i < 100; i++) {
        char *s = pr_xasprintf("%s %s", o->targets->v[i].method, o->targets->v[i].url);
        json_array_append_new(t, json_string(s));
        free(s);
    }
    pr_run_meta_set(run, "targets", t);
    pr_run_meta_set(run, "targets_count", json_integer((json_int_t)o->targets->n));
    describe_model(o, run);
    if (o->duration_ns > 0)
        pr_run_meta_set(run, "duration_ns", json_integer(o->duration_ns));
    if (o->requests > 0)
        pr_run_meta_set(run, "requests", json_integer(o->requests));
    pr_run_meta_set(run, "timeout_ns", json_integer(o->timeout_ns));
    pr_run_meta_set(run, "max_body_bytes", json_integer(o->max_body_bytes));
    pr_run_meta_set(run, "keepalive", json_boolean(o->keepalive));
    pr_run_meta_set(run, "workers", json_integer(nworkers_for(o)));
    pr_run_meta_set(run, "shard", json_pack("{s:i,s:i}", "index", o->shard, "count", o->nshards));
    pr_run_meta_set(
        run, "latency_origin",
        json_string(o->model == PR_LOAD_OPEN ? "intended send time" : "actual send time"));
    pr_run_meta_set(run, "interrupted", json_false());
}

/* ---- the consumer side (calling thread) ---- */

typedef struct consumer {
    pr_sink *sink;
    uint32_t *xlat; /* generator string id -> run string id (0 = not yet) */
    size_t nxlat;
    pr_hist lat, late;
    pr_attack_stats st;
    uint64_t *sent; /* per worker */
    int64_t last_flush;
    int rc; /* the sink's first error */
} consumer;

/* The run's id of a generator string seen first now (xlat_id has the known ones). */
static uint32_t xlat_new(pr_engine *a, consumer *k, uint32_t id)
{
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

static inline uint32_t xlat_id(pr_engine *a, consumer *k, uint32_t id)
{
    if (id == PR_NOSTR)
        return PR_NOSTR;
    if (id < k->nxlat && k->xlat[id])
        return k->xlat[id];
    return xlat_new(a, k, id);
}

/* Counts one sample into the live figures. */
static void tally(consumer *k, const pr_sample *s)
{
    k->st.completed++;
    int outcome = pr_sample_outcome(s); /* successes and errors as the report counts them */
    k->st.successes += outcome == 1;
    k->st.errors += outcome == 0;
    k->st.status[s->status < 600 ? s->status / 100 : 0]++;
    k->st.bytes_in += (uint64_t)s->bytes_in;
    k->st.bytes_out += (uint64_t)s->bytes_out;
    if (s->latency_ns != PR_UNKNOWN)
        pr_hist_add(&k->lat, s->latency_ns);
    if (s->lateness_ns != PR_UNKNOWN)
        pr_hist_add(&k->late, s->lateness_ns);
}

static int consume(pr_engine *a, consumer *k, pr_batch *b, pr_error *err)
{
    k->sent[b->worker] = b->sent;
    for (size_t i = 0; i < b->n; i++) {
        pr_sample s = b->s[i];
        s.method = xlat_id(a, k, s.method);
        s.url = xlat_id(a, k, s.url);
        s.label = xlat_id(a, k, s.label);
        s.error = xlat_id(a, k, s.error);
        s.thread = xlat_id(a, k, s.thread);
        tally(k, &s);
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

static void stats_fill(pr_engine *a, consumer *k, int64_t now_mono)
{
    k->st.elapsed_ns = now_mono - a->t0_mono;
    if (k->st.elapsed_ns < 0)
        k->st.elapsed_ns = 0;
    k->st.sent = 0;
    for (int i = 0; i < a->nworkers; i++)
        k->st.sent += k->sent[i];
    k->st.p50_ns = pr_hist_percentile(&k->lat, 50);
    k->st.p90_ns = pr_hist_percentile(&k->lat, 90);
    k->st.p99_ns = pr_hist_percentile(&k->lat, 99);
    k->st.max_ns = k->lat.n ? k->lat.max : 0;
    k->st.lateness_p99_ns = pr_hist_percentile(&k->late, 99);
    k->st.lateness_max_ns = k->late.n ? k->late.max : 0;
}

/* Hands every queued batch to the sink (mu held on entry and exit); flushes the sink when
 * FLUSH_NS passed, so a closed output stops the attack within about that. */
static void drain(pr_engine *a, consumer *k, pr_error *err)
{
    while (a->head) {
        pr_batch *b = a->head;
        a->head = b->next;
        if (!a->head)
            a->tail = NULL;
        pthread_mutex_unlock(&a->mu);
        if (k->rc == 0 && (k->rc = consume(a, k, b, err)) < 0)
            atomic_store(&a->halt, 1); /* the output failed: stop sending */
        pthread_mutex_lock(&a->mu);
        b->next = a->spare;
        a->spare = b;
    }
    int64_t now = pr_loop_now_ns();
    if (k->rc == 0 && k->sink->n && now - k->last_flush >= FLUSH_NS) {
        k->last_flush = now;
        pthread_mutex_unlock(&a->mu);
        if ((k->rc = pr_sink_flush(k->sink, err)) < 0)
            atomic_store(&a->halt, 1);
        pthread_mutex_lock(&a->mu);
    }
}

/* Consumes until the `started` workers are done, with the progress callback. */
static void consume_all(pr_engine *a, consumer *k, int started, pr_error *err)
{
    const pr_attack_opts *o = a->o;
    int64_t next_progress = pr_loop_now_ns() + o->progress_interval_ns;
    pthread_mutex_lock(&a->mu);
    for (;;) {
        drain(a, k, err);
        if (a->head)
            continue; /* handed over while drain flushed the sink (mu released) */
        if (a->finished == started)
            break;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += WAIT_NS;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&a->cv, &a->mu, &ts);
        int64_t t = pr_loop_now_ns();
        if (o->progress && o->progress_interval_ns > 0 && t >= next_progress) {
            next_progress = t + o->progress_interval_ns;
            pthread_mutex_unlock(&a->mu);
            stats_fill(a, k, t);
            o->progress(o->progress_payload, &k->st);
            pthread_mutex_lock(&a->mu);
        }
    }
    pthread_mutex_unlock(&a->mu);
}

/* ---- setup and teardown ---- */

static void engine_free(pr_engine *a)
{
    for (int i = 0; a->w && i < a->nworkers; i++) {
        pr_worker *w = &a->w[i];
        for (size_t j = 0; j < w->nall; j++)
            free(w->all[j]);
        free(w->all);
        free(w->idle);
        free(w->addr_idx);
        free(w->b);
        pr_loop_free(w->loop);
    }
    free(a->w);
    for (pr_batch *b = a->head, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    for (pr_batch *b = a->spare, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    pr_endpoints_free(a);
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

/* Interns every target's method, URL and label ("METHOD URL") once. */
static void intern_targets(pr_engine *a)
{
    size_t nt = a->targets->n;
    a->target_str = pr_xcalloc(3 * nt, sizeof *a->target_str);
    for (size_t i = 0; i < nt; i++) {
        const pr_target *t = &a->targets->v[i];
        a->target_str[3 * i] = pr_strtab_intern_cstr(a->strings, t->method);
        a->target_str[3 * i + 1] = pr_strtab_intern_cstr(a->strings, t->url);
        char *label = pr_xasprintf("%s %s", t->method, t->url);
        a->target_str[3 * i + 2] = pr_strtab_intern_cstr(a->strings, label);
        free(label);
    }
}

/* Worker i's share of the run. */
static void worker_init(pr_engine *a, int i)
{
    const pr_attack_opts *o = a->o;
    pr_worker *w = &a->w[i];
    int W = a->nworkers;
    w->a = a;
    w->id = i;
    w->idle = pr_xcalloc(a->neps, sizeof *w->idle);
    w->addr_idx = pr_xcalloc(a->neps, sizeof *w->addr_idx);
    char name[64];
    if (o->nshards > 1)
        snprintf(name, sizeof name, "shard-%d-worker-%d", o->shard, i);
    else
        snprintf(name, sizeof name, "worker-%d", i);
    w->thread_str = pr_strtab_intern_cstr(a->strings, name);
    w->end_deadline = o->duration_ns > 0 && o->timeout_ns > 0
                          ? a->t0_mono + o->duration_ns + o->timeout_ns
                          : INT64_MAX;
    if (o->model == PR_LOAD_OPEN) {
        pr_sched_init(&w->sched, o->rate_per_s, o->duration_ns, o->requests, o->shard, o->nshards,
                      i, W);
        w->kcount = pr_sched_count(&w->sched);
        int cap = o->max_connections > 0 ? o->max_connections : PR_ATTACK_MAX_CONNECTIONS;
        w->max_open = (int)pr_attack_share(cap, i, W);
        if (w->max_open < 1)
            w->max_open = 1;
    } else {
        int64_t conns = pr_attack_share(o->connections, o->shard, o->nshards);
        int64_t reqs = o->requests > 0 ? pr_attack_share(o->requests, o->shard, o->nshards) : -1;
        w->nconns = (int)pr_attack_share(conns, i, W);
        w->quota = reqs < 0 ? -1 : pr_attack_share(reqs, i, W);
        w->end_mono = o->duration_ns > 0 ? a->t0_mono + o->duration_ns : INT64_MAX;
        w->next_target = (uint64_t)o->shard * (uint64_t)W + (uint64_t)i;
        w->max_open = w->nconns;
    }
}

/* Resolves, sets up TLS and the workers' state (not their threads). */
static int engine_setup(pr_engine *a, const pr_attack_opts *o, pr_error *err)
{
    memset(a, 0, sizeof *a);
    a->o = o;
    a->targets = o->targets;
    a->strings = pr_strtab_new();
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->cv, NULL);
    int rc = pr_endpoints_resolve(a, err);
    if (rc < 0 || (rc = pr_tls_setup(a, err)) < 0)
        return rc;
    intern_targets(a);
    int64_t now_mono = pr_loop_now_ns(), now_real = real_now_ns();
    a->mono_to_real = now_real - now_mono;
    a->t0_mono = o->start_real_ns > 0 ? o->start_real_ns - a->mono_to_real
                                      : now_mono + 5000000; /* 5 ms for the threads to start */
    a->nworkers = nworkers_for(o);
    a->w = pr_xcalloc((size_t)a->nworkers, sizeof *a->w);
    for (int i = 0; i < a->nworkers; i++) {
        a->w[i].loop = pr_loop_new();
        if (!a->w[i].loop)
            return pr_error_set(err, PR_EIO, NULL, 0, 0, "cannot create an event loop: %s",
                                strerror(errno));
        worker_init(a, i);
    }
    return 0;
}

/* The workers' final counts into the figures and the run's metadata. */
static void finish(pr_engine *a, consumer *k, int started)
{
    int64_t first = INT64_MAX, last = 0, issue_end = 0;
    for (int i = 0; i < started; i++) {
        pr_worker *w = &a->w[i];
        k->st.cut += w->cut;
        k->st.connections_opened += w->opened;
        k->st.inflight_at_issue_end += w->inflight_at_issue_end;
        k->st.unsent += (uint64_t)(w->kcount - w->k);
        k->sent[i] = w->sent;
        if (w->sent && w->first_send < first)
            first = w->first_send;
        if (w->sent && w->last_send > last)
            last = w->last_send;
        if (w->issue_end > issue_end)
            issue_end = w->issue_end;
    }
    stats_fill(a, k, pr_loop_now_ns());
    k->st.issue_end_ns = issue_end > a->t0_mono ? issue_end - a->t0_mono : 0;
    k->st.interrupted = a->o->stop && atomic_load(a->o->stop);
    if (k->st.sent > 1 && last > first)
        k->st.send_rate_per_s = (double)(k->st.sent - 1) * 1e9 / (double)(last - first);
    pr_run *run = k->sink->run;
    pr_run_meta_set(run, "interrupted", json_boolean(k->st.interrupted));
    pr_run_meta_set(run, "sent_requests", json_integer((json_int_t)k->st.sent));
    if (k->st.cut)
        pr_run_meta_set(run, "cut_requests", json_integer((json_int_t)k->st.cut));
    if (k->st.unsent)
        pr_run_meta_set(run, "unsent_requests", json_integer((json_int_t)k->st.unsent));
    if (a->o->model == PR_LOAD_OPEN)
        pr_run_meta_set(run, "lateness_p99_ns", json_integer(k->st.lateness_p99_ns));
    pr_run_meta_set(run, "connections_opened", json_integer((json_int_t)k->st.connections_opened));
}

int pr_attack_run(const pr_attack_opts *o, pr_sink *sink, pr_attack_stats *out, pr_error *err)
{
    int rc = pr_attack_validate(o, err);
    if (rc < 0)
        return rc;
    pr_engine A, *a = &A;
    if ((rc = engine_setup(a, o, err)) < 0) {
        engine_free(a);
        return rc;
    }
    consumer K = {.sink = sink, .last_flush = pr_loop_now_ns()};
    pr_hist_init(&K.lat);
    pr_hist_init(&K.late);
    K.sent = pr_xcalloc((size_t)a->nworkers, sizeof *K.sent);
    int started = 0;
    while (started < a->nworkers &&
           pthread_create(&a->w[started].th, NULL, pr_worker_main, &a->w[started]) == 0)
        started++;
    if (started < a->nworkers) { /* could not start every worker: stop those running */
        atomic_store(&a->halt, 1);
        rc = pr_error_set(err, PR_EIO, NULL, 0, 0, "cannot start worker threads");
    }
    pr_error sink_err;
    pr_error_clear(&sink_err);
    consume_all(a, &K, started, &sink_err);
    for (int i = 0; i < started; i++)
        pthread_join(a->w[i].th, NULL);
    finish(a, &K, started);
    if (K.rc == 0)
        K.rc = pr_sink_flush(sink, &sink_err);
    if (rc == 0 && K.rc < 0) {
        rc = K.rc;
        *err = sink_err;
    }
    if (out)
        *out = K.st;
    pr_hist_dispose(&K.lat);
    pr_hist_dispose(&K.late);
    free(K.xlat);
    free(K.sent);
    engine_free(a);
    return rc;
}
