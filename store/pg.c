/* The PostgreSQL backend of the store (libpq): a team's shared history, concurrent writers. */
#include "store/backend.h"
#include "model/buf.h"
#include "model/xalloc.h"
#include <endian.h>
#include <libpq-fe.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Advisory lock namespaces ("PRF" + n): schema migration, run numbering, run names/keys. */
#define LOCK_NS_SCHEMA 0x50524631
#define LOCK_NS_IDS 0x50524632
#define LOCK_NS_NAMES 0x50524633
#define ROWS_PER_STATEMENT 4096
#define FETCH_BLOCKS "16"

typedef struct pg {
    pr_store base;
    PGconn *conn;
    int in_tx;
    unsigned cursors; /* scans opened, for unique cursor names */
} pg;

static PGconn *CONN(pr_store *st)
{
    return ((pg *)st)->conn;
}

/* ---- schema ---- */

/* Entry v takes a store from version v-1 to v; the same logical schema as store/sqlite.c. */
static const char *const migrations[] = {
    NULL,
    /* 1 */
    "CREATE TABLE perfreport_schema (version INTEGER NOT NULL);"
    "INSERT INTO perfreport_schema VALUES (0);"
    "CREATE SEQUENCE runs_provisional;"
    "CREATE TABLE runs ("
    "  id BIGINT PRIMARY KEY,"
    "  name TEXT NOT NULL, tool TEXT, format TEXT, tool_version TEXT,"
    "  samples BIGINT NOT NULL DEFAULT 0, successes BIGINT NOT NULL DEFAULT 0,"
    "  start_ns BIGINT, end_ns BIGINT,"
    "  load_model TEXT NOT NULL DEFAULT 'unknown',"
    "  offered_rate DOUBLE PRECISION, concurrency INTEGER,"
    "  summary_only INTEGER NOT NULL DEFAULT 0, summary_json TEXT,"
    "  meta_json TEXT NOT NULL DEFAULT '{}', created_at BIGINT NOT NULL);"
    "CREATE INDEX runs_name ON runs(name);"
    "CREATE TABLE sources ("
    "  id BIGSERIAL PRIMARY KEY,"
    "  run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE ON UPDATE CASCADE,"
    "  path TEXT NOT NULL, digest TEXT NOT NULL, format TEXT,"
    "  samples BIGINT NOT NULL, ingested_at BIGINT NOT NULL);"
    "CREATE INDEX sources_digest ON sources(digest);"
    "CREATE INDEX sources_run ON sources(run_id);"
    "CREATE TABLE tags ("
    "  run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE ON UPDATE CASCADE,"
    "  key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY(run_id, key));"
    "CREATE TABLE strings ("
    "  run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE ON UPDATE CASCADE,"
    "  id BIGINT NOT NULL, value BYTEA NOT NULL, PRIMARY KEY(run_id, id));"
    "CREATE TABLE labels ("
    "  run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE ON UPDATE CASCADE,"
    "  label TEXT NOT NULL, samples BIGINT NOT NULL, errors BIGINT NOT NULL);"
    "CREATE UNIQUE INDEX labels_key ON labels(run_id, md5(label));"
    "CREATE TABLE errors ("
    "  run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE ON UPDATE CASCADE,"
    "  message TEXT NOT NULL, count BIGINT NOT NULL);"
    "CREATE UNIQUE INDEX errors_key ON errors(run_id, md5(message));"
    "CREATE TABLE status_codes ("
    "  run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE ON UPDATE CASCADE,"
    "  status INTEGER NOT NULL, count BIGINT NOT NULL, PRIMARY KEY(run_id, status));"
    "CREATE TABLE blocks ("
    "  run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE ON UPDATE CASCADE,"
    "  seq BIGINT NOT NULL, samples BIGINT NOT NULL,"
    "  start_min BIGINT, start_max BIGINT, data BYTEA NOT NULL, PRIMARY KEY(run_id, seq));"
    "CREATE TABLE cache ("
    "  run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE ON UPDATE CASCADE,"
    "  key TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY(run_id, key));",
    /* 2 */
    "ALTER TABLE runs ADD COLUMN run_key TEXT UNIQUE;"
    "ALTER TABLE sources ADD COLUMN forced INTEGER NOT NULL DEFAULT 0;"
    "UPDATE sources SET forced = 1 WHERE id NOT IN (SELECT min(id) FROM sources GROUP BY digest);"
    "CREATE UNIQUE INDEX sources_digest_once ON sources(digest) WHERE forced = 0 AND digest <> '';"
    "CREATE TABLE shards ("
    "  run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE ON UPDATE CASCADE,"
    "  shard_index INTEGER NOT NULL, shard_count INTEGER NOT NULL,"
    "  samples BIGINT NOT NULL, landed_at BIGINT NOT NULL, PRIMARY KEY(run_id, shard_index));"
    "CREATE TABLE run_stats ("
    "  run_id BIGINT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE ON UPDATE CASCADE,"
    "  requests BIGINT, successes BIGINT, errors BIGINT, error_ratio DOUBLE PRECISION,"
    "  duration_ns BIGINT, rate_per_s DOUBLE PRECISION, throughput_per_s DOUBLE PRECISION,"
    "  min_ns BIGINT, mean_ns BIGINT, p50_ns BIGINT, p90_ns BIGINT, p95_ns BIGINT,"
    "  p99_ns BIGINT, p999_ns BIGINT, max_ns BIGINT, apdex DOUBLE PRECISION,"
    "  interval_ns BIGINT);"
    "CREATE TABLE run_points ("
    "  run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE ON UPDATE CASCADE,"
    "  t_ns BIGINT NOT NULL, requests BIGINT, successes BIGINT, errors BIGINT,"
    "  bytes_in BIGINT, throughput_per_s DOUBLE PRECISION, rate_per_s DOUBLE PRECISION,"
    "  p50_ns BIGINT, p90_ns BIGINT, p99_ns BIGINT, max_ns BIGINT, PRIMARY KEY(run_id, t_ns));"
    /* SQLite's json_extract for '$.a.b' paths, so the same queries run on both stores */
    "CREATE OR REPLACE FUNCTION json_extract(doc TEXT, path TEXT) RETURNS TEXT"
    " LANGUAGE sql IMMUTABLE AS $$"
    "  SELECT CASE jsonb_typeof(v) WHEN 'string' THEN v #>> '{}'"
    "    WHEN 'boolean' THEN CASE WHEN v = 'true'::jsonb THEN '1' ELSE '0' END"
    "    WHEN 'null' THEN NULL ELSE v::text END"
    "  FROM (SELECT doc::jsonb #> string_to_array(substr(path, 3), '.') AS v) x $$;"
    "CREATE VIEW run_summary AS SELECT"
    "  r.id AS run_id, r.name, r.tool, r.format, r.load_model, r.offered_rate, r.concurrency,"
    "  r.start_ns, r.end_ns,"
    "  to_timestamp(r.start_ns / 1e9::float8) AS start_time,"
    "  to_timestamp(r.end_ns / 1e9::float8) AS end_time,"
    "  (SELECT string_agg(t.key || '=' || t.value, ' ' ORDER BY t.key COLLATE \"C\")"
    "     FROM tags t WHERE t.run_id = r.id) AS tags,"
    "  s.requests, s.successes, s.errors, s.error_ratio, s.duration_ns,"
    "  s.duration_ns / 1e9::float8 AS duration_s, s.rate_per_s, s.throughput_per_s,"
    "  s.min_ns, s.mean_ns, s.p50_ns, s.p90_ns, s.p95_ns, s.p99_ns, s.p999_ns, s.max_ns,"
    "  s.mean_ns / 1e6::float8 AS mean_ms, s.p50_ns / 1e6::float8 AS p50_ms,"
    "  s.p90_ns / 1e6::float8 AS p90_ms, s.p95_ns / 1e6::float8 AS p95_ms,"
    "  s.p99_ns / 1e6::float8 AS p99_ms, s.p999_ns / 1e6::float8 AS p999_ms,"
    "  s.max_ns / 1e6::float8 AS max_ms, s.apdex, s.interval_ns,"
    "  (r.meta_json::jsonb #>> '{shards,count}')::int AS shard_count,"
    "  (r.meta_json::jsonb #>> '{shards,landed}')::int AS shards_landed"
    "  FROM runs r LEFT JOIN run_stats s ON s.run_id = r.id;"
    "CREATE VIEW run_series AS SELECT"
    "  p.run_id, r.name, p.t_ns, to_timestamp(p.t_ns / 1e9::float8) AS time,"
    "  (p.t_ns - r.start_ns) / 1e9::float8 AS elapsed_s, s.interval_ns,"
    "  p.requests, p.successes, p.errors,"
    "  CASE WHEN p.requests > 0 THEN p.errors::float8 / p.requests END AS error_ratio,"
    "  p.bytes_in, p.throughput_per_s, p.rate_per_s,"
    "  p.p50_ns, p.p90_ns, p.p99_ns, p.max_ns, p.p50_ns / 1e6::float8 AS p50_ms,"
    "  p.p90_ns / 1e6::float8 AS p90_ms, p.p99_ns / 1e6::float8 AS p99_ms,"
    "  p.max_ns / 1e6::float8 AS max_ms"
    "  FROM run_points p JOIN runs r ON r.id = p.run_id"
    "  LEFT JOIN run_stats s ON s.run_id = p.run_id;",
};

