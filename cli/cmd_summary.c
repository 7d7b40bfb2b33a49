/* `perfreport summary`: the statistics of runs as an aligned text table or the JSON report model. */
#include "analysis/ab_stats.h"
#include "analysis/findings.h"
#include "analysis/human.h"
#include "analysis/jmeter_stats.h"
#include "analysis/k6_stats.h"
#include "analysis/peer_stats.h"
#include "analysis/vegeta_stats.h"
#include "analysis/report.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/selection.h"
#include "model/lex.h"
#include "model/text.h"
#include "model/xalloc.h"
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *jstr(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "-";
}

/* Orders "p2.5" before "p50" before "p100". */
static int cmp_pct_key(const void *a, const void *b)
{
    double x = strtod(*(const char *const *)a + 1, NULL), y = strtod(*(const char *const *)b + 1, NULL);
    return x < y ? -1 : x > y;
}

static void print_latency_line(const char *title, json_t *stats, const char *key)
{
    json_t *h = json_object_get(stats, key);
    char rawkey[64];
    snprintf(rawkey, sizeof rawkey, "%s_ns", key);
    json_t *raw = json_object_get(stats, rawkey);
    if (!json_is_object(h))
        return;
    /* only what is known: summary-only runs hold what their tool printed */
    printf("  %-13s", title);
    const char *sep = " ";
    static const char *const lead[] = {"min", "mean"};
    for (int i = 0; i < 2; i++) {
        if (json_object_get(h, lead[i])) {
            printf("%s%s %s", sep, lead[i], jstr(h, lead[i]));
            sep = ", ";
        }
    }
    json_t *list = json_object_get(raw, "percentiles");
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e) {
        printf("%sp%s %s", sep, jstr(e, "p"), jstr(e, "human"));
        sep = ", ";
    }
    if (!json_is_array(list)) { /* a tool's own percentiles, in ascending order */
        const char *keys[64];
        size_t nk = 0;
        const char *k;
        json_t *v;
        json_object_foreach(h, k, v)
            if (k[0] == 'p' && k[1] >= '0' && k[1] <= '9' && nk < 64)
                keys[nk++] = k;
        qsort(keys, nk, sizeof keys[0], cmp_pct_key);
        for (size_t j = 0; j < nk; j++) {
            printf("%s%s %s", sep, keys[j], jstr(h, keys[j]));
            sep = ", ";
        }
    }
    if (json_object_get(h, "max"))
        printf("%smax %s", sep, jstr(h, "max"));
    printf("\n");
}

/* Where a headline number comes from, for the text after it: "" for the samples (and for a
 * summary-only run's printed numbers: its title says so), "ab's report", "derived from ab's
 * report" (analysis/headline.h). */
static const char *origin(json_t *s, const char *key, int summary_only, char *buf, size_t n)
{
    const char *p = json_string_value(json_object_get(json_object_get(s, "provenance"), key));
    const char *report = jstr(s, "tool_report");
    if (p && !strcmp(p, "tool") && !summary_only)
        snprintf(buf, n, "%s", report);
    else if (p && !strcmp(p, "derived"))
        snprintf(buf, n, "derived from %s", report);
    else
        buf[0] = 0;
    return buf;
}

/* "  NAME  VALUE (ORIGIN)" for a headline number. */
static void print_headline(const char *title, const char *value, const char *from)
{
    printf("  %-13s %s", title, value);
    if (*from)
        printf(" (%s)", from);
    printf("\n");
}

