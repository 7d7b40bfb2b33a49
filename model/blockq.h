/* A bounded queue of byte buffers handed, in order, from one producer thread to a consumer
 * thread of its own: pr_blockq_put copies the bytes into a free slot (the producer's buffer is
 * its own again at once) and the queue's thread calls `take` on each slot in turn. The
 * ingest's block writer (store/writer.c) and the views' feed (analysis/view_stats.c) are its
 * two users.
 *
 * Ownership: the queue owns its slots' buffers (copies, or the caller's own swapped in by
 * pr_blockq_put_swap); ctx stays the caller's. A `take` that fails
 * (returns < 0) stops the queue: later slots are dropped without a call and every later put or
 * drain returns that value. Limits: `depth` slots (at most PR_BLOCKQ_DEPTH_MAX), each as
 * large as the largest buffer put into it; `meta` of at most PR_BLOCKQ_META_MAX bytes travels
 * with each buffer. */
#ifndef PR_MODEL_BLOCKQ_H
#define PR_MODEL_BLOCKQ_H
#include <stddef.h>

#define PR_BLOCKQ_DEPTH_MAX 16
#define PR_BLOCKQ_META_MAX 64

typedef struct pr_blockq pr_blockq;

typedef struct pr_blockq_ops {
    /* On the queue's thread, once per buffer in order: 0, or < 0 to stop the queue. */
    int (*take)(void *ctx, const unsigned char *p, size_t len, const void *meta);
    /* On the queue's thread as it ends (NULL: nothing to do), e.g. its thread-local state. */
    void (*end)(void *ctx);
} pr_blockq_ops;

/* A queue of `depth` slots and its thread; NULL when the thread cannot start (the caller then
 * does the work itself). meta_size: the bytes of meta each put passes. */
pr_blockq *pr_blockq_new(size_t depth, size_t meta_size, const pr_blockq_ops *ops, void *ctx);
/* Queues a copy of p[0, len) and of meta, waiting while every slot is full. 0, or the
 * failure of an earlier take (nothing is queued then). */
int pr_blockq_put(pr_blockq *q, const void *p, size_t len, const void *meta);
/* Queues the caller's buffer itself, no copy: *buf (cap bytes, the first len of them used;
 * from malloc) becomes the slot's, and the slot's own (of at least cap bytes: made or grown
 * here) comes back in *buf for the caller to fill next. meta as pr_blockq_put. */
int pr_blockq_put_swap(pr_blockq *q, void **buf, size_t cap, size_t len, const void *meta);
/* Waits until every queued buffer is taken (or dropped after a failure). 0 or the failure. */
int pr_blockq_drain(pr_blockq *q);
/* Ends the thread, dropping what is still queued (pr_blockq_drain first to keep it), and
 * frees the queue. NULL is ignored. */
void pr_blockq_free(pr_blockq *q);

#endif
