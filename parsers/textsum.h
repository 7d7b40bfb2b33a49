/* Helpers shared by the readers of printed tool summaries (ab, hey, wrk, siege, httperf):
 * building run->summary (the canonical shape of model/run.h) from "Label:  value" text,
 * leading-number scanning, safe double→ns conversion, and merging two summaries. */
#ifndef PR_TEXTSUM_H
#define PR_TEXTSUM_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "model/input.h"
#include "model/lex.h"
#include "model/run.h"
#include "model/sink.h"

/* Caps that keep a summary bounded whatever the input: an object takes at most
 * PR_TEXTSUM_MAX_KEYS keys (further keys are dropped; pr_textsum_obj then hands out the
 * object's "_overflow" child), an array at most PR_TEXTSUM_MAX_ITEMS elements. */
#define PR_TEXTSUM_MAX_KEYS 256
#define PR_TEXTSUM_MAX_ITEMS 256

/* Marks the run summary-only and returns run->summary (created if missing; borrowed). */
json_t *pr_textsum_begin(pr_run *run);
/* parent[key] as an object, created if missing or not an object (borrowed). */
json_t *pr_textsum_obj(json_t *parent, const char *key);
/* parent[key] as an array, created if missing or not an array (borrowed). */
json_t *pr_textsum_arr(json_t *parent, const char *key);
/* Appends v to array a (steals v; dropped when a is full). */
void pr_textsum_append(json_t *a, json_t *v);
/* o[key] = v. */
void pr_textsum_int(json_t *o, const char *key, int64_t v);
/* o[key] = v; non-finite values are not stored. */
void pr_textsum_real(json_t *o, const char *key, double v);
/* o[key] = the n bytes of s as a JSON string (invalid UTF-8 bytes become '?', NULs dropped,
 * at most 4096 bytes kept). */
void pr_textsum_str(json_t *o, const char *key, const char *s, size_t n);
/* A fresh JSON string from n bytes, sanitised as above. */
json_t *pr_textsum_string(const char *s, size_t n);
/* Appends a string to run->meta["notes"] (an array). */
void pr_textsum_note(pr_run *run, const char *note);

/* Scans a decimal number at the start of s (after leading blanks): "12.5 [ms]" gives 12.5
 * and rest "[ms]" (trimmed). Accepts an optional sign, digits, one '.', and digits.
 * Returns 0, or -1 if s does not start with a number. */
int pr_textsum_num(pr_str s, double *v, pr_str *rest);
/* Same for an integer (no '.'); rest gets what follows. */
int pr_textsum_i64(pr_str s, int64_t *v, pr_str *rest);
/* Splits "Label:   value" at the first ':' (label and value trimmed). 0, or -1 if no ':'. */
int pr_textsum_kv(pr_str line, pr_str *label, pr_str *value);
/* v units of unit_ns each, rounded to the nearest ns; PR_UNKNOWN when not finite or out of
 * the int64 range. */
int64_t pr_textsum_ns(double v, double unit_ns);
/* v rounded to an int64, or PR_UNKNOWN when not finite or out of range. */
int64_t pr_textsum_round(double v);
/* A printed summary's figures that cannot be: a negative latency, duration or count, or one
 * past what the model holds (1e308 ms). Each is kept unknown (left out of run->summary, where
 * "-" shows it), never shown as data nor dropped without a word: pr_textsum_doubt_end warns
 * once per file with how many and where the first was, and adds it to the summary's notes. */
typedef struct pr_textsum_doubt {
    size_t n;
    char first[192]; /* "latency.p99 = -5 (negative)" */
} pr_textsum_doubt;
/* v in units of unit_ns as ns (unit_ns 1: a count), rounded; PR_UNKNOWN, counted in d under
 * the name `where` (the figure's place in the file: "latency.p99"), when it is negative, not
 * finite or past the int64 range. */
int64_t pr_textsum_checked(pr_textsum_doubt *d, double v, double unit_ns, const char *where);
/* The warning (through the sink, naming the file) and the summary note of d's figures. */
void pr_textsum_doubt_end(const pr_textsum_doubt *d, pr_sink *sink, const char *file);

/* The next whitespace-separated token of *s (advancing *s); n == 0 when none is left. */
pr_str pr_textsum_token(pr_str *s);
/* Strips a trailing "\r" (for CRLF text). */
pr_str pr_textsum_line(const char *line, size_t n);

/* Reads all of a (small) input into a NUL-terminated heap buffer (*len bytes, caller frees).
 * NULL with err set on I/O error or when the input is longer than max bytes. */
char *pr_textsum_slurp(pr_input *in, size_t max, size_t *len, pr_error *err);

/* Merges summary `from` into `into`: objects are merged key by key recursively; where both
 * hold a non-object value for the same key, `into` keeps its own (the first reader wins);
 * arrays are concatenated only when `into` has none. Used to join an ab text report with
 * the -e CSV of the same run (text first: its counters and its own percentile rule win). */
void pr_textsum_merge(json_t *into, const json_t *from);

#endif
