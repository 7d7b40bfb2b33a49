/* Unit tests: native block codec and stream (round trip, truncation, corruption, concat). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/native.h"
#include "tests/unit/lib/collect.h"
#include "tests/unit/lib/gen.h"
#include "model/xalloc.h"

static void test_native__block_roundtrip(void **st)
{
    for (uint64_t seed = 1; seed <= 20; seed++) {
        pr_run *run = pr_run_new();
        size_t n = (size_t)(seed * 997 % 5000) + 1;
        pr_sample *s = calloc(n, sizeof *s);
        gen_samples(run, s, n, seed);
        pr_buf b = PR_BUF_INIT;
        pr_block_encode(s, n, &b);
        pr_sample *out = NULL;
        size_t cap = 0, m = 0;
        pr_error err;
        assert_int_equal(pr_block_decode((unsigned char *)b.p, b.len, &out, &cap, &m, &err), 0);
        assert_int_equal(m, n);
        assert_memory_equal(out, s, n * sizeof *s);
        free(out);
        free(s);
        pr_buf_dispose(&b);
        pr_run_free(run);
    }
}

static void test_native__constant_columns_are_compact(void **st)
{
    pr_sample s[1000];
    for (int i = 0; i < 1000; i++) {
        pr_sample_init(&s[i]);
        s[i].start_ns = 1796051469000000000LL + i * 1000000LL; /* ms spacing */
        s[i].latency_ns = (i % 7) * 1000000LL + 3000000LL;     /* whole ms */
        s[i].status = 200;
        s[i].label = 1;
    }
    pr_buf b = PR_BUF_INIT;
    pr_block_encode(s, 1000, &b);
    /* start: delta of 1 ms scaled = 1 byte; latency: dictionary of 7 -> 4 bits */
    assert_true(b.len < 1000 * 2);
    pr_buf_dispose(&b);
}

static void test_native__stream_roundtrip(void **st)
{
    pr_run *run = pr_run_new();
    pr_run_set_name(run, "round trip");
    pr_run_tag(run, "build", "42");
    run->load_model = PR_LOAD_CLOSED;
    run->concurrency = 50;
    size_t n = 12345, len;
    pr_sample *s = calloc(n, sizeof *s);
    char *buf = gen_stream(run, s, n, 7, &len);
    collect c;
    collect_init(&c);
    pr_error err;
    assert_int_equal(collect_parse_mem(&c, NULL, buf, len, NULL, &err), 0);
    assert_int_equal(c.n, n);
    for (size_t i = 0; i < n; i++)
        assert_true(sample_equal(run, &s[i], c.run, &c.s[i]));
    assert_string_equal(c.run->name, "round trip");
    assert_string_equal(pr_run_tag_get(c.run, "build"), "42");
    assert_int_equal(c.run->load_model, PR_LOAD_CLOSED);
    assert_int_equal(c.run->concurrency, 50);
    collect_free(&c);
    free(buf);
    free(s);
    pr_run_free(run);
}

static void test_native__truncated_keeps_complete_blocks(void **st)
{
    pr_run *run = pr_run_new();
    size_t n = 5000, len;
    pr_sample *s = calloc(n, sizeof *s);
    char *buf = gen_stream(run, s, n, 3, &len); /* blocks of 1000 */
    collect c;
    collect_init(&c);
    pr_error err;
    /* cut in the middle of the stream: some whole blocks survive */
    int rc = collect_parse_mem(&c, "native", buf, len / 2, NULL, &err);
    assert_int_equal(rc, PR_ETRUNC);
    assert_true(err.offset > 0);
    assert_non_null(strstr(err.msg, "truncated"));
    assert_true(c.n > 0 && c.n % 1000 == 0 && c.n < n);
    for (size_t i = 0; i < c.n; i++)
        assert_true(sample_equal(run, &s[i], c.run, &c.s[i]));
    collect_free(&c);
    free(buf);
    free(s);
    pr_run_free(run);
}

