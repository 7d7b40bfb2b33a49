/* Fuzz target: the store reading damaged sample blocks. A store file with one run is made
 * once; each input replaces the run's block (through SQLite, as a damaged disk or a hostile
 * store file would), then the run is scanned and its whole report model built: the decoder
 * must refuse what it cannot read, and nothing downstream may trust ids, counts or times
 * that a block carries. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analysis/report.h"
#include "store/store.h"

static char path[64];
static int64_t run_id;

/* libFuzzer ends without running atexit handlers when its time is up: the stores of
 * targets that are gone are removed when the next one starts. */
static void remove_stale(void)
{
    DIR *d = opendir("/tmp");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        int pid;
        char tail[8];
        if (sscanf(e->d_name, "pr-fuzz-store-%d.db%7s", &pid, tail) >= 1 && pid > 0 &&
            kill(pid, 0) < 0 && errno == ESRCH) {
            char p[300];
            snprintf(p, sizeof p, "/tmp/%s", e->d_name);
            unlink(p);
        }
    }
    if (d)
        closedir(d);
}

static void make_store(void)
{
    remove_stale();
    snprintf(path, sizeof path, "/tmp/pr-fuzz-store-%d.db", (int)getpid());
    unlink(path);
    pr_store *st;
    pr_ingest *ing;
    pr_error err;
    pr_ingest_result res;
    if (pr_store_open(&st, path, 1, &err) < 0 || pr_ingest_begin(st, &ing, NULL, "fuzz", &err) < 0)
        abort();
    pr_sink *k = pr_ingest_sink(ing);
    uint32_t labels[2] = {pr_run_intern(k->run, "GET /a", 6), pr_run_intern(k->run, "GET /b", 6)};
    for (int i = 0; i < 64; i++) {
        pr_sample s;
        pr_sample_init(&s);
        s.start_ns = 1700000000000000000LL + i * 1000000LL;
        s.latency_ns = 1000000 + i * 1000;
        s.status = i % 7 ? 200 : 500;
        s.success = i % 7 ? PR_OK_SUCCESS : PR_FAIL;
        s.label = labels[i & 1];
        if (pr_sink_emit(k, &s, &err) < 0)
            abort();
    }
    if (pr_sink_flush(k, &err) < 0 || pr_ingest_commit(ing, "xxh128:fuzz", 1, &res, &err) < 0)
        abort();
    run_id = res.run_id;
    pr_store_close(st);
}

static void remove_store(void)
{
    static const char *const ext[] = {"", "-wal", "-shm", "-journal"};
    for (size_t i = 0; i < 4; i++) {
        char p[80];
        snprintf(p, sizeof p, "%s%s", path, ext[i]);
        unlink(p);
    }
}

static int count(const pr_sample *s, size_t n, void *payload)
{
    *(size_t *)payload += n;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path[0]) {
        make_store();
        atexit(remove_store);
    }
    sqlite3 *db;
    sqlite3_stmt *q;
    if (sqlite3_open(path, &db) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "UPDATE blocks SET data=?1 WHERE run_id=?2", -1, &q, NULL) != SQLITE_OK)
        abort();
    sqlite3_bind_blob(q, 1, size ? data : (const void *)"", (int)size, SQLITE_STATIC);
    sqlite3_bind_int64(q, 2, run_id);
    if (sqlite3_step(q) != SQLITE_DONE)
        abort();
    sqlite3_finalize(q);
    sqlite3_close(db);
    pr_store *st;
    pr_error err;
    if (pr_store_open(&st, path, 0, &err) < 0)
        abort();
    size_t n = 0;
    (void)pr_store_scan(st, run_id, count, &n, &err);
    pr_report_opts o;
    pr_report_opts_init(&o);
    json_t *doc = NULL;
    if (pr_report_build(st, &run_id, 1, 0, &o, &doc, &err) == 0) {
        char *s = json_dumps(doc, JSON_COMPACT);
        if (!s)
            abort(); /* the model always serialises */
        free(s);
    }
    json_decref(doc);
    pr_store_close(st);
    return 0;
}
