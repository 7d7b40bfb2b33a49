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
#include "model/buf.h"
#include "model/l10n.h"
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
    double x = strtod(*(const char *const *)a + 1, NULL),
           y = strtod(*(const char *const *)b + 1, NULL);
    return x < y ? -1 : x > y;
}

/* "  TITLE" padded to the value column (13 columns of display width: a translated title's wide
 * characters count 2). */
static void print_key(const char *title)
{
    size_t w = pr_cli_text_width(title, (size_t)-1);
    printf("  %s%*s", title, w < 13 ? (int)(13 - w) : 0, "");
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
    print_key(title);
    const char *sep = " ";
    static const char *const lead[] = {"min", "mean"};
    const char *lead_text[] = {C_("metric", "min"), C_("metric", "mean")};
    for (int i = 0; i < 2; i++) {
        if (json_object_get(h, lead[i])) {
            printf("%s%s %s", sep, lead_text[i], jstr(h, lead[i]));
            sep = ", ";
        }
    }
    json_t *list = json_object_get(raw, "percentiles");
    size_t i;
    json_t *e;
    json_array_foreach (list, i, e) {
        printf("%sp%s %s", sep, jstr(e, "p"), jstr(e, "human"));
        sep = ", ";
    }
    if (!json_is_array(list)) { /* a tool's own percentiles, in ascending order */
        const char *keys[64];
        size_t nk = 0;
        const char *k;
        json_t *v;
        json_object_foreach (h, k, v)
            if (k[0] == 'p' && k[1] >= '0' && k[1] <= '9' && nk < 64)
                keys[nk++] = k;
        qsort(keys, nk, sizeof keys[0], cmp_pct_key);
        for (size_t j = 0; j < nk; j++) {
            printf("%s%s %s", sep, keys[j], jstr(h, keys[j]));
            sep = ", ";
        }
    }
    if (json_object_get(h, "max"))
        printf("%s%s %s", sep, C_("metric", "max"), jstr(h, "max"));
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
        snprintf(buf, n, _("derived from %s"), report);
    else
        buf[0] = 0;
    return buf;
}

/* "  NAME  VALUE (ORIGIN)" for a headline number. */
static void print_headline(const char *title, const char *value, const char *from)
{
    print_key(title);
    printf(" %s", value);
    if (*from)
        printf(_(" (%s)"), from);
    printf("\n");
}

