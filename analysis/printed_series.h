/* The time series a summary-only run's tool printed (Locust's stats history, Artillery's
 * intermediate periods: the summary's "series", docs/locust.md, docs/artillery.md) as the
 * report model's "timeseries", so its charts, dashboard and time-based findings read the
 * tool's own windows (docs/metrics.md, "Time series of summary-only runs"). */
#ifndef PR_PRINTED_SERIES_H
#define PR_PRINTED_SERIES_H
#include <jansson.h>

/* At least this many points before a printed series is a time series. */
#define PR_PRINTED_SERIES_MIN 2

/* The "timeseries" object ({"interval_ns", "start_ns", "requests_by": "tool", "source",
 * "points": [{t_ns, requests, successes, errors, rate_per_s and throughput_per_s (requests and
 * successes over the point's interval, as a sampled run's), tool_rate_per_s (the rate the tool
 * printed: Locust's moving average, Artillery's rate over a period's active time), p50_ns,
 * p90_ns, p99_ns, max_ns, threads, status_codes, bytes_in}]}) of summary, a new reference, or
 * NULL when summary has no series of PR_PRINTED_SERIES_MIN increasing points. tool names the
 * tool in "source". Cumulative series (Locust's requests_total) become per-interval counts;
 * a point's interval is the time to the next point (a cumulative row's: since the previous). */
json_t *pr_printed_series(const json_t *summary, const char *tool);

#endif
