/* Loads per-sample points of a run for scatter charts. */
#include "analysis/points.h"
#include "model/xalloc.h"
#include <stdlib.h>
#include <string.h>

typedef struct loader {
    pr_points *p;
    size_t cap;
    int64_t from, to;
    uint64_t seen;
} loader;

/* A block's points: starts, latencies and outcomes read column by column. */
static int cb(const pr_block_cols *c, void *payload)
{
    loader *l = payload;
    pr_points *p = l->p;
    if (p->n + c->n > l->cap) {
        size_t cap = l->cap;
        p->t_ns = pr_xgrow(p->t_ns, &cap, p->n + c->n, sizeof *p->t_ns);
        p->latency_ns = pr_xrealloc(p->latency_ns, cap * sizeof *p->latency_ns);
        p->ok = pr_xrealloc(p->ok, cap);
        l->cap = cap;
    }
    pr_sample x;
    pr_sample_init(&x);
    for (size_t i = 0; i < c->n; i++) {
        int64_t start = c->vals[PR_COL_START] ? c->vals[PR_COL_START][i] : c->konst[PR_COL_START];
        if (start == PR_UNKNOWN || l->seen++ % p->stride != 0)
            continue;
        int64_t t = start - p->start_ns;
        if (t < l->from || t >= l->to)
            continue;
#define COL(k) (c->vals[k] ? c->vals[k][i] : c->konst[k])
        int64_t lat = COL(PR_COL_LATENCY);
        x.success = (uint8_t)COL(PR_COL_SUCCESS);
        x.status = (uint16_t)COL(PR_COL_STATUS);
        x.error = (uint32_t)COL(PR_COL_ERROR);
#undef COL
        p->t_ns[p->n] = t;
        p->latency_ns[p->n] = lat == PR_UNKNOWN ? -1 : lat;
        p->ok[p->n] = pr_sample_outcome(&x) != 0;
        p->n++;
    }
    return 0;
}

int pr_points_load(pr_store *st, int64_t run_id, int64_t from_ns, int64_t to_ns, pr_points *out,
                   pr_error *err)
{
    memset(out, 0, sizeof *out);
    pr_run *run;
    int rc = pr_store_load_run(st, run_id, &run, err);
    if (rc < 0)
        return rc;
    out->start_ns = run->start_ns == PR_UNKNOWN ? 0 : run->start_ns;
    loader l = {out, 0, from_ns == PR_UNKNOWN ? INT64_MIN : from_ns,
                to_ns == PR_UNKNOWN ? INT64_MAX : to_ns, 0};
    out->stride = run->samples > PR_POINTS_MAX
                      ? (uint64_t)((run->samples + PR_POINTS_MAX - 1) / PR_POINTS_MAX)
                      : 1;
    if (run->samples > 0) {
        l.cap = (size_t)(run->samples / (int64_t)out->stride + 1);
        out->t_ns = pr_xmalloc(l.cap * sizeof *out->t_ns);
        out->latency_ns = pr_xmalloc(l.cap * sizeof *out->latency_ns);
        out->ok = pr_xmalloc(l.cap);
    }
    pr_run_free(run);
    rc = pr_store_scan_cols(st, run_id,
                            PR_COLBIT(PR_COL_START) | PR_COLBIT(PR_COL_LATENCY) |
                                PR_COLBIT(PR_COL_SUCCESS) | PR_COLBIT(PR_COL_STATUS) |
                                PR_COLBIT(PR_COL_ERROR),
                            cb, &l, err);
    if (rc < 0)
        pr_points_dispose(out);
    return rc;
}

void pr_points_dispose(pr_points *p)
{
    free(p->t_ns);
    free(p->latency_ns);
    free(p->ok);
    memset(p, 0, sizeof *p);
}
