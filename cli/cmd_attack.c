/* `perfreport attack`: the embedded load generator, writing native samples or into the store.
 * run() is: parse the options (one table), open the targets and the output, run each step
 * through the library (gen/attack.h) and print its summary, close. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "analysis/human.h"
#include "analysis/stats.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/shard.h"
#include "cli/views.h"
#include "gen/attack.h"
#include "gen/metrics.h"
#include "gen/targets.h"
#include "model/input.h"
#include "model/lex.h"
#include "model/native.h"
#include "model/xalloc.h"
#include "store/store.h"

#define MAX_HEADERS 256
#define MAX_TAGS 64

static atomic_int stop_flag;

static void on_sigint(int sig)
{
    atomic_store(&stop_flag, 1);
    signal(sig, SIG_DFL); /* a second Ctrl-C kills */
}

static const char help[] =
    "Sends HTTP requests and records every outcome as samples (the native format on stdout or\n"
    "-o FILE, or straight into the store with --ingest).\n\n"
    "Targets:\n"
    "  URL...                  targets on the command line (round robin)\n"
    "  --targets FILE          Vegeta targets: HTTP format (METHOD URL, header lines, @body)\n"
    "                          or JSON lines (method, url, body base64, header); '-' = stdin.\n"
    "                          Without URLs or --targets, targets are read from stdin.\n"
    "  --targets-format F      http or json (default: told from the content)\n"
    "  -m, --method M          method for command-line URLs (default GET)\n"
    "  -H, --header 'N: V'     header added to every request (repeatable)\n"
    "  -d, --data BODY|@FILE   body for requests whose target has none\n"
    "Load model (one of):\n"
    "  -r, --rate R            open model: R = N/s, N/m, N/500ms, N (per second). Latency is\n"
    "                          measured from the intended send time (no coordinated omission);\n"
    "                          the send lateness is recorded per sample.\n"
    "  -r LO:HI:STEP/s --step D  stepped open model: each rate for D, each step its own run\n"
    "                          tagged rate=N\n"
    "  -c, --connections N     closed model: N connections, each sending when the last ends\n"
    "  --max-connections N     open model: cap on connections (default 10000)\n"
    "Limits:\n"
    "  --duration D            e.g. 30s, 5m (per step for stepped rates: use --step)\n"
    "  -n, --requests N        total requests\n"
    "  -t, --timeout D         per request (default 30s; 0 = none). A run with --duration ends\n"
    "                          at most D after it: what is still in flight then times out\n"
    "  --max-body SIZE         a longer response body fails the request (\"body too large\");\n"
    "                          bytes, or with k/M/G (KiB/MiB/GiB); default 10M, 0 = no limit\n"
    "Connection:\n"
    "  --no-keepalive          one connection per request\n"
    "  -k, --insecure          https: do not verify the server certificate\n"
    "  -w, --workers N         worker threads (default: one per core)\n"
    "Several machines:\n"
    "  --shard I/N             be generator I of N: 1/N of the rate (interleaved schedule) and\n"
    "                          of the connections and requests; see docs/distributed.md\n"
    "  --start-at T            common schedule start (RFC 3339 or Unix seconds)\n"
    "  --shards N              N generators, this one's index from $JOB_COMPLETION_INDEX\n"
    "                          (a Kubernetes Indexed Job) or --shard-index-env NAME\n"
    "  --run-id ID             land this shard in the store's shared run ID (one transaction\n"
    "                          when the attack ends; default $PERFREPORT_RUN_ID, or the job\n"
    "                          name when the index comes from the environment)\n"
    "Output:\n"
    "  -o, --output FILE       native sample stream (default stdout, not a terminal)\n"
    "  --ingest                write into the store instead (with --store, --name, --tag)\n"
    "  --name NAME, --tag K=V  run name and tags\n"
    "  -q, --quiet             no live line, no summary\n"
    "  --metrics-listen H:P    serve live OpenMetrics/Prometheus text at http://H:P/metrics\n"
    "                          while the attack runs (requests by label and status, latency\n"
    "                          and send-lateness histograms, sent, in flight)\n"
    "A live line (elapsed, sent, completed, rate, p50/p99, errors) is shown on stderr when it\n"
    "is a terminal, and a summary at the end, with the figures `perfreport summary` gives for\n"
    "the same samples (a 4xx/5xx status is an error). The first Ctrl-C stops cleanly: the run\n"
    "is marked interrupted, requests still in flight 1 s later are recorded as errors\n"
    "\"interrupted\" with their send time; a second Ctrl-C kills. The attack stops as soon as\n"
    "its output cannot be written (e.g. `attack | head` once head exits).\n"
    "Exit code 3 when no request succeeded (the samples are written all the same).\n"
    "Examples:\n"
    "  perfreport attack -r 500/s --duration 30s http://127.0.0.1:8080/ -o run.bin\n"
    "  perfreport attack -c 50 --duration 10s http://127.0.0.1:8080/ | perfreport ingest -\n";

