/* The native format: column-wise sample block codec and the stream writer (docs/format.md). */
#include "model/native.h"
#include "model/varint.h"
#include "model/xalloc.h"
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* ---- columns ------------------------------------------------------------------------ */

typedef struct column {
    size_t off;
    unsigned char size; /* 1, 2, 4 or 8 bytes */
    unsigned char is_signed;
} column;

#define COL(f, sg)                                                                                 \
    {                                                                                              \
        offsetof(pr_sample, f), sizeof(((pr_sample *)0)->f), sg                                    \
    }
static const column columns[] = {
    COL(start_ns, 1), COL(latency_ns, 1), COL(connect_ns, 1), COL(ttfb_ns, 1), COL(lateness_ns, 1),
    COL(bytes_in, 1), COL(bytes_out, 1),  COL(label, 0),      COL(url, 0),     COL(method, 0),
    COL(error, 0),    COL(thread, 0),     COL(attrs, 0),      COL(threads, 1), COL(status, 0),
    COL(success, 0),  COL(flags, 0),
};
#define NCOLS (sizeof columns / sizeof columns[0])
_Static_assert(sizeof columns / sizeof columns[0] == 17, "varying_columns() lists 17 columns");

/* ---- encoder --------------------------------------------------------------------------- */

enum { ENC_CONST = 0, ENC_RAW = 1, ENC_DELTA = 2, ENC_DICT = 3 };

static const int64_t pow10s[] = {1, 1000, 1000000, 1000000000};

/* Dictionary of up to 256 distinct values, open addressing over 512 slots. */
typedef struct dict {
    int64_t keys[512];
    short idx[512];
    int64_t vals[256];
    int k;
    int full;
} dict;

static int dict_add(dict *d, int64_t v)
{
    uint64_t h = (uint64_t)v * 0x9E3779B97F4A7C15ull;
    unsigned i = (unsigned)(h >> 55);
    for (;;) {
        if (d->idx[i] < 0) {
            if (d->k == 256) {
                d->full = 1;
                return -1;
            }
            d->idx[i] = (short)d->k;
            d->keys[i] = v;
            d->vals[d->k] = v;
            return d->k++;
        }
        if (d->keys[i] == v)
            return d->idx[i];
        i = (i + 1) & 511;
    }
}

static void put_uv(pr_buf *out, uint64_t v)
{
    unsigned char tmp[10];
    pr_buf_append(out, tmp, pr_uvarint_put(tmp, v));
}

/* Loads a column into vals[] (one switch per column, not per value). */
static void load_column(const pr_sample *s, size_t n, const column *c, int64_t *vals)
{
    const char *base = (const char *)s + c->off;
#define LOAD(T)                                                                                    \
    for (size_t i = 0; i < n; i++)                                                                 \
        vals[i] = (int64_t) * (const T *)(const void *)(base + i * sizeof(pr_sample));
    switch (c->size) {
    case 8: LOAD(int64_t); break;
    case 4:
        if (c->is_signed) {
            LOAD(int32_t);
        } else {
            LOAD(uint32_t);
        }
        break;
    case 2: LOAD(uint16_t); break;
    default: LOAD(uint8_t); break;
    }
#undef LOAD
}

/* Divides every value by 10^(3e) with a constant divisor the compiler can strength-reduce. */
static void scale_down(int64_t *v, size_t n, int e)
{
    switch (e) {
    case 3:
        for (size_t i = 0; i < n; i++)
            v[i] /= 1000000000;
        break;
    case 2:
        for (size_t i = 0; i < n; i++)
            v[i] /= 1000000;
        break;
    case 1:
        for (size_t i = 0; i < n; i++)
            v[i] /= 1000;
        break;
    default: break;
    }
}

/* The largest e in 0..3 such that 10^(3e) divides every value. */
static int common_scale(const int64_t *v, size_t n)
{
    int e = 3;
    size_t i = 0;
    for (; i < n && e == 3; i++)
        if (v[i] % 1000000000 != 0)
            e = 2;
    for (i = i ? i - 1 : 0; i < n && e == 2; i++)
        if (v[i] % 1000000 != 0)
            e = 1;
    for (i = i ? i - 1 : 0; i < n && e == 1; i++)
        if (v[i] % 1000 != 0)
            e = 0;
    return e;
}

