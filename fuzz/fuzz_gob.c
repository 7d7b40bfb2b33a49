/* Fuzz target: the gob decoder (walking every value generically) and the vegeta-gob parser. */
#include <stdint.h>
#include <stdlib.h>
#include "model/sink.h"
#include "parsers/gob.h"
#include "parsers/parser.h"

static int push(pr_run *run, const pr_sample *s, size_t n, pr_error *err, void *payload)
{
    (void)payload;
    for (size_t i = 0; i < n; i++)
        (void)pr_run_str(run, s[i].label);
    return 0;
}

static void quiet(const pr_error *w, void *payload)
{
    (void)payload;
    (void)w;
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
    /* The Vegeta parser, streaming through pr_input. */
    const pr_parser *p = pr_parser_find("vegeta-gob");
    (void)p->sniff(data, size);
    pr_run *run = pr_run_new();
    pr_sink *sink = malloc(sizeof *sink);
    pr_sink_init(sink, run, push, NULL);
    sink->warn = quiet;
    pr_input *in = pr_input_mem("fuzz", data, size);
    pr_parse_opts opts = {0};
    if (p->parse(in, sink, &opts, &err) == 0)
        pr_sink_flush(sink, &err);
    pr_input_close(in);
    free(sink);
    pr_run_free(run);
    return 0;
}
