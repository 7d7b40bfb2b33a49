/* `perfreport ingest`: detect each input's format, parse it into the store, one transaction per file. */
#include "analysis/human.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "analysis/view_stats.h"
#include "cli/views.h"
#include "gen/loop.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "parsers/join.h"
#include "parsers/parser.h"
#include "parsers/sniff.h"
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The progress line of an ingest on a terminal: a sink observer (pr_sink.progress), so the
 * consumer's callbacks and their payload stay the store's. At most five times a second it
 * says the samples so far and, for a regular file, the share read and the time left at the
 * pace so far ("results.bin: 45%, 1.20 M samples, 3.10 s left"). */
typedef struct progress {
    const char *name;
    pr_input *in;
    long long size;    /* the file's size, 0 when not a regular file */
    int64_t t0, shown; /* ns, CLOCK_MONOTONIC */
} progress;

static void progress_show(unsigned long long total, void *p)
{
    progress *g = p;
    int64_t now = pr_loop_now_ns();
    if (now - g->shown < 200000000)
        return;
    g->shown = now;
    char n[32], left[32];
    if (total >= 1000000)
        snprintf(n, sizeof n, "%.2f M", (double)total / 1e6);
    else
        snprintf(n, sizeof n, "%llu", total);
    double f = g->size > 0 ? (double)pr_input_offset(g->in) / (double)g->size : 0;
    if (f > 0 && f <= 1) {
        pr_human_duration((int64_t)((double)(now - g->t0) * (1 - f) / f), left, sizeof left);
        fprintf(stderr, "\r%s: %.0f%%, %s samples, %s left\033[K", g->name, 100 * f, n, left);
    } else {
        fprintf(stderr, "\r%s: %s samples…\033[K", g->name, n);
    }
}

static int parse_tag(const char *arg, char **key, char **value)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return -1;
    *key = pr_xstrndup(arg, (size_t)(eq - arg));
    *value = pr_xstrdup(eq + 1);
    return 0;
}

/* Suffixes a tool adds to one prefix for the files of one run: Locust's --csv PREFIX writes
 * PREFIX_stats.csv, PREFIX_stats_history.csv, PREFIX_failures.csv, … */
static const char *const run_suffixes[] = {"_stats_history", "_stats",    "_failures",
                                           "_exceptions",    "_requests", "_distribution"};

/* File name without folders, without its last extension and without a run suffix. */
static char *base_of(const char *path)
{
    const char *b = strrchr(path, '/');
    char *s = pr_xstrdup(b ? b + 1 : path);
    char *dot = strrchr(s, '.');
    if (dot && dot != s)
        *dot = 0;
    size_t n = strlen(s);
    for (size_t i = 0; i < sizeof run_suffixes / sizeof run_suffixes[0]; i++) {
        size_t k = strlen(run_suffixes[i]);
        if (n > k && !strcmp(s + n - k, run_suffixes[i])) {
            s[n - k] = 0;
            break;
        }
    }
    return s;
}

/* --run-id: the shared run (of a distributed attack) the inputs land in as shards. */
typedef struct shard_target {
    const char *run_id;
    int index, count; /* index -1: each input's own meta "shard" says */
} shard_target;

/* What the options ask for. */
typedef struct ingest_args {
    const char *store, *name, *metafile;
    const pr_parser *forced;
    const char **tags; /* KEY=VALUE, as typed */
    int ntags, force, quiet;
    shard_target shard;
    pr_parse_opts po;
    json_t *user_meta; /* --meta FILE's object */
} ingest_args;

/* The input at path and the parser for it (--format, else its content's). */
static int open_input(const ingest_args *a, const char *path, pr_input **in, const pr_parser **p)
{
    pr_error err;
    pr_error_clear(&err);
    *in = pr_input_open(path, &err);
    if (!*in) {
        pr_cli_print_error(&err);
        return PR_EXIT_ERROR;
    }
    *p = a->forced;
    if (!*p) {
        size_t got;
        const unsigned char *head = pr_input_peek(*in, PR_SNIFF_WINDOW, &got);
        *p = pr_parser_sniff(head, got, NULL);
        if (!*p) {
            pr_cli_errorf("%s: unrecognised format (name one with --format; `perfreport formats` "
                          "lists them)",
                          pr_input_name(*in));
            pr_input_close(*in);
            return PR_EXIT_ERROR;
        }
    }
    return 0;
}

