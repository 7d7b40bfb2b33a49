/* Fuzz target: the Vegeta text parsers (JSON lines, CSV, text/JSON/hist reports) and the
 * Vegeta report over whatever samples they produce. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/vegeta_stats.h"
#include "model/sink.h"
#include "model/xalloc.h"
#include "parsers/parser.h"

typedef struct acc {
    pr_sample *s;
    size_t n, cap;
} acc;

static int push(pr_run *run, const pr_sample *s, size_t n, pr_error *err, void *payload)
{
    acc *a = payload;
    a->s = pr_xgrow(a->s, &a->cap, a->n + n, sizeof *a->s);
    memcpy(a->s + a->n, s, n * sizeof *s);
    a->n += n;
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
    static const char *const names[] = {"vegeta-json", "vegeta-csv", "vegeta-text",
                                        "vegeta-report-json", "vegeta-hist"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const pr_parser *p = pr_parser_find(names[i]);
        (void)p->sniff(data, size);
        pr_run *run = pr_run_new();
        pr_sink *sink = malloc(sizeof *sink);
        acc a = {NULL, 0, 0};
        pr_sink_init(sink, run, push, &a);
        sink->warn = quiet;
        pr_input *in = pr_input_mem("fuzz", data, size);
        pr_parse_opts opts = {0};
        pr_error err;
        int rc = p->parse(in, sink, &opts, &err);
        if (rc == 0 || rc == PR_ETRUNC)
            pr_sink_flush(sink, &err);
        if (a.n) {
            pr_vegeta_stats st;
            pr_vegeta_stats_compute(&st, a.s, a.n, run);
            free(pr_vegeta_stats_text(&st, run));
            free(pr_vegeta_stats_json_text(&st, run));
            json_decref(pr_vegeta_stats_summary(&st, run));
            pr_vegeta_stats_dispose(&st);
        }
        pr_input_close(in);
        free(a.s);
        free(sink);
        pr_run_free(run);
    }
    return 0;
}
