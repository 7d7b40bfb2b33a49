/* Capacity curves: knee detection, maximum sustainable throughput and the USL fit. */
#include "analysis/capacity.h"
#include "analysis/human.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Solves the k×k system a·x = b (k <= 3) by Gaussian elimination with partial pivoting.
 * Returns -1 when singular. */
static int solve(double a[3][3], double b[3], int k, double x[3])
{
    double m[3][4];
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < k; j++)
            m[i][j] = a[i][j];
        m[i][k] = b[i];
    }
    for (int c = 0; c < k; c++) {
        int p = c;
        for (int r = c + 1; r < k; r++)
            if (fabs(m[r][c]) > fabs(m[p][c]))
                p = r;
        if (fabs(m[p][c]) < 1e-300)
            return -1;
        for (int j = 0; j <= k; j++) {
            double t = m[c][j];
            m[c][j] = m[p][j];
            m[p][j] = t;
        }
        for (int r = 0; r < k; r++) {
            if (r == c)
                continue;
            double f = m[r][c] / m[c][c];
            for (int j = c; j <= k; j++)
                m[r][j] -= f * m[c][j];
        }
    }
    for (int i = 0; i < k; i++) {
        x[i] = m[i][k] / m[i][i];
        if (!isfinite(x[i]))
            return -1;
    }
    return 0;
}

double pr_usl_eval(const pr_usl *u, double N)
{
    return u->lambda * N / (1 + u->sigma * (N - 1) + u->kappa * N * (N - 1));
}

static double sse(const pr_usl *u, const double *N, const double *X, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        double r = X[i] - pr_usl_eval(u, N[i]);
        s += r * r;
    }
    return s;
}

/* Linear least squares of y = N/X on the basis functions not fixed at zero
 * (free[0]: 1, free[1]: N−1, free[2]: N(N−1)). */
static int linear_start(const double *N, const double *X, size_t n, const int free_[3], double coef[3])
{
    double a[3][3] = {{0}}, b[3] = {0}, x[3];
    int idx[3], k = 0;
    for (int j = 0; j < 3; j++)
        if (free_[j])
            idx[k++] = j;
    for (size_t i = 0; i < n; i++) {
        double f[3] = {1, N[i] - 1, N[i] * (N[i] - 1)}, y = N[i] / X[i];
        for (int r = 0; r < k; r++) {
            b[r] += f[idx[r]] * y;
            for (int c = 0; c < k; c++)
                a[r][c] += f[idx[r]] * f[idx[c]];
        }
    }
    if (solve(a, b, k, x) < 0)
        return -1;
    coef[0] = coef[1] = coef[2] = 0;
    for (int r = 0; r < k; r++)
        coef[idx[r]] = x[r];
    return 0;
}

