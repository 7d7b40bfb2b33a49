/* Shared tokenizer helpers for the line/field formats: numbers, durations, timestamps,
 * splitting fields. One place for number parsing so parsers report errors alike. */
#ifndef PR_LEX_H
#define PR_LEX_H
#include <stddef.h>
#include <stdint.h>

/* A borrowed slice of text. */
typedef struct pr_str {
    const char *p;
    size_t n;
} pr_str;

pr_str pr_str_trim(pr_str s);
int pr_str_eq(pr_str s, const char *lit);
int pr_str_starts(pr_str s, const char *lit);

/* Parses all of s (no surrounding space) as a decimal integer. 0 ok, -1 if not. */
int pr_lex_i64(const char *s, size_t n, int64_t *out);
/* Parses all of s as a decimal number (strtod rules, no hex/inf/nan). 0 ok, -1 if not. */
int pr_lex_double(const char *s, size_t n, double *out);
/* Parses a duration with a unit suffix as tools print them: Go's Duration.String
 * ("1h2m3.5s", "27.9ms", "191.054µs", "850ns", "0s"), wrk's ("1.23ms", "2.00s", "1.5m",
 * "12us"), and a bare number when `bare_unit_ns` is non-zero. Result in ns, rounded to the
 * nearest ns. 0 ok, -1 if not a duration. */
int pr_lex_duration(const char *s, size_t n, int64_t bare_unit_ns, int64_t *out_ns);
/* Parses an RFC 3339 timestamp ("2026-11-30T15:11:09.461933948Z", "...-03:30") to ns since
 * the epoch; *offset_min gets the zone offset in minutes (may be NULL). 0 ok, -1 if not. */
int pr_lex_rfc3339(const char *s, size_t n, int64_t *out_ns, int *offset_min);
/* Days since 1970-01-01 of a civil date (proleptic Gregorian). */
int64_t pr_days_from_civil(int64_t y, unsigned m, unsigned d);
/* Formats ns since the epoch as RFC 3339 with nanoseconds in the given zone offset
 * (minutes; 0 prints "Z"). buf must hold 40 bytes. Returns buf. */
char *pr_format_rfc3339(int64_t ns, int offset_min, char *buf);

/* Parses a plain decimal number ("0.0029", "57.0746", "1e-06", "-3") in units of 10^unit_exp10
 * ns (9: seconds, 6: ms, 3: µs, 0: ns) to ns, exactly (no floating point), rounding half away
 * from zero below 1 ns. 0 ok, -1 if not a number or beyond the int64 ns range. */
int pr_lex_decimal_ns(const char *s, size_t n, int unit_exp10, int64_t *out_ns);

/* Splits a line at `sep` into at most `max` fields (no quoting). Returns the field count;
 * when the line has more fields than max, returns max + 1 and fills max. */
size_t pr_lex_split(const char *line, size_t n, char sep, pr_str *fields, size_t max);

/* Splits one line of RFC 4180 CSV at `sep` into at most `max` fields: a field that starts with
 * '"' is quoted ("" inside is one quote) and is unquoted into `out`, which must hold n bytes;
 * other fields point into the line. Returns the field count, max + 1 when there are more, or
 * -1 with *bad_at set to the offset of a quoting error (an unterminated quote, text after a
 * closing quote). A quoted field spanning lines is an unterminated quote here. */
int pr_lex_split_csv(const char *line, size_t n, char sep, pr_str *fields, size_t max, char *out,
                     size_t *bad_at);

#endif
