/* Streaming decoder of Go's encoding/gob: buffered cursor, message framing, type table. */
#include "parsers/gob.h"
#include "model/xalloc.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define BUF_CAP (1u << 20)    /* read buffer; every contiguous read is far smaller */
#define BYTES_MAX (64u << 10) /* longest contiguous byte string handed to callers */
#define INDEX_SIZE 8192       /* open-addressing index over type ids (> 2 * TYPES_MAX) */
#define FIRST_USER_ID 65

struct pr_gob {
    pr_input *in; /* NULL for memory decoders */
    char *name;
    unsigned char *own;     /* owned buffer (streaming decoders) */
    const unsigned char *b; /* bytes b[pos..len) are unread */
    size_t pos, len;
    size_t lim;     /* min(len, end of the current message) as an index into b */
    long long base; /* input offset of b[0] */
    int eof;
    int mapped;          /* b is a window of in's file (pr_input_window), not own */
    long long msg_start; /* offset of the current message's length prefix */
    long long msg_end;   /* offset just past the current message; -1 outside one */
    int depth;
    pr_gob_type *types; /* defined types of the current stream */
    size_t ntypes, captypes;
    int32_t index[INDEX_SIZE]; /* slot -> types index + 1, 0 empty */
    unsigned long generation;
    unsigned streams;
    int no_fast; /* tests: skip every value the checked way (pr_gob_set_fast_skip) */
    unsigned char scratch[BYTES_MAX];
};

static const pr_gob_type builtin[] = {
    {0, PR_GOB_NONE, "", 0, 0, 0, NULL, 0},
    {1, PR_GOB_BOOL, "bool", 0, 0, 0, NULL, 0},
    {2, PR_GOB_INT, "int", 0, 0, 0, NULL, 0},
    {3, PR_GOB_UINT, "uint", 0, 0, 0, NULL, 0},
    {4, PR_GOB_FLOAT, "float", 0, 0, 0, NULL, 0},
    {5, PR_GOB_BYTES, "[]byte", 0, 0, 0, NULL, 0},
    {6, PR_GOB_STRING, "string", 0, 0, 0, NULL, 0},
    {7, PR_GOB_COMPLEX, "complex", 0, 0, 0, NULL, 0},
    {8, PR_GOB_INTERFACE, "interface", 0, 0, 0, NULL, 0},
};

static pr_gob *alloc_gob(const char *name)
{
    pr_gob *g = pr_xcalloc(1, sizeof *g);
    g->name = pr_xstrdup(name);
    g->msg_end = -1;
    return g;
}

pr_gob *pr_gob_open(pr_input *in)
{
    pr_gob *g = alloc_gob(pr_input_name(in));
    g->in = in;
    /* The buffer is only written by refill (after pr_input_sync) and by pr_input_read. */
    pr_input_async_digest(in);
    /* A file is read through mmap windows: the read copy was a sixth of the ingest's time. */
    size_t n;
    const unsigned char *w = pr_input_window(in, 0, &n, &g->eof, NULL);
    if (w) {
        g->mapped = 1;
        g->b = w;
        g->len = g->lim = n;
        return g;
    }
    g->own = pr_xmalloc(BUF_CAP);
    g->b = g->own;
    return g;
}

pr_gob *pr_gob_open_mem(const char *name, const void *data, size_t len)
{
    pr_gob *g = alloc_gob(name);
    g->b = data;
    g->len = len;
    g->lim = len;
    g->eof = 1;
    return g;
}

static void clear_types(pr_gob *g)
{
    for (size_t i = 0; i < g->ntypes; i++) {
        free(g->types[i].name);
        for (size_t f = 0; f < g->types[i].nfields; f++)
            free(g->types[i].fields[f].name);
        free(g->types[i].fields);
    }
    g->ntypes = 0;
    memset(g->index, 0, sizeof g->index);
}

void pr_gob_free(pr_gob *g)
{
    if (!g)
        return;
    clear_types(g);
    free(g->types);
    if (g->in)
        pr_input_sync(g->in); /* the digest may still be reading the buffer */
    free(g->own);
    free(g->name);
    free(g);
}

unsigned long pr_gob_generation(const pr_gob *g)
{
    return g->generation;
}

unsigned pr_gob_streams(const pr_gob *g)
{
    return g->streams;
}

long long pr_gob_offset(const pr_gob *g)
{
    return g->base + (long long)g->pos;
}

long long pr_gob_msg_offset(const pr_gob *g)
{
    return g->msg_start;
}

/* ---- type table ---- */

