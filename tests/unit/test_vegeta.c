/* Unit tests: Vegeta parsers (gob, JSON, CSV, reports) and Vegeta's metrics, checked against
 * Vegeta v12.11.1's own reports of each fixture. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "analysis/vegeta_stats.h"
#include "parsers/vegeta.h"
#include "model/lex.h"
#include "tests/unit/lib/collect.h"
#include "tests/unit/lib/files.h"
#include "tests/unit/lib/gen.h"
#include "model/xalloc.h"

/* Splits a text into lines (in place); returns the count. */
static size_t lines_of(char *text, char **lines, size_t max)
{
    size_t k = 0;
    for (char *p = text; *p && k < max;) {
        char *e = strchr(p, '\n');
        lines[k++] = p;
        if (!e)
            break;
        *e = 0;
        p = e + 1;
    }
    return k;
}

/* Our text report equals Vegeta's line for line, except the percentile columns of the
 * Latencies line (exact here, t-digest there), whose min, mean and max must still agree. */
static void assert_text_report(const char *ours_c, const char *rel)
{
    char *ours = strdup(ours_c);
    char *theirs = test_read_file(testdata(rel), 0, NULL);
    char *a[64], *b[64];
    size_t na = lines_of(ours, a, 64), nb = lines_of(theirs, b, 64);
    assert_int_equal(na, nb);
    for (size_t i = 0; i < na; i++) {
        if (strncmp(b[i], "Latencies", 9) != 0) {
            assert_string_equal(a[i], b[i]);
            continue;
        }
        char *va[8], *vb[8];
        size_t ka = 0, kb = 0;
        char *sa = strchr(a[i], ']') + 1, *sb = strchr(b[i], ']') + 1;
        assert_int_equal(sa - a[i], sb - b[i]); /* same column alignment */
        for (char *t = strtok(sa, ", "); t && ka < 8; t = strtok(NULL, ", "))
            va[ka++] = t;
        for (char *t = strtok(sb, ", "); t && kb < 8; t = strtok(NULL, ", "))
            vb[kb++] = t;
        assert_int_equal(ka, 7);
        assert_int_equal(kb, 7);
        assert_string_equal(va[0], vb[0]); /* min */
        assert_string_equal(va[1], vb[1]); /* mean */
        assert_string_equal(va[6], vb[6]); /* max */
    }
    free(ours);
    free(theirs);
}

/* Our JSON report equals Vegeta's except the four percentiles. */
static void assert_json_report(const char *ours, const char *rel)
{
    json_error_t je;
    json_t *a = json_loads(ours, 0, &je);
    json_t *b = json_load_file(testdata(rel), 0, &je);
    assert_non_null(a);
    assert_non_null(b);
    static const char *const pk[] = {"50th", "90th", "95th", "99th"};
    for (int i = 0; i < 4; i++) {
        json_object_del(json_object_get(a, "latencies"), pk[i]);
        json_object_del(json_object_get(b, "latencies"), pk[i]);
    }
    if (!json_equal(a, b)) {
        char *x = json_dumps(a, JSON_SORT_KEYS), *y = json_dumps(b, JSON_SORT_KEYS);
        print_error("ours:   %s\nvegeta: %s\n", x, y);
        free(x);
        free(y);
    }
    assert_true(json_equal(a, b));
    json_decref(a);
    json_decref(b);
}

static void check_fixture(const char *input, const char *report)
{
    collect c;
    collect_parse_ok(&c, NULL, input, 0);
    pr_vegeta_stats st;
    pr_vegeta_stats_compute(&st, c.s, c.n, c.run);
    char rel[256];
    snprintf(rel, sizeof rel, "vegeta/%s.report.txt", report);
    char *text = pr_vegeta_stats_text(&st, c.run);
    assert_text_report(text, rel);
    free(text);
    snprintf(rel, sizeof rel, "vegeta/%s.report.json", report);
    char *js = pr_vegeta_stats_json_text(&st, c.run);
    assert_json_report(js, rel);
    free(js);
    pr_vegeta_stats_dispose(&st);
    collect_free(&c);
}

static void test_vegeta__basic_agrees(void **s)
{
    check_fixture("vegeta/basic.bin", "basic");
    check_fixture("vegeta/basic.json", "basic");
    check_fixture("vegeta/basic.csv", "basic");
}

static void test_vegeta__mixed_agrees(void **s)
{
    check_fixture("vegeta/mixed.bin", "mixed");
    check_fixture("vegeta/mixed.csv", "mixed");
}

static void test_vegeta__refused_agrees(void **s)
{
    check_fixture("vegeta/refused.bin", "refused");
    check_fixture("vegeta/refused.json", "refused");
    check_fixture("vegeta/refused.csv", "refused");
}

static void test_vegeta__post_agrees(void **s)
{
    check_fixture("vegeta/post.bin", "post");
    check_fixture("vegeta/post.json", "post");
    check_fixture("vegeta/post.csv", "post");
}

/* concat.bin = refused.bin + post.bin joined with cat: Vegeta refuses it, we read both
 * streams; the result equals Vegeta's report over the two files given separately. */