/* ---- errors, parameters, statements ---- */

/* libpq's message on one line. */
static int pg_error(pr_store *st, pr_error *err, const char *what, const PGresult *r)
{
    const char *m = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    char buf[600];
    snprintf(buf, sizeof buf, "%s", m ? m : PQerrorMessage(CONN(st)));
    size_t n = 0;
    for (char *c = buf; *c; c++) { /* newlines and tabs as single spaces */
        char ch = *c == '\n' || *c == '\t' ? ' ' : *c;
        if (!(ch == ' ' && n && buf[n - 1] == ' '))
            buf[n++] = ch;
    }
    buf[n] = 0;
    while (n && buf[n - 1] == ' ')
        buf[--n] = 0;
    return pr_error_set(err, PR_ESTORE, st->path, 0, 0, "%s: %s", what, buf);
}

/* Appends s as valid UTF-8 (PostgreSQL text refuses anything else): invalid bytes become
 * U+FFFD. */
static void put_utf8(pr_buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t k = *p < 0x80         ? 1
                   : (*p >> 5) == 6  ? 2
                   : (*p >> 4) == 14 ? 3
                   : (*p >> 3) == 30 ? 4
                                     : 0;
        size_t i = 1;
        while (k && i < k && (p[i] & 0xc0) == 0x80)
            i++;
        int over = (k == 3 && p[0] == 0xe0 && p[1] < 0xa0) ||
                   (k == 4 && p[0] == 0xf0 && p[1] < 0x90) || (k == 2 && p[0] < 0xc2) ||
                   (k == 4 && p[0] > 0xf4) || (k == 3 && p[0] == 0xed && p[1] >= 0xa0);
        if (k && i == k && !over) {
            pr_buf_append(b, p, k);
            p += k;
        } else {
            pr_buf_puts(b, "\xef\xbf\xbd");
            p++;
        }
    }
}

#define MAXP 20
typedef struct params {
    int n;
    const char *v[MAXP];
    int len[MAXP];
    int fmt[MAXP];
    char num[MAXP][32];
    pr_buf owned[MAXP];
} params;

static void p_null(params *p)
{
    p->v[p->n] = NULL;
    p->len[p->n] = p->fmt[p->n] = 0;
    p->n++;
}

static void p_i64(params *p, int64_t v)
{
    if (v == PR_UNKNOWN) {
        p_null(p);
        return;
    }
    snprintf(p->num[p->n], sizeof p->num[0], "%lld", (long long)v);
    p->v[p->n] = p->num[p->n];
    p->len[p->n] = p->fmt[p->n] = 0;
    p->n++;
}

static void p_real(params *p, double v)
{
    if (isnan(v)) {
        p_null(p);
        return;
    }
    snprintf(p->num[p->n], sizeof p->num[0], "%.17g", v);
    p->v[p->n] = p->num[p->n];
    p->len[p->n] = p->fmt[p->n] = 0;
    p->n++;
}

