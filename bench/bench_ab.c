/* Benchmark: generates a deterministic ab -g file of N rows (default 100000) in bench/data/
 * and times the ab-gnuplot reader through a counting sink.
 * usage: bench_ab [ROWS] [DIR]   prints "ab-gnuplot: N samples in X s = Y samples/s, …" */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include "model/input.h"
#include "parsers/parser.h"

typedef struct counter {
    unsigned long long n;
    int64_t latency_sum_ns;
} counter;

static int count_push(pr_run *run, const pr_sample *s, size_t n, pr_error *err, void *payload)
{
    counter *c = payload;
    c->n += n;
    for (size_t i = 0; i < n; i++)
        c->latency_sum_ns += s[i].latency_ns;
    return 0;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dULL;
}

/* Writes `rows` rows like ab's: sorted by ttime (an exponential-ish quantile curve), start
 * seconds scattered over a 60 s run, ctime 0-2 ms, dtime = ttime - ctime except ~5 % off by
 * one (ab rounds it separately), wait <= dtime. */
static int generate(const char *path, unsigned long long rows)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "bench_ab: %s: %s\n", path, strerror(errno));
        return -1;
    }
    static char buf[1 << 20];
    setvbuf(f, buf, _IOFBF, sizeof buf);
    fputs("starttime\tseconds\tctime\tdtime\tttime\twait\n", f);
    const time_t base = 1796051376; /* 2026-11-30T15:09:36Z, as the fixtures */
    char stamps[60][32];
    for (int s = 0; s < 60; s++) {
        time_t t = base + s;
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(stamps[s], sizeof stamps[s], "%a %b %d %H:%M:%S %Y", &tm);
    }
    for (unsigned long long i = 0; i < rows; i++) {
        double u = (double)i / (double)rows;
        long long tt = (long long)(-log(1.0 - u * 0.999999) * 12.0); /* mean ~12 ms */
        long long ct = (long long)(rng() % 3);
        if (ct > tt)
            ct = tt;
        long long dt = tt - ct;
        uint64_t r = rng();
        if (r % 20 == 0)
            dt += (dt > 0 && (r & 64)) ? -1 : 1;
        long long wt = dt - (long long)(r % 2 && dt > 0);
        int s = (int)((r >> 20) % 60);
        if (fprintf(f, "%s\t%lld\t%lld\t%lld\t%lld\t%lld\n", stamps[s], (long long)base + s, ct,
                    dt, tt, wt) < 0) {
            fclose(f);
            return -1;
        }
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "bench_ab: writing %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    unsigned long long rows = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000;
    const char *dir = argc > 2 ? argv[2] : "bench/data";
    if (rows == 0) {
        fprintf(stderr, "usage: bench_ab [ROWS] [DIR]\n");
        return 2;
    }
    mkdir(dir, 0777);
    char path[4096];
    snprintf(path, sizeof path, "%s/ab_g_%llu.tsv", dir, rows);
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "bench_ab: generating %s\n", path);
        if (generate(path, rows) < 0)
            return 1;
        stat(path, &st);
    }
    const pr_parser *p = pr_parser_find("ab-gnuplot");
    pr_error err;
    pr_error_clear(&err);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pr_input *in = pr_input_open(path, &err);
    if (!in) {
        fprintf(stderr, "bench_ab: %s\n", err.msg);
        return 1;
    }
    pr_run *run = pr_run_new();
    static pr_sink sink;
    counter c = {0, 0};
    pr_sink_init(&sink, run, count_push, &c);
    pr_parse_opts opts;
    memset(&opts, 0, sizeof opts);
    int rc = p->parse(in, &sink, &opts, &err);
    if (rc == 0)
        rc = pr_sink_flush(&sink, &err);
    pr_input_close(in);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rc != 0) {
        char b[2048];
        fprintf(stderr, "bench_ab: %s\n", pr_error_format(&err, b, sizeof b));
        return 1;
    }
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("ab-gnuplot: %llu samples in %.3f s = %.0f samples/s, peak RSS %.1f MB "
           "(%.0f MB file, mean latency %.3f ms)\n",
           c.n, secs, (double)c.n / secs, (double)ru.ru_maxrss / 1024.0,
           (double)st.st_size / 1048576.0, c.n ? (double)c.latency_sum_ns / (double)c.n / 1e6 : 0);
    pr_run_free(run);
    return c.n == rows ? 0 : 1;
}