static void print_headlines(json_t *s, int so)
{
    char o[128], v[160];
    json_t *req = json_object_get(s, "requests");
    json_t *tx = json_object_get(s, "transaction_samples");
    if (req && json_is_integer(tx)) /* JMeter: TC samples sum their children */
        snprintf(v, sizeof v, "%lld (%lld samples: %lld transaction samples not counted as "
                 "requests)", (long long)json_integer_value(req),
                 (long long)(json_integer_value(req) + json_integer_value(tx)),
                 (long long)json_integer_value(tx));
    else if (req)
        snprintf(v, sizeof v, "%lld", (long long)json_integer_value(req));
    if (req)
        print_headline("requests", v, origin(s, "requests", so, o, sizeof o));
    if (json_object_get(s, "duration")) {
        if (json_is_integer(json_object_get(s, "wait_ns")))
            snprintf(v, sizeof v, "%s (wait %s)", jstr(s, "duration"), jstr(s, "wait"));
        else
            snprintf(v, sizeof v, "%s", jstr(s, "duration"));
        print_headline("duration", v, origin(s, "duration_ns", so, o, sizeof o));
    }
    if (json_object_get(s, "rate"))
        print_headline("rate", jstr(s, "rate"), origin(s, "rate_per_s", so, o, sizeof o));
    if (json_object_get(s, "throughput"))
        print_headline("throughput", jstr(s, "throughput"),
                       origin(s, "throughput_per_s", so, o, sizeof o));
    json_t *e = json_object_get(s, "errors");
    if (req && json_integer_value(req) == 0) {
        printf("  %-13s - (no request)\n", "success");
    } else if (json_is_null(json_object_get(s, "successes")) ||
               (so && req && !json_is_integer(e) && !json_object_get(s, "success_pct"))) {
        printf("  %-13s unknown (%s)\n", "success",
               so ? "the tool printed no count of failed requests"
                  : "the source records no outcome per request");
    } else if (json_object_get(s, "success_pct")) {
        origin(s, "errors", so, o, sizeof o);
        if (json_is_integer(e))
            snprintf(v, sizeof v, "%s (%lld error%s%s%s)", jstr(s, "success_pct"),
                     (long long)json_integer_value(e), json_integer_value(e) == 1 ? "" : "s",
                     *o ? "; " : "", o);
        else
            snprintf(v, sizeof v, "%s%s%s%s", jstr(s, "success_pct"), *o ? " (" : "", o,
                     *o ? ")" : "");
        print_headline("success", v, "");
    }
    size_t i;
    json_t *n;
    json_array_foreach(json_object_get(s, "notes"), i, n)
        printf("  %-13s %s\n", i ? "" : "note", json_string_value(n));
}

static void print_run(json_t *r, int by_label)
{
    json_t *s = json_object_get(r, "stats");
    int so = json_is_true(json_object_get(r, "summary_only"));
    printf("run %lld: %s  (%s, %s)", (long long)json_integer_value(json_object_get(r, "id")),
           jstr(r, "name"), jstr(r, "tool"), jstr(r, "format"));
    if (so)
        printf("  [summary only: the numbers in %s, no samples]", jstr(s, "tool_report"));
    printf("\n");
    json_t *merged = json_object_get(r, "merged_runs");
    if (json_array_size(merged)) {
        printf("  %-13s", "merged runs");
        size_t i;
        json_t *v;
        json_array_foreach(merged, i, v)
            printf(" %lld", (long long)json_integer_value(v));
        printf("\n");
    }
    json_t *shards = json_object_get(json_object_get(r, "meta"), "shards");
    if (json_is_object(shards)) { /* a distributed run: which of its shards have landed */
        printf("  %-13s %lld of %lld", "shards",
               (long long)json_integer_value(json_object_get(shards, "landed")),
               (long long)json_integer_value(json_object_get(shards, "count")));
        json_t *missing = json_object_get(shards, "missing");
        size_t i;
        json_t *v;
        json_array_foreach(missing, i, v)
            printf("%s%lld", i ? " " : " (missing: ", (long long)json_integer_value(v));
        printf("%s\n", json_array_size(missing) ? ")" : "");
    }
    json_t *load = json_object_get(r, "load");
    if (json_is_string(json_object_get(load, "text")))
        printf("  %-13s %s\n", "load", jstr(load, "text"));
    print_headlines(s, so);
    print_latency_line("latency", s, "latency");
    if (!strcmp(jstr(s, "mode"), "histogram"))
        printf("  %-13s bounded mode: durations from histograms, percentiles within 0.1%%\n", "");
    if (json_is_string(json_object_get(s, "bounded_reason")))
        printf("  %-13s (%s)\n", "", jstr(s, "bounded_reason"));
    print_latency_line("connect", s, "connect");
    print_latency_line("ttfb", s, "ttfb");
    print_latency_line("receive", s, "receive");
    print_latency_line("send lateness", s, "lateness");
    if (json_object_get(s, "bytes_in") || json_object_get(s, "bytes_out"))
        printf("  %-13s in %s, out %s\n", "bytes", jstr(s, "bytes_in"), jstr(s, "bytes_out"));
    json_t *ap = json_object_get(s, "apdex");
    if (ap && json_is_number(json_object_get(ap, "score")))
        printf("  %-13s %.3f (T %s)\n", "apdex", json_number_value(json_object_get(ap, "score")),
               "500 ms");
    json_t *codes = json_object_get(r, "status_codes");
    if (json_array_size(codes)) {
        printf("  %-13s", "status codes");
        size_t i;
        json_t *c;
        json_array_foreach(codes, i, c) {
            long long code = (long long)json_integer_value(json_object_get(c, "code"));
            printf("%s", i ? ", " : " ");
            if (code) /* 0: no status (no response, or a source that records none) */
                printf("%lld: %lld", code, (long long)json_integer_value(json_object_get(c, "count")));
            else
                printf("none: %lld", (long long)json_integer_value(json_object_get(c, "count")));
        }
        printf("\n");
    } else if (json_is_object(json_object_get(s, "status_codes"))) {
        printf("  %-13s", "status codes");
        const char *k;
        json_t *v;
        int first = 1;
        json_object_foreach(json_object_get(s, "status_codes"), k, v) {
            printf("%s%s: %lld", first ? " " : ", ", k, (long long)json_integer_value(v));
            first = 0;
        }
        printf("\n");
    }
    json_t *errs = json_object_get(r, "errors");
    if (json_array_size(errs)) {
        printf("  errors:\n");
        size_t i;
        json_t *e;
        json_array_foreach(errs, i, e) {
            if (i == 10) {
                printf("    … %zu more (see --json)\n", json_array_size(errs) - 10);
                break;
            }
            json_t *c = json_object_get(e, "count"); /* Vegeta's report prints none */
            if (json_is_integer(c))
                printf("    %8lld  ", (long long)json_integer_value(c));
            else
                printf("    %8s  ", "-");
            const char *m = jstr(e, "message");
            pr_cli_print_cell(m, pr_cli_text_width(m, (size_t)-1));
            printf("\n");
        }
    }
    json_t *findings = json_object_get(r, "findings");
    if (json_array_size(findings)) {
        printf("  findings:\n");
        pr_findings_print(stdout, findings);
    }
    json_t *labels = json_object_get(r, "labels");
    if (by_label && json_array_size(labels)) {
        size_t w = 5, i;
        json_t *l;
        json_array_foreach(labels, i, l) {
            size_t n = pr_cli_text_width(jstr(l, "label"), (size_t)-1);
            if (n > w)
                w = n;
        }
        if (w > 60)
            w = 60;
        json_t *grouping = json_object_get(r, "labels_grouping");
        if (grouping)
            printf("\n  %s: %s\n", jstr(r, "by"), jstr(grouping, "text"));
        printf("\n  ");
        pr_cli_print_cell(jstr(r, "by"), w);
        printf(" %9s %8s %10s %10s %10s %10s %10s %10s %10s\n", "requests", "errors", "mean",
               "p50", "p90", "p99", "max", "req/s", "ok/s");
        json_array_foreach(labels, i, l) {
            json_t *lat = json_object_get(l, "latency");
            json_t *rawl = json_object_get(l, "latency_ns");
            printf("  ");
            pr_cli_print_cell(jstr(l, "label"), w);
            printf(" %9lld %8s %10s %10s %10s %10s %10s %10s %10s\n",
                   (long long)json_integer_value(json_object_get(l, "requests")),
                   jstr(l, "error_pct"), jstr(lat, "mean"), jstr(lat, "p50"), jstr(lat, "p90"),
                   jstr(lat, "p99"), jstr(lat, "max"), jstr(l, "request_throughput"),
                   jstr(l, "throughput"));
            (void)rawl;
        }
    }
}

