/* Unit tests: the store (round trip, atomic ingest, duplicates, append, concurrent writers). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "model/native.h"
#include "model/xalloc.h"
#include "parsers/parser.h"
#include "store/store.h"
#include "tests/unit/lib/collect.h"
#include "tests/unit/lib/gen.h"

static char dbpath[256], dbpath2[256];

static int setup(void **st)
{
    snprintf(dbpath, sizeof dbpath, "/tmp/pr-test-store-%d.db", (int)getpid());
    snprintf(dbpath2, sizeof dbpath2, "/tmp/pr-test-store-%d-b.db", (int)getpid());
    unlink(dbpath);
    unlink(dbpath2);
    return 0;
}

static int teardown(void **st)
{
    char p[300];
    const char *paths[] = {dbpath, dbpath2};
    for (int i = 0; i < 2; i++) {
        unlink(paths[i]);
        snprintf(p, sizeof p, "%s-wal", paths[i]);
        unlink(p);
        snprintf(p, sizeof p, "%s-shm", paths[i]);
        unlink(p);
    }
    return 0;
}

static pr_ingest_observer observe_next; /* attached to the ingests of ingest_shard */

/* Ingests a memory buffer as one input (key != NULL: as shard `index` of `count` of the
 * shared run `key`); returns the commit/parse code. */
static int ingest_shard(pr_store *s, const char *name, const char *key, int index, int count,
                        const char *buf, size_t len, int force, pr_ingest_result *res,
                        pr_error *err)
{
    pr_input *in = pr_input_mem("mem", buf, len);
    pr_ingest *ing;
    int rc = key ? pr_ingest_begin_shard(s, &ing, key, index, count, "mem.prf", err)
                 : pr_ingest_begin(s, &ing, name, "mem.prf", err);
    if (rc < 0) {
        pr_input_close(in);
        return rc;
    }
    pr_parse_opts o;
    memset(&o, 0, sizeof o);
    if (observe_next)
        pr_ingest_observe(ing, observe_next, NULL);
    rc = pr_parser_find("native")->parse(in, pr_ingest_sink(ing), &o, err);
    if (rc < 0) {
        pr_ingest_abort(ing);
        pr_input_close(in);
        return rc;
    }
    pr_input_drain(in, err);
    char sha[PR_DIGEST_HEX];
    pr_input_digest(in, sha);
    pr_input_close(in);
    return pr_ingest_commit(ing, sha, force, res, err);
}

static int ingest_mem(pr_store *s, const char *name, const char *buf, size_t len, int force,
                      pr_ingest_result *res, pr_error *err)
{
    return ingest_shard(s, name, NULL, 0, 0, buf, len, force, res, err);
}

/* A text rendering of the query's rows in the store at path. */
static char *rows_of(const char *path, const char *sql)
{
    sqlite3 *db;
    sqlite3_open(path, &db);
    pr_buf b = PR_BUF_INIT;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK) {
        while (sqlite3_step(q) == SQLITE_ROW) {
            for (int c = 0; c < sqlite3_column_count(q); c++) {
                const void *v = sqlite3_column_blob(q, c);
                pr_buf_append(&b, v ? v : "", (size_t)sqlite3_column_bytes(q, c));
                pr_buf_putc(&b, '|');
            }
            pr_buf_putc(&b, '\n');
        }
        sqlite3_finalize(q);
    }
    sqlite3_close(db);
    return pr_buf_steal(&b);
}

/* A text rendering of every table's content, to compare store states. */
static char *snapshot(void)
{
    sqlite3 *db;
    sqlite3_open(dbpath, &db);
    pr_buf b = PR_BUF_INIT;
    static const char *const tables[] = {"runs",   "sources", "tags",         "strings",
                                         "labels", "errors",  "status_codes", "blocks",
                                         "cache",  "shards",  "run_stats",    "run_points"};
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT * FROM %s ORDER BY 1, 2", tables[t]);
        sqlite3_stmt *q;
        if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
            continue;
        while (sqlite3_step(q) == SQLITE_ROW) {
            for (int c = 0; c < sqlite3_column_count(q); c++) {
                const void *v = sqlite3_column_blob(q, c);
                pr_buf_append(&b, v ? v : "", (size_t)sqlite3_column_bytes(q, c));
                pr_buf_putc(&b, '|');
            }
            pr_buf_putc(&b, '\n');
        }
        sqlite3_finalize(q);
    }
    sqlite3_close(db);
    return pr_buf_steal(&b);
}

