/* Chart axes: ranges, round 1-2-5 ticks, log and percentile scales, unit-aware tick labels. */
#include "render/chart_priv.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define NS_S 1e9

static int finite_(double v)
{
    return isfinite(v);
}

/* Smallest 1-2-5 number >= raw (raw > 0). */
static double nice125(double raw)
{
    if (!(raw > 0) || !finite_(raw))
        return 1;
    double mag = pow(10, floor(log10(raw)));
    double r = raw / mag;
    double m = r <= 1.0001 ? 1 : r <= 2.0001 ? 2 : r <= 5.0001 ? 5 : 10;
    return m * mag;
}

/* Round steps for time axes (ns): sub-second 1-2-5, then clock-friendly ones. */
static double nice_time(double raw)
{
    static const double steps_s[] = {1,   2,   5,    10,   15,   30,    60,    120,   300,
                                     600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400};
    if (raw < NS_S)
        return nice125(raw);
    for (size_t i = 0; i < sizeof steps_s / sizeof steps_s[0]; i++)
        if (steps_s[i] * NS_S >= raw)
            return steps_s[i] * NS_S;
    return nice125(raw / (86400 * NS_S)) * 86400 * NS_S;
}

double pr_axis_space(const pr_axis *a, double data)
{
    if (a->kind == AX_SPECTRUM) {
        double p = data / 100.0;
        if (!(p < 1 - 1e-5))
            p = 1 - 1e-5;
        if (!(p > 0))
            p = 0;
        return -log10(1 - p);
    }
    if (a->log)
        return data > 0 ? log10(data) : a->lo;
    return data;
}

double pr_axis_map(const pr_axis *a, double data)
{
    double v = pr_axis_space(a, data);
    if (!finite_(v))
        v = v > 0 ? a->hi : a->lo;
    double span = a->hi - a->lo;
    if (!(span > 0))
        span = 1;
    double f = (v - a->lo) / span;
    if (!finite_(f))
        f = 0;
    /* keep far-away values near the plot so cairo never sees huge coordinates */
    if (f < -1)
        f = -1;
    if (f > 2)
        f = 2;
    return a->p0 + f * (a->p1 - a->p0);
}

void pr_axis_set(pr_axis *a, ax_kind kind, int log, double dmin, double dmax, int zero0)
{
    const char *title = a->title;
    int64_t epoch = a->epoch_ns;
    int abs_time = a->abs_time;
    char note[sizeof a->note];
    memcpy(note, a->note, sizeof note);
    memset(a, 0, sizeof *a);
    memcpy(a->note, note, sizeof note);
    a->title = title;
    a->epoch_ns = epoch;
    a->abs_time = abs_time;
    a->kind = kind;
    a->log = log && kind != AX_TIME && kind != AX_SPECTRUM;
    if (!finite_(dmin) || !finite_(dmax) || dmin > dmax) {
        dmin = 0;
        dmax = 1;
    }
    /* keep arithmetic on the range finite */
    if (dmax > 1e200)
        dmax = 1e200;
    if (dmin < -1e200)
        dmin = -1e200;
    if (kind == AX_SPECTRUM) {
        a->lo = 0;
        double hi = pr_axis_space(a, dmax);
        a->hi = hi < 2 ? 2 : ceil(hi - 1e-9);
        if (a->hi > 5)
            a->hi = 5;
        return;
    }
    if (a->log) {
        if (!(dmin > 0))
            dmin = dmax > 0 ? dmax / 10 : 1;
        if (!(dmax > 0))
            dmax = dmin * 10;
        double lo = log10(dmin), hi = log10(dmax);
        if (hi - lo < 1) {
            double mid = (lo + hi) / 2;
            lo = mid - 0.5;
            hi = mid + 0.5;
        }
        double pad = (hi - lo) * 0.04;
        a->lo = lo - pad;
        a->hi = hi + pad;
        return;
    }
    if (zero0 && dmin > 0)
        dmin = 0;
    /* value axes get a little headroom so a line at the maximum is not hidden by the frame */
    if (kind != AX_TIME && dmax > dmin)
        dmax += (dmax - dmin) * 0.03;
    if (dmax - dmin <= 0) {
        double d = fabs(dmax) > 0 ? fabs(dmax) * 0.5 : 1;
        if (kind == AX_TIME && d < NS_S)
            d = NS_S;
        dmax += d;
        if (!zero0)
            dmin -= d;
    }
    a->lo = dmin;
    a->hi = dmax;
}

