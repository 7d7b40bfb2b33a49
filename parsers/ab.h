/* ApacheBench readers (ab-gnuplot, ab-text, ab-csv): what they share with the ingest layer
 * and with analysis/ab_stats.
 *
 * How an ab run maps onto the model:
 *  - ab-gnuplot (-g TSV): one sample per row. start_ns = `seconds` (1 s resolution),
 *    connect_ns = ctime, ttfb_ns = wait (end of write → first byte), latency_ns = ttime, all
 *    whole ms. status 0 and success PR_SUCCESS_UNKNOWN: the file has neither, and ab's failed
 *    requests are rows like the others (run meta "status_known": false). ab rounds dtime
 *    (processing) separately; when it differs from ttime - ctime the sample's attrs is the
 *    interned string PR_AB_DTIME_ATTR "N" so ab's Processing row can be rebuilt exactly.
 *  - ab-text (stdout) and ab-csv (-e): summary-only runs, see model/run.h. ab's labels are
 *    kept under summary "tool" as ab prints them; units are ab's (ms, seconds, bytes, KB/s).
 *  Joining text + TSV + CSV of one run: samples from the TSV, run->summary from the text,
 *  merged with the CSV's summary by pr_ab_merge_summary(text_summary, csv_summary). */
#ifndef PR_AB_H
#define PR_AB_H
#include <jansson.h>
#include "model/run.h"

/* Merges summary `from` (e.g. the -e CSV's) into `into` (e.g. the text report's): keys
 * `into` already has win, everything else is copied. */
void pr_ab_merge_summary(json_t *into, const json_t *from);

/* Joins run `from` (e.g. the text report or the -e CSV of a run) into run `into` (e.g. the
 * run holding the -g samples): into->summary gets from's summary merged in (into's keys
 * win), meta notes are appended, and concurrency, tool_version and load model are taken
 * from `from` where `into` has none. into->summary_only is left as it is (a run with the
 * -g samples stays a sample run; its summary then carries ab's printed counters). */
void pr_ab_join(pr_run *into, const pr_run *from);

#endif