int pr_usl_fit(const double *N0, const double *X0, size_t n0, pr_usl *out)
{
    memset(out, 0, sizeof *out);
    out->peak_n = out->peak_x = out->r2 = NAN;
    double *N = pr_xmalloc((n0 + 1) * sizeof *N), *X = pr_xmalloc((n0 + 1) * sizeof *X);
    size_t n = 0;
    for (size_t i = 0; i < n0; i++)
        if (isfinite(N0[i]) && N0[i] > 0 && isfinite(X0[i]) && X0[i] > 0) {
            N[n] = N0[i];
            X[n++] = X0[i];
        }
    int rc = -1;
    if (n < 3)
        goto done;
    /* start: full linear fit; coefficients that come out negative are fixed at zero */
    int free_[3] = {1, 1, 1};
    double coef[3];
    for (int attempt = 0; attempt < 3; attempt++) {
        if (linear_start(N, X, n, free_, coef) < 0)
            goto done;
        int changed = 0;
        for (int j = 1; j < 3; j++)
            if (free_[j] && coef[j] < 0) {
                free_[j] = 0;
                changed = 1;
            }
        if (!changed)
            break;
    }
    if (!(coef[0] > 0)) {
        /* fall back: λ from the first point, no contention */
        coef[0] = N[0] / X[0];
        coef[1] = coef[2] = 0;
    }
    pr_usl u = {1 / coef[0], coef[1] / coef[0], coef[2] / coef[0], NAN, NAN, NAN, 0};
    if (u.sigma < 0)
        u.sigma = 0;
    if (u.kappa < 0)
        u.kappa = 0;
    /* Levenberg-Marquardt on the throughput residuals */
    double mu = 1e-3, cur = sse(&u, N, X, n);
    for (int it = 0; it < 200; it++) {
        double jtj[3][3] = {{0}}, jtr[3] = {0};
        for (size_t i = 0; i < n; i++) {
            double D = 1 + u.sigma * (N[i] - 1) + u.kappa * N[i] * (N[i] - 1);
            double f = u.lambda * N[i] / D, r = X[i] - f;
            double J[3] = {N[i] / D, -u.lambda * N[i] * (N[i] - 1) / (D * D),
                           -u.lambda * N[i] * N[i] * (N[i] - 1) / (D * D)};
            for (int a = 0; a < 3; a++) {
                jtr[a] += J[a] * r;
                for (int b = 0; b < 3; b++)
                    jtj[a][b] += J[a] * J[b];
            }
        }
        int improved = 0;
        for (int tries = 0; tries < 20 && !improved; tries++) {
            double A[3][3], d[3];
            memcpy(A, jtj, sizeof A);
            for (int a = 0; a < 3; a++)
                A[a][a] += mu * (jtj[a][a] > 0 ? jtj[a][a] : 1e-12);
            if (solve(A, jtr, 3, d) < 0)
                break;
            pr_usl t = u;
            t.lambda += d[0];
            t.sigma += d[1];
            t.kappa += d[2];
            if (t.sigma < 0)
                t.sigma = 0;
            if (t.kappa < 0)
                t.kappa = 0;
            if (t.lambda <= 0) {
                mu *= 10;
                continue;
            }
            double s = sse(&t, N, X, n);
            if (s < cur) {
                double gain = cur - s;
                u = t;
                cur = s;
                mu /= 10;
                improved = 1;
                out->iterations = it + 1;
                if (gain <= 1e-12 * (cur + 1e-300))
                    it = 1000; /* converged */
            } else {
                mu *= 10;
            }
        }
        if (!improved)
            break;
    }
    double mean = 0, sst = 0;
    for (size_t i = 0; i < n; i++)
        mean += X[i];
    mean /= (double)n;
    for (size_t i = 0; i < n; i++)
        sst += (X[i] - mean) * (X[i] - mean);
    u.r2 = sst > 0 ? 1 - cur / sst : NAN;
    if (u.kappa > 0 && u.sigma < 1) {
        u.peak_n = sqrt((1 - u.sigma) / u.kappa);
        u.peak_x = pr_usl_eval(&u, u.peak_n);
    }
    u.iterations = out->iterations;
    *out = u;
    rc = 0;
done:
    free(N);
    free(X);
    return rc;
}

void pr_capacity_opts_init(pr_capacity_opts *o)
{
    memset(o, 0, sizeof *o);
    o->kind = PR_LOAD_KIND_RATE;
    o->load_source = "offered_rate";
    o->slo_p99_ns = NAN;
    o->max_error_ratio = 0.01;
    o->follow_ratio = 0.9;
    o->marginal_ratio = 0.5;
}

static void set_num(json_t *o, const char *k, double v)
{
    json_object_set_new(o, k, isfinite(v) ? json_real(v) : json_null());
}

static int cmp_point(const void *x, const void *y)
{
    const pr_capacity_point *a = x, *b = y;
    if (a->load != b->load)
        return a->load < b->load ? -1 : 1;
    return (a->run_id > b->run_id) - (a->run_id < b->run_id);
}

