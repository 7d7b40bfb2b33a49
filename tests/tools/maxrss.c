/* maxrss LIMIT_MB CMD [ARG…]: runs CMD (its output passed through) and says whether
 * its peak resident memory (getrusage of the child) stayed within LIMIT_MB (on stderr, so
 * CMD's stdout can be redirected); exit 1 when not,
 * or CMD's exit status. With PR_MAXRSS_SKIP set (sanitizer builds, whose shadow memory makes
 * the figure meaningless) it prints the same verdict without checking. For the CLI cases. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: maxrss LIMIT_MB CMD [ARG...]\n");
        return 2;
    }
    long limit_mb = atol(argv[1]);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0) {
        perror("maxrss");
        return 2;
    }
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    long mb = (ru.ru_maxrss + 1023) / 1024; /* ru_maxrss is in KB */
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    if (getenv("PR_MAXRSS_SKIP") || mb <= limit_mb) {
        fprintf(stderr, "peak memory within %ld MB\n", limit_mb);
    } else {
        fprintf(stderr, "peak memory %ld MB, more than %ld MB\n", mb, limit_mb);
        rc = rc ? rc : 1;
    }
    if (getenv("PR_MAXRSS_LOG")) /* the figure itself, for the test log */
        fprintf(stderr, "maxrss: %ld MB\n", mb);
    return rc;
}
