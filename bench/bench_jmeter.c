/* Benchmark of the JMeter JTL readers: writes a deterministic synthetic CSV JTL (JMeter 5.x
 * default columns) and an XML JTL into bench/data/, then times parsing each through a
 * counting sink and prints samples/s and peak RSS.
 *
 * usage: bench_jmeter [ROWS] [csv|xml|both]   (default 200000 rows, both) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <csv.h>
#include <libxml/xmlreader.h>
#include "model/input.h"
#include "model/run.h"
#include "model/sink.h"
#include "parsers/parser.h"

static const char *const labels[] = {"Home", "Login", "Search products", "Product page",
                                     "Add to cart", "Checkout", "Big download", "Logout"};
static const char *const urls[] = {
    "http://shop.example:8080/", "http://shop.example:8080/login",
    "http://shop.example:8080/search?q=shoes", "http://shop.example:8080/p/12345",
    "http://shop.example:8080/cart/add", "http://shop.example:8080/checkout",
    "http://shop.example:8080/big", "http://shop.example:8080/logout"};

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

typedef struct row {
    long long ts;
    int elapsed, latency, connect, idle, label, thread, ok, grp, all;
    long bytes, sent;
} row;

static void make_row(long long i, row *r)
{
    r->ts = 1796051747000LL + i / 4; /* ~4000 samples/s */
    r->elapsed = (int)(next() % 200) + (next() % 100 == 0 ? (int)(next() % 3000) : 0);
    r->latency = r->elapsed / 2;
    r->connect = next() % 10 == 0 ? (int)(next() % 20) : 0;
    r->idle = 0;
    r->label = (int)(next() % 8);
    r->thread = (int)(next() % 50) + 1;
    r->ok = next() % 50 != 0;
    r->grp = 50;
    r->all = 50;
    r->bytes = 200 + (long)(next() % 5000) + (r->label == 6 ? 65536 : 0);
    r->sent = 100 + (long)(next() % 400);
}

static int write_csv(const char *path, long long n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    fputs("timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
          "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect\n",
          f);
    rng = 0x9E3779B97F4A7C15ULL;
    for (long long i = 0; i < n; i++) {
        row r;
        make_row(i, &r);
        fprintf(f, "%lld,%d,%s,%s,%s,Thread Group 1-%d,text,%s,%s,%ld,%ld,%d,%d,%s,%d,%d,%d\n",
                r.ts, r.elapsed, labels[r.label], r.ok ? "200" : "500",
                r.ok ? "OK" : "Internal Server Error", r.thread, r.ok ? "true" : "false",
                r.ok ? "" : "\"Test failed: code expected to equal /\n\n****** received  : 500\"",
                r.bytes, r.sent, r.grp, r.all, urls[r.label], r.latency, r.idle, r.connect);
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return -1;
    return 0;
}

static int write_xml(const char *path, long long n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testResults version=\"1.2\">\n", f);
    rng = 0x9E3779B97F4A7C15ULL;
    for (long long i = 0; i < n; i++) {
        row r;
        make_row(i, &r);
        fprintf(f,
                "<httpSample t=\"%d\" it=\"%d\" lt=\"%d\" ct=\"%d\" ts=\"%lld\" s=\"%s\" "
                "lb=\"%s\" rc=\"%s\" rm=\"%s\" tn=\"Thread Group 1-%d\" dt=\"text\" by=\"%ld\" "
                "sby=\"%ld\" sc=\"1\" ec=\"%d\" ng=\"%d\" na=\"%d\">\n",
                r.elapsed, r.idle, r.latency, r.connect, r.ts, r.ok ? "true" : "false",
                labels[r.label], r.ok ? "200" : "500", r.ok ? "OK" : "Internal Server Error",
                r.thread, r.bytes, r.sent, !r.ok, r.grp, r.all);
        if (!r.ok)
            fputs("  <assertionResult>\n    <name>Code</name>\n    <failure>true</failure>\n"
                  "    <error>false</error>\n    <failureMessage>code expected 200</failureMessage>\n"
                  "  </assertionResult>\n",
                  f);
        fprintf(f, "  <java.net.URL>%s</java.net.URL>\n</httpSample>\n", urls[r.label]);
    }
    fputs("</testResults>\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return -1;
    return 0;
}

static int count_push(pr_run *run, const pr_sample *s, size_t n, pr_error *err, void *payload)
{
    unsigned long long *c = payload;
    *c += n;
    return 0;
}

static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void bare_field(void *data, size_t len, void *payload)
{
    ((unsigned long long *)payload)[0] += len;
}

static void bare_record(int c, void *payload)
{
    ((unsigned long long *)payload)[1]++;
}

/* The peer of the CSV reader: a bare libcsv loop over the file that does nothing with the
 * fields (1 MiB reads, as the reader's). Returns the wall seconds, or -1. */
static double bare_csv(const char *path, unsigned long long *records)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    struct csv_parser p;
    csv_init(&p, CSV_STRICT_FINI);
    unsigned long long c[2] = {0, 0};
    char *buf = malloc(1 << 20);
    double t0 = now_s();
    size_t n;
    while ((n = fread(buf, 1, 1 << 20, f)) > 0)
        csv_parse(&p, buf, n, bare_field, bare_record, c);
    csv_fini(&p, bare_field, bare_record, c);
    double dt = now_s() - t0;
    csv_free(&p);
    free(buf);
    fclose(f);
    *records = c[1];
    return dt;
}