static size_t slot_of(int64_t id)
{
    uint64_t h = (uint64_t)id * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 51) & (INDEX_SIZE - 1);
}

const pr_gob_type *pr_gob_type_get(pr_gob *g, int64_t id)
{
    if (id > 0 && id < (int64_t)(sizeof builtin / sizeof builtin[0]))
        return &builtin[id];
    for (size_t s = slot_of(id);; s = (s + 1) & (INDEX_SIZE - 1)) {
        int32_t k = g->index[s];
        if (k == 0)
            return NULL;
        if (g->types[k - 1].id == id)
            return &g->types[k - 1];
    }
}

static void add_type(pr_gob *g, pr_gob_type *t)
{
    g->types = pr_xgrow(g->types, &g->captypes, g->ntypes + 1, sizeof *g->types);
    g->types[g->ntypes++] = *t;
    size_t s = slot_of(t->id);
    while (g->index[s])
        s = (s + 1) & (INDEX_SIZE - 1);
    g->index[s] = (int32_t)g->ntypes;
    g->generation++;
}

/* ---- cursor ---- */

static int fail(pr_gob *g, pr_error *err, int code, const char *what)
{
    return pr_error_at_offset(err, code, g->name, pr_gob_offset(g), "gob: %s", what);
}

static int truncated(pr_gob *g, pr_error *err)
{
    if (g->msg_end >= 0 && g->msg_end != LLONG_MAX)
        return pr_error_at_offset(err, PR_ETRUNC, g->name, g->msg_start,
                                  "gob: input ends inside the message starting at offset %lld "
                                  "(%lld of %lld bytes present)",
                                  g->msg_start, g->base + (long long)g->len - g->msg_start,
                                  g->msg_end - g->msg_start);
    return pr_error_at_offset(err, PR_ETRUNC, g->name, g->msg_start,
                              "gob: input ends inside a message header at offset %lld",
                              g->msg_start);
}

/* Recomputes lim after the buffer or the message bounds change. */
static void update_lim(pr_gob *g)
{
    g->lim = g->len;
    if (g->msg_end >= 0 && g->msg_end != LLONG_MAX) {
        long long e = g->msg_end - g->base;
        if (e < (long long)g->len)
            g->lim = e < (long long)g->pos ? g->pos : (size_t)e;
    }
}

/* The next window of a mapped file from the first unread byte (windows are far larger than
 * BUF_CAP, so n always fits unless the file ends). */
static int refill_mapped(pr_gob *g, size_t n, pr_error *err)
{
    long long from = g->base + (long long)g->pos;
    size_t got;
    const unsigned char *w = pr_input_window(g->in, from, &got, &g->eof, err);
    if (!w)
        return PR_EIO; /* err set by pr_input_window */
    g->b = w;
    g->base = from;
    g->pos = 0;
    g->len = got;
    update_lim(g);
    if (g->len < n)
        return truncated(g, err);
    return 0;
}

/* Reads more input so that at least n unread bytes are buffered (n <= BUF_CAP). */
static int refill(pr_gob *g, size_t n, pr_error *err)
{
    if (g->eof || !g->in)
        return truncated(g, err);
    if (g->mapped)
        return refill_mapped(g, n, err);
    size_t keep = g->len - g->pos;
    pr_input_sync(g->in); /* the digest may still be reading the bytes moved or overwritten */
    if (keep && g->pos)
        memmove(g->own, g->own + g->pos, keep);
    g->base += (long long)g->pos;
    g->pos = 0;
    g->len = keep;
    while (g->len < n && !g->eof) {
        long r = pr_input_read(g->in, g->own + g->len, BUF_CAP - g->len, err);
        if (r < 0)
            return PR_EIO;
        if ((size_t)r < BUF_CAP - g->len)
            g->eof = 1;
        g->len += (size_t)r;
    }
    update_lim(g);
    if (g->len < n)
        return truncated(g, err);
    return 0;
}

/* Bytes left in the current message. */
static inline long long msg_left(const pr_gob *g)
{
    return g->msg_end - (g->base + (long long)g->pos);
}

/* Makes n contiguous bytes of the current message available at b + pos. */
static inline int need(pr_gob *g, size_t n, pr_error *err)
{
    if (g->lim - g->pos >= n)
        return 0;
    if ((long long)n > msg_left(g))
        return fail(g, err, PR_EPARSE, "value runs past the end of its message");
    if (g->len - g->pos >= n)
        return 0;
    return refill(g, n, err);
}

