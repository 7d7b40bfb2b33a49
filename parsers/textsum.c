/* Building summary-only runs from printed tool reports: JSON setters, number scanning, merge. */
#include "parsers/textsum.h"
#include "model/text.h"
#include "model/xalloc.h"
#include <stdlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define STR_KEEP_MAX 4096

/* A valid UTF-8 object key from `key` (invalid bytes become '?'), at most 255 bytes: jansson
 * refuses (and frees the value of) a key that is not UTF-8, which would leave callers that
 * keep a borrowed pointer to the new value dangling. */
static const char *safe_key(const char *key, char *out, size_t cap)
{
    const unsigned char *u = (const unsigned char *)key;
    size_t n = strlen(key), o = 0;
    for (size_t i = 0; i < n && o + 4 < cap;) {
        size_t k = pr_utf8_len(u + i, n - i, NULL);
        if (k == 0) {
            out[o++] = '?';
            i++;
        } else {
            memcpy(out + o, key + i, k);
            o += k;
            i += k;
        }
    }
    out[o] = 0;
    return out;
}

static int full(json_t *o, const char *k)
{
    return json_object_size(o) >= PR_TEXTSUM_MAX_KEYS && !json_object_get(o, k);
}

static void set_new(json_t *o, const char *key, json_t *v)
{
    char k[256];
    safe_key(key, k, sizeof k);
    if (full(o, k)) {
        json_decref(v);
        return;
    }
    json_object_set_new_nocheck(o, k, v);
}

void pr_textsum_append(json_t *a, json_t *v)
{
    if (json_array_size(a) >= PR_TEXTSUM_MAX_ITEMS)
        json_decref(v);
    else
        json_array_append_new(a, v);
}

json_t *pr_textsum_begin(pr_run *run)
{
    run->summary_only = 1;
    if (!json_is_object(run->summary)) {
        json_decref(run->summary);
        run->summary = json_object();
    }
    return run->summary;
}

json_t *pr_textsum_obj(json_t *parent, const char *key)
{
    char k[256];
    safe_key(key, k, sizeof k);
    if (full(parent, k))
        snprintf(k, sizeof k, "_overflow");
    json_t *o = json_object_get(parent, k);
    if (!json_is_object(o)) {
        o = json_object();
        json_object_set_new_nocheck(parent, k, o);
    }
    return o;
}

json_t *pr_textsum_arr(json_t *parent, const char *key)
{
    char k[256];
    safe_key(key, k, sizeof k);
    if (full(parent, k))
        snprintf(k, sizeof k, "_overflow_items");
    json_t *a = json_object_get(parent, k);
    if (!json_is_array(a)) {
        a = json_array();
        json_object_set_new_nocheck(parent, k, a);
    }
    return a;
}

void pr_textsum_int(json_t *o, const char *key, int64_t v)
{
    if (v == PR_UNKNOWN)
        return;
    set_new(o, key, json_integer((json_int_t)v));
}

void pr_textsum_real(json_t *o, const char *key, double v)
{
    if (!isfinite(v))
        return;
    set_new(o, key, json_real(v));
}

json_t *pr_textsum_string(const char *s, size_t n)
{
    char buf[STR_KEEP_MAX + 4];
    size_t o = 0;
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n && o < STR_KEEP_MAX;) {
        size_t k = pr_utf8_len(u + i, n - i, NULL);
        if (k == 0) {
            buf[o++] = '?';
            i++;
        } else if (k == 1 && u[i] == 0) {
            i++;
        } else {
            if (o + k > STR_KEEP_MAX)
                break;
            memcpy(buf + o, s + i, k);
            o += k;
            i += k;
        }
    }
    json_t *j = json_stringn(buf, o);
    return j ? j : json_string("");
}

void pr_textsum_str(json_t *o, const char *key, const char *s, size_t n)
{
    set_new(o, key, pr_textsum_string(s, n));
}

void pr_textsum_note(pr_run *run, const char *note)
{
    json_t *notes = pr_textsum_arr(run->meta, "notes");
    pr_textsum_append(notes, json_string(note));
}

int pr_textsum_num(pr_str s, double *v, pr_str *rest)
{
    size_t i = 0;
    while (i < s.n && (s.p[i] == ' ' || s.p[i] == '\t'))
        i++;
    size_t st = i;
    if (i < s.n && (s.p[i] == '-' || s.p[i] == '+'))
        i++;
    size_t digits = 0, dots = 0;
    while (i < s.n && ((s.p[i] >= '0' && s.p[i] <= '9') || (s.p[i] == '.' && dots == 0))) {
        if (s.p[i] == '.')
            dots++;
        else
            digits++;
        i++;
    }
    if (digits == 0 || pr_lex_double(s.p + st, i - st, v) < 0)
        return -1;
    if (rest) {
        pr_str r = {s.p + i, s.n - i};
        *rest = pr_str_trim(r);
    }
    return 0;
}