enum { FMT_TEXT, FMT_JSON, FMT_VEGETA, FMT_VEGETA_JSON, FMT_JMETER, FMT_AB, FMT_GATLING,
       FMT_LOCUST, FMT_K6, FMT_K6_JSON, NFMTS };

/* A tool's layout filled with the numbers a summary-only run's tool printed; what it did not
 * print is shown unknown ("-" or null). */
static int print_printed_format(const pr_run *run, int fmt, int jmeter_pct)
{
    pr_error err;
    pr_error_clear(&err);
    if (jmeter_pct) {
        pr_cli_errorf("run %lld is summary-only: JMeter's own percentile estimator needs samples",
                      (long long)run->id);
        return PR_EXIT_ERROR;
    }
    if (fmt != FMT_VEGETA && fmt != FMT_VEGETA_JSON && fmt != FMT_JMETER && fmt != FMT_AB) {
        static const char *const what[NFMTS] = {
            [FMT_GATLING] = "Gatling's summary", [FMT_LOCUST] = "Locust's stats table",
            [FMT_K6] = "k6's summary", [FMT_K6_JSON] = "k6's summary"};
        pr_cli_errorf("run %lld is summary-only: it has no samples to compute %s from",
                      (long long)run->id, what[fmt] ? what[fmt] : "that layout");
        return PR_EXIT_ERROR;
    }
    if (fmt == FMT_VEGETA || fmt == FMT_VEGETA_JSON) {
        char *text = fmt == FMT_VEGETA ? pr_vegeta_summary_text(run)
                                       : pr_vegeta_summary_json_text(run);
        fputs(text, stdout);
        free(text);
    } else if (fmt == FMT_JMETER) {
        if (pr_jstats_write_summary(run, stdout, "<stdout>", &err) < 0) {
            pr_cli_print_error(&err);
            return PR_EXIT_ERROR;
        }
    } else {
        pr_ab_tables t;
        if (pr_ab_stats_from_summary(run, &t) < 0) {
            pr_cli_errorf("run %lld: its tool printed no request count: no ab tables",
                          (long long)run->id);
            return PR_EXIT_ERROR;
        }
        pr_buf b = PR_BUF_INIT;
        pr_ab_stats_print(&t, &b);
        fputs(b.p ? b.p : "", stdout);
        pr_buf_dispose(&b);
    }
    return 0;
}

