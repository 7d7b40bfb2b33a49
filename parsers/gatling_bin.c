/* Reader of Gatling 3.13+'s binary simulation.log: big-endian records (RUN, REQUEST, USER,
 * GROUP, ERROR) with JVM strings (Latin-1 or UTF-16) and a cache of repeated strings. */
#include "parsers/gatling.h"
#include "model/xalloc.h"
#include <stdlib.h>
#include <string.h>

enum { H_RUN = 0, H_REQUEST = 1, H_USER = 2, H_GROUP = 3, H_ERROR = 4 };

#define GBIN_BUF 65536
#define GBIN_STR_MAX (1u << 20)   /* longest string accepted (bytes as written) */
#define GBIN_CACHE_MAX (1u << 22) /* cached strings accepted */
#define GBIN_GROUPS_MAX 32
#define GBIN_SCEN_MAX 4096

typedef struct gstr {
    char *p;
    size_t n;
} gstr;

typedef struct gbin {
    pr_gatling g;
    unsigned char buf[GBIN_BUF];
    size_t pos, len;
    long long base; /* input offset of buf[0] */
    int eof;
    gstr *cache; /* cached strings by index (1-based), UTF-8, owned */
    size_t ncache, cache_cap;
    gstr tmp[GBIN_GROUPS_MAX + 3]; /* decoded plain strings of the current record, owned */
    int64_t nscen;
    char *scratch; /* decoding buffer */
    size_t scratch_cap;
} gbin;

/* Makes n bytes available at buf + pos; 0, 1 at end of input (fewer left), or an error. */
static int need(gbin *b, size_t n)
{
    if (b->len - b->pos >= n)
        return 0;
    memmove(b->buf, b->buf + b->pos, b->len - b->pos);
    b->base += (long long)b->pos;
    b->len -= b->pos;
    b->pos = 0;
    while (b->len < n && !b->eof) {
        long got = pr_input_read(b->g.in, b->buf + b->len, sizeof b->buf - b->len, b->g.err);
        if (got < 0)
            return PR_EIO;
        if (got == 0)
            b->eof = 1;
        b->len += (size_t)got;
    }
    return b->len >= n ? 0 : 1;
}

static int rd_u8(gbin *b, unsigned *v)
{
    int rc = need(b, 1);
    if (rc)
        return rc;
    *v = b->buf[b->pos++];
    return 0;
}

static int rd_i32(gbin *b, int32_t *v)
{
    int rc = need(b, 4);
    if (rc)
        return rc;
    const unsigned char *p = b->buf + b->pos;
    *v = (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]);
    b->pos += 4;
    return 0;
}

static int rd_i64(gbin *b, int64_t *v)
{
    int32_t hi, lo;
    int rc = rd_i32(b, &hi);
    if (rc == 0)
        rc = rd_i32(b, &lo);
    if (rc == 0)
        *v = (int64_t)((uint64_t)(uint32_t)hi << 32 | (uint32_t)lo);
    return rc;
}

static int bad(gbin *b, const char *what)
{
    return pr_error_at_offset(b->g.err, PR_EPARSE, b->g.name, b->base + (long long)b->pos, "%s",
                              what);
}

static void put_utf8(gbin *b, size_t *n, uint32_t c)
{
    b->scratch = pr_xgrow(b->scratch, &b->scratch_cap, *n + 4, 1);
    char *o = b->scratch + *n;
    if (c < 0x80) {
        o[0] = (char)c;
        *n += 1;
    } else if (c < 0x800) {
        o[0] = (char)(0xc0 | c >> 6);
        o[1] = (char)(0x80 | (c & 0x3f));
        *n += 2;
    } else if (c < 0x10000) {
        o[0] = (char)(0xe0 | c >> 12);
        o[1] = (char)(0x80 | ((c >> 6) & 0x3f));
        o[2] = (char)(0x80 | (c & 0x3f));
        *n += 3;
    } else {
        o[0] = (char)(0xf0 | c >> 18);
        o[1] = (char)(0x80 | ((c >> 12) & 0x3f));
        o[2] = (char)(0x80 | ((c >> 6) & 0x3f));
        o[3] = (char)(0x80 | (c & 0x3f));
        *n += 4;
    }
}

/* A JVM string: int32 byte count, the bytes, a coder byte (0 Latin-1, 1 UTF-16 little
 * endian); 0 bytes is the empty string with nothing after it. Decoded to UTF-8 into *out
 * (malloc'd). */
