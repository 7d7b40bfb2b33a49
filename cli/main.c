/* perfreport entry point: dispatches to the command table in cli/commands.c, then checks
 * that everything written to standard output reached it (as jq does). */
#include "cli/cli.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

/* Flushes and closes stdout once, at exit: a command whose output could not be written
 * (a full disk, /dev/full, a closed descriptor) exits 1 with a message instead of 0 (or 3,
 * a failed threshold: the verdict did not reach its reader either). */
static int finish_stdout(int rc)
{
    int failed = fflush(stdout) != 0 || ferror(stdout);
    int err = errno;
    if (fclose(stdout) != 0 && !failed) {
        failed = 1;
        err = errno;
    }
    if (!failed)
        return rc;
    /* a command that failed has said why (often this very write error) */
    if (rc != PR_EXIT_ERROR && rc != PR_EXIT_USAGE)
        pr_cli_errorf("error writing standard output: %s", strerror(err ? err : EIO));
    return rc == PR_EXIT_USAGE ? rc : PR_EXIT_ERROR;
}

int main(int argc, char **argv)
{
    /* A file-size limit (ulimit -f) makes a write fail with EFBIG, as a full disk does with
     * ENOSPC, instead of killing the process: the command then says which file it could not
     * write and leaves the store as it was. */
    signal(SIGXFSZ, SIG_IGN);
    return finish_stdout(pr_cli_main(argc, argv));
}
