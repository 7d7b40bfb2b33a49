/* Tests of the findings rules: synthetic report models with one behaviour injected (the rule
 * must fire) or left out (it must stay silent), and real fixtures through the store. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/findings.h"
#include "analysis/report.h"
#include "lib/collect.h"
#include "lib/ingest.h"
#include "lib/numcheck.h"
#include "model/input.h"
#include "parsers/parser.h"
#include "model/buf.h"
#include "render/mustache.h"
#include "model/xalloc.h"

#define MS 1000000LL
#define NPTS 60

/* A healthy open-model run: 100 req/s for 60 s, p50 10 ms, p99 20 ms, no errors. */
static json_t *base_run(void)
{
    json_t *r = json_pack("{s:i, s:s, s:s, s:b, s:s, s:n, s:n}", "id", 1, "name", "synthetic",
                          "tool", "test", "summary_only", 0, "load_model", "open",
                          "offered_rate_per_s", "concurrency");
    json_t *lat = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "min", 2 * MS, "mean", 11 * MS,
                            "p50", 10 * MS, "p90", 15 * MS, "p99", 20 * MS, "max", 30 * MS,
                            "stdev", 3 * MS);
    json_t *stats = json_pack("{s:i, s:i, s:i, s:f, s:f, s:f, s:I, s:o}", "requests", 6000,
                              "successes", 6000, "errors", 0, "error_ratio", 0.0, "rate_per_s",
                              100.0, "throughput_per_s", 100.0, "duration_ns", 60000 * MS,
                              "latency_ns", lat);
    json_object_set_new(r, "stats", stats);
    json_object_set_new(r, "labels", json_array());
    json_object_set_new(r, "status_codes", json_pack("[{s:i, s:i}]", "code", 200, "count", 6000));
    json_object_set_new(r, "errors", json_array());
    json_t *pts = json_array();
    for (int i = 0; i < NPTS; i++)
        json_array_append_new(pts, json_pack("{s:I, s:i, s:i, s:i, s:f, s:f, s:I, s:I, s:I, s:I}",
                                             "t_ns", (json_int_t)i * 1000 * MS, "requests", 100,
                                             "successes", 100, "errors", 0, "rate_per_s", 100.0,
                                             "throughput_per_s", 100.0, "p50_ns", 10 * MS,
                                             "p90_ns", 15 * MS, "p99_ns", 20 * MS, "max_ns", 30 * MS));
    json_object_set_new(r, "timeseries", json_pack("{s:I, s:o}", "interval_ns", 1000 * MS, "points", pts));
    /* unimodal histogram: 1-2-5 buckets from 1 ms */
    json_object_set_new(r, "histogram",
                        json_pack("[{s:I,s:I,s:i},{s:I,s:I,s:i},{s:I,s:I,s:i},{s:I,s:I,s:i},{s:I,s:I,s:i}]",
                                  "from_ns", 1 * MS, "to_ns", 2 * MS, "count", 10,
                                  "from_ns", 2 * MS, "to_ns", 5 * MS, "count", 300,
                                  "from_ns", 5 * MS, "to_ns", 10 * MS, "count", 2700,
                                  "from_ns", 10 * MS, "to_ns", 20 * MS, "count", 2930,
                                  "from_ns", 20 * MS, "to_ns", 50 * MS, "count", 60));
    json_t *spec = json_array();
    static const double pct[] = {50, 90, 99, 99.9, 100};
    static const long long v[] = {10 * MS, 15 * MS, 20 * MS, 25 * MS, 30 * MS};
    for (int i = 0; i < 5; i++)
        json_array_append_new(spec, json_pack("{s:f, s:I}", "percentile", pct[i], "latency_ns", v[i]));
    json_object_set_new(r, "spectrum", spec);
    return r;
}

static json_t *stats(json_t *r)
{
    return json_object_get(r, "stats");
}

static json_t *lat(json_t *r)
{
    return json_object_get(stats(r), "latency_ns");
}

static json_t *point(json_t *r, int i)
{
    return json_array_get(json_object_get(json_object_get(r, "timeseries"), "points"), (size_t)i);
}

static void setf(json_t *o, const char *k, double v)
{
    json_object_set_new(o, k, json_real(v));
}

static void seti(json_t *o, const char *k, long long v)
{
    json_object_set_new(o, k, json_integer(v));
}

/* The finding with this id, or NULL. */
static json_t *find(json_t *fs, const char *id)
{
    size_t i;
    json_t *f;
    json_array_foreach(fs, i, f)
        if (!strcmp(json_string_value(json_object_get(f, "id")), id))
            return f;
    return NULL;
}

static double ev(json_t *f, const char *k)
{
    return json_number_value(json_object_get(json_object_get(f, "evidence"), k));
}

static json_t *run_rules(json_t *r)
{
    json_t *fs = pr_findings_run(r, NULL);
    /* every finding has the documented shape */
    size_t i;
    json_t *f;
    json_array_foreach(fs, i, f) {
        assert_non_null(json_string_value(json_object_get(f, "id")));
        assert_non_null(json_string_value(json_object_get(f, "severity")));
        assert_true(strlen(json_string_value(json_object_get(f, "title"))) > 5);
        assert_true(strlen(json_string_value(json_object_get(f, "explanation"))) > 20);
        assert_true(strlen(json_string_value(json_object_get(f, "recommendation"))) > 20);
        assert_true(json_is_object(json_object_get(f, "evidence")));
        char why[2000];
        if (!test_numbers_in_evidence(f, why, sizeof why))
            fail_msg("%s", why);
    }
    return fs;
}

static void test_findings__healthy_run_is_quiet(void **state)
{
    (void)state;
    json_t *r = base_run();
    json_t *fs = run_rules(r);
    assert_int_equal(json_array_size(fs), 0);
    json_decref(fs);
    json_decref(r);
}