/* Advances over n bytes of the current message, streaming through the buffer. */
static int skip_bytes(pr_gob *g, uint64_t n, pr_error *err)
{
    if (n > (uint64_t)msg_left(g))
        return fail(g, err, PR_EPARSE, "byte count runs past the end of its message");
    for (;;) {
        size_t avail = g->len - g->pos;
        if (avail >= n) {
            g->pos += (size_t)n;
            return 0;
        }
        n -= avail;
        g->pos = g->len;
        g->lim = g->len;
        int rc = refill(g, 1, err);
        if (rc < 0)
            return rc;
    }
}

static int get_uint_slow(pr_gob *g, uint64_t *out, pr_error *err);

/* k big-endian bytes at p as an unsigned integer (k <= 8). */
static inline uint64_t be_uint(const unsigned char *p, unsigned k)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < k; i++)
        v = v << 8 | p[i];
    return v;
}

/* Decodes a gob uint at the cursor (within the message). */
static inline int get_uint(pr_gob *g, uint64_t *out, pr_error *err)
{
    if (g->pos < g->lim && g->b[g->pos] < 0x80) {
        *out = g->b[g->pos++];
        return 0;
    }
    if (g->lim - g->pos >= 9) {
        unsigned k = 256u - g->b[g->pos];
        if (k > 8)
            return get_uint_slow(g, out, err);
        *out = be_uint(g->b + g->pos + 1, k);
        g->pos += 1 + k;
        return 0;
    }
    return get_uint_slow(g, out, err);
}

static int get_uint_slow(pr_gob *g, uint64_t *out, pr_error *err)
{
    int rc = need(g, 1, err);
    if (rc < 0)
        return rc;
    unsigned b0 = g->b[g->pos];
    if (b0 < 0x80) {
        g->pos++;
        *out = b0;
        return 0;
    }
    unsigned k = 256 - b0;
    if (k > 8)
        return fail(g, err, PR_EPARSE, "uint longer than 8 bytes");
    rc = need(g, 1 + k, err);
    if (rc < 0)
        return rc;
    *out = be_uint(g->b + g->pos + 1, k);
    g->pos += 1 + k;
    return 0;
}

static inline int64_t zigzag(uint64_t u)
{
    return (u & 1) ? (int64_t) ~(u >> 1) : (int64_t)(u >> 1);
}

int pr_gob_read_uint(pr_gob *g, uint64_t *out, pr_error *err)
{
    return get_uint(g, out, err);
}

static __attribute__((noinline)) int read_int_slow(pr_gob *g, int64_t *out, pr_error *err)
{
    uint64_t u;
    int rc = get_uint_slow(g, &u, err);
    if (rc == 0)
        *out = zigzag(u);
    return rc;
}

int pr_gob_read_int(pr_gob *g, int64_t *out, pr_error *err)
{
    /* the whole uint buffered: no address-taken local, no stack frame */
    if (g->lim - g->pos >= 9 && g->b[g->pos] >= 0xF8) {
        unsigned k = 256u - g->b[g->pos];
        *out = zigzag(be_uint(g->b + g->pos + 1, k));
        g->pos += 1 + k;
        return 0;
    }
    if (g->pos < g->lim && g->b[g->pos] < 0x80) {
        *out = zigzag(g->b[g->pos++]);
        return 0;
    }
    return read_int_slow(g, out, err);
}

int pr_gob_read_bytes(pr_gob *g, const unsigned char **p, size_t *len, size_t max, pr_error *err)
{
    uint64_t n;
    int rc = get_uint(g, &n, err);
    if (rc < 0)
        return rc;
    if (n > (uint64_t)msg_left(g))
        return fail(g, err, PR_EPARSE, "byte count runs past the end of its message");
    if (max > BYTES_MAX)
        max = BYTES_MAX;
    *len = (size_t)n;
    if (n <= max && n <= g->lim - g->pos) {
        *p = g->b + g->pos;
        g->pos += (size_t)n;
        return 0;
    }
    if (n <= max) {
        if ((rc = need(g, (size_t)n, err)) < 0)
            return rc;
        *p = g->b + g->pos;
        g->pos += (size_t)n;
        return 0;
    }
    if ((rc = need(g, max, err)) < 0)
        return rc;
    memcpy(g->scratch, g->b + g->pos, max);
    g->pos += max;
    *p = g->scratch;
    return skip_bytes(g, n - max, err);
}

/* The error of pr_gob_next_field, apart so that the per-field path stays a few instructions
 * (a field is read some ten times a Vegeta result). */
