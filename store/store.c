/* The SQLite store: schema, ingest transactions with aggregates, run queries and block scans. */
#include "store/store.h"
#include "model/buf.h"
#include "model/native.h"
#include "model/xalloc.h"
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct pr_store {
    sqlite3 *db;
    char *path;
};

static const char *const schema_sql =
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
    "  key TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY(run_id, key));";

static int db_error(pr_store *st, pr_error *err, const char *what)
{
    return pr_error_set(err, PR_ESTORE, st->path, 0, 0, "%s: %s", what, sqlite3_errmsg(st->db));
}

static int exec(pr_store *st, const char *sql, pr_error *err)
{
    char *msg = NULL;
    if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        int rc = pr_error_set(err, PR_ESTORE, st->path, 0, 0, "%s", msg ? msg : "sqlite error");
        sqlite3_free(msg);
        return rc;
    }
    return 0;
}

static int64_t now_s(void)
{
    const char *e = getenv("SOURCE_DATE_EPOCH");
    if (e && *e)
        return strtoll(e, NULL, 10);
    return (int64_t)time(NULL);
}

const char *pr_store_default_path(void)
{
    const char *p = getenv("PERFREPORT_STORE");
    return p && *p ? p : "perfreport.db";
}

int pr_store_open(pr_store **out, const char *path, int create, pr_error *err)
{
    pr_store *st = pr_xcalloc(1, sizeof *st);
    st->path = pr_xstrdup(path);
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    if (sqlite3_open_v2(path, &st->db, flags, NULL) != SQLITE_OK) {
        int rc = create ? db_error(st, err, "cannot open store")
                        : pr_error_set(err, PR_ENOTFOUND, path, 0, 0,
                                       "no store here (ingest something first, or use --store)");
        pr_store_close(st);
        return rc;
    }
    sqlite3_busy_timeout(st->db, 60000);
    int rc = exec(st, "PRAGMA foreign_keys=ON; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                  err);
    sqlite3_stmt *q;
    int version = 0;
    if (rc == 0 && sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &q, NULL) == SQLITE_OK) {
        if (sqlite3_step(q) == SQLITE_ROW)
            version = sqlite3_column_int(q, 0);
        sqlite3_finalize(q);
    }
    if (rc == 0 && version > PR_STORE_SCHEMA_VERSION)
        rc = pr_error_set(err, PR_ESTORE, path, 0, 0,
                          "store schema version %d is newer than this perfreport (%d)", version,
                          PR_STORE_SCHEMA_VERSION);
    if (rc == 0 && version < PR_STORE_SCHEMA_VERSION) {
        rc = exec(st, "BEGIN IMMEDIATE", err);
        if (rc == 0) {
            rc = exec(st, schema_sql, err);
            if (rc == 0)
                rc = exec(st, "PRAGMA user_version=1; COMMIT;", err);
            else
                exec(st, "ROLLBACK", NULL);
        }
    }
    if (rc < 0) {
        pr_store_close(st);
        return rc;
    }
    *out = st;
    return 0;
}

void pr_store_close(pr_store *st)
{
    if (!st)
        return;
    sqlite3_close(st->db);
    free(st->path);
    free(st);
}

/* ---- ingest ------------------------------------------------------------------------ */

typedef struct counts {
    int64_t *v;
    size_t cap;
} counts;

static void count_add(counts *c, size_t i, int64_t k)
{
    if (i >= c->cap) {
        size_t old = c->cap;
        c->v = pr_xgrow(c->v, &c->cap, i + 1, sizeof *c->v);
        memset(c->v + old, 0, (c->cap - old) * sizeof *c->v);
    }
    c->v[i] += k;
}

struct pr_ingest {
    pr_store *st;
    pr_sink sink;
    pr_run *run;
    char *source;
    uint32_t strings_stored;  /* ids below this are already in the strings table */
    int64_t next_seq;
    pr_sample *pending;
    size_t npending;
    pr_buf block;
    /* aggregates of what this input adds to the current run */
    int64_t samples, successes;
    int64_t tx_samples, tx_before; /* Transaction Controller samples: this input's, earlier */
    counts label_n, label_err, error_n, status_n;
    int64_t total_samples;
    int runs;
    int new_run;
    sqlite3_stmt *ins_block;
};

