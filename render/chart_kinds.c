/* Chart kinds: percentiles, throughput, status codes, distributions, labels, comparisons, capacity. */
#include "render/chart_priv.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/xalloc.h"

static const rgb INK = {0.13, 0.13, 0.13};
static const rgb INK2 = {0.4, 0.4, 0.4};

static int okd(const double *a, size_t i)
{
    return a && isfinite(a[i]) && a[i] >= 0;
}

static int okl(const int64_t *a, size_t i)
{
    return a && a[i] >= 0;
}

/* Stroke a polyline through (xs[i], ys[i]) that breaks where valid[i] is 0. */
static void polyline(pr_canvas *cv, size_t n, const double *xs, const double *ys,
                     const unsigned char *valid, rgb c, double width, int dashed, int dots)
{
    cairo_t *cr = cv->cr;
    cairo_save(cr);
    cv_colour(cv, c, 1);
    cairo_set_line_width(cr, width);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    if (dashed) {
        double d[] = {6, 4};
        cairo_set_dash(cr, d, 2, 0);
    }
    int pen = 0;
    for (size_t i = 0; i < n; i++) {
        if (!valid[i]) {
            pen = 0;
            continue;
        }
        if (pen)
            cairo_line_to(cr, xs[i], ys[i]);
        else
            cairo_move_to(cr, xs[i], ys[i]);
        /* an isolated valid point still shows */
        if (!pen && (i + 1 >= n || !valid[i + 1]))
            cairo_line_to(cr, xs[i] + 0.01, ys[i]);
        pen = 1;
    }
    cairo_stroke(cr);
    if (dots) {
        cairo_set_dash(cr, NULL, 0, 0);
        for (size_t i = 0; i < n; i++) {
            if (!valid[i])
                continue;
            cairo_arc(cr, xs[i], ys[i], width + 1.5, 0, 2 * M_PI);
            cairo_fill(cr);
        }
    }
    cairo_restore(cr);
}

/* ---- latency percentiles over time ------------------------------------------------------ */

static void draw_percentiles(pr_canvas *cv, const pr_chart_input *in)
{
    const pr_chart_timeseries *ts = in->ts;
    const int64_t *ser[4] = {ts->p50_ns, ts->p90_ns, ts->p99_ns, ts->max_ns};
    static const char *const names[4] = {"p50", "p90", "p99", NC_("series", "max")};
    const rgb cols[4] = {PR_OI_BLUE, PR_OI_GREEN, PR_OI_ORANGE, PR_OI_PURPLE};
    double lo = INFINITY, hi = 0, tmax = 0;
    size_t nvalid = 0;
    double half = ts->interval_ns > 0 ? ts->interval_ns / 2.0 : 0;
    for (size_t i = 0; i < ts->n; i++) {
        if (ts->t_ns[i] < 0 ||
            !cv_in_window(cv, (double)ts->t_ns[i], (double)ts->t_ns[i] + 2 * half))
            continue;
        double te = (double)ts->t_ns[i] + 2 * half;
        if (te > tmax)
            tmax = te;
        for (int k = 0; k < 4; k++) {
            if (!okl(ser[k], i))
                continue;
            double v = (double)ser[k][i];
            nvalid++;
            if (v > 0 && v < lo)
                lo = v;
            if (v > hi)
                hi = v;
        }
    }
    cv_title(cv, _("Latency percentiles over time"));
    for (int k = 0; k < 4; k++) {
        if (!ser[k])
            continue;
        cv_legend_add(cv, cols[k], k == 3 ? LEG_DASH : LEG_LINE, pr_l10n_pgettext(names[k]));
    }
    cv_legend(cv);
    if (!isfinite(lo))
        lo = hi > 0 ? hi : 1e6;
    if (!(hi > 0))
        hi = lo * 10;
    cv_include_thresholds(cv, &lo, &hi);
    cv->y.title = _("Latency by send time");
    cv->interval_ns = ts->interval_ns;
    cv_time_axis(cv, tmax);
    pr_axis_set(&cv->y, AX_DUR, cv_want_log(cv, lo, hi), lo, hi, 1);
    cv_plot(cv);
    if (!nvalid) {
        cv_nodata(cv, _("No data"));
        cv_annotate(cv);
        return;
    }
    double *xs = pr_xmalloc((ts->n + 1) * sizeof *xs);
    double *ys = pr_xmalloc((ts->n + 1) * sizeof *ys);
    unsigned char *v = pr_xmalloc(ts->n + 1);
    cv_clip_plot(cv);
    for (int k = 3; k >= 0; k--) {
        if (!ser[k])
            continue;
        for (size_t i = 0; i < ts->n; i++) {
            v[i] = ts->t_ns[i] >= 0 && okl(ser[k], i);
            xs[i] = pr_axis_map(&cv->x, (double)ts->t_ns[i] + half);
            ys[i] = v[i] ? pr_axis_map(&cv->y, (double)ser[k][i]) : 0;
        }
        polyline(cv, ts->n, xs, ys, v, cols[k], k == 3 ? 1.5 : 2, k == 3, ts->n <= 40);
    }
    cv_unclip(cv);
    free(xs);
    free(ys);
    free(v);
    cv_annotate(cv);
}

/* ---- throughput over time ------------------------------------------------------------- */