static void print_headlines(json_t *s, int so)
{
    char o[128], v[160];
    json_t *req = json_object_get(s, "requests");
    json_t *tx = json_object_get(s, "transaction_samples");
    if (req && json_is_integer(tx)) /* JMeter: TC samples sum their children */
        snprintf(v, sizeof v,
                 _("%lld (%lld samples: %lld transaction samples not counted as "
                   "requests)"),
                 (long long)json_integer_value(req),
                 (long long)(json_integer_value(req) + json_integer_value(tx)),
                 (long long)json_integer_value(tx));
    else if (req)
        snprintf(v, sizeof v, "%lld", (long long)json_integer_value(req));
    if (req)
        print_headline(C_("summary", "requests"), v, origin(s, "requests", so, o, sizeof o));
    const char *approx =
        json_string_value(json_object_get(json_object_get(s, "timing_approx"), "why"));
    const char *basis = json_string_value(json_object_get(s, "rate_basis"));
    int test = basis && !strcmp(basis, "test");     /* rates over the whole test (k6) */
    if (json_object_get(s, "duration") && approx) { /* ab -g alone: whole-second stamps */
        snprintf(v, sizeof v, _("%s (%s; wait unknown)"), jstr(s, "duration"), approx);
        print_headline(C_("summary", "duration"), v, "");
    } else if (json_object_get(s, "duration")) {
        if (json_is_integer(json_object_get(s, "wait_ns")) && json_object_get(s, "test_time"))
            snprintf(v, sizeof v, _("%s (wait %s, test time %s)"), jstr(s, "duration"),
                     jstr(s, "wait"), jstr(s, "test_time"));
        else if (json_is_integer(json_object_get(s, "wait_ns")))
            snprintf(v, sizeof v, _("%s (wait %s)"), jstr(s, "duration"), jstr(s, "wait"));
        else
            snprintf(v, sizeof v, "%s", jstr(s, "duration"));
        origin(s, "duration_ns", so, o, sizeof o);
        if (!*o && test) /* k6 alone: its test duration is not in the file */
            snprintf(o, sizeof o, "%s", _("first request start to last response end"));
        print_headline(C_("summary", "duration"), v, o);
    }
    if (json_object_get(s, "rate") && approx) {
        snprintf(v, sizeof v, _("%s (%lld requests in %s)"), jstr(s, "rate"),
                 (long long)json_integer_value(req), jstr(s, "duration"));
        print_headline(C_("summary", "rate"), v, "");
    } else if (json_object_get(s, "rate")) {
        origin(s, "rate_per_s", so, o, sizeof o);
        if (!*o && test)
            snprintf(o, sizeof o, "%s", _("requests over the duration, as k6's http_reqs rate"));
        print_headline(C_("summary", "rate"), jstr(s, "rate"), o);
    }
    if (json_object_get(s, "throughput"))
        print_headline(C_("summary", "throughput"), jstr(s, "throughput"),
                       origin(s, "throughput_per_s", so, o, sizeof o));
    json_t *e = json_object_get(s, "errors");
    if (req && json_integer_value(req) == 0) {
        print_key(C_("summary", "success"));
        printf(" %s\n", _("- (no request)"));
    } else if (json_is_null(json_object_get(s, "successes")) ||
               (so && req && !json_is_integer(e) && !json_object_get(s, "success_pct"))) {
        print_key(C_("summary", "success"));
        printf(_(" unknown (%s)\n"), so ? _("the tool printed no count of failed requests")
                                        : _("the source records no outcome per request"));
    } else if (json_object_get(s, "success_pct")) {
        origin(s, "errors", so, o, sizeof o);
        if (json_is_integer(e))
            snprintf(v, sizeof v,
                     n_("%s (%lld error%s%s)", "%s (%lld errors%s%s)",
                        json_integer_value(e) == 1 ? 1 : 2),
                     jstr(s, "success_pct"), (long long)json_integer_value(e), *o ? _("; ") : "",
                     o);
        else
            snprintf(v, sizeof v, "%s%s%s%s", jstr(s, "success_pct"), *o ? " (" : "", o,
                     *o ? ")" : "");
        print_headline(C_("summary", "success"), v, "");
    }
    size_t i;
    json_t *n;
    json_array_foreach (json_object_get(s, "notes"), i, n) {
        print_key(i ? "" : C_("summary", "note"));
        printf(" %s\n", json_string_value(n));
    }
}

/* "status codes 200: 9, 404: 1": the samples' codes, else the ones a tool printed. */
static void print_status_codes(json_t *r, json_t *s)
{
    json_t *codes = json_object_get(r, "status_codes");
    size_t i;
    json_t *c;
    if (json_array_size(codes)) {
        print_key(C_("summary", "status codes"));
        json_array_foreach (codes, i, c) {
            long long code = (long long)json_integer_value(json_object_get(c, "code"));
            long long count = (long long)json_integer_value(json_object_get(c, "count"));
            printf("%s", i ? ", " : " ");
            if (code)
                printf("%lld: %lld", code, count);
            else if (json_is_true(json_object_get(c, "not_recorded"))) /* ab -g */
                printf(_("not recorded: %lld"), count);
            else /* no status: no response, or a printed summary's */
                printf(_("none: %lld"), count);
        }
        printf("\n");
    } else if (json_is_object(json_object_get(s, "status_codes"))) {
        print_key(C_("summary", "status codes"));
        const char *k;
        int first = 1;
        json_object_foreach (json_object_get(s, "status_codes"), k, c) {
            printf("%s%s: %lld", first ? " " : ", ", k, (long long)json_integer_value(c));
            first = 0;
        }
        printf("\n");
    }
}

