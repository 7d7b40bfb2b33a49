/* Reader of HdrHistogram interval logs (.hlog, HistogramLogWriter format 1.2/1.3: optional
 * "#[StartTime: s ...]" / "#[BaseTime: s ...]", a CSV legend, then one interval per line:
 * [Tag=NAME,]start,length,max,base64(compressed histogram)). Each interval's V2 histogram
 * (zlib-deflated; ZigZag LEB128 counts, negative = a run of empty buckets) is decoded and its
 * counts become samples at the buckets' highest equivalent values, started at the interval's
 * start: percentiles are exact to the histogram's precision, the time series has the
 * intervals' resolution. The tag is the label. Written from the format description; values
 * are taken as ns unless the intervals' max column (ms by HistogramLogWriter's default
 * maxValueUnitRatio 1e6) shows another unit. */
#include "parsers/parser.h"
#include "parsers/sniff.h"
#include "parsers/textsum.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define HLOG_V2 0x1c849303u            /* uncompressed V2 encoding cookie base */
#define HLOG_V2_COMPRESSED 0x1c849304u /* compressed V2 */
#define HLOG_MAX_PAYLOAD (4u << 20)    /* a decompressed histogram, at most */

static int sniff(const unsigned char *buf, size_t len)
{
    pr_str w = {(const char *)buf, len};
    int legend = pr_sniff_has(w, "\"Interval_Compressed_Histogram\"");
    int hist = pr_sniff_has(w, ",HIST");
    int hdr = pr_sniff_has(w, "#[Histogram log format version");
    if (legend && (hist || hdr))
        return 95;
    return hdr && hist ? 80 : 0;
}

static int b64val(int c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Standard base64 (padding optional) into out (at least n * 3 / 4 bytes); -1 if malformed. */
static long b64(pr_str s, unsigned char *out)
{
    uint32_t acc = 0;
    int bits = 0;
    long o = 0;
    for (size_t i = 0; i < s.n; i++) {
        if (s.p[i] == '=')
            break;
        int v = b64val((unsigned char)s.p[i]);
        if (v < 0)
            return -1;
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (unsigned char)(acc >> bits);
        }
    }
    return o;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const unsigned char *p)
{
    return (uint64_t)be32(p) << 32 | be32(p + 4);
}

typedef struct hist {
    int unit_mag, sub_half_mag; /* bucket layout from lowest value and significant digits */
    int64_t highest;            /* the highest trackable value the header states */
    int64_t nidx;               /* indexes of the layout's 64-bit range: 64 buckets */
    const unsigned char *pay;
    size_t npay;
} hist;

/* Reads one ZigZag LEB128 value (at most 9 bytes, the 9th with 8 bits). */
static int zigzag(const unsigned char **p, const unsigned char *end, int64_t *out)
{
    uint64_t v = 0;
    for (int i = 0; i < 9; i++) {
        if (*p >= end)
            return -1;
        unsigned b = *(*p)++;
        if (i == 8) {
            v |= (uint64_t)b << 56;
            break;
        }
        v |= (uint64_t)(b & 0x7F) << (7 * i);
        if (!(b & 0x80))
            break;
    }
    *out = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
    return 0;
}

/* The lowest and highest values equivalent to bucket index idx: 0, or -1 when the index is
 * negative or its highest value does not fit in 63 bits. No shift or sum overflows. */
static int bucket_range(const hist *h, int64_t idx, int64_t *lo, int64_t *hi)
{
    int64_t half = (int64_t)1 << h->sub_half_mag;
    int64_t bucket = (idx >> h->sub_half_mag) - 1;
    int64_t sub = (idx & (half - 1)) + half;
    if (bucket < 0) {
        sub -= half;
        bucket = 0;
    }
    if (idx < 0 || bucket > 62 - h->unit_mag)
        return -1;
    int shift = (int)bucket + h->unit_mag; /* 0..62 */
    if ((uint64_t)sub + 1 > UINT64_C(1) << (63 - shift))
        return -1;
    *lo = (int64_t)((uint64_t)sub << shift);
    *hi = (int64_t)((((uint64_t)sub + 1) << shift) - 1);
    return 0;
}

