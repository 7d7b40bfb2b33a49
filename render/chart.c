/* Chart canvas: output surfaces (PNG/SVG/PDF), pango text, title, legend, plot frame, annotations. */
#include "render/chart_priv.h"
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include "model/clock.h"
#include "model/xalloc.h"

const rgb PR_OI_BLACK = {0, 0, 0};
const rgb PR_OI_ORANGE = {230 / 255.0, 159 / 255.0, 0};
const rgb PR_OI_SKY = {86 / 255.0, 180 / 255.0, 233 / 255.0};
const rgb PR_OI_GREEN = {0, 158 / 255.0, 115 / 255.0};
const rgb PR_OI_YELLOW = {240 / 255.0, 228 / 255.0, 66 / 255.0};
const rgb PR_OI_BLUE = {0, 114 / 255.0, 178 / 255.0};
const rgb PR_OI_VERMILLION = {213 / 255.0, 94 / 255.0, 0};
const rgb PR_OI_PURPLE = {204 / 255.0, 121 / 255.0, 167 / 255.0};

static const rgb INK = {0.13, 0.13, 0.13};
static const rgb INK2 = {0.33, 0.33, 0.33};
static const rgb GRID = {0.87, 0.87, 0.87};
static const rgb GRID2 = {0.94, 0.94, 0.94};

#define MARGIN 16.0
#define FS_TITLE 17.0
#define FS_SUB 12.0
#define FS_TICK 11.0
#define FS_AXIS 12.0
#define FS_LEG 12.0
#define FS_NOTE 11.0

rgb pr_chart_series_colour(size_t i)
{
    const rgb *order[] = {&PR_OI_BLUE, &PR_OI_ORANGE, &PR_OI_GREEN,      &PR_OI_PURPLE,
                          &PR_OI_SKY,  &PR_OI_BLACK,  &PR_OI_VERMILLION, &PR_OI_YELLOW};
    return *order[i % 8];
}

void cv_colour(pr_canvas *cv, rgb c, double alpha)
{
    if (alpha >= 1)
        cairo_set_source_rgb(cv->cr, c.r, c.g, c.b);
    else
        cairo_set_source_rgba(cv->cr, c.r, c.g, c.b, alpha);
}

/* ---- text ---------------------------------------------------------------------------- */

