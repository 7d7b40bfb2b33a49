/* Unit tests: the gob decoder on hand-built streams (definitions out of order, omitted and
 * unknown fields, restarts, truncation, bounds). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/input.h"
#include "parsers/gob.h"

/* A tiny gob writer for building test streams. */
typedef struct w {
    unsigned char b[1 << 17]; /* the random values of the fast-skip test reach ~30 KiB */
    size_t n;
} w;

/* Ends of the messages written last (for the truncation test). */
static size_t msg_ends[64];
static size_t nmsg_ends;

static void put_uint(w *x, uint64_t v)
{
    if (v < 0x80) {
        x->b[x->n++] = (unsigned char)v;
        return;
    }
    unsigned char tmp[8];
    int k = 0;
    while (v) {
        tmp[k++] = (unsigned char)v;
        v >>= 8;
    }
    x->b[x->n++] = (unsigned char)(256 - k);
    while (k)
        x->b[x->n++] = tmp[--k];
}

static void put_int(w *x, int64_t i)
{
    put_uint(x, i < 0 ? ((uint64_t)~i << 1) | 1 : (uint64_t)i << 1);
}

static void put_str(w *x, const char *s)
{
    put_uint(x, strlen(s));
    memcpy(x->b + x->n, s, strlen(s));
    x->n += strlen(s);
}

/* Appends message (type id + payload) with its length prefix to out. */
static void message(w *out, int64_t id, const w *payload)
{
    w tmp = {{0}, 0};
    put_int(&tmp, id);
    memcpy(tmp.b + tmp.n, payload->b, payload->n);
    tmp.n += payload->n;
    put_uint(out, tmp.n);
    memcpy(out->b + out->n, tmp.b, tmp.n);
    out->n += tmp.n;
    if (nmsg_ends < 64)
        msg_ends[nmsg_ends++] = out->n;
}

/* wireType{StructT: structType{CommonType{name, id}, Field: [...]}} */
static void def_struct(w *out, int64_t id, const char *name, const char *const *fields,
                       const int64_t *ids, size_t nf)
{
    w p = {{0}, 0};
    put_uint(&p, 3); /* StructT */
    put_uint(&p, 1); /* CommonType */
    put_uint(&p, 1);
    put_str(&p, name);
    put_uint(&p, 1);
    put_int(&p, id);
    put_uint(&p, 0);
    put_uint(&p, 1); /* Field */
    put_uint(&p, nf);
    for (size_t i = 0; i < nf; i++) {
        put_uint(&p, 1);
        put_str(&p, fields[i]);
        put_uint(&p, 1);
        put_int(&p, ids[i]);
        put_uint(&p, 0);
    }
    put_uint(&p, 0);
    put_uint(&p, 0);
    message(out, -id, &p);
}

static void def_slice(w *out, int64_t id, int64_t elem)
{
    w p = {{0}, 0};
    put_uint(&p, 2); /* SliceT */
    put_uint(&p, 1); /* CommonType, name omitted */
    put_uint(&p, 2);
    put_int(&p, id);
    put_uint(&p, 0);
    put_uint(&p, 1);
    put_int(&p, elem);
    put_uint(&p, 0);
    put_uint(&p, 0);
    message(out, -id, &p);
}

/* Rec{Name string, Tags []string (66), Sub Sub (67), N int}; Sub{X uint}; 66 defined last. */
static void build_stream(w *out, int with_defs, const char *name, int64_t n)
{
    static const char *const rf[] = {"Name", "Tags", "Sub", "N"};
    static const int64_t rid[] = {6, 66, 67, 2};
    static const char *const sf[] = {"X"};
    static const int64_t sid[] = {3};
    if (with_defs) {
        def_struct(out, 65, "Rec", rf, rid, 4);
        def_struct(out, 67, "Sub", sf, sid, 1);
        def_slice(out, 66, 6);
    }
    w v = {{0}, 0};
    put_uint(&v, 1);
    put_str(&v, name);
    put_uint(&v, 1); /* Tags */
    put_uint(&v, 2);
    put_str(&v, "x");
    put_str(&v, "yy");
    put_uint(&v, 1); /* Sub */
    put_uint(&v, 1);
    put_uint(&v, 300);
    put_uint(&v, 0);
    if (n) {
        put_uint(&v, 1);
        put_int(&v, n);
    }
    put_uint(&v, 0);
    message(out, 65, &v);
}