static void p_text(params *p, const char *s)
{
    if (!s) {
        p_null(p);
        return;
    }
    pr_buf *b = &p->owned[p->n];
    pr_buf_reset(b);
    put_utf8(b, s);
    p->v[p->n] = b->p ? b->p : "";
    p->len[p->n] = p->fmt[p->n] = 0;
    p->n++;
}

static void p_bin(params *p, const void *data, size_t len)
{
    p->v[p->n] = data;
    p->len[p->n] = (int)len;
    p->fmt[p->n] = 1;
    p->n++;
}

static void p_dispose(params *p)
{
    for (int i = 0; i < MAXP; i++)
        pr_buf_dispose(&p->owned[i]);
}

/* Runs one statement; the result on success (caller PQclear()s), NULL with err filled. */
static PGresult *sql(pr_store *st, const char *q, const params *p, int binary, pr_error *err,
                     const char *what)
{
    PGresult *r = PQexecParams(CONN(st), q, p ? p->n : 0, NULL, p ? p->v : NULL, p ? p->len : NULL,
                               p ? p->fmt : NULL, binary);
    ExecStatusType s = PQresultStatus(r);
    if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK)
        return r;
    pg_error(st, err, what, r);
    PQclear(r);
    return NULL;
}

/* A statement whose result is not needed; a unique violation sets *dup (if dup). */
static int sql_do(pr_store *st, const char *q, params *p, int *dup, pr_error *err, const char *what)
{
    PGresult *r = PQexecParams(CONN(st), q, p ? p->n : 0, NULL, p ? p->v : NULL, p ? p->len : NULL,
                               p ? p->fmt : NULL, 0);
    ExecStatusType s = PQresultStatus(r);
    int rc = 0;
    if (dup)
        *dup = 0;
    if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
        const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
        if (dup && state && !strcmp(state, "23505"))
            *dup = 1;
        else
            rc = pg_error(st, err, what, r);
    }
    PQclear(r);
    if (p)
        p_dispose(p);
    return rc;
}

/* A multi-statement script (simple protocol). */
static int script(pr_store *st, const char *q, pr_error *err, const char *what)
{
    PGresult *r = PQexec(CONN(st), q);
    int rc = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK
                 ? 0
                 : pg_error(st, err, what, r);
    PQclear(r);
    return rc;
}

static char *get_dup(const PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col) ? NULL : pr_xstrdup(PQgetvalue(r, row, col));
}

static int64_t get_i64(const PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col) ? PR_UNKNOWN : strtoll(PQgetvalue(r, row, col), NULL, 10);
}

/* An int8 column of a binary result. */
static int64_t get_bin_i64(const PGresult *r, int row, int col)
{
    uint64_t v;
    if (PQgetisnull(r, row, col) || PQgetlength(r, row, col) != 8)
        return PR_UNKNOWN;
    memcpy(&v, PQgetvalue(r, row, col), 8);
    return (int64_t)be64toh(v);
}

/* Feeds `data` to a COPY ... FROM STDIN statement. */
static int copy_in(pr_store *st, const char *q, const pr_buf *data, pr_error *err, const char *what)
{
    PGconn *c = CONN(st);
    PGresult *r = PQexec(c, q);
    if (PQresultStatus(r) != PGRES_COPY_IN) {
        int rc = pg_error(st, err, what, r);
        PQclear(r);
        return rc;
    }
    PQclear(r);
    int ok = data->len == 0 || PQputCopyData(c, data->p, (int)data->len) == 1;
    ok &= PQputCopyEnd(c, ok ? NULL : "perfreport: write failed") == 1;
    int rc = 0;
    while ((r = PQgetResult(c))) {
        if (rc == 0 && PQresultStatus(r) != PGRES_COMMAND_OK)
            rc = pg_error(st, err, what, r);
        PQclear(r);
    }
    return rc == 0 && !ok ? pg_error(st, err, what, NULL) : rc;
}

/* ---- connection ---- */

/* The target without a password, for messages. */
static char *redact(const char *target)
{
    pr_buf b = PR_BUF_INIT;
    PQconninfoOption *opts = PQconninfoParse(target, NULL);
    if (!opts)
        return pr_xstrdup("postgresql");
    const char *host = NULL, *port = NULL, *user = NULL, *db = NULL;
    for (PQconninfoOption *o = opts; o->keyword; o++) {
        if (!o->val)
            continue;
        if (!strcmp(o->keyword, "host"))
            host = o->val;
        else if (!strcmp(o->keyword, "port"))
            port = o->val;
        else if (!strcmp(o->keyword, "user"))
            user = o->val;
        else if (!strcmp(o->keyword, "dbname"))
            db = o->val;
    }
    pr_buf_printf(&b, "postgresql://%s%s%s%s%s/%s", user ? user : "", user ? "@" : "",
                  host ? host : "", port ? ":" : "", port ? port : "", db ? db : "");
    PQconninfoFree(opts);
    return pr_buf_steal(&b);
}

static void quiet_notices(void *payload, const char *message)
{
    (void)payload;
    (void)message; /* "relation already exists, skipping" and the like are not for users */
}

/* The schema version, 0 if the store has no schema (yet). */
static int schema_version(pr_store *st, int *version, pr_error *err)
{
    PGresult *r = sql(st, "SELECT to_regclass('perfreport_schema') IS NOT NULL", NULL, 0, err,
                      "cannot read the schema version");
    if (!r)
        return PR_ESTORE;
    int exists = PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    *version = 0;
    if (!exists)
        return 0;
    r = sql(st, "SELECT max(version) FROM perfreport_schema", NULL, 0, err,
            "cannot read the schema version");
    if (!r)
        return PR_ESTORE;
    *version = (int)get_i64(r, 0, 0);
    PQclear(r);
    return 0;
}

/* Under a session lock taken before the transaction begins (so the transaction sees the
 * catalog as the previous holder left it), creates or upgrades the schema. */
