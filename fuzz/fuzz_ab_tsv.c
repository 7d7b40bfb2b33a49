/* Fuzz target: the ab-gnuplot reader on arbitrary input, and ab's tables recomputed from what
 * it read. */
#include "analysis/ab_stats.h"
#include "fuzz/reader_fuzz.h"
#include "model/buf.h"

static void ab_tables(pr_run *run, const fuzz_keep *keep)
{
    pr_ab_tables t;
    if (keep->n && pr_ab_stats_from_samples(run, keep->s, keep->n, &t, NULL) == 0) {
        pr_buf b = PR_BUF_INIT;
        pr_ab_stats_print(&t, &b);
        pr_buf_dispose(&b);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pr_fuzz_sniff_all(data, size);
    pr_fuzz_reader("ab-gnuplot", data, size, ab_tables);
    return 0;
}
