/* Order statistics from bucket counts and the values of the wanted buckets (rank_buckets.h). */
#include "analysis/rank_buckets.h"
#include "analysis/view_stats.h"
#include "model/xalloc.h"
#include <stdlib.h>
#include <string.h>

void pr_rank_buckets_init(pr_rank_buckets *rb)
{
    memset(rb, 0, sizeof *rb);
    rb->hist = pr_xcalloc(PR_RB_BUCKETS, sizeof *rb->hist);
}

void pr_rank_buckets_merge(pr_rank_buckets *a, const pr_rank_buckets *b)
{
    for (size_t k = 0; k < PR_RB_BUCKETS; k++)
        a->hist[k] += b->hist[k];
}

int pr_rank_buckets_plan(pr_rank_buckets *rb, const size_t *rank, size_t nr, size_t n)
{
    size_t want = 0, b = 0;
    uint64_t below = 0; /* values in the buckets before b */
    uint32_t slot_b[PR_RB_MAX];
    rb->nr = nr;
    rb->nslots = 0;
    for (size_t i = 0; i < nr; i++) {
        while (below + rb->hist[b] < rank[i])
            below += rb->hist[b++];
        if (!rb->nslots || slot_b[rb->nslots - 1] != b) { /* ranks ascend: buckets too */
            slot_b[rb->nslots] = (uint32_t)b;
            rb->ncand[rb->nslots++] = (size_t)rb->hist[b];
            want += (size_t)rb->hist[b];
        }
        rb->slot[i] = rb->nslots - 1;
        rb->rank_in[i] = rank[i] - (size_t)below;
    }
    rb->collect = want <= n / 4 + 1024 && want <= ((size_t)64 << 20);
    if (!rb->collect)
        return 0;
    rb->slot_of = pr_xcalloc(PR_RB_BUCKETS, 1);
    for (size_t k = 0; k < rb->nslots; k++) {
        rb->cand[k] = pr_xmalloc((rb->ncand[k] ? rb->ncand[k] : 1) * sizeof *rb->cand[k]);
        rb->size[k] = rb->top[k] = rb->ncand[k];
        rb->ncand[k] = 0;
        rb->slot_of[slot_b[k]] = (uint8_t)(k + 1);
    }
    return 1;
}

void pr_rank_buckets_values(pr_rank_buckets *rb, int64_t *out)
{
    for (size_t k = 0; k < rb->nslots; k++) { /* the two ends' values side by side */
        size_t hi = rb->size[k] - rb->top[k];
        if (hi && rb->top[k] != rb->ncand[k])
            memmove(rb->cand[k] + rb->ncand[k], rb->cand[k] + rb->top[k], hi * sizeof *rb->cand[k]);
        rb->ncand[k] += hi;
        rb->top[k] = rb->size[k];
    }
    for (size_t i = 0; i < rb->nr; i++)
        pr_select_ranks(rb->cand[rb->slot[i]], rb->ncand[rb->slot[i]], &rb->rank_in[i], 1, &out[i]);
}

void pr_rank_buckets_dispose(pr_rank_buckets *rb)
{
    free(rb->hist);
    free(rb->slot_of);
    for (size_t k = 0; k < PR_RB_MAX; k++)
        free(rb->cand[k]);
    memset(rb, 0, sizeof *rb);
}
