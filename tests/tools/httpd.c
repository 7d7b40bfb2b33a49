/* Test tool: the scripted loopback HTTP server of tests/unit/lib/testhttpd.c as a process,
 * for the CLI transcript tests and fixture scripts. `httpd MODE [DELAY_MS]` (status, ok,
 * reset, silent, slow: ok after DELAY_MS; the hostile ones: malformed, garbage, headers,
 * endless) listens on a free 127.0.0.1 port, prints the port on stdout, and serves until
 * SIGTERM or 120 s (so a failed test never leaves it running). */
#include "tests/unit/lib/testhttpd.h"
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    httpd_mode mode;
} modes[] = {
    {"status", HTTPD_STATUS}, /* status from the path: /status/404 answers 404 */
    {"ok", HTTPD_OK},
    {"reset", HTTPD_RESET},
    {"silent", HTTPD_SILENT},
    {"slow", HTTPD_SLOW}, /* 200 "hello" after DELAY_MS (default 10) */
    {"malformed", HTTPD_MALFORMED},
    {"garbage", HTTPD_GARBAGE},
    {"headers", HTTPD_HEADERS},
    {"endless", HTTPD_ENDLESS},
};

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
    (void)sig;
    stop = 1;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: httpd status|ok|reset|silent|slow|malformed|garbage|headers|"
                        "endless [DELAY_MS]\n");
        return 2;
    }
    int delay_ms = argc == 3 ? atoi(argv[2]) : 10;
    if (delay_ms < 0 || delay_ms > 60000) {
        fprintf(stderr, "httpd: DELAY_MS expects 0 to 60000, got '%s'\n", argv[2]);
        return 2;
    }
    size_t i = 0;
    while (i < sizeof modes / sizeof modes[0] && strcmp(modes[i].name, argv[1]))
        i++;
    if (i == sizeof modes / sizeof modes[0]) {
        fprintf(stderr, "httpd: unknown mode '%s'\n", argv[1]);
        return 2;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_term;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    httpd *h = httpd_start(modes[i].mode, delay_ms, 0);
    if (!h) {
        fprintf(stderr, "httpd: cannot listen\n");
        return 1;
    }
    printf("%d\n", httpd_port(h));
    fflush(stdout);
    for (int waited_ms = 0; !stop && waited_ms < 120000; waited_ms += 100)
        poll(NULL, 0, 100);
    httpd_stop(h);
    return 0;
}