static void test_vegeta__concat_reads_both_streams(void **s)
{
    collect c;
    collect_parse_ok(&c, "vegeta-gob", "vegeta/concat.bin", 0);
    assert_int_equal(c.n, 200);
    assert_int_equal(json_integer_value(json_object_get(c.run->meta, "gob_streams")), 2);
    collect_free(&c);
    check_fixture("vegeta/concat.bin", "multi");
}

static void test_vegeta__exact_percentiles(void **s)
{
    collect c;
    collect_parse_ok(&c, NULL, "vegeta/basic.bin", 0);
    pr_vegeta_stats st;
    pr_vegeta_stats_compute(&st, c.s, c.n, c.run);
    assert_int_equal(st.lat_p99_ns, 789392); /* Vegeta's t-digest says 817120 */
    assert_int_equal(st.lat_min_ns, 79348);
    assert_int_equal(st.lat_max_ns, 27899951);
    pr_vegeta_stats_dispose(&st);
    collect_free(&c);
    collect_parse_ok(&c, NULL, "vegeta/mixed.bin", 0);
    pr_vegeta_stats_compute(&st, c.s, c.n, c.run);
    assert_int_equal(st.lat_p90_ns, 194424490); /* Vegeta's t-digest says 191947978 */
    pr_vegeta_stats_dispose(&st);
    collect_free(&c);
}

static void assert_same_samples(const collect *a, const collect *b)
{
    assert_int_equal(a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        const pr_sample *x = &a->s[i], *y = &b->s[i];
        assert_true(x->start_ns == y->start_ns);
        assert_true(x->latency_ns == y->latency_ns);
        assert_int_equal(x->status, y->status);
        assert_int_equal(x->success, y->success);
        assert_true(x->bytes_in == y->bytes_in);
        assert_true(x->bytes_out == y->bytes_out);
        assert_string_equal(pr_run_str(a->run, x->error), pr_run_str(b->run, y->error));
        assert_string_equal(pr_run_str(a->run, x->method), pr_run_str(b->run, y->method));
        assert_string_equal(pr_run_str(a->run, x->url), pr_run_str(b->run, y->url));
        assert_string_equal(pr_run_str(a->run, x->label), pr_run_str(b->run, y->label));
    }
    assert_true(a->run->start_ns == b->run->start_ns);
    assert_true(a->run->end_ns == b->run->end_ns);
}

static void test_vegeta__encodings_agree(void **s)
{
    static const char *const pairs[][3] = {
        {"vegeta/basic.bin", "vegeta/basic.json", "vegeta/basic.csv"},
        {"vegeta/post.bin", "vegeta/post.json", "vegeta/post.csv"},
        {"vegeta/refused.bin", "vegeta/refused.json", "vegeta/refused.csv"},
        {"vegeta/mixed.bin", NULL, "vegeta/mixed.csv"},
    };
    for (size_t i = 0; i < 4; i++) {
        collect g, j, v;
        collect_parse_ok(&g, "vegeta-gob", pairs[i][0], 0);
        assert_string_equal(g.run->format, "vegeta-gob");
        assert_int_equal(g.run->load_model, PR_LOAD_OPEN);
        assert_int_equal(json_integer_value(json_object_get(g.run->meta, "tz_offset_min")), 0);
        if (pairs[i][1]) {
            collect_parse_ok(&j, "vegeta-json", pairs[i][1], 0);
            assert_same_samples(&g, &j);
            assert_non_null(json_object_get(j.run->meta, "tz_offset_min"));
            collect_free(&j);
        }
        collect_parse_ok(&v, "vegeta-csv", pairs[i][2], 0);
        assert_same_samples(&g, &v);
        assert_null(json_object_get(v.run->meta, "tz_offset_min")); /* CSV loses the zone */
        collect_free(&v);
        collect_free(&g);
    }
}

static void test_vegeta__sample_fields(void **s)
{
    collect c;
    collect_parse_ok(&c, NULL, "vegeta/post.bin", 0);
    assert_int_equal(c.n, 100);
    const pr_sample *x = &c.s[0];
    assert_true(x->start_ns == 1796051524800165028LL);
    assert_int_equal(x->latency_ns, 1893650);
    assert_int_equal(x->status, 201);
    assert_int_equal(x->bytes_out, 54);
    assert_int_equal(x->bytes_in, 12);
    assert_int_equal(x->success, PR_OK_SUCCESS);
    assert_int_equal(x->error, PR_NOSTR);
    assert_string_equal(pr_run_str(c.run, x->label), "POST http://127.0.0.1:18080/api/items");
    assert_string_equal(pr_run_str(c.run, x->method), "POST");
    assert_true(c.run->start_ns == 1796051524800165028LL);
    assert_true(c.run->end_ns == 1796051526780269810LL);
    collect_free(&c);
    collect_parse_ok(&c, NULL, "vegeta/refused.bin", 0);
    assert_int_equal(c.s[0].status, 0);
    assert_int_equal(c.s[0].success, PR_FAIL);
    assert_string_equal(pr_run_str(c.run, c.s[0].error),
                        "Get \"http://127.0.0.1:18099/\": dial tcp 0.0.0.0:0->127.0.0.1:18099: "
                        "connect: connection refused");
    collect_free(&c);
    collect_parse_ok(&c, NULL, "vegeta/mixed.bin", 0);
    int e404 = 0;
    for (size_t i = 0; i < c.n; i++)
        if (c.s[i].status == 404) {
            e404++;
            assert_int_equal(c.s[i].success, PR_FAIL);
            assert_string_equal(pr_run_str(c.run, c.s[i].error), "404 Not Found");
        }
    assert_int_equal(e404, 100);
    collect_free(&c);
}