static int migrate(pr_store *st, pr_error *err)
{
    char q[160], unlock[96];
    int version = 0;
    snprintf(q, sizeof q, "SELECT pg_advisory_lock(%d, 1)", LOCK_NS_SCHEMA);
    int rc = script(st, q, err, "cannot create the schema");
    if (rc < 0)
        return rc;
    snprintf(unlock, sizeof unlock, "SELECT pg_advisory_unlock(%d, 1)", LOCK_NS_SCHEMA);
    rc = script(st, "BEGIN", err, "cannot create the schema");
    if (rc == 0)
        rc = schema_version(st, &version, err); /* again, under the lock */
    for (int v = version + 1; v <= PR_STORE_SCHEMA_VERSION && rc == 0; v++) {
        rc = script(st, migrations[v], err, "cannot create the schema");
        snprintf(q, sizeof q, "UPDATE perfreport_schema SET version = %d", v);
        if (rc == 0)
            rc = script(st, q, err, "cannot create the schema");
    }
    if (rc == 0)
        rc = script(st, "COMMIT", err, "cannot create the schema");
    else
        script(st, "ROLLBACK", NULL, "");
    script(st, unlock, NULL, "");
    return rc;
}

static const pr_store_ops pg_ops;

static int pg_connect(pg *p, const char *target, pr_error *err)
{
    const char *const keys[] = {"dbname", "fallback_application_name", NULL};
    const char *const vals[] = {target, "perfreport", NULL};
    p->conn = PQconnectdbParams(keys, vals, 1);
    if (PQstatus(p->conn) != CONNECTION_OK)
        return pg_error(&p->base, err, "cannot connect to the PostgreSQL store", NULL);
    PQsetNoticeProcessor(p->conn, quiet_notices, NULL);
    free(p->base.path);
    pr_buf b = PR_BUF_INIT;
    const char *host = PQhost(p->conn);
    pr_buf_printf(&b, "postgresql://%s@%s:%s/%s", PQuser(p->conn),
                  host && host[0] != '/' ? host : "", PQport(p->conn), PQdb(p->conn));
    p->base.path = pr_buf_steal(&b);
    return script(&p->base, "SET TIME ZONE 'UTC'", err, "cannot set up the session");
}

int pr_store_pg_open(pr_store **out, const char *conninfo, int create, pr_error *err)
{
    pg *p = pr_xcalloc(1, sizeof *p);
    pr_store *st = &p->base;
    st->ops = &pg_ops;
    st->path = redact(conninfo);
    int version = 0;
    int rc = pg_connect(p, conninfo, err);
    if (rc == 0)
        rc = schema_version(st, &version, err);
    if (rc == 0 && version == 0 && !create)
        rc = pr_error_set(err, PR_ENOTFOUND, st->path, 0, 0,
                          "no store here (ingest something first, or use --store)");
    else if (rc == 0 && version > PR_STORE_SCHEMA_VERSION)
        rc = pr_error_set(err, PR_ESTORE, st->path, 0, 0,
                          "store schema version %d is newer than this perfreport (%d)", version,
                          PR_STORE_SCHEMA_VERSION);
    else if (rc == 0 && version < PR_STORE_SCHEMA_VERSION)
        rc = migrate(st, err);
    if (rc < 0) {
        st->ops->close(st);
        return rc;
    }
    *out = st;
    return 0;
}

static void pg_close(pr_store *st)
{
    pg *p = (pg *)st;
    PQfinish(p->conn);
    free(st->path);
    free(p);
}

/* ---- the write transaction ---- */

static int pg_begin(pr_store *st, pr_error *err)
{
    /* READ COMMITTED: each statement sees what committed before it (run numbering below) */
    int rc = script(st, "BEGIN ISOLATION LEVEL READ COMMITTED", err, "cannot begin");
    ((pg *)st)->in_tx = rc == 0;
    return rc;
}

/* Runs created in the transaction hold provisional (negative) ids so concurrent writers
 * never wait for each other; here, under a short lock, they get the next numbers in
 * commit order, as SQLite's would (ON UPDATE CASCADE carries the new id everywhere). */
static int pg_commit(pr_store *st, int64_t *ids, size_t n, pr_error *err)
{
    char q[96];
    int rc = 0;
    snprintf(q, sizeof q, "SELECT pg_advisory_xact_lock(%d, 0)", LOCK_NS_IDS);
    if (n)
        rc = script(st, q, err, "cannot number the run");
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (ids[i] > 0)
            continue;
        params p = {0};
        p_i64(&p, ids[i]);
        PGresult *r = sql(st,
                          "UPDATE runs SET id = (SELECT coalesce(max(id), 0) + 1 FROM runs"
                          " WHERE id > 0) WHERE id = $1 RETURNING id",
                          &p, 0, err, "cannot number the run");
        p_dispose(&p);
        if (!r)
            rc = PR_ESTORE;
        else if (PQntuples(r) == 1)
            ids[i] = get_i64(r, 0, 0);
        PQclear(r);
    }
    if (rc == 0)
        rc = script(st, "COMMIT", err, "cannot commit");
    if (rc < 0)
        script(st, "ROLLBACK", NULL, "");
    ((pg *)st)->in_tx = 0;
    return rc;
}

static void pg_rollback(pr_store *st)
{
    script(st, "ROLLBACK", NULL, "");
    ((pg *)st)->in_tx = 0;
}

static int pg_lock_name(pr_store *st, const char *name, pr_error *err)
{
    char q[96];
    snprintf(q, sizeof q, "SELECT pg_advisory_xact_lock(%d, hashtext($1))", LOCK_NS_NAMES);
    params p = {0};
    p_text(&p, name);
    return sql_do(st, q, &p, NULL, err, "cannot lock the run");
}

static int pg_run_create(pr_store *st, const char *name, const char *key, int64_t created_at,
                         int64_t *id, pr_error *err)
{
    params p = {0};
    p_text(&p, name);
    p_text(&p, key);
    p_i64(&p, created_at);
    PGresult *r = sql(st,
                      "INSERT INTO runs(id, name, run_key, created_at) VALUES"
                      " (-nextval('runs_provisional'), $1, $2, $3) RETURNING id",
                      &p, 0, err, "cannot create run");
    p_dispose(&p);
    if (!r)
        return PR_ESTORE;
    *id = get_i64(r, 0, 0);
    PQclear(r);
    return 0;
}

static char *dumps(json_t *j)
{
    return j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
}

static int put_tag(pr_store *st, int64_t id, const char *key, const char *value, pr_error *err)
{
    params p = {0};
    p_i64(&p, id);
    p_text(&p, key);
    if (!value)
        return sql_do(st, "DELETE FROM tags WHERE run_id=$1 AND key=$2", &p, NULL, err,
                      "cannot tag run");
    p_text(&p, value);
    return sql_do(st,
                  "INSERT INTO tags(run_id,key,value) VALUES($1,$2,$3)"
                  " ON CONFLICT (run_id,key) DO UPDATE SET value = excluded.value",
                  &p, NULL, err, "cannot tag run");
}