typedef struct cfg {
    pr_attack_opts o;
    /* as given */
    const char *rate, *method, *data, *targets_file, *targets_format;
    const char *output, *name, *store, *run_id, *index_env, *metrics_addr;
    const char *headers[MAX_HEADERS];
    size_t nheaders;
    const char *tags[MAX_TAGS];
    int ntags;
    int64_t conns, maxconns, shards, step_ns, workers;
    int shard_given, ingest, quiet, no_keepalive, insecure;
    /* derived */
    double rate_lo, rate_hi, rate_step;
    int64_t nsteps;
    char *run_key; /* the shared run this shard lands in, NULL for a run of its own */
    int live;
} cfg;

/* ---- live line and summary ---- */

static void live_line(void *payload, const pr_attack_stats *st)
{
    char p50[32], p99[32];
    pr_human_duration(st->p50_ns, p50, sizeof p50);
    pr_human_duration(st->p99_ns, p99, sizeof p99);
    double secs = (double)st->elapsed_ns / 1e9;
    fprintf(stderr, "\r\033[K%6.1fs  sent %llu  done %llu  %.0f req/s  p50 %s  p99 %s  errors %llu",
            secs, (unsigned long long)st->sent, (unsigned long long)st->completed,
            secs > 0 ? (double)st->completed / secs : 0.0, p50, p99,
            (unsigned long long)st->errors);
}

/* The end-of-step summary is computed by the report's own code (analysis/stats.c:
 * pr_series_add with pr_sample_outcome, pr_rates_compute, nearest-rank percentiles) over
 * the samples as they are written, so `attack` and `summary` print the same figures. */
#define TALLY_EXACT_MAX 1000000 /* samples kept exactly; beyond, histograms (0.1%) */
#define TALLY_CODES 1000

typedef struct tally {
    int (*push)(pr_run *, const pr_sample *, size_t, pr_error *, void *);
    void *payload;
    pr_series series;
    uint64_t codes[TALLY_CODES]; /* by HTTP status; 0 = no response */
    uint64_t *errors;            /* by the run's string id of the error text */
    char **texts;                /* the error texts (copies: the run may be gone) */
    size_t nerrors;
} tally;

static void tally_init(tally *t)
{
    memset(t, 0, sizeof *t);
    pr_series_init(&t->series);
}

static void tally_dispose(tally *t)
{
    pr_series_dispose(&t->series);
    for (size_t i = 0; i < t->nerrors; i++)
        free(t->texts[i]);
    free(t->texts);
    free(t->errors);
}

static int tally_push(pr_run *run, const pr_sample *s, size_t n, pr_error *err, void *p)
{
    tally *t = p;
    for (size_t i = 0; i < n; i++) {
        uint32_t e = s[i].error;
        pr_series_add(&t->series, &s[i], pr_sample_outcome(&s[i]));
        t->codes[s[i].status < TALLY_CODES ? s[i].status : TALLY_CODES - 1]++;
        if (e == PR_NOSTR)
            continue;
        if (e >= t->nerrors) {
            size_t old = t->nerrors, cap = t->nerrors;
            t->errors = pr_xgrow(t->errors, &cap, (size_t)e + 1, sizeof *t->errors);
            t->texts = pr_xrealloc(t->texts, cap * sizeof *t->texts);
            memset(t->errors + old, 0, (cap - old) * sizeof *t->errors);
            memset(t->texts + old, 0, (cap - old) * sizeof *t->texts);
            t->nerrors = cap;
        }
        if (!t->errors[e]++)
            t->texts[e] = pr_xstrdup(pr_run_str(run, e));
    }
    if (!t->series.latency.bounded && t->series.count > TALLY_EXACT_MAX)
        pr_series_make_bounded(&t->series);
    return t->push(run, s, n, err, t->payload);
}

/* Puts the tally between the sink and its consumer. */
static void tally_attach(tally *t, pr_sink *sink)
{
    t->push = sink->push;
    t->payload = sink->payload;
    sink->push = tally_push;
    sink->payload = t;
}

typedef struct err_count {
    uint32_t id;
    uint64_t n;
} err_count;