/* Statistics do not depend on record order (files of one attack in any order). */
static void test_vegeta__order_independent(void **s)
{
    collect c;
    collect_parse_ok(&c, NULL, "vegeta/concat.bin", 0);
    pr_vegeta_stats a, b;
    pr_vegeta_stats_compute(&a, c.s, c.n, c.run);
    char *ta = pr_vegeta_stats_json_text(&a, c.run);
    /* Reverse, then a deterministic shuffle. */
    for (size_t i = 0; i < c.n / 2; i++) {
        pr_sample t = c.s[i];
        c.s[i] = c.s[c.n - 1 - i];
        c.s[c.n - 1 - i] = t;
    }
    uint32_t r = 12345;
    for (size_t i = c.n - 1; i > 0; i--) {
        r = r * 1103515245u + 12345u;
        size_t j = (r >> 8) % (i + 1);
        pr_sample t = c.s[i];
        c.s[i] = c.s[j];
        c.s[j] = t;
    }
    pr_vegeta_stats_compute(&b, c.s, c.n, c.run);
    char *tb = pr_vegeta_stats_json_text(&b, c.run);
    assert_string_equal(ta, tb);
    assert_int_equal(a.nerrors, 1);
    assert_int_equal(a.errors[0].count, 100);
    free(ta);
    free(tb);
    pr_vegeta_stats_dispose(&a);
    pr_vegeta_stats_dispose(&b);
    collect_free(&c);
}

static void test_vegeta__truncated_gob(void **s)
{
    size_t len;
    char *data = test_read_file(testdata("vegeta/basic.bin"), 0, &len);
    /* First value message starts at 0xcf, the second at 0x27f; cut inside the third. */
    collect c;
    collect_init(&c);
    pr_error err;
    pr_error_clear(&err);
    size_t third = 0x27f + 3 + 431;
    assert_int_equal(collect_parse_mem(&c, "vegeta-gob", data, third + 100, NULL, &err), PR_ETRUNC);
    assert_int_equal(c.n, 2);
    assert_int_equal(err.offset, (long long)third);
    assert_non_null(strstr(err.msg, "input ends inside the message"));
    collect_free(&c);
    /* Every cut of the first 3 KB: never a partial record, always complete ones. */
    for (size_t cut = 0xcf; cut < 3000; cut += 7) {
        collect_init(&c);
        int rc = collect_parse_mem(&c, "vegeta-gob", data, cut, NULL, &err);
        assert_true(rc == PR_ETRUNC || rc == 0);
        for (size_t i = 0; i < c.n; i++)
            assert_int_equal(c.s[i].status, 200);
        collect_free(&c);
    }
    free(data);
}

static size_t put_uint(unsigned char *b, uint64_t v)
{
    if (v < 0x80) {
        b[0] = (unsigned char)v;
        return 1;
    }
    unsigned char t[8];
    size_t k = 0, n = 0;
    while (v) {
        t[k++] = (unsigned char)v;
        v >>= 8;
    }
    b[n++] = (unsigned char)(256 - k);
    while (k)
        b[n++] = t[--k];
    return n;
}

/* The gob reader's one-pass read of a whole result (pr_gob_read_struct) against the reading
 * field by field: every fixture, whole, cut at random places and with random bytes changed
 * (lengths, counts, field deltas, timestamps), the same samples and the same error. */
static void test_vegeta__gob_one_pass_same(void **s)
{
    static const char *const files[] = {"vegeta/basic.bin", "vegeta/mixed.bin", "vegeta/post.bin",
                                        "vegeta/concat.bin"};
    uint64_t r = 0x853C49E6748FEA9Bull;
    long compared = 0, fine = 0;
    for (size_t fi = 0; fi < sizeof files / sizeof files[0]; fi++) {
        size_t len;
        char *data = test_read_file(testdata(files[fi]), 0, &len);
        char *copy = malloc(len);
        for (int round = 0; round < 300; round++) {
            memcpy(copy, data, len);
            size_t n = len;
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            if (round % 3 == 1)
                n = (size_t)(r % len);
            for (int k = 0; round % 3 == 2 && k < 1 + (int)(r % 4); k++) {
                r ^= r << 13, r ^= r >> 7, r ^= r << 17;
                copy[(r >> 8) % len] = (char)(r >> 40);
            }
            collect c[2];
            pr_error err[2];
            int rc[2];
            for (int i = 0; i < 2; i++) {
                pr_vegeta_gob_fast = i == 0;
                collect_init(&c[i]);
                pr_error_clear(&err[i]);
                rc[i] = collect_parse_mem(&c[i], "vegeta-gob", copy, n, NULL, &err[i]);
            }
            pr_vegeta_gob_fast = 1;
            assert_int_equal(rc[0], rc[1]);
            assert_string_equal(err[0].msg, err[1].msg);
            assert_int_equal(err[0].offset, err[1].offset);
            assert_int_equal(c[0].n, c[1].n);
            for (size_t i = 0; i < c[0].n; i++)
                assert_true(sample_equal(c[0].run, &c[0].s[i], c[1].run, &c[1].s[i]));
            assert_string_equal(c[0].run->name ? c[0].run->name : "",
                                c[1].run->name ? c[1].run->name : "");
            compared++;
            fine += rc[0] == 0;
            collect_free(&c[0]);
            collect_free(&c[1]);
        }
        free(copy);
        free(data);
    }
    assert_true(compared == 1200 && fine > 300);
}

