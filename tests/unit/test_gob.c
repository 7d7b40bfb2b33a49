/* Unit tests: the gob decoder on hand-built streams (definitions out of order, omitted and
 * unknown fields, restarts, truncation, bounds). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "parsers/gob.h"

/* A tiny gob writer for building test streams. */
typedef struct w {
    unsigned char b[4096];
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
    put_uint(&p, 3);       /* StructT */
    put_uint(&p, 1);       /* CommonType */
    put_uint(&p, 1);
    put_str(&p, name);
    put_uint(&p, 1);
    put_int(&p, id);
    put_uint(&p, 0);
    put_uint(&p, 1);       /* Field */
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
    put_uint(&p, 2);       /* SliceT */
    put_uint(&p, 1);       /* CommonType, name omitted */
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
    put_uint(&v, 1);       /* Tags */
    put_uint(&v, 2);
    put_str(&v, "x");
    put_str(&v, "yy");
    put_uint(&v, 1);       /* Sub */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gob__out_of_order_definitions),
        cmocka_unit_test(test_gob__restart_on_redefinition),
        cmocka_unit_test(test_gob__truncated_every_cut),
        cmocka_unit_test(test_gob__bounds),
        cmocka_unit_test(test_gob__recursive_type_depth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
