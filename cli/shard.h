/* Distributed runs: which shard this process is (flags or the orchestrator's environment),
 * the run id the shards agree on, and landing one shard's samples in the shared run. */
#ifndef PR_CLI_SHARD_H
#define PR_CLI_SHARD_H
#include "store/store.h"

/* Fills *index / *count. With index_env (or count > 0 and no --shard I/N given: the index
 * then comes from JOB_COMPLETION_INDEX, as a Kubernetes Indexed Job sets it) the index is
 * read from that variable. *run_id (malloc'd, NULL when the run is not shared) is run_id,
 * else $PERFREPORT_RUN_ID, else, when the index came from the environment, the job's name:
 * $JOB_NAME, or the pod's host name without its "-INDEX" suffix (an Indexed Job's pods are
 * named JOB-INDEX). Prints the problem and returns PR_EXIT_USAGE when these do not add up. */
int pr_cli_shard_resolve(const char *index_env, int count, int shard_given, const char *run_id,
                         int *index, int *ncount, char **run_id_out);

/* Lands the native stream at `path` as shard index/count of the run `run_id` (one
 * transaction; index < 0: the stream's own meta "shard" says) and updates the views. The
 * run's format is `format` (e.g. "attack"). Prints what happened unless quiet; returns 0 or
 * PR_EXIT_ERROR. */
int pr_cli_shard_land(pr_store *st, const char *run_id, int index, int count, const char *path,
                      const char *source, const char *format, int quiet);

#endif
