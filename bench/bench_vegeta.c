/* Benchmark: writes Vegeta-like gob, JSON and CSV result files into bench/data/ and times
 * parsing each through a counting sink (no store).
 * Usage: bench_vegeta [gob_results [text_results]]   (defaults 20000 and 20000) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include "model/sink.h"
#include "parsers/parser.h"

static const char body[] =
    "<!doctype html>\n<html><head><title>perfreport vegeta target</title></head>\n<body><h1>"
    "hello from nginx</h1><p>small page for load tests</p></body></html>\n";
static const char *const hdr[8][2] = {
    {"Accept-Ranges", "bytes"},
    {"Server", "nginx/1.22.1"},
    {"Date", "Mon, 30 Nov 2026 15:11:09 GMT"},
    {"Content-Type", "text/html"},
    {"Content-Length", "153"},
    {"Last-Modified", "Mon, 30 Nov 2026 15:10:25 GMT"},
    {"Connection", "keep-alive"},
    {"Etag", "\"6b0d91e1-99\""},
};
#define URL "http://127.0.0.1:18080/"
#define T0_NS 1796051469461933948LL

typedef struct w {
    unsigned char b[4096];
    size_t n;
} w;

static void put_uint(w *x, uint64_t v)
{
    if (v < 0x80) {
        x->b[x->n++] = (unsigned char)v;
        return;
    }
    unsigned char t[8];
    int k = 0;
    while (v) {
        t[k++] = (unsigned char)v;
        v >>= 8;
    }
    x->b[x->n++] = (unsigned char)(256 - k);
    while (k)
        x->b[x->n++] = t[--k];
}

static void put_int(w *x, int64_t i)
{
    put_uint(x, i < 0 ? ((uint64_t)~i << 1) | 1 : (uint64_t)i << 1);
}

static void put_bytes(w *x, const void *p, size_t n)
{
    put_uint(x, n);
    memcpy(x->b + x->n, p, n);
    x->n += n;
}

static void put_str(w *x, const char *s)
{
    put_bytes(x, s, strlen(s));
}

static int emit(FILE *f, int64_t id, const w *p)
{
    w h = {{0}, 0};
    w idb = {{0}, 0};
    put_int(&idb, id);
    put_uint(&h, idb.n + p->n);
    return fwrite(h.b, 1, h.n, f) == h.n && fwrite(idb.b, 1, idb.n, f) == idb.n &&
                   fwrite(p->b, 1, p->n, f) == p->n
               ? 0
               : -1;
}

/* The four definitions Vegeta v12 sends: 65 Result, 66 Time, 68 Header, 67 []string. */
static int write_defs(FILE *f)
{
    static const char *const names[] = {"Attack", "Seq",   "Code",  "Timestamp",
                                        "Latency", "BytesOut", "BytesIn", "Error",
                                        "Body",   "Method", "URL",   "Headers"};
    static const int64_t ids[] = {6, 3, 3, 66, 2, 3, 3, 6, 5, 6, 6, 68};
    w p = {{0}, 0};
    put_uint(&p, 3);
    put_uint(&p, 1);
    put_uint(&p, 1);
    put_str(&p, "Result");
    put_uint(&p, 1);
    put_int(&p, 65);
    put_uint(&p, 0);
    put_uint(&p, 1);
    put_uint(&p, 12);
    for (int i = 0; i < 12; i++) {
        put_uint(&p, 1);
        put_str(&p, names[i]);
        put_uint(&p, 1);
        put_int(&p, ids[i]);
        put_uint(&p, 0);
    }
    put_uint(&p, 0);
    put_uint(&p, 0);
    int rc = emit(f, -65, &p);
    p.n = 0; /* Time: GobEncoderT */
    put_uint(&p, 5);
    put_uint(&p, 1);
    put_uint(&p, 1);
    put_str(&p, "Time");
    put_uint(&p, 1);
    put_int(&p, 66);
    put_uint(&p, 0);
    put_uint(&p, 0);
    put_uint(&p, 0);
    rc |= emit(f, -66, &p);
    p.n = 0; /* Header: MapT string -> 67 */
    put_uint(&p, 4);
    put_uint(&p, 1);
    put_uint(&p, 1);
    put_str(&p, "Header");
    put_uint(&p, 1);
    put_int(&p, 68);
    put_uint(&p, 0);
    put_uint(&p, 1);
    put_int(&p, 6);
    put_uint(&p, 1);
    put_int(&p, 67);
    put_uint(&p, 0);
    put_uint(&p, 0);
    rc |= emit(f, -68, &p);
    p.n = 0; /* []string */
    put_uint(&p, 2);
    put_uint(&p, 1);
    put_uint(&p, 2);
    put_int(&p, 67);
    put_uint(&p, 0);
    put_uint(&p, 1);
    put_int(&p, 6);
    put_uint(&p, 0);
    put_uint(&p, 0);
    rc |= emit(f, -67, &p);
    return rc;
}

