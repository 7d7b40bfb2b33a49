/* Shared body of the JMeter JTL fuzz targets: the first input byte picks the parse options
 * (sub-result mode, split runs, recover, end stamps, zone, stated columns), the rest is the
 * file, read by the named parser. */
#ifndef PR_JTL_FUZZ_H
#define PR_JTL_FUZZ_H
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "model/input.h"
#include "model/run.h"
#include "model/sink.h"
#include "fuzz/sample_hash.h"
#include "parsers/parser.h"

/* What a parse read, for targets that compare two ways of reading (fuzz_jtl_xml). */
typedef struct jtl_fuzz_out {
    int rc;
    char msg[1024];
    long line, col;
    unsigned long long count, sum; /* samples; a hash of their fields and strings */
} jtl_fuzz_out;

static int push(pr_run *run, const pr_sample *s, size_t n, pr_error *err, void *payload)
{
    jtl_fuzz_out *o = payload;
    for (size_t i = 0; i < n; i++) { /* touch every interned string */
        o->sum = fuzz_sample_hash(o->sum, run, &s[i]);
        o->count++;
    }
    return 0;
}

static void quiet(const pr_error *w, void *payload)
{
}

static int jtl_fuzz_into(const char *parser, const uint8_t *data, size_t size, jtl_fuzz_out *out)
{
    const pr_parser *p = pr_parser_find(parser);
    /* the first byte picks the options, the rest is the file */
    unsigned char o = size ? data[0] : 0;
    pr_parse_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.subresults = o % 3;
    opts.split_runs = (o >> 2) & 1;
    opts.recover = (o >> 3) & 1;
    opts.jtl_timestamp_end = (o >> 4) & 1;
    if ((o >> 5) & 1)
        opts.tz = "+05:30";
    if ((o >> 6) & 1)
        opts.jtl_columns =
            "timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,\"V\"";
    const uint8_t *body = size ? data + 1 : data;
    size_t n = size ? size - 1 : 0;
    pr_run *run = pr_run_new();
    memset(out, 0, sizeof *out);
    pr_sink sink;
    pr_sink_init(&sink, run, push, out);
    sink.warn = quiet;
    pr_error err;
    pr_error_clear(&err);
    pr_input *in = pr_input_mem("fuzz", body, n);
    (void)p->sniff(body, n);
    int rc = p->parse(in, &sink, &opts, &err);
    if (rc == 0 || rc == PR_ETRUNC)
        pr_sink_flush(&sink, &err);
    out->rc = rc;
    snprintf(out->msg, sizeof out->msg, "%s", err.msg);
    out->line = err.line;
    out->col = err.col;
    pr_input_close(in);
    pr_run_free(run);
    return 0;
}

#ifndef JTL_FUZZ_COMPARE /* fuzz_jtl_xml compares two reads itself */
static int jtl_fuzz(const char *parser, const uint8_t *data, size_t size)
{
    jtl_fuzz_out out;
    return jtl_fuzz_into(parser, data, size, &out);
}
#endif

#endif