/* Reads one Rec value: returns its Name and N, skipping Tags and Sub. */
static int read_rec(pr_gob *g, char *name, int64_t *n, pr_error *err)
{
    int64_t id;
    int rc = pr_gob_next(g, &id, err);
    if (rc != 1)
        return rc;
    const pr_gob_type *t = pr_gob_type_get(g, id);
    assert_non_null(t);
    long f = -1;
    *n = 0;
    name[0] = 0;
    while ((rc = pr_gob_next_field(g, t, &f, err)) == 1) {
        const char *fn = t->fields[f].name;
        if (strcmp(fn, "Name") == 0) {
            const unsigned char *p;
            size_t len;
            if ((rc = pr_gob_read_bytes(g, &p, &len, 100, err)) < 0)
                return rc;
            memcpy(name, p, len);
            name[len] = 0;
        } else if (strcmp(fn, "N") == 0) {
            if ((rc = pr_gob_read_int(g, n, err)) < 0)
                return rc;
        } else {
            rc = pr_gob_skip(g, t->fields[f].id, err);
            if (rc < 0)
                return rc;
        }
    }
    return rc < 0 ? rc : 1;
}

static void test_gob__out_of_order_definitions(void **st)
{
    w s = {{0}, 0};
    build_stream(&s, 1, "first", -3);
    build_stream(&s, 0, "second", 0); /* N omitted: stays zero */
    pr_gob *g = pr_gob_open_mem("t", s.b, s.n);
    pr_error err;
    char name[128];
    int64_t n;
    assert_int_equal(read_rec(g, name, &n, &err), 1);
    assert_string_equal(name, "first");
    assert_int_equal(n, -3);
    const pr_gob_type *t = pr_gob_type_get(g, 65);
    assert_int_equal(t->kind, PR_GOB_STRUCT);
    assert_string_equal(t->name, "Rec");
    assert_int_equal(t->nfields, 4);
    assert_string_equal(t->fields[2].name, "Sub");
    assert_int_equal(pr_gob_type_get(g, 66)->kind, PR_GOB_SLICE);
    assert_int_equal(pr_gob_type_get(g, 66)->elem, 6);
    assert_int_equal(read_rec(g, name, &n, &err), 1);
    assert_string_equal(name, "second");
    assert_int_equal(n, 0);
    int64_t id;
    assert_int_equal(pr_gob_next(g, &id, &err), 0);
    assert_int_equal(pr_gob_streams(g), 1);
    pr_gob_free(g);
}

static void test_gob__restart_on_redefinition(void **st)
{
    w s = {{0}, 0};
    build_stream(&s, 1, "a", 1);
    build_stream(&s, 1, "b", 2); /* second stream: same ids defined again */
    pr_gob *g = pr_gob_open_mem("t", s.b, s.n);
    pr_error err;
    char name[128];
    int64_t n;
    assert_int_equal(read_rec(g, name, &n, &err), 1);
    unsigned long gen = pr_gob_generation(g);
    assert_int_equal(read_rec(g, name, &n, &err), 1);
    assert_string_equal(name, "b");
    assert_int_equal(n, 2);
    assert_true(pr_gob_generation(g) != gen);
    assert_int_equal(pr_gob_streams(g), 2);
    pr_gob_free(g);
}

static void test_gob__truncated_every_cut(void **st)
{
    w s = {{0}, 0};
    nmsg_ends = 0;
    build_stream(&s, 1, "a", 1);
    size_t first_end = s.n;
    build_stream(&s, 0, "b", 2);
    for (size_t cut = 0; cut < s.n; cut++) {
        pr_gob *g = pr_gob_open_mem("t", s.b, cut);
        pr_error err;
        pr_error_clear(&err);
        char name[128];
        int64_t n;
        int got = 0, rc;
        while ((rc = read_rec(g, name, &n, &err)) == 1)
            got++;
        int boundary = cut == 0;
        for (size_t i = 0; i < nmsg_ends; i++)
            boundary |= msg_ends[i] == cut;
        if (boundary) {
            assert_int_equal(rc, 0);
        } else {
            assert_int_equal(rc, PR_ETRUNC);
            assert_true(err.offset >= 0 && (size_t)err.offset < cut);
        }
        assert_int_equal(got, cut >= first_end ? 1 : 0);
        pr_gob_free(g);
    }
}