/* The peer of the XML reader: a bare xmlTextReader loop over every node. */
static double bare_xml(const char *path, unsigned long long *elements)
{
    double t0 = now_s();
    xmlTextReaderPtr rd = xmlReaderForFile(path, NULL, 0);
    if (!rd)
        return -1;
    unsigned long long k = 0;
    while (xmlTextReaderRead(rd) == 1)
        k += xmlTextReaderNodeType(rd) == XML_READER_TYPE_ELEMENT;
    xmlFreeTextReader(rd);
    *elements = k;
    return now_s() - t0;
}

/* One parse of path through a counting sink: 0 with the wall and CPU seconds, or 1. */
static int parse_once(const char *format, const char *path, double *dt, double *dc,
                      unsigned long long *count)
{
    pr_error err;
    pr_error_clear(&err);
    pr_input *in = pr_input_open(path, &err);
    if (!in) {
        fprintf(stderr, "bench_jmeter: %s: %s\n", path, err.msg);
        return 1;
    }
    pr_run *run = pr_run_new();
    *count = 0;
    pr_sink sink;
    pr_sink_init(&sink, run, count_push, count);
    pr_parse_opts opts;
    memset(&opts, 0, sizeof opts);
    double t0 = now_s(), c0 = cpu_s();
    int rc = pr_parser_find(format)->parse(in, &sink, &opts, &err);
    if (rc == 0)
        rc = pr_sink_flush(&sink, &err);
    *dt = now_s() - t0;
    *dc = cpu_s() - c0;
    pr_input_close(in);
    pr_run_free(run);
    if (rc != 0) {
        char buf[1200];
        fprintf(stderr, "bench_jmeter: %s\n", pr_error_format(&err, buf, sizeof buf));
        return 1;
    }
    return 0;
}

/* The reader against the bare library loop on the same file, interleaved: reader, bare,
 * reader, bare; the best of the two of each. */
static int bench(const char *format, const char *path)
{
    int xml = strcmp(format, "jmeter-csv") != 0;
    double dt = 1e30, dc = 1e30, bare = 1e30, bare_c = 1e30;
    unsigned long long count = 0, k = 0;
    for (int round = 0; round < 2; round++) {
        double t, c;
        if (parse_once(format, path, &t, &c, &count))
            return 1;
        dt = t < dt ? t : dt;
        dc = c < dc ? c : dc;
        double c0 = cpu_s();
        double b = xml ? bare_xml(path, &k) : bare_csv(path, &k);
        c = cpu_s() - c0;
        if (b >= 0 && b < bare)
            bare = b;
        if (b >= 0 && c < bare_c)
            bare_c = c;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%s: %llu samples in %.3f s = %.0f samples/s, peak RSS %.1f MB "
           "(CPU %.3f s = %.0f samples/s per CPU-second)\n",
           format, count, dt, (double)count / dt, (double)ru.ru_maxrss / 1024.0, dc,
           (double)count / dc);
    printf("%s: bare %s loop %.3f s (%llu %s): the reader at %.2fx its speed\n", format,
           xml ? "xmlTextReader" : "libcsv", bare, k, xml ? "elements" : "records", bare / dt);
    /* CPU time is steadier than wall time on a shared machine */
    printf("%s: bare loop CPU %.3f s: the reader at %.2fx its speed per CPU-second\n", format,
           bare_c, bare_c / dc);
    return 0;
}

/* Generates `path` unless it already exists (same row count is encoded in the name). */
static int ensure(const char *path, long long n, int (*gen)(const char *, long long))
{
    struct stat st;
    if (stat(path, &st) == 0 && st.st_size > 0)
        return 0;
    double t0 = now_s();
    if (gen(path, n) != 0) {
        fprintf(stderr, "bench_jmeter: cannot write %s: %s\n", path, strerror(errno));
        remove(path);
        return 1;
    }
    fprintf(stderr, "generated %s (%lld rows) in %.1f s\n", path, n, now_s() - t0);
    return 0;
}

int main(int argc, char **argv)
{
    long long n = argc > 1 ? atoll(argv[1]) : 200000;
    const char *which = argc > 2 ? argv[2] : "both";
    if (n <= 0) {
        fprintf(stderr, "usage: bench_jmeter [ROWS] [csv|xml|both]\n");
        return 2;
    }
    mkdir("bench/data", 0755);
    char csv[256], xml[256];
    snprintf(csv, sizeof csv, "bench/data/jmeter-%lld.jtl", n);
    snprintf(xml, sizeof xml, "bench/data/jmeter-%lld.xml.jtl", n);
    int bad = 0;
    if (strcmp(which, "xml") != 0)
        bad |= ensure(csv, n, write_csv) || bench("jmeter-csv", csv);
    if (strcmp(which, "csv") != 0)
        bad |= ensure(xml, n, write_xml) || bench("jmeter-xml", xml);
    return bad;
}