static PangoLayout *make_layout(pr_canvas *cv, const char *s, double size, int bold)
{
    PangoLayout *l = pango_cairo_create_layout(cv->cr);
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    pango_cairo_context_set_font_options(pango_layout_get_context(l), fo);
    cairo_font_options_destroy(fo);
    pango_layout_context_changed(l);
    PangoFontDescription *fd =
        pango_font_description_from_string(cv->o.font ? cv->o.font : PR_CHART_FONT);
    pango_font_description_set_absolute_size(fd, size * PANGO_SCALE);
    pango_font_description_set_weight(fd, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_layout_set_font_description(l, fd);
    pango_font_description_free(fd);
    pango_layout_set_text(l, s ? s : "", -1);
    return l;
}

void cv_text_size(pr_canvas *cv, const char *s, double size, int bold, double *w, double *h)
{
    PangoLayout *l = make_layout(cv, s, size, bold);
    int iw, ih;
    pango_layout_get_size(l, &iw, &ih);
    *w = (double)iw / PANGO_SCALE;
    *h = (double)ih / PANGO_SCALE;
    g_object_unref(l);
}

static void show_layout(pr_canvas *cv, PangoLayout *l, double x, double y, double ax, double ay,
                        rgb c, double angle_deg)
{
    int iw, ih;
    pango_layout_get_size(l, &iw, &ih);
    double w = (double)iw / PANGO_SCALE, h = (double)ih / PANGO_SCALE;
    cairo_save(cv->cr);
    cairo_translate(cv->cr, x, y);
    if (angle_deg != 0)
        cairo_rotate(cv->cr, angle_deg * M_PI / 180);
    cairo_move_to(cv->cr, -ax * w, -ay * h);
    cv_colour(cv, c, 1);
    pango_cairo_update_layout(cv->cr, l);
    pango_cairo_show_layout(cv->cr, l);
    cairo_restore(cv->cr);
}

void cv_text(pr_canvas *cv, double x, double y, const char *s, double size, int bold, double ax,
             double ay, rgb c, double angle_deg)
{
    if (!s || !*s)
        return;
    PangoLayout *l = make_layout(cv, s, size, bold);
    show_layout(cv, l, x, y, ax, ay, c, angle_deg);
    g_object_unref(l);
}

void cv_text_max(pr_canvas *cv, double x, double y, const char *s, double size, int bold, double ax,
                 double ay, rgb c, double max_w)
{
    if (!s || !*s)
        return;
    PangoLayout *l = make_layout(cv, s, size, bold);
    if (max_w > 4) {
        pango_layout_set_width(l, (int)(max_w * PANGO_SCALE));
        pango_layout_set_ellipsize(l, PANGO_ELLIPSIZE_END);
    }
    PangoRectangle logical;
    pango_layout_get_extents(l, NULL, &logical);
    double w = (double)logical.width / PANGO_SCALE, h = (double)logical.height / PANGO_SCALE;
    cairo_save(cv->cr);
    cairo_move_to(cv->cr, x - ax * w - (double)logical.x / PANGO_SCALE, y - ay * h);
    cv_colour(cv, c, 1);
    pango_cairo_update_layout(cv->cr, l);
    pango_cairo_show_layout(cv->cr, l);
    cairo_restore(cv->cr);
    g_object_unref(l);
}

void cv_text_boxed(pr_canvas *cv, double x, double y, const char *s, double size, double ax,
                   double ay, rgb c)
{
    double w, h;
    cv_text_size(cv, s, size, 0, &w, &h);
    double bx = x - ax * w, by = y - ay * h;
    cairo_rectangle(cv->cr, bx - 3, by - 1, w + 6, h + 2);
    cairo_set_source_rgba(cv->cr, 1, 1, 1, 0.85);
    cairo_fill(cv->cr);
    cv_text(cv, x, y, s, size, 0, ax, ay, c, 0);
}

int pr_chart_missing_glyphs(const char *utf8, const char *font)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 4, 4);
    cairo_t *cr = cairo_create(s);
    pr_canvas cv;
    memset(&cv, 0, sizeof cv);
    cv.cr = cr;
    cv.o.font = font;
    PangoLayout *l = make_layout(&cv, utf8, 12, 0);
    int n = pango_layout_get_unknown_glyphs_count(l);
    g_object_unref(l);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    return n;
}

void pr_chart_shutdown(void)
{
    /* Drops pango's default font map. fontconfig's own caches are left to the process exit:
     * FcFini() while cairo's font-face cache still holds patterns trips fontconfig's
     * assertion (FcCacheFini: fcCacheChains[i] == NULL), seen under the sanitizers; those
     * caches are listed in tests/lsan.supp. */
    pango_cairo_font_map_set_default(NULL);
}

/* ---- title, legend ---------------------------------------------------------------- */

void cv_describe(pr_canvas *cv, const char *what, const char *text)
{
    if (!text || !*text || cv->desc.len > 16000)
        return;
    if (cv->desc.len)
        pr_buf_puts(&cv->desc, "; ");
    if (what)
        pr_buf_printf(&cv->desc, "%s: ", what);
    pr_buf_puts(&cv->desc, text);
}

void cv_title(pr_canvas *cv, const char *default_title)
{
    const char *t = cv->o.title ? cv->o.title : default_title;
    snprintf(cv->title, sizeof cv->title, "%s", t ? t : "");
    cv_describe(cv, NULL, cv->o.subtitle);
    double y = MARGIN - 4;
    double w, h;
    if (t && *t) {
        cv_text_size(cv, t, FS_TITLE, 1, &w, &h);
        cv_text_max(cv, MARGIN, y, t, FS_TITLE, 1, 0, 0, INK, cv->w - 2 * MARGIN);
        y += h + 1;
    }
    if (cv->o.subtitle && *cv->o.subtitle) {
        cv_text_size(cv, cv->o.subtitle, FS_SUB, 0, &w, &h);
        cv_text_max(cv, MARGIN, y, cv->o.subtitle, FS_SUB, 0, 0, 0, INK2, cv->w - 2 * MARGIN);
        y += h;
    }
    cv->top = y + 4;
}

void cv_legend_add(pr_canvas *cv, rgb c, int style, const char *text)
{
    if (cv->nleg >= CV_MAXLEG)
        return;
    leg_item *it = &cv->leg[cv->nleg++];
    it->c = c;
    it->style = style;
    snprintf(it->text, sizeof it->text, "%s", text ? text : "");
    cv_describe(cv, _("legend"), it->text);
}

