/* Markdown to HTML (md4c, GitHub-like dialect, raw HTML disabled) and HTML escaping. */
#ifndef PR_MARKDOWN_H
#define PR_MARKDOWN_H
#include <stddef.h>
#include "model/buf.h"
#include "model/error.h"

/* Converts `len` bytes of Markdown to an HTML fragment appended to out. Tables, strikethrough,
 * task lists and autolinks are on; raw HTML blocks and spans are not passed through (they come
 * out as escaped text). Returns 0, PR_EPARSE when md4c fails, PR_EIO when out->max is hit. */
int pr_markdown_to_html(const char *md, size_t len, pr_buf *out, pr_error *err);

/* Appends s with & < > " ' replaced by entities. */
void pr_html_escape(const char *s, size_t len, pr_buf *out);

#endif
