/* Test helper: a temporary store and one-call ingestion of files into it. */
#ifndef PR_TEST_INGEST_H
#define PR_TEST_INGEST_H
#include <stdint.h>
#include "model/run.h"
#include "model/sample.h"
#include "store/store.h"

/* Opens a fresh store in a new temporary file (removed by test_store_close). */
pr_store *test_store_open(void);
void test_store_close(pr_store *st);
/* Ingests a file with the named parser (NULL: sniff) as a run named `name` (NULL: the
 * parser's or the file's). Returns the run id, or -1 (the error is printed). */
int64_t test_ingest(pr_store *st, const char *parser, const char *path, const char *name);
/* Ingests samples s[0..n) of run (encoded by gen_native, through a temporary native file and
 * the real parser) as a run named `name`. Returns the run id, or -1. */
int64_t test_ingest_samples(pr_store *st, pr_run *run, const pr_sample *s, size_t n,
                            const char *name);
/* The observer the next ingests of this helper attach (pr_ingest_observe); NULL: none. */
void test_ingest_observe(pr_ingest_observer fn, void *payload);
/* The path of the store test_store_open made last. */
const char *test_store_path(void);
/* Sets a tag on a run; returns 0 or -1. */
int test_tag(pr_store *st, int64_t id, const char *key, const char *value);

#endif
