/* Run selections: run references and tag selections resolved against the store. */
#include "cli/selection.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "model/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pr_selection_dispose(pr_selection *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->terms[i].key);
        free(s->terms[i].value);
    }
    free(s->terms);
    s->terms = NULL;
    s->n = 0;
}

int pr_selection_parse(const char *text, pr_selection *out, char *msg, size_t msgsize)
{
    out->terms = NULL;
    out->n = 0;
    size_t cap = 0;
    if (strncmp(text, "tag:", 4)) {
        snprintf(msg, msgsize, "expected 'tag:' at character 1");
        return -1;
    }
    const char *p = text + 4;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        size_t klen = eq ? (size_t)(eq - p) : len;
        if (klen == 0) {
            snprintf(msg, msgsize, "%s at character %zu",
                     len ? "a term without a key" : "an empty term", (size_t)(p - text) + 1);
            pr_selection_dispose(out);
            return -1;
        }
        out->terms = pr_xgrow(out->terms, &cap, out->n + 1, sizeof *out->terms);
        pr_sel_term *t = &out->terms[out->n++];
        t->key = pr_xstrndup(p, klen);
        t->value = eq ? pr_xstrndup(eq + 1, len - klen - 1) : NULL;
        if (!end)
            return 0;
        p = end + 1;
    }
}

int pr_selection_match(const pr_selection *s, const pr_run *r)
{
    for (size_t i = 0; i < s->n; i++) {
        const char *v = pr_run_tag_get(r, s->terms[i].key);
        if (!v || (s->terms[i].value && strcmp(v, s->terms[i].value)))
            return 0;
    }
    return 1;
}

int pr_cli_parse_keys(const char *opt, const char *arg, char ***keys, size_t *n)
{
    *keys = NULL;
    *n = 0;
    pr_selection sel;
    char msg[128];
    int ok = pr_selection_parse(arg, &sel, msg, sizeof msg) == 0;
    for (size_t i = 0; ok && i < sel.n; i++)
        ok = sel.terms[i].value == NULL;
    if (!ok) {
        pr_selection_dispose(&sel);
        pr_cli_errorf("%s expects tag:KEY[,KEY…] (tag keys, no values), got '%s'", opt, arg);
        return PR_EXIT_USAGE;
    }
    *keys = pr_xmalloc(sel.n * sizeof **keys);
    for (size_t i = 0; i < sel.n; i++)
        (*keys)[i] = sel.terms[i].key;
    *n = sel.n;
    free(sel.terms);
    return 0;
}

void pr_cli_keys_free(char **keys, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(keys[i]);
    free(keys);
}

/* Every run matching a tag selection, ascending ids. */
static int select_tags(pr_store *st, const char *ref, int64_t **ids, size_t *n)
{
    pr_selection sel;
    char msg[128];
    if (pr_selection_parse(ref, &sel, msg, sizeof msg) < 0) {
        pr_cli_errorf("%s: %s: expected tag:KEY=VALUE or tag:KEY, several joined by commas", ref,
                      msg);
        return PR_EXIT_USAGE;
    }
    pr_error err;
    pr_error_clear(&err);
    int64_t *all = NULL;
    size_t nall = 0;
    int rc = 0;
    if (pr_store_list_runs(st, &all, &nall, &err) < 0) {
        pr_cli_print_error(&err);
        pr_selection_dispose(&sel);
        return PR_EXIT_ERROR;
    }
    *ids = pr_xmalloc((nall + 1) * sizeof **ids);
    for (size_t i = 0; i < nall && rc == 0; i++) {
        pr_run *r;
        if (pr_store_load_run(st, all[i], &r, &err) < 0) {
            pr_cli_print_error(&err);
            rc = PR_EXIT_ERROR;
            break;
        }
        if (pr_selection_match(&sel, r))
            (*ids)[(*n)++] = all[i];
        pr_run_free(r);
    }
    if (rc == 0 && *n == 0) {
        pr_cli_errorf("%s: no run has %s", ref, sel.n > 1 ? "all these tags" : "this tag");
        rc = PR_EXIT_ERROR;
    }
    free(all);
    pr_selection_dispose(&sel);
    if (rc) {
        free(*ids);
        *ids = NULL;
        *n = 0;
    }
    return rc;
}

int pr_cli_select_one(pr_store *st, const char *ref, int64_t **ids, size_t *n)
{
    *ids = NULL;
    *n = 0;
    if (!strncmp(ref, "tag:", 4))
        return select_tags(st, ref, ids, n);
    pr_error err;
    pr_error_clear(&err);
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

/* Every run in the store (an empty store is an error). */
static int select_all(pr_store *st, int64_t **ids, size_t *n)
{
    pr_error err;
    pr_error_clear(&err);
    if (pr_store_list_runs(st, ids, n, &err) < 0) {
        pr_cli_print_error(&err);
        return PR_EXIT_ERROR;
    }
    if (*n == 0) {
        pr_cli_errorf("the store has no runs yet (perfreport ingest FILE…)");
        free(*ids);
        *ids = NULL;
        return PR_EXIT_ERROR;
    }
    return 0;
}

int pr_cli_select_runs(pr_store *st, char **refs, int nrefs, int64_t **ids, size_t *n)
{
    *ids = NULL;
    *n = 0;
    if (nrefs == 0)
        return select_all(st, ids, n);
    size_t cap = 0;
    for (int i = 0; i < nrefs; i++) {
        int64_t *one;
        size_t k;
        int rc = pr_cli_select_one(st, refs[i], &one, &k);
        if (rc) {
            free(*ids);
            *ids = NULL;
            *n = 0;
            return rc;
        }
        for (size_t j = 0; j < k; j++) {
            int dup = 0;
            for (size_t q = 0; q < *n && !dup; q++)
                dup = (*ids)[q] == one[j];
            if (dup)
                continue;
            *ids = pr_xgrow(*ids, &cap, *n + 1, sizeof **ids);
            (*ids)[(*n)++] = one[j];
        }
        free(one);
    }
    return 0;
}
