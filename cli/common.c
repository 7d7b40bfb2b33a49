/* Store opening, error printing, report building and text cells shared by the subcommands. */
#include "cli/common.h"
#include "analysis/human.h"
#include "analysis/report.h"
#include "analysis/study.h"
#include "analysis/threshold.h"
#include "cli/cli.h"
#include "cli/selection.h"
#include "model/buf.h"
#include "model/l10n.h"
#include "model/lex.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "render/mustache.h"
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Messages quote input files (a field, a name): their control characters are made visible.
 * What stdout holds goes out first, so a pipe gets the order a terminal shows. */
static void print_message(const char *prefix, const pr_error *err)
{
    char buf[2048];
    char *vis = pr_text_visible_dup(pr_error_format(err, buf, sizeof buf), 0);
    fflush(stdout);
    fprintf(stderr, "perfreport: %s%s\n", prefix, vis);
    free(vis);
}

void pr_cli_print_error(const pr_error *err)
{
    print_message("", err);
}

void pr_cli_print_warning(const pr_error *err)
{
    print_message("warning: ", err);
}

int pr_cli_is_html(const char *path)
{
    size_t n = strlen(path);
    return (n >= 5 && !strcmp(path + n - 5, ".html")) || (n >= 4 && !strcmp(path + n - 4, ".htm"));
}

void pr_cli_put_text(FILE *f, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (pr_text_is_safe(s, n, PR_TEXT_LINES)) {
        fwrite(s, 1, n, f);
        return;
    }
    pr_buf b = PR_BUF_INIT;
    pr_text_visible(s, n, PR_TEXT_LINES, &b);
    fwrite(b.p, 1, b.len, f);
    pr_buf_dispose(&b);
}

int pr_cli_open_store(const char *path, int create, pr_store **out)
{
    pr_error err;
    pr_error_clear(&err);
    if (pr_store_open(out, path ? path : pr_cli_store_path(), create, &err) < 0) {
        pr_cli_print_error(&err);
        return PR_EXIT_ERROR;
    }
    return 0;
}

int pr_cli_runs_open(pr_cli_runs *out, const char *store, char **refs, int nrefs, int flags)
{
    memset(out, 0, sizeof *out);
    int rc = pr_cli_open_store(store, 0, &out->st);
    if (rc) {
        out->st = NULL;
        return rc;
    }
    if (nrefs == 0 && (flags & PR_CLI_RUNS_EMPTY_OK)) {
        pr_error err;
        pr_error_clear(&err);
        if (pr_store_list_runs(out->st, &out->ids, &out->n, &err) < 0) {
            pr_cli_print_error(&err);
            rc = PR_EXIT_ERROR;
        }
    } else {
        rc = pr_cli_select_runs(out->st, refs, nrefs, &out->ids, &out->n);
    }
    if (rc)
        pr_cli_runs_close(out);
    return rc;
}

void pr_cli_runs_close(pr_cli_runs *r)
{
    if (r->st)
        pr_store_close(r->st);
    free(r->ids);
    memset(r, 0, sizeof *r);
}

int pr_cli_report(const char *store, char **refs, int nrefs, int merge,
                  const struct pr_report_opts *o, json_t **doc)
{
    pr_cli_runs sel;
    int rc = pr_cli_runs_open(&sel, store, refs, nrefs, 0);
    if (rc)
        return rc;
    pr_error err;
    pr_error_clear(&err);
    if (pr_report_build(sel.st, sel.ids, sel.n, merge, o, doc, &err) < 0) {
        pr_cli_print_error(&err);
        rc = PR_EXIT_ERROR;
    }
    pr_cli_runs_close(&sel);
    return rc;
}

int pr_cli_print_json(const json_t *doc, const char *path)
{
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    if (!text) {
        pr_cli_errorf("cannot write the JSON document (out of memory)");
        return PR_EXIT_ERROR;
    }
    size_t len = strlen(text);
    text[len] = '\n'; /* json_dumps' terminating NUL becomes the final newline */
    int rc = pr_cli_write_file(path ? path : "-", text, len + 1) < 0 ? PR_EXIT_ERROR : 0;
    free(text);
    return rc;
}