/* The first 10 error messages with their counts. */
static void print_errors(json_t *errs)
{
    if (!json_array_size(errs))
        return;
    printf("  %s\n", _("errors:"));
    size_t i;
    json_t *e;
    json_array_foreach (errs, i, e) {
        if (i == 10) {
            printf(_("    … %zu more (see --json)\n"), json_array_size(errs) - 10);
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

/* The nine column titles of the --by table, right-aligned by display width (a translation's
 * are wide). */
/* One row of the --by table's nine right-aligned cells, padded by display width. */
static void print_label_cells(const char *const cells[9])
{
    static const int widths[9] = {9, 8, 10, 10, 10, 10, 10, 10, 10};
    pr_buf b = PR_BUF_INIT;
    for (size_t k = 0; k < 9; k++) {
        pr_buf_puts(&b, " ");
        pr_cli_cell(&b, cells[k], widths[k]);
    }
    printf("%s\n", b.p ? b.p : "");
    pr_buf_dispose(&b);
}

/* The --by table: one row per label, the label column as wide as the longest (at most 60). */
static void print_label_table(json_t *r, json_t *labels)
{
    size_t w = 5, i;
    json_t *l;
    json_array_foreach (labels, i, l) {
        size_t n = pr_cli_text_width(jstr(l, "label"), (size_t)-1);
        if (n > w)
            w = n;
    }
    if (w > 60)
        w = 60;
    const char *by = jstr(r, "by"); /* "label", or the tag the rows are grouped by */
    json_t *grouping = json_object_get(r, "labels_grouping");
    if (grouping)
        printf("\n  %s: %s\n", strcmp(by, "label") ? by : C_("summary column", "label"),
               jstr(grouping, "text"));
    printf("\n  ");
    pr_cli_print_cell(strcmp(by, "label") ? by : C_("summary column", "label"), w);
    const char *head[] = {C_("summary", "requests"),
                          C_("summary column", "errors"),
                          C_("metric", "mean"),
                          "p50",
                          "p90",
                          "p99",
                          C_("metric", "max"),
                          C_("summary column", "req/s"),
                          C_("summary column", "ok/s")};
    print_label_cells(head);
    json_array_foreach (labels, i, l) {
        json_t *lat = json_object_get(l, "latency");
        printf("  ");
        pr_cli_print_cell(jstr(l, "label"), w);
        char count[24];
        snprintf(count, sizeof count, "%lld",
                 (long long)json_integer_value(json_object_get(l, "requests")));
        const char *cells[9] = {count,
                                jstr(l, "error_pct"),
                                jstr(lat, "mean"),
                                jstr(lat, "p50"),
                                jstr(lat, "p90"),
                                jstr(lat, "p99"),
                                jstr(lat, "max"),
                                jstr(l, "request_throughput"),
                                jstr(l, "throughput")};
        print_label_cells(cells); /* padded by display width: a µs cell lines up */
    }
}

/* "run 1: name  (tool, format)", merged runs and the load. */
static void print_run_title(json_t *r, json_t *s, int so)
{
    printf(_("run %lld: %s  (%s, %s)"), (long long)json_integer_value(json_object_get(r, "id")),
           jstr(r, "name"), jstr(r, "tool"), jstr(r, "format"));
    if (so)
        printf(_("  [summary only: the numbers in %s, no samples]"), jstr(s, "tool_report"));
    printf("\n");
    json_t *merged = json_object_get(r, "merged_runs");
    if (json_array_size(merged)) {
        print_key(C_("summary", "merged runs"));
        size_t i;
        json_t *v;
        json_array_foreach (merged, i, v)
            printf(" %lld", (long long)json_integer_value(v));
        printf("\n");
    }
    json_t *shards = json_object_get(json_object_get(r, "meta"), "shards");
    if (json_is_object(shards)) { /* a distributed run: which of its shards have landed */
        print_key(C_("summary", "shards"));
        printf(_(" %lld of %lld"), (long long)json_integer_value(json_object_get(shards, "landed")),
               (long long)json_integer_value(json_object_get(shards, "count")));
        json_t *missing = json_object_get(shards, "missing");
        size_t i;
        json_t *v;
        json_array_foreach (missing, i, v)
            printf("%s%lld", i ? " " : _(" (missing: "), (long long)json_integer_value(v));
        printf("%s\n", json_array_size(missing) ? ")" : "");
    }
    json_t *load = json_object_get(r, "load");
    if (json_is_string(json_object_get(load, "text"))) {
        print_key(C_("summary", "load"));
        printf(" %s\n", jstr(load, "text"));
    }
}

static void print_run(json_t *r, int by_label)
{
    json_t *s = json_object_get(r, "stats");
    int so = json_is_true(json_object_get(r, "summary_only"));
    print_run_title(r, s, so);
    print_headlines(s, so);
    print_latency_line(C_("summary", "latency"), s, "latency");
    if (!strcmp(jstr(s, "mode"), "histogram"))
        printf("  %13s %s\n", "",
               _("bounded mode: durations from histograms, percentiles within 0.1%"));
    if (json_is_string(json_object_get(s, "bounded_reason")))
        printf("  %13s (%s)\n", "", jstr(s, "bounded_reason"));
    print_latency_line(C_("summary", "connect"), s, "connect");
    print_latency_line(C_("summary", "ttfb"), s, "ttfb");
    print_latency_line(C_("summary", "receive"), s, "receive");
    print_latency_line(C_("summary", "send lateness"), s, "lateness");
    if (json_object_get(s, "bytes_in") || json_object_get(s, "bytes_out")) {
        print_key(C_("summary", "bytes"));
        printf(_(" in %s, out %s\n"), jstr(s, "bytes_in"), jstr(s, "bytes_out"));
    }
    json_t *ap = json_object_get(s, "apdex");
    if (ap && json_is_number(json_object_get(ap, "score"))) {
        print_key(C_("summary", "apdex"));
        printf(" %.3f (T %s)\n", json_number_value(json_object_get(ap, "score")),
               jstr(ap, "t")); /* --apdex-t */
    }
    print_status_codes(r, s);
    print_errors(json_object_get(r, "errors"));
    json_t *findings = json_object_get(r, "findings");
    if (json_array_size(findings)) {
        printf("  %s\n", _("findings:"));
        pr_findings_print(stdout, findings);
    }
    json_t *labels = json_object_get(r, "labels");
    if (by_label && json_array_size(labels))
        print_label_table(r, labels);
}

enum {
    FMT_TEXT,
    FMT_JSON,
    FMT_VEGETA,
    FMT_VEGETA_JSON,
    FMT_JMETER,
    FMT_AB,
    FMT_GATLING,
    FMT_LOCUST,
    FMT_K6,
    FMT_K6_JSON,
    NFMTS
};

/* ab's tables of a run: in ab's layout, or (ab_json, an array) as one JSON entry of the run. */
static void put_ab(const pr_run *run, const pr_ab_tables *t, json_t *ab_json)
{
    if (ab_json) {
        json_t *e = json_object();
        json_object_set_new(e, "id", json_integer(run->id));
        json_object_set_new(e, "name", json_string(run->name ? run->name : ""));
        json_object_set_new(e, "summary_only", json_boolean(run->summary_only));
        json_t *tables = pr_ab_stats_json(t);
        json_object_update(e, tables);
        json_decref(tables);
        json_array_append_new(ab_json, e);
        return;
    }
    pr_buf b = PR_BUF_INIT;
    pr_ab_stats_print(t, &b);
    pr_cli_put_text(stdout, b.p ? b.p : "");
    pr_buf_dispose(&b);
}

/* A tool's layout filled with the numbers a summary-only run's tool printed; what it did not
 * print is shown unknown ("-" or null). */
static int print_printed_format(const pr_run *run, int fmt, int jmeter_pct, json_t *ab_json)
{
    pr_error err;
    pr_error_clear(&err);
    if (jmeter_pct) {
        pr_cli_errorf("run %lld is summary-only: JMeter's own percentile estimator needs samples",
                      (long long)run->id);
        return PR_EXIT_ERROR;
    }
    if (fmt != FMT_VEGETA && fmt != FMT_VEGETA_JSON && fmt != FMT_JMETER && fmt != FMT_AB) {
        static const char *const what[NFMTS] = {[FMT_GATLING] = "Gatling's summary",
                                                [FMT_LOCUST] = "Locust's stats table",
                                                [FMT_K6] = "k6's summary",
                                                [FMT_K6_JSON] = "k6's summary"};
        pr_cli_errorf("run %lld is summary-only: it has no samples to compute %s from",
                      (long long)run->id, what[fmt] ? what[fmt] : "that layout");
        return PR_EXIT_ERROR;
    }
    if (fmt == FMT_VEGETA || fmt == FMT_VEGETA_JSON) {
        char *text =
            fmt == FMT_VEGETA ? pr_vegeta_summary_text(run) : pr_vegeta_summary_json_text(run);
        pr_cli_put_text(stdout, text);
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
        put_ab(run, &t, ab_json);
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
    static const char *const what[NFMTS] = {[FMT_AB] = "ab's tables",
                                            [FMT_JMETER] = "JMeter's statistics",
                                            [FMT_VEGETA] = "Vegeta's report",
                                            [FMT_VEGETA_JSON] = "Vegeta's report",
                                            [FMT_GATLING] = "Gatling's summary",
                                            [FMT_LOCUST] = "Locust's stats table",
                                            [FMT_K6] = "k6's summary",
                                            [FMT_K6_JSON] = "k6's summary"};
    fprintf(stderr,
            "perfreport: note: run %lld: %s: the percentiles of %s come from histograms "
            "(within 0.1%%)\n",
            (long long)run->id, why[0] ? why : "more samples than --exact-limit", what[fmt]);
    return 1;
}

static int vegeta_cb(const pr_sample *s, size_t n, void *payload)
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
    char *text =
        fmt == FMT_VEGETA ? pr_vegeta_stats_text(&vs, run) : pr_vegeta_stats_json_text(&vs, run);
    pr_cli_put_text(stdout, text);
    free(text);
    pr_vegeta_stats_dispose(&vs);
    return 0;
}

static int jmeter_cb(const pr_sample *s, size_t n, void *payload)
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

/* ab's tables of a run: exact, a column at a time (each value kept once), or in bounded mode
 * from histograms (pr_ab_stats_from_store). */
static int print_ab(pr_store *st, const pr_run *run, int bounded, json_t *ab_json)
{
    pr_error err;
    pr_error_clear(&err);
    pr_ab_tables t;
    if (pr_ab_stats_from_store(st, run, bounded, &t, &err) < 0) {
        pr_cli_print_error(&err);
        return PR_EXIT_ERROR;
    }
    put_ab(run, &t, ab_json);
    return 0;
}

static int k6_cb(const pr_sample *s, size_t n, void *payload)
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
    pr_cli_put_text(stdout, text); /* k6's check names come from the file */
    if (fmt == FMT_K6_JSON)
        putchar('\n');
    if (span == 2 && fmt == FMT_K6)
        printf("# the figures k6 printed in its summary of this run where it has them, the "
               "rest from the samples\n");
    else if (span && fmt == FMT_K6)
        printf("# rates over the samples' span (first start to last end): the run has no "
               "k6 test duration\n");
    free(text);
    json_decref(data);
    return 0;
}

static int gatling_cb(const pr_sample *s, size_t n, void *payload)
{
    pr_gatling_add(payload, s, n);
    return 0;
}

static int locust_cb(const pr_sample *s, size_t n, void *payload)
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
                             const pr_report_opts *o, json_t *ab_json)
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
        pr_cli_put_text(stdout, text); /* check and group names come from the file */
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
    /* ab's report ingested with its -g or -e file: ab's tables as ab printed them (its µs
     * figures, which the whole-ms samples cannot give back) */
    const json_t *ab_ct =
        json_object_get(json_object_get(run->summary, "tool"), "Connection Times (ms)");
    if (run->summary_only || (fmt == FMT_AB && json_is_object(ab_ct))) {
        int rc = print_printed_format(run, fmt, pct_rule == 1, ab_json);
        pr_run_free(run);
        return rc;
    }
    int bounded = tool_bounded(o, run, fmt);
    if (fmt == FMT_VEGETA || fmt == FMT_VEGETA_JSON || fmt == FMT_JMETER || fmt == FMT_AB) {
        int rc = fmt == FMT_JMETER ? print_jmeter(st, run, pct_rule, o, bounded)
                 : fmt == FMT_AB   ? print_ab(st, run, bounded, ab_json)
                                   : print_vegeta(st, run, fmt, bounded);
        pr_run_free(run);
        return rc;
    }
    int rc = fmt >= FMT_K6 ? print_k6(st, run, fmt, pct_rule == 2, bounded)
                           : print_peer(st, run, fmt, bounded);
    pr_run_free(run);
    return rc;
}

