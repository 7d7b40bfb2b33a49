/* The console summaries of Gatling and Locust, computed from a run's samples (or, for a
 * Locust summary-only run, from the figures its CSV files hold), for `summary --format`. */
#ifndef PR_PEER_STATS_H
#define PR_PEER_STATS_H
#include <stddef.h>
#include "model/buf.h"
#include "model/run.h"
#include "model/sample.h"

/* Gatling's "Global Information" and "Response Time Distribution" blocks (times in whole ms,
 * percentiles nearest-rank, t < 800 ms / < 1200 ms bands; GROUP transactions left out). */
void pr_gatling_console(const pr_run *run, const pr_sample *s, size_t n, pr_buf *out);
/* The same, a batch at a time: `expected` sizes the exact response times (kept once, with
 * their outcome); bounded keeps histograms. finish appends the table and frees a. */
typedef struct pr_gatling_acc pr_gatling_acc;
pr_gatling_acc *pr_gatling_new(size_t expected, int bounded);
void pr_gatling_add(pr_gatling_acc *a, const pr_sample *s, size_t n);
void pr_gatling_finish(pr_gatling_acc *a, pr_buf *out);
/* Locust's stats table (Type, Name, # reqs, # fails, Avg, Min, Max, Med, req/s, failures/s)
 * per label and Aggregated. From samples when n > 0, else from run->summary's labels. */
void pr_locust_console(const pr_run *run, const pr_sample *s, size_t n, pr_buf *out);

/* The same, a batch at a time (as Gatling's above). */
typedef struct pr_locust_acc pr_locust_acc;
pr_locust_acc *pr_locust_new(const pr_run *run, size_t expected, int bounded);
void pr_locust_add(pr_locust_acc *a, const pr_sample *s, size_t n);
void pr_locust_finish(pr_locust_acc *a, pr_buf *out);

#endif
