/* The command-line layer: one descriptor per command, gathered in one table. */
#ifndef PR_CLI_H
#define PR_CLI_H

#include "model/version.h"

/* Exit codes (documented in the README and the man page). */
enum { PR_EXIT_OK = 0, PR_EXIT_ERROR = 1, PR_EXIT_USAGE = 2, PR_EXIT_THRESHOLD = 3 };

typedef struct pr_command {
    const char *name;
    const char *usage;   /* one line: "ingest [OPTIONS] FILE..." */
    const char *summary; /* one line for `perfreport --help` */
    const char *help;    /* full help text for `perfreport CMD --help` */
    int (*run)(int argc, char **argv);
} pr_command;

int pr_cli_main(int argc, char **argv);
/* Prints "perfreport: message" to stderr. */
void pr_cli_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