int pr_cli_wants_help(int argc, char **argv, const char *name)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            break;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            pr_cli_help(stdout, name);
            return 1;
        }
    }
    return 0;
}

void pr_cli_prepare_meta(json_t *meta)
{
    const char *k;
    json_t *v;
    json_t *add = json_object();
    json_object_foreach (meta, k, v) {
        if (!json_is_object(v))
            continue;
        json_t *list = json_array();
        const char *k2;
        json_t *v2;
        json_object_foreach (v, k2, v2) {
            json_t *e = json_object();
            json_object_set_new(e, "key", json_string(k2));
            json_object_set(e, "value", v2);
            json_array_append_new(list, e);
        }
        char name[256];
        snprintf(name, sizeof name, "%s_list", k);
        json_object_set_new(add, name, list);
    }
    json_object_update(meta, add);
    json_decref(add);
    pr_study_meta_sections(meta);
    static const char *const env[] = {"versions", "hardware", "topology", "tuning"};
    int has = 0;
    for (size_t i = 0; i < 4; i++)
        has |= json_object_get(meta, env[i]) != NULL;
    json_object_set_new(meta, "has_environment", json_boolean(has));
}

static int stdout_binary;

void pr_cli_stdout_binary(void)
{
    fflush(stdout);
    stdout_binary = 1;
}

int pr_cli_stdout_is_binary(void)
{
    return stdout_binary;
}

int pr_cli_template_is_path(const char *name)
{
    return strchr(name, '/') != NULL;
}

/* A template given as a path: the file there, nothing else. */
static int load_template_file(const char *path, char **text, size_t *len, char *dir, size_t dsize)
{
    pr_error err;
    pr_error_clear(&err);
    int rc = pr_tpl_read_file(path, path, text, len, &err);
    if (rc == PR_ENOTFOUND) {
        struct stat st;
        pr_cli_errorf("%s: no such template file%s", path,
                      stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? " (a folder)" : "");
        return PR_EXIT_ERROR;
    }
    if (rc < 0) {
        pr_cli_print_error(&err);
        return PR_EXIT_ERROR;
    }
    if (dir) {
        char *copy = pr_xstrdup(path);
        snprintf(dir, dsize, "%s", dirname(copy));
        free(copy);
    }
    return 0;
}

void pr_cli_template_language(const char *name)
{
    char lang[32];
    pr_error err;
    pr_error_clear(&err);
    if (pr_cli_lang() || !name || !pr_l10n_name_lang(name, lang, sizeof lang))
        return;
    if (pr_l10n_init(lang, &err) < 0)
        pr_cli_errorf(_("warning: %s names the language '%s', which has no message catalog: the "
                        "words perfreport writes stay in English"),
                      name, lang);
}

int pr_cli_load_template(const char *name, char **text, size_t *len, char *dir, size_t dsize)
{
    if (dir)
        dir[0] = 0;
    if (pr_cli_template_is_path(name))
        return load_template_file(name, text, len, dir, dsize);
    pr_error err;
    pr_error_clear(&err);
    pr_tpl_builtin bt = {NULL, NULL};
    pr_tpl_loader bl = pr_tpl_builtin_loader(&bt);
    int rc = bl.load(name, text, len, &err, bl.payload);
    if (rc == PR_ENOTFOUND) {
        struct stat st;
        if (stat(name, &st) == 0 && S_ISREG(st.st_mode))
            pr_cli_errorf("no built-in template '%s' (perfreport templates lists them); a "
                          "template file is read only when given as a path: ./%s",
                          name, name);
        else
            pr_cli_errorf("no built-in template '%s' (perfreport templates lists them; a "
                          "template file is given as a path: ./%s)",
                          name, name);
        return PR_EXIT_USAGE;
    }
    if (rc < 0) {
        pr_cli_print_error(&err);
        return PR_EXIT_ERROR;
    }
    return 0;
}

FILE *pr_cli_out_open(pr_cli_out *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    if (!strcmp(path, "-")) {
        o->f = stdout;
        return o->f;
    }
    o->tmp = pr_xasprintf("%s.tmp-XXXXXX", path);
    int fd = mkstemp(o->tmp);
    if (fd >= 0) {
        mode_t mask = umask(0);
        umask(mask);
        (void)fchmod(fd, 0666 & ~mask); /* as fopen would create it */
        o->f = fdopen(fd, "wb");
        if (!o->f)
            close(fd);
    }
    if (!o->f) {
        pr_cli_errorf("%s: cannot write: %s", path, strerror(errno));
        if (fd >= 0)
            unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
    }
    return o->f;
}

