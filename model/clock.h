/* The time output is stamped with: SOURCE_DATE_EPOCH when it is set (reproducible reports,
 * charts and store records, https://reproducible-builds.org/specs/source-date-epoch/), else
 * the wall clock. The one reader of that variable. */
#ifndef PR_CLOCK_H
#define PR_CLOCK_H
#include <stdint.h>

/* 1 and *s (seconds since the Unix epoch) when SOURCE_DATE_EPOCH holds a decimal integer of
 * seconds from 0 to 253402300799 (9999-12-31T23:59:59Z) and nothing else; 0 when it is
 * unset, empty or not such a number (then *s is untouched). */
int pr_clock_source_date(int64_t *s);
/* SOURCE_DATE_EPOCH as above, else the current time, in seconds since the Unix epoch. */
int64_t pr_clock_now_s(void);

#endif
