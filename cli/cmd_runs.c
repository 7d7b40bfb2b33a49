/* `perfreport runs`, `rm`, `tag` and `formats`: listing and managing runs. */
#include "analysis/human.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "model/text.h"
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
    if (pr_store_list_runs(st, &ids, &n, &err) < 0) {
        pr_cli_print_error(&err);
        pr_store_close(st);
        return PR_EXIT_ERROR;
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
        char *name = pr_text_visible_dup(r->name, 0); /* names may come from the file */
        printf("%4lld  %-24s %-10s %-20s %10s %10s  ", (long long)r->id, name,
               r->tool ? r->tool : "-", r->format ? r->format : "-", samples, dur);
        free(name);
        for (size_t t = 0; t < r->ntags; t++) {
            char *k = pr_text_visible_dup(r->tags[t].key, 0);
            char *v = pr_text_visible_dup(r->tags[t].value, 0);
            printf("%s%s=%s", t ? " " : "", k, v);
            free(k);
            free(v);
        }
        printf("\n");
        pr_run_free(r);
    }
    free(ids);
    pr_store_close(st);
    return rc;
}

const pr_command pr_cmd_runs = {
    "runs", "runs [--store PATH]", "list the runs in the store",
    "Lists every run: id, name, producing tool, input format, sample count ('summary' for\n"
    "runs that only carry a tool's printed summary), duration and tags.\n\n"
    "example:\n  perfreport runs\n",
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
    "Removes each RUN (an id, a name or 'last') with all its samples, tags and tables.\n\n"
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
        char *arg = argv[i];
        char *eq = strchr(arg, '=');
        size_t len = strlen(arg);
        int r;
        if (eq && eq != arg) {
            char *key = pr_xstrndup(arg, (size_t)(eq - arg));
            r = pr_store_tag(st, ids[0], key, eq + 1, &err);
            free(key);
        } else if (len > 1 && arg[len - 1] == '-') {
            char *key = pr_xstrndup(arg, len - 1);
            r = pr_store_tag(st, ids[0], key, NULL, &err);
            free(key);
        } else {
            pr_cli_errorf("tag: expected KEY=VALUE or KEY- (to remove), got '%s'", arg);
            rc = PR_EXIT_USAGE;
            break;
        }
        if (r < 0) {
            pr_cli_print_error(&err);
            rc = PR_EXIT_ERROR;
        }
    }
    free(ids);
    pr_store_close(st);
    return rc;
}

const pr_command pr_cmd_tag = {
    "tag", "tag [--store PATH] RUN KEY=VALUE… | KEY-", "set or remove tags of a run",
    "Sets KEY=VALUE tags on RUN, or removes KEY with 'KEY-'. Tags select runs for\n"
    "comparisons and trends (tag:KEY=VALUE).\n\n"
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
