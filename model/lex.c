/* Shared number, duration and timestamp parsing for the text formats. */
#include "model/lex.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pr_str pr_str_trim(pr_str s)
{
    while (s.n && (s.p[0] == ' ' || s.p[0] == '\t' || s.p[0] == '\r' || s.p[0] == '\n')) {
        s.p++;
        s.n--;
    }
    while (s.n && (s.p[s.n - 1] == ' ' || s.p[s.n - 1] == '\t' || s.p[s.n - 1] == '\r' ||
                   s.p[s.n - 1] == '\n'))
        s.n--;
    return s;
}

int pr_str_eq(pr_str s, const char *lit)
{
    size_t n = strlen(lit);
    return s.n == n && memcmp(s.p, lit, n) == 0;
}

int pr_str_starts(pr_str s, const char *lit)
{
    size_t n = strlen(lit);
    return s.n >= n && memcmp(s.p, lit, n) == 0;
}

int pr_lex_i64(const char *s, size_t n, int64_t *out)
{
    size_t i = 0;
    int neg = 0;
    if (n == 0)
        return -1;
    if (s[0] == '-' || s[0] == '+') {
        neg = s[0] == '-';
        i = 1;
        if (n == 1)
            return -1;
    }
    uint64_t v = 0;
    for (; i < n; i++) {
        unsigned d = (unsigned char)s[i] - '0';
        if (d > 9)
            return -1;
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    if (neg) {
        if (v > (uint64_t)INT64_MAX + 1)
            return -1;
        *out = (int64_t)(0 - v);
    } else {
        if (v > (uint64_t)INT64_MAX)
            return -1;
        *out = (int64_t)v;
    }
    return 0;
}

int pr_lex_double(const char *s, size_t n, double *out)
{
    char buf[64];
    if (n == 0 || n >= sizeof buf)
        return -1;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E'))
            return -1;
    }
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end;
    double v = strtod(buf, &end);
    if (end != buf + n || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static int unit_ns(const char *u, size_t n, double *scale, size_t *used)
{
    static const struct {
        const char *name;
        double ns;
    } units[] = {
        {"ns", 1},  {"us", 1e3}, {"\xc2\xb5s", 1e3}, {"\xce\xbcs", 1e3}, {"ms", 1e6},
        {"s", 1e9}, {"m", 60e9}, {"h", 3600e9},      {"min", 60e9},
    };
    size_t best = 0;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        size_t k = strlen(units[i].name);
        if (k <= n && memcmp(u, units[i].name, k) == 0 && k > best) {
            /* "m" must not swallow "ms"/"min": longest match wins */
            best = k;
            *scale = units[i].ns;
        }
    }
    *used = best;
    return best ? 0 : -1;
}

int pr_lex_duration(const char *s, size_t n, int64_t bare_unit_ns, int64_t *out_ns)
{
    size_t i = 0;
    int neg = 0;
    long double total = 0;
    if (n == 0)
        return -1;
    if (s[0] == '-') {
        neg = 1;
        i++;
    }
    int parts = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == '.'))
            j++;
        if (j == i)
            return -1;
        double v;
        if (pr_lex_double(s + i, j - i, &v) < 0)
            return -1;
        if (j == n) {
            if (parts == 0 && bare_unit_ns) {
                total = (long double)v * bare_unit_ns;
                i = j;
                parts++;
                break;
            }
            if (parts == 0 && v == 0) { /* Go prints zero as "0s", but accept "0" */
                i = j;
                parts++;
                break;
            }
            return -1;
        }
        double scale;
        size_t used;
        if (unit_ns(s + j, n - j, &scale, &used) < 0)
            return -1;
        total += (long double)v * scale;
        i = j + used;
        parts++;
    }
    if (!parts || total > 9.2e18L)
        return -1;
    int64_t r = (int64_t)llroundl(total);
    *out_ns = neg ? -r : r;
    return 0;
}

