/* String interning: each distinct string gets a small id (1, 2, 3…); id 0 is "no string". */
#ifndef PR_STRTAB_H
#define PR_STRTAB_H
#include <stddef.h>
#include <stdint.h>

typedef struct pr_strtab pr_strtab;

pr_strtab *pr_strtab_new(void);
void pr_strtab_free(pr_strtab *t);
/* Returns the id of the string (interning it if new). Strings may contain NUL bytes;
 * they are stored with a terminating NUL as well. Length is capped at PR_STR_MAX bytes
 * (longer input is truncated) so untrusted input cannot grow one string without bound. */
#define PR_STR_MAX (64u * 1024u)
uint32_t pr_strtab_intern(pr_strtab *t, const char *s, size_t len);
/* As above for a NUL-terminated string; NULL or "" gives PR_NOSTR (0). */
uint32_t pr_strtab_intern_cstr(pr_strtab *t, const char *s);
/* Looks a string up without interning it; 0 if absent. */
uint32_t pr_strtab_find(const pr_strtab *t, const char *s, size_t len);
/* The string for an id (borrowed, valid while the table lives); "" for 0 or unknown ids. */
const char *pr_strtab_get(const pr_strtab *t, uint32_t id);
size_t pr_strtab_len(const pr_strtab *t, uint32_t id);
/* Number of ids in use + 1 (ids run from 1 to count-1). */
uint32_t pr_strtab_count(const pr_strtab *t);

#endif