static int cmp_err_count(const void *x, const void *y)
{
    const err_count *a = x, *b = y;
    if (a->n != b->n)
        return a->n > b->n ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

/* "connection refused: 50, timeout: 2": the most frequent first (as `summary`), at most 5. */
static void print_errors(FILE *f, const tally *t)
{
    err_count *v = pr_xmalloc((t->nerrors + 1) * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; i < t->nerrors; i++)
        if (t->errors[i])
            v[n++] = (err_count){(uint32_t)i, t->errors[i]};
    qsort(v, n, sizeof *v, cmp_err_count);
    for (size_t i = 0; i < n && i < 5; i++)
        fprintf(f, "%s%s: %llu", i ? ", " : "", t->texts[v[i].id], (unsigned long long)v[i].n);
    if (n > 5)
        fprintf(f, ", … %zu more", n - 5);
    free(v);
}

static void print_dist(const char *title, pr_vals *v)
{
    if (!pr_vals_count(v))
        return;
    pr_dist d;
    pr_vals_dist(v, &d);
    char a[32], b[32];
    fprintf(stderr, "  %-13s min %s, mean %s", title, pr_human_duration(d.min, a, sizeof a),
            pr_human_duration((int64_t)llround(d.mean), b, sizeof b));
    static const double ps[] = {50, 90, 99};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        fprintf(stderr, ", p%g %s", ps[i],
                pr_human_duration(pr_vals_percentile(v, ps[i]), a, sizeof a));
    fprintf(stderr, ", max %s\n", pr_human_duration(d.max, a, sizeof a));
}

static void print_codes(const tally *t)
{
    fprintf(stderr, "  %-13s", "status codes");
    const char *sep = " ";
    for (int k = 0; k < TALLY_CODES; k++) {
        if (!t->codes[k])
            continue;
        if (k)
            fprintf(stderr, "%s%d: %llu", sep, k, (unsigned long long)t->codes[k]);
        else /* no response */
            fprintf(stderr, "%snone: %llu", sep, (unsigned long long)t->codes[k]);
        sep = ", ";
    }
    fputc('\n', stderr);
}

/* How the run ended: what was in flight when the schedule ended, what was cut or unsent. */
static void print_end(const cfg *c, const pr_attack_stats *st)
{
    char a[32], b[32];
    if (st->inflight_at_issue_end && !st->interrupted)
        fprintf(stderr, "  %-13s %llu at the end of the schedule (%s), the last done %s later%s\n",
                "in flight", (unsigned long long)st->inflight_at_issue_end,
                pr_human_duration(st->issue_end_ns, a, sizeof a),
                pr_human_duration(st->elapsed_ns - st->issue_end_ns, b, sizeof b),
                c->o.timeout_ns > 0 && c->o.duration_ns > 0 ? " (at most --timeout)" : "");
    if (st->cut)
        fprintf(stderr, "  %llu %s in flight at the %s recorded as %s (latency unknown)\n",
                (unsigned long long)st->cut, st->cut == 1 ? "request" : "requests",
                st->interrupted ? "stop:" : "end (duration + timeout):",
                st->interrupted ? "interrupted" : "timeout");
    if (st->unsent && !st->interrupted)
        fprintf(stderr,
                "  %llu scheduled %s never sent: no free connection before the end "
                "(duration + timeout)\n",
                (unsigned long long)st->unsent, st->unsent == 1 ? "request" : "requests");
}

static void summary(const cfg *c, const pr_attack_stats *st, tally *t, double rate)
{
    char a[32], b[32], tt[32];
    pr_series *s = &t->series;
    pr_rates r;
    pr_rates_compute(s, &r);
    int64_t errors = s->count - s->unknown - s->successes;
    if (c->live)
        fputs("\r\033[K", stderr);
    if (rate > 0)
        fprintf(stderr, "rate %.6g/s: ", rate);
    fprintf(stderr, "%lld requests, success %s (%lld errors)%s\n", (long long)s->count,
            pr_human_percent(s->count ? (double)s->successes / (double)s->count : NAN, a, sizeof a),
            (long long)errors, st->interrupted ? ", interrupted" : "");
    fprintf(stderr, "  %-13s %s (wait %s, test time %s)\n", "duration",
            pr_human_duration(r.duration_ns, a, sizeof a),
            pr_human_duration(r.wait_ns, b, sizeof b),
            pr_human_duration(r.duration_ns + r.wait_ns, tt, sizeof tt));
    fprintf(stderr, "  %-13s %s\n", "rate", pr_human_rate(r.rate_per_s, a, sizeof a));
    fprintf(stderr, "  %-13s %s\n", "throughput", pr_human_rate(r.throughput_per_s, a, sizeof a));
    print_dist("latency", &s->latency);
    if (s->latency.bounded)
        fprintf(stderr,
                "  %-13s more than %d samples: percentiles from histograms, within "
                "0.1%%\n",
                "", TALLY_EXACT_MAX);
    if (c->o.model == PR_LOAD_OPEN) {
        print_dist("send lateness", &s->lateness);
        fprintf(stderr, "  %-13s %s (target %s)\n", "send rate",
                pr_human_rate(st->send_rate_per_s, a, sizeof a),
                pr_human_rate(c->o.rate_per_s / c->o.nshards, b, sizeof b));
    }
    print_codes(t);
    if (t->nerrors) {
        fprintf(stderr, "  %-13s ", "errors");
        print_errors(stderr, t);
        fputc('\n', stderr);
    }
    fprintf(stderr, "  %-13s %llu\n", "connections", (unsigned long long)st->connections_opened);
    print_end(c, st);
}

/* ---- one step into a sink: describe() fills the run, pr_attack_run() pushes samples to
 * any pr_sink (native file below, the store with --ingest) ---- */

static void describe(const cfg *c, pr_run *run, const char *name, double rate, int64_t step,
                     int64_t nsteps)
{
    pr_attack_describe(&c->o, run);
    pr_run_set_name(run, name ? name : c->name ? c->name : "attack");
    for (int i = 0; i < c->ntags; i++) {
        char *eq = strchr(c->tags[i], '=');
        char *k = pr_xstrndup(c->tags[i], (size_t)(eq - c->tags[i]));
        pr_run_tag(run, k, eq + 1);
        free(k);
    }
    if (nsteps > 1) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.6g", rate);
        pr_run_tag(run, "rate", buf);
        pr_run_meta_set(
            run, "step",
            json_pack("{s:I,s:I}", "index", (json_int_t)step, "count", (json_int_t)nsteps));
    }
}

