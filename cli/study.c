/* The study options of `perfreport render` and the study document of the selected runs. */
#include "cli/study.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/selection.h"
#include <string.h>

void pr_cli_study_init(pr_cli_study *s)
{
    memset(s, 0, sizeof *s);
    pr_study_opts_init(&s->o);
}

void pr_cli_study_dispose(pr_cli_study *s)
{
    pr_cli_keys_free(s->by, s->nby);
    pr_cli_keys_free(s->pair, s->npair);
    memset(s, 0, sizeof *s);
}

int pr_cli_study_is_option(int c)
{
    return c >= PR_STUDY_OPT_STUDY && c <= PR_STUDY_OPT_MAX_ERRORS;
}

int pr_cli_study_option(pr_cli_study *s, int c, const char *arg)
{
    s->on = 1;
    switch (c) {
    case PR_STUDY_OPT_STUDY: return 0;
    case PR_STUDY_OPT_BY:
        pr_cli_keys_free(s->by, s->nby);
        return pr_cli_parse_keys("--by", arg, &s->by, &s->nby);
    case PR_STUDY_OPT_PAIR:
        pr_cli_keys_free(s->pair, s->npair);
        return pr_cli_parse_keys("--pair", arg, &s->pair, &s->npair);
    case PR_STUDY_OPT_LOAD:
        if (strcmp(arg, "rate") && strcmp(arg, "concurrency") &&
            (strncmp(arg, "tag:", 4) || !arg[4] || strchr(arg, ','))) {
            pr_cli_errorf("--load expects rate, concurrency or tag:KEY, got '%s'", arg);
            return PR_EXIT_USAGE;
        }
        s->o.load = arg;
        return 0;
    case PR_STUDY_OPT_LOAD_IS_RATE: s->o.load_is_rate = 1; return 0;
    case PR_STUDY_OPT_SLO: return pr_cli_parse_slo(arg, &s->o.capacity.slo_p99_ns);
    case PR_STUDY_OPT_MAX_ERRORS:
        return pr_cli_parse_max_errors(arg, &s->o.capacity.max_error_ratio);
    default: return PR_EXIT_USAGE;
    }
}

int pr_cli_study_template(const char *tname)
{
    const char *base = strrchr(tname, '/');
    return !strncmp(base ? base + 1 : tname, "study", 5);
}

int pr_cli_study_build(pr_cli_study *s, pr_store *st, const int64_t *ids, size_t n,
                       const pr_report_opts *ro, json_t **out)
{
    s->o.by = s->by;
    s->o.nby = s->nby;
    s->o.levels = s->pair;
    s->o.nlevels = s->npair;
    s->o.report = *ro;
    pr_error err;
    pr_error_clear(&err);
    if (pr_study_build(st, ids, n, &s->o, out, &err) < 0) {
        pr_cli_print_error(&err);
        return err.code == PR_EUSAGE ? PR_EXIT_USAGE : PR_EXIT_ERROR;
    }
    return 0;
}