static void draw_throughput(pr_canvas *cv, const pr_chart_input *in)
{
    const pr_chart_timeseries *ts = in->ts;
    const double *ser[3] = {ts->ok_per_s, ts->fail_per_s, ts->rate_per_s};
    const rgb cols[3] = {PR_OI_GREEN, PR_OI_VERMILLION, PR_OI_BLACK};
    static const char *const names[3] = {N_("successful responses/s (at completion)"),
                                         N_("failed responses/s (at completion)"),
                                         N_("requests sent/s (at sending)")};
    double hi = 0, thi = 0, tmax = 0;
    size_t nvalid = 0, nthreads = 0;
    double iv = ts->interval_ns > 0 ? (double)ts->interval_ns : 0;
    for (size_t i = 0; i < ts->n; i++) {
        if (ts->t_ns[i] < 0 || !cv_in_window(cv, (double)ts->t_ns[i], (double)ts->t_ns[i] + iv))
            continue;
        if ((double)ts->t_ns[i] + iv > tmax)
            tmax = (double)ts->t_ns[i] + iv;
        for (int k = 0; k < 3; k++)
            if (okd(ser[k], i)) {
                nvalid++;
                if (ser[k][i] > hi)
                    hi = ser[k][i];
            }
        if (okd(ts->threads, i)) {
            nthreads++;
            if (ts->threads[i] > thi)
                thi = ts->threads[i];
        }
    }
    cv_title(cv, _("Throughput over time"));
    for (int k = 0; k < 3; k++)
        if (ser[k])
            cv_legend_add(cv, cols[k], k == 2 ? LEG_DASH : LEG_LINE, _(names[k]));
    if (nthreads)
        cv_legend_add(cv, PR_OI_SKY, LEG_LINE, _("active threads/connections (right axis)"));
    cv_legend(cv);
    double lo = 0;
    cv_include_thresholds(cv, &lo, &hi);
    cv->y.title = _("Per second, responses by completion time");
    cv->interval_ns = ts->interval_ns;
    cv_time_axis(cv, tmax);
    pr_axis_set(&cv->y, AX_NUM, 0, 0, hi > 0 ? hi : 1, 1);
    if (nthreads) {
        cv->has_y2 = 1;
        cv->y2.title = _("Active threads / connections");
        pr_axis_set(&cv->y2, AX_NUM, 0, 0, thi > 0 ? thi : 1, 1);
    }
    cv_plot(cv);
    if (!nvalid && !nthreads) {
        cv_nodata(cv, _("No data"));
        cv_annotate(cv);
        return;
    }
    size_t n = ts->n;
    double *xs = pr_xmalloc((2 * n + 2) * sizeof *xs);
    double *ys = pr_xmalloc((2 * n + 2) * sizeof *ys);
    unsigned char *v = pr_xmalloc(2 * n + 2);
    cairo_t *cr = cv->cr;
    cv_clip_plot(cv);
    if (nthreads) {
        /* threads as a step line: constant over each interval */
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            int ok = ts->t_ns[i] >= 0 && okd(ts->threads, i);
            double y = ok ? pr_axis_map(&cv->y2, ts->threads[i]) : 0;
            xs[m] = pr_axis_map(&cv->x, (double)ts->t_ns[i]);
            ys[m] = y;
            v[m++] = (unsigned char)ok;
            xs[m] = pr_axis_map(&cv->x, (double)ts->t_ns[i] + iv);
            ys[m] = y;
            v[m++] = (unsigned char)ok;
        }
        polyline(cv, m, xs, ys, v, PR_OI_SKY, 2, 0, 0);
    }
    for (int k = 0; k < 3; k++) {
        if (!ser[k])
            continue;
        for (size_t i = 0; i < n; i++) {
            v[i] = ts->t_ns[i] >= 0 && okd(ser[k], i);
            xs[i] = pr_axis_map(&cv->x, (double)ts->t_ns[i] + iv / 2);
            ys[i] = v[i] ? pr_axis_map(&cv->y, ser[k][i]) : 0;
        }
        if (k < 2) {
            /* light fill under successes and failures */
            double base = pr_axis_map(&cv->y, 0);
            size_t i = 0;
            while (i < n) {
                while (i < n && !v[i])
                    i++;
                size_t j = i;
                while (j < n && v[j])
                    j++;
                if (j > i + 1) {
                    cairo_move_to(cr, xs[i], base);
                    for (size_t q = i; q < j; q++)
                        cairo_line_to(cr, xs[q], ys[q]);
                    cairo_line_to(cr, xs[j - 1], base);
                    cairo_close_path(cr);
                    cv_colour(cv, cols[k], 0.15);
                    cairo_fill(cr);
                }
                i = j;
            }
        }
        polyline(cv, n, xs, ys, v, cols[k], k == 2 ? 1.5 : 2, k == 2, n <= 40);
    }
    cv_unclip(cv);
    free(xs);
    free(ys);
    free(v);
    cv_annotate(cv);
}

/* ---- status codes over time (stacked) ------------------------------------------------- */

static const char *reason(int code)
{
    static const struct {
        int c;
        const char *s;
    } t[] = {{0, N_("no response")},
             {200, "200 OK"},
             {201, "201 Created"},
             {202, "202 Accepted"},
             {204, "204 No Content"},
             {301, "301 Moved Permanently"},
             {302, "302 Found"},
             {304, "304 Not Modified"},
             {400, "400 Bad Request"},
             {401, "401 Unauthorized"},
             {403, "403 Forbidden"},
             {404, "404 Not Found"},
             {408, "408 Request Timeout"},
             {409, "409 Conflict"},
             {429, "429 Too Many Requests"},
             {500, "500 Internal Server Error"},
             {502, "502 Bad Gateway"},
             {503, "503 Service Unavailable"},
             {504, "504 Gateway Timeout"}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].c == code)
            return t[i].c ? t[i].s : _(t[i].s); /* the HTTP reason phrases stay as sent */
    return NULL;
}

static int code_rank(int c)
{
    /* stack order from the bottom: 2xx, 1xx, 3xx, 4xx, 5xx, others, no response */
    if (c >= 200 && c < 300)
        return 0;
    if (c >= 100 && c < 200)
        return 1;
    if (c >= 300 && c < 400)
        return 2;
    if (c >= 400 && c < 500)
        return 3;
    if (c >= 500 && c < 600)
        return 4;
    if (c == 0)
        return 6;
    return 5;
}