/* Native output: every pushed batch is written and flushed, so a crash loses at most it. */
typedef struct native_out {
    pr_native_writer *w;
} native_out;

static int native_push(pr_run *run, const pr_sample *s, size_t n, pr_error *err, void *p)
{
    native_out *no = p;
    int rc = pr_native_writer_push(no->w, run, s, n, err);
    return rc < 0 ? rc : pr_native_writer_flush(no->w, err);
}

static int step_to_file(const cfg *c, FILE *f, double rate, int64_t step, int64_t nsteps,
                        pr_attack_stats *st, tally *t, pr_error *err)
{
    pr_run *run = pr_run_new();
    describe(c, run, NULL, rate, step, nsteps);
    native_out no = {pr_native_writer_new(f, run, err)};
    if (!no.w) {
        pr_run_free(run);
        return PR_EIO;
    }
    pr_sink *sink = pr_xmalloc(sizeof *sink);
    pr_sink_init(sink, run, native_push, &no);
    tally_attach(t, sink);
    int rc = pr_attack_run(&c->o, sink, st, err);
    pr_error e2;
    int rc2 = pr_native_writer_close(no.w, run, rc < 0 ? &e2 : err);
    free(sink);
    pr_run_free(run);
    return rc < 0 ? rc : rc2;
}

static int step_to_store(const cfg *c, pr_store *store, double rate, int64_t step, int64_t nsteps,
                         pr_attack_stats *st, tally *t, pr_error *err)
{
    pr_ingest *ing;
    char *name = NULL;
    if (c->name && nsteps > 1)
        name = pr_xasprintf("%s rate=%.6g", c->name, rate);
    int rc = pr_ingest_begin(store, &ing, name ? name : c->name, "attack", err);
    if (rc < 0) {
        free(name);
        return rc;
    }
    pr_sink *sink = pr_ingest_sink(ing);
    describe(c, sink->run, name, rate, step, nsteps);
    free(name);
    tally_attach(t, sink);
    rc = pr_attack_run(&c->o, sink, st, err);
    sink->push = t->push;
    sink->payload = t->payload;
    if (rc < 0) {
        pr_ingest_abort(ing);
        return rc;
    }
    pr_ingest_result res;
    rc = pr_ingest_commit(ing, NULL, 1, &res, err);
    if (rc == 0 && !c->quiet)
        fprintf(stderr, "-> run %lld (%lld samples)\n", (long long)res.run_id,
                (long long)res.samples);
    if (rc == 0 && pr_cli_update_views(store, &res.run_id, 1) != 0)
        rc = pr_error_set(err, PR_ESTORE, NULL, 0, 0, "the views are not up to date");
    return rc;
}

/* ---- a shard of a shared run: samples spool to a file, landing in one transaction at the
 * end (so shards of one run never hold the run's lock while they send) ---- */

static FILE *open_spool(const cfg *c, char **path)
{
    if (c->output && strcmp(c->output, "-")) {
        *path = pr_xstrdup(c->output);
    } else {
        const char *tmp = getenv("TMPDIR");
        *path = pr_xasprintf("%s/perfreport-shard-XXXXXX.prf", tmp && *tmp ? tmp : "/tmp");
        int fd = mkstemps(*path, 4);
        if (fd < 0) {
            pr_cli_errorf("%s: %s", *path, strerror(errno));
            return NULL;
        }
        close(fd);
    }
    FILE *f = fopen(*path, "wb");
    if (!f)
        pr_cli_errorf("%s: %s", *path, strerror(errno));
    return f;
}

/* The store is opened again here: a connection idle for the whole attack may be gone. */
static int land_spool(const cfg *c, FILE *spool, const char *path)
{
    if (fclose(spool) != 0) {
        pr_cli_errorf("%s: %s", path, strerror(errno));
        return PR_EXIT_ERROR;
    }
    pr_store *store;
    int rc = pr_cli_open_store(c->store, 1, &store);
    if (rc == 0) {
        rc = pr_cli_shard_land(store, c->run_key, c->o.shard, c->o.nshards, path, "attack",
                               "attack", c->quiet);
        pr_store_close(store);
    }
    if (rc == 0 && !c->output)
        unlink(path);
    else if (rc != 0)
        pr_cli_errorf("the samples are kept in %s: land them with perfreport ingest --run-id "
                      "'%s' --shard %d/%d %s",
                      path, c->run_key, c->o.shard, c->o.nshards, path);
    return rc;
}

/* ---- options: one table ---- */