/* A result with a 3 MiB body (larger than the decoder's buffer) is skipped by streaming. */
static void test_vegeta__huge_body(void **s)
{
    size_t len;
    char *basic = test_read_file(testdata("vegeta/basic.bin"), 0, &len);
    const size_t body = 3u << 20;
    unsigned char *v = malloc(body + 256), *file = malloc(2 * body + 1024);
    size_t n = 0;
    n += put_uint(v + n, 2 + 1); /* Code (field 2) */
    n += put_uint(v + n, 404);
    v[n++] = 1;                      /* Timestamp: the first record's */
    memcpy(v + n, basic + 0xd8, 16); /* 0f + 15 bytes */
    n += 16;
    v[n++] = 1; /* Latency 1009568 */
    n += put_uint(v + n, 2 * 1009568);
    v[n++] = 2; /* BytesIn */
    n += put_uint(v + n, body);
    v[n++] = 1; /* Error */
    n += put_uint(v + n, 13);
    memcpy(v + n, "404 Not Found", 13);
    n += 13;
    v[n++] = 1; /* Body */
    n += put_uint(v + n, body);
    memset(v + n, 'x', body);
    n += body;
    v[n++] = 1; /* Method */
    n += put_uint(v + n, 3);
    memcpy(v + n, "GET", 3);
    n += 3;
    v[n++] = 0;
    size_t m = 0;
    memcpy(file, basic, 0xcf); /* the four definitions */
    m = 0xcf;
    for (int rep = 0; rep < 2; rep++) {
        m += put_uint(file + m, n + 2);
        file[m++] = 0xff; /* type id 65 */
        file[m++] = 0x82;
        memcpy(file + m, v, n);
        m += n;
    }
    collect c;
    pr_error err;
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "vegeta-gob", file, m, NULL, &err), 0);
    assert_int_equal(c.n, 2);
    assert_int_equal(c.s[1].status, 404);
    assert_int_equal(c.s[1].bytes_in, body);
    assert_int_equal(c.s[1].latency_ns, 1009568);
    assert_true(c.s[1].start_ns == 1796051469461933948LL);
    assert_string_equal(pr_run_str(c.run, c.s[1].error), "404 Not Found");
    assert_string_equal(pr_run_str(c.run, c.s[1].label), "GET");
    collect_free(&c);
    /* Cut inside the second body: the first record survives, the offset names message 2. */
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "vegeta-gob", file, m - body / 2, NULL, &err),
                     PR_ETRUNC);
    assert_int_equal(c.n, 1);
    assert_int_equal(err.offset, (long long)(0xcf + (m - 0xcf) / 2));
    collect_free(&c);
    free(v);
    free(file);
    free(basic);
}

/* time.Time with a zone offset (-03:30, as in St John's) in version 1 and version 2 form. */
static void test_vegeta__time_zone(void **s)
{
    size_t len;
    unsigned char *b = (unsigned char *)test_read_file(testdata("vegeta/basic.bin"), 0, &len);
    /* Version 1: patch the first record's offset minutes (bytes 0xe6-0xe7) to -210. */
    b[0xe6] = 0xff;
    b[0xe7] = 0x2e;
    collect c;
    pr_error err;
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "vegeta-gob", b, 0x27f, NULL, &err), 0);
    assert_int_equal(c.n, 1);
    assert_true(c.s[0].start_ns == 1796051469461933948LL); /* the instant does not move */
    assert_int_equal(json_integer_value(json_object_get(c.run->meta, "tz_offset_min")), -210);
    pr_vegeta_stats st;
    pr_vegeta_stats_compute(&st, c.s, c.n, c.run);
    char *js = pr_vegeta_stats_json_text(&st, c.run);
    assert_non_null(strstr(js, "\"earliest\":\"2026-11-30T11:41:09.461933948-03:30\""));
    free(js);
    pr_vegeta_stats_dispose(&st);
    collect_free(&c);
    /* Version 2: 16 bytes, one more byte of offset seconds; the message grows by one. */
    unsigned char v2[0x27f + 1];
    size_t n = 0;
    memcpy(v2, b, 0xcf);
    n = 0xcf;
    v2[n++] = 0xfe;
    v2[n++] = 0x01;
    v2[n++] = 0xae; /* 430 */
    memcpy(v2 + n, b + 0xd2, 0xd8 - 0xd2);
    n += 0xd8 - 0xd2;
    v2[n++] = 0x10;
    v2[n++] = 0x02;
    memcpy(v2 + n, b + 0xda, 0xe8 - 0xda);
    n += 0xe8 - 0xda;
    v2[n++] = 0x00; /* offset seconds */
    memcpy(v2 + n, b + 0xe8, 0x27f - 0xe8);
    n += 0x27f - 0xe8;
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "vegeta-gob", v2, n, NULL, &err), 0);
    assert_int_equal(c.n, 1);
    assert_true(c.s[0].start_ns == 1796051469461933948LL);
    assert_int_equal(c.s[0].latency_ns, 1009568);
    collect_free(&c);
    free(b);
}