static int pg_run_write(pr_store *st, const pr_run *run, pr_error *err)
{
    params p = {0};
    char *sum = dumps(run->summary), *meta = dumps(run->meta);
    p_text(&p, run->name);
    p_text(&p, run->tool);
    p_text(&p, run->format);
    p_text(&p, run->tool_version);
    p_i64(&p, run->samples);
    p_i64(&p, run->successes);
    p_i64(&p, run->start_ns);
    p_i64(&p, run->end_ns);
    p_text(&p, pr_load_model_name(run->load_model));
    p_real(&p, run->offered_rate);
    p_i64(&p, run->concurrency >= 0 ? run->concurrency : PR_UNKNOWN);
    p_i64(&p, run->summary_only);
    p_text(&p, sum);
    p_text(&p, meta ? meta : "{}");
    p_i64(&p, run->id);
    free(sum);
    free(meta);
    int rc = sql_do(st,
                    "UPDATE runs SET name=$1, tool=$2, format=$3, tool_version=$4,"
                    " samples=$5, successes=$6, start_ns=$7, end_ns=$8, load_model=$9,"
                    " offered_rate=$10, concurrency=$11, summary_only=$12, summary_json=$13,"
                    " meta_json=$14 WHERE id=$15",
                    &p, NULL, err, "cannot update run");
    for (size_t i = 0; i < run->ntags && rc == 0; i++)
        rc = put_tag(st, run->id, run->tags[i].key, run->tags[i].value, err);
    return rc;
}

static int pg_strings_put(pr_store *st, int64_t run_id, const pr_strtab *t, uint32_t from,
                          uint32_t to, pr_error *err)
{
    static const char hex[] = "0123456789abcdef";
    pr_buf b = PR_BUF_INIT;
    int rc = 0;
    for (uint32_t id = from; id < to && rc == 0; id++) {
        const unsigned char *s = (const unsigned char *)pr_strtab_get(t, id);
        size_t len = pr_strtab_len(t, id);
        pr_buf_printf(&b, "%lld\t%u\t\\\\x", (long long)run_id, id);
        for (size_t i = 0; i < len; i++) {
            char h[2] = {hex[s[i] >> 4], hex[s[i] & 15]};
            pr_buf_append(&b, h, 2);
        }
        pr_buf_putc(&b, '\n');
        if (b.len > (1u << 22) || id + 1 == to) {
            rc = copy_in(st, "COPY strings(run_id, id, value) FROM STDIN", &b, err,
                         "cannot store strings");
            pr_buf_reset(&b);
        }
    }
    pr_buf_dispose(&b);
    return rc;
}

/* Appends a text[] literal element. */
static void arr_text(pr_buf *b, const char *s)
{
    pr_buf tmp = PR_BUF_INIT;
    put_utf8(&tmp, s);
    pr_buf_putc(b, '"');
    for (size_t i = 0; i < tmp.len; i++) {
        if (tmp.p[i] == '"' || tmp.p[i] == '\\')
            pr_buf_putc(b, '\\');
        pr_buf_putc(b, tmp.p[i]);
    }
    pr_buf_putc(b, '"');
    pr_buf_dispose(&tmp);
}

static const char *const agg_sql[] = {
    [PR_AGG_LABELS] = "INSERT INTO labels(run_id, label, samples, errors)"
                      " SELECT $1, k, sum(a), sum(b) FROM unnest($2::text[], $3::bigint[],"
                      " $4::bigint[]) u(k, a, b) GROUP BY k"
                      " ON CONFLICT (run_id, md5(label)) DO UPDATE SET"
                      " samples = labels.samples + excluded.samples,"
                      " errors = labels.errors + excluded.errors",
    [PR_AGG_ERRORS] = "INSERT INTO errors(run_id, message, count)"
                      " SELECT $1, k, sum(a) FROM unnest($2::text[], $3::bigint[], $4::bigint[])"
                      " u(k, a, b) GROUP BY k ON CONFLICT (run_id, md5(message))"
                      " DO UPDATE SET count = errors.count + excluded.count",
    [PR_AGG_STATUS] = "INSERT INTO status_codes(run_id, status, count)"
                      " SELECT $1, k, sum(a) FROM unnest($2::int[], $3::bigint[], $4::bigint[])"
                      " u(k, a, b) GROUP BY k ON CONFLICT (run_id, status)"
                      " DO UPDATE SET count = status_codes.count + excluded.count",
};

static int pg_agg_add(pr_store *st, int64_t run_id, pr_store_agg which, const pr_store_count *rows,
                      size_t n, pr_error *err)
{
    int rc = 0;
    for (size_t at = 0; at < n && rc == 0; at += ROWS_PER_STATEMENT) {
        size_t end = at + ROWS_PER_STATEMENT < n ? at + ROWS_PER_STATEMENT : n;
        pr_buf k = PR_BUF_INIT, a = PR_BUF_INIT, b = PR_BUF_INIT;
        pr_buf *all[] = {&k, &a, &b};
        for (int j = 0; j < 3; j++)
            pr_buf_putc(all[j], '{');
        for (size_t i = at; i < end; i++) {
            const char *sep = i > at ? "," : "";
            pr_buf_puts(&k, sep);
            if (which == PR_AGG_STATUS)
                pr_buf_printf(&k, "%lld", (long long)rows[i].code);
            else
                arr_text(&k, rows[i].key);
            pr_buf_printf(&a, "%s%lld", sep, (long long)rows[i].a);
            pr_buf_printf(&b, "%s%lld", sep, (long long)rows[i].b);
        }
        params p = {0};
        p_i64(&p, run_id);
        for (int j = 0; j < 3; j++) {
            pr_buf_putc(all[j], '}');
            p.v[p.n++] = all[j]->p; /* already valid UTF-8 */
        }
        rc = sql_do(st, agg_sql[which], &p, NULL, err, "cannot store aggregates");
        for (int j = 0; j < 3; j++)
            pr_buf_dispose(all[j]);
    }
    return rc;
}