/* Deterministic record i: start, latency (completion order is shuffled a little). */
static void record(uint64_t i, int64_t *ts, int64_t *lat)
{
    uint64_t x = i * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    *lat = 80000 + (int64_t)(x % 900000);
    *ts = T0_NS + (int64_t)i * 23000 + (int64_t)(x % 7) * 1000;
}

static int write_gob(const char *path, uint64_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    static char vbuf[1 << 20];
    setvbuf(f, vbuf, _IOFBF, sizeof vbuf);
    int rc = write_defs(f);
    w v;
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        int64_t ts, lat;
        record(i, &ts, &lat);
        v.n = 0;
        int prev = -1;
        if (i) {
            put_uint(&v, 1 - prev); /* Seq, field 1 */
            put_uint(&v, i);
            prev = 1;
        }
        put_uint(&v, (uint64_t)(2 - prev)); /* Code */
        put_uint(&v, 200);
        unsigned char t[15];
        int64_t sec = ts / 1000000000LL + 62135596800LL;
        int32_t nsec = (int32_t)(ts % 1000000000LL);
        t[0] = 1;
        for (int k = 0; k < 8; k++)
            t[1 + k] = (unsigned char)((uint64_t)sec >> (56 - 8 * k));
        for (int k = 0; k < 4; k++)
            t[9 + k] = (unsigned char)((uint32_t)nsec >> (24 - 8 * k));
        t[13] = t[14] = 0;
        put_uint(&v, 1);
        put_bytes(&v, t, 15);
        put_uint(&v, 1);
        put_int(&v, lat);
        put_uint(&v, 2); /* BytesIn (BytesOut 0 omitted) */
        put_uint(&v, sizeof body - 1);
        put_uint(&v, 2); /* Body (Error omitted) */
        put_bytes(&v, body, sizeof body - 1);
        put_uint(&v, 1);
        put_str(&v, "GET");
        put_uint(&v, 1);
        put_str(&v, URL);
        put_uint(&v, 1);
        put_uint(&v, 8);
        for (int k = 0; k < 8; k++) {
            put_str(&v, hdr[(k + i) % 8][0]);
            put_uint(&v, 1);
            put_str(&v, hdr[(k + i) % 8][1]);
        }
        put_uint(&v, 0);
        rc = emit(f, 65, &v);
    }
    if (fclose(f) != 0)
        rc = -1;
    return rc;
}

static void b64(const unsigned char *p, size_t n, char *out)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        out[o++] = tab[v >> 18];
        out[o++] = tab[v >> 12 & 63];
        out[o++] = i + 1 < n ? tab[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? tab[v & 63] : '=';
    }
    out[o] = 0;
}