static int flush_block(pr_ingest *ing, pr_error *err)
{
    if (ing->npending == 0)
        return 0;
    pr_buf_reset(&ing->block);
    pr_block_encode(ing->pending, ing->npending, &ing->block);
    int64_t lo = PR_UNKNOWN, hi = PR_UNKNOWN;
    for (size_t i = 0; i < ing->npending; i++) {
        int64_t t = ing->pending[i].start_ns;
        if (t == PR_UNKNOWN)
            continue;
        if (lo == PR_UNKNOWN || t < lo)
            lo = t;
        if (hi == PR_UNKNOWN || t > hi)
            hi = t;
    }
    sqlite3_stmt *q = ing->ins_block;
    sqlite3_reset(q);
    sqlite3_bind_int64(q, 1, ing->run->id);
    sqlite3_bind_int64(q, 2, ing->next_seq++);
    sqlite3_bind_int64(q, 3, (int64_t)ing->npending);
    if (lo != PR_UNKNOWN) {
        sqlite3_bind_int64(q, 4, lo);
        sqlite3_bind_int64(q, 5, hi);
    } else {
        sqlite3_bind_null(q, 4);
        sqlite3_bind_null(q, 5);
    }
    sqlite3_bind_blob(q, 6, ing->block.p, (int)ing->block.len, SQLITE_STATIC);
    if (sqlite3_step(q) != SQLITE_DONE)
        return db_error(ing->st, err, "cannot store samples");
    ing->npending = 0;
    return 0;
}

static int push(void *payload, pr_run *run, const pr_sample *s, size_t n, pr_error *err)
{
    pr_ingest *ing = payload;
    for (size_t i = 0; i < n; i++) {
        const pr_sample *x = &s[i];
        int outcome = pr_sample_outcome(x);
        ing->samples++;
        ing->successes += outcome == 1;
        ing->tx_samples += (x->flags & PR_SF_TRANSACTION) != 0;
        count_add(&ing->label_n, x->label, 1);
        if (outcome == 0)
            count_add(&ing->label_err, x->label, 1);
        if (x->error)
            count_add(&ing->error_n, x->error, 1);
        count_add(&ing->status_n, x->status, 1);
        ing->pending[ing->npending++] = *x;
        if (ing->npending == PR_NATIVE_BLOCK_MAX) {
            int rc = flush_block(ing, err);
            if (rc < 0)
                return rc;
        }
    }
    return 0;
}

static int create_run_row(pr_ingest *ing, pr_error *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(ing->st->db,
                           "INSERT INTO runs(name, created_at) VALUES(?, ?)", -1, &q,
                           NULL) != SQLITE_OK)
        return db_error(ing->st, err, "cannot create run");
    sqlite3_bind_text(q, 1, ing->run->name ? ing->run->name : "", -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, 2, now_s());
    int rc = sqlite3_step(q) == SQLITE_DONE ? 0 : db_error(ing->st, err, "cannot create run");
    sqlite3_finalize(q);
    if (rc == 0)
        ing->run->id = sqlite3_last_insert_rowid(ing->st->db);
    ing->new_run = 1;
    ing->next_seq = 0;
    ing->strings_stored = 1;
    return rc;
}

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

static char *dumps(json_t *j)
{
    return j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
}

/* "stdin", or "stdin-2", "stdin-3"… when another run already has the name: inputs read from
 * stdin have no file name to tell them apart. Malloc'd. */
static char *stdin_name(pr_store *st, int64_t run_id)
{
    sqlite3_stmt *q;
    char *name = pr_xstrdup("stdin");
    if (sqlite3_prepare_v2(st->db, "SELECT 1 FROM runs WHERE name=? AND id<>?", -1, &q, NULL) !=
        SQLITE_OK)
        return name;
    for (int k = 2;; k++) {
        sqlite3_reset(q);
        sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 2, run_id);
        if (sqlite3_step(q) != SQLITE_ROW)
            break;
        free(name);
        name = pr_xasprintf("stdin-%d", k);
    }
    sqlite3_finalize(q);
    return name;
}