static void encode_column(const pr_sample *s, size_t n, const column *c, int64_t *vals,
                          unsigned char *ix, pr_buf *out)
{
    load_column(s, n, c, vals);
    int all_equal = 1, has_unknown = 0;
    int64_t first = n ? vals[0] : 0;
    for (size_t i = 0; i < n; i++) {
        all_equal &= vals[i] == first;
        has_unknown |= vals[i] == PR_UNKNOWN;
    }
    if (all_equal) {
        pr_buf_putc(out, ENC_CONST);
        put_uv(out, pr_zigzag(first));
        return;
    }
    /* dictionary: cheap to try, abandoned at the 257th distinct value */
    static __thread dict d;
    memset(d.idx, 0xff, sizeof d.idx);
    d.k = 0;
    d.full = 0;
    for (size_t i = 0; i < n; i++) {
        int k = dict_add(&d, vals[i]);
        if (k < 0)
            break;
        ix[i] = (unsigned char)k;
    }
    size_t dict_size = (size_t)-1;
    unsigned bits = 8;
    if (!d.full) {
        bits = d.k <= 2 ? 1 : d.k <= 4 ? 2 : d.k <= 16 ? 4 : 8;
        dict_size = 2 + (n * bits + 7) / 8;
        for (int i = 0; i < d.k; i++)
            dict_size += pr_uvarint_len(pr_zigzag(d.vals[i]));
    }
    /* decimal scale: the largest 10^(3e) dividing every value (none when unknowns present) */
    int e = (!has_unknown && c->size == 8 && (d.full || bits > 1)) ? common_scale(vals, n) : 0;
    size_t raw = 0, delta = 0;
    if (dict_size > 2 + (n + 7) / 8) { /* a 1-bit dictionary cannot be beaten */
        scale_down(vals, n, e);
        int64_t prev = 0;
        for (size_t i = 0; i < n; i++) {
            raw += pr_uvarint_len(pr_zigzag(vals[i]));
            delta += pr_uvarint_len(pr_zigzag((int64_t)((uint64_t)vals[i] - (uint64_t)prev)));
            prev = vals[i];
        }
    } else {
        raw = delta = (size_t)-1;
    }
    if (dict_size <= raw && dict_size <= delta) {
        pr_buf_putc(out, ENC_DICT);
        put_uv(out, (uint64_t)d.k);
        for (int i = 0; i < d.k; i++)
            put_uv(out, pr_zigzag(d.vals[i]));
        pr_buf_putc(out, (char)bits);
        size_t nbytes = (n * bits + 7) / 8;
        size_t at = out->len;
        out->p = pr_xgrow(out->p, &out->cap, out->len + nbytes + 1, 1);
        memset(out->p + at, 0, nbytes + 1);
        out->len += nbytes;
        unsigned char *p = (unsigned char *)out->p + at;
        for (size_t i = 0; i < n; i++) {
            size_t bit = i * bits;
            p[bit >> 3] |= (unsigned char)(ix[i] << (bit & 7));
        }
        return;
    }
    int use_delta = delta < raw;
    pr_buf_putc(out, use_delta ? ENC_DELTA : ENC_RAW);
    pr_buf_putc(out, (char)e);
    size_t need = use_delta ? delta : raw;
    out->p = pr_xgrow(out->p, &out->cap, out->len + need + 1, 1);
    unsigned char *p = (unsigned char *)out->p + out->len;
    if (use_delta) {
        int64_t prev = 0;
        for (size_t i = 0; i < n; i++) {
            p += pr_uvarint_put(p, pr_zigzag((int64_t)((uint64_t)vals[i] - (uint64_t)prev)));
            prev = vals[i];
        }
    } else {
        for (size_t i = 0; i < n; i++)
            p += pr_uvarint_put(p, pr_zigzag(vals[i]));
    }
    out->len += need;
    out->p[out->len] = 0;
}

/* Bit c set: column c takes more than one value in s[0..n). One sequential pass, so the
 * (usually many) constant columns never need a strided pass of their own. */
