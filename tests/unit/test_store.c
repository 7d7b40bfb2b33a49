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
#include <sys/wait.h>
#include <unistd.h>
#include "model/native.h"
#include "model/xalloc.h"
#include "parsers/parser.h"
#include "store/store.h"
#include "tests/unit/lib/gen.h"

static char dbpath[256];

static int setup(void **st)
{
    snprintf(dbpath, sizeof dbpath, "/tmp/pr-test-store-%d.db", (int)getpid());
    unlink(dbpath);
    return 0;
}

static int teardown(void **st)
{
    char p[300];
    unlink(dbpath);
    snprintf(p, sizeof p, "%s-wal", dbpath);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", dbpath);
    unlink(p);
    return 0;
}

/* Ingests a memory buffer as one input; returns the commit/parse code. */
static int ingest_mem(pr_store *s, const char *name, const char *buf, size_t len, int force,
                      pr_ingest_result *res, pr_error *err)
{
    pr_input *in = pr_input_mem("mem", buf, len);
    pr_ingest *ing;
    int rc = pr_ingest_begin(s, &ing, name, "mem.prf", err);
    if (rc < 0) {
        pr_input_close(in);
        return rc;
    }
    pr_parse_opts o;
    memset(&o, 0, sizeof o);
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

typedef struct gather {
    pr_sample *s;
    size_t n, cap;
} gather;

static int gather_cb(void *p, const pr_sample *s, size_t n)
{
    gather *g = p;
    g->s = pr_xgrow(g->s, &g->cap, g->n + n, sizeof *s);
    memcpy(g->s + g->n, s, n * sizeof *s);
    g->n += n;
    return 0;
}

/* A text rendering of every table's content, to compare store states. */
static char *snapshot(void)
{
    sqlite3 *db;
    sqlite3_open(dbpath, &db);
    pr_buf b = PR_BUF_INIT;
    static const char *const tables[] = {"runs", "sources", "tags", "strings", "labels",
                                         "errors", "status_codes", "blocks", "cache"};
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
        gen_samples(run, x, n, seed);
        char *buf = gen_native(run, x, n, &len);
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
    gen_samples(run, x, n, 9);
    char *buf = gen_native(run, x, n, &len);
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
    gen_samples(run, x, 500, 21);
    char *buf = gen_native(run, x, 500, &len);
    gen_samples(run, x, 500, 22);
    char *buf2 = gen_native(run, x, 500, &len2);
    pr_ingest_result r1, r2, r3, r4;
    assert_int_equal(ingest_mem(s, "shards", buf, len, 0, &r1, &err), 0);
    assert_int_equal(ingest_mem(s, "other", buf, len, 0, &r2, &err), 0);
    assert_int_equal(r2.duplicate_of, r1.run_id);
    assert_int_equal(ingest_mem(s, "shards", buf2, len2, 0, &r3, &err), 0);
    assert_int_equal(r3.run_id, r1.run_id); /* appended to the same run */
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
    gen_samples(run, x, n, 31);
    char *buf = gen_native(run, x, n, &len);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_store__roundtrip_property, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store__failed_ingest_leaves_store_unchanged, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_store__duplicates_and_append, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store__concurrent_ingest, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