/* Writes metadata, strings and aggregates of the current run. */
static int finish_run(pr_ingest *ing, pr_error *err)
{
    int rc = flush_block(ing, err);
    if (rc < 0)
        return rc;
    pr_store *st = ing->st;
    pr_run *run = ing->run;
    if (!run->name || !*run->name) {
        char *n = strcmp(ing->source, "-") ? pr_xstrdup(base_name(ing->source))
                                           : stdin_name(st, run->id);
        char *dot = strrchr(n, '.');
        if (dot && dot != n && strcmp(ing->source, "-"))
            *dot = 0;
        pr_run_set_name(run, n);
        free(n);
    }
    run->samples += ing->samples;
    run->successes += ing->successes;
    /* store-maintained: samples that are not requests (JMeter Transaction Controllers) */
    int64_t tx = ing->tx_before + ing->tx_samples;
    if (tx > 0)
        pr_run_meta_set(run, "transaction_samples", json_integer(tx));
    if (run->samples > 0) /* a tool's printed summary beside samples: samples win */
        run->summary_only = 0;
    sqlite3_stmt *q;
    const char *sql =
        "UPDATE runs SET name=?, tool=?, format=?, tool_version=?, samples=?, successes=?,"
        " start_ns=?, end_ns=?, load_model=?, offered_rate=?, concurrency=?, summary_only=?,"
        " summary_json=?, meta_json=? WHERE id=?";
    if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) != SQLITE_OK)
        return db_error(st, err, "cannot update run");
    char *sum = dumps(run->summary);
    char *meta = dumps(run->meta);
    sqlite3_bind_text(q, 1, run->name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 2, run->tool, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 3, run->format, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 4, run->tool_version, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, 5, run->samples);
    sqlite3_bind_int64(q, 6, run->successes);
    if (run->start_ns != PR_UNKNOWN)
        sqlite3_bind_int64(q, 7, run->start_ns);
    if (run->end_ns != PR_UNKNOWN)
        sqlite3_bind_int64(q, 8, run->end_ns);
    sqlite3_bind_text(q, 9, pr_load_model_name(run->load_model), -1, SQLITE_STATIC);
    if (!isnan(run->offered_rate))
        sqlite3_bind_double(q, 10, run->offered_rate);
    if (run->concurrency >= 0)
        sqlite3_bind_int(q, 11, run->concurrency);
    sqlite3_bind_int(q, 12, run->summary_only);
    sqlite3_bind_text(q, 13, sum, -1, free);
    sqlite3_bind_text(q, 14, meta ? meta : "{}", -1, SQLITE_TRANSIENT);
    free(meta);
    sqlite3_bind_int64(q, 15, run->id);
    rc = sqlite3_step(q) == SQLITE_DONE ? 0 : db_error(st, err, "cannot update run");
    sqlite3_finalize(q);
    if (rc < 0)
        return rc;

    /* tags: rewrite */
    if (sqlite3_prepare_v2(st->db, "INSERT OR REPLACE INTO tags(run_id,key,value) VALUES(?,?,?)",
                           -1, &q, NULL) != SQLITE_OK)
        return db_error(st, err, "cannot store tags");
    for (size_t i = 0; i < run->ntags && rc == 0; i++) {
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, run->id);
        sqlite3_bind_text(q, 2, run->tags[i].key, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 3, run->tags[i].value, -1, SQLITE_STATIC);
        if (sqlite3_step(q) != SQLITE_DONE)
            rc = db_error(st, err, "cannot store tags");
    }
    sqlite3_finalize(q);
    if (rc < 0)
        return rc;

    /* new strings */
    uint32_t count = pr_strtab_count(run->strings);
    if (sqlite3_prepare_v2(st->db, "INSERT INTO strings(run_id,id,value) VALUES(?,?,?)", -1, &q,
                           NULL) != SQLITE_OK)
        return db_error(st, err, "cannot store strings");
    for (uint32_t id = ing->strings_stored; id < count && rc == 0; id++) {
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, run->id);
        sqlite3_bind_int64(q, 2, id);
        sqlite3_bind_text(q, 3, pr_strtab_get(run->strings, id),
                          (int)pr_strtab_len(run->strings, id), SQLITE_STATIC);
        if (sqlite3_step(q) != SQLITE_DONE)
            rc = db_error(st, err, "cannot store strings");
    }
    sqlite3_finalize(q);
    ing->strings_stored = count;
    if (rc < 0)
        return rc;

    /* aggregate tables (upsert: appending to a run adds to its counts) */
    if (sqlite3_prepare_v2(st->db,
                           "INSERT INTO labels(run_id,label,samples,errors) VALUES(?,?,?,?)"
                           " ON CONFLICT(run_id,label) DO UPDATE SET samples=samples+excluded.samples,"
                           " errors=errors+excluded.errors",
                           -1, &q, NULL) != SQLITE_OK)
        return db_error(st, err, "cannot store labels");
    for (size_t id = 0; id < ing->label_n.cap && rc == 0; id++) {
        if (!ing->label_n.v[id])
            continue;
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, run->id);
        sqlite3_bind_text(q, 2, pr_strtab_get(run->strings, (uint32_t)id), -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 3, ing->label_n.v[id]);
        sqlite3_bind_int64(q, 4, id < ing->label_err.cap ? ing->label_err.v[id] : 0);
        if (sqlite3_step(q) != SQLITE_DONE)
            rc = db_error(st, err, "cannot store labels");
    }
    sqlite3_finalize(q);
    if (rc < 0)
        return rc;
    if (sqlite3_prepare_v2(st->db,
                           "INSERT INTO errors(run_id,message,count) VALUES(?,?,?)"
                           " ON CONFLICT(run_id,message) DO UPDATE SET count=count+excluded.count",
                           -1, &q, NULL) != SQLITE_OK)
        return db_error(st, err, "cannot store errors");
    for (size_t id = 1; id < ing->error_n.cap && rc == 0; id++) {
        if (!ing->error_n.v[id])
            continue;
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, run->id);
        sqlite3_bind_text(q, 2, pr_strtab_get(run->strings, (uint32_t)id), -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 3, ing->error_n.v[id]);
        if (sqlite3_step(q) != SQLITE_DONE)
            rc = db_error(st, err, "cannot store errors");
    }
    sqlite3_finalize(q);
    if (rc < 0)
        return rc;
    if (sqlite3_prepare_v2(st->db,
                           "INSERT INTO status_codes(run_id,status,count) VALUES(?,?,?)"
                           " ON CONFLICT(run_id,status) DO UPDATE SET count=count+excluded.count",
                           -1, &q, NULL) != SQLITE_OK)
        return db_error(st, err, "cannot store status codes");
    for (size_t code = 0; code < ing->status_n.cap && rc == 0; code++) {
        if (!ing->status_n.v[code])
            continue;
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, run->id);
        sqlite3_bind_int64(q, 2, (int64_t)code);
        sqlite3_bind_int64(q, 3, ing->status_n.v[code]);
        if (sqlite3_step(q) != SQLITE_DONE)
            rc = db_error(st, err, "cannot store status codes");
    }
    sqlite3_finalize(q);
    if (rc < 0)
        return rc;
    /* a changed run invalidates cached analysis */
    if (sqlite3_prepare_v2(st->db, "DELETE FROM cache WHERE run_id=?", -1, &q, NULL) != SQLITE_OK)
        return db_error(st, err, "cannot clear cache");
    sqlite3_bind_int64(q, 1, run->id);
    rc = sqlite3_step(q) == SQLITE_DONE ? 0 : db_error(st, err, "cannot clear cache");
    sqlite3_finalize(q);
    ing->total_samples += ing->samples;
    ing->runs++;
    ing->samples = ing->successes = 0;
    ing->tx_samples = ing->tx_before = 0;
    counts *all[] = {&ing->label_n, &ing->label_err, &ing->error_n, &ing->status_n};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i]->v)
            memset(all[i]->v, 0, all[i]->cap * sizeof(int64_t));
    return rc;
}

