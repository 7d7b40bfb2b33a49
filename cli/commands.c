/* The command table and top-level option handling. */
#include "cli/cli.h"
#include "cli/common.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

extern const pr_command pr_cmd_ingest, pr_cmd_runs, pr_cmd_summary, pr_cmd_export,
    pr_cmd_rm, pr_cmd_tag, pr_cmd_formats, pr_cmd_render, pr_cmd_templates, pr_cmd_chart,
    pr_cmd_check, pr_cmd_findings, pr_cmd_compare, pr_cmd_capacity, pr_cmd_trend, pr_cmd_copy;

extern const pr_command pr_cmd_attack;

/* One line per command, in the order `perfreport --help` lists them. */
static const pr_command *const commands[] = {
    &pr_cmd_ingest,
    &pr_cmd_runs,
    &pr_cmd_summary,
    &pr_cmd_render,
    &pr_cmd_templates,
    &pr_cmd_chart,
    &pr_cmd_check,
    &pr_cmd_findings,
    &pr_cmd_compare,
    &pr_cmd_capacity,
    &pr_cmd_trend,
    &pr_cmd_attack,
    &pr_cmd_export,
    &pr_cmd_copy,
    &pr_cmd_tag,
    &pr_cmd_rm,
    &pr_cmd_formats,
    NULL
};

void pr_cli_errorf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("perfreport: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: perfreport COMMAND [OPTIONS] [ARGS]\n\n"
               "Reads load-test results (Vegeta, JMeter, ab, hey, wrk, …) into one store,\n"
               "computes exact statistics and writes reports.\n\ncommands:\n");
    for (size_t i = 0; commands[i]; i++)
        fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(f, "\nglobal: --store PATH|URL (a SQLite file or postgresql://…; or PERFREPORT_STORE; "
               "default ./perfreport.db), "
               "--version, --help\n"
               "exit codes: 0 ok, 1 error, 2 usage, 3 a threshold failed (check)\n"
               "`perfreport COMMAND --help` describes a command.\n");
}

void pr_cli_help(FILE *f, const char *name)
{
    for (size_t i = 0; commands[i]; i++) {
        if (!strcmp(commands[i]->name, name)) {
            fprintf(f, "usage: perfreport %s\n\n%s", commands[i]->usage, commands[i]->help);
            return;
        }
    }
}

int pr_cli_main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return PR_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        if (argc > 2)
            pr_cli_help(stdout, argv[2]);
        else
            usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        printf("perfreport %s\n", PR_VERSION);
        return 0;
    }
    for (size_t i = 0; commands[i]; i++) {
        if (!strcmp(argv[1], commands[i]->name)) {
            if (pr_cli_wants_help(argc - 1, argv + 1, commands[i]->name))
                return 0;
            return commands[i]->run(argc - 1, argv + 1);
        }
    }
    pr_cli_errorf("unknown command '%s' (see perfreport --help)", argv[1]);
    return PR_EXIT_USAGE;
}