static void test_findings__table_ids_unique(void **state)
{
    (void)state;
    assert_true(pr_finding_nrules >= 16);
    for (size_t i = 0; i < pr_finding_nrules; i++)
        for (size_t j = i + 1; j < pr_finding_nrules; j++)
            assert_string_not_equal(pr_finding_rules[i].id, pr_finding_rules[j].id);
}

/* A queue building up: the intervals' p90 climbs from 15 ms to about 3 s over the run. */
static void queue_up(json_t *r)
{
    for (int i = 0; i < NPTS; i++)
        seti(point(r, i), "p90_ns", (15 + 50LL * i) * MS);
}

static void test_findings__saturation_offered_rate(void **state)
{
    (void)state;
    json_t *r = base_run();
    setf(r, "offered_rate_per_s", 500);
    setf(stats(r), "rate_per_s", 500);
    setf(stats(r), "throughput_per_s", 117);
    seti(lat(r), "mean", 2000 * MS);
    /* short of the offered rate but latency flat and no "over capacity" answers: the shortfall
     * is not shown to be the server's (a long wait for a few slow answers, errors) */
    json_t *fs = run_rules(r);
    assert_null(find(fs, "saturation"));
    json_decref(fs);
    queue_up(r);
    fs = run_rules(r);
    json_t *f = find(fs, "saturation");
    assert_non_null(f);
    assert_string_equal(json_string_value(json_object_get(f, "severity")), "critical");
    assert_true(fabs(ev(f, "served_ratio") - 117.0 / 500) < 1e-9);
    assert_true(fabs(ev(f, "in_flight_estimate") - 234) < 1e-6); /* 117/s × 2 s */
    assert_true(ev(f, "p90_last_third_ns") >= 2 * ev(f, "p90_first_third_ns"));
    assert_null(find(fs, "generator_bottleneck"));
    assert_non_null(strstr(json_string_value(json_object_get(f, "explanation")), "23%"));
    json_decref(fs);
    /* a third of the requests answered 404 at once: client errors are served work, not lost
     * capacity (117 successes + 58.5 404s per second is still short: fires; at 2/3 of 500 with
     * a third 404s, everything was served: silent) */
    json_object_set_new(r, "status_codes", json_pack("[{s:i,s:i},{s:i,s:i}]", "code", 200, "count",
                                                     4000, "code", 404, "count", 2000));
    seti(stats(r), "successes", 4000);
    seti(stats(r), "errors", 2000);
    setf(stats(r), "error_ratio", 2000.0 / 6000);
    setf(stats(r), "throughput_per_s", 500 * 2.0 / 3);
    fs = run_rules(r);
    assert_null(find(fs, "saturation"));
    json_decref(fs);
    json_object_set_new(r, "status_codes", json_pack("[{s:i,s:i}]", "code", 200, "count", 6000));
    seti(stats(r), "successes", 6000);
    seti(stats(r), "errors", 0);
    setf(stats(r), "error_ratio", 0);
    setf(stats(r), "throughput_per_s", 117);
    /* a window cut out of the run: the wait for its last responses belongs to the cut, so the
     * successes per second of sending time decide (500/s sent, no errors: not saturated) */
    setf(stats(r), "error_ratio", 0);
    json_t *w = json_object();
    json_object_set_new(w, "from_ns", json_integer(0));
    json_object_set_new(r, "window", w);
    fs = run_rules(r);
    assert_null(find(fs, "saturation"));
    json_decref(fs);
    /* …but a window whose requests mostly fail is still short of the offered rate */
    setf(stats(r), "error_ratio", 0.5);
    fs = run_rules(r);
    assert_non_null(find(fs, "saturation"));
    json_decref(fs);
    json_object_del(r, "window");
    setf(stats(r), "error_ratio", 0);
    /* reached: silent */
    setf(stats(r), "throughput_per_s", 480);
    fs = run_rules(r);
    assert_null(find(fs, "saturation"));
    json_decref(fs);
    json_decref(r);
}

/* The two other signs that the server was the limit: answers saying so (503/429), and, with
 * only the printed numbers, a mean latency that is a large share of the sending time. */
static void test_findings__saturation_signals(void **state)
{
    (void)state;
    json_t *r = base_run();
    setf(r, "offered_rate_per_s", 400);
    setf(stats(r), "rate_per_s", 400);
    setf(stats(r), "throughput_per_s", 196);
    json_object_set_new(r, "status_codes", json_pack("[{s:i,s:i},{s:i,s:i}]", "code", 200, "count",
                                                     2940, "code", 503, "count", 3060));
    json_t *fs = run_rules(r);
    json_t *f = find(fs, "saturation");
    assert_non_null(f);
    assert_int_equal((int)ev(f, "over_capacity_responses"), 3060);
    json_decref(fs);
    /* a fast 500 is a failure, not the server saying it is full: silent */
    json_object_set_new(r, "status_codes", json_pack("[{s:i,s:i},{s:i,s:i}]", "code", 200, "count",
                                                     2940, "code", 500, "count", 3060));
    fs = run_rules(r);
    assert_null(find(fs, "saturation"));
    json_decref(fs);
    json_decref(r);
    /* a Vegeta text report: 500/s for 10 s, served 114.58/s, mean latency 16.3 s */
    r = json_pack("{s:i,s:s,s:b,s:s,s:f}", "id", 3, "name", "printed", "summary_only", 1,
                  "load_model", "open", "offered_rate_per_s", 500.10);
    json_object_set_new(r, "stats", json_pack("{s:i,s:f,s:f,s:f,s:I,s:{s:I,s:I,s:I},s:{s:i,s:i}}",
                                              "requests", 5000, "success_ratio", 0.9166,
                                              "rate_per_s", 500.10, "throughput_per_s", 114.58,
                                              "duration_ns", 9998 * MS, "latency_ns", "mean",
                                              16251 * MS, "p50", 16361 * MS, "max", 30014 * MS,
                                              "status_codes", "0", 417, "200", 4583));
    fs = run_rules(r);
    f = find(fs, "saturation");
    assert_non_null(f);
    assert_true(ev(f, "latency_mean_share_of_duration") > 1.6);
    json_decref(fs);
    /* the same numbers with a mean latency of 82 ms: the wait for a few slow answers, silent */
    seti(json_object_get(stats(r), "latency_ns"), "mean", 82 * MS);
    fs = run_rules(r);
    assert_null(find(fs, "saturation"));
    json_decref(fs);
    json_decref(r);
}