static int insert_source(pr_ingest *ing, const char *sha, pr_error *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(ing->st->db,
                           "INSERT INTO sources(run_id,path,digest,format,samples,ingested_at)"
                           " VALUES(?,?,?,?,?,?)",
                           -1, &q, NULL) != SQLITE_OK)
        return db_error(ing->st, err, "cannot record source");
    sqlite3_bind_int64(q, 1, ing->run->id);
    sqlite3_bind_text(q, 2, ing->source, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, sha ? sha : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 4, ing->run->format, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 5, ing->total_samples);
    sqlite3_bind_int64(q, 6, now_s());
    int rc = sqlite3_step(q) == SQLITE_DONE ? 0 : db_error(ing->st, err, "cannot record source");
    sqlite3_finalize(q);
    return rc;
}

static int split(void *payload, pr_sink *sink, pr_error *err)
{
    pr_ingest *ing = payload;
    int rc = finish_run(ing, err);
    if (rc < 0)
        return rc;
    pr_run *old = ing->run;
    pr_run *r = pr_run_new();
    if (old->name) {
        char *name = pr_xasprintf("%s#%d", old->name, ing->runs + 1);
        pr_run_set_name(r, name);
        free(name);
    }
    pr_run_set_format(r, old->format, old->tool);
    for (size_t i = 0; i < old->ntags; i++)
        pr_run_tag(r, old->tags[i].key, old->tags[i].value);
    /* the previous run is complete in the store; keep only the new one in memory */
    pr_run_free(old);
    ing->run = sink->run = r;
    return create_run_row(ing, err);
}

