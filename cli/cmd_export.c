/* `perfreport export`: a run's samples as the native stream, CSV or NDJSON; its points as
 * InfluxDB line protocol (JMeter's listener schema) or its summary as OpenMetrics text. */
#include "analysis/hgrm.h"
#include "analysis/stats.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/export_metrics.h"
#include "model/buf.h"
#include "model/native.h"
#include "model/lex.h"
#include "model/text.h"
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* The formats, in the order of formats[]: samples (one a line, or all of them as the native
 * stream or a histogram), then a run's points and summary. */
enum { EXP_NATIVE, EXP_CSV, EXP_NDJSON, EXP_HGRM, EXP_INFLUX, EXP_PROMETHEUS };
static const char *const formats[] = {"native", "csv",        "ndjson", "hgrm",
                                      "influx", "prometheus", NULL};

typedef struct exporter {
    FILE *f;
    pr_run *run;
    pr_native_writer *w;
    int fmt; /* EXP_* */
    pr_vec lat;
    pr_error *err;
} exporter;

static void put_i64(FILE *f, int64_t v)
{
    if (v != PR_UNKNOWN)
        fprintf(f, "%lld", (long long)v);
}

/* A cell from the input files: control characters visible, a formula quoted with "'"
 * (model/text.h), then CSV-quoted when it holds a comma or a quote. */
static void csv_str(FILE *f, const char *in)
{
    char *vis = pr_text_visible_dup(in, PR_TEXT_CELL);
    const char *s = vis;
    if (!strpbrk(s, ",\"")) {
        fputs(s, f);
        free(vis);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
    free(vis);
}

static void json_str(FILE *f, const char *s)
{
    json_t *j = json_string(s);
    if (!j) /* not valid UTF-8: keep the bytes readable rather than dropping the value */
        j = json_string("\xef\xbf\xbd");
    char *q = json_dumps(j, JSON_ENCODE_ANY);
    json_decref(j);
    fputs(q, f);
    free(q);
}

/* One sample as a CSV row. */
static void csv_row(exporter *x, const pr_sample *p, const char *succ)
{
    put_i64(x->f, p->start_ns);
    fputc(',', x->f);
    put_i64(x->f, p->latency_ns);
    fputc(',', x->f);
    put_i64(x->f, p->connect_ns);
    fputc(',', x->f);
    put_i64(x->f, p->ttfb_ns);
    fputc(',', x->f);
    fprintf(x->f, "%u,%s,", p->status, succ);
    put_i64(x->f, p->bytes_in);
    fputc(',', x->f);
    put_i64(x->f, p->bytes_out);
    fputc(',', x->f);
    csv_str(x->f, pr_run_str(x->run, p->label));
    fputc(',', x->f);
    csv_str(x->f, pr_run_str(x->run, p->method));
    fputc(',', x->f);
    csv_str(x->f, pr_run_str(x->run, p->url));
    fputc(',', x->f);
    csv_str(x->f, pr_run_str(x->run, p->error));
    fputc(',', x->f);
    csv_str(x->f, pr_run_str(x->run, p->thread));
    fputc('\n', x->f);
}

/* ,"key":value for a known value. */
static void json_i64(FILE *f, const char *key, int64_t v)
{
    if (v != PR_UNKNOWN) {
        fprintf(f, ",\"%s\":", key);
        put_i64(f, v);
    }
}

/* One sample as an NDJSON line (start and latency null when unknown, the rest absent). */
static void ndjson_row(exporter *x, const pr_sample *p, const char *succ)
{
    fprintf(x->f, "{\"start_ns\":");
    if (p->start_ns != PR_UNKNOWN)
        put_i64(x->f, p->start_ns);
    else
        fputs("null", x->f);
    fprintf(x->f, ",\"latency_ns\":");
    if (p->latency_ns != PR_UNKNOWN)
        put_i64(x->f, p->latency_ns);
    else
        fputs("null", x->f);
    json_i64(x->f, "connect_ns", p->connect_ns);
    json_i64(x->f, "ttfb_ns", p->ttfb_ns);
    fprintf(x->f, ",\"status\":%u", p->status);
    if (*succ)
        fprintf(x->f, ",\"success\":%s", succ);
    json_i64(x->f, "bytes_in", p->bytes_in);
    json_i64(x->f, "bytes_out", p->bytes_out);
    static const char *const keys[] = {"label", "method", "url", "error", "thread"};
    uint32_t ids[] = {p->label, p->method, p->url, p->error, p->thread};
    for (int k = 0; k < 5; k++) {
        if (!ids[k])
            continue;
        fprintf(x->f, ",\"%s\":", keys[k]);
        json_str(x->f, pr_run_str(x->run, ids[k]));
    }
    fputs("}\n", x->f);
}

static int cb(const pr_sample *s, size_t n, void *payload)
{
    exporter *x = payload;
    if (x->fmt == EXP_NATIVE)
        return pr_native_writer_push(x->w, x->run, s, n, x->err);
    if (x->fmt == EXP_HGRM) {
        for (size_t i = 0; i < n; i++)
            if (s[i].latency_ns != PR_UNKNOWN)
                pr_vec_push(&x->lat, s[i].latency_ns);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        const char *succ = s[i].success == PR_OK_SUCCESS ? "true"
                           : s[i].success == PR_FAIL     ? "false"
                                                         : "";
        if (x->fmt == EXP_CSV)
            csv_row(x, &s[i], succ);
        else
            ndjson_row(x, &s[i], succ);
    }
    return ferror(x->f)
               ? pr_error_set(x->err, PR_EIO, NULL, 0, 0, "write error: %s", strerror(errno))
               : 0;
}

/* The long options without a short form. */
enum { OPT_MEASUREMENT = 256, OPT_APPLICATION, OPT_INTERVAL, OPT_PERCENTILES };

typedef struct export_args {
    const char *store, *format, *output;
    int fmt;
    pr_influx_opts io;
} export_args;

static int parse_opt(export_args *a, int c, const char *arg)
{
    switch (c) {
    case 'S': a->store = arg; return 0;
    case 'f': a->format = arg; return 0;
    case 'o': a->output = arg; return 0;
    case OPT_MEASUREMENT: a->io.measurement = arg; return 0;
    case OPT_APPLICATION: a->io.application = arg; return 0;
    case OPT_INTERVAL:
        if (pr_lex_duration(arg, strlen(arg), 0, &a->io.interval_ns) < 0 ||
            a->io.interval_ns <= 0) {
            pr_cli_errorf("--interval %s: expected a duration such as 5s", arg);
            return PR_EXIT_USAGE;
        }
        return 0;
    case OPT_PERCENTILES:
        if (pr_influx_parse_pcts(&a->io, arg) < 0) {
            pr_cli_errorf("--percentiles %s: expected up to %d values in (0, 100], e.g. "
                          "90,95,99",
                          arg, PR_INFLUX_MAX_PCTS);
            return PR_EXIT_USAGE;
        }
        return 0;
    default: return PR_EXIT_USAGE;
    }
}

static int parse_args(export_args *a, int argc, char **argv)
{
    static const struct option longopts[] = {
        {"store", required_argument, NULL, 'S'},
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},
        {"measurement", required_argument, NULL, OPT_MEASUREMENT},
        {"application", required_argument, NULL, OPT_APPLICATION},
        {"interval", required_argument, NULL, OPT_INTERVAL},
        {"percentiles", required_argument, NULL, OPT_PERCENTILES},
        {NULL, 0, NULL, 0}};
    memset(a, 0, sizeof *a);
    a->format = "native";
    a->output = "-";
    pr_influx_opts_init(&a->io);
    int c, rc = 0;
    optind = 1;
    while (rc == 0 && (c = getopt_long(argc, argv, "f:o:", longopts, NULL)) != -1)
        rc = parse_opt(a, c, optarg);
    if (rc)
        return rc;
    for (a->fmt = 0; formats[a->fmt] && strcmp(formats[a->fmt], a->format); a->fmt++)
        ;
    if (!formats[a->fmt]) {
        pr_cli_errorf("export: unknown --format '%s' (native, csv, ndjson, hgrm, influx, "
                      "prometheus)",
                      a->format);
        return PR_EXIT_USAGE;
    }
    if (argc - optind != 1) {
        pr_cli_errorf("export: name one run");
        return PR_EXIT_USAGE;
    }
    return 0;
}

