/* Whole-document JSON inputs (Artillery's and autocannon's reports): reads an input up to a
 * size bound and parses it with jansson, reporting errors at line and column. */
#ifndef PR_JSONDOC_H
#define PR_JSONDOC_H
#include <jansson.h>
#include <stdint.h>
#include "model/error.h"
#include "model/input.h"

#define PR_JSONDOC_MAX (256u << 20) /* largest report accepted (256 MiB) */

/* Reads all of `in` and parses it as one JSON object into *out (owned by the caller). 0, or a
 * negative error (PR_EFORMAT when the text is not a JSON object). */
int pr_jsondoc_load(pr_input *in, json_t **out, pr_error *err);
/* o[key] as a number (integer or real) in *v; 0, or -1 when missing or not a number. */
int pr_jsondoc_num(const json_t *o, const char *key, double *v);

#endif
