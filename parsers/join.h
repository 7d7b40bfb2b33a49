/* Joining the inputs of one run: ab's -g TSV, stdout and -e CSV; hey's CSV and printed
 * summary; a Vegeta result file and its report. Each input contributes a *part*: its format,
 * source, the samples it added, and what its parser set on the run (printed summary, metadata,
 * tool version, load settings). The run's metadata is the join of its parts taken in a fixed
 * order, so it does not depend on the order in which the files were ingested:
 *   1. inputs with samples first (the per-request file's metadata describes the samples);
 *   2. then the format's weight (ab-text over ab-csv, Vegeta's JSON report over its text
 *      report), then format name, source and content as tie-breakers.
 * Where two parts hold a value for the same key, the earlier part's value is kept; objects are
 * merged key by key; meta notes of all parts are kept once each, in join order.
 *
 * The parts of a run are kept in its meta under "inputs" (docs/format.md): for a run of one
 * input, [{format, source, samples}]; for several, each part whole, so the next input can be
 * joined again from the parts rather than from an already joined result. */
#ifndef PR_JOIN_H
#define PR_JOIN_H
#include <jansson.h>
#include <stdint.h>
#include "model/run.h"

/* Before an input is parsed into `run` (a run that may hold earlier inputs): takes the run's
 * metadata out as the list of its parts (a new reference, [] for a new run) and leaves `run`
 * without summary, meta, tool version or load settings, so the parser's settings are this
 * input's alone. */
json_t *pr_join_begin(pr_run *run);

/* After the input `source` was parsed into `run`, adding `samples` samples: appends its part to
 * `parts` (stolen) and sets the run's format, tool, tool version, load settings, summary_only,
 * summary and meta to the join of every part. */
void pr_join_end(pr_run *run, json_t *parts, const char *source, int64_t samples);

/* Joins the metadata of run `from` into run `into` (the rules above, `into` first): summary and
 * meta merged (into's values win), notes appended once, format, tool, tool version and load
 * settings taken from `from` where `into` has none; into->summary_only is left as it is (the
 * run is summary-only when none of its inputs has samples). */
void pr_run_join(pr_run *into, const pr_run *from);

#endif
