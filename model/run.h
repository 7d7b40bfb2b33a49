/* A run: one load test's metadata, its string table and (in the store) its samples. */
#ifndef PR_RUN_H
#define PR_RUN_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "model/sample.h"
#include "model/strtab.h"

typedef enum pr_load_model { PR_LOAD_UNKNOWN = 0, PR_LOAD_OPEN, PR_LOAD_CLOSED } pr_load_model;

typedef struct pr_tag {
    char *key;
    char *value;
} pr_tag;

typedef struct pr_run {
    int64_t id;         /* store id, 0 until stored */
    char *name;         /* run name (attack name, --name, file base name) */
    char *source;       /* input as named on the command line ("-" for stdin) */
    char *format;       /* parser name, e.g. "vegeta-gob" */
    char *tool;         /* producing tool, e.g. "vegeta" */
    char *tool_version; /* NULL if unknown */
    pr_tag *tags;
    size_t ntags;
    int64_t start_ns; /* earliest request start, PR_UNKNOWN if unknown */
    int64_t end_ns;   /* latest request end (start + latency), PR_UNKNOWN */
    pr_load_model load_model;
    double offered_rate;       /* requests/s the tool was asked for, NAN if unknown */
    int32_t concurrency;       /* threads/connections, -1 if unknown */
    int summary_only;          /* 1: no samples, only the tool's printed aggregates */
    json_t *summary;           /* summary-only: the numbers the tool printed (owned), see below */
    json_t *meta;              /* free-form metadata object (owned): time resolution, zone, notes;
                              * "lossy": what a per-request file cannot record exactly, any of
                              * "requests" (rows missing), "outcomes" (no success per row),
                              * "timing" (coarse or partial start times): for those, the tool's
                              * printed summary of the same run wins (analysis/headline.h) */
    pr_strtab *strings;        /* interned strings of the run's samples (owned) */
    int64_t samples;           /* samples stored for the run (store-maintained) */
    int64_t successes;         /* of which successful (store-maintained) */
    int64_t created_s;         /* when the store created the run, s since the epoch (0 unknown) */
    char *key;                 /* distributed run: the key its shards agree on, else NULL */
    uint64_t strings_repaired; /* interned strings that were not UTF-8 or held NUL bytes */
} pr_run;

/* The summary object of a summary-only run. Every key is optional: a tool's number goes in
 * only if the tool printed it (nothing is invented). Canonical keys, used by analysis:
 *   "requests"          integer   requests completed (or sent, see the tool's notes)
 *   "successes", "failures"  integer
 *   "success_ratio"     number 0..1
 *   "duration_ns"       integer   test duration as the tool defines it
 *   "wait_ns"           integer   (vegeta)
 *   "rate_per_s"        number    requests per second as the tool printed it
 *   "throughput_per_s"  number    successful requests per second
 *   "concurrency"       integer
 *   "latency_ns"        object    {"min","mean","stdev","max","p50","p90","p99","p99.9",...}
 *                                 integers (ns); percentile keys are "p" + the percentile
 *   "connect_ns", "ttfb_ns"  same shape as latency_ns, where printed
 *   "bytes_in_total", "bytes_out_total"  integer; "bytes_in_per_s" number
 *   "status_codes"      object    {"200": count, ...}
 *   "errors"            array of  {"message": text, "count": integer (if printed)}
 *   "tool"              object    everything else the tool printed, under its own names
 *                                 (e.g. ab's "Time per request", siege's "Longest transaction") */
pr_run *pr_run_new(void);
void pr_run_free(pr_run *r);
void pr_run_set_name(pr_run *r, const char *name);
void pr_run_set_format(pr_run *r, const char *format, const char *tool);
/* Adds or replaces a tag. */
void pr_run_tag(pr_run *r, const char *key, const char *value);
const char *pr_run_tag_get(const pr_run *r, const char *key);
/* Sets meta[key] = value (steals the reference to value). */
void pr_run_meta_set(pr_run *r, const char *key, json_t *value);
/* Records the clock resolution of some of the run's times in meta[key]
 * ("latency_resolution_ns": durations; "time_resolution_ns": start stamps), keeping the
 * coarsest any of its inputs gave: ab's text (whole ms) joined with its -e CSV (µs) still has
 * whole-millisecond numbers. */
void pr_run_meta_resolution(pr_run *r, const char *key, int64_t ns);
/* Interning shortcuts into the run's string table. Strings are kept as valid UTF-8 without
 * NUL bytes (labels, URLs and errors are shown and serialised as text): a byte that is not
 * part of a UTF-8 sequence, and a NUL, become U+FFFD, counted in r->strings_repaired (the sink
 * warns, naming the record). Longer than PR_STR_MAX bytes: cut at a character boundary. */
uint32_t pr_run_intern(pr_run *r, const char *s, size_t len);
const char *pr_run_str(const pr_run *r, uint32_t id);
const char *pr_load_model_name(pr_load_model m);

#endif