static void legend_swatch(pr_canvas *cv, const leg_item *it, double x, double ymid)
{
    cairo_t *cr = cv->cr;
    cairo_save(cr);
    cv_colour(cv, it->c, 1);
    switch (it->style) {
    case LEG_BOX:
        cairo_rectangle(cr, x, ymid - 5, 14, 10);
        cairo_fill(cr);
        break;
    case LEG_DOT:
        cairo_arc(cr, x + 7, ymid, 4, 0, 2 * M_PI);
        cairo_fill(cr);
        break;
    case LEG_DASH: {
        double d[] = {5, 3};
        cairo_set_dash(cr, d, 2, 0);
    }
        /* fall through */
    default:
        cairo_set_line_width(cr, 2.5);
        cairo_move_to(cr, x, ymid);
        cairo_line_to(cr, x + 18, ymid);
        cairo_stroke(cr);
        break;
    }
    cairo_restore(cr);
}

void cv_legend(pr_canvas *cv)
{
    if (cv->nleg == 0)
        return;
    double x = MARGIN, y = cv->top + 2, rowh = 0;
    for (int i = 0; i < cv->nleg; i++) {
        double w, h;
        cv_text_size(cv, cv->leg[i].text, FS_LEG, 0, &w, &h);
        double maxw = cv->w - 2 * MARGIN - 24;
        if (w > maxw)
            w = maxw;
        double iw = 24 + w + 18;
        if (x > MARGIN && x + iw > cv->w - MARGIN) {
            x = MARGIN;
            y += rowh + 3;
            rowh = 0;
        }
        legend_swatch(cv, &cv->leg[i], x, y + h / 2);
        cv_text_max(cv, x + 24, y, cv->leg[i].text, FS_LEG, 0, 0, 0, INK, maxw);
        if (h > rowh)
            rowh = h;
        x += iw;
    }
    cv->top = y + rowh + 4;
}

/* ---- plot frame -------------------------------------------------------------------- */

static double max_tick_width(pr_canvas *cv, const pr_axis *a)
{
    double m = 0;
    char buf[64];
    for (int i = 0; i < a->nt; i++) {
        if (!a->lab[i])
            continue;
        double w, h;
        pr_axis_label(a, a->t[i], buf, sizeof buf);
        cv_text_size(cv, buf, FS_TICK, 0, &w, &h);
        if (w > m)
            m = w;
    }
    return m;
}

static void grid_and_ticks(pr_canvas *cv, pr_axis *a, int vertical_axis, int right)
{
    cairo_t *cr = cv->cr;
    char buf[64];
    for (int i = 0; i < a->nt; i++) {
        double v = a->t[i];
        double span = a->hi - a->lo;
        double p = a->p0 + (v - a->lo) / (span > 0 ? span : 1) * (a->p1 - a->p0);
        if (!right) {
            cv_colour(cv, a->lab[i] ? GRID : GRID2, 1);
            cairo_set_line_width(cr, 1);
            if (vertical_axis) {
                double yy = floor(p) + 0.5;
                cairo_move_to(cr, cv->px, yy);
                cairo_line_to(cr, cv->px + cv->pw, yy);
            } else {
                double xx = floor(p) + 0.5;
                cairo_move_to(cr, xx, cv->py);
                cairo_line_to(cr, xx, cv->py + cv->ph);
            }
            cairo_stroke(cr);
        }
        if (!a->lab[i])
            continue;
        pr_axis_label(a, v, buf, sizeof buf);
        if (vertical_axis) {
            if (right)
                cv_text(cv, cv->px + cv->pw + 6, p, buf, FS_TICK, 0, 0, 0.5, INK2, 0);
            else
                cv_text(cv, cv->px - 6, p, buf, FS_TICK, 0, 1, 0.5, INK2, 0);
        } else {
            cv_text(cv, p, cv->py + cv->ph + 5, buf, FS_TICK, 0, 0.5, 0, INK2, 0);
        }
    }
}