/* The long options without a short form. */
enum {
    OPT_FROM = 256,
    OPT_TO,
    OPT_SKIP_WARMUP,
    OPT_INTERVAL,
    OPT_APDEX_T,
    OPT_APDEX_F,
    OPT_EXACT_LIMIT,
    OPT_NO_FINDINGS,
    OPT_TOP,
    OPT_PATTERNS
};

/* What the options ask for. */
typedef struct summary_args {
    const char *store, *format;
    int fmt, json, by_label, merge;
    int pct_rule; /* print_tool_format's percentile rule: 1 JMeter's, 2 k6's, 0 exact */
    int ab_pct, apdex_f_set;
    /* what was asked for, for check_options: an explicit --format, --percentiles given (how
     * many times), --interval, --top or --patterns, --apdex-t or --apdex-f */
    int format_set, pct_given, interval_set, rows_set, apdex_set;
    pr_report_opts o;
    char window[128]; /* the window options as typed, for the warning on empty windows */
} summary_args;

static int parse_percentiles(summary_args *a, const char *arg)
{
    a->pct_given++;
    if (!strcmp(arg, "jmeter"))
        a->pct_rule = 1;
    else if (!strcmp(arg, "k6"))
        a->pct_rule = 2;
    else if (!strcmp(arg, "ab"))
        a->ab_pct = 1;
    else if (pr_report_parse_percentiles(&a->o, arg) < 0) {
        pr_cli_errorf("--percentiles expects a list like 50,90,99.9 (at most %d)",
                      PR_MAX_PERCENTILES);
        return PR_EXIT_USAGE;
    }
    return 0;
}