static void test_gob__bounds(void **st)
{
    pr_error err;
    int64_t id;
    /* Message length beyond the cap. */
    static const unsigned char huge[] = {0xFB, 0x10, 0x00, 0x00, 0x00, 0x00, 0x01};
    pr_gob *g = pr_gob_open_mem("t", huge, sizeof huge);
    assert_int_equal(pr_gob_next(g, &id, &err), PR_EPARSE);
    pr_gob_free(g);
    /* A uint with 9 bytes. */
    static const unsigned char wide[] = {0xF7, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    g = pr_gob_open_mem("t", wide, sizeof wide);
    assert_int_equal(pr_gob_next(g, &id, &err), PR_EPARSE);
    pr_gob_free(g);
    /* A value of a type never defined. */
    static const unsigned char undef[] = {0x03, 0xFF, 0x82, 0x00};
    g = pr_gob_open_mem("t", undef, sizeof undef);
    assert_int_equal(pr_gob_next(g, &id, &err), PR_EFORMAT);
    assert_non_null(strstr(err.msg, "never defines"));
    pr_gob_free(g);
    /* A slice claiming more elements than its message holds. */
    w s = {{0}, 0};
    def_slice(&s, 65, 6);
    w v = {{0}, 0};
    put_uint(&v, 0);       /* singleton marker of a non-struct value */
    put_uint(&v, 1000000); /* count */
    message(&s, 65, &v);
    g = pr_gob_open_mem("t", s.b, s.n);
    assert_int_equal(pr_gob_next(g, &id, &err), 1);
    assert_int_equal(pr_gob_skip(g, id, &err), PR_EPARSE);
    pr_gob_free(g);
    /* A definition of a reserved id. */
    w r = {{0}, 0};
    def_slice(&r, 20, 6);
    g = pr_gob_open_mem("t", r.b, r.n);
    assert_int_equal(pr_gob_next(g, &id, &err), PR_EPARSE);
    pr_gob_free(g);
}

static void test_gob__recursive_type_depth(void **st)
{
    /* Node{Next []Node}: a value nested 100 deep must be refused, not overflow the stack. */
    static const char *const f[] = {"Next"};
    static const int64_t ids[] = {66};
    w s = {{0}, 0};
    def_struct(&s, 65, "Node", f, ids, 1);
    def_slice(&s, 66, 65);
    w v = {{0}, 0};
    for (int i = 0; i < 100; i++) {
        put_uint(&v, 1);
        put_uint(&v, 1);
    }
    for (int i = 0; i < 101; i++)
        put_uint(&v, 0);
    message(&s, 65, &v);
    pr_gob *g = pr_gob_open_mem("t", s.b, s.n);
    pr_error err;
    int64_t id;
    assert_int_equal(pr_gob_next(g, &id, &err), 1);
    assert_int_equal(pr_gob_skip(g, id, &err), PR_EPARSE);
    assert_non_null(strstr(err.msg, "nested"));
    pr_gob_free(g);
}

/* ---- the unchecked skips against the checked walk, on random values ---- */

static uint64_t rng_state = 0x243F6A8885A308D3ull;

static uint64_t rnd(uint64_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state % n;
}

/* wireType{MapT: mapType{CommonType{name, id}, Key, Elem}} */
static void def_map(w *out, int64_t id, int64_t key, int64_t elem)
{
    w p = {{0}, 0};
    put_uint(&p, 4); /* MapT */
    put_uint(&p, 1); /* CommonType */
    put_uint(&p, 1);
    put_str(&p, "M");
    put_uint(&p, 1);
    put_int(&p, id);
    put_uint(&p, 0);
    put_uint(&p, 1);
    put_int(&p, key);
    put_uint(&p, 1);
    put_int(&p, elem);
    put_uint(&p, 0);
    put_uint(&p, 0);
    message(out, -id, &p);
}

/* A random string: mostly short, sometimes longer than 127 bytes (a two-byte length). */
static void rnd_str(w *v)
{
    /* lengths from 0 to 207, the one-byte lengths' edge (127, 128) among them */
    size_t k = rnd(16);
    size_t n = k == 0 ? 128 + rnd(80) : k == 1 ? 126 + rnd(3) : rnd(20);
    put_uint(v, n);
    for (size_t i = 0; i < n; i++)
        v->b[v->n++] = (unsigned char)rnd(256);
}

static void rnd_strs(w *v)
{
    size_t n = rnd(4);
    put_uint(v, n);
    for (size_t i = 0; i < n; i++)
        rnd_str(v);
}

/* map[string][]string (strs) or map[string]string */
static void rnd_strmap(w *v, int strs)
{
    size_t n = rnd(7);
    put_uint(v, n);
    for (size_t i = 0; i < n; i++) {
        rnd_str(v);
        if (strs)
            rnd_strs(v);
        else
            rnd_str(v);
    }
}

/* Top{M map[string][]string, S map[string]string, L []string, I interface{},
 *     N map[string]map[string][]string, U uint, B []byte, K map[int][]string}
 * 65 Top, 66 map[string][]string, 67 []string, 68 map[string]string,
 * 69 map[string]66, 70 map[int]67. Fields present at random. */
static void rnd_top(w *v)
{
    long prev = -1;
    long last = rnd(4) ? 8 : 5; /* a quarter end with the maps, right before the next message */
    for (long f = 0; f < last; f++) {
        if (rnd(3) == 0)
            continue;
        put_uint(v, (uint64_t)(f - prev));
        prev = f;
        switch (f) {
        case 0: rnd_strmap(v, 1); break;
        case 1: rnd_strmap(v, 0); break;
        case 2: rnd_strs(v); break;
        case 3: /* interface: name, type id, then the value's bytes with their length */
            put_str(v, "string");
            put_int(v, 6);
            put_uint(v, 2);
            put_uint(v, 1);
            v->b[v->n++] = 'x';
            break;
        case 4: {
            size_t n = rnd(4);
            put_uint(v, n);
            for (size_t i = 0; i < n; i++) {
                rnd_str(v);
                rnd_strmap(v, 1);
            }
            break;
        }
        case 5: put_uint(v, rnd(2) ? rnd(100) : rnd(1u << 30)); break;
        case 6: rnd_str(v); break;
        default: {
            size_t n = rnd(4);
            put_uint(v, n);
            for (size_t i = 0; i < n; i++) {
                put_int(v, (int64_t)rnd(1000) - 500);
                rnd_strs(v);
            }
        }
        }
    }
    put_uint(v, 0);
}

typedef struct skip_result {
    int rc;
    long long offset, err_offset;
    char msg[1024];
} skip_result;

/* Decodes data up to the first Top value (over memory, or streamed through pr_input in
 * 1 MiB refills) and skips it, fast skips on or off. */
static void skip_top(const unsigned char *data, size_t len, int streamed, int fast,
                     skip_result *out)
{
    pr_input *in = streamed ? pr_input_mem("t", data, len) : NULL;
    pr_gob *g = streamed ? pr_gob_open(in) : pr_gob_open_mem("t", data, len);
    pr_gob_set_fast_skip(g, fast);
    pr_error err;
    pr_error_clear(&err);
    int64_t id = 0;
    int rc;
    while ((rc = pr_gob_next(g, &id, &err)) == 1 && id != 65)
        ;
    if (rc == 1)
        rc = pr_gob_skip(g, id, &err);
    out->rc = rc;
    out->offset = pr_gob_offset(g);
    out->err_offset = rc < 0 ? err.offset : 0;
    snprintf(out->msg, sizeof out->msg, "%s", rc < 0 ? err.msg : "");
    pr_gob_free(g);
    pr_input_close(in);
}

static void top_defs(w *defs)
{
    defs->n = 0;
    def_map(defs, 66, 6, 67);
    def_slice(defs, 67, 6);
    def_map(defs, 68, 6, 6);
    def_map(defs, 69, 6, 66);
    def_map(defs, 70, 2, 67);
    static const char *const tf[] = {"M", "S", "L", "I", "N", "U", "B", "K"};
    static const int64_t tid[] = {66, 68, 67, 8, 69, 3, 5, 70};
    def_struct(defs, 65, "Top", tf, tid, 8);
}

/* Top{M: {"k": ["abc"]}} then a 30-byte []byte message; the last string's length made too
 * long by 1..29 bytes: the bytes are there in the buffer (the next message's) but past the
 * value's message, so both ways must refuse it, at the same place. */
static void test_gob__fast_skip_stays_in_its_message(void **st)
{
    (void)st;
    static w s, v, tail;
    for (int extra = 1; extra < 30; extra++) {
        top_defs(&s);
        v.n = 0;
        put_uint(&v, 1);
        put_uint(&v, 1);
        put_str(&v, "k");
        put_uint(&v, 1);
        put_uint(&v, 3 + (uint64_t)extra);
        memcpy(v.b + v.n, "abc", 3);
        v.n += 3;
        put_uint(&v, 0);
        message(&s, 65, &v);
        tail.n = 0;
        put_uint(&tail, 0);
        put_uint(&tail, 30);
        memset(tail.b + tail.n, 0, 30);
        tail.n += 30;
        message(&s, 5, &tail);
        for (int streamed = 0; streamed < 2; streamed++) {
            skip_result fast, checked;
            skip_top(s.b, s.n, streamed, 1, &fast);
            skip_top(s.b, s.n, streamed, 0, &checked);
            assert_int_equal(checked.rc, PR_EPARSE);
            assert_non_null(strstr(checked.msg, "past the end of its message"));
            assert_int_equal(fast.rc, checked.rc);
            assert_int_equal(fast.offset, checked.offset);
            assert_int_equal(fast.err_offset, checked.err_offset);
            assert_string_equal(fast.msg, checked.msg);
        }
    }
}

static void test_gob__fast_skip_matches_checked(void **st)
{
    (void)st;
    enum { CASES = 2000, FILL_CAP = (1 << 20) + 4096 };
    static w defs, v, msg;
    top_defs(&defs);
    unsigned char *data = malloc(FILL_CAP + sizeof msg.b + sizeof defs.b);
    assert_non_null(data);
    int intact_streamed = 0;
    for (int c = 0; c < CASES; c++) {
        v.n = 0;
        rnd_top(&v);
        msg.n = 0;
        message(&msg, 65, &v);
        /* defs, then (streamed cases) a []byte filler value that puts the Top value across
         * the decoder's 1 MiB refill at a random place */
        size_t n = 0;
        memcpy(data, defs.b, defs.n);
        n = defs.n;
        int streamed = c % 2;
        if (streamed) {
            size_t target = (1u << 20) - rnd(msg.n + 8);
            size_t body = target - n - 1 - 1 - 1 - 5; /* length, id, 0 marker, byte count */
            w h = {{0}, 0};
            put_int(&h, 5);
            put_uint(&h, 0);
            put_uint(&h, body);
            size_t hn = h.n;
            w len = {{0}, 0};
            put_uint(&len, hn + body);
            memcpy(data + n, len.b, len.n);
            n += len.n;
            memcpy(data + n, h.b, hn);
            n += hn;
            memset(data + n, 'f', body);
            n += body;
        }
        size_t value_at = n;
        memcpy(data + n, msg.b, msg.n);
        n += msg.n;
        size_t value_end = n;
        /* a next message after it: a length misread past the value's message must not land
         * in it */
        w tail = {{0}, 0}, tailmsg = {{0}, 0};
        put_uint(&tail, 0);
        rnd_str(&tail);
        message(&tailmsg, 5, &tail);
        memcpy(data + n, tailmsg.b, tailmsg.n);
        n += tailmsg.n;
        /* intact, one byte changed, or cut short (the last two compared only fast against checked) */
        int how = (int)rnd(3);
        size_t len = n;
        if (how == 1 && rnd(2))
            data[value_at + rnd(msg.n)] = (unsigned char)rnd(256);
        else if (how == 1) /* a length near the end a little longer: into the next message */
            data[n - tailmsg.n - 1 - rnd(msg.n < 48 ? msg.n : 48)] += (unsigned char)(1 + rnd(40));
        else if (how == 2)
            len = value_at + rnd(msg.n);
        skip_result fast, checked;
        skip_top(data, len, streamed, 1, &fast);
        skip_top(data, len, streamed, 0, &checked);
        assert_int_equal(fast.rc, checked.rc);
        assert_int_equal(fast.offset, checked.offset);
        assert_int_equal(fast.err_offset, checked.err_offset);
        assert_string_equal(fast.msg, checked.msg);
        if (how == 0) {
            /* both must land exactly at the end of the value (a misread length would not) */
            assert_int_equal(fast.rc, 0);
            assert_int_equal(fast.offset, (long long)value_end);
            intact_streamed += streamed;
        }
    }
    assert_true(intact_streamed > 0);
    free(data);
}

/* The values' end offsets, the result and the digest of one walk over a stream. */
typedef struct walk_result {
    long long ends[1 << 16];
    size_t n;
    int rc;
    long long err_offset;
    char msg[1024];
    char digest[PR_DIGEST_HEX];
} walk_result;

/* Skips every value of in's stream, then drains it for the digest (as the ingest does). */
static void walk(pr_input *in, walk_result *out)
{
    pr_gob *g = pr_gob_open(in);
    pr_error err;
    pr_error_clear(&err);
    int64_t id = 0;
    int rc;
    out->n = 0;
    while ((rc = pr_gob_next(g, &id, &err)) == 1 && (rc = pr_gob_skip(g, id, &err)) == 0)
        if (out->n < sizeof out->ends / sizeof out->ends[0])
            out->ends[out->n++] = pr_gob_offset(g);
    out->rc = rc;
    out->err_offset = rc < 0 ? err.offset : 0;
    snprintf(out->msg, sizeof out->msg, "%s", rc < 0 ? err.msg : "");
    pr_gob_free(g);
    assert_int_equal(pr_input_drain(in, &err), 0);
    pr_input_digest(in, out->digest);
}

static void assert_walks_equal(const walk_result *a, const walk_result *b)
{
    assert_int_equal(a->rc, b->rc);
    assert_int_equal(a->n, b->n);
    assert_memory_equal(a->ends, b->ends, a->n * sizeof a->ends[0]);
    assert_int_equal(a->err_offset, b->err_offset);
    assert_string_equal(a->msg, b->msg);
    assert_string_equal(a->digest, b->digest);
}

/* A file read through mmap windows (several, values and large byte strings across their
 * edges) against the same bytes read through pr_input_read, in memory and from the file with
 * windows refused: the same values at the same offsets, the same errors where the stream is
 * cut short or damaged, the same digest. */
static void test_gob__mapped_file_matches_read(void **st)
{
    (void)st;
    enum { CAP = 7 << 20 };
    static w defs, v, msg;
    static walk_result mem, mapped, readf;
    top_defs(&defs);
    unsigned char *data = malloc(CAP);
    assert_non_null(data);
    size_t n = defs.n;
    memcpy(data, defs.b, defs.n);
    while (n < CAP - (1 << 20) - sizeof msg.b) {
        msg.n = 0;
        if (rnd(16)) {
            v.n = 0;
            rnd_top(&v);
            message(&msg, 65, &v);
            memcpy(data + n, msg.b, msg.n);
            n += msg.n;
            continue;
        }
        size_t body = rnd(4) ? rnd(1000) : rnd(900000); /* a []byte filler value */
        w h = {{0}, 0}, len = {{0}, 0};
        put_int(&h, 5);
        put_uint(&h, 0);
        put_uint(&h, body);
        put_uint(&len, h.n + body);
        memcpy(data + n, len.b, len.n);
        memcpy(data + n + len.n, h.b, h.n);
        n += len.n + h.n;
        memset(data + n, 'f', body);
        n += body;
    }
    char path[] = "/tmp/perfreport-gob-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    for (int c = 0; c < 12; c++) {
        size_t len = n;
        if (c % 3 == 1)
            len = rnd(n); /* cut short */
        else if (c % 3 == 2)
            data[defs.n + rnd(n - defs.n)] ^= (unsigned char)(1 + rnd(255));
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(data, 1, len, f), len);
        fclose(f);
        pr_error err;
        pr_input *in = pr_input_mem("t", data, len);
        walk(in, &mem);
        pr_input_close(in);
        in = pr_input_open(path, &err);
        assert_non_null(in);
        pr_input_set_window(in, (2 << 20) + (long long)rnd(70000));
        walk(in, &mapped);
        pr_input_close(in);
        in = pr_input_open(path, &err);
        assert_non_null(in);
        pr_input_set_window(in, 0);
        walk(in, &readf);
        pr_input_close(in);
        assert_walks_equal(&mem, &mapped);
        assert_walks_equal(&readf, &mapped);
        if (c % 3 == 0) {
            assert_int_equal(mapped.rc, 0);
            assert_true(mapped.n > 10);
        }
    }
    unlink(path);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gob__out_of_order_definitions),
        cmocka_unit_test(test_gob__restart_on_redefinition),
        cmocka_unit_test(test_gob__truncated_every_cut),
        cmocka_unit_test(test_gob__bounds),
        cmocka_unit_test(test_gob__recursive_type_depth),
        cmocka_unit_test(test_gob__fast_skip_matches_checked),
        cmocka_unit_test(test_gob__fast_skip_stays_in_its_message),
        cmocka_unit_test(test_gob__mapped_file_matches_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
