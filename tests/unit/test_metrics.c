/* Unit tests: the attack's live metrics (gen/metrics.c): counters, histograms, both text
 * formats, the label and status caps, escaping, and the HTTP listener over a real socket. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include "gen/loop.h"
#include "gen/metrics.h"
#include "model/buf.h"

static pr_sample sample(uint32_t label, uint16_t status, int64_t latency_ns, int64_t late_ns)
{
    pr_sample s;
    memset(&s, 0, sizeof s);
    s.label = label;
    s.status = status;
    s.latency_ns = latency_ns;
    s.lateness_ns = late_ns;
    return s;
}

static char *render(pr_metrics *m, int om)
{
    pr_buf b = PR_BUF_INIT;
    pr_metrics_render(m, om, &b);
    return pr_buf_steal(&b);
}

static void test_metrics__counts_and_histograms(void **state)
{
    pr_metrics *m = pr_metrics_new();
    pr_run *run = pr_run_new();
    uint32_t a = pr_run_intern(run, "GET /a", 6);
    uint32_t q = pr_run_intern(run, "say \"hi\"\\\n", 10);
    pr_sample s[] = {sample(a, 200, 400000, 10), sample(a, 200, 2000000, 20),
                     sample(a, 500, 70000000000, PR_UNKNOWN), sample(q, 0, 1000000, -5)};
    pr_metrics_observe(m, run, s, 4);
    pr_metrics_progress(m, 7, 3);
    char *t = render(m, 0);
    assert_non_null(strstr(t, "# TYPE perfreport_requests_total counter\n"));
    assert_non_null(strstr(t, "perfreport_requests_total{label=\"GET /a\",status=\"200\"} 2\n"));
    assert_non_null(strstr(t, "perfreport_requests_total{label=\"GET /a\",status=\"500\"} 1\n"));
    assert_non_null(strstr(t, "{label=\"say \\\"hi\\\"\\\\\\n\",status=\"0\"} 1\n"));
    assert_non_null(strstr(t, "perfreport_requests_sent_total 7\n"));
    assert_non_null(strstr(t, "perfreport_requests_in_flight 3\n"));
    /* cumulative buckets: 0.4 ms <= 0.5 ms; 1 ms <= 1 ms; 2 ms <= 2.5 ms; 70 s only in +Inf */
    assert_non_null(strstr(t, "perfreport_latency_seconds_bucket{le=\"0.0005\"} 1\n"));
    assert_non_null(strstr(t, "perfreport_latency_seconds_bucket{le=\"0.001\"} 2\n"));
    assert_non_null(strstr(t, "perfreport_latency_seconds_bucket{le=\"0.0025\"} 3\n"));
    assert_non_null(strstr(t, "perfreport_latency_seconds_bucket{le=\"60\"} 3\n"));
    assert_non_null(strstr(t, "perfreport_latency_seconds_bucket{le=\"+Inf\"} 4\n"));
    assert_non_null(strstr(t, "perfreport_latency_seconds_count 4\n"));
    assert_non_null(strstr(t, "perfreport_send_lateness_seconds_count 3\n"));
    assert_null(strstr(t, "# EOF"));
    assert_null(strstr(t, "# UNIT"));
    char *o = render(m, 1);
    assert_non_null(strstr(o, "# TYPE perfreport_requests counter\n"));
    assert_non_null(strstr(o, "# UNIT perfreport_latency_seconds seconds\n"));
    size_t n = strlen(o);
    assert_true(n > 6 && !strcmp(o + n - 6, "# EOF\n"));
    free(t);
    free(o);
    pr_run_free(run);
    pr_metrics_free(m);
}

/* Beyond the caps, labels count as "other" and statuses as status "other"; a second run (a
 * stepped attack's next step) adds to the series of the same label text. */