/* The run's tags and --meta from the options. */
static void label_run(const ingest_args *a, pr_run *run)
{
    for (int i = 0; i < a->ntags; i++) {
        char *k = NULL, *v = NULL;
        if (parse_tag(a->tags[i], &k, &v) == 0)
            pr_run_tag(run, k, v);
        free(k);
        free(v);
    }
    if (a->user_meta) /* --meta: the report metadata (purpose, versions…) kept with the run */
        pr_run_meta_set(run, "report", json_deep_copy(a->user_meta));
}

/* Parses the input into the sink (a progress line on a terminal), joined with the run's
 * earlier inputs; an input cut short is a warning. */
static int parse_input(const ingest_args *a, const char *path, pr_input *in, const pr_parser *p,
                       pr_sink *sink, pr_error *err)
{
    /* the run's earlier inputs (ab's text beside its -g file…) are joined with this one after
     * the parse, in an order of their own (parsers/join.h); --split-runs makes new runs */
    pr_run *joined = a->po.split_runs ? NULL : sink->run;
    json_t *parts = joined ? pr_join_begin(joined) : NULL;
    pr_run_set_format(sink->run, p->name, p->tool);
    label_run(a, sink->run);
    struct stat sb;
    int64_t t0 = pr_loop_now_ns();
    progress g = {pr_input_name(in), in,
                  !strcmp(path, "-") || stat(path, &sb) || !S_ISREG(sb.st_mode) ? 0 : sb.st_size,
                  t0, t0};
    int tty = !a->quiet && isatty(2);
    if (tty) {
        sink->progress = progress_show;
        sink->progress_payload = &g;
    }
    sink->in = in; /* positions for the sink's own warnings */
    sink->line = 0;
    unsigned splits = sink->splits;
    int rc = p->parse(in, sink, &a->po, err);
    if (rc == PR_ETRUNC) {
        pr_cli_print_warning(err);
        rc = 0;
    }
    if (rc == 0)
        rc = pr_sink_flush(sink, err);
    sink->in = NULL;
    sink->line = 0;
    if (parts && sink->splits != splits) /* a JTL's sessions far apart: runs of their own */
        json_decref(parts);
    else if (parts)
        pr_join_end(joined, parts, path, (int64_t)sink->total);
    if (tty) {
        fprintf(stderr, "\r\033[K");
        sink->progress = NULL;
        sink->progress_payload = NULL;
    }
    if (rc == 0)
        rc = pr_input_drain(in, err);
    return rc;
}

/* The line that says where an input went. */
static void report_ingest(const char *input, const pr_parser *p, const pr_ingest_result *res,
                          int summary_only, int has_summary)
{
    char *runname = pr_text_visible_dup(res->name, 0); /* from the file (Vegeta's attack) */
    if (res->shard_count)
        printf("%s: %s, %lld samples -> run %lld '%s' as shard %d of %d (%d of %d in)\n", input,
               p->name, (long long)res->samples, (long long)res->run_id, runname, res->shard_index,
               res->shard_count, res->shards_landed, res->shard_count);
    else if (summary_only)
        printf("%s: %s, summary only -> run %lld '%s'\n", input, p->name, (long long)res->run_id,
               runname);
    else if (res->samples == 0 && has_summary)
        printf("%s: %s, printed summary attached -> run %lld '%s'\n", input, p->name,
               (long long)res->run_id, runname);
    else if (res->runs > 1)
        printf("%s: %s, %lld samples -> %d runs (last %lld)\n", input, p->name,
               (long long)res->samples, res->runs, (long long)res->run_id);
    else
        printf("%s: %s, %lld samples -> run %lld '%s'\n", input, p->name, (long long)res->samples,
               (long long)res->run_id, runname);
    free(runname);
}

/* Inputs from this size on are ingested with pr_store_bulk_writes. */
#define BULK_MIN ((off_t)16 << 20)