static void test_findings__generator_bottleneck(void **state)
{
    (void)state;
    json_t *r = base_run();
    setf(r, "offered_rate_per_s", 500);
    seti(r, "concurrency", 50);
    setf(stats(r), "rate_per_s", 300);
    setf(stats(r), "throughput_per_s", 300);
    json_t *fs = run_rules(r);
    json_t *f = find(fs, "generator_bottleneck");
    assert_non_null(f);
    assert_true(fabs(ev(f, "needed_in_flight") - 5.5) < 1e-9); /* 500/s × 11 ms */
    assert_null(find(fs, "saturation"));
    json_decref(fs);
    /* same shortfall with slow responses needing more than the 50 connections, latency
     * climbing: saturation */
    seti(lat(r), "mean", 400 * MS);
    queue_up(r);
    fs = run_rules(r);
    assert_null(find(fs, "generator_bottleneck"));
    assert_non_null(find(fs, "saturation"));
    json_decref(fs);
    json_decref(r);
}

static void test_findings__saturation_threads_flat_throughput(void **state)
{
    (void)state;
    json_t *r = base_run();
    json_object_set_new(r, "load_model", json_string("closed"));
    for (int i = 0; i < NPTS; i++) {
        json_t *p = point(r, i);
        int threads = 10 + i / 2; /* 10 → 39 */
        seti(p, "threads", threads);
        setf(p, "throughput_per_s", i < 10 ? 80 + 2 * i : 100); /* flat after a short climb */
        seti(p, "p50_ns", (long long)threads * MS);             /* latency grows with threads */
    }
    json_t *fs = run_rules(r);
    json_t *f = find(fs, "saturation");
    assert_non_null(f);
    assert_true(ev(f, "threads_last_quarter") >= 1.5 * ev(f, "threads_first_quarter"));
    assert_non_null(json_object_get(f, "t_ns"));
    json_decref(fs);
    /* throughput rising with the threads: silent */
    for (int i = 0; i < NPTS; i++)
        setf(point(r, i), "throughput_per_s", 10.0 * (10 + i / 2));
    fs = run_rules(r);
    assert_null(find(fs, "saturation"));
    json_decref(fs);
    json_decref(r);
}

static void test_findings__client_timeouts(void **state)
{
    (void)state;
    json_t *r = base_run();
    json_object_set_new(r, "errors", json_pack("[{s:s, s:i}]", "message",
                        "Get \"http://x/slow\": context deadline exceeded (Client.Timeout exceeded "
                        "while awaiting headers)", "count", 450));
    json_object_set_new(r, "status_codes", json_pack("[{s:i,s:i},{s:i,s:i}]", "code", 0, "count", 450,
                                                     "code", 200, "count", 5550));
    seti(stats(r), "errors", 450);
    setf(stats(r), "error_ratio", 0.075);
    seti(lat(r), "max", 30000 * MS);
    json_t *spec = json_object_get(r, "spectrum");
    json_array_clear(spec);
    json_array_append_new(spec, json_pack("{s:f,s:I}", "percentile", 50.0, "latency_ns", 10 * MS));
    json_array_append_new(spec, json_pack("{s:f,s:I}", "percentile", 90.0, "latency_ns", 25 * MS));
    json_array_append_new(spec, json_pack("{s:f,s:I}", "percentile", 92.06, "latency_ns", 30000 * MS));
    json_array_append_new(spec, json_pack("{s:f,s:I}", "percentile", 100.0, "latency_ns", 30000 * MS));
    json_t *fs = run_rules(r);
    json_t *f = find(fs, "client_timeouts");
    assert_non_null(f);
    assert_int_equal((int)ev(f, "timeout_errors"), 450);
    assert_true(fabs(ev(f, "near_max_ratio_min") - 0.0794) < 1e-6);
    assert_non_null(strstr(json_string_value(json_object_get(f, "explanation")), "7.50%"));
    json_decref(fs);
    /* no timeout message, no-response errors, but a smooth tail up to the max (no pile): silent */
    json_object_set_new(r, "errors", json_pack("[{s:s, s:i}]", "message", "connection refused", "count", 450));
    json_array_clear(spec);
    static const double sp[][2] = {{50, 10}, {90, 25}, {95, 28000}, {96.84, 28900}, {98.4, 29500},
                                   {99.21, 29700}, {100, 30000}};
    for (int i = 0; i < 7; i++)
        json_array_append_new(spec, json_pack("{s:f,s:I}", "percentile", sp[i][0], "latency_ns",
                                              (json_int_t)(sp[i][1] * MS)));
    fs = run_rules(r);
    assert_null(find(fs, "client_timeouts"));
    json_decref(fs);
    /* a timeout message and 2% of the latencies near the 3.00 s maximum, but the median is
     * 2.52 s: no ceiling far above the median, so the sentence says only what the messages do */
    json_object_set_new(r, "errors", json_pack("[{s:s, s:i}]", "message", "Read timed out", "count", 22));
    seti(lat(r), "p50", 2520 * MS);
    seti(lat(r), "max", 3000 * MS);
    json_array_clear(spec);
    static const double sp2[][2] = {{50, 2520}, {90, 2700}, {98, 2950}, {100, 3000}};
    for (int i = 0; i < 4; i++)
        json_array_append_new(spec, json_pack("{s:f,s:I}", "percentile", sp2[i][0], "latency_ns",
                                              (json_int_t)(sp2[i][1] * MS)));
    fs = run_rules(r);
    f = find(fs, "client_timeouts");
    assert_non_null(f);
    assert_null(strstr(json_string_value(json_object_get(f, "explanation")), "ceiling"));
    assert_non_null(strstr(json_string_value(json_object_get(f, "explanation")),
                           "22 requests (0.37%) failed with a timeout error"));
    json_decref(fs);
    /* one such request: "1 request", not "1 requests" */
    json_object_set_new(r, "errors", json_pack("[{s:s, s:i}]", "message", "Read timed out", "count", 6));
    seti(stats(r), "requests", 6000);
    fs = run_rules(r);
    assert_non_null(strstr(json_string_value(json_object_get(find(fs, "client_timeouts"), "explanation")),
                           "6 requests (0.10%)"));
    json_decref(fs);
    json_object_set_new(r, "errors", json_pack("[{s:s, s:i}]", "message", "Read timed out", "count", 1));
    seti(stats(r), "requests", 1000);
    fs = run_rules(r);
    assert_non_null(strstr(json_string_value(json_object_get(find(fs, "client_timeouts"), "explanation")),
                           "1 request (0.10%) failed"));
    json_decref(fs);
    seti(stats(r), "requests", 6000);
    /* a printed error set without counts (Vegeta's text report): the requests without a
     * status are the count when every transport error is a timeout */
    json_object_set_new(r, "errors", json_pack("[{s:s},{s:s}]", "message", "Get \"http://x/\": "
                        "context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
                        "message", "503 Service Unavailable"));
    fs = run_rules(r);
    f = find(fs, "client_timeouts");
    assert_non_null(f);
    assert_int_equal((int)ev(f, "timeout_errors"), 450);
    json_decref(fs);
    /* slow but answered (200s at the max, no timeout message): silent */
    json_object_set_new(r, "errors", json_array());
    json_object_set_new(r, "status_codes", json_pack("[{s:i,s:i}]", "code", 200, "count", 6000));
    fs = run_rules(r);
    assert_null(find(fs, "client_timeouts"));
    json_decref(fs);
    json_decref(r);
}

