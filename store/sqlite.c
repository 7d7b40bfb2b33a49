/* The SQLite backend of the store: one file, WAL mode (a rollback journal for a writer alone),
 * writers serialised by BEGIN IMMEDIATE. */
#include "store/backend.h"
#include "model/threads.h"
#include "model/xalloc.h"
#include "store/writer.h"
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

typedef struct sq {
    pr_store base;
    sqlite3 *db;
    sqlite3_stmt *ins_block;
    pthread_t ckpt; /* the checkpoint copying the WAL into the store beside this connection */
    int ckpt_running;
    int rollback_journal; /* this write transaction goes through a rollback journal (sq_begin) */
} sq;

/* Past this many frames in the WAL, a commit's pages are copied into the store file (SQLite's
 * automatic checkpoint, its default size) ... */
#define CKPT_FRAMES 1000

static void *checkpoint_run(void *arg)
{
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(arg, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK) {
        sqlite3_busy_timeout(db, 60000);
        /* a read first: a connection that has read nothing has not opened the WAL, and its
         * checkpoint would copy nothing (SQLite 3.40 returns SQLITE_OK having done so) */
        sqlite3_exec(db, "SELECT 1 FROM sqlite_master LIMIT 1", NULL, NULL, NULL);
        sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    }
    sqlite3_close(db);
    return NULL;
}

/* ... by a thread on a connection of its own, while this one goes on (what follows an ingest,
 * the views' figures, reads meanwhile), when two threads may run; else here, as SQLite does. */
static int wal_hook(void *arg, sqlite3 *db, const char *name, int frames)
{
    sq *s = arg;
    if (frames < CKPT_FRAMES)
        return SQLITE_OK;
    if (s->ckpt_running && pthread_tryjoin_np(s->ckpt, NULL) == 0)
        s->ckpt_running = 0;
    if (s->ckpt_running)
        return SQLITE_OK; /* the running one takes these frames too, or the next commit */
    if (pr_threads() < 2 || pthread_create(&s->ckpt, NULL, checkpoint_run, s->base.path))
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    else
        s->ckpt_running = 1;
    return SQLITE_OK;
}

static sqlite3 *DB(pr_store *st)
{
    return ((sq *)st)->db;
}

/* Schema migrations: entry v takes a store from version v-1 to v (docs/format.md). */
static const char *const migrations[] = {
    NULL,
    /* 1: runs, inputs, tags, strings, aggregates, sample blocks, cached analysis */
    "CREATE TABLE IF NOT EXISTS runs ("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL,"
    "  tool TEXT, format TEXT, tool_version TEXT,"
    "  samples INTEGER NOT NULL DEFAULT 0,"
    "  successes INTEGER NOT NULL DEFAULT 0,"
    "  start_ns INTEGER, end_ns INTEGER,"
    "  load_model TEXT NOT NULL DEFAULT 'unknown',"
    "  offered_rate REAL, concurrency INTEGER,"
    "  summary_only INTEGER NOT NULL DEFAULT 0,"
    "  summary_json TEXT,"
    "  meta_json TEXT NOT NULL DEFAULT '{}',"
    "  created_at INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS runs_name ON runs(name);"
    "CREATE TABLE IF NOT EXISTS sources ("
    "  id INTEGER PRIMARY KEY,"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  path TEXT NOT NULL, digest TEXT NOT NULL, format TEXT,"
    "  samples INTEGER NOT NULL, ingested_at INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS sources_digest ON sources(digest);"
    "CREATE TABLE IF NOT EXISTS tags ("
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY(run_id, key));"
    "CREATE TABLE IF NOT EXISTS strings ("
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  id INTEGER NOT NULL, value TEXT NOT NULL, PRIMARY KEY(run_id, id));"
    "CREATE TABLE IF NOT EXISTS labels ("
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  label TEXT NOT NULL, samples INTEGER NOT NULL, errors INTEGER NOT NULL,"
    "  PRIMARY KEY(run_id, label));"
    "CREATE TABLE IF NOT EXISTS errors ("
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  message TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY(run_id, message));"
    "CREATE TABLE IF NOT EXISTS status_codes ("
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  status INTEGER NOT NULL, count INTEGER NOT NULL, PRIMARY KEY(run_id, status));"
    "CREATE TABLE IF NOT EXISTS blocks ("
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  seq INTEGER NOT NULL, samples INTEGER NOT NULL,"
    "  start_min INTEGER, start_max INTEGER, data BLOB NOT NULL,"
    "  PRIMARY KEY(run_id, seq));"
    "CREATE TABLE IF NOT EXISTS cache ("
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  key TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY(run_id, key));",
    /* 2: distributed runs (run_key, shards), a digest lands once (forced re-ingests aside),
     * headline figures and time series behind the Grafana views */
    "ALTER TABLE runs ADD COLUMN run_key TEXT;"
    "CREATE UNIQUE INDEX runs_key ON runs(run_key);"
    "ALTER TABLE sources ADD COLUMN forced INTEGER NOT NULL DEFAULT 0;"
    "UPDATE sources SET forced = 1 WHERE id NOT IN (SELECT min(id) FROM sources GROUP BY digest);"
    "CREATE UNIQUE INDEX sources_digest_once ON sources(digest) WHERE forced = 0 AND digest <> '';"
    "CREATE TABLE shards ("
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  shard_index INTEGER NOT NULL, shard_count INTEGER NOT NULL,"
    "  samples INTEGER NOT NULL, landed_at INTEGER NOT NULL, PRIMARY KEY(run_id, shard_index));"
    "CREATE TABLE run_stats ("
    "  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,"
    "  requests INTEGER, successes INTEGER, errors INTEGER, error_ratio REAL,"
    "  duration_ns INTEGER, rate_per_s REAL, throughput_per_s REAL,"
    "  min_ns INTEGER, mean_ns INTEGER, p50_ns INTEGER, p90_ns INTEGER, p95_ns INTEGER,"
    "  p99_ns INTEGER, p999_ns INTEGER, max_ns INTEGER, apdex REAL, interval_ns INTEGER);"
    "CREATE TABLE run_points ("
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  t_ns INTEGER NOT NULL, requests INTEGER, successes INTEGER, errors INTEGER,"
    "  bytes_in INTEGER, throughput_per_s REAL, rate_per_s REAL,"
    "  p50_ns INTEGER, p90_ns INTEGER, p99_ns INTEGER, max_ns INTEGER,"
    "  PRIMARY KEY(run_id, t_ns));"
    "CREATE VIEW run_summary AS SELECT"
    "  r.id AS run_id, r.name, r.tool, r.format, r.load_model, r.offered_rate, r.concurrency,"
    "  r.start_ns, r.end_ns,"
    "  strftime('%Y-%m-%dT%H:%M:%fZ', r.start_ns / 1e9, 'unixepoch') AS start_time,"
    "  strftime('%Y-%m-%dT%H:%M:%fZ', r.end_ns / 1e9, 'unixepoch') AS end_time,"
    "  (SELECT group_concat(key || '=' || value, ' ') FROM"
    "     (SELECT key, value FROM tags t WHERE t.run_id = r.id ORDER BY key)) AS tags,"
    "  s.requests, s.successes, s.errors, s.error_ratio, s.duration_ns,"
    "  s.duration_ns / 1e9 AS duration_s, s.rate_per_s, s.throughput_per_s,"
    "  s.min_ns, s.mean_ns, s.p50_ns, s.p90_ns, s.p95_ns, s.p99_ns, s.p999_ns, s.max_ns,"
    "  s.mean_ns / 1e6 AS mean_ms, s.p50_ns / 1e6 AS p50_ms, s.p90_ns / 1e6 AS p90_ms,"
    "  s.p95_ns / 1e6 AS p95_ms, s.p99_ns / 1e6 AS p99_ms, s.p999_ns / 1e6 AS p999_ms,"
    "  s.max_ns / 1e6 AS max_ms, s.apdex, s.interval_ns,"
    "  json_extract(r.meta_json, '$.shards.count') AS shard_count,"
    "  json_extract(r.meta_json, '$.shards.landed') AS shards_landed"
    "  FROM runs r LEFT JOIN run_stats s ON s.run_id = r.id;"
    "CREATE VIEW run_series AS SELECT"
    "  p.run_id, r.name, p.t_ns,"
    "  strftime('%Y-%m-%dT%H:%M:%fZ', p.t_ns / 1e9, 'unixepoch') AS time,"
    "  (p.t_ns - r.start_ns) / 1e9 AS elapsed_s, s.interval_ns,"
    "  p.requests, p.successes, p.errors,"
    "  CASE WHEN p.requests > 0 THEN 1.0 * p.errors / p.requests END AS error_ratio,"
    "  p.bytes_in, p.throughput_per_s, p.rate_per_s,"
    "  p.p50_ns, p.p90_ns, p.p99_ns, p.max_ns, p.p50_ns / 1e6 AS p50_ms,"
    "  p.p90_ns / 1e6 AS p90_ms, p.p99_ns / 1e6 AS p99_ms, p.max_ns / 1e6 AS max_ms"
    "  FROM run_points p JOIN runs r ON r.id = p.run_id"
    "  LEFT JOIN run_stats s ON s.run_id = p.run_id;",
};