static int write_text(const char *path, uint64_t n, int json)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    char bb[512], hb[1024], hs[1024];
    b64((const unsigned char *)body, sizeof body - 1, bb);
    size_t k = 0;
    for (int i = 0; i < 8; i++)
        k += (size_t)snprintf(hs + k, sizeof hs - k, "%s: %s\r\n", hdr[i][0], hdr[i][1]);
    k += (size_t)snprintf(hs + k, sizeof hs - k, "\r\n");
    b64((const unsigned char *)hs, k, hb);
    int rc = 0;
    for (uint64_t i = 0; i < n && rc >= 0; i++) {
        int64_t ts, lat;
        record(i, &ts, &lat);
        if (json) {
            time_t sec = (time_t)(ts / 1000000000LL);
            struct tm tm;
            gmtime_r(&sec, &tm);
            rc = fprintf(f,
                         "{\"attack\":\"\",\"seq\":%" PRIu64 ",\"code\":200,\"timestamp\":"
                         "\"%04d-%02d-%02dT%02d:%02d:%02d.%09lldZ\",\"latency\":%lld,"
                         "\"bytes_out\":0,\"bytes_in\":153,\"error\":\"\",\"body\":\"%s\","
                         "\"method\":\"GET\",\"url\":\"" URL "\",\"headers\":{",
                         i, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                         tm.tm_min, tm.tm_sec, (long long)(ts % 1000000000LL), (long long)lat,
                         bb);
            for (int h = 0; h < 8 && rc >= 0; h++)
                rc = fprintf(f, "%s\"%s\":[\"%s\"]", h ? "," : "", hdr[h][0],
                             h == 7 ? "\\\"6b0d91e1-99\\\"" : hdr[h][1]);
            if (rc >= 0)
                rc = fputs("}}\n", f);
        } else {
            rc = fprintf(f, "%lld,200,%lld,0,153,,%s,,%" PRIu64 ",GET," URL ",%s\n",
                         (long long)ts, (long long)lat, bb, i, hb);
        }
    }
    if (fclose(f) != 0)
        rc = -1;
    return rc < 0 ? -1 : 0;
}

static int count_push(pr_run *run, const pr_sample *s, size_t n, pr_error *err, void *payload)
{
    int64_t *sum = payload;
    for (size_t i = 0; i < n; i++)
        *sum += s[i].latency_ns;
    return 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static int bench(const char *parser, const char *path)
{
    pr_error err;
    pr_error_clear(&err);
    pr_run *run = pr_run_new();
    static pr_sink sink;
    int64_t sum = 0;
    pr_sink_init(&sink, run, count_push, &sum);
    double t0 = now_s(), c0 = cpu_s();
    pr_input *in = pr_input_open(path, &err);
    if (!in)
        return 1;
    int rc = pr_parser_find(parser)->parse(in, &sink, &(pr_parse_opts){0}, &err);
    if (rc == 0)
        rc = pr_sink_flush(&sink, &err);
    pr_input_close(in);
    double dt = now_s() - t0, cpu = cpu_s() - c0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    struct stat st;
    stat(path, &st);
    if (rc < 0) {
        char b[2048];
        fprintf(stderr, "%s: %s\n", parser, pr_error_format(&err, b, sizeof b));
    }
    printf("%s: %llu samples in %.3f s = %.0f samples/s (%.0f MB/s of %.1f MB; CPU %.3f s), "
           "peak RSS %.1f MB\n",
           parser, sink.total, dt, (double)sink.total / dt, (double)st.st_size / dt / 1e6,
           (double)st.st_size / 1e6, cpu, (double)ru.ru_maxrss / 1024.0);
    pr_run_free(run);
    return rc < 0;
}

int main(int argc, char **argv)
{
    uint64_t ngob = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000;
    uint64_t ntext = argc > 2 ? strtoull(argv[2], NULL, 10) : 20000;
    mkdir("bench/data", 0777);
    char gob[256], js[256], csv[256];
    snprintf(gob, sizeof gob, "bench/data/vegeta-%" PRIu64 ".bin", ngob);
    snprintf(js, sizeof js, "bench/data/vegeta-%" PRIu64 ".json", ntext);
    snprintf(csv, sizeof csv, "bench/data/vegeta-%" PRIu64 ".csv", ntext);
    struct stat st;
    if ((stat(gob, &st) != 0 && write_gob(gob, ngob) < 0) ||
        (stat(js, &st) != 0 && write_text(js, ntext, 1) < 0) ||
        (stat(csv, &st) != 0 && write_text(csv, ntext, 0) < 0)) {
        perror("bench_vegeta: writing bench/data");
        return 1;
    }
    int bad = bench("vegeta-gob", gob);
    bad |= bench("vegeta-json", js);
    bad |= bench("vegeta-csv", csv);
    return bad;
}
