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
 * "Assertion failed" when there is none; an empty code without failure message gives the
 * message (e.g. a failed Transaction Controller's summary). Interned into `run`. */
uint32_t pr_jtl_error_id(pr_run *run, const char *code, size_t code_n, const char *msg,
                         size_t msg_n, const char *fail, size_t fail_n);
/* Milliseconds → ns. PR_UNKNOWN stays unknown; values beyond ±9e12 ms (year 2255) would
 * overflow and give -1. */
#define PR_JTL_MS_MAX 9000000000000LL
static inline int pr_jtl_ms_ns(int64_t ms, int64_t *ns)
{
    if (ms == PR_UNKNOWN) {
        *ns = PR_UNKNOWN;
        return 0;
    }
    if (ms > PR_JTL_MS_MAX || ms < -PR_JTL_MS_MAX)
        return -1;
    *ns = ms * 1000000;
    return 0;
}
/* Records the sub-result rule in run meta ("subresults": include|exclude|only and a sentence). */
void pr_jtl_meta_rule(pr_run *run, int mode);
/* Bounded text accumulator for attrs "k=v\x1fk=v". */
typedef struct pr_jtl_attrs {
    char buf[1024];
    size_t n;
} pr_jtl_attrs;
void pr_jtl_attr_add(pr_jtl_attrs *a, const char *k, size_t kn, const char *v, size_t vn);

/* A direct-mapped cache of recently interned ids per kind of string: labels, thread names
 * and attributes repeat row after row, and checking length and bytes of a cached id is
 * cheaper than hashing the whole string in the table. Zero it when the run changes. */
enum { PR_JTL_IC_LABEL, PR_JTL_IC_THREAD, PR_JTL_IC_URL, PR_JTL_IC_ATTRS, PR_JTL_IC_KINDS };
#define PR_JTL_ICACHE 256
typedef struct pr_jtl_icache {
    uint32_t id[PR_JTL_IC_KINDS][PR_JTL_ICACHE];
} pr_jtl_icache;
uint32_t pr_jtl_intern(pr_jtl_icache *c, pr_run *run, int kind, const char *s, size_t n);

/* 0: the XML reader lets libxml2 parse every attribute (tests compare the two ways). */
extern int pr_jtl_xml_blank;
/* Sample start tags whose attributes the XML guard took (pr_xml_guard_take), summed over the
 * XML parses of the process: for the tests. */
extern long long pr_jtl_xml_taken;

#endif
