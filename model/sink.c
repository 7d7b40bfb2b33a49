/* Batching sink shared by every sample producer. */
#include "model/sink.h"
#include <stdarg.h>
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
}

int pr_sink_flush(pr_sink *k, pr_error *err)
{
    if (k->n == 0)
        return 0;
    size_t n = k->n;
    /* the run's bounds come from its samples, here and nowhere else */
    pr_run *run = k->run;
    for (size_t i = 0; i < n; i++) {
        const pr_sample *x = &k->buf[i];
        if (x->start_ns == PR_UNKNOWN)
            continue;
        if (run->start_ns == PR_UNKNOWN || x->start_ns < run->start_ns)
            run->start_ns = x->start_ns;
        int64_t e;
        if (__builtin_add_overflow(x->start_ns, x->latency_ns != PR_UNKNOWN ? x->latency_ns : 0, &e))
            e = x->latency_ns > 0 ? INT64_MAX : x->start_ns; /* hostile values: saturate */
        if (run->end_ns == PR_UNKNOWN || e > run->end_ns)
            run->end_ns = e;
    }
    k->n = 0;
    return k->push(k->run, k->buf, n, err, k->payload);
}

int pr_sink_split(pr_sink *k, pr_error *err)
{
    int rc = pr_sink_flush(k, err);
    if (rc < 0 || !k->split)
        return rc;
    return k->split(k, err, k->payload);
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
        fprintf(stderr, "perfreport: warning: %s\n", pr_error_format(&w, buf, sizeof buf));
    }
}
