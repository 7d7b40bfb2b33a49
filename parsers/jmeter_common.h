/* What the JMeter CSV and XML readers share: JMeter's notions of a Transaction Controller
 * sample, of an error and its key, response codes, and the sub-result selection rule. */
#ifndef PR_JMETER_COMMON_H
#define PR_JMETER_COMMON_H
#include <stddef.h>
#include "model/run.h"
#include "model/sample.h"
#include "parsers/parser.h"

/* The message prefix by which JMeter itself recognises Transaction Controller samples. */
#define PR_JTL_TC_PREFIX "Number of samples in transaction"

/* 1 if responseMessage marks a Transaction Controller sample, 2 if an empty one (": 0"). */
int pr_jtl_tc_kind(const char *msg, size_t n);
/* responseCode → HTTP status: the number when the code is all digits (< 65536), else 0. */
uint16_t pr_jtl_status(const char *code, size_t n);
/* The error text of a failed sample, as JMeter's dashboard Errors table keys it:
 * "<code>/<message>" (just the code when the message is empty), except when the code is a
 * success code (200-399) or empty and a failure message exists: then the failure message, or
 * "Assertion failed" when there is none. Interned into `run`. */
uint32_t pr_jtl_error_id(pr_run *run, const char *code, size_t code_n, const char *msg,
                         size_t msg_n, const char *fail, size_t fail_n);
/* Records the sub-result rule in run meta ("subresults": include|exclude|only and a sentence). */
void pr_jtl_meta_rule(pr_run *run, int mode);
/* Bounded text accumulator for attrs "k=v\x1fk=v". */
typedef struct pr_jtl_attrs {
    char buf[1024];
    size_t n;
} pr_jtl_attrs;
void pr_jtl_attr_add(pr_jtl_attrs *a, const char *k, size_t kn, const char *v, size_t vn);

#endif