static __attribute__((noinline, cold)) int bad_field(pr_gob *g, const pr_gob_type *st, uint64_t d,
                                                     pr_error *err)
{
    return pr_error_at_offset(err, PR_EPARSE, g->name, pr_gob_offset(g),
                              "gob: field delta %llu past the %zu fields of struct %s",
                              (unsigned long long)d, st->nfields,
                              st->name[0] ? st->name : "(unnamed)");
}

/* Field delta d read: the next field number, checked against the struct's field count. */
static inline int take_field(pr_gob *g, const pr_gob_type *st, long *field, uint64_t d,
                             pr_error *err)
{
    if (d == 0)
        return 0;
    if (d > (uint64_t)st->nfields || (uint64_t)(*field + 1) + d - 1 >= st->nfields)
        return bad_field(g, st, d, err);
    *field += (long)d;
    return 1;
}

static __attribute__((noinline)) int next_field_slow(pr_gob *g, const pr_gob_type *st, long *field,
                                                     pr_error *err)
{
    uint64_t d;
    int rc = get_uint_slow(g, &d, err);
    if (rc < 0)
        return rc;
    return take_field(g, st, field, d, err);
}

int pr_gob_next_field(pr_gob *g, const pr_gob_type *st, long *field, pr_error *err)
{
    /* a one-byte delta (every field of a struct of fewer than 128) without a stack frame */
    if (g->pos < g->lim && g->b[g->pos] < 0x80)
        return take_field(g, st, field, g->b[g->pos++], err);
    return next_field_slow(g, st, field, err);
}

/* Skips a length-prefixed byte string. */
static inline int skip_lenbytes(pr_gob *g, pr_error *err)
{
    uint64_t n;
    int rc = get_uint(g, &n, err);
    if (rc < 0)
        return rc;
    if (n <= g->lim - g->pos) {
        g->pos += (size_t)n;
        return 0;
    }
    return skip_bytes(g, n, err);
}

static inline int is_lenbytes(int64_t id)
{
    return id == PR_GOB_ID_BYTES || id == PR_GOB_ID_STRING;
}

/* Checks an element count against what the message can still hold (>= 1 byte each). */
static int check_count(pr_gob *g, uint64_t n, pr_error *err)
{
    if (n > (uint64_t)msg_left(g))
        return fail(g, err, PR_EPARSE, "element count larger than the rest of the message");
    return 0;
}

static int skip_value(pr_gob *g, int64_t id, pr_error *err);

/* A uint at p (before end) into *v; returns the byte after it, or NULL if it does not fit or
 * is longer than 8 bytes (the checked path then reports it). */
static inline const unsigned char *raw_uint(const unsigned char *p, const unsigned char *end,
                                            uint64_t *v)
{
    if (p >= end)
        return NULL;
    if (*p < 0x80) {
        *v = *p;
        return p + 1;
    }
    unsigned k = 256u - *p;
    if (k > 8 || (size_t)(end - p) <= k)
        return NULL;
    *v = be_uint(p + 1, k);
    return p + 1 + k;
}

/* A length-prefixed byte string at p; returns the byte after it or NULL. */
static inline const unsigned char *raw_lenbytes(const unsigned char *p, const unsigned char *end)
{
    uint64_t n;
    if (!(p = raw_uint(p, end, &n)) || n > (uint64_t)(end - p))
        return NULL;
    return p + n;
}

/* The unchecked skip of the n entries (count already read and checked) of a map with string
 * keys and string or []string values (strs), the
 * shape of http.Header that every Vegeta result carries: lengths alone, no type lookup, no
 * call per value, no cursor update until the end. It only succeeds where the whole map lies
 * in the buffered part of its message (b[pos..lim)), where the checked loop in skip_kind
 * would succeed too over the same bytes: every count and length must fit in what is left
 * (so also within check_count's bound). Returns the end of the map, or NULL to let the
 * checked loop redo it from the start and give its own error or refill. */
static const unsigned char *raw_strmap(const unsigned char *p, const unsigned char *end, uint64_t n,
                                       int strs)
{
    uint64_t k = 1;
    for (uint64_t i = 0; i < n; i++) {
        /* The common entry first: a key and (for []string) a count of 1 and a value, each
         * length in one byte; q - p counts the bytes it needs so far, checked before each
         * read. Anything else: the general steps from p. */
        if (p < end && p[0] < 0x80 && (size_t)(end - p) > (size_t)p[0] + 1 + (size_t)strs) {
            const unsigned char *q = p + 1 + p[0];
            if (strs && q[0] == 1)
                q++;
            else if (strs)
                q = NULL;
            if (q && q[0] < 0x80 && (size_t)(end - q) > q[0]) {
                p = q + 1 + q[0];
                continue;
            }
        }
        if (!(p = raw_lenbytes(p, end)))
            return NULL;
        if (strs && (!(p = raw_uint(p, end, &k)) || k > (uint64_t)(end - p)))
            return NULL;
        for (uint64_t j = 0; j < k; j++)
            if (!(p = raw_lenbytes(p, end)))
                return NULL;
    }
    return p;
}