/* The one run the argument selects (a tag selection of several is a usage error). */
static int select_run(const export_args *a, char **ref, pr_cli_runs *sel)
{
    int rc = pr_cli_runs_open(sel, a->store, ref, 1, 0);
    if (rc == 0 && sel->n > 1) {
        pr_buf list = PR_BUF_INIT;
        for (size_t i = 0; i < sel->n && i < 8; i++)
            pr_buf_printf(&list, "%s%lld", i ? ", " : "", (long long)sel->ids[i]);
        pr_cli_errorf("export: %s selects %zu runs (%s%s); export writes one run: add a tag term "
                      "or name the run",
                      *ref, sel->n, list.p, sel->n > 8 ? ", …" : "");
        pr_buf_dispose(&list);
        pr_cli_runs_close(sel);
        rc = PR_EXIT_USAGE;
    }
    return rc;
}

/* A run's points (InfluxDB line protocol) or its summary (OpenMetrics text). */
static int export_metrics(const export_args *a, pr_store *st, int64_t id)
{
    pr_error err;
    pr_error_clear(&err);
    pr_buf b = PR_BUF_INIT;
    int r = a->fmt == EXP_INFLUX ? pr_export_influx(st, id, &a->io, &b, &err)
                                 : pr_export_openmetrics(st, id, &b, &err);
    if (r < 0)
        pr_cli_print_error(&err);
    int rc = r < 0 || pr_cli_write_file(a->output, b.p ? b.p : "", b.len) < 0 ? PR_EXIT_ERROR : 0;
    pr_buf_dispose(&b);
    return rc;
}

/* The samples, scanned into x->f; then the histogram of an hgrm export and the native
 * stream's end. */
