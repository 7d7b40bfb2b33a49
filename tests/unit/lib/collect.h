/* Test helper: a sink that collects every sample in memory, and a one-call parse of a file. */
#ifndef PR_TEST_COLLECT_H
#define PR_TEST_COLLECT_H
#include "model/sink.h"
#include "parsers/parser.h"

typedef struct collect {
    pr_sink sink;
    pr_run *run;
    pr_sample *s;
    size_t n, cap;
    int splits;
    int warnings;
    char last_warning[1100];
} collect;

/* Samples gathered in memory, e.g. by a store scan: pr_store_scan(st, id, gather_cb, &g, err)
 * with gather g = {0}; free(g.s) after. */
typedef struct gather {
    pr_sample *s;
    size_t n, cap;
} gather;
int gather_cb(const pr_sample *s, size_t n, void *payload);

/* Prepares `c` with a fresh run (freed by collect_free). */
void collect_init(collect *c);
void collect_free(collect *c);
/* Parses a file with the named parser (NULL: sniff) into c; returns the parse code. */
int collect_parse_file(collect *c, const char *parser, const char *path,
                       const pr_parse_opts *opts, pr_error *err);
/* collect_init + collect_parse_file of tests/data/REL with the named parser, failing the test
 * (naming the file and the error) unless it parses: rc 0, or PR_ETRUNC with COLLECT_TRUNC_OK;
 * with COLLECT_FORMAT the run's format must be the parser's. Returns the parse code. */
enum { COLLECT_TRUNC_OK = 1, COLLECT_FORMAT = 2 };
int collect_parse_ok(collect *c, const char *parser, const char *rel, int flags);
/* Same on a memory buffer. */
int collect_parse_mem(collect *c, const char *parser, const void *data, size_t len,
                      const pr_parse_opts *opts, pr_error *err);
/* Directory of test data (tests/data), from $PR_TESTDATA or the default relative path. */
const char *testdata(const char *rel);

#endif
