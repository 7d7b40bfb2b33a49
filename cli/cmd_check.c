/* `perfreport check`: CI gates — thresholds on run (or per-label) statistics, a verdict table,
 * JUnit XML and a Markdown verdict; exit code 3 when a threshold fails. */
#include "analysis/human.h"
#include "analysis/report.h"
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
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum unit { U_NS, U_RATIO, U_PER_S, U_COUNT };

typedef struct threshold {
    char metric[32]; /* p99, mean, error_ratio, throughput … */
    int is_max;      /* 1: value must be <= limit; 0: >= limit */
    double limit;    /* ns, ratio, per second or count */
    enum unit unit;
    char text[96];   /* as written */
} threshold;

/* The unit a metric is measured in, or -1 for an unknown metric. */
static int metric_unit(const char *m)
{
    if ((m[0] == 'p' && m[1] >= '0' && m[1] <= '9') || !strcmp(m, "mean") ||
        !strcmp(m, "min") || !strcmp(m, "max") || !strcmp(m, "stdev"))
        return U_NS;
    if (!strcmp(m, "error_ratio") || !strcmp(m, "success_ratio") || !strcmp(m, "apdex"))
        return U_RATIO;
    if (!strcmp(m, "throughput") || !strcmp(m, "rate"))
        return U_PER_S;
    if (!strcmp(m, "requests") || !strcmp(m, "errors"))
        return U_COUNT;
    return -1;
}

/* Parses "p99=250ms", "error_ratio=1%", "throughput=200/s". */
static int parse_threshold(const char *arg, int is_max, threshold *t)
{
    memset(t, 0, sizeof *t);
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof t->metric) {
        pr_cli_errorf("threshold '%s': expected METRIC=VALUE (e.g. p99=250ms, error_ratio=1%%)", arg);
        return -1;
    }
    memcpy(t->metric, arg, (size_t)(eq - arg));
    for (char *c = t->metric; *c; c++)
        if (*c == '.')
            *c = '_';
    int u = metric_unit(t->metric);
    if (u < 0) {
        pr_cli_errorf("threshold '%s': unknown metric '%s' (pNN, mean, min, max, stdev, "
                      "error_ratio, success_ratio, apdex, throughput, rate, requests, errors)",
                      arg, t->metric);
        return -1;
    }
    t->unit = (enum unit)u;
    t->is_max = is_max;
    snprintf(t->text, sizeof t->text, "%s %s %s", t->metric, is_max ? "<=" : ">=", eq + 1);
    const char *v = eq + 1;
    size_t n = strlen(v);
    int ok = 0;
    if (u == U_NS) {
        int64_t ns;
        ok = pr_lex_duration(v, n, 1000000, &ns) == 0; /* bare numbers are ms */
        t->limit = (double)ns;
    } else if (u == U_RATIO) {
        if (n && v[n - 1] == '%') {
            ok = pr_lex_double(v, n - 1, &t->limit) == 0;
            t->limit /= 100;
        } else {
            ok = pr_lex_double(v, n, &t->limit) == 0;
        }
    } else if (u == U_PER_S) {
        size_t k = n >= 2 && !strcmp(v + n - 2, "/s") ? n - 2 : n;
        ok = pr_lex_double(v, k, &t->limit) == 0;
    } else {
        ok = pr_lex_double(v, n, &t->limit) == 0;
    }
    if (!ok) {
        pr_cli_errorf("threshold '%s': cannot read the value '%s'", arg, v);
        return -1;
    }
    return 0;
}