void cv_plot_in(pr_canvas *cv, double x0, double y0, double x1, double y1)
{
    char t[200];
    double tw, axh;
    cv_text_size(cv, "Ag", FS_AXIS, 0, &tw, &axh);
    double tickh;
    cv_text_size(cv, "0", FS_TICK, 0, &tw, &tickh);
    int has_xtitle = cv->x.kind != AX_NONE || cv->x.title;
    double bottom = y1 - (has_xtitle ? axh + 4 : 0) - (cv->x.kind != AX_NONE ? tickh + 6 : 0);
    double top = y0 + 4;
    if (bottom - top < 10)
        bottom = top + 10;
    pr_axis_ticks(&cv->y, bottom - top, 45);
    if (cv->has_y2)
        pr_axis_ticks(&cv->y2, bottom - top, 45);
    double yw = max_tick_width(cv, &cv->y);
    double left = x0 + (cv->y.title ? axh + 6 : 0) + yw + 8;
    if (left < x0 + cv->left_min)
        left = x0 + cv->left_min;
    double right = x1 - cv->right_extra;
    if (cv->has_y2)
        right -= max_tick_width(cv, &cv->y2) + 8 + (cv->y2.title ? axh + 6 : 0);
    else if (cv->x.kind != AX_NONE)
        right -= 12;
    if (right - left < 10)
        right = left + 10;
    cv->px = left;
    cv->py = top;
    cv->pw = right - left;
    cv->ph = bottom - top;
    cv->x.p0 = left;
    cv->x.p1 = right;
    cv->y.p0 = bottom;
    cv->y.p1 = top;
    cv->y2.p0 = bottom;
    cv->y2.p1 = top;
    if (cv->x.kind != AX_NONE) {
        char probe[64];
        pr_axis_ticks(&cv->x, cv->pw, 100);
        double xw = 0;
        for (int i = 0; i < cv->x.nt; i++) {
            double w, h;
            pr_axis_label(&cv->x, cv->x.t[i], probe, sizeof probe);
            cv_text_size(cv, probe, FS_TICK, 0, &w, &h);
            if (w > xw)
                xw = w;
        }
        if (cv->x.nt > 1 && xw + 16 > cv->pw / cv->x.nt)
            pr_axis_ticks(&cv->x, cv->pw, xw + 30);
    }

    cairo_t *cr = cv->cr;
    grid_and_ticks(cv, &cv->y, 1, 0);
    if (cv->x.kind != AX_NONE)
        grid_and_ticks(cv, &cv->x, 0, 0);
    if (cv->has_y2)
        grid_and_ticks(cv, &cv->y2, 1, 1);
    /* axis titles */
    if (cv->y.title) {
        pr_axis_title(&cv->y, t, sizeof t);
        cv_describe(cv, _("y axis"), t);
        cv_text(cv, x0, top + cv->ph / 2, t, FS_AXIS, 0, 0.5, 0, INK, -90);
    }
    if (cv->has_y2 && cv->y2.title) {
        pr_axis_title(&cv->y2, t, sizeof t);
        cv_describe(cv, _("right axis"), t);
        cv_text(cv, x1 - cv->right_extra, top + cv->ph / 2, t, FS_AXIS, 0, 0.5, 0, INK, 90);
    }
    if (cv->x.title) {
        pr_axis_title(&cv->x, t, sizeof t);
        cv_describe(cv, _("x axis"), t);
        cv_text(cv, left + cv->pw / 2, y1, t, FS_AXIS, 0, 0.5, 1, INK, 0);
    }
    (void)cr;
    if (!cv->frame_set) {
        cv->frame.plot_x = cv->px;
        cv->frame.plot_y = cv->py;
        cv->frame.plot_w = cv->pw;
        cv->frame.plot_h = cv->ph;
        cv->frame.x_min = cv->x.lo;
        cv->frame.x_max = cv->x.hi;
        cv->frame.y_min = cv->y.lo;
        cv->frame.y_max = cv->y.hi;
        cv->frame.x_log = cv->x.log;
        cv->frame.y_log = cv->y.log;
        cv->frame_set = 1;
    }
}

void cv_plot(pr_canvas *cv)
{
    cv_plot_in(cv, MARGIN, cv->top, cv->w - MARGIN, cv->h - MARGIN + 2);
}

void cv_clip_plot(pr_canvas *cv)
{
    cairo_save(cv->cr);
    cairo_rectangle(cv->cr, cv->px, cv->py, cv->pw, cv->ph);
    cairo_clip(cv->cr);
}

void cv_unclip(pr_canvas *cv)
{
    cairo_restore(cv->cr);
}