static void inject_errors_from(json_t *r, int from, int per_point)
{
    long long total = 0;
    for (int i = from; i < NPTS; i++) {
        json_t *p = point(r, i);
        seti(p, "errors", per_point);
        seti(p, "successes", 100 - per_point);
        setf(p, "throughput_per_s", 100 - per_point);
        seti(p, "p50_ns", 200 * MS);
        total += per_point;
    }
    seti(stats(r), "errors", total);
    setf(stats(r), "error_ratio", (double)total / 6000);
}

static void test_findings__error_onset(void **state)
{
    (void)state;
    json_t *r = base_run();
    inject_errors_from(r, 30, 40);
    json_t *fs = run_rules(r);
    json_t *f = find(fs, "error_onset");
    assert_non_null(f);
    assert_int_equal(json_integer_value(json_object_get(f, "t_ns")), 30000 * MS);
    assert_true(fabs(ev(f, "p50_before_ns") - 10 * MS) < 1);
    assert_true(fabs(ev(f, "p50_after_ns") - 200 * MS) < 1);
    assert_true(fabs(ev(f, "throughput_before_per_s") - 100) < 1e-9);
    assert_true(fabs(ev(f, "throughput_after_per_s") - 60) < 1e-9);
    assert_true(ev(f, "error_ratio_before") == 0);
    assert_string_equal(json_string_value(json_object_get(f, "title")), "Errors start partway through the run");
    json_decref(fs);
    json_decref(r);
    /* errors everywhere: reported as present from the start, at t = 0 */
    r = base_run();
    inject_errors_from(r, 0, 10);
    fs = run_rules(r);
    f = find(fs, "error_onset");
    assert_non_null(f);
    assert_int_equal(json_integer_value(json_object_get(f, "t_ns")), 0);
    assert_string_equal(json_string_value(json_object_get(f, "title")), "Errors throughout the run, from the start");
    json_decref(fs);
    json_decref(r);
}

static void test_findings__error_classes(void **state)
{
    (void)state;
    json_t *r = base_run();
    json_object_set_new(r, "status_codes",
                        json_pack("[{s:i,s:i},{s:i,s:i},{s:i,s:i},{s:i,s:i},{s:i,s:i}]", "code", 0,
                                  "count", 40, "code", 200, "count", 5000, "code", 404, "count", 300,
                                  "code", 429, "count", 60, "code", 503, "count", 600));
    json_object_set_new(r, "errors", json_pack("[{s:s,s:i},{s:s,s:i}]", "message",
                        "dial tcp 10.0.0.1:80: connect: connection refused", "count", 30, "message",
                        "read tcp: connection reset by peer", "count", 10));
    json_object_set_new(r, "labels", json_pack("[{s:s,s:i,s:f},{s:s,s:i,s:f}]", "label", "GET /",
                                               "requests", 5700, "error_ratio", 0.1, "label",
                                               "GET /missing", "requests", 300, "error_ratio", 1.0));
    json_t *fs = run_rules(r);
    assert_int_equal((int)ev(find(fs, "errors_refused"), "count"), 30);
    assert_int_equal((int)ev(find(fs, "errors_reset"), "count"), 10);
    assert_int_equal((int)ev(find(fs, "errors_5xx"), "count"), 600);
    assert_int_equal((int)ev(find(fs, "errors_429"), "count"), 60);
    json_t *f4 = find(fs, "errors_4xx");
    assert_int_equal((int)ev(f4, "count"), 300); /* 429 is not counted as a script error */
    assert_string_equal(json_string_value(json_object_get(f4, "label")), "GET /missing");
    /* most severe first */
    assert_string_equal(json_string_value(json_object_get(json_array_get(fs, 0), "severity")), "critical");
    json_decref(fs);
    json_decref(r);
}

static void test_findings__tail_amplification(void **state)
{
    (void)state;
    json_t *r = base_run();
    seti(lat(r), "p99", 500 * MS);
    json_t *fs = run_rules(r);
    json_t *f = find(fs, "tail_amplification");
    assert_non_null(f);
    assert_true(fabs(ev(f, "p99_over_p50") - 50) < 1e-9);
    json_decref(fs);
    /* 9× is not enough */
    seti(lat(r), "p99", 90 * MS);
    fs = run_rules(r);
    assert_null(find(fs, "tail_amplification"));
    json_decref(fs);
    json_decref(r);
}