/* SQLite's message, with the system's reason when a read or write failed ("disk I/O error
 * (File too large)", "… (No space left on device)", "… (Read-only file system)"). */
static const char *db_message(pr_store *st, const char *msg, int saved_errno, char *buf,
                              size_t size)
{
    int e = sqlite3_system_errno(DB(st));
    if (!e && (saved_errno == EFBIG || saved_errno == ENOSPC || saved_errno == EDQUOT ||
               saved_errno == EROFS || saved_errno == EACCES))
        e = saved_errno; /* SQLite did not keep it (a failed COMMIT), errno still has it */
    if (e)
        snprintf(buf, size, "%s (%s)", msg, strerror(e));
    else
        snprintf(buf, size, "%s", msg);
    return buf;
}

static int db_error(pr_store *st, pr_error *err, const char *what)
{
    char m[512];
    int e = errno;
    return pr_error_set(err, PR_ESTORE, st->path, 0, 0, "%s: %s", what,
                        db_message(st, sqlite3_errmsg(DB(st)), e, m, sizeof m));
}

static int exec(pr_store *st, const char *sql, pr_error *err)
{
    char *msg = NULL;
    errno = 0;
    if (sqlite3_exec(DB(st), sql, NULL, NULL, &msg) != SQLITE_OK) {
        int e = errno;
        char m[512];
        int rc = pr_error_set(err, PR_ESTORE, st->path, 0, 0, "%s",
                              db_message(st, msg ? msg : "sqlite error", e, m, sizeof m));
        sqlite3_free(msg);
        return rc;
    }
    return 0;
}

/* After a failed open: when the store, or the folder SQLite writes its journal in, cannot be
 * written, says so (SQLite's own message is "unable to open database file"). */
static int unwritable(const char *path, int create, pr_error *err)
{
    int exists = access(path, F_OK) == 0;
    if (!exists && !create)
        return 0;
    char *dir = pr_xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir] = 0; /* "/x.db" -> "/" */
    else
        strcpy(dir, ".");
    int rc = 0;
    if (exists && access(path, W_OK) != 0)
        rc = pr_error_set(err, PR_ESTORE, path, 0, 0, "the store file is not writable (%s)",
                          strerror(errno));
    else if (access(dir, W_OK) != 0)
        rc = pr_error_set(err, PR_ESTORE, path, 0, 0,
                          "the store's folder '%s' is not writable "
                          "(%s): a store keeps its journal beside it",
                          dir, strerror(errno));
    free(dir);
    return rc;
}

