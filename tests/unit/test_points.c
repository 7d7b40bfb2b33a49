/* Unit tests: the latency chart's points (analysis/points.c) loaded as compact chunks, on one
 * thread and on two (pr_store_scan_cols_mt), against the flat arrays the chart drew before:
 * the same points in the same (storage) order, the unknown latencies left out, the window
 * applied, each chunk's summary true, offsets where a block spans < 2^32 ns, values else. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analysis/points.h"
#include "model/run.h"
#include "tests/unit/lib/gen.h"
#include "tests/unit/lib/ingest.h"

enum { N = 300000 };

/* Random samples (unknowns, errors, latencies to 5 s, starts 1.5 ms apart) with the middle
 * third closely spaced and fast, so the store holds blocks of both kinds. */
static int64_t ingest_points_run(pr_store *st)
{
    pr_run *run = pr_run_new();
    pr_sample *s = calloc(N, sizeof *s);
    gen_samples(run, s, N, 7);
    for (size_t i = N / 3; i < 2 * N / 3; i++) {
        if (s[i].start_ns != PR_UNKNOWN)
            s[i].start_ns = s[N / 3].start_ns + (int64_t)i * 1000;
        if (s[i].latency_ns != PR_UNKNOWN)
            s[i].latency_ns %= 900000000;
    }
    int64_t id = test_ingest_samples(st, run, s, N, "points");
    free(s);
    pr_run_free(run);
    return id;
}

/* The chunks' points against the flat ones with a known latency, in order. */
static void check_chunks(const pr_points *flat, const pr_points *ck, int *narrow, int *wide)
{
    assert_int_equal(ck->in_window, flat->n);
    size_t j = 0, total = 0;
    for (size_t k = 0; k < ck->nchunks; k++) {
        const pr_points_chunk *c = &ck->chunks[k];
        assert_true(c->n > 0);
        assert_true((c->dt == NULL) != (c->t_ns == NULL));
        assert_true((c->dl == NULL) != (c->latency_ns == NULL));
        *narrow += c->dt && c->dl;
        *wide += c->t_ns || c->latency_ns;
        int64_t tmin = INT64_MAX, tmax = INT64_MIN, lpos = INT64_MAX, lmax = INT64_MIN;
        size_t errors = 0;
        for (size_t i = 0; i < c->n; i++, j++) {
            while (j < flat->n && flat->latency_ns[j] < 0)
                j++;
            assert_true(j < flat->n);
            int64_t t = c->dt ? c->t0_ns + (int64_t)c->dt[i] : c->t_ns[i];
            int64_t l = c->dl ? c->l0_ns + (int64_t)c->dl[i] : c->latency_ns[i];
            int ok = c->ok_bits ? c->ok_bits[i / 8] >> (i % 8) & 1 : 1;
            assert_true(t == flat->t_ns[j] && l == flat->latency_ns[j] && ok == flat->ok[j]);
            tmin = t < tmin ? t : tmin;
            tmax = t > tmax ? t : tmax;
            lpos = l > 0 && l < lpos ? l : lpos;
            lmax = l > lmax ? l : lmax;
            errors += !ok;
        }
        assert_true(c->tmin_ns == tmin && c->tmax_ns == tmax);
        assert_true(c->lmin_ns == lpos && c->lmax_ns == lmax && c->errors == errors);
        assert_true(c->ok_bits != NULL || errors == 0);
        total += c->n;
    }
    while (j < flat->n && flat->latency_ns[j] < 0)
        j++;
    assert_int_equal(j, flat->n);
    assert_int_equal(ck->n, total);
}

static void test_points__chunks_equal_flat_on_1_and_2_threads(void **st_)
{
    pr_store *st = test_store_open();
    int64_t id = ingest_points_run(st);
    assert_true(id > 0);
    static const int64_t windows[][2] = {{PR_UNKNOWN, PR_UNKNOWN}, {20000000000LL, 300000000000LL}};
    for (size_t w = 0; w < 2; w++) {
        pr_error err;
        pr_error_clear(&err);
        pr_points flat;
        assert_int_equal(pr_points_load(st, id, windows[w][0], windows[w][1], &flat, &err), 0);
        assert_true(flat.n > N / 3);
        for (int th = 1; th <= 2; th++) {
            pr_points ck;
            assert_int_equal(
                pr_points_load_chunks(st, id, windows[w][0], windows[w][1], th, &ck, &err), 0);
            int narrow = 0, wide = 0;
            check_chunks(&flat, &ck, &narrow, &wide);
            assert_true(narrow > 0 && wide > 0);
            assert_true(ck.t_ns == NULL && ck.latency_ns == NULL && ck.ok == NULL);
            pr_points_dispose(&ck);
        }
        pr_points_dispose(&flat);
    }
    test_store_close(st);
    (void)st_;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_points__chunks_equal_flat_on_1_and_2_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