static void free_ingest(pr_ingest *ing)
{
    sqlite3_finalize(ing->ins_block);
    pr_run_free(ing->run);
    free(ing->source);
    free(ing->pending);
    pr_buf_dispose(&ing->block);
    free(ing->label_n.v);
    free(ing->label_err.v);
    free(ing->error_n.v);
    free(ing->status_n.v);
    free(ing);
}

int pr_ingest_begin(pr_store *st, pr_ingest **out, const char *run_name, const char *source,
                    pr_error *err)
{
    int rc = exec(st, "BEGIN IMMEDIATE", err);
    if (rc < 0)
        return rc;
    pr_ingest *ing = pr_xcalloc(1, sizeof *ing);
    ing->st = st;
    ing->source = pr_xstrdup(source);
    ing->pending = pr_xmalloc(PR_NATIVE_BLOCK_MAX * sizeof *ing->pending);
    ing->block.max = (size_t)1 << 30;
    if (sqlite3_prepare_v2(st->db,
                           "INSERT INTO blocks(run_id,seq,samples,start_min,start_max,data)"
                           " VALUES(?,?,?,?,?,?)",
                           -1, &ing->ins_block, NULL) != SQLITE_OK) {
        rc = db_error(st, err, "cannot prepare");
        goto fail;
    }
    int64_t existing = 0;
    if (run_name) {
        sqlite3_stmt *q;
        sqlite3_prepare_v2(st->db, "SELECT max(id) FROM runs WHERE name=?", -1, &q, NULL);
        sqlite3_bind_text(q, 1, run_name, -1, SQLITE_STATIC);
        if (sqlite3_step(q) == SQLITE_ROW)
            existing = sqlite3_column_int64(q, 0);
        sqlite3_finalize(q);
    }
    if (existing) {
        rc = pr_store_load_run(st, existing, &ing->run, err);
        if (rc < 0)
            goto fail;
        ing->strings_stored = pr_strtab_count(ing->run->strings);
        json_t *tx = json_object_get(ing->run->meta, "transaction_samples");
        ing->tx_before = json_is_integer(tx) ? json_integer_value(tx) : 0;
        sqlite3_stmt *q;
        sqlite3_prepare_v2(st->db, "SELECT coalesce(max(seq)+1,0) FROM blocks WHERE run_id=?", -1,
                           &q, NULL);
        sqlite3_bind_int64(q, 1, existing);
        if (sqlite3_step(q) == SQLITE_ROW)
            ing->next_seq = sqlite3_column_int64(q, 0);
        sqlite3_finalize(q);
    } else {
        ing->run = pr_run_new();
        if (run_name)
            pr_run_set_name(ing->run, run_name);
        rc = create_run_row(ing, err);
        if (rc < 0)
            goto fail;
    }
    free(ing->run->source);
    ing->run->source = pr_xstrdup(source);
    pr_sink_init(&ing->sink, ing->run, push, ing);
    ing->sink.split = split;
    *out = ing;
    return 0;
fail:
    exec(st, "ROLLBACK", NULL);
    free_ingest(ing);
    return rc;
}