/* Colour of the nth code of a class: distinct hues first, then darker shades. */
static rgb code_colour(int rank, int nth)
{
    static const rgb grey = {0.55, 0.55, 0.55};
    static const rgb dgreen = {0, 0.42, 0.31}, dorange = {0.6, 0.4, 0}, dred = {0.55, 0.22, 0};
    const rgb *pal[7][3] = {
        {&PR_OI_GREEN, &dgreen, &PR_OI_SKY},        /* 2xx */
        {&PR_OI_SKY, &PR_OI_BLUE, &grey},           /* 1xx */
        {&PR_OI_SKY, &PR_OI_BLUE, &grey},           /* 3xx */
        {&PR_OI_ORANGE, &PR_OI_YELLOW, &dorange},   /* 4xx */
        {&PR_OI_VERMILLION, &PR_OI_PURPLE, &dred},  /* 5xx */
        {&grey, &grey, &grey},                      /* other */
        {&PR_OI_BLACK, &PR_OI_BLACK, &PR_OI_BLACK}, /* no response */
    };
    rgb c = *pal[rank][nth % 3];
    double f = 0.25 * (nth / 3);
    if (f > 0.6)
        f = 0.6;
    return (rgb){c.r * (1 - f), c.g * (1 - f), c.b * (1 - f)};
}

/* Sorts pointers into the codes array: by class, then code, then row (first row first). */
static int cmp_codes(const void *a, const void *b)
{
    const int *pa = *(const int *const *)a, *pb = *(const int *const *)b;
    int x = *pa, y = *pb;
    int rx = code_rank(x), ry = code_rank(y);
    if (rx != ry)
        return rx - ry;
    if (x != y)
        return (x > y) - (x < y);
    return pa < pb ? -1 : pa > pb;
}

#define MAX_CODES 24

static void draw_status(pr_canvas *cv, const pr_chart_input *in)
{
    const pr_chart_timeseries *ts = in->ts;
    size_t nc = ts->codes && ts->code_counts ? ts->n_codes : 0;
    size_t n = ts->n;
    double iv = ts->interval_ns > 0 ? (double)ts->interval_ns : 1e9;
    /* order[k]: the row of the k-th code in stacking order; -1 for a repeated code */
    const int **ptrs = pr_xmalloc((nc + 1) * sizeof *ptrs);
    for (size_t c = 0; c < nc; c++)
        ptrs[c] = &ts->codes[c];
    qsort(ptrs, nc, sizeof *ptrs, cmp_codes);
    size_t hidden = 0;
    if (nc > MAX_CODES) {
        hidden = nc - MAX_CODES;
        nc = MAX_CODES;
    }
    long *order = pr_xmalloc((nc + 1) * sizeof *order);
    int *sorted = pr_xmalloc((nc + 1) * sizeof *sorted);
    for (size_t k = 0; k < nc; k++) {
        sorted[k] = *ptrs[k];
        order[k] = k > 0 && sorted[k] == sorted[k - 1] ? -1 : (long)(ptrs[k] - ts->codes);
    }
    free(ptrs);
    double hi = 0, tmax = 0;
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        if (ts->t_ns[i] < 0 || !cv_in_window(cv, (double)ts->t_ns[i], (double)ts->t_ns[i] + iv))
            continue;
        if ((double)ts->t_ns[i] + iv > tmax)
            tmax = (double)ts->t_ns[i] + iv;
        double sum = 0;
        for (size_t k = 0; k < nc; k++) {
            if (order[k] < 0)
                continue;
            double v = ts->code_counts[(size_t)order[k] * n + i];
            if (isfinite(v) && v > 0) {
                sum += v / (iv / 1e9);
                any = 1;
            }
        }
        if (isfinite(sum) && sum > hi)
            hi = sum;
    }
    cv_title(cv, _("Responses by status code"));
    rgb *cols = pr_xmalloc((nc + 1) * sizeof *cols);
    int nth = 0, prev_rank = -1;
    char lab[64];
    for (size_t k = 0; k < nc; k++) {
        int r = code_rank(sorted[k]);
        nth = r == prev_rank ? nth + 1 : 0;
        prev_rank = r;
        cols[k] = code_colour(r, nth);
        if (order[k] < 0)
            continue;
        const char *rs = reason(sorted[k]);
        if (rs)
            snprintf(lab, sizeof lab, "%s", rs);
        else
            snprintf(lab, sizeof lab, "%d", sorted[k]);
        cv_legend_add(cv, cols[k], LEG_BOX, lab);
    }
    if (hidden) {
        snprintf(lab, sizeof lab, "(%zu more codes not drawn)", hidden);
        cv_legend_add(cv, (rgb){1, 1, 1}, LEG_BOX, lab);
    }
    cv_legend(cv);
    double lo = 0;
    cv_include_thresholds(cv, &lo, &hi);
    cv->y.title = _("Responses per second by completion time");
    cv->interval_ns = ts->interval_ns;
    cv_time_axis(cv, tmax);
    pr_axis_set(&cv->y, AX_NUM, 0, 0, hi > 0 ? hi : 1, 1);
    cv_plot(cv);
    if (!any) {
        cv_nodata(cv, _("No status codes"));
    } else {
        cairo_t *cr = cv->cr;
        cv_clip_plot(cv);
        double *base = pr_xcalloc(n + 1, sizeof *base);
        for (size_t k = 0; k < nc; k++) {
            if (order[k] < 0)
                continue;
            for (size_t i = 0; i < n; i++) {
                double v = ts->code_counts[(size_t)order[k] * n + i];
                if (ts->t_ns[i] < 0 || !isfinite(v) || v <= 0)
                    continue;
                v /= iv / 1e9;
                double x0 = pr_axis_map(&cv->x, (double)ts->t_ns[i]);
                double x1 = pr_axis_map(&cv->x, (double)ts->t_ns[i] + iv);
                double y0 = pr_axis_map(&cv->y, base[i]);
                double y1 = pr_axis_map(&cv->y, base[i] + v);
                base[i] += v;
                /* snap to whole pixels so neighbouring bars meet without seams */
                double l = round(x0), r = round(x1);
                if (r - l < 1)
                    r = l + 1;
                cairo_rectangle(cr, l, y1, r - l, y0 - y1);
                cv_colour(cv, cols[k], 1);
                cairo_fill(cr);
            }
        }
        free(base);
        cv_unclip(cv);
    }
    free(cols);
    free(order);
    free(sorted);
    cv_annotate(cv);
}

