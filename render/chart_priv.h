/* Internal to render/chart*.c: the canvas, axes, text and legend helpers the kinds share. */
#ifndef PR_CHART_PRIV_H
#define PR_CHART_PRIV_H
#include <cairo.h>
#include "analysis/human.h"
#include "model/l10n.h"
#include "render/chart.h"

typedef struct rgb {
    double r, g, b;
} rgb;

/* Okabe–Ito, the colour-blind-safe palette. */
extern const rgb PR_OI_BLACK, PR_OI_ORANGE, PR_OI_SKY, PR_OI_GREEN, PR_OI_YELLOW, PR_OI_BLUE,
    PR_OI_VERMILLION, PR_OI_PURPLE;
/* Series colour i (vermillion is kept for errors and comes late). */
rgb pr_chart_series_colour(size_t i);

typedef enum ax_kind {
    AX_NUM,      /* plain number (counts, rates) */
    AX_DUR,      /* duration, data in ns */
    AX_TIME,     /* time since run start, data in ns (abs_time: wall clock labels) */
    AX_RATIO,    /* 0..1 shown as % */
    AX_SPECTRUM, /* percentile, data = -log10(1 - p/100) */
    AX_NONE      /* categories drawn by the kind */
} ax_kind;

#define AX_MAXTICKS 64

typedef struct pr_axis {
    ax_kind kind;
    int log;           /* axis space is log10(data) */
    double lo, hi;     /* axis-space range */
    double p0, p1;     /* pixels of lo and hi */
    const char *title; /* base title; the unit is appended */
    char note[48];     /* appended after the unit, e.g. "1 s intervals" */
    int64_t epoch_ns;  /* AX_TIME abs labels */
    int abs_time;
    int nt;
    double t[AX_MAXTICKS]; /* ticks in axis space */
    int lab[AX_MAXTICKS];  /* 1 = labelled, 0 = grid only */
    double step;           /* linear tick step in data units */
    double div;            /* linear unit divisor */
    char unit[16];         /* unit of linear tick labels */
    int tfmt;              /* time label style */
} pr_axis;

/* Sets the kind and range from data min/max (data units). Linear value axes start at 0 when
 * zero0 is set and end on a round tick; log axes pad by a little. Safe for any doubles. */
void pr_axis_set(pr_axis *a, ax_kind kind, int log, double dmin, double dmax, int zero0);
/* Computes ticks for an axis `len_px` long aiming at one tick per `space_px`. */
void pr_axis_ticks(pr_axis *a, double len_px, double space_px);
/* Formats the label of tick value `v` (axis space). */
void pr_axis_label(const pr_axis *a, double v, char *buf, size_t n);
/* The axis title with its unit, e.g. "Latency (ms)". */
void pr_axis_title(const pr_axis *a, char *buf, size_t n);
/* Maps a data value to pixels (log: data <= 0 maps to lo). */
double pr_axis_map(const pr_axis *a, double data);
/* Axis-space value of a data value (log10 on log axes). */
double pr_axis_space(const pr_axis *a, double data);

enum { LEG_LINE, LEG_DASH, LEG_BOX, LEG_DOT };

typedef struct leg_item {
    rgb c;
    int style;
    char text[160];
} leg_item;

#define CV_MAXLEG 32

struct pr_canvas {
    cairo_t *cr;
    pr_chart_opts o;
    double w, h;           /* logical size */
    double raster_res;     /* device pixels per logical pixel for embedded rasters */
    double top;            /* first free y below title and legend */
    double right_extra;    /* extra right margin the kind needs (annotations) */
    double left_min;       /* minimum left margin (category names) */
    double px, py, pw, ph; /* plot rectangle */
    pr_axis x, y, y2;
    int has_y2;
    int64_t interval_ns; /* time series interval, noted on the time axis (0 = none) */
    int thr_on_x;        /* thresholds belong to the x axis (latency is x) */
    int thr_y2;          /* thresholds belong to y2 */
    int nleg;
    leg_item leg[CV_MAXLEG];
    pr_chart_frame frame;
    int frame_set;
    char title[512]; /* the title drawn (for the SVG <title>) */
    pr_buf desc;     /* text description: axes, legend, notes (for the SVG <desc>) */
};

/* Appends "text; " to the canvas description (what the chart shows, in words). */
void cv_describe(pr_canvas *cv, const char *what, const char *text);

/* Text through pango: anchor (ax, ay) in 0..1 of the text box lands on (x, y). */
void cv_text(pr_canvas *cv, double x, double y, const char *s, double size, int bold, double ax,
             double ay, rgb c, double angle_deg);
/* Same, ellipsized to max_w logical px. */
void cv_text_max(pr_canvas *cv, double x, double y, const char *s, double size, int bold, double ax,
                 double ay, rgb c, double max_w);
void cv_text_size(pr_canvas *cv, const char *s, double size, int bold, double *w, double *h);
/* Text with a white halo box behind it, for annotations over data. */
void cv_text_boxed(pr_canvas *cv, double x, double y, const char *s, double size, double ax,
                   double ay, rgb c);

void cv_colour(pr_canvas *cv, rgb c, double alpha);
/* Title and subtitle; sets cv->top. */
void cv_title(pr_canvas *cv, const char *default_title);
void cv_legend_add(pr_canvas *cv, rgb c, int style, const char *text);
/* Lays out the legend rows under the title (outside the plot); advances cv->top. */
void cv_legend(pr_canvas *cv);
/* Places the plot rectangle inside (x0,y0)-(x1,y1) leaving room for ticks and titles, sets the
 * axes' pixel ends and draws grid, axes, ticks and titles. */
void cv_plot_in(pr_canvas *cv, double x0, double y0, double x1, double y1);
/* cv_plot_in over the whole area under cv->top. */
void cv_plot(pr_canvas *cv);
void cv_clip_plot(pr_canvas *cv);
void cv_unclip(pr_canvas *cv);
/* Threshold and marker annotations, then the plot border. */
void cv_annotate(pr_canvas *cv);
void cv_nodata(pr_canvas *cv, const char *why);
/* Widens [*lo, *hi] (data units) to include the thresholds. */
void cv_include_thresholds(pr_canvas *cv, double *lo, double *hi);

/* Whether [t0_ns, t1_ns] overlaps the time window of the options (always, without one). */
int cv_in_window(const pr_canvas *cv, double t0_ns, double t1_ns);
/* Sets the x axis to time since start: the window, or 0..tmax_ns. */
void cv_time_axis(pr_canvas *cv, double tmax_ns);

/* Chooses log for a latency axis from data min/max (> 0) and the option. */
int cv_want_log(const pr_canvas *cv, double min, double max);

/* Kinds (render/chart_kinds.c, render/chart_scatter.c). */
void pr_chart_draw_latency(pr_canvas *cv, const pr_chart_input *in);

#endif
