/* The output timestamp: SOURCE_DATE_EPOCH, validated, or the wall clock. */
#include "model/clock.h"
#include <stdlib.h>
#include <time.h>

#define MAX_S 253402300799LL /* 9999-12-31T23:59:59Z */

int pr_clock_source_date(int64_t *s)
{
    const char *e = getenv("SOURCE_DATE_EPOCH");
    if (!e || !*e)
        return 0;
    long long v = 0;
    for (const char *p = e; *p; p++) {
        if (*p < '0' || *p > '9' || v > MAX_S)
            return 0;
        v = v * 10 + (*p - '0');
    }
    if (v > MAX_S)
        return 0;
    *s = (int64_t)v;
    return 1;
}

int64_t pr_clock_now_s(void)
{
    int64_t s;
    return pr_clock_source_date(&s) ? s : (int64_t)time(NULL);
}
