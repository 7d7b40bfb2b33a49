/* The one sanitiser for text from input files: control characters made visible, formulas inert. */
#include "model/text.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/xalloc.h"

size_t pr_utf8_len(const unsigned char *s, size_t n, uint32_t *cp_out)
{
    unsigned c = s[0];
    size_t k;
    uint32_t min;
    if (c < 0x80) {
        if (cp_out)
            *cp_out = c;
        return 1;
    }
    if (c >= 0xc2 && c <= 0xdf) {
        k = 2;
        min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        k = 3;
        min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        k = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    if (k > n)
        return 0;
    uint32_t cp = c & (0x7fu >> k);
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3fu);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    if (cp_out)
        *cp_out = cp;
    return k;
}

/* What to do with the character at s[i]: 0 keep (*len bytes), 1 hex-escape its *len bytes,
 * 2 write it as \uXXXX. */
static int classify(const unsigned char *s, size_t n, size_t i, unsigned flags, size_t *len,
                    uint32_t *cp)
{
    unsigned c = s[i];
    if (c < 0x80) {
        *len = 1;
        *cp = c;
        if (c >= 0x20 && c != 0x7f)
            return 0;
        return (flags & PR_TEXT_LINES) && (c == '\n' || c == '\t') ? 0 : 1;
    }
    size_t k = pr_utf8_len(s + i, n - i, cp);
    if (k == 0) {
        *len = 1; /* not UTF-8: this byte alone */
        return 1;
    }
    *len = k;
    if (*cp <= 0x9f)
        return 2; /* C1 control */
    if ((*cp >= 0x202a && *cp <= 0x202e) || (*cp >= 0x2066 && *cp <= 0x2069))
        return 2; /* bidirectional override or isolate */
    return 0;
}

/* A spreadsheet cell that could run something: "=" or "@" first always; "+" or "-" first
 * when it holds a character a formula needs to call a function or another program ("(", "|",
 * "!"): numbers ("-3.2%"), the unknown "-", "-Xmx2g" and "-XX:+UseG1GC" stay as they are. */
static int needs_quote(const char *s, size_t n, unsigned flags)
{
    if (!(flags & PR_TEXT_CELL) || n == 0)
        return 0;
    if (s[0] == '=' || s[0] == '@')
        return 1;
    if (s[0] != '+' && s[0] != '-')
        return 0;
    return memchr(s, '(', n) || memchr(s, '|', n) || memchr(s, '!', n);
}

int pr_text_is_safe(const char *s, size_t n, unsigned flags)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t len;
    uint32_t cp;
    if (needs_quote(s, n, flags))
        return 0;
    for (size_t i = 0; i < n; i += len) {
        if (u[i] >= 0x20 && u[i] < 0x7f) { /* the common case */
            len = 1;
            continue;
        }
        if (classify(u, n, i, flags, &len, &cp))
            return 0;
    }
    return 1;
}

void pr_text_visible(const char *s, size_t n, unsigned flags, pr_buf *out)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *u = (const unsigned char *)s;
    size_t run = 0, len;
    uint32_t cp;
    if (needs_quote(s, n, flags))
        pr_buf_putc(out, '\'');
    for (size_t i = 0; i < n; i += len) {
        int how = classify(u, n, i, flags, &len, &cp);
        if (!how)
            continue;
        pr_buf_append(out, s + run, i - run);
        char esc[16];
        if (how == 2) {
            esc[0] = '\\';
            esc[1] = 'u';
            for (int d = 0; d < 4; d++)
                esc[2 + d] = hex[(cp >> (12 - 4 * d)) & 0xf];
            pr_buf_append(out, esc, 6);
        } else {
            for (size_t b = 0; b < len; b++) {
                esc[4 * b] = '\\';
                esc[4 * b + 1] = 'x';
                esc[4 * b + 2] = hex[u[i + b] >> 4];
                esc[4 * b + 3] = hex[u[i + b] & 0xf];
            }
            pr_buf_append(out, esc, 4 * len);
        }
        run = i + len;
    }
    pr_buf_append(out, s + run, n - run);
}

char *pr_text_visible_dup(const char *s, unsigned flags)
{
    if (!s)
        s = "";
    size_t n = strlen(s);
    if (pr_text_is_safe(s, n, flags))
        return pr_xstrdup(s);
    pr_buf b = PR_BUF_INIT;
    pr_text_visible(s, n, flags, &b);
    return pr_buf_steal(&b);
}

/* The object's members with a key that is not safe, re-set under their visible key (keys are
 * rare: meta from files, tags); values are walked by the caller. */