static unsigned varying_columns(const pr_sample *s, size_t n)
{
    unsigned diff = 0;
    if (n == 0)
        return 0;
    const pr_sample *f = &s[0];
    for (size_t i = 1; i < n; i++) {
        const pr_sample *x = &s[i];
        diff |= (unsigned)(x->start_ns != f->start_ns) << 0 |
                (unsigned)(x->latency_ns != f->latency_ns) << 1 |
                (unsigned)(x->connect_ns != f->connect_ns) << 2 |
                (unsigned)(x->ttfb_ns != f->ttfb_ns) << 3 |
                (unsigned)(x->lateness_ns != f->lateness_ns) << 4 |
                (unsigned)(x->bytes_in != f->bytes_in) << 5 |
                (unsigned)(x->bytes_out != f->bytes_out) << 6 |
                (unsigned)(x->label != f->label) << 7 | (unsigned)(x->url != f->url) << 8 |
                (unsigned)(x->method != f->method) << 9 | (unsigned)(x->error != f->error) << 10 |
                (unsigned)(x->thread != f->thread) << 11 | (unsigned)(x->attrs != f->attrs) << 12 |
                (unsigned)(x->threads != f->threads) << 13 |
                (unsigned)(x->status != f->status) << 14 |
                (unsigned)(x->success != f->success) << 15 | (unsigned)(x->flags != f->flags) << 16;
    }
    return diff;
}

void pr_block_encode(const pr_sample *s, size_t n, pr_buf *out)
{
    int64_t *vals = pr_xmalloc((n ? n : 1) * sizeof *vals);
    unsigned char *ix = pr_xmalloc(n ? n : 1);
    put_uv(out, n);
    put_uv(out, NCOLS);
    unsigned varying = varying_columns(s, n);
    for (size_t c = 0; c < NCOLS; c++) {
        if (!(varying >> c & 1)) { /* constant over the block */
            int64_t v;
            load_column(s, n ? 1 : 0, &columns[c], &v);
            pr_buf_putc(out, ENC_CONST);
            put_uv(out, pr_zigzag(n ? v : 0));
            continue;
        }
        encode_column(s, n, &columns[c], vals, ix, out);
    }
    free(vals);
    free(ix);
}

/* ---- decoder --------------------------------------------------------------------------- */

static int bad(pr_error *err, const char *what)
{
    return pr_error_set(err, PR_EPARSE, NULL, 0, 0, "corrupt sample block: %s", what);
}

/* The smallest and largest value a column's field can hold. */
static void field_range(const column *c, int64_t *lo, int64_t *hi)
{
    switch (c->size) {
    case 8:
        *lo = INT64_MIN;
        *hi = INT64_MAX;
        break;
    case 4:
        *lo = c->is_signed ? INT32_MIN : 0;
        *hi = c->is_signed ? INT32_MAX : (int64_t)UINT32_MAX;
        break;
    case 2:
        *lo = 0;
        *hi = UINT16_MAX;
        break;
    default:
        *lo = 0;
        *hi = UINT8_MAX;
        break;
    }
}

/* 0 when every value of v[0..n) fits column c's field, else -1. */
static int check_range(const column *c, const int64_t *v, size_t n)
{
    if (c->size == 8)
        return 0;
    int64_t lo, hi, mn = INT64_MAX, mx = INT64_MIN;
    field_range(c, &lo, &hi);
    for (size_t i = 0; i < n; i++) {
        mn = v[i] < mn ? v[i] : mn;
        mx = v[i] > mx ? v[i] : mx;
    }
    return n && (mn < lo || mx > hi) ? -1 : 0;
}

/* Stores vals[] (in range: checked when decoded) into a column of n samples. */
static void store_column(pr_sample *s, size_t n, const column *c, const int64_t *vals)
{
    char *base = (char *)s + c->off;
#define STORE(T)                                                                                   \
    for (size_t i = 0; i < n; i++)                                                                 \
        *(T *)(void *)(base + i * sizeof(pr_sample)) = (T)vals[i];
    switch (c->size) {
    case 8: STORE(int64_t); break;
    case 4:
        if (c->is_signed) {
            STORE(int32_t);
        } else {
            STORE(uint32_t);
        }
        break;
    case 2: STORE(uint16_t); break;
    default: STORE(uint8_t); break;
    }
#undef STORE
}