/* The Timestamp's range check (divisions by constants) against the old computation through
 * pr_time_from_epoch, on random seconds, many of them at the ends of the range. */
static void test_vegeta__timestamp_range_matches_old(void **s)
{
    (void)s;
    size_t len;
    unsigned char *b = (unsigned char *)test_read_file(testdata("vegeta/basic.bin"), 0, &len);
    assert_int_equal(b[0xd9], 1); /* version 1: seconds at 0xda..0xe1, nanoseconds 0xe2..0xe5 */
    uint64_t x = 88172645463325252ull;
    const uint64_t y1 = 62135596800ull; /* seconds from year 1 to 1970 */
    const int64_t ends[] = {PR_TIME_MIN_NS / 1000000000LL, PR_TIME_MAX_NS / 1000000000LL};
    for (int i = 0; i < 3000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t u = x;
        if (i % 3 == 0)
            u = (uint64_t)(ends[i % 2] + (int64_t)y1) + (x >> 60) - 8;
        else if (i % 3 == 1)
            u = x >> (x % 40);
        uint32_t nsec = (uint32_t)((x >> 20) % 1000000000u);
        if (u == 0 && nsec == 0)
            nsec = 1;
        for (int k = 0; k < 8; k++)
            b[0xda + k] = (unsigned char)(u >> (56 - 8 * k));
        for (int k = 0; k < 4; k++)
            b[0xe2 + k] = (unsigned char)(nsec >> (24 - 8 * k));
        int64_t sec, want = 0;
        int in_range = u <= (uint64_t)INT64_MAX &&
                       pr_time_from_epoch((int64_t)u - (int64_t)y1, 1, &sec) == 0 &&
                       pr_time_from_epoch(sec, 1000000000LL, &want) == 0;
        want += nsec;
        collect c;
        pr_error err;
        collect_init(&c);
        int rc = collect_parse_mem(&c, "vegeta-gob", b, 0x27f, NULL, &err);
        if (in_range) {
            assert_int_equal(rc, 0);
            assert_true(c.s[0].start_ns == want);
        } else {
            assert_int_equal(rc, PR_EPARSE);
            assert_non_null(strstr(err.msg, "outside the years"));
        }
        collect_free(&c);
    }
    free(b);
}

static void test_vegeta__refuses_other_input(void **s)
{
    collect c;
    pr_error err;
    collect_init(&c);
    assert_int_equal(
        collect_parse_file(&c, "vegeta-gob", testdata("vegeta/basic.report.txt"), NULL, &err),
        PR_EFORMAT);
    assert_non_null(strstr(err.msg, "not a Vegeta gob results file"));
    collect_free(&c);
    /* A gob stream of another struct type: Point{X int, Y int}. */
    static const unsigned char other[] = {
        0x1f, 0xff, 0x81, 0x03, 0x01, 0x01, 0x05, 'P',  'o',  'i',  'n',  't',  0x01,
        0xff, 0x82, 0x00, 0x01, 0x02, 0x01, 0x01, 'X',  0x01, 0x04, 0x00, 0x01, 0x01,
        'Y',  0x01, 0x04, 0x00, 0x00, 0x00, 0x05, 0xff, 0x82, 0x01, 0x02, 0x00};
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "vegeta-gob", other, sizeof other, NULL, &err),
                     PR_EFORMAT);
    assert_non_null(strstr(err.msg, "\"Point\""));
    assert_int_equal(c.n, 0);
    collect_free(&c);
    /* Sniffing: each file goes to its parser. */
    static const char *const files[][2] = {
        {"vegeta/basic.bin", "vegeta-gob"},
        {"vegeta/basic.json", "vegeta-json"},
        {"vegeta/basic.csv", "vegeta-csv"},
        {"vegeta/basic.report.txt", "vegeta-text"},
        {"vegeta/basic.report.json", "vegeta-report-json"},
        {"vegeta/basic.hist.txt", "vegeta-hist"},
        {"vegeta/refused.csv", "vegeta-csv"},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t len;
        char *d = test_read_file(testdata(files[i][0]), 0, &len);
        int score;
        const pr_parser *p =
            pr_parser_sniff((const unsigned char *)d, len < 4096 ? len : 4096, &score);
        assert_non_null(p);
        assert_string_equal(p->name, files[i][1]);
        free(d);
    }
}

