/* Latency over time: every sample binned into a pixel grid and shaded by count, errors on top. */
#include "render/chart_priv.h"
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/xalloc.h"

/* Shade of a cell with `c` samples when the densest has `max`: light for one sample (still
 * clearly visible), full colour for the densest. Returns premultiplied ARGB. */
static uint32_t shade(rgb col, uint32_t c, double lmax)
{
    double f = lmax > 0 ? log1p((double)c) / lmax : 1;
    double a = 0.55 + 0.45 * f;
    /* darken the densest cells a little so density reads as darkness */
    double k = 1 - 0.35 * f;
    uint32_t A = (uint32_t)lround(a * 255);
    uint32_t R = (uint32_t)lround(col.r * k * a * 255);
    uint32_t G = (uint32_t)lround(col.g * k * a * 255);
    uint32_t B = (uint32_t)lround(col.b * k * a * 255);
    return A << 24 | R << 16 | G << 8 | B;
}

/* log2 of a positive double from its exponent and a 4096-entry table over the mantissa's top
 * bits: off by < 2e-4, a fiftieth of a pixel on any sensible plot, and much faster than log10. */
typedef struct fastlog {
    float t[4096];
} fastlog;

static void fastlog_init(fastlog *f)
{
    for (int i = 0; i < 4096; i++)
        f->t[i] = (float)log2(1 + (i + 0.5) / 4096.0);
}

static double fastlog2(const fastlog *f, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    int e = (int)((bits >> 52) & 0x7ff) - 1023;
    return e + (double)f->t[(bits >> 40) & 0xfff];
}

/* A run of points: the flat points' arrays or one chunk's, read in place. */
typedef struct pt_view {
    size_t n;
    int64_t t0, l0;
    const uint32_t *dt, *dl; /* t = t0 + dt[i] when dt, else t[i]; the same for l */
    const int64_t *t, *l;
    const uint8_t *ok, *ok_bits; /* both NULL: all successes */
} pt_view;

static inline int64_t pt_t(const pt_view *v, size_t i)
{
    return v->dt ? v->t0 + (int64_t)v->dt[i] : v->t[i];
}

static inline int64_t pt_l(const pt_view *v, size_t i)
{
    return v->dl ? v->l0 + (int64_t)v->dl[i] : v->l[i];
}

static inline int pt_error(const pt_view *v, size_t i)
{
    return v->ok ? !v->ok[i] : v->ok_bits ? !(v->ok_bits[i / 8] >> (i % 8) & 1) : 0;
}

/* The views of a chart's points: 0 and 1 the halves of the flat points, then the chunks. */
static size_t pt_nviews(const pr_chart_input *in)
{
    return 2 + in->n_point_chunks;
}

static pt_view pt_get(const pr_chart_input *in, size_t k)
{
    const pr_chart_points *p = in->points;
    if (k < 2) {
        size_t h = p->n / 2, at = k ? h : 0;
        return (pt_view){k ? p->n - h : h,
                         0,
                         0,
                         NULL,
                         NULL,
                         p->t_ns ? p->t_ns + at : NULL,
                         p->latency_ns ? p->latency_ns + at : NULL,
                         p->ok ? p->ok + at : NULL,
                         NULL};
    }
    const pr_chart_point_chunk *c = &in->point_chunks[k - 2];
    return (pt_view){c->n,    c->t0_ns,      c->l0_ns, c->dt,     c->dl,
                     c->t_ns, c->latency_ns, NULL,     c->ok_bits};
}

/* The points inside the window: their time and latency range, successes and errors. */
typedef struct range {
    int64_t wlo, whi; /* the window (--from/--to), else everything */
    int64_t tmax, lmin, lmax;
    size_t nok, nerr;
} range;

static void view_range(const pt_view *p, range *r)
{
    for (size_t i = 0; i < p->n; i++) {
        int64_t t = pt_t(p, i), l = pt_l(p, i);
        if (t < r->wlo || t > r->whi || l < 0)
            continue;
        if (t > r->tmax)
            r->tmax = t;
        if (l > 0 && l < r->lmin)
            r->lmin = l;
        if (l > r->lmax)
            r->lmax = l;
        if (pt_error(p, i))
            r->nerr++;
        else
            r->nok++;
    }
}

