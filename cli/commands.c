/* The command table and top-level option handling. */
#include "cli/cli.h"
#include "cli/common.h"
#include "model/l10n.h"
#include "model/text.h"
#include "model/xalloc.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const pr_command pr_cmd_ingest, pr_cmd_runs, pr_cmd_summary, pr_cmd_export, pr_cmd_rm,
    pr_cmd_tag, pr_cmd_formats, pr_cmd_render, pr_cmd_templates, pr_cmd_chart, pr_cmd_check,
    pr_cmd_findings, pr_cmd_compare, pr_cmd_capacity, pr_cmd_trend, pr_cmd_copy;

extern const pr_command pr_cmd_attack;

/* One line per command, in the order `perfreport --help` lists them. */
static const pr_command *const commands[] = {&pr_cmd_ingest,   &pr_cmd_runs,      &pr_cmd_summary,
                                             &pr_cmd_render,   &pr_cmd_templates, &pr_cmd_chart,
                                             &pr_cmd_check,    &pr_cmd_findings,  &pr_cmd_compare,
                                             &pr_cmd_capacity, &pr_cmd_trend,     &pr_cmd_attack,
                                             &pr_cmd_export,   &pr_cmd_copy,      &pr_cmd_tag,
                                             &pr_cmd_rm,       &pr_cmd_formats,   NULL};

void pr_cli_errorf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = NULL;
    if (vasprintf(&msg, fmt, ap) < 0)
        msg = NULL;
    va_end(ap);
    /* a message may quote a name, a value or an argument from a file (model/text.h) */
    char *vis = pr_text_visible_dup(msg ? msg : "(out of memory)", PR_TEXT_LINES);
    fprintf(stderr, "perfreport: %s\n", vis);
    free(vis);
    free(msg);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: perfreport [GLOBAL OPTIONS] COMMAND [OPTIONS] [ARGS]\n\n"
               "Reads load-test results (Vegeta, JMeter, ab, hey, wrk, …) into one store,\n"
               "computes exact statistics and writes reports.\n\ncommands:\n");
    for (size_t i = 0; commands[i]; i++)
        fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(f,
            "\nglobal options, before or after the command: --store PATH|URL (a SQLite file\n"
            "or postgresql://…; or PERFREPORT_STORE; default ./perfreport.db), --lang LANG\n"
            "(default: LANGUAGE, LC_ALL, LC_MESSAGES, LANG; en, zh_CN), --tz ZONE (of the dates\n"
            "written; default TZ), -q/--quiet,\n"
            "--version, --help\n"
            "exit codes: 0 ok, 1 error, 2 usage, 3 a threshold failed (check), a regression\n"
            "(compare) or no request of an attack succeeded\n"
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

/* The global options, set once by pr_cli_main before the command runs. */
static struct {
    const char *store; /* --store PATH, NULL: $PERFREPORT_STORE or ./perfreport.db */
    const char *lang;  /* --lang LANG, NULL: the environment's */
    const char *tz;    /* --tz ZONE, NULL: TZ */
    int quiet;         /* -q, --quiet */
} globals;

const char *pr_cli_store_path(void)
{
    return globals.store ? globals.store : pr_store_default_path();
}

int pr_cli_quiet(void)
{
    return globals.quiet;
}

const char *pr_cli_lang(void)
{
    return globals.lang;
}

/* The language and time zone of the output, from --lang and --tz or the environment. */
static int setup_l10n(void)
{
    pr_error err;
    pr_error_clear(&err);
    if (pr_l10n_init(globals.lang, &err) < 0 || pr_l10n_set_tz(globals.tz, &err) < 0) {
        pr_cli_errorf("%s", err.msg);
        return -1;
    }
    return 0;
}

/* The global options that take a value: --NAME VALUE or --NAME=VALUE. --tz is the zone of the
 * dates written, except for `ingest`, whose own --tz is the zone of the dates it reads. */
static const struct {
    const char *name;
    const char **value;
    const char *what;
    const pr_command *not_for;
} valued[] = {
    {"--store", &globals.store, "a PATH", NULL},
    {"--lang", &globals.lang, "a language (en, zh_CN)", NULL},
    {"--tz", &globals.tz, "a time zone (UTC, +08:00, Asia/Shanghai)", &pr_cmd_ingest},
};

/* Takes the global option at argv[*i] (--store PATH, --store=PATH, --lang, --tz, -q,
 * --quiet), advancing *i past its value. 1 taken, 0 not a global option, -1 usage error
 * (printed). */
static int take_global(const pr_command *cmd, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
        globals.quiet = 1;
        return 1;
    }
    for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++) {
        size_t n = strlen(valued[k].name);
        if (strncmp(a, valued[k].name, n) || (a[n] && a[n] != '=') ||
            (cmd && cmd == valued[k].not_for))
            continue;
        if (a[n] == '=') {
            *valued[k].value = a + n + 1;
            return 1;
        }
        if (*i + 1 >= argc) {
            pr_cli_errorf("%s needs %s", valued[k].name, valued[k].what);
            return -1;
        }
        *valued[k].value = argv[++*i];
        return 1;
    }
    return 0;
}