/* One input, one transaction: into the run `name` (NULL: a new one) or the --run-id shard. */
static int ingest_one(pr_store *st, const ingest_args *a, const char *path, const char *name,
                      pr_ingest_result *out, pr_cli_view_ready *ready, int *have_ready)
{
    pr_input *in;
    const pr_parser *p;
    int rc = open_input(a, path, &in, &p);
    if (rc)
        return rc;
    pr_error err;
    pr_error_clear(&err);
    pr_ingest *ing;
    const shard_target *shard = &a->shard;
    /* a large file's blocks written once (store.h); small ones through the WAL, whose commits
     * cost no sync (200 two-sample files: 0.17-0.23 s, 1.1 s through the rollback journal) */
    struct stat sb;
    pr_store_bulk_writes(st, strcmp(path, "-") && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
                                 sb.st_size >= BULK_MIN);
    if ((shard->run_id ? pr_ingest_begin_shard(st, &ing, shard->run_id, shard->index, shard->count,
                                               path, &err)
                       : pr_ingest_begin(st, &ing, name, path, &err)) < 0) {
        pr_cli_print_error(&err);
        pr_input_close(in);
        return PR_EXIT_ERROR;
    }
    pr_sink *sink = pr_ingest_sink(ing);
    /* the views' figures from the native blocks as they are stored */
    pr_view_feed *feed = pr_view_feed_new();
    pr_ingest_observe(ing, pr_view_feed_block, feed);
    if ((rc = parse_input(a, path, in, p, sink, &err)) < 0) {
        pr_cli_print_error(&err);
        pr_ingest_abort(ing);
        pr_view_feed_free(feed);
        pr_input_close(in);
        return PR_EXIT_ERROR;
    }
    char sha[PR_DIGEST_HEX];
    pr_input_digest(in, sha);
    int summary_only = sink->run->summary_only && sink->run->samples == 0;
    int has_summary = sink->run->summary != NULL;
    pr_ingest_result res;
    rc = pr_ingest_commit(ing, sha, a->force, &res, &err);
    if (rc < 0)
        pr_cli_print_error(&err);
    else if (res.duplicate_of && !a->quiet)
        fprintf(stderr,
                "perfreport: %s: already ingested as run %d; skipped (--force to "
                "ingest again)\n",
                pr_input_name(in), res.duplicate_of);
    else if (!res.duplicate_of && !a->quiet)
        report_ingest(pr_input_name(in), p, &res, summary_only && res.samples == 0, has_summary);
    pr_input_close(in);
    if (rc == 0 && !res.duplicate_of)
        *out = res;
    if (rc == 0 && !res.duplicate_of && res.runs == 1)
        *have_ready = pr_cli_view_ready_from(st, res.run_id, feed, ready);
    pr_view_feed_free(feed);
    return rc < 0 ? PR_EXIT_ERROR : 0;
}

/* The long options without a short form. */
enum {
    OPT_JTL_COLUMNS = 256,
    OPT_JTL_TIME_FORMAT,
    OPT_TZ,
    OPT_JTL_TIMESTAMP,
    OPT_SPLIT_RUNS,
    OPT_NO_SPLIT_RUNS,
    OPT_RECOVER,
    OPT_SUBRESULTS,
    OPT_META,
    OPT_RUN_ID,
    OPT_SHARD,
    OPT_MAX_SAMPLES
};