static void test_findings__bimodal(void **state)
{
    (void)state;
    json_t *r = base_run();
    json_t *h = json_object_get(r, "histogram");
    /* add a second population around 200-500 ms with an empty valley */
    json_array_append_new(h, json_pack("{s:I,s:I,s:i}", "from_ns", 50 * MS, "to_ns", 100 * MS, "count", 5));
    json_array_append_new(h, json_pack("{s:I,s:I,s:i}", "from_ns", 100 * MS, "to_ns", 200 * MS, "count", 0));
    json_array_append_new(h, json_pack("{s:I,s:I,s:i}", "from_ns", 200 * MS, "to_ns", 500 * MS, "count", 1500));
    json_array_append_new(h, json_pack("{s:I,s:I,s:i}", "from_ns", 500 * MS, "to_ns", 1000 * MS, "count", 100));
    json_t *fs = run_rules(r);
    json_t *f = find(fs, "bimodal_latency");
    assert_non_null(f);
    assert_int_equal((long long)ev(f, "slow_mode_from_ns"), 200 * MS);
    assert_int_equal((long long)ev(f, "fast_mode_from_ns"), 10 * MS);
    assert_int_equal((long long)ev(f, "valley_from_ns"), 100 * MS);
    json_decref(fs);
    /* a thin tail (under 5% of the requests) is not a population */
    json_object_set_new(json_array_get(h, 7), "count", json_integer(100));
    fs = run_rules(r);
    assert_null(find(fs, "bimodal_latency"));
    json_decref(fs);
    json_decref(r);
}

static void test_findings__warmup(void **state)
{
    (void)state;
    json_t *r = base_run();
    for (int i = 0; i < 6; i++) /* the first 10% of the requests */
        seti(point(r, i), "p50_ns", 50 * MS);
    json_t *fs = run_rules(r);
    json_t *f = find(fs, "warmup");
    assert_non_null(f);
    assert_int_equal(json_integer_value(json_object_get(f, "t_ns")), 6000 * MS);
    assert_string_equal(json_string_value(json_object_get(json_object_get(f, "evidence"), "skip_warmup")), "6s");
    assert_non_null(strstr(json_string_value(json_object_get(f, "recommendation")), "--skip-warmup 6s"));
    assert_null(find(fs, "degradation"));
    json_decref(fs);
    /* only the first second slow (under 10% of the requests' median): silent */
    for (int i = 1; i < 6; i++)
        seti(point(r, i), "p50_ns", 10 * MS);
    fs = run_rules(r);
    assert_null(find(fs, "warmup"));
    json_decref(fs);
    json_decref(r);
}

static void test_findings__degradation(void **state)
{
    (void)state;
    json_t *r = base_run();
    for (int i = 0; i < NPTS; i++)
        seti(point(r, i), "p50_ns", (10 + i / 2) * MS); /* 10 → 39 ms */
    json_t *fs = run_rules(r);
    json_t *f = find(fs, "degradation");
    assert_non_null(f);
    assert_true(json_is_true(json_object_get(json_object_get(f, "evidence"), "latency_rising")));
    assert_null(find(fs, "warmup"));
    json_decref(fs);
    json_decref(r);
    /* throughput falling in a closed-model run whose threads stay constant */
    r = base_run();
    for (int i = 0; i < NPTS; i++) {
        setf(point(r, i), "throughput_per_s", 100 - i);
        seti(point(r, i), "threads", 20);
    }
    fs = run_rules(r);
    f = find(fs, "degradation");
    assert_non_null(f);
    assert_true(json_is_true(json_object_get(json_object_get(f, "evidence"), "throughput_falling")));
    json_decref(fs);
    /* the same fall because threads finish (ramp-down): silent */
    for (int i = 0; i < NPTS; i++)
        seti(point(r, i), "threads", 20 - i / 4);
    fs = run_rules(r);
    assert_null(find(fs, "degradation"));
    json_decref(fs);
    /* latency rising while the threads rise 18 → 25: more load, not a degradation under a
     * constant one (the saturation rule judges ramps): silent */
    for (int i = 0; i < NPTS; i++) {
        setf(point(r, i), "throughput_per_s", 100);
        seti(point(r, i), "threads", 18 + i * 8 / NPTS);
        seti(point(r, i), "p50_ns", (10 + i / 2) * MS);
    }
    fs = run_rules(r);
    assert_null(find(fs, "degradation"));
    json_decref(fs);
    /* with the threads held at 25 it is one, and the sentence gives the thread counts */
    for (int i = 0; i < NPTS; i++)
        seti(point(r, i), "threads", 25);
    fs = run_rules(r);
    f = find(fs, "degradation");
    assert_non_null(f);
    assert_non_null(strstr(json_string_value(json_object_get(f, "explanation")),
                           "while the active threads went only 25 → 25"));
    json_decref(fs);
    json_decref(r);
    /* a closed-model run without thread counts whose throughput falls at constant latency:
     * by Little's law fewer requests were in flight (clients finishing): silent */
    r = base_run();
    json_object_set_new(r, "load_model", json_string("closed"));
    for (int i = 0; i < NPTS; i++)
        setf(point(r, i), "throughput_per_s", 100 - i);
    fs = run_rules(r);
    assert_null(find(fs, "degradation"));
    json_decref(fs);
    /* ... but with latency rising as throughput falls, the concurrency held: degradation */
    for (int i = 0; i < NPTS; i++)
        seti(point(r, i), "p50_ns", (long long)(10 * MS * 100 / (100 - i)));
    fs = run_rules(r);
    assert_non_null(find(fs, "degradation"));
    json_decref(fs);
    json_decref(r);
}