int pr_cli_out_close(pr_cli_out *o, int ok)
{
    if (!o->f)
        return -1;
    if (o->f == stdout) /* checked once, at exit (cli/main.c) */
        return 0;
    int bad = !ok || ferror(o->f) || fflush(o->f) != 0;
    int e = errno;
    if (fclose(o->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (!bad && rename(o->tmp, o->path) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        unlink(o->tmp);
        if (ok)
            pr_cli_errorf("%s: write error: %s; nothing written (an existing file is kept)",
                          o->path, strerror(e));
    }
    free(o->tmp);
    o->tmp = NULL;
    o->f = NULL;
    return bad ? -1 : 0;
}

int pr_cli_write_file(const char *path, const char *buf, size_t len)
{
    pr_cli_out o;
    FILE *f = pr_cli_out_open(&o, path);
    if (!f)
        return -1;
    (void)fwrite(buf, 1, len, f); /* a short write sets the stream's error: close says it */
    return pr_cli_out_close(&o, 1);
}

/* Display width of UTF-8 text: code points (East Asian wide ones count 2). The bound is
 * tested before the byte: s need not be terminated within max_bytes. */
size_t pr_cli_text_width(const char *s, size_t max_bytes)
{
    size_t w = 0;
    for (size_t i = 0; i < max_bytes && s[i]; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c & 0xc0) == 0x80)
            continue;
        w += (c >= 0xe3 && c <= 0xed) || c == 0xef ? 2 : 1; /* CJK, Hangul, fullwidth */
    }
    return w;
}

void pr_cli_cell(pr_buf *b, const char *s, int w)
{
    size_t width = w < 0 ? (size_t) - (long)w : (size_t)w, sw = pr_cli_text_width(s, (size_t)-1);
    int pad = width > sw ? (int)(width - sw) : 0;
    if (w > 0)
        pr_buf_printf(b, "%*s%s", pad, "", s);
    else
        pr_buf_printf(b, "%s%*s", s, pad, "");
}

/* Bytes of the longest start of s at most `width` columns wide (a character boundary). */
static size_t cut_bytes(const char *s, size_t width)
{
    size_t bytes = 0, w = 0;
    while (s[bytes]) {
        size_t k = 1;
        while ((s[bytes + k] & 0xc0) == 0x80)
            k++;
        size_t cw = pr_cli_text_width(s + bytes, k);
        if (w + cw > width)
            break;
        w += cw;
        bytes += k;
    }
    return bytes;
}

const char *pr_cli_cut(const char *s, size_t width, char *buf, size_t size)
{
    size_t n = cut_bytes(s, width);
    while (n >= size) { /* back to a character boundary that fits */
        n--;
        while (n && (s[n] & 0xc0) == 0x80)
            n--;
    }
    memcpy(buf, s, n);
    buf[n] = 0;
    return buf;
}

