/* Run selections on the command line, one grammar for every command (README "Selecting runs"):
 *   RUN            an id, a name or "last"
 *   tag:TERM,TERM… every run that satisfies all the terms, a TERM being KEY=VALUE (the tag has
 *                  that value) or KEY (the run has the tag, whatever its value)
 * and tag key lists for the options that group runs (--by tag:KEY,KEY…, --pair tag:KEY,KEY…),
 * which use the same parser with bare keys only. Values cannot contain a comma. */
#ifndef PR_CLI_SELECTION_H
#define PR_CLI_SELECTION_H
#include <stddef.h>
#include <stdint.h>
#include "model/run.h"
#include "store/store.h"

typedef struct pr_sel_term {
    char *key;
    char *value; /* NULL: the key is present, whatever its value */
} pr_sel_term;

typedef struct pr_selection {
    pr_sel_term *terms;
    size_t n;
} pr_selection;

/* Parses a tag selection ("tag:jvm=hotspot,rate=500"). Returns 0, or -1 with a message in msg
 * naming the character (1-based, in text) where it went wrong: no "tag:", an empty term or
 * key. out is empty on failure. */
int pr_selection_parse(const char *text, pr_selection *out, char *msg, size_t msgsize);
/* 1 when the run has every term's tag (and value). */
int pr_selection_match(const pr_selection *s, const pr_run *r);
void pr_selection_dispose(pr_selection *s);

/* An option's tag key list, "tag:KEY[,KEY…]" (no values). On success *keys is a malloc'd
 * array of malloc'd keys (free with pr_cli_keys_free). Prints "OPT expects tag:KEY[,KEY…]"
 * and returns PR_EXIT_USAGE otherwise. */
int pr_cli_parse_keys(const char *opt, const char *arg, char ***keys, size_t *n);
void pr_cli_keys_free(char **keys, size_t n);

/* Resolves one selection into a malloc'd id array (ascending ids for tags). Prints errors.
 * Returns 0 or a PR_EXIT_* code (a tag selection matching nothing is an error). */
int pr_cli_select_one(pr_store *st, const char *ref, int64_t **ids, size_t *n);
/* Resolves every selection and concatenates the runs (duplicates dropped); no refs = every
 * run. Returns 0 or a PR_EXIT_* code. */
int pr_cli_select_runs(pr_store *st, char **refs, int nrefs, int64_t **ids, size_t *n);

#endif
