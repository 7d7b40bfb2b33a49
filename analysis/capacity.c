/* Capacity curves: knee detection, maximum sustainable throughput and the USL fit. */
#include "analysis/capacity.h"
#include "analysis/human.h"
#include "model/l10n.h"
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
static int linear_start(const double *N, const double *X, size_t n, const int free_[3],
                        double coef[3])
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

/* The starting point of the fit: a linear least-squares fit on N/X, the coefficients that come
 * out negative fixed at zero. Returns -1 when the system is degenerate. */
static int usl_start(const double *N, const double *X, size_t n, pr_usl *u)
{
    int free_[3] = {1, 1, 1};
    double coef[3];
    for (int attempt = 0; attempt < 3; attempt++) {
        if (linear_start(N, X, n, free_, coef) < 0)
            return -1;
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
    *u = (pr_usl){1 / coef[0], coef[1] / coef[0], coef[2] / coef[0], NAN, NAN, NAN, 0, 0, NAN, NAN,
                  NAN};
    if (u->sigma < 0)
        u->sigma = 0;
    if (u->kappa < 0)
        u->kappa = 0;
    return 0;
}

/* One damped step from u (J^T J + mu diag) d = J^T r with σ, κ >= 0: 1 when it lowered the sum
 * of squares *cur (u, *cur and *mu updated), 0 when no damping found a better point. */
static int usl_step(pr_usl *u, const double *N, const double *X, size_t n, double *mu, double *cur,
                    int *converged)
{
    double jtj[3][3] = {{0}}, jtr[3] = {0};
    for (size_t i = 0; i < n; i++) {
        double D = 1 + u->sigma * (N[i] - 1) + u->kappa * N[i] * (N[i] - 1);
        double f = u->lambda * N[i] / D, r = X[i] - f;
        double J[3] = {N[i] / D, -u->lambda * N[i] * (N[i] - 1) / (D * D),
                       -u->lambda * N[i] * N[i] * (N[i] - 1) / (D * D)};
        for (int a = 0; a < 3; a++) {
            jtr[a] += J[a] * r;
            for (int b = 0; b < 3; b++)
                jtj[a][b] += J[a] * J[b];
        }
    }
    for (int tries = 0; tries < 20; tries++) {
        double A[3][3], d[3];
        memcpy(A, jtj, sizeof A);
        for (int a = 0; a < 3; a++)
            A[a][a] += *mu * (jtj[a][a] > 0 ? jtj[a][a] : 1e-12);
        if (solve(A, jtr, 3, d) < 0)
            return 0;
        pr_usl t = *u;
        t.lambda += d[0];
        t.sigma = t.sigma + d[1] < 0 ? 0 : t.sigma + d[1];
        t.kappa = t.kappa + d[2] < 0 ? 0 : t.kappa + d[2];
        double s = t.lambda > 0 ? sse(&t, N, X, n) : INFINITY;
        if (t.lambda > 0 && s < *cur) {
            *converged = *cur - s <= 1e-12 * (s + 1e-300);
            *u = t;
            *cur = s;
            *mu /= 10;
            return 1;
        }
        *mu *= 10;
    }
    return 0;
}

/* R², the residuals and the peak of the fitted u (cur: its sum of squares). */
static void usl_quality(pr_usl *u, const double *N, const double *X, size_t n, double cur)
{
    double mean = 0, sst = 0;
    for (size_t i = 0; i < n; i++)
        mean += X[i];
    mean /= (double)n;
    for (size_t i = 0; i < n; i++)
        sst += (X[i] - mean) * (X[i] - mean);
    u->r2 = sst > 0 ? 1 - cur / sst : NAN;
    u->points = n;
    u->resid_se = sqrt(cur / (double)(n - PR_USL_PARAMS));
    u->max_resid = 0;
    u->max_resid_n = N[0];
    for (size_t i = 0; i < n; i++) {
        double r = X[i] - pr_usl_eval(u, N[i]);
        if (fabs(r) > fabs(u->max_resid)) {
            u->max_resid = r;
            u->max_resid_n = N[i];
        }
    }
    if (u->kappa > 0 && u->sigma < 1) {
        u->peak_n = sqrt((1 - u->sigma) / u->kappa);
        u->peak_x = pr_usl_eval(u, u->peak_n);
    }
}

/* The usable points (N > 0, X > 0) into N, X; returns how many, *distinct the distinct loads. */
static size_t usl_points(const double *N0, const double *X0, size_t n0, double *N, double *X,
                         size_t *distinct)
{
    size_t n = 0;
    for (size_t i = 0; i < n0; i++)
        if (isfinite(N0[i]) && N0[i] > 0 && isfinite(X0[i]) && X0[i] > 0) {
            N[n] = N0[i];
            X[n++] = X0[i];
        }
    *distinct = 0;
    for (size_t i = 0; i < n; i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = N[j] == N[i];
        *distinct += !seen;
    }
    return n;
}

int pr_usl_fit(const double *N0, const double *X0, size_t n0, pr_usl *out)
{
    memset(out, 0, sizeof *out);
    out->peak_n = out->peak_x = out->r2 = NAN;
    double *N = pr_xmalloc((n0 + 1) * sizeof *N), *X = pr_xmalloc((n0 + 1) * sizeof *X);
    size_t distinct, n = usl_points(N0, X0, n0, N, X, &distinct);
    pr_usl u;
    int rc = distinct > PR_USL_PARAMS ? usl_start(N, X, n, &u) : -1;
    if (rc == 0) {
        /* Levenberg-Marquardt on the throughput residuals */
        double mu = 1e-3, cur = sse(&u, N, X, n);
        int converged = 0;
        for (int it = 0; it < 200 && !converged && usl_step(&u, N, X, n, &mu, &cur, &converged);
             it++)
            u.iterations = it + 1;
        usl_quality(&u, N, X, n, cur);
        *out = u;
    }
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

/* The limits point i crosses (bits: 1 throughput, 2 SLO, 4 errors). */
enum { CROSS_THROUGHPUT = 1, CROSS_SLO = 2, CROSS_ERRORS = 4 };

static unsigned crossed(const pr_capacity_point *p, size_t i, const pr_capacity_opts *o)
{
    const pr_capacity_point *q = &p[i];
    unsigned c = 0;
    if (o->kind == PR_LOAD_KIND_RATE) {
        if (isfinite(q->throughput_per_s) && q->load > 0 &&
            q->throughput_per_s < o->follow_ratio * q->load)
            c |= CROSS_THROUGHPUT;
    } else if (i > 0 && p[i - 1].load > 0 && p[i - 1].throughput_per_s > 0 &&
               q->load > p[i - 1].load) {
        double dl = (q->load - p[i - 1].load) / p[i - 1].load;
        double dx = (q->throughput_per_s - p[i - 1].throughput_per_s) / p[i - 1].throughput_per_s;
        if (dx < o->marginal_ratio * dl)
            c |= CROSS_THROUGHPUT;
    }
    if (isfinite(o->slo_p99_ns) && isfinite(q->p99_ns) && q->p99_ns > o->slo_p99_ns)
        c |= CROSS_SLO;
    if (isfinite(q->error_ratio) && q->error_ratio > o->max_error_ratio)
        c |= CROSS_ERRORS;
    return c;
}

/* The knee object: which limits its point crossed, in words and with the numbers. */
static json_t *knee_json(const pr_capacity_point *q, long index, unsigned c,
                         const pr_capacity_opts *o)
{
    static const struct {
        unsigned bit;
        const char *name, *rate_reason, *other_reason;
    } lim[] = {
        {CROSS_THROUGHPUT, "throughput", N_("throughput below the offered rate"),
         N_("throughput stopped following the load")},
        {CROSS_SLO, "slo", N_("p99 above the SLO"), N_("p99 above the SLO")},
        {CROSS_ERRORS, "errors", N_("error ratio above the limit"),
         N_("error ratio above the limit")},
    };
    json_t *k = json_object(), *names = json_array();
    char reason[320] = "", detail[512] = "", h1[32], h2[32], part[192];
    for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++) {
        if (!(c & lim[i].bit))
            continue;
        json_array_append_new(names, json_string(lim[i].name));
        const char *r = _(o->kind == PR_LOAD_KIND_RATE ? lim[i].rate_reason : lim[i].other_reason);
        snprintf(reason + strlen(reason), sizeof reason - strlen(reason), "%s%s",
                 *reason ? _(", ") : "", r);
        if (lim[i].bit == CROSS_THROUGHPUT && o->kind == PR_LOAD_KIND_RATE)
            snprintf(part, sizeof part, _("throughput %s < %g%% of the offered %g/s"),
                     pr_human_rate(q->throughput_per_s, h1, sizeof h1), 100 * o->follow_ratio,
                     q->load);
        else if (lim[i].bit == CROSS_THROUGHPUT)
            snprintf(part, sizeof part, _("throughput %s grew less than %g× the load step"),
                     pr_human_rate(q->throughput_per_s, h1, sizeof h1), o->marginal_ratio);
        else if (lim[i].bit == CROSS_SLO)
            snprintf(part, sizeof part, _("p99 %s > SLO %s"),
                     pr_human_duration((int64_t)q->p99_ns, h1, sizeof h1),
                     pr_human_duration((int64_t)o->slo_p99_ns, h2, sizeof h2));
        else
            snprintf(part, sizeof part, _("errors %s > %s"),
                     pr_human_percent(q->error_ratio, h1, sizeof h1),
                     pr_human_percent(o->max_error_ratio, h2, sizeof h2));
        snprintf(detail + strlen(detail), sizeof detail - strlen(detail), "%s%s",
                 *detail ? _("; ") : "", part);
    }
    json_object_set_new(k, "index", json_integer(index));
    set_num(k, "load", q->load);
    set_num(k, "throughput_per_s", q->throughput_per_s);
    set_num(k, "p99_ns", q->p99_ns);
    json_object_set_new(k, "crossed", names);
    json_object_set_new(k, "reason", json_string(reason));
    json_object_set_new(k, "detail", json_string(detail));
    return k;
}

static json_t *points_json(const pr_capacity_point *p, size_t n, long knee,
                           const pr_capacity_opts *o)
{
    json_t *pts = json_array();
    char h[32];
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_object();
        json_object_set_new(e, "run_id", json_integer(p[i].run_id));
        json_object_set_new(e, "name", json_string(p[i].name ? p[i].name : ""));
        set_num(e, "load", p[i].load);
        json_object_set_new(e, "load_basis",
                            p[i].load_basis ? json_string(p[i].load_basis) : json_null());
        set_num(e, "throughput_per_s", p[i].throughput_per_s);
        json_object_set_new(e, "throughput",
                            json_string(pr_human_rate(p[i].throughput_per_s, h, sizeof h)));
        set_num(e, "p99_ns", p[i].p99_ns);
        json_object_set_new(e, "p99",
                            json_string(isfinite(p[i].p99_ns)
                                            ? pr_human_duration((int64_t)p[i].p99_ns, h, sizeof h)
                                            : "-"));
        set_num(e, "error_ratio", p[i].error_ratio);
        json_object_set_new(e, "error_pct",
                            json_string(pr_human_percent(p[i].error_ratio, h, sizeof h)));
        double eff = NAN;
        if (o->kind == PR_LOAD_KIND_RATE && p[i].load > 0)
            eff = p[i].throughput_per_s / p[i].load;
        else if (o->kind != PR_LOAD_KIND_RATE && p[0].load > 0 && p[0].throughput_per_s > 0 &&
                 p[i].load > 0)
            eff = (p[i].throughput_per_s / p[i].load) / (p[0].throughput_per_s / p[0].load);
        set_num(e, "efficiency", eff);
        json_object_set_new(e, "knee", json_boolean((long)i == knee));
        json_object_set_new(e, "sustainable", json_boolean(knee < 0 || (long)i < knee));
        json_array_append_new(pts, e);
    }
    return pts;
}