/* First lines longer than the sniffed bytes (big bodies) are still recognised and read. */
static void test_vegeta__long_first_line(void **s)
{
    size_t body = 20000;
    char *csv = malloc(body + 200), *js = malloc(body + 400);
    int n = snprintf(csv, 200, "1796051469461933948,200,1009568,0,%zu,,", body);
    memset(csv + n, 'A', body);
    n += (int)body;
    n += snprintf(csv + n, 200, ",,0,GET,http://x/,\n");
    int m = snprintf(js, 400,
                     "{\"attack\":\"\",\"seq\":0,\"code\":200,\"timestamp\":"
                     "\"2026-11-30T15:11:09.461933948Z\",\"latency\":1009568,\"bytes_out\":0,"
                     "\"bytes_in\":%zu,\"error\":\"\",\"body\":\"",
                     body);
    memset(js + m, 'A', body);
    m += (int)body;
    m += snprintf(js + m, 400, "\",\"method\":\"GET\",\"url\":\"http://x/\",\"headers\":null}\n");
    int score;
    const pr_parser *p = pr_parser_sniff((const unsigned char *)csv, 4096, &score);
    assert_non_null(p);
    assert_string_equal(p->name, "vegeta-csv");
    p = pr_parser_sniff((const unsigned char *)js, 4096, &score);
    assert_non_null(p);
    assert_string_equal(p->name, "vegeta-json");
    collect a, b;
    pr_error err;
    collect_init(&a);
    collect_init(&b);
    assert_int_equal(collect_parse_mem(&a, NULL, csv, (size_t)n, NULL, &err), 0);
    assert_int_equal(collect_parse_mem(&b, NULL, js, (size_t)m, NULL, &err), 0);
    assert_same_samples(&a, &b);
    assert_int_equal(a.s[0].bytes_in, body);
    collect_free(&a);
    collect_free(&b);
    free(csv);
    free(js);
}

static void test_vegeta__line_errors(void **s)
{
    collect c;
    pr_error err;
    static const char csv[] = "1796051469461933948,200,1009568,0,153,,,,0,GET,http://x/,\n"
                              "1796051469461933948,200,abc,0,153,,,,0,GET,http://x/,\n";
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "vegeta-csv", csv, sizeof csv - 1, NULL, &err),
                     PR_EPARSE);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 25);
    assert_int_equal(c.sink.total, 1); /* emitted before the error (not flushed on error) */
    collect_free(&c);
    static const char quoted[] =
        "1,0,5,0,0,\"a \"\"quoted\"\", error\",,,0,GET,\"http://x/a,b\",\n";
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "vegeta-csv", quoted, sizeof quoted - 1, NULL, &err), 0);
    assert_string_equal(pr_run_str(c.run, c.s[0].error), "a \"quoted\", error");
    assert_string_equal(pr_run_str(c.run, c.s[0].url), "http://x/a,b");
    collect_free(&c);
    static const char js[] = "{\"code\":200,\"timestamp\":\"2026-11-30T11:41:09.5-03:30\","
                             "\"latency\":7,\"error\":\"a\\u003cb\\\"\",\"body\":null,"
                             "\"headers\":{\"A\":[\"x\"]},\"url\":\"u\",\"method\":\"GET\"}\n"
                             "{\"code\":20x}\n";
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, "vegeta-json", js, sizeof js - 1, NULL, &err),
                     PR_EPARSE);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 11);
    assert_int_equal(c.sink.total, 1);
    assert_string_equal(pr_run_str(c.run, c.sink.buf[0].error), "a<b\"");
    assert_int_equal(json_integer_value(json_object_get(c.run->meta, "tz_offset_min")), -210);
    assert_true(c.sink.buf[0].start_ns == 1796051469500000000LL);
    collect_free(&c);
}

static void test_vegeta__attack_names_run(void **s)
{
    static const char js[] =
        "{\"attack\":\"hotspot-100qps\",\"seq\":0,\"code\":200,\"timestamp\":"
        "\"2026-11-30T15:11:09Z\",\"latency\":7,\"bytes_out\":0,\"bytes_in\":0,\"error\":\"\","
        "\"body\":null,\"method\":\"GET\",\"url\":\"http://x/\",\"headers\":null}\n";
    collect c;
    pr_error err;
    collect_init(&c);
    assert_int_equal(collect_parse_mem(&c, NULL, js, sizeof js - 1, NULL, &err), 0);
    assert_string_equal(c.run->name, "hotspot-100qps");
    assert_string_equal(json_string_value(json_object_get(c.run->meta, "attack")),
                        "hotspot-100qps");
    collect_free(&c);
    collect_init(&c);
    pr_run_set_name(c.run, "given");
    assert_int_equal(collect_parse_mem(&c, NULL, js, sizeof js - 1, NULL, &err), 0);
    assert_string_equal(c.run->name, "given");
    collect_free(&c);
}

static int64_t sum_i(json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k));
}