/* The run is analysed in bounded mode (pr_report_bounded): says so on stderr, where the
 * tool's layout has no place for it. */
static int tool_bounded(const pr_report_opts *o, const pr_run *run, int fmt)
{
    char why[160];
    if (!pr_report_bounded(o, run->samples, why, sizeof why))
        return 0;
    static const char *const what[NFMTS] = {
        [FMT_AB] = "ab's tables", [FMT_JMETER] = "JMeter's statistics",
        [FMT_VEGETA] = "Vegeta's report", [FMT_VEGETA_JSON] = "Vegeta's report",
        [FMT_GATLING] = "Gatling's summary", [FMT_LOCUST] = "Locust's stats table",
        [FMT_K6] = "k6's summary", [FMT_K6_JSON] = "k6's summary"};
    fprintf(stderr, "perfreport: note: run %lld: %s: the percentiles of %s come from histograms "
                    "(within 0.1%%)\n", (long long)run->id,
            why[0] ? why : "more samples than --exact-limit", what[fmt]);
    return 1;
}

static int vegeta_cb(void *payload, const pr_sample *s, size_t n)
{
    pr_vegeta_stats_add(payload, s, n);
    return 0;
}

/* Vegeta's report of a run, streamed: each latency kept once (or a histogram). */
static int print_vegeta(pr_store *st, const pr_run *run, int fmt, int bounded)
{
    pr_error err;
    pr_error_clear(&err);
    pr_vegeta_stats_acc *a = pr_vegeta_stats_new(run, (size_t)run->samples, bounded);
    int rc = pr_store_scan_some(st, run->id,
                                PR_COLBIT(PR_COL_START) | PR_COLBIT(PR_COL_LATENCY) |
                                    PR_COLBIT(PR_COL_STATUS) | PR_COLBIT(PR_COL_ERROR) |
                                    PR_COLBIT(PR_COL_BYTES_IN) | PR_COLBIT(PR_COL_BYTES_OUT),
                                vegeta_cb, a, &err);
    pr_vegeta_stats vs;
    pr_vegeta_stats_finish(a, &vs);
    if (rc < 0) {
        pr_cli_print_error(&err);
        pr_vegeta_stats_dispose(&vs);
        return PR_EXIT_ERROR;
    }
    char *text = fmt == FMT_VEGETA ? pr_vegeta_stats_text(&vs, run)
                                   : pr_vegeta_stats_json_text(&vs, run);
    pr_cli_put_text(stdout, text);
    free(text);
    pr_vegeta_stats_dispose(&vs);
    return 0;
}

static int jmeter_cb(void *payload, const pr_sample *s, size_t n)
{
    pr_jstats_add(payload, s, n);
    return 0;
}

/* JMeter's statistics.json of a run, streamed. */
static int print_jmeter(pr_store *st, const pr_run *run, int pct_rule, const pr_report_opts *o,
                        int bounded)
{
    pr_error err;
    pr_error_clear(&err);
    pr_jstats_opts jo;
    pr_jstats_opts_default(&jo);
    jo.apdex_satisfied_ms = o->apdex_t_ns / 1000000;
    jo.apdex_tolerated_ms = o->apdex_f_ns / 1000000;
    jo.percentiles = pct_rule == 1 ? PR_JSTATS_PCT_JMETER : PR_JSTATS_PCT_EXACT;
    pr_jstats_acc *a = pr_jstats_new(run, &jo, (size_t)run->samples, bounded);
    int rc = pr_store_scan_some(st, run->id,
                                PR_COLBIT(PR_COL_START) | PR_COLBIT(PR_COL_LATENCY) |
                                    PR_COLBIT(PR_COL_LABEL) | PR_COLBIT(PR_COL_SUCCESS) |
                                    PR_COLBIT(PR_COL_FLAGS) | PR_COLBIT(PR_COL_BYTES_IN) |
                                    PR_COLBIT(PR_COL_BYTES_OUT),
                                jmeter_cb, a, &err);
    pr_jstats *js = pr_jstats_finish(a);
    if (rc == 0 && pr_jstats_write(js, stdout, "<stdout>", &err) < 0)
        rc = -1;
    pr_jstats_free(js);
    if (rc < 0) {
        pr_cli_print_error(&err);
        return PR_EXIT_ERROR;
    }
    return 0;
}

