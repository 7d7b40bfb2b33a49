/* Findings: a table of rules that read one run of the report model and state what limited the
 * test and why, each with its evidence and a recommendation (conditions: docs/findings.md). */
#ifndef PR_FINDINGS_H
#define PR_FINDINGS_H
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

typedef enum pr_severity { PR_SEV_INFO = 0, PR_SEV_WARNING, PR_SEV_CRITICAL } pr_severity;

typedef struct pr_findings_opts {
    pr_severity min_severity; /* findings below are dropped (default PR_SEV_INFO: keep all) */
    const char *only;         /* NULL or a comma-separated list of rule ids to run */
    /* Optional, borrowed: every run of the document, for the rules that read a run against its
     * series (runs of one tool and target at other concurrencies: saturation, condition C).
     * pr_findings_annotate sets it itself. */
    json_t *runs;
} pr_findings_opts;

void pr_findings_opts_init(pr_findings_opts *o);

struct pr_fctx;
/* One rule: an id (stable, used in docs/findings.md and the JSON), its severity, the function
 * that inspects the run and appends zero or more findings through pr_fctx, and what that
 * function reads of the rule (rules of one kind share a function: the error classes). */
typedef struct pr_finding_rule {
    const char *id;
    pr_severity severity;
    void (*check)(struct pr_fctx *ctx);
    const void *params; /* NULL, or the rule's row of its kind's table */
} pr_finding_rule;

extern const pr_finding_rule pr_finding_rules[];
extern const size_t pr_finding_nrules;

const char *pr_severity_name(pr_severity s);
/* A severity's name ("critical", "warning", "info") in the reader's language (严重, 警告, 提示);
 * another name as it is, NULL as "?". */
const char *pr_severity_text(const char *name);

/* Runs every rule on one run of the report model (an element of "runs" as pr_report_run builds
 * it, samples-based or summary-only). Returns a new JSON array of findings, most severe first:
 *   {"id", "severity" ("info"|"warning"|"critical"), "title", "explanation", "evidence" {…},
 *    "recommendation", "t_ns"? (ns since the run start, for chart annotations), "label"?}
 * Never fails; a rule without the data it needs stays silent. opts may be NULL. */
json_t *pr_findings_run(json_t *run_model, const pr_findings_opts *opts);

/* Adds "findings" to every run of a report document (pr_report_build's output). */
void pr_findings_annotate(json_t *doc, const pr_findings_opts *opts);

/* Prints findings as indented text ("  [warning] title\n      explanation\n      → rec").
 * Returns 0, or -1 when a write fails. */
int pr_findings_print(FILE *f, const json_t *findings);

#endif