static int skip_kind(pr_gob *g, const pr_gob_type *t, pr_error *err)
{
    uint64_t u, n;
    int rc;
    switch (t->kind) {
    case PR_GOB_BOOL:
    case PR_GOB_INT:
    case PR_GOB_UINT:
    case PR_GOB_FLOAT: return get_uint(g, &u, err);
    case PR_GOB_COMPLEX:
        if ((rc = get_uint(g, &u, err)) < 0)
            return rc;
        return get_uint(g, &u, err);
    case PR_GOB_BYTES:
    case PR_GOB_STRING:
    case PR_GOB_GOBENCODER:
    case PR_GOB_BINARY:
    case PR_GOB_TEXT:
        if ((rc = get_uint(g, &n, err)) < 0)
            return rc;
        return skip_bytes(g, n, err);
    case PR_GOB_INTERFACE:
        if ((rc = get_uint(g, &n, err)) < 0)
            return rc;
        if (n == 0)
            return 0; /* nil interface */
        if ((rc = skip_bytes(g, n, err)) < 0 || (rc = get_uint(g, &u, err)) < 0 ||
            (rc = get_uint(g, &n, err)) < 0)
            return rc;
        return skip_bytes(g, n, err);
    case PR_GOB_ARRAY:
    case PR_GOB_SLICE:
        if ((rc = get_uint(g, &n, err)) < 0 || (rc = check_count(g, n, err)) < 0)
            return rc;
        if (is_lenbytes(t->elem)) {
            for (uint64_t i = 0; i < n; i++)
                if ((rc = skip_lenbytes(g, err)) < 0)
                    return rc;
            return 0;
        }
        for (uint64_t i = 0; i < n; i++)
            if ((rc = skip_value(g, t->elem, err)) < 0)
                return rc;
        return 0;
    case PR_GOB_MAP:
        if ((rc = get_uint(g, &n, err)) < 0 || (rc = check_count(g, n, err)) < 0)
            return rc;
        if (is_lenbytes(t->key)) {
            /* map[string][]string (http.Header) and map[string]string: no recursion. */
            const pr_gob_type *et = pr_gob_type_get(g, t->elem);
            int strs = et && et->kind == PR_GOB_SLICE && is_lenbytes(et->elem);
            if (strs || is_lenbytes(t->elem)) {
                const unsigned char *e =
                    g->no_fast ? NULL : raw_strmap(g->b + g->pos, g->b + g->lim, n, strs);
                if (e) {
                    g->pos = (size_t)(e - g->b);
                    return 0;
                }
                for (uint64_t i = 0; i < n; i++) {
                    if ((rc = skip_lenbytes(g, err)) < 0)
                        return rc;
                    uint64_t k = 1;
                    if (strs &&
                        ((rc = get_uint(g, &k, err)) < 0 || (rc = check_count(g, k, err)) < 0))
                        return rc;
                    for (uint64_t j = 0; j < k; j++)
                        if ((rc = skip_lenbytes(g, err)) < 0)
                            return rc;
                }
                return 0;
            }
        }
        for (uint64_t i = 0; i < n; i++) {
            rc = is_lenbytes(t->key) ? skip_lenbytes(g, err) : skip_value(g, t->key, err);
            if (rc < 0 || (rc = skip_value(g, t->elem, err)) < 0)
                return rc;
        }
        return 0;
    case PR_GOB_STRUCT: {
        long f = -1;
        while ((rc = pr_gob_next_field(g, t, &f, err)) == 1) {
            int64_t fid = t->fields[f].id;
            rc = is_lenbytes(fid) ? skip_lenbytes(g, err) : skip_value(g, fid, err);
            if (rc < 0)
                return rc;
        }
        return rc;
    }
    case PR_GOB_NONE: break;
    }
    return fail(g, err, PR_EPARSE, "value of an unknown kind");
}