static int rd_string(gbin *b, gstr *out)
{
    int32_t len;
    int rc = rd_i32(b, &len);
    if (rc)
        return rc;
    out->p = NULL;
    out->n = 0;
    if (len == 0)
        return 0;
    if (len < 0 || (uint32_t)len > GBIN_STR_MAX)
        return bad(b, "expected a string length (0 to 1 MiB)");
    if ((rc = need(b, (size_t)len + 1)))
        return rc;
    const unsigned char *p = b->buf + b->pos;
    unsigned coder = p[len];
    if (coder > 1 || (coder == 1 && (len & 1)))
        return bad(b, "expected a string coder byte (0 Latin-1, 1 UTF-16)");
    size_t n = 0;
    if (coder == 0) {
        for (int32_t i = 0; i < len; i++)
            put_utf8(b, &n, p[i]);
    } else {
        for (int32_t i = 0; i < len; i += 2) {
            uint32_t c = p[i] | (uint32_t)p[i + 1] << 8;
            if (c >= 0xd800 && c < 0xdc00 && i + 3 < len) {
                uint32_t lo = p[i + 2] | (uint32_t)p[i + 3] << 8;
                if (lo >= 0xdc00 && lo < 0xe000) {
                    c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
                    i += 2;
                }
            }
            if (c >= 0xd800 && c < 0xe000)
                c = 0xfffd; /* lone surrogate */
            put_utf8(b, &n, c);
        }
    }
    b->pos += (size_t)len + 1;
    out->p = pr_xmalloc(n + 1);
    memcpy(out->p, b->scratch, n);
    out->p[n] = 0;
    out->n = n;
    return 0;
}

/* A cached string: int32 index; > 0 a new string follows and takes that index, < 0 refers
 * to string -index, 0 the empty string. The result is borrowed from the cache. */
static int rd_cached(gbin *b, gstr *out)
{
    int32_t idx;
    int rc = rd_i32(b, &idx);
    if (rc)
        return rc;
    out->p = "";
    out->n = 0;
    if (idx == 0)
        return 0;
    if (idx < 0) {
        if (idx == INT32_MIN || (size_t)-idx > b->ncache || !b->cache[-idx].p)
            return bad(b, "string cache reference to an index not defined before");
        *out = b->cache[-idx];
        return 0;
    }
    if ((uint32_t)idx > GBIN_CACHE_MAX)
        return bad(b, "string cache index beyond 4 million");
    gstr s;
    if ((rc = rd_string(b, &s)))
        return rc;
    if ((size_t)idx >= b->cache_cap) {
        size_t old = b->cache_cap;
        b->cache = pr_xgrow(b->cache, &b->cache_cap, (size_t)idx + 1, sizeof *b->cache);
        memset(b->cache + old, 0, (b->cache_cap - old) * sizeof *b->cache);
    }
    if (b->cache[idx].p) {
        free(s.p);
        return bad(b, "string cache index defined twice");
    }
    b->cache[idx] = s.p ? s : (gstr){pr_xstrdup(""), 0};
    if ((size_t)idx > b->ncache)
        b->ncache = (size_t)idx;
    *out = b->cache[idx];
    return 0;
}

static pr_str as_str(gstr s)
{
    return (pr_str){s.p ? s.p : "", s.n};
}

static void tmp_free(gbin *b)
{
    for (size_t i = 0; i < sizeof b->tmp / sizeof b->tmp[0]; i++) {
        free(b->tmp[i].p);
        b->tmp[i].p = NULL;
    }
}

static int rec_run(gbin *b)
{
    int rc;
    int64_t start;
    int32_t n;
    if ((rc = rd_string(b, &b->tmp[0])) || (rc = rd_string(b, &b->tmp[1])) ||
        (rc = rd_i64(b, &start)) || (rc = rd_string(b, &b->tmp[2])) || (rc = rd_i32(b, &n)))
        return rc;
    int64_t start_ns; /* records are offsets from it: it must leave room for them */
    if (pr_time_from_epoch(start, 1000000, &start_ns) < 0)
        return bad(b, "RUN start time outside the years 1678..2261");
    if (n < 0 || n > GBIN_SCEN_MAX)
        return bad(b, "expected a scenario count (0 to 4096)");
    for (int32_t i = 0; i < n; i++) {
        gstr s;
        if ((rc = rd_string(b, &s)))
            return rc;
        free(s.p);
    }
    b->nscen = n;
    int32_t m;
    if ((rc = rd_i32(b, &m)))
        return rc;
    if (m < 0 || m > 100000)
        return bad(b, "expected an assertion count");
    for (int32_t i = 0; i < m; i++) {
        int32_t len;
        if ((rc = rd_i32(b, &len)))
            return rc;
        if (len < 0 || (uint32_t)len > GBIN_STR_MAX)
            return bad(b, "expected an assertion length");
        if ((rc = need(b, (size_t)len)))
            return rc;
        b->pos += (size_t)len;
        b->g.assertions++;
    }
    pr_str none = {"", 0};
    pr_gatling_run(&b->g, as_str(b->tmp[1]), none, start, as_str(b->tmp[2]), as_str(b->tmp[0]));
    return 0;
}

static int rd_groups(gbin *b, pr_str *groups, size_t *ng)
{
    int32_t n;
    int rc = rd_i32(b, &n);
    if (rc)
        return rc;
    if (n < 0 || n > 1024)
        return bad(b, "expected a group count (0 to 1024)");
    *ng = 0;
    for (int32_t i = 0; i < n; i++) {
        gstr s;
        if ((rc = rd_cached(b, &s)))
            return rc;
        if (*ng < GBIN_GROUPS_MAX)
            groups[(*ng)++] = as_str(s);
    }
    return 0;
}