static int parse_opt(summary_args *a, int c, const char *arg)
{
    pr_report_opts *o = &a->o;
    switch (c) {
    case 'S': a->store = arg; return 0;
    case 'j': a->json = 1; return 0;
    case 'm': a->merge = 1; return 0;
    case 'f': a->format = arg, a->format_set = 1; return 0;
    case 'p': return parse_percentiles(a, arg);
    case 'b':
        if (pr_report_parse_by(o, arg) < 0) {
            pr_cli_errorf("--by expects up to 4 of label, url, method, status, error, thread, "
                          "tag:KEY, url-pattern, label-pattern (e.g. --by url,status)");
            return PR_EXIT_USAGE;
        }
        a->by_label = 1;
        return 0;
    case OPT_FROM:
        pr_cli_window_add(a->window, sizeof a->window, "--from", arg);
        return pr_cli_parse_duration("--from", arg, 1000000000, &o->from_ns);
    case OPT_TO:
        pr_cli_window_add(a->window, sizeof a->window, "--to", arg);
        return pr_cli_parse_duration("--to", arg, 1000000000, &o->to_ns);
    case OPT_SKIP_WARMUP:
        pr_cli_window_add(a->window, sizeof a->window, "--skip-warmup", arg);
        return pr_cli_parse_duration("--skip-warmup", arg, 1000000000, &o->from_ns);
    case OPT_INTERVAL:
        a->interval_set = 1;
        return pr_cli_parse_duration("--interval", arg, 1000000000, &o->interval_ns);
    case OPT_APDEX_T:
        a->apdex_set = 1;
        return pr_cli_parse_duration("--apdex-t", arg, 1000000, &o->apdex_t_ns);
    case OPT_APDEX_F:
        a->apdex_f_set = a->apdex_set = 1;
        return pr_cli_parse_duration("--apdex-f", arg, 1000000, &o->apdex_f_ns);
    case OPT_NO_FINDINGS: o->findings = 0; return 0;
    case OPT_TOP:
        a->rows_set = 1;
        return pr_cli_rows_option(o, "--top", arg) < 0 ? PR_EXIT_USAGE : 0;
    case OPT_PATTERNS:
        a->rows_set = 1;
        return pr_cli_rows_option(o, "--patterns", arg) < 0 ? PR_EXIT_USAGE : 0;
    case OPT_EXACT_LIMIT:
        if (pr_lex_i64(arg, strlen(arg), &o->exact_limit) < 0 || o->exact_limit < 0) {
            pr_cli_errorf("--exact-limit expects a sample count");
            return PR_EXIT_USAGE;
        }
        return 0;
    default: return PR_EXIT_USAGE;
    }
}