json_t *pr_capacity_analyse(pr_capacity_point *p, size_t n, const pr_capacity_opts *o)
{
    pr_capacity_opts def;
    if (!o) {
        pr_capacity_opts_init(&def);
        o = &def;
    }
    qsort(p, n, sizeof *p, cmp_point);
    json_t *doc = json_object();
    json_object_set_new(doc, "load_kind", json_string(o->kind == PR_LOAD_KIND_RATE ? "rate" : "concurrency"));
    json_object_set_new(doc, "load_source", json_string(o->load_source ? o->load_source : ""));
    set_num(doc, "slo_p99_ns", o->slo_p99_ns);
    set_num(doc, "max_error_ratio", o->max_error_ratio);
    /* knee: the first point that does not follow the load, breaks the SLO or errs too much */
    long knee = -1;
    const char *reason = NULL;
    for (size_t i = 0; i < n && knee < 0; i++) {
        const pr_capacity_point *q = &p[i];
        if (o->kind == PR_LOAD_KIND_RATE) {
            if (isfinite(q->throughput_per_s) && q->load > 0 &&
                q->throughput_per_s < o->follow_ratio * q->load) {
                knee = (long)i;
                reason = "throughput below the offered rate";
            }
        } else if (i > 0 && p[i - 1].load > 0 && p[i - 1].throughput_per_s > 0 &&
                   q->load > p[i - 1].load) {
            double dl = (q->load - p[i - 1].load) / p[i - 1].load;
            double dx = (q->throughput_per_s - p[i - 1].throughput_per_s) / p[i - 1].throughput_per_s;
            if (dx < o->marginal_ratio * dl) {
                knee = (long)i;
                reason = "throughput stopped following the load";
            }
        }
        if (knee < 0 && isfinite(o->slo_p99_ns) && isfinite(q->p99_ns) && q->p99_ns > o->slo_p99_ns) {
            knee = (long)i;
            reason = "p99 above the SLO";
        }
        if (knee < 0 && isfinite(q->error_ratio) && q->error_ratio > o->max_error_ratio) {
            knee = (long)i;
            reason = "error ratio above the limit";
        }
    }
    /* maximum sustainable throughput: the best point before the knee within SLO and errors */
    long best = -1;
    for (size_t i = 0; i < n && (knee < 0 || (long)i < knee); i++) {
        const pr_capacity_point *q = &p[i];
        if (isfinite(o->slo_p99_ns) && isfinite(q->p99_ns) && q->p99_ns > o->slo_p99_ns)
            continue;
        if (isfinite(q->error_ratio) && q->error_ratio > o->max_error_ratio)
            continue;
        if (isfinite(q->throughput_per_s) && (best < 0 || q->throughput_per_s > p[best].throughput_per_s))
            best = (long)i;
    }
    json_t *pts = json_array();
    char h[32];
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_object();
        json_object_set_new(e, "run_id", json_integer(p[i].run_id));
        json_object_set_new(e, "name", json_string(p[i].name ? p[i].name : ""));
        set_num(e, "load", p[i].load);
        set_num(e, "throughput_per_s", p[i].throughput_per_s);
        json_object_set_new(e, "throughput", json_string(pr_human_rate(p[i].throughput_per_s, h)));
        set_num(e, "p99_ns", p[i].p99_ns);
        json_object_set_new(e, "p99", json_string(isfinite(p[i].p99_ns)
                                                      ? pr_human_duration((int64_t)p[i].p99_ns, h) : "-"));
        set_num(e, "error_ratio", p[i].error_ratio);
        json_object_set_new(e, "error_pct", json_string(pr_human_percent(p[i].error_ratio, h)));
        set_num(e, "efficiency", p[0].load > 0 && p[0].throughput_per_s > 0 && p[i].load > 0
                                     ? (p[i].throughput_per_s / p[0].throughput_per_s) / (p[i].load / p[0].load)
                                     : NAN);
        json_object_set_new(e, "knee", json_boolean((long)i == knee));
        json_object_set_new(e, "sustainable", json_boolean(knee < 0 || (long)i < knee));
        json_array_append_new(pts, e);
    }
    json_object_set_new(doc, "points", pts);
    if (knee >= 0) {
        json_t *k = json_object();
        json_object_set_new(k, "index", json_integer(knee));
        set_num(k, "load", p[knee].load);
        set_num(k, "throughput_per_s", p[knee].throughput_per_s);
        set_num(k, "p99_ns", p[knee].p99_ns);
        json_object_set_new(k, "reason", json_string(reason));
        json_object_set_new(doc, "knee", k);
    } else {
        json_object_set_new(doc, "knee", json_null());
    }
    if (best >= 0) {
        json_t *b = json_object();
        json_object_set_new(b, "index", json_integer(best));
        set_num(b, "load", p[best].load);
        set_num(b, "throughput_per_s", p[best].throughput_per_s);
        json_object_set_new(b, "throughput", json_string(pr_human_rate(p[best].throughput_per_s, h)));
        set_num(b, "p99_ns", p[best].p99_ns);
        json_object_set_new(doc, "max_sustainable", b);
    } else {
        json_object_set_new(doc, "max_sustainable", json_null());
    }
    double *N = pr_xmalloc((n + 1) * sizeof *N), *X = pr_xmalloc((n + 1) * sizeof *X);
    for (size_t i = 0; i < n; i++) {
        N[i] = p[i].load;
        X[i] = p[i].throughput_per_s;
    }
    pr_usl u;
    if (pr_usl_fit(N, X, n, &u) == 0) {
        json_t *j = json_object();
        set_num(j, "lambda", u.lambda);
        set_num(j, "sigma", u.sigma);
        set_num(j, "kappa", u.kappa);
        set_num(j, "r2", u.r2);
        set_num(j, "peak_load", u.peak_n);
        set_num(j, "peak_throughput_per_s", u.peak_x);
        json_object_set_new(j, "method", json_string("linear least squares on N/X, then "
                                                     "Levenberg-Marquardt on X; sigma, kappa >= 0"));
        json_t *curve = json_array();
        for (size_t i = 0; i < n; i++)
            json_array_append_new(curve, json_real(pr_usl_eval(&u, N[i])));
        json_object_set_new(j, "fitted_per_s", curve);
        json_object_set_new(doc, "usl", j);
    } else {
        json_object_set_new(doc, "usl", json_null());
    }
    free(N);
    free(X);
    return doc;
}
