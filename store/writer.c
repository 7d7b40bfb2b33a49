/* The ingest's block writer: the blocks' copies queued (model/blockq.h) for a thread that
 * stores them. */
#include "store/writer.h"
#include "model/blockq.h"
#include "model/threads.h"
#include "model/xalloc.h"
#include <stdlib.h>
#include <string.h>

#define QUEUE 4 /* blocks in flight: the parser is at most this far ahead */

typedef struct meta {
    int64_t run_id;
    pr_store_block b; /* its data: the slot's copy */
} meta;

struct pr_block_writer {
    pr_store *st;
    pr_blockq *q;
    pr_error err; /* the failed block's (written by the queue's thread before it stops) */
};

static int take_block(void *ctx, const unsigned char *p, size_t len, const void *m)
{
    pr_block_writer *w = ctx;
    const meta *mt = m;
    pr_store_block b = mt->b;
    b.data = p;
    b.len = len;
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
    meta m = {run_id, *b};
    m.b.data = NULL;
    int rc = pr_blockq_put(w->q, b->data, b->len, &m);
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
    free(w);
}
