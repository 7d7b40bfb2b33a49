/* Unit tests: the load generator — schedule maths, rates, targets formats, and real attacks
 * against small servers started on 127.0.0.1 / ::1 by the tests themselves. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gen/attack.h"
#include "gen/engine.h"
#include "gen/loop.h"
#include "gen/targets.h"
#include "model/input.h"
#include "model/strtab.h"
#include "tests/unit/lib/collect.h"
#include "tests/unit/lib/testhttpd.h"
#include "model/xalloc.h"

/* ---- event loop ---- */

typedef struct fired {
    int order[64];
    int n;
} fired;

static void on_timer(pr_loop *l, pr_loop_timer *t, void *payload)
{
    fired *f = payload;
    f->order[f->n++] = (int)(t->when_ns % 1000);
}

static void on_io(pr_loop *l, pr_loop_io *io, unsigned ready, void *payload)
{
    char buf[8];
    *(int *)payload += 1;
    assert_true(ready & PR_LOOP_READ);
    assert_true(read(io->fd, buf, sizeof buf) > 0);
}

static void test_gen__loop_timers_and_io(void **st)
{
    pr_loop *l = pr_loop_new();
    assert_non_null(l);
    pr_loop_timer t[50];
    fired f = {{0}, 0};
    /* all due; the timer number is kept in the low digits of its deadline */
    int64_t base = (pr_loop_now_ns() - 1000000000) / 1000 * 1000;
    for (int i = 0; i < 50; i++) {
        t[i] = (pr_loop_timer){0};
        t[i].fn = on_timer;
        t[i].payload = &f;
        /* pseudo-random order of deadlines: (i * 37) % 50 */
        pr_loop_timer_set(l, &t[i], base + (int64_t)((i * 37) % 50) * 1000000 + i);
    }
    for (int i = 0; i < 50; i += 5)
        pr_loop_timer_clear(l, &t[i]);                /* cleared timers never fire */
    pr_loop_timer_set(l, &t[1], base + 49500000 + 1); /* re-armed later: fires last */
    assert_true(pr_loop_next_deadline(l) <= base + 50000000);
    assert_true(pr_loop_run_once(l, 0) >= 40);
    assert_int_equal(f.n, 40);
    for (int k = 0; k < f.n; k++)
        assert_int_not_equal(f.order[k] % 5, 0);
    assert_int_equal(f.order[39], 1);
    for (int k = 1; k < 39; k++) /* deadlines ascending: (id * 37) % 50 increases */
        assert_true((f.order[k - 1] * 37) % 50 < (f.order[k] * 37) % 50);
    assert_true(pr_loop_next_deadline(l) == INT64_MAX);
    /* a future timer bounds the wait */
    pr_loop_timer late = {0};
    late.fn = on_timer;
    late.payload = &f;
    pr_loop_timer_set(l, &late, pr_loop_now_ns() + 20000000);
    int64_t t0 = pr_loop_now_ns();
    while (f.n == 40)
        pr_loop_run_once(l, 1000000000);
    int64_t waited = pr_loop_now_ns() - t0;
    assert_true(waited >= 19000000 && waited < 500000000);
    /* descriptors */
    int p[2];
    assert_int_equal(pipe(p), 0);
    int hits = 0;
    pr_loop_io io = {p[0], 0, on_io, &hits};
    assert_int_equal(pr_loop_watch(l, &io, PR_LOOP_READ), 0);
    assert_int_equal(pr_loop_run_once(l, 0), 0);
    assert_int_equal(write(p[1], "x", 1), 1);
    assert_int_equal(pr_loop_run_once(l, 100000000), 1);
    assert_int_equal(hits, 1);
    pr_loop_unwatch(l, &io);
    assert_int_equal(write(p[1], "y", 1), 1);
    assert_int_equal(pr_loop_run_once(l, 0), 0);
    close(p[0]);
    close(p[1]);
    pr_loop_free(l);
}

/* The nap (pr_loop_set_nap): what is ready is taken at once; with nothing ready the loop
 * sleeps the whole nap even when a descriptor becomes ready meanwhile (it is not woken by
 * it), then takes it; a wait shorter than twice the nap blocks as before. */
typedef struct late_write {
    int fd;
    int64_t after_ns;
} late_write;

static void *write_later(void *arg)
{
    late_write *lw = arg;
    struct timespec d = {0, lw->after_ns};
    nanosleep(&d, NULL);
    assert_int_equal(write(lw->fd, "z", 1), 1);
    return NULL;
}

static void test_gen__loop_nap(void **st)
{
    pr_loop *l = pr_loop_new();
    int p[2];
    assert_int_equal(pipe(p), 0);
    int hits = 0;
    pr_loop_io io = {p[0], 0, on_io, &hits};
    assert_int_equal(pr_loop_watch(l, &io, PR_LOOP_READ), 0);
    const int64_t nap = 50000000; /* 50 ms: far above any timer's lateness */
    pr_loop_set_nap(l, nap);
    assert_true(pr_loop_nap_took(l) == 0);
    /* ready before the wait: no nap */
    assert_int_equal(write(p[1], "x", 1), 1);
    int64_t t0 = pr_loop_now_ns();
    assert_int_equal(pr_loop_run_once(l, 1000000000), 1);
    assert_true(pr_loop_now_ns() - t0 < nap);
    assert_true(pr_loop_nap_took(l) == 0);
    /* ready 5 ms into the nap: seen when the nap ends, not before */
    late_write lw = {p[1], 5000000};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, write_later, &lw), 0);
    t0 = pr_loop_now_ns();
    assert_int_equal(pr_loop_run_once(l, 1000000000), 1);
    int64_t took = pr_loop_now_ns() - t0;
    pthread_join(th, NULL);
    assert_int_equal(hits, 2);
    assert_true(took >= nap && took < 500000000);
    assert_true(pr_loop_nap_took(l) >= nap);
    /* nothing during the nap: it blocks afterwards, and wakes for the descriptor */
    lw.after_ns = 100000000;
    assert_int_equal(pthread_create(&th, NULL, write_later, &lw), 0);
    t0 = pr_loop_now_ns();
    assert_int_equal(pr_loop_run_once(l, 1000000000), 1);
    took = pr_loop_now_ns() - t0;
    pthread_join(th, NULL);
    assert_true(took >= 100000000 && took < 600000000);
    /* a wait shorter than twice the nap (a timer due first) does not nap */
    int64_t before = pr_loop_nap_took(l);
    t0 = pr_loop_now_ns();
    assert_int_equal(pr_loop_run_once(l, 10000000), 0);
    took = pr_loop_now_ns() - t0;
    assert_true(took >= 9000000 && took < nap);
    assert_true(pr_loop_nap_took(l) == before);
    /* nor one between the nap and twice what the naps took: the nap would make it late */
    t0 = pr_loop_now_ns();
    assert_int_equal(pr_loop_run_once(l, nap * 3 / 2), 0);
    took = pr_loop_now_ns() - t0;
    assert_true(took >= nap * 3 / 2 - 1000000);
    assert_true(pr_loop_nap_took(l) == before);
    pr_loop_unwatch(l, &io);
    close(p[0]);
    close(p[1]);
    pr_loop_free(l);
}