pr_sink *pr_ingest_sink(pr_ingest *ing)
{
    return &ing->sink;
}

int pr_ingest_commit(pr_ingest *ing, const char *digest, int force, pr_ingest_result *res,
                     pr_error *err)
{
    pr_store *st = ing->st;
    memset(res, 0, sizeof *res);
    int rc = pr_sink_flush(&ing->sink, err);
    if (rc == 0 && digest && *digest && !force) {
        sqlite3_stmt *q;
        sqlite3_prepare_v2(st->db, "SELECT run_id FROM sources WHERE digest=? LIMIT 1", -1, &q,
                           NULL);
        sqlite3_bind_text(q, 1, digest, -1, SQLITE_STATIC);
        if (sqlite3_step(q) == SQLITE_ROW)
            res->duplicate_of = (int)sqlite3_column_int64(q, 0);
        sqlite3_finalize(q);
        if (res->duplicate_of) {
            pr_ingest_abort(ing);
            return 0;
        }
    }
    if (rc == 0)
        rc = finish_run(ing, err);
    if (rc == 0)
        rc = insert_source(ing, digest, err);
    if (rc == 0)
        rc = exec(st, "COMMIT", err);
    if (rc < 0) {
        pr_ingest_abort(ing);
        return rc;
    }
    res->run_id = ing->run->id;
    snprintf(res->name, sizeof res->name, "%s", ing->run->name ? ing->run->name : "");
    res->samples = ing->total_samples;
    res->runs = ing->runs;
    free_ingest(ing);
    return 0;
}

void pr_ingest_abort(pr_ingest *ing)
{
    exec(ing->st, "ROLLBACK", NULL);
    free_ingest(ing);
}

/* ---- queries -------------------------------------------------------------------------- */

int pr_store_list_runs(pr_store *st, int64_t **ids, size_t *n, pr_error *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db, "SELECT id FROM runs ORDER BY id", -1, &q, NULL) != SQLITE_OK)
        return db_error(st, err, "cannot list runs");
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

int pr_store_find_run(pr_store *st, const char *ref, int64_t *id, pr_error *err)
{
    sqlite3_stmt *q;
    int64_t found = 0;
    int matches = 0;
    char *end;
    long long v = strtoll(ref, &end, 10);
    if (*ref && !*end) {
        sqlite3_prepare_v2(st->db, "SELECT id FROM runs WHERE id=?", -1, &q, NULL);
        sqlite3_bind_int64(q, 1, v);
    } else if (!strcmp(ref, "last")) {
        sqlite3_prepare_v2(st->db, "SELECT max(id) FROM runs HAVING count(*)>0", -1, &q, NULL);
    } else {
        sqlite3_prepare_v2(st->db, "SELECT id FROM runs WHERE name=? ORDER BY id", -1, &q, NULL);
        sqlite3_bind_text(q, 1, ref, -1, SQLITE_STATIC);
    }
    while (sqlite3_step(q) == SQLITE_ROW) {
        found = sqlite3_column_int64(q, 0);
        matches++;
    }
    sqlite3_finalize(q);
    if (matches == 0)
        return pr_error_set(err, PR_ENOTFOUND, NULL, 0, 0, "no run '%s' (see perfreport runs)", ref);
    if (matches > 1)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            "%d runs are named '%s'; name one by its id (see perfreport runs)",
                            matches, ref);
    *id = found;
    return 0;
}

static char *col_dup(sqlite3_stmt *q, int i)
{
    const unsigned char *t = sqlite3_column_text(q, i);
    return t ? pr_xstrdup((const char *)t) : NULL;
}

