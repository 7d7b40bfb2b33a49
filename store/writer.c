/* The ingest's block writer: a queue of block copies and the thread that stores them. */
#include "store/writer.h"
#include "model/buf.h"
#include "model/native.h"
#include "model/threads.h"
#include "model/xalloc.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define QUEUE 4 /* blocks in flight: the parser is at most this far ahead */

typedef struct slot {
    pr_store_block b;
    int64_t run_id;
    unsigned char *data;
    size_t cap;
    pr_sample *samples; /* PR_NATIVE_BLOCK_MAX of them, or NULL (never a samples slot yet) */
    size_t nsamples;    /* samples to encode on the thread, 0: b is encoded already */
    pr_buf enc;         /* their encoding */
} slot;

struct pr_block_writer {
    pr_store *st;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv; /* a change of count, stop or rc */
    slot q[QUEUE];
    size_t head, count; /* q[head] is written next */
    int stop;
    int rc; /* the first failure (nothing written after it) */
    pr_error err;
};

/* A samples slot's block as the ingest's flush_block builds it: the encoding and the range of
 * the start times. */
static void encode_slot(slot *s)
{
    pr_buf_reset(&s->enc);
    pr_block_encode(s->samples, s->nsamples, &s->enc);
    s->b.samples = (int64_t)s->nsamples;
    s->b.start_min = s->b.start_max = PR_UNKNOWN;
    for (size_t i = 0; i < s->nsamples; i++) {
        int64_t t = s->samples[i].start_ns;
        if (t == PR_UNKNOWN)
            continue;
        if (s->b.start_min == PR_UNKNOWN || t < s->b.start_min)
            s->b.start_min = t;
        if (s->b.start_max == PR_UNKNOWN || t > s->b.start_max)
            s->b.start_max = t;
    }
    s->b.data = s->enc.p;
    s->b.len = s->enc.len;
}

static void *run_writer(void *arg)
{
    pr_block_writer *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->count && !w->stop)
            pthread_cond_wait(&w->cv, &w->mu);
        if (w->stop)
            break;
        slot *s = &w->q[w->head];
        int rc = 0;
        pr_error err;
        pr_error_clear(&err);
        if (!w->rc) { /* the slot is the writer's until count drops */
            pthread_mutex_unlock(&w->mu);
            if (s->nsamples)
                encode_slot(s);
            rc = w->st->ops->block_put(w->st, s->run_id, &s->b, &err);
            pthread_mutex_lock(&w->mu);
        }
        if (rc < 0 && !w->rc) {
            w->rc = rc;
            w->err = err;
        }
        w->head = (w->head + 1) % QUEUE;
        w->count--;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

pr_block_writer *pr_block_writer_new(pr_store *st)
{
    if (pr_threads() < 2)
        return NULL;
    pr_block_writer *w = pr_xcalloc(1, sizeof *w);
    w->st = st;
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    if (pthread_create(&w->th, NULL, run_writer, w) != 0) {
        pthread_cond_destroy(&w->cv);
        pthread_mutex_destroy(&w->mu);
        free(w);
        return NULL;
    }
    return w;
}

int pr_block_writer_put(pr_block_writer *w, int64_t run_id, const pr_store_block *b, pr_error *err)
{
    pthread_mutex_lock(&w->mu);
    while (w->count == QUEUE && !w->rc)
        pthread_cond_wait(&w->cv, &w->mu);
    int rc = w->rc;
    if (rc) {
        if (err)
            *err = w->err;
    } else { /* the free slot is the parser's until count grows */
        slot *s = &w->q[(w->head + w->count) % QUEUE];
        pthread_mutex_unlock(&w->mu);
        s->data = pr_xgrow(s->data, &s->cap, b->len ? b->len : 1, 1);
        memcpy(s->data, b->data, b->len);
        s->b = *b;
        s->b.data = s->data;
        s->run_id = run_id;
        s->nsamples = 0;
        pthread_mutex_lock(&w->mu);
        w->count++;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return rc;
}

int pr_block_writer_put_samples(pr_block_writer *w, int64_t run_id, int64_t seq,
                                pr_sample **samples, size_t n, pr_error *err)
{
    pthread_mutex_lock(&w->mu);
    while (w->count == QUEUE && !w->rc)
        pthread_cond_wait(&w->cv, &w->mu);
    int rc = w->rc;
    if (rc) {
        if (err)
            *err = w->err;
    } else { /* the free slot is the parser's until count grows */
        slot *s = &w->q[(w->head + w->count) % QUEUE];
        pthread_mutex_unlock(&w->mu);
        if (!s->samples) {
            s->samples = pr_xmalloc(PR_NATIVE_BLOCK_MAX * sizeof *s->samples);
            s->enc.max = (size_t)1 << 30; /* as the ingest's own block buffer */
        }
        pr_sample *t = s->samples; /* the caller's buffer for the slot's: no copy */
        s->samples = *samples;
        *samples = t;
        s->nsamples = n;
        s->b.seq = seq;
        s->run_id = run_id;
        pthread_mutex_lock(&w->mu);
        w->count++;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return rc;
}

int pr_block_writer_drain(pr_block_writer *w, pr_error *err)
{
    pthread_mutex_lock(&w->mu);
    while (w->count)
        pthread_cond_wait(&w->cv, &w->mu);
    int rc = w->rc;
    if (rc)
        if (err)
            *err = w->err;
    pthread_mutex_unlock(&w->mu);
    return rc;
}

void pr_block_writer_free(pr_block_writer *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->mu);
    w->stop = 1;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->th, NULL);
    for (size_t i = 0; i < QUEUE; i++) {
        free(w->q[i].data);
        free(w->q[i].samples);
        pr_buf_dispose(&w->q[i].enc);
    }
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w);
}
