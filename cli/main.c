/* perfreport entry point: dispatches to the command table in cli/commands.c, then checks
 * that everything written to standard output reached it (as jq does). */
#include "cli/cli.h"
#include "cli/common.h"
#include "model/text.h"
#include "model/xalloc.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The first error writing descriptor 1: errno is long overwritten (a store's network and
 * file calls) by the time the exit message names it. */
static int out_errno;

static int write_all(const char *buf, size_t n, void *payload)
{
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(STDOUT_FILENO, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (!out_errno)
                out_errno = w < 0 ? errno : EIO;
            return -1;
        }
        done += (size_t)w;
    }
    return 0;
}

/* The one text gate of standard output (model/text.h): whatever a command prints, a control
 * character from a result file reaches the terminal or the pipe made visible; the native
 * streams of export and attack go out as they are (pr_cli_stdout_binary). */
static pr_text_gate out_gate = {write_all, NULL, {0}, 0};

static ssize_t out_write(void *cookie, const char *buf, size_t n)
{
    int rc;
    if (pr_cli_stdout_is_binary()) {
        rc = pr_text_gate_end(&out_gate);
        if (rc == 0)
            rc = write_all(buf, n, NULL);
    } else {
        rc = pr_text_gate_put(&out_gate, buf, n);
    }
    return rc < 0 ? -1 : (ssize_t)n;
}

static int out_close(void *cookie)
{
    if (pr_text_gate_end(&out_gate) < 0)
        return -1;
    if (close(STDOUT_FILENO) < 0 && !out_errno) {
        out_errno = errno;
        return -1;
    }
    return 0;
}

/* Standard output as the commands see it: a stream over descriptor 1 that remembers its first
 * write error (line-buffered on a terminal, as stdio's own). glibc's stdout is a variable a
 * program may set. */
static void open_stdout(void)
{
    cookie_io_functions_t io = {NULL, out_write, NULL, out_close};
    FILE *f = fopencookie(NULL, "w", io);
    if (!f)
        return; /* stdio's stdout then, with a less exact message */
    setvbuf(f, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
    stdout = f;
}

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
    if (out_errno)
        err = out_errno;
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
    pr_xalloc_json();
    open_stdout();
    return finish_stdout(pr_cli_main(argc, argv));
}
