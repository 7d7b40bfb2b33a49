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