int pr_store_load_run(pr_store *st, int64_t id, pr_run **out, pr_error *err)
{
    sqlite3_stmt *q;
    const char *sql = "SELECT name, tool, format, tool_version, samples, successes, start_ns,"
                      " end_ns, load_model, offered_rate, concurrency, summary_only,"
                      " summary_json, meta_json FROM runs WHERE id=?";
    if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) != SQLITE_OK)
        return db_error(st, err, "cannot load run");
    sqlite3_bind_int64(q, 1, id);
    if (sqlite3_step(q) != SQLITE_ROW) {
        sqlite3_finalize(q);
        return pr_error_set(err, PR_ENOTFOUND, NULL, 0, 0, "no run %lld", (long long)id);
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
    r->load_model = lm && !strcmp(lm, "open") ? PR_LOAD_OPEN
                    : lm && !strcmp(lm, "closed") ? PR_LOAD_CLOSED : PR_LOAD_UNKNOWN;
    if (sqlite3_column_type(q, 9) != SQLITE_NULL)
        r->offered_rate = sqlite3_column_double(q, 9);
    if (sqlite3_column_type(q, 10) != SQLITE_NULL)
        r->concurrency = sqlite3_column_int(q, 10);
    r->summary_only = sqlite3_column_int(q, 11);
    const char *sum = (const char *)sqlite3_column_text(q, 12);
    if (sum)
        r->summary = json_loads(sum, 0, NULL);
    const char *meta = (const char *)sqlite3_column_text(q, 13);
    json_t *m = meta ? json_loads(meta, 0, NULL) : NULL;
    if (json_is_object(m)) {
        json_decref(r->meta);
        r->meta = m;
    } else {
        json_decref(m);
    }
    sqlite3_finalize(q);
    sqlite3_prepare_v2(st->db, "SELECT key, value FROM tags WHERE run_id=? ORDER BY key", -1, &q,
                       NULL);
    sqlite3_bind_int64(q, 1, id);
    while (sqlite3_step(q) == SQLITE_ROW)
        pr_run_tag(r, (const char *)sqlite3_column_text(q, 0),
                   (const char *)sqlite3_column_text(q, 1));
    sqlite3_finalize(q);
    sqlite3_prepare_v2(st->db, "SELECT id, value FROM strings WHERE run_id=? ORDER BY id", -1, &q,
                       NULL);
    sqlite3_bind_int64(q, 1, id);
    int rc = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        uint32_t want = (uint32_t)sqlite3_column_int64(q, 0);
        const char *v = (const char *)sqlite3_column_text(q, 1);
        uint32_t got = pr_run_intern(r, v ? v : "", (size_t)sqlite3_column_bytes(q, 1));
        if (got != want) {
            rc = pr_error_set(err, PR_ESTORE, st->path, 0, 0,
                              "run %lld: string table is inconsistent at id %u", (long long)id,
                              want);
            break;
        }
    }
    sqlite3_finalize(q);
    if (rc < 0) {
        pr_run_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

int pr_store_scan(pr_store *st, int64_t id,
                  int (*cb)(void *payload, const pr_sample *s, size_t n), void *payload,
                  pr_error *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db, "SELECT seq, data FROM blocks WHERE run_id=? ORDER BY seq", -1,
                           &q, NULL) != SQLITE_OK)
        return db_error(st, err, "cannot read samples");
    sqlite3_bind_int64(q, 1, id);
    pr_sample *buf = NULL;
    size_t cap = 0, n;
    int rc = 0, step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        const void *data = sqlite3_column_blob(q, 1);
        int len = sqlite3_column_bytes(q, 1);
        rc = pr_block_decode(data, (size_t)len, &buf, &cap, &n, err);
        if (rc < 0) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            rc = pr_error_set(err, PR_ESTORE, st->path, 0, 0, "run %lld block %lld: %s",
                              (long long)id, (long long)sqlite3_column_int64(q, 0), msg);
            break;
        }
        rc = cb(payload, buf, n);
        if (rc)
            break;
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = db_error(st, err, "cannot read samples");
    sqlite3_finalize(q);
    free(buf);
    return rc;
}

