/* `perfreport check`: CI gates — thresholds on run (or per-label) statistics, a verdict table,
 * JUnit XML and a Markdown verdict; exit code 3 when a threshold fails. */
#include "analysis/report.h"
#include "analysis/threshold.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "model/buf.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "render/markdown.h"
#include "render/mustache.h"
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* The verdict of one threshold (analysis/threshold.h, pr_threshold_verdict): its run's name
 * and the entry {text, metric, label, value, pass}. */
typedef struct verdict {
    const char *run, *label, *text, *metric, *value;
    int pass;
} verdict;

/* Every threshold checked, in order: the runs' verdict lists flattened (*nv entries). */
static verdict *verdicts(json_t *doc, size_t *nv, size_t *failed)
{
    size_t cap = 0, i, k;
    json_t *r, *e;
    verdict *vs = NULL;
    *nv = *failed = 0;
    json_array_foreach (json_object_get(doc, "runs"), i, r) {
        const char *name = json_string_value(json_object_get(r, "name"));
        json_array_foreach (json_object_get(json_object_get(r, "verdict"), "thresholds"), k, e) {
            vs = pr_xgrow(vs, &cap, *nv + 1, sizeof *vs);
            const char *label = json_string_value(json_object_get(e, "label"));
            vs[*nv] = (verdict){name ? name : "",
                                label ? label : "(all)",
                                json_string_value(json_object_get(e, "text")),
                                json_string_value(json_object_get(e, "metric")),
                                json_string_value(json_object_get(e, "value")),
                                json_is_true(json_object_get(e, "pass"))};
            *failed += !vs[(*nv)++].pass;
        }
    }
    return vs;
}

/* The verdict table, columns as wide as their longest cell (labels capped at 60). */
static void print_table(const verdict *vs, size_t nv, size_t failed)
{
    int wr = 3, wl = 5, wt = 9;
    for (size_t k = 0; k < nv; k++) {
        int a = (int)strlen(vs[k].run), b = (int)strlen(vs[k].label), t = (int)strlen(vs[k].text);
        wr = a > wr ? a : wr;
        wl = b > wl ? b : wl;
        wt = t > wt ? t : wt;
    }
    wl = wl > 60 ? 60 : wl;
    printf("%-4s  %-*s  %-*s  %-*s  %10s\n", "", wr, "RUN", wl, "LABEL", wt, "THRESHOLD", "VALUE");
    for (size_t k = 0; k < nv; k++)
        printf("%-4s  %-*s  %-*.*s  %-*s  %10s\n", vs[k].pass ? "ok" : "FAIL", wr, vs[k].run, wl,
               wl, vs[k].label, wt, vs[k].text, vs[k].value);
    printf("check: %zu of %zu thresholds met, %zu missed\n", nv - failed, nv, failed);
}

static void xml_escape(pr_buf *b, const char *s)
{
    pr_html_escape(s, strlen(s), b);
}

/* JUnit XML: a test suite per run (consecutive verdicts of one run name), a test case per
 * threshold. */
static void junit_xml(const verdict *vs, size_t nv, size_t failed, pr_buf *b)
{
    pr_buf_printf(b,
                  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                  "<testsuites name=\"perfreport check\" tests=\"%zu\" failures=\"%zu\">\n",
                  nv, failed);
    for (size_t k = 0; k < nv; k++) {
        if (k == 0 || strcmp(vs[k].run, vs[k - 1].run)) {
            if (k)
                pr_buf_puts(b, "  </testsuite>\n");
            size_t tests = 0, fails = 0;
            for (size_t q = k; q < nv && !strcmp(vs[q].run, vs[k].run); q++) {
                tests++;
                fails += !vs[q].pass;
            }
            pr_buf_puts(b, "  <testsuite name=\"");
            xml_escape(b, vs[k].run);
            pr_buf_printf(b, "\" tests=\"%zu\" failures=\"%zu\">\n", tests, fails);
        }
        pr_buf_puts(b, "    <testcase classname=\"");
        xml_escape(b, vs[k].label);
        pr_buf_puts(b, "\" name=\"");
        xml_escape(b, vs[k].text);
        pr_buf_puts(b, "\">");
        if (!vs[k].pass) {
            pr_buf_puts(b, "<failure message=\"");
            xml_escape(b, vs[k].metric);
            pr_buf_puts(b, " is ");
            xml_escape(b, vs[k].value);
            pr_buf_puts(b, ", limit ");
            xml_escape(b, vs[k].text);
            pr_buf_puts(b, "\"/>");
        }
        pr_buf_puts(b, "</testcase>\n");
    }
    if (nv)
        pr_buf_puts(b, "  </testsuite>\n");
    pr_buf_puts(b, "</testsuites>\n");
}

