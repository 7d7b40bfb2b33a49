/* Test helper: deterministic random samples and native streams in memory. */
#ifndef PR_TEST_GEN_H
#define PR_TEST_GEN_H
#include <stddef.h>
#include <stdint.h>
#include "model/run.h"

/* Fills s[0..n) with random samples (all field kinds, unknowns included) whose strings are
 * interned in run. seed selects the sequence. */
void gen_samples(pr_run *run, pr_sample *s, size_t n, uint64_t seed);
/* Writes run + samples as a native stream into a malloc'd buffer. */
char *gen_native(pr_run *run, const pr_sample *s, size_t n, size_t *len);
/* gen_samples, then gen_native of them: the stream of n random samples (seed). */
char *gen_stream(pr_run *run, pr_sample *s, size_t n, uint64_t seed, size_t *len);
/* Compares two samples field by field, strings by text. Returns 1 if equal. */
int sample_equal(const pr_run *ra, const pr_sample *a, const pr_run *rb, const pr_sample *b);

#endif
