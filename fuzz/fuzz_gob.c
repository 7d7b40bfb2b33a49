/* Fuzz target: the gob decoder (walking every value generically) and the vegeta-gob parser,
 * read with its one-pass read of a result (pr_gob_read_struct) and field by field: the two
 * must give the same samples and the same error. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz/sample_hash.h"
#include "model/sink.h"
#include "parsers/gob.h"
#include "parsers/parser.h"
#include "parsers/vegeta.h"

typedef struct seen {
    unsigned long long n, sum;
} seen;

static int push(pr_run *run, const pr_sample *s, size_t n, pr_error *err, void *payload)
{
    seen *w = payload;
    for (size_t i = 0; i < n; i++) {
        w->sum = fuzz_sample_hash(w->sum, run, &s[i]);
        w->n++;
    }
    return 0;
}

static void quiet(const pr_error *w, void *payload)
{
    (void)payload;
    (void)w;
}

/* The Vegeta parser over data, streaming through pr_input: its code, error and samples. */
static int parse_vegeta(const uint8_t *data, size_t size, pr_error *err, seen *w)
{
    const pr_parser *p = pr_parser_find("vegeta-gob");
    pr_run *run = pr_run_new();
    pr_sink *sink = malloc(sizeof *sink);
    pr_sink_init(sink, run, push, w);
    sink->warn = quiet;
    pr_input *in = pr_input_mem("fuzz", data, size);
    pr_parse_opts opts = {0};
    pr_error_clear(err);
    int rc = p->parse(in, sink, &opts, err);
    if (rc == 0 || rc == PR_ETRUNC)
        pr_sink_flush(sink, err);
    pr_input_close(in);
    free(sink);
    pr_run_free(run);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pr_error err;
    /* Generic walk: every value skipped by its type. */
    pr_gob *g = pr_gob_open_mem("fuzz", data, size);
    int64_t id;
    for (int i = 0; i < 100000 && pr_gob_next(g, &id, &err) == 1; i++)
        if (pr_gob_skip(g, id, &err) < 0)
            break;
    pr_gob_free(g);
    (void)pr_parser_find("vegeta-gob")->sniff(data, size);
    /* The Vegeta parser with its one-pass read of a result and without: the same. */
    static pr_error e[2];
    seen w[2] = {{0, 0}, {0, 0}};
    int rc[2];
    for (int i = 0; i < 2; i++) {
        pr_vegeta_gob_fast = i == 0;
        rc[i] = parse_vegeta(data, size, &e[i], &w[i]);
    }
    pr_vegeta_gob_fast = 1;
    if (rc[0] != rc[1] || strcmp(e[0].msg, e[1].msg) || e[0].offset != e[1].offset ||
        w[0].n != w[1].n || w[0].sum != w[1].sum) {
        fprintf(stderr, "fuzz_gob: one pass and field by field differ: %d %s | %d %s\n", rc[0],
                e[0].msg, rc[1], e[1].msg);
        abort();
    }
    return 0;
}