static void test_metrics__caps_and_runs(void **state)
{
    pr_metrics *m = pr_metrics_new();
    pr_run *run = pr_run_new();
    for (int i = 0; i < PR_METRICS_MAX_LABELS + 10; i++) {
        char l[32];
        int len = snprintf(l, sizeof l, "label-%d", i);
        pr_sample s = sample(pr_run_intern(run, l, (size_t)len), 200, 1000, PR_UNKNOWN);
        pr_metrics_observe(m, run, &s, 1);
    }
    for (int st = 100; st < 100 + PR_METRICS_MAX_STATUS + 5; st++) {
        pr_sample s = sample(1, (uint16_t)st, 1000, PR_UNKNOWN);
        pr_metrics_observe(m, run, &s, 1);
    }
    pr_run *next = pr_run_new();
    pr_sample s2 = sample(pr_run_intern(next, "label-0", 7), 200, 1000, PR_UNKNOWN);
    pr_metrics_observe(m, next, &s2, 1);
    char *t = render(m, 0);
    assert_non_null(strstr(t, "{label=\"other\",status=\"200\"} 10\n"));
    assert_null(strstr(t, "label-256\""));
    assert_non_null(strstr(t, "{label=\"label-0\",status=\"other\"} 6\n"));
    assert_non_null(strstr(t, "{label=\"label-0\",status=\"200\"} 2\n"));
    free(t);
    pr_run_free(run);
    pr_run_free(next);
    pr_metrics_free(m);
}

static char *http_get(int port, const char *head)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_true(write(fd, head, strlen(head)) == (ssize_t)strlen(head));
    pr_buf b = PR_BUF_INIT;
    char buf[4096];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        pr_buf_append(&b, buf, (size_t)n);
    close(fd);
    return pr_buf_steal(&b);
}

static void test_metrics__listener(void **state)
{
    pr_metrics *m = pr_metrics_new();
    pr_error err;
    assert_int_equal(pr_metrics_listen(m, "127.0.0.1:0", &err), 0);
    int port = pr_metrics_port(m);
    assert_true(port > 0);
    char *r = http_get(port, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_non_null(strstr(r, "HTTP/1.1 200 OK\r\n"));
    assert_non_null(strstr(r, "Content-Type: text/plain; version=0.0.4"));
    assert_non_null(strstr(r, "perfreport_requests_sent_total 0\n"));
    free(r);
    r = http_get(port, "GET /metrics HTTP/1.1\r\naccept: application/openmetrics-text; "
                       "version=1.0.0\r\n\r\n");
    assert_non_null(strstr(r, "Content-Type: application/openmetrics-text"));
    assert_non_null(strstr(r, "# EOF\n"));
    free(r);
    r = http_get(port, "GET /other HTTP/1.0\r\n\r\n");
    assert_non_null(strstr(r, "HTTP/1.1 404 Not Found\r\n"));
    free(r);
    pr_metrics_free(m);
    pr_metrics *bad = pr_metrics_new();
    assert_int_equal(pr_metrics_listen(bad, "localhost:9464", &err), PR_EUSAGE);
    assert_int_equal(pr_metrics_listen(bad, "127.0.0.1:99999", &err), PR_EUSAGE);
    assert_int_equal(pr_metrics_listen(bad, "127.0.0.1", &err), PR_EUSAGE);
    pr_metrics_free(bad);
}

static int connect_to(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    return fd;
}

/* 64 clients that each send one header line and then nothing (slowloris) hold every slot:
 * a real scrape still gets its answer at once (the oldest slow one gives way), and a slow
 * client is cut off after its head timeout (issue 34 item 8). */
static void test_metrics__slow_clients(void **state)
{
    (void)state;
    pr_metrics *m = pr_metrics_new();
    pr_error err;
    assert_int_equal(pr_metrics_listen(m, "127.0.0.1:0", &err), 0);
    int port = pr_metrics_port(m);
    int slow[64];
    for (int i = 0; i < 64; i++) {
        slow[i] = connect_to(port);
        assert_true(write(slow[i], "GET /metrics HTTP/1.1\r\n", 23) == 23);
    }
    usleep(100000);
    for (int k = 0; k < 3; k++) {
        char *r = http_get(port, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
        assert_non_null(strstr(r, "HTTP/1.1 200 OK\r\n"));
        free(r);
    }
    /* the last slow client is closed by its head timeout (2 s): read sees EOF */
    struct timeval tv = {5, 0};
    setsockopt(slow[63], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char c;
    assert_true(read(slow[63], &c, 1) == 0);
    for (int i = 0; i < 64; i++)
        close(slow[i]);
    pr_metrics_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_metrics__counts_and_histograms),
        cmocka_unit_test(test_metrics__caps_and_runs),
        cmocka_unit_test(test_metrics__listener),
        cmocka_unit_test(test_metrics__slow_clients),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