int pr_textsum_i64(pr_str s, int64_t *v, pr_str *rest)
{
    size_t i = 0;
    while (i < s.n && (s.p[i] == ' ' || s.p[i] == '\t'))
        i++;
    size_t st = i;
    if (i < s.n && (s.p[i] == '-' || s.p[i] == '+'))
        i++;
    while (i < s.n && s.p[i] >= '0' && s.p[i] <= '9')
        i++;
    if (pr_lex_i64(s.p + st, i - st, v) < 0)
        return -1;
    if (rest) {
        pr_str r = {s.p + i, s.n - i};
        *rest = pr_str_trim(r);
    }
    return 0;
}

int pr_textsum_kv(pr_str line, pr_str *label, pr_str *value)
{
    const char *c = memchr(line.p, ':', line.n);
    if (!c)
        return -1;
    pr_str l = {line.p, (size_t)(c - line.p)};
    pr_str v = {c + 1, line.n - (size_t)(c - line.p) - 1};
    *label = pr_str_trim(l);
    *value = pr_str_trim(v);
    return 0;
}

int64_t pr_textsum_round(double v)
{
    if (!isfinite(v) || v >= 9.2e18 || v <= -9.2e18)
        return PR_UNKNOWN;
    return (int64_t)llround(v);
}

int64_t pr_textsum_ns(double v, double unit_ns)
{
    return pr_textsum_round(v * unit_ns);
}

int64_t pr_textsum_checked(pr_textsum_doubt *d, double v, double unit_ns, const char *where)
{
    int64_t r = pr_textsum_ns(v, unit_ns);
    if (r != PR_UNKNOWN && r >= 0)
        return r;
    if (d->n++ == 0)
        snprintf(d->first, sizeof d->first, "%s = %.10g (%s)", where, v,
                 isfinite(v) && v < 0 ? "negative" : "out of range");
    return PR_UNKNOWN;
}

void pr_textsum_doubt_end(const pr_textsum_doubt *d, pr_sink *sink, const char *file)
{
    if (!d->n)
        return;
    char note[320];
    snprintf(note, sizeof note, "%zu impossible figure%s in the file kept unknown (the first: %s)",
             d->n, d->n == 1 ? "" : "s", d->first);
    pr_sink_warn(sink, file, 0, 0, "%s", note);
    /* the summary's notes: `summary` and reports show it beside the figures */
    pr_textsum_append(pr_textsum_arr(pr_textsum_begin(sink->run), "notes"), json_string(note));
}

pr_str pr_textsum_token(pr_str *s)
{
    size_t i = 0;
    while (i < s->n && (s->p[i] == ' ' || s->p[i] == '\t'))
        i++;
    size_t st = i;
    while (i < s->n && s->p[i] != ' ' && s->p[i] != '\t')
        i++;
    pr_str t = {s->p + st, i - st};
    s->p += i;
    s->n -= i;
    return t;
}

pr_str pr_textsum_line(const char *line, size_t n)
{
    if (n && line[n - 1] == '\r')
        n--;
    pr_str s = {line, n};
    return s;
}

static void merge_depth(json_t *into, const json_t *from, int depth)
{
    const char *key;
    json_t *v;
    /* jansson's iteration API is not const-correct; `from` is only read */
    union {
        const json_t *c;
        json_t *m;
    } src = {from};
    if (depth > 16)
        return;
    json_object_foreach (src.m, key, v) {
        json_t *have = json_object_get(into, key);
        if (!have) {
            json_object_set_new(into, key, json_deep_copy(v));
        } else if (json_is_object(have) && json_is_object(v)) {
            merge_depth(have, v, depth + 1);
        } else if (json_is_array(have) && json_is_array(v) && json_array_size(have) == 0) {
            size_t i;
            json_t *e;
            json_array_foreach (v, i, e)
                pr_textsum_append(have, json_deep_copy(e));
        }
    }
}

void pr_textsum_merge(json_t *into, const json_t *from)
{
    if (json_is_object(into) && json_is_object(from))
        merge_depth(into, from, 0);
}

char *pr_textsum_slurp(pr_input *in, size_t max, size_t *len, pr_error *err)
{
    size_t cap = 0, n = 0;
    char *buf = NULL;
    for (;;) {
        buf = pr_xgrow(buf, &cap, n + 65536 + 1, 1);
        size_t want = cap - 1 - n;
        if (n + want > max + 1)
            want = max + 1 - n;
        long r = pr_input_read(in, buf + n, want, err);
        if (r < 0) {
            free(buf);
            return NULL;
        }
        n += (size_t)r;
        if (r == 0 || n > max)
            break;
    }
    if (n > max) {
        free(buf);
        pr_error_set(err, PR_EPARSE, pr_input_name(in), 0, 0, "input larger than %zu bytes", max);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}