/* ---- latency distribution: percentile spectrum and histogram ---------------------------- */

static void dists_legend(pr_canvas *cv, const pr_chart_input *in)
{
    for (size_t d = 0; d < in->n_dists; d++) {
        char lab[160];
        const char *nm = in->dists[d].name;
        if (!nm || !*nm)
            snprintf(lab, sizeof lab, _("run %zu"), d + 1);
        else
            snprintf(lab, sizeof lab, "%s", nm);
        cv_legend_add(cv, pr_chart_series_colour(d), LEG_LINE, lab);
    }
}

static void draw_spectrum(pr_canvas *cv, const pr_chart_input *in)
{
    double lo = INFINITY, hi = 0, pmax = 99;
    size_t nvalid = 0;
    for (size_t d = 0; d < in->n_dists; d++) {
        const pr_chart_dist *ds = &in->dists[d];
        if (!ds->pct || !ds->pct_latency_ns)
            continue;
        for (size_t i = 0; i < ds->n_pct; i++) {
            double p = ds->pct[i];
            int64_t l = ds->pct_latency_ns[i];
            if (!isfinite(p) || p < 0 || p > 100 || l < 0)
                continue;
            nvalid++;
            if (p > pmax)
                pmax = p;
            if (l > 0 && l < lo)
                lo = (double)l;
            if (l > hi)
                hi = (double)l;
        }
    }
    cv_title(cv, _("Latency by percentile"));
    dists_legend(cv, in);
    cv_legend(cv);
    if (!isfinite(lo))
        lo = hi > 0 ? hi : 1e6;
    if (!(hi > 0))
        hi = lo * 10;
    cv_include_thresholds(cv, &lo, &hi);
    cv->x.title = _("Percentile");
    cv->y.title = _("Latency");
    pr_axis_set(&cv->x, AX_SPECTRUM, 0, 0, pmax, 0);
    pr_axis_set(&cv->y, AX_DUR, cv_want_log(cv, lo, hi), lo, hi, 1);
    cv_plot(cv);
    if (!nvalid) {
        cv_nodata(cv, _("No data"));
        cv_annotate(cv);
        return;
    }
    cv_clip_plot(cv);
    for (size_t d = 0; d < in->n_dists; d++) {
        const pr_chart_dist *ds = &in->dists[d];
        if (!ds->pct || !ds->pct_latency_ns || !ds->n_pct)
            continue;
        size_t n = ds->n_pct;
        double *xs = pr_xmalloc(n * sizeof *xs);
        double *ys = pr_xmalloc(n * sizeof *ys);
        unsigned char *v = pr_xmalloc(n);
        for (size_t i = 0; i < n; i++) {
            double p = ds->pct[i];
            v[i] = isfinite(p) && p >= 0 && p <= 100 && ds->pct_latency_ns[i] >= 0;
            xs[i] = v[i] ? pr_axis_map(&cv->x, p) : 0;
            ys[i] = v[i] ? pr_axis_map(&cv->y, (double)ds->pct_latency_ns[i]) : 0;
        }
        polyline(cv, n, xs, ys, v, pr_chart_series_colour(d), 2, 0, n <= 12);
        free(xs);
        free(ys);
        free(v);
    }
    cv_unclip(cv);
    cv_annotate(cv);
}

static void draw_histogram(pr_canvas *cv, const pr_chart_input *in)
{
    double lo = INFINITY, hi = 0, fmax = 0;
    size_t nvalid = 0;
    for (size_t d = 0; d < in->n_dists; d++) {
        const pr_chart_dist *ds = &in->dists[d];
        if (!ds->bucket_lo_ns || !ds->bucket_hi_ns || !ds->bucket_count)
            continue;
        double total = 0;
        for (size_t i = 0; i < ds->n_buckets; i++)
            total += (double)ds->bucket_count[i];
        for (size_t i = 0; i < ds->n_buckets; i++) {
            int64_t a = ds->bucket_lo_ns[i], b = ds->bucket_hi_ns[i];
            if (a < 0 || b < a || !ds->bucket_count[i])
                continue;
            nvalid++;
            if (a > 0 && a < lo)
                lo = (double)a;
            if (b > hi)
                hi = (double)b;
            double f = (double)ds->bucket_count[i] / total;
            if (f > fmax)
                fmax = f;
        }
    }
    cv_title(cv, _("Latency distribution"));
    dists_legend(cv, in);
    cv_legend(cv);
    if (!isfinite(lo))
        lo = hi > 0 ? hi / 10 : 1e6;
    if (!(hi > 0))
        hi = lo * 10;
    double ylo = 0;
    (void)ylo;
    for (size_t i = 0; i < cv->o.n_thresholds; i++) {
        double v = cv->o.thresholds[i].value;
        if (isfinite(v) && v > 0) {
            if (v < lo)
                lo = v;
            if (v * 1.05 > hi)
                hi = v * 1.05;
        }
    }
    cv->thr_on_x = 1;
    cv->x.title = _("Latency");
    cv->y.title = _("Share of requests");
    int lg = cv->o.log_y != PR_CHART_LOG_OFF;
    pr_axis_set(&cv->x, AX_DUR, lg, lo, hi, 0);
    pr_axis_set(&cv->y, AX_RATIO, 0, 0, fmax > 0 ? fmax : 1, 1);
    cv_plot(cv);
    if (!nvalid) {
        cv_nodata(cv, _("No data"));
        cv_annotate(cv);
        return;
    }
    cairo_t *cr = cv->cr;
    cv_clip_plot(cv);
    double base = pr_axis_map(&cv->y, 0);
    for (size_t d = 0; d < in->n_dists; d++) {
        const pr_chart_dist *ds = &in->dists[d];
        if (!ds->bucket_lo_ns || !ds->bucket_hi_ns || !ds->bucket_count)
            continue;
        double total = 0;
        for (size_t i = 0; i < ds->n_buckets; i++)
            total += (double)ds->bucket_count[i];
        if (!(total > 0))
            continue;
        rgb c = pr_chart_series_colour(d);
        /* one closed outline per contiguous run of buckets */
        int open = 0;
        double lastx = 0;
        cairo_new_path(cr);
        for (size_t i = 0; i < ds->n_buckets; i++) {
            int64_t a = ds->bucket_lo_ns[i], b = ds->bucket_hi_ns[i];
            if (a < 0 || b < a)
                continue;
            double f = (double)ds->bucket_count[i] / total;
            double x0 = pr_axis_map(&cv->x, (double)(a > 0 ? a : 1));
            double x1 = pr_axis_map(&cv->x, (double)b);
            double y = pr_axis_map(&cv->y, f);
            if (!open || fabs(x0 - lastx) > 0.5) {
                if (open)
                    cairo_line_to(cr, lastx, base);
                cairo_move_to(cr, x0, base);
                open = 1;
            }
            cairo_line_to(cr, x0, y);
            cairo_line_to(cr, x1, y);
            lastx = x1;
        }
        if (open)
            cairo_line_to(cr, lastx, base);
        cairo_path_t *path = cairo_copy_path(cr);
        cv_colour(cv, c, in->n_dists > 1 ? 0.18 : 0.35);
        cairo_fill(cr);
        cairo_append_path(cr, path);
        cairo_path_destroy(path);
        cv_colour(cv, c, 1);
        cairo_set_line_width(cr, 1.8);
        cairo_stroke(cr);
    }
    cv_unclip(cv);
    cv_annotate(cv);
}