static int skip_value(pr_gob *g, int64_t id, pr_error *err)
{
    const pr_gob_type *t = pr_gob_type_get(g, id);
    if (!t)
        return pr_error_at_offset(err, PR_EFORMAT, g->name, pr_gob_offset(g),
                                  "gob: value uses type id %lld, which the stream never defines",
                                  (long long)id);
    if (g->depth >= PR_GOB_DEPTH_MAX)
        return fail(g, err, PR_EPARSE, "values nested too deeply");
    g->depth++;
    int rc = skip_kind(g, t, err);
    g->depth--;
    return rc;
}

int pr_gob_skip(pr_gob *g, int64_t id, pr_error *err)
{
    /* Fast paths for the common leaf types (built in: always defined; no nesting). */
    if (is_lenbytes(id))
        return skip_lenbytes(g, err);
    if (id >= PR_GOB_ID_BOOL && id <= PR_GOB_ID_FLOAT && !g->no_fast) {
        uint64_t u;
        return get_uint(g, &u, err);
    }
    return skip_value(g, id, err);
}

void pr_gob_set_fast_skip(pr_gob *g, int on)
{
    g->no_fast = !on;
}

int pr_gob_skip_op(pr_gob *g, int64_t id)
{
    if (is_lenbytes(id))
        return PR_GOB_OP_SKIP_BYTES;
    if (id >= PR_GOB_ID_BOOL && id <= PR_GOB_ID_FLOAT)
        return PR_GOB_OP_SKIP_UINT;
    const pr_gob_type *t = pr_gob_type_get(g, id);
    if (!t || t->kind != PR_GOB_MAP || !is_lenbytes(t->key))
        return PR_GOB_OP_NONE;
    if (is_lenbytes(t->elem))
        return PR_GOB_OP_SKIP_STRMAP;
    const pr_gob_type *et = pr_gob_type_get(g, t->elem);
    return et && et->kind == PR_GOB_SLICE && is_lenbytes(et->elem) ? PR_GOB_OP_SKIP_STRSMAP
                                                                   : PR_GOB_OP_NONE;
}

int pr_gob_read_struct(pr_gob *g, const pr_gob_type *t, const unsigned char *ops, const size_t *max,
                       pr_gob_val *out, uint64_t *present)
{
    if (g->no_fast || t->nfields > PR_GOB_READ_STRUCT_MAX)
        return 0;
    /* as the walk, but every count and length within the buffered part of the message
     * (b[pos..lim)), where the walk succeeds over the same bytes; anything else: the walk */
    const unsigned char *p = g->b + g->pos, *end = g->b + g->lim;
    uint64_t seen = 0, d, n;
    long f = -1;
    for (;;) {
        if (!(p = raw_uint(p, end, &d)))
            return 0;
        if (d == 0)
            break;
        if (d > (uint64_t)t->nfields || (uint64_t)(f + 1) + d - 1 >= t->nfields)
            return 0;
        f += (long)d;
        switch (ops[f]) {
        case PR_GOB_OP_UINT:
            if (!(p = raw_uint(p, end, &out[f].u)))
                return 0;
            break;
        case PR_GOB_OP_INT:
            if (!(p = raw_uint(p, end, &n)))
                return 0;
            out[f].i = zigzag(n);
            break;
        case PR_GOB_OP_BYTES:
            if (!(p = raw_uint(p, end, &n)) || n > (uint64_t)(end - p) || n > max[f])
                return 0;
            out[f].p = p;
            out[f].n = (size_t)n;
            p += n;
            break;
        case PR_GOB_OP_SKIP_UINT:
            if (!(p = raw_uint(p, end, &n)))
                return 0;
            break;
        case PR_GOB_OP_SKIP_BYTES:
            if (!(p = raw_lenbytes(p, end)))
                return 0;
            break;
        case PR_GOB_OP_SKIP_STRMAP:
        case PR_GOB_OP_SKIP_STRSMAP:
            if (!(p = raw_uint(p, end, &n)) || n > (uint64_t)(end - p) ||
                !(p = raw_strmap(p, end, n, ops[f] == PR_GOB_OP_SKIP_STRSMAP)))
                return 0;
            break;
        default: return 0;
        }
        seen |= (uint64_t)1 << f;
    }
    g->pos = (size_t)(p - g->b);
    *present = seen;
    return 1;
}

size_t pr_gob_mark(const pr_gob *g)
{
    return g->pos;
}

void pr_gob_back(pr_gob *g, size_t mark)
{
    g->pos = mark;
}