static void add_tick(pr_axis *a, double v, int lab)
{
    if (a->nt < AX_MAXTICKS) {
        a->t[a->nt] = v;
        a->lab[a->nt] = lab;
        a->nt++;
    }
}

/* epoch + offset in ns, saturated instead of overflowing */
static int64_t add_ns(int64_t epoch, double off)
{
    if (!(off > -9e18))
        off = -9e18;
    if (!(off < 9e18))
        off = 9e18;
    int64_t r;
    if (__builtin_add_overflow(epoch, (int64_t)off, &r))
        r = off > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

void pr_axis_ticks(pr_axis *a, double len_px, double space_px)
{
    a->nt = 0;
    a->div = 1;
    a->unit[0] = 0;
    if (a->kind == AX_NONE)
        return;
    double target = len_px / (space_px > 1 ? space_px : 1);
    if (!(target >= 2))
        target = 2;
    if (target > 12)
        target = 12;
    if (a->kind == AX_SPECTRUM) {
        for (int i = 0; i <= (int)a->hi && i <= 6; i++)
            add_tick(a, i, 1);
        /* 50% between 0 and 90% when there is room */
        if (len_px / (a->hi - a->lo) > 140)
            add_tick(a, log10(2), 1);
        return;
    }
    if (a->log) {
        double span = a->hi - a->lo;
        int all = span <= 3.2 && len_px / span > 120;
        int d0 = (int)floor(a->lo), d1 = (int)ceil(a->hi);
        if (d1 - d0 > 40)
            d0 = d1 - 40;
        for (int d = d0; d <= d1; d++) {
            static const double m[] = {1, 2, 5};
            for (int k = 0; k < 3; k++) {
                double v = d + log10(m[k]);
                if (v >= a->lo - 1e-9 && v <= a->hi + 1e-9)
                    add_tick(a, v, k == 0 || all);
            }
        }
        return;
    }
    double span = a->hi - a->lo;
    double step = a->kind == AX_TIME ? nice_time(span / target) : nice125(span / target);
    if (!(step > 0) || !finite_(step) || span / step > AX_MAXTICKS)
        return;
    a->step = step;
    if (a->kind != AX_TIME) {
        /* value axes end on a round tick */
        double top = ceil(a->hi / step - 1e-9) * step;
        if (top > a->hi)
            a->hi = top;
        double bot = floor(a->lo / step + 1e-9) * step;
        if (bot < a->lo)
            a->lo = bot;
    }
    double first;
    if (a->kind == AX_TIME && a->abs_time) {
        /* round wall-clock instants of the reader's time zone */
        int64_t local = add_ns(a->epoch_ns, (double)pr_l10n_offset_min(a->epoch_ns) * 60e9);
        double e = (double)(local % (int64_t)86400000000000LL);
        first = ceil((e + a->lo) / step - 1e-9) * step - e;
    } else {
        first = ceil(a->lo / step - 1e-9) * step;
    }
    for (int i = 0; i < AX_MAXTICKS; i++) {
        double v = first + i * step;
        if (v > a->hi + step * 1e-6)
            break;
        add_tick(a, fabs(v) < step * 1e-9 ? 0 : v, 1);
    }
    double maxabs = fmax(fabs(a->lo), fabs(a->hi));
    if (a->kind == AX_DUR) {
        snprintf(a->unit, sizeof a->unit, "%s", pr_human_duration_unit(maxabs, &a->div));
    } else if (a->kind == AX_NUM) {
        if (maxabs >= 1e6) {
            a->div = 1e6;
            snprintf(a->unit, sizeof a->unit, "M");
        } else if (maxabs >= 1e4) {
            a->div = 1e3;
            snprintf(a->unit, sizeof a->unit, "k");
        }
    } else if (a->kind == AX_TIME && !a->abs_time) {
        double hi_s = a->hi / NS_S;
        a->tfmt = step < NS_S || hi_s < 300 ? 0 : hi_s < 7200 ? 1 : 2;
    } else if (a->kind == AX_TIME) {
        a->tfmt = step < NS_S ? 3 : step < 60 * NS_S ? 4 : 5;
    }
}

static int decimals_for(double step)
{
    if (!(step > 0))
        return 0;
    int d = (int)ceil(-log10(step) - 1e-9);
    return d < 0 ? 0 : d > 9 ? 9 : d;
}

static void fmt_clock(double ns, int64_t epoch, int fmt, char *buf, size_t n)
{
    /* the wall clock of the reader's time zone (--tz) */
    int64_t abs_ns = add_ns(epoch, ns);
    abs_ns = add_ns(abs_ns, (double)pr_l10n_offset_min(abs_ns) * 60e9);
    int64_t s = abs_ns / 1000000000;
    if (abs_ns % 1000000000 < 0)
        s--;
    int64_t sub = abs_ns - s * 1000000000;
    time_t tt = (time_t)s;
    struct tm tm;
    if (!gmtime_r(&tt, &tm)) {
        snprintf(buf, n, "?");
        return;
    }
    if (fmt == 5)
        snprintf(buf, n, "%02d:%02d", tm.tm_hour, tm.tm_min);
    else if (fmt == 4)
        snprintf(buf, n, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
    else
        snprintf(buf, n, "%02d:%02d.%03d", tm.tm_min, tm.tm_sec, (int)(sub / 1000000));
}

void pr_axis_label(const pr_axis *a, double v, char *buf, size_t n)
{
    switch (a->kind) {
    case AX_SPECTRUM: {
        if (fabs(v - log10(2)) < 1e-9) {
            snprintf(buf, n, "50%%");
            return;
        }
        int k = (int)llround(v);
        static const char *const names[] = {"0%",     "90%",     "99%",     "99.9%",
                                            "99.99%", "99.999%", "99.9999%"};
        snprintf(buf, n, "%s", k >= 0 && k <= 6 ? names[k] : "");
        return;
    }
    case AX_DUR:
        if (a->log) {
            pr_human_duration_short(pow(10, v), buf, n);
            return;
        }
        snprintf(buf, n, "%.*f", decimals_for(a->step / a->div), v / a->div);
        return;
    case AX_NUM:
        if (a->log) {
            pr_human_number(pow(10, v), buf, n);
            return;
        }
        snprintf(buf, n, "%.*f%s", decimals_for(a->step / a->div), v / a->div, a->unit);
        return;
    case AX_RATIO:
        if (a->log)
            snprintf(buf, n, "%g%%", pow(10, v) * 100);
        else
            snprintf(buf, n, "%.*f%%", decimals_for(a->step * 100), v * 100);
        return;
    case AX_TIME:
        if (a->abs_time) {
            fmt_clock(v, a->epoch_ns, a->tfmt, buf, n);
            return;
        }
        if (a->tfmt == 0) {
            snprintf(buf, n, "%.*f", decimals_for(a->step / NS_S), v / NS_S);
        } else {
            long long s = llround(v / NS_S);
            if (a->tfmt == 1)
                snprintf(buf, n, "%lld:%02lld", s / 60, s % 60);
            else
                snprintf(buf, n, "%lld:%02lld", s / 3600, (s / 60) % 60);
        }
        return;
    case AX_NONE: buf[0] = 0; return;
    }
    buf[0] = 0;
}

static void axis_title(const pr_axis *a, char *buf, size_t n)
{
    const char *t = a->title ? a->title : "";
    switch (a->kind) {
    case AX_DUR:
        if (a->log)
            snprintf(buf, n, _("%s (log scale)"), t);
        else /* TRANSLATORS: an axis title and its unit: "Latency (ms)" */
            snprintf(buf, n, _("%s (%s)"), t, a->unit);
        return;
    case AX_TIME:
        if (a->abs_time) {
            /* the reader's time zone: "Time, UTC+08:00 (2026-11-30)" */
            int64_t at = add_ns(a->epoch_ns, a->lo);
            int off = pr_l10n_offset_min(at);
            char zone[16];
            pr_l10n_offset_text(off, zone);
            time_t tt = (time_t)(add_ns(at, (double)off * 60e9) / 1000000000);
            struct tm tm;
            if (gmtime_r(&tt, &tm))
                snprintf(buf, n, _("Time, %s (%04d-%02d-%02d)"), zone, tm.tm_year + 1900,
                         tm.tm_mon + 1, tm.tm_mday);
            else
                snprintf(buf, n, _("Time, %s"), zone);
            return;
        }
        snprintf(buf, n, _("%s (%s)"), t,
                 a->tfmt == 0   ? C_("unit", "s")
                 : a->tfmt == 1 ? C_("unit", "min:s")
                                : C_("unit", "h:min"));
        return;
    default:
        if (a->log)
            snprintf(buf, n, _("%s (log scale)"), t);
        else
            snprintf(buf, n, "%s", t);
        return;
    }
}

void pr_axis_title(const pr_axis *a, char *buf, size_t n)
{
    axis_title(a, buf, n);
    size_t len = strlen(buf);
    if (a->note[0] && len + 4 < n)
        snprintf(buf + len, n - len, " \xc2\xb7 %s", a->note);
}