static void test_store__roundtrip_property(void **state)
{
    pr_store *s;
    pr_error err;
    assert_int_equal(pr_store_open(&s, dbpath, 1, &err), 0);
    for (uint64_t seed = 1; seed <= 5; seed++) {
        pr_run *run = pr_run_new();
        size_t n = 70000 + seed * 1000, len; /* more than one stored block */
        pr_sample *x = calloc(n, sizeof *x);
        char *buf = gen_stream(run, x, n, seed, &len);
        pr_ingest_result res;
        assert_int_equal(ingest_mem(s, NULL, buf, len, 0, &res, &err), 0);
        assert_int_equal(res.samples, (int64_t)n);
        pr_run *back;
        assert_int_equal(pr_store_load_run(s, res.run_id, &back, &err), 0);
        gather g = {0};
        assert_int_equal(pr_store_scan(s, res.run_id, gather_cb, &g, &err), 0);
        assert_int_equal(g.n, n);
        for (size_t i = 0; i < n; i++)
            assert_true(sample_equal(run, &x[i], back, &g.s[i]));
        /* export as native and read it again: identical samples */
        char *out = NULL;
        size_t outlen;
        FILE *f = open_memstream(&out, &outlen);
        pr_native_writer *w = pr_native_writer_new(f, back, &err);
        assert_int_equal(pr_native_writer_push(w, back, g.s, g.n, &err), 0);
        assert_int_equal(pr_native_writer_close(w, back, &err), 0);
        fclose(f);
        pr_ingest_result res2;
        assert_int_equal(ingest_mem(s, NULL, out, outlen, 1, &res2, &err), 0);
        gather g2 = {0};
        pr_run *back2;
        assert_int_equal(pr_store_load_run(s, res2.run_id, &back2, &err), 0);
        assert_int_equal(pr_store_scan(s, res2.run_id, gather_cb, &g2, &err), 0);
        assert_int_equal(g2.n, n);
        for (size_t i = 0; i < n; i++)
            assert_true(sample_equal(run, &x[i], back2, &g2.s[i]));
        free(g.s);
        free(g2.s);
        free(out);
        free(buf);
        free(x);
        pr_run_free(back);
        pr_run_free(back2);
        pr_run_free(run);
    }
    pr_store_close(s);
}

static void test_store__failed_ingest_leaves_store_unchanged(void **state)
{
    pr_store *s;
    pr_error err;
    assert_int_equal(pr_store_open(&s, dbpath, 1, &err), 0);
    pr_run *run = pr_run_new();
    size_t n = 200000, len;
    pr_sample *x = calloc(n, sizeof *x);
    char *buf = gen_stream(run, x, n, 9, &len);
    pr_ingest_result res;
    assert_int_equal(ingest_mem(s, "base", buf, len, 0, &res, &err), 0);
    char *before = snapshot();
    /* the same stream with a corrupted block near the end: many samples were already pushed */
    buf[len - 100] ^= 0x7f;
    assert_true(ingest_mem(s, NULL, buf, len, 0, &res, &err) < 0);
    /* and appending the corrupt stream to the existing run */
    assert_true(ingest_mem(s, "base", buf, len, 0, &res, &err) < 0);
    char *after = snapshot();
    assert_string_equal(before, after);
    free(before);
    free(after);
    free(buf);
    free(x);
    pr_run_free(run);
    pr_store_close(s);
}

