/* `perfreport copy`: runs from one store into another (a local SQLite file into the team's
 * PostgreSQL, or back), exactly: samples byte for byte, tags, sources, shards. */
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/selection.h"
#include "cli/views.h"
#include "model/xalloc.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int copy_runs(pr_store *from, pr_store *to, const int64_t *ids, size_t n, int quiet)
{
    int rc = 0;
    int64_t *made = pr_xcalloc(n ? n : 1, sizeof *made);
    size_t nmade = 0;
    for (size_t i = 0; i < n; i++) {
        pr_error err;
        pr_error_clear(&err);
        int64_t id = 0;
        int r = pr_store_copy(from, ids[i], to, &id, &err);
        if (r == PR_EDUP) {
            if (!quiet)
                fprintf(stderr, "perfreport: %s; skipped\n", err.msg);
        } else if (r < 0) {
            pr_cli_print_error(&err);
            rc = PR_EXIT_ERROR;
        } else {
            made[nmade++] = id;
            if (!quiet)
                printf("run %lld -> run %lld\n", (long long)ids[i], (long long)id);
        }
    }
    int v = pr_cli_update_views(to, made, nmade);
    free(made);
    return rc ? rc : v;
}

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {{"from", required_argument, NULL, 'f'},
                                             {"to", required_argument, NULL, 't'},
                                             {"store", required_argument, NULL, 'f'},
                                             {"quiet", no_argument, NULL, 'q'},
                                             {NULL, 0, NULL, 0}};
    const char *from_target = NULL, *to_target = NULL;
    int quiet = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "q", longopts, NULL)) != -1) {
        switch (c) {
        case 'f': from_target = optarg; break;
        case 't': to_target = optarg; break;
        case 'q': quiet = 1; break;
        default: return PR_EXIT_USAGE;
        }
    }
    if (!to_target) {
        pr_cli_errorf("copy: give --to STORE (a file or a postgresql:// URL)");
        return PR_EXIT_USAGE;
    }
    pr_store *from, *to;
    int rc = pr_cli_open_store(from_target, 0, &from);
    if (rc)
        return rc;
    if ((rc = pr_cli_open_store(to_target, 1, &to)) != 0) {
        pr_store_close(from);
        return rc;
    }
    int64_t *ids = NULL;
    size_t n = 0;
    rc = pr_cli_select_runs(from, argv + optind, argc - optind, &ids, &n);
    if (rc == 0)
        rc = copy_runs(from, to, ids, n, quiet);
    free(ids);
    pr_store_close(to);
    pr_store_close(from);
    return rc;
}

const pr_command pr_cmd_copy = {
    "copy", "copy [--from STORE] --to STORE [RUN…]",
    "copy runs between stores (e.g. a local file into the team's PostgreSQL)",
    "Copies each RUN (an id, a name or 'last'; none = every run) of the --from store\n"
    "(default $PERFREPORT_STORE or ./perfreport.db) into the --to store, which is created\n"
    "if needed. A store is a SQLite file or a PostgreSQL database (postgresql://… or a\n"
    "libpq connection string; PG* variables apply). The copy is exact: the samples byte\n"
    "for byte, the run's metadata, tags, inputs and shards; each run is one transaction of\n"
    "the target and gets the target's next id. A run whose content the target already\n"
    "holds is skipped with a note.\n\n"
    "example:\n  perfreport copy --from perfreport.db --to postgresql://ci@db.example/perf last\n",
    run};