static int parse_duration(const char *opt, const char *s, int64_t *out)
{
    if (!strcmp(s, "0")) {
        *out = 0;
        return 0;
    }
    if (pr_lex_duration(s, strlen(s), 0, out) < 0 || *out < 0) {
        pr_cli_errorf("--%s %s: expected a duration such as 30s, 500ms, 5m", opt, s);
        return -1;
    }
    return 0;
}

static int parse_count(const char *opt, const char *s, int64_t min, int64_t max, int64_t *out)
{
    if (pr_lex_i64(s, strlen(s), out) < 0 || *out < min || *out > max) {
        pr_cli_errorf("--%s %s: expected a whole number from %lld to %lld", opt, s, (long long)min,
                      (long long)max);
        return -1;
    }
    return 0;
}

/* A byte count: digits with an optional k, M or G suffix (KiB, MiB, GiB: powers of 1024). */
static int parse_size(const char *opt, const char *s, int64_t *out)
{
    static const struct {
        const char *suffix;
        int shift;
    } units[] = {{"", 0},   {"k", 10},   {"K", 10}, {"KiB", 10},
                 {"M", 20}, {"MiB", 20}, {"G", 30}, {"GiB", 30}};
    size_t digits = strspn(s, "0123456789");
    int64_t v;
    for (size_t i = 0; digits && i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(s + digits, units[i].suffix) && pr_lex_i64(s, digits, &v) == 0 &&
            v <= (INT64_MAX >> units[i].shift)) {
            *out = v << units[i].shift;
            return 0;
        }
    pr_cli_errorf("--%s %s: expected a size in bytes such as 65536, 512k, 10M (0 = no limit)", opt,
                  s);
    return -1;
}

static int opt_header(cfg *c, const char *arg)
{
    if (c->nheaders == MAX_HEADERS || !strchr(arg, ':')) {
        pr_cli_errorf("-H %s: expected 'Name: value' (at most %d)", arg, MAX_HEADERS);
        return -1;
    }
    c->headers[c->nheaders++] = arg;
    return 0;
}

static int opt_tag(cfg *c, const char *arg)
{
    if (c->ntags == MAX_TAGS || !strchr(arg, '=') || arg[0] == '=') {
        pr_cli_errorf("--tag %s: expected KEY=VALUE", arg);
        return -1;
    }
    c->tags[c->ntags++] = arg;
    return 0;
}

static int opt_shard(cfg *c, const char *arg)
{
    int i, n;
    char extra;
    if (sscanf(arg, "%d/%d%c", &i, &n, &extra) != 2 || n < 1 || i < 0 || i >= n) {
        pr_cli_errorf("--shard %s: expected I/N with 0 <= I < N", arg);
        return -1;
    }
    c->o.shard = i;
    c->o.nshards = n;
    c->shard_given = 1;
    return 0;
}

static int opt_start_at(cfg *c, const char *arg)
{
    int64_t ns;
    double secs;
    if (pr_lex_rfc3339(arg, strlen(arg), &ns, NULL) == 0) {
        c->o.start_real_ns = ns;
    } else if (pr_lex_double(arg, strlen(arg), &secs) == 0 && secs > 0) {
        c->o.start_real_ns = (int64_t)(secs * 1e9);
    } else {
        pr_cli_errorf("--start-at %s: expected an RFC 3339 time or Unix seconds", arg);
        return -1;
    }
    /* a schedule that began in the past would send every missed request at once (or find
     * them all overdue): refused, with a second of grace for clocks and start-up */
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    int64_t now_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
    if (c->o.start_real_ns < now_ns - 1000000000) {
        pr_cli_errorf("--start-at %s is in the past: give a time a few seconds ahead (every "
                      "shard starts its schedule on it)",
                      arg);
        return -1;
    }
    return 0;
}

enum arg_kind { A_STR, A_FLAG, A_DURATION, A_COUNT, A_SIZE, A_FN };

typedef struct attack_opt {
    const char *name;
    char short_name; /* 0 = long option only */
    enum arg_kind kind;
    size_t field; /* offset in cfg (A_FN: unused) */
    int64_t max;  /* A_COUNT: largest value (the smallest is 1) */
    int (*fn)(cfg *c, const char *arg);
} attack_opt;

