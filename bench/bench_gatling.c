/* Benchmark of the Gatling simulation.log reader: writes a deterministic synthetic log in the
 * 3.4-3.12 text layout (USER, REQUEST, GROUP records of a shop scenario) into bench/data/, then
 * times parsing it through a counting sink and prints records/s, samples/s and peak RSS.
 *
 * usage: bench_gatling [REQUESTS]   (default 1000000) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include "model/input.h"
#include "model/run.h"
#include "model/sink.h"
#include "parsers/parser.h"

static const char *const names[] = {"Home", "Search", "Product page", "Add to cart", "Checkout"};
static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

/* Users of 5 requests each (the last three in a "Buy" group): 1 USER START, 5 REQUEST, 1
 * GROUP and 1 USER END record per user. Returns the record count. */
static long long write_log(const char *path, long long nreq)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    long long t = 1796051747000LL, records = 1;
    fprintf(f, "RUN\tshop.ShopSimulation\tshopsimulation\t%lld\t \t3.9.5\n", t);
    for (long long i = 0; i < nreq; i += 5) {
        long long u0 = t + i / 20;
        fprintf(f, "USER\tShoppers\tSTART\t%lld\n", u0);
        long long at = u0, g0 = 0;
        for (int k = 0; k < 5; k++) {
            int rt = (int)(next() % 300) + (next() % 200 == 0 ? (int)(next() % 5000) : 0);
            int ko = next() % 100 == 0;
            if (k == 2)
                g0 = at;
            fprintf(f, "REQUEST\t%s\t%s\t%lld\t%lld\t%s\t%s\n", k >= 2 ? "Buy" : "", names[k], at,
                    at + rt, ko ? "KO" : "OK",
                    ko ? "status.find.in(200,304), but actually found 500" : " ");
            at += rt + 5;
        }
        fprintf(f, "GROUP\tBuy\t%lld\t%lld\t%lld\tOK\n", g0, at, at - g0);
        fprintf(f, "USER\tShoppers\tEND\t%lld\n", at);
        records += 8;
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return -1;
    return records;
}

static int count_push(pr_run *run, const pr_sample *s, size_t n, pr_error *err, void *payload)
{
    *(unsigned long long *)payload += n;
    return 0;
}

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    long long n = argc > 1 ? atoll(argv[1]) : 1000000;
    if (n <= 0) {
        fprintf(stderr, "usage: bench_gatling [REQUESTS]\n");
        return 2;
    }
    mkdir("bench/data", 0755);
    char path[256];
    snprintf(path, sizeof path, "bench/data/gatling-%lld.log", n);
    long long records = 1 + (n + 4) / 5 * 8;
    struct stat st;
    if (stat(path, &st) != 0 || st.st_size == 0) {
        if (write_log(path, n) < 0) {
            fprintf(stderr, "bench_gatling: cannot write %s: %s\n", path, strerror(errno));
            remove(path);
            return 1;
        }
    }
    pr_error err;
    pr_error_clear(&err);
    pr_input *in = pr_input_open(path, &err);
    if (!in) {
        fprintf(stderr, "bench_gatling: %s: %s\n", path, err.msg);
        return 1;
    }
    pr_run *run = pr_run_new();
    unsigned long long count = 0;
    pr_sink sink;
    pr_sink_init(&sink, run, count_push, &count);
    pr_parse_opts opts;
    memset(&opts, 0, sizeof opts);
    double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    int rc = pr_parser_find("gatling")->parse(in, &sink, &opts, &err);
    if (rc == 0)
        rc = pr_sink_flush(&sink, &err);
    double dt = clock_s(CLOCK_MONOTONIC) - w0, dc = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    pr_input_close(in);
    pr_run_free(run);
    if (rc != 0) {
        char buf[1200];
        fprintf(stderr, "bench_gatling: %s\n", pr_error_format(&err, buf, sizeof buf));
        return 1;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("gatling text: %lld records (%llu samples) in %.3f s = %.0f records/s, CPU %.3f s = "
           "%.0f records/s per CPU-second, peak RSS %.1f MB\n",
           records, count, dt, (double)records / dt, dc, (double)records / dc,
           (double)ru.ru_maxrss / 1024.0);
    return 0;
}
