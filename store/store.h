/* The store: runs, tags, strings, aggregate tables a user can query with SQL, and samples as
 * encoded blocks (schema: docs/format.md). One interface, two backends chosen by the target:
 * a SQLite file (the embedded default) or a PostgreSQL server (a postgresql:// or postgres://
 * URI or a libpq "key=value" connection string). Nothing outside store/ knows which.
 *
 * Contracts, for every function below unless it says otherwise: 0 on success, else a negative
 * code with err filled (the store's name as the path): PR_ESTORE for a database failure
 * (an SQL error, a damaged block, a lost connection), PR_ENOTFOUND for a run or store that
 * is not there, PR_EUSAGE for a reference or argument that cannot be served, PR_EDUP for
 * content the store already holds. err may be NULL where the result alone is wanted. What a
 * function hands out is the caller's: runs from pr_store_load_run (pr_run_free), id arrays
 * and cache text (free); pointers given to callbacks are borrowed for the call. */
#ifndef PR_STORE_H
#define PR_STORE_H
#include <stddef.h>
#include <stdint.h>
#include "model/error.h"
#include "model/native.h"
#include "model/run.h"
#include "model/sink.h"

#define PR_STORE_SCHEMA_VERSION 2

typedef struct pr_store pr_store;

/* The store target: $PERFREPORT_STORE, else "./perfreport.db". */
const char *pr_store_default_path(void);
/* 1 if `target` names a PostgreSQL database (URI or libpq connection string), else 0. */
int pr_store_target_is_pg(const char *target);
/* Opens (creating the schema if `create`) the store at `target`: a file path, or a
 * PostgreSQL URI / connection string (libpq's PG* variables and TLS settings apply).
 * PR_ENOTFOUND when there is no store and !create; PR_ESTORE otherwise (cannot open, a
 * schema newer than this program's). *out is closed with pr_store_close. */
int pr_store_open(pr_store **out, const char *target, int create, pr_error *err);
void pr_store_close(pr_store *st);
/* Lets this connection's write transactions (ingests) keep readers waiting while they run,
 * in exchange for writing their pages once: SQLite then writes through a rollback journal
 * when no other connection has the store open (else, and by default, through the WAL, which
 * readers never wait for). For ingests of files, not for a load test's hours-long run. */
void pr_store_bulk_writes(pr_store *st, int on);
/* The store as error messages name it (a URL never shows its password); borrowed. */
const char *pr_store_name(const pr_store *st);

/* ---- ingest: one input = one transaction ---- */
typedef struct pr_ingest pr_ingest;

typedef struct pr_ingest_result {
    int64_t run_id;    /* the (last) run written */
    int64_t samples;   /* samples added by this input */
    int runs;          /* runs created or extended (more than 1 with --split-runs) */
    int duplicate_of;  /* >0: the content was already ingested as that run (skipped) */
    char name[256];    /* the (last) run's name */
    int shard_index;   /* shard ingests: this shard, and the shards of the run landed so */
    int shards_landed; /* far, of shard_count */
    int shard_count;
} pr_ingest_result;

/* Begins an ingest transaction. run_name: append to the run with this name if it exists,
 * else create it with this name; NULL: a new run, named by the parser or after `source`.
 * PR_ESTORE. *out ends with pr_ingest_commit or pr_ingest_abort. */
int pr_ingest_begin(pr_store *st, pr_ingest **out, const char *run_name, const char *source,
                    pr_error *err);
/* Begins the ingest of one shard of a distributed run: the shards agree on run_key (the
 * run's name too when it is created), each lands as one transaction, and shards of the same
 * run land one after the other. index/count: this shard (index < 0: taken at commit from
 * the input's meta "shard" object, as `perfreport attack --shard` writes it). The commit
 * fails with PR_EDUP when that shard already landed (nothing is added twice). */
int pr_ingest_begin_shard(pr_store *st, pr_ingest **out, const char *run_key, int index, int count,
                          const char *source, pr_error *err);
