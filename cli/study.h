/* The study context of `perfreport render` (analysis/study.h): its options, shared by the
 * option table of cmd_render.c, and the document built from the selected runs. */
#ifndef PR_CLI_STUDY_H
#define PR_CLI_STUDY_H
#include <getopt.h>
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "analysis/study.h"
#include "store/store.h"

enum {
    PR_STUDY_OPT_STUDY = 0x200,
    PR_STUDY_OPT_BY,
    PR_STUDY_OPT_PAIR,
    PR_STUDY_OPT_LOAD,
    PR_STUDY_OPT_LOAD_IS_RATE,
    PR_STUDY_OPT_SLO,
    PR_STUDY_OPT_MAX_ERRORS,
};

/* The long options of a study, for a command's getopt_long table. */
#define PR_STUDY_LONGOPTS                                                                          \
    {"study", no_argument, NULL, PR_STUDY_OPT_STUDY},                                              \
        {"by", required_argument, NULL, PR_STUDY_OPT_BY},                                          \
        {"pair", required_argument, NULL, PR_STUDY_OPT_PAIR},                                      \
        {"load", required_argument, NULL, PR_STUDY_OPT_LOAD},                                      \
        {"load-is-rate", no_argument, NULL, PR_STUDY_OPT_LOAD_IS_RATE},                            \
        {"slo", required_argument, NULL, PR_STUDY_OPT_SLO},                                        \
    {                                                                                              \
        "max-errors", required_argument, NULL, PR_STUDY_OPT_MAX_ERRORS                             \
    }

typedef struct pr_cli_study {
    int on;          /* a study option was given (or the template asks for one) */
    pr_study_opts o; /* by/levels point into the arrays below */
    char **by, **pair;
    size_t nby, npair;
} pr_cli_study;

void pr_cli_study_init(pr_cli_study *s);
void pr_cli_study_dispose(pr_cli_study *s);
/* 1 when c is one of PR_STUDY_OPT_*. */
int pr_cli_study_is_option(int c);
/* Takes one study option (c from PR_STUDY_LONGOPTS). Returns 0 or PR_EXIT_USAGE (printed). */
int pr_cli_study_option(pr_cli_study *s, int c, const char *arg);
/* 1 when the template (a built-in name or a file) is a study's: its file name starts with
 * "study" (study.md, study.zh.html, study-weekly.md). */
int pr_cli_study_template(const char *tname);
/* The study of the runs ids[0..n) with the report options ro (percentiles, --now). Prints
 * errors; returns 0 or PR_EXIT_*. */
int pr_cli_study_build(pr_cli_study *s, pr_store *st, const int64_t *ids, size_t n,
                       const pr_report_opts *ro, json_t **out);

#endif
