/* `perfreport ingest`: detect each input's format, parse it into the store, one transaction per file. */
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/views.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "parsers/join.h"
#include "parsers/parser.h"
#include "parsers/sniff.h"
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct progress {
    int (*push)(void *, pr_run *, const pr_sample *, size_t, pr_error *);
    void *payload;
    const char *name;
    unsigned long long next;
    unsigned long long seen;
} progress;

static int progress_push(void *p, pr_run *run, const pr_sample *s, size_t n, pr_error *err)
{
    progress *g = p;
    g->seen += n;
    if (g->seen >= g->next) {
        fprintf(stderr, "\r%s: %llu samples…", g->name, g->seen);
        g->next += 1000000;
    }
    return g->push(g->payload, run, s, n, err);
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
static const char *const run_suffixes[] = {"_stats_history", "_stats", "_failures",
                                           "_exceptions", "_requests", "_distribution"};

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
    int index, count;  /* index -1: each input's own meta "shard" says */
} shard_target;

static int ingest_one(pr_store *st, const char *path, const char *name, const shard_target *shard,
                      const pr_parser *forced,
                      char **tags, int ntags, json_t *user_meta, const pr_parse_opts *popts,
                      int force, int quiet, pr_ingest_result *out)
{
    pr_error err;
    pr_error_clear(&err);
    pr_input *in = pr_input_open(path, &err);
    if (!in) {
        pr_cli_print_error(&err);
        return PR_EXIT_ERROR;
    }
    const pr_parser *p = forced;
    if (!p) {
        size_t got;
        const unsigned char *head = pr_input_peek(in, PR_SNIFF_WINDOW, &got);
        p = pr_parser_sniff(head, got, NULL);
        if (!p) {
            pr_cli_errorf("%s: unrecognised format (name one with --format; `perfreport formats` "
                          "lists them)", pr_input_name(in));
            pr_input_close(in);
            return PR_EXIT_ERROR;
        }
    }
    pr_ingest *ing;
    if ((shard->run_id ? pr_ingest_begin_shard(st, &ing, shard->run_id, shard->index,
                                               shard->count, path, &err)
                       : pr_ingest_begin(st, &ing, name, path, &err)) < 0) {
        pr_cli_print_error(&err);
        pr_input_close(in);
        return PR_EXIT_ERROR;
    }
    pr_sink *sink = pr_ingest_sink(ing);
    /* the run's earlier inputs (ab's text beside its -g file…) are joined with this one after
     * the parse, in an order of their own (parsers/join.h); --split-runs makes new runs */
    pr_run *joined = popts->split_runs ? NULL : sink->run;
    json_t *parts = joined ? pr_join_begin(joined) : NULL;
    pr_run_set_format(sink->run, p->name, p->tool);
    for (int i = 0; i < ntags; i++) {
        char *k = NULL, *v = NULL;
        if (parse_tag(tags[i], &k, &v) == 0)
            pr_run_tag(sink->run, k, v);
        free(k);
        free(v);
    }
    if (user_meta) /* --meta: the report metadata (purpose, versions…) kept with the run */
        pr_run_meta_set(sink->run, "report", json_deep_copy(user_meta));
    progress g = {sink->push, sink->payload, pr_input_name(in), 1000000, 0};
    int tty = !quiet && isatty(2);
    if (tty) {
        sink->push = progress_push;
        sink->payload = &g;
    }
    sink->in = in; /* positions for the sink's own warnings */
    sink->line = 0;
    int rc = p->parse(in, sink, popts, &err);
    if (rc == PR_ETRUNC) {
        pr_cli_print_warning(&err);
        rc = 0;
    }
    if (rc == 0)
        rc = pr_sink_flush(sink, &err);
    sink->in = NULL;
    sink->line = 0;
    if (parts)
        pr_join_end(joined, parts, path, (int64_t)sink->total);
    if (tty) {
        fprintf(stderr, "\r\033[K");
        sink->push = g.push;
        sink->payload = g.payload;
    }
    if (rc == 0)
        rc = pr_input_drain(in, &err);
    if (rc < 0) {
        pr_cli_print_error(&err);
        pr_ingest_abort(ing);
        pr_input_close(in);
        return PR_EXIT_ERROR;
    }
    char sha[PR_DIGEST_HEX];
    pr_input_digest(in, sha);
    int summary_only = sink->run->summary_only && sink->run->samples == 0;
    int has_summary = sink->run->summary != NULL;
    pr_ingest_result res;
    rc = pr_ingest_commit(ing, sha, force, &res, &err);
    char *runname = pr_text_visible_dup(res.name, 0); /* from the file (Vegeta's attack) */
    summary_only &= res.samples == 0;
    if (rc < 0) {
        pr_cli_print_error(&err);
    } else if (res.duplicate_of) {
        if (!quiet)
            fprintf(stderr, "perfreport: %s: already ingested as run %d; skipped (--force to "
                            "ingest again)\n", pr_input_name(in), res.duplicate_of);
    } else if (!quiet) {
        if (res.shard_count)
            printf("%s: %s, %lld samples -> run %lld '%s' as shard %d of %d (%d of %d in)\n",
                   pr_input_name(in), p->name, (long long)res.samples, (long long)res.run_id,
                   runname, res.shard_index, res.shard_count, res.shards_landed,
                   res.shard_count);
        else if (summary_only)
            printf("%s: %s, summary only -> run %lld '%s'\n", pr_input_name(in), p->name,
                   (long long)res.run_id, runname);
        else if (res.samples == 0 && has_summary)
            printf("%s: %s, printed summary attached -> run %lld '%s'\n", pr_input_name(in),
                   p->name, (long long)res.run_id, runname);
        else if (res.runs > 1)
            printf("%s: %s, %lld samples -> %d runs (last %lld)\n", pr_input_name(in), p->name,
                   (long long)res.samples, res.runs, (long long)res.run_id);
        else
            printf("%s: %s, %lld samples -> run %lld '%s'\n", pr_input_name(in), p->name,
                   (long long)res.samples, (long long)res.run_id, runname);
    }
    free(runname);
    pr_input_close(in);
    if (rc == 0 && !res.duplicate_of)
        *out = res;
    return rc < 0 ? PR_EXIT_ERROR : 0;
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
    static const struct option longopts[] = {
        {"store", required_argument, NULL, 'S'},  {"name", required_argument, NULL, 'n'},
        {"tag", required_argument, NULL, 't'},    {"format", required_argument, NULL, 'f'},
        {"force", no_argument, NULL, 'F'},        {"quiet", no_argument, NULL, 'q'},
        {"jtl-columns", required_argument, NULL, 1}, {"jtl-time-format", required_argument, NULL, 2},
        {"tz", required_argument, NULL, 3},       {"jtl-timestamp", required_argument, NULL, 4},
        {"split-runs", no_argument, NULL, 5},     {"recover", no_argument, NULL, 6},
        {"subresults", required_argument, NULL, 7}, {"meta", required_argument, NULL, 8},
        {"run-id", required_argument, NULL, 9},   {"shard", required_argument, NULL, 10},
        {NULL, 0, NULL, 0}};
    const char *store = NULL, *name = NULL, *metafile = NULL;
    const pr_parser *forced = NULL;
    char **tags = pr_xcalloc((size_t)argc, sizeof *tags);
    int ntags = 0, force = 0, quiet = pr_cli_quiet(), c, rc = 0;
    shard_target shard = {NULL, -1, 0};
    pr_parse_opts po;
    memset(&po, 0, sizeof po);
    optind = 1;
    while ((c = getopt_long(argc, argv, "n:t:f:q", longopts, NULL)) != -1) {
        switch (c) {
        case 'S': store = optarg; break;
        case 'n': name = optarg; break;
        case 't': {
            char *k, *v;
            if (parse_tag(optarg, &k, &v) < 0) {
                pr_cli_errorf("--tag expects KEY=VALUE, got '%s'", optarg);
                free(tags);
                return PR_EXIT_USAGE;
            }
            free(k);
            free(v);
            tags[ntags++] = optarg;
            break;
        }
        case 'f':
            forced = pr_parser_find(optarg);
            if (!forced) {
                pr_cli_errorf("unknown format '%s' (see perfreport formats)", optarg);
                free(tags);
                return PR_EXIT_USAGE;
            }
            break;
        case 'F': force = 1; break;
        case 'q': quiet = 1; break;
        case 1: po.jtl_columns = optarg; break;
        case 2: po.jtl_time_format = optarg; break;
        case 3: po.tz = optarg; break;
        case 4:
            if (strcmp(optarg, "end") && strcmp(optarg, "start")) {
                pr_cli_errorf("--jtl-timestamp expects start or end");
                free(tags);
                return PR_EXIT_USAGE;
            }
            po.jtl_timestamp_end = !strcmp(optarg, "end");
            break;
        case 5: po.split_runs = 1; break;
        case 8: metafile = optarg; break;
        case 6: po.recover = 1; break;
        case 9: shard.run_id = optarg; break;
        case 10: {
            char extra;
            if (sscanf(optarg, "%d/%d%c", &shard.index, &shard.count, &extra) != 2 ||
                shard.count < 1 || shard.index < 0 || shard.index >= shard.count) {
                pr_cli_errorf("--shard %s: expected I/N with 0 <= I < N", optarg);
                free(tags);
                return PR_EXIT_USAGE;
            }
            break;
        }
        case 7:
            po.subresults = !strcmp(optarg, "include") ? PR_SUB_INCLUDE
                            : !strcmp(optarg, "only") ? PR_SUB_ONLY
                            : !strcmp(optarg, "exclude") ? PR_SUB_EXCLUDE : -1;
            if (po.subresults < 0) {
                pr_cli_errorf("--subresults expects exclude, include or only");
                free(tags);
                return PR_EXIT_USAGE;
            }
            break;
        default: free(tags); return PR_EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        pr_cli_errorf("ingest: no input files (use - for stdin)");
        free(tags);
        return PR_EXIT_USAGE;
    }
    if (shard.count && (!shard.run_id || argc - optind > 1 || name)) {
        pr_cli_errorf("--shard I/N lands one input in the shared run --run-id ID (without --name)");
        free(tags);
        return PR_EXIT_USAGE;
    }
    int dashes = 0; /* a pipe or file on stdin ends once: the next '-' would read nothing */
    for (int i = optind; i < argc; i++)
        dashes += !strcmp(argv[i], "-");
    if (dashes > 1 && !isatty(0)) {
        pr_cli_errorf("ingest: '-' given %d times: stdin can be read only once", dashes);
        free(tags);
        return PR_EXIT_USAGE;
    }
    json_t *user_meta = NULL;
    if (metafile) {
        json_error_t je;
        user_meta = json_load_file(metafile, 0, &je);
        if (!json_is_object(user_meta)) {
            pr_cli_errorf("%s:%d:%d: %s", metafile, je.line, je.column,
                          user_meta ? "expected a JSON object" : je.text);
            json_decref(user_meta);
            free(tags);
            return PR_EXIT_USAGE;
        }
    }
    pr_store *st;
    const char *store_path = store ? store : pr_cli_store_path();
    int store_existed = pr_store_target_is_pg(store_path) || access(store_path, F_OK) == 0;
    if ((rc = pr_cli_open_store(store, 1, &st)) != 0) {
        json_decref(user_meta);
        free(tags);
        return rc;
    }
    int stored = 0;
    /* Without --name, inputs of one command that share a base name (ab's run.txt, run.tsv
     * and run.csv) form one run, named after that base name. */
    char **bases = pr_xcalloc((size_t)argc, sizeof *bases);
    int64_t *landed = NULL; /* runs changed, for the views */
    size_t nlanded = 0, caplanded = 0;
    for (int i = optind; i < argc; i++)
        bases[i] = base_of(argv[i]);
    for (int i = optind; i < argc; i++) {
        const char *use = name;
        if (!use && strcmp(argv[i], "-")) {
            for (int j = optind; j < argc; j++)
                if (j != i && !strcmp(bases[i], bases[j]))
                    use = bases[i];
        }
        pr_ingest_result res = {0};
        int r = ingest_one(st, argv[i], use, &shard, forced, tags, ntags, user_meta, &po, force,
                           quiet, &res);
        if (r)
            rc = r;
        else
            stored = 1;
        for (int k = 0; k < res.runs; k++) {
            landed = pr_xgrow(landed, &caplanded, nlanded + 1, sizeof *landed);
            landed[nlanded++] = res.run_id - res.runs + 1 + k;
        }
    }
    int v = pr_cli_update_views(st, landed, nlanded);
    if (v && !rc)
        rc = v;
    free(landed);
    for (int i = optind; i < argc; i++)
        free(bases[i]);
    free(bases);
    json_decref(user_meta);
    if (!store_existed && !stored)
        remove_new_store(st, store_path);
    else
        pr_store_close(st);
    free(tags);
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
    "JMeter: --jtl-columns a,b,c  --jtl-time-format PATTERN  --tz ZONE\n"
    "        --jtl-timestamp start|end  --subresults exclude|include|only\n"
    "        --split-runs  --recover\n\n"
    "example:\n  perfreport ingest --tag build=1.4.2 results/*.bin\n",
    run};
