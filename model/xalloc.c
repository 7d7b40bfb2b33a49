/* Allocation helpers that abort on out-of-memory. */
#include "model/xalloc.h"
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(size_t n)
{
    fprintf(stderr, "perfreport: out of memory (%zu bytes)\n", n);
    abort();
}

void *pr_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom(n);
    return p;
}

void *pr_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        oom(n * size);
    return p;
}

void *pr_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        oom(n);
    return q;
}

void *pr_xgrow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    if (c > ((size_t)-1) / size)
        oom(c);
    p = pr_xrealloc(p, c * size);
    *cap = c;
    return p;
}

char *pr_xstrdup(const char *s)
{
    return pr_xstrndup(s, strlen(s));
}

char *pr_xstrndup(const char *s, size_t n)
{
    char *d = pr_xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

char *pr_xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int r = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (r < 0)
        oom(0);
    return s;
}

void pr_xalloc_json(void)
{
    json_set_alloc_funcs(pr_xmalloc, free);
}