static int parse_opt(ingest_args *a, int c, const char *arg)
{
    char *k, *v, extra;
    switch (c) {
    case 'S': a->store = arg; return 0;
    case 'n': a->name = arg; return 0;
    case 'F': a->force = 1; return 0;
    case 'q': a->quiet = 1; return 0;
    case 't':
        if (parse_tag(arg, &k, &v) < 0) {
            pr_cli_errorf("--tag expects KEY=VALUE, got '%s'", arg);
            return PR_EXIT_USAGE;
        }
        free(k);
        free(v);
        a->tags[a->ntags++] = arg;
        return 0;
    case 'f':
        if (!(a->forced = pr_parser_find(arg))) {
            pr_cli_errorf("unknown format '%s' (see perfreport formats)", arg);
            return PR_EXIT_USAGE;
        }
        return 0;
    case OPT_JTL_COLUMNS: a->po.jtl_columns = arg; return 0;
    case OPT_JTL_TIME_FORMAT: a->po.jtl_time_format = arg; return 0;
    case OPT_TZ: a->po.tz = arg; return 0;
    case OPT_JTL_TIMESTAMP:
        if (strcmp(arg, "end") && strcmp(arg, "start")) {
            pr_cli_errorf("--jtl-timestamp expects start or end");
            return PR_EXIT_USAGE;
        }
        a->po.jtl_timestamp_end = !strcmp(arg, "end");
        return 0;
    case OPT_SPLIT_RUNS: a->po.split_runs = 1; return 0;
    case OPT_NO_SPLIT_RUNS: a->po.keep_gaps = 1; return 0;
    case OPT_RECOVER: a->po.recover = 1; return 0;
    case OPT_META: a->metafile = arg; return 0;
    case OPT_RUN_ID: a->shard.run_id = arg; return 0;
    case OPT_MAX_SAMPLES:
        if (pr_lex_i64(arg, strlen(arg), &a->po.max_samples) < 0 || a->po.max_samples < 1) {
            pr_cli_errorf("--max-samples expects a sample count (1 or more)");
            return PR_EXIT_USAGE;
        }
        return 0;
    case OPT_SHARD:
        if (sscanf(arg, "%d/%d%c", &a->shard.index, &a->shard.count, &extra) != 2 ||
            a->shard.count < 1 || a->shard.index < 0 || a->shard.index >= a->shard.count) {
            pr_cli_errorf("--shard %s: expected I/N with 0 <= I < N", arg);
            return PR_EXIT_USAGE;
        }
        return 0;
    case OPT_SUBRESULTS:
        a->po.subresults = !strcmp(arg, "include")   ? PR_SUB_INCLUDE
                           : !strcmp(arg, "only")    ? PR_SUB_ONLY
                           : !strcmp(arg, "exclude") ? PR_SUB_EXCLUDE
                                                     : -1;
        if (a->po.subresults < 0) {
            pr_cli_errorf("--subresults expects exclude, include or only");
            return PR_EXIT_USAGE;
        }
        return 0;
    default: return PR_EXIT_USAGE;
    }
}

/* The inputs named after the options: at least one, stdin at most once, a shard alone. */
static int check_inputs(const ingest_args *a, int argc, char **argv)
{
    if (optind >= argc) {
        pr_cli_errorf("ingest: no input files (use - for stdin)");
        return PR_EXIT_USAGE;
    }
    if (a->shard.count && (!a->shard.run_id || argc - optind > 1 || a->name)) {
        pr_cli_errorf("--shard I/N lands one input in the shared run --run-id ID (without --name)");
        return PR_EXIT_USAGE;
    }
    int dashes = 0; /* a pipe or file on stdin ends once: the next '-' would read nothing */
    for (int i = optind; i < argc; i++)
        dashes += !strcmp(argv[i], "-");
    if (dashes > 1 && !isatty(0)) {
        pr_cli_errorf("ingest: '-' given %d times: stdin can be read only once", dashes);
        return PR_EXIT_USAGE;
    }
    return 0;
}

/* --meta FILE: a JSON object. */
static int load_meta(ingest_args *a)
{
    if (!a->metafile)
        return 0;
    json_error_t je;
    a->user_meta = json_load_file(a->metafile, 0, &je);
    if (json_is_object(a->user_meta))
        return 0;
    pr_cli_errorf("%s:%d:%d: %s", a->metafile, je.line, je.column,
                  a->user_meta ? "expected a JSON object" : je.text);
    json_decref(a->user_meta);
    a->user_meta = NULL;
    return PR_EXIT_USAGE;
}

