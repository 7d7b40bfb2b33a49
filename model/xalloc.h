/* Allocation helpers that abort on out-of-memory, so error paths exist only for real errors. */
#ifndef PR_XALLOC_H
#define PR_XALLOC_H
#include <stddef.h>

void *pr_xmalloc(size_t n);
void *pr_xcalloc(size_t n, size_t size);
void *pr_xrealloc(void *p, size_t n);
/* Grows an array: returns a buffer of at least `need` elements of `size`, updating *cap. */
void *pr_xgrow(void *p, size_t *cap, size_t need, size_t size);
char *pr_xstrdup(const char *s);
char *pr_xstrndup(const char *s, size_t n);
/* printf into a fresh heap string. */
char *pr_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
