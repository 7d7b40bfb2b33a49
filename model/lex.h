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

/* ---- Times: the one checked conversion every reader's time goes through ----
 * Sample times are int64 ns since 1970-01-01T00:00:00Z, which hold 1677-09-21 to 2262-04-11.
 * Readers accept the instants of the whole years 1678 to 2261 (UTC) and refuse the others
 * with PR_TIME_RANGE, or keep them as unknown where the format writes such a time for "no
 * time" (Go's zero time, 0001-01-01T00:00:00Z): nothing ever overflows. */
#define PR_TIME_YEAR_MIN 1678
#define PR_TIME_YEAR_MAX 2261
#define PR_TIME_MIN_S (-9214560000LL) /* 1678-01-01T00:00:00Z */
#define PR_TIME_END_S 9214646400LL    /* 2262-01-01T00:00:00Z (excluded) */
#define PR_TIME_MIN_NS (PR_TIME_MIN_S * 1000000000LL)
#define PR_TIME_MAX_NS (PR_TIME_END_S * 1000000000LL - 1)
#define PR_TIME_RANGE (-2) /* a time outside 1678..2261 (malformed text gives -1) */
/* ns since the epoch of a civil date and time in a zone offset_s seconds east of UTC:
 * sec_of_day may exceed a day (a day of the year folded in), frac_ns is 0..999999999.
 * Returns 0, or PR_TIME_RANGE outside 1678..2261 (any year: no overflow). */
int pr_time_from_civil(int64_t year, unsigned mon, unsigned day, int64_t sec_of_day,
                       int64_t frac_ns, int64_t offset_s, int64_t *out_ns);
/* ns of v units of unit_ns (1e9 s, 1e6 ms, 1e3 µs, 1 ns) since the epoch. 0, or
 * PR_TIME_RANGE outside 1678..2261. */
int pr_time_from_epoch(int64_t v, int64_t unit_ns, int64_t *out_ns);
/* ns of a time given in (fractional) seconds since the epoch. 0, or PR_TIME_RANGE outside
 * 1678..2261 (NaN included). */
int pr_time_from_seconds(double s, int64_t *out_ns);
/* 1 when s is Go's zero time.Time as RFC 3339 ("0001-01-01T00:00:00Z"): no time at all. */
int pr_time_is_go_zero(const char *s, size_t n);
/* Parses an RFC 3339 timestamp ("2026-11-30T15:11:09.461933948Z", "...-03:30") to ns since
 * the epoch; *offset_min gets the zone offset in minutes (may be NULL). 0 ok, -1 if not
 * RFC 3339, PR_TIME_RANGE outside 1678..2261 (Go's zero time included). */
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
