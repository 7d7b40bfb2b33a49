/* The embedded store: one SQLite file holding runs, tags, strings, aggregate tables a user can
 * query with sqlite3, and samples as encoded blocks (schema: docs/format.md). */
#ifndef PR_STORE_H
#define PR_STORE_H
#include <stddef.h>
#include <stdint.h>
#include "model/error.h"
#include "model/native.h"
#include "model/run.h"
#include "model/sink.h"

#define PR_STORE_SCHEMA_VERSION 1

typedef struct pr_store pr_store;

/* The store path: $PERFREPORT_STORE, else "./perfreport.db". */
const char *pr_store_default_path(void);
/* Opens (creating if `create`) the store at path. */
int pr_store_open(pr_store **out, const char *path, int create, pr_error *err);
void pr_store_close(pr_store *st);

/* ---- ingest: one input = one transaction ---- */
typedef struct pr_ingest pr_ingest;

typedef struct pr_ingest_result {
    int64_t run_id;        /* the (last) run written */
    int64_t samples;       /* samples added by this input */
    int runs;              /* runs created or extended (more than 1 with --split-runs) */
    int duplicate_of;      /* >0: the content was already ingested as that run (skipped) */
    char name[256];        /* the (last) run's name */
} pr_ingest_result;

/* Begins an ingest transaction. run_name: append to the run with this name if it exists,
 * else create it with this name; NULL: a new run, named by the parser or after `source`. */
int pr_ingest_begin(pr_store *st, pr_ingest **out, const char *run_name, const char *source,
                    pr_error *err);
/* The sink parsers push into; sink->run is the run being written. */
pr_sink *pr_ingest_sink(pr_ingest *ing);
/* Finishes: checks for duplicate content (the input's digest) unless force, writes metadata, strings and
 * aggregates, commits. On a duplicate the transaction is rolled back and res->duplicate_of set.
 * Frees `ing` in every case. */
int pr_ingest_commit(pr_ingest *ing, const char *digest, int force, pr_ingest_result *res,
                     pr_error *err);
/* Rolls back everything this input wrote and frees `ing`. */
void pr_ingest_abort(pr_ingest *ing);

/* ---- queries ---- */
/* Ids of all runs, ascending. *ids is malloc'd. */
int pr_store_list_runs(pr_store *st, int64_t **ids, size_t *n, pr_error *err);
/* Resolves a run reference: an id ("12"), a name, or "last". */
int pr_store_find_run(pr_store *st, const char *ref, int64_t *id, pr_error *err);
/* Loads a run's metadata, tags and string table. */
int pr_store_load_run(pr_store *st, int64_t id, pr_run **out, pr_error *err);
/* Calls cb for each stored block of samples of the run, in storage order. A non-zero return
 * from cb stops the scan and is returned. */
int pr_store_scan(pr_store *st, int64_t id,
                  int (*cb)(void *payload, const pr_sample *s, size_t n), void *payload,
                  pr_error *err);
/* The same scan column by column: only the columns in `want` (model/native.h PR_COLBIT) are
 * decoded; cb sees each block's columns (borrowed until it returns). */
int pr_store_scan_cols(pr_store *st, int64_t id, unsigned want,
                       int (*cb)(void *payload, const pr_block_cols *c), void *payload,
                       pr_error *err);
/* pr_store_scan with only the columns in `want` decoded (the others keep their block's
 * constant, else the field's default), in batches of at most 512 samples. */
int pr_store_scan_some(pr_store *st, int64_t id, unsigned want,
                       int (*cb)(void *payload, const pr_sample *s, size_t n), void *payload,
                       pr_error *err);
int pr_store_remove(pr_store *st, int64_t id, pr_error *err);
/* Sets (value != NULL) or removes a tag. */
int pr_store_tag(pr_store *st, int64_t id, const char *key, const char *value, pr_error *err);
/* Stores/loads a cached analysis document for the run (key e.g. "summary"). */
int pr_store_cache_put(pr_store *st, int64_t id, const char *key, const char *json, pr_error *err);
/* *json is malloc'd, NULL when absent. */
int pr_store_cache_get(pr_store *st, int64_t id, const char *key, char **json, pr_error *err);

#endif