/* The USL fit (concurrency loads with enough points), else null and a note saying why. */
static void usl_json(json_t *doc, const pr_capacity_point *p, size_t n, const pr_capacity_opts *o)
{
    char note[400];
    pr_usl u;
    double *N = pr_xmalloc((n + 1) * sizeof *N), *X = pr_xmalloc((n + 1) * sizeof *X);
    for (size_t i = 0; i < n; i++) {
        N[i] = p[i].load;
        X[i] = p[i].throughput_per_s;
    }
    if (o->kind == PR_LOAD_KIND_RATE) {
        snprintf(note, sizeof note, "%s",
                 _("not fitted: the load is an offered rate; the USL "
                   "relates throughput to concurrency (closed model)"));
        json_object_set_new(doc, "usl", json_null());
    } else if (pr_usl_fit(N, X, n, &u) < 0) {
        snprintf(note, sizeof note,
                 _("not fitted: %zu point(s) for %d parameters (at least %d "
                   "distinct loads needed)"),
                 n, PR_USL_PARAMS, PR_USL_PARAMS + 1);
        json_object_set_new(doc, "usl", json_null());
    } else {
        json_t *j = json_object(), *curve = json_array(), *res = json_array();
        set_num(j, "lambda", u.lambda);
        set_num(j, "sigma", u.sigma);
        set_num(j, "kappa", u.kappa);
        set_num(j, "r2", u.r2);
        json_object_set_new(j, "points", json_integer((json_int_t)u.points));
        json_object_set_new(j, "degrees_of_freedom",
                            json_integer((json_int_t)(u.points - PR_USL_PARAMS)));
        set_num(j, "residual_se_per_s", u.resid_se);
        set_num(j, "max_residual_per_s", u.max_resid);
        set_num(j, "max_residual_load", u.max_resid_n);
        set_num(j, "peak_load", u.peak_n);
        set_num(j, "peak_throughput_per_s", u.peak_x);
        json_object_set_new(j, "method",
                            json_string(_("linear least squares on N/X, then "
                                          "Levenberg-Marquardt on X; sigma, kappa >= 0")));
        for (size_t i = 0; i < n; i++) {
            json_array_append_new(curve, json_real(pr_usl_eval(&u, N[i])));
            double r = X[i] - pr_usl_eval(&u, N[i]);
            json_array_append_new(res, isfinite(r) ? json_real(r) : json_null());
        }
        json_object_set_new(j, "fitted_per_s", curve);
        json_object_set_new(j, "residuals_per_s", res);
        json_object_set_new(doc, "usl", j);
        snprintf(note, sizeof note, _("fitted on %zu points, %zu degree(s) of freedom"), u.points,
                 u.points - PR_USL_PARAMS);
    }
    json_object_set_new(doc, "usl_note", json_string(note));
    free(N);
    free(X);
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
    json_object_set_new(doc, "load_kind",
                        json_string(o->kind == PR_LOAD_KIND_RATE ? "rate" : "concurrency"));
    json_object_set_new(doc, "load_source", json_string(o->load_source ? o->load_source : ""));
    json_object_set_new(doc, "efficiency",
                        json_string(o->kind == PR_LOAD_KIND_RATE
                                        ? _("throughput / offered rate")
                                        : _("(X/N) / (X0/N0), scaling against the first point")));
    set_num(doc, "slo_p99_ns", o->slo_p99_ns);
    set_num(doc, "max_error_ratio", o->max_error_ratio);
    /* knee: the first point that does not follow the load, breaks the SLO or errs too much */
    long knee = -1;
    unsigned kc = 0;
    for (size_t i = 0; i < n && knee < 0; i++)
        if ((kc = crossed(p, i, o)) != 0)
            knee = (long)i;
    /* maximum sustainable throughput: the best point before the knee within SLO and errors */
    long best = -1;
    for (size_t i = 0; i < n && (knee < 0 || (long)i < knee); i++) {
        if (crossed(p, i, o) & (CROSS_SLO | CROSS_ERRORS))
            continue;
        if (isfinite(p[i].throughput_per_s) &&
            (best < 0 || p[i].throughput_per_s > p[best].throughput_per_s))
            best = (long)i;
    }
    json_object_set_new(doc, "points", points_json(p, n, knee, o));
    json_object_set_new(doc, "knee", knee >= 0 ? knee_json(&p[knee], knee, kc, o) : json_null());
    if (best >= 0) {
        char h[32];
        json_t *b = json_object();
        json_object_set_new(b, "index", json_integer(best));
        set_num(b, "load", p[best].load);
        set_num(b, "throughput_per_s", p[best].throughput_per_s);
        json_object_set_new(b, "throughput",
                            json_string(pr_human_rate(p[best].throughput_per_s, h, sizeof h)));
        set_num(b, "p99_ns", p[best].p99_ns);
        json_object_set_new(doc, "max_sustainable", b);
    } else {
        json_object_set_new(doc, "max_sustainable", json_null());
        size_t known = 0;
        for (size_t i = 0; i < n; i++)
            known += isfinite(p[i].throughput_per_s);
        /* ab -g alone: no outcomes, no timing to a second: no throughput to rank */
        json_object_set_new(doc, "max_sustainable_note",
                            json_string(known ? _("the first load already failed")
                                              : _("no run's throughput is known")));
    }
    usl_json(doc, p, n, o);
    return doc;
}

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

void pr_capacity_point_of(pr_capacity_point *p, json_t *model, double load)
{
    json_t *st = json_object_get(model, "stats");
    memset(p, 0, sizeof *p);
    p->run_id = (int64_t)json_integer_value(json_object_get(model, "id"));
    p->name = json_string_value(json_object_get(model, "name"));
    p->load = load;
    const json_t *l = json_object_get(model, "load");
    double rate = num(l, "offered_rate_per_s"), conc = num(l, "concurrency");
    p->load_basis = json_string_value(json_object_get(
        l, isfinite(rate) && rate == load   ? "offered_rate_basis"
           : isfinite(conc) && conc == load ? "concurrency_basis"
                                            : "")); /* a tag's load: the tag says it */
    p->throughput_per_s = num(st, "throughput_per_s");
    p->p99_ns = num(json_object_get(st, "latency_ns"), "p99");
    p->error_ratio = num(st, "error_ratio");
    if (!isfinite(p->error_ratio) && isfinite(num(st, "success_ratio")))
        p->error_ratio = 1 - num(st, "success_ratio");
}
