/* Human-readable formatting of durations, rates, byte counts, ratios and chart numbers: the
 * one formatter of numbers for reports, text output and charts. */
#include "analysis/human.h"
#include "model/l10n.h"
#include "model/sample.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The units are words of the catalog (msgctxt "unit"): ns, µs, ms and the byte units are the
 * same symbols in every language, seconds, minutes, hours and "per second" need not be. */
#define U(word) pr_l10n_pgettext(word)

/* Prints v with 3 significant digits (but no exponent), trailing zeros kept for alignment. */
static void sig3(double v, const char *unit, char *buf, size_t size)
{
    double a = fabs(v);
    int decimals = a >= 100 ? 0 : a >= 10 ? 1 : 2;
    snprintf(buf, size, "%.*f %s", decimals, v, unit);
}

/* "-", the unknown value, in any buffer. */
static char *unknown(char *buf, size_t size)
{
    snprintf(buf, size, "-");
    return buf;
}

char *pr_human_duration(int64_t ns, char *buf, size_t size)
{
    if (ns == PR_UNKNOWN)
        return unknown(buf, size);
    double a = fabs((double)ns);
    if (a < 1e3)
        snprintf(buf, size, "%lld %s", (long long)ns, C_("unit", "ns"));
    else if (a < 1e6 - 0.5e3)
        sig3((double)ns / 1e3, C_("unit", "\xc2\xb5s"), buf, size);
    else if (a < 1e9 - 0.5e6)
        sig3((double)ns / 1e6, C_("unit", "ms"), buf, size);
    else if (a < 600e9)
        sig3((double)ns / 1e9, C_("unit", "s"), buf, size);
    else if (a < 36000e9)
        sig3((double)ns / 60e9, C_("unit", "min"), buf, size);
    else
        sig3((double)ns / 3600e9, C_("unit", "h"), buf, size);
    return buf;
}

char *pr_human_duration_res(int64_t ns, int64_t res_ns, char *buf, size_t size)
{
    if (ns != 0 || res_ns <= 1)
        return pr_human_duration(ns, buf, size);
    /* "< 1 ms", "< 100 µs", "< 10 ms", "< 1 s": the resolution in its largest whole unit */
    static const struct {
        int64_t ns;
        const char *unit;
    } units[] = {{3600000000000LL, NC_("unit", "h")}, {60000000000LL, NC_("unit", "min")},
                 {1000000000, NC_("unit", "s")},      {1000000, NC_("unit", "ms")},
                 {1000, NC_("unit", "\xc2\xb5s")},    {1, NC_("unit", "ns")}};
    size_t i = 0;
    while (units[i].ns > res_ns)
        i++;
    snprintf(buf, size, "< %.3g %s", (double)res_ns / (double)units[i].ns, U(units[i].unit));
    return buf;
}

char *pr_human_duration_approx(int64_t ns, int64_t res_ns, char *buf, size_t size)
{
    if (ns == PR_UNKNOWN || res_ns <= 1)
        return pr_human_duration(ns, buf, size);
    if (ns < res_ns)
        return pr_human_duration_res(0, res_ns, buf, size);
    int64_t ticks = (ns + res_ns / 2) / res_ns;
    char d[32];
    if (res_ns == 1000000000 && ticks < 600)
        snprintf(d, sizeof d, "%lld %s", (long long)ticks, C_("unit", "s"));
    else
        pr_human_duration(ticks * res_ns, d, sizeof d);
    snprintf(buf, size, "\xe2\x89\x88 %.27s", d);
    return buf;
}

/* A bound of a rate with 3 significant digits, rounded outward (up for an upper bound). */
static void rate_bound(double r, int up, char *buf, size_t size)
{
    double scale = r >= 100 ? pow(10, floor(log10(r)) - 2) : r >= 10 ? 0.1 : 0.01;
    double v = (up ? ceil(r / scale) : floor(r / scale)) * scale;
    snprintf(buf, size, "%.*f%s", r >= 100 ? 0 : r >= 10 ? 1 : 2, v, C_("unit", "/s"));
}