/* ---- per-label bars ------------------------------------------------------------------- */

/* Sorts label pointers: slowest first, then by name, then input order (pointers into one array). */
static int cmp_label(const void *a, const void *b)
{
    const pr_chart_label *x = *(const pr_chart_label *const *)a;
    const pr_chart_label *y = *(const pr_chart_label *const *)b;
    if (x->latency_ns != y->latency_ns)
        return x->latency_ns < y->latency_ns ? 1 : -1;
    int c = strcmp(x->name ? x->name : "", y->name ? y->name : "");
    if (c)
        return c;
    return x < y ? -1 : x > y;
}

static void label_note(const pr_chart_label *l, char *buf, size_t n, int *has_err)
{
    char cnt[32];
    pr_human_number((double)l->count, cnt, sizeof cnt);
    *has_err = l->errors > 0;
    if (l->count == 0)
        snprintf(buf, n, "%s", _("no samples"));
    else if (l->errors == 0)
        snprintf(buf, n, _("%s req, no errors"), cnt);
    else {
        double r = (double)l->errors / (double)l->count * 100;
        snprintf(buf, n, _("%s req, %.*f%% errors"), cnt, r < 1 ? 2 : 1, r);
    }
}

static void draw_labels(pr_canvas *cv, const pr_chart_input *in)
{
    const pr_chart_labels *L = in->labels;
    size_t n = L->v ? L->n : 0;
    const char *stat = L->stat && *L->stat ? L->stat : _("latency");
    char title[160];
    snprintf(title, sizeof title, _("%s latency by label"), stat);
    cv_title(cv, title);
    cv->top += 18; /* room for the column headers */
    /* rows that fit */
    double th, tw;
    cv_text_size(cv, "Ag", 12, 0, &tw, &th);
    double avail = cv->h - cv->top - 60;
    size_t rows = avail > 0 ? (size_t)(avail / (th + 4)) : 1;
    if (rows < 1)
        rows = 1;
    const pr_chart_label **idx = pr_xmalloc((n + 1) * sizeof *idx);
    for (size_t i = 0; i < n; i++)
        idx[i] = &L->v[i];
    if (n > 1)
        qsort(idx, n, sizeof *idx, cmp_label);
    size_t shown = n < rows ? n : rows;
    if (shown < n && shown > 1)
        shown--; /* keep a row for the "more" note */
    /* margins: label names at left, notes at right */
    double namew = 0, notew = 0, hi = 0;
    char note[96];
    for (size_t k = 0; k < shown; k++) {
        const pr_chart_label *l = idx[k];
        double w, h;
        cv_text_size(cv, l->name && *l->name ? l->name : _("(no label)"), 12, 0, &w, &h);
        if (w > namew)
            namew = w;
        int he;
        label_note(l, note, sizeof note, &he);
        cv_text_size(cv, note, 11, 0, &w, &h);
        if (w > notew)
            notew = w;
        if (l->latency_ns > hi)
            hi = (double)l->latency_ns;
    }
    if (namew > cv->w * 0.35)
        namew = cv->w * 0.35;
    double lo = 0;
    cv_include_thresholds(cv, &lo, &hi);
    cv->thr_on_x = 1;
    cv->left_min = namew + 12;
    cv->right_extra = notew + 10;
    cv->x.title = stat;
    cv->y.title = NULL;
    int lg = cv->o.log_y == PR_CHART_LOG_ON;
    double mn = INFINITY;
    for (size_t k = 0; k < shown; k++)
        if (idx[k]->latency_ns > 0 && idx[k]->latency_ns < mn)
            mn = (double)idx[k]->latency_ns;
    pr_axis_set(&cv->x, AX_DUR, lg, lg ? mn / 2 : 0, hi > 0 ? hi : 1e6, 1);
    pr_axis_set(&cv->y, AX_NONE, 0, 0, 1, 0);
    cv_plot(cv);
    if (!n) {
        cv_nodata(cv, _("No labels"));
        cv_annotate(cv);
        free(idx);
        return;
    }
    cairo_t *cr = cv->cr;
    cv_text(cv, cv->px + cv->pw + 8, cv->py - 4, _("requests, failed share"), 11, 1, 0, 1, INK2, 0);
    cv_text(cv, cv->px - 8, cv->py - 4, _("label"), 11, 1, 1, 1, INK2, 0);
    double rowh = cv->ph / (double)(shown + (shown < n ? 1 : 0));
    double barh = rowh * 0.7 > 28 ? 28 : rowh * 0.7;
    for (size_t k = 0; k < shown; k++) {
        const pr_chart_label *l = idx[k];
        double yc = cv->py + rowh * ((double)k + 0.5);
        const char *nm = l->name && *l->name ? l->name : _("(no label)");
        cv_text_max(cv, cv->px - 8, yc, nm, 12, 0, 1, 0.5, INK, namew);
        double x0 = cv->px;
        double x1 = l->latency_ns >= 0 ? pr_axis_map(&cv->x, (double)l->latency_ns) : x0;
        if (x1 < x0)
            x1 = x0;
        if (x1 > cv->px + cv->pw)
            x1 = cv->px + cv->pw;
        if (l->latency_ns >= 0) {
            cairo_rectangle(cr, x0, yc - barh / 2, x1 - x0, barh);
            cv_colour(cv, PR_OI_BLUE, 1);
            cairo_fill(cr);
            char v[32];
            pr_human_duration_short((double)l->latency_ns, v, sizeof v);
            double w, h;
            cv_text_size(cv, v, 11, 0, &w, &h);
            if (x1 - x0 > w + 10)
                cv_text(cv, x1 - 5, yc, v, 11, 1, 1, 0.5, (rgb){1, 1, 1}, 0);
            else
                cv_text(cv, x1 + 4, yc, v, 11, 0, 0, 0.5, INK, 0);
        } else {
            cv_text(cv, x0 + 4, yc, _("n/a"), 11, 0, 0, 0.5, INK2, 0);
        }
        int he;
        label_note(l, note, sizeof note, &he);
        cv_text(cv, cv->px + cv->pw + 8, yc, note, 11, he, 0, 0.5, he ? PR_OI_VERMILLION : INK2, 0);
    }
    if (shown < n) {
        char more[128];
        snprintf(more, sizeof more, n_("… and %zu more label", "… and %zu more labels", n - shown),
                 n - shown);
        cv_describe(cv, NULL, more);
        cv_text(cv, cv->px + 4, cv->py + rowh * ((double)shown + 0.5), more, 11, 0, 0, 0.5, INK2,
                0);
    }
    free(idx);
    cv_annotate(cv);
}