static void points_range(const pr_canvas *cv, const pr_chart_input *in, range *r)
{
    int win = cv->o.to_ns > cv->o.from_ns;
    *r = (range){win ? cv->o.from_ns : 0, win ? cv->o.to_ns : INT64_MAX, 0, INT64_MAX, 0, 0, 0};
    for (size_t k = 0; k < pt_nviews(in); k++) {
        const pr_chart_point_chunk *c = k >= 2 ? &in->point_chunks[k - 2] : NULL;
        if (c && c->tmin_ns >= r->wlo && c->tmax_ns <= r->whi) { /* inside: its summary */
            r->tmax = c->tmax_ns > r->tmax ? c->tmax_ns : r->tmax;
            r->lmin = c->lmin_ns < r->lmin ? c->lmin_ns : r->lmin;
            r->lmax = c->lmax_ns > r->lmax ? c->lmax_ns : r->lmax;
            r->nerr += c->errors;
            r->nok += c->n - c->errors;
            continue;
        }
        pt_view v = pt_get(in, k);
        view_range(&v, r);
    }
}

/* Title, legend (with the counts) and axes. */
static void scatter_frame(pr_canvas *cv, const range *r)
{
    char buf[160], cnt[64];
    cv_title(cv, _("Latency over time"));
    pr_human_number((double)r->nok, cnt, sizeof cnt);
    snprintf(buf, sizeof buf, _("success (%s samples; darker = denser)"), cnt);
    cv_legend_add(cv, PR_OI_BLUE, LEG_BOX, buf);
    if (r->nerr) {
        pr_human_number((double)r->nerr, cnt, sizeof cnt);
        snprintf(buf, sizeof buf, _("error (%s samples)"), cnt);
        cv_legend_add(cv, PR_OI_VERMILLION, LEG_BOX, buf);
    }
    cv_legend(cv);
    double ymin = r->lmin == INT64_MAX ? 1e6 : (double)r->lmin;
    double ymax = r->lmax > 0 ? (double)r->lmax : 1e7;
    cv_include_thresholds(cv, &ymin, &ymax);
    int lg = cv_want_log(cv, ymin, ymax);
    cv->y.title = _("Latency");
    cv_time_axis(cv, (double)r->tmax);
    pr_axis_set(&cv->y, AX_DUR, lg, ymin, ymax, 1);
    cv_plot(cv);
}

/* Samples per cell of the plot, one cell per device pixel (PNG at --scale 2 bins twice as
 * finely), successes and errors apart. */
typedef struct grid {
    int gw, gh, halo;
    double res;
    uint32_t *okc, *errc;
} grid;

/* The mapping of points to cells: on log axes fy = (log2(l) * log10(2) - ylo) * yk. */
typedef struct binner {
    double xk, xlo, yk, ylo, lk, lo2;
    const fastlog *fl; /* log axis */
} binner;

/* One point into its cell (outside the window or the plot: none). */
static inline void bin_one(const binner *m, const range *r, grid *g, int64_t t, int64_t l, int err)
{
    if (t < r->wlo || t > r->whi || l < 0)
        return;
    double fx = ((double)t - m->xlo) * m->xk;
    double fy = m->fl ? (l > 0 ? fastlog2(m->fl, (double)l) * m->lk - m->lo2 : 0)
                      : ((double)l - m->ylo) * m->yk;
    int cx = (int)fx, cy = (int)fy;
    if (cx >= g->gw)
        cx = g->gw - 1;
    if (cy >= g->gh)
        cy = g->gh - 1;
    if (cx < 0 || cy < 0 || !(fx >= 0) || !(fy >= 0))
        return;
    size_t at = (size_t)(g->gh - 1 - cy) * (size_t)g->gw + (size_t)cx;
    uint32_t *c = err ? &g->errc[at] : &g->okc[at];
    if (*c != UINT32_MAX)
        (*c)++;
}

static void bin_view(const binner *m, const pt_view *p, const range *r, grid *g)
{
    if (p->dt && p->dl && !p->ok) { /* the usual chunk: offsets, outcomes as bits or none */
        for (size_t i = 0; i < p->n; i++)
            bin_one(m, r, g, p->t0 + (int64_t)p->dt[i], p->l0 + (int64_t)p->dl[i],
                    p->ok_bits && !(p->ok_bits[i / 8] >> (i % 8) & 1));
        return;
    }
    for (size_t i = 0; i < p->n; i++)
        bin_one(m, r, g, pt_t(p, i), pt_l(p, i), pt_error(p, i));
}