void cv_include_thresholds(pr_canvas *cv, double *lo, double *hi)
{
    for (size_t i = 0; i < cv->o.n_thresholds; i++) {
        double v = cv->o.thresholds[i].value;
        if (!isfinite(v))
            continue;
        if (v < *lo)
            *lo = v;
        if (v * 1.05 > *hi)
            *hi = v * 1.05;
    }
}

int cv_in_window(const pr_canvas *cv, double t0_ns, double t1_ns)
{
    if (cv->o.to_ns <= cv->o.from_ns)
        return 1;
    return t1_ns >= (double)cv->o.from_ns && t0_ns <= (double)cv->o.to_ns;
}

void cv_time_axis(pr_canvas *cv, double tmax_ns)
{
    cv->x.title = _("Time since run start");
    if (cv->interval_ns > 0) {
        char d[32];
        pr_human_duration_short((double)cv->interval_ns, d, sizeof d);
        snprintf(cv->x.note, sizeof cv->x.note, _("%s intervals"), d);
    }
    if (cv->o.to_ns > cv->o.from_ns)
        pr_axis_set(&cv->x, AX_TIME, 0, (double)cv->o.from_ns, (double)cv->o.to_ns, 0);
    else
        pr_axis_set(&cv->x, AX_TIME, 0, 0, tmax_ns, 1);
}

int cv_want_log(const pr_canvas *cv, double min, double max)
{
    if (cv->o.log_y == PR_CHART_LOG_ON)
        return 1;
    if (cv->o.log_y == PR_CHART_LOG_OFF)
        return 0;
    return min > 0 && max / min >= 50;
}

void cv_annotate(pr_canvas *cv)
{
    cairo_t *cr = cv->cr;
    static const rgb ANN = {0.2, 0.2, 0.2};
    double dash[] = {6, 4};
    cv_clip_plot(cv);
    for (size_t i = 0; i < cv->o.n_thresholds; i++) {
        const pr_chart_threshold *t = &cv->o.thresholds[i];
        if (!isfinite(t->value))
            continue;
        const pr_axis *a = cv->thr_on_x ? &cv->x : cv->thr_y2 ? &cv->y2 : &cv->y;
        double p = pr_axis_map(a, t->value);
        cairo_save(cr);
        cairo_set_dash(cr, dash, 2, 0);
        cairo_set_line_width(cr, 1.5);
        cv_colour(cv, ANN, 1);
        if (cv->thr_on_x) {
            cairo_move_to(cr, p, cv->py);
            cairo_line_to(cr, p, cv->py + cv->ph);
        } else {
            cairo_move_to(cr, cv->px, p);
            cairo_line_to(cr, cv->px + cv->pw, p);
        }
        cairo_stroke(cr);
        cairo_restore(cr);
        cv_describe(cv, _("threshold"), t->label);
        if (cv->thr_on_x)
            cv_text_boxed(cv, p + 4, cv->py + 4, t->label, FS_NOTE, 0, 0, ANN);
        else
            cv_text_boxed(cv, cv->px + cv->pw - 6, p - 3, t->label, FS_NOTE, 1, 1, ANN);
    }
    for (size_t i = 0; i < cv->o.n_markers; i++) {
        const pr_chart_marker *m = &cv->o.markers[i];
        if (!isfinite(m->x) || cv->x.kind == AX_NONE)
            continue;
        double p = pr_axis_map(&cv->x, m->x);
        cv_describe(cv, _("marked"), m->label);
        cairo_save(cr);
        cairo_set_line_width(cr, 1.5);
        cv_colour(cv, PR_OI_PURPLE, 1);
        cairo_set_dash(cr, dash, 2, 0);
        cairo_move_to(cr, p, cv->py);
        cairo_line_to(cr, p, cv->py + cv->ph);
        cairo_stroke(cr);
        cairo_restore(cr);
        if (isfinite(m->y)) {
            double py = pr_axis_map(&cv->y, m->y);
            cairo_arc(cr, p, py, 6, 0, 2 * M_PI);
            cairo_set_line_width(cr, 2.5);
            cv_colour(cv, PR_OI_PURPLE, 1);
            cairo_stroke(cr);
        }
        double w, h;
        cv_text_size(cv, m->label ? m->label : "", FS_NOTE, 0, &w, &h);
        int flip = p + 4 + w > cv->px + cv->pw;
        cv_text_boxed(cv, flip ? p - 4 : p + 4,
                      cv->py + 4 + (cv->o.n_thresholds && cv->thr_on_x ? h + 4 : 0), m->label,
                      FS_NOTE, flip ? 1 : 0, 0, (rgb){0.45, 0.2, 0.4});
    }
    cv_unclip(cv);
    /* plot border: left and bottom axis lines */
    cv_colour(cv, INK2, 1);
    cairo_set_line_width(cr, 1);
    double l = floor(cv->px) + 0.5, b = floor(cv->py + cv->ph) + 0.5;
    cairo_move_to(cr, l, cv->py);
    cairo_line_to(cr, l, b);
    cairo_line_to(cr, cv->px + cv->pw, b);
    if (cv->has_y2)
        cairo_line_to(cr, cv->px + cv->pw, cv->py);
    cairo_stroke(cr);
}