/* Prints s cut to `width` columns (at a character boundary) and padded to it. */
void pr_cli_print_cell(const char *s, size_t width)
{
    size_t bytes = cut_bytes(s, width), w = pr_cli_text_width(s, bytes);
    for (size_t i = 0; i < bytes; i++) /* control characters (a label's newline) as spaces */
        putchar((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? ' ' : s[i]);
    for (; w < width; w++)
        putchar(' ');
}

void pr_cli_warn_bounded(json_t *doc)
{
    size_t i;
    json_t *r;
    json_array_foreach (json_object_get(doc, "runs"), i, r) {
        const char *why =
            json_string_value(json_object_get(json_object_get(r, "stats"), "bounded_reason"));
        if (why)
            fprintf(stderr,
                    "perfreport: warning: run %lld '%s': %s: durations from histograms "
                    "(percentiles within 0.1%%)\n",
                    (long long)json_integer_value(json_object_get(r, "id")),
                    json_string_value(json_object_get(r, "name")), why);
    }
}

int pr_cli_parse_duration(const char *opt, const char *arg, int64_t unit_ns, int64_t *ns)
{
    if (pr_lex_duration(arg, strlen(arg), unit_ns, ns) < 0) {
        pr_cli_errorf("%s expects a duration like 10s or 500ms%s, got '%s'", opt,
                      unit_ns == 1000000 ? " (ms if bare)" : "", arg);
        return PR_EXIT_USAGE;
    }
    return 0;
}

void pr_cli_window_add(char *window, size_t size, const char *opt, const char *arg)
{
    size_t k = strlen(window);
    if (k < size)
        snprintf(window + k, size - k, "%s%s %s", k ? " " : "", opt, arg);
}

int pr_cli_add_thresholds(pr_threshold **ts, size_t *n, size_t *cap, int kind, const char *arg)
{
    pr_error err;
    pr_error_clear(&err);
    if (kind == 'f') {
        if (pr_threshold_read_file(arg, ts, n, cap, &err) < 0) {
            pr_cli_print_error(&err);
            return PR_EXIT_USAGE;
        }
        return 0;
    }
    *ts = pr_xgrow(*ts, cap, *n + 1, sizeof **ts);
    if (pr_threshold_parse(&(*ts)[*n], arg, kind == 'x', &err) < 0) {
        pr_cli_errorf("%s", err.msg);
        return PR_EXIT_USAGE;
    }
    (*n)++;
    return 0;
}

void pr_cli_warn_windows(json_t *doc, const char *what)
{
    size_t i;
    json_t *r;
    json_array_foreach (json_object_get(doc, "runs"), i, r) {
        json_t *w = json_object_get(r, "window");
        if (!json_is_true(json_object_get(w, "empty")))
            continue;
        long long id = (long long)json_integer_value(json_object_get(r, "id"));
        const char *name = json_string_value(json_object_get(r, "name"));
        json_t *from = json_object_get(w, "from_ns"), *run = json_object_get(w, "run_ns");
        char len[32];
        pr_human_duration(json_is_integer(run) ? (int64_t)json_integer_value(run) : PR_UNKNOWN, len,
                          sizeof len);
        if (json_is_integer(from) && json_is_integer(run) &&
            json_integer_value(from) >= json_integer_value(run))
            fprintf(stderr,
                    "perfreport: warning: %s is longer than run %lld '%s' (%s): nothing "
                    "is left\n",
                    what, id, name ? name : "", len);
        else
            fprintf(stderr,
                    "perfreport: warning: %s leaves no request of run %lld '%s' (%s): "
                    "nothing is left\n",
                    what, id, name ? name : "", len);
    }
}

int pr_cli_parse_slo(const char *arg, double *ns)
{
    const char *s = arg;
    int64_t v;
    if (!strncmp(s, "p99=", 4))
        s += 4;
    if (strchr(s, '=') || pr_lex_duration(s, strlen(s), 1000000, &v) < 0 || v <= 0) {
        pr_cli_errorf("--slo expects p99=DURATION (e.g. p99=250ms), got '%s'", arg);
        return PR_EXIT_USAGE;
    }
    *ns = (double)v;
    return 0;
}

int pr_cli_parse_max_errors(const char *arg, double *ratio)
{
    char *end;
    double v = strtod(arg, &end);
    if (*end == '%') {
        v /= 100;
        end++;
    }
    if (end == arg || *end || !(v >= 0 && v <= 1)) {
        pr_cli_errorf("--max-errors expects a ratio like 1%% or 0.01, got '%s'", arg);
        return PR_EXIT_USAGE;
    }
    *ratio = v;
    return 0;
}

int pr_cli_rows_option(pr_report_opts *o, const char *opt, const char *arg)
{
    if (!strcmp(opt, "--top")) {
        if (pr_lex_i64(arg, strlen(arg), &o->top) < 0 || o->top < 0) {
            pr_cli_errorf("--top expects a number of labels (0: every label), got '%s'", arg);
            return -1;
        }
        return 0;
    }
    static const char *const when[] = {"never", "auto", "always"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(arg, when[i])) {
            o->patterns = i - 1;
            return 0;
        }
    pr_cli_errorf("--patterns expects auto, always or never, got '%s'", arg);
    return -1;
}