/* One thread's share: views [lo, hi) into its own grid. */
typedef struct bin_job {
    const binner *m;
    const pr_chart_input *in;
    const range *r;
    grid g;
    size_t lo, hi;
} bin_job;

static void *bin_run(void *arg)
{
    bin_job *j = arg;
    size_t cells = (size_t)j->g.gw * (size_t)j->g.gh;
    j->g.okc = pr_xcalloc(cells, sizeof *j->g.okc);
    j->g.errc = pr_xcalloc(cells, sizeof *j->g.errc);
    for (size_t k = j->lo; k < j->hi; k++) {
        pt_view v = pt_get(j->in, k);
        bin_view(j->m, &v, j->r, &j->g);
    }
    return NULL;
}

/* b's counts added into a's, saturating as one thread's counts do. */
static void grid_add(grid *a, const grid *b)
{
    size_t cells = (size_t)a->gw * (size_t)a->gh;
    for (size_t i = 0; i < cells; i++) {
        uint64_t o = (uint64_t)a->okc[i] + b->okc[i], e = (uint64_t)a->errc[i] + b->errc[i];
        a->okc[i] = o > UINT32_MAX ? UINT32_MAX : (uint32_t)o;
        a->errc[i] = e > UINT32_MAX ? UINT32_MAX : (uint32_t)e;
    }
}

/* Where the second thread's views start: half the points before it. */
static size_t bin_split(const pr_chart_input *in)
{
    size_t total = in->points->n, seen = 0, k = 2;
    for (size_t i = 0; i < in->n_point_chunks; i++)
        total += in->point_chunks[i].n;
    seen = in->points->n / 2;
    if (2 * seen >= total)
        return 1;
    for (; k < pt_nviews(in) && 2 * seen < total; k++)
        seen += in->point_chunks[k - 2].n;
    return k;
}

/* Fewer points than this are binned by the calling thread alone. */
#define BIN_THREADED_MIN 200000

static void bin_points(const pr_canvas *cv, const pr_chart_input *in, const range *r, grid *g)
{
    binner m;
    m.xk = g->gw / (cv->x.hi - cv->x.lo);
    m.xlo = cv->x.lo;
    m.yk = g->gh / (cv->y.hi - cv->y.lo);
    m.ylo = cv->y.lo;
    m.lk = m.yk * M_LOG10E * M_LN2;
    m.lo2 = m.ylo * m.yk;
    fastlog *fl = cv->y.log ? pr_xmalloc(sizeof *fl) : NULL;
    if (fl)
        fastlog_init(fl);
    m.fl = fl;
    size_t nv = pt_nviews(in), mid = bin_split(in);
    bin_job j[2] = {{&m, in, r, *g, 0, nv}, {&m, in, r, *g, nv, nv}};
    pthread_t th;
    int two = cv->o.threads != 1 && r->nok + r->nerr >= BIN_THREADED_MIN;
    if (two) {
        j[0].hi = j[1].lo = mid;
        two = pthread_create(&th, NULL, bin_run, &j[1]) == 0;
        if (!two)
            j[0].hi = nv;
    }
    bin_run(&j[0]);
    if (two) {
        pthread_join(th, NULL);
        grid_add(&j[0].g, &j[1].g);
        free(j[1].g.okc);
        free(j[1].g.errc);
    }
    *g = j[0].g;
    free(fl);
}

static uint32_t cells_max(const uint32_t *c, size_t n)
{
    uint32_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (c[i] > m)
            m = c[i];
    return m;
}

/* Successes, shaded by density: at scale > 1 a sample covers a whole logical pixel, so each
 * pixel takes the densest cell of the block ending there (lone outliers stay as visible as
 * at 1x). */
