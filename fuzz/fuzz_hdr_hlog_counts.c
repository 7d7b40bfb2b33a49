/* Fuzz target: the hdr-hlog reader on fuzzed histogram contents. fuzz_hdr_hlog mutates the
 * log's text, where a histogram is base64 of zlib data: a mutation there almost never inflates
 * to a V2 histogram, so the counts were never fuzzed (issue 34: five crafted logs of undefined
 * behaviour it did not find). Here the input is the inflated histogram itself:
 *
 *   byte 0        significant digits (mod 7: 6 is refused)
 *   byte 1        log2 of the lowest discernible value (mod 64: 63 is refused)
 *   bytes 2..9    highest trackable value, big-endian
 *   bytes 10..    the counts (ZigZag LEB128, negative = a run of empty buckets)
 *
 * and the target writes the V2 header, deflates it with the counts, base64s the lot into one
 * interval of a log and reads the log. */
#include <zlib.h>
#include "fuzz/reader_fuzz.h"

static void be32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (24 - 8 * i));
}

static size_t b64(const unsigned char *in, size_t n, char *out)
{
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) |
                     (i + 2 < n ? in[i + 2] : 0);
        out[o++] = a[v >> 18];
        out[o++] = a[v >> 12 & 63];
        out[o++] = i + 1 < n ? a[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? a[v & 63] : '=';
    }
    return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 10 || size > (1u << 20))
        return 0;
    size_t npay = size - 10, nraw = 40 + npay;
    unsigned char *raw = pr_xmalloc(nraw);
    be32(raw, 0x1c849313u);
    be32(raw + 4, (uint32_t)npay);
    be32(raw + 8, 0);
    be32(raw + 12, data[0] % 7u);
    uint64_t lowest = UINT64_C(1) << (data[1] % 64u);
    for (int i = 0; i < 8; i++)
        raw[16 + i] = (unsigned char)(lowest >> (56 - 8 * i));
    memcpy(raw + 24, data + 2, 8);
    memset(raw + 32, 0, 8); /* conversion ratio: not read */
    memcpy(raw + 40, data + 10, npay);
    uLongf nz = compressBound(nraw);
    unsigned char *z = pr_xmalloc(8 + nz);
    if (compress2(z + 8, &nz, raw, nraw, 1) != Z_OK)
        abort();
    be32(z, 0x1c849314u);
    be32(z + 4, (uint32_t)nz);
    static const char head[] = "#[StartTime: 1700000000.000 (seconds since epoch)]\n"
                               "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
                               "\"Interval_Compressed_Histogram\"\n0.000,1.000,1.000,";
    size_t nh = sizeof head - 1, n64 = (8 + nz + 2) / 3 * 4;
    char *log = pr_xmalloc(nh + n64 + 1);
    memcpy(log, head, nh);
    b64(z, 8 + nz, log + nh);
    log[nh + n64] = '\n';
    pr_fuzz_sniff_all((const uint8_t *)log, nh + n64 + 1);
    pr_fuzz_reader("hdr-hlog", (const uint8_t *)log, nh + n64 + 1, NULL);
    free(log);
    free(z);
    free(raw);
    return 0;
}