char *pr_human_rate_range(double low, double high, char *buf, size_t size)
{
    char a[20], b[20];
    if (!isfinite(low) || low <= 0)
        return unknown(buf, size);
    rate_bound(low, 0, a, sizeof a);
    if (!isfinite(high)) {
        snprintf(buf, size, "> %s", a);
        return buf;
    }
    rate_bound(high, 1, b, sizeof b);
    snprintf(buf, size, "%s \xe2\x80\x93 %s", a, b);
    return buf;
}

char *pr_human_rate(double r, char *buf, size_t size)
{
    if (isnan(r))
        return unknown(buf, size);
    if (fabs(r) >= 1e6)
        snprintf(buf, size, "%.2f %s", r / 1e6, C_("unit", "M/s"));
    else if (fabs(r) >= 1e4)
        snprintf(buf, size, "%.1f %s", r / 1e3, C_("unit", "k/s"));
    else
        snprintf(buf, size, "%.2f%s", r, C_("unit", "/s"));
    return buf;
}

char *pr_human_bytes(double b, char *buf, size_t size)
{
    if (isnan(b) || b < 0)
        return unknown(buf, size);
    static const char *const units[] = {NC_("unit", "B"), NC_("unit", "kB"), NC_("unit", "MB"),
                                        NC_("unit", "GB"), NC_("unit", "TB")};
    int u = 0;
    while (b >= 1000 && u < 4) {
        b /= 1000;
        u++;
    }
    if (u == 0)
        snprintf(buf, size, "%.0f %s", b, U(units[0]));
    else
        sig3(b, U(units[u]), buf, size);
    return buf;
}

char *pr_human_percent(double ratio, char *buf, size_t size)
{
    if (isnan(ratio))
        return unknown(buf, size);
    double p = ratio * 100;
    if (p != 0 && fabs(p) < 0.01)
        snprintf(buf, size, "%.4f%%", p);
    else
        snprintf(buf, size, "%.2f%%", p);
    return buf;
}

char *pr_human_count(int64_t n, char *buf, size_t size)
{
    snprintf(buf, size, "%lld", (long long)n);
    return buf;
}

const char *pr_human_duration_unit(double maxabs, double *div)
{
    if (maxabs >= 1e9) {
        *div = 1e9;
        return C_("unit", "s");
    }
    if (maxabs >= 1e6) {
        *div = 1e6;
        return C_("unit", "ms");
    }
    if (maxabs >= 1e3) {
        *div = 1e3;
        return C_("unit", "\xc2\xb5s");
    }
    *div = 1;
    return C_("unit", "ns");
}

char *pr_human_duration_short(double ns, char *buf, size_t size)
{
    double div;
    if (!isfinite(ns)) {
        snprintf(buf, size, "%s", _("n/a"));
        return buf;
    }
    const char *unit = pr_human_duration_unit(fabs(ns), &div);
    double v = ns / div;
    int dec = fabs(v) >= 100 ? 0 : fabs(v) >= 10 ? 1 : 2;
    snprintf(buf, size, "%.*f %s", dec, v, unit);
    /* trim "2.50 ms" -> "2.5 ms", "3.00 ms" -> "3 ms" */
    char *sp = strchr(buf, ' ');
    if (sp && dec > 0) {
        char *e = sp - 1;
        while (e > buf && *e == '0')
            e--;
        if (*e == '.')
            e--;
        memmove(e + 1, sp, strlen(sp) + 1);
    }
    return buf;
}

char *pr_human_number(double v, char *buf, size_t size)
{
    if (!isfinite(v)) {
        snprintf(buf, size, "%s", _("n/a"));
        return buf;
    }
    double a = fabs(v);
    if (a >= 1e9)
        snprintf(buf, size, "%.3gG", v / 1e9);
    else if (a >= 1e6)
        snprintf(buf, size, "%.3gM", v / 1e6);
    else if (a >= 1e4)
        snprintf(buf, size, "%.3gk", v / 1e3);
    else if (a >= 100 || a == floor(a))
        snprintf(buf, size, "%.0f", v);
    else if (a >= 10)
        snprintf(buf, size, "%.1f", v);
    else
        snprintf(buf, size, "%.2f", v);
    return buf;
}
