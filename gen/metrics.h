/* Live metrics of a running attack for Prometheus-style scrapers: counters the attack's
 * consumer thread updates per batch (requests by label and status, latency and send-lateness
 * histograms, requests sent and in flight), served as OpenMetrics 1.0 or Prometheus text
 * 0.0.4 by a small HTTP listener on its own thread and event loop (gen/loop.c). */
#ifndef PR_METRICS_H
#define PR_METRICS_H
#include <stddef.h>
#include <stdint.h>
#include "model/buf.h"
#include "model/error.h"
#include "model/run.h"
#include "model/sample.h"

#define PR_METRICS_MAX_LABELS 256 /* label series beyond this count as label "other" */
#define PR_METRICS_MAX_STATUS 32  /* status series per label beyond this count as "other" */

typedef struct pr_metrics pr_metrics;

pr_metrics *pr_metrics_new(void);
/* Stops the listener (if any) and frees everything. */
void pr_metrics_free(pr_metrics *m);

/* Starts serving GET /metrics on "HOST:PORT" (IPv4, or [IPv6]:PORT; port 0 picks a free
 * one) from a thread of its own. 0, or PR_EUSAGE (bad address) / PR_EIO with err set. */
int pr_metrics_listen(pr_metrics *m, const char *addr, pr_error *err);
/* The port listened on, 0 before pr_metrics_listen. */
int pr_metrics_port(const pr_metrics *m);

/* Counts a batch of completed samples of `run` (labels are looked up by their text, so
 * successive runs of a stepped attack add to the same series). Thread-safe. */
void pr_metrics_observe(pr_metrics *m, const pr_run *run, const pr_sample *s, size_t n);
/* Requests sent so far and in flight now (as of the workers' last hand-off). Thread-safe. */
void pr_metrics_progress(pr_metrics *m, uint64_t sent, int64_t in_flight);

/* The exposition text: OpenMetrics 1.0 (openmetrics != 0, ends with "# EOF") or Prometheus
 * text format 0.0.4 (what the Accept header of the scrape asked for). */
void pr_metrics_render(pr_metrics *m, int openmetrics, pr_buf *out);

#endif