int64_t pr_days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = (unsigned)(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

static int digits(const char *s, size_t n, size_t at, size_t k, int *out)
{
    if (at + k > n)
        return -1;
    int v = 0;
    for (size_t i = 0; i < k; i++) {
        unsigned d = (unsigned char)s[at + i] - '0';
        if (d > 9)
            return -1;
        v = v * 10 + (int)d;
    }
    *out = v;
    return 0;
}

int pr_lex_rfc3339(const char *s, size_t n, int64_t *out_ns, int *offset_min)
{
    int Y, M, D, h, mi, se;
    if (digits(s, n, 0, 4, &Y) || n < 19 || s[4] != '-' || digits(s, n, 5, 2, &M) || s[7] != '-' ||
        digits(s, n, 8, 2, &D) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') ||
        digits(s, n, 11, 2, &h) || s[13] != ':' || digits(s, n, 14, 2, &mi) || s[16] != ':' ||
        digits(s, n, 17, 2, &se))
        return -1;
    if (M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || mi > 59 || se > 60)
        return -1;
    size_t i = 19;
    int64_t frac = 0;
    if (i < n && (s[i] == '.' || s[i] == ',')) {
        i++;
        int nd = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            if (nd < 9) {
                frac = frac * 10 + (s[i] - '0');
                nd++;
            }
            i++;
        }
        if (nd == 0)
            return -1;
        while (nd < 9) {
            frac *= 10;
            nd++;
        }
    }
    int off = 0;
    if (i < n && (s[i] == 'Z' || s[i] == 'z')) {
        i++;
    } else if (i < n && (s[i] == '+' || s[i] == '-')) {
        int oh, om;
        int sign = s[i] == '-' ? -1 : 1;
        if (digits(s, n, i + 1, 2, &oh))
            return -1;
        size_t j = i + 3;
        if (j < n && s[j] == ':')
            j++;
        if (digits(s, n, j, 2, &om))
            return -1;
        off = sign * (oh * 60 + om);
        i = j + 2;
    } else {
        return -1;
    }
    if (i != n)
        return -1;
    int rc = pr_time_from_civil(Y, (unsigned)M, (unsigned)D, h * 3600 + mi * 60 + se, frac,
                                (int64_t)off * 60, out_ns);
    if (rc < 0)
        return rc;
    if (offset_min)
        *offset_min = off;
    return 0;
}

int pr_time_from_civil(int64_t year, unsigned mon, unsigned day, int64_t sec_of_day,
                       int64_t frac_ns, int64_t offset_s, int64_t *out_ns)
{
    /* bounds first, so the arithmetic below stays far from int64's limits */
    if (year < PR_TIME_YEAR_MIN - 1 || year > PR_TIME_YEAR_MAX + 1 || mon < 1 || mon > 12 ||
        sec_of_day < 0 || sec_of_day > 400LL * 86400 || offset_s < -86400 || offset_s > 86400 ||
        frac_ns < 0 || frac_ns > 999999999)
        return PR_TIME_RANGE;
    int64_t secs = pr_days_from_civil(year, mon, day) * 86400 + sec_of_day - offset_s;
    if (secs < PR_TIME_MIN_S || secs >= PR_TIME_END_S)
        return PR_TIME_RANGE;
    *out_ns = secs * 1000000000LL + frac_ns;
    return 0;
}

int pr_time_from_epoch(int64_t v, int64_t unit_ns, int64_t *out_ns)
{
    if (unit_ns <= 0 || v < PR_TIME_MIN_NS / unit_ns || v > PR_TIME_MAX_NS / unit_ns)
        return PR_TIME_RANGE;
    *out_ns = v * unit_ns;
    return 0;
}

int pr_time_from_seconds(double s, int64_t *out_ns)
{
    if (!(s >= (double)PR_TIME_MIN_S && s < (double)PR_TIME_END_S))
        return PR_TIME_RANGE;
    double ns = nearbyint(s * 1e9);
    if (ns > (double)PR_TIME_MAX_NS) /* rounding at the very end of the range */
        ns = (double)PR_TIME_MAX_NS;
    *out_ns = (int64_t)ns;
    return 0;
}

int pr_time_is_go_zero(const char *s, size_t n)
{
    static const char zero[] = "0001-01-01T00:00:00Z";
    return n == sizeof zero - 1 && memcmp(s, zero, n) == 0;
}

