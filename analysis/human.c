/* Human-readable formatting of durations, rates, byte counts and ratios. */
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
static void sig3(double v, const char *unit, char *buf)
{
    double a = fabs(v);
    int decimals = a >= 100 ? 0 : a >= 10 ? 1 : 2;
    snprintf(buf, 32, "%.*f %s", decimals, v, unit);
}

char *pr_human_duration(int64_t ns, char *buf)
{
    if (ns == PR_UNKNOWN) {
        strcpy(buf, "-");
        return buf;
    }
    double a = fabs((double)ns);
    if (a < 1e3)
        snprintf(buf, 32, "%lld %s", (long long)ns, C_("unit", "ns"));
    else if (a < 1e6 - 0.5e3)
        sig3((double)ns / 1e3, C_("unit", "\xc2\xb5s"), buf);
    else if (a < 1e9 - 0.5e6)
        sig3((double)ns / 1e6, C_("unit", "ms"), buf);
    else if (a < 600e9)
        sig3((double)ns / 1e9, C_("unit", "s"), buf);
    else if (a < 36000e9)
        sig3((double)ns / 60e9, C_("unit", "min"), buf);
    else
        sig3((double)ns / 3600e9, C_("unit", "h"), buf);
    return buf;
}

char *pr_human_duration_res(int64_t ns, int64_t res_ns, char *buf)
{
    if (ns != 0 || res_ns <= 1)
        return pr_human_duration(ns, buf);
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
    snprintf(buf, 32, "< %.3g %s", (double)res_ns / (double)units[i].ns, U(units[i].unit));
    return buf;
}

char *pr_human_duration_approx(int64_t ns, int64_t res_ns, char *buf)
{
    if (ns == PR_UNKNOWN || res_ns <= 1)
        return pr_human_duration(ns, buf);
    if (ns < res_ns)
        return pr_human_duration_res(0, res_ns, buf);
    int64_t ticks = (ns + res_ns / 2) / res_ns;
    char d[32];
    if (res_ns == 1000000000 && ticks < 600)
        snprintf(d, sizeof d, "%lld %s", (long long)ticks, C_("unit", "s"));
    else
        pr_human_duration(ticks * res_ns, d);
    snprintf(buf, 32, "\xe2\x89\x88 %.27s", d);
    return buf;
}

/* A bound of a rate with 3 significant digits, rounded outward (up for an upper bound). */
static void rate_bound(double r, int up, char *buf, size_t size)
{
    double scale = r >= 100 ? pow(10, floor(log10(r)) - 2) : r >= 10 ? 0.1 : 0.01;
    double v = (up ? ceil(r / scale) : floor(r / scale)) * scale;
    snprintf(buf, size, "%.*f%s", r >= 100 ? 0 : r >= 10 ? 1 : 2, v, C_("unit", "/s"));
}

char *pr_human_rate_range(double low, double high, char *buf)
{
    char a[20], b[20];
    if (!isfinite(low) || low <= 0) {
        strcpy(buf, "-");
        return buf;
    }
    rate_bound(low, 0, a, sizeof a);
    if (!isfinite(high)) {
        snprintf(buf, 48, "> %s", a);
        return buf;
    }
    rate_bound(high, 1, b, sizeof b);
    snprintf(buf, 48, "%s \xe2\x80\x93 %s", a, b);
    return buf;
}

char *pr_human_rate(double r, char *buf)
{
    if (isnan(r)) {
        strcpy(buf, "-");
        return buf;
    }
    if (fabs(r) >= 1e6)
        snprintf(buf, 32, "%.2f %s", r / 1e6, C_("unit", "M/s"));
    else if (fabs(r) >= 1e4)
        snprintf(buf, 32, "%.1f %s", r / 1e3, C_("unit", "k/s"));
    else
        snprintf(buf, 32, "%.2f%s", r, C_("unit", "/s"));
    return buf;
}

char *pr_human_bytes(double b, char *buf)
{
    if (isnan(b) || b < 0) {
        strcpy(buf, "-");
        return buf;
    }
    static const char *const units[] = {NC_("unit", "B"), NC_("unit", "kB"), NC_("unit", "MB"),
                                        NC_("unit", "GB"), NC_("unit", "TB")};
    int u = 0;
    while (b >= 1000 && u < 4) {
        b /= 1000;
        u++;
    }
    if (u == 0)
        snprintf(buf, 32, "%.0f %s", b, U(units[0]));
    else
        sig3(b, U(units[u]), buf);
    return buf;
}

char *pr_human_percent(double ratio, char *buf)
{
    if (isnan(ratio)) {
        strcpy(buf, "-");
        return buf;
    }
    double p = ratio * 100;
    if (p != 0 && fabs(p) < 0.01)
        snprintf(buf, 32, "%.4f%%", p);
    else
        snprintf(buf, 32, "%.2f%%", p);
    return buf;
}

char *pr_human_count(int64_t n, char *buf)
{
    snprintf(buf, 32, "%lld", (long long)n);
    return buf;
}
