/* The capacity of stored runs: each run's report model, its load and series, one capacity
 * analysis (analysis/capacity.c) per series. */
#include "analysis/capacity.h"
#include "analysis/report.h"
#include "model/buf.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct row {
    json_t *model;
    double load;
    char *series; /* NULL without --by */
} row;

typedef struct runs {
    pr_capacity_runs_opts *o;
    const int64_t *ids;
    size_t n;
    row *rows;
} runs;

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *name_of(const row *r)
{
    return json_string_value(json_object_get(r->model, "name"));
}

/* The series name of a run: its --by tag values joined by '/' ("(no KEY)" for a missing one). */
static char *series_name(const pr_capacity_runs_opts *o, json_t *tags)
{
    pr_buf b = PR_BUF_INIT;
    for (size_t k = 0; k < o->nby; k++) {
        const char *v = json_string_value(json_object_get(tags, o->by[k]));
        if (v)
            pr_buf_printf(&b, "%s%s", k ? "/" : "", v);
        else
            pr_buf_printf(&b, "%s(no %s)", k ? "/" : "", o->by[k]);
    }
    char *r = pr_buf_steal(&b);
    return r ? r : pr_xstrdup("");
}

/* Loads each run's model, its series and (for --load tag:KEY) its load. */
static int load_rows(pr_store *st, runs *R, int *all_rate, int *all_conc, pr_error *err)
{
    const pr_capacity_runs_opts *o = R->o;
    pr_report_opts ro;
    pr_report_opts_init(&ro);
    ro.timeseries = 0;
    ro.histogram = 0;
    *all_rate = *all_conc = 1;
    for (size_t i = 0; i < R->n; i++) {
        int rc = pr_report_run(st, R->ids[i], &ro, &R->rows[i].model, err);
        if (rc < 0)
            return rc;
        json_t *m = R->rows[i].model, *tags = json_object_get(m, "tags");
        *all_rate &= num(m, "offered_rate_per_s") > 0;
        *all_conc &= num(m, "concurrency") > 0;
        if (o->nby)
            R->rows[i].series = series_name(o, tags);
        if (o->load && !strncmp(o->load, "tag:", 4)) {
            const char *v = json_string_value(json_object_get(tags, o->load + 4));
            char *end = NULL;
            R->rows[i].load = v ? strtod(v, &end) : NAN;
            if (!v || end == v || !isfinite(R->rows[i].load))
                return pr_error_set(err, PR_EUSAGE, NULL, 0, 0, "run %lld (%s): tag '%s' %s",
                                    (long long)R->ids[i], name_of(&R->rows[i]), o->load + 4,
                                    v ? "is not a number" : "is missing");
        }
    }
    return 0;
}

/* The load of every row and its kind: --load, else what every run records. */
static int choose_load(runs *R, int all_rate, int all_conc, pr_error *err)
{
    pr_capacity_runs_opts *o = R->o;
    const char *load = o->load;
    o->capacity.kind = PR_LOAD_KIND_CONCURRENCY;
    o->load_name = "load";
    if (load && !strncmp(load, "tag:", 4)) {
        o->capacity.kind = o->load_is_rate ? PR_LOAD_KIND_RATE : PR_LOAD_KIND_CONCURRENCY;
        o->capacity.load_source = load;
        o->load_name = load + 4;
        return 0;
    }
    int rate = (!load && all_rate) || (load && !strcmp(load, "rate"));
    int conc = !rate && ((!load && all_conc) || (load && !strcmp(load, "concurrency")));
    if (!rate && !conc)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            "the runs do not all record an offered rate or a concurrency: name "
                            "the load with --load tag:KEY (e.g. perfreport tag RUN rate=500)");
    if ((rate && !all_rate) || (conc && !all_conc))
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            "--load %s: some runs have no %s (use --load tag:KEY)", load,
                            rate ? "offered rate" : "concurrency");
    o->capacity.kind = rate ? PR_LOAD_KIND_RATE : PR_LOAD_KIND_CONCURRENCY;
    o->capacity.load_source = rate ? "offered_rate" : "concurrency";
    o->load_name = rate ? "offered/s" : "concurrency";
    for (size_t i = 0; i < R->n; i++)
        R->rows[i].load = num(R->rows[i].model, rate ? "offered_rate_per_s" : "concurrency");
    return 0;
}

