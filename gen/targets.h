/* Attack targets: URLs from the command line, Vegeta's HTTP targets format (method+URL
 * lines, header lines, "@body" files, blank-line separated) and its JSON targets format
 * (one object per line: method, url, body base64, header map). Each target ends up with
 * its request bytes serialised once, so the hot path only copies them. */
#ifndef PR_TARGETS_H
#define PR_TARGETS_H
#include <stddef.h>
#include "gen/http.h"
#include "model/buf.h"
#include "model/error.h"
#include "model/input.h"

#define PR_TARGETS_MAX 1000000         /* targets per attack */
#define PR_TARGET_HEADERS_MAX 256      /* headers per target */
#define PR_TARGET_BODY_MAX (64u << 20) /* body bytes per target */

typedef struct pr_target {
    char *method;
    char *url;
    char **headers; /* "Name: value" */
    size_t nheaders;
    unsigned char *body; /* NULL when none */
    size_t body_len;
    int has_body;   /* a body was given (possibly empty) */
    pr_http_url u;  /* parsed url */
    pr_buf request; /* serialised request (after pr_targets_finish) */
} pr_target;

typedef struct pr_targets {
    pr_target *v;
    size_t n, cap;
} pr_targets;

void pr_targets_init(pr_targets *t);
void pr_targets_dispose(pr_targets *t);
/* Adds one target (everything copied). body may be NULL (no body). 0 or PR_EUSAGE (bad URL). */
int pr_targets_add(pr_targets *t, const char *method, const char *url, const char *const *headers,
                   size_t nheaders, const void *body, size_t body_len, pr_error *err);
/* Reads targets from `in`; format "http", "json" or NULL to tell from the first
 * non-blank character ('{' = json). Errors name the input, line and what was expected. */
int pr_targets_read(pr_targets *t, pr_input *in, const char *format, pr_error *err);
/* Loads a body file named by "@path" lines or `-d @path` (at most PR_TARGET_BODY_MAX). */
int pr_targets_load_file(const char *path, unsigned char **out, size_t *len, pr_error *err);
/* Applies the command-line defaults (headers added to every target, body for targets that
 * have none) and serialises every request. 0, or PR_EUSAGE when there is no target. */
int pr_targets_finish(pr_targets *t, const char *const *headers, size_t nheaders,
                      const void *default_body, size_t default_body_len, int keepalive,
                      pr_error *err);

/* Decodes standard base64 (padding optional, no whitespace). Returns the decoded length,
 * or -1 if the text is not base64. out must hold 3 * (n / 4) + 3 bytes. */
long pr_base64_decode(const char *s, size_t n, unsigned char *out);

#endif