typedef struct ab_scan {
    const pr_run *run;
    int col;
    int64_t *v;
    size_t n, cap;
} ab_scan;

static int ab_cb(void *payload, const pr_sample *s, size_t n)
{
    ab_scan *a = payload;
    if (a->n + n > a->cap)
        a->v = pr_xgrow(a->v, &a->cap, a->n + n, sizeof *a->v);
    for (size_t i = 0; i < n; i++)
        a->v[a->n++] = pr_ab_value(a->run, &s[i], a->col);
    return 0;
}

/* ab's tables of a run, a column at a time (one scan each, each value kept once). Bounded
 * mode changes nothing here: ab's rules (its sd in input order, its medians) need the values,
 * so the tables are exact and the memory is 8 bytes a sample. */
static int print_ab(pr_store *st, const pr_run *run, int bounded)
{
    (void)bounded;
    pr_error err;
    pr_error_clear(&err);
    static const unsigned need[4] = {
        PR_COLBIT(PR_COL_CONNECT),
        PR_COLBIT(PR_COL_CONNECT) | PR_COLBIT(PR_COL_LATENCY) | PR_COLBIT(PR_COL_ATTRS),
        PR_COLBIT(PR_COL_TTFB), PR_COLBIT(PR_COL_LATENCY)};
    pr_ab_tables t;
    memset(&t, 0, sizeof t);
    pr_ab_row *rows[4] = {&t.connect, &t.processing, &t.waiting, &t.total};
    ab_scan a = {run, 0, pr_xmalloc((size_t)(run->samples > 0 ? run->samples : 1) * 8), 0,
                 (size_t)(run->samples > 0 ? run->samples : 1)};
    int rc = 0;
    for (int col = 0; col < 4 && rc == 0; col++) {
        a.col = col;
        a.n = 0;
        rc = pr_store_scan_some(st, run->id, need[col], ab_cb, &a, &err);
        if (rc == 0 && a.n == 0)
            rc = pr_error_set(&err, PR_EUSAGE, NULL, 0, 0, "no samples: ab prints no tables");
        if (rc == 0)
            pr_ab_stats_column(a.v, a.n, rows[col]);
    }
    if (rc == 0) {
        t.n = a.n;
        pr_ab_stats_percentages(a.v, a.n, &t);
        pr_buf b = PR_BUF_INIT;
        pr_ab_stats_print(&t, &b);
        pr_cli_put_text(stdout, b.p);
        pr_buf_dispose(&b);
    }
    free(a.v);
    if (rc < 0) {
        pr_cli_print_error(&err);
        return PR_EXIT_ERROR;
    }
    return 0;
}

static int k6_cb(void *payload, const pr_sample *s, size_t n)
{
    pr_k6_add(payload, s, n);
    return 0;
}

/* k6's end-of-test summary (text or handleSummary data) of a run, streamed. */
static int print_k6(pr_store *st, const pr_run *run, int fmt, int k6_pct, int bounded)
{
    pr_error err;
    pr_error_clear(&err);
    pr_k6_acc *a = pr_k6_new(run, (size_t)run->samples, k6_pct, bounded);
    int rc = pr_store_scan_some(st, run->id,
                                PR_COLBIT(PR_COL_START) | PR_COLBIT(PR_COL_LATENCY) |
                                    PR_COLBIT(PR_COL_SUCCESS),
                                k6_cb, a, &err);
    int span = 0;
    json_t *data = pr_k6_finish(a, &span);
    if (rc < 0) {
        json_decref(data);
        pr_cli_print_error(&err);
        return PR_EXIT_ERROR;
    }
    char *text = fmt == FMT_K6 ? pr_k6_summary_text(data)
                               : json_dumps(json_object_get(data, "metrics"),
                                            JSON_INDENT(2) | JSON_SORT_KEYS);
    fputs(text, stdout);
    if (fmt == FMT_K6_JSON)
        putchar('\n');
    if (span && fmt == FMT_K6)
        printf("# rates over the samples' span (first start to last end): the run has no "
               "k6 test duration\n");
    free(text);
    json_decref(data);
    return 0;
}

static int gatling_cb(void *payload, const pr_sample *s, size_t n)
{
    pr_gatling_add(payload, s, n);
    return 0;
}

static int locust_cb(void *payload, const pr_sample *s, size_t n)
{
    pr_locust_add(payload, s, n);
    return 0;
}

