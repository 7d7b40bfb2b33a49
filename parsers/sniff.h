/* Content sniffing shared by the readers: one window size, the first line of the window, a
 * fixed header line, and the first JSON object. Pure functions over the sniffed bytes. */
#ifndef PR_SNIFF_H
#define PR_SNIFF_H
#include <stddef.h>
#include "model/lex.h"

/* Bytes of an input the sniffers see (ingest peeks this much; parsers may peek it again). */
#define PR_SNIFF_WINDOW 65536

/* The first line of buf[0..len) without its "\r\n"/"\n". Returns 1 when
 * the line is complete (a newline follows), 0 when it runs to the end of the window. */
int pr_sniff_line(const unsigned char *buf, size_t len, pr_str *line);
/* Confidence that buf starts with exactly the header line `header`: 100 when the line is
 * the header, 60 when the window is a prefix of it at least `min_prefix` bytes long, else 0. */
int pr_sniff_header(const unsigned char *buf, size_t len, const char *header, size_t min_prefix);
/* The first JSON object of the window: skips blanks, then requires '{'. *obj gets
 * the object's text from '{' up to its matching '}', or to the end of the window when it does
 * not end there (longer than the window, or malformed). Returns 1 when complete, 0 when not,
 * -1 when no object starts there. */
int pr_sniff_json(const unsigned char *buf, size_t len, pr_str *obj);
/* Whether s contains the literal lit. */
int pr_sniff_has(pr_str s, const char *lit);

#endif