#define F(member) offsetof(cfg, member)
static const attack_opt options[] = {
    {"rate", 'r', A_STR, F(rate), 0, NULL},
    {"step", 0, A_DURATION, F(step_ns), 0, NULL},
    {"connections", 'c', A_COUNT, F(conns), 1000000, NULL},
    {"max-connections", 0, A_COUNT, F(maxconns), 1000000, NULL},
    {"duration", 0, A_DURATION, F(o.duration_ns), 0, NULL},
    {"requests", 'n', A_COUNT, F(o.requests), INT64_MAX, NULL},
    {"timeout", 't', A_DURATION, F(o.timeout_ns), 0, NULL},
    {"max-body", 0, A_SIZE, F(o.max_body_bytes), 0, NULL},
    {"workers", 'w', A_COUNT, F(workers), 1024, NULL},
    {"method", 'm', A_STR, F(method), 0, NULL},
    {"header", 'H', A_FN, 0, 0, opt_header},
    {"data", 'd', A_STR, F(data), 0, NULL},
    {"targets", 0, A_STR, F(targets_file), 0, NULL},
    {"targets-format", 0, A_STR, F(targets_format), 0, NULL},
    {"no-keepalive", 0, A_FLAG, F(no_keepalive), 0, NULL},
    {"insecure", 'k', A_FLAG, F(insecure), 0, NULL},
    {"output", 'o', A_STR, F(output), 0, NULL},
    {"ingest", 0, A_FLAG, F(ingest), 0, NULL},
    {"name", 0, A_STR, F(name), 0, NULL},
    {"tag", 0, A_FN, 0, 0, opt_tag},
    {"store", 0, A_STR, F(store), 0, NULL},
    {"shard", 0, A_FN, 0, 0, opt_shard},
    {"start-at", 0, A_FN, 0, 0, opt_start_at},
    {"run-id", 0, A_STR, F(run_id), 0, NULL},
    {"shards", 0, A_COUNT, F(shards), 1000000, NULL},
    {"shard-index-env", 0, A_STR, F(index_env), 0, NULL},
    {"metrics-listen", 0, A_STR, F(metrics_addr), 0, NULL},
    {"quiet", 'q', A_FLAG, F(quiet), 0, NULL},
};
#undef F
#define NOPTIONS (sizeof options / sizeof options[0])

/* Stores one option's argument where the table says. 0 or -1 (printed). */
static int apply_option(cfg *c, const attack_opt *d, const char *arg)
{
    char *field = (char *)c + d->field;
    switch (d->kind) {
    case A_STR: *(const char **)field = arg; return 0;
    case A_FLAG: *(int *)field = 1; return 0;
    case A_DURATION: return parse_duration(d->name, arg, (int64_t *)field);
    case A_COUNT: return parse_count(d->name, arg, 1, d->max, (int64_t *)field);
    case A_SIZE: return parse_size(d->name, arg, (int64_t *)field);
    case A_FN: return d->fn(c, arg);
    }
    return -1;
}

