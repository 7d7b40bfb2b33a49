/* `perfreport check`: CI gates — thresholds on run (or per-label) statistics, a verdict table,
 * JUnit XML and a Markdown verdict; exit code 3 when a threshold fails. */
#include "analysis/report.h"
#include "analysis/threshold.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "model/buf.h"
#include "model/lex.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "render/markdown.h"
#include "render/mustache.h"
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

typedef struct verdict {
    char run[128];
    char label[256];
    const pr_threshold *t;
    double value;
    int64_t res_ns; /* the clock resolution of the run's durations */
    int pass;
} verdict;

static void xml_escape(pr_buf *b, const char *s)
{
    pr_html_escape(s, strlen(s), b);
}

static int read_thresholds(const char *path, pr_threshold **ts, size_t *n, size_t *cap)
{
    pr_error err;
    if (pr_threshold_read_file(path, ts, n, cap, &err) < 0) {
        pr_cli_print_error(&err);
        return -1;
    }
    return 0;
}

/* Parses one --max/--min argument into ts[*n]. */
static int add_threshold(const char *arg, int is_max, pr_threshold **ts, size_t *n, size_t *cap)
{
    pr_error err;
    *ts = pr_xgrow(*ts, cap, *n + 1, sizeof **ts);
    if (pr_threshold_parse(&(*ts)[*n], arg, is_max, &err) < 0) {
        pr_cli_errorf("%s", err.msg);
        return -1;
    }
    (*n)++;
    return 0;
}

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"store", required_argument, NULL, 'S'},   {"max", required_argument, NULL, 'M'},
        {"min", required_argument, NULL, 'm'},     {"thresholds", required_argument, NULL, 'f'},
        {"by", required_argument, NULL, 'b'},      {"junit", required_argument, NULL, 'j'},
        {"markdown", required_argument, NULL, 'k'}, {"skip-warmup", required_argument, NULL, 'w'},
        {NULL, 0, NULL, 0}};
    const char *store = NULL, *junit = NULL, *markdown = NULL;
    pr_threshold *ts = NULL;
    size_t nts = 0, cap = 0;
    int by_label = 0, c;
    pr_report_opts o;
    pr_report_opts_init(&o);
    o.timeseries = 0;
    o.histogram = 0;
    o.findings = 0;
    static const double pcts[] = {50, 75, 90, 95, 99, 99.9, 99.99};
    char window[96] = ""; /* --skip-warmup as typed, for the warning on empty windows */
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'S': store = optarg; break;
        case 'M':
        case 'm':
            if (add_threshold(optarg, c == 'M', &ts, &nts, &cap) < 0) {
                free(ts);
                return PR_EXIT_USAGE;
            }
            break;
        case 'f':
            if (read_thresholds(optarg, &ts, &nts, &cap) < 0) {
                free(ts);
                return PR_EXIT_USAGE;
            }
            break;
        case 'b':
            if (strcmp(optarg, "label")) {
                pr_cli_errorf("--by: only 'label' is supported");
                free(ts);
                return PR_EXIT_USAGE;
            }
            by_label = 1;
            break;
        case 'j': junit = optarg; break;
        case 'k': markdown = optarg; break;
        case 'w':
            if (pr_lex_duration(optarg, strlen(optarg), 1000000000, &o.from_ns) < 0) {
                pr_cli_errorf("--skip-warmup expects a duration");
                free(ts);
                return PR_EXIT_USAGE;
            }
            snprintf(window, sizeof window, "--skip-warmup %s", optarg);
            break;
        default: free(ts); return PR_EXIT_USAGE;
        }
    }
    if (nts == 0) {
        pr_cli_errorf("check: no thresholds (--max p99=250ms, --min throughput=200/s, --thresholds FILE)");
        free(ts);
        return PR_EXIT_USAGE;
    }
    /* the percentiles the thresholds name, plus the usual ones */
    o.npercentiles = 0;
    for (size_t i = 0; i < sizeof pcts / sizeof pcts[0]; i++)
        o.percentiles[o.npercentiles++] = pcts[i];
    pr_threshold_add_percentiles(&o, ts, nts);
    json_t *doc = NULL;
    int rc = pr_cli_report(store, argv + optind, argc - optind, 0, &o, &doc);
    if (rc) {
        free(ts);
        return rc;
    }
    pr_text_visible_json(doc, 0); /* every output of the verdicts names runs and labels */
    pr_cli_warn_windows(doc, window);
    /* evaluate */
    verdict *vs = NULL;
    size_t nv = 0, vcap = 0, failed = 0;
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(doc, "runs"), i, r) {
        json_t *groups[1024];
        const char *names[1024];
        size_t ng = 0;
        groups[ng] = json_object_get(r, "stats");
        names[ng++] = "";
        if (by_label) {
            size_t k;
            json_t *l;
            json_array_foreach(json_object_get(r, "labels"), k, l) {
                if (ng == 1024)
                    break;
                groups[ng] = l;
                names[ng++] = json_string_value(json_object_get(l, "label"));
            }
        }
        for (size_t g = 0; g < ng; g++) {
            for (size_t t = 0; t < nts; t++) {
                vs = pr_xgrow(vs, &vcap, nv + 1, sizeof *vs);
                verdict *v = &vs[nv++];
                snprintf(v->run, sizeof v->run, "%s", json_string_value(json_object_get(r, "name")));
                snprintf(v->label, sizeof v->label, "%s", names[g] ? names[g] : "");
                v->t = &ts[t];
                v->value = pr_threshold_value(groups[g], ts[t].metric);
                v->res_ns = pr_report_latency_res(groups[g]);
                v->pass = pr_threshold_passes(&ts[t], v->value); /* unknown never passes */
                failed += !v->pass;
            }
        }
    }
    /* verdict table, columns as wide as their longest cell (labels capped at 60) */
    int wr = 3, wl = 5, wt = 9;
    for (size_t k = 0; k < nv; k++) {
        int a = (int)strlen(vs[k].run), b = (int)strlen(vs[k].label[0] ? vs[k].label : "(all)"),
            t = (int)strlen(vs[k].t->text);
        wr = a > wr ? a : wr;
        wl = b > wl ? b : wl;
        wt = t > wt ? t : wt;
    }
    wl = wl > 60 ? 60 : wl;
    printf("%-4s  %-*s  %-*s  %-*s  %10s\n", "", wr, "RUN", wl, "LABEL", wt, "THRESHOLD", "VALUE");
    for (size_t k = 0; k < nv; k++) {
        char val[32];
        pr_threshold_human(vs[k].t, vs[k].value, vs[k].res_ns, val);
        printf("%-4s  %-*s  %-*.*s  %-*s  %10s\n", vs[k].pass ? "ok" : "FAIL", wr, vs[k].run, wl, wl,
               vs[k].label[0] ? vs[k].label : "(all)", wt, vs[k].t->text, val);
    }
    printf("check: %zu of %zu thresholds met, %zu missed\n", nv - failed, nv, failed);
    if (junit) {
        pr_buf b = PR_BUF_INIT;
        pr_buf_printf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                          "<testsuites name=\"perfreport check\" tests=\"%zu\" failures=\"%zu\">\n",
                      nv, failed);
        for (size_t k = 0; k < nv; k++) {
            if (k == 0 || strcmp(vs[k].run, vs[k - 1].run)) {
                if (k)
                    pr_buf_puts(&b, "  </testsuite>\n");
                size_t tests = 0, fails = 0;
                for (size_t q = k; q < nv && !strcmp(vs[q].run, vs[k].run); q++) {
                    tests++;
                    fails += !vs[q].pass;
                }
                pr_buf_puts(&b, "  <testsuite name=\"");
                xml_escape(&b, vs[k].run);
                pr_buf_printf(&b, "\" tests=\"%zu\" failures=\"%zu\">\n", tests, fails);
            }
            char val[32];
            pr_threshold_human(vs[k].t, vs[k].value, vs[k].res_ns, val);
            pr_buf_puts(&b, "    <testcase classname=\"");
            xml_escape(&b, vs[k].label[0] ? vs[k].label : "(all)");
            pr_buf_puts(&b, "\" name=\"");
            xml_escape(&b, vs[k].t->text);
            pr_buf_puts(&b, "\">");
            if (!vs[k].pass) {
                pr_buf_puts(&b, "<failure message=\"");
                xml_escape(&b, vs[k].t->metric);
                pr_buf_puts(&b, " is ");
                xml_escape(&b, val);
                pr_buf_puts(&b, ", limit ");
                xml_escape(&b, vs[k].t->text);
                pr_buf_puts(&b, "\"/>");
            }
            pr_buf_puts(&b, "</testcase>\n");
        }
        if (nv)
            pr_buf_puts(&b, "  </testsuite>\n");
        pr_buf_puts(&b, "</testsuites>\n");
        if (pr_cli_write_file(junit, b.p, b.len) < 0)
            rc = PR_EXIT_ERROR;
        pr_buf_dispose(&b);
    }
    if (markdown) {
        pr_buf b = PR_BUF_INIT;
        pr_buf_printf(&b, "### Load test gate: %s\n\n%zu of %zu thresholds met, %zu missed\n\n",
                      failed ? "❌ failed" : "✅ passed", nv - failed, nv, failed);
        pr_buf_puts(&b, "| | Run | Label | Threshold | Value |\n|---|---|---|---|---:|\n");
        for (size_t k = 0; k < nv; k++) {
            char val[32];
            pr_threshold_human(vs[k].t, vs[k].value, vs[k].res_ns, val);
            pr_buf_printf(&b, "| %s | ", vs[k].pass ? "✅" : "❌");
            const char *cells[] = {vs[k].run, vs[k].label[0] ? vs[k].label : "(all)", vs[k].t->text};
            for (int q = 0; q < 3; q++) {
                pr_mustache_escape(cells[q], strlen(cells[q]), PR_ESC_MARKDOWN, &b);
                pr_buf_puts(&b, " | ");
            }
            pr_buf_printf(&b, "%s |\n", val);
        }
        if (pr_cli_write_file(markdown, b.p, b.len) < 0)
            rc = PR_EXIT_ERROR;
        pr_buf_dispose(&b);
    }
    free(vs);
    free(ts);
    json_decref(doc);
    if (fflush(stdout) != 0)
        rc = PR_EXIT_ERROR;
    return rc ? rc : failed ? PR_EXIT_THRESHOLD : PR_EXIT_OK;
}