static int rec_request(gbin *b)
{
    pr_str groups[GBIN_GROUPS_MAX];
    size_t ng;
    gstr name, msg;
    int32_t start, end;
    unsigned ok;
    int rc;
    if ((rc = rd_groups(b, groups, &ng)) || (rc = rd_cached(b, &name)) ||
        (rc = rd_i32(b, &start)) || (rc = rd_i32(b, &end)) || (rc = rd_u8(b, &ok)) ||
        (rc = rd_cached(b, &msg)))
        return rc;
    if (!b->g.have_run)
        return bad(b, "REQUEST record before the RUN record");
    int64_t t0 = b->g.run_start_ms;
    return pr_gatling_request(&b->g, groups, ng, as_str(name), t0 + start, t0 + end, ok != 0,
                              as_str(msg));
}

static int rec_group(gbin *b)
{
    pr_str groups[GBIN_GROUPS_MAX];
    size_t ng;
    int32_t start, end, cum;
    unsigned ok;
    int rc;
    if ((rc = rd_groups(b, groups, &ng)) || (rc = rd_i32(b, &start)) || (rc = rd_i32(b, &end)) ||
        (rc = rd_i32(b, &cum)) || (rc = rd_u8(b, &ok)))
        return rc;
    if (!b->g.have_run)
        return bad(b, "GROUP record before the RUN record");
    int64_t t0 = b->g.run_start_ms;
    return pr_gatling_group(&b->g, groups, ng, t0 + start, t0 + end, cum, ok != 0);
}

static int rec_user(gbin *b)
{
    int32_t scen, off;
    unsigned start;
    int rc;
    if ((rc = rd_i32(b, &scen)) || (rc = rd_u8(b, &start)) || (rc = rd_i32(b, &off)))
        return rc;
    if (scen < 0 || scen >= b->nscen)
        return bad(b, "USER record names a scenario the RUN record does not list");
    pr_gatling_user(&b->g, start != 0);
    return 0;
}

static int rec_error(gbin *b)
{
    gstr msg;
    int32_t off;
    int rc;
    if ((rc = rd_cached(b, &msg)) || (rc = rd_i32(b, &off)))
        return rc;
    pr_gatling_error(&b->g, as_str(msg));
    return 0;
}

static int (*const records[])(gbin *) = {rec_run, rec_request, rec_user, rec_group, rec_error};

static int bin_sniff(const unsigned char *buf, size_t len)
{
    /* RUN header byte, then the Gatling version as a Latin-1 string: 00 | 00 00 00 06 |
     * "3.13.1" | 00 */
    if (len < 9 || buf[0] != H_RUN || buf[1] || buf[2] || buf[3])
        return 0;
    size_t n = buf[4];
    if (n < 3 || n > 32 || buf[5] < '3' || buf[5] > '9' || buf[6] != '.')
        return 0;
    if (len < 6 + n)
        return 60;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = buf[5 + i];
        if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || (c >= 'A' && c <= 'Z') ||
              (c >= 'a' && c <= 'z')))
            return 0;
    }
    return buf[5 + n] == 0 ? 98 : 0;
}

static int bin_parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    gbin *b = pr_xcalloc(1, sizeof *b);
    pr_gatling_begin(&b->g, in, sink, err);
    int rc = 0;
    unsigned long long complete = 0;
    for (;;) {
        long long at = b->base + (long long)b->pos;
        unsigned h;
        rc = rd_u8(b, &h);
        if (rc == 1) { /* clean end between records */
            rc = 0;
            break;
        }
        if (rc == 0 && h >= sizeof records / sizeof records[0])
            rc = bad(b, "expected a record header byte (0 RUN, 1 REQUEST, 2 USER, 3 GROUP, 4 "
                        "ERROR)");
        if (rc == 0 && h != H_RUN && !b->g.have_run && complete == 0)
            rc = pr_error_at_offset(err, PR_EFORMAT, b->g.name, at,
                                    "expected a Gatling binary simulation.log (a RUN record "
                                    "first)");
        if (rc == 0)
            rc = records[h](b);
        tmp_free(b);
        if (rc == 1) {
            rc = pr_error_at_offset(err, PR_ETRUNC, b->g.name, at,
                                    "record cut short (the run was interrupted): kept the %llu "
                                    "complete records before it",
                                    complete);
            break;
        }
        if (rc < 0)
            break;
        complete++;
    }
    if (rc == 0 || rc == PR_ETRUNC)
        pr_gatling_end(&b->g, "3.13+ binary");
    pr_gatling_dispose(&b->g);
    for (size_t i = 0; i <= b->ncache && b->cache; i++)
        free(b->cache[i].p);
    free(b->cache);
    free(b->scratch);
    free(b);
    return rc;
}

const pr_parser pr_parser_gatling_bin = {
    "gatling-binary", "gatling",
    "Gatling simulation.log, binary (3.13+): REQUEST samples, GROUP transactions, users", bin_sniff,
    bin_parse};
