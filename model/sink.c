/* Batching sink shared by every sample producer. */
#include "model/sink.h"
#include "model/text.h"
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

void pr_sink_init(pr_sink *k, pr_run *run,
                  int (*push)(pr_run *, const pr_sample *, size_t, pr_error *, void *),
                  void *payload)
{
    memset(k, 0, offsetof(pr_sink, buf));
    k->run = run;
    k->push = push;
    k->payload = payload;
    k->n = 0;
    k->total = 0;
    k->splits = 0;
    k->declared_samples = k->declared_start_ns = k->declared_end_ns = PR_UNKNOWN;
}

/* Widens the run's bounds to a sample's start and end (the run's bounds come from its
 * samples, here and nowhere else). */
static inline void widen(pr_run *run, int64_t start, int64_t lat)
{
    if (start == PR_UNKNOWN)
        return;
    if (run->start_ns == PR_UNKNOWN || start < run->start_ns)
        run->start_ns = start;
    int64_t e;
    if (__builtin_add_overflow(start, lat != PR_UNKNOWN ? lat : 0, &e))
        e = lat > 0 ? INT64_MAX : start; /* hostile values: saturate */
    if (run->end_ns == PR_UNKNOWN || e > run->end_ns)
        run->end_ns = e;
}

int pr_sink_flush(pr_sink *k, pr_error *err)
{
    if (k->n == 0)
        return 0;
    size_t n = k->n;
    for (size_t i = 0; i < n; i++)
        widen(k->run, k->buf[i].start_ns, k->buf[i].latency_ns);
    k->n = 0;
    int rc = k->push(k->run, k->buf, n, err, k->payload);
    if (k->progress)
        k->progress(k->total, k->progress_payload);
    return rc;
}

int pr_sink_emit_block(pr_sink *k, const pr_block_cols *cols, const unsigned char *raw, size_t len,
                       pr_error *err)
{
    int rc = pr_sink_flush(k, err);
    if (rc < 0)
        return rc;
    const int64_t *st = cols->vals[PR_COL_START], *lat = cols->vals[PR_COL_LATENCY];
    for (size_t i = 0; i < cols->n; i++)
        widen(k->run, st ? st[i] : cols->konst[PR_COL_START],
              lat ? lat[i] : cols->konst[PR_COL_LATENCY]);
    k->total += cols->n;
    rc = k->push_block(k->run, cols, raw, len, err, k->payload);
    if (k->progress)
        k->progress(k->total, k->progress_payload);
    return rc;
}

int pr_sink_split(pr_sink *k, pr_error *err)
{
    int rc = pr_sink_flush(k, err);
    if (rc < 0 || !k->split)
        return rc;
    rc = k->split(k, err, k->payload);
    k->repaired_seen = k->run->strings_repaired; /* a fresh run */
    k->splits += rc == 0;
    return rc;
}

/* Where the sample being emitted was read: the reader's line, the input's line, or 0. */
static long where_line(const pr_sink *k)
{
    return k->line ? k->line : k->in ? pr_input_lineno(k->in) : 0;
}

static void warn_repaired(pr_sink *k, long line)
{
    uint64_t n = k->run->strings_repaired - k->repaired_seen;
    k->repaired_seen = k->run->strings_repaired;
    char at[48] = "";
    if (!line && k->in)
        snprintf(at, sizeof at, " (before byte %lld)", pr_input_offset(k->in));
    if (k->repair_warnings++ < 3)
        pr_sink_warn(k, k->in ? pr_input_name(k->in) : NULL, line, 0,
                     "%s of this record%s %s not valid UTF-8 or held a NUL byte: kept, with "
                     "U+FFFD in place of each such byte%s",
                     n > 1 ? "strings" : "a label, URL, error or other string", at,
                     n > 1 ? "were" : "was",
                     k->repair_warnings == 3 ? " (further ones not "
                                               "reported)"
                                             : "");
}

void pr_sink_strings_read(pr_sink *k, long line)
{
    if (k->run->strings_repaired != k->repaired_seen)
        warn_repaired(k, line);
}

int pr_sink_check(pr_sink *k, const pr_sample *s, pr_error *err)
{
    const char *path = k->in ? pr_input_name(k->in) : NULL;
    static const char *const what[] = {"latency", "connect time", "time to first byte"};
    const int64_t v[] = {s->latency_ns, s->connect_ns, s->ttfb_ns};
    long line = where_line(k);
    for (int i = 0; i < 3; i++) {
        if (v[i] >= 0 || v[i] == PR_UNKNOWN)
            continue;
        if (!line && k->in) /* a binary input: the byte offset reached */
            return pr_error_at_offset(err, PR_EPARSE, path, pr_input_offset(k->in),
                                      "a negative %s (%lld ns): no percentile can be computed "
                                      "from it",
                                      what[i], (long long)v[i]);
        return pr_error_set(err, PR_EPARSE, path, line, 0,
                            "a negative %s (%lld ns): no percentile can be computed from it",
                            what[i], (long long)v[i]);
    }
    if (k->run->strings_repaired != k->repaired_seen)
        warn_repaired(k, line);
    return 0;
}

void pr_sink_warn(pr_sink *k, const char *path, long line, long col, const char *fmt, ...)
{
    pr_error w;
    pr_error_clear(&w);
    w.code = 0;
    if (path)
        snprintf(w.path, sizeof w.path, "%s", path);
    w.line = line;
    w.col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w.msg, sizeof w.msg, fmt, ap);
    va_end(ap);
    if (k->warn) {
        k->warn(&w, k->payload);
    } else {
        char buf[2048];
        char *vis = pr_text_visible_dup(pr_error_format(&w, buf, sizeof buf), 0);
        fflush(stdout); /* a pipe gets the order a terminal shows */
        fprintf(stderr, "perfreport: warning: %s\n", vis);
        free(vis);
    }
}