/* A varint read with no bounds check: p has at least 10 readable bytes. NULL if overlong.
 * Little-endian machines take varints of up to 8 bytes in one 64-bit load, without a branch
 * per byte: the first clear high bit ends the varint, the 7-bit groups are then packed. */
static inline const unsigned char *uv_fast(const unsigned char *p, uint64_t *out)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w;
    memcpy(&w, p, 8);
    uint64_t t = ~w & 0x8080808080808080ull; /* high bits that are clear */
    if (t) {
        uint64_t low = t & (0 - t);
        w &= (low << 1) - 1;        /* the bytes up to the last one (low << 1 is 0 at byte 8) */
        if (low <= 0x80000000ull) { /* up to 4 bytes (most durations and deltas) */
            *out = (w & 0x7full) | (w >> 1 & 0x3f80ull) | (w >> 2 & 0x1fc000ull) |
                   (w >> 3 & 0xfe00000ull);
            return p + (__builtin_ctzll(t) >> 3) + 1;
        }
        *out = (w & 0x7full) | (w >> 1 & 0x3f80ull) | (w >> 2 & 0x1fc000ull) |
               (w >> 3 & 0xfe00000ull) | (w >> 4 & 0x7f0000000ull) | (w >> 5 & 0x3f800000000ull) |
               (w >> 6 & 0x1fc0000000000ull) | (w >> 7 & 0xfe000000000000ull);
        return p + (__builtin_ctzll(t) >> 3) + 1;
    }
#endif
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 63; shift += 7) {
        uint64_t b = *p++;
        v |= (b & 0x7f) << shift;
        if (b < 0x80) {
            *out = v;
            return p;
        }
    }
    if (*p > 1)
        return NULL;
    *out = v | (uint64_t)*p << 63;
    return p + 1;
}

/* Decodes count zigzag varints (running sums when delta: a constant where it is inlined, see
 * decode_column) into vals. */
static inline __attribute__((always_inline)) int decode_varints(const unsigned char **pp,
                                                                const unsigned char *end,
                                                                size_t count, int delta,
                                                                int64_t *vals)
{
    const unsigned char *p = *pp;
    uint64_t prev = 0, u;
    size_t i = 0;
    for (;;) { /* no bounds check per byte nor per value: a varint takes at most 10 bytes, so
                * the next (end - p) / 10 all have their 10 readable bytes */
        size_t m = (size_t)(end - p) / 10;
        if (m > count - i)
            m = count - i;
        if (!m)
            break;
        for (size_t stop = i + m; i < stop; i++) {
            if (!(p = uv_fast(p, &u)))
                return -1;
            uint64_t v = (uint64_t)pr_unzigzag(u);
            if (delta)
                v = prev += v;
            vals[i] = (int64_t)v;
        }
    }
    for (; i < count; i++) {
        if (pr_uvarint_get(&p, end, &u) < 0)
            return -1;
        uint64_t v = (uint64_t)pr_unzigzag(u);
        if (delta)
            v = prev += v;
        vals[i] = (int64_t)v;
    }
    *pp = p;
    return 0;
}

/* Steps over count varints (a column nobody asked for): a varint ends at each byte with its
 * high bit clear, counted eight bytes at a time. */
static int skip_varints(const unsigned char **pp, const unsigned char *end, size_t count)
{
    const unsigned char *p = *pp;
    while (count >= 8 && end - p >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        uint64_t ends = (~w & 0x8080808080808080ull) >> 7; /* one per byte, summed below */
        count -= (size_t)((ends * 0x0101010101010101ull) >> 56);
        p += 8;
    }
    while (count && p < end)
        count -= *p++ < 0x80;
    if (count)
        return -1;
    *pp = p;
    return 0;
}

/* Expands count dictionary indices of `bits` bits at p into vals; -1 on an index >= k.
 * Indices of a narrow width are read a byte (8/bits of them) at a time; the index check is
 * needed only when the dictionary is smaller than the width allows. */
