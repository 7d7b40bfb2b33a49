/* Buffered input from a file or stdin: peeking for sniffing, bounded line reading with line
 * numbers, raw reads, byte offsets, and a content digest (XXH3-128) of every byte consumed. */
#ifndef PR_INPUT_H
#define PR_INPUT_H
#include <stddef.h>
#include "model/error.h"

#define PR_LINE_MAX (1u << 20) /* longest line pr_input_getline accepts (1 MiB) */

typedef struct pr_input pr_input;

/* Opens `path` ("-" = stdin). Returns NULL and fills err on failure. */
pr_input *pr_input_open(const char *path, pr_error *err);
/* Wraps a memory buffer (borrowed; must outlive the input). Used by tests and fuzzers. */
pr_input *pr_input_mem(const char *name, const void *data, size_t len);
void pr_input_close(pr_input *in);
/* Name for messages: the path as given, "<stdin>" for "-". */
const char *pr_input_name(const pr_input *in);
/* Makes up to `want` bytes available without consuming them; *got gets how many are
 * (fewer only at end of input). Returns a pointer to them. want is capped at 64 KiB. */
const unsigned char *pr_input_peek(pr_input *in, size_t want, size_t *got);
/* Reads up to n bytes; returns the count, 0 at end of input, -1 on I/O error (err set). */
long pr_input_read(pr_input *in, void *buf, size_t n, pr_error *err);
/* Copies the last bytes of the input, up to n, into buf without consuming anything (nor
 * digesting): for formats that state at their end what they hold. Returns the count, or -1
 * when the input cannot be read so (a pipe, stdin, a file that cannot be read there). */
long pr_input_tail(pr_input *in, void *buf, size_t n);
/* Moves the digest of large pr_input_read()s of a file (those that go straight into the
 * caller's buffer) to a second thread, overlapping it with the caller's parsing. The caller
 * then promises to leave the bytes of its last pr_input_read() unchanged until its next call
 * on `in` or pr_input_sync(). The digest is the same. Returns 1 if on, 0 if it stays on the
 * calling thread (memory inputs, pr_threads() of 1, no thread to be had). */
int pr_input_async_digest(pr_input *in);
/* Waits until the digest has taken in every byte read so far (then the caller may reuse its
 * buffer). */
void pr_input_sync(pr_input *in);
/* The file's bytes from offset `from` (at most the bytes consumed so far) to the end of a
 * window of up to PR_WINDOW_SIZE bytes read through mmap, instead of pr_input_read's copy: the
 * window's new bytes count as consumed (digest included: on the second thread if
 * pr_input_async_digest) and the previous window is unmapped, so the caller keeps only this
 * one. *len is the number of bytes returned, *last whether they reach the end of the file.
 * Returns NULL if the input is not a regular file or something was consumed before the first
 * window (the caller then reads as usual; err untouched), or on error (err set, the first
 * window excepted). Not to be mixed with pr_input_read() until the last window. */
#define PR_WINDOW_SIZE (16ll << 20)
const unsigned char *pr_input_window(pr_input *in, long long from, size_t *len, int *last,
                                     pr_error *err);
/* Tests: windows of `bytes` (for the gob reader at least 2 MiB), 0 to refuse windows. */
void pr_input_set_window(pr_input *in, long long bytes);
/* Next line without its "\n" (a trailing "\r" is kept; see pr_input_getline_crlf).
 * Returns 1 with *line and *len set (valid until the next call), 0 at end of input, negative on
 * error (I/O, or a line longer than PR_LINE_MAX). A last line without "\n" is returned too. */
int pr_input_getline(pr_input *in, const char **line, size_t *len, pr_error *err);
/* Line number of the last line returned (1-based). */
long pr_input_lineno(const pr_input *in);
/* Bytes consumed so far. */
long long pr_input_offset(const pr_input *in);
/* Whether the last line returned by getline ended with "\n" (0 for a cut last line). */
int pr_input_line_terminated(const pr_input *in);
/* Consumes the rest of the input (so the hash covers all of it); returns 0 or -1 on I/O error. */
int pr_input_drain(pr_input *in, pr_error *err);
/* Digest of the bytes consumed so far, "xxh128:" + 32 hex digits (call after pr_input_drain
 * for the whole file). XXH3-128 identifies content (re-ingest detection) at memory speed; it
 * is not a defence against deliberately colliding files. */
#define PR_DIGEST_HEX 40
void pr_input_digest(pr_input *in, char out[PR_DIGEST_HEX]);

#endif