/* ---- comparison of runs: small multiples, one panel per metric ---------------------- */

static void fmt_value(pr_chart_unit u, double v, char *buf, size_t n)
{
    switch (u) {
    case PR_CHART_UNIT_NS: pr_human_duration_short(v, buf, n); return;
    case PR_CHART_UNIT_RATIO: snprintf(buf, n, "%.*f%%", v * 100 < 1 ? 2 : 1, v * 100); return;
    case PR_CHART_UNIT_PER_S: {
        char t[32];
        pr_human_number(v, t, sizeof t);
        snprintf(buf, n, "%s/s", t);
        return;
    }
    default: pr_human_number(v, buf, n); return;
    }
}

static void draw_compare(pr_canvas *cv, const pr_chart_input *in)
{
    const pr_chart_compare *C = in->compare;
    size_t nr = C->run_names || C->values ? C->n_runs : 0;
    size_t nm = C->metrics && C->values ? C->n_metrics : 0;
    if (nr > 16)
        nr = 16;
    if (nm > 12)
        nm = 12;
    cv_title(cv, _("Comparison of runs"));
    for (size_t r = 0; r < nr; r++) {
        char lab[160];
        const char *s = C->run_names ? C->run_names[r] : NULL;
        if (s && *s)
            snprintf(lab, sizeof lab, "%s", s);
        else
            snprintf(lab, sizeof lab, _("run %zu"), r + 1);
        cv_legend_add(cv, pr_chart_series_colour(r), LEG_BOX, lab);
    }
    cv_legend(cv);
    if (!nr || !nm) {
        cv->x.title = NULL;
        cv->y.title = NULL;
        pr_axis_set(&cv->x, AX_NONE, 0, 0, 1, 0);
        pr_axis_set(&cv->y, AX_NUM, 0, 0, 1, 1);
        cv_plot(cv);
        cv_nodata(cv, _("No runs to compare"));
        cv_annotate(cv);
        return;
    }
    size_t cols = nm <= 4 ? nm : (nm + 1) / 2;
    size_t rowsn = (nm + cols - 1) / cols;
    double x0 = 16, y0 = cv->top + 4, W = cv->w - 32, H = cv->h - y0 - 12;
    double cw = W / (double)cols, ch = (H - 12 * (double)(rowsn - 1)) / (double)rowsn;
    cairo_t *cr = cv->cr;
    for (size_t m = 0; m < nm; m++) {
        const pr_chart_metric *M = &C->metrics[m];
        double bx = x0 + cw * (double)(m % cols), by = y0 + ch * (double)(m / cols);
        by += 12 * (double)(m / cols); /* keep a row's titles clear of the axis above */
        double hi = 0;
        for (size_t r = 0; r < nr; r++) {
            double v = C->values[m * C->n_runs + r];
            if (isfinite(v) && v > hi)
                hi = v;
        }
        char mt[128];
        double tw, th;
        snprintf(mt, sizeof mt, "%s", M->name ? M->name : "");
        cv_text_size(cv, mt, 13, 1, &tw, &th);
        cv_text_max(cv, bx + cw / 2, by, mt, 13, 1, 0.5, 0, INK, cw - 10);
        static const ax_kind kinds[] = {AX_DUR, AX_NUM, AX_RATIO, AX_NUM};
        ax_kind k = (unsigned)M->unit < 4 ? kinds[M->unit] : AX_NUM;
        cv->x.title = NULL;
        cv->y.title = M->unit == PR_CHART_UNIT_NS      ? _("Latency")
                      : M->unit == PR_CHART_UNIT_PER_S ? _("Per second")
                      : M->unit == PR_CHART_UNIT_RATIO ? _("Share")
                                                       : _("Count");
        pr_axis_set(&cv->x, AX_NONE, 0, 0, 1, 0);
        pr_axis_set(&cv->y, k, 0, 0, hi > 0 ? hi * 1.12 : 1, 1);
        cv->has_y2 = 0;
        cv_plot_in(cv, bx + 4, by + th + 8, bx + cw - 10, by + ch - 4);
        double slot = cv->pw / (double)nr;
        double bw = slot * 0.7;
        for (size_t r = 0; r < nr; r++) {
            double v = C->values[m * C->n_runs + r];
            double cx = cv->px + slot * ((double)r + 0.5);
            if (!isfinite(v) || v < 0) {
                cv_text(cv, cx, cv->py + cv->ph - 4, _("n/a"), 10, 0, 0.5, 1, INK2, 0);
                continue;
            }
            double yt = pr_axis_map(&cv->y, v), yb = pr_axis_map(&cv->y, 0);
            cairo_rectangle(cr, cx - bw / 2, yt, bw, yb - yt);
            cv_colour(cv, pr_chart_series_colour(r), 1);
            cairo_fill(cr);
            char vb[48];
            fmt_value(M->unit, v, vb, sizeof vb);
            double vw, vh;
            cv_text_size(cv, vb, 10, 0, &vw, &vh);
            if (vw <= slot + 4)
                cv_text(cv, cx, yt - 2, vb, 10, 0, 0.5, 1, INK, 0);
            else
                cv_text(cv, cx, yt - 2, vb, 10, 0, 0, 0.5, INK, -90);
        }
        cv_annotate(cv);
    }
}

