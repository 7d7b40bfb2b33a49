/* Runs: metadata, tags and the string table. */
#include "model/run.h"
#include "model/buf.h"
#include "model/text.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

pr_run *pr_run_new(void)
{
    pr_run *r = pr_xcalloc(1, sizeof *r);
    r->start_ns = PR_UNKNOWN;
    r->end_ns = PR_UNKNOWN;
    r->offered_rate = NAN;
    r->concurrency = -1;
    r->meta = json_object();
    r->strings = pr_strtab_new();
    return r;
}

void pr_run_free(pr_run *r)
{
    if (!r)
        return;
    free(r->name);
    free(r->source);
    free(r->format);
    free(r->tool);
    free(r->tool_version);
    free(r->key);
    for (size_t i = 0; i < r->ntags; i++) {
        free(r->tags[i].key);
        free(r->tags[i].value);
    }
    free(r->tags);
    json_decref(r->summary);
    json_decref(r->meta);
    pr_strtab_free(r->strings);
    free(r);
}

void pr_run_set_name(pr_run *r, const char *name)
{
    free(r->name);
    r->name = name ? pr_xstrdup(name) : NULL;
}

void pr_run_set_format(pr_run *r, const char *format, const char *tool)
{
    free(r->format);
    free(r->tool);
    r->format = format ? pr_xstrdup(format) : NULL;
    r->tool = tool ? pr_xstrdup(tool) : NULL;
}

void pr_run_tag(pr_run *r, const char *key, const char *value)
{
    for (size_t i = 0; i < r->ntags; i++) {
        if (strcmp(r->tags[i].key, key) == 0) {
            free(r->tags[i].value);
            r->tags[i].value = pr_xstrdup(value);
            return;
        }
    }
    r->tags = pr_xrealloc(r->tags, (r->ntags + 1) * sizeof *r->tags);
    r->tags[r->ntags].key = pr_xstrdup(key);
    r->tags[r->ntags].value = pr_xstrdup(value);
    r->ntags++;
}

const char *pr_run_tag_get(const pr_run *r, const char *key)
{
    for (size_t i = 0; i < r->ntags; i++)
        if (strcmp(r->tags[i].key, key) == 0)
            return r->tags[i].value;
    return NULL;
}

void pr_run_meta_set(pr_run *r, const char *key, json_t *value)
{
    json_object_set_new(r->meta, key, value);
}

void pr_run_meta_resolution(pr_run *r, const char *key, int64_t ns)
{
    json_t *old = json_object_get(r->meta, key);
    if (!json_is_integer(old) || json_integer_value(old) < ns)
        json_object_set_new(r->meta, key, json_integer(ns));
}

/* Bytes of s[0..n) that fit in max bytes without cutting a UTF-8 sequence. */
static size_t cut_at_char(const char *s, size_t n, size_t max)
{
    if (n <= max)
        return n;
    while (max > 0 && ((unsigned char)s[max] & 0xc0) == 0x80)
        max--;
    return max;
}

uint32_t pr_run_intern(pr_run *r, const char *s, size_t len)
{
    len = cut_at_char(s, len, PR_STR_MAX);
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, k;
    while (i < len) {
        while (i < len && (unsigned)u[i] - 1u < 0x7fu) /* ASCII but NUL */
            i++;
        if (i == len || !u[i] || !(k = pr_utf8_len(u + i, len - i, NULL)))
            break;
        i += k;
    }
    if (i == len) /* the common case: valid as it is */
        return pr_strtab_intern(r->strings, s, len);
    r->strings_repaired++;
    pr_buf b = PR_BUF_INIT;
    pr_buf_append(&b, s, i);
    while (i < len) {
        k = u[i] ? pr_utf8_len(u + i, len - i, NULL) : 0;
        if (k) {
            pr_buf_append(&b, s + i, k);
            i += k;
        } else {
            pr_buf_append(&b, "\xef\xbf\xbd", 3); /* U+FFFD REPLACEMENT CHARACTER */
            i++;
        }
    }
    uint32_t id = pr_strtab_intern(r->strings, b.p, cut_at_char(b.p, b.len, PR_STR_MAX));
    pr_buf_dispose(&b);
    return id;
}

const char *pr_run_str(const pr_run *r, uint32_t id)
{
    return pr_strtab_get(r->strings, id);
}

const char *pr_load_model_name(pr_load_model m)
{
    switch (m) {
    case PR_LOAD_OPEN: return "open";
    case PR_LOAD_CLOSED: return "closed";
    default: return "unknown";
    }
}