/* The sink parsers push into; sink->run is the run being written (the ingest's: never
 * freed by the caller). Its consumer returns PR_ESTORE when a block cannot be written. */
pr_sink *pr_ingest_sink(pr_ingest *ing);
/* Shows each native block the ingest stores as it is (pr_sink.push_block) to fn, once it is
 * queued for the store: the run it belongs to, the sink (its declared figures), its columns
 * decoded (borrowed for the call) and its encoding `raw` (borrowed for the call). Samples
 * pushed one by one are not shown: an observer counts what it saw. */
typedef void (*pr_ingest_observer)(const pr_run *run, const pr_sink *sink,
                                   const pr_block_cols *cols, const unsigned char *raw, size_t len,
                                   void *payload);
void pr_ingest_observe(pr_ingest *ing, pr_ingest_observer fn, void *payload);
/* Finishes: checks for duplicate content (the input's digest) unless force, writes metadata,
 * strings and aggregates, commits. On duplicate content the transaction is rolled back,
 * res->duplicate_of set and 0 returned. A shard ingest: PR_EUSAGE when the input does not say
 * which shard it is or the run has another shard count, PR_EDUP when that shard landed
 * already. PR_ESTORE. On any failure nothing of the input is in the store. Frees `ing` in
 * every case. */
int pr_ingest_commit(pr_ingest *ing, const char *digest, int force, pr_ingest_result *res,
                     pr_error *err);
/* Rolls back everything this input wrote and frees `ing`. */
void pr_ingest_abort(pr_ingest *ing);

/* ---- queries ---- */
/* Ids of all runs, ascending (*n = 0 for an empty store). *ids is malloc'd. PR_ESTORE. */
int pr_store_list_runs(pr_store *st, int64_t **ids, size_t *n, pr_error *err);
/* Resolves a run reference: an id ("12"), a name, or "last". PR_ENOTFOUND when no run
 * matches, PR_EUSAGE when several runs have that name, PR_ESTORE. */
int pr_store_find_run(pr_store *st, const char *ref, int64_t *id, pr_error *err);
/* Loads a run's metadata, tags and string table into a new run (the caller's: pr_run_free).
 * PR_ENOTFOUND when there is no such run, PR_ESTORE. */
int pr_store_load_run(pr_store *st, int64_t id, pr_run **out, pr_error *err);
/* Calls cb for each stored block of samples of the run (borrowed for the call), in storage
 * order. A non-zero return from cb stops the scan and is returned. PR_ESTORE (also for a
 * block that does not decode); a run without samples is scanned without a call. */
int pr_store_scan(pr_store *st, int64_t id, int (*cb)(const pr_sample *s, size_t n, void *payload),
                  void *payload, pr_error *err);
/* The same scan column by column: only the columns in `want` (model/native.h PR_COLBIT) are
 * decoded; cb sees each block's columns (borrowed until it returns). */
int pr_store_scan_cols(pr_store *st, int64_t id, unsigned want,
                       int (*cb)(const pr_block_cols *c, void *payload), void *payload,
                       pr_error *err);
/* pr_store_scan_cols with the decoding on `threads` worker threads: the calling thread reads
 * the blocks in storage order, the workers decode them and call cb concurrently (cb must be
 * safe so), each call with the block's ordinal in storage order and the worker's number
 * (0 .. threads - 1, for per-thread scratch). threads <= 1: every call from the calling
 * thread, in order, worker 0. A non-zero cb return stops the scan and is returned. */
int pr_store_scan_cols_mt(pr_store *st, int64_t id, unsigned want, int threads,
                          int (*cb)(const pr_block_cols *c, size_t ordinal, int worker,
                                    void *payload),
                          void *payload, pr_error *err);
