/* Unit tests: the in-place radix sorts (analysis/rsort.h) against qsort, payloads kept with
 * their keys, on one and several threads, over the distributions that stress each step. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/cellsort.h"
#include "analysis/rsort.h"

static uint64_t rng = 0x243F6A8885A308D3ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

typedef struct pair {
    int64_t k;
    uint32_t p;
} pair;

static int cmp_pair(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    if (x->k != y->k)
        return x->k < y->k ? -1 : 1;
    return (x->p > y->p) - (x->p < y->p);
}

/* Keys of kind `kind`: 0 latencies (lognormal-ish, a slow tail), 1 all equal, 2 full int64
 * range with negatives, 3 few distinct values, 4 sorted, 5 reverse sorted, 6 a concentrated
 * distribution (one MSD bucket holds most keys), 7 unknown sentinels mixed in. */
static int64_t key_of(int kind, size_t i, size_t n)
{
    uint64_t r = next();
    switch (kind) {
    case 0: return (int64_t)(1000000 + r % 3000000) * (r % 100 == 0 ? 20 : 1);
    case 1: return 42;
    case 2: return (int64_t)r;
    case 3: return (int64_t)(r % 7) * 1000000;
    case 4: return (int64_t)i;
    case 5: return (int64_t)(n - i);
    case 6: return 5000000000LL + (int64_t)(r % 50000);
    default: return r % 10 == 0 ? INT64_MIN : (int64_t)(r % 100000) - 50000;
    }
}

static void check_kind(int kind, size_t n, int width, int threads)
{
    int64_t *k = malloc((n + 1) * sizeof *k);
    uint16_t *p16 = malloc((n + 1) * sizeof *p16);
    uint32_t *p32 = malloc((n + 1) * sizeof *p32);
    pair *ref = malloc((n + 1) * sizeof *ref);
    for (size_t i = 0; i < n; i++) {
        k[i] = key_of(kind, i, n);
        p32[i] = (uint32_t)(next() % (width == 16 ? 65536 : 4000000000u));
        p16[i] = (uint16_t)p32[i];
        ref[i] = (pair){k[i], width == 16 ? p16[i] : width == 32 ? p32[i] : 0};
    }
    if (width == 16)
        threads > 1 ? pr_rsort_i64_u16_par(k, p16, n, threads) : pr_rsort_i64_u16(k, p16, n);
    else if (width == 32)
        threads > 1 ? pr_rsort_i64_u32_par(k, p32, n, threads) : pr_rsort_i64_u32(k, p32, n);
    else
        threads > 1 ? pr_rsort_i64_par(k, n, threads) : pr_rsort_i64(k, n);
    qsort(ref, n, sizeof *ref, cmp_pair);
    for (size_t i = 0; i + 1 < n; i++)
        assert_true(k[i] <= k[i + 1]);
    /* the same (key, payload) pairs: sort each run of equal keys by payload, then compare */
    pair *got = malloc((n + 1) * sizeof *got);
    for (size_t i = 0; i < n; i++)
        got[i] = (pair){k[i], width == 16 ? p16[i] : width == 32 ? p32[i] : 0};
    qsort(got, n, sizeof *got, cmp_pair);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(got[i].k, ref[i].k);
        assert_int_equal(got[i].p, ref[i].p);
    }
    free(got);
    free(k);
    free(p16);
    free(p32);
    free(ref);
}

static void test_rsort__matches_qsort(void **st)
{
    static const size_t sizes[] = {0, 1, 2, 47, 48, 49, 1000, 32768, 32769, 70000, 300000};
    for (int kind = 0; kind < 8; kind++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (int width = 0; width <= 32; width += 16)
                check_kind(kind, sizes[s], width, 1);
}

static void test_rsort__parallel_matches_qsort(void **st)
{
    for (int kind = 0; kind < 8; kind++)
        for (int width = 0; width <= 32; width += 16)
            for (int threads = 2; threads <= 3; threads++)
                check_kind(kind, 200000 + (size_t)kind * 1111, width, threads);
}

/* Unsigned 32-bit keys (cellsort's low halves) with 16-bit payloads, against qsort. */
static void test_rsort__u32_keys(void **st)
{
    static const size_t sizes[] = {0, 1, 47, 49, 1000, 32769, 300000};
    for (int kind = 0; kind < 8; kind++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            size_t n = sizes[s];
            uint32_t *k = malloc((n + 1) * sizeof *k);
            uint16_t *p = malloc((n + 1) * sizeof *p);
            pair *ref = malloc((n + 1) * sizeof *ref), *got = malloc((n + 1) * sizeof *got);
            for (size_t i = 0; i < n; i++) {
                k[i] = (uint32_t)key_of(kind, i, n);
                p[i] = (uint16_t)next();
                ref[i] = (pair){k[i], p[i]};
            }
            pr_rsort_u32_u16(k, p, n);
            for (size_t i = 0; i < n; i++) {
                if (i)
                    assert_true(k[i - 1] <= k[i]);
                got[i] = (pair){k[i], p[i]};
            }
            qsort(ref, n, sizeof *ref, cmp_pair);
            qsort(got, n, sizeof *got, cmp_pair);
            for (size_t i = 0; i < n; i++) {
                assert_int_equal(got[i].k, ref[i].k);
                assert_int_equal(got[i].p, ref[i].p);
            }
            free(k);
            free(p);
            free(ref);
            free(got);
        }
}

static int64_t wide_key(size_t i);

/* The sorted set read in order (pr_cellsort_read in odd chunks, then pr_cellsort_next) against
 * ref, sorted by (value, cell): ascending values, and the same pairs. */
static void check_sorted_pairs(const pr_cellsort *cs, const pair *ref, size_t n)
{
    pair *got = malloc((n + 1) * sizeof *got);
    int64_t v[37];
    uint32_t c[37];
    size_t at = 0, k;
    while ((k = pr_cellsort_read(cs, at, v, c, 37)) > 0) {
        for (size_t j = 0; j < k; j++)
            got[at + j] = (pair){v[j], c[j]};
        at += k;
    }
    assert_int_equal(at, n);
    pr_cellsort_it it;
    pr_cellsort_it_init(&it, cs);
    int64_t x;
    uint32_t y;
    for (size_t i = 0; pr_cellsort_next(&it, &x, &y); i++) {
        assert_true(i < n);
        assert_int_equal(x, got[i].k);
        assert_int_equal(y, got[i].p);
        if (i)
            assert_true(got[i - 1].k <= got[i].k);
    }
    qsort(got, n, sizeof *got, cmp_pair);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(got[i].k, ref[i].k);
        assert_int_equal(got[i].p, ref[i].p);
    }
    free(got);
}