/* Gatling's or Locust's console summary of a run, streamed. */
static int print_peer(pr_store *st, const pr_run *run, int fmt, int bounded)
{
    pr_error err;
    pr_error_clear(&err);
    unsigned want = PR_COLBIT(PR_COL_START) | PR_COLBIT(PR_COL_LATENCY) | PR_COLBIT(PR_COL_FLAGS) |
                    PR_COLBIT(PR_COL_SUCCESS) | PR_COLBIT(PR_COL_STATUS) | PR_COLBIT(PR_COL_ERROR) |
                    PR_COLBIT(PR_COL_LABEL);
    pr_buf b = PR_BUF_INIT;
    int rc;
    if (fmt == FMT_GATLING) {
        pr_gatling_acc *a = pr_gatling_new((size_t)run->samples, bounded);
        rc = pr_store_scan_some(st, run->id, want, gatling_cb, a, &err);
        pr_gatling_finish(a, &b);
    } else {
        pr_locust_acc *a = pr_locust_new(run, (size_t)run->samples, bounded);
        rc = pr_store_scan_some(st, run->id, want, locust_cb, a, &err);
        pr_locust_finish(a, &b);
    }
    if (rc == 0)
        pr_cli_put_text(stdout, b.p);
    pr_buf_dispose(&b);
    if (rc < 0) {
        pr_cli_print_error(&err);
        return PR_EXIT_ERROR;
    }
    return 0;
}

/* A tool's own layout computed from the run's samples (Vegeta's report, JMeter's
 * statistics.json, ab's tables). */
static int print_tool_format(pr_store *st, int64_t id, int fmt, int pct_rule,
                             const pr_report_opts *o)
{
    pr_error err;
    pr_error_clear(&err);
    pr_run *run;
    if (pr_store_load_run(st, id, &run, &err) < 0) {
        pr_cli_print_error(&err);
        return PR_EXIT_ERROR;
    }
    json_t *k6sum = json_object_get(json_object_get(run->summary, "tool"), "k6");
    if (fmt >= FMT_K6 && run->summary_only && json_is_object(k6sum)) {
        /* k6's own numbers, in its layout */
        char *text = fmt == FMT_K6 ? pr_k6_summary_text(k6sum)
                                   : json_dumps(json_object_get(k6sum, "metrics"),
                                                JSON_INDENT(2) | JSON_SORT_KEYS);
        fputs(text, stdout);
        free(text);
        pr_run_free(run);
        return 0;
    }
    if (run->summary_only && fmt == FMT_LOCUST && json_object_get(run->summary, "labels")) {
        pr_buf b = PR_BUF_INIT; /* a Locust run: its own CSV figures in its own layout */
        pr_locust_console(run, NULL, 0, &b);
        pr_cli_put_text(stdout, b.p);
        pr_buf_dispose(&b);
        pr_run_free(run);
        return 0;
    }
    if (run->summary_only) {
        int rc = print_printed_format(run, fmt, pct_rule == 1);
        pr_run_free(run);
        return rc;
    }
    int bounded = tool_bounded(o, run, fmt);
    if (fmt == FMT_VEGETA || fmt == FMT_VEGETA_JSON || fmt == FMT_JMETER || fmt == FMT_AB) {
        int rc = fmt == FMT_JMETER ? print_jmeter(st, run, pct_rule, o, bounded)
                 : fmt == FMT_AB   ? print_ab(st, run, bounded)
                                   : print_vegeta(st, run, fmt, bounded);
        pr_run_free(run);
        return rc;
    }
    int rc = fmt >= FMT_K6 ? print_k6(st, run, fmt, pct_rule == 2, bounded)
                           : print_peer(st, run, fmt, bounded);
    pr_run_free(run);
    return rc;
}

