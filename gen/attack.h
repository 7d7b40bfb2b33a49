/* The load generator engine: open model (a fixed schedule of intended send times, latency
 * measured from the intended time so there is no coordinated omission) and closed model
 * (fixed connections, each sending its next request when the previous one completes).
 * One worker thread per core, each with its own event loop, connections and sample
 * batches; finished batches are handed to the calling thread, which pushes them to the
 * sink. Nothing else is shared between threads. The pieces behind this header are listed
 * in gen/engine.h. */
#ifndef PR_ATTACK_H
#define PR_ATTACK_H
#include <stdatomic.h>
#include <stdint.h>
#include "gen/targets.h"
#include "model/error.h"
#include "model/run.h"
#include "model/sink.h"

#define PR_ATTACK_BATCH 1024            /* samples per worker hand-off */
#define PR_ATTACK_MAX_CONNECTIONS 10000 /* open-model default cap on connections */
#define PR_ATTACK_MAX_CONNECTING 32     /* per worker: connections being set up at once */
#define PR_ATTACK_MAX_BODY (10 << 20)   /* default --max-body: a longer body is an error */

/* ---- open-model schedule (pure arithmetic, shared with the tests) ----
 * Request g (g = 0, 1, 2, ... over all shards and workers) is intended at
 * t0 + g * period where period = 1 s / rate. Shard i of N takes g = i (mod N); within a
 * shard, worker w of W takes every W-th of those: g = i + N * (w + k * W), k = 0, 1, ...
 * Together the N shards issue exactly the schedule one generator would. Request g goes to
 * target g mod T. */
typedef struct pr_sched {
    long double period_ns;
    int64_t offset; /* i + N * w */
    int64_t stride; /* N * W */
    int64_t total;  /* requests g < total belong to the run (all shards) */
} pr_sched;

/* rate_per_s > 0; the run ends at duration_ns (g * period < duration) or after `requests`
 * requests over all shards, whichever comes first (0 = no limit of that kind; at least one
 * must be set). */
void pr_sched_init(pr_sched *s, double rate_per_s, int64_t duration_ns, int64_t requests, int shard,
                   int nshards, int worker, int nworkers);
/* Global index of this stream's k-th request. */
static inline int64_t pr_sched_global(const pr_sched *s, int64_t k)
{
    return s->offset + k * s->stride;
}
/* Intended send time of the k-th request, ns after t0. */
static inline int64_t pr_sched_time_ns(const pr_sched *s, int64_t k)
{
    return (int64_t)((long double)pr_sched_global(s, k) * s->period_ns);
}
/* Number of requests of this stream (k runs from 0 to count - 1). */
int64_t pr_sched_count(const pr_sched *s);

/* Parses a rate: "500/s", "500/1s", "30/m", "10/500ms", "500" (per second), or a stepped
 * rate "LO:HI:STEP/UNIT" (e.g. "100:1000:100/s"). Sets *lo (and *hi, *step: equal to *lo and
 * 0 for a constant rate), all in requests per second. 0 or PR_EUSAGE. */
int pr_attack_parse_rate(const char *s, double *lo, double *hi, double *step, pr_error *err);
/* Number of steps of a stepped rate (lo, lo+step, ... <= hi, with a 1e-9 relative
 * tolerance), 1 for a constant rate. The rate of step i is lo + i * step. */
int64_t pr_attack_steps(double lo, double hi, double step);

/* Splits `total` between n parts as evenly as possible: the share of part i. */
int64_t pr_attack_share(int64_t total, int i, int n);