/* What does not apply to a tool's own layout, which is computed over the whole of one run:
 * the option's name, or NULL. */
static const char *not_for_tool(const summary_args *a)
{
    return a->by_label                            ? "--by"
           : a->merge                             ? "--merge"
           : a->window[0]                         ? "--from/--to/--skip-warmup"
           : a->interval_set                      ? "--interval"
           : a->rows_set                          ? "--top/--patterns"
           : a->o.percentiles_set                 ? "--percentiles LIST"
           : a->apdex_set && a->fmt != FMT_JMETER ? "--apdex-t/--apdex-f"
                                                  : NULL;
}

/* --json with the output format: the tool's JSON layout where it has one (Vegeta's JSON
 * report, k6's handleSummary data, ab's tables as JSON), else refused; then the options that
 * the chosen output cannot honour are refused rather than ignored. */
static int check_json(summary_args *a)
{
    if (a->json && a->format_set && a->fmt == FMT_TEXT) {
        pr_cli_errorf("--json and --format text ask for two outputs: give one");
        return PR_EXIT_USAGE;
    }
    if (a->json && a->fmt == FMT_VEGETA)
        a->fmt = FMT_VEGETA_JSON;
    else if (a->json && a->fmt == FMT_K6)
        a->fmt = FMT_K6_JSON;
    else if (a->json && (a->fmt == FMT_GATLING || a->fmt == FMT_LOCUST)) {
        pr_cli_errorf("--format %s has no JSON form (the tool's console summary is text); "
                      "--json alone gives perfreport's model",
                      a->format);
        return PR_EXIT_USAGE;
    }
    const char *bad = a->fmt >= FMT_VEGETA ? not_for_tool(a) : NULL;
    if (bad) {
        pr_cli_errorf("%s does not apply to %s%s: it is the tool's own layout of each whole "
                      "run (use the text or --json output)",
                      bad, a->ab_pct ? "--percentiles ab" : "--format ",
                      a->ab_pct ? "" : a->format);
        return PR_EXIT_USAGE;
    }
    if (a->fmt < FMT_VEGETA && !a->json && !a->by_label && a->rows_set) {
        pr_cli_errorf("--top and --patterns shape the table of --by (or the labels of --json): "
                      "give --by");
        return PR_EXIT_USAGE;
    }
    return 0;
}

