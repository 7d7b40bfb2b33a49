/* URL patterns for high-cardinality labels: ids in a path become {id}, so "GET /item/17" and
 * "GET /item/18" are one row (docs/metrics.md, "Labels grouped by pattern"). */
#ifndef PR_PATTERN_H
#define PR_PATTERN_H
#include <stddef.h>
#include "model/buf.h"

/* Appends the pattern of s[0..n) to out: from the first '/', each path segment (between '/'
 * and up to '?', '#' or a space) that is a number, a UUID or a hex id (8 or more hex digits,
 * at least one of them a digit) is replaced by "{id}", and so is each query value (after
 * '=', up to '&') of those shapes. Everything else is kept as it is. */
void pr_pattern_url(const char *s, size_t n, pr_buf *out);
/* 1 when t[0..n) is an id by those rules. */
int pr_pattern_is_id(const char *t, size_t n);

#endif