/* Vegeta's text report as a summary-only run. */
static void test_vegeta__report_text(void **s)
{
    collect c;
    collect_parse_ok(&c, NULL, "vegeta/basic.report.txt", 0);
    assert_string_equal(c.run->format, "vegeta-text");
    assert_int_equal(c.run->summary_only, 1);
    json_t *sm = c.run->summary;
    assert_int_equal(sum_i(sm, "requests"), 1000);
    assert_true(json_real_value(json_object_get(sm, "rate_per_s")) == 200.22);
    assert_true(json_real_value(json_object_get(sm, "throughput_per_s")) == 200.21);
    assert_int_equal(sum_i(sm, "duration_ns"), 4995000000LL);
    assert_int_equal(sum_i(sm, "wait_ns"), 191054);
    json_t *l = json_object_get(sm, "latency_ns");
    assert_int_equal(sum_i(l, "min"), 79348);
    assert_int_equal(sum_i(l, "mean"), 243916);
    assert_int_equal(sum_i(l, "p99"), 817120);
    assert_int_equal(sum_i(l, "max"), 27900000);
    assert_int_equal(sum_i(sm, "bytes_in_total"), 153000);
    assert_true(json_real_value(json_object_get(sm, "success_ratio")) == 1.0);
    assert_int_equal(sum_i(json_object_get(sm, "status_codes"), "200"), 1000);
    assert_int_equal(json_array_size(json_object_get(sm, "errors")), 0);
    collect_free(&c);

    collect_parse_ok(&c, NULL, "vegeta/multi.report.txt", 0);
    sm = c.run->summary;
    assert_int_equal(sum_i(json_object_get(sm, "status_codes"), "0"), 100);
    assert_int_equal(sum_i(json_object_get(sm, "status_codes"), "201"), 100);
    assert_true(json_real_value(json_object_get(sm, "success_ratio")) == 0.5);
    /* the counts follow from the status codes (Vegeta's success: 200 <= code < 400) */
    assert_int_equal(sum_i(sm, "successes"), 100);
    assert_int_equal(sum_i(sm, "failures"), 100);
    json_t *e = json_array_get(json_object_get(sm, "errors"), 0);
    assert_non_null(strstr(json_string_value(json_object_get(e, "message")), "connection refused"));
    collect_free(&c);
}

/* The JSON report's numbers equal our own metrics over the results (except the percentiles,
 * which are t-digest estimates in Vegeta). */
static void test_vegeta__report_json_matches_results(void **s)
{
    static const char *const fx[] = {"basic", "mixed", "refused", "post"};
    for (size_t i = 0; i < 4; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "vegeta/%s.report.json", fx[i]);
        collect r, g;
        collect_parse_ok(&r, NULL, rel, 0);
        assert_string_equal(r.run->format, "vegeta-report-json");
        snprintf(rel, sizeof rel, "vegeta/%s.bin", fx[i]);
        collect_parse_ok(&g, NULL, rel, 0);
        pr_vegeta_stats st;
        pr_vegeta_stats_compute(&st, g.s, g.n, g.run);
        json_t *ours = pr_vegeta_stats_summary(&st, g.run);
        json_t *theirs = r.run->summary;
        static const char *const keys[] = {"requests", "duration_ns", "wait_ns", "bytes_in_total",
                                           "bytes_out_total"};
        for (size_t k = 0; k < 5; k++)
            assert_int_equal(sum_i(ours, keys[k]), sum_i(theirs, keys[k]));
        static const char *const reals[] = {"rate_per_s", "throughput_per_s", "success_ratio"};
        for (size_t k = 0; k < 3; k++)
            assert_true(json_real_value(json_object_get(ours, reals[k])) ==
                        json_real_value(json_object_get(theirs, reals[k])));
        static const char *const lk[] = {"min", "mean", "max"};
        for (size_t k = 0; k < 3; k++)
            assert_int_equal(sum_i(json_object_get(ours, "latency_ns"), lk[k]),
                             sum_i(json_object_get(theirs, "latency_ns"), lk[k]));
        assert_true(json_equal(json_object_get(ours, "status_codes"),
                               json_object_get(theirs, "status_codes")));
        assert_int_equal(sum_i(theirs, "successes"), (int64_t)st.successes);
        assert_int_equal(sum_i(theirs, "failures"), (int64_t)(st.requests - st.successes));
        json_t *oe = json_object_get(ours, "errors"), *te = json_object_get(theirs, "errors");
        assert_int_equal(json_array_size(oe), json_array_size(te));
        for (size_t k = 0; k < json_array_size(oe); k++)
            assert_string_equal(
                json_string_value(json_object_get(json_array_get(oe, k), "message")),
                json_string_value(json_object_get(json_array_get(te, k), "message")));
        assert_true(r.run->start_ns == g.run->start_ns);
        assert_true(r.run->end_ns == g.run->end_ns);
        json_decref(ours);
        pr_vegeta_stats_dispose(&st);
        collect_free(&r);
        collect_free(&g);
    }
}

/* Text and JSON reports of every fixture give the same numbers (text ones rounded). */
static void test_vegeta__report_text_matches_json(void **s)
{
    static const char *const all[] = {"basic", "mixed", "refused", "post", "multi"};
    for (size_t i = 0; i < 5; i++) {
        char rel[128];
        collect t, j;
        snprintf(rel, sizeof rel, "vegeta/%s.report.txt", all[i]);
        collect_parse_ok(&t, "vegeta-text", rel, 0);
        snprintf(rel, sizeof rel, "vegeta/%s.report.json", all[i]);
        collect_parse_ok(&j, "vegeta-report-json", rel, 0);
        json_t *ts = t.run->summary, *jsum = j.run->summary;
        static const char *const keys[] = {"requests", "bytes_in_total", "bytes_out_total"};
        for (size_t k = 0; k < 3; k++)
            assert_int_equal(sum_i(ts, keys[k]), sum_i(jsum, keys[k]));
        static const char *const durs[] = {"duration_ns", "wait_ns"};
        for (size_t k = 0; k < 2; k++)
            assert_int_equal(sum_i(ts, durs[k]), pr_vegeta_round(sum_i(jsum, durs[k])));
        static const char *const lk[] = {"min", "mean", "p50", "p90", "p95", "p99", "max"};
        for (size_t k = 0; k < 7; k++)
            assert_int_equal(sum_i(json_object_get(ts, "latency_ns"), lk[k]),
                             pr_vegeta_round(sum_i(json_object_get(jsum, "latency_ns"), lk[k])));
        assert_true(
            json_equal(json_object_get(ts, "status_codes"), json_object_get(jsum, "status_codes")));
        assert_true(json_equal(json_object_get(ts, "errors"), json_object_get(jsum, "errors")));
        char buf[32];
        snprintf(buf, sizeof buf, "%.2f",
                 json_real_value(json_object_get(jsum, "success_ratio")) * 100);
        assert_true(
            json_real_value(json_object_get(ts, "success_ratio")) * 100 == strtod(buf, NULL) ||
            fabs(json_real_value(json_object_get(ts, "success_ratio")) * 100 - strtod(buf, NULL)) <
                1e-9);
        collect_free(&t);
        collect_free(&j);
    }
}

