/* The store's backend interface, internal to store/: the operations the common store code
 * (ingest, copy and queries, all in store.c) asks of a database. Two implementations:
 * store/sqlite.c (the embedded default) and store/pg.c (PostgreSQL through libpq). Both hold
 * the same logical schema (docs/format.md); nothing outside store/ includes this header. */
#ifndef PR_STORE_BACKEND_H
#define PR_STORE_BACKEND_H
#include <stddef.h>
#include <stdint.h>
#include "store/store.h"

typedef struct pr_store_ops pr_store_ops;

/* Every backend's handle starts with this. */
struct pr_store {
    const pr_store_ops *ops;
    char *path; /* what error messages name: a file path or a URL without its password */
    int bulk;   /* pr_store_bulk_writes: write transactions may keep readers waiting */
};

/* One stored block of samples (the D codec of docs/format.md); `data` is borrowed. */
typedef struct pr_store_block {
    int64_t seq, samples;
    int64_t start_min, start_max; /* PR_UNKNOWN when no sample has a start time */
    const void *data;
    size_t len;
} pr_store_block;

/* One row of an aggregate table: text key (labels, errors) or integer key (status codes). */
typedef struct pr_store_count {
    const char *key;
    int64_t code;
    int64_t a, b; /* labels: samples, errors; errors and status codes: count, unused */
} pr_store_count;

typedef enum pr_store_agg { PR_AGG_LABELS, PR_AGG_ERRORS, PR_AGG_STATUS } pr_store_agg;

/* A row of `sources`: one ingested input. */
typedef struct pr_store_source {
    int64_t run_id;
    const char *path, *digest, *format;
    int64_t samples, ingested_at;
    int forced; /* ingested with --force: not part of the unique digest index */
} pr_store_source;

/* A row of `shards`: one shard of a distributed run that has landed. */
typedef struct pr_store_shard {
    int index, count;
    int64_t samples, landed_at;
} pr_store_shard;

/* Which runs pr_store_ops.runs returns (ascending ids). */
typedef enum pr_store_which {
    PR_RUNS_ALL,
    PR_RUNS_ID,
    PR_RUNS_LAST,
    PR_RUNS_NAMED,
    PR_RUNS_KEYED
} pr_store_which;

/* Every operation returns 0 or a negative PR_E* code with `err` filled, unless noted. */
struct pr_store_ops {
    const char *name; /* "sqlite", "postgresql" */
    void (*close)(pr_store *st);

    /* ---- the write transaction of one input ---- */
    int (*begin)(pr_store *st, pr_error *err);
    /* Commits. Runs created in the transaction get their final ids here (PostgreSQL
     * numbers them at commit so concurrent writers do not wait for each other):
     * ids[0..n) are updated in place. */
    int (*commit)(pr_store *st, int64_t *ids, size_t n, pr_error *err);
    void (*rollback)(pr_store *st);
    /* Makes writers of the same run name or key wait for each other until commit. */
    int (*lock_name)(pr_store *st, const char *name, pr_error *err);
    /* Creates an empty run row; *id is its id within the transaction. key may be NULL. */
    int (*run_create)(pr_store *st, const char *name, const char *key, int64_t created_at,
                      int64_t *id, pr_error *err);
    /* Rewrites the run row from `run` (name, tool, counts, bounds, load, summary, meta)
     * and upserts its tags. */
    int (*run_write)(pr_store *st, const pr_run *run, pr_error *err);
    /* Stores string ids [from, to) of the run's table. */
    int (*strings_put)(pr_store *st, int64_t run_id, const pr_strtab *t, uint32_t from, uint32_t to,
                       pr_error *err);
    /* Adds rows to an aggregate table (upsert: existing keys add up). */
    int (*agg_add)(pr_store *st, int64_t run_id, pr_store_agg which, const pr_store_count *rows,
                   size_t n, pr_error *err);
    /* The next free block sequence number of the run. */
    int (*block_next_seq)(pr_store *st, int64_t run_id, int64_t *seq, pr_error *err);
    int (*block_put)(pr_store *st, int64_t run_id, const pr_store_block *b, pr_error *err);
    /* Records an input. A digest already recorded (unique index) sets *dup = 1 and leaves
     * the transaction to be rolled back. */
    int (*source_put)(pr_store *st, const pr_store_source *s, int *dup, pr_error *err);
    /* The run that already holds this digest, 0 if none. */
    int (*source_find)(pr_store *st, const char *digest, int64_t *run_id, pr_error *err);
    /* Records a landed shard; one already landed sets *dup = 1. */
    int (*shard_put)(pr_store *st, int64_t run_id, const pr_store_shard *s, int *dup,
                     pr_error *err);
    int (*cache_clear)(pr_store *st, int64_t run_id, pr_error *err);

    /* ---- reads and single-statement writes ---- */
    /* Run ids matching `which` (arg: the id, name or key). *ids is malloc'd. */
    int (*runs)(pr_store *st, pr_store_which which, const char *arg, int64_t **ids, size_t *n,
                pr_error *err);
    /* Run row, tags and string table; PR_ENOTFOUND if there is no such run. */
    int (*load_run)(pr_store *st, int64_t id, pr_run **out, pr_error *err);
    /* Calls cb with each block of the run in sequence order; a non-zero cb return stops
     * the scan and is returned. */
    int (*scan_blocks)(pr_store *st, int64_t id, int (*cb)(const pr_store_block *b, void *payload),
                       void *payload, pr_error *err);
    /* Calls cb with each source of the run in ingest order. */
    int (*sources)(pr_store *st, int64_t id, int (*cb)(const pr_store_source *s, void *payload),
                   void *payload, pr_error *err);
    /* Landed shards of the run, ascending index. *out is malloc'd. */
    int (*shards)(pr_store *st, int64_t id, pr_store_shard **out, size_t *n, pr_error *err);
    int (*remove)(pr_store *st, int64_t id, pr_error *err);
    int (*tag)(pr_store *st, int64_t id, const char *key, const char *value, pr_error *err);
    int (*cache_put)(pr_store *st, int64_t id, const char *key, const char *json, pr_error *err);
    int (*cache_get)(pr_store *st, int64_t id, const char *key, char **json, pr_error *err);
    /* Replaces the run's headline figures and time series (the tables behind the views). */
    int (*stats_put)(pr_store *st, int64_t id, const pr_store_stats *s, pr_error *err);

    /* ---- concurrent scans (NULL: the backend scans on one thread only) ---- */
    /* The run's blocks in sequence order: seq[i] and its samples[i]; both malloc'd.
     * PR_EUSAGE (err untouched) when this handle cannot be scanned from several threads. */
    int (*block_list)(pr_store *st, int64_t id, int64_t **seq, int64_t **samples, size_t *n,
                      pr_error *err);
    /* scan_blocks over the blocks with lo <= seq < hi; callable from several threads at
     * once on one handle (each call its own statement). */
    int (*scan_range)(pr_store *st, int64_t id, int64_t lo, int64_t hi,
                      int (*cb)(const pr_store_block *b, void *payload), void *payload,
                      pr_error *err);
};

/* Backend constructors: open (creating the schema if `create`) or fail with a message. */
int pr_store_sqlite_open(pr_store **out, const char *path, int create, pr_error *err);
int pr_store_pg_open(pr_store **out, const char *conninfo, int create, pr_error *err);

#endif
