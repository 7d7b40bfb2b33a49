/* The generic fuzz harness for readers: runs the whole registry's sniffers, then each named
 * reader over the input (with default options), keeping a bounded number of samples, and
 * checks that a summary always serialises. A reader's fuzz target is one line:
 *
 *     #include "fuzz/reader_fuzz.h"
 *     PR_FUZZ_READERS("k6-json", "k6-csv")
 *
 * Targets that also exercise what consumes the samples define their own
 * LLVMFuzzerTestOneInput and call pr_fuzz_reader with a hook. */
#ifndef PR_READER_FUZZ_H
#define PR_READER_FUZZ_H
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/input.h"
#include "model/xalloc.h"
#include "parsers/parser.h"

#define FUZZ_KEEP 4096

typedef struct fuzz_keep {
    pr_sample s[FUZZ_KEEP];
    size_t n;
} fuzz_keep;

/* Called after a parse with the run and the first FUZZ_KEEP samples. */
typedef void (*pr_fuzz_hook)(pr_run *run, const fuzz_keep *keep);

static int fuzz_push(pr_run *run, const pr_sample *s, size_t n, pr_error *err, void *payload)
{
    fuzz_keep *k = payload;
    for (size_t i = 0; i < n && k->n < FUZZ_KEEP; i++)
        k->s[k->n++] = s[i];
    return 0;
}

static void fuzz_quiet(const pr_error *w, void *payload)
{
}

static void pr_fuzz_reader(const char *parser, const uint8_t *data, size_t size,
                           pr_fuzz_hook hook)
{
    const pr_parser *p = pr_parser_find(parser);
    if (!p)
        abort();
    (void)p->sniff(data, size);
    static fuzz_keep keep;
    keep.n = 0;
    pr_run *run = pr_run_new();
    pr_sink *sink = pr_xmalloc(sizeof *sink);
    pr_sink_init(sink, run, fuzz_push, &keep);
    sink->warn = fuzz_quiet;
    pr_input *in = pr_input_mem("fuzz", data, size);
    pr_parse_opts opts;
    memset(&opts, 0, sizeof opts);
    pr_error err;
    pr_error_clear(&err);
    int rc = p->parse(in, sink, &opts, &err);
    if (rc == 0 || rc == PR_ETRUNC)
        pr_sink_flush(sink, &err);
    if (run->summary) {
        char *s = json_dumps(run->summary, JSON_COMPACT);
        if (!s)
            abort(); /* the summary must always serialise (valid UTF-8, finite numbers) */
        free(s);
    }
    if (run->meta) {
        char *s = json_dumps(run->meta, JSON_COMPACT);
        if (!s)
            abort();
        free(s);
    }
    if (hook)
        hook(run, &keep);
    pr_input_close(in);
    free(sink);
    pr_run_free(run);
}

/* Runs the whole registry's sniffers once (no parser may crash on any input). */
static void pr_fuzz_sniff_all(const uint8_t *data, size_t size)
{
    int score;
    (void)pr_parser_sniff(data, size, &score);
}

/* Defines the fuzz entry point for the named readers. */
#define PR_FUZZ_READERS(...)                                                                   \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);                              \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                               \
    {                                                                                          \
        static const char *const names[] = {__VA_ARGS__};                                      \
        pr_fuzz_sniff_all(data, size);                                                         \
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)                            \
            pr_fuzz_reader(names[i], data, size, NULL);                                        \
        return 0;                                                                              \
    }

#endif
