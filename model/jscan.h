/* A small in-place JSON scanner for line-oriented JSON (one object per line: Vegeta's
 * `encode --to json`, k6's `--out json`) and a JSON-lines reader on top of pr_input: values
 * are read straight out of the line, strings without escapes are returned as pointers into
 * it, escaped strings are unescaped into a caller-owned buffer. Nothing is allocated. */
#ifndef PR_JSCAN_H
#define PR_JSCAN_H
#include <stddef.h>
#include <stdint.h>
#include "model/error.h"
#include "model/input.h"
#include "model/lex.h"

#define PR_JSCAN_DEPTH 32 /* deepest nesting pr_jscan_skip follows */

typedef struct pr_jscan {
    const char *p, *start, *end; /* cursor, and the text scanned [start, end) */
    char *out;                   /* unescape buffer (borrowed) */
    size_t out_len, out_cap;
    size_t str_max; /* longest unescaped string kept (longer: cut) */
} pr_jscan;

/* Scans text[0..n); escaped strings kept with pr_jscan_string(..., 1) go to out (out_cap bytes,
 * each cut at str_max). */
void pr_jscan_init(pr_jscan *s, const char *text, size_t n, char *out, size_t out_cap,
                   size_t str_max);
/* Skips blanks (space, tab, CR, LF). */
void pr_jscan_ws(pr_jscan *s);
/* 1-based column of the cursor. */
long pr_jscan_col(const pr_jscan *s);
/* Reads a string at the cursor (which must be at its opening quote). *str (may be NULL) gets
 * the text: a slice of the input when it has no escapes, else the unescaped text in the out
 * buffer when `keep` (otherwise empty). 0, or -1 if malformed (cursor left where it broke). */
int pr_jscan_string(pr_jscan *s, pr_str *str, int keep);
/* Skips any value (nesting up to PR_JSCAN_DEPTH). 0 or -1. */
int pr_jscan_skip(pr_jscan *s);
/* Reads a number token; *text gets its characters (not checked beyond the character set). */
int pr_jscan_number(pr_jscan *s, pr_str *text);
/* Reads a JSON number that must be an integer. 0 or -1. */
int pr_jscan_i64(pr_jscan *s, int64_t *out);
/* Reads a JSON number as a double. 0 or -1. */
int pr_jscan_double(pr_jscan *s, double *out);
/* 1 if the value at the cursor is `null` (consumed), 0 if it is something else. */
int pr_jscan_null(pr_jscan *s);
/* Object members: call pr_jscan_object at '{', then pr_jscan_member until it returns 0.
 * pr_jscan_member returns 1 with *key set and the cursor on the member's value (the caller
 * must read or skip it), 0 after the closing '}', -1 with *what set when malformed. */
int pr_jscan_object(pr_jscan *s, int *first, const char **what);
int pr_jscan_member(pr_jscan *s, int *first, pr_str *key, const char **what);
/* 0 if only blanks remain. */
int pr_jscan_end(pr_jscan *s);

/* JSON lines: one value per line, blank lines skipped, line length bounded by PR_LINE_MAX
 * (pr_input_getline), errors placed at line and column. */
typedef struct pr_jsonl {
    pr_input *in;
    char *out; /* unescape buffer (owned) */
    size_t out_cap;
    size_t str_max;
    const char *line;
    size_t len;
} pr_jsonl;

/* Prepares a reader over `in` whose strings are kept up to str_max bytes each (and at most
 * 4 * str_max bytes of unescaped text per line). */
void pr_jsonl_init(pr_jsonl *j, pr_input *in, size_t str_max);
void pr_jsonl_dispose(pr_jsonl *j);
/* Next non-blank line, with *s set to scan it. 1, 0 at end of input, or a negative error. */
int pr_jsonl_next(pr_jsonl *j, pr_jscan *s, pr_error *err);
/* The error for a malformed line at the scanner's cursor: PR_ETRUNC ("last line is cut short:
 * WHAT") when it is the unterminated last line, else PR_EPARSE ("WHAT in a KIND"). */
int pr_jsonl_fail(pr_jsonl *j, const pr_jscan *s, const char *what, const char *kind,
                  pr_error *err);

#endif