static int parse_args(ingest_args *a, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"store", required_argument, NULL, 'S'},
        {"name", required_argument, NULL, 'n'},
        {"tag", required_argument, NULL, 't'},
        {"format", required_argument, NULL, 'f'},
        {"force", no_argument, NULL, 'F'},
        {"quiet", no_argument, NULL, 'q'},
        {"jtl-columns", required_argument, NULL, OPT_JTL_COLUMNS},
        {"jtl-time-format", required_argument, NULL, OPT_JTL_TIME_FORMAT},
        {"tz", required_argument, NULL, OPT_TZ},
        {"jtl-timestamp", required_argument, NULL, OPT_JTL_TIMESTAMP},
        {"split-runs", no_argument, NULL, OPT_SPLIT_RUNS},
        {"no-split-runs", no_argument, NULL, OPT_NO_SPLIT_RUNS},
        {"recover", no_argument, NULL, OPT_RECOVER},
        {"subresults", required_argument, NULL, OPT_SUBRESULTS},
        {"meta", required_argument, NULL, OPT_META},
        {"run-id", required_argument, NULL, OPT_RUN_ID},
        {"shard", required_argument, NULL, OPT_SHARD},
        {"max-samples", required_argument, NULL, OPT_MAX_SAMPLES},
        {NULL, 0, NULL, 0}};
    memset(a, 0, sizeof *a);
    a->tags = pr_xcalloc((size_t)argc, sizeof *a->tags);
    a->quiet = pr_cli_quiet();
    a->shard = (shard_target){NULL, -1, 0};
    int c, rc = 0;
    optind = 1;
    while (rc == 0 && (c = getopt_long(argc, argv, "n:t:f:q", longopts, NULL)) != -1)
        rc = parse_opt(a, c, optarg);
    if (rc == 0)
        rc = check_inputs(a, argc, argv);
    return rc ? rc : load_meta(a);
}

/* The name of the parser that reads the regular file at path, by its content; NULL for
 * anything else (stdin, a pipe, an unknown format). */
