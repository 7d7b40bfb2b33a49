/* Fuzz target: the native stream reader (frames, checksums, block codec, string remapping),
 * plus the block decoder on raw bytes with the checksum out of the way. */
#include <stdint.h>
#include <stdlib.h>
#include "model/native.h"
#include "model/sink.h"
#include "parsers/parser.h"

static int push(pr_run *run, const pr_sample *s, size_t n, pr_error *err, void *payload)
{
    (void)payload;
    for (size_t i = 0; i < n; i++) {
        (void)pr_run_str(run, s[i].label);
        (void)pr_run_str(run, s[i].error);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pr_error err;
    /* the block codec alone: most inputs would otherwise stop at the checksum */
    pr_sample *out = NULL;
    size_t cap = 0, n = 0;
    (void)pr_block_decode(data, size, &out, &cap, &n, &err);
    free(out);
    /* the whole reader */
    const pr_parser *p = pr_parser_find("native");
    (void)p->sniff(data, size);
    pr_run *run = pr_run_new();
    pr_sink *sink = malloc(sizeof *sink);
    pr_sink_init(sink, run, push, NULL);
    pr_input *in = pr_input_mem("fuzz", data, size);
    pr_parse_opts o = {0};
    if (p->parse(in, sink, &o, &err) >= 0)
        (void)pr_sink_flush(sink, &err);
    pr_input_close(in);
    free(sink);
    pr_run_free(run);
    return 0;
}
