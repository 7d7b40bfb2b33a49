/* A hash of a sample's fields and strings, for the fuzz targets that read an input two ways
 * and require the same samples (fuzz_jtl_xml, fuzz_gob). */
#ifndef PR_FUZZ_SAMPLE_HASH_H
#define PR_FUZZ_SAMPLE_HASH_H
#include "model/run.h"
#include "model/sample.h"

static unsigned long long fuzz_mix(unsigned long long h, unsigned long long v)
{
    return (h ^ v) * 0x100000001B3ULL;
}

static unsigned long long fuzz_mix_str(unsigned long long h, const char *s)
{
    while (*s)
        h = fuzz_mix(h, (unsigned char)*s++);
    return fuzz_mix(h, 0xFF);
}

/* h with sample x of run folded in. */
static unsigned long long fuzz_sample_hash(unsigned long long h, const pr_run *run,
                                           const pr_sample *x)
{
    h = fuzz_mix(h, (unsigned long long)x->start_ns);
    h = fuzz_mix(h, (unsigned long long)x->latency_ns);
    h = fuzz_mix(h, (unsigned long long)x->connect_ns ^ (unsigned long long)x->ttfb_ns << 1);
    h = fuzz_mix(h, (unsigned long long)x->bytes_in ^ (unsigned long long)x->bytes_out << 1);
    h = fuzz_mix(h, (unsigned long long)x->status ^ (unsigned long long)x->success << 20 ^
                        (unsigned long long)x->threads << 24 ^ (unsigned long long)x->flags << 56);
    h = fuzz_mix_str(h, pr_run_str(run, x->label));
    h = fuzz_mix_str(h, pr_run_str(run, x->url));
    h = fuzz_mix_str(h, pr_run_str(run, x->method));
    h = fuzz_mix_str(h, pr_run_str(run, x->error));
    h = fuzz_mix_str(h, pr_run_str(run, x->thread));
    return fuzz_mix_str(h, pr_run_str(run, x->attrs));
}

#endif
