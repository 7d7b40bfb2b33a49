/* The command table and top-level option handling. */
#include "cli/cli.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define PR_VERSION "0.1.0"

static int cmd_version(int argc, char **argv)
{
    printf("perfreport %s\n", PR_VERSION);
    return 0;
}

static const pr_command commands[] = {
    {"version", "version", "print the version", "Prints the version.\n", cmd_version},
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
    fprintf(f, "usage: perfreport COMMAND [OPTIONS] [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
}

int pr_cli_main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return PR_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version"))
        return cmd_version(argc, argv);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    pr_cli_errorf("unknown command '%s' (see perfreport --help)", argv[1]);
    return PR_EXIT_USAGE;
}
