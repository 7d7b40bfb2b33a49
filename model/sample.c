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

int pr_sample_ok(const pr_sample *s)
{
    if (s->success != PR_SUCCESS_UNKNOWN)
        return s->success == PR_OK_SUCCESS;
    return s->status >= 200 && s->status < 400;
}

int pr_sample_outcome(const pr_sample *s)
{
    if (s->success == PR_SUCCESS_UNKNOWN && s->status == 0 && s->error == PR_NOSTR)
        return -1;
    return pr_sample_ok(s);
}
