/* The sample: one request outcome, whatever tool produced it.
 *
 * Ownership rule for the whole model: everything reachable from a pr_run belongs to it and
 * is freed with pr_run_free(); samples hold no pointers, only interned string ids owned by
 * the run's string table; pointers handed to callbacks are borrowed for the call only. */
#ifndef PR_SAMPLE_H
#define PR_SAMPLE_H
#include <stdint.h>

/* Unknown is explicit: numeric fields use PR_UNKNOWN (never 0), string ids use PR_NOSTR. */
#define PR_UNKNOWN INT64_MIN
#define PR_NOSTR 0u

enum pr_success { PR_FAIL = 0, PR_OK_SUCCESS = 1, PR_SUCCESS_UNKNOWN = 2 };

/* Sample flags. */
enum {
    PR_SF_SUBRESULT = 1u << 0,   /* a sub-result of a parent sample (JMeter Label-0, nested XML) */
    PR_SF_TRANSACTION = 1u << 1, /* a Transaction Controller sample (aggregates its children) */
    PR_SF_PARENT = 1u << 2       /* a sample that has sub-results */
};

/* Attribute prefixes that carry a source's own figure in pr_sample.attrs, where readers and
 * analysis must agree on the name. "ab.dtime=N": ab's own dtime (ms) when it differs from
 * ttime - ctime, so ab's Processing row can be rebuilt exactly. */
#define PR_AB_DTIME_ATTR "ab.dtime="

typedef struct pr_sample {
    int64_t start_ns;    /* request start, ns since the Unix epoch */
    int64_t latency_ns;  /* to last byte; for open-model generators measured from intended send */
    int64_t connect_ns;  /* connection setup, PR_UNKNOWN if the source lacks it */
    int64_t ttfb_ns;     /* time to first byte */
    int64_t lateness_ns; /* generator only: actual send - intended send */
    int64_t bytes_in;    /* response bytes received */
    int64_t bytes_out;   /* request bytes sent */
    uint32_t label;      /* interned ids into the run's string table, PR_NOSTR if none */
    uint32_t url;
    uint32_t method;
    uint32_t error;  /* error text; PR_NOSTR when there is none */
    uint32_t thread; /* thread / worker / connection name */
    uint32_t attrs;  /* extra attributes "k=v\x1fk=v" (JMeter sample_variables), interned */
    int32_t threads; /* active threads/connections when the sample ended, -1 unknown */
    uint16_t status; /* HTTP status, 0 = no response */
    uint8_t success; /* enum pr_success: the source's own notion where it has one */
    uint8_t flags;
} pr_sample;

/* A sample with every field unknown. */
void pr_sample_init(pr_sample *s);
/* The success rule used when the source has none: 200 <= status < 400. */
static inline int pr_ok_of(uint8_t success, uint16_t status)
{
    if (success != PR_SUCCESS_UNKNOWN)
        return success == PR_OK_SUCCESS;
    return status >= 200 && status < 400;
}
static inline int pr_sample_ok(const pr_sample *s)
{
    return pr_ok_of(s->success, s->status);
}
/* 1 success, 0 failure, -1 unknown: the source has no success flag, no status and no error
 * (ab's -g rows). Statistics leave unknown outcomes out of success and error ratios. */
static inline int pr_outcome_of(uint8_t success, uint16_t status, uint32_t error)
{
    if (success == PR_SUCCESS_UNKNOWN && status == 0 && error == PR_NOSTR)
        return -1;
    return pr_ok_of(success, status);
}
static inline int pr_sample_outcome(const pr_sample *s)
{
    return pr_outcome_of(s->success, s->status, s->error);
}

#endif
