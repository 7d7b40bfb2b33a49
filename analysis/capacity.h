/* Capacity analysis of a series of runs at increasing load: the curve, the knee, the maximum
 * sustainable throughput and a Universal Scalability Law fit (method: docs/metrics.md). */
#ifndef PR_CAPACITY_H
#define PR_CAPACITY_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "model/error.h"
#include "store/store.h"

/* Universal Scalability Law: X(N) = λN / (1 + σ(N−1) + κN(N−1)). */
typedef struct pr_usl {
    double lambda, sigma, kappa;
    double r2;          /* coefficient of determination of the fit on X */
    double peak_n;      /* N* = sqrt((1−σ)/κ); NAN when κ = 0 (no retrograde region) */
    double peak_x;      /* X(N*) */
    int iterations;     /* Levenberg-Marquardt iterations used */
    size_t points;      /* points fitted */
    double resid_se;    /* residual standard error sqrt(SSE / (points − 3)), X units */
    double max_resid;   /* the largest residual X_i − X(N_i) in magnitude (signed) */
    double max_resid_n; /* at this load */
} pr_usl;

/* Parameters of the USL: a fit needs more points (distinct loads) than this. */
#define PR_USL_PARAMS 3

/* Fits the USL to n points (N_i > 0, X_i >= 0) by least squares on X: a linear least-squares
 * start on N/X = 1/λ + (σ/λ)(N−1) + (κ/λ)N(N−1), then Levenberg-Marquardt on the sum of
 * squared throughput residuals, with σ, κ >= 0. Returns 0, or -1 with fewer usable points
 * (distinct loads) than PR_USL_PARAMS + 1 or a degenerate system. */
int pr_usl_fit(const double *n_load, const double *x, size_t n, pr_usl *out);
double pr_usl_eval(const pr_usl *u, double n_load);

typedef enum pr_load_kind {
    PR_LOAD_KIND_RATE = 0,    /* offered requests per second: throughput should equal it */
    PR_LOAD_KIND_CONCURRENCY, /* threads/connections (or any other quantity) */
} pr_load_kind;

typedef struct pr_capacity_point {
    int64_t run_id;
    const char *name; /* borrowed */
    double load;
    double throughput_per_s;
    double p99_ns;          /* NAN if unknown */
    double error_ratio;     /* NAN if unknown */
    const char *load_basis; /* where the run's offered rate or concurrency came from (borrowed
                             * from its model's load: "httperf --rate × --num-calls…"), or NULL */
} pr_capacity_point;

typedef struct pr_capacity_opts {
    pr_load_kind kind;
    const char *load_source; /* "offered_rate", "concurrency", "tag:KEY" (for the JSON) */
    double slo_p99_ns;       /* NAN = no SLO */
    double max_error_ratio;  /* default 0.01 */
    double follow_ratio;     /* rate loads: throughput >= this × load (default 0.9) */
    double marginal_ratio;   /* other loads: relative gain >= this × relative load step (0.5) */
} pr_capacity_opts;

void pr_capacity_opts_init(pr_capacity_opts *o);

/* Sorts the points by load (stable) and analyses them. Returns a new object:
 * {"points":[…], "knee":{…}|null, "max_sustainable":{…}|null, "usl":{…}|null, "usl_note"}.
 * Efficiency is throughput / load for a rate load, the scaling (X/N)/(X₀/N₀) otherwise. The
 * knee names every limit its point crossed ("crossed": throughput, slo, errors). The USL is
 * fitted only for a concurrency load with more distinct loads than parameters; "usl_note"
 * says why not otherwise. Loads should be distinct (the caller reports duplicates). */
json_t *pr_capacity_analyse(pr_capacity_point *pts, size_t n, const pr_capacity_opts *o);

/* A run's point at `load` from its report model (pr_report_run): throughput, p99 and the
 * error ratio (1 - success ratio where the model has only that); name borrowed from model. */
void pr_capacity_point_of(pr_capacity_point *p, json_t *model, double load);

/* ---- capacity of stored runs (analysis/capacity_runs.c, `perfreport capacity`) ---------- */

typedef struct pr_capacity_runs_opts {
    const char *load; /* "rate", "concurrency", "tag:KEY"; NULL: what every run records */
    int load_is_rate; /* a tag load holds an offered rate */
    char *const *by;  /* one series per value of these tags (none: one series) */
    size_t nby;
    pr_capacity_opts capacity; /* SLO and error limit; kind and load_source are set by the call */
    const char *load_name;     /* set by the call: the load column's title ("offered/s",
                                  "concurrency", the tag's KEY) */
} pr_capacity_runs_opts;

/* The capacity document of the runs ids[0..n): {"schema": "perfreport-capacity", "version": 1,
 * "series": [pr_capacity_analyse's object + "name" (the --by tag values joined by '/', null
 * without --by)]}, one series per distinct --by values in order of first appearance. Sets
 * o->capacity.kind, o->capacity.load_source and o->load_name. Returns 0 and *out (the
 * caller's), or a negative code with err set: a store error, a run without the load (PR_EUSAGE
 * naming the run), or two runs of one series at one load (PR_EUSAGE naming both and the tags
 * that tell them apart). */
int pr_capacity_runs(pr_store *st, const int64_t *ids, size_t n, pr_capacity_runs_opts *o,
                     json_t **out, pr_error *err);

#endif
