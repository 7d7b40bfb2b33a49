/* Store opening, error printing and report building shared by the subcommands. */
#include "cli/common.h"
#include "analysis/report.h"
#include "cli/cli.h"
#include "cli/selection.h"
#include "model/xalloc.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void pr_cli_print_error(const pr_error *err)
{
    char buf[2048];
    fprintf(stderr, "perfreport: %s\n", pr_error_format(err, buf, sizeof buf));
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

int pr_cli_write_file(const char *path, const char *buf, size_t len)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "wb") : stdout;
    if (!f) {
        pr_cli_errorf("%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    int bad = fwrite(buf, 1, len, f) != len;
    bad |= fflush(f) != 0;
    if (f != stdout)
        bad |= fclose(f) != 0;
    if (bad) {
        pr_cli_errorf("%s: write error: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