/* Receive stamps (pr_recv_stamped): data read 20 ms after it arrived is dated when it
 * arrived, on the monotonic clock. The kernel turns stamping on a moment after the first
 * socket asks (a deferred work item): until then reads come unstamped (rx 0), so the test
 * sends until one is stamped. */
static void test_gen__receive_stamps(void **st)
{
    int lis = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    assert_int_equal(bind(lis, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(lis, 2), 0);
    socklen_t alen = sizeof a;
    assert_int_equal(getsockname(lis, (struct sockaddr *)&a, &alen), 0);
    int c = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    assert_int_equal(setsockopt(c, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one), 0);
    assert_int_equal(connect(c, (struct sockaddr *)&a, sizeof a), 0);
    int s = accept(lis, NULL, NULL);
    assert_true(s >= 0);
    struct timespec d = {0, 20000000};
    char buf[16];
    int64_t rt_off = 0, rx = 0, sent = 0, after = 0, now = 0;
    for (int tries = 0; tries < 50 && !rx; tries++) {
        rt_off = 0;
        sent = pr_loop_now_ns();
        assert_int_equal(write(s, "hello", 5), 5);
        after = pr_loop_now_ns();
        nanosleep(&d, NULL);
        assert_int_equal(pr_recv_stamped(c, buf, sizeof buf, &rt_off, &rx), 5);
        now = pr_loop_now_ns();
        assert_memory_equal(buf, "hello", 5);
    }
    assert_true(rx != 0);
    assert_true(rt_off != 0);
    /* the real and the monotonic clock are read a moment apart: 1 ms of slack */
    assert_true(rx >= sent - 1000000 && rx <= after + 1000000);
    assert_true(now - rx >= 19000000);
    /* a socket that did not ask: no stamp, while the first one keeps stamping on */
    int c2 = socket(AF_INET, SOCK_STREAM, 0);
    assert_int_equal(connect(c2, (struct sockaddr *)&a, sizeof a), 0);
    int s2 = accept(lis, NULL, NULL);
    assert_int_equal(write(s2, "hi", 2), 2);
    nanosleep(&d, NULL);
    assert_int_equal(pr_recv_stamped(c2, buf, sizeof buf, &rt_off, &rx), 2);
    assert_true(rx == 0);
    close(s2);
    close(c2);
    close(s);
    close(c);
    close(lis);
}

/* ---- schedule ---- */

static void test_gen__sched_single(void **st)
{
    pr_sched s;
    pr_sched_init(&s, 1000, 1000000000, 0, 0, 1, 0, 1);
    assert_int_equal(pr_sched_count(&s), 1000);
    for (int64_t k = 0; k < 1000; k++)
        assert_true(pr_sched_time_ns(&s, k) == k * 1000000);
    /* the request limit wins when smaller */
    pr_sched_init(&s, 1000, 1000000000, 10, 0, 1, 0, 1);
    assert_int_equal(pr_sched_count(&s), 10);
    /* 3 req/s for 1 s: requests at 0, 333.3 ms, 666.6 ms */
    pr_sched_init(&s, 3, 1000000000, 0, 0, 1, 0, 1);
    assert_int_equal(pr_sched_count(&s), 3);
    assert_true(pr_sched_time_ns(&s, 2) == 666666666);
}

static void test_gen__sched_shards_interleave(void **st)
{
    /* 3 shards x 2 workers at 3000/s for 1 s: together exactly the single-generator schedule */
    enum { N = 3, W = 2, TOTAL = 3000 };
    static unsigned char seen[TOTAL];
    memset(seen, 0, sizeof seen);
    pr_sched one;
    pr_sched_init(&one, 3000, 1000000000, 0, 0, 1, 0, 1);
    int64_t sum = 0;
    for (int i = 0; i < N; i++) {
        int64_t shard_count = 0;
        for (int w = 0; w < W; w++) {
            pr_sched s;
            pr_sched_init(&s, 3000, 1000000000, 0, i, N, w, W);
            int64_t n = pr_sched_count(&s);
            for (int64_t k = 0; k < n; k++) {
                int64_t g = pr_sched_global(&s, k);
                assert_true(g >= 0 && g < TOTAL);
                assert_int_equal(g % N, i);
                seen[g]++;
                assert_true(pr_sched_time_ns(&s, k) == pr_sched_time_ns(&one, g));
            }
            shard_count += n;
        }
        assert_int_equal(shard_count, TOTAL / N); /* each shard: a third of the rate */
        sum += shard_count;
    }
    assert_int_equal(sum, TOTAL);
    for (int g = 0; g < TOTAL; g++)
        assert_int_equal(seen[g], 1);
    /* uneven: 10 requests over 3 shards x 2 workers */
    sum = 0;
    for (int i = 0; i < 3; i++)
        for (int w = 0; w < 2; w++) {
            pr_sched s;
            pr_sched_init(&s, 100, 0, 10, i, 3, w, 2);
            sum += pr_sched_count(&s);
        }
    assert_int_equal(sum, 10);
}

static void test_gen__share(void **st)
{
    assert_int_equal(pr_attack_share(10, 0, 3), 4);
    assert_int_equal(pr_attack_share(10, 1, 3), 3);
    assert_int_equal(pr_attack_share(10, 2, 3), 3);
    assert_int_equal(pr_attack_share(2, 2, 3), 0);
}

static void test_gen__rates(void **st)
{
    double lo, hi, step;
    pr_error err;
    assert_int_equal(pr_attack_parse_rate("500/s", &lo, &hi, &step, &err), 0);
    assert_true(lo == 500 && hi == 500 && step == 0);
    assert_int_equal(pr_attack_steps(lo, hi, step), 1);
    assert_int_equal(pr_attack_parse_rate("500", &lo, &hi, &step, &err), 0);
    assert_true(lo == 500);
    assert_int_equal(pr_attack_parse_rate("30/m", &lo, &hi, &step, &err), 0);
    assert_true(fabs(lo - 0.5) < 1e-12);
    assert_int_equal(pr_attack_parse_rate("10/500ms", &lo, &hi, &step, &err), 0);
    assert_true(fabs(lo - 20) < 1e-9);
    assert_int_equal(pr_attack_parse_rate("100:1000:100/s", &lo, &hi, &step, &err), 0);
    assert_true(lo == 100 && hi == 1000 && step == 100);
    assert_int_equal(pr_attack_steps(lo, hi, step), 10);
    assert_true(lo + 9 * step == 1000);
    assert_int_equal(pr_attack_parse_rate("0.1:0.3:0.1/s", &lo, &hi, &step, &err), 0);
    assert_int_equal(pr_attack_steps(lo, hi, step), 3);
    assert_int_equal(pr_attack_parse_rate("100:150:100/s", &lo, &hi, &step, &err), 0);
    assert_int_equal(pr_attack_steps(lo, hi, step), 1);
    static const char *bad[] = {"0/s",  "abc", "100:50:10/s", "1:2/s",    "10/x",
                                "-5/s", "",    "5/0s",        "1:2:3:4/s"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(pr_attack_parse_rate(bad[i], &lo, &hi, &step, &err), PR_EUSAGE);
}

/* ---- targets ---- */

static int read_targets(pr_targets *t, const char *text, const char *format, pr_error *err)
{
    pr_input *in = pr_input_mem("targets.txt", text, strlen(text));
    int rc = pr_targets_read(t, in, format, err);
    pr_input_close(in);
    return rc;
}

static void test_gen__targets_http_format(void **st)
{
    char path[] = "/tmp/pr_test_body_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "{\"a\":1}", 7), 7);
    close(fd);
    char text[1024];
    snprintf(text, sizeof text,
             "# comment\n"
             "GET http://127.0.0.1:8080/a?x=1\n"
             "X-Account-ID: 8675309\n"
             "Accept:  text/html \n"
             "\n"
             "POST http://127.0.0.1:8080/things\n"
             "Content-Type: application/json\n"
             "@%s\n"
             "\r\n"
             "DELETE http://[::1]:9/x\n"
             "HEAD http://h/\n",
             path);
    pr_targets t;
    pr_targets_init(&t);
    pr_error err;
    assert_int_equal(read_targets(&t, text, NULL, &err), 0);
    unlink(path);
    assert_int_equal(t.n, 4);
    assert_string_equal(t.v[0].method, "GET");
    assert_string_equal(t.v[0].url, "http://127.0.0.1:8080/a?x=1");
    assert_int_equal(t.v[0].nheaders, 2);
    assert_string_equal(t.v[0].headers[0], "X-Account-ID: 8675309");
    assert_string_equal(t.v[0].headers[1], "Accept: text/html");
    assert_int_equal(t.v[0].has_body, 0);
    assert_string_equal(t.v[1].method, "POST");
    assert_int_equal(t.v[1].body_len, 7);
    assert_memory_equal(t.v[1].body, "{\"a\":1}", 7);
    assert_string_equal(t.v[2].u.host, "::1");
    assert_string_equal(t.v[3].method, "HEAD");
    const char *h[] = {"Authorization: Bearer x"};
    assert_int_equal(pr_targets_finish(&t, h, 1, "dflt", 4, 1, &err), 0);
    assert_string_equal(t.v[0].request.p,
                        "GET /a?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
                        "Authorization: Bearer x\r\nX-Account-ID: 8675309\r\nAccept: text/html\r\n"
                        "User-Agent: perfreport/0.1.0\r\nContent-Length: 4\r\n\r\ndflt");
    assert_non_null(strstr(t.v[1].request.p, "Content-Length: 7\r\n\r\n{\"a\":1}"));
    pr_targets_dispose(&t);
}

static void test_gen__targets_http_errors(void **st)
{
    pr_targets t;
    pr_error err;
    pr_targets_init(&t);
    assert_int_equal(read_targets(&t, "GET http://h/\nbad header line\n", "http", &err), PR_EPARSE);
    assert_int_equal(err.line, 2);
    assert_string_equal(err.path, "targets.txt");
    assert_non_null(strstr(err.msg, "header"));
    pr_targets_dispose(&t);
    pr_targets_init(&t);
    assert_int_equal(read_targets(&t, "\nX-A: 1\n", "http", &err), PR_EPARSE);
    assert_int_equal(err.line, 2);
    pr_targets_dispose(&t);
    pr_targets_init(&t);
    assert_int_equal(read_targets(&t, "GET ftp://h/\n", "http", &err), PR_EUSAGE);
    assert_int_equal(err.line, 1);
    pr_targets_dispose(&t);
    pr_targets_init(&t);
    assert_true(read_targets(&t, "GET http://h/\n@/nonexistent/file\n", "http", &err) < 0);
    assert_int_equal(err.line, 2);
    assert_non_null(strstr(err.msg, "/nonexistent/file"));
    pr_targets_dispose(&t);
    pr_targets_init(&t);
    assert_int_equal(pr_targets_finish(&t, NULL, 0, NULL, 0, 1, &err), PR_EUSAGE);
    pr_targets_dispose(&t);
}

static void test_gen__targets_json_format(void **st)
{
    const char *text =
        "{\"method\":\"POST\",\"url\":\"http://127.0.0.1:1/p\",\"body\":\"aGVsbG8gd29ybGQ=\","
        "\"header\":{\"X-A\":[\"1\",\"2\"],\"Content-Type\":[\"text/plain\"]}}\n"
        "\n"
        "{\"method\":\"GET\",\"url\":\"https://example.com/\"}\n";
    pr_targets t;
    pr_targets_init(&t);
    pr_error err;
    assert_int_equal(read_targets(&t, text, NULL, &err), 0);
    assert_int_equal(t.n, 2);
    assert_string_equal(t.v[0].method, "POST");
    assert_int_equal(t.v[0].body_len, 11);
    assert_memory_equal(t.v[0].body, "hello world", 11);
    assert_int_equal(t.v[0].nheaders, 3);
    int xa = 0;
    for (size_t i = 0; i < t.v[0].nheaders; i++)
        xa += !strncmp(t.v[0].headers[i], "X-A: ", 5);
    assert_int_equal(xa, 2);
    assert_int_equal(t.v[1].u.tls, 1);
    assert_int_equal(t.v[1].u.port, 443);
    pr_targets_dispose(&t);

    static const struct {
        const char *text;
        long line;
        const char *msg;
    } bad[] = {
        {"{\"method\":\"GET\"}\n", 1, "\"url\""},
        {"{\"method\":\"GET\",\"url\":\"http://h/\"}\n{\"url\":1}\n", 2, "\"method\""},
        {"{\"method\":\"GET\",\"url\":\"http://h/\",\"body\":\"%%%\"}\n", 1, "base64"},
        {"{\"method\":\"GET\",\"url\":\"http://h/\",\"header\":{\"A\":[1]}}\n", 1, "strings"},
        {"{not json\n", 1, "JSON"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pr_targets_init(&t);
        assert_int_equal(read_targets(&t, bad[i].text, "json", &err), PR_EPARSE);
        assert_int_equal(err.line, bad[i].line);
        assert_non_null(strstr(err.msg, bad[i].msg));
        pr_targets_dispose(&t);
    }
}

static void test_gen__base64(void **st)
{
    unsigned char out[16];
    assert_int_equal(pr_base64_decode("", 0, out), 0);
    assert_int_equal(pr_base64_decode("YQ==", 4, out), 1);
    assert_int_equal(out[0], 'a');
    assert_int_equal(pr_base64_decode("YWI", 3, out), 2);
    assert_memory_equal(out, "ab", 2);
    assert_int_equal(pr_base64_decode("Y", 1, out), -1);
    assert_int_equal(pr_base64_decode("Y!==", 4, out), -1);
}

/* ---- real attacks ---- */

typedef struct fixture {
    httpd *srv;
    pr_targets t;
    collect c;
    pr_attack_opts o;
    pr_attack_stats st;
    pr_error err;
} fixture;

static void fx_start(fixture *f, httpd_mode mode, int delay_ms, const char *method,
                     const char *path, int ipv6, int keepalive)
{
    memset(f, 0, sizeof *f);
    f->srv = httpd_start(mode, delay_ms, ipv6);
    assert_non_null(f->srv);
    char url[128];
    snprintf(url, sizeof url, ipv6 ? "http://[::1]:%d%s" : "http://127.0.0.1:%d%s",
             httpd_port(f->srv), path);
    pr_targets_init(&f->t);
    assert_int_equal(pr_targets_add(&f->t, method, url, NULL, 0, NULL, 0, &f->err), 0);
    assert_int_equal(pr_targets_finish(&f->t, NULL, 0, NULL, 0, keepalive, &f->err), 0);
    collect_init(&f->c);
    pr_attack_opts_init(&f->o);
    f->o.targets = &f->t;
    f->o.keepalive = keepalive;
    f->o.timeout_ns = 2000000000;
}

static int fx_run(fixture *f)
{
    pr_attack_describe(&f->o, f->c.run);
    return pr_attack_run(&f->o, &f->c.sink, &f->st, &f->err);
}

static void fx_stop(fixture *f)
{
    httpd_stop(f->srv);
    collect_free(&f->c);
    pr_targets_dispose(&f->t);
}

static const char *str(fixture *f, uint32_t id)
{
    return pr_run_str(f->c.run, id);
}

static void test_gen__closed_keepalive(void **st)
{
    fixture f;
    fx_start(&f, HTTPD_OK, 0, "GET", "/x", 0, 1);
    f.o.model = PR_LOAD_CLOSED;
    f.o.connections = 4;
    f.o.requests = 200;
    f.o.workers = 2;
    assert_int_equal(fx_run(&f), 0);
    assert_int_equal(f.c.n, 200);
    assert_int_equal(f.st.completed, 200);
    assert_int_equal(f.st.successes, 200);
    assert_int_equal(httpd_requests(f.srv), 200);
    assert_int_equal(httpd_connections(f.srv), 4); /* keep-alive: one socket per connection */
    int connects = 0;
    for (size_t i = 0; i < f.c.n; i++) {
        pr_sample *s = &f.c.s[i];
        assert_int_equal(s->status, 200);
        assert_int_equal(s->success, PR_OK_SUCCESS);
        assert_int_equal(s->error, PR_NOSTR);
        assert_true(s->bytes_in == 69);
        assert_true(s->bytes_out == (int64_t)f.t.v[0].request.len);
        assert_true(s->latency_ns > 0 && s->ttfb_ns > 0 && s->ttfb_ns <= s->latency_ns);
        assert_true(s->lateness_ns == PR_UNKNOWN);
        assert_int_equal(s->threads, 4);
        connects += s->connect_ns > 0;
        assert_string_equal(str(&f, s->method), "GET");
        assert_string_equal(str(&f, s->label), f.c.s[0].label ? str(&f, f.c.s[0].label) : "");
        assert_non_null(strstr(str(&f, s->url), "/x"));
        assert_non_null(strstr(str(&f, s->thread), "worker-"));
    }
    assert_int_equal(connects, 4);
    assert_int_equal(f.c.run->load_model, PR_LOAD_CLOSED);
    assert_int_equal(f.c.run->concurrency, 4);
    assert_string_equal(f.c.run->tool, "perfreport");
    assert_true(json_is_false(json_object_get(f.c.run->meta, "interrupted")));
    assert_true(f.c.run->start_ns != PR_UNKNOWN && f.c.run->end_ns > f.c.run->start_ns);
    fx_stop(&f);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static void test_gen__open_schedule(void **st)
{
    fixture f;
    fx_start(&f, HTTPD_OK, 0, "GET", "/", 0, 1);
    f.o.model = PR_LOAD_OPEN;
    f.o.rate_per_s = 2000;
    f.o.requests = 200;
    f.o.workers = 2;
    assert_int_equal(fx_run(&f), 0);
    assert_int_equal(f.c.n, 200);
    int64_t starts[200];
    for (size_t i = 0; i < f.c.n; i++) {
        pr_sample *s = &f.c.s[i];
        starts[i] = s->start_ns;
        assert_int_equal(s->success, PR_OK_SUCCESS);
        assert_true(s->lateness_ns >= 0);
        assert_true(s->latency_ns >= s->lateness_ns); /* service time = latency - lateness */
        assert_int_equal(s->threads, -1);
    }
    qsort(starts, 200, sizeof starts[0], cmp_i64);
    for (int i = 1; i < 200; i++)
        assert_true(starts[i] - starts[i - 1] == 500000); /* intended times, 1/2000 s apart */
    assert_int_equal(f.c.run->load_model, PR_LOAD_OPEN);
    assert_true(f.c.run->offered_rate == 2000);
    fx_stop(&f);
}

static void test_gen__no_keepalive(void **st)
{
    fixture f;
    fx_start(&f, HTTPD_OK, 0, "GET", "/", 0, 0);
    assert_non_null(strstr(f.t.v[0].request.p, "Connection: close\r\n"));
    f.o.connections = 2;
    f.o.requests = 20;
    assert_int_equal(fx_run(&f), 0);
    assert_int_equal(f.st.successes, 20);
    for (size_t i = 0; i < f.c.n; i++)
        assert_true(f.c.s[i].connect_ns > 0);
    fx_stop(&f);
    /* the server closes after each response: connections are opened per request */
    fx_start(&f, HTTPD_CLOSE, 0, "GET", "/", 0, 1);
    f.o.connections = 2;
    f.o.requests = 10;
    assert_int_equal(fx_run(&f), 0);
    assert_int_equal(f.st.successes, 10);
    assert_int_equal(httpd_connections(f.srv), 10);
    for (size_t i = 0; i < f.c.n; i++)
        assert_true(f.c.s[i].bytes_in == 53);
    fx_stop(&f);
}

/* Runs `requests` requests against a misbehaving server; every sample must carry `error`. */
static void expect_errors(httpd_mode mode, int delay_ms, int64_t timeout_ns, int requests,
                          const char *error, int status)
{
    fixture f;
    fx_start(&f, mode, delay_ms, "GET", "/", 0, 1);
    f.o.connections = 2;
    f.o.requests = requests;
    if (timeout_ns)
        f.o.timeout_ns = timeout_ns;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(fx_run(&f), 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_true(t1.tv_sec - t0.tv_sec < 3);
    assert_int_equal(f.c.n, requests);
    assert_int_equal(f.st.errors, requests);
    for (size_t i = 0; i < f.c.n; i++) {
        pr_sample *s = &f.c.s[i];
        if (strcmp(str(&f, s->error), error)) {
            print_error("mode %d: error '%s', expected '%s'\n", mode, str(&f, s->error), error);
            fail();
        }
        assert_int_equal(s->success, PR_FAIL);
        assert_int_equal(s->status, status);
        assert_true(s->latency_ns > 0);
    }
    fx_stop(&f);
}

static void test_gen__errors(void **st)
{
    expect_errors(HTTPD_RESET, 0, 0, 6, "connection reset", 0);
    expect_errors(HTTPD_MALFORMED, 0, 0, 6, "malformed response: invalid status line", 0);
    expect_errors(HTTPD_MIDBODY, 0, 0, 6, "connection closed before response complete", 0);
    expect_errors(HTTPD_SILENT, 0, 200000000, 4, "timeout", 0);
    expect_errors(HTTPD_SLOW, 400, 100000000, 4, "timeout", 0);
}

/* Request timeouts among answered requests: the open model alternates a server that
 * answers and one that never does, so requests leave the worker's timeout list from its
 * head and from its middle while others wait there; each silent one times out no earlier
 * than its timeout after its send, each answered one succeeds. */
static void test_gen__timeouts_between_answers(void **st)
{
    httpd *ok = httpd_start(HTTPD_OK, 0, 0), *silent = httpd_start(HTTPD_SILENT, 0, 0);
    assert_non_null(ok);
    assert_non_null(silent);
    pr_targets t;
    pr_error err;
    pr_targets_init(&t);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", httpd_port(ok));
    assert_int_equal(pr_targets_add(&t, "GET", url, NULL, 0, NULL, 0, &err), 0);
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", httpd_port(silent));
    assert_int_equal(pr_targets_add(&t, "GET", url, NULL, 0, NULL, 0, &err), 0);
    assert_int_equal(pr_targets_finish(&t, NULL, 0, NULL, 0, 1, &err), 0);
    collect c;
    collect_init(&c);
    pr_attack_opts o;
    pr_attack_opts_init(&o);
    o.targets = &t;
    o.model = PR_LOAD_OPEN;
    o.rate_per_s = 200;
    o.requests = 60;
    o.workers = 1;
    o.timeout_ns = 120000000;
    pr_attack_stats as;
    pr_attack_describe(&o, c.run);
    assert_int_equal(pr_attack_run(&o, &c.sink, &as, &err), 0);
    assert_int_equal(c.n, 60);
    int timeouts = 0;
    for (size_t i = 0; i < c.n; i++) {
        const pr_sample *s = &c.s[i];
        if (strcmp(pr_run_str(c.run, s->url), url)) { /* to the server that answers */
            assert_int_equal(s->success, PR_OK_SUCCESS);
            continue;
        }
        timeouts++;
        assert_string_equal(pr_run_str(c.run, s->error), "timeout");
        assert_true(s->latency_ns - s->lateness_ns >= o.timeout_ns); /* from the actual send */
    }
    assert_int_equal(timeouts, 30);
    assert_int_equal(as.cut, 0);
    collect_free(&c);
    pr_targets_dispose(&t);
    httpd_stop(ok);
    httpd_stop(silent);
}

static long max_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static double since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Hostile servers (issue 15): an open-model attack against each; every request sent is
 * recorded with its error class, nothing is dropped, memory stays flat. */
static void test_gen__hostile_servers(void **st)
{
    static const struct {
        httpd_mode mode;
        const char *error;
        int timeout_ms;
    } cases[] = {
        {HTTPD_RESET, "connection reset", 500},
        {HTTPD_GARBAGE, "malformed response: invalid status line", 500},
        {HTTPD_MALFORMED, "malformed response: invalid status line", 500},
        {HTTPD_HEADERS, "malformed response: headers too long", 500},
        {HTTPD_SILENT, "timeout", 500},
        {HTTPD_ENDLESS, "body too large", 5000},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        long rss0 = max_rss_kb();
        fixture f;
        fx_start(&f, cases[i].mode, 0, "GET", "/", 0, 1);
        f.o.model = PR_LOAD_OPEN;
        f.o.rate_per_s = 100;
        f.o.duration_ns = 1000000000;
        f.o.timeout_ns = (int64_t)cases[i].timeout_ms * 1000000;
        f.o.max_body_bytes = 256 << 10;
        struct timespec t0;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        assert_int_equal(fx_run(&f), 0);
        double secs = since(&t0);
        assert_int_equal(f.st.sent, 100);
        assert_int_equal(f.c.n, 100); /* every request sent is a sample */
        assert_int_equal(f.st.errors, 100);
        for (size_t k = 0; k < f.c.n; k++) {
            const char *e = str(&f, f.c.s[k].error);
            if (strcmp(e, cases[i].error)) {
                print_error("mode %d: error '%s', expected '%s'\n", cases[i].mode, e,
                            cases[i].error);
                fail();
            }
            assert_int_equal(f.c.s[k].status, 0);
        }
        if (cases[i].mode == HTTPD_ENDLESS) /* read to the limit, then given up */
            for (size_t k = 0; k < f.c.n; k++)
                assert_true(f.c.s[k].bytes_in > (256 << 10));
        assert_true(secs < 1.0 + cases[i].timeout_ms / 1e3 + 2.0); /* duration + timeout */
        fx_stop(&f);
        long grown = max_rss_kb() - rss0;
        if (grown > 32768) {
            print_error("mode %d: max RSS grew by %ld KiB\n", cases[i].mode, grown);
            fail();
        }
    }
}

/* A server streaming endless bodies as fast as they are read must not hold the schedule
 * back: before the fix one connection's reads starved the others and the send timer (this
 * attack, 2 s at 200/s, sent 51.7/s with a send lateness p90 of 3.78 s and ran 27.9 s; now
 * p90 5 ms at load average 12, 531 ms once at load 6). The bounds are on the bulk of the
 * schedule, not its worst send: on a shared 2-core machine the scripted server's 400
 * streaming threads can hold the worker off the CPU for a second (a worst lateness of 1.14 s
 * was seen). */
static void test_gen__endless_body_keeps_schedule(void **st)
{
    fixture f;
    fx_start(&f, HTTPD_ENDLESS, 0, "GET", "/", 0, 1);
    f.o.model = PR_LOAD_OPEN;
    f.o.rate_per_s = 200;
    f.o.duration_ns = 2000000000;
    f.o.max_body_bytes = 1 << 20;
    f.o.timeout_ns = 20000000000;
    f.o.workers = 1;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(fx_run(&f), 0);
    double secs = since(&t0);
    assert_int_equal(f.c.n, 400);
    int64_t late[400];
    for (size_t k = 0; k < f.c.n; k++) {
        assert_string_equal(str(&f, f.c.s[k].error), "body too large");
        late[k] = f.c.s[k].lateness_ns;
    }
    qsort(late, f.c.n, sizeof late[0], cmp_i64);
    int64_t p90 = late[359], worst = late[399];
    print_message("endless bodies: %.2f s, send lateness p90 %.1f ms, worst %.1f ms, %.1f/s, "
                  "%llu connections\n",
                  secs, (double)p90 / 1e6, (double)worst / 1e6, f.st.send_rate_per_s,
                  (unsigned long long)f.st.connections_opened);
    /* before: 3.78 s; 531 ms was seen at load average 6 (helpers' builds and test runs on
     * the 2 cores), so the bound is 1 s: still a quarter of the starved schedule's */
    assert_true(p90 < 1000000000);
    assert_true(f.st.send_rate_per_s > 100); /* before: 51.7/s */
    assert_true(secs < 10.0); /* before: 27.9 s (the bodies were read until --timeout) */
    fx_stop(&f);
}

/* The run ends at its duration plus the timeout: requests that could not even be sent by
 * then (one connection, a silent server) are counted as unsent, the one in flight times
 * out. Before, the schedule dragged on: 20 requests x 300 ms one after another. */
static void test_gen__ends_at_duration_plus_timeout(void **st)
{
    fixture f;
    fx_start(&f, HTTPD_SILENT, 0, "GET", "/", 0, 1);
    f.o.model = PR_LOAD_OPEN;
    f.o.rate_per_s = 20;
    f.o.duration_ns = 1000000000;
    f.o.timeout_ns = 300000000;
    f.o.max_connections = 1;
    f.o.workers = 1;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(fx_run(&f), 0);
    double secs = since(&t0);
    assert_true(secs < 1.3 + 1.0);
    assert_int_equal(f.st.sent + f.st.unsent, 20);
    assert_true(f.st.unsent >= 10);
    assert_int_equal(f.c.n, f.st.sent);
    for (size_t k = 0; k < f.c.n; k++)
        assert_string_equal(str(&f, f.c.s[k].error), "timeout");
    assert_int_equal(json_integer_value(json_object_get(f.c.run->meta, "unsent_requests")),
                     f.st.unsent);
    fx_stop(&f);
}

/* The library never changes the process's SIGPIPE disposition (that is the CLI's business),
 * and a peer closing under a write is an error sample, not a signal. */
static void test_gen__sigpipe_untouched(void **st)
{
    struct sigaction sa;
    sigaction(SIGPIPE, NULL, &sa);
    assert_true(sa.sa_handler == SIG_DFL);
    expect_errors(HTTPD_RESET, 0, 0, 6, "connection reset", 0);
    sigaction(SIGPIPE, NULL, &sa);
    assert_true(sa.sa_handler == SIG_DFL);
}

/* A sink whose pushes take 400 ms (a slow disk, a store busy with other writers). */
static int slow_push(pr_run *run, const pr_sample *s, size_t n, pr_error *err, void *payload)
{
    collect *c = payload;
    struct timespec pause = {0, 400000000};
    nanosleep(&pause, NULL);
    gather g = {c->s, c->n, c->cap};
    gather_cb(s, n, &g);
    c->s = g.s;
    c->n = g.n;
    c->cap = g.cap;
    return 0;
}

/* The workers' last batch is handed over while the consumer is flushing a slow sink: it must
 * still reach the sink. Before, the consumer saw every worker finished when the flush
 * returned and stopped with that batch queued (a shard of `tests/cli/shards.sh` now and then
 * had 29 of its 30 samples; here 18 or 19 of 20). */
static void test_gen__last_batch_after_slow_flush(void **st)
{
    fixture f;
    fx_start(&f, HTTPD_OK, 0, "GET", "/", 0, 1);
    f.c.sink.push = slow_push;
    f.o.model = PR_LOAD_OPEN;
    f.o.rate_per_s = 20;
    f.o.duration_ns = 1000000000;
    f.o.workers = 1;
    assert_int_equal(fx_run(&f), 0);
    assert_int_equal(f.st.sent, 20);
    assert_int_equal(f.c.n, 20); /* every request sent is a sample */
    fx_stop(&f);
}

static void test_gen__refused(void **st)
{
    /* a port nobody listens on: start a server, note its port, stop it */
    httpd *h = httpd_start(HTTPD_OK, 0, 0);
    assert_non_null(h);
    int port = httpd_port(h);
    httpd_stop(h);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", port);
    pr_targets t;
    pr_error err;
    pr_targets_init(&t);
    assert_int_equal(pr_targets_add(&t, "GET", url, NULL, 0, NULL, 0, &err), 0);
    assert_int_equal(pr_targets_finish(&t, NULL, 0, NULL, 0, 1, &err), 0);
    collect c;
    collect_init(&c);
    pr_attack_opts o;
    pr_attack_opts_init(&o);
    o.targets = &t;
    o.model = PR_LOAD_OPEN;
    o.rate_per_s = 1000;
    o.requests = 50;
    pr_attack_stats s;
    assert_int_equal(pr_attack_run(&o, &c.sink, &s, &err), 0);
    assert_int_equal(c.n, 50);
    for (size_t i = 0; i < c.n; i++) {
        assert_string_equal(pr_run_str(c.run, c.s[i].error), "connection refused");
        assert_int_equal(c.s[i].status, 0);
        assert_true(c.s[i].ttfb_ns == PR_UNKNOWN);
    }
    collect_free(&c);
    pr_targets_dispose(&t);
}

static void test_gen__chunked_and_statuses(void **st)
{
    fixture f;
    fx_start(&f, HTTPD_CHUNKED, 0, "GET", "/", 0, 1);
    f.o.connections = 2;
    f.o.requests = 6;
    assert_int_equal(fx_run(&f), 0);
    assert_int_equal(f.st.successes, 6);
    assert_int_equal(httpd_connections(f.srv), 2); /* chunked bodies keep the connection */
    fx_stop(&f);

    fx_start(&f, HTTPD_STATUS, 0, "GET", "/status/404", 0, 1);
    f.o.requests = 3;
    assert_int_equal(fx_run(&f), 0);
    for (size_t i = 0; i < f.c.n; i++) {
        assert_int_equal(f.c.s[i].status, 404);
        assert_int_equal(f.c.s[i].success, PR_FAIL);
        assert_int_equal(f.c.s[i].error, PR_NOSTR); /* an HTTP answer is not a transport error */
    }
    /* but it is an error as the report counts them (issue 13: "0 errors" beside "4xx 3") */
    assert_int_equal(f.st.successes, 0);
    assert_int_equal(f.st.errors, 3);
    assert_int_equal(f.st.status[4], 3);
    fx_stop(&f);

    fx_start(&f, HTTPD_STATUS, 0, "GET", "/status/302", 0, 1);
    f.o.requests = 3;
    assert_int_equal(fx_run(&f), 0);
    assert_int_equal(f.st.successes, 3); /* 3xx: success, and not followed */
    assert_int_equal(httpd_requests(f.srv), 3);
    fx_stop(&f);
}

static void test_gen__ipv6(void **st)
{
    httpd *probe = httpd_start(HTTPD_OK, 0, 1);
    if (!probe) {
        print_message("skipped: no IPv6 loopback\n");
        skip();
    }
    httpd_stop(probe);
    fixture f;
    fx_start(&f, HTTPD_OK, 0, "POST", "/v6", 1, 1);
    f.o.requests = 10;
    assert_int_equal(fx_run(&f), 0);
    assert_int_equal(f.st.successes, 10);
    assert_non_null(strstr(str(&f, f.c.s[0].url), "[::1]"));
    fx_stop(&f);
}

static int cmp_start(const void *x, const void *y)
{
    const pr_sample *a = x, *b = y;
    return (a->start_ns > b->start_ns) - (a->start_ns < b->start_ns);
}

static void *stopper(void *arg)
{
    usleep(200000);
    atomic_store((atomic_int *)arg, 1);
    return NULL;
}

static void test_gen__stop_marks_interrupted(void **st)
{
    fixture f;
    fx_start(&f, HTTPD_SILENT, 0, "GET", "/", 0, 1);
    atomic_int stop = 0;
    f.o.model = PR_LOAD_OPEN;
    f.o.rate_per_s = 100;
    f.o.duration_ns = 60000000000; /* would take a minute */
    f.o.timeout_ns = 0;
    f.o.stop = &stop;
    pthread_t th;
    pthread_create(&th, NULL, stopper, &stop);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(fx_run(&f), 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    pthread_join(th, NULL);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    assert_true(secs < 3.0); /* stop + 1 s grace for in-flight requests */
    assert_true(f.st.interrupted);
    /* the silent server never answered: every request sent is recorded as interrupted, at its
     * intended send time, with no latency (issue 15: they were dropped) */
    assert_true(f.st.cut >= 10 && f.st.cut <= 60); /* 100/s for ~0.2 s */
    assert_true(f.st.sent == f.st.cut);
    assert_int_equal(f.c.n, f.st.sent);
    qsort(f.c.s, f.c.n, sizeof *f.c.s, cmp_start);
    for (size_t i = 0; i < f.c.n; i++) {
        pr_sample *s = &f.c.s[i];
        assert_string_equal(str(&f, s->error), "interrupted");
        assert_int_equal(s->success, PR_FAIL);
        assert_int_equal(s->status, 0);
        assert_true(s->latency_ns == PR_UNKNOWN);
        assert_true(s->lateness_ns >= 0);
        assert_true(s->bytes_out > 0);
        if (i) /* intended times, on the 10 ms grid (a late worker may miss its last) */
            assert_true((s->start_ns - f.c.s[i - 1].start_ns) % 10000000 == 0 &&
                        s->start_ns > f.c.s[i - 1].start_ns);
    }
    assert_true(json_is_true(json_object_get(f.c.run->meta, "interrupted")));
    assert_int_equal(json_integer_value(json_object_get(f.c.run->meta, "cut_requests")), f.c.n);
    fx_stop(&f);
}

static void test_gen__no_coordinated_omission(void **st)
{
    /* 100/s offered, server needs 50 ms, one connection: requests queue behind each other.
     * Latency counts from the intended time, so it grows; lateness says why. */
    fixture f;
    fx_start(&f, HTTPD_SLOW, 50, "GET", "/", 0, 1);
    f.o.model = PR_LOAD_OPEN;
    f.o.rate_per_s = 100;
    f.o.requests = 10;
    f.o.max_connections = 1;
    f.o.workers = 1;
    assert_int_equal(fx_run(&f), 0);
    assert_int_equal(f.c.n, 10);
    int64_t last_latency = 0, last_lateness = 0;
    for (size_t i = 0; i < f.c.n; i++) {
        pr_sample *s = &f.c.s[i];
        assert_int_equal(s->success, PR_OK_SUCCESS);
        int64_t service = s->latency_ns - s->lateness_ns;
        assert_true(service >= 45000000 && service < 500000000);
        if (s->latency_ns > last_latency) {
            last_latency = s->latency_ns;
            last_lateness = s->lateness_ns;
        }
    }
    /* request 9 is intended at 90 ms, sent after 9 x 50 ms = 450 ms, done at ~500 ms */
    assert_true(last_latency >= 380000000);
    assert_true(last_lateness >= 320000000);
    assert_int_equal(httpd_connections(f.srv), 1);
    fx_stop(&f);
}

/* ---- nginx (optional: skipped when nginx or openssl is not installed) ---- */

typedef struct nginx {
    char dir[64];
    int port;
    pid_t pid;
} nginx;

static int free_port(void)
{
    httpd *h = httpd_start(HTTPD_OK, 0, 0);
    if (!h)
        return -1;
    int p = httpd_port(h);
    httpd_stop(h);
    return p;
}

static int nginx_start(nginx *n, int tls)
{
    if (system("command -v nginx >/dev/null 2>&1") != 0 ||
        (tls && system("command -v openssl >/dev/null 2>&1") != 0))
        return -1;
    snprintf(n->dir, sizeof n->dir, "/tmp/pr_nginx_XXXXXX");
    if (!mkdtemp(n->dir))
        return -1;
    n->port = free_port();
    char path[256], cmd[512];
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s/www && printf 'hello from nginx\\n' > %s/www/index.html"
             " && chmod -R a+rX %s",
             n->dir, n->dir, n->dir);
    if (system(cmd) != 0)
        return -1;
    if (tls) {
        snprintf(cmd, sizeof cmd,
                 "openssl req -x509 -newkey rsa:2048 -nodes -keyout %s/key.pem -out %s/cert.pem "
                 "-days 1 -subj /CN=localhost >/dev/null 2>&1",
                 n->dir, n->dir);
        if (system(cmd) != 0)
            return -1;
    }
    snprintf(path, sizeof path, "%s/nginx.conf", n->dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f,
            "worker_processes 1; daemon off; pid %s/nginx.pid; error_log %s/error.log warn;\n"
            "events { worker_connections 1024; }\n"
            "http { access_log off; client_body_temp_path %s; proxy_temp_path %s;\n"
            " fastcgi_temp_path %s; uwsgi_temp_path %s; scgi_temp_path %s;\n"
            " server { listen 127.0.0.1:%d%s; root %s/www;\n",
            n->dir, n->dir, n->dir, n->dir, n->dir, n->dir, n->dir, n->port, tls ? " ssl" : "",
            n->dir);
    if (tls)
        fprintf(f, " ssl_certificate %s/cert.pem; ssl_certificate_key %s/key.pem;\n", n->dir,
                n->dir);
    fprintf(f, " } }\n");
    fclose(f);
    n->pid = fork();
    if (n->pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        dup2(fd, 1);
        dup2(fd, 2);
        execlp("nginx", "nginx", "-c", path, "-p", n->dir, (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 100; i++) { /* up to 2 s for nginx to listen */
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)n->port)};
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        int ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
        close(fd);
        if (ok)
            return 0;
        usleep(20000);
    }
    kill(n->pid, SIGTERM);
    waitpid(n->pid, NULL, 0);
    return -1;
}

static void nginx_stop(nginx *n)
{
    kill(n->pid, SIGQUIT);
    waitpid(n->pid, NULL, 0);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", n->dir);
    if (system(cmd) != 0)
        print_message("could not remove %s\n", n->dir);
}

/* requests to "/" (and, with half_missing, every other one to "/missing": nginx's 404) */
static void nginx_attack(nginx *n, const char *scheme, const char *method, int insecure,
                         int requests, int half_missing, collect *c, pr_attack_stats *st)
{
    char url[128];
    pr_error err;
    snprintf(url, sizeof url, "%s://127.0.0.1:%d/", scheme, n->port);
    pr_targets t;
    pr_targets_init(&t);
    assert_int_equal(pr_targets_add(&t, method, url, NULL, 0, NULL, 0, &err), 0);
    if (half_missing) {
        snprintf(url, sizeof url, "%s://127.0.0.1:%d/missing", scheme, n->port);
        assert_int_equal(pr_targets_add(&t, method, url, NULL, 0, NULL, 0, &err), 0);
    }
    assert_int_equal(pr_targets_finish(&t, NULL, 0, NULL, 0, 1, &err), 0);
    pr_attack_opts o;
    pr_attack_opts_init(&o);
    o.targets = &t;
    o.connections = 10;
    o.requests = requests;
    o.insecure = insecure;
    o.timeout_ns = 2000000000;
    collect_init(c);
    assert_int_equal(pr_attack_run(&o, &c->sink, st, &err), 0);
    assert_int_equal(c->n, requests);
    pr_targets_dispose(&t);
}

static void test_gen__nginx(void **st)
{
    nginx n;
    if (nginx_start(&n, 0) < 0) {
        print_message("skipped: nginx is not installed or did not start\n");
        skip();
    }
    collect c;
    pr_attack_stats s;
    nginx_attack(&n, "http", "GET", 0, 2000, 0, &c, &s);
    assert_int_equal(s.successes, 2000);
    for (size_t i = 0; i < c.n; i++) {
        assert_int_equal(c.s[i].status, 200);
        assert_true(c.s[i].bytes_in == c.s[0].bytes_in);
    }
    collect_free(&c);
    nginx_attack(&n, "http", "HEAD", 0, 100, 0, &c, &s);
    assert_int_equal(s.successes, 100);
    int connects = 0;
    for (size_t i = 0; i < c.n; i++)
        connects += c.s[i].connect_ns > 0;
    assert_true(connects <= 10); /* HEAD responses have no body: connections are reused */
    collect_free(&c);
    /* a 404 for half the targets: errors as the report counts them (issue 13) */
    nginx_attack(&n, "http", "GET", 0, 400, 1, &c, &s);
    assert_int_equal(s.successes, 200);
    assert_int_equal(s.errors, 200);
    assert_int_equal(s.status[4], 200);
    for (size_t i = 0; i < c.n; i++)
        assert_int_equal(pr_sample_outcome(&c.s[i]), c.s[i].status == 200);
    collect_free(&c);
    nginx_stop(&n);
}

static void test_gen__nginx_tls(void **st)
{
    nginx n;
    if (nginx_start(&n, 1) < 0) {
        print_message("skipped: nginx or openssl is not installed or did not start\n");
        skip();
    }
    collect c;
    pr_attack_stats s;
    nginx_attack(&n, "https", "GET", 1, 200, 0, &c, &s);
    assert_int_equal(s.successes, 200);
    int connects = 0;
    for (size_t i = 0; i < c.n; i++)
        connects += c.s[i].connect_ns > 0;
    assert_true(connects >= 1 && connects <= 10);
    collect_free(&c);
    /* without --insecure the self-signed certificate is refused */
    nginx_attack(&n, "https", "GET", 0, 5, 0, &c, &s);
    assert_int_equal(s.errors, 5);
    const char *e = pr_run_str(c.run, c.s[0].error);
    assert_true(!strncmp(e, "tls: ", 5));
    assert_non_null(strstr(e, "self"));
    collect_free(&c);
    nginx_stop(&n);
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gen__loop_timers_and_io),
        cmocka_unit_test(test_gen__loop_nap),
        cmocka_unit_test(test_gen__receive_stamps),
        cmocka_unit_test(test_gen__sched_single),
        cmocka_unit_test(test_gen__sched_shards_interleave),
        cmocka_unit_test(test_gen__share),
        cmocka_unit_test(test_gen__rates),
        cmocka_unit_test(test_gen__targets_http_format),
        cmocka_unit_test(test_gen__targets_http_errors),
        cmocka_unit_test(test_gen__targets_json_format),
        cmocka_unit_test(test_gen__base64),
        cmocka_unit_test(test_gen__closed_keepalive),
        cmocka_unit_test(test_gen__open_schedule),
        cmocka_unit_test(test_gen__no_keepalive),
        cmocka_unit_test(test_gen__errors),
        cmocka_unit_test(test_gen__sigpipe_untouched),
        cmocka_unit_test(test_gen__hostile_servers),
        cmocka_unit_test(test_gen__endless_body_keeps_schedule),
        cmocka_unit_test(test_gen__ends_at_duration_plus_timeout),
        cmocka_unit_test(test_gen__timeouts_between_answers),
        cmocka_unit_test(test_gen__last_batch_after_slow_flush),
        cmocka_unit_test(test_gen__refused),
        cmocka_unit_test(test_gen__chunked_and_statuses),
        cmocka_unit_test(test_gen__ipv6),
        cmocka_unit_test(test_gen__stop_marks_interrupted),
        cmocka_unit_test(test_gen__no_coordinated_omission),
        cmocka_unit_test(test_gen__nginx),
        cmocka_unit_test(test_gen__nginx_tls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
