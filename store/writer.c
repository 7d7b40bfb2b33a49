/* The ingest's block writer: the blocks queued (model/blockq.h) for a thread that stores them,
 * encoding there the blocks the ingest made from samples. */
#include "store/writer.h"
#include "model/blockq.h"
#include "model/buf.h"
#include "model/native.h"
#include "model/threads.h"
#include "model/xalloc.h"
#include <stdlib.h>
#include <string.h>

#define QUEUE 4 /* blocks in flight: the parser is at most this far ahead */

typedef struct meta {
    int64_t run_id;
    pr_store_block b; /* its data: the slot's bytes, or their encoding */
    size_t nsamples;  /* the slot holds this many samples to encode (0: an encoded block) */
} meta;

struct pr_block_writer {
    pr_store *st;
    pr_blockq *q;
    pr_buf enc;   /* the thread's encoding of a samples slot */
    pr_error err; /* the failed block's (written by the queue's thread before it stops) */
};

/* A samples slot's block as the ingest's flush_block builds it: the encoding and the range of
 * the start times. */
static void encode_samples(pr_block_writer *w, const pr_sample *s, size_t n, pr_store_block *b)
{
    pr_buf_reset(&w->enc);
    pr_block_encode(s, n, &w->enc);
    b->samples = (int64_t)n;
    b->start_min = b->start_max = PR_UNKNOWN;
    for (size_t i = 0; i < n; i++) {
        int64_t t = s[i].start_ns;
        if (t == PR_UNKNOWN)
            continue;
        if (b->start_min == PR_UNKNOWN || t < b->start_min)
            b->start_min = t;
        if (b->start_max == PR_UNKNOWN || t > b->start_max)
            b->start_max = t;
    }
    b->data = w->enc.p;
    b->len = w->enc.len;
}

static int take_block(void *ctx, const unsigned char *p, size_t len, const void *m)
{
    pr_block_writer *w = ctx;
    const meta *mt = m;
    pr_store_block b = mt->b;
    if (mt->nsamples) {
        encode_samples(w, (const pr_sample *)(const void *)p, mt->nsamples, &b);
    } else {
        b.data = p;
        b.len = len;
    }
    pr_error_clear(&w->err);
    int rc = w->st->ops->block_put(w->st, mt->run_id, &b, &w->err);
    return rc < 0 ? rc : 0;
}

pr_block_writer *pr_block_writer_new(pr_store *st)
{
    if (pr_threads() < 2)
        return NULL;
    pr_block_writer *w = pr_xcalloc(1, sizeof *w);
    w->st = st;
    w->enc.max = (size_t)1 << 30; /* as the ingest's own block buffer */
    static const pr_blockq_ops ops = {take_block, NULL};
    w->q = pr_blockq_new(QUEUE, sizeof(meta), &ops, w);
    if (!w->q) {
        free(w);
        return NULL;
    }
    return w;
}

int pr_block_writer_put(pr_block_writer *w, int64_t run_id, const pr_store_block *b, pr_error *err)
{
    meta m = {run_id, *b, 0};
    m.b.data = NULL;
    int rc = pr_blockq_put(w->q, b->data, b->len, &m);
    if (rc && err)
        *err = w->err;
    return rc;
}

int pr_block_writer_put_samples(pr_block_writer *w, int64_t run_id, int64_t seq,
                                pr_sample **samples, size_t n, pr_error *err)
{
    meta m = {run_id, {seq, (int64_t)n, PR_UNKNOWN, PR_UNKNOWN, NULL, 0}, n};
    void *buf = *samples; /* swapped with a free slot's: no copy */
    int rc = pr_blockq_put_swap(w->q, &buf, PR_NATIVE_BLOCK_MAX * sizeof **samples,
                                n * sizeof **samples, &m);
    *samples = buf;
    if (rc && err)
        *err = w->err;
    return rc;
}

int pr_block_writer_drain(pr_block_writer *w, pr_error *err)
{
    int rc = pr_blockq_drain(w->q);
    if (rc && err)
        *err = w->err;
    return rc;
}

void pr_block_writer_free(pr_block_writer *w)
{
    if (!w)
        return;
    pr_blockq_free(w->q);
    pr_buf_dispose(&w->enc);
    free(w);
}
