/* The native sample stream: versioned, block-based, checksummed, appendable
 * (two concatenated files are one valid stream). Byte layout: docs/format.md.
 * The block codec here is shared by the writer, the reader (parsers/native.c) and the
 * store (samples are kept as the same encoded blocks). */
#ifndef PR_NATIVE_H
#define PR_NATIVE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "model/buf.h"
#include "model/error.h"
#include "model/run.h"
#include "model/sample.h"

#define PR_NATIVE_MAGIC "\x89PRF"
#define PR_NATIVE_VERSION 1
#define PR_NATIVE_BLOCK_MAX 65536 /* samples per block */

/* Encodes n samples (n <= PR_NATIVE_BLOCK_MAX) as one sample-block payload appended to out.
 * String ids are written as they are. */
void pr_block_encode(const pr_sample *s, size_t n, pr_buf *out);
/* Decodes a sample-block payload. *out is grown as needed (capacity in *cap); *n gets the
 * count. Returns 0 or PR_EPARSE with err->msg filled (no path/offset: the caller adds them). */
int pr_block_decode(const unsigned char *p, size_t len, pr_sample **out, size_t *cap, size_t *n,
                    pr_error *err);

/* The block's columns, in pr_sample field order (docs/format.md). */
enum pr_col {
    PR_COL_START = 0,
    PR_COL_LATENCY,
    PR_COL_CONNECT,
    PR_COL_TTFB,
    PR_COL_LATENESS,
    PR_COL_BYTES_IN,
    PR_COL_BYTES_OUT,
    PR_COL_LABEL,
    PR_COL_URL,
    PR_COL_METHOD,
    PR_COL_ERROR,
    PR_COL_THREAD,
    PR_COL_ATTRS,
    PR_COL_THREADS,
    PR_COL_STATUS,
    PR_COL_SUCCESS,
    PR_COL_FLAGS,
    PR_NCOLS
};
#define PR_COLS_ALL ((1u << PR_NCOLS) - 1)
#define PR_COLBIT(c) (1u << (c))

/* One block decoded column by column: column c is the constant konst[c] over the block, or,
 * when bit c of `varying` is set, the n values vals[c][0..n) (int64 whatever the field's
 * width; range-checked against it). vals point into a per-thread buffer reused by the next
 * decode on the thread. */
typedef struct pr_block_cols {
    size_t n;
    unsigned varying;
    int64_t konst[PR_NCOLS];
    const int64_t *vals[PR_NCOLS];
} pr_block_cols;

/* Decodes the columns in the mask `want` (PR_COLBIT(...) | ...) of a block; the others are
 * stepped over (a column nobody asked for costs only its skipping) and keep konst = their
 * constant when the block has one, else the field's default. 0 or PR_EPARSE as
 * pr_block_decode. */
int pr_block_decode_cols(const unsigned char *p, size_t len, unsigned want, pr_block_cols *out,
                         pr_error *err);
/* Frees the calling thread's decode buffer (a thread that decoded blocks calls it before it
 * ends; the next decode on the thread makes a new one). */
void pr_block_decode_thread_end(void);
/* Samples at..at+m of a decoded block into out[0..m) (the columns not decoded keep their
 * constants or defaults). */
void pr_block_cols_samples(const pr_block_cols *c, size_t at, size_t m, pr_sample *out);

typedef struct pr_native_writer pr_native_writer;

/* Starts a stream on `f` (borrowed) for run `run`: writes the header block (run metadata).
 * Returns NULL on a write error (err filled). */
pr_native_writer *pr_native_writer_new(FILE *f, const pr_run *run, pr_error *err);
/* Writes the strings of `run` not yet written, then the samples as sample blocks.
 * Matches pr_sink's push signature so the writer can be a sink's consumer. */
int pr_native_writer_push(void *w, pr_run *run, const pr_sample *s, size_t n, pr_error *err);
/* Writes what is buffered and flushes the FILE (a killed writer loses at most one block). */
int pr_native_writer_flush(pr_native_writer *w, pr_error *err);
/* Writes the final metadata (end time, counts) and frees the writer; does not close f. */
int pr_native_writer_close(pr_native_writer *w, const pr_run *run, pr_error *err);

#endif