static sqlite3_stmt *prep(pr_store *st, const char *sql, pr_error *err, const char *what)
{
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(DB(st), sql, -1, &q, NULL) != SQLITE_OK) {
        db_error(st, err, what);
        return NULL;
    }
    return q;
}

/* Steps a statement to its end and finalizes it. */
static int done(pr_store *st, sqlite3_stmt *q, pr_error *err, const char *what)
{
    int rc = sqlite3_step(q) == SQLITE_DONE ? 0 : db_error(st, err, what);
    sqlite3_finalize(q);
    return rc;
}

static void bind_i64(sqlite3_stmt *q, int i, int64_t v)
{
    if (v == PR_UNKNOWN)
        sqlite3_bind_null(q, i);
    else
        sqlite3_bind_int64(q, i, v);
}

static void bind_real(sqlite3_stmt *q, int i, double v)
{
    if (isnan(v))
        sqlite3_bind_null(q, i);
    else
        sqlite3_bind_double(q, i, v);
}

static int user_version(pr_store *st, int *version)
{
    sqlite3_stmt *q = prep(st, "PRAGMA user_version", NULL, "");
    *version = 0;
    if (!q)
        return -1;
    if (sqlite3_step(q) == SQLITE_ROW)
        *version = sqlite3_column_int(q, 0);
    sqlite3_finalize(q);
    return 0;
}

/* Brings the schema to PR_STORE_SCHEMA_VERSION inside one write transaction. */
static int migrate(pr_store *st, pr_error *err)
{
    int version, rc = exec(st, "BEGIN IMMEDIATE", err);
    if (rc < 0)
        return rc;
    user_version(st, &version); /* again: another process may have migrated meanwhile */
    for (int v = version + 1; v <= PR_STORE_SCHEMA_VERSION && rc == 0; v++)
        rc = exec(st, migrations[v], err);
    if (rc == 0 && version < PR_STORE_SCHEMA_VERSION) {
        char sql[64];
        snprintf(sql, sizeof sql, "PRAGMA user_version=%d", PR_STORE_SCHEMA_VERSION);
        rc = exec(st, sql, err);
    }
    if (rc == 0)
        return exec(st, "COMMIT", err);
    exec(st, "ROLLBACK", NULL);
    return rc;
}

/* exec() for a statement SQLite may refuse with SQLITE_BUSY without calling the busy handler
 * (switching a new store to WAL while other processes open it at the same moment): retried
 * every 10 ms for up to the busy timeout. */
static int exec_when_free(pr_store *st, const char *sql, pr_error *err)
{
    for (int tries = 0;; tries++) {
        int rc = exec(st, sql, err);
        int code = sqlite3_errcode(DB(st)) & 0xff;
        if (rc == 0 || (code != SQLITE_BUSY && code != SQLITE_LOCKED) || tries >= 6000)
            return rc;
        pr_error_clear(err);
        usleep(10000);
    }
}

static const pr_store_ops sqlite_ops;

int pr_store_sqlite_open(pr_store **out, const char *path, int create, pr_error *err)
{
    sq *s = pr_xcalloc(1, sizeof *s);
    pr_store *st = &s->base;
    st->ops = &sqlite_ops;
    st->path = pr_xstrdup(path);
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
        int rc = unwritable(path, create, err);
        if (rc == 0)
            rc = create ? db_error(st, err, "cannot open store")
                        : pr_error_set(err, PR_ENOTFOUND, path, 0, 0,
                                       "no store here (ingest something first, or use --store)");
        st->ops->close(st);
        return rc;
    }
    sqlite3_busy_timeout(s->db, 60000);
    int version = 0;
    /* 16 KiB pages in a new store (before WAL mode fixes the size; an existing store keeps
     * its own): a quarter of the page writes and reads of 4 KiB pages for the sample blocks,
     * a fourth less system time to ingest 10 M samples */
    int rc = exec_when_free(st,
                            "PRAGMA page_size=16384; PRAGMA foreign_keys=ON; "
                            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                            err);
    if (rc == 0)
        sqlite3_wal_hook(s->db, wal_hook, s);
    if (rc == 0)
        user_version(st, &version);
    if (rc == 0 && version > PR_STORE_SCHEMA_VERSION)
        rc = pr_error_set(err, PR_ESTORE, path, 0, 0,
                          "store schema version %d is newer than this perfreport (%d)", version,
                          PR_STORE_SCHEMA_VERSION);
    if (rc == 0 && version < PR_STORE_SCHEMA_VERSION)
        rc = migrate(st, err);
    if (rc < 0) {
        unwritable(path, create, err); /* the clearer reason, when it is that */
        st->ops->close(st);
        return rc;
    }
    *out = st;
    return 0;
}

static void sq_close(pr_store *st)
{
    sq *s = (sq *)st;
    if (s->ckpt_running)
        pthread_join(s->ckpt, NULL);
    sqlite3_finalize(s->ins_block);
    sqlite3_close(s->db);
    free(st->path);
    free(s);
}

/* ---- the write transaction ---- */

/* Sets the journal mode without waiting for other connections ("delete" or "wal"); 1 when the
 * store is in that mode afterwards. */
static int journal_mode(pr_store *st, const char *mode)
{
    char sql[40];
    snprintf(sql, sizeof sql, "PRAGMA journal_mode=%s", mode);
    sqlite3_busy_timeout(DB(st), 0);
    sqlite3_stmt *q = NULL;
    int now = 0;
    if (sqlite3_prepare_v2(DB(st), sql, -1, &q, NULL) == SQLITE_OK &&
        sqlite3_step(q) == SQLITE_ROW) {
        const char *got = (const char *)sqlite3_column_text(q, 0);
        now = got && strcasecmp(got, mode) == 0;
    }
    sqlite3_finalize(q);
    sqlite3_busy_timeout(DB(st), 60000);
    return now;
}