static int expand_dict(const unsigned char *p, size_t count, unsigned bits, const int64_t *dv,
                       uint64_t k, int64_t *vals)
{
    unsigned maxidx = 0;
    size_t full = count / (8 / bits), i = 0;
#define EXPAND(B)                                                                                  \
    for (size_t j = 0; j < full; j++) {                                                            \
        unsigned byte = p[j];                                                                      \
        maxidx |= byte;                                                                            \
        for (unsigned s = 0; s < 8; s += B)                                                        \
            vals[i++] = dv[(byte >> s) & ((1u << B) - 1)];                                         \
    }
    switch (bits) {
    case 8:
        for (; i < count; i++) {
            maxidx |= p[i] >= k;
            vals[i] = dv[p[i]];
        }
        return maxidx ? -1 : 0;
    case 4: EXPAND(4); break;
    case 2: EXPAND(2); break;
    default: {
        int64_t d0 = dv[0], d1 = dv[1];
        for (size_t j = 0; j < full; j++, i += 8) { /* two values: a select per bit */
            unsigned byte = p[j];
            int64_t *v = vals + i;
            v[0] = byte & 1 ? d1 : d0;
            v[1] = byte & 2 ? d1 : d0;
            v[2] = byte & 4 ? d1 : d0;
            v[3] = byte & 8 ? d1 : d0;
            v[4] = byte & 16 ? d1 : d0;
            v[5] = byte & 32 ? d1 : d0;
            v[6] = byte & 64 ? d1 : d0;
            v[7] = byte & 128 ? d1 : d0;
        }
        break;
    }
    }
#undef EXPAND
    unsigned mask = (1u << bits) - 1;
    int badidx = 0;
    if (k < (1u << bits)) { /* some index values are not in the dictionary: check each */
        for (size_t j = 0; j < full * (8 / bits); j++) {
            size_t bit = j * bits;
            badidx |= ((p[bit >> 3] >> (bit & 7)) & mask) >= k;
        }
    }
    for (; i < count; i++) {
        size_t bit = i * bits;
        unsigned idx = (p[bit >> 3] >> (bit & 7)) & mask;
        badidx |= idx >= k;
        vals[i] = dv[idx];
    }
    (void)maxidx;
    return badidx ? -1 : 0;
}

/* One column at *pp: its constant in out->konst, or (wanted) its values in vals. Returns 1
 * when vals holds the values, 0 for a constant or a skipped column, < 0 on damage. */
static int decode_column(const unsigned char **pp, const unsigned char *end, size_t count,
                         const column *c, int want, int64_t *konst, int64_t *vals, pr_error *err)
{
    const unsigned char *p = *pp;
    if (p >= end)
        return bad(err, "truncated column");
    int enc = *p++, got = 0;
    if (enc == ENC_CONST) {
        uint64_t u;
        if (pr_uvarint_get(&p, end, &u) < 0)
            return bad(err, "truncated constant");
        int64_t v = pr_unzigzag(u);
        if (c && count && check_range(c, &v, 1) < 0)
            return bad(err, "value out of range");
        if (c && count)
            *konst = v;
    } else if (enc == ENC_RAW || enc == ENC_DELTA) {
        if (p >= end || *p > 3)
            return bad(err, "bad scale");
        int e = *p++;
        if (!want) {
            if (skip_varints(&p, end, count) < 0)
                return bad(err, "truncated values");
        } else {
            if ((enc == ENC_DELTA ? decode_varints(&p, end, count, 1, vals)
                                  : decode_varints(&p, end, count, 0, vals)) < 0)
                return bad(err, "truncated values");
            if (e) {
                uint64_t scale = (uint64_t)pow10s[e];
                for (size_t i = 0; i < count; i++)
                    vals[i] = (int64_t)((uint64_t)vals[i] * scale);
            }
            if (c && check_range(c, vals, count) < 0)
                return bad(err, "value out of range");
            got = 1;
        }
    } else if (enc == ENC_DICT) {
        uint64_t k;
        int64_t dv[256];
        if (pr_uvarint_get(&p, end, &k) < 0 || k == 0 || k > 256)
            return bad(err, "bad dictionary size");
        for (uint64_t i = 0; i < k; i++) {
            uint64_t u;
            if (pr_uvarint_get(&p, end, &u) < 0)
                return bad(err, "truncated dictionary");
            dv[i] = pr_unzigzag(u);
        }
        for (uint64_t i = k; i < 256; i++)
            dv[i] = dv[0]; /* out-of-range indices are caught below */
        if (p >= end)
            return bad(err, "truncated dictionary");
        unsigned bits = *p++;
        if (bits != 1 && bits != 2 && bits != 4 && bits != 8)
            return bad(err, "bad index width");
        size_t nbytes = (count * bits + 7) / 8;
        if ((size_t)(end - p) < nbytes)
            return bad(err, "truncated indices");
        if (want) {
            if (expand_dict(p, count, bits, dv, k, vals) < 0)
                return bad(err, "index out of dictionary");
            if (c && check_range(c, dv, k) < 0)
                return bad(err, "value out of range");
            got = 1;
        }
        p += nbytes;
    } else {
        return bad(err, "unknown column encoding");
    }
    *pp = p;
    return got;
}