/* getopt_long over the table: a short option returns its letter, a long-only one 256 + i. */
static int parse_options(cfg *c, int argc, char **argv)
{
    struct option longopts[NOPTIONS + 1];
    char shortopts[2 * NOPTIONS + 1];
    size_t ns = 0;
    for (size_t i = 0; i < NOPTIONS; i++) {
        const attack_opt *d = &options[i];
        int has_arg = d->kind == A_FLAG ? no_argument : required_argument;
        longopts[i] =
            (struct option){d->name, has_arg, NULL, d->short_name ? d->short_name : 256 + (int)i};
        if (d->short_name) {
            shortopts[ns++] = d->short_name;
            if (has_arg)
                shortopts[ns++] = ':';
        }
    }
    longopts[NOPTIONS] = (struct option){NULL, 0, NULL, 0};
    shortopts[ns] = 0;
    optind = 1;
    for (int opt; (opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1;) {
        size_t i = opt >= 256 ? (size_t)(opt - 256) : 0;
        while (opt < 256 && i < NOPTIONS && options[i].short_name != opt)
            i++;
        if (i >= NOPTIONS || apply_option(c, &options[i], optarg) < 0)
            return PR_EXIT_USAGE;
    }
    return 0;
}

static int usage(const char *msg)
{
    pr_cli_errorf("%s", msg);
    return PR_EXIT_USAGE;
}

/* The load model from the options. 0 or PR_EXIT_USAGE (printed). */
static int choose_model(cfg *c)
{
    c->nsteps = 1;
    if (c->rate && c->conns > 0)
        return usage("--rate (open model) and --connections (closed model) exclude "
                     "each other");
    if (!c->rate) {
        if (c->maxconns)
            return usage("--max-connections applies to the open model (--rate)");
        c->o.model = PR_LOAD_CLOSED;
        c->o.connections = c->conns > 0 ? (int)c->conns : 1;
        return 0;
    }
    pr_error err;
    if (pr_attack_parse_rate(c->rate, &c->rate_lo, &c->rate_hi, &c->rate_step, &err) < 0) {
        pr_cli_print_error(&err);
        return PR_EXIT_USAGE;
    }
    c->o.model = PR_LOAD_OPEN;
    c->o.rate_per_s = c->rate_lo;
    c->o.max_connections = (int)c->maxconns;
    c->nsteps = pr_attack_steps(c->rate_lo, c->rate_hi, c->rate_step);
    if (c->rate_step > 0) {
        if (c->step_ns <= 0)
            return usage("a stepped --rate needs --step DURATION (how long each rate "
                         "runs)");
        if (c->o.duration_ns > 0)
            return usage("a stepped --rate runs each step for --step; drop --duration");
        c->o.duration_ns = c->step_ns;
    }
    return 0;
}

/* Options into c, checked against each other. 0 or PR_EXIT_USAGE (printed). */
static int parse_args(cfg *c, int argc, char **argv)
{
    memset(c, 0, sizeof *c);
    pr_attack_opts_init(&c->o);
    c->o.tool_version = PR_VERSION;
    c->method = "GET";
    c->quiet = pr_cli_quiet();
    int rc = parse_options(c, argc, argv);
    if (rc != 0)
        return rc;
    c->o.workers = (int)c->workers;
    c->o.keepalive = !c->no_keepalive;
    c->o.insecure = c->insecure;
    if ((rc = choose_model(c)) != 0)
        return rc;
    if (c->o.duration_ns <= 0 && c->o.requests <= 0)
        return usage("give --duration or --requests (see perfreport attack --help)");
    /* the shard and the shared run, after the other usage checks (run() frees run_key) */
    if (pr_cli_shard_resolve(c->index_env, (int)c->shards, c->shard_given, c->run_id, &c->o.shard,
                             &c->o.nshards, &c->run_key) != 0)
        return PR_EXIT_USAGE;
    if (c->ingest && c->output && !c->run_key)
        return usage("--ingest and -o exclude each other");
    if (c->run_key && c->nsteps > 1)
        return usage("--run-id: a stepped rate makes a run per step; run each step as "
                     "its own job");
    return 0;
}

/* ---- what run() opens and closes ---- */

typedef struct session {
    pr_targets t;
    unsigned char *body;
    size_t body_len;
    FILE *out;
    pr_store *store;
    char *spool; /* a shard's samples before they land */
    pr_metrics *metrics;
} session;

/* URLs from the command line, --targets or stdin, the body, the serialised requests. */
static int load_targets(cfg *c, session *s, int nurls, char **urls, pr_error *err)
{
    int rc = 0;
    for (int i = 0; i < nurls && rc == 0; i++)
        rc = pr_targets_add(&s->t, c->method, urls[i], NULL, 0, NULL, 0, err);
    if (rc == 0 && (c->targets_file || nurls == 0)) {
        if (!c->targets_file && isatty(0))
            return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                                "no targets: give URLs or --targets FILE (or pipe targets to "
                                "stdin)");
        pr_input *in = pr_input_open(c->targets_file ? c->targets_file : "-", err);
        if (!in)
            return PR_EIO;
        rc = pr_targets_read(&s->t, in, c->targets_format, err);
        pr_input_close(in);
    }
    if (rc == 0 && c->data && c->data[0] == '@') {
        rc = pr_targets_load_file(c->data + 1, &s->body, &s->body_len, err);
    } else if (rc == 0 && c->data) {
        s->body = (unsigned char *)pr_xstrdup(c->data);
        s->body_len = strlen(c->data);
    }
    if (rc == 0)
        rc = pr_targets_finish(&s->t, c->headers, c->nheaders, s->body, s->body_len, c->o.keepalive,
                               err);
    c->o.targets = &s->t;
    return rc < 0 ? rc : pr_attack_validate(&c->o, err);
}

/* The native stream (-o, stdout), the store (--ingest) or a shard's spool. 0 or PR_EXIT_*. */
static int open_output(cfg *c, session *s)
{
    if (c->run_key) {
        if (!c->name)
            c->name = c->run_key;
        /* the store must be there before the load starts; it is opened again to land */
        if (pr_cli_open_store(c->store, 1, &s->store) != 0)
            return PR_EXIT_ERROR;
        pr_store_close(s->store);
        s->store = NULL;
        return (s->out = open_spool(c, &s->spool)) ? 0 : PR_EXIT_ERROR;
    }
    if (c->ingest)
        return pr_cli_open_store(c->store, 1, &s->store) != 0 ? PR_EXIT_ERROR : 0;
    if (c->output && strcmp(c->output, "-")) {
        if ((s->out = fopen(c->output, "wb")))
            return 0;
        pr_cli_errorf("%s: %s", c->output, strerror(errno));
        return PR_EXIT_ERROR;
    }
    if (isatty(1))
        return usage("refusing to write binary samples to a terminal: use -o FILE, a "
                     "pipe, or --ingest");
    pr_cli_stdout_binary(); /* the native stream, not text (cli/common.h) */
    s->out = stdout;
    return 0;
}

static int open_metrics(cfg *c, session *s)
{
    pr_error err;
    s->metrics = pr_metrics_new();
    if (pr_metrics_listen(s->metrics, c->metrics_addr, &err) < 0) {
        pr_cli_print_error(&err);
        return err.code == PR_EUSAGE ? PR_EXIT_USAGE : PR_EXIT_ERROR;
    }
    c->o.metrics = s->metrics;
    if (!c->quiet)
        fprintf(stderr, "metrics at http://%.*s:%d/metrics\n",
                (int)(strrchr(c->metrics_addr, ':') - c->metrics_addr), c->metrics_addr,
                pr_metrics_port(s->metrics));
    return 0;
}