/* A bucketed pair set (past PR_CELLSORT_BUCKETED), with negatives, a concentrated bucket,
 * more pairs than announced and cells widened half way, against qsort. */
static void test_rsort__cellsort_bucketed(void **st)
{
    size_t n = PR_CELLSORT_BUCKETED + 200000;
    pr_cellsort cs;
    pr_cellsort_init(&cs, n - 50000); /* fewer than come: it grows */
    pair *ref = malloc(n * sizeof *ref);
    for (size_t i = 0; i < n; i++) {
        int kind = (int)(i % 5);
        int64_t k = kind == 4   ? 7000000 + (int64_t)(next() % 3)
                    : kind == 2 ? wide_key(i / 5)
                                : key_of(kind == 3 ? 7 : 0, i, n);
        uint32_t c = i > n / 2 ? (uint32_t)(next() % 100000) : (uint32_t)(next() % 60000);
        pr_cellsort_add(&cs, k, c);
        ref[i] = (pair){k, c};
    }
    pr_cellsort_sort(&cs);
    assert_int_equal(cs.n, n);
    assert_non_null(cs.c32);
    assert_non_null(cs.lo);   /* the values in [0, 2^38) in 4 bytes */
    assert_non_null(cs.wide); /* the others apart */
    qsort(ref, n, sizeof *ref, cmp_pair);
    check_sorted_pairs(&cs, ref, n);
    pr_cellsort_flatten(&cs); /* the same pairs, read by index */
    assert_null(cs.lo);
    assert_int_equal(cs.n, n);
    pair *got = malloc(n * sizeof *got);
    for (size_t i = 0; i < n; i++) {
        if (i)
            assert_true(cs.v[i - 1] <= cs.v[i]);
        got[i] = (pair){cs.v[i], pr_cellsort_cell(&cs, i)};
    }
    qsort(got, n, sizeof *got, cmp_pair);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(got[i].k, ref[i].k);
        assert_int_equal(got[i].p, ref[i].p);
    }
    free(got);
    free(ref);
    pr_cellsort_dispose(&cs);
}

/* Values of every range: latencies, each high half of [0, 2^38) at its bounds, 2^38 - 1 and
 * 2^38, minutes, negatives and the extremes. */
static int64_t wide_key(size_t i)
{
    uint64_t r = next();
    switch (i % 6) {
    case 0: return (int64_t)(r % 5000000000ull);
    case 1: return ((int64_t)(r % 64) << 32) + (int64_t)(r >> 40) % 3 - 1;
    case 2: return (int64_t)(PR_CELLSORT_NARROW)-1 + (int64_t)(r % 2);
    case 3: return (int64_t)(r % (1ull << 45));
    case 4: return r % 3 == 0 ? INT64_MIN : r % 3 == 1 ? INT64_MAX : -(int64_t)(r % 1000000);
    default: return (int64_t)(r % 200);
    }
}

/* Two fillers (the report's two scan threads) with values of every range and the part's cells
 * remapped at the join, then sorted and flattened, against qsort. */
static void test_rsort__cellsort_two_fillers(void **st)
{
    size_t n = PR_CELLSORT_BUCKETED + 100000;
    pr_cellsort cs, part;
    pr_cellsort_init_fillers(&cs, n, 2);
    assert_int_equal(pr_cellsort_part_open(&cs, &part), 0);
    uint32_t map[8] = {5, 6, 7, 0, 1, 2, 3, 4}; /* the part's cell c becomes map[c >> 12] << 12 */
    pair *ref = malloc(n * sizeof *ref);
    for (size_t i = 0; i < n; i++) {
        int64_t k = wide_key(i);
        uint32_t c = (uint32_t)(next() % 32768);
        int to_part = (i / 1000) % 2;
        pr_cellsort_add(to_part ? &part : &cs, k, c);
        ref[i] = (pair){k, to_part ? map[c >> 12] << 12 | (c & 4095) : c};
    }
    assert_false(pr_cellsort_part_lost(&cs, &part));
    pr_cellsort_part_join(&cs, &part, map, 12);
    pr_cellsort_sort(&cs);
    assert_int_equal(cs.n, n);
    qsort(ref, n, sizeof *ref, cmp_pair);
    check_sorted_pairs(&cs, ref, n);
    pr_cellsort_flatten(&cs);
    check_sorted_pairs(&cs, ref, n);
    free(ref);
    pr_cellsort_dispose(&cs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rsort__matches_qsort),
        cmocka_unit_test(test_rsort__parallel_matches_qsort),
        cmocka_unit_test(test_rsort__cellsort_bucketed),
        cmocka_unit_test(test_rsort__cellsort_two_fillers),
        cmocka_unit_test(test_rsort__u32_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