static void test_findings__periodic_stalls(void **state)
{
    (void)state;
    json_t *r = base_run();
    for (int i = 5; i < NPTS - 1; i += 10)
        seti(point(r, i), "p99_ns", 400 * MS);
    json_t *fs = run_rules(r);
    json_t *f = find(fs, "periodic_stalls");
    assert_non_null(f);
    assert_int_equal((int)ev(f, "spikes"), 6);
    assert_true(fabs(ev(f, "period_ns") - 10000 * MS) < 1);
    assert_int_equal(json_integer_value(json_object_get(f, "t_ns")), 5000 * MS);
    json_decref(fs);
    /* irregular spikes: silent */
    json_decref(r);
    r = base_run();
    static const int at[] = {3, 5, 21, 40, 44};
    for (int i = 0; i < 5; i++)
        seti(point(r, at[i]), "p99_ns", 400 * MS);
    fs = run_rules(r);
    assert_null(find(fs, "periodic_stalls"));
    json_decref(fs);
    json_decref(r);
}

static void test_findings__label_connect_download(void **state)
{
    (void)state;
    json_t *r = base_run();
    json_object_set_new(r, "labels", json_pack("[{s:s,s:i,s:{s:I}},{s:s,s:i,s:{s:I}}]", "label", "GET /",
                                               "requests", 5000, "latency_ns", "mean", 5 * MS, "label",
                                               "GET /report", "requests", 1000, "latency_ns", "mean", 100 * MS));
    json_object_set_new(stats(r), "connect_ns", json_pack("{s:I}", "mean", 8 * MS));
    json_object_set_new(stats(r), "ttfb_ns", json_pack("{s:I}", "mean", 3 * MS));
    setf(stats(r), "bytes_in_mean", 2e6);
    json_t *fs = run_rules(r);
    json_t *f = find(fs, "label_dominates");
    assert_non_null(f);
    assert_string_equal(json_string_value(json_object_get(f, "label")), "GET /report");
    assert_true(fabs(ev(f, "time_share") - 100.0 / 125) < 1e-9);
    f = find(fs, "connect_dominates");
    assert_non_null(f);
    assert_true(fabs(ev(f, "connect_share") - 8.0 / 11) < 1e-9);
    f = find(fs, "download_dominates");
    assert_non_null(f);
    assert_true(fabs(ev(f, "download_mean_ns") - 8 * MS) < 1);
    json_decref(fs);
    /* balanced labels, fast connects, body time small: silent */
    json_object_set_new(r, "labels", json_pack("[{s:s,s:i,s:{s:I}},{s:s,s:i,s:{s:I}}]", "label", "a",
                                               "requests", 3000, "latency_ns", "mean", 10 * MS, "label",
                                               "b", "requests", 3000, "latency_ns", "mean", 12 * MS));
    json_object_set_new(stats(r), "connect_ns", json_pack("{s:I}", "mean", 1 * MS));
    json_object_set_new(stats(r), "ttfb_ns", json_pack("{s:I}", "mean", 10 * MS));
    fs = run_rules(r);
    assert_null(find(fs, "label_dominates"));
    assert_null(find(fs, "connect_dominates"));
    assert_null(find(fs, "download_dominates"));
    json_decref(fs);
    json_decref(r);
    /* a millisecond clock (ab's printed table): 1 ms total against 0 ms waiting is no evidence */
    r = base_run();
    json_object_set_new(stats(r), "latency_ns", json_pack("{s:I,s:I,s:I,s:I}", "min", 0LL, "mean", 1 * MS,
                                                          "p50", 1 * MS, "max", 4 * MS));
    json_object_set_new(stats(r), "ttfb_ns", json_pack("{s:I}", "mean", 0LL));
    fs = run_rules(r);
    assert_null(find(fs, "download_dominates"));
    json_decref(fs);
    json_decref(r);
}

static void test_findings__coordinated_omission(void **state)
{
    (void)state;
    json_t *r = base_run();
    json_object_set_new(r, "load_model", json_string("closed"));
    seti(point(r, 20), "max_ns", 900 * MS);
    seti(point(r, 20), "requests", 20);
    json_t *fs = run_rules(r);
    json_t *f = find(fs, "coordinated_omission");
    assert_non_null(f);
    assert_int_equal(json_integer_value(json_object_get(f, "t_ns")), 20000 * MS);
    assert_int_equal((int)ev(f, "stall_intervals"), 1);
    json_decref(fs);
    /* the same stall measured by an open-model generator: silent */
    json_object_set_new(r, "load_model", json_string("open"));
    fs = run_rules(r);
    assert_null(find(fs, "coordinated_omission"));
    json_decref(fs);
    json_decref(r);
}

static void test_findings__summary_only(void **state)
{
    (void)state;
    /* a vegeta text report's numbers: no samples, no time series */
    json_t *r = json_pack("{s:i,s:s,s:b,s:s}", "id", 2, "name", "printed", "summary_only", 1,
                          "load_model", "open");
    json_object_set_new(r, "stats", json_pack("{s:i,s:f,s:{s:I,s:I,s:I},s:{s:i,s:i,s:i},s:[{s:s}]}",
                                              "requests", 1000, "success_ratio", 0.8, "latency_ns",
                                              "p50", 287 * 1000LL, "p99", 3001 * MS, "max", 3218 * MS,
                                              "status_codes", "200", 800, "404", 100, "500", 100,
                                              "errors", "message", "404 Not Found"));
    json_t *fs = run_rules(r);
    assert_non_null(find(fs, "tail_amplification"));
    assert_int_equal((int)ev(find(fs, "errors_5xx"), "count"), 100);
    assert_int_equal((int)ev(find(fs, "errors_4xx"), "count"), 100);
    assert_null(find(fs, "error_onset")); /* needs a time series */
    assert_null(find(fs, "warmup"));
    json_decref(fs);
    json_decref(r);
}