static void test_native__corrupt_block_is_named(void **st)
{
    pr_run *run = pr_run_new();
    size_t n = 3000, len;
    pr_sample *s = calloc(n, sizeof *s);
    char *buf = gen_stream(run, s, n, 5, &len);
    buf[len - 200] ^= 0x55; /* inside the last sample block or the footer */
    collect c;
    collect_init(&c);
    pr_error err;
    int rc = collect_parse_mem(&c, "native", buf, len, NULL, &err);
    assert_int_equal(rc, PR_EPARSE);
    assert_non_null(strstr(err.msg, "block "));
    assert_non_null(strstr(err.msg, "checksum"));
    collect_free(&c);
    free(buf);
    free(s);
    pr_run_free(run);
}

static void test_native__concatenated_streams(void **st)
{
    pr_run *a = pr_run_new(), *b = pr_run_new();
    pr_run_set_name(a, "first");
    pr_run_set_name(b, "second");
    pr_sample *sa = calloc(700, sizeof *sa), *sb = calloc(900, sizeof *sb);
    gen_samples(a, sa, 700, 11);
    /* b interns strings in another order so ids differ between the two streams */
    pr_run_intern(b, "zzz", 3);
    gen_samples(b, sb, 900, 12);
    size_t la, lb;
    char *ba = gen_native(a, sa, 700, &la), *bb = gen_native(b, sb, 900, &lb);
    char *cat = malloc(la + lb);
    memcpy(cat, ba, la);
    memcpy(cat + la, bb, lb);
    collect c;
    collect_init(&c);
    pr_error err;
    assert_int_equal(collect_parse_mem(&c, NULL, cat, la + lb, NULL, &err), 0);
    assert_int_equal(c.n, 1600);
    for (size_t i = 0; i < 700; i++)
        assert_true(sample_equal(a, &sa[i], c.run, &c.s[i]));
    for (size_t i = 0; i < 900; i++)
        assert_true(sample_equal(b, &sb[i], c.run, &c.s[700 + i]));
    assert_string_equal(c.run->name, "first");
    collect_free(&c);
    free(ba);
    free(bb);
    free(cat);
    free(sa);
    free(sb);
    pr_run_free(a);
    pr_run_free(b);
}

static void test_native__footer_carries_late_metadata(void **st)
{
    pr_run *run = pr_run_new();
    pr_run_meta_set(run, "notes", json_string("known when the header was written"));
    pr_sample s[10];
    gen_samples(run, s, 10, 41);
    char *buf = NULL;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    pr_error err;
    pr_native_writer *w = pr_native_writer_new(f, run, &err);
    assert_int_equal(pr_native_writer_push(w, run, s, 10, &err), 0);
    pr_run_meta_set(run, "interrupted", json_true()); /* e.g. SIGINT during an attack */
    assert_int_equal(pr_native_writer_close(w, run, &err), 0);
    fclose(f);
    /* the footer holds only what changed: "notes" is written once */
    assert_non_null(memmem(buf, len, "interrupted", 11));
    const char *first = memmem(buf, len, "known when", 10);
    assert_non_null(first);
    assert_null(memmem(first + 1, len - (size_t)(first + 1 - buf), "known when", 10));
    collect c;
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "native", buf, len, NULL, &err), 0);
    assert_true(json_is_true(json_object_get(c.run->meta, "interrupted")));
    assert_string_equal(json_string_value(json_object_get(c.run->meta, "notes")),
                        "known when the header was written");
    collect_free(&c);
    free(buf);
    pr_run_free(run);
}

static void test_native__not_native(void **st)
{
    collect c;
    collect_init(&c);
    pr_error err;
    const char junk[] = "\x89PRFxxxxxxxxxxxxxxxxxxxxxxxxxx";
    int rc = collect_parse_mem(&c, "native", junk, sizeof junk - 1, NULL, &err);
    assert_true(rc < 0);
    collect_free(&c);
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_native__block_roundtrip),
        cmocka_unit_test(test_native__constant_columns_are_compact),
        cmocka_unit_test(test_native__stream_roundtrip),
        cmocka_unit_test(test_native__truncated_keeps_complete_blocks),
        cmocka_unit_test(test_native__corrupt_block_is_named),
        cmocka_unit_test(test_native__concatenated_streams),
        cmocka_unit_test(test_native__footer_carries_late_metadata),
        cmocka_unit_test(test_native__not_native),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