/* With pr_store_bulk_writes, a write transaction on a store that no other connection has open
 * goes through a rollback journal: pages added at the end of the file (the sample blocks,
 * nearly all of an ingest) are then written once, where WAL mode writes them to the WAL and
 * copies them again at the checkpoint (10 M native samples: 0.35 s instead of 0.52-0.74 s).
 * SQLite refuses to leave WAL mode while another connection has the store open; that writer
 * keeps WAL mode. A connection opened meanwhile waits for the commit. FULL syncs in that
 * mode: NORMAL is not safe against a power cut there. */
static int sq_begin(pr_store *st, pr_error *err)
{
    sq *s = (sq *)st;
    if (st->bulk && s->ckpt_running) { /* its connection would keep the store in WAL mode */
        pthread_join(s->ckpt, NULL);
        s->ckpt_running = 0;
    }
    s->rollback_journal = st->bulk && journal_mode(st, "delete");
    if (s->rollback_journal)
        exec(st, "PRAGMA synchronous=FULL", NULL);
    return exec(st, "BEGIN IMMEDIATE", err);
}

/* Back to WAL mode after a transaction through the rollback journal (when another connection
 * holds the store then, it stays so until the next open switches it). */
static void back_to_wal(pr_store *st)
{
    sq *s = (sq *)st;
    if (!s->rollback_journal)
        return;
    s->rollback_journal = 0;
    exec(st, "PRAGMA synchronous=NORMAL", NULL);
    journal_mode(st, "wal");
}

static int sq_commit(pr_store *st, int64_t *ids, size_t n, pr_error *err)
{
    int rc = exec(st, "COMMIT", err); /* writers are serialised: ids are final already */
    if (rc == 0)
        back_to_wal(st);
    return rc;
}

static void sq_rollback(pr_store *st)
{
    exec(st, "ROLLBACK", NULL);
    back_to_wal(st);
}

static int sq_lock_name(pr_store *st, const char *name, pr_error *err)
{
    return 0; /* BEGIN IMMEDIATE holds the only write lock */
}

static int sq_run_create(pr_store *st, const char *name, const char *key, int64_t created_at,
                         int64_t *id, pr_error *err)
{
    sqlite3_stmt *q = prep(st, "INSERT INTO runs(name, run_key, created_at) VALUES(?, ?, ?)", err,
                           "cannot create run");
    if (!q)
        return PR_ESTORE;
    sqlite3_bind_text(q, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 2, key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, 3, created_at);
    int rc = done(st, q, err, "cannot create run");
    if (rc == 0)
        *id = sqlite3_last_insert_rowid(DB(st));
    return rc;
}

static char *dumps(json_t *j)
{
    return j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
}

static int sq_run_write(pr_store *st, const pr_run *run, pr_error *err)
{
    sqlite3_stmt *q =
        prep(st,
             "UPDATE runs SET name=?, tool=?, format=?, tool_version=?, samples=?, successes=?,"
             " start_ns=?, end_ns=?, load_model=?, offered_rate=?, concurrency=?, summary_only=?,"
             " summary_json=?, meta_json=? WHERE id=?",
             err, "cannot update run");
    if (!q)
        return PR_ESTORE;
    char *meta = dumps(run->meta);
    sqlite3_bind_text(q, 1, run->name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 2, run->tool, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 3, run->format, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 4, run->tool_version, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, 5, run->samples);
    sqlite3_bind_int64(q, 6, run->successes);
    bind_i64(q, 7, run->start_ns);
    bind_i64(q, 8, run->end_ns);
    sqlite3_bind_text(q, 9, pr_load_model_name(run->load_model), -1, SQLITE_STATIC);
    bind_real(q, 10, run->offered_rate);
    if (run->concurrency >= 0)
        sqlite3_bind_int(q, 11, run->concurrency);
    sqlite3_bind_int(q, 12, run->summary_only);
    sqlite3_bind_text(q, 13, dumps(run->summary), -1, free);
    sqlite3_bind_text(q, 14, meta ? meta : "{}", -1, SQLITE_TRANSIENT);
    free(meta);
    sqlite3_bind_int64(q, 15, run->id);
    int rc = done(st, q, err, "cannot update run");
    if (rc < 0 || !(q = prep(st, "INSERT OR REPLACE INTO tags(run_id,key,value) VALUES(?,?,?)", err,
                             "cannot store tags")))
        return rc < 0 ? rc : PR_ESTORE;
    for (size_t i = 0; i < run->ntags && rc == 0; i++) {
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, run->id);
        sqlite3_bind_text(q, 2, run->tags[i].key, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 3, run->tags[i].value, -1, SQLITE_STATIC);
        if (sqlite3_step(q) != SQLITE_DONE)
            rc = db_error(st, err, "cannot store tags");
    }
    sqlite3_finalize(q);
    return rc;
}

static int sq_strings_put(pr_store *st, int64_t run_id, const pr_strtab *t, uint32_t from,
                          uint32_t to, pr_error *err)
{
    sqlite3_stmt *q =
        prep(st, "INSERT INTO strings(run_id,id,value) VALUES(?,?,?)", err, "cannot store strings");
    if (!q)
        return PR_ESTORE;
    int rc = 0;
    for (uint32_t id = from; id < to && rc == 0; id++) {
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, run_id);
        sqlite3_bind_int64(q, 2, id);
        sqlite3_bind_text(q, 3, pr_strtab_get(t, id), (int)pr_strtab_len(t, id), SQLITE_STATIC);
        if (sqlite3_step(q) != SQLITE_DONE)
            rc = db_error(st, err, "cannot store strings");
    }
    sqlite3_finalize(q);
    return rc;
}

