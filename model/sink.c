/* Batching sink shared by every sample producer. */
#include "model/sink.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void pr_sink_init(pr_sink *k, pr_run *run,
                  int (*push)(void *, pr_run *, const pr_sample *, size_t, pr_error *),
                  void *payload)
{
    memset(k, 0, offsetof(pr_sink, buf));
    k->run = run;
    k->push = push;
    k->payload = payload;
    k->n = 0;
    k->total = 0;
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
    return k->push(k->payload, k->run, k->buf, n, err);
}

int pr_sink_emit_block(pr_sink *k, const pr_block_cols *cols, const unsigned char *raw,
                       size_t len, pr_error *err)
{
    int rc = pr_sink_flush(k, err);
    if (rc < 0)
        return rc;
    const int64_t *st = cols->vals[PR_COL_START], *lat = cols->vals[PR_COL_LATENCY];
    for (size_t i = 0; i < cols->n; i++)
        widen(k->run, st ? st[i] : cols->konst[PR_COL_START],
              lat ? lat[i] : cols->konst[PR_COL_LATENCY]);
    k->total += cols->n;
    return k->push_block(k->payload, k->run, cols, raw, len, err);
}

int pr_sink_split(pr_sink *k, pr_error *err)
{
    int rc = pr_sink_flush(k, err);
    if (rc < 0 || !k->split)
        return rc;
    return k->split(k->payload, k, err);
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
        k->warn(k->payload, &w);
    } else {
        char buf[2048];
        fprintf(stderr, "perfreport: warning: %s\n", pr_error_format(&w, buf, sizeof buf));
    }
}