/* The output format and how it goes with --percentiles. */
static int check_format(summary_args *a)
{
    static const char *const fmts[NFMTS] = {"text", "json",    "vegeta", "vegeta-json", "jmeter",
                                            "ab",   "gatling", "locust", "k6",          "k6-json"};
    a->fmt = -1;
    for (int i = 0; i < NFMTS; i++)
        if (!strcmp(a->format, fmts[i]))
            a->fmt = i;
    if (a->fmt < 0) {
        pr_cli_errorf("--format: unknown output format '%s' (text, json, vegeta, vegeta-json, "
                      "jmeter, ab, gatling, locust, k6, k6-json)",
                      a->format);
        return PR_EXIT_USAGE;
    }
    if (a->pct_given > 1) {
        pr_cli_errorf("--percentiles was given %d times: give one list or one tool's rule",
                      a->pct_given);
        return PR_EXIT_USAGE;
    }
    if (a->pct_rule == 1 && a->fmt != FMT_JMETER) {
        pr_cli_errorf("--percentiles jmeter goes with --format jmeter (JMeter's statistics.json)");
        return PR_EXIT_USAGE;
    }
    if (a->pct_rule == 2 && a->fmt < FMT_K6) {
        pr_cli_errorf("--percentiles k6 goes with --format k6 (k6's end-of-test summary)");
        return PR_EXIT_USAGE;
    }
    if (a->ab_pct && a->format_set && a->fmt != FMT_AB && a->fmt != FMT_JSON) {
        pr_cli_errorf("--percentiles ab goes with --format ab (ab's tables) or --json (the same "
                      "tables as JSON), not --format %s",
                      a->format);
        return PR_EXIT_USAGE;
    }
    if (a->fmt == FMT_JSON)
        a->json = 1;
    if (a->ab_pct) /* ab's rules are its tables */
        a->fmt = FMT_AB;
    return check_json(a);
}

static int parse_args(summary_args *a, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"store", required_argument, NULL, 'S'},
        {"json", no_argument, NULL, 'j'},
        {"by", required_argument, NULL, 'b'},
        {"percentiles", required_argument, NULL, 'p'},
        {"merge", no_argument, NULL, 'm'},
        {"format", required_argument, NULL, 'f'},
        {"from", required_argument, NULL, OPT_FROM},
        {"to", required_argument, NULL, OPT_TO},
        {"skip-warmup", required_argument, NULL, OPT_SKIP_WARMUP},
        {"interval", required_argument, NULL, OPT_INTERVAL},
        {"apdex-t", required_argument, NULL, OPT_APDEX_T},
        {"apdex-f", required_argument, NULL, OPT_APDEX_F},
        {"exact-limit", required_argument, NULL, OPT_EXACT_LIMIT},
        {"no-findings", no_argument, NULL, OPT_NO_FINDINGS},
        {"top", required_argument, NULL, OPT_TOP},
        {"patterns", required_argument, NULL, OPT_PATTERNS},
        {NULL, 0, NULL, 0}};
    memset(a, 0, sizeof *a);
    a->format = "text";
    pr_report_opts_init(&a->o);
    int c, rc = 0;
    optind = 1;
    while (rc == 0 && (c = getopt_long(argc, argv, "jb:p:mf:", longopts, NULL)) != -1)
        rc = parse_opt(a, c, optarg);
    if (rc)
        return rc;
    if (!a->apdex_f_set && a->o.apdex_t_ns != 500000000)
        a->o.apdex_f_ns = 4 * a->o.apdex_t_ns;
    return check_format(a);
}

