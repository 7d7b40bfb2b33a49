/* `perfreport export`: a run's samples as the native stream, CSV or NDJSON; its points as
 * InfluxDB line protocol (JMeter's listener schema) or its summary as OpenMetrics text. */
#include "analysis/hgrm.h"
#include "analysis/stats.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/export_metrics.h"
#include "cli/selection.h"
#include "model/buf.h"
#include "model/native.h"
#include "model/lex.h"
#include "model/text.h"
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

typedef struct exporter {
    FILE *f;
    pr_run *run;
    pr_native_writer *w;
    int fmt; /* 0 native, 1 csv, 2 ndjson, 3 hgrm, 4 influx, 5 prometheus (formats[] in run) */
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

static int cb(void *payload, const pr_sample *s, size_t n)
{
    exporter *x = payload;
    if (x->fmt == 0)
        return pr_native_writer_push(x->w, x->run, s, n, x->err);
    if (x->fmt == 3) {
        for (size_t i = 0; i < n; i++)
            if (s[i].latency_ns != PR_UNKNOWN)
                pr_vec_push(&x->lat, s[i].latency_ns);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        const pr_sample *p = &s[i];
        const char *succ = p->success == PR_OK_SUCCESS ? "true"
                           : p->success == PR_FAIL ? "false" : "";
        if (x->fmt == 1) {
            put_i64(x->f, p->start_ns); fputc(',', x->f);
            put_i64(x->f, p->latency_ns); fputc(',', x->f);
            put_i64(x->f, p->connect_ns); fputc(',', x->f);
            put_i64(x->f, p->ttfb_ns); fputc(',', x->f);
            fprintf(x->f, "%u,%s,", p->status, succ);
            put_i64(x->f, p->bytes_in); fputc(',', x->f);
            put_i64(x->f, p->bytes_out); fputc(',', x->f);
            csv_str(x->f, pr_run_str(x->run, p->label)); fputc(',', x->f);
            csv_str(x->f, pr_run_str(x->run, p->method)); fputc(',', x->f);
            csv_str(x->f, pr_run_str(x->run, p->url)); fputc(',', x->f);
            csv_str(x->f, pr_run_str(x->run, p->error)); fputc(',', x->f);
            csv_str(x->f, pr_run_str(x->run, p->thread));
            fputc('\n', x->f);
        } else {
            fprintf(x->f, "{\"start_ns\":");
            if (p->start_ns != PR_UNKNOWN) put_i64(x->f, p->start_ns); else fputs("null", x->f);
            fprintf(x->f, ",\"latency_ns\":");
            if (p->latency_ns != PR_UNKNOWN) put_i64(x->f, p->latency_ns); else fputs("null", x->f);
            if (p->connect_ns != PR_UNKNOWN) { fprintf(x->f, ",\"connect_ns\":"); put_i64(x->f, p->connect_ns); }
            if (p->ttfb_ns != PR_UNKNOWN) { fprintf(x->f, ",\"ttfb_ns\":"); put_i64(x->f, p->ttfb_ns); }
            fprintf(x->f, ",\"status\":%u", p->status);
            if (*succ) fprintf(x->f, ",\"success\":%s", succ);
            if (p->bytes_in != PR_UNKNOWN) { fprintf(x->f, ",\"bytes_in\":"); put_i64(x->f, p->bytes_in); }
            if (p->bytes_out != PR_UNKNOWN) { fprintf(x->f, ",\"bytes_out\":"); put_i64(x->f, p->bytes_out); }
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
    }
    return ferror(x->f) ? pr_error_set(x->err, PR_EIO, NULL, 0, 0, "write error: %s",
                                       strerror(errno))
                        : 0;
}

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {{"store", required_argument, NULL, 'S'},
                                             {"format", required_argument, NULL, 'f'},
                                             {"output", required_argument, NULL, 'o'},
                                             {"measurement", required_argument, NULL, 1},
                                             {"application", required_argument, NULL, 2},
                                             {"interval", required_argument, NULL, 3},
                                             {"percentiles", required_argument, NULL, 4},
                                             {NULL, 0, NULL, 0}};
    pr_influx_opts io;
    pr_influx_opts_init(&io);
    const char *store = NULL, *format = "native", *output = "-";
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'S': store = optarg; break;
        case 'f': format = optarg; break;
        case 'o': output = optarg; break;
        case 1: io.measurement = optarg; break;
        case 2: io.application = optarg; break;
        case 3:
            if (pr_lex_duration(optarg, strlen(optarg), 0, &io.interval_ns) < 0 ||
                io.interval_ns <= 0) {
                pr_cli_errorf("--interval %s: expected a duration such as 5s", optarg);
                return PR_EXIT_USAGE;
            }
            break;
        case 4:
            if (pr_influx_parse_pcts(&io, optarg) < 0) {
                pr_cli_errorf("--percentiles %s: expected up to %d values in (0, 100], e.g. "
                              "90,95,99", optarg, PR_INFLUX_MAX_PCTS);
                return PR_EXIT_USAGE;
            }
            break;
        default: return PR_EXIT_USAGE;
        }
    }
    exporter x = {0};
    static const char *const formats[] = {"native", "csv",    "ndjson",    "hgrm",
                                          "influx", "prometheus", NULL}; /* x.fmt = index */
    for (x.fmt = 0; formats[x.fmt] && strcmp(formats[x.fmt], format); x.fmt++)
        ;
    if (!formats[x.fmt]) {
        pr_cli_errorf("export: unknown --format '%s' (native, csv, ndjson, hgrm, influx, "
                      "prometheus)", format);
        return PR_EXIT_USAGE;
    }
    if (argc - optind != 1) {
        pr_cli_errorf("export: name one run");
        return PR_EXIT_USAGE;
    }
    pr_store *st;
    int rc = pr_cli_open_store(store, 0, &st);
    if (rc)
        return rc;
    int64_t *ids = NULL;
    size_t n = 0;
    pr_error err;
    pr_error_clear(&err);
    x.err = &err;
    rc = pr_cli_select_runs(st, argv + optind, 1, &ids, &n);
    if (rc == 0 && n > 1) {
        pr_buf list = PR_BUF_INIT;
        for (size_t i = 0; i < n && i < 8; i++)
            pr_buf_printf(&list, "%s%lld", i ? ", " : "", (long long)ids[i]);
        pr_cli_errorf("export: %s selects %zu runs (%s%s); export writes one run: add a tag term "
                      "or name the run", argv[optind], n, list.p, n > 8 ? ", …" : "");
        pr_buf_dispose(&list);
        rc = PR_EXIT_USAGE;
    }
    if (rc == 0 && x.fmt >= 4) {
        pr_buf b = PR_BUF_INIT;
        int r = x.fmt == 4 ? pr_export_influx(st, ids[0], &io, &b, &err)
                           : pr_export_openmetrics(st, ids[0], &b, &err);
        if (r < 0)
            pr_cli_print_error(&err);
        rc = r < 0 || pr_cli_write_file(output, b.p ? b.p : "", b.len) < 0 ? PR_EXIT_ERROR : 0;
        pr_buf_dispose(&b);
        free(ids);
        pr_store_close(st);
        return rc;
    }
    if (rc == 0 && pr_store_load_run(st, ids[0], &x.run, &err) < 0) {
        pr_cli_print_error(&err);
        rc = PR_EXIT_ERROR;
    }
    pr_cli_out out; /* written whole or not at all: a full disk leaves no partial export */
    if (rc == 0 && !(x.f = pr_cli_out_open(&out, output)))
        rc = PR_EXIT_ERROR;
    if (rc == 0) {
        int r = 0;
        if (x.fmt == 0) {
            x.w = pr_native_writer_new(x.f, x.run, &err);
            r = x.w ? 0 : -1;
        } else if (x.fmt == 1) {
            fputs("start_ns,latency_ns,connect_ns,ttfb_ns,status,success,bytes_in,bytes_out,"
                  "label,method,url,error,thread\n", x.f);
        }
        if (r == 0)
            r = pr_store_scan(st, ids[0], cb, &x, &err);
        if (r == 0 && x.fmt == 3) {
            pr_sort_i64(x.lat.v, x.lat.n);
            pr_buf b = PR_BUF_INIT;
            pr_hgrm_write(x.lat.v, x.lat.n, &b);
            if (fwrite(b.p, 1, b.len, x.f) != b.len)
                r = pr_error_set(&err, PR_EIO, output, 0, 0, "write error: %s", strerror(errno));
            pr_buf_dispose(&b);
        }
        pr_vec_dispose(&x.lat);
        if (x.w) {
            int r2 = pr_native_writer_close(x.w, x.run, r == 0 ? &err : NULL);
            if (r == 0)
                r = r2;
        }
        if (r < 0) { /* said here, naming the output; the partial output is removed */
            if (!err.path[0] && err.code == PR_EIO) {
                snprintf(err.path, sizeof err.path, "%s", output);
                if (strcmp(output, "-"))
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
    free(ids);
    pr_store_close(st);
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
    "  perfreport export --format influx 3 | curl --data-binary @- 'http://influx:8086/write?db=jmeter'\n"
    "  perfreport export --format prometheus 3 | curl --data-binary @- \\\n"
    "      http://pushgateway:9091/metrics/job/perfreport/run/3\n",
    run};
