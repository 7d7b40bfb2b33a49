/* pty [-w COLS] CMD [ARG…]: runs CMD with its standard output and standard error on a
 * pseudo-terminal (COLS columns, default 80; 24 rows), as a user's shell would, and copies what
 * CMD wrote there to our standard output as it arrives. Standard input is passed through (a
 * case's redirection still works). Exit status: CMD's, or 128 + N when a signal N ended it, in
 * which case "pty: CMD killed by signal N (NAME)" is written to standard error. For the CLI
 * cases' terminal pass (tests/cli/lib.sh, PR_TTY=1): progress lines, colour and width paths run
 * as they do for a person at a terminal. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

/* Writes all of buf to fd; 0, or -1 on error. */
static int write_all(int fd, const char *buf, size_t n)
{
    while (n) {
        ssize_t w = write(fd, buf, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The child: a session of its own whose controlling terminal is the pty's slave side (fd,
 * opened before the fork, so the master never reads before a slave is open). */
static void child(int fd, char **argv)
{
    setsid();
    ioctl(fd, TIOCSCTTY, 0);
    dup2(fd, 1);
    dup2(fd, 2);
    if (fd > 2)
        close(fd);
    execvp(argv[0], argv);
    fprintf(stderr, "pty: %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

int main(int argc, char **argv)
{
    int cols = 80, i = 1;
    if (argc > 2 && strcmp(argv[1], "-w") == 0) {
        cols = atoi(argv[2]);
        i = 3;
    }
    if (i >= argc || cols <= 0) {
        fprintf(stderr, "usage: pty [-w COLS] CMD [ARG...]\n");
        return 2;
    }
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0) {
        perror("pty: posix_openpt");
        return 2;
    }
    char *slave = ptsname(m);
    struct winsize ws = {.ws_row = 24, .ws_col = (unsigned short)cols};
    int s = slave ? open(slave, O_RDWR | O_NOCTTY) : -1;
    if (s < 0) {
        perror("pty: slave");
        return 2;
    }
    ioctl(s, TIOCSWINSZ, &ws);
    struct termios t;
    if (tcgetattr(s, &t) == 0) { /* output as written: no \n to \r\n */
        t.c_oflag &= ~(tcflag_t)OPOST;
        tcsetattr(s, TCSANOW, &t);
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("pty: fork");
        return 2;
    }
    if (pid == 0) {
        close(m);
        child(s, argv + i);
    }
    /* The parent keeps the slave side open: a master whose last slave closed may report EIO
     * before it has handed over everything written to it (the end of a transcript lost). So it
     * reads until the child has ended and then what is left, until the master stays quiet. */
    char buf[65536];
    int status = 0, ended = 0;
    for (;;) {
        struct pollfd p = {m, POLLIN, 0};
        int n = poll(&p, 1, ended ? 100 : 50);
        if (n < 0 && errno == EINTR)
            continue;
        if (n > 0 && (p.revents & POLLIN)) {
            ssize_t r = read(m, buf, sizeof buf);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0 || write_all(1, buf, (size_t)r) < 0)
                break;
            continue;
        }
        if (ended)
            break; /* quiet for 100 ms after the child's end: all of it was read */
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            ended = 1;
        else if (w < 0 && errno != EINTR) {
            perror("pty: waitpid");
            return 2;
        }
    }
    if (!ended)
        while (waitpid(pid, &status, 0) < 0)
            if (errno != EINTR) {
                perror("pty: waitpid");
                return 2;
            }
    close(s);
    close(m);
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        fprintf(stderr, "pty: %s killed by signal %d (%s)\n", argv[i], sig, strsignal(sig));
        return 128 + sig;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}