/* The first column of a one-row query with one integer parameter (0 when NULL). */
static int one_i64(pr_store *st, const char *q, int64_t arg, int64_t *out, pr_error *err)
{
    params p = {0};
    p_i64(&p, arg);
    PGresult *r = sql(st, q, &p, 0, err, "cannot read the store");
    p_dispose(&p);
    if (!r)
        return PR_ESTORE;
    *out = PQntuples(r) && !PQgetisnull(r, 0, 0) ? get_i64(r, 0, 0) : 0;
    PQclear(r);
    return 0;
}

static int pg_block_next_seq(pr_store *st, int64_t run_id, int64_t *seq, pr_error *err)
{
    return one_i64(st, "SELECT coalesce(max(seq) + 1, 0) FROM blocks WHERE run_id = $1", run_id,
                   seq, err);
}

static int pg_block_put(pr_store *st, int64_t run_id, const pr_store_block *b, pr_error *err)
{
    params p = {0};
    p_i64(&p, run_id);
    p_i64(&p, b->seq);
    p_i64(&p, b->samples);
    p_i64(&p, b->start_min);
    p_i64(&p, b->start_max);
    p_bin(&p, b->data, b->len);
    return sql_do(st,
                  "INSERT INTO blocks(run_id, seq, samples, start_min, start_max, data)"
                  " VALUES($1, $2, $3, $4, $5, $6)",
                  &p, NULL, err, "cannot store samples");
}

static int pg_source_put(pr_store *st, const pr_store_source *s, int *dup, pr_error *err)
{
    params p = {0};
    p_i64(&p, s->run_id);
    p_text(&p, s->path);
    p_text(&p, s->digest ? s->digest : "");
    p_text(&p, s->format);
    p_i64(&p, s->samples);
    p_i64(&p, s->ingested_at);
    p_i64(&p, s->forced);
    return sql_do(st,
                  "INSERT INTO sources(run_id, path, digest, format, samples, ingested_at,"
                  " forced) VALUES($1, $2, $3, $4, $5, $6, $7)",
                  &p, dup, err, "cannot record source");
}

static int pg_source_find(pr_store *st, const char *digest, int64_t *run_id, pr_error *err)
{
    params p = {0};
    p_text(&p, digest);
    PGresult *r = sql(st, "SELECT run_id FROM sources WHERE digest = $1 ORDER BY id LIMIT 1", &p, 0,
                      err, "cannot read sources");
    p_dispose(&p);
    if (!r)
        return PR_ESTORE;
    *run_id = PQntuples(r) ? get_i64(r, 0, 0) : 0;
    PQclear(r);
    return 0;
}

static int pg_shard_put(pr_store *st, int64_t run_id, const pr_store_shard *s, int *dup,
                        pr_error *err)
{
    params p = {0};
    p_i64(&p, run_id);
    p_i64(&p, s->index);
    p_i64(&p, s->count);
    p_i64(&p, s->samples);
    p_i64(&p, s->landed_at);
    return sql_do(st,
                  "INSERT INTO shards(run_id, shard_index, shard_count, samples, landed_at)"
                  " VALUES($1, $2, $3, $4, $5)",
                  &p, dup, err, "cannot record shard");
}

static int pg_cache_clear(pr_store *st, int64_t run_id, pr_error *err)
{
    params p = {0};
    p_i64(&p, run_id);
    return sql_do(st, "DELETE FROM cache WHERE run_id = $1", &p, NULL, err, "cannot clear cache");
}

/* ---- reads ---- */

static const char *const runs_sql[] = {
    [PR_RUNS_ALL] = "SELECT id FROM runs WHERE id > 0 ORDER BY id",
    [PR_RUNS_ID] = "SELECT id FROM runs WHERE id = $1 AND id > 0",
    [PR_RUNS_LAST] = "SELECT max(id) FROM runs WHERE id > 0 HAVING count(*) > 0",
    [PR_RUNS_NAMED] = "SELECT id FROM runs WHERE name = $1 AND id > 0 ORDER BY id",
    [PR_RUNS_KEYED] = "SELECT id FROM runs WHERE run_key = $1 ORDER BY id",
};

static int pg_runs(pr_store *st, pr_store_which which, const char *arg, int64_t **ids, size_t *n,
                   pr_error *err)
{
    params p = {0};
    if (which == PR_RUNS_ID)
        p_i64(&p, strtoll(arg, NULL, 10));
    else if (which == PR_RUNS_NAMED || which == PR_RUNS_KEYED)
        p_text(&p, arg);
    PGresult *r = sql(st, runs_sql[which], &p, 0, err, "cannot list runs");
    p_dispose(&p);
    *ids = NULL;
    *n = 0;
    if (!r)
        return PR_ESTORE;
    int rows = PQntuples(r);
    *ids = pr_xmalloc(((size_t)rows + 1) * sizeof **ids);
    for (int i = 0; i < rows; i++)
        (*ids)[(*n)++] = get_i64(r, i, 0);
    PQclear(r);
    return 0;
}

static json_t *get_json(const PGresult *r, int col)
{
    return PQgetisnull(r, 0, col) ? NULL : json_loads(PQgetvalue(r, 0, col), 0, NULL);
}

/* The run row into a new pr_run (NULL when there is none). */
static pr_run *run_row(pr_store *st, int64_t id, pr_error *err)
{
    params p = {0};
    p_i64(&p, id);
    PGresult *r = sql(st,
                      "SELECT name, tool, format, tool_version, samples, successes,"
                      " start_ns, end_ns, load_model, offered_rate, concurrency,"
                      " summary_only, summary_json, meta_json, created_at, run_key"
                      " FROM runs WHERE id = $1",
                      &p, 0, err, "cannot load run");
    p_dispose(&p);
    if (!r || PQntuples(r) != 1) {
        if (r)
            pr_error_set(err, PR_ENOTFOUND, NULL, 0, 0, "no run %lld", (long long)id);
        PQclear(r);
        return NULL;
    }
    pr_run *run = pr_run_new();
    run->id = id;
    run->name = get_dup(r, 0, 0);
    run->tool = get_dup(r, 0, 1);
    run->format = get_dup(r, 0, 2);
    run->tool_version = get_dup(r, 0, 3);
    run->samples = get_i64(r, 0, 4);
    run->successes = get_i64(r, 0, 5);
    run->start_ns = get_i64(r, 0, 6);
    run->end_ns = get_i64(r, 0, 7);
    const char *lm = PQgetvalue(r, 0, 8);
    run->load_model = !strcmp(lm, "open")     ? PR_LOAD_OPEN
                      : !strcmp(lm, "closed") ? PR_LOAD_CLOSED
                                              : PR_LOAD_UNKNOWN;
    if (!PQgetisnull(r, 0, 9))
        run->offered_rate = strtod(PQgetvalue(r, 0, 9), NULL);
    if (!PQgetisnull(r, 0, 10))
        run->concurrency = (int32_t)get_i64(r, 0, 10);
    run->summary_only = (int)get_i64(r, 0, 11);
    run->summary = get_json(r, 12);
    json_t *m = get_json(r, 13);
    if (json_is_object(m)) {
        json_decref(run->meta);
        run->meta = m;
    } else {
        json_decref(m);
    }
    run->created_s = get_i64(r, 0, 14);
    run->key = get_dup(r, 0, 15);
    PQclear(r);
    return run;
}

