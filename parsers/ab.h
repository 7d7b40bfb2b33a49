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
 *  Joining text + TSV + CSV of one run (parsers/join.h): samples from the TSV, run->summary
 *  from the text merged with the CSV's (the text's values win: ab-text weighs more). */
#ifndef PR_AB_H
#define PR_AB_H
#include <jansson.h>
#include "model/run.h"


#endif