static const char *const agg_sql[] = {
    [PR_AGG_LABELS] = "INSERT INTO labels(run_id,label,samples,errors) VALUES(?,?,?,?)"
                      " ON CONFLICT(run_id,label) DO UPDATE SET"
                      " samples=samples+excluded.samples, errors=errors+excluded.errors",
    [PR_AGG_ERRORS] = "INSERT INTO errors(run_id,message,count) VALUES(?,?,?)"
                      " ON CONFLICT(run_id,message) DO UPDATE SET count=count+excluded.count",
    [PR_AGG_STATUS] = "INSERT INTO status_codes(run_id,status,count) VALUES(?,?,?)"
                      " ON CONFLICT(run_id,status) DO UPDATE SET count=count+excluded.count",
};

static int sq_agg_add(pr_store *st, int64_t run_id, pr_store_agg which, const pr_store_count *rows,
                      size_t n, pr_error *err)
{
    sqlite3_stmt *q = prep(st, agg_sql[which], err, "cannot store aggregates");
    if (!q)
        return PR_ESTORE;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, run_id);
        if (which == PR_AGG_STATUS)
            sqlite3_bind_int64(q, 2, rows[i].code);
        else
            sqlite3_bind_text(q, 2, rows[i].key, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 3, rows[i].a);
        if (which == PR_AGG_LABELS)
            sqlite3_bind_int64(q, 4, rows[i].b);
        if (sqlite3_step(q) != SQLITE_DONE)
            rc = db_error(st, err, "cannot store aggregates");
    }
    sqlite3_finalize(q);
    return rc;
}

/* The first column of a one-row query with one integer parameter (0 when no row/NULL). */
static int one_i64(pr_store *st, const char *sql, int64_t arg, int64_t *out, pr_error *err)
{
    sqlite3_stmt *q = prep(st, sql, err, "cannot read the store");
    if (!q)
        return PR_ESTORE;
    sqlite3_bind_int64(q, 1, arg);
    *out = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    sqlite3_finalize(q);
    return 0;
}

static int sq_block_next_seq(pr_store *st, int64_t run_id, int64_t *seq, pr_error *err)
{
    return one_i64(st, "SELECT coalesce(max(seq)+1,0) FROM blocks WHERE run_id=?", run_id, seq,
                   err);
}

static int sq_block_put(pr_store *st, int64_t run_id, const pr_store_block *b, pr_error *err)
{
    sq *s = (sq *)st;
    if (!s->ins_block &&
        !(s->ins_block = prep(st,
                              "INSERT INTO blocks(run_id,seq,samples,start_min,start_max,data)"
                              " VALUES(?,?,?,?,?,?)",
                              err, "cannot store samples")))
        return PR_ESTORE;
    sqlite3_stmt *q = s->ins_block;
    sqlite3_reset(q);
    sqlite3_bind_int64(q, 1, run_id);
    sqlite3_bind_int64(q, 2, b->seq);
    sqlite3_bind_int64(q, 3, b->samples);
    bind_i64(q, 4, b->start_min);
    bind_i64(q, 5, b->start_max);
    sqlite3_bind_blob(q, 6, b->data, (int)b->len, SQLITE_STATIC);
    return sqlite3_step(q) == SQLITE_DONE ? 0 : db_error(st, err, "cannot store samples");
}

/* Steps an insert; a unique-constraint failure sets *dup instead of failing. */
static int insert_once(pr_store *st, sqlite3_stmt *q, int *dup, pr_error *err, const char *what)
{
    int step = sqlite3_step(q);
    int ext = sqlite3_extended_errcode(DB(st));
    int rc = 0;
    *dup = 0;
    if (step != SQLITE_DONE) {
        if (ext == SQLITE_CONSTRAINT_UNIQUE || ext == SQLITE_CONSTRAINT_PRIMARYKEY)
            *dup = 1;
        else
            rc = db_error(st, err, what);
    }
    sqlite3_finalize(q);
    return rc;
}

static int sq_source_put(pr_store *st, const pr_store_source *s, int *dup, pr_error *err)
{
    sqlite3_stmt *q = prep(st,
                           "INSERT INTO sources(run_id,path,digest,format,samples,"
                           "ingested_at,forced) VALUES(?,?,?,?,?,?,?)",
                           err, "cannot record source");
    if (!q)
        return PR_ESTORE;
    sqlite3_bind_int64(q, 1, s->run_id);
    sqlite3_bind_text(q, 2, s->path, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, s->digest ? s->digest : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 4, s->format, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 5, s->samples);
    sqlite3_bind_int64(q, 6, s->ingested_at);
    sqlite3_bind_int(q, 7, s->forced);
    return insert_once(st, q, dup, err, "cannot record source");
}

static int sq_source_find(pr_store *st, const char *digest, int64_t *run_id, pr_error *err)
{
    sqlite3_stmt *q = prep(st, "SELECT run_id FROM sources WHERE digest=? ORDER BY id LIMIT 1", err,
                           "cannot read sources");
    if (!q)
        return PR_ESTORE;
    sqlite3_bind_text(q, 1, digest, -1, SQLITE_STATIC);
    *run_id = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    sqlite3_finalize(q);
    return 0;
}

static int sq_shard_put(pr_store *st, int64_t run_id, const pr_store_shard *s, int *dup,
                        pr_error *err)
{
    sqlite3_stmt *q = prep(st,
                           "INSERT INTO shards(run_id,shard_index,shard_count,samples,"
                           "landed_at) VALUES(?,?,?,?,?)",
                           err, "cannot record shard");
    if (!q)
        return PR_ESTORE;
    sqlite3_bind_int64(q, 1, run_id);
    sqlite3_bind_int(q, 2, s->index);
    sqlite3_bind_int(q, 3, s->count);
    sqlite3_bind_int64(q, 4, s->samples);
    sqlite3_bind_int64(q, 5, s->landed_at);
    return insert_once(st, q, dup, err, "cannot record shard");
}

