/* URL patterns: path segments and query values that are ids become {id}. */
#include "analysis/pattern.h"
#include <string.h>

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_hex(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* 8-4-4-4-12 hex digits. */
static int is_uuid(const char *t, size_t n)
{
    if (n != 36)
        return 0;
    for (size_t i = 0; i < n; i++) {
        int dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? t[i] != '-' : !is_hex(t[i]))
            return 0;
    }
    return 1;
}

int pr_pattern_is_id(const char *t, size_t n)
{
    if (n == 0)
        return 0;
    size_t digits = 0, hex = 0;
    for (size_t i = 0; i < n; i++) {
        digits += is_digit(t[i]);
        hex += is_hex(t[i]);
    }
    return digits == n || is_uuid(t, n) || (n >= 8 && hex == n && digits > 0);
}

/* Copies token t[0..n) or "{id}" in its place. */
static void put_token(pr_buf *out, const char *t, size_t n)
{
    if (pr_pattern_is_id(t, n))
        pr_buf_puts(out, "{id}");
    else
        pr_buf_append(out, t, n);
}

void pr_pattern_url(const char *s, size_t n, pr_buf *out)
{
    const char *slash = memchr(s, '/', n);
    if (!slash) {
        pr_buf_append(out, s, n);
        return;
    }
    size_t i = (size_t)(slash - s);
    pr_buf_append(out, s, i);
    /* the path: segments between slashes */
    while (i < n && s[i] == '/') {
        pr_buf_putc(out, '/');
        size_t j = ++i;
        while (j < n && s[j] != '/' && s[j] != '?' && s[j] != '#' && s[j] != ' ')
            j++;
        put_token(out, s + i, j - i);
        i = j;
    }
    if (i < n && s[i] == '?') { /* the query: values after '=' up to '&' */
        pr_buf_putc(out, '?');
        i++;
        while (i < n && s[i] != '#' && s[i] != ' ') {
            size_t j = i;
            while (j < n && s[j] != '=' && s[j] != '&' && s[j] != '#' && s[j] != ' ')
                j++;
            pr_buf_append(out, s + i, j - i);
            i = j;
            if (i < n && s[i] == '=') {
                pr_buf_putc(out, '=');
                j = ++i;
                while (j < n && s[j] != '&' && s[j] != '#' && s[j] != ' ')
                    j++;
                put_token(out, s + i, j - i);
                i = j;
            }
            if (i < n && s[i] == '&') {
                pr_buf_putc(out, '&');
                i++;
            }
        }
    }
    pr_buf_append(out, s + i, n - i); /* a fragment, " HTTP/1.1"… as they are */
}
