/* Human forms of numbers for reports and text output: "43.1 ms", "1.2 k/s", "0.15%". */
#ifndef PR_HUMAN_H
#define PR_HUMAN_H
#include <stddef.h>
#include <stdint.h>

/* Each writes into buf (size >= 32) and returns it. Unknown/NaN gives "-". */
char *pr_human_duration(int64_t ns, char *buf);
/* A duration measured with a clock of res_ns (1: nanoseconds; ab and JMeter write whole
 * milliseconds, 1000000): 0 reads "< 1 ms" (the value was below the resolution, not 0 ns);
 * anything else as pr_human_duration. res_ns <= 1 is pr_human_duration. */
char *pr_human_duration_res(int64_t ns, int64_t res_ns, char *buf);
/* A duration measured between start stamps of res_ns (ab -g: whole seconds), known only to a
 * tick either way: "< 1 s" below a tick, else "≈ 3 s" (rounded to whole ticks). */
char *pr_human_duration_approx(int64_t ns, int64_t res_ns, char *buf);
char *pr_human_rate(double per_s, char *buf);
/* A rate known only between two bounds: "> 2500/s" when high is not finite, else
 * "81.9/s – 87.4/s", 3 significant digits rounded outward. buf: at least 48 bytes. */
char *pr_human_rate_range(double low, double high, char *buf);
char *pr_human_bytes(double bytes, char *buf);
char *pr_human_percent(double ratio, char *buf);
char *pr_human_count(int64_t n, char *buf);

#endif
