/* The ingest's block writer, internal to store/: a thread that stores an ingest's sample
 * blocks through the backend, in order, while the parser reads on (the parse and the store's
 * writes overlap on two cores). The connection is used by one thread at a time: every other
 * backend call of the ingest comes after pr_block_writer_drain. */
#ifndef PR_STORE_WRITER_H
#define PR_STORE_WRITER_H
#include "store/backend.h"
#include "model/sample.h"

typedef struct pr_block_writer pr_block_writer;

/* A writer for st, NULL when the ingest writes blocks itself (PERFREPORT_THREADS=1). */
pr_block_writer *pr_block_writer_new(pr_store *st);
/* Queues a copy of b for run_id (waits while the queue is full). Returns 0, or the error of
 * an earlier block (err filled): nothing more is written then. */
int pr_block_writer_put(pr_block_writer *w, int64_t run_id, const pr_store_block *b, pr_error *err);
/* Queues the block seq of n samples (n <= PR_NATIVE_BLOCK_MAX) of run_id, encoded on the
 * thread (the block is the one pr_block_encode gives, with the range of its start times):
 * *samples, a buffer of PR_NATIVE_BLOCK_MAX samples, is swapped with a free one, no copy.
 * Returns as pr_block_writer_put. */
int pr_block_writer_put_samples(pr_block_writer *w, int64_t run_id, int64_t seq,
                                pr_sample **samples, size_t n, pr_error *err);
/* Waits until every queued block is stored. 0 or the first block's error (err filled). */
int pr_block_writer_drain(pr_block_writer *w, pr_error *err);
/* Stops the thread (blocks still queued are dropped: the ingest is rolled back) and frees. */
void pr_block_writer_free(pr_block_writer *w);


#endif