static int pg_load_run(pr_store *st, int64_t id, pr_run **out, pr_error *err)
{
    pr_run *run = run_row(st, id, err);
    if (!run)
        return err && err->code ? err->code : PR_ESTORE;
    params p = {0};
    p_i64(&p, id);
    PGresult *r =
        sql(st, "SELECT key, value FROM tags WHERE run_id = $1 ORDER BY key COLLATE \"C\"", &p, 0,
            err, "cannot load run");
    int rc = r ? 0 : PR_ESTORE;
    for (int i = 0; r && i < PQntuples(r); i++)
        pr_run_tag(run, PQgetvalue(r, i, 0), PQgetvalue(r, i, 1));
    PQclear(r);
    r = rc ? NULL
           : sql(st, "SELECT id, value FROM strings WHERE run_id = $1 ORDER BY id", &p, 1, err,
                 "cannot load run");
    p_dispose(&p);
    if (rc == 0 && !r)
        rc = PR_ESTORE;
    for (int i = 0; r && rc == 0 && i < PQntuples(r); i++) {
        uint32_t want = (uint32_t)get_bin_i64(r, i, 0);
        if (pr_run_intern(run, PQgetvalue(r, i, 1), (size_t)PQgetlength(r, i, 1)) != want)
            rc = pr_error_set(err, PR_ESTORE, st->path, 0, 0,
                              "run %lld: string table is inconsistent at id %u", (long long)id,
                              want);
    }
    PQclear(r);
    if (rc < 0) {
        pr_run_free(run);
        return rc;
    }
    *out = run;
    return 0;
}

/* Blocks come through a cursor, a few at a time, so memory stays flat and the callback may
 * use the store itself. Outside a write transaction the scan reads one snapshot. */
static int pg_scan_blocks(pr_store *st, int64_t id,
                          int (*cb)(const pr_store_block *b, void *payload), void *payload,
                          pr_error *err)
{
    pg *g = (pg *)st;
    int own_tx = !g->in_tx;
    char q[256];
    unsigned cur = ++g->cursors;
    if (own_tx && script(st, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", err,
                         "cannot read samples") < 0)
        return PR_ESTORE;
    snprintf(q, sizeof q,
             "DECLARE prscan%u BINARY NO SCROLL CURSOR FOR SELECT seq, samples,"
             " start_min, start_max, data FROM blocks WHERE run_id = $1 ORDER BY seq",
             cur);
    params p = {0};
    p_i64(&p, id);
    int rc = sql_do(st, q, &p, NULL, err, "cannot read samples");
    snprintf(q, sizeof q, "FETCH " FETCH_BLOCKS " FROM prscan%u", cur);
    for (int more = rc == 0; more && rc == 0;) {
        PGresult *r = sql(st, q, NULL, 1, err, "cannot read samples");
        if (!r) {
            rc = PR_ESTORE;
            break;
        }
        int rows = PQntuples(r);
        more = rows > 0;
        for (int i = 0; i < rows && rc == 0; i++) {
            pr_store_block b = {get_bin_i64(r, i, 0), get_bin_i64(r, i, 1),
                                get_bin_i64(r, i, 2), get_bin_i64(r, i, 3),
                                PQgetvalue(r, i, 4),  (size_t)PQgetlength(r, i, 4)};
            rc = cb(&b, payload);
        }
        PQclear(r);
    }
    snprintf(q, sizeof q, "CLOSE prscan%u", cur);
    script(st, q, NULL, "");
    if (own_tx)
        script(st, rc < 0 ? "ROLLBACK" : "COMMIT", NULL, "");
    return rc;
}

static int pg_sources(pr_store *st, int64_t id, int (*cb)(const pr_store_source *s, void *payload),
                      void *payload, pr_error *err)
{
    params p = {0};
    p_i64(&p, id);
    PGresult *r = sql(st,
                      "SELECT path, digest, format, samples, ingested_at, forced FROM sources"
                      " WHERE run_id = $1 ORDER BY id",
                      &p, 0, err, "cannot read sources");
    p_dispose(&p);
    if (!r)
        return PR_ESTORE;
    int rc = 0;
    for (int i = 0; i < PQntuples(r) && rc == 0; i++) {
        pr_store_source s = {id,
                             PQgetvalue(r, i, 0),
                             PQgetvalue(r, i, 1),
                             PQgetisnull(r, i, 2) ? NULL : PQgetvalue(r, i, 2),
                             get_i64(r, i, 3),
                             get_i64(r, i, 4),
                             (int)get_i64(r, i, 5)};
        rc = cb(&s, payload);
    }
    PQclear(r);
    return rc;
}

static int pg_shards(pr_store *st, int64_t id, pr_store_shard **out, size_t *n, pr_error *err)
{
    params p = {0};
    p_i64(&p, id);
    PGresult *r = sql(st,
                      "SELECT shard_index, shard_count, samples, landed_at FROM shards"
                      " WHERE run_id = $1 ORDER BY shard_index",
                      &p, 0, err, "cannot read shards");
    p_dispose(&p);
    *out = NULL;
    *n = 0;
    if (!r)
        return PR_ESTORE;
    int rows = PQntuples(r);
    *out = pr_xmalloc(((size_t)rows + 1) * sizeof **out);
    for (int i = 0; i < rows; i++)
        (*out)[(*n)++] = (pr_store_shard){(int)get_i64(r, i, 0), (int)get_i64(r, i, 1),
                                          get_i64(r, i, 2), get_i64(r, i, 3)};
    PQclear(r);
    return 0;
}