static void paint_ok(const grid *g, uint8_t *data, int stride)
{
    double lok = log1p((double)cells_max(g->okc, (size_t)g->gw * (size_t)g->gh));
    for (int y = 0; y < g->gh; y++) {
        uint32_t *row = (uint32_t *)(void *)(data + (size_t)y * (size_t)stride);
        for (int x = 0; x < g->gw; x++) {
            uint32_t c = 0;
            for (int dy = 0; dy < g->halo && dy <= y; dy++)
                for (int dx = 0; dx < g->halo && dx <= x; dx++) {
                    uint32_t v = g->okc[(size_t)(y - dy) * (size_t)g->gw + (size_t)(x - dx)];
                    if (v > c)
                        c = v;
                }
            row[x] = c ? shade(PR_OI_BLUE, c, lok) : 0;
        }
    }
}

/* One error cell at (x, y) in colour px: the core (one logical pixel) always, the ring around
 * it only over empty cells, so a lone error stands out while errors inside the dense band do
 * not cover more than their share. */
static void paint_error_cell(const grid *g, uint8_t *data, int stride, int x, int y, uint32_t px)
{
    for (int dy = -g->halo; dy <= g->halo; dy++) {
        int yy = y + dy;
        if (yy < 0 || yy >= g->gh)
            continue;
        uint32_t *row = (uint32_t *)(void *)(data + (size_t)yy * (size_t)stride);
        for (int dx = -g->halo; dx <= g->halo; dx++) {
            int xx = x + dx;
            if (xx < 0 || xx >= g->gw)
                continue;
            size_t at2 = (size_t)yy * (size_t)g->gw + (size_t)xx;
            int core = dx >= 0 && dy >= 0 && dx < g->halo && dy < g->halo;
            if (core || (!g->okc[at2] && !g->errc[at2] && row[xx] >> 24 != 0xff))
                row[xx] = px;
        }
    }
}

/* Errors on top, opaque, so they always win over successes beneath. */
static void paint_errors(const grid *g, uint8_t *data, int stride)
{
    double lerr = log1p((double)cells_max(g->errc, (size_t)g->gw * (size_t)g->gh));
    for (int y = 0; y < g->gh; y++)
        for (int x = 0; x < g->gw; x++) {
            uint32_t c = g->errc[(size_t)y * (size_t)g->gw + (size_t)x];
            if (!c)
                continue;
            double f = lerr > 0 ? log1p((double)c) / lerr : 1;
            double k = 1 - 0.35 * f;
            uint32_t px = 0xff000000u | (uint32_t)lround(PR_OI_VERMILLION.r * k * 255) << 16 |
                          (uint32_t)lround(PR_OI_VERMILLION.g * k * 255) << 8 |
                          (uint32_t)lround(PR_OI_VERMILLION.b * k * 255);
            paint_error_cell(g, data, stride, x, y, px);
        }
}

/* The grid as an image over the plot area. */
static void blit(pr_canvas *cv, const grid *g)
{
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, g->gw, g->gh);
    uint8_t *data = cairo_image_surface_get_data(img);
    int stride = cairo_image_surface_get_stride(img);
    if (data) {
        cairo_surface_flush(img);
        paint_ok(g, data, stride);
        paint_errors(g, data, stride);
        cairo_surface_mark_dirty(img);
    }
    cairo_t *cr = cv->cr;
    cv_clip_plot(cv);
    cairo_translate(cr, cv->px, cv->py + cv->ph - g->gh / g->res);
    cairo_scale(cr, 1 / g->res, 1 / g->res);
    cairo_set_source_surface(cr, img, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
    cairo_paint(cr);
    cv_unclip(cv);
    cairo_surface_destroy(img);
}

void pr_chart_draw_latency(pr_canvas *cv, const pr_chart_input *in)
{
    range r;
    points_range(cv, in, &r);
    scatter_frame(cv, &r);
    if (r.nok + r.nerr == 0) {
        cv_nodata(cv, _("No samples"));
        cv_annotate(cv);
        return;
    }
    grid g;
    g.res = cv->raster_res > 0 ? cv->raster_res : 1;
    g.gw = (int)floor(cv->pw * g.res);
    g.gh = (int)floor(cv->ph * g.res);
    g.halo = (int)lround(g.res) < 1 ? 1 : (int)lround(g.res);
    if (g.gw >= 1 && g.gh >= 1) {
        bin_points(cv, in, &r, &g);
        blit(cv, &g);
        free(g.okc);
        free(g.errc);
    }
    cv_annotate(cv);
}
