/* The native format parser (placeholder until the codec lands). */
#include "parsers/parser.h"
#include <string.h>

static int sniff(const unsigned char *buf, size_t len)
{
    return len >= 4 && memcmp(buf, "\x89PRF", 4) == 0 ? 100 : 0;
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    return pr_error_set(err, PR_EFORMAT, pr_input_name(in), 0, 0, "native format: not yet");
}

const pr_parser pr_parser_native = {"native", "perfreport", "perfreport native sample stream",
                                    sniff, parse};
