/* Deterministic generator of large synthetic native files for benchmarks:
 *   gen_native N FILE [LABELS]
 * N samples at 5,000 req/s over LABELS labels (default 20), lognormal-ish latencies with a
 * slow tail, 1% errors, completion-order jitter. The same N gives the same bytes. */
#include "model/native.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static double unif(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: gen_native N FILE [LABELS]\n");
        return 2;
    }
    long long n = atoll(argv[1]);
    int nlabels = argc > 3 ? atoi(argv[3]) : 20;
    if (nlabels < 1)
        nlabels = 1;
    FILE *f = fopen(argv[2], "wb");
    if (!f) {
        perror(argv[2]);
        return 1;
    }
    pr_run *run = pr_run_new();
    pr_run_set_name(run, "bench");
    pr_run_set_format(run, "native", "perfreport-bench");
    run->load_model = PR_LOAD_OPEN;
    run->offered_rate = 5000;
    pr_error err;
    pr_native_writer *w = pr_native_writer_new(f, run, &err);
    uint32_t *labels = pr_xmalloc((size_t)nlabels * sizeof *labels);
    char buf[64];
    for (int i = 0; i < nlabels; i++) {
        snprintf(buf, sizeof buf, "GET /api/v1/endpoint-%d", i);
        labels[i] = pr_run_intern(run, buf, strlen(buf));
    }
    uint32_t get = pr_run_intern(run, "GET", 3);
    uint32_t e500 = pr_run_intern(run, "500 Internal Server Error", 25);
    pr_sample batch[4096];
    size_t k = 0;
    int64_t t0 = 1796051469000000000LL;
    for (long long i = 0; i < n; i++) {
        pr_sample *s = &batch[k++];
        pr_sample_init(s);
        s->start_ns = t0 + i * 200000 + (int64_t)(unif() * 150000);
        double z = sqrt(-2 * log(unif() + 1e-12)) * cos(6.283185307 * unif());
        double lat = exp(log(2e6) + 0.5 * z);
        if (unif() < 0.01)
            lat *= 20;
        s->latency_ns = (int64_t)lat;
        s->label = labels[(size_t)(unif() * nlabels) % (size_t)nlabels];
        s->method = get;
        int fail = unif() < 0.01;
        s->status = fail ? 500 : 200;
        s->success = fail ? PR_FAIL : PR_OK_SUCCESS;
        s->error = fail ? e500 : 0;
        s->bytes_in = fail ? 0 : 153;
        s->bytes_out = 0;
        if (k == 4096) {
            if (pr_native_writer_push(w, run, batch, k, &err) < 0)
                return 1;
            k = 0;
        }
    }
    if (k && pr_native_writer_push(w, run, batch, k, &err) < 0)
        return 1;
    if (pr_native_writer_close(w, run, &err) < 0 || fclose(f) != 0) {
        fprintf(stderr, "write error\n");
        return 1;
    }
    free(labels);
    pr_run_free(run);
    return 0;
}