static int sq_cache_clear(pr_store *st, int64_t run_id, pr_error *err)
{
    sqlite3_stmt *q = prep(st, "DELETE FROM cache WHERE run_id=?", err, "cannot clear cache");
    if (!q)
        return PR_ESTORE;
    sqlite3_bind_int64(q, 1, run_id);
    return done(st, q, err, "cannot clear cache");
}

/* ---- reads ---- */

static const char *const runs_sql[] = {
    [PR_RUNS_ALL] = "SELECT id FROM runs ORDER BY id",
    [PR_RUNS_ID] = "SELECT id FROM runs WHERE id=?",
    [PR_RUNS_LAST] = "SELECT max(id) FROM runs HAVING count(*)>0",
    [PR_RUNS_NAMED] = "SELECT id FROM runs WHERE name=? ORDER BY id",
    [PR_RUNS_KEYED] = "SELECT id FROM runs WHERE run_key=? ORDER BY id",
};

static int sq_runs(pr_store *st, pr_store_which which, const char *arg, int64_t **ids, size_t *n,
                   pr_error *err)
{
    sqlite3_stmt *q = prep(st, runs_sql[which], err, "cannot list runs");
    if (!q)
        return PR_ESTORE;
    if (which == PR_RUNS_ID)
        sqlite3_bind_int64(q, 1, strtoll(arg, NULL, 10));
    else if (which == PR_RUNS_NAMED || which == PR_RUNS_KEYED)
        sqlite3_bind_text(q, 1, arg, -1, SQLITE_STATIC);
    size_t cap = 0;
    *ids = NULL;
    *n = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        *ids = pr_xgrow(*ids, &cap, *n + 1, sizeof **ids);
        (*ids)[(*n)++] = sqlite3_column_int64(q, 0);
    }
    sqlite3_finalize(q);
    return 0;
}

static char *col_dup(sqlite3_stmt *q, int i)
{
    const unsigned char *t = sqlite3_column_text(q, i);
    return t ? pr_xstrdup((const char *)t) : NULL;
}

static json_t *col_json(sqlite3_stmt *q, int i)
{
    const char *t = (const char *)sqlite3_column_text(q, i);
    return t ? json_loads(t, 0, NULL) : NULL;
}

/* The run row into a new pr_run (NULL when there is no such run). */
static pr_run *run_row(pr_store *st, int64_t id)
{
    sqlite3_stmt *q =
        prep(st,
             "SELECT name, tool, format, tool_version, samples, successes, start_ns, end_ns,"
             " load_model, offered_rate, concurrency, summary_only, summary_json, meta_json,"
             " created_at, run_key FROM runs WHERE id=?",
             NULL, "");
    if (!q)
        return NULL;
    sqlite3_bind_int64(q, 1, id);
    if (sqlite3_step(q) != SQLITE_ROW) {
        sqlite3_finalize(q);
        return NULL;
    }
    pr_run *r = pr_run_new();
    r->id = id;
    r->name = col_dup(q, 0);
    r->tool = col_dup(q, 1);
    r->format = col_dup(q, 2);
    r->tool_version = col_dup(q, 3);
    r->samples = sqlite3_column_int64(q, 4);
    r->successes = sqlite3_column_int64(q, 5);
    if (sqlite3_column_type(q, 6) != SQLITE_NULL)
        r->start_ns = sqlite3_column_int64(q, 6);
    if (sqlite3_column_type(q, 7) != SQLITE_NULL)
        r->end_ns = sqlite3_column_int64(q, 7);
    const char *lm = (const char *)sqlite3_column_text(q, 8);
    r->load_model = lm && !strcmp(lm, "open")     ? PR_LOAD_OPEN
                    : lm && !strcmp(lm, "closed") ? PR_LOAD_CLOSED
                                                  : PR_LOAD_UNKNOWN;
    if (sqlite3_column_type(q, 9) != SQLITE_NULL)
        r->offered_rate = sqlite3_column_double(q, 9);
    if (sqlite3_column_type(q, 10) != SQLITE_NULL)
        r->concurrency = sqlite3_column_int(q, 10);
    r->summary_only = sqlite3_column_int(q, 11);
    r->summary = col_json(q, 12);
    json_t *m = col_json(q, 13);
    if (json_is_object(m)) {
        json_decref(r->meta);
        r->meta = m;
    } else {
        json_decref(m);
    }
    r->created_s = sqlite3_column_int64(q, 14);
    r->key = col_dup(q, 15);
    sqlite3_finalize(q);
    return r;
}

