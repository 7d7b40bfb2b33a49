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
            case 'y':
            case 'M':
            case 'd':
            case 'D': f->has_date = 1; break;
            case 'Z':
            case 'X':
            case 'z': f->has_zone = 1; break;
            case 'S': f->resolution_ns = 1000000; break;
            case 's':
                if (f->resolution_ns > 1000000000LL)
                    f->resolution_ns = 1000000000LL;
                break;
            case 'm':
                if (f->resolution_ns > 60000000000LL)
                    f->resolution_ns = 60000000000LL;
                break;
            case 'H':
            case 'k':
            case 'h':
            case 'K':
                if (f->resolution_ns > 3600000000000LL)
                    f->resolution_ns = 3600000000000LL;
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

/* The fields a stamp gives, as read so far. */
typedef struct fields {
    int64_t year, mon, day, hour, min, sec, ms, doy;
    int pm, off, twodigit, h12;
} fields;

/* A numeric field (token k) at s[*i]: adjacent numeric fields are split by width, otherwise
 * digits are read greedily. */
static int numeric_field(const pr_datefmt *f, int k, const char *s, size_t n, size_t *i, fields *F)
{
    const pr_datefmt_tok *t = &f->tok[k];
    size_t maxd = 10;
    if (k + 1 < f->ntok && is_numeric_letter(f->tok[k + 1].letter))
        maxd = t->width;
    int64_t v = 0;
    size_t nd = 0;
    while (*i < n && nd < maxd && s[*i] >= '0' && s[*i] <= '9') {
        v = v * 10 + (s[(*i)++] - '0');
        nd++;
    }
    if (nd == 0)
        return -1;
    switch (t->letter) {
    case 'y':
        F->year = v;
        F->twodigit = t->width <= 2 && nd == 2;
        break;
    case 'M': F->mon = v; break;
    case 'd': F->day = v; break;
    case 'D': F->doy = v; break;
    case 'H': F->hour = v; break;
    case 'k': F->hour = v == 24 ? 0 : v; break;
    case 'h':
        F->hour = v == 12 ? 0 : v;
        F->h12 = 1;
        break;
    case 'K':
        F->hour = v;
        F->h12 = 1;
        break;
    case 'm': F->min = v; break;
    case 's': F->sec = v; break;
    case 'S': F->ms = v; break;
    default: break; /* u: day of week, ignored */
    }
    return 0;
}

static int is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A month name ("Jan", "January") at s[*i]. */
static int month_name(const char *s, size_t n, size_t *i, fields *F)
{
    for (int m = 0; m < 12; m++) {
        if (n - *i >= 3 && lower(s[*i]) == months[m][0] && lower(s[*i + 1]) == months[m][1] &&
            lower(s[*i + 2]) == months[m][2]) {
            F->mon = m + 1;
            *i += 3;
            while (*i < n && is_alpha(s[*i]))
                (*i)++;
            return 0;
        }
    }
    return -1;
}

/* A zone at s[*i]: X takes Z or an offset; Z and z also UTC or GMT with an optional offset. */
static int zone(int letter, const char *s, size_t n, size_t *i, fields *F)
{
    if (*i < n && s[*i] == 'Z') {
        F->off = 0;
        (*i)++;
        return 0;
    }
    if (letter != 'X' && n - *i >= 3 &&
        (memcmp(s + *i, "UTC", 3) == 0 || memcmp(s + *i, "GMT", 3) == 0)) {
        *i += 3;
        F->off = 0;
        return *i < n && (s[*i] == '+' || s[*i] == '-') && read_offset(s, n, i, &F->off) ? -1 : 0;
    }
    return read_offset(s, n, i, &F->off) ? -1 : 0;
}

/* A text field (a name, am/pm, a zone) at s[*i]. */
static int text_field(const pr_datefmt_tok *t, const char *s, size_t n, size_t *i, fields *F)
{
    switch (t->letter) {
    case 'M': return month_name(s, n, i, F);
    case 'E': { /* day name: letters, ignored */
        size_t st = *i;
        while (*i < n && is_alpha(s[*i]))
            (*i)++;
        return *i == st ? -1 : 0;
    }
    case 'a':
        if (n - *i >= 2 && (lower(s[*i]) == 'a' || lower(s[*i]) == 'p') &&
            lower(s[*i + 1]) == 'm') {
            F->pm = lower(s[*i]) == 'p';
            *i += 2;
            return 0;
        }
        return -1;
    case 'X':
    case 'Z':
    case 'z': return zone(t->letter, s, n, i, F);
    default: return -1;
    }
}

int pr_datefmt_parse(const pr_datefmt *f, const char *s, size_t n, int default_offset_min,
                     int64_t *out_ns)
{
    fields F = {1970, 1, 1, 0, 0, 0, 0, -1, -1, default_offset_min, 0, 0};
    size_t i = 0;
    for (int k = 0; k < f->ntok; k++) {
        const pr_datefmt_tok *t = &f->tok[k];
        if (!t->letter) {
            if (n - i < t->width || memcmp(s + i, t->lit, t->width) != 0)
                return -1;
            i += t->width;
        } else if (is_numeric_letter(t->letter) && !(t->letter == 'M' && t->width >= 3)) {
            if (numeric_field(f, k, s, n, &i, &F) < 0)
                return -1;
        } else if (text_field(t, s, n, &i, &F) < 0) {
            return -1;
        }
    }
    if (i != n)
        return -1;
    if (F.twodigit)
        F.year += F.year < 50 ? 2000 : 1900;
    if (F.h12 && F.pm == 1)
        F.hour += 12;
    int64_t year = F.year, mon = F.mon, day = F.day, hour = F.hour, min = F.min, sec = F.sec,
            ms = F.ms, doy = F.doy;
    int off = F.off;
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
