/* Store opening, error printing, report building and text cells shared by the subcommands. */
#include "cli/common.h"
#include "analysis/human.h"
#include "analysis/report.h"
#include "cli/cli.h"
#include "cli/selection.h"
#include "model/lex.h"
#include "model/text.h"
#include "model/xalloc.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Messages quote input files (a field, a name): their control characters are made visible. */
static void print_message(const char *prefix, const pr_error *err)
{
    char buf[2048];
    char *vis = pr_text_visible_dup(pr_error_format(err, buf, sizeof buf), 0);
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

int pr_cli_report(const char *store, char **refs, int nrefs, int merge,
                  const struct pr_report_opts *o, json_t **doc)
{
    pr_store *st;
    int rc = pr_cli_open_store(store, 0, &st);
    if (rc)
        return rc;
    int64_t *ids = NULL;
    size_t n = 0;
    pr_error err;
    pr_error_clear(&err);
    rc = pr_cli_select_runs(st, refs, nrefs, &ids, &n);
    if (rc == 0 && pr_report_build(st, ids, n, merge, o, doc, &err) < 0) {
        pr_cli_print_error(&err);
        rc = PR_EXIT_ERROR;
    }
    free(ids);
    pr_store_close(st);
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
    int bad = !ok || ferror(o->f) || fflush(o->f) != 0;
    int e = errno;
    if (o->f == stdout) {
        if (bad && ok)
            pr_cli_errorf("%s: write error: %s", o->path, strerror(e));
        return bad ? -1 : 0;
    }
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

/* Display width of UTF-8 text: code points (East Asian wide ones count 2). */
size_t pr_cli_text_width(const char *s, size_t max_bytes)
{
    size_t w = 0;
    for (size_t i = 0; s[i] && i < max_bytes; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c & 0xc0) == 0x80)
            continue;
        w += (c >= 0xe3 && c <= 0xed) || c == 0xef ? 2 : 1; /* CJK, Hangul, fullwidth */
    }
    return w;
}

/* Prints s cut to `width` columns (at a character boundary) and padded to it. */
void pr_cli_print_cell(const char *s, size_t width)
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
    for (size_t i = 0; i < bytes; i++) /* control characters (a label's newline) as spaces */
        putchar((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? ' ' : s[i]);
    for (; w < width; w++)
        putchar(' ');
}

void pr_cli_warn_bounded(json_t *doc)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(doc, "runs"), i, r) {
        const char *why = json_string_value(
            json_object_get(json_object_get(r, "stats"), "bounded_reason"));
        if (why)
            fprintf(stderr, "perfreport: warning: run %lld '%s': %s: durations from histograms "
                            "(percentiles within 0.1%%)\n",
                    (long long)json_integer_value(json_object_get(r, "id")),
                    json_string_value(json_object_get(r, "name")), why);
    }
}

void pr_cli_warn_windows(json_t *doc, const char *what)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(doc, "runs"), i, r) {
        json_t *w = json_object_get(r, "window");
        if (!json_is_true(json_object_get(w, "empty")))
            continue;
        long long id = (long long)json_integer_value(json_object_get(r, "id"));
        const char *name = json_string_value(json_object_get(r, "name"));
        json_t *from = json_object_get(w, "from_ns"), *run = json_object_get(w, "run_ns");
        char len[32];
        pr_human_duration(json_is_integer(run) ? (int64_t)json_integer_value(run) : PR_UNKNOWN,
                          len);
        if (json_is_integer(from) && json_is_integer(run) &&
            json_integer_value(from) >= json_integer_value(run))
            fprintf(stderr, "perfreport: warning: %s is longer than run %lld '%s' (%s): nothing "
                            "is left\n", what, id, name ? name : "", len);
        else
            fprintf(stderr, "perfreport: warning: %s leaves no request of run %lld '%s' (%s): "
                            "nothing is left\n", what, id, name ? name : "", len);
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
