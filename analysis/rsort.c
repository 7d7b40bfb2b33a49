/* In-place radix sorts (MSD in place, LSD through a small buffer), on one or more threads. */
#include "analysis/rsort.h"
#include "model/threads.h"
#include "model/xalloc.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define SIGN ((uint64_t)1 << 63)
#define RS_SMALL 48      /* insertion sort below this */
#define RS_LSD_MAX 32768 /* ranges this small are finished LSD through the buffer */
#define RS_LSD_BITS 11   /* LSD digit width at most */
#define RS_MSD_BUCKETS PR_RSORT_BUCKETS
#define RS_PAR_MIN 65536 /* smaller sorts stay on one thread */
#define RS_MAX_THREADS PR_THREADS_MAX

static inline size_t rs_bucket(uint64_t u)
{
    return pr_rsort_bucket(u);
}

/* A thread's LSD buffers: keys and payloads of up to `cap` elements, digit counts. */
typedef struct rs_scratch {
    uint64_t *keys;
    uint32_t *payload;
    size_t count[1u << RS_LSD_BITS];
} rs_scratch;

static rs_scratch *scratch_new(size_t cap)
{
    rs_scratch *s = pr_xmalloc(sizeof *s);
    s->keys = pr_xmalloc((cap ? cap : 1) * sizeof *s->keys);
    s->payload = pr_xmalloc((cap ? cap : 1) * sizeof *s->payload);
    return s;
}

static void scratch_free(rs_scratch *s)
{
    free(s->keys);
    free(s->payload);
    free(s);
}

#define RS_NAME(x) x##_k
#include "analysis/rsort_impl.h"
#undef RS_NAME

#define RS_NAME(x) x##_k16
#define RS_PAYLOAD uint16_t
#include "analysis/rsort_impl.h"
#undef RS_NAME
#undef RS_PAYLOAD

#define RS_NAME(x) x##_k32
#define RS_PAYLOAD uint32_t
#include "analysis/rsort_impl.h"
#undef RS_NAME
#undef RS_PAYLOAD

#define RS_KEY32
#define RS_NAME(x) x##_u16
#define RS_PAYLOAD uint16_t
#include "analysis/rsort_impl.h"
#undef RS_NAME
#undef RS_PAYLOAD

#define RS_NAME(x) x##_u32
#define RS_PAYLOAD uint32_t
#include "analysis/rsort_impl.h"
#undef RS_NAME
#undef RS_PAYLOAD
#undef RS_KEY32

void pr_rsort_i64(int64_t *key, size_t n)
{
    sort_one_k(key, n);
}

void pr_rsort_i64_u16(int64_t *key, uint16_t *payload, size_t n)
{
    sort_one_k16(key, payload, n);
}

void pr_rsort_i64_u32(int64_t *key, uint32_t *payload, size_t n)
{
    sort_one_k32(key, payload, n);
}

void pr_rsort_i64_par(int64_t *key, size_t n, int threads)
{
    sort_par_k(key, n, threads);
}

void pr_rsort_i64_u16_par(int64_t *key, uint16_t *payload, size_t n, int threads)
{
    sort_par_k16(key, payload, n, threads);
}

void pr_rsort_i64_u32_par(int64_t *key, uint32_t *payload, size_t n, int threads)
{
    sort_par_k32(key, payload, n, threads);
}

void pr_rsort_i64_u16_ranges(int64_t *key, uint16_t *payload, const size_t *bounds, size_t nranges,
                             int threads)
{
    sort_ranges_k16(key, payload, bounds, nranges, threads);
}

void pr_rsort_i64_u32_ranges(int64_t *key, uint32_t *payload, const size_t *bounds, size_t nranges,
                             int threads)
{
    sort_ranges_k32(key, payload, bounds, nranges, threads);
}

void pr_rsort_i64_ranges(int64_t *key, const size_t *bounds, size_t nranges, int threads)
{
    sort_ranges_k(key, bounds, nranges, threads);
}

void pr_rsort_u32_u16_ranges(uint32_t *key, uint16_t *payload, const size_t *bounds, size_t nranges,
                             int threads)
{
    sort_ranges_u16(key, payload, bounds, nranges, threads);
}

void pr_rsort_u32_u32_ranges(uint32_t *key, uint32_t *payload, const size_t *bounds, size_t nranges,
                             int threads)
{
    sort_ranges_u32(key, payload, bounds, nranges, threads);
}

void pr_rsort_u32_u16(uint32_t *key, uint16_t *payload, size_t n)
{
    sort_one_u16(key, payload, n);
}
