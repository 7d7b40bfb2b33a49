/* Shared body of the ab/hey/wrk/siege/httperf fuzz targets: runs the named readers over the
 * input (sniffing first), collecting a bounded number of samples, and for ab-gnuplot also
 * recomputes and prints ab's tables. */
#ifndef PR_ABTOOLS_FUZZ_H
#define PR_ABTOOLS_FUZZ_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/ab_stats.h"
#include "model/buf.h"
#include "model/input.h"
#include "model/xalloc.h"
#include "parsers/parser.h"

#define FUZZ_KEEP 4096

typedef struct fuzz_keep {
    pr_sample s[FUZZ_KEEP];
    size_t n;
} fuzz_keep;

static int fuzz_push(void *payload, pr_run *run, const pr_sample *s, size_t n, pr_error *err)
{
    fuzz_keep *k = payload;
    for (size_t i = 0; i < n && k->n < FUZZ_KEEP; i++)
        k->s[k->n++] = s[i];
    return 0;
}

static void fuzz_quiet(void *payload, const pr_error *w)
{
}

static void fuzz_one(const char *parser, const uint8_t *data, size_t size)
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
    if (keep.n && strcmp(parser, "ab-gnuplot") == 0) {
        pr_ab_tables t;
        if (pr_ab_stats_from_samples(run, keep.s, keep.n, &t, NULL) == 0) {
            pr_buf b = PR_BUF_INIT;
            pr_ab_stats_print(&t, &b);
            pr_buf_dispose(&b);
        }
    }
    pr_input_close(in);
    free(sink);
    pr_run_free(run);
}

/* Runs the whole registry's sniffers once (no parser may crash on any input). */
static void fuzz_sniff_all(const uint8_t *data, size_t size)
{
    int score;
    (void)pr_parser_sniff(data, size, &score);
}

#endif
