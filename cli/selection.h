/* Run selections on the command line: a run reference (id, name, "last") or a tag selection
 * "tag:KEY=VALUE" (every run with that tag) / "tag:KEY" (every run that has the key). */
#ifndef PR_CLI_SELECTION_H
#define PR_CLI_SELECTION_H
#include <stddef.h>
#include <stdint.h>
#include "store/store.h"

/* Resolves one selection into a malloc'd id array (ascending ids for tags). Prints errors.
 * Returns 0 or a PR_EXIT_* code (a tag selection matching nothing is an error). */
int pr_cli_select_one(pr_store *st, const char *ref, int64_t **ids, size_t *n);
/* Resolves every selection and concatenates the runs (duplicates dropped); no refs = every
 * run. Returns 0 or a PR_EXIT_* code. */
int pr_cli_select_flat(pr_store *st, char **refs, int nrefs, int64_t **ids, size_t *n);

#endif