static int write_samples(exporter *x, pr_store *st, int64_t id, const char *output)
{
    pr_error *err = x->err;
    int r = 0;
    if (x->fmt == EXP_NATIVE) {
        if (x->f == stdout)
            pr_cli_stdout_binary(); /* the native stream, not text (cli/common.h) */
        x->w = pr_native_writer_new(x->f, x->run, err);
        r = x->w ? 0 : -1;
    } else if (x->fmt == EXP_CSV) {
        fputs("start_ns,latency_ns,connect_ns,ttfb_ns,status,success,bytes_in,bytes_out,"
              "label,method,url,error,thread\n",
              x->f);
    }
    if (r == 0)
        r = pr_store_scan(st, id, cb, x, err);
    if (r == 0 && x->fmt == EXP_HGRM) {
        pr_sort_i64(x->lat.v, x->lat.n);
        pr_buf b = PR_BUF_INIT;
        pr_hgrm_write(x->lat.v, x->lat.n, &b);
        if (fwrite(b.p, 1, b.len, x->f) != b.len)
            r = pr_error_set(err, PR_EIO, output, 0, 0, "write error: %s", strerror(errno));
        pr_buf_dispose(&b);
    }
    pr_vec_dispose(&x->lat);
    if (x->w) {
        int r2 = pr_native_writer_close(x->w, x->run, r == 0 ? err : NULL);
        if (r == 0)
            r = r2;
    }
    return r;
}

/* A run's samples in a sample format, written whole or not at all (a full disk leaves no
 * partial export). */
static int export_samples(const export_args *a, pr_store *st, int64_t id)
{
    pr_error err;
    pr_error_clear(&err);
    exporter x = {NULL, NULL, NULL, a->fmt, {0}, &err};
    pr_cli_out out;
    if (pr_store_load_run(st, id, &x.run, &err) < 0) {
        pr_cli_print_error(&err);
        return PR_EXIT_ERROR;
    }
    int rc = (x.f = pr_cli_out_open(&out, a->output)) ? 0 : PR_EXIT_ERROR;
    if (rc == 0) {
        int r = write_samples(&x, st, id, a->output);
        if (r < 0) { /* said here, naming the output; the partial output is removed */
            if (!err.path[0] && err.code == PR_EIO) {
                snprintf(err.path, sizeof err.path, "%s", a->output);
                if (strcmp(a->output, "-"))
                    snprintf(err.msg + strlen(err.msg), sizeof err.msg - strlen(err.msg),
                             "; nothing written (an existing file is kept)");
            }
            pr_cli_print_error(&err);
            rc = PR_EXIT_ERROR;
        }
        if (pr_cli_out_close(&out, r == 0) < 0)
            rc = PR_EXIT_ERROR;
    }
    pr_run_free(x.run);
    return rc;
}

static int run(int argc, char **argv)
{
    export_args a;
    pr_cli_runs sel;
    int rc = parse_args(&a, argc, argv);
    if (rc == 0)
        rc = select_run(&a, argv + optind, &sel);
    if (rc)
        return rc;
    rc = a.fmt >= EXP_INFLUX ? export_metrics(&a, sel.st, sel.ids[0])
                             : export_samples(&a, sel.st, sel.ids[0]);
    pr_cli_runs_close(&sel);
    return rc;
}

const pr_command pr_cmd_export = {
    "export", "export [--format native|csv|ndjson|hgrm|influx|prometheus] [-o FILE] RUN",
    "write a run's samples (native, CSV, NDJSON) or its metrics (InfluxDB, OpenMetrics)",
    "Writes every sample of RUN to FILE (default stdout). The native stream can be\n"
    "ingested again elsewhere (docs/format.md); CSV and NDJSON hold one sample per line\n"
    "with times in ns and empty/absent fields where the source did not know a value; in\n"
    "CSV, control characters of labels, URLs and errors are shown as \\x1b and a cell a\n"
    "spreadsheet would run as a formula (=, +, -, @ first) starts with '.\n"
    "FILE is written whole or not at all (a full disk leaves no partial file).\n"
    "hgrm is HdrHistogram's percentile distribution (ms) of the exact latencies, for HDR\n"
    "tools and plotters.\n"
    "influx is InfluxDB line protocol in the schema of JMeter's InfluxDB backend listener\n"
    "(measurement jmeter: transaction/statut points every --interval, default 5s, with\n"
    "count, avg, min, max, hit, sb, rb and pctNN.0 in ms; error points; events), so JMeter's\n"
    "Grafana dashboards show the run; --measurement, --application (default the run's\n"
    "name), --percentiles 90,95,99 as the listener's options. prometheus is the run's\n"
    "summary as OpenMetrics text (gauges and a latency summary) for a Pushgateway.\n"
    "docs/metrics.md gives every field.\n\n"
    "examples:\n  perfreport export --format csv -o run3.csv 3\n"
    "  perfreport export --format influx 3 | curl --data-binary @- "
    "'http://influx:8086/write?db=jmeter'\n"
    "  perfreport export --format prometheus 3 | curl --data-binary @- \\\n"
    "      http://pushgateway:9091/metrics/job/perfreport/run/3\n",
    run};
