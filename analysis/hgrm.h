/* HdrHistogram's percentile-distribution text (.hgrm), from exact sorted latencies, so HDR
 * tools (HistogramLogAnalyzer, the online plotter) can read perfreport's data. */
#ifndef PR_HGRM_H
#define PR_HGRM_H
#include <stddef.h>
#include <stdint.h>
#include "model/buf.h"

/* Appends the distribution of sorted latencies v[0..n) (ns) in milliseconds, with 5 percentile
 * ticks per half distance as HdrHistogram prints by default. n may be 0. */
void pr_hgrm_write(const int64_t *sorted, size_t n, pr_buf *out);

#endif
