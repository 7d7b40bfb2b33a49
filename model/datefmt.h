/* Java SimpleDateFormat patterns ("yyyy/MM/dd HH:mm:ss.SSS", "HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ss.SSSZ")
 * compiled once and used to parse timestamps that tools (JMeter) wrote with them, plus
 * zone-offset parsing for --tz. */
#ifndef PR_DATEFMT_H
#define PR_DATEFMT_H
#include <stddef.h>
#include <stdint.h>

#define PR_DATEFMT_MAXTOK 32

typedef struct pr_datefmt_tok {
    char letter;         /* pattern letter (y M d H k h K m s S a Z X z E D u), 0 for a literal */
    unsigned char width; /* count of repeated letters, or literal length */
    char lit[14];        /* literal text */
} pr_datefmt_tok;

typedef struct pr_datefmt {
    pr_datefmt_tok tok[PR_DATEFMT_MAXTOK];
    int ntok;
    int has_date;          /* the pattern has a year, month or day */
    int has_zone;          /* the pattern carries a zone (Z, X, z) */
    int64_t resolution_ns; /* smallest unit the pattern writes (1 ms with S, 1 s with s…) */
} pr_datefmt;

/* Compiles a SimpleDateFormat pattern. Returns 0, or -1 when the pattern uses a letter or
 * construct this reader does not support (message in errbuf, may be NULL). */
int pr_datefmt_compile(pr_datefmt *f, const char *pattern, char *errbuf, size_t errsize);
/* Parses all of s[0..n) with the pattern. Stamps without a zone are read in
 * `default_offset_min` (minutes east of UTC); stamps without a date fall on 1970-01-01.
 * Two-digit years ("yy") are 20yy when < 50, else 19yy. 0 ok, -1 if s does not match,
 * PR_TIME_RANGE (model/lex.h) when the time falls outside the years 1678..2261. */
int pr_datefmt_parse(const pr_datefmt *f, const char *s, size_t n, int default_offset_min,
                     int64_t *out_ns);
/* Parses a zone given on the command line: "UTC", "GMT", "Z", "+02:00", "-0530", "+2",
 * "UTC+01:00", "GMT-3". 0 ok with *offset_min set, -1 if not understood (named zones such as
 * "Europe/Paris" are not: give the offset). */
int pr_tz_offset(const char *tz, int *offset_min);

#endif