static __thread int64_t *colbuf; /* NCOLS x PR_NATIVE_BLOCK_MAX, kept for the thread */

void pr_block_decode_thread_end(void)
{
    free(colbuf);
    colbuf = NULL;
}

int pr_block_decode_cols(const unsigned char *p, size_t len, unsigned want, pr_block_cols *out,
                         pr_error *err)
{
    if (!p) /* an empty BLOB reads back as NULL from SQLite */
        return bad(err, "truncated header");
    const unsigned char *end = p + len;
    uint64_t count, ncols;
    if (pr_uvarint_get(&p, end, &count) < 0 || pr_uvarint_get(&p, end, &ncols) < 0)
        return bad(err, "truncated header");
    if (count > PR_NATIVE_BLOCK_MAX)
        return bad(err, "too many samples");
    if (ncols > 64)
        return bad(err, "too many columns");
    if (!colbuf)
        colbuf = pr_xmalloc(NCOLS * PR_NATIVE_BLOCK_MAX * sizeof *colbuf);
    /* columns an older writer lacks stay at their defaults (unknown) */
    pr_sample dflt;
    pr_sample_init(&dflt);
    out->n = (size_t)count;
    out->varying = 0;
    for (size_t ci = 0; ci < NCOLS; ci++) {
        load_column(&dflt, 1, &columns[ci], &out->konst[ci]);
        out->vals[ci] = NULL;
    }
    for (uint64_t ci = 0; ci < ncols; ci++) {
        const column *c = ci < NCOLS ? &columns[ci] : NULL; /* newer columns are skipped */
        int want_c = c && (want >> ci & 1);
        int64_t *vals = c ? colbuf + (size_t)ci * PR_NATIVE_BLOCK_MAX : NULL;
        int64_t scratch;
        int rc = decode_column(&p, end, (size_t)count, c, want_c, c ? &out->konst[ci] : &scratch,
                               vals, err);
        if (rc < 0)
            return rc;
        if (rc > 0) {
            out->vals[ci] = vals;
            out->varying |= 1u << ci;
        }
    }
    return 0;
}

void pr_block_cols_samples(const pr_block_cols *c, size_t at, size_t m, pr_sample *out)
{
    pr_sample tmpl;
    pr_sample_init(&tmpl);
    for (size_t ci = 0; ci < NCOLS; ci++)
        if (!(c->varying >> ci & 1))
            store_column(&tmpl, 1, &columns[ci], &c->konst[ci]);
    for (size_t i = 0; i < m; i++)
        out[i] = tmpl;
    for (size_t ci = 0; ci < NCOLS; ci++)
        if (c->varying >> ci & 1)
            store_column(out, m, &columns[ci], c->vals[ci] + at);
}

int pr_block_decode(const unsigned char *p, size_t len, pr_sample **out, size_t *cap, size_t *n,
                    pr_error *err)
{
    pr_block_cols c;
    int rc = pr_block_decode_cols(p, len, PR_COLS_ALL, &c, err);
    if (rc < 0)
        return rc;
    pr_sample *s = *out = pr_xgrow(*out, cap, c.n ? c.n : 1, sizeof **out);
    /* constant columns go into a template copied once per sample, the others are stored
     * after it, a cache-sized chunk at a time */
    pr_sample tmpl;
    pr_sample_init(&tmpl);
    for (size_t ci = 0; ci < NCOLS; ci++)
        store_column(&tmpl, 1, &columns[ci], &c.konst[ci]);
    for (size_t at = 0; at < c.n; at += 256) {
        size_t m = c.n - at < 256 ? c.n - at : 256;
        for (size_t i = 0; i < m; i++)
            s[at + i] = tmpl;
        for (size_t ci = 0; ci < NCOLS; ci++)
            if (c.varying >> ci & 1)
                store_column(s + at, m, &columns[ci], c.vals[ci] + at);
    }
    *n = c.n;
    return 0;
}

