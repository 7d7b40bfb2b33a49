/* Helpers shared by the subcommands: store opening, error printing, report building
 * (run selections: cli/selection.h). */
#ifndef PR_CLI_COMMON_H
#define PR_CLI_COMMON_H
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>
#include "model/error.h"
#include "store/store.h"

/* Prints "perfreport: FILE:LINE:COL: message" to stderr, control characters made visible. */
void pr_cli_print_error(const pr_error *err);
/* The global options (before or after the command, taken out of the command's arguments by
 * pr_cli_main): the store path (--store, else $PERFREPORT_STORE, else ./perfreport.db) and
 * whether to be quiet (-q, --quiet: no progress lines, no per-file reports). */
const char *pr_cli_store_path(void);
int pr_cli_quiet(void);
/* The same for a warning ("perfreport: warning: …"). */
void pr_cli_print_warning(const pr_error *err);
/* Writes a text output (a tool's report layout) to f with the control characters of the input
 * strings in it made visible; newlines and tabs are kept. */
void pr_cli_put_text(FILE *f, const char *s);
/* Opens the store at path (NULL: pr_cli_store_path()). */
int pr_cli_open_store(const char *path, int create, pr_store **out);
/* The report model of the runs named by refs (cli/selection.h; none = every run): opens the store, resolves
 * the runs, builds the document, closes the store. Prints errors; returns 0 or PR_EXIT_*. */
struct pr_report_opts;
int pr_cli_report(const char *store, char **refs, int nrefs, int merge,
                  const struct pr_report_opts *o, json_t **doc);
/* --top N and --patterns auto|always|never (opt names which) into o; prints the error and
 * returns -1 on a bad value. */
int pr_cli_rows_option(struct pr_report_opts *o, const char *opt, const char *arg);
/* Prints a command's help text (usage line first) to f. */
void pr_cli_help(FILE *f, const char *name);
/* Standard handling of "--help"/"-h" anywhere in argv: prints help, returns 1. */
int pr_cli_wants_help(int argc, char **argv, const char *name);
/* Warns on stderr about each run of the report model doc whose window (--from, --to,
 * --skip-warmup; `what` says which, as typed) leaves no sample: "perfreport: warning:
 * --skip-warmup 1h is longer than run 1 'x' (3.12 s): nothing is left". */
void pr_cli_warn_windows(json_t *doc, const char *what);
/* Warns on stderr for each run of doc that the memory available put in bounded mode
 * (stats.bounded_reason). */
void pr_cli_warn_bounded(json_t *doc);
/* Display width of UTF-8 text (at most max_bytes of it): code points, East Asian wide ones
 * counting 2. */
size_t pr_cli_text_width(const char *s, size_t max_bytes);
/* Prints s on stdout cut to `width` columns (at a character boundary) and padded to it;
 * control characters print as spaces. */
void pr_cli_print_cell(const char *s, size_t width);
/* --slo "p99=250ms" (or "250ms") into ns; --max-errors "1%" or "0.01" into a ratio. Print
 * the usage error and return PR_EXIT_USAGE, or 0. */
int pr_cli_parse_slo(const char *arg, double *ns);
int pr_cli_parse_max_errors(const char *arg, double *ratio);
/* The --meta object (a user's JSON file) made ready for templates (cli/cmd_render.c): adds
 * KEY_list = [{key, value}] beside every object-valued member, so templates can iterate
 * tables of versions, hardware, tuning parameters…, the study's sections, and sets
 * has_environment. */
void pr_cli_prepare_meta(json_t *meta);
/* 1 when a path names an HTML file (ends in .html or .htm). */
int pr_cli_is_html(const char *path);
/* An output file written whole or not at all: the data goes to a temporary file beside
 * PATH, renamed over PATH once every write succeeded; on a failure (a full disk, a file-size
 * limit) the temporary file is removed, PATH is left as it was, and the message names it.
 * "-" is stdout. Open returns the stream (NULL: printed). Close with ok = 0 discards the
 * output silently (the caller reported why); returns 0 or -1 (printed). */
typedef struct pr_cli_out {
    FILE *f;
    const char *path;
    char *tmp;
} pr_cli_out;
FILE *pr_cli_out_open(pr_cli_out *o, const char *path);
int pr_cli_out_close(pr_cli_out *o, int ok);
/* Writes all of buf to path ("-" = stdout) that way. Returns 0 or -1 (printed). */
int pr_cli_write_file(const char *path, const char *buf, size_t len);

#endif
