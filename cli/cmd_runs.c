/* `perfreport runs`, `rm`, `tag` and `formats`: listing and managing runs. */
#include "analysis/human.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/selection.h"
#include "model/xalloc.h"
#include "parsers/parser.h"
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const struct option store_only[] = {{"store", required_argument, NULL, 'S'},
                                           {NULL, 0, NULL, 0}};

static int parse_store_opt(int argc, char **argv, const char **store)
{
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", store_only, NULL)) != -1) {
        if (c == 'S')
            *store = optarg;
        else
            return PR_EXIT_USAGE;
    }
    return 0;
}

static int runs_main(int argc, char **argv)
{
    const char *store = NULL;
    if (parse_store_opt(argc, argv, &store))
        return PR_EXIT_USAGE;
    pr_store *st;
    int rc = pr_cli_open_store(store, 0, &st);
    if (rc)
        return rc;
    int64_t *ids;
    size_t n;
    pr_error err;
    pr_error_clear(&err);
    if (optind < argc)
        rc = pr_cli_select_runs(st, argv + optind, argc - optind, &ids, &n);
    else if (pr_store_list_runs(st, &ids, &n, &err) < 0) {
        pr_cli_print_error(&err);
        rc = PR_EXIT_ERROR;
    }
    if (rc) {
        pr_store_close(st);
        return rc;
    }
    printf("%4s  %-24s %-10s %-20s %10s %10s  %s\n", "ID", "NAME", "TOOL", "FORMAT", "SAMPLES",
           "DURATION", "TAGS");
    for (size_t i = 0; i < n; i++) {
        pr_run *r;
        if (pr_store_load_run(st, ids[i], &r, &err) < 0) {
            pr_cli_print_error(&err);
            rc = PR_EXIT_ERROR;
            break;
        }
        char samples[32], dur[32];
        if (r->summary_only)
            snprintf(samples, sizeof samples, "summary");
        else
            pr_human_count(r->samples, samples);
        pr_human_duration(r->start_ns != PR_UNKNOWN ? r->end_ns - r->start_ns : PR_UNKNOWN, dur);
        printf("%4lld  %-24s %-10s %-20s %10s %10s  ", (long long)r->id, r->name ? r->name : "",
               r->tool ? r->tool : "-", r->format ? r->format : "-", samples, dur);
        for (size_t t = 0; t < r->ntags; t++)
            printf("%s%s=%s", t ? " " : "", r->tags[t].key, r->tags[t].value);
        printf("\n");
        pr_run_free(r);
    }
    free(ids);
    pr_store_close(st);
    return rc;
}

const pr_command pr_cmd_runs = {
    "runs", "runs [--store PATH] [RUN…|tag:KEY=VALUE…]", "list the runs in the store",
    "Lists every run (or the runs selected): id, name, producing tool, input format, sample count ('summary' for\n"
    "runs that only carry a tool's printed summary), duration and tags.\n\n"
    "examples:\n  perfreport runs\n  perfreport runs tag:jvm=hotspot,duration=60s\n",
    runs_main};

static int rm_main(int argc, char **argv)
{
    const char *store = NULL;
    if (parse_store_opt(argc, argv, &store))
        return PR_EXIT_USAGE;
    if (optind >= argc) {
        pr_cli_errorf("rm: name the runs to remove");
        return PR_EXIT_USAGE;
    }
    pr_store *st;
    int rc = pr_cli_open_store(store, 0, &st);
    if (rc)
        return rc;
    int64_t *ids = NULL;
    size_t n = 0;
    rc = pr_cli_select_runs(st, argv + optind, argc - optind, &ids, &n);
    pr_error err;
    pr_error_clear(&err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (pr_store_remove(st, ids[i], &err) < 0) {
            pr_cli_print_error(&err);
            rc = PR_EXIT_ERROR;
        } else {
            printf("removed run %lld\n", (long long)ids[i]);
        }
    }
    free(ids);
    pr_store_close(st);
    return rc;
}

const pr_command pr_cmd_rm = {
    "rm", "rm [--store PATH] RUN…", "remove runs and their samples",
    "Removes each RUN (an id, a name, 'last' or a tag selection tag:KEY=VALUE[,…]) with all\n"
    "its samples, tags and tables.\n\n"
    "example:\n  perfreport rm 3 smoke-test\n",
    rm_main};

static int tag_main(int argc, char **argv)
{
    const char *store = NULL;
    if (parse_store_opt(argc, argv, &store))
        return PR_EXIT_USAGE;
    if (argc - optind < 2) {
        pr_cli_errorf("tag: usage: perfreport tag RUN KEY=VALUE… | KEY-");
        return PR_EXIT_USAGE;
    }
    pr_store *st;
    int rc = pr_cli_open_store(store, 0, &st);
    if (rc)
        return rc;
    int64_t *ids = NULL;
    size_t n = 0;
    rc = pr_cli_select_runs(st, argv + optind, 1, &ids, &n);
    pr_error err;
    pr_error_clear(&err);
    for (int i = optind + 1; rc == 0 && i < argc; i++) {
        char *arg = argv[i], *eq = strchr(arg, '=');
        size_t len = strlen(arg);
        if (!(eq && eq != arg) && !(len > 1 && arg[len - 1] == '-' && !eq)) {
            pr_cli_errorf("tag: expected KEY=VALUE or KEY- (to remove), got '%s'", arg);
            rc = PR_EXIT_USAGE;
        }
    }
    /* every run of the selection (a tag selection may name several) */
    for (size_t k = 0; rc == 0 && k < n; k++)
        for (int i = optind + 1; rc == 0 && i < argc; i++) {
            char *arg = argv[i], *eq = strchr(arg, '=');
            char *key = eq ? pr_xstrndup(arg, (size_t)(eq - arg)) : pr_xstrndup(arg, strlen(arg) - 1);
            if (pr_store_tag(st, ids[k], key, eq ? eq + 1 : NULL, &err) < 0) {
                pr_cli_print_error(&err);
                rc = PR_EXIT_ERROR;
            }
            free(key);
        }
    free(ids);
    pr_store_close(st);
    return rc;
}

const pr_command pr_cmd_tag = {
    "tag", "tag [--store PATH] RUN KEY=VALUE… | KEY-", "set or remove tags of a run",
    "Sets KEY=VALUE tags on RUN, or removes KEY with 'KEY-'. RUN may be a tag selection\n"
    "(tag:KEY=VALUE[,KEY=VALUE…]): every run it selects is tagged. Tags select runs for\n"
    "every command (tag:KEY=VALUE), group them (--by, --pair) and order trends.\n\n"
    "example:\n  perfreport tag last jvm=hotspot build=1.4.2\n",
    tag_main};

static int formats_main(int argc, char **argv)
{
    for (size_t i = 0; pr_parsers[i]; i++)
        printf("%-20s %-10s %s\n", pr_parsers[i]->name, pr_parsers[i]->tool,
               pr_parsers[i]->summary);
    return 0;
}

const pr_command pr_cmd_formats = {
    "formats", "formats", "list the input formats perfreport reads",
    "Lists the input formats: the --format name, the tool that writes it and a line\n"
    "about it. Formats are detected by content; --format is only an override.\n",
    formats_main};