/* ---- stream writer --------------------------------------------------------------------- */

struct pr_native_writer {
    FILE *f;
    uint32_t strings_written; /* ids below this were written */
    pr_buf payload;
    unsigned long long total;
    int64_t start_ns, end_ns; /* of the samples written (model/sink.c's rule); PR_UNKNOWN */
    json_t *meta0;            /* the run's metadata as the header wrote it */
};

/* Widens the bounds of the samples written, as a sink widens its run's (earliest start,
 * latest start + latency, saturated): the footer states the file's own bounds. */
static void writer_widen(pr_native_writer *w, const pr_sample *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int64_t t = s[i].start_ns, lat = s[i].latency_ns, e;
        if (t == PR_UNKNOWN)
            continue;
        if (w->start_ns == PR_UNKNOWN || t < w->start_ns)
            w->start_ns = t;
        if (__builtin_add_overflow(t, lat != PR_UNKNOWN ? lat : 0, &e))
            e = lat > 0 ? INT64_MAX : t;
        if (w->end_ns == PR_UNKNOWN || e > w->end_ns)
            w->end_ns = e;
    }
}

static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static int write_frame(pr_native_writer *w, char type, const pr_buf *payload, pr_error *err)
{
    unsigned char hdr[12];
    memcpy(hdr, PR_NATIVE_MAGIC, 4);
    hdr[4] = (unsigned char)type;
    hdr[5] = PR_NATIVE_VERSION;
    hdr[6] = hdr[7] = 0;
    put_u32(hdr + 8, (uint32_t)payload->len);
    uLong crc = crc32(0L, hdr + 4, 8);
    crc = crc32(crc, (const Bytef *)payload->p, (uInt)payload->len);
    unsigned char tail[4];
    put_u32(tail, (uint32_t)crc);
    if (fwrite(hdr, 1, 12, w->f) != 12 ||
        (payload->len && fwrite(payload->p, 1, payload->len, w->f) != payload->len) ||
        fwrite(tail, 1, 4, w->f) != 4)
        return pr_error_set(err, PR_EIO, NULL, 0, 0, "write error: %s", strerror(errno));
    return 0;
}

static json_t *run_header_json(const pr_run *run)
{
    json_t *r = json_object();
    if (run->name)
        json_object_set_new(r, "name", json_string(run->name));
    if (run->tool)
        json_object_set_new(r, "tool", json_string(run->tool));
    if (run->format)
        json_object_set_new(r, "format", json_string(run->format));
    if (run->tool_version)
        json_object_set_new(r, "tool_version", json_string(run->tool_version));
    json_object_set_new(r, "load_model", json_string(pr_load_model_name(run->load_model)));
    if (!isnan(run->offered_rate))
        json_object_set_new(r, "offered_rate", json_real(run->offered_rate));
    if (run->concurrency >= 0)
        json_object_set_new(r, "concurrency", json_integer(run->concurrency));
    if (run->ntags) {
        json_t *t = json_object();
        for (size_t i = 0; i < run->ntags; i++)
            json_object_set_new(t, run->tags[i].key, json_string(run->tags[i].value));
        json_object_set_new(r, "tags", t);
    }
    if (run->meta && json_object_size(run->meta))
        json_object_set(r, "meta", run->meta);
    if (run->summary_only) {
        json_object_set_new(r, "summary_only", json_true());
        if (run->summary)
            json_object_set(r, "summary", run->summary);
    }
    return r;
}

static int write_json_frame(pr_native_writer *w, char type, json_t *doc, pr_error *err)
{
    char *text = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS);
    pr_buf_reset(&w->payload);
    pr_buf_puts(&w->payload, text);
    free(text);
    return write_frame(w, type, &w->payload, err);
}