/* ---- capacity curve ------------------------------------------------------------------- */

long pr_chart_capacity_knee(const pr_chart_capacity *c)
{
    if (!c || !c->offered_per_s || !c->throughput_per_s)
        return -1;
    double p0 = -1;
    for (size_t i = 0; i < c->n; i++) {
        double o = c->offered_per_s[i], t = c->throughput_per_s[i];
        if (!isfinite(o) || !isfinite(t) || o <= 0)
            continue;
        double p = c->p99_ns && c->p99_ns[i] >= 0 ? (double)c->p99_ns[i] : -1;
        if (p0 < 0 && p > 0)
            p0 = p;
        if (t < 0.9 * o || (p0 > 0 && p > 3 * p0))
            return (long)i;
    }
    return -1;
}

const char *pr_chart_capacity_knee_reason(const pr_chart_capacity *c, long i)
{
    if (!c || i < 0 || (size_t)i >= c->n || !c->offered_per_s || !c->throughput_per_s)
        return "";
    return c->throughput_per_s[i] < 0.9 * c->offered_per_s[i]
               /* xgettext:no-c-format */
               ? _("throughput below 90% of the offered load")
               : _("p99 above 3x the first load's");
}

/* The extent of a capacity series: loads, throughputs, p99s. */
typedef struct cap_range {
    size_t n, nvalid;
    double xmax, ymax, plo, phi;
} cap_range;

static void capacity_range(const pr_chart_capacity *C, cap_range *r)
{
    *r = (cap_range){C->offered_per_s ? C->n : 0, 0, 0, 0, INFINITY, 0};
    for (size_t i = 0; i < r->n; i++) {
        double o = C->offered_per_s[i];
        if (!isfinite(o) || o < 0)
            continue;
        r->nvalid++;
        if (o > r->xmax)
            r->xmax = o;
        if (okd(C->throughput_per_s, i) && C->throughput_per_s[i] > r->ymax)
            r->ymax = C->throughput_per_s[i];
        if (okl(C->p99_ns, i)) {
            double p = (double)C->p99_ns[i];
            if (p > 0 && p < r->plo)
                r->plo = p;
            if (p > r->phi)
                r->phi = p;
        }
    }
}

/* Title, legend and the axes (p99 on the right one when there is any); 1 when it has p99s. */
static int capacity_frame(pr_canvas *cv, const pr_chart_capacity *C, cap_range *r, long knee)
{
    cv_title(cv, _("Capacity: throughput and p99 latency against offered load"));
    cv_legend_add(cv, PR_OI_GREEN, LEG_LINE, _("throughput (left axis)"));
    if (!C->load_title)
        cv_legend_add(cv, (rgb){0.6, 0.6, 0.6}, LEG_DASH, _("throughput = offered load"));
    if (C->p99_ns)
        cv_legend_add(cv, PR_OI_ORANGE, LEG_LINE, _("p99 latency (right axis)"));
    if (knee >= 0)
        cv_legend_add(cv, PR_OI_PURPLE, LEG_DASH, _("knee (first limit crossed)"));
    cv_legend(cv);
    double top = C->load_title ? r->ymax : fmax(r->xmax, r->ymax);
    cv->x.title = C->load_title ? C->load_title : _("Offered load (requests per second)");
    cv->y.title = _("Throughput (responses per second)");
    pr_axis_set(&cv->x, AX_NUM, 0, 0, r->xmax > 0 ? r->xmax : 1, 1);
    pr_axis_set(&cv->y, AX_NUM, 0, 0, top > 0 ? top : 1, 1);
    int has_p = C->p99_ns && r->phi > 0;
    if (has_p) {
        if (!isfinite(r->plo))
            r->plo = r->phi;
        cv->has_y2 = 1;
        cv->y2.title = _("p99 latency");
        cv->thr_y2 = 1;
        cv_include_thresholds(cv, &r->plo, &r->phi);
        pr_axis_set(&cv->y2, AX_DUR, cv_want_log(cv, r->plo, r->phi), r->plo, r->phi, 1);
    }
    cv_plot(cv);
    return has_p;
}

/* The ideal line of a rate load: throughput = offered rate. */
static void capacity_ideal(pr_canvas *cv)
{
    cairo_t *cr = cv->cr;
    cairo_save(cr);
    double d[] = {6, 4};
    cairo_set_dash(cr, d, 2, 0);
    cairo_set_line_width(cr, 1.2);
    cv_colour(cv, (rgb){0.6, 0.6, 0.6}, 1);
    cairo_move_to(cr, pr_axis_map(&cv->x, 0), pr_axis_map(&cv->y, 0));
    double e = fmin(cv->x.hi, cv->y.hi);
    cairo_line_to(cr, pr_axis_map(&cv->x, e), pr_axis_map(&cv->y, e));
    cairo_stroke(cr);
    cairo_restore(cr);
}