static void fix_keys(json_t *o, unsigned flags)
{
    const char *k;
    json_t *v;
    void *tmp;
    json_t *moved = NULL;
    json_object_foreach_safe (o, tmp, k, v) {
        if (pr_text_is_safe(k, strlen(k), flags & ~(unsigned)PR_TEXT_CELL))
            continue;
        if (!moved)
            moved = json_object();
        char *vis = pr_text_visible_dup(k, flags & ~(unsigned)PR_TEXT_CELL);
        json_object_set(moved, vis, v);
        free(vis);
        json_object_del(o, k);
    }
    if (moved) {
        json_object_update(o, moved);
        json_decref(moved);
    }
}

void pr_text_visible_json(json_t *v, unsigned flags)
{
    size_t i;
    json_t *x;
    const char *k;
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        fix_keys(v, flags);
        json_object_foreach (v, k, x)
            pr_text_visible_json(x, flags);
        break;
    case JSON_ARRAY:
        json_array_foreach (v, i, x)
            pr_text_visible_json(x, flags);
        break;
    case JSON_STRING: {
        const char *s = json_string_value(v);
        size_t n = json_string_length(v);
        if (pr_text_is_safe(s, n, flags))
            break;
        pr_buf b = PR_BUF_INIT;
        pr_text_visible(s, n, flags, &b);
        json_string_setn(v, b.p ? b.p : "", b.len);
        pr_buf_dispose(&b);
        break;
    }
    default: break;
    }
}

/* ---- the gate of an output stream ------------------------------------------------------- */

/* The length of the UTF-8 sequence that the byte c starts (1: not a lead byte). */
static size_t seq_len(unsigned char c)
{
    return c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 1;
}

/* How many bytes of s[0..n) end complete characters: the rest (at most 3 bytes) is a lead
 * byte and continuation bytes that the next piece may complete. */
static size_t complete_part(const unsigned char *s, size_t n)
{
    for (size_t j = n; j > 0 && n - j < 3; j--) {
        unsigned c = s[j - 1];
        if ((c & 0xc0) == 0x80)
            continue;
        return seq_len((unsigned char)c) > n - (j - 1) ? j - 1 : n;
    }
    return n;
}

/* 1 when the 8 bytes at s are all printable ASCII (0x20..0x7e): a word at a time, the common
 * case of every output. */
static int ascii8(const unsigned char *s)
{
    uint64_t x;
    memcpy(&x, s, 8);
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    uint64_t below = (x - 0x20 * ones) & ~x & high; /* a byte < 0x20 */
    uint64_t above = (x | (x + ones)) & high;       /* a byte >= 0x7f */
    return !(below | above);
}

/* s[0..n) made visible into g: safe runs as they are, each unsafe character as its escape. */
static int gate_write(pr_text_gate *g, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t run = 0, len;
    uint32_t cp;
    for (size_t i = 0; i < n; i += len) {
        if (i + 8 <= n && ascii8(u + i)) {
            len = 8;
            continue;
        }
        if (u[i] >= 0x20 && u[i] < 0x7f) {
            len = 1;
            continue;
        }
        if (!classify(u, n, i, PR_TEXT_LINES, &len, &cp))
            continue;
        int rc = run < i ? g->write(s + run, i - run, g->payload) : 0;
        pr_buf b = PR_BUF_INIT;
        pr_text_visible(s + i, len, PR_TEXT_LINES, &b);
        if (rc == 0)
            rc = g->write(b.p, b.len, g->payload);
        pr_buf_dispose(&b);
        if (rc < 0)
            return rc;
        run = i + len;
    }
    return run < n ? g->write(s + run, n - run, g->payload) : 0;
}

int pr_text_gate_put(pr_text_gate *g, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    if (g->nheld) { /* complete the held sequence, or find it broken */
        size_t want = seq_len(g->held[0]);
        while (g->nheld < want && i < n && (u[i] & 0xc0) == 0x80)
            g->held[g->nheld++] = u[i++];
        if (g->nheld < want && i == n)
            return 0;
        size_t k = g->nheld;
        g->nheld = 0;
        int rc = gate_write(g, (const char *)g->held, k);
        if (rc < 0)
            return rc;
    }
    size_t done = i + complete_part(u + i, n - i);
    int rc = gate_write(g, s + i, done - i);
    memcpy(g->held, u + done, n - done);
    g->nheld = n - done;
    return rc;
}

int pr_text_gate_end(pr_text_gate *g)
{
    size_t k = g->nheld;
    g->nheld = 0;
    return k ? gate_write(g, (const char *)g->held, k) : 0;
}
