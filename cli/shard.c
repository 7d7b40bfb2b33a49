/* Distributed runs: shard index and run id from flags or the environment (Kubernetes Indexed
 * Jobs), and landing a shard's native samples in the shared run as one transaction. */
#include "cli/shard.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/views.h"
#include "model/input.h"
#include "model/lex.h"
#include "model/xalloc.h"
#include "parsers/parser.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The job name from the environment: $JOB_NAME, else the host name minus "-INDEX". */
static char *job_name(int index)
{
    const char *j = getenv("JOB_NAME");
    if (j && *j)
        return pr_xstrdup(j);
    char host[256] = "";
    const char *h = getenv("HOSTNAME");
    if (h && *h)
        snprintf(host, sizeof host, "%s", h);
    else if (gethostname(host, sizeof host - 1) != 0)
        return NULL;
    char suffix[32];
    snprintf(suffix, sizeof suffix, "-%d", index);
    size_t n = strlen(host), k = strlen(suffix);
    if (n <= k || strcmp(host + n - k, suffix))
        return NULL;
    return pr_xstrndup(host, n - k);
}

int pr_cli_shard_resolve(const char *index_env, int count, int shard_given, const char *run_id,
                         int *index, int *ncount, char **run_id_out)
{
    int from_env = index_env || (count > 0 && !shard_given);
    *run_id_out = NULL;
    if (from_env) {
        const char *var = index_env ? index_env : "JOB_COMPLETION_INDEX";
        const char *v = getenv(var);
        int64_t i;
        if (count < 1) {
            pr_cli_errorf("--shard-index-env %s: give the number of shards with --shards N", var);
            return PR_EXIT_USAGE;
        }
        if (!v || !*v) {
            pr_cli_errorf("--shards %d: no shard index: $%s is not set (give --shard I/N, or "
                          "--shard-index-env NAME)",
                          count, var);
            return PR_EXIT_USAGE;
        }
        if (pr_lex_i64(v, strlen(v), &i) < 0 || i < 0 || i >= count) {
            pr_cli_errorf("$%s=%s: expected a shard index from 0 to %d", var, v, count - 1);
            return PR_EXIT_USAGE;
        }
        *index = (int)i;
        *ncount = count;
    } else if (count > 0 && count != *ncount) {
        pr_cli_errorf("--shards %d and --shard %d/%d disagree", count, *index, *ncount);
        return PR_EXIT_USAGE;
    }
    const char *env_id = getenv("PERFREPORT_RUN_ID");
    if (run_id && *run_id)
        *run_id_out = pr_xstrdup(run_id);
    else if (env_id && *env_id)
        *run_id_out = pr_xstrdup(env_id);
    else if (from_env && !(*run_id_out = job_name(*index))) {
        pr_cli_errorf("no run id for the shards to share: give --run-id ID (or set JOB_NAME, "
                      "or run where the host name is JOB-%d as in a Kubernetes Indexed Job)",
                      *index);
        return PR_EXIT_USAGE;
    }
    return 0;
}

static int land(pr_ingest *ing, pr_input *in, const char *format, pr_ingest_result *res,
                pr_error *err)
{
    pr_parse_opts po;
    memset(&po, 0, sizeof po);
    pr_sink *sink = pr_ingest_sink(ing);
    int rc = pr_parser_find("native")->parse(in, sink, &po, err);
    if (rc == 0) {
        char *tool = sink->run->tool ? pr_xstrdup(sink->run->tool) : NULL;
        pr_run_set_format(sink->run, format, tool);
        free(tool);
    }
    if (rc == 0)
        rc = pr_sink_flush(pr_ingest_sink(ing), err);
    if (rc == 0)
        rc = pr_input_drain(in, err);
    if (rc < 0) {
        pr_ingest_abort(ing);
        return rc;
    }
    char digest[PR_DIGEST_HEX];
    pr_input_digest(in, digest);
    return pr_ingest_commit(ing, digest, 0, res, err);
}

int pr_cli_shard_land(pr_store *st, const char *run_id, int index, int count, const char *path,
                      const char *source, const char *format, int quiet)
{
    pr_error err;
    pr_error_clear(&err);
    pr_input *in = pr_input_open(path, &err);
    pr_ingest *ing = NULL;
    pr_ingest_result res;
    memset(&res, 0, sizeof res);
    int rc = in ? pr_ingest_begin_shard(st, &ing, run_id, index, count, source, &err) : PR_EIO;
    if (rc == 0)
        rc = land(ing, in, format, &res, &err);
    pr_input_close(in);
    if (rc < 0) {
        pr_cli_print_error(&err);
        return PR_EXIT_ERROR;
    }
    if (res.duplicate_of) {
        if (!quiet)
            fprintf(stderr, "perfreport: %s: already landed in run %d; skipped\n", source,
                    res.duplicate_of);
        return 0;
    }
    if (!quiet)
        fprintf(stderr,
                "-> run %lld '%s': shard %d of %d landed (%lld samples), %d of %d "
                "shards in\n",
                (long long)res.run_id, res.name, res.shard_index, res.shard_count,
                (long long)res.samples, res.shards_landed, res.shard_count);
    return pr_cli_update_views(st, &res.run_id, 1);
}
