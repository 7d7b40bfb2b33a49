/* Error values: a code plus file, line, column and a message the CLI prints as-is. */
#ifndef PR_ERROR_H
#define PR_ERROR_H

/* Return codes shared by every module: 0 ok, negative on failure. */
enum {
    PR_OK = 0,
    PR_EIO = -1,     /* read/write failure */
    PR_EPARSE = -2,  /* malformed input */
    PR_EFORMAT = -3, /* input is not of the expected format */
    PR_EUSAGE = -4,  /* bad argument or option */
    PR_ESTORE = -5,  /* store failure */
    PR_ENOTFOUND = -6,
    PR_EDUP = -7,  /* duplicate (e.g. content already ingested) */
    PR_ETRUNC = -8 /* input ends early; what came before is valid */
};

typedef struct pr_error {
    int code;
    char path[512];   /* input name as the user gave it, or "" */
    long line;        /* 1-based, 0 = unknown */
    long col;         /* 1-based, 0 = unknown */
    long long offset; /* byte offset, -1 = unknown */
    char msg[1024];
} pr_error;

void pr_error_clear(pr_error *err);
/* Records an error and returns `code` (always negative) so callers can `return pr_error_set(...)`.
 * `err` may be NULL. line/col may be 0 when unknown. */
int pr_error_set(pr_error *err, int code, const char *path, long line, long col, const char *fmt,
                 ...) __attribute__((format(printf, 6, 7)));
/* Same, naming a byte offset instead of a line. */
int pr_error_at_offset(pr_error *err, int code, const char *path, long long offset, const char *fmt,
                       ...) __attribute__((format(printf, 5, 6)));
/* Formats "FILE:LINE:COL: message" (parts omitted when unknown) into buf. */
const char *pr_error_format(const pr_error *err, char *buf, unsigned size);

#endif