const pr_command pr_cmd_check = {
    "check", "check [--max METRIC=V]… [--min METRIC=V]… [--thresholds FILE] [RUN…]",
    "CI gate: fail (exit 3) when a run misses a threshold",
    "Checks each RUN (default: every run) against thresholds and prints a verdict table;\n"
    "exit code 3 when one fails. An unknown value fails its threshold.\n\n"
    "metrics: pNN (p50, p99, p99.9…), mean, min, max, stdev (durations: 250ms, 1.5s; bare\n"
    "numbers are ms), error_ratio, success_ratio, apdex (1%, 0.01), throughput, rate (200/s),\n"
    "requests, errors.\n\n"
    "options:\n"
    "      --max METRIC=VALUE   the metric must be <= VALUE (repeatable)\n"
    "      --min METRIC=VALUE   the metric must be >= VALUE (repeatable)\n"
    "      --thresholds FILE    lines 'max p99=250ms' / 'min throughput=200/s', # comments\n"
    "      --by label           also check every label\n"
    "      --junit FILE         JUnit XML: a test suite per run, a test case per threshold\n"
    "      --markdown FILE      a short verdict for CI job summaries / PR comments\n"
    "      --skip-warmup D      leave out the first D of each run\n\n"
    "example:\n"
    "  perfreport check --max p99=250ms --max error_ratio=1% --min throughput=200/s \\\n"
    "                   --junit perf.xml last\n",
    run};