static void test_findings__options(void **state)
{
    (void)state;
    json_t *r = base_run();
    seti(lat(r), "p99", 500 * MS);
    json_object_set_new(r, "status_codes", json_pack("[{s:i,s:i},{s:i,s:i}]", "code", 200, "count", 5900,
                                                     "code", 404, "count", 100));
    pr_findings_opts o;
    pr_findings_opts_init(&o);
    o.only = "errors_4xx";
    json_t *fs = pr_findings_run(r, &o);
    assert_int_equal(json_array_size(fs), 1);
    json_decref(fs);
    pr_findings_opts_init(&o);
    o.min_severity = PR_SEV_CRITICAL;
    fs = pr_findings_run(r, &o);
    assert_int_equal(json_array_size(fs), 0);
    json_decref(fs);
    /* garbage models never crash */
    json_t *junk = json_pack("{s:s, s:[i], s:{s:s}}", "stats", "x", "timeseries", 1, "histogram", "a", "b");
    fs = pr_findings_run(junk, NULL);
    assert_int_equal(json_array_size(fs), 0);
    json_decref(fs);
    json_decref(junk);
    json_decref(r);
}

/* ---- real fixtures ------------------------------------------------------------------------- */

static json_t *fixture_findings(pr_store *st, const char *parser, const char *rel)
{
    int64_t id = test_ingest(st, parser, testdata(rel), NULL);
    assert_true(id > 0);
    pr_report_opts o;
    pr_report_opts_init(&o);
    json_t *model;
    pr_error err;
    pr_error_clear(&err);
    assert_int_equal(pr_report_run(st, id, &o, &model, &err), 0);
    json_t *fs = run_rules(model);
    json_decref(model);
    return fs;
}

static void test_findings__fixtures(void **state)
{
    (void)state;
    pr_store *st = test_store_open();
    assert_non_null(st);
    json_t *fs = fixture_findings(st, "vegeta-gob", "vegeta/basic.bin");
    assert_int_equal(json_array_size(fs), 0); /* 1000 × 200 OK at 200/s: nothing to say */
    json_decref(fs);

    fs = fixture_findings(st, "vegeta-gob", "vegeta/refused.bin");
    assert_int_equal((int)ev(find(fs, "errors_refused"), "count"), 100);
    assert_non_null(find(fs, "error_onset"));
    assert_null(find(fs, "client_timeouts"));
    assert_null(find(fs, "errors_5xx"));
    json_decref(fs);

    fs = fixture_findings(st, "vegeta-gob", "vegeta/mixed.bin");
    assert_int_equal((int)ev(find(fs, "errors_5xx"), "count"), 100);
    assert_int_equal((int)ev(find(fs, "errors_4xx"), "count"), 100);
    assert_non_null(find(fs, "tail_amplification"));
    assert_non_null(find(fs, "bimodal_latency"));
    assert_string_equal(json_string_value(json_object_get(find(fs, "label_dominates"), "label")),
                        "GET http://127.0.0.1:18080/slow");
    assert_null(find(fs, "client_timeouts")); /* 3 s answers are slow, not timed out */
    assert_null(find(fs, "errors_refused"));
    json_decref(fs);

    fs = fixture_findings(st, "vegeta-json", "findings/timeouts-synthetic.json");
    json_t *f = find(fs, "client_timeouts");
    assert_non_null(f);
    assert_int_equal((int)ev(f, "timeout_errors"), 26);
    assert_null(find(fs, "errors_refused"));
    json_decref(fs);

    /* JMeter with a 300 ms response timeout: 20 of 80 samples piled at 300-308 ms, no response */
    fs = fixture_findings(st, "jmeter-csv", "jmeter/connrefused.jtl");
    f = find(fs, "client_timeouts");
    assert_non_null(f);
    assert_true(ev(f, "near_max_ratio_min") >= 0.19);
    assert_null(find(fs, "download_dominates")); /* timed-out samples have no first byte */
    json_decref(fs);
    /* refused connections plus one slow sample: no pile, no timeout */
    fs = fixture_findings(st, "jmeter-xml", "jmeter/xml-default.jtl");
    assert_null(find(fs, "client_timeouts"));
    assert_non_null(find(fs, "errors_refused"));
    json_decref(fs);
    /* ab -g rows have no outcome (status 0 = unknown): never a timeout pile */
    fs = fixture_findings(st, "ab-gnuplot", "ab/ab_error_500.tsv");
    assert_null(find(fs, "client_timeouts"));
    json_decref(fs);

    fs = fixture_findings(st, "ab-gnuplot", "ab/ab_plain_c10.tsv");
    assert_int_equal(json_array_size(fs), 0); /* ms-resolution zeros are not a second population */
    json_decref(fs);

    /* measured against nginx of known capacity (tests/data/load/README.md): 400/s offered to
     * 196/s, as Vegeta results; the offered rate is inferred */
    fs = fixture_findings(st, "vegeta-gob", "load/vegeta_400rps_cap196.bin");
    f = find(fs, "saturation");
    assert_non_null(f);
    assert_true(ev(f, "served_per_s") < 200);
    assert_true(ev(f, "offered_rate_per_s") > 400 && ev(f, "offered_rate_per_s") < 401);
    f = find(fs, "error_onset");
    assert_non_null(f);
    assert_true(ev(f, "throughput_before_per_s") <= 200); /* by completion: never 400/s */
    assert_null(find(fs, "warmup")); /* fast 503s after the onset are no "steady state" */
    json_decref(fs);
    /* its text report at 500/s against 117/s with a 30 s timeout */
    fs = fixture_findings(st, "vegeta-text", "load/vegeta_500rps_timeout.report.txt");
    assert_non_null(find(fs, "saturation"));
    assert_int_equal((int)ev(find(fs, "client_timeouts"), "timeout_errors"), 417);
    json_decref(fs);
    /* a third of the requests 404 at once, at 100-300/s: not saturation */
    static const char *const ramp[] = {"load/attack_ramp_404_100.prf", "load/attack_ramp_404_200.prf",
                                       "load/attack_ramp_404_300.prf"};
    for (int i = 0; i < 3; i++) {
        fs = fixture_findings(st, "native", ramp[i]);
        assert_null(find(fs, "saturation"));
        assert_non_null(find(fs, "errors_4xx"));
        json_decref(fs);
    }

    fs = fixture_findings(st, "jmeter-csv", "jmeter/csv-default.jtl");
    assert_int_equal((int)ev(find(fs, "errors_4xx"), "count"), 1050);
    assert_int_equal((int)ev(find(fs, "errors_5xx"), "count"), 450);
    assert_null(find(fs, "degradation")); /* throughput falls only as threads finish */
    assert_null(find(fs, "errors_refused"));
    json_decref(fs);
    test_store_close(st);
}