/* Walks a histogram's counts in index order. */
typedef struct walk {
    const hist *h;
    const unsigned char *p;
    int64_t idx;
    size_t at;   /* byte of the inflated histogram where the last count read starts */
    int64_t raw; /* that count as written */
} walk;

/* The next non-empty bucket: 1 with *count and *value (its highest equivalent value) set, 0
 * at the payload's end, or -1 with *bad saying what is wrong with the count at byte w->at. */
static int next_bucket(walk *w, int64_t *count, int64_t *value, const char **bad)
{
    const unsigned char *end = w->h->pay + w->h->npay;
    while (w->p < end) {
        int64_t c, lo;
        w->at = (size_t)(w->p - w->h->pay) + 40;
        if (zigzag(&w->p, end, &c) < 0) {
            *bad = "histogram payload cut short";
            return -1;
        }
        w->raw = c;
        if (c < 0) { /* a run of -c empty buckets; idx never passes nidx + npay */
            if (c == INT64_MIN || -c > w->h->nidx - w->idx) {
                *bad = "a run of empty buckets goes past the histogram's last bucket";
                return -1;
            }
            w->idx += -c;
            continue;
        }
        int64_t idx = w->idx++;
        if (!c)
            continue;
        if (bucket_range(w->h, idx, &lo, value) < 0 || lo > w->h->highest) {
            *bad = "a count in a bucket beyond the histogram's highest trackable value";
            return -1;
        }
        *count = c;
        return 1;
    }
    return 0;
}

/* Decodes one base64 compressed histogram into *h (payload in *buf, owned by the caller). */
static const char *decode(pr_str text, hist *h, unsigned char **buf, unsigned char **raw)
{
    if (!pr_str_starts(text, "HIST"))
        return "expected a base64 compressed histogram (\"HIST...\")";
    *raw = pr_xmalloc(text.n * 3 / 4 + 4);
    long n = b64(text, *raw);
    if (n < 8)
        return "malformed base64 histogram";
    uint32_t cookie = be32(*raw) & ~0xf0u;
    if (cookie != HLOG_V2_COMPRESSED)
        return "histogram encoding not supported (only V2, cookie 0x1c849304; V0/V1 logs are "
               "older HdrHistogram versions)";
    uint32_t clen = be32(*raw + 4);
    if (clen > (uint32_t)n - 8)
        return "compressed histogram longer than its text";
    *buf = pr_xmalloc(HLOG_MAX_PAYLOAD);
    uLongf out = HLOG_MAX_PAYLOAD;
    int zr = uncompress(*buf, &out, *raw + 8, clen);
    if (zr != Z_OK)
        return zr == Z_BUF_ERROR ? "decompressed histogram larger than 4 MiB"
                                 : "histogram does not inflate (damaged zlib data)";
    if (out < 40 || (be32(*buf) & ~0xf0u) != HLOG_V2)
        return "inflated histogram lacks the V2 encoding cookie";
    uint32_t plen = be32(*buf + 4), norm = be32(*buf + 8), digits = be32(*buf + 12);
    int64_t lowest = (int64_t)be64(*buf + 16), highest = (int64_t)be64(*buf + 24);
    if (plen > out - 40 || digits > 5 || lowest < 1 || highest < lowest)
        return "inconsistent histogram header (payload length, significant digits or lowest "
               "value)";
    if (norm)
        return "histogram with a normalizing index offset (auto-shifted) not supported";
    int64_t largest = 2;
    for (uint32_t i = 0; i < digits; i++)
        largest *= 10;
    int sub_mag = (int)ceil(log2((double)largest));
    h->sub_half_mag = sub_mag > 1 ? sub_mag - 1 : 0;
    h->unit_mag = 63 - __builtin_clzll((unsigned long long)lowest); /* floor(log2(lowest)) */
    h->highest = highest;
    h->nidx = (int64_t)64 << h->sub_half_mag;
    h->pay = *buf + 40;
    h->npay = plen;
    return NULL;
}