void cv_nodata(pr_canvas *cv, const char *why)
{
    cv_describe(cv, NULL, why ? why : _("No data"));
    cv_text(cv, cv->px + cv->pw / 2, cv->py + cv->ph / 2, why ? why : _("No data"), 14, 0, 0.5, 0.5,
            INK2, 0);
}

/* ---- output ------------------------------------------------------------------------- */

void pr_chart_opts_init(pr_chart_opts *o)
{
    memset(o, 0, sizeof *o);
    o->width = 1200;
    o->height = 675;
    o->scale = 1;
    o->log_y = PR_CHART_LOG_AUTO;
}

int pr_chart_format_for_path(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (!dot)
        return -1;
    if (!strcasecmp(dot, ".png"))
        return PR_CHART_PNG;
    if (!strcasecmp(dot, ".svg"))
        return PR_CHART_SVG;
    if (!strcasecmp(dot, ".pdf"))
        return PR_CHART_PDF;
    return -1;
}

const pr_chart_kind *pr_chart_kind_find(const char *name)
{
    for (size_t i = 0; name && i < pr_chart_nkinds; i++)
        if (!strcmp(pr_chart_kinds[i].name, name))
            return &pr_chart_kinds[i];
    return NULL;
}

static cairo_status_t write_buf(void *closure, const unsigned char *data, unsigned int len)
{
    pr_buf *b = closure;
    pr_buf_append(b, data, len);
    return b->overflow ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

static const char *missing_input(const pr_chart_kind *k, const pr_chart_input *in)
{
    if ((k->needs & PR_CHART_NEEDS_POINTS) && !in->points)
        return _("per-sample points");
    if ((k->needs & PR_CHART_NEEDS_TS) && !in->ts)
        return _("a time series");
    if ((k->needs & PR_CHART_NEEDS_DISTS) && !in->dists && in->n_dists)
        return _("latency distributions");
    if ((k->needs & PR_CHART_NEEDS_LABELS) && !in->labels)
        return _("per-label statistics");
    if ((k->needs & PR_CHART_NEEDS_COMPARE) && !in->compare)
        return _("a run comparison");
    if ((k->needs & PR_CHART_NEEDS_CAPACITY) && !in->capacity)
        return _("a capacity series");
    return NULL;
}

/* Creation date for PDF metadata: SOURCE_DATE_EPOCH or the epoch, so output is reproducible. */
static void pdf_date(char *buf, size_t n)
{
    int64_t s = 0;
    pr_clock_source_date(&s);
    time_t tt = (time_t)s;
    struct tm tm;
    if (!gmtime_r(&tt, &tm)) {
        snprintf(buf, n, "1970-01-01T00:00:00Z");
        return;
    }
    snprintf(buf, n, "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
             tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static void xml_escape(pr_buf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': pr_buf_puts(b, "&lt;"); break;
        case '>': pr_buf_puts(b, "&gt;"); break;
        case '&': pr_buf_puts(b, "&amp;"); break;
        case '"': pr_buf_puts(b, "&quot;"); break;
        default:
            /* control characters are not allowed in XML 1.0 */
            if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n')
                pr_buf_putc(b, ' ');
            else
                pr_buf_putc(b, *s);
        }
    }
}

/* Appends cairo's SVG body renumbering the ids cairo takes from process-wide counters
 * (image5, surface9 …) in order of first use, so two renders in one process are identical. */
static void svg_stable_ids(pr_buf *out, const char *p, size_t n)
{
    static const char *const prefixes[] = {"image", "surface", "pattern", "source", "mask"};
    enum { MAXMAP = 1024 };
    struct {
        int prefix;
        unsigned long from, to;
    } map[MAXMAP];
    size_t nmap = 0;
    unsigned long next[5] = {1, 1, 1, 1, 1};
    size_t i = 0, copied = 0;
    while (i < n) {
        size_t j;
        if (p[i] == '#')
            j = i + 1;
        else if (p[i] == 'i' && n - i > 4 && !memcmp(p + i, "id=\"", 4))
            j = i + 4;
        else {
            i++;
            continue;
        }
        int hit = -1;
        size_t plen = 0;
        for (int k = 0; k < 5; k++) {
            plen = strlen(prefixes[k]);
            if (n - j > plen && !memcmp(p + j, prefixes[k], plen) && p[j + plen] >= '0' &&
                p[j + plen] <= '9') {
                hit = k;
                break;
            }
        }
        if (hit < 0) {
            i = j;
            continue;
        }
        size_t d = j + plen;
        unsigned long num = 0;
        while (d < n && p[d] >= '0' && p[d] <= '9' && num < 100000000ul)
            num = num * 10 + (unsigned long)(p[d++] - '0');
        unsigned long to = num;
        size_t m;
        for (m = 0; m < nmap; m++)
            if (map[m].prefix == hit && map[m].from == num)
                break;
        if (m < nmap)
            to = map[m].to;
        else if (nmap < MAXMAP) {
            map[nmap].prefix = hit;
            map[nmap].from = num;
            to = map[nmap].to = next[hit]++;
            nmap++;
        }
        pr_buf_append(out, p + copied, j + plen - copied);
        pr_buf_printf(out, "%lu", to);
        copied = i = d;
    }
    pr_buf_append(out, p + copied, n - copied);
}

/* Copies cairo's SVG into out with <title> and <desc> after the opening <svg> tag: cairo
 * draws text as glyph outlines, so this is what search, screen readers and tests can read. */
static void svg_with_text(pr_buf *out, const pr_buf *svg, const pr_canvas *cv)
{
    const char *p = svg->p ? strstr(svg->p, "<svg") : NULL;
    const char *gt = p ? strchr(p, '>') : NULL;
    if (!gt) {
        pr_buf_append(out, svg->p, svg->len);
        return;
    }
    size_t head = (size_t)(gt + 1 - svg->p);
    pr_buf_append(out, svg->p, head);
    pr_buf_puts(out, "\n<title>");
    xml_escape(out, cv->title);
    pr_buf_puts(out, "</title>\n<desc>");
    xml_escape(out, cv->desc.p ? cv->desc.p : "");
    pr_buf_puts(out, "</desc>");
    svg_stable_ids(out, svg->p + head, svg->len - head);
}

int pr_chart_render_buf(const pr_chart_kind *kind, const pr_chart_input *in,
                        const pr_chart_opts *opts, pr_chart_format fmt, pr_buf *out,
                        pr_chart_frame *frame, pr_error *err)
{
    pr_chart_opts o;
    if (opts)
        o = *opts;
    else
        pr_chart_opts_init(&o);
    if (o.width == 0)
        o.width = 1200;
    if (o.height == 0)
        o.height = 675;
    if (!(o.scale > 0))
        o.scale = 1;
    if (!kind)
        return pr_error_set(err, PR_EUSAGE, "", 0, 0, "%s", _("no chart kind given"));
    if (o.width < 16 || o.width > 20000 || o.height < 16 || o.height > 20000)
        return pr_error_set(err, PR_EUSAGE, "", 0, 0,
                            _("chart size %dx%d out of range (expected 16..20000 px each)"),
                            o.width, o.height);
    if (!isfinite(o.scale) || o.scale > 8 ||
        (double)o.width * o.scale * (double)o.height * o.scale > 200e6 || o.width * o.scale < 1 ||
        o.height * o.scale < 1)
        return pr_error_set(err, PR_EUSAGE, "", 0, 0,
                            _("chart scale %g out of range (expected 0 < scale <= 8 and at "
                              "most 200 Mpixel)"),
                            o.scale);
    pr_chart_input none;
    memset(&none, 0, sizeof none);
    if (!in)
        in = &none;
    const char *miss = missing_input(kind, in);
    if (miss)
        return pr_error_set(err, PR_EUSAGE, "", 0, 0, _("chart '%s' needs %s"), kind->name, miss);

    cairo_surface_t *s;
    pr_buf svg = PR_BUF_INIT;
    if (fmt == PR_CHART_PNG) {
        s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)ceil(o.width * o.scale),
                                       (int)ceil(o.height * o.scale));
    } else if (fmt == PR_CHART_SVG) {
        s = cairo_svg_surface_create_for_stream(write_buf, &svg, o.width, o.height);
        cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PX);
    } else if (fmt == PR_CHART_PDF) {
        s = cairo_pdf_surface_create_for_stream(write_buf, out, o.width, o.height);
        char date[40];
        pdf_date(date, sizeof date);
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, date);
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_MOD_DATE, date);
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "perfreport");
        if (o.title)
            cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, o.title);
    } else {
        return pr_error_set(err, PR_EUSAGE, "", 0, 0, _("unknown chart format %d"), (int)fmt);
    }
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        const char *m = cairo_status_to_string(cairo_surface_status(s));
        cairo_surface_destroy(s);
        return pr_error_set(err, PR_EIO, "", 0, 0, "cairo: %s", m);
    }
    pr_canvas *cv = pr_xcalloc(1, sizeof *cv);
    cv->o = o;
    cv->w = o.width;
    cv->h = o.height;
    cv->raster_res = fmt == PR_CHART_PNG ? o.scale : 1;
    cv->cr = cairo_create(s);
    if (fmt == PR_CHART_PNG)
        cairo_scale(cv->cr, o.scale, o.scale);
    cairo_set_source_rgb(cv->cr, 1, 1, 1);
    cairo_paint(cv->cr);
    cv->x.abs_time = o.abs_time;
    cv->x.epoch_ns = o.start_ns;
    kind->draw(cv, in);
    cairo_status_t st = cairo_status(cv->cr);
    cairo_destroy(cv->cr);
    if (st == CAIRO_STATUS_SUCCESS && fmt == PR_CHART_PNG)
        st = cairo_surface_write_to_png_stream(s, write_buf, out);
    cairo_surface_finish(s);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(s);
    cairo_surface_destroy(s);
    if (frame)
        *frame = cv->frame;
    int svg_overflow = svg.overflow;
    if (fmt == PR_CHART_SVG && st == CAIRO_STATUS_SUCCESS && !svg_overflow)
        svg_with_text(out, &svg, cv);
    pr_buf_dispose(&svg);
    pr_buf_dispose(&cv->desc);
    free(cv);
    if (st != CAIRO_STATUS_SUCCESS || out->overflow || svg_overflow)
        return pr_error_set(err, PR_EIO, "", 0, 0, _("drawing chart '%s' failed: %s"), kind->name,
                            out->overflow || svg_overflow ? _("output too large")
                                                          : cairo_status_to_string(st));
    return 0;
}