int pr_gob_skip_message(pr_gob *g, pr_error *err)
{
    if (g->msg_end < 0)
        return 0;
    long long left = msg_left(g);
    int rc = left > 0 ? skip_bytes(g, (uint64_t)left, err) : 0;
    if (rc == 0) {
        g->msg_end = -1;
        update_lim(g);
    }
    return rc;
}

/* ---- definitions (wireType) ---- */

static int get_int(pr_gob *g, int64_t *out, pr_error *err)
{
    return pr_gob_read_int(g, out, err);
}

/* Reads a delta-coded struct field number: returns 1 with *f, 0 at the end. */
static int next_field(pr_gob *g, long *f, long nfields, pr_error *err)
{
    uint64_t d;
    int rc = get_uint(g, &d, err);
    if (rc < 0)
        return rc;
    if (d == 0)
        return 0;
    if (d > (uint64_t)nfields || *f + (long)d >= nfields)
        return fail(g, err, PR_EPARSE, "bad field number in a type definition");
    *f += (long)d;
    return 1;
}

static int get_name(pr_gob *g, char **out, pr_error *err)
{
    const unsigned char *p;
    size_t n;
    int rc = pr_gob_read_bytes(g, &p, &n, PR_GOB_NAME_MAX, err);
    if (rc < 0)
        return rc;
    if (n > PR_GOB_NAME_MAX)
        return fail(g, err, PR_EPARSE, "name in a type definition is too long");
    free(*out);
    *out = pr_xstrndup((const char *)p, n);
    return 0;
}

/* CommonType{Name string, Id int} */
static int read_common(pr_gob *g, pr_gob_type *t, pr_error *err)
{
    long f = -1;
    int rc;
    while ((rc = next_field(g, &f, 2, err)) == 1) {
        int64_t id;
        if (f == 0)
            rc = get_name(g, &t->name, err);
        else
            rc = get_int(g, &id, err);
        if (rc < 0)
            return rc;
    }
    return rc;
}

/* fieldType{Name string, Id int} */
static int read_fieldtype(pr_gob *g, pr_gob_field *fd, pr_error *err)
{
    long f = -1;
    int rc;
    while ((rc = next_field(g, &f, 2, err)) == 1) {
        rc = f == 0 ? get_name(g, &fd->name, err) : get_int(g, &fd->id, err);
        if (rc < 0)
            return rc;
    }
    return rc;
}

/* The body of one of wireType's fields: arrayType, sliceType, structType, mapType or
 * gobEncoderType, all starting with CommonType. */
static int read_typedef(pr_gob *g, pr_gob_type *t, int which, pr_error *err)
{
    static const long nfields[] = {3, 2, 2, 3, 1, 1, 1};
    long f = -1;
    int rc;
    long nf = nfields[which];
    while ((rc = next_field(g, &f, nf, err)) == 1) {
        if (f == 0) {
            rc = read_common(g, t, err);
        } else if (which == 2 && f == 1) {
            uint64_t n;
            if ((rc = get_uint(g, &n, err)) < 0)
                return rc;
            if (n > PR_GOB_FIELDS_MAX)
                return fail(g, err, PR_EPARSE, "struct type with too many fields");
            if ((rc = check_count(g, n, err)) < 0)
                return rc;
            for (size_t i = 0; i < t->nfields; i++)
                free(t->fields[i].name);
            free(t->fields);
            t->fields = pr_xcalloc(n ? (size_t)n : 1, sizeof *t->fields);
            t->nfields = (size_t)n;
            for (size_t i = 0; i < n && rc >= 0; i++)
                rc = read_fieldtype(g, &t->fields[i], err);
        } else if (which == 0) {
            rc = get_int(g, f == 1 ? &t->elem : &t->len, err);
        } else if (which == 1) {
            rc = get_int(g, &t->elem, err);
        } else { /* map */
            rc = get_int(g, f == 1 ? &t->key : &t->elem, err);
        }
        if (rc < 0)
            return rc;
    }
    return rc;
}

static void free_type(pr_gob_type *t)
{
    free(t->name);
    for (size_t i = 0; i < t->nfields; i++)
        free(t->fields[i].name);
    free(t->fields);
}