static int sq_load_run(pr_store *st, int64_t id, pr_run **out, pr_error *err)
{
    pr_run *r = run_row(st, id);
    if (!r)
        return pr_error_set(err, PR_ENOTFOUND, NULL, 0, 0, "no run %lld", (long long)id);
    sqlite3_stmt *q =
        prep(st, "SELECT key, value FROM tags WHERE run_id=? ORDER BY key", err, "cannot load run");
    int rc = q ? 0 : PR_ESTORE;
    if (q) {
        sqlite3_bind_int64(q, 1, id);
        while (sqlite3_step(q) == SQLITE_ROW)
            pr_run_tag(r, (const char *)sqlite3_column_text(q, 0),
                       (const char *)sqlite3_column_text(q, 1));
        sqlite3_finalize(q);
    }
    if (rc == 0 && !(q = prep(st, "SELECT id, value FROM strings WHERE run_id=? ORDER BY id", err,
                              "cannot load run")))
        rc = PR_ESTORE;
    if (rc == 0) {
        sqlite3_bind_int64(q, 1, id);
        while (rc == 0 && sqlite3_step(q) == SQLITE_ROW) {
            uint32_t want = (uint32_t)sqlite3_column_int64(q, 0);
            const char *v = (const char *)sqlite3_column_text(q, 1);
            if (pr_run_intern(r, v ? v : "", (size_t)sqlite3_column_bytes(q, 1)) != want)
                rc = pr_error_set(err, PR_ESTORE, st->path, 0, 0,
                                  "run %lld: string table is inconsistent at id %u", (long long)id,
                                  want);
        }
        sqlite3_finalize(q);
    }
    if (rc < 0) {
        pr_run_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

/* Steps a block query (seq, samples, start_min, start_max, data) into cb; finalizes it. */
static int scan_rows(pr_store *st, sqlite3_stmt *q,
                     int (*cb)(const pr_store_block *b, void *payload), void *payload,
                     pr_error *err)
{
    int rc = 0, step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        pr_store_block b = {
            sqlite3_column_int64(q, 0), sqlite3_column_int64(q, 1),        PR_UNKNOWN, PR_UNKNOWN,
            sqlite3_column_blob(q, 4),  (size_t)sqlite3_column_bytes(q, 4)};
        if (sqlite3_column_type(q, 2) != SQLITE_NULL)
            b.start_min = sqlite3_column_int64(q, 2);
        if (sqlite3_column_type(q, 3) != SQLITE_NULL)
            b.start_max = sqlite3_column_int64(q, 3);
        if ((rc = cb(&b, payload)) != 0)
            break;
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = db_error(st, err, "cannot read samples");
    sqlite3_finalize(q);
    return rc;
}

static int sq_scan_blocks(pr_store *st, int64_t id,
                          int (*cb)(const pr_store_block *b, void *payload), void *payload,
                          pr_error *err)
{
    sqlite3_stmt *q = prep(st,
                           "SELECT seq, samples, start_min, start_max, data FROM blocks"
                           " WHERE run_id=? ORDER BY seq",
                           err, "cannot read samples");
    if (!q)
        return PR_ESTORE;
    sqlite3_bind_int64(q, 1, id);
    return scan_rows(st, q, cb, payload, err);
}

static int sq_block_list(pr_store *st, int64_t id, int64_t **seq, int64_t **samples, size_t *n,
                         pr_error *err)
{
    *seq = *samples = NULL;
    *n = 0;
    if (sqlite3_threadsafe() != 1) /* threads may not share the handle: scan on one */
        return PR_EUSAGE;
    sqlite3_stmt *q = prep(st, "SELECT seq, samples FROM blocks WHERE run_id=? ORDER BY seq", err,
                           "cannot read samples");
    if (!q)
        return PR_ESTORE;
    sqlite3_bind_int64(q, 1, id);
    size_t cap = 0, cap2 = 0;
    int step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        *seq = pr_xgrow(*seq, &cap, *n + 1, sizeof **seq);
        *samples = pr_xgrow(*samples, &cap2, *n + 1, sizeof **samples);
        (*seq)[*n] = sqlite3_column_int64(q, 0);
        (*samples)[(*n)++] = sqlite3_column_int64(q, 1);
    }
    int rc = step == SQLITE_DONE ? 0 : db_error(st, err, "cannot read samples");
    sqlite3_finalize(q);
    return rc;
}

/* The blocks lo <= seq < hi. SQLite's serialized mode (its default build, checked by
 * sq_block_list) lets threads step statements of their own on one handle. */
static int sq_scan_range(pr_store *st, int64_t id, int64_t lo, int64_t hi,
                         int (*cb)(const pr_store_block *b, void *payload), void *payload,
                         pr_error *err)
{
    sqlite3_stmt *q = prep(st,
                           "SELECT seq, samples, start_min, start_max, data FROM blocks"
                           " WHERE run_id=? AND seq>=? AND seq<? ORDER BY seq",
                           err, "cannot read samples");
    if (!q)
        return PR_ESTORE;
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_int64(q, 2, lo);
    sqlite3_bind_int64(q, 3, hi);
    return scan_rows(st, q, cb, payload, err);
}

static int sq_sources(pr_store *st, int64_t id, int (*cb)(const pr_store_source *s, void *payload),
                      void *payload, pr_error *err)
{
    sqlite3_stmt *q = prep(st,
                           "SELECT path, digest, format, samples, ingested_at, forced"
                           " FROM sources WHERE run_id=? ORDER BY id",
                           err, "cannot read sources");
    if (!q)
        return PR_ESTORE;
    sqlite3_bind_int64(q, 1, id);
    int rc = 0;
    while (rc == 0 && sqlite3_step(q) == SQLITE_ROW) {
        pr_store_source s = {id,
                             (const char *)sqlite3_column_text(q, 0),
                             (const char *)sqlite3_column_text(q, 1),
                             (const char *)sqlite3_column_text(q, 2),
                             sqlite3_column_int64(q, 3),
                             sqlite3_column_int64(q, 4),
                             sqlite3_column_int(q, 5)};
        rc = cb(&s, payload);
    }
    sqlite3_finalize(q);
    return rc;
}

static int sq_shards(pr_store *st, int64_t id, pr_store_shard **out, size_t *n, pr_error *err)
{
    sqlite3_stmt *q = prep(st,
                           "SELECT shard_index, shard_count, samples, landed_at FROM shards"
                           " WHERE run_id=? ORDER BY shard_index",
                           err, "cannot read shards");
    if (!q)
        return PR_ESTORE;
    sqlite3_bind_int64(q, 1, id);
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        *out = pr_xgrow(*out, &cap, *n + 1, sizeof **out);
        (*out)[(*n)++] = (pr_store_shard){sqlite3_column_int(q, 0), sqlite3_column_int(q, 1),
                                          sqlite3_column_int64(q, 2), sqlite3_column_int64(q, 3)};
    }
    sqlite3_finalize(q);
    return 0;
}