static void test_store__duplicates_and_append(void **state)
{
    pr_store *s;
    pr_error err;
    assert_int_equal(pr_store_open(&s, dbpath, 1, &err), 0);
    pr_run *run = pr_run_new();
    size_t len, len2;
    pr_sample x[500];
    char *buf = gen_stream(run, x, 500, 21, &len);
    char *buf2 = gen_stream(run, x, 500, 22, &len2);
    pr_ingest_result r1, r2, r3, r4;
    assert_int_equal(ingest_mem(s, "shards", buf, len, 0, &r1, &err), 0);
    assert_int_equal(ingest_mem(s, "other", buf, len, 0, &r2, &err), 0);
    assert_int_equal(r2.duplicate_of, r1.run_id);
    assert_int_equal(ingest_mem(s, "shards", buf2, len2, 0, &r3, &err), 0);
    assert_int_equal(r3.run_id, r1.run_id);                           /* appended to the same run */
    assert_int_equal(ingest_mem(s, NULL, buf, len, 1, &r4, &err), 0); /* --force */
    assert_int_not_equal(r4.run_id, r1.run_id);
    pr_run *back;
    assert_int_equal(pr_store_load_run(s, r1.run_id, &back, &err), 0);
    assert_int_equal(back->samples, 1000);
    gather g = {0};
    assert_int_equal(pr_store_scan(s, r1.run_id, gather_cb, &g, &err), 0);
    assert_int_equal(g.n, 1000);
    free(g.s);
    int64_t *ids;
    size_t nids;
    assert_int_equal(pr_store_list_runs(s, &ids, &nids, &err), 0);
    assert_int_equal(nids, 2);
    free(ids);
    int64_t id;
    assert_int_equal(pr_store_find_run(s, "shards", &id, &err), 0);
    assert_int_equal(id, r1.run_id);
    assert_int_equal(pr_store_remove(s, id, &err), 0);
    assert_int_equal(pr_store_find_run(s, "shards", &id, &err), PR_ENOTFOUND);
    pr_run_free(back);
    pr_run_free(run);
    free(buf);
    free(buf2);
    pr_store_close(s);
}