int pr_chart_render_file(const pr_chart_kind *kind, const pr_chart_input *in,
                         const pr_chart_opts *opts, const char *path, pr_chart_frame *frame,
                         pr_error *err)
{
    int fmt = pr_chart_format_for_path(path);
    if (fmt < 0)
        return pr_error_set(err, PR_EUSAGE, path ? path : "", 0, 0,
                            _("unknown chart format (expected a .png, .svg or .pdf file name)"));
    pr_buf b = PR_BUF_INIT;
    int rc = pr_chart_render_buf(kind, in, opts, (pr_chart_format)fmt, &b, frame, err);
    if (rc < 0) {
        if (err)
            snprintf(err->path, sizeof err->path, "%s", path);
        pr_buf_dispose(&b);
        return rc;
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        pr_buf_dispose(&b);
        return pr_error_set(err, PR_EIO, path, 0, 0, _("cannot create chart file: %s"),
                            strerror(errno));
    }
    size_t w = b.len ? fwrite(b.p, 1, b.len, f) : 0;
    int bad = w != b.len;
    if (fclose(f) != 0)
        bad = 1;
    pr_buf_dispose(&b);
    if (bad) {
        int e = errno;
        unlink(path); /* never leave a truncated chart behind */
        return pr_error_set(err, PR_EIO, path, 0, 0, _("writing chart file failed: %s"),
                            strerror(e));
    }
    return 0;
}