static int parse_dur_arg(const char *opt, const char *arg, int64_t *ns)
{
    if (pr_lex_duration(arg, strlen(arg), 1000000000, ns) < 0) {
        pr_cli_errorf("%s expects a duration like 10s or 500ms, got '%s'", opt, arg);
        return -1;
    }
    return 0;
}

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"store", required_argument, NULL, 'S'},    {"json", no_argument, NULL, 'j'},
        {"by", required_argument, NULL, 'b'},       {"percentiles", required_argument, NULL, 'p'},
        {"merge", no_argument, NULL, 'm'},          {"from", required_argument, NULL, 1},
        {"to", required_argument, NULL, 2},         {"skip-warmup", required_argument, NULL, 3},
        {"interval", required_argument, NULL, 4},   {"apdex-t", required_argument, NULL, 5},
        {"apdex-f", required_argument, NULL, 6},    {"format", required_argument, NULL, 'f'},
        {"exact-limit", required_argument, NULL, 7}, {"no-findings", no_argument, NULL, 8},
        {"top", required_argument, NULL, 9},        {"patterns", required_argument, NULL, 10},
        {NULL, 0, NULL, 0}};
    const char *store = NULL, *format = "text";
    int json = 0, by_label = 0, merge = 0, c, jmeter_pct = 0, ab_pct = 0, k6_pct = 0;
    pr_report_opts o;
    pr_report_opts_init(&o);
    int apdex_f_set = 0;
    char window[128] = ""; /* the window options as typed, for the warning on empty windows */
    optind = 1;
    while ((c = getopt_long(argc, argv, "jb:p:mf:", longopts, NULL)) != -1) {
        if (c >= 1 && c <= 3) {
            size_t k = strlen(window);
            snprintf(window + k, sizeof window - k, "%s%s %s", k ? " " : "",
                     c == 1 ? "--from" : c == 2 ? "--to" : "--skip-warmup", optarg);
        }
        switch (c) {
        case 'S': store = optarg; break;
        case 'j': json = 1; break;
        case 'b':
            if (pr_report_parse_by(&o, optarg) < 0) {
                pr_cli_errorf("--by expects up to 4 of label, url, method, status, error, thread, "
                              "tag:KEY, url-pattern, label-pattern (e.g. --by url,status)");
                return PR_EXIT_USAGE;
            }
            by_label = 1;
            break;
        case 'p':
            if (!strcmp(optarg, "jmeter")) {
                jmeter_pct = 1;
                break;
            }
            if (!strcmp(optarg, "ab")) {
                ab_pct = 1;
                break;
            }
            if (!strcmp(optarg, "k6")) {
                k6_pct = 1;
                break;
            }
            if (pr_report_parse_percentiles(&o, optarg) < 0) {
                pr_cli_errorf("--percentiles expects a list like 50,90,99.9 (at most %d)",
                              PR_MAX_PERCENTILES);
                return PR_EXIT_USAGE;
            }
            break;
        case 'm': merge = 1; break;
        case 1: if (parse_dur_arg("--from", optarg, &o.from_ns)) return PR_EXIT_USAGE; break;
        case 2: if (parse_dur_arg("--to", optarg, &o.to_ns)) return PR_EXIT_USAGE; break;
        case 3: if (parse_dur_arg("--skip-warmup", optarg, &o.from_ns)) return PR_EXIT_USAGE; break;
        case 4: if (parse_dur_arg("--interval", optarg, &o.interval_ns)) return PR_EXIT_USAGE; break;
        case 5:
            if (pr_lex_duration(optarg, strlen(optarg), 1000000, &o.apdex_t_ns) < 0) {
                pr_cli_errorf("--apdex-t expects a duration (ms if bare), got '%s'", optarg);
                return PR_EXIT_USAGE;
            }
            break;
        case 6:
            if (pr_lex_duration(optarg, strlen(optarg), 1000000, &o.apdex_f_ns) < 0) {
                pr_cli_errorf("--apdex-f expects a duration (ms if bare), got '%s'", optarg);
                return PR_EXIT_USAGE;
            }
            apdex_f_set = 1;
            break;
        case 'f': format = optarg; break;
        case 8: o.findings = 0; break;
        case 7:
            if (pr_lex_i64(optarg, strlen(optarg), &o.exact_limit) < 0 || o.exact_limit < 0) {
                pr_cli_errorf("--exact-limit expects a sample count");
                return PR_EXIT_USAGE;
            }
            break;
        case 9:
        case 10:
            if (pr_cli_rows_option(&o, c == 9 ? "--top" : "--patterns", optarg) < 0)
                return PR_EXIT_USAGE;
            break;
        default: return PR_EXIT_USAGE;
        }
    }
    if (!apdex_f_set && o.apdex_t_ns != 500000000)
        o.apdex_f_ns = 4 * o.apdex_t_ns;
    static const char *const fmts[NFMTS] = {"text",   "json", "vegeta",  "vegeta-json",
                                            "jmeter", "ab",   "gatling", "locust",
                                            "k6",     "k6-json"};
    int fmt = -1;
    for (int i = 0; i < NFMTS; i++)
        if (!strcmp(format, fmts[i]))
            fmt = i;
    if (fmt < 0) {
        pr_cli_errorf("--format: unknown output format '%s' (text, json, vegeta, vegeta-json, "
                      "jmeter, ab, gatling, locust, k6, k6-json)", format);
        return PR_EXIT_USAGE;
    }
    if (jmeter_pct && fmt != FMT_JMETER) {
        pr_cli_errorf("--percentiles jmeter goes with --format jmeter (JMeter's statistics.json)");
        return PR_EXIT_USAGE;
    }
    if (k6_pct && fmt < FMT_K6) {
        pr_cli_errorf("--percentiles k6 goes with --format k6 (k6's end-of-test summary)");
        return PR_EXIT_USAGE;
    }
    if (k6_pct)
        jmeter_pct = 2; /* print_tool_format's percentile switch: 2 = k6's rule */
    if (ab_pct) /* ab's rules are its tables */
        fmt = FMT_AB;
    if (fmt == FMT_JSON)
        json = 1;
    /* findings read the time series and histogram, so they are always computed; text output
     * just does not print them */
    pr_store *st;
    int rc = pr_cli_open_store(store, 0, &st);
    if (rc)
        return rc;
    int64_t *ids = NULL;
    size_t n = 0;
    rc = pr_cli_select_runs(st, argv + optind, argc - optind, &ids, &n);
    if (rc == 0 && fmt >= FMT_VEGETA) {
        for (size_t i = 0; i < n && rc == 0; i++) {
            if (i && fmt != FMT_VEGETA_JSON)
                printf("\n");
            rc = print_tool_format(st, ids[i], fmt, jmeter_pct, &o);
        }
        if (fflush(stdout) != 0)
            rc = PR_EXIT_ERROR;
        free(ids);
        pr_store_close(st);
        return rc;
    }
    json_t *doc = NULL;
    pr_error err;
    pr_error_clear(&err);
    if (rc == 0 && pr_report_build(st, ids, n, merge, &o, &doc, &err) < 0) {
        pr_cli_print_error(&err);
        rc = PR_EXIT_ERROR;
    }
    if (rc == 0)
        pr_cli_warn_windows(doc, window);
    if (rc == 0 && json) /* the text says it in the run's lines */
        pr_cli_warn_bounded(doc);
    if (rc == 0) {
        if (json) {
            char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
            size_t len = strlen(text);
            text[len] = '\n';
            if (pr_cli_write_file("-", text, len + 1) < 0)
                rc = PR_EXIT_ERROR;
            free(text);
        } else {
            size_t i;
            json_t *r;
            pr_text_visible_json(doc, 0); /* names, labels, errors come from the files */
            json_array_foreach(json_object_get(doc, "runs"), i, r) {
                if (i)
                    printf("\n");
                print_run(r, by_label);
            }
            if (fflush(stdout) != 0)
                rc = PR_EXIT_ERROR;
        }
    }
    json_decref(doc);
    free(ids);
    pr_store_close(st);
    return rc;
}