/* A short Markdown verdict for CI job summaries and pull-request comments. */
static void markdown_verdict(const verdict *vs, size_t nv, size_t failed, pr_buf *b)
{
    pr_buf_printf(b, "### Load test gate: %s\n\n%zu of %zu thresholds met, %zu missed\n\n",
                  failed ? "❌ failed" : "✅ passed", nv - failed, nv, failed);
    pr_buf_puts(b, "| | Run | Label | Threshold | Value |\n|---|---|---|---|---:|\n");
    for (size_t k = 0; k < nv; k++) {
        pr_buf_printf(b, "| %s | ", vs[k].pass ? "✅" : "❌");
        const char *cells[] = {vs[k].run, vs[k].label, vs[k].text};
        for (int q = 0; q < 3; q++) {
            pr_mustache_escape(cells[q], strlen(cells[q]), PR_ESC_MARKDOWN, b);
            pr_buf_puts(b, " | ");
        }
        pr_buf_printf(b, "%s |\n", vs[k].value);
    }
}

/* Writes the verdicts in one of the file formats to path. */
static int write_verdicts(void (*fmt)(const verdict *, size_t, size_t, pr_buf *), const verdict *vs,
                          size_t nv, size_t failed, const char *path)
{
    pr_buf b = PR_BUF_INIT;
    fmt(vs, nv, failed, &b);
    int rc = pr_cli_write_file(path, b.p, b.len) < 0 ? PR_EXIT_ERROR : 0;
    pr_buf_dispose(&b);
    return rc;
}

typedef struct check_args {
    const char *store, *junit, *markdown;
    pr_threshold *ts;
    size_t nts, cap;
    int by_label;
    pr_report_opts o;
    char window[96]; /* --skip-warmup as typed, for the warning on empty windows */
} check_args;

static int parse_opt(check_args *a, int c, const char *arg)
{
    switch (c) {
    case 'S': a->store = arg; return 0;
    case 'M': return pr_cli_add_thresholds(&a->ts, &a->nts, &a->cap, 'x', arg);
    case 'm': return pr_cli_add_thresholds(&a->ts, &a->nts, &a->cap, 'n', arg);
    case 'f': return pr_cli_add_thresholds(&a->ts, &a->nts, &a->cap, 'f', arg);
    case 'j': a->junit = arg; return 0;
    case 'k': a->markdown = arg; return 0;
    case 'b':
        if (strcmp(arg, "label")) {
            pr_cli_errorf("--by: only 'label' is supported");
            return PR_EXIT_USAGE;
        }
        a->by_label = 1;
        return 0;
    case 'w':
        pr_cli_window_add(a->window, sizeof a->window, "--skip-warmup", arg);
        return pr_cli_parse_duration("--skip-warmup", arg, 1000000000, &a->o.from_ns);
    default: return PR_EXIT_USAGE;
    }
}

static int parse_args(check_args *a, int argc, char **argv)
{
    static const struct option longopts[] = {{"store", required_argument, NULL, 'S'},
                                             {"max", required_argument, NULL, 'M'},
                                             {"min", required_argument, NULL, 'm'},
                                             {"thresholds", required_argument, NULL, 'f'},
                                             {"by", required_argument, NULL, 'b'},
                                             {"junit", required_argument, NULL, 'j'},
                                             {"markdown", required_argument, NULL, 'k'},
                                             {"skip-warmup", required_argument, NULL, 'w'},
                                             {NULL, 0, NULL, 0}};
    memset(a, 0, sizeof *a);
    pr_report_opts_init(&a->o);
    a->o.timeseries = 0;
    a->o.histogram = 0;
    a->o.findings = 0;
    int c, rc = 0;
    optind = 1;
    while (rc == 0 && (c = getopt_long(argc, argv, "", longopts, NULL)) != -1)
        rc = parse_opt(a, c, optarg);
    if (rc == 0 && a->nts == 0) {
        pr_cli_errorf(
            "check: no thresholds (--max p99=250ms, --min throughput=200/s, --thresholds FILE)");
        rc = PR_EXIT_USAGE;
    }
    /* the percentiles the thresholds name, plus the usual ones */
    static const double pcts[] = {50, 75, 90, 95, 99, 99.9, 99.99};
    a->o.npercentiles = 0;
    for (size_t i = 0; i < sizeof pcts / sizeof pcts[0]; i++)
        a->o.percentiles[a->o.npercentiles++] = pcts[i];
    pr_threshold_add_percentiles(&a->o, a->ts, a->nts);
    return rc;
}

static int run(int argc, char **argv)
{
    check_args a;
    json_t *doc = NULL;
    int rc = parse_args(&a, argc, argv);
    if (rc == 0)
        rc = pr_cli_report(a.store, argv + optind, argc - optind, 0, &a.o, &doc);
    if (rc) {
        free(a.ts);
        return rc;
    }
    pr_text_visible_json(doc, 0); /* every output of the verdicts names runs and labels */
    pr_cli_warn_windows(doc, a.window);
    pr_threshold_verdict(doc, a.ts, a.nts, a.by_label);
    size_t nv, failed;
    verdict *vs = verdicts(doc, &nv, &failed);
    print_table(vs, nv, failed);
    if (a.junit && write_verdicts(junit_xml, vs, nv, failed, a.junit))
        rc = PR_EXIT_ERROR;
    if (a.markdown && write_verdicts(markdown_verdict, vs, nv, failed, a.markdown))
        rc = PR_EXIT_ERROR;
    free(vs);
    free(a.ts);
    json_decref(doc);
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
