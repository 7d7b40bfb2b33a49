/* The load generator's rates and open-model schedule: parsing "500/s" and stepped rates, the
 * interleaving of requests over shards and workers, and even shares of a total. */
#include "gen/attack.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "model/lex.h"

void pr_sched_init(pr_sched *s, double rate_per_s, int64_t duration_ns, int64_t requests, int shard,
                   int nshards, int worker, int nworkers)
{
    s->period_ns = 1e9L / (long double)rate_per_s;
    s->offset = (int64_t)shard + (int64_t)nshards * worker;
    s->stride = (int64_t)nshards * nworkers;
    int64_t total = INT64_MAX;
    if (duration_ns > 0) {
        long double n = ceill((long double)duration_ns / s->period_ns);
        total = n >= 9e18L ? INT64_MAX : (int64_t)n;
    }
    if (requests > 0 && requests < total)
        total = requests;
    s->total = total;
}

int64_t pr_sched_count(const pr_sched *s)
{
    if (s->total <= s->offset)
        return 0;
    return (s->total - s->offset - 1) / s->stride + 1;
}

static int parse_number(const char *s, size_t n, double *out)
{
    return n > 0 && pr_lex_double(s, n, out) == 0 && *out > 0 && isfinite(*out) ? 0 : -1;
}

/* The "/UNIT" part of a rate: ns per unit ("/s" means "/1s"). 0 or -1. */
static int parse_unit(const char *u, double *per_ns)
{
    char tmp[64];
    if (*u && !isdigit((unsigned char)*u) && *u != '.') {
        snprintf(tmp, sizeof tmp, "1%s", u);
        u = tmp;
    }
    int64_t ns;
    if (pr_lex_duration(u, strlen(u), 0, &ns) < 0 || ns <= 0)
        return -1;
    *per_ns = (double)ns;
    return 0;
}

int pr_attack_parse_rate(const char *s, double *lo, double *hi, double *step, pr_error *err)
{
    const char *slash = strchr(s, '/');
    size_t numlen = slash ? (size_t)(slash - s) : strlen(s);
    double per_ns = 1e9;
    if (slash && parse_unit(slash + 1, &per_ns) < 0)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            "--rate %s: expected a time unit after '/' (s, m, 500ms...)", s);
    double v[3];
    int nv = 0;
    const char *p = s, *end = s + numlen;
    while (p <= end && nv < 3) {
        const char *c = memchr(p, ':', (size_t)(end - p));
        const char *e = c ? c : end;
        if (parse_number(p, (size_t)(e - p), &v[nv]) < 0)
            return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                                "--rate %s: expected a positive number of requests", s);
        nv++;
        p = e + 1;
        if (!c)
            break;
    }
    if (p <= end || (nv != 1 && nv != 3))
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            "--rate %s: expected N/UNIT or LO:HI:STEP/UNIT", s);
    double scale = 1e9 / per_ns;
    *lo = v[0] * scale;
    *hi = nv == 3 ? v[1] * scale : *lo;
    *step = nv == 3 ? v[2] * scale : 0;
    if (*hi < *lo)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            "--rate %s: the last rate is below the first", s);
    return 0;
}

int64_t pr_attack_steps(double lo, double hi, double step)
{
    if (!(step > 0))
        return 1;
    return (int64_t)floor((hi - lo) / step * (1 + 1e-9)) + 1;
}

int64_t pr_attack_share(int64_t total, int i, int n)
{
    return total / n + (i < total % n ? 1 : 0);
}
