/* What Gatling's two simulation.log readers (text ≤ 3.12, binary 3.13+) share: the record
 * model (RUN, USER, REQUEST, GROUP, ERROR) and how each record becomes samples or metadata. */
#ifndef PR_GATLING_H
#define PR_GATLING_H
#include <jansson.h>
#include <stdint.h>
#include "model/lex.h"
#include "parsers/jmeter_common.h"
#include "parsers/parser.h"

typedef struct pr_gatling {
    pr_input *in;
    pr_sink *sink;
    pr_run *run;
    pr_error *err;
    const char *name;
    long line;        /* text: line of the record; binary: 0 */
    pr_jtl_icache ic; /* recently interned labels and messages */
    int have_run;
    int64_t run_start_ms;
    int64_t users, users_max, user_starts, user_ends;
    int64_t requests, kos, groups, error_records, assertions;
    json_t *errors; /* ERROR record message → count (owned until pr_gatling_end) */
    char label[4096];
} pr_gatling;

void pr_gatling_begin(pr_gatling *g, pr_input *in, pr_sink *sink, pr_error *err);
/* RUN: run metadata (simulation class and id, description, start, Gatling version). */
void pr_gatling_run(pr_gatling *g, pr_str cls, pr_str simid, int64_t start_ms, pr_str desc,
                    pr_str version);
/* REQUEST: one sample labelled "group / … / name"; KO → failure with the message as error. */
int pr_gatling_request(pr_gatling *g, const pr_str *groups, size_t ngroups, pr_str name,
                       int64_t start_ms, int64_t end_ms, int ok, pr_str msg);
/* GROUP: one sample flagged PR_SF_TRANSACTION, labelled by the group path. */
int pr_gatling_group(pr_gatling *g, const pr_str *groups, size_t ngroups, int64_t start_ms,
                     int64_t end_ms, int64_t cumulated_ms, int ok);
/* USER START/END: the count of active users that samples carry as `threads`. */
void pr_gatling_user(pr_gatling *g, int start);
/* ERROR: counted per message into run meta (not a sample). */
void pr_gatling_error(pr_gatling *g, pr_str msg);
/* Writes the counters into run->meta["gatling"] (layout name given). */
void pr_gatling_end(pr_gatling *g, const char *layout);
void pr_gatling_dispose(pr_gatling *g);

#endif
