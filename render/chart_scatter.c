/* Latency over time: every sample binned into a pixel grid and shaded by count, errors on top. */
#include "render/chart_priv.h"
#include <math.h>
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

void pr_chart_draw_latency(pr_canvas *cv, const pr_chart_input *in)
{
    const pr_chart_points *p = in->points;
    size_t n = p->n;
    int64_t tmax = 0;
    int64_t lmin = INT64_MAX, lmax = 0;
    size_t nok = 0, nerr = 0;
    int win = cv->o.to_ns > cv->o.from_ns;
    int64_t wlo = win ? cv->o.from_ns : 0, whi = win ? cv->o.to_ns : INT64_MAX;
    for (size_t i = 0; i < n; i++) {
        int64_t t = p->t_ns[i], l = p->latency_ns[i];
        if (t < wlo || t > whi || l < 0)
            continue;
        if (t > tmax)
            tmax = t;
        if (l > 0 && l < lmin)
            lmin = l;
        if (l > lmax)
            lmax = l;
        if (p->ok && !p->ok[i])
            nerr++;
        else
            nok++;
    }
    char buf[160];
    cv_title(cv, _("Latency over time"));
    char cnt[64];
    pr_fmt_number((double)nok, cnt, sizeof cnt);
    snprintf(buf, sizeof buf, _("success (%s samples; darker = denser)"), cnt);
    cv_legend_add(cv, PR_OI_BLUE, LEG_BOX, buf);
    if (nerr) {
        pr_fmt_number((double)nerr, cnt, sizeof cnt);
        snprintf(buf, sizeof buf, _("error (%s samples)"), cnt);
        cv_legend_add(cv, PR_OI_VERMILLION, LEG_BOX, buf);
    }
    cv_legend(cv);
    double ymin = lmin == INT64_MAX ? 1e6 : (double)lmin, ymax = lmax > 0 ? (double)lmax : 1e7;
    cv_include_thresholds(cv, &ymin, &ymax);
    int lg = cv_want_log(cv, ymin, ymax);
    cv->y.title = _("Latency");
    cv_time_axis(cv, (double)tmax);
    pr_axis_set(&cv->y, AX_DUR, lg, ymin, ymax, 1);
    cv_plot(cv);
    if (nok + nerr == 0) {
        cv_nodata(cv, _("No samples"));
        cv_annotate(cv);
        return;
    }
    /* one cell per logical pixel of the plot area */
    /* one cell per device pixel (PNG at --scale 2 bins twice as finely) */
    double res = cv->raster_res > 0 ? cv->raster_res : 1;
    int gw = (int)floor(cv->pw * res), gh = (int)floor(cv->ph * res);
    int halo = (int)lround(res) < 1 ? 1 : (int)lround(res);
    if (gw < 1 || gh < 1) {
        cv_annotate(cv);
        return;
    }
    size_t cells = (size_t)gw * (size_t)gh;
    uint32_t *okc = pr_xcalloc(cells, sizeof *okc);
    uint32_t *errc = pr_xcalloc(cells, sizeof *errc);
    double xk = gw / (cv->x.hi - cv->x.lo), xlo = cv->x.lo;
    double yk = gh / (cv->y.hi - cv->y.lo), ylo = cv->y.lo;
    int lg_axis = cv->y.log;
    fastlog *fl = lg_axis ? pr_xmalloc(sizeof *fl) : NULL;
    if (fl)
        fastlog_init(fl);
    /* on log axes: fy = (log2(l) * log10(2) - ylo) * yk */
    double lk = yk * M_LOG10E * M_LN2, lo2 = ylo * yk;
    for (size_t i = 0; i < n; i++) {
        int64_t t = p->t_ns[i], l = p->latency_ns[i];
        if (t < wlo || t > whi || l < 0)
            continue;
        double fx = ((double)t - xlo) * xk;
        double fy = lg_axis ? (l > 0 ? fastlog2(fl, (double)l) * lk - lo2 : 0)
                            : ((double)l - ylo) * yk;
        int cx = (int)fx, cy = (int)fy;
        if (cx >= gw)
            cx = gw - 1;
        if (cy >= gh)
            cy = gh - 1;
        if (cx < 0 || cy < 0 || !(fx >= 0) || !(fy >= 0))
            continue;
        size_t at = (size_t)(gh - 1 - cy) * (size_t)gw + (size_t)cx;
        uint32_t *c = p->ok && !p->ok[i] ? &errc[at] : &okc[at];
        if (*c != UINT32_MAX)
            (*c)++;
    }
    free(fl);
    uint32_t mok = 0, merr = 0;
    for (size_t i = 0; i < cells; i++) {
        if (okc[i] > mok)
            mok = okc[i];
        if (errc[i] > merr)
            merr = errc[i];
    }
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, gw, gh);
    uint8_t *data = cairo_image_surface_get_data(img);
    int stride = cairo_image_surface_get_stride(img);
    if (data) {
        cairo_surface_flush(img);
        double lok = log1p((double)mok), lerr = log1p((double)merr);
        for (int y = 0; y < gh; y++) {
            uint32_t *row = (uint32_t *)(void *)(data + (size_t)y * (size_t)stride);
            for (int x = 0; x < gw; x++) {
                /* at scale > 1 a sample covers a whole logical pixel: take the densest
                 * cell of the block ending here, so lone outliers stay as visible as at 1x */
                uint32_t c = 0;
                for (int dy = 0; dy < halo && dy <= y; dy++)
                    for (int dx = 0; dx < halo && dx <= x; dx++) {
                        uint32_t v = okc[(size_t)(y - dy) * (size_t)gw + (size_t)(x - dx)];
                        if (v > c)
                            c = v;
                    }
                row[x] = c ? shade(PR_OI_BLUE, c, lok) : 0;
            }
        }
        /* errors on top, opaque */
        for (int y = 0; y < gh; y++) {
            for (int x = 0; x < gw; x++) {
                uint32_t c = errc[(size_t)y * (size_t)gw + (size_t)x];
                if (!c)
                    continue;
                /* opaque, so errors always win over successes beneath */
                double f = lerr > 0 ? log1p((double)c) / lerr : 1;
                double k = 1 - 0.35 * f;
                uint32_t px = 0xff000000u |
                              (uint32_t)lround(PR_OI_VERMILLION.r * k * 255) << 16 |
                              (uint32_t)lround(PR_OI_VERMILLION.g * k * 255) << 8 |
                              (uint32_t)lround(PR_OI_VERMILLION.b * k * 255);
                for (int dy = -halo; dy <= halo; dy++) {
                    int yy = y + dy;
                    if (yy < 0 || yy >= gh)
                        continue;
                    uint32_t *row = (uint32_t *)(void *)(data + (size_t)yy * (size_t)stride);
                    for (int dx = -halo; dx <= halo; dx++) {
                        int xx = x + dx;
                        if (xx < 0 || xx >= gw)
                            continue;
                        /* the core (one logical pixel) is always drawn; the ring around
                         * it only over empty cells, so a lone error stands out while errors
                         * inside the dense band do not cover more than their share */
                        size_t at2 = (size_t)yy * (size_t)gw + (size_t)xx;
                        int core = dx >= 0 && dy >= 0 && dx < halo && dy < halo;
                        if (core || (!okc[at2] && !errc[at2] && row[xx] >> 24 != 0xff))
                            row[xx] = px;
                    }
                }
            }
        }
        cairo_surface_mark_dirty(img);
    }
    free(okc);
    free(errc);
    cairo_t *cr = cv->cr;
    cv_clip_plot(cv);
    cairo_translate(cr, cv->px, cv->py + cv->ph - gh / res);
    cairo_scale(cr, 1 / res, 1 / res);
    cairo_set_source_surface(cr, img, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
    cairo_paint(cr);
    cv_unclip(cv);
    cairo_surface_destroy(img);
    cv_annotate(cv);
}