static void test_store__concurrent_ingest(void **state)
{
    pr_run *run = pr_run_new();
    size_t n = 100000, len;
    pr_sample *x = calloc(n, sizeof *x);
    char *buf = gen_stream(run, x, n, 31, &len);
    pid_t kids[2];
    for (int k = 0; k < 2; k++) {
        kids[k] = fork();
        if (kids[k] == 0) {
            pr_store *s;
            pr_error err;
            pr_ingest_result res;
            if (pr_store_open(&s, dbpath, 1, &err) < 0)
                _exit(3);
            int rc = ingest_mem(s, NULL, buf, len, 1, &res, &err);
            pr_store_close(s);
            _exit(rc == 0 ? 0 : 4);
        }
    }
    for (int k = 0; k < 2; k++) {
        int status;
        waitpid(kids[k], &status, 0);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    pr_store *s;
    pr_error err;
    assert_int_equal(pr_store_open(&s, dbpath, 0, &err), 0);
    int64_t *ids;
    size_t nids;
    assert_int_equal(pr_store_list_runs(s, &ids, &nids, &err), 0);
    assert_int_equal(nids, 2);
    for (size_t i = 0; i < nids; i++) {
        gather g = {0};
        assert_int_equal(pr_store_scan(s, ids[i], gather_cb, &g, &err), 0);
        assert_int_equal(g.n, n);
        free(g.s);
    }
    free(ids);
    pr_store_close(s);
    free(buf);
    free(x);
    pr_run_free(run);
}


static void test_store__target_kind(void **state)
{
    static const struct {
        const char *target;
        int pg;
    } cases[] = {
        {"perfreport.db", 0},
        {"./runs/a=b.db", 0},
        {"/tmp/postgresql.db", 0},
        {"postgresql://ci@db/perf", 1},
        {"postgres://db/perf", 1},
        {"postgresql:///perf?host=/run/postgresql", 1},
        {"host=db dbname=perf", 1},
        {"  dbname = perf", 1},
        {"service=perf", 1},
        {"hostname=x", 0},
        {"=x", 0},
        {"", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_int_equal(pr_store_target_is_pg(cases[i].target), cases[i].pg);
}

/* copy: the same run row, strings, blocks byte for byte and sources in the other store; a
 * second copy is refused as content the target holds. */
static void test_store__copy_exact(void **state)
{
    pr_store *a, *b;
    pr_error err;
    assert_int_equal(pr_store_open(&a, dbpath, 1, &err), 0);
    assert_int_equal(pr_store_open(&b, dbpath2, 1, &err), 0);
    pr_run *run = pr_run_new();
    size_t n = 80000, len;
    pr_sample *x = calloc(n, sizeof *x);
    gen_samples(run, x, n, 41);
    pr_run_tag(run, "build", "41");
    char *buf = gen_native(run, x, n, &len);
    pr_ingest_result res;
    assert_int_equal(ingest_mem(a, "copied", buf, len, 0, &res, &err), 0);
    int64_t id = 0;
    assert_int_equal(pr_store_copy(a, res.run_id, b, &id, &err), 0);
    assert_int_equal(id, 1);
    const char *q[] = {"SELECT name, tool, format, samples, successes, start_ns, end_ns,"
                       " load_model, offered_rate, concurrency, summary_only, summary_json,"
                       " meta_json, created_at, run_key FROM runs",
                       "SELECT seq, samples, start_min, start_max, data FROM blocks ORDER BY seq",
                       "SELECT id, value FROM strings ORDER BY id",
                       "SELECT key, value FROM tags ORDER BY key",
                       "SELECT label, samples, errors FROM labels ORDER BY label",
                       "SELECT message, count FROM errors ORDER BY message",
                       "SELECT status, count FROM status_codes ORDER BY status",
                       "SELECT path, digest, format, samples, ingested_at, forced FROM sources"};
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        char *ra = rows_of(dbpath, q[i]), *rb = rows_of(dbpath2, q[i]);
        assert_true(strlen(ra) > 0);
        assert_string_equal(ra, rb);
        free(ra);
        free(rb);
    }
    assert_int_equal(pr_store_copy(a, res.run_id, b, &id, &err), PR_EDUP);
    pr_store_close(a);
    pr_store_close(b);
    free(buf);
    free(x);
    pr_run_free(run);
}

/* Shards of one run: each lands once, a second landing of a shard changes nothing, shards
 * must agree on their count, the run says how many have landed. */
static void test_store__shards_land_once(void **state)
{
    pr_store *s;
    pr_error err;
    assert_int_equal(pr_store_open(&s, dbpath, 1, &err), 0);
    pr_run *run = pr_run_new();
    pr_sample x[300];
    size_t la, lb, lc;
    char *a = gen_stream(run, x, 300, 51, &la);
    char *b = gen_stream(run, x, 300, 52, &lb);
    char *c = gen_stream(run, x, 300, 53, &lc);
    pr_ingest_result r;
    assert_int_equal(ingest_shard(s, NULL, "job-1", 0, 2, a, la, 0, &r, &err), 0);
    assert_int_equal(r.shards_landed, 1);
    assert_int_equal(r.shard_count, 2);
    char *before = snapshot();
    assert_int_equal(ingest_shard(s, NULL, "job-1", 0, 2, b, lb, 0, &r, &err), PR_EDUP);
    assert_int_equal(ingest_shard(s, NULL, "job-1", 1, 3, b, lb, 0, &r, &err), PR_EUSAGE);
    char *after = snapshot();
    assert_string_equal(before, after);
    assert_int_equal(ingest_shard(s, NULL, "job-1", 1, 2, c, lc, 0, &r, &err), 0);
    assert_int_equal(r.shards_landed, 2);
    pr_run *back;
    assert_int_equal(pr_store_load_run(s, r.run_id, &back, &err), 0);
    assert_int_equal(back->samples, 600);
    assert_string_equal(back->key, "job-1");
    json_t *sh = json_object_get(back->meta, "shards");
    assert_true(json_is_true(json_object_get(sh, "complete")));
    assert_int_equal(json_array_size(json_object_get(sh, "missing")), 0);
    pr_run_free(back);
    free(before);
    free(after);
    free(a);
    free(b);
    free(c);
    pr_run_free(run);
    pr_store_close(s);
}

/* Figures computed from an older state of the run are not stored. */
static void test_store__stale_stats_not_stored(void **state)
{
    pr_store *s;
    pr_error err;
    assert_int_equal(pr_store_open(&s, dbpath, 1, &err), 0);
    pr_run *run = pr_run_new();
    pr_sample x[100];
    size_t len;
    char *buf = gen_stream(run, x, 100, 61, &len);
    pr_ingest_result r;
    assert_int_equal(ingest_mem(s, NULL, buf, len, 0, &r, &err), 0);
    pr_store_point p = {1000, 10, 9, 1, 50, 10.0, 10.0, 1, 2, 3, 4};
    pr_store_stats st = {100, 90, 10, 0.1, 50.0, 45.0, 0.9,        2000000000, 1, 2,
                         3,   4,  5,  6,   7,    8,    1000000000, &p,         1, 99};
    assert_int_equal(pr_store_put_stats(s, r.run_id, &st, &err), 0);
    char *none = rows_of(dbpath, "SELECT count(*) FROM run_stats");
    assert_string_equal(none, "0|\n");
    st.basis_samples = 100;
    assert_int_equal(pr_store_put_stats(s, r.run_id, &st, &err), 0);
    char *one = rows_of(dbpath, "SELECT requests, p99_ns, (SELECT count(*) FROM run_points)"
                                " FROM run_stats");
    assert_string_equal(one, "100|6|1|\n");
    free(none);
    free(one);
    free(buf);
    pr_run_free(run);
    pr_store_close(s);
}

/* The ingest's block writer thread (PERFREPORT_THREADS=2, the default) leaves the store as the
 * ingest writing its own blocks does: pass-through blocks, blocks encoded from samples (an
 * append to an existing run: encoded on the writer's thread, on the ingest's with one
 * thread), a failed ingest with blocks still queued, shards. */
static char *ingest_all_with(const char *threads)
{
    setenv("PERFREPORT_THREADS", threads, 1);
    setenv("SOURCE_DATE_EPOCH", "1800000000", 1);
    teardown(NULL);
    pr_store *s;
    pr_error err;
    assert_int_equal(pr_store_open(&s, dbpath, 1, &err), 0);
    pr_run *run = pr_run_new(), *run2 = pr_run_new();
    size_t n = 300000, len, len2;
    pr_sample *x = calloc(n, sizeof *x);
    char *buf = gen_stream(run, x, n, 21, &len), *buf2 = gen_stream(run2, x, n / 3, 22, &len2);
    pr_ingest_result res;
    assert_int_equal(ingest_mem(s, "a", buf, len, 0, &res, &err), 0);
    assert_int_equal(ingest_mem(s, "a", buf2, len2, 0, &res, &err), 0); /* encoded blocks */
    buf[len - 100] ^= 0x7f;
    assert_true(ingest_mem(s, "b", buf, len, 1, &res, &err) < 0);
    assert_int_equal(ingest_shard(s, NULL, "k", 1, 2, buf2, len2, 1, &res, &err), 0);
    pr_store_close(s);
    free(buf);
    free(buf2);
    free(x);
    pr_run_free(run);
    pr_run_free(run2);
    unsetenv("PERFREPORT_THREADS");
    /* the tables before blocks (a snapshot ends at a blob's first zero byte), then blocks */
    char *a = snapshot(), *b = rows_of(dbpath, "SELECT run_id, seq, samples, start_min, "
                                               "start_max, hex(data) FROM blocks ORDER BY 1, 2");
    char *both = pr_xasprintf("%s\n--\n%s", a, b);
    free(a);
    free(b);
    return both;
}

static void test_store__writer_thread_same_store(void **state)
{
    char *one = ingest_all_with("1"), *two = ingest_all_with("2");
    assert_string_equal(one, two);
    assert_true(strlen(one) > 1000000); /* the blocks are in it, in hex */
    free(one);
    free(two);
}

/* The checkpoint thread (PERFREPORT_THREADS=2) copies a large commit's WAL into the store file:
 * with another connection open (so that closing this one does not checkpoint), the store file
 * holds the committed pages once the connection that committed them is closed. */
static void test_store__checkpoint_thread_copies(void **state)
{
    setenv("PERFREPORT_THREADS", "2", 1);
    pr_store *s;
    pr_error err;
    assert_int_equal(pr_store_open(&s, dbpath, 1, &err), 0);
    pr_run *run = pr_run_new();
    size_t n = 1000, len;
    pr_sample *x = calloc(n, sizeof *x);
    char *buf = gen_stream(run, x, n, 5, &len);
    pr_ingest_result res;
    assert_int_equal(ingest_mem(s, "small", buf, len, 0, &res, &err), 0);
    sqlite3 *other;
    assert_int_equal(sqlite3_open(dbpath, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "SELECT count(*) FROM runs", NULL, NULL, NULL), SQLITE_OK);
    /* 24 MiB of cached text: about 1,500 WAL frames of 16 KiB, past the checkpoint's 1,000 */
    size_t big = (size_t)24 << 20;
    char *json = malloc(big + 3);
    json[0] = '"';
    for (size_t i = 1; i <= big; i++)
        json[i] = (char)('a' + i * 7919 % 26);
    json[big + 1] = '"';
    json[big + 2] = 0;
    assert_int_equal(pr_store_cache_put(s, res.run_id, "big", json, &err), 0);
    pr_store_close(s);
    struct stat sb;
    assert_int_equal(stat(dbpath, &sb), 0);
    assert_true(sb.st_size > (off_t)big);
    sqlite3_close(other);
    unsetenv("PERFREPORT_THREADS");
    free(json);
    free(buf);
    free(x);
    pr_run_free(run);
}

/* Whether a rollback journal was beside the store while the last observed ingest wrote. */
static int saw_journal = -1;

static void journal_seen(const pr_run *run, const pr_sink *sink, const pr_block_cols *c,
                         const unsigned char *raw, size_t len, void *payload)
{
    (void)run, (void)sink, (void)c, (void)raw, (void)len, (void)payload;
    char p[300];
    snprintf(p, sizeof p, "%s-journal", dbpath);
    saw_journal = access(p, F_OK) == 0;
}

/* With bulk writes, an ingest alone with the store writes through a rollback journal, one
 * beside another connection through the WAL; without, through the WAL; the store is in WAL
 * mode after each, and holds every run. */
static void test_store__rollback_journal_when_alone(void **state)
{
    pr_store *s;
    pr_error err;
    assert_int_equal(pr_store_open(&s, dbpath, 1, &err), 0);
    pr_run *run = pr_run_new();
    size_t n = 3000, len;
    pr_sample *x = calloc(n, sizeof *x);
    char *buf = gen_stream(run, x, n, 11, &len);
    pr_ingest_result res;
    observe_next = journal_seen;
    assert_int_equal(ingest_mem(s, "default", buf, len, 0, &res, &err), 0);
    assert_int_equal(saw_journal, 0);
    pr_store_bulk_writes(s, 1);
    assert_int_equal(ingest_mem(s, "alone", buf, len, 1, &res, &err), 0);
    assert_int_equal(saw_journal, 1);
    char *mode = rows_of(dbpath, "PRAGMA journal_mode");
    assert_string_equal(mode, "wal|\n");
    free(mode);
    sqlite3 *other; /* a reader holding the store open */
    assert_int_equal(sqlite3_open(dbpath, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "SELECT count(*) FROM runs", NULL, NULL, NULL), SQLITE_OK);
    saw_journal = -1;
    assert_int_equal(ingest_mem(s, "beside", buf, len, 1, &res, &err), 0);
    assert_int_equal(saw_journal, 0);
    observe_next = NULL;
    sqlite3_close(other);
    pr_store_close(s);
    mode = rows_of(dbpath, "PRAGMA journal_mode");
    assert_string_equal(mode, "wal|\n");
    free(mode);
    char *runs = rows_of(dbpath, "SELECT name, samples FROM runs ORDER BY id");
    assert_string_equal(runs, "default|3000|\nalone|3000|\nbeside|3000|\n");
    free(runs);
    free(buf);
    free(x);
    pr_run_free(run);
}

/* A cb of pr_store_scan_some: the samples' latencies and starts gathered; stops with 42 once
 * `stop_at` samples are in (0: never). */
typedef struct some_seen {
    int64_t *lat, *start;
    size_t n, cap, stop_at, calls;
} some_seen;

static int some_cb(const pr_sample *s, size_t n, void *payload)
{
    some_seen *g = payload;
    g->calls++;
    assert_true(n >= 1 && n <= 512);
    if (g->n + n > g->cap) {
        g->cap = (g->n + n) * 2;
        g->lat = realloc(g->lat, g->cap * sizeof *g->lat);
        g->start = realloc(g->start, g->cap * sizeof *g->start);
    }
    for (size_t i = 0; i < n; i++) {
        g->lat[g->n] = s[i].latency_ns;
        g->start[g->n++] = s[i].start_ns;
    }
    return g->stop_at && g->n >= g->stop_at ? 42 : 0;
}

/* pr_store_scan_some on two threads (the pipelined reader) hands cb the same samples in the
 * same order as on one, and a cb that stops the scan stops it at once with its return. */
static void test_store__scan_some_piped(void **state)
{
    pr_store *s;
    pr_error err;
    assert_int_equal(pr_store_open(&s, dbpath, 1, &err), 0);
    pr_run *run = pr_run_new();
    size_t n = 150001, len;
    pr_sample *x = calloc(n, sizeof *x);
    char *buf = gen_stream(run, x, n, 7, &len);
    pr_ingest_result res;
    assert_int_equal(ingest_mem(s, NULL, buf, len, 0, &res, &err), 0);
    unsigned want = PR_COLBIT(PR_COL_LATENCY) | PR_COLBIT(PR_COL_START);
    some_seen one = {0}, two = {0};
    setenv("PERFREPORT_THREADS", "1", 1);
    assert_int_equal(pr_store_scan_some(s, res.run_id, want, some_cb, &one, &err), 0);
    setenv("PERFREPORT_THREADS", "2", 1);
    assert_int_equal(pr_store_scan_some(s, res.run_id, want, some_cb, &two, &err), 0);
    assert_int_equal(one.n, n);
    assert_int_equal(two.n, n);
    assert_memory_equal(one.lat, two.lat, n * sizeof *one.lat);
    assert_memory_equal(one.start, two.start, n * sizeof *one.start);
    for (int th = 1; th <= 2; th++) {
        setenv("PERFREPORT_THREADS", th == 1 ? "1" : "2", 1);
        some_seen part = {.stop_at = 70000};
        assert_int_equal(pr_store_scan_some(s, res.run_id, want, some_cb, &part, &err), 42);
        assert_true(part.n >= 70000 && part.n < 70000 + 512);
        assert_memory_equal(part.lat, one.lat, part.n * sizeof *one.lat);
        free(part.lat);
        free(part.start);
    }
    unsetenv("PERFREPORT_THREADS");
    free(one.lat);
    free(one.start);
    free(two.lat);
    free(two.start);
    free(buf);
    free(x);
    pr_run_free(run);
    pr_store_close(s);
    (void)state;
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_store__roundtrip_property, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store__failed_ingest_leaves_store_unchanged, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_store__duplicates_and_append, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store__concurrent_ingest, setup, teardown),
        cmocka_unit_test(test_store__target_kind),
        cmocka_unit_test_setup_teardown(test_store__copy_exact, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store__shards_land_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store__stale_stats_not_stored, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store__writer_thread_same_store, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store__checkpoint_thread_copies, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store__rollback_journal_when_alone, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store__scan_some_piped, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
