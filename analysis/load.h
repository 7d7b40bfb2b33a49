/* The load a run was under (load model, offered rate, concurrency), each value with where it came
 * from: a tag, the file itself, or inferred from the samples (docs/metrics.md, "Load"). */
#ifndef PR_LOAD_H
#define PR_LOAD_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "model/run.h"

/* What the analysed series says about the load, for the inference. */
typedef struct pr_load_facts {
    int64_t requests;     /* requests sent */
    double rate_per_s;    /* requests / attack duration (first to last start); NAN if unknown */
    const int64_t *sends; /* requests sent per time-series interval (by start); NULL if none */
    size_t nsends;        /* intervals up to and including the last one with a send */
    int summary_only;     /* the numbers are the tool's printed ones (no samples) */
    int merged;           /* several runs analysed as one series: nothing is inferred */
} pr_load_facts;

/* The pacing check of an open-model generator's sends per full interval: a pause (an interval
 * with less than PR_LOAD_PAUSE × the median) or a lasting change of rate (medians of the first
 * and last third of the intervals more than PR_LOAD_STEP_TOL apart) means it did not keep its
 * rate, so its sent rate is not taken as the offered rate. Brief lags it made up are allowed. */
#define PR_LOAD_PAUSE 0.5
#define PR_LOAD_STEP_TOL 0.10

/* The "load" object of the report model (a new reference):
 *   {"model", "model_text", "model_source", "offered_rate_per_s", "offered_rate", "offered_rate_source",
 *    "offered_rate_basis", "offered_rate_inferred", "concurrency", "concurrency_source",
 *    "concurrency_basis", "pacing" {intervals, median, min, max, steady}?, "text"}
 * Sources: "tag" (--tag rate=N / concurrency=N; wins), "file" (the file states it, e.g.
 * perfreport attack's --rate, ab's Concurrency Level), "tool" (the tool's load model),
 * "inferred" (an open-model generator's sent rate, when its sends were steady), or null. */
json_t *pr_load_json(const pr_run *run, const pr_load_facts *f);
/* The load model in the reader's language ("open", "开放"), for model_text and load_model_text. */
const char *pr_load_model_text(pr_load_model m);

#endif
