/* A bounded producer-consumer queue of buffer copies with a consumer thread of its own. */
#include "model/blockq.h"
#include "model/xalloc.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct slot {
    unsigned char *data;
    size_t len, cap;
    unsigned char meta[PR_BLOCKQ_META_MAX];
} slot;

struct pr_blockq {
    pr_blockq_ops ops;
    void *ctx;
    size_t depth, meta_size;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv; /* a change of count, stop or rc */
    slot q[PR_BLOCKQ_DEPTH_MAX];
    size_t head, count; /* q[head .. head + count) wait; q[head] is taken next */
    int stop;
    int rc; /* the first failure: nothing is taken after it */
};

static void *run_queue(void *arg)
{
    pr_blockq *q = arg;
    pthread_mutex_lock(&q->mu);
    for (;;) {
        while (!q->count && !q->stop)
            pthread_cond_wait(&q->cv, &q->mu);
        if (q->stop)
            break;
        slot *s = &q->q[q->head];
        if (!q->rc) { /* the slot is the thread's until count drops */
            pthread_mutex_unlock(&q->mu);
            int rc = q->ops.take(q->ctx, s->data, s->len, s->meta);
            pthread_mutex_lock(&q->mu);
            if (rc < 0)
                q->rc = rc;
        }
        q->head = (q->head + 1) % q->depth;
        q->count--;
        pthread_cond_broadcast(&q->cv);
    }
    pthread_mutex_unlock(&q->mu);
    if (q->ops.end)
        q->ops.end(q->ctx);
    return NULL;
}

pr_blockq *pr_blockq_new(size_t depth, size_t meta_size, const pr_blockq_ops *ops, void *ctx)
{
    if (depth < 1 || depth > PR_BLOCKQ_DEPTH_MAX || meta_size > PR_BLOCKQ_META_MAX)
        return NULL;
    pr_blockq *q = pr_xcalloc(1, sizeof *q);
    q->ops = *ops;
    q->ctx = ctx;
    q->depth = depth;
    q->meta_size = meta_size;
    pthread_mutex_init(&q->mu, NULL);
    pthread_cond_init(&q->cv, NULL);
    if (pthread_create(&q->th, NULL, run_queue, q) != 0) {
        pthread_cond_destroy(&q->cv);
        pthread_mutex_destroy(&q->mu);
        free(q);
        return NULL;
    }
    return q;
}

/* A free slot for the producer (waiting for one), NULL after a failure (*rc). The slot is the
 * producer's until slot_publish. */
static slot *slot_free(pr_blockq *q, int *rc)
{
    pthread_mutex_lock(&q->mu);
    while (q->count == q->depth && !q->rc)
        pthread_cond_wait(&q->cv, &q->mu);
    *rc = q->rc;
    slot *s = *rc ? NULL : &q->q[(q->head + q->count) % q->depth];
    pthread_mutex_unlock(&q->mu);
    return s;
}

static void slot_publish(pr_blockq *q, slot *s, size_t len, const void *meta)
{
    s->len = len;
    if (q->meta_size)
        memcpy(s->meta, meta, q->meta_size);
    pthread_mutex_lock(&q->mu);
    q->count++;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
}

int pr_blockq_put(pr_blockq *q, const void *p, size_t len, const void *meta)
{
    int rc;
    slot *s = slot_free(q, &rc);
    if (!s)
        return rc;
    s->data = pr_xgrow(s->data, &s->cap, len ? len : 1, 1);
    memcpy(s->data, p, len);
    slot_publish(q, s, len, meta);
    return 0;
}

int pr_blockq_put_swap(pr_blockq *q, void **buf, size_t cap, size_t len, const void *meta)
{
    int rc;
    slot *s = slot_free(q, &rc);
    if (!s)
        return rc;
    if (s->cap < cap) { /* its content is not needed: a new buffer rather than a copy */
        free(s->data);
        s->data = pr_xmalloc(cap ? cap : 1);
        s->cap = cap;
    }
    void *mine = s->data; /* at least cap bytes */
    s->data = *buf;
    s->cap = cap;
    *buf = mine;
    slot_publish(q, s, len, meta);
    return 0;
}

int pr_blockq_drain(pr_blockq *q)
{
    pthread_mutex_lock(&q->mu);
    while (q->count)
        pthread_cond_wait(&q->cv, &q->mu);
    int rc = q->rc;
    pthread_mutex_unlock(&q->mu);
    return rc;
}

void pr_blockq_free(pr_blockq *q)
{
    if (!q)
        return;
    pthread_mutex_lock(&q->mu);
    q->stop = 1;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
    pthread_join(q->th, NULL);
    for (size_t i = 0; i < q->depth; i++)
        free(q->q[i].data);
    pthread_cond_destroy(&q->cv);
    pthread_mutex_destroy(&q->mu);
    free(q);
}
