/* `perfreport attack`: the embedded load generator, writing native samples or into the store. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    "  -t, --timeout D         per request (default 30s; 0 = none)\n"
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
    "the same samples (a 4xx/5xx status is an error). The first Ctrl-C stops cleanly (the run\n"
    "is marked interrupted); a second one kills.\n"
    "Exit code 3 when no request succeeded (the samples are written all the same).\n"
    "Examples:\n"
    "  perfreport attack -r 500/s --duration 30s http://127.0.0.1:8080/ -o run.bin\n"
    "  perfreport attack -c 50 --duration 10s http://127.0.0.1:8080/ | perfreport ingest -\n";

typedef struct cfg {
    pr_attack_opts o;
    double rate_lo, rate_hi, rate_step;
    int64_t step_ns;
    const char *output;
    const char *name;
    const char *store;
    char *run_key;  /* the shared run this shard lands in, NULL for a run of its own */
    int ingest;
    int quiet;
    int live;
    char *tags[MAX_TAGS];
    int ntags;
} cfg;

/* ---- live line and summary ---- */

static void live_line(void *payload, const pr_attack_stats *st)
{
    char p50[32], p99[32];
    pr_human_duration(st->p50_ns, p50);
    pr_human_duration(st->p99_ns, p99);
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
        fprintf(f, "%s%s: %llu", i ? ", " : "", t->texts[v[i].id],
                (unsigned long long)v[i].n);
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
    fprintf(stderr, "  %-13s min %s, mean %s", title, pr_human_duration(d.min, a),
            pr_human_duration((int64_t)llround(d.mean), b));
    static const double ps[] = {50, 90, 99};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        fprintf(stderr, ", p%g %s", ps[i], pr_human_duration(pr_vals_percentile(v, ps[i]), a));
    fprintf(stderr, ", max %s\n", pr_human_duration(d.max, a));
}

static void summary(const cfg *c, const pr_attack_stats *st, tally *t, double rate)
{
    char a[32], b[32], d[32];
    pr_series *s = &t->series;
    pr_rates r;
    pr_rates_compute(s, &r);
    int64_t errors = s->count - s->unknown - s->successes;
    if (c->live)
        fputs("\r\033[K", stderr);
    if (rate > 0)
        fprintf(stderr, "rate %.6g/s: ", rate);
    fprintf(stderr, "%lld requests, success %s (%lld errors)%s\n", (long long)s->count,
            pr_human_percent(s->count ? (double)s->successes / (double)s->count : NAN, a),
            (long long)errors, st->interrupted ? ", interrupted" : "");
    fprintf(stderr, "  %-13s %s (wait %s)\n", "duration", pr_human_duration(r.duration_ns, a),
            pr_human_duration(r.wait_ns, b));
    fprintf(stderr, "  %-13s %s\n", "rate", pr_human_rate(r.rate_per_s, a));
    fprintf(stderr, "  %-13s %s\n", "throughput", pr_human_rate(r.throughput_per_s, a));
    print_dist("latency", &s->latency);
    if (s->latency.bounded)
        fprintf(stderr, "  %-13s more than %d samples: percentiles from histograms, within "
                        "0.1%%\n", "", TALLY_EXACT_MAX);
    if (c->o.model == PR_LOAD_OPEN) {
        print_dist("send lateness", &s->lateness);
        fprintf(stderr, "  %-13s %s (target %s)\n", "send rate",
                pr_human_rate(st->send_rate_per_s, a),
                pr_human_rate(c->o.rate_per_s / c->o.nshards, d));
    }
    fprintf(stderr, "  %-13s", "status codes");
    const char *sep = " ";
    for (int k = 0; k < TALLY_CODES; k++) {
        if (t->codes[k]) {
            if (k)
                fprintf(stderr, "%s%d: %llu", sep, k, (unsigned long long)t->codes[k]);
            else /* no response */
                fprintf(stderr, "%snone: %llu", sep, (unsigned long long)t->codes[k]);
            sep = ", ";
        }
    }
    fputc('\n', stderr);
    if (t->nerrors) {
        fprintf(stderr, "  %-13s ", "errors");
        print_errors(stderr, t);
        fputc('\n', stderr);
    }
    fprintf(stderr, "  %-13s %llu\n", "connections", (unsigned long long)st->connections_opened);
    if (st->abandoned)
        fprintf(stderr, "  %llu requests in flight at the stop were abandoned\n",
                (unsigned long long)st->abandoned);
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
        pr_run_meta_set(run, "step", json_pack("{s:I,s:I}", "index", (json_int_t)step, "count",
                                               (json_int_t)nsteps));
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

static int step_to_store(const cfg *c, pr_store *store, double rate, int64_t step,
                         int64_t nsteps, pr_attack_stats *st, tally *t, pr_error *err)
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
                      "'%s' --shard %d/%d %s", path, c->run_key, c->o.shard, c->o.nshards, path);
    return rc;
}

