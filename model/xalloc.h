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
/* Makes jansson allocate through pr_xmalloc (json_set_alloc_funcs), so out-of-memory aborts
 * there too and no json_t constructor returns NULL for want of memory. Call once at the start
 * of a program, before any JSON value exists (cli/main.c, the unit tests that build JSON). */
void pr_xalloc_json(void);

#endif