/* The tags (other than --by's) whose values differ between two runs, ","-joined into buf. */
static void tags_differing(json_t *ta, json_t *tb, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = 0;
    for (int side = 0; side < 2; side++) {
        const char *k;
        json_t *v;
        json_object_foreach (side ? tb : ta, k, v) {
            json_t *w = json_object_get(side ? ta : tb, k);
            if ((w && json_equal(v, w)) || (side && json_object_get(ta, k)))
                continue;
            int n = snprintf(buf + o, size - o, "%s%s", o ? "," : "", k);
            if (n < 0 || (size_t)n >= size - o)
                return;
            o += (size_t)n;
        }
    }
}

/* Two runs of one series at one load would be mixed silently: the error naming them. */
static int conflict(const runs *R, size_t i, size_t j, pr_error *err)
{
    const row *a = &R->rows[i], *b = &R->rows[j];
    char diff[256], where[160];
    tags_differing(json_object_get(a->model, "tags"), json_object_get(b->model, "tags"), diff,
                   sizeof diff);
    snprintf(where, sizeof where, "%s%s", a->series ? "series " : "one series",
             a->series ? a->series : "");
    if (!*diff)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            "runs %lld (%s) and %lld (%s) are both at load %g in %s; a capacity "
                            "curve takes one run per load: select one of them (or tell them "
                            "apart with a tag and --by)",
                            (long long)R->ids[i], name_of(a), (long long)R->ids[j], name_of(b),
                            a->load, where);
    pr_buf by = PR_BUF_INIT;
    for (size_t q = 0; q < R->o->nby; q++)
        pr_buf_printf(&by, "%s,", R->o->by[q]);
    pr_buf_puts(&by, diff);
    int rc = pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                          "runs %lld (%s) and %lld (%s) are both at load %g in %s; a capacity "
                          "curve takes one run per load. They differ in %s: keep them apart "
                          "with --by tag:%s, or select one of them",
                          (long long)R->ids[i], name_of(a), (long long)R->ids[j], name_of(b),
                          a->load, where, diff, by.p);
    pr_buf_dispose(&by);
    return rc;
}

static int check_conflicts(const runs *R, const size_t *idx, size_t k, pr_error *err)
{
    for (size_t i = 0; i < k; i++)
        for (size_t j = i + 1; j < k; j++)
            if (R->rows[idx[i]].load == R->rows[idx[j]].load)
                return conflict(R, idx[i], idx[j], err);
    return 0;
}

/* One analysis per series (distinct --by values in order of first appearance). */
static int build_series(const runs *R, json_t *series, pr_error *err)
{
    size_t *idx = pr_xcalloc(R->n + 1, sizeof *idx);
    int rc = 0, by = R->o->nby > 0;
    for (size_t i = 0; i < R->n && rc == 0; i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = by && !strcmp(R->rows[j].series, R->rows[i].series);
        if (seen || (!by && i))
            continue;
        size_t k = 0;
        for (size_t j = i; j < R->n; j++)
            if (!by || !strcmp(R->rows[j].series, R->rows[i].series))
                idx[k++] = j;
        if ((rc = check_conflicts(R, idx, k, err)) < 0)
            break;
        pr_capacity_point *pts = pr_xcalloc(k, sizeof *pts);
        for (size_t q = 0; q < k; q++)
            pr_capacity_point_of(&pts[q], R->rows[idx[q]].model, R->rows[idx[q]].load);
        json_t *a = pr_capacity_analyse(pts, k, &R->o->capacity);
        json_object_set_new(a, "name", by ? json_string(R->rows[i].series) : json_null());
        json_array_append_new(series, a);
        free(pts);
    }
    free(idx);
    return rc;
}

int pr_capacity_runs(pr_store *st, const int64_t *ids, size_t n, pr_capacity_runs_opts *o,
                     json_t **out, pr_error *err)
{
    runs R = {o, ids, n, pr_xcalloc(n + 1, sizeof *R.rows)};
    int all_rate, all_conc;
    int rc = load_rows(st, &R, &all_rate, &all_conc, err);
    if (rc == 0)
        rc = choose_load(&R, all_rate, all_conc, err);
    json_t *doc = json_object(), *series = json_array();
    json_object_set_new(doc, "schema", json_string("perfreport-capacity"));
    json_object_set_new(doc, "version", json_integer(1));
    json_object_set_new(doc, "series", series);
    if (rc == 0)
        rc = build_series(&R, series, err);
    for (size_t i = 0; i < n; i++) {
        json_decref(R.rows[i].model);
        free(R.rows[i].series);
    }
    free(R.rows);
    if (rc < 0) {
        json_decref(doc);
        return rc;
    }
    *out = doc;
    return 0;
}