pr_native_writer *pr_native_writer_new(FILE *f, const pr_run *run, pr_error *err)
{
    pr_native_writer *w = pr_xcalloc(1, sizeof *w);
    w->start_ns = w->end_ns = PR_UNKNOWN;
    w->f = f;
    w->strings_written = 1;
    json_t *doc = json_object();
    json_object_set_new(doc, "format", json_string("perfreport-native"));
    json_object_set_new(doc, "version", json_integer(PR_NATIVE_VERSION));
    json_t *cols = json_array();
    static const char *const names[] = {
        "start_ns",  "latency_ns", "connect_ns", "ttfb_ns", "lateness_ns", "bytes_in",
        "bytes_out", "label",      "url",        "method",  "error",       "thread",
        "attrs",     "threads",    "status",     "success", "flags"};
    for (size_t i = 0; i < NCOLS; i++)
        json_array_append_new(cols, json_string(names[i]));
    json_object_set_new(doc, "columns", cols);
    json_object_set_new(doc, "run", run_header_json(run));
    int rc = write_json_frame(w, 'H', doc, err);
    json_decref(doc);
    w->meta0 = json_deep_copy(run->meta);
    if (rc < 0) {
        json_decref(w->meta0);
        pr_buf_dispose(&w->payload);
        free(w);
        return NULL;
    }
    return w;
}

static int write_strings(pr_native_writer *w, const pr_run *run, pr_error *err)
{
    uint32_t count = pr_strtab_count(run->strings);
    if (count <= w->strings_written)
        return 0;
    pr_buf_reset(&w->payload);
    put_uv(&w->payload, count - w->strings_written);
    for (uint32_t id = w->strings_written; id < count; id++) {
        size_t len = pr_strtab_len(run->strings, id);
        put_uv(&w->payload, id);
        put_uv(&w->payload, len);
        pr_buf_append(&w->payload, pr_strtab_get(run->strings, id), len);
    }
    w->strings_written = count;
    return write_frame(w, 'T', &w->payload, err);
}

int pr_native_writer_push(void *wp, pr_run *run, const pr_sample *s, size_t n, pr_error *err)
{
    pr_native_writer *w = wp;
    int rc = write_strings(w, run, err);
    if (rc == 0)
        writer_widen(w, s, n);
    while (rc == 0 && n > 0) {
        size_t k = n < PR_NATIVE_BLOCK_MAX ? n : PR_NATIVE_BLOCK_MAX;
        pr_buf_reset(&w->payload);
        pr_block_encode(s, k, &w->payload);
        rc = write_frame(w, 'D', &w->payload, err);
        s += k;
        n -= k;
        w->total += k;
    }
    return rc;
}

int pr_native_writer_flush(pr_native_writer *w, pr_error *err)
{
    if (fflush(w->f) != 0)
        return pr_error_set(err, PR_EIO, NULL, 0, 0, "write error: %s", strerror(errno));
    return 0;
}

int pr_native_writer_close(pr_native_writer *w, const pr_run *run, pr_error *err)
{
    int rc = write_strings(w, run, err);
    if (rc == 0) {
        json_t *doc = json_object();
        json_object_set_new(doc, "samples", json_integer((json_int_t)w->total));
        /* only the metadata that changed since the header (e.g. "interrupted": true) */
        json_t *changed = json_object();
        const char *k;
        json_t *v;
        json_object_foreach (run->meta, k, v) {
            if (!json_equal(v, json_object_get(w->meta0, k)))
                json_object_set(changed, k, v);
        }
        if (json_object_size(changed))
            json_object_set_new(doc, "meta", changed);
        else
            json_decref(changed);
        if (w->start_ns != PR_UNKNOWN)
            json_object_set_new(doc, "start_ns", json_integer(w->start_ns));
        if (w->end_ns != PR_UNKNOWN)
            json_object_set_new(doc, "end_ns", json_integer(w->end_ns));
        rc = write_json_frame(w, 'F', doc, err);
        json_decref(doc);
    }
    if (rc == 0)
        rc = pr_native_writer_flush(w, err);
    pr_buf_dispose(&w->payload);
    json_decref(w->meta0);
    free(w);
    return rc;
}