static int read_definition(pr_gob *g, int64_t id, pr_error *err)
{
    static const pr_gob_kind kinds[] = {PR_GOB_ARRAY,      PR_GOB_SLICE,  PR_GOB_STRUCT, PR_GOB_MAP,
                                        PR_GOB_GOBENCODER, PR_GOB_BINARY, PR_GOB_TEXT};
    if (id < FIRST_USER_ID)
        return pr_error_at_offset(err, PR_EPARSE, g->name, g->msg_start,
                                  "gob: definition of reserved type id %lld", (long long)id);
    pr_gob_type t;
    memset(&t, 0, sizeof t);
    t.id = id;
    long f = -1;
    int rc = next_field(g, &f, 7, err);
    if (rc == 0)
        rc = fail(g, err, PR_EPARSE, "empty type definition");
    if (rc < 0)
        return rc;
    t.kind = kinds[f];
    rc = read_typedef(g, &t, (int)f, err);
    if (rc == 0 && (rc = next_field(g, &f, 7, err)) > 0)
        rc = fail(g, err, PR_EPARSE, "type definition with more than one kind");
    if (rc < 0) {
        free_type(&t);
        return rc;
    }
    if (!t.name)
        t.name = pr_xstrdup("");
    if ((t.kind == PR_GOB_ARRAY || t.kind == PR_GOB_SLICE || t.kind == PR_GOB_MAP) &&
        (t.elem <= 0 || (t.kind == PR_GOB_MAP && t.key <= 0))) {
        free_type(&t);
        return pr_error_at_offset(err, PR_EPARSE, g->name, g->msg_start,
                                  "gob: definition of type %lld lacks its element type",
                                  (long long)id);
    }
    if (pr_gob_type_get(g, id)) {
        /* A second stream (e.g. two files joined with cat): start a fresh table. */
        clear_types(g);
        g->streams++;
        g->generation++;
    } else if (g->streams == 0) {
        g->streams = 1;
    }
    if (g->ntypes >= PR_GOB_TYPES_MAX) {
        free_type(&t);
        return pr_error_at_offset(err, PR_EPARSE, g->name, g->msg_start,
                                  "gob: more than %d type definitions", PR_GOB_TYPES_MAX);
    }
    add_type(g, &t);
    return 0;
}

/* ---- messages ---- */

int pr_gob_next(pr_gob *g, int64_t *type_id, pr_error *err)
{
    int rc;
    for (;;) {
        if ((rc = pr_gob_skip_message(g, err)) < 0)
            return rc;
        g->msg_start = pr_gob_offset(g);
        if (g->pos == g->len) {
            if (g->eof || !g->in)
                return 0;
            g->msg_end = -1;
            long r = pr_input_read(g->in, g->own, BUF_CAP, err);
            if (r < 0)
                return PR_EIO;
            g->base += (long long)g->len;
            g->pos = 0;
            g->len = (size_t)r;
            if ((size_t)r < BUF_CAP)
                g->eof = 1;
            update_lim(g);
            if (r == 0)
                return 0;
        }
        /* Message header: uint length, then the int type id (inside the length). */
        g->msg_end = LLONG_MAX;
        update_lim(g);
        uint64_t n;
        if ((rc = get_uint(g, &n, err)) < 0) {
            g->msg_end = -1;
            update_lim(g);
            return rc;
        }
        if (n == 0 || n > (uint64_t)PR_GOB_MSG_MAX) {
            g->msg_end = -1;
            update_lim(g);
            return pr_error_at_offset(err, PR_EPARSE, g->name, g->msg_start,
                                      "gob: message length %llu at offset %lld is out of range",
                                      (unsigned long long)n, g->msg_start);
        }
        g->msg_end = pr_gob_offset(g) + (long long)n;
        update_lim(g);
        g->depth = 0;
        int64_t id = 0;
        if ((rc = get_int(g, &id, err)) < 0)
            return rc;
        if (id < 0) {
            if (id == INT64_MIN)
                return fail(g, err, PR_EPARSE, "bad type id");
            if ((rc = read_definition(g, -id, err)) < 0)
                return rc;
            if (msg_left(g) != 0)
                return pr_error_at_offset(err, PR_EPARSE, g->name, g->msg_start,
                                          "gob: type definition at offset %lld does not fill "
                                          "its message",
                                          g->msg_start);
            continue;
        }
        const pr_gob_type *t = pr_gob_type_get(g, id);
        if (!t || id == 0)
            return pr_error_at_offset(err, PR_EFORMAT, g->name, g->msg_start,
                                      "gob: value of type id %lld, which the stream never "
                                      "defines",
                                      (long long)id);
        if (t->kind != PR_GOB_STRUCT) {
            uint64_t zero;
            if ((rc = get_uint(g, &zero, err)) < 0)
                return rc;
            if (zero != 0)
                return fail(g, err, PR_EPARSE, "non-struct value without its 0 field marker");
        }
        *type_id = id;
        return 1;
    }
}