static int pg_remove(pr_store *st, int64_t id, pr_error *err)
{
    params p = {0};
    p_i64(&p, id);
    return sql_do(st, "DELETE FROM runs WHERE id = $1", &p, NULL, err, "cannot remove run");
}

static int pg_tag(pr_store *st, int64_t id, const char *key, const char *value, pr_error *err)
{
    return put_tag(st, id, key, value, err);
}

static int pg_cache_put(pr_store *st, int64_t id, const char *key, const char *json, pr_error *err)
{
    params p = {0};
    p_i64(&p, id);
    p_text(&p, key);
    p_text(&p, json);
    return sql_do(st,
                  "INSERT INTO cache(run_id, key, json) VALUES($1, $2, $3)"
                  " ON CONFLICT (run_id, key) DO UPDATE SET json = excluded.json",
                  &p, NULL, err, "cannot cache");
}

static int pg_cache_get(pr_store *st, int64_t id, const char *key, char **json, pr_error *err)
{
    params p = {0};
    p_i64(&p, id);
    p_text(&p, key);
    PGresult *r = sql(st, "SELECT json FROM cache WHERE run_id = $1 AND key = $2", &p, 0, err,
                      "cannot read cache");
    p_dispose(&p);
    *json = NULL;
    if (!r)
        return PR_ESTORE;
    if (PQntuples(r))
        *json = get_dup(r, 0, 0);
    PQclear(r);
    return 0;
}

static void copy_i64(pr_buf *b, int64_t v, char sep)
{
    if (v == PR_UNKNOWN)
        pr_buf_printf(b, "\\N%c", sep);
    else
        pr_buf_printf(b, "%lld%c", (long long)v, sep);
}

static void copy_real(pr_buf *b, double v, char sep)
{
    if (isnan(v))
        pr_buf_printf(b, "\\N%c", sep);
    else
        pr_buf_printf(b, "%.17g%c", v, sep);
}

/* run_stats and run_points as COPY text. */
static void stats_copy(int64_t id, const pr_store_stats *s, pr_buf *st_rows, pr_buf *pt_rows)
{
    const int64_t head[] = {id, s->requests, s->successes, s->errors};
    for (int i = 0; i < 4; i++)
        copy_i64(st_rows, head[i], '\t');
    copy_real(st_rows, s->error_ratio, '\t');
    copy_i64(st_rows, s->duration_ns, '\t');
    copy_real(st_rows, s->rate_per_s, '\t');
    copy_real(st_rows, s->throughput_per_s, '\t');
    const int64_t lat[] = {s->min_ns, s->mean_ns, s->p50_ns,  s->p90_ns,
                           s->p95_ns, s->p99_ns,  s->p999_ns, s->max_ns};
    for (int i = 0; i < 8; i++)
        copy_i64(st_rows, lat[i], '\t');
    copy_real(st_rows, s->apdex, '\t');
    copy_i64(st_rows, s->interval_ns, '\n');
    for (size_t i = 0; i < s->npoints; i++) {
        const pr_store_point *p = &s->points[i];
        const int64_t v[] = {id, p->t_ns, p->requests, p->successes, p->errors, p->bytes_in};
        for (int k = 0; k < 6; k++)
            copy_i64(pt_rows, v[k], '\t');
        copy_real(pt_rows, p->throughput_per_s, '\t');
        copy_real(pt_rows, p->rate_per_s, '\t');
        const int64_t l[] = {p->p50_ns, p->p90_ns, p->p99_ns, p->max_ns};
        for (int k = 0; k < 4; k++)
            copy_i64(pt_rows, l[k], k == 3 ? '\n' : '\t');
    }
}

static int pg_stats_put(pr_store *st, int64_t id, const pr_store_stats *s, pr_error *err)
{
    pr_buf a = PR_BUF_INIT, b = PR_BUF_INIT;
    stats_copy(id, s, &a, &b);
    int rc = script(st, "BEGIN", err, "cannot store stats");
    int64_t samples = 0;
    /* the run row's lock orders writers of its figures; stale figures are not written */
    if (rc == 0)
        rc = one_i64(st, "SELECT samples FROM runs WHERE id = $1 FOR UPDATE", id, &samples, err);
    params p = {0};
    p_i64(&p, id);
    if (rc == 0 && samples != s->basis_samples) {
        p_dispose(&p);
        pr_buf_dispose(&a);
        pr_buf_dispose(&b);
        return script(st, "COMMIT", err, "cannot store stats");
    }
    if (rc == 0)
        rc = sql_do(st, "DELETE FROM run_stats WHERE run_id = $1", &p, NULL, err,
                    "cannot store stats");
    p.n = 0;
    p_i64(&p, id);
    if (rc == 0)
        rc = sql_do(st, "DELETE FROM run_points WHERE run_id = $1", &p, NULL, err,
                    "cannot store stats");
    if (rc == 0)
        rc = copy_in(st, "COPY run_stats FROM STDIN", &a, err, "cannot store stats");
    if (rc == 0 && b.len)
        rc = copy_in(st, "COPY run_points FROM STDIN", &b, err, "cannot store the series");
    rc = rc == 0 ? script(st, "COMMIT", err, "cannot store stats") : rc;
    if (rc < 0)
        script(st, "ROLLBACK", NULL, "");
    pr_buf_dispose(&a);
    pr_buf_dispose(&b);
    return rc;
}

static const pr_store_ops pg_ops = {
    "postgresql",      pg_close,      pg_begin,      pg_commit,      pg_rollback,
    pg_lock_name,      pg_run_create, pg_run_write,  pg_strings_put, pg_agg_add,
    pg_block_next_seq, pg_block_put,  pg_source_put, pg_source_find, pg_shard_put,
    pg_cache_clear,    pg_runs,       pg_load_run,   pg_scan_blocks, pg_sources,
    pg_shards,         pg_remove,     pg_tag,        pg_cache_put,   pg_cache_get,
    pg_stats_put,      NULL,          NULL, /* no concurrent scans on one connection */
};
