/* SimpleDateFormat-pattern timestamp parsing and zone offsets (see datefmt.h). */
#include "model/datefmt.h"
#include "model/lex.h"
#include <stdio.h>
#include <string.h>

static int is_numeric_letter(char c)
{
    return c && strchr("yMdHkhKmsSDu", c) != NULL;
}

static int fail(char *errbuf, size_t errsize, const char *msg, char c)
{
    if (errbuf && errsize)
        snprintf(errbuf, errsize, "%s%s%c%s", msg, c ? " '" : "", c ? c : ' ', c ? "'" : "");
    return -1;
}

static void add_lit(pr_datefmt *f, char c)
{
    pr_datefmt_tok *t = f->ntok ? &f->tok[f->ntok - 1] : NULL;
    if (!t || t->letter || t->width >= sizeof t->lit) {
        if (f->ntok == PR_DATEFMT_MAXTOK)
            return; /* caught by the caller's count check */
        t = &f->tok[f->ntok++];
        memset(t, 0, sizeof *t);
    }
    t->lit[t->width++] = c;
}

int pr_datefmt_compile(pr_datefmt *f, const char *pattern, char *errbuf, size_t errsize)
{
    memset(f, 0, sizeof *f);
    f->resolution_ns = 86400000000000LL;
    for (const char *p = pattern; *p;) {
        if (f->ntok >= PR_DATEFMT_MAXTOK - 1)
            return fail(errbuf, errsize, "pattern too long", 0);
        char c = *p;
        if (c == '\'') {
            p++;
            if (*p == '\'') { /* '' is a quote */
                add_lit(f, '\'');
                p++;
                continue;
            }
            while (*p && !(*p == '\'' && p[1] != '\'')) {
                if (*p == '\'')
                    p++;
                add_lit(f, *p++);
            }
            if (*p != '\'')
                return fail(errbuf, errsize, "unterminated quote in pattern", 0);
            p++;
            continue;
        }
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
            if (!strchr("yMdHkhKmsSaZXzEDuL", c))
                return fail(errbuf, errsize, "unsupported pattern letter", c);
            int w = 0;
            while (*p == c) {
                w++;
                p++;
            }
            pr_datefmt_tok *t = &f->tok[f->ntok++];
            memset(t, 0, sizeof *t);
            t->letter = c == 'L' ? 'M' : c;
            t->width = (unsigned char)(w > 255 ? 255 : w);
            switch (t->letter) {
            case 'y': case 'M': case 'd': case 'D': f->has_date = 1; break;
            case 'Z': case 'X': case 'z': f->has_zone = 1; break;
            case 'S': f->resolution_ns = 1000000; break;
            case 's': if (f->resolution_ns > 1000000000LL) f->resolution_ns = 1000000000LL; break;
            case 'm': if (f->resolution_ns > 60000000000LL) f->resolution_ns = 60000000000LL; break;
            case 'H': case 'k': case 'h': case 'K':
                if (f->resolution_ns > 3600000000000LL) f->resolution_ns = 3600000000000LL;
                break;
            default: break;
            }
            continue;
        }
        add_lit(f, c);
        p++;
    }
    if (f->ntok == 0)
        return fail(errbuf, errsize, "empty pattern", 0);
    return 0;
}

static const char *const months[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                     "jul", "aug", "sep", "oct", "nov", "dec"};

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* Reads an offset "+hh", "+hhmm", "+hh:mm" at s[*i]; returns 0 and advances. */
static int read_offset(const char *s, size_t n, size_t *i, int *off)
{
    size_t j = *i;
    if (j >= n || (s[j] != '+' && s[j] != '-'))
        return -1;
    int sign = s[j] == '-' ? -1 : 1;
    j++;
    int h = 0, m = 0, nd = 0;
    while (j < n && nd < 2 && s[j] >= '0' && s[j] <= '9') {
        h = h * 10 + (s[j++] - '0');
        nd++;
    }
    if (nd == 0)
        return -1;
    if (j < n && s[j] == ':')
        j++;
    nd = 0;
    while (j < n && nd < 2 && s[j] >= '0' && s[j] <= '9') {
        m = m * 10 + (s[j++] - '0');
        nd++;
    }
    if (nd == 1 || h > 23 || m > 59)
        return -1;
    *off = sign * (h * 60 + m);
    *i = j;
    return 0;
}