/* The metric's value in a stats object of the report model (NaN if unknown). */
static double metric_value(json_t *stats, const char *m)
{
    json_t *v = NULL;
    int u = metric_unit(m);
    if (u == U_NS)
        v = json_object_get(json_object_get(stats, "latency_ns"), m);
    else if (!strcmp(m, "throughput") || !strcmp(m, "rate"))
        v = json_object_get(stats, !strcmp(m, "rate") ? "rate_per_s" : "throughput_per_s");
    else if (!strcmp(m, "apdex"))
        v = json_object_get(json_object_get(stats, "apdex"), "score");
    else
        v = json_object_get(stats, m);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void human(enum unit u, double v, char *buf)
{
    if (isnan(v))
        strcpy(buf, "n/a");
    else if (u == U_NS)
        pr_human_duration((int64_t)llround(v), buf);
    else if (u == U_RATIO)
        pr_human_percent(v, buf);
    else if (u == U_PER_S)
        pr_human_rate(v, buf);
    else
        snprintf(buf, 32, "%.0f", v);
}

typedef struct verdict {
    char run[128];
    char label[256];
    const threshold *t;
    double value;
    int pass;
} verdict;

static void xml_escape(pr_buf *b, const char *s)
{
    pr_html_escape(s, strlen(s), b);
}

static int read_thresholds(const char *path, threshold **ts, size_t *n, size_t *cap)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        pr_cli_errorf("%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    char line[512];
    long no = 0;
    int rc = 0;
    while (fgets(line, sizeof line, f)) {
        no++;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        p[strcspn(p, "\r\n#")] = 0;
        if (!*p)
            continue;
        char kind[8], spec[400];
        if (sscanf(p, "%7s %399s", kind, spec) != 2 || (strcmp(kind, "max") && strcmp(kind, "min"))) {
            pr_cli_errorf("%s:%ld:1: expected 'max METRIC=VALUE' or 'min METRIC=VALUE'", path, no);
            rc = -1;
            break;
        }
        *ts = pr_xgrow(*ts, cap, *n + 1, sizeof **ts);
        if (parse_threshold(spec, !strcmp(kind, "max"), &(*ts)[*n]) < 0) {
            pr_cli_errorf("%s:%ld: in this line", path, no);
            rc = -1;
            break;
        }
        (*n)++;
    }
    fclose(f);
    return rc;
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
    threshold *ts = NULL;
    size_t nts = 0, cap = 0;
    int by_label = 0, c;
    pr_report_opts o;
    pr_report_opts_init(&o);
    o.timeseries = 0;
    o.histogram = 0;
    o.findings = 0;
    static const double pcts[] = {50, 75, 90, 95, 99, 99.9, 99.99};
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 'S': store = optarg; break;
        case 'M':
        case 'm':
            ts = pr_xgrow(ts, &cap, nts + 1, sizeof *ts);
            if (parse_threshold(optarg, c == 'M', &ts[nts]) < 0) {
                free(ts);
                return PR_EXIT_USAGE;
            }
            nts++;
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
    for (size_t i = 0; i < nts; i++) {
        if (ts[i].metric[0] == 'p' && o.npercentiles < PR_MAX_PERCENTILES) {
            char tmp[32];
            snprintf(tmp, sizeof tmp, "%s", ts[i].metric + 1);
            for (char *q = tmp; *q; q++)
                if (*q == '_')
                    *q = '.';
            double p = atof(tmp);
            int have = 0;
            for (size_t k = 0; k < o.npercentiles; k++)
                have |= o.percentiles[k] == p;
            if (!have && p > 0 && p <= 100)
                o.percentiles[o.npercentiles++] = p;
        }
    }
    json_t *doc = NULL;
    int rc = pr_cli_report(store, argv + optind, argc - optind, 0, &o, &doc);
    if (rc) {
        free(ts);
        return rc;
    }
    pr_text_visible_json(doc, 0); /* every output of the verdicts names runs and labels */
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
                v->value = metric_value(groups[g], ts[t].metric);
                /* an unknown value cannot pass a gate */
                v->pass = !isnan(v->value) &&
                          (ts[t].is_max ? v->value <= ts[t].limit : v->value >= ts[t].limit);
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
        human(vs[k].t->unit, vs[k].value, val);
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
            human(vs[k].t->unit, vs[k].value, val);
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
            human(vs[k].t->unit, vs[k].value, val);
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
