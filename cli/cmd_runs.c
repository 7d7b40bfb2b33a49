/* `perfreport runs`, `rm`, `tag` and `formats`: listing and managing runs. */
#include "analysis/headline.h"
#include "analysis/human.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "model/text.h"
#include "cli/selection.h"
#include "model/buf.h"
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

/* One line of `runs`, kept until the column widths are known. */
typedef struct run_row {
    long long id;
    char *name, *tool, *format, *tags;
    char *note; /* printed below the table, or NULL */
    char samples[32], duration[32];
} run_row;

static void row_fill(run_row *w, const pr_run *r)
{
    w->id = (long long)r->id;
    w->name = pr_text_visible_dup(r->name, 0); /* names and tags may come from the file */
    w->tool = pr_xstrdup(r->tool ? r->tool : "-");
    w->format = pr_xstrdup(r->format ? r->format : "-");
    if (r->summary_only)
        snprintf(w->samples, sizeof w->samples, "summary");
    else
        pr_human_count(r->samples, w->samples, sizeof w->samples);
    /* the bounds come from start stamps: ab -g writes whole seconds, so a run shorter than
     * that reads "< 1 s" (not the few ms a latency adds to the last stamp) */
    json_int_t res = json_integer_value(json_object_get(r->meta, "time_resolution_ns"));
    int printed;
    int64_t d = pr_headline_span_ns(r, &printed); /* the tool's own test time where it wins */
    if (printed)
        res = 1;
    if (res >= 1000000000) /* whole-second stamps: the span is known to a second */
        pr_human_duration_approx(d, (int64_t)res, w->duration, sizeof w->duration);
    else
        pr_human_duration_res(d != PR_UNKNOWN && d < res ? 0 : d, (int64_t)res, w->duration,
                              sizeof w->duration);
    pr_buf b = PR_BUF_INIT;
    for (size_t t = 0; t < r->ntags; t++)
        pr_buf_printf(&b, "%s%s=%s", t ? " " : "", r->tags[t].key, r->tags[t].value);
    w->tags = pr_text_visible_dup(b.len ? b.p : "", 0);
    pr_buf_dispose(&b);
    json_t *tx = json_object_get(r->meta, "transaction_samples");
    if (json_is_integer(tx) && json_integer_value(tx) > 0) /* JMeter: samples, not requests */
        w->note = pr_xasprintf("run %lld: %lld samples (%lld transaction samples not counted "
                               "as requests)",
                               w->id, (long long)r->samples, (long long)json_integer_value(tx));
}

static void widen(size_t *w, const char *s)
{
    size_t n = pr_cli_text_width(s, (size_t)-1);
    if (n > *w)
        *w = n;
}

static int runs_main(int argc, char **argv)
{
    const char *store = NULL;
    if (parse_store_opt(argc, argv, &store))
        return PR_EXIT_USAGE;
    pr_cli_runs sel;
    int rc = pr_cli_runs_open(&sel, store, argv + optind, argc - optind, PR_CLI_RUNS_EMPTY_OK);
    if (rc)
        return rc;
    pr_store *st = sel.st;
    int64_t *ids = sel.ids;
    size_t n = sel.n, nrows = 0;
    pr_error err;
    pr_error_clear(&err);
    run_row *rows = pr_xcalloc(n + 1, sizeof *rows);
    size_t wname = 24, wtool = 10, wformat = 20; /* at least as wide as before; more if needed */
    for (size_t i = 0; i < n; i++) {
        pr_run *r;
        if (pr_store_load_run(st, ids[i], &r, &err) < 0) {
            pr_cli_print_error(&err);
            rc = PR_EXIT_ERROR;
            break;
        }
        run_row *w = &rows[nrows++];
        row_fill(w, r);
        pr_run_free(r);
        widen(&wname, w->name);
        widen(&wtool, w->tool);
        widen(&wformat, w->format);
    }
    printf("%4s  ", "ID");
    pr_cli_print_cell("NAME", wname);
    putchar(' ');
    pr_cli_print_cell("TOOL", wtool);
    putchar(' ');
    pr_cli_print_cell("FORMAT", wformat);
    printf(" %10s %10s  %s\n", "SAMPLES", "TEST TIME", "TAGS");
    for (size_t i = 0; i < nrows; i++) {
        run_row *w = &rows[i];
        printf("%4lld  ", w->id);
        pr_cli_print_cell(w->name, wname);
        putchar(' ');
        pr_cli_print_cell(w->tool, wtool);
        putchar(' ');
        pr_cli_print_cell(w->format, wformat);
        /* right-aligned by display width: "≈ 1 s", "3.00 µs" */
        int dw = 10 + (int)(strlen(w->duration) - pr_cli_text_width(w->duration, (size_t)-1));
        printf(" %10s %*s  ", w->samples, dw, w->duration);
        pr_cli_print_cell(w->tags, pr_cli_text_width(w->tags, (size_t)-1));
        printf("\n");
        free(w->name);
        free(w->tool);
        free(w->format);
        free(w->tags);
    }
    for (size_t i = 0, first = 1; i < nrows; i++) {
        if (rows[i].note)
            printf("%s%s\n", first ? "\n" : "", rows[i].note);
        first &= !rows[i].note;
        free(rows[i].note);
    }
    free(rows);
    pr_cli_runs_close(&sel);
    return rc;
}

const pr_command pr_cmd_runs = {
    "runs", "runs [--store PATH] [RUN…|tag:KEY=VALUE…]", "list the runs in the store",
    "Lists every run (or the runs selected): id, name, producing tool, input format, sample count "
    "('summary' for\n"
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
    pr_cli_runs sel;
    int rc = pr_cli_runs_open(&sel, store, argv + optind, argc - optind, 0);
    pr_error err;
    pr_error_clear(&err);
    for (size_t i = 0; rc == 0 && i < sel.n; i++) {
        if (pr_store_remove(sel.st, sel.ids[i], &err) < 0) {
            pr_cli_print_error(&err);
            rc = PR_EXIT_ERROR;
        } else {
            printf("removed run %lld\n", (long long)sel.ids[i]);
        }
    }
    pr_cli_runs_close(&sel);
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
    pr_cli_runs sel;
    int rc = pr_cli_runs_open(&sel, store, argv + optind, 1, 0);
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
    for (size_t k = 0; rc == 0 && k < sel.n; k++)
        for (int i = optind + 1; rc == 0 && i < argc; i++) {
            char *arg = argv[i], *eq = strchr(arg, '=');
            char *key =
                eq ? pr_xstrndup(arg, (size_t)(eq - arg)) : pr_xstrndup(arg, strlen(arg) - 1);
            if (pr_store_tag(sel.st, sel.ids[k], key, eq ? eq + 1 : NULL, &err) < 0) {
                pr_cli_print_error(&err);
                rc = PR_EXIT_ERROR;
            }
            free(key);
        }
    pr_cli_runs_close(&sel);
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