/* pr_store_scan_cols on `parts` threads (at most PR_SCAN_PARTS): the run's blocks cut into
 * `parts` ranges of about equal samples, part k's blocks (in storage order, every one after
 * those of part k - 1) handed to cb with payloads[k] on a thread of its own, so a caller that
 * merges its parts in order gets what one scan gives. Returns how many parts were used: 1
 * when the backend scans on one thread only (PostgreSQL), the run has fewer blocks than parts
 * or parts < 2 (then everything went to payloads[0] on the calling thread), else `parts`;
 * rcs[k] is part k's result (cb's non-zero return or a negative code), the first failure's
 * message in err. A negative return: the blocks could not be listed (PR_ESTORE). */
#define PR_SCAN_PARTS 2
int pr_store_scan_cols_par(pr_store *st, int64_t id, unsigned want,
                           int (*cb)(const pr_block_cols *c, void *payload), void *const *payloads,
                           int parts, int *rcs, pr_error *err);
/* pr_store_scan with only the columns in `want` decoded (the others keep their block's
 * constant, else the field's default), in batches of at most 512 samples. Where pr_threads()
 * allows, a second thread reads and decodes the blocks and makes the samples a few batches
 * ahead, while cb runs on the calling thread, in storage order as on one. */
int pr_store_scan_some(pr_store *st, int64_t id, unsigned want,
                       int (*cb)(const pr_sample *s, size_t n, void *payload), void *payload,
                       pr_error *err);
/* Removes the run with its samples, tags and tables (nothing to do for an unknown id).
 * PR_ESTORE. */
int pr_store_remove(pr_store *st, int64_t id, pr_error *err);
/* Sets (value != NULL) or removes a tag. PR_ESTORE. */
int pr_store_tag(pr_store *st, int64_t id, const char *key, const char *value, pr_error *err);
/* Stores/loads a cached analysis document for the run (key e.g. "summary"). PR_ESTORE. */
int pr_store_cache_put(pr_store *st, int64_t id, const char *key, const char *json, pr_error *err);
/* *json is malloc'd, NULL when absent. */
int pr_store_cache_get(pr_store *st, int64_t id, const char *key, char **json, pr_error *err);

/* ---- the tables behind the run_summary and run_series views (docs/format.md) ---- */
/* One interval of a run's time series. Unknown: PR_UNKNOWN (integers), NAN (reals). */
typedef struct pr_store_point {
    int64_t t_ns; /* interval start, ns since the Unix epoch */
    int64_t requests, successes, errors, bytes_in;
    double throughput_per_s, rate_per_s;
    int64_t p50_ns, p90_ns, p99_ns, max_ns;
} pr_store_point;

/* A run's headline figures, as the report model computes them. */
typedef struct pr_store_stats {
    int64_t requests, successes, errors;
    double error_ratio, rate_per_s, throughput_per_s, apdex;
    int64_t duration_ns;
    int64_t min_ns, mean_ns, p50_ns, p90_ns, p95_ns, p99_ns, p999_ns, max_ns;
    int64_t interval_ns; /* of the series */
    const pr_store_point *points;
    size_t npoints;
    int64_t basis_samples; /* the run's sample count these figures were computed from */
} pr_store_stats;

/* Replaces the run's stored headline figures and series, unless the run has changed since
 * they were computed (its sample count is no longer basis_samples): then the writer of the
 * change stores its own, newer figures, and this call does nothing. PR_ESTORE. */
int pr_store_put_stats(pr_store *st, int64_t id, const pr_store_stats *s, pr_error *err);

/* ---- between stores ---- */
/* Copies run `id` of `from` into `to` exactly (run row, tags, strings, aggregates, sources,
 * shards and the sample blocks byte for byte) as one transaction of `to`; *new_id is its id
 * there. Content `to` already holds (a source digest it knows, a shard, the run's key) is
 * PR_EDUP, nothing copied; PR_ENOTFOUND for an unknown id; PR_ESTORE. */
int pr_store_copy(pr_store *from, int64_t id, pr_store *to, int64_t *new_id, pr_error *err);

#endif
