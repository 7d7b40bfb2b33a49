/* Test helper: checks that a finding's sentence quotes its evidence (numcheck.h). */
#include "numcheck.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum kind { K_PLAIN, K_DURATION, K_PERCENT, K_RATE, K_BYTES };

/* Units after a number (longest first where one is a prefix of another), with their kind and
 * the factor to the evidence's unit (ns, ratio, per second, bytes). */
static const struct unit {
    const char *text;
    enum kind kind;
    double scale;
    int spaced; /* 1: printed after a space ("2.52 s"); 0: glued ("7.50%", "116.97/s") */
} units[] = {
    {"ns", K_DURATION, 1, 1},     {"\xc2\xb5s", K_DURATION, 1e3, 1}, {"ms", K_DURATION, 1e6, 1},
    {"min", K_DURATION, 60e9, 1}, {"s", K_DURATION, 1e9, 1},         {"h", K_DURATION, 3600e9, 1},
    {"k/s", K_RATE, 1e3, 1},      {"M/s", K_RATE, 1e6, 1},           {"/s", K_RATE, 1, 0},
    {"%", K_PERCENT, 0.01, 0},    {"kB", K_BYTES, 1e3, 1},           {"MB", K_BYTES, 1e6, 1},
    {"GB", K_BYTES, 1e9, 1},      {"TB", K_BYTES, 1e12, 1},          {"B", K_BYTES, 1, 1},
};

static const int status_names[] = {429, 502, 503, 504};

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

static enum kind key_kind(const char *key)
{
    if (ends_with(key, "_ns"))
        return K_DURATION;
    if (ends_with(key, "_per_s"))
        return K_RATE;
    if (strstr(key, "bytes"))
        return K_BYTES;
    return K_PLAIN;
}

/* Does an evidence number of a fitting key equal v within tol? Percentages and plain numbers
 * may be any number; durations, rates and sizes only their own keys. */
static int in_evidence(json_t *o, const char *key, enum kind kind, double v, double tol)
{
    if (json_is_object(o)) {
        const char *k;
        json_t *x;
        json_object_foreach (o, k, x)
            if (in_evidence(x, k, kind, v, tol))
                return 1;
        return 0;
    }
    if (json_is_array(o)) {
        size_t i;
        json_t *x;
        json_array_foreach (o, i, x)
            if (in_evidence(x, key, kind, v, tol))
                return 1;
        return 0;
    }
    if (!json_is_number(o))
        return 0;
    enum kind kk = key ? key_kind(key) : K_PLAIN;
    if ((kind == K_DURATION || kind == K_RATE || kind == K_BYTES) && kk != kind)
        return 0;
    return fabs(json_number_value(o) - v) <= tol * (1 + 1e-9) + 1e-9 * fabs(v);
}

/* Blanks every occurrence of the strings of o (recursively) in text. */
static void blank_strings(char *text, json_t *o)
{
    if (json_is_string(o)) {
        const char *s = json_string_value(o);
        size_t n = strlen(s);
        for (char *p = n ? strstr(text, s) : NULL; p; p = strstr(p + n, s))
            memset(p, ' ', n);
    } else if (json_is_object(o)) {
        const char *k;
        json_t *x;
        json_object_foreach (o, k, x)
            blank_strings(text, x);
    } else if (json_is_array(o)) {
        size_t i;
        json_t *x;
        json_array_foreach (o, i, x)
            blank_strings(text, x);
    }
}

/* Checks every number of text; 0 and a message on the first one not in the evidence. */
static int check_text(const char *orig, json_t *finding, char *why, size_t size)
{
    json_t *ev = json_object_get(finding, "evidence");
    /* a number that is no number: inf, NaN (any case, as printf writes them), or the "?" of
     * an unknown duration standing where a figure belongs */
    for (const char *p = orig; *p; p++) {
        int word = p == orig || !isalnum((unsigned char)p[-1]);
        if (word && (!strncasecmp(p, "inf", 3) || !strncasecmp(p, "nan", 3)) &&
            !isalpha((unsigned char)p[3])) {
            snprintf(why, size, "\"%.3s\" (not a number) in %s: %s", p,
                     json_string_value(json_object_get(finding, "id")), orig);
            return 0;
        }
    }
    char *text = strdup(orig);
    blank_strings(text, ev);
    blank_strings(text, json_object_get(finding, "label"));
    int ok = 1;
    for (const char *p = text; *p && ok; p++) {
        if (!isdigit((unsigned char)*p) ||
            (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == '_')))
            continue;
        char *end;
        double v = strtod(p, &end);
        const char *dot = memchr(p, '.', (size_t)(end - p));
        int decimals = dot ? (int)(end - dot - 1) : 0;
        const char *q = end;
        if (isalpha((unsigned char)*q)) { /* glued to letters: a name (99th, 5xx) */
            while (isalnum((unsigned char)*q))
                q++;
            p = q - 1;
            continue;
        }
        const struct unit *u = NULL;
        for (size_t i = 0; i < sizeof units / sizeof units[0] && !u; i++) {
            const char *at = units[i].spaced ? (*q == ' ' ? q + 1 : NULL) : q;
            size_t n = strlen(units[i].text);
            if (at && !strncmp(at, units[i].text, n) && !isalpha((unsigned char)at[n]))
                u = &units[i];
        }
        enum kind kind = u ? u->kind : K_PLAIN;
        double scale = u ? u->scale : 1;
        int named = 0;
        for (size_t i = 0; !u && !dot && i < sizeof status_names / sizeof status_names[0]; i++)
            named |= v == status_names[i];
        double tol = 0.5 * pow(10, -decimals) * scale;
        if (!named && !in_evidence(ev, NULL, kind, v * scale, tol)) {
            snprintf(why, size, "\"%.*s%s%s\" is not in the evidence of %s: %s", (int)(end - p), p,
                     u && u->spaced ? " " : "", u ? u->text : "",
                     json_string_value(json_object_get(finding, "id")), orig);
            ok = 0;
        }
        p = end - 1;
    }
    free(text);
    return ok;
}

int test_numbers_in_evidence(json_t *finding, char *why, size_t size)
{
    static const char *const fields[] = {"title", "explanation"};
    for (size_t i = 0; i < 2; i++) {
        const char *t = json_string_value(json_object_get(finding, fields[i]));
        if (t && !check_text(t, finding, why, size))
            return 0;
    }
    return 1;
}