/* The throughput line, and the p99 line on the right axis. */
static void capacity_lines(pr_canvas *cv, const pr_chart_capacity *C, size_t n, int has_p)
{
    double *xs = pr_xmalloc((n + 1) * sizeof *xs);
    double *ys = pr_xmalloc((n + 1) * sizeof *ys);
    unsigned char *v = pr_xmalloc(n + 1);
    for (size_t i = 0; i < n; i++) {
        v[i] = okd(C->offered_per_s, i) && okd(C->throughput_per_s, i);
        xs[i] = pr_axis_map(&cv->x, C->offered_per_s[i]);
        ys[i] = v[i] ? pr_axis_map(&cv->y, C->throughput_per_s[i]) : 0;
    }
    polyline(cv, n, xs, ys, v, PR_OI_GREEN, 2.2, 0, 1);
    if (has_p) {
        for (size_t i = 0; i < n; i++) {
            v[i] = okd(C->offered_per_s, i) && okl(C->p99_ns, i);
            ys[i] = v[i] ? pr_axis_map(&cv->y2, (double)C->p99_ns[i]) : 0;
        }
        polyline(cv, n, xs, ys, v, PR_OI_ORANGE, 2.2, 0, 1);
    }
    free(xs);
    free(ys);
    free(v);
}

/* The error ratios under the throughput points where there were errors. */
static void capacity_errors(pr_canvas *cv, const pr_chart_capacity *C, size_t n)
{
    if (!C->error_ratio || !C->throughput_per_s)
        return;
    for (size_t i = 0; i < n; i++) {
        if (!okd(C->error_ratio, i) || C->error_ratio[i] <= 0 || !okd(C->offered_per_s, i) ||
            !okd(C->throughput_per_s, i))
            continue;
        char t[48];
        snprintf(t, sizeof t, _("%.*f%% err"), C->error_ratio[i] < 0.01 ? 2 : 1,
                 C->error_ratio[i] * 100);
        double tw, th, x = pr_axis_map(&cv->x, C->offered_per_s[i]);
        cv_text_size(cv, t, 10, 0, &tw, &th);
        if (x + tw / 2 > cv->px + cv->pw - 2)
            x = cv->px + cv->pw - 2 - tw / 2;
        cv_text(cv, x, pr_axis_map(&cv->y, C->throughput_per_s[i]) + 8, t, 10, 0, 0.5, 0,
                PR_OI_VERMILLION, 0);
    }
}

/* The annotations, the knee first as a marker ahead of the caller's own. */
static void capacity_annotate(pr_canvas *cv, const pr_chart_capacity *C, long knee)
{
    if (knee < 0 || !okd(C->offered_per_s, (size_t)knee)) {
        cv_annotate(cv);
        return;
    }
    char lab[160], num[32];
    pr_human_number(C->offered_per_s[knee], num, sizeof num);
    const char *why = C->knee_label ? C->knee_label : pr_chart_capacity_knee_reason(C, knee);
    if (C->load_title)
        snprintf(lab, sizeof lab, _("knee at %s: %s"), num, why);
    else
        snprintf(lab, sizeof lab, _("knee at %s req/s: %s"), num, why);
    pr_chart_marker mk[17];
    size_t nmk = 0;
    mk[nmk++] = (pr_chart_marker){
        C->offered_per_s[knee],
        okd(C->throughput_per_s, (size_t)knee) ? C->throughput_per_s[knee] : NAN, lab};
    const pr_chart_marker *own = cv->o.markers;
    size_t nown = cv->o.n_markers;
    for (size_t i = 0; i < nown && nmk < 17; i++)
        mk[nmk++] = own[i];
    cv->o.markers = mk;
    cv->o.n_markers = nmk;
    cv_annotate(cv);
    cv->o.markers = NULL;
    cv->o.n_markers = 0;
}

static void draw_capacity(pr_canvas *cv, const pr_chart_input *in)
{
    const pr_chart_capacity *C = in->capacity;
    cap_range r;
    capacity_range(C, &r);
    long knee = C->knee >= 0 && (size_t)C->knee < r.n ? C->knee : -1;
    int has_p = capacity_frame(cv, C, &r, knee);
    if (!r.nvalid) {
        cv_nodata(cv, _("No data"));
        cv_annotate(cv);
        return;
    }
    cv_clip_plot(cv);
    if (!C->load_title)
        capacity_ideal(cv);
    capacity_lines(cv, C, r.n, has_p);
    cv_unclip(cv);
    capacity_errors(cv, C, r.n);
    capacity_annotate(cv, C, knee);
}

/* ---- the table ------------------------------------------------------------------------ */

const pr_chart_kind pr_chart_kinds[] = {
    {"latency", N_("every sample's latency against time, shaded by density, errors in red"),
     PR_CHART_NEEDS_POINTS, pr_chart_draw_latency},
    {"percentiles", N_("p50/p90/p99/max latency per interval over time"), PR_CHART_NEEDS_TS,
     draw_percentiles},
    {"throughput", N_("successful and failed responses per second, request rate and threads"),
     PR_CHART_NEEDS_TS, draw_throughput},
    {"status", N_("responses per second by HTTP status code over time (stacked)"),
     PR_CHART_NEEDS_TS, draw_status},
    {"spectrum", N_("latency by percentile up to 99.999% (log scale), runs overlaid"),
     PR_CHART_NEEDS_DISTS, draw_spectrum},
    {"histogram", N_("share of requests per log-sized latency bucket, runs overlaid"),
     PR_CHART_NEEDS_DISTS, draw_histogram},
    {"labels", N_("a chosen percentile per label, sorted, with error ratios"),
     PR_CHART_NEEDS_LABELS, draw_labels},
    {"compare", N_("chosen metrics of several runs side by side, one panel per metric"),
     PR_CHART_NEEDS_COMPARE, draw_compare},
    {"capacity", N_("throughput and p99 against offered load over a series of runs, knee marked"),
     PR_CHART_NEEDS_CAPACITY, draw_capacity},
};
const size_t pr_chart_nkinds = sizeof pr_chart_kinds / sizeof pr_chart_kinds[0];