typedef struct hlog {
    pr_sink *sink;
    const char *name;
    double start_s, base_s; /* NAN when the log has none */
    int64_t unit_ns;        /* ns per recorded value unit, 0 until known */
    int64_t total;
    long long limit;  /* samples the log may hold after the line read (pr_expand_limit) */
    long long read;   /* bytes read */
    const char *rule; /* pr_expand_rule */
    uint32_t label;
    char tag[256];
} hlog;

/* "#[StartTime: 1441753532.570 (seconds since epoch), ...]" → seconds. */
static double comment_time(pr_str l, const char *key)
{
    size_t k = strlen(key);
    if (l.n <= k || memcmp(l.p, key, k) != 0)
        return NAN;
    pr_str rest = {l.p + k, l.n - k}, tok = pr_textsum_token(&rest);
    double v;
    return pr_lex_double(tok.p, tok.n, &v) == 0 ? v : NAN;
}

/* ns per value unit from the interval's max column (ms) and its largest value; nothing when
 * the payload is damaged (interval() says where). */
static void find_unit(hlog *g, const hist *h, double max_ms)
{
    walk w = {h, h->pay, 0, 0, 0};
    int64_t raw = 0, c, v;
    const char *bad;
    int r;
    while ((r = next_bucket(&w, &c, &v, &bad)) > 0)
        raw = v;
    if (r < 0 || raw <= 0 || !(max_ms > 0))
        return;
    double ratio = max_ms * 1e6 / (double)raw;
    g->unit_ns = ratio > 31622 ? 1000000 : ratio > 31.6 ? 1000 : 1; /* nearest power of 1000 */
    pr_run_meta_set(g->sink->run, "value_unit_ns", json_integer(g->unit_ns));
}

/* Emits the samples of one decoded histogram; col is the histogram's column on line ln. */
static int emit_counts(hlog *g, const hist *h, pr_sample *s, long ln, long col, pr_error *err)
{
    walk w = {h, h->pay, 0, 0, 0};
    int64_t unit = g->unit_ns ? g->unit_ns : 1, c, v;
    const char *bad = NULL;
    int r, rc = 0;
    while (rc >= 0 && (r = next_bucket(&w, &c, &v, &bad)) > 0) {
        if (v > INT64_MAX / unit)
            bad = "a count in a bucket whose value in ns does not fit in 64 bits";
        else if (c > g->limit - g->total)
            return pr_error_set(err, PR_EPARSE, g->name, ln, col,
                                "byte %zu of the inflated histogram: a count of %lld; expected "
                                "at most %lld samples in all after %lld bytes (%s)",
                                w.at, (long long)c, g->limit, g->read, g->rule);
        if (bad)
            break;
        s->latency_ns = v * unit;
        g->total += c;
        for (int64_t k = 0; k < c && rc >= 0; k++)
            rc = pr_sink_emit(g->sink, s, err);
    }
    if (rc >= 0 && bad)
        rc = pr_error_set(err, PR_EPARSE, g->name, ln, col,
                          "byte %zu of the inflated histogram: %s (count %lld)", w.at, bad,
                          (long long)w.raw);
    return rc;
}