static int open_session(cfg *c, session *s, int nurls, char **urls)
{
    pr_error err;
    pr_error_clear(&err);
    int rc = load_targets(c, s, nurls, urls, &err);
    if (rc < 0) {
        pr_cli_print_error(&err);
        return rc == PR_EUSAGE ? PR_EXIT_USAGE : PR_EXIT_ERROR;
    }
    if ((rc = open_output(c, s)) != 0 || (c->metrics_addr && (rc = open_metrics(c, s)) != 0))
        return rc;
    c->live = !c->quiet && isatty(2);
    if (c->live) {
        c->o.progress = live_line;
        c->o.progress_interval_ns = 250000000;
    }
    return 0;
}

static int close_session(cfg *c, session *s, int exit_code)
{
    if (s->out && s->out != stdout && fclose(s->out) != 0 && exit_code == 0) {
        pr_cli_errorf("%s: %s", c->output, strerror(errno));
        exit_code = PR_EXIT_ERROR;
    }
    if (s->out == stdout && fflush(stdout) != 0 && exit_code == 0) {
        pr_cli_errorf("stdout: %s", strerror(errno));
        exit_code = PR_EXIT_ERROR;
    }
    if (s->store)
        pr_store_close(s->store);
    pr_metrics_free(s->metrics);
    free(s->spool);
    free(c->run_key);
    free(s->body);
    pr_targets_dispose(&s->t);
    return exit_code;
}

/* ---- the steps ---- */

typedef struct outcome {
    int64_t done, succeeded;
    char *why; /* what failed, for the final message (one step only) */
} outcome;

static int attack_step(cfg *c, session *s, int64_t step, outcome *res, pr_error *err)
{
    double r = c->rate_lo + (double)step * c->rate_step;
    c->o.rate_per_s = r;
    pr_attack_stats st;
    memset(&st, 0, sizeof st);
    tally tl;
    tally_init(&tl);
    int rc = s->store ? step_to_store(c, s->store, r, step, c->nsteps, &st, &tl, err)
                      : step_to_file(c, s->out, r, step, c->nsteps, &st, &tl, err);
    if (!c->quiet && rc == 0)
        summary(c, &st, &tl, c->nsteps > 1 ? r : 0);
    if (rc < 0) {
        pr_cli_print_error(err);
        if (st.sent) /* e.g. the output pipe closed: nothing more is sent */
            fprintf(stderr, "perfreport: the attack stopped after %llu requests (%.1f s)\n",
                    (unsigned long long)st.sent, (double)st.elapsed_ns / 1e9);
    }
    res->done += tl.series.count;
    res->succeeded += tl.series.successes;
    if (c->nsteps == 1 && tl.nerrors) {
        size_t len;
        FILE *m = open_memstream(&res->why, &len);
        if (m) {
            print_errors(m, &tl);
            fclose(m);
        }
    }
    tally_dispose(&tl);
    c->o.start_real_ns = 0; /* later steps start when the previous one ends */
    return rc;
}

/* Every step; then the exit code: 0, 3 when requests completed and none succeeded (the
 * samples are written all the same, as `check` would fail), 1 on an error. */
static int attack_all(cfg *c, session *s)
{
    atomic_store(&stop_flag, 0);
    c->o.stop = &stop_flag;
    struct sigaction sa, old_int;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, &old_int);
    signal(SIGPIPE, SIG_IGN); /* a closed output is a write error (the attack stops) */
    pr_error err;
    pr_error_clear(&err);
    outcome res = {0, 0, NULL};
    int rc = 0;
    for (int64_t step = 0; step < c->nsteps && rc == 0 && !atomic_load(&stop_flag); step++)
        rc = attack_step(c, s, step, &res, &err);
    sigaction(SIGINT, &old_int, NULL);
    int exit_code = 0;
    if (rc < 0) {
        exit_code = PR_EXIT_ERROR; /* printed by attack_step */
    } else if (res.done > 0 && res.succeeded == 0) {
        pr_cli_errorf("no request succeeded (%lld of %lld failed%s%s)", (long long)res.done,
                      (long long)res.done, res.why ? ": " : "", res.why ? res.why : "");
        exit_code = PR_EXIT_THRESHOLD;
    }
    free(res.why);
    if (rc == 0 && c->run_key) { /* a shard lands whatever its requests did */
        int landed = land_spool(c, s->out, s->spool);
        s->out = NULL;
        if (landed != 0)
            exit_code = landed;
    }
    return exit_code;
}

static int run(int argc, char **argv)
{
    if (pr_cli_wants_help(argc, argv, "attack"))
        return 0;
    cfg c;
    int rc = parse_args(&c, argc, argv);
    if (rc != 0) {
        free(c.run_key);
        return rc;
    }
    session s;
    memset(&s, 0, sizeof s);
    pr_targets_init(&s.t);
    rc = open_session(&c, &s, argc - optind, argv + optind);
    if (rc == 0)
        rc = attack_all(&c, &s);
    return close_session(&c, &s, rc);
}

const pr_command pr_cmd_attack = {"attack", "attack [OPTIONS] [URL...]",
                                  "generate load (open or closed model) and record it", help, run};