char *pr_format_rfc3339(int64_t ns, int offset_min, char *buf)
{
    int64_t local = ns + (int64_t)offset_min * 60000000000LL;
    int64_t secs = local / 1000000000LL, frac = local % 1000000000LL;
    if (frac < 0) {
        frac += 1000000000LL;
        secs--;
    }
    int64_t days = secs / 86400, rem = secs % 86400;
    if (rem < 0) {
        rem += 86400;
        days--;
    }
    /* civil_from_days */
    int64_t z = days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t y = (int64_t)yoe + era * 400;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    unsigned d = doy - (153 * mp + 2) / 5 + 1;
    unsigned m = mp < 10 ? mp + 3 : mp - 9;
    y += m <= 2;
    int n = snprintf(buf, 40, "%04lld-%02u-%02uT%02d:%02d:%02d", (long long)y, m, d,
                     (int)(rem / 3600), (int)(rem / 60 % 60), (int)(rem % 60));
    if (frac) {
        char f[16];
        snprintf(f, sizeof f, "%09lld", (long long)frac);
        int k = 9;
        while (k > 0 && f[k - 1] == '0')
            k--;
        f[k] = 0;
        n += snprintf(buf + n, 40 - n, ".%s", f);
    }
    if (offset_min == 0)
        snprintf(buf + n, 40 - n, "Z");
    else
        snprintf(buf + n, 40 - n, "%c%02d:%02d", offset_min < 0 ? '-' : '+', abs(offset_min) / 60,
                 abs(offset_min) % 60);
    return buf;
}

size_t pr_lex_split(const char *line, size_t n, char sep, pr_str *fields, size_t max)
{
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || line[i] == sep) {
            if (k == max)
                return max + 1;
            fields[k].p = line + start;
            fields[k].n = i - start;
            k++;
            start = i + 1;
        }
    }
    return k;
}

int pr_lex_decimal_ns(const char *s, size_t n, int unit_exp10, int64_t *out_ns)
{
    size_t i = 0;
    int neg = 0;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    /* digits as an integer mantissa (first 19 significant) with a decimal exponent */
    uint64_t mant = 0;
    int exp10 = unit_exp10, sig = 0, digits = 0, dropped_first = -1;
    int seen_dot = 0;
    for (; i < n; i++) {
        char c = s[i];
        if (c == '.' && !seen_dot) {
            seen_dot = 1;
            continue;
        }
        if (c < '0' || c > '9')
            break;
        digits++;
        if (sig == 0 && c == '0') { /* leading zeros */
            if (seen_dot)
                exp10--;
            continue;
        }
        if (sig < 18) {
            mant = mant * 10 + (uint64_t)(c - '0');
            sig++;
            if (seen_dot)
                exp10--;
        } else {
            if (dropped_first < 0)
                dropped_first = c - '0';
            if (!seen_dot)
                exp10++;
        }
    }
    if (digits == 0)
        return -1;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        int64_t e;
        size_t j = i + 1;
        if (j < n && s[j] == '+')
            j++;
        if (pr_lex_i64(s + j, n - j, &e) < 0 || e > 400 || e < -400)
            return -1;
        exp10 += (int)e;
        i = n;
    }
    if (i != n)
        return -1;
    /* value = mant * 10^exp10 (+ dropped digits); scale to an integer count of ns */
    while (exp10 > 0) {
        if (mant > UINT64_MAX / 10)
            return -1;
        mant *= 10;
        exp10--;
    }
    while (exp10 < 0) { /* the last digit shifted out decides the rounding */
        dropped_first = mant ? (int)(mant % 10) : 0;
        mant /= 10;
        exp10++;
        if (mant == 0 && exp10 < 0) {
            dropped_first = 0;
            break;
        }
    }
    if (dropped_first >= 5)
        mant++;
    if (mant > (uint64_t)INT64_MAX)
        return -1;
    *out_ns = neg ? -(int64_t)mant : (int64_t)mant;
    return 0;
}

int pr_lex_split_csv(const char *line, size_t len, char sep, pr_str *f, size_t max, char *out,
                     size_t *bad_at)
{
    size_t i = 0, k = 0, o = 0;
    for (;;) {
        if (k == max)
            return (int)max + 1;
        if (i < len && line[i] == '"') {
            size_t start = o;
            i++;
            for (;;) {
                const char *q = i < len ? memchr(line + i, '"', len - i) : NULL;
                if (!q) {
                    *bad_at = len;
                    return -1;
                }
                size_t m = (size_t)(q - (line + i));
                memcpy(out + o, line + i, m);
                o += m;
                i += m + 1;
                if (i < len && line[i] == '"') {
                    out[o++] = '"';
                    i++;
                    continue;
                }
                break;
            }
            f[k++] = (pr_str){out + start, o - start};
            if (i == len)
                return (int)k;
            if (line[i] != sep) {
                *bad_at = i;
                return -1;
            }
            i++;
        } else {
            const char *c = memchr(line + i, sep, len - i);
            size_t e = c ? (size_t)(c - line) : len;
            f[k++] = (pr_str){line + i, e - i};
            if (!c)
                return (int)k;
            i = e + 1;
        }
    }
}
