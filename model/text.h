/* Text from input files made safe to show: the one sanitiser every string read from a result
 * file goes through before it reaches a terminal, a Markdown or HTML page or a CSV export.
 *
 * Made visible (written as the escapes `cat -v` and git would let a reader see):
 *   - C0 control bytes 0x00-0x1f and DEL 0x7f as "\xHH" ("\x1b" for ESC), so escape sequences
 *     cannot retitle, clear or recolour a terminal; with PR_TEXT_LINES a newline and a tab
 *     are kept (whole text outputs);
 *   - C1 controls U+0080-U+009F (8-bit CSI and friends) as "\u009b" (the character, as JSON
 *     writes it: the same escape is valid inside a JSON string), bytes that are not UTF-8 as
 *     "\xHH" per byte;
 *   - the bidirectional overrides and isolates U+202A-U+202E, U+2066-U+2069 as "\u202e", so a
 *     label cannot display reversed ("Trojan Source").
 * With PR_TEXT_CELL a value that a spreadsheet would run as a formula (first character =, +,
 * - or @, as OWASP's CSV-injection advice lists them) is prefixed with a quote "'": always
 * after = or @; after + or - when it could call something (it holds "(", "|" or "!"), so
 * numbers with a unit ("-3.2%", "+1.50 ms", "-") and options ("-Xmx2g") are left alone.
 * A backslash is not escaped: "\x1b" in a label reads the same as an escaped ESC. */
#ifndef PR_TEXT_H
#define PR_TEXT_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "model/buf.h"

enum {
    PR_TEXT_LINES = 1, /* keep '\n' and '\t' (a whole report or table) */
    PR_TEXT_CELL = 2   /* a spreadsheet cell: neutralise formulas */
};

/* Length of the valid UTF-8 sequence at s[0..n) (n > 0), 0 if it is not one (overlong forms,
 * surrogates and code points past U+10FFFF are not); *cp gets the code point (may be NULL). */
size_t pr_utf8_len(const unsigned char *s, size_t n, uint32_t *cp);
/* 1 when s[0..n) would be written unchanged. */
int pr_text_is_safe(const char *s, size_t n, unsigned flags);
/* Appends s[0..n) made safe to out. */
void pr_text_visible(const char *s, size_t n, unsigned flags, pr_buf *out);
/* A safe copy of the NUL-terminated s (NULL gives ""); the caller frees it. */
char *pr_text_visible_dup(const char *s, unsigned flags);
/* Rewrites, in place, every string of a JSON tree (values and object keys) made safe: used on
 * a report model before it is printed as text. */
void pr_text_visible_json(json_t *v, unsigned flags);

/* The gate of a whole output stream (standard output, cli/main.c): text written to it in
 * pieces cut anywhere comes out as pr_text_visible with PR_TEXT_LINES makes it, runs of safe
 * text passed on as they are. A UTF-8 sequence cut at the end of a piece is held until the
 * next piece completes it. Text already made visible passes unchanged; so does JSON whose
 * writer escaped its C0 controls (every JSON writer must): its C1 controls and bidi overrides
 * come out as \u escapes, the same strings. */
typedef struct pr_text_gate {
    /* where the bytes go: returns < 0 on an error, which put and end then return */
    int (*write)(const char *p, size_t n, void *payload);
    void *payload;
    unsigned char held[4]; /* the start of a UTF-8 sequence cut at the end of a piece */
    size_t nheld;
} pr_text_gate;
/* Writes s[0..n) through the gate. Returns 0 or the write function's error. */
int pr_text_gate_put(pr_text_gate *g, const char *s, size_t n);
/* The end of the stream: a sequence still held is not UTF-8 and is written as \xHH. */
int pr_text_gate_end(pr_text_gate *g);

#endif