static const char *sniffed_format(const char *path)
{
    struct stat sb;
    if (!strcmp(path, "-") || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return NULL;
    pr_error err;
    pr_error_clear(&err);
    pr_input *in = pr_input_open(path, &err);
    if (!in)
        return NULL;
    size_t got;
    const unsigned char *head = pr_input_peek(in, PR_SNIFF_WINDOW, &got);
    const pr_parser *p = pr_parser_sniff(head, got, NULL);
    pr_input_close(in);
    return p ? p->name : NULL;
}

/* k6 writes its per-request output (--out json=, --out csv=) and its summary
 * (--summary-export=, handleSummary) under names of the user's choosing: one of each in one
 * command, neither sharing a base name with another input, are one run, named after the
 * per-request file (bases[] of the summary set to it). */
static void pair_k6(char **inputs, char **bases, int n)
{
    int samples = -1, summary = -1, nsamples = 0, nsummary = 0;
    for (int i = 0; i < n; i++) {
        int shared = 0;
        for (int j = 0; j < n; j++)
            shared |= j != i && !strcmp(bases[i], bases[j]);
        const char *f = shared ? NULL : sniffed_format(inputs[i]);
        if (f && (!strcmp(f, "k6-json") || !strcmp(f, "k6-csv"))) {
            samples = i;
            nsamples++;
        } else if (f && !strcmp(f, "k6-summary")) {
            summary = i;
            nsummary++;
        }
    }
    if (nsamples == 1 && nsummary == 1) {
        free(bases[summary]);
        bases[summary] = pr_xstrdup(bases[samples]);
    }
}

/* Every input in turn. Without --name, inputs of one command that share a base name (ab's
 * run.txt, run.tsv and run.csv) form one run, named after that base name, as do a k6
 * per-request file and k6's summary (pair_k6). Then the views of the runs changed. *stored:
 * an input landed. */
static int ingest_all(pr_store *st, const ingest_args *a, char **inputs, int n, int *stored)
{
    char **bases = pr_xcalloc((size_t)n + 1, sizeof *bases);
    int64_t *landed = NULL; /* runs changed, for the views */
    size_t nlanded = 0, caplanded = 0;
    pr_cli_view_ready *ready = NULL; /* their figures computed while stored */
    size_t nready = 0, capready = 0;
    int rc = 0;
    for (int i = 0; i < n; i++)
        bases[i] = base_of(inputs[i]);
    if (!a->name && !a->forced && !a->shard.run_id)
        pair_k6(inputs, bases, n);
    for (int i = 0; i < n; i++) {
        const char *use = a->name;
        for (int j = 0; !use && strcmp(inputs[i], "-") && j < n; j++)
            if (j != i && !strcmp(bases[i], bases[j]))
                use = bases[i];
        pr_ingest_result res = {0};
        ready = pr_xgrow(ready, &capready, nready + 1, sizeof *ready);
        int have_ready = 0;
        int r = ingest_one(st, a, inputs[i], use, &res, &ready[nready], &have_ready);
        nready += have_ready != 0;
        if (r)
            rc = r;
        else
            *stored = 1;
        for (int k = 0; k < res.runs; k++) {
            landed = pr_xgrow(landed, &caplanded, nlanded + 1, sizeof *landed);
            landed[nlanded++] = res.run_id - res.runs + 1 + k;
        }
    }
    int v = pr_cli_update_views_ready(st, landed, nlanded, ready, nready);
    if (v && !rc)
        rc = v;
    free(ready);
    free(landed);
    for (int i = 0; i < n; i++)
        free(bases[i]);
    free(bases);
    return rc;
}

/* A store this command created but stored nothing in is removed, so a failed first ingest
 * leaves no empty store behind: only when it holds no run and no other connection had it open
 * (SQLite removes the -wal and -shm files when the last one closes). */
static void remove_new_store(pr_store *st, const char *path)
{
    int64_t *ids = NULL;
    size_t n = 1;
    pr_error err;
    pr_error_clear(&err);
    int empty = pr_store_list_runs(st, &ids, &n, &err) == 0 && n == 0;
    free(ids);
    pr_store_close(st);
    char *wal = pr_xasprintf("%s-wal", path), *shm = pr_xasprintf("%s-shm", path);
    if (empty && access(wal, F_OK) != 0 && access(shm, F_OK) != 0)
        unlink(path);
    free(wal);
    free(shm);
}

static int run(int argc, char **argv)
{
    ingest_args a;
    pr_store *st;
    int rc = parse_args(&a, argc, argv);
    const char *store_path = a.store ? a.store : pr_cli_store_path();
    int store_existed = pr_store_target_is_pg(store_path) || access(store_path, F_OK) == 0;
    if (rc == 0 && (rc = pr_cli_open_store(a.store, 1, &st)) == 0) {
        int stored = 0;
        rc = ingest_all(st, &a, argv + optind, argc - optind, &stored);
        if (!store_existed && !stored)
            remove_new_store(st, store_path);
        else
            pr_store_close(st);
    }
    json_decref(a.user_meta);
    free(a.tags);
    return rc;
}

const pr_command pr_cmd_ingest = {
    "ingest", "ingest [OPTIONS] FILE…",
    "read result files into the store (format detected by content)",
    "Reads each FILE (or - for stdin) into the store. The format is detected from the\n"
    "content; --format overrides. One file is one transaction: a file that fails to parse\n"
    "leaves the store as it was. A file whose content was already ingested is skipped.\n\n"
    "options:\n"
    "  -n, --name NAME       add to the run NAME (created if missing); default: a new run\n"
    "                        named by the file (e.g. Vegeta's attack name) or its base name\n"
    "                        (stdin: 'stdin', then 'stdin-2', 'stdin-3'…)\n"
    "  -t, --tag KEY=VALUE   tag the run (repeatable)\n"
    "  -f, --format NAME     skip detection (see perfreport formats)\n"
    "      --force           ingest content that is already in the store\n"
    "  -q, --quiet           no progress line, no per-file report\n"
    "      --meta FILE.json  report metadata kept with the run (purpose, system, versions,\n"
    "                        hardware, topology, tuning…); render uses it when it gets no --meta\n"
    "      --run-id ID       land the inputs in the shared run ID as its shards (from\n"
    "                        `attack --shard I/N -o FILE`; each file says which shard it is)\n"
    "      --shard I/N       the one input is shard I of N (for files that do not say)\n"
    "      --store PATH|URL  store (default $PERFREPORT_STORE or ./perfreport.db)\n"
    "HdrHistogram: --max-samples N  what one .hgrm/.hlog may become (default: 10,000,000\n"
    "        + 1,000 a byte read)\n"
    "JMeter: --jtl-columns a,b,c  --jtl-time-format PATTERN  --tz ZONE\n"
    "        --jtl-timestamp start|end  --subresults exclude|include|only\n"
    "        --split-runs  --recover\n"
    "        --no-split-runs  keep a JTL's sessions far apart in one run (by default a gap of\n"
    "                         over an hour, or from 10 min on 1000 times the run's spacing,\n"
    "                         starts a run of its own, as --split-runs does)\n\n"
    "example:\n  perfreport ingest --tag build=1.4.2 results/*.bin\n",
    run};
