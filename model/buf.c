/* Growable output buffers with a hard maximum. */
#include "model/buf.h"
#include "model/xalloc.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX ((size_t)1 << 30)

void pr_buf_append(pr_buf *b, const void *data, size_t n)
{
    size_t max = b->max ? b->max : DEFAULT_MAX;
    if (b->overflow || n > max - b->len) {
        b->overflow = 1;
        return;
    }
    b->p = pr_xgrow(b->p, &b->cap, b->len + n + 1, 1);
    memcpy(b->p + b->len, data, n);
    b->len += n;
    b->p[b->len] = 0;
}

void pr_buf_puts(pr_buf *b, const char *s)
{
    pr_buf_append(b, s, strlen(s));
}

void pr_buf_putc(pr_buf *b, char c)
{
    pr_buf_append(b, &c, 1);
}

void pr_buf_vprintf(pr_buf *b, const char *fmt, va_list ap)
{
    char small[256];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n >= 0 && (size_t)n < sizeof small) {
        pr_buf_append(b, small, (size_t)n);
    } else if (n >= 0) {
        char *big = pr_xmalloc((size_t)n + 1);
        vsnprintf(big, (size_t)n + 1, fmt, again);
        pr_buf_append(b, big, (size_t)n);
        free(big);
    }
    va_end(again);
}

void pr_buf_printf(pr_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pr_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void pr_buf_reset(pr_buf *b)
{
    b->len = 0;
    b->overflow = 0;
    if (b->p)
        b->p[0] = 0;
}

void pr_buf_dispose(pr_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
    b->overflow = 0;
}

char *pr_buf_steal(pr_buf *b)
{
    char *s = b->p ? b->p : pr_xstrdup("");
    b->p = NULL;
    b->len = b->cap = 0;
    return s;
}