static int sq_remove(pr_store *st, int64_t id, pr_error *err)
{
    sqlite3_stmt *q = prep(st, "DELETE FROM runs WHERE id=?", err, "cannot remove run");
    if (!q)
        return PR_ESTORE;
    sqlite3_bind_int64(q, 1, id);
    return done(st, q, err, "cannot remove run");
}

static int sq_tag(pr_store *st, int64_t id, const char *key, const char *value, pr_error *err)
{
    sqlite3_stmt *q = prep(st,
                           value ? "INSERT OR REPLACE INTO tags(run_id,key,value) VALUES(?,?,?)"
                                 : "DELETE FROM tags WHERE run_id=? AND key=?",
                           err, "cannot tag run");
    if (!q)
        return PR_ESTORE;
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
    if (value)
        sqlite3_bind_text(q, 3, value, -1, SQLITE_STATIC);
    return done(st, q, err, "cannot tag run");
}

static int sq_cache_put(pr_store *st, int64_t id, const char *key, const char *json, pr_error *err)
{
    sqlite3_stmt *q = prep(st, "INSERT OR REPLACE INTO cache(run_id,key,json) VALUES(?,?,?)", err,
                           "cannot cache");
    if (!q)
        return PR_ESTORE;
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, json, -1, SQLITE_STATIC);
    return done(st, q, err, "cannot cache");
}

static int sq_cache_get(pr_store *st, int64_t id, const char *key, char **json, pr_error *err)
{
    sqlite3_stmt *q =
        prep(st, "SELECT json FROM cache WHERE run_id=? AND key=?", err, "cannot read cache");
    *json = NULL;
    if (!q)
        return PR_ESTORE;
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
    if (sqlite3_step(q) == SQLITE_ROW)
        *json = col_dup(q, 0);
    sqlite3_finalize(q);
    return 0;
}

static int stats_rows(pr_store *st, int64_t id, const pr_store_stats *s, pr_error *err)
{
    sqlite3_stmt *q = prep(st, "INSERT INTO run_stats VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                           err, "cannot store stats");
    if (!q)
        return PR_ESTORE;
    const int64_t ints[] = {s->requests, s->successes, s->errors};
    const int64_t lat[] = {s->min_ns, s->mean_ns, s->p50_ns,  s->p90_ns,
                           s->p95_ns, s->p99_ns,  s->p999_ns, s->max_ns};
    sqlite3_bind_int64(q, 1, id);
    for (int i = 0; i < 3; i++)
        bind_i64(q, 2 + i, ints[i]);
    bind_real(q, 5, s->error_ratio);
    bind_i64(q, 6, s->duration_ns);
    bind_real(q, 7, s->rate_per_s);
    bind_real(q, 8, s->throughput_per_s);
    for (int i = 0; i < 8; i++)
        bind_i64(q, 9 + i, lat[i]);
    bind_real(q, 17, s->apdex);
    bind_i64(q, 18, s->interval_ns);
    int rc = done(st, q, err, "cannot store stats");
    if (rc < 0 || !(q = prep(st, "INSERT INTO run_points VALUES(?,?,?,?,?,?,?,?,?,?,?,?)", err,
                             "cannot store the series")))
        return rc < 0 ? rc : PR_ESTORE;
    for (size_t i = 0; i < s->npoints && rc == 0; i++) {
        const pr_store_point *p = &s->points[i];
        const int64_t v[] = {p->t_ns, p->requests, p->successes, p->errors, p->bytes_in};
        const int64_t l[] = {p->p50_ns, p->p90_ns, p->p99_ns, p->max_ns};
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, id);
        for (int k = 0; k < 5; k++)
            bind_i64(q, 2 + k, v[k]);
        bind_real(q, 7, p->throughput_per_s);
        bind_real(q, 8, p->rate_per_s);
        for (int k = 0; k < 4; k++)
            bind_i64(q, 9 + k, l[k]);
        if (sqlite3_step(q) != SQLITE_DONE)
            rc = db_error(st, err, "cannot store the series");
    }
    sqlite3_finalize(q);
    return rc;
}

static int sq_stats_put(pr_store *st, int64_t id, const pr_store_stats *s, pr_error *err)
{
    int rc = exec(st, "BEGIN IMMEDIATE", err);
    if (rc < 0)
        return rc;
    const char *clear[] = {"DELETE FROM run_stats WHERE run_id=?",
                           "DELETE FROM run_points WHERE run_id=?"};
    for (int i = 0; i < 2 && rc == 0; i++) {
        sqlite3_stmt *q = prep(st, clear[i], err, "cannot store stats");
        if (!q) {
            rc = PR_ESTORE;
            break;
        }
        sqlite3_bind_int64(q, 1, id);
        rc = done(st, q, err, "cannot store stats");
    }
    int64_t samples = 0;
    if (rc == 0)
        rc = one_i64(st, "SELECT samples FROM runs WHERE id=?", id, &samples, err);
    if (rc == 0 && samples == s->basis_samples) /* else: stale, the newer writer follows */
        rc = stats_rows(st, id, s, err);
    if (rc == 0)
        return exec(st, "COMMIT", err);
    exec(st, "ROLLBACK", NULL);
    return rc;
}

static const pr_store_ops sqlite_ops = {
    "sqlite",          sq_close,      sq_begin,      sq_commit,      sq_rollback,
    sq_lock_name,      sq_run_create, sq_run_write,  sq_strings_put, sq_agg_add,
    sq_block_next_seq, sq_block_put,  sq_source_put, sq_source_find, sq_shard_put,
    sq_cache_clear,    sq_runs,       sq_load_run,   sq_scan_blocks, sq_sources,
    sq_shards,         sq_remove,     sq_tag,        sq_cache_put,   sq_cache_get,
    sq_stats_put,      sq_block_list, sq_scan_range,
};
