/* Store opening, error printing and run selection shared by the subcommands. */
#include "cli/common.h"
#include "analysis/report.h"
#include "cli/cli.h"
#include "model/text.h"
#include "model/xalloc.h"
#include <errno.h>
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

void pr_cli_prepare_meta(json_t *meta)
{
    const char *k;
    json_t *v;
    json_t *add = json_object();
    json_object_foreach(meta, k, v) {
        if (!json_is_object(v))
            continue;
        json_t *list = json_array();
        const char *k2;
        json_t *v2;
        json_object_foreach(v, k2, v2) {
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
    static const char *const env[] = {"versions", "hardware", "topology", "tuning"};
    int has = 0;
    for (size_t i = 0; i < 4; i++)
        has |= json_object_get(meta, env[i]) != NULL;
    json_object_set_new(meta, "has_environment", json_boolean(has));
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
    if (pr_store_open(out, path ? path : pr_store_default_path(), create, &err) < 0) {
        pr_cli_print_error(&err);
        return PR_EXIT_ERROR;
    }
    return 0;
}

int pr_cli_select_runs(pr_store *st, char **refs, int nrefs, int64_t **ids, size_t *n)
{
    pr_error err;
    pr_error_clear(&err);
    if (nrefs == 0) {
        if (pr_store_list_runs(st, ids, n, &err) < 0) {
            pr_cli_print_error(&err);
            return PR_EXIT_ERROR;
        }
        if (*n == 0) {
            pr_cli_errorf("the store has no runs yet (perfreport ingest FILE…)");
            free(*ids);
            *ids = NULL;
            return PR_EXIT_ERROR;
        }
        return 0;
    }
    *ids = pr_xmalloc((size_t)nrefs * sizeof **ids);
    *n = 0;
    for (int i = 0; i < nrefs; i++) {
        if (pr_store_find_run(st, refs[i], &(*ids)[*n], &err) < 0) {
            pr_cli_print_error(&err);
            free(*ids);
            *ids = NULL;
            return err.code == PR_EUSAGE ? PR_EXIT_USAGE : PR_EXIT_ERROR;
        }
        (*n)++;
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
