/* Paired comparison of two selections across a series (a study): the runs of A and B are
 * matched by the values of key tags (e.g. rate and duration), each pair is compared as
 * `compare` compares two runs, and an overall verdict per metric sums the pairs, with a sign
 * test across them (method: docs/metrics.md, "Paired studies"). */
#ifndef PR_PAIRS_H
#define PR_PAIRS_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "analysis/compare.h"
#include "model/error.h"
#include "store/store.h"

/* One selection of runs (borrowed). */
typedef struct pr_pair_side {
    const char *name;      /* display name, e.g. "jvm=hotspot" */
    const char *selection; /* as given, e.g. "tag:jvm=hotspot" */
    const int64_t *ids;
    size_t nids;
} pr_pair_side;

/* Pairs the runs of a and b by the tags keys[0..nkeys) and compares every pair. A run without
 * one of the keys, a key that only one side has, and a key that several runs of one side share
 * (never merged silently) are listed in "unpaired" with the reason. Returns 0 and *out (schema
 * "perfreport-compare", kind "paired"), or a negative code with err set (store errors). */
int pr_compare_pairs(pr_store *st, const pr_pair_side *a, const pr_pair_side *b, char *const *keys,
                     size_t nkeys, const pr_compare_opts *o, json_t **out, pr_error *err);

/* Two-sided exact sign test: k of n non-tied pairs went one way. */
double pr_sign_test_p(size_t k, size_t n);

#endif
