/* Sample defaults and the success rule. */
#include "model/sample.h"
#include <string.h>

void pr_sample_init(pr_sample *s)
{
    memset(s, 0, sizeof *s);
    s->start_ns = PR_UNKNOWN;
    s->latency_ns = PR_UNKNOWN;
    s->connect_ns = PR_UNKNOWN;
    s->ttfb_ns = PR_UNKNOWN;
    s->lateness_ns = PR_UNKNOWN;
    s->bytes_in = PR_UNKNOWN;
    s->bytes_out = PR_UNKNOWN;
    s->threads = -1;
    s->success = PR_SUCCESS_UNKNOWN;
}