/* Each run in a tool's own layout; ab's tables with --json as one document
 * {schema "perfreport-ab", version, runs [{id, name, summary_only, …pr_ab_stats_json}]}. */
static int print_tool_formats(const summary_args *a, char **refs, int nrefs)
{
    pr_cli_runs sel;
    int rc = pr_cli_runs_open(&sel, a->store, refs, nrefs, 0);
    json_t *ab_json = a->fmt == FMT_AB && a->json ? json_array() : NULL;
    for (size_t i = 0; rc == 0 && i < sel.n; i++) {
        if (i && a->fmt != FMT_VEGETA_JSON && !ab_json)
            printf("\n");
        rc = print_tool_format(sel.st, sel.ids[i], a->fmt, a->pct_rule, &a->o, ab_json);
    }
    pr_cli_runs_close(&sel);
    if (rc == 0 && ab_json) {
        json_t *doc = json_object();
        json_object_set_new(doc, "schema", json_string("perfreport-ab"));
        json_object_set_new(doc, "version", json_integer(1));
        json_object_set_new(doc, "runs", json_incref(ab_json));
        rc = pr_cli_print_json(doc, "-");
        json_decref(doc);
    }
    json_decref(ab_json);
    return rc;
}

static int run(int argc, char **argv)
{
    summary_args a;
    int rc = parse_args(&a, argc, argv);
    if (rc)
        return rc;
    if (a.fmt >= FMT_VEGETA)
        return print_tool_formats(&a, argv + optind, argc - optind);
    /* findings read the time series and histogram, so they are always computed; text output
     * just does not print them */
    json_t *doc = NULL;
    rc = pr_cli_report(a.store, argv + optind, argc - optind, a.merge, &a.o, &doc);
    if (rc == 0)
        pr_cli_warn_windows(doc, a.window);
    if (rc == 0 && a.json) { /* the text says it in the run's lines */
        pr_cli_warn_bounded(doc);
        rc = pr_cli_print_json(doc, "-");
    } else if (rc == 0) {
        size_t i;
        json_t *r;
        pr_text_visible_json(doc, 0); /* names, labels, errors come from the files */
        json_array_foreach (json_object_get(doc, "runs"), i, r) {
            if (i)
                printf("\n");
            print_run(r, a.by_label);
        }
    }
    json_decref(doc);
    return rc;
}

const pr_command pr_cmd_summary = {
    "summary", "summary [OPTIONS] [RUN…]", "statistics of runs (text table or --json)",
    "Prints the statistics of each RUN (an id, a name or 'last'; default: every run):\n"
    "requests, duration, rate, throughput, success ratio, latency min/mean/percentiles/max\n"
    "(exact, nearest rank over all samples), bytes, status codes and errors.\n\n"
    "options:\n"
    "      --json               the report model as JSON (docs/templates.md); with --format\n"
    "                           vegeta, k6 or ab (--percentiles ab) that layout as JSON\n"
    "  -b, --by DIMS            a table by label, url, method, status, error, thread or\n"
    "                           tag:KEY (a run tag; with --merge), up to 4 combined: url,status;\n"
    "                           url-pattern, label-pattern: ids in paths as {id}\n"
    "      --top N              the N labels with most requests, then one 'other' row\n"
    "                           (default 100; 0: every label)\n"
    "      --patterns WHEN      group labels and URLs by pattern: auto (past 1000 distinct\n"
    "                           values, the default), always, never\n"
    "  -p, --percentiles LIST   e.g. 50,90,99,99.9,99.99 (default 50,90,95,99,99.9);\n"
    "                           'jmeter' (with --format jmeter): JMeter's own estimator over\n"
    "                           the last 20,000 samples per label; 'ab': ab's rules (--format "
    "ab);\n"
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
    "                           (histograms, percentiles within 0.1%; default: as many as\n"
    "                           half the memory available holds at 10 bytes a sample)\n"
    "      --store PATH         store file\n\n"
    "example:\n  perfreport summary --by label --percentiles 50,99,99.9 last\n",
    run};