/* Every finding on every fixture and sample quotes its evidence: each number of its sentence is
 * one of the evidence's values, as printed (lib/numcheck.h). */
static size_t check_dir_findings(pr_store *st, const char *rel, size_t *nfindings)
{
    DIR *d = opendir(testdata(rel));
    if (!d)
        fail_msg("%s: cannot open", testdata(rel));
    size_t runs = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", testdata(rel), e->d_name);
        pr_error err;
        pr_error_clear(&err);
        pr_input *in = e->d_name[0] == '.' ? NULL : pr_input_open(path, &err);
        if (!in)
            continue;
        size_t got;
        int score;
        const unsigned char *head = pr_input_peek(in, 4096, &got);
        const pr_parser *p = pr_parser_sniff(head, got, &score);
        pr_input_close(in);
        int64_t id = p ? test_ingest(st, NULL, path, NULL) : -1;
        if (id <= 0)
            continue;
        pr_report_opts o;
        pr_report_opts_init(&o);
        json_t *model;
        assert_int_equal(pr_report_run(st, id, &o, &model, &err), 0);
        json_t *fs = run_rules(model);
        size_t i;
        json_t *f;
        char why[2000];
        json_array_foreach(fs, i, f) {
            if (!test_numbers_in_evidence(f, why, sizeof why))
                fail_msg("%s: %s", path, why);
            (*nfindings)++;
        }
        json_decref(fs);
        json_decref(model);
        runs++;
    }
    closedir(d);
    return runs;
}

static void test_findings__sentences_quote_evidence(void **state)
{
    (void)state;
    static const char *const dirs[] = {"vegeta", "ab", "jmeter", "other", "findings", "native",
                                       "load", "../../samples"};
    size_t runs = 0, findings = 0;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        pr_store *st = test_store_open(); /* one store per folder: samples repeat fixtures */
        assert_non_null(st);
        runs += check_dir_findings(st, dirs[i], &findings);
        test_store_close(st);
    }
    assert_true(runs >= 60);
    assert_true(findings >= 40);
}

/* An annotated report document renders each run's findings through a template. */
static void test_findings__template_partial(void **state)
{
    (void)state;
    pr_store *st = test_store_open();
    int64_t ids[2] = {test_ingest(st, "vegeta-gob", testdata("vegeta/basic.bin"), NULL),
                      test_ingest(st, "vegeta-gob", testdata("vegeta/refused.bin"), NULL)};
    pr_report_opts o;
    pr_report_opts_init(&o);
    json_t *doc;
    pr_error err;
    pr_error_clear(&err);
    assert_int_equal(pr_report_build(st, ids, 2, 0, &o, &doc, &err), 0);
    pr_findings_annotate(doc, NULL);
    static const char tpl[] =
        "{{#runs}}## {{name}}\n{{#findings.0}}### Findings\n\n{{/findings.0}}{{#findings}}"
        "| {{severity}} | **{{title}}**{{#label}} ({{label}}){{/label}} | {{explanation}} |\n"
        "{{/findings}}{{/runs}}";
    pr_tpl_builtin bt = {NULL, NULL};
    pr_tpl_loader bl = pr_tpl_builtin_loader(&bt);
    pr_buf out = PR_BUF_INIT;
    assert_int_equal(pr_mustache_render(tpl, sizeof tpl - 1, "t.md", doc, &bl, PR_ESC_MARKDOWN, &out, &err), 0);
    /* basic: no findings section; refused: a table with its two findings */
    const char *basic = strstr(out.p, "## basic"), *refused = strstr(out.p, "## refused");
    assert_non_null(basic);
    assert_non_null(refused);
    assert_true(strstr(out.p, "### Findings") > refused);
    assert_non_null(strstr(refused, "| critical | **Connections refused: nothing listening** (GET http://127.0.0.1:18099/) | 100 requests (100.00%) failed"));
    assert_non_null(strstr(refused, "| warning | **Errors throughout the run, from the start** |"));
    pr_buf_dispose(&out);
    json_decref(doc);
    test_store_close(st);
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_findings__healthy_run_is_quiet),
        cmocka_unit_test(test_findings__table_ids_unique),
        cmocka_unit_test(test_findings__saturation_offered_rate),
        cmocka_unit_test(test_findings__saturation_signals),
        cmocka_unit_test(test_findings__generator_bottleneck),
        cmocka_unit_test(test_findings__saturation_threads_flat_throughput),
        cmocka_unit_test(test_findings__client_timeouts),
        cmocka_unit_test(test_findings__error_onset),
        cmocka_unit_test(test_findings__error_classes),
        cmocka_unit_test(test_findings__tail_amplification),
        cmocka_unit_test(test_findings__bimodal),
        cmocka_unit_test(test_findings__warmup),
        cmocka_unit_test(test_findings__degradation),
        cmocka_unit_test(test_findings__periodic_stalls),
        cmocka_unit_test(test_findings__label_connect_download),
        cmocka_unit_test(test_findings__coordinated_omission),
        cmocka_unit_test(test_findings__summary_only),
        cmocka_unit_test(test_findings__options),
        cmocka_unit_test(test_findings__fixtures),
        cmocka_unit_test(test_findings__sentences_quote_evidence),
        cmocka_unit_test(test_findings__template_partial),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
