/* Sinks: where parsers and the generator push samples. A sink buffers samples and hands
 * them to its consumer (the store, the native writer, a test) in batches. */
#ifndef PR_SINK_H
#define PR_SINK_H
#include <stddef.h>
#include "model/error.h"
#include "model/native.h"
#include "model/input.h"
#include "model/run.h"
#include "model/sample.h"

#define PR_SINK_BATCH 4096

typedef struct pr_sink pr_sink;
struct pr_sink {
    /* Consumer: receives a batch of samples of sink->run (borrowed for the call). Every
     * callback gets the sink's payload last. */
    int (*push)(pr_run *run, const pr_sample *s, size_t n, pr_error *err, void *payload);
    /* Optional: called by pr_sink_split() when a parser finds that a new run starts in the
     * same input (--split-runs). The consumer finishes the current run and installs a fresh
     * one in sink->run (sharing nothing with the old one). NULL: runs are not split. */
    int (*split)(pr_sink *sink, pr_error *err, void *payload);
    /* Optional: a non-fatal problem (killed run, appended runs…). NULL: printed to stderr. */
    void (*warn)(const pr_error *w, void *payload);
    /* Optional: a whole sample block of the native codec whose string ids are already the
     * run's (the native reader's pass-through, pr_sink_emit_block): `raw` is the encoded block
     * (kept as it is by a store), `cols` its columns decoded and checked. NULL: the producer
     * emits samples. */
    int (*push_block)(pr_run *run, const pr_block_cols *cols, const unsigned char *raw, size_t len,
                      pr_error *err, void *payload);
    void *payload; /* the consumer's, given to push, split, warn and push_block */
    /* Optional: an observer told how many samples have gone to the consumer after each batch
     * or block (the ingest's progress line on a terminal), with a payload of its own: it never
     * stands in for the consumer's callbacks, which all share `payload`. */
    void (*progress)(unsigned long long total, void *progress_payload);
    void *progress_payload;
    pr_run *run; /* the run samples belong to; parsers fill its metadata */
    /* Where the samples come from, for the warnings the sink itself gives (optional, set by
     * the caller): the input (its name, line or byte offset) and, for readers that do not
     * read lines with pr_input_getline, the line of the record being read. */
    pr_input *in;
    long line;
    /* What the input states it holds, before its samples arrive (the native reader, from the
     * footer of a file it can read from its end): samples, earliest start, latest end;
     * PR_UNKNOWN when not stated. A consumer may prepare for them, never trust them: it checks
     * them against what arrived. */
    int64_t declared_samples, declared_start_ns, declared_end_ns;
    uint64_t repaired_seen; /* run->strings_repaired already warned about */
    int repair_warnings;
    pr_sample buf[PR_SINK_BATCH];
    size_t n;
    unsigned long long total; /* samples emitted */
    unsigned splits;          /* runs the consumer started by pr_sink_split */
};

/* Prepares a sink (caller-owned struct) for `run`. */
void pr_sink_init(pr_sink *k, pr_run *run,
                  int (*push)(pr_run *, const pr_sample *, size_t, pr_error *, void *),
                  void *payload);
/* Adds one sample (copied); flushes when the batch is full. Returns 0 or a negative error
 * (PR_EPARSE for a negative duration: no percentile may be computed from one). */
static inline int pr_sink_emit(pr_sink *k, const pr_sample *s, pr_error *err);
/* For readers that emit a record's sample later than they read it: call once the record's
 * strings are interned, so a string made valid UTF-8 is reported at its own line. */
void pr_sink_strings_read(pr_sink *k, long line);
/* The slow path of pr_sink_emit: a negative duration (an error), or a string of the sample
 * that had to be made valid UTF-8 (a warning naming the record). */
int pr_sink_check(pr_sink *k, const pr_sample *s, pr_error *err);
/* Hands the buffered samples to the consumer, first widening sink->run's start_ns/end_ns
 * (earliest start, latest start + latency) to cover them: producers never set those. */
int pr_sink_flush(pr_sink *k, pr_error *err);
/* Hands a native block to push_block (set: check before), after the buffered samples, and
 * widens the run's bounds as pr_sink_flush does. */
int pr_sink_emit_block(pr_sink *k, const pr_block_cols *cols, const unsigned char *raw, size_t len,
                       pr_error *err);
/* Flushes and asks the consumer to start a new run; returns 0 (also when unsupported). */
int pr_sink_split(pr_sink *k, pr_error *err);
/* Reports a warning through the sink (formatted like an error). */
void pr_sink_warn(pr_sink *k, const char *path, long line, long col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static inline int pr_sink_emit(pr_sink *k, const pr_sample *s, pr_error *err)
{
    if ((s->latency_ns < 0 && s->latency_ns != PR_UNKNOWN) ||
        (s->connect_ns < 0 && s->connect_ns != PR_UNKNOWN) ||
        (s->ttfb_ns < 0 && s->ttfb_ns != PR_UNKNOWN) ||
        k->run->strings_repaired != k->repaired_seen) {
        int rc = pr_sink_check(k, s, err);
        if (rc < 0)
            return rc;
    }
    k->buf[k->n++] = *s;
    k->total++;
    if (k->n == PR_SINK_BATCH)
        return pr_sink_flush(k, err);
    return 0;
}

#endif
