/* Run selections: run references and tag selections resolved against the store. */
#include "cli/selection.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "model/run.h"
#include "model/xalloc.h"
#include <stdlib.h>
#include <string.h>

int pr_cli_select_one(pr_store *st, const char *ref, int64_t **ids, size_t *n)
{
    pr_error err;
    pr_error_clear(&err);
    *ids = NULL;
    *n = 0;
    if (strncmp(ref, "tag:", 4) != 0) {
        *ids = pr_xmalloc(sizeof **ids);
        if (pr_store_find_run(st, ref, *ids, &err) < 0) {
            pr_cli_print_error(&err);
            free(*ids);
            *ids = NULL;
            return err.code == PR_EUSAGE ? PR_EXIT_USAGE : PR_EXIT_ERROR;
        }
        *n = 1;
        return 0;
    }
    const char *kv = ref + 4, *eq = strchr(kv, '=');
    size_t klen = eq ? (size_t)(eq - kv) : strlen(kv);
    if (klen == 0) {
        pr_cli_errorf("%s: expected tag:KEY=VALUE or tag:KEY", ref);
        return PR_EXIT_USAGE;
    }
    char *key = pr_xstrndup(kv, klen);
    int64_t *all = NULL;
    size_t nall = 0;
    if (pr_store_list_runs(st, &all, &nall, &err) < 0) {
        pr_cli_print_error(&err);
        free(key);
        return PR_EXIT_ERROR;
    }
    *ids = pr_xmalloc((nall + 1) * sizeof **ids);
    for (size_t i = 0; i < nall; i++) {
        pr_run *r;
        if (pr_store_load_run(st, all[i], &r, &err) < 0) {
            pr_cli_print_error(&err);
            free(all);
            free(key);
            free(*ids);
            *ids = NULL;
            return PR_EXIT_ERROR;
        }
        const char *v = pr_run_tag_get(r, key);
        if (v && (!eq || !strcmp(v, eq + 1)))
            (*ids)[(*n)++] = all[i];
        pr_run_free(r);
    }
    free(all);
    free(key);
    if (*n == 0) {
        pr_cli_errorf("%s: no run has this tag", ref);
        free(*ids);
        *ids = NULL;
        return PR_EXIT_ERROR;
    }
    return 0;
}

int pr_cli_select_flat(pr_store *st, char **refs, int nrefs, int64_t **ids, size_t *n)
{
    if (nrefs == 0)
        return pr_cli_select_runs(st, refs, 0, ids, n);
    size_t cap = 0;
    *ids = NULL;
    *n = 0;
    for (int i = 0; i < nrefs; i++) {
        int64_t *one;
        size_t k;
        int rc = pr_cli_select_one(st, refs[i], &one, &k);
        if (rc) {
            free(*ids);
            *ids = NULL;
            return rc;
        }
        for (size_t j = 0; j < k; j++) {
            int dup = 0;
            for (size_t q = 0; q < *n; q++)
                dup |= (*ids)[q] == one[j];
            if (dup)
                continue;
            *ids = pr_xgrow(*ids, &cap, *n + 1, sizeof **ids);
            (*ids)[(*n)++] = one[j];
        }
        free(one);
    }
    return 0;
}
