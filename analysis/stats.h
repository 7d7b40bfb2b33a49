/* Exact statistics over series of samples: nearest-rank percentiles over all values, moments,
 * rates with Vegeta's and JMeter's definitions, log-bucket histograms (docs/metrics.md). */
#ifndef PR_STATS_H
#define PR_STATS_H
#include <stddef.h>
#include <stdint.h>
#include "model/sample.h"

#include "analysis/vec.h"
#include "analysis/vals.h"


/* An accumulating series (a run, a label, a time window…). */
typedef struct pr_series {
    int64_t count, successes;
    int64_t unknown;             /* samples whose outcome is unknown (pr_sample_outcome) */
    int64_t bytes_in, bytes_out; /* totals over samples that know them */
    int64_t bytes_in_known, bytes_out_known;
    int64_t first_start, last_start; /* PR_UNKNOWN until seen */
    int64_t max_end;                 /* max(start + latency) */
    int64_t min_start_end;           /* JMeter: first start; (end of the last sample below) */
    pr_vals latency, connect, ttfb, receive; /* receive = latency - ttfb */
    pr_vals lateness;                        /* generator: actual - intended send time */
} pr_series;

void pr_series_init(pr_series *s);
/* bounded: keep durations in histograms (0.1%) instead of every value (vals.h). */
void pr_series_init_mode(pr_series *s, int bounded);
/* outcome: 1 success, 0 failure, -1 unknown (pr_sample_outcome). */
void pr_series_add(pr_series *s, const pr_sample *x, int outcome);
/* The counters of pr_series_add (counts, bytes, times) without the durations, which the
 * caller keeps elsewhere (analysis/report_acc.c keeps them in one sorted array). Inline: the
 * report's scan calls it twice per sample. */
static inline void pr_series_count(pr_series *s, const pr_sample *x, int outcome)
{
    s->count++;
    s->successes += outcome == 1;
    s->unknown += outcome < 0;
    if (x->bytes_in != PR_UNKNOWN) {
        s->bytes_in += x->bytes_in;
        s->bytes_in_known++;
    }
    if (x->bytes_out != PR_UNKNOWN) {
        s->bytes_out += x->bytes_out;
        s->bytes_out_known++;
    }
    if (x->start_ns != PR_UNKNOWN) {
        if (s->first_start == PR_UNKNOWN || x->start_ns < s->first_start)
            s->first_start = x->start_ns;
        if (s->last_start == PR_UNKNOWN || x->start_ns > s->last_start)
            s->last_start = x->start_ns;
        int64_t e = x->start_ns + (x->latency_ns != PR_UNKNOWN ? x->latency_ns : 0);
        if (s->max_end == PR_UNKNOWN || e > s->max_end)
            s->max_end = e;
    }
}
/* pr_series_add's durations but the latency (connect, lateness, ttfb, receive), for callers
 * that add the latency their own way (analysis/report_acc.c stages it). */
static inline void pr_series_add_others(pr_series *s, const pr_sample *x)
{
    if (x->connect_ns != PR_UNKNOWN)
        pr_vals_add(&s->connect, x->connect_ns);
    if (x->lateness_ns != PR_UNKNOWN)
        pr_vals_add(&s->lateness, x->lateness_ns);
    if (x->ttfb_ns != PR_UNKNOWN) {
        pr_vals_add(&s->ttfb, x->ttfb_ns);
        if (x->latency_ns != PR_UNKNOWN && x->latency_ns >= x->ttfb_ns)
            pr_vals_add(&s->receive, x->latency_ns - x->ttfb_ns);
    }
}
/* From now on keeps durations in histograms, the values so far included (vals.h): for a
 * series that outgrows the memory exact mode may take. */
void pr_series_make_bounded(pr_series *s);
/* Adds all of b into a (merging series is exact). */
void pr_series_merge(pr_series *a, const pr_series *b);
void pr_series_dispose(pr_series *s);

/* Rates of a series, Vegeta's definitions (docs/metrics.md). */
typedef struct pr_rates {
    int64_t duration_ns;     /* latest start - earliest start */
    int64_t wait_ns;         /* max end - latest start */
    double rate_per_s;       /* count / duration (count when duration is 0) */
    double throughput_per_s; /* successes / (duration + wait) (successes when duration is 0) */
    double request_throughput_per_s; /* count over the same span as throughput */
    double jmeter_throughput_per_s;  /* count / (last end - first start) */
} pr_rates;

void pr_rates_compute(const pr_series *s, pr_rates *out);

#endif
