/* Human forms of numbers for reports, text output and charts: "43.1 ms", "1.2 k/s", "0.15%",
 * the one formatter of numbers and durations in the project. */
#ifndef PR_HUMAN_H
#define PR_HUMAN_H
#include <stddef.h>
#include <stdint.h>

/* Bytes that hold every form below (a smaller buffer gets the form cut, always terminated). */
#define PR_HUMAN_SIZE 48

/* Each writes into buf (size bytes) and returns it. Unknown/NaN gives "-". */
char *pr_human_duration(int64_t ns, char *buf, size_t size);
/* A duration measured with a clock of res_ns (1: nanoseconds; ab and JMeter write whole
 * milliseconds, 1000000): 0 reads "< 1 ms" (the value was below the resolution, not 0 ns);
 * anything else as pr_human_duration. res_ns <= 1 is pr_human_duration. */
char *pr_human_duration_res(int64_t ns, int64_t res_ns, char *buf, size_t size);
/* A duration measured between start stamps of res_ns (ab -g: whole seconds), known only to a
 * tick either way: "< 1 s" below a tick, else "≈ 3 s" (rounded to whole ticks). */
char *pr_human_duration_approx(int64_t ns, int64_t res_ns, char *buf, size_t size);
char *pr_human_rate(double per_s, char *buf, size_t size);
/* A rate known only between two bounds: "> 2500/s" when high is not finite, else
 * "81.9/s – 87.4/s", 3 significant digits rounded outward. */
char *pr_human_rate_range(double low, double high, char *buf, size_t size);
char *pr_human_bytes(double bytes, char *buf, size_t size);
char *pr_human_percent(double ratio, char *buf, size_t size);
char *pr_human_count(int64_t n, char *buf, size_t size);

/* The forms of chart labels and axes, "n/a" when not finite. */
/* The unit of a linear duration axis whose largest magnitude is maxabs ns (s, ms, µs, ns, in
 * the catalog's words), and its size in ns in *div. */
const char *pr_human_duration_unit(double maxabs, double *div);
/* A duration in that unit, trailing zeros dropped: "250 ms", "1.5 s", "3 ms". */
char *pr_human_duration_short(double ns, char *buf, size_t size);
/* A count or value with a k / M / G suffix from 10,000 on: "950", "12.3k", "2.5", "1.2M". */
char *pr_human_number(double v, char *buf, size_t size);

#endif
