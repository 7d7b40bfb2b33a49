/* A growable byte buffer with a hard maximum, for building output text. */
#ifndef PR_BUF_H
#define PR_BUF_H
#include <stdarg.h>
#include <stddef.h>

typedef struct pr_buf {
    char *p; /* always NUL-terminated when non-NULL */
    size_t len;
    size_t cap;
    size_t max; /* 0 = default limit (1 GiB); appends beyond it set `overflow` and are dropped */
    int overflow;
} pr_buf;

#define PR_BUF_INIT                                                                                \
    {                                                                                              \
        NULL, 0, 0, 0, 0                                                                           \
    }

void pr_buf_append(pr_buf *b, const void *data, size_t n);
void pr_buf_puts(pr_buf *b, const char *s);
void pr_buf_putc(pr_buf *b, char c);
void pr_buf_printf(pr_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pr_buf_vprintf(pr_buf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
void pr_buf_reset(pr_buf *b);
/* Frees the storage (the struct itself is caller-owned). */
void pr_buf_dispose(pr_buf *b);
/* Takes the string out (caller frees), leaving the buffer empty. Never NULL. */
char *pr_buf_steal(pr_buf *b);

#endif