const pr_command pr_cmd_summary = {
    "summary", "summary [OPTIONS] [RUN…]", "statistics of runs (text table or --json)",
    "Prints the statistics of each RUN (an id, a name or 'last'; default: every run):\n"
    "requests, duration, rate, throughput, success ratio, latency min/mean/percentiles/max\n"
    "(exact, nearest rank over all samples), bytes, status codes and errors.\n\n"
    "options:\n"
    "      --json               the report model as JSON (docs/templates.md)\n"
    "  -b, --by DIMS            a table by label, url, method, status, error, thread or\n"
    "                           tag:KEY (a run tag; with --merge), up to 4 combined: url,status;\n"
    "                           url-pattern, label-pattern: ids in paths as {id}\n"
    "      --top N              the N labels with most requests, then one 'other' row\n"
    "                           (default 100; 0: every label)\n"
    "      --patterns WHEN      group labels and URLs by pattern: auto (past 1000 distinct\n"
    "                           values, the default), always, never\n"
    "  -p, --percentiles LIST   e.g. 50,90,99,99.9,99.99 (default 50,90,95,99,99.9);\n"
    "                           'jmeter' (with --format jmeter): JMeter's own estimator over\n"
    "                           the last 20,000 samples per label; 'ab': ab's rules (--format ab);\n"
    "                           'k6' (with --format k6): k6's linear interpolation between\n"
    "                           the closest ranks\n"
    "  -f, --format FMT         text (default), json, vegeta (vegeta report's layout),\n"
    "                           vegeta-json, jmeter (statistics.json), ab (ab's tables),\n"
    "                           gatling (Gatling's console summary), locust (its stats table)\n"
    "                           k6 (k6's end-of-test summary), k6-json (its metrics as\n"
    "                           handleSummary() data)\n"
    "  -m, --merge              analyse all the runs as one (e.g. one per load generator)\n"
    "      --from D, --to D     keep samples started D after the run start (e.g. 10s)\n"
    "      --skip-warmup D      same as --from D\n"
    "      --interval D         time-series interval in --json (default: automatic)\n"
    "      --apdex-t D          Apdex threshold T (default 500ms; F defaults to 4T)\n"
    "      --no-findings        leave out the findings (docs/findings.md)\n"
    "      --exact-limit N      runs above N samples are analysed in bounded memory\n"
    "                           (histograms, percentiles within 0.1%%; default: as many as\n"
    "                           half the memory available holds at 10 bytes a sample)\n"
    "      --store PATH         store file\n\n"
    "example:\n  perfreport summary --by label --percentiles 50,99,99.9 last\n",
    run};
