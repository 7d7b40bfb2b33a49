/* Test helper: temporary stores and file ingestion through the real parser + store path. */
#include "ingest.h"
#include "gen.h"
#include "model/input.h"
#include "parsers/join.h"
#include "parsers/parser.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char store_path[256];
static pr_ingest_observer observer;
static void *observer_payload;

void test_ingest_observe(pr_ingest_observer fn, void *payload)
{
    observer = fn;
    observer_payload = payload;
}

const char *test_store_path(void)
{
    return store_path;
}

pr_store *test_store_open(void)
{
    snprintf(store_path, sizeof store_path, "/tmp/pr-test-%ld-XXXXXX", (long)getpid());
    int fd = mkstemp(store_path);
    if (fd < 0)
        return NULL;
    close(fd);
    unlink(store_path);
    pr_store *st;
    pr_error err;
    pr_error_clear(&err);
    if (pr_store_open(&st, store_path, 1, &err) < 0)
        return NULL;
    return st;
}

void test_store_close(pr_store *st)
{
    char p[300];
    pr_store_close(st);
    unlink(store_path);
    snprintf(p, sizeof p, "%s-wal", store_path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", store_path);
    unlink(p);
}

int64_t test_ingest(pr_store *st, const char *parser, const char *path, const char *name)
{
    pr_error err;
    pr_error_clear(&err);
    pr_input *in = pr_input_open(path, &err);
    if (!in)
        goto fail;
    const pr_parser *p = parser ? pr_parser_find(parser) : NULL;
    if (!p) {
        size_t got;
        const unsigned char *b = pr_input_peek(in, 4096, &got);
        int score;
        p = pr_parser_sniff(b, got, &score);
    }
    if (!p) {
        pr_input_close(in);
        fprintf(stderr, "%s: no parser\n", path);
        return -1;
    }
    pr_ingest *ing;
    if (pr_ingest_begin(st, &ing, name, path, &err) < 0) {
        pr_input_close(in);
        goto fail;
    }
    pr_parse_opts o;
    memset(&o, 0, sizeof o);
    if (observer)
        pr_ingest_observe(ing, observer, observer_payload);
    pr_sink *sink = pr_ingest_sink(ing);
    json_t *parts = pr_join_begin(sink->run); /* as `perfreport ingest` does */
    pr_run_set_format(sink->run, p->name, p->tool);
    int rc = p->parse(in, sink, &o, &err);
    if (rc == 0)
        rc = pr_sink_flush(sink, &err);
    pr_join_end(sink->run, parts, path, (int64_t)sink->total);
    if (rc < 0) {
        pr_ingest_abort(ing);
        pr_input_close(in);
        goto fail;
    }
    pr_input_drain(in, &err);
    char sha[PR_DIGEST_HEX];
    pr_input_digest(in, sha);
    pr_input_close(in);
    pr_ingest_result res;
    if (pr_ingest_commit(ing, sha, 1, &res, &err) < 0)
        goto fail;
    return res.run_id;
fail : {
    char buf[2048];
    fprintf(stderr, "ingest %s: %s\n", path, pr_error_format(&err, buf, sizeof buf));
    return -1;
}
}

int test_tag(pr_store *st, int64_t id, const char *key, const char *value)
{
    pr_error err;
    pr_error_clear(&err);
    return pr_store_tag(st, id, key, value, &err) < 0 ? -1 : 0;
}

int64_t test_ingest_samples(pr_store *st, pr_run *run, const pr_sample *s, size_t n,
                            const char *name)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/pr-samples-%ld-XXXXXX", (long)getpid());
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    size_t len;
    char *buf = gen_native(run, s, n, &len);
    FILE *f = fdopen(fd, "wb");
    int ok = f && fwrite(buf, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = 0;
    else if (!f)
        close(fd);
    free(buf);
    int64_t id = ok ? test_ingest(st, "native", path, name) : -1;
    unlink(path);
    return id;
}
