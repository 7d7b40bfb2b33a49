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
char *pr_human_rate(double per_s, char *buf);
char *pr_human_bytes(double bytes, char *buf);
char *pr_human_percent(double ratio, char *buf);
char *pr_human_count(int64_t n, char *buf);

#endif
