/* History steps: each run of a series against the previous one and the first, sample by sample. */
#include "analysis/history.h"
#include <string.h>

int pr_history_steps(pr_store *st, const int64_t *ids, size_t n, const char *metric,
                     const pr_compare_opts *o, json_t **out, pr_error *err)
{
    pr_compare_side first, prev, cur;
    int have_first = 0, have_prev = 0, rc = 0;
    *out = json_array();
    for (size_t i = 0; i < n && rc == 0; i++) {
        if ((rc = pr_compare_side_load(st, &ids[i], 1, NULL, NULL, &cur, err)) < 0)
            break;
        json_t *e = json_object();
        json_object_set_new(e, "vs_previous",
                            have_prev ? pr_compare_metric(&prev, &cur, metric, o) : json_null());
        json_object_set_new(e, "vs_first",
                            have_first ? pr_compare_metric(&first, &cur, metric, o) : json_null());
        json_array_append_new(*out, e);
        if (!have_first) {
            first = cur; /* kept whole; prev is a copy of its handle, disposed once */
            have_first = 1;
        } else if (have_prev && prev.model != first.model) {
            pr_compare_side_dispose(&prev);
        }
        prev = cur;
        have_prev = 1;
    }
    if (have_prev && (!have_first || prev.model != first.model))
        pr_compare_side_dispose(&prev);
    if (have_first)
        pr_compare_side_dispose(&first);
    if (rc < 0) {
        json_decref(*out);
        *out = NULL;
    }
    return rc;
}