/* Live figures, handed to the progress callback and returned at the end. */
typedef struct pr_attack_stats {
    int64_t elapsed_ns;
    uint64_t sent;      /* requests started (for the live line) */
    uint64_t completed; /* samples recorded */
    uint64_t successes; /* successes and errors as the report counts them */
    uint64_t errors;    /* (pr_sample_outcome): no response, a bad one, or a status >= 400 */
    uint64_t bytes_in, bytes_out;
    int64_t p50_ns, p90_ns, p99_ns, max_ns; /* latency (model/hist.h: within 0.1%) */
    int64_t lateness_p99_ns, lateness_max_ns;
    uint64_t status[6]; /* 0 (no response), 1xx..5xx */
    uint64_t cut;       /* in flight at a stop (error "interrupted") or at the run's end,
                           * duration + timeout (error "timeout"): recorded, latency unknown */
    uint64_t connections_opened;
    double send_rate_per_s; /* (sent - 1) / (last actual send - first actual send), at the end */
    uint64_t unsent;        /* open model: scheduled requests never sent (the run ended
                             * first: a stop, or no free connection before duration + timeout) */
    int64_t issue_end_ns;   /* elapsed when the last request of the run was sent */
    uint64_t inflight_at_issue_end; /* requests then still in flight (awaited, up to timeout) */
    int interrupted;
} pr_attack_stats;

typedef struct pr_attack_opts {
    const pr_targets *targets; /* finished (pr_targets_finish) */
    pr_load_model model;       /* PR_LOAD_OPEN or PR_LOAD_CLOSED */
    double rate_per_s;         /* open: total rate over all shards */
    int connections;           /* closed: connections over all shards */
    int max_connections;       /* open: cap per generator (0 = PR_ATTACK_MAX_CONNECTIONS) */
    int64_t duration_ns;       /* 0 = bounded by requests only */
    int64_t requests;          /* total over all shards, 0 = bounded by duration only */
    int64_t timeout_ns;        /* per request from its actual start, 0 = none; a run with a
                                 * duration ends at most timeout_ns after it */
    int64_t max_body_bytes;    /* a longer response body fails the request ("body too
                                 * large"), 0 = no limit; default PR_ATTACK_MAX_BODY */
    int workers;               /* 0 = one per online core */
    int keepalive;
    int insecure;               /* https: do not verify certificates */
    int shard, nshards;         /* this generator is shard `shard` of `nshards` (0 of 1) */
    int64_t start_real_ns;      /* schedule start, ns since the epoch (0 = now) */
    const char *tool_version;   /* recorded in the run metadata */
    atomic_int *stop;           /* set non-zero (e.g. from SIGINT) to stop cleanly; may be NULL */
    struct pr_metrics *metrics; /* live counters to update (gen/metrics.h); may be NULL */
    /* Called from the calling thread about every progress_interval_ns (0 = never). */
    void (*progress)(void *payload, const pr_attack_stats *st);
    void *progress_payload;
    int64_t progress_interval_ns;
} pr_attack_opts;

/* Sets `o` to the defaults: closed model, 1 connection... (callers fill what they need). */
void pr_attack_opts_init(pr_attack_opts *o);
/* Checks the options; 0 or PR_EUSAGE with a message. */
int pr_attack_validate(const pr_attack_opts *o, pr_error *err);
/* Fills run metadata (tool, model, offered rate, connections, targets, options) so a
 * writer can put it in its header before the attack starts. */
void pr_attack_describe(const pr_attack_opts *o, pr_run *run);
/* Runs the attack, pushing every request to `sink` as it completes (the sink is flushed
 * after each batch, about every 100 ms, so a failing output stops the attack at once).
 * Requests still in flight when it stops are recorded too, with their send time and an
 * unknown latency. Sets meta "interrupted" (the run's bounds are the sink's: model/sink.c).
 * `out` (may be NULL) gets the final figures. SIGPIPE is never raised (sockets write with
 * MSG_NOSIGNAL; workers block it for OpenSSL's writes); the process's disposition is not
 * touched. Returns 0, or a negative error (socket setup, name resolution, TLS setup, or the
 * sink's own error). */
int pr_attack_run(const pr_attack_opts *o, pr_sink *sink, pr_attack_stats *out, pr_error *err);

#endif