/* vegeta report -type=hist: the buckets' counts, the last one open. */
static void test_vegeta__report_hist(void **s)
{
    collect c;
    collect_parse_ok(&c, NULL, "vegeta/mixed.hist.txt", 0);
    json_t *h = json_object_get(json_object_get(c.run->summary, "tool"), "histogram");
    static const int64_t counts[] = {762, 5, 1, 37, 40, 139, 16};
    assert_int_equal(json_array_size(h), 7);
    for (size_t i = 0; i < 7; i++)
        assert_int_equal(sum_i(json_array_get(h, i), "count"), counts[i]);
    assert_true(json_is_null(json_object_get(json_array_get(h, 6), "hi_ns")));
    collect_free(&c);
}

/* The hist report is exact in Vegeta too: byte for byte. */
static void test_vegeta__hist_agrees(void **s)
{
    static const int64_t bounds[] = {0,        2000000,   5000000,   10000000,
                                     50000000, 100000000, 1000000000};
    static const char *const fx[][2] = {{"vegeta/basic.bin", "vegeta/basic.hist.txt"},
                                        {"vegeta/mixed.bin", "vegeta/mixed.hist.txt"},
                                        {"vegeta/post.bin", "vegeta/post.hist.txt"},
                                        {"vegeta/refused.bin", "vegeta/refused.hist.txt"}};
    for (size_t i = 0; i < 4; i++) {
        collect c;
        collect_parse_ok(&c, NULL, fx[i][0], 0);
        char *ours = pr_vegeta_hist_text(c.s, c.n, bounds, 7);
        char *theirs = test_read_file(testdata(fx[i][1]), 0, NULL);
        assert_string_equal(ours, theirs);
        free(ours);
        free(theirs);
        collect_free(&c);
    }
}

static void test_vegeta__duration_format(void **s)
{
    static const struct {
        int64_t ns;
        const char *str;
    } cases[] = {
        {0, "0s"},
        {850, "850ns"},
        {191054, "191.054\xc2\xb5s"},
        {27900000, "27.9ms"},
        {4995000000LL, "4.995s"},
        {62500000000LL, "1m2.5s"},
        {3723000000000LL, "1h2m3s"},
        {-1500, "-1.5\xc2\xb5s"},
    };
    char buf[32];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_string_equal(pr_vegeta_duration_string(cases[i].ns, buf), cases[i].str);
    assert_int_equal(pr_vegeta_round(27899951), 27900000);
    assert_int_equal(pr_vegeta_round(4994575257LL), 4995000000LL);
    assert_int_equal(pr_vegeta_round(191054), 191054);
    assert_int_equal(pr_vegeta_round(1500), 1500);
    assert_int_equal(pr_vegeta_round(62500400000LL), 63000000000LL);
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vegeta__basic_agrees),
        cmocka_unit_test(test_vegeta__mixed_agrees),
        cmocka_unit_test(test_vegeta__refused_agrees),
        cmocka_unit_test(test_vegeta__post_agrees),
        cmocka_unit_test(test_vegeta__concat_reads_both_streams),
        cmocka_unit_test(test_vegeta__exact_percentiles),
        cmocka_unit_test(test_vegeta__encodings_agree),
        cmocka_unit_test(test_vegeta__sample_fields),
        cmocka_unit_test(test_vegeta__order_independent),
        cmocka_unit_test(test_vegeta__truncated_gob),
        cmocka_unit_test(test_vegeta__gob_one_pass_same),
        cmocka_unit_test(test_vegeta__huge_body),
        cmocka_unit_test(test_vegeta__time_zone),
        cmocka_unit_test(test_vegeta__timestamp_range_matches_old),
        cmocka_unit_test(test_vegeta__refuses_other_input),
        cmocka_unit_test(test_vegeta__long_first_line),
        cmocka_unit_test(test_vegeta__line_errors),
        cmocka_unit_test(test_vegeta__attack_names_run),
        cmocka_unit_test(test_vegeta__report_text),
        cmocka_unit_test(test_vegeta__report_json_matches_results),
        cmocka_unit_test(test_vegeta__report_text_matches_json),
        cmocka_unit_test(test_vegeta__report_hist),
        cmocka_unit_test(test_vegeta__hist_agrees),
        cmocka_unit_test(test_vegeta__duration_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