static int interval(hlog *g, pr_str *f, long ln, long col, pr_error *err)
{
    double ts, len_s, max_ms;
    if (pr_lex_double(f[0].p, f[0].n, &ts) < 0 || pr_lex_double(f[1].p, f[1].n, &len_s) < 0 ||
        pr_lex_double(f[2].p, f[2].n, &max_ms) < 0)
        return pr_error_set(err, PR_EPARSE, g->name, ln, 1,
                            "expected start,length,max,histogram (numbers, then base64)");
    hist h;
    unsigned char *buf = NULL, *raw = NULL;
    const char *bad = decode(f[3], &h, &buf, &raw);
    int rc = 0;
    if (bad) {
        rc = pr_error_set(err, PR_EPARSE, g->name, ln, col, "%s", bad);
        goto out;
    }
    if (!g->unit_ns)
        find_unit(g, &h, max_ms);
    double base = !isnan(g->base_s)                                       ? g->base_s
                  : !isnan(g->start_s) && ts < g->start_s - 365 * 86400.0 ? g->start_s
                                                                          : 0;
    pr_sample s;
    pr_sample_init(&s);
    s.success = PR_SUCCESS_UNKNOWN;
    s.label = g->label;
    if (pr_time_from_seconds(base + ts, &s.start_ns) < 0) /* outside 1678..2261: unknown */
        s.start_ns = PR_UNKNOWN;
    rc = emit_counts(g, &h, &s, ln, col, err);
out:
    free(buf);
    free(raw);
    return rc;
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    pr_run *run = sink->run;
    pr_run_set_format(run, "hdr-hlog", "hdrhistogram");
    hlog g = {sink, pr_input_name(in), NAN, NAN, 0, 0, 0, 0, pr_expand_rule(opts), PR_NOSTR, ""};
    const char *line;
    size_t len;
    int rc, intervals = 0;
    while ((rc = pr_input_getline(in, &line, &len, err)) > 0) {
        pr_str l = pr_str_trim(pr_textsum_line(line, len));
        long ln = pr_input_lineno(in);
        if (l.n == 0 || l.p[0] == '"')
            continue; /* the legend */
        if (l.p[0] == '#') {
            double v = comment_time(l, "#[StartTime:");
            if (!isnan(v))
                g.start_s = v;
            v = comment_time(l, "#[BaseTime:");
            if (!isnan(v))
                g.base_s = v;
            continue;
        }
        pr_str tag = {"", 0};
        if (pr_str_starts(l, "Tag=")) {
            const char *comma = memchr(l.p, ',', l.n);
            if (!comma) {
                rc = pr_error_set(err, PR_EPARSE, g.name, ln, 1,
                                  "expected Tag=NAME, then an interval");
                break;
            }
            tag = (pr_str){l.p + 4, (size_t)(comma - l.p - 4)};
            l = (pr_str){comma + 1, l.n - (size_t)(comma + 1 - l.p)};
        }
        g.label = tag.n ? pr_run_intern(run, tag.p, tag.n) : PR_NOSTR;
        pr_str f[5];
        size_t nf = pr_lex_split(l.p, l.n, ',', f, 4);
        if (nf != 4) {
            rc = pr_error_set(err, pr_input_line_terminated(in) ? PR_EPARSE : PR_ETRUNC, g.name, ln,
                              1, "expected [Tag=NAME,]start,length,max,histogram");
            break;
        }
        g.read = pr_input_offset(in);
        g.limit = pr_expand_limit(opts, g.read);
        if ((rc = interval(&g, f, ln, (long)(f[3].p - line) + 1, err)) < 0) {
            if (!pr_input_line_terminated(in))
                err->code = rc = PR_ETRUNC;
            break;
        }
        intervals++;
    }
    if (rc >= 0 && !intervals)
        rc = pr_error_set(err, PR_EFORMAT, g.name, 0, 0, "no HdrHistogram intervals found");
    pr_run_meta_set(run, "histogram", json_string("hlog"));
    pr_run_meta_set(run, "status_known", json_false());
    pr_run_meta_set(run, "intervals", json_integer(intervals));
    if (isnan(g.start_s) && isnan(g.base_s))
        pr_textsum_note(run, "the log has no StartTime or BaseTime: interval times are relative to "
                             "an unknown start (shown from 1970-01-01)");
    if (!g.unit_ns)
        pr_textsum_note(run, "value unit not recoverable from the log: taken as ns");
    return rc < 0 ? rc : 0;
}

const pr_parser pr_parser_hdr_hlog = {"hdr-hlog", "hdrhistogram",
                                      "HdrHistogram interval log (.hlog, V2 compressed histograms)",
                                      sniff, parse};