/* ---- options ---- */

static int parse_duration(const char *opt, const char *s, int64_t *out)
{
    if (pr_lex_duration(s, strlen(s), 0, out) < 0 || *out < 0) {
        if (!strcmp(s, "0")) {
            *out = 0;
            return 0;
        }
        pr_cli_errorf("%s %s: expected a duration such as 30s, 500ms, 5m", opt, s);
        return -1;
    }
    return 0;
}

static int parse_count(const char *opt, const char *s, int64_t min, int64_t *out)
{
    if (pr_lex_i64(s, strlen(s), out) < 0 || *out < min) {
        pr_cli_errorf("%s %s: expected a whole number >= %lld", opt, s, (long long)min);
        return -1;
    }
    return 0;
}

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"rate", required_argument, NULL, 'r'},       {"step", required_argument, NULL, 1},
        {"connections", required_argument, NULL, 'c'}, {"max-connections", required_argument, NULL, 2},
        {"duration", required_argument, NULL, 3},      {"requests", required_argument, NULL, 'n'},
        {"timeout", required_argument, NULL, 't'},     {"workers", required_argument, NULL, 'w'},
        {"method", required_argument, NULL, 'm'},      {"header", required_argument, NULL, 'H'},
        {"data", required_argument, NULL, 'd'},        {"targets", required_argument, NULL, 4},
        {"targets-format", required_argument, NULL, 5}, {"no-keepalive", no_argument, NULL, 6},
        {"insecure", no_argument, NULL, 'k'},          {"output", required_argument, NULL, 'o'},
        {"ingest", no_argument, NULL, 7},              {"name", required_argument, NULL, 8},
        {"tag", required_argument, NULL, 9},           {"store", required_argument, NULL, 10},
        {"shard", required_argument, NULL, 11},        {"start-at", required_argument, NULL, 12},
        {"run-id", required_argument, NULL, 13},       {"shards", required_argument, NULL, 14},
        {"shard-index-env", required_argument, NULL, 15},
        {"metrics-listen", required_argument, NULL, 16},
        {"quiet", no_argument, NULL, 'q'},             {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    if (pr_cli_wants_help(argc, argv, "attack"))
        return 0;
    cfg c;
    memset(&c, 0, sizeof c);
    pr_attack_opts_init(&c.o);
    c.o.tool_version = PR_VERSION;
    c.quiet = pr_cli_quiet();
    const char *method = "GET", *data = NULL, *targets_file = NULL, *targets_format = NULL;
    const char *rate = NULL;
    const char *headers[MAX_HEADERS];
    size_t nheaders = 0;
    int64_t v, conns = -1, maxconns = 0, shards = 0;
    const char *run_id = NULL, *index_env = NULL, *metrics_addr = NULL;
    int opt, shard_given = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "r:c:n:t:w:m:H:d:ko:q", longopts, NULL)) != -1) {
        switch (opt) {
        case 'r': rate = optarg; break;
        case 1: if (parse_duration("--step", optarg, &c.step_ns) < 0) return PR_EXIT_USAGE; break;
        case 'c': if (parse_count("--connections", optarg, 1, &conns) < 0) return PR_EXIT_USAGE; break;
        case 2: if (parse_count("--max-connections", optarg, 1, &maxconns) < 0) return PR_EXIT_USAGE; break;
        case 3: if (parse_duration("--duration", optarg, &c.o.duration_ns) < 0) return PR_EXIT_USAGE; break;
        case 'n': if (parse_count("--requests", optarg, 1, &c.o.requests) < 0) return PR_EXIT_USAGE; break;
        case 't': if (parse_duration("--timeout", optarg, &c.o.timeout_ns) < 0) return PR_EXIT_USAGE; break;
        case 'w':
            if (parse_count("--workers", optarg, 1, &v) < 0 || v > 1024) return PR_EXIT_USAGE;
            c.o.workers = (int)v;
            break;
        case 'm': method = optarg; break;
        case 'H':
            if (nheaders == MAX_HEADERS || !strchr(optarg, ':')) {
                pr_cli_errorf("-H %s: expected 'Name: value' (at most %d)", optarg, MAX_HEADERS);
                return PR_EXIT_USAGE;
            }
            headers[nheaders++] = optarg;
            break;
        case 'd': data = optarg; break;
        case 4: targets_file = optarg; break;
        case 5: targets_format = optarg; break;
        case 6: c.o.keepalive = 0; break;
        case 'k': c.o.insecure = 1; break;
        case 'o': c.output = optarg; break;
        case 7: c.ingest = 1; break;
        case 8: c.name = optarg; break;
        case 9:
            if (c.ntags == MAX_TAGS || !strchr(optarg, '=') || optarg[0] == '=') {
                pr_cli_errorf("--tag %s: expected KEY=VALUE", optarg);
                return PR_EXIT_USAGE;
            }
            c.tags[c.ntags++] = optarg;
            break;
        case 10: c.store = optarg; break;
        case 11: {
            int i, n;
            char extra;
            if (sscanf(optarg, "%d/%d%c", &i, &n, &extra) != 2 || n < 1 || i < 0 || i >= n) {
                pr_cli_errorf("--shard %s: expected I/N with 0 <= I < N", optarg);
                return PR_EXIT_USAGE;
            }
            c.o.shard = i;
            c.o.nshards = n;
            shard_given = 1;
            break;
        }
        case 13: run_id = optarg; break;
        case 14: if (parse_count("--shards", optarg, 1, &shards) < 0 || shards > 1000000) return PR_EXIT_USAGE; break;
        case 15: index_env = optarg; break;
        case 16: metrics_addr = optarg; break;
        case 12: {
            int64_t ns;
            double secs;
            if (pr_lex_rfc3339(optarg, strlen(optarg), &ns, NULL) == 0) {
                c.o.start_real_ns = ns;
            } else if (pr_lex_double(optarg, strlen(optarg), &secs) == 0 && secs > 0) {
                c.o.start_real_ns = (int64_t)(secs * 1e9);
            } else {
                pr_cli_errorf("--start-at %s: expected an RFC 3339 time or Unix seconds", optarg);
                return PR_EXIT_USAGE;
            }
            break;
        }
        case 'q': c.quiet = 1; break;
        default: return PR_EXIT_USAGE;
        }
    }
    /* model */
    pr_error err;
    pr_error_clear(&err);
    int64_t nsteps = 1;
    if (rate && conns > 0) {
        pr_cli_errorf("--rate (open model) and --connections (closed model) exclude each other");
        return PR_EXIT_USAGE;
    }
    if (rate) {
        if (pr_attack_parse_rate(rate, &c.rate_lo, &c.rate_hi, &c.rate_step, &err) < 0) {
            pr_cli_print_error(&err);
            return PR_EXIT_USAGE;
        }
        c.o.model = PR_LOAD_OPEN;
        c.o.rate_per_s = c.rate_lo;
        c.o.max_connections = (int)maxconns;
        nsteps = pr_attack_steps(c.rate_lo, c.rate_hi, c.rate_step);
        if (c.rate_step > 0) {
            if (c.step_ns <= 0) {
                pr_cli_errorf("a stepped --rate needs --step DURATION (how long each rate runs)");
                return PR_EXIT_USAGE;
            }
            if (c.o.duration_ns > 0) {
                pr_cli_errorf("a stepped --rate runs each step for --step; drop --duration");
                return PR_EXIT_USAGE;
            }
            c.o.duration_ns = c.step_ns;
        }
    } else {
        if (maxconns) {
            pr_cli_errorf("--max-connections applies to the open model (--rate)");
            return PR_EXIT_USAGE;
        }
        c.o.model = PR_LOAD_CLOSED;
        c.o.connections = conns > 0 ? (int)conns : 1;
    }
    if (c.o.duration_ns <= 0 && c.o.requests <= 0) {
        pr_cli_errorf("give --duration or --requests (see perfreport attack --help)");
        return PR_EXIT_USAGE;
    }
    /* the shard and the shared run (after the other usage checks: run_key is malloc'd) */
    if (pr_cli_shard_resolve(index_env, (int)shards, shard_given, run_id, &c.o.shard,
                             &c.o.nshards, &c.run_key) != 0)
        return PR_EXIT_USAGE;
    if (c.ingest && c.output && !c.run_key) {
        pr_cli_errorf("--ingest and -o exclude each other");
        return PR_EXIT_USAGE;
    }
    if (c.run_key && nsteps > 1) {
        pr_cli_errorf("--run-id: a stepped rate makes a run per step; run each step as its own "
                      "job");
        free(c.run_key);
        return PR_EXIT_USAGE;
    }
    /* targets */
    pr_targets t;
    pr_targets_init(&t);
    int rc = 0, exit_code = PR_EXIT_ERROR;
    unsigned char *body = NULL;
    size_t body_len = 0;
    FILE *out = NULL;
    pr_store *store = NULL;
    char *spool = NULL; /* a shard's samples before they land */
    pr_metrics *metrics = NULL;
    for (int i = optind; i < argc && rc == 0; i++)
        rc = pr_targets_add(&t, method, argv[i], NULL, 0, NULL, 0, &err);
    if (rc == 0 && (targets_file || optind == argc)) {
        const char *path = targets_file ? targets_file : "-";
        if (!targets_file && isatty(0)) {
            pr_cli_errorf("no targets: give URLs or --targets FILE (or pipe targets to stdin)");
            exit_code = PR_EXIT_USAGE;
            goto out;
        }
        pr_input *in = pr_input_open(path, &err);
        if (!in) {
            rc = PR_EIO;
        } else {
            rc = pr_targets_read(&t, in, targets_format, &err);
            pr_input_close(in);
        }
    }
    if (rc == 0 && data) {
        if (data[0] == '@') {
            rc = pr_targets_load_file(data + 1, &body, &body_len, &err);
        } else {
            body = (unsigned char *)pr_xstrdup(data);
            body_len = strlen(data);
        }
    }
    if (rc == 0)
        rc = pr_targets_finish(&t, headers, nheaders, body, body_len, c.o.keepalive, &err);
    c.o.targets = &t;
    if (rc == 0)
        rc = pr_attack_validate(&c.o, &err);
    if (rc < 0) {
        pr_cli_print_error(&err);
        exit_code = rc == PR_EUSAGE ? PR_EXIT_USAGE : PR_EXIT_ERROR;
        goto out;
    }
    /* output */
    if (c.run_key) {
        if (!c.name)
            c.name = c.run_key;
        /* the store must be there before the load starts; it is opened again to land */
        if (pr_cli_open_store(c.store, 1, &store) != 0)
            goto out;
        pr_store_close(store);
        store = NULL;
        if (!(out = open_spool(&c, &spool)))
            goto out;
    } else if (c.ingest) {
        if (pr_cli_open_store(c.store, 1, &store) != 0)
            goto out;
    } else if (c.output && strcmp(c.output, "-")) {
        out = fopen(c.output, "wb");
        if (!out) {
            pr_cli_errorf("%s: %s", c.output, strerror(errno));
            goto out;
        }
    } else {
        if (isatty(1)) {
            pr_cli_errorf("refusing to write binary samples to a terminal: use -o FILE, a pipe, "
                          "or --ingest");
            exit_code = PR_EXIT_USAGE;
            goto out;
        }
        out = stdout;
    }
    if (metrics_addr) {
        metrics = pr_metrics_new();
        if (pr_metrics_listen(metrics, metrics_addr, &err) < 0) {
            pr_cli_print_error(&err);
            exit_code = err.code == PR_EUSAGE ? PR_EXIT_USAGE : PR_EXIT_ERROR;
            goto out;
        }
        c.o.metrics = metrics;
        if (!c.quiet)
            fprintf(stderr, "metrics at http://%.*s:%d/metrics\n",
                    (int)(strrchr(metrics_addr, ':') - metrics_addr), metrics_addr,
                    pr_metrics_port(metrics));
    }
    c.live = !c.quiet && isatty(2);
    if (c.live) {
        c.o.progress = live_line;
        c.o.progress_interval_ns = 250000000;
    }
    atomic_store(&stop_flag, 0);
    c.o.stop = &stop_flag;
    struct sigaction sa, old_int;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, &old_int);
    signal(SIGPIPE, SIG_IGN);
    rc = 0;
    int64_t done = 0, succeeded = 0;
    char *why = NULL;
    for (int64_t s = 0; s < nsteps && rc == 0 && !atomic_load(&stop_flag); s++) {
        double r = c.rate_lo + (double)s * c.rate_step;
        c.o.rate_per_s = r;
        pr_attack_stats st;
        memset(&st, 0, sizeof st);
        tally tl;
        tally_init(&tl);
        if (store && !c.run_key)
            rc = step_to_store(&c, store, r, s, nsteps, &st, &tl, &err);
        else
            rc = step_to_file(&c, out, r, s, nsteps, &st, &tl, &err);
        if (!c.quiet && rc == 0)
            summary(&c, &st, &tl, nsteps > 1 ? r : 0);
        done += tl.series.count;
        succeeded += tl.series.successes;
        if (nsteps == 1 && tl.nerrors) { /* what failed, for the message below */
            size_t len;
            FILE *m = open_memstream(&why, &len);
            if (m) {
                print_errors(m, &tl);
                fclose(m);
            }
        }
        tally_dispose(&tl);
        if (c.o.start_real_ns)
            c.o.start_real_ns = 0; /* later steps start when the previous one ends */
    }
    sigaction(SIGINT, &old_int, NULL);
    if (rc < 0) {
        free(why);
        pr_cli_print_error(&err);
        goto out;
    }
    if (done > 0 && succeeded == 0)
        pr_cli_errorf("no request succeeded (%lld of %lld failed%s%s)", (long long)done,
                      (long long)done, why ? ": " : "", why ? why : "");
    free(why);
    /* a clean stop (Ctrl-C) is not an error: the run is complete up to it; a run where
     * every request failed is recorded all the same but fails, as `check` would */
    exit_code = done > 0 && succeeded == 0 ? PR_EXIT_THRESHOLD : 0;
    if (c.run_key) { /* a shard lands whatever its requests did */
        int landed = land_spool(&c, out, spool);
        out = NULL;
        if (landed != 0)
            exit_code = landed;
    }
out:
    if (out && out != stdout && fclose(out) != 0 && exit_code == 0) {
        pr_cli_errorf("%s: %s", c.output, strerror(errno));
        exit_code = PR_EXIT_ERROR;
    }
    if (out == stdout && fflush(stdout) != 0 && exit_code == 0) {
        pr_cli_errorf("stdout: %s", strerror(errno));
        exit_code = PR_EXIT_ERROR;
    }
    if (store)
        pr_store_close(store);
    pr_metrics_free(metrics);
    free(spool);
    free(c.run_key);
    free(body);
    pr_targets_dispose(&t);
    return exit_code;
}

const pr_command pr_cmd_attack = {
    "attack", "attack [OPTIONS] [URL...]", "generate load (open or closed model) and record it",
    help, run};