int pr_store_scan_cols(pr_store *st, int64_t id, unsigned want,
                       int (*cb)(void *payload, const pr_block_cols *c), void *payload,
                       pr_error *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db, "SELECT seq, data FROM blocks WHERE run_id=? ORDER BY seq", -1,
                           &q, NULL) != SQLITE_OK)
        return db_error(st, err, "cannot read samples");
    sqlite3_bind_int64(q, 1, id);
    pr_block_cols c;
    int rc = 0, step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        const void *data = sqlite3_column_blob(q, 1);
        int len = sqlite3_column_bytes(q, 1);
        rc = pr_block_decode_cols(data, (size_t)len, want, &c, err);
        if (rc < 0) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            rc = pr_error_set(err, PR_ESTORE, st->path, 0, 0, "run %lld block %lld: %s",
                              (long long)id, (long long)sqlite3_column_int64(q, 0), msg);
            break;
        }
        rc = cb(payload, &c);
        if (rc)
            break;
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = db_error(st, err, "cannot read samples");
    sqlite3_finalize(q);
    return rc;
}

typedef struct some_scan {
    int (*cb)(void *payload, const pr_sample *s, size_t n);
    void *payload;
    pr_sample buf[512];
} some_scan;

static int some_block(void *payload, const pr_block_cols *c)
{
    some_scan *ss = payload;
    for (size_t at = 0; at < c->n; at += 512) {
        size_t m = c->n - at < 512 ? c->n - at : 512;
        pr_block_cols_samples(c, at, m, ss->buf);
        int rc = ss->cb(ss->payload, ss->buf, m);
        if (rc)
            return rc;
    }
    return 0;
}

int pr_store_scan_some(pr_store *st, int64_t id, unsigned want,
                       int (*cb)(void *payload, const pr_sample *s, size_t n), void *payload,
                       pr_error *err)
{
    some_scan *ss = pr_xmalloc(sizeof *ss);
    ss->cb = cb;
    ss->payload = payload;
    int rc = pr_store_scan_cols(st, id, want, some_block, ss, err);
    free(ss);
    return rc;
}

int pr_store_remove(pr_store *st, int64_t id, pr_error *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db, "DELETE FROM runs WHERE id=?", -1, &q, NULL) != SQLITE_OK)
        return db_error(st, err, "cannot remove run");
    sqlite3_bind_int64(q, 1, id);
    int rc = sqlite3_step(q) == SQLITE_DONE ? 0 : db_error(st, err, "cannot remove run");
    sqlite3_finalize(q);
    return rc;
}

int pr_store_tag(pr_store *st, int64_t id, const char *key, const char *value, pr_error *err)
{
    sqlite3_stmt *q;
    const char *sql = value ? "INSERT OR REPLACE INTO tags(run_id,key,value) VALUES(?,?,?)"
                            : "DELETE FROM tags WHERE run_id=? AND key=?";
    if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) != SQLITE_OK)
        return db_error(st, err, "cannot tag run");
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
    if (value)
        sqlite3_bind_text(q, 3, value, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q) == SQLITE_DONE ? 0 : db_error(st, err, "cannot tag run");
    sqlite3_finalize(q);
    return rc;
}

int pr_store_cache_put(pr_store *st, int64_t id, const char *key, const char *json, pr_error *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(st->db, "INSERT OR REPLACE INTO cache(run_id,key,json) VALUES(?,?,?)",
                           -1, &q, NULL) != SQLITE_OK)
        return db_error(st, err, "cannot cache");
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, json, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q) == SQLITE_DONE ? 0 : db_error(st, err, "cannot cache");
    sqlite3_finalize(q);
    return rc;
}

int pr_store_cache_get(pr_store *st, int64_t id, const char *key, char **json, pr_error *err)
{
    sqlite3_stmt *q;
    *json = NULL;
    if (sqlite3_prepare_v2(st->db, "SELECT json FROM cache WHERE run_id=? AND key=?", -1, &q,
                           NULL) != SQLITE_OK)
        return db_error(st, err, "cannot read cache");
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
    if (sqlite3_step(q) == SQLITE_ROW)
        *json = col_dup(q, 0);
    sqlite3_finalize(q);
    return 0;
}
