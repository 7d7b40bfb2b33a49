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
/* The same for a warning ("perfreport: warning: …"). */
void pr_cli_print_warning(const pr_error *err);
/* The global options (before or after the command, taken out of the command's arguments by
 * pr_cli_main): the store path (--store, else $PERFREPORT_STORE, else ./perfreport.db) and
 * whether to be quiet (-q, --quiet: no progress lines, no per-file reports). */
const char *pr_cli_store_path(void);
int pr_cli_quiet(void);
/* --lang as given (before or after the command), or NULL: the environment chose (model/l10n.h;
 * the language is set before the command runs). */
const char *pr_cli_lang(void);
/* Writes a text output (a tool's report layout) to f with the control characters of the input
 * strings in it made visible; newlines and tabs are kept. */
void pr_cli_put_text(FILE *f, const char *s);
/* Opens the store at path (NULL: pr_cli_store_path()). Prints errors; returns 0 or
 * PR_EXIT_ERROR. */
int pr_cli_open_store(const char *path, int create, pr_store **out);

/* The runs a command works on: the store, open, and the runs its arguments select. */
typedef struct pr_cli_runs {
    pr_store *st;
    int64_t *ids;
    size_t n;
} pr_cli_runs;
enum { PR_CLI_RUNS_EMPTY_OK = 1 }; /* no refs and an empty store: n = 0, not an error */
/* Opens the store (NULL: pr_cli_store_path()) and resolves refs (cli/selection.h; none =
 * every run). Prints errors; returns 0 or PR_EXIT_*, and on failure out holds nothing (no
 * pr_cli_runs_close needed). */
int pr_cli_runs_open(pr_cli_runs *out, const char *store, char **refs, int nrefs, int flags);
/* Closes the store and frees the ids (safe on a zeroed or already closed struct). */
void pr_cli_runs_close(pr_cli_runs *r);
/* The report model of the runs named by refs: pr_cli_runs_open, pr_report_build,
 * pr_cli_runs_close. Prints errors; returns 0 or PR_EXIT_*; *doc is the caller's. */
struct pr_report_opts;
int pr_cli_report(const char *store, char **refs, int nrefs, int merge,
                  const struct pr_report_opts *o, json_t **doc);
/* --top N and --patterns auto|always|never (opt names which) into o; prints the error and
 * returns -1 on a bad value. */
int pr_cli_rows_option(struct pr_report_opts *o, const char *opt, const char *arg);
/* Writes doc as the CLI's JSON (2-space indent, members in their order, reals to 10
 * significant digits, one final newline) to path ("-" or NULL = stdout), every write checked.
 * Returns 0 or PR_EXIT_ERROR (printed). */
int pr_cli_print_json(const json_t *doc, const char *path);
/* Prints a command's help text (usage line first) to f. */
void pr_cli_help(FILE *f, const char *name);
/* Standard handling of "--help"/"-h" anywhere in argv: prints help, returns 1. */
int pr_cli_wants_help(int argc, char **argv, const char *name);
/* An option's duration ("10s", "500ms"; a bare number counts unit_ns: 1000000000 for
 * seconds, 1000000 for ms) into *ns. Prints "OPT expects a duration like 10s or 500ms, got
 * 'ARG'" and returns PR_EXIT_USAGE when it is not one; 0 otherwise. */
int pr_cli_parse_duration(const char *opt, const char *arg, int64_t unit_ns, int64_t *ns);
/* Appends "OPT ARG" to the window options as typed (window, size bytes), for
 * pr_cli_warn_windows. */
void pr_cli_window_add(char *window, size_t size, const char *opt, const char *arg);
/* Adds the thresholds of one option to *ts (n entries, cap allocated): kind 'x' --max ARG,
 * 'n' --min ARG, 'f' --thresholds FILE (analysis/threshold.h). Prints errors; returns 0 or
 * PR_EXIT_USAGE. */
struct pr_threshold;
int pr_cli_add_thresholds(struct pr_threshold **ts, size_t *n, size_t *cap, int kind,
                          const char *arg);
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
/* Standard output is text: cli/main.c writes it through the one gate of model/text.h
 * (pr_text_gate), so no control character from a file reaches a terminal whatever path
 * prints it. A command that writes a binary stream to stdout (export's and attack's native
 * samples) calls pr_cli_stdout_binary first: what it printed before is flushed through the
 * gate, the rest goes out as it is. */
void pr_cli_stdout_binary(void);
int pr_cli_stdout_is_binary(void);
/* 1 when a template argument is a path (it holds a '/': ./report.md, tpl/x.md, /abs/x.md):
 * the file there. A name without one (report.md) is always the built-in of that name, never
 * a file of the working directory (a report written as ./report.md is no template). */
int pr_cli_template_is_path(const char *name);
/* The report's language from its template's name when --lang is not given: a name that names
 * a language (report.zh.md, my.zh_CN.html; model/l10n.h) sets it, one without a catalog is a
 * warning. With --lang the name says nothing: report.zh.md is report.md in --lang's language
 * (a built-in template is one template for every language, render/mustache.h). */
void pr_cli_template_language(const char *name);
/* The template a command renders: for a path, the file there (its folder copied to dir, dsize
 * bytes, when dir is not NULL); for a name, the built-in of that name (dir gets ""). *text is
 * the caller's (free). Prints errors; returns 0, PR_EXIT_ERROR (no such file, unreadable) or
 * PR_EXIT_USAGE (no such built-in). */
int pr_cli_load_template(const char *name, char **text, size_t *len, char *dir, size_t dsize);
/* s padded to |w| columns (display width, as pr_cli_text_width counts): right-aligned when
 * w > 0, left-aligned when w < 0; never cut. Appended to b. */
struct pr_buf;
void pr_cli_cell(struct pr_buf *b, const char *s, int w);
/* The longest start of s that is at most `width` columns wide (cut at a character boundary)
 * into buf (size bytes); returns buf. */
const char *pr_cli_cut(const char *s, size_t width, char *buf, size_t size);
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
 * "-" is stdout, which the CLI checks once, at exit (cli/main.c): closing it always returns
 * 0. Open returns the stream (NULL: printed). Close with ok = 0 discards the output silently
 * (the caller reported why); returns 0 or -1 (printed). */
typedef struct pr_cli_out {
    FILE *f;
    const char *path;
    char *tmp;
} pr_cli_out;
FILE *pr_cli_out_open(pr_cli_out *o, const char *path);
int pr_cli_out_close(pr_cli_out *o, int ok);
/* Writes all of buf to path that way. Returns 0 or -1 (printed). */
int pr_cli_write_file(const char *path, const char *buf, size_t len);

#endif