static int is_help(const char *a)
{
    return !strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "help");
}

static int is_version(const char *a)
{
    return !strcmp(a, "--version") || !strcmp(a, "version");
}

/* Runs cmd with the global options taken out of its arguments (up to "--"): commands read
 * them with pr_cli_store_path() and pr_cli_quiet(). */
static int run_command(const pr_command *cmd, int argc, char **argv)
{
    char **av = pr_xcalloc((size_t)argc + 1, sizeof *av);
    int n = 0, rc = PR_EXIT_OK, in_args = 1;
    av[n++] = argv[0];
    for (int i = 1; i < argc; i++) {
        if (in_args && !strcmp(argv[i], "--"))
            in_args = 0;
        int r = in_args ? take_global(cmd, argc, argv, &i) : 0;
        if (r < 0) {
            free(av);
            return PR_EXIT_USAGE;
        }
        if (r == 0 && in_args && !strcmp(argv[i], "--version")) {
            printf("perfreport %s\n", PR_VERSION);
            free(av);
            return PR_EXIT_OK;
        }
        if (r == 0)
            av[n++] = argv[i];
    }
    if (setup_l10n() < 0)
        rc = PR_EXIT_USAGE;
    else if (!pr_cli_wants_help(n, av, cmd->name))
        rc = cmd->run(n, av);
    free(av);
    return rc;
}

int pr_cli_main(int argc, char **argv)
{
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) { /* global options before the command */
        if (is_help(argv[i]) || is_version(argv[i]))
            break;
        int r = take_global(NULL, argc, argv, &i);
        if (r < 0)
            return PR_EXIT_USAGE;
        if (r == 0) {
            pr_cli_errorf("unknown global option '%s' (see perfreport --help)", argv[i]);
            return PR_EXIT_USAGE;
        }
    }
    if (i >= argc || is_help(argv[i]) || is_version(argv[i])) {
        if (setup_l10n() < 0)
            return PR_EXIT_USAGE;
    }
    if (i >= argc) {
        usage(stderr);
        return PR_EXIT_USAGE;
    }
    if (is_help(argv[i])) {
        if (i + 1 < argc)
            pr_cli_help(stdout, argv[i + 1]);
        else
            usage(stdout);
        return 0;
    }
    if (is_version(argv[i])) {
        printf("perfreport %s\n", PR_VERSION);
        return 0;
    }
    for (size_t k = 0; commands[k]; k++)
        if (!strcmp(argv[i], commands[k]->name))
            return run_command(commands[k], argc - i, argv + i);
    pr_cli_errorf("unknown command '%s' (see perfreport --help)", argv[i]);
    return PR_EXIT_USAGE;
}
