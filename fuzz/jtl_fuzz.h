/* Shared body of the JMeter JTL fuzz targets: the first input byte picks the parse options
 * (sub-result mode, split runs, recover, end stamps, zone, stated columns), the rest is the
 * file, read by the named parser. */
#ifndef PR_JTL_FUZZ_H
#define PR_JTL_FUZZ_H
#include <stdint.h>
#include <string.h>
#include "model/input.h"
#include "model/run.h"
#include "model/sink.h"
#include "parsers/parser.h"

static int push(pr_run *run, const pr_sample *s, size_t n, pr_error *err, void *payload)
{
    unsigned long long *count = payload;
    for (size_t i = 0; i < n; i++) /* touch every interned string */
        *count += strlen(pr_run_str(run, s[i].label)) + strlen(pr_run_str(run, s[i].error)) +
                  strlen(pr_run_str(run, s[i].attrs));
    return 0;
}

static void quiet(const pr_error *w, void *payload)
{
}

static int jtl_fuzz(const char *parser, const uint8_t *data, size_t size)
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
        opts.jtl_columns = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,\"V\"";
    const uint8_t *body = size ? data + 1 : data;
    size_t n = size ? size - 1 : 0;
    pr_run *run = pr_run_new();
    unsigned long long count = 0;
    pr_sink sink;
    pr_sink_init(&sink, run, push, &count);
    sink.warn = quiet;
    pr_error err;
    pr_error_clear(&err);
    pr_input *in = pr_input_mem("fuzz", body, n);
    (void)p->sniff(body, n);
    int rc = p->parse(in, &sink, &opts, &err);
    if (rc == 0 || rc == PR_ETRUNC)
        pr_sink_flush(&sink, &err);
    pr_input_close(in);
    pr_run_free(run);
    return 0;
}

#endif
