/* Feeds run_stats and run_points (behind the run_summary and run_series views) from the
 * report model of each changed run, so SQL readers (Grafana) see the same numbers as summary. */
#include "cli/views.h"
#include "analysis/report.h"
#include "analysis/view_stats.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdlib.h>

static int64_t int_or_unknown(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : PR_UNKNOWN;
}

static double real_or_nan(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The run's headline figures from its report model object. */
static void headline(json_t *run, pr_store_stats *s)
{
    json_t *st = json_object_get(run, "stats");
    json_t *lat = json_object_get(st, "latency_ns");
    s->requests = int_or_unknown(st, "requests");
    s->successes = int_or_unknown(st, "successes");
    s->errors = int_or_unknown(st, "errors");
    s->error_ratio = real_or_nan(st, "error_ratio");
    s->duration_ns = int_or_unknown(st, "duration_ns");
    s->rate_per_s = real_or_nan(st, "rate_per_s");
    s->throughput_per_s = real_or_nan(st, "throughput_per_s");
    s->apdex = real_or_nan(json_object_get(st, "apdex"), "score");
    s->min_ns = int_or_unknown(lat, "min");
    s->mean_ns = int_or_unknown(lat, "mean");
    s->p50_ns = int_or_unknown(lat, "p50");
    s->p90_ns = int_or_unknown(lat, "p90");
    s->p95_ns = int_or_unknown(lat, "p95");
    s->p99_ns = int_or_unknown(lat, "p99");
    s->p999_ns = int_or_unknown(lat, "p99_9");
    s->max_ns = int_or_unknown(lat, "max");
}

/* The time series points (absolute interval starts); *out is malloc'd. */
static size_t series(json_t *run, pr_store_stats *s, pr_store_point **out)
{
    json_t *ts = json_object_get(run, "timeseries");
    json_t *pts = json_object_get(ts, "points");
    int64_t t0 = int_or_unknown(ts, "start_ns");
    size_t n = json_array_size(pts);
    s->interval_ns = int_or_unknown(ts, "interval_ns");
    *out = pr_xcalloc(n ? n : 1, sizeof **out);
    for (size_t i = 0; i < n; i++) {
        json_t *p = json_array_get(pts, i);
        pr_store_point *q = &(*out)[i];
        int64_t t = int_or_unknown(p, "t_ns");
        q->t_ns = t0 == PR_UNKNOWN || t == PR_UNKNOWN ? PR_UNKNOWN : t0 + t;
        q->requests = int_or_unknown(p, "requests");
        q->successes = int_or_unknown(p, "successes");
        q->errors = int_or_unknown(p, "errors");
        q->bytes_in = int_or_unknown(p, "bytes_in");
        q->throughput_per_s = real_or_nan(p, "throughput_per_s");
        q->rate_per_s = real_or_nan(p, "rate_per_s");
        q->p50_ns = int_or_unknown(p, "p50_ns");
        q->p90_ns = int_or_unknown(p, "p90_ns");
        q->p99_ns = int_or_unknown(p, "p99_ns");
        q->max_ns = int_or_unknown(p, "max_ns");
    }
    return n;
}

int pr_cli_view_ready_from(pr_store *st, int64_t id, pr_view_feed *feed, pr_cli_view_ready *out)
{
    pr_run *run = NULL;
    pr_error err;
    pr_error_clear(&err);
    if (pr_store_load_run(st, id, &run, &err) < 0)
        return 0; /* the views' update reports it */
    pr_store_point *pts = NULL;
    out->s.basis_samples = run->samples;
    int got = pr_view_feed_finish(feed, run, &out->s, &pts);
    if (got) {
        out->id = id;
        out->points = pts;
        out->start_ns = run->start_ns;
        out->end_ns = run->end_ns;
    }
    pr_run_free(run);
    return got;
}

/* The figures computed at ingest for this run as it is now, or NULL. */
static pr_cli_view_ready *ready_for(const pr_run *run, pr_cli_view_ready *ready, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (ready[i].id == run->id && ready[i].s.basis_samples == run->samples &&
            ready[i].start_ns == run->start_ns && ready[i].end_ns == run->end_ns)
            return &ready[i];
    return NULL;
}

static int update_one(pr_store *st, int64_t id, pr_cli_view_ready *ready, size_t nready,
                      pr_error *err)
{
    pr_report_opts o;
    pr_report_opts_init(&o);
    o.histogram = 0;
    o.findings = 0;
    o.rows = 0; /* the views hold the run's figures and series, not its labels */
    /* the sample count before the analysis reads them: if it changes meanwhile, the figures
     * are not stored (the writer of the change stores its own) */
    pr_run *stored = NULL;
    int rc = pr_store_load_run(st, id, &stored, err);
    if (rc < 0)
        return rc;
    pr_cli_view_ready *r = ready_for(stored, ready, nready);
    if (r) {
        pr_run_free(stored);
        return pr_store_put_stats(st, id, &r->s, err);
    }
    pr_store_stats s;
    s.basis_samples = stored->samples;
    pr_store_point *pts = NULL;
    /* the figures straight from the columns where they are the model's (most runs) */
    rc = pr_view_stats(st, stored, &s, &pts, err);
    pr_run_free(stored);
    if (rc != 0) {
        if (rc > 0)
            rc = pr_store_put_stats(st, id, &s, err);
        free(pts);
        return rc;
    }
    json_t *run = NULL;
    if ((rc = pr_report_run(st, id, &o, &run, err)) < 0)
        return rc;
    headline(run, &s);
    s.npoints = series(run, &s, &pts);
    s.points = pts;
    rc = pr_store_put_stats(st, id, &s, err);
    free(pts);
    json_decref(run);
    return rc;
}

int pr_cli_update_views(pr_store *st, const int64_t *ids, size_t n)
{
    return pr_cli_update_views_ready(st, ids, n, NULL, 0);
}

int pr_cli_update_views_ready(pr_store *st, const int64_t *ids, size_t n, pr_cli_view_ready *ready,
                              size_t nready)
{
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = ids[j] == ids[i];
        pr_error err;
        pr_error_clear(&err);
        if (!seen && update_one(st, ids[i], ready, nready, &err) < 0) {
            pr_cli_print_error(&err);
            pr_cli_errorf("run %lld is stored, but its figures in the run_summary and "
                          "run_series views are not",
                          (long long)ids[i]);
            rc = PR_EXIT_ERROR;
        }
    }
    for (size_t i = 0; i < nready; i++)
        free(ready[i].points);
    return rc;
}