int pr_datefmt_parse(const pr_datefmt *f, const char *s, size_t n, int default_offset_min,
                     int64_t *out_ns)
{
    int64_t year = 1970, mon = 1, day = 1, hour = 0, min = 0, sec = 0, ms = 0, doy = -1;
    int pm = -1, off = default_offset_min, twodigit = 0, h12 = 0;
    size_t i = 0;
    for (int k = 0; k < f->ntok; k++) {
        const pr_datefmt_tok *t = &f->tok[k];
        if (!t->letter) {
            if (n - i < t->width || memcmp(s + i, t->lit, t->width) != 0)
                return -1;
            i += t->width;
            continue;
        }
        if (is_numeric_letter(t->letter) && !(t->letter == 'M' && t->width >= 3)) {
            /* Adjacent numeric fields are split by width; otherwise digits are read greedily. */
            size_t maxd = 10;
            if (k + 1 < f->ntok && is_numeric_letter(f->tok[k + 1].letter))
                maxd = t->width;
            int64_t v = 0;
            size_t nd = 0;
            while (i < n && nd < maxd && s[i] >= '0' && s[i] <= '9') {
                v = v * 10 + (s[i++] - '0');
                nd++;
            }
            if (nd == 0)
                return -1;
            switch (t->letter) {
            case 'y': year = v; twodigit = t->width <= 2 && nd == 2; break;
            case 'M': mon = v; break;
            case 'd': day = v; break;
            case 'D': doy = v; break;
            case 'H': hour = v; break;
            case 'k': hour = v == 24 ? 0 : v; break;
            case 'h': hour = v == 12 ? 0 : v; h12 = 1; break;
            case 'K': hour = v; h12 = 1; break;
            case 'm': min = v; break;
            case 's': sec = v; break;
            case 'S': ms = v; break;
            default: break; /* u: day of week, ignored */
            }
            continue;
        }
        switch (t->letter) {
        case 'M': { /* month name */
            int found = 0;
            for (int m = 0; m < 12 && !found; m++) {
                if (n - i >= 3 && lower(s[i]) == months[m][0] && lower(s[i + 1]) == months[m][1] &&
                    lower(s[i + 2]) == months[m][2]) {
                    mon = m + 1;
                    i += 3;
                    found = 1;
                    while (i < n && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
                        i++;
                }
            }
            if (!found)
                return -1;
            break;
        }
        case 'E': { /* day name: letters, ignored */
            size_t st = i;
            while (i < n && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
                i++;
            if (i == st)
                return -1;
            break;
        }
        case 'a':
            if (n - i >= 2 && (lower(s[i]) == 'a' || lower(s[i]) == 'p') && lower(s[i + 1]) == 'm') {
                pm = lower(s[i]) == 'p';
                i += 2;
            } else {
                return -1;
            }
            break;
        case 'X':
            if (i < n && s[i] == 'Z') {
                off = 0;
                i++;
                break;
            }
            if (read_offset(s, n, &i, &off))
                return -1;
            break;
        case 'Z':
        case 'z':
            if (i < n && s[i] == 'Z') {
                off = 0;
                i++;
                break;
            }
            if (n - i >= 3 && (memcmp(s + i, "UTC", 3) == 0 || memcmp(s + i, "GMT", 3) == 0)) {
                i += 3;
                off = 0;
                if (i < n && (s[i] == '+' || s[i] == '-') && read_offset(s, n, &i, &off))
                    return -1;
                break;
            }
            if (read_offset(s, n, &i, &off))
                return -1;
            break;
        default:
            return -1;
        }
    }
    if (i != n)
        return -1;
    if (twodigit)
        year += year < 50 ? 2000 : 1900;
    if (h12 && pm == 1)
        hour += 12;
    if (mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 || min > 59 || sec > 60 ||
        ms > 999 || year > 9999 || doy > 366)
        return -1;
    int64_t sec_of_day = hour * 3600 + min * 60 + sec;
    if (doy > 0) { /* a day of the year: from January 1st */
        mon = day = 1;
        sec_of_day += (doy - 1) * 86400;
    }
    /* the one checked conversion: years 1678..2261, never an overflow */
    return pr_time_from_civil(year, (unsigned)mon, (unsigned)day, sec_of_day, ms * 1000000LL,
                              (int64_t)off * 60, out_ns);
}

int pr_tz_offset(const char *tz, int *offset_min)
{
    size_t n = strlen(tz);
    size_t i = 0;
    if (n == 1 && (tz[0] == 'Z' || tz[0] == 'z')) {
        *offset_min = 0;
        return 0;
    }
    if (n >= 3 && (strncmp(tz, "UTC", 3) == 0 || strncmp(tz, "GMT", 3) == 0)) {
        i = 3;
        if (n == 3) {
            *offset_min = 0;
            return 0;
        }
    }
    if (strcmp(tz, "Etc/UTC") == 0 || strcmp(tz, "Etc/GMT") == 0) {
        *offset_min = 0;
        return 0;
    }
    int off;
    if (read_offset(tz, n, &i, &off) || i != n)
        return -1;
    *offset_min = off;
    return 0;
}
