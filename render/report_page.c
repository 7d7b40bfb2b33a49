/* Self-contained HTML report pages and chart placement. */
#include "render/report_page.h"
#include "analysis/report.h"
#include "render/markdown.h"
#include "render/model_charts.h"
#include "render/mustache.h"
#include "model/l10n.h"
#include "model/xalloc.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The page's CSS and script are built-in templates (templates/report-style.mustache and
 * report-script.mustache), shared with the report.html template. */
static const char *builtin(const char *name, size_t *len)
{
    for (size_t i = 0; pr_builtin_templates[i].name; i++) {
        if (!strcmp(pr_builtin_templates[i].name, name)) {
            *len = pr_builtin_templates[i].len;
            return pr_builtin_templates[i].text;
        }
    }
    *len = 0;
    return "";
}

int pr_report_page_html(const char *md, size_t len, json_t *ctx, pr_buf *out, pr_error *err)
{
    const char *title = json_string_value(json_object_get(json_object_get(ctx, "meta"), "title"));
    if (!title)
        title = _("Load test report");
    pr_buf_printf(out, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n",
                  pr_l10n_lang_tag());
    pr_buf_puts(out, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                     "<meta name=\"generator\" content=\"perfreport\">\n<title>");
    pr_html_escape(title, strlen(title), out);
    pr_buf_puts(out, "</title>\n<style>");
    size_t n;
    const char *css = builtin("report-style.mustache", &n);
    pr_buf_append(out, css, n);
    pr_buf_puts(out, "</style>\n");
    json_t *dash = json_object_get(ctx, "dashboard");
    if (dash) {
        pr_buf_puts(out, "<style>");
        pr_buf_puts(out, json_string_value(json_object_get(dash, "library_css")));
        pr_buf_puts(out, "</style>\n");
    }
    pr_buf_puts(out, "</head>\n<body>\n<div class=\"page\">\n");
    if (dash)
        pr_buf_puts(out,
                    "<div class=\"toolbar\"><button type=\"button\" id=\"pr-reset\">&#8596;"
                    "</button> <button type=\"button\" id=\"pr-theme\">&#9680;</button></div>\n");
    int rc = pr_markdown_to_html(md, len, out, err);
    pr_buf_puts(out, "</div>\n<script>");
    const char *js = builtin("report-script.mustache", &n);
    pr_buf_append(out, js, n);
    pr_buf_puts(out, "</script>\n");
    if (dash) {
        /* the interactive charts replace the chart images (render/js/dashboard.js) */
        pr_buf_puts(out, "<script type=\"application/json\" id=\"pr-words\">");
        pr_buf_puts(out, json_string_value(json_object_get(dash, "words")));
        pr_buf_puts(out, "</script>\n<script type=\"application/json\" id=\"pr-data\">");
        pr_buf_puts(out, json_string_value(json_object_get(dash, "data")));
        pr_buf_puts(out, "</script>\n<script>\n/* uPlot, MIT licence:\n");
        pr_buf_puts(out, json_string_value(json_object_get(dash, "library_licence")));
        pr_buf_puts(out, "*/\n");
        pr_buf_puts(out, json_string_value(json_object_get(dash, "library")));
        pr_buf_puts(out, "</script>\n<script>");
        pr_buf_puts(out, json_string_value(json_object_get(dash, "script")));
        pr_buf_puts(out, "</script>\n");
    }
    pr_buf_puts(out, "</body>\n</html>\n");
    return rc;
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void base64(const unsigned char *p, size_t n, pr_buf *out)
{
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        char q[4] = {b64[v >> 18 & 63], b64[v >> 12 & 63], i + 1 < n ? b64[v >> 6 & 63] : '=',
                     i + 2 < n ? b64[v & 63] : '='};
        pr_buf_append(out, q, 4);
    }
}

/* OUTPUT without its extension + "_files". */
static char *files_dir(const char *output)
{
    pr_buf b = PR_BUF_INIT;
    const char *slash = strrchr(output, '/');
    const char *dot = strrchr(output, '.');
    size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - output) : strlen(output);
    pr_buf_append(&b, output, n);
    pr_buf_puts(&b, "_files");
    return pr_buf_steal(&b);
}

typedef struct chart_job {
    const char *key;  /* runs[i].charts.KEY */
    const char *kind; /* chart kind */
    const char *title;
} chart_job;

static const chart_job jobs[] = {
    {"latency_over_time", "latency", N_("Latency over time")},
    {"percentiles_over_time", "percentiles", N_("Latency percentiles over time")},
    {"throughput", "throughput", N_("Throughput over time")},
    {"distribution", "spectrum", N_("Latency by percentile")},
    {"status_over_time", "status", N_("Responses by status code over time")},
    {"labels_p99", "labels", N_("p99 per label")},
};

/* Per-label time series drawn for Markdown (labels[i].percentiles_chart), for the labels with
 * the most requests. (A name no run or document field has: a label without it must not find
 * another chart up the Mustache context stack.) */
#define LABEL_CHARTS_MAX 8

typedef struct chart_out {
    const char *output; /* the report file: charts go to OUTPUT_files/ */
    int inline_charts;
} chart_out;

/* Draws one chart and stores its reference under key in charts: a data: URI (inline, tagged
 * #pr-chart=RUN-KEY for the interactive page) or a PNG file in OUTPUT_files/. */
static int draw_one(chart_out *co, const pr_chart_kind *kind, const pr_chart_input *in,
                    const pr_chart_opts *o, long long run_id, const char *file_key, const char *key,
                    json_t *charts, pr_error *err)
{
    char name[160];
    snprintf(name, sizeof name, "run%lld-%s", run_id, file_key);
    pr_buf ref = PR_BUF_INIT;
    int rc = pr_report_page_chart(kind, in, o, co->output, name, co->inline_charts, &ref, err);
    if (rc == 0 && co->inline_charts)
        pr_buf_printf(&ref, "#pr-chart=%lld-%s", run_id, file_key);
    if (rc == 0)
        json_object_set_new(charts, key, json_string(ref.p ? ref.p : ""));
    pr_buf_dispose(&ref);
    return rc;
}

static int can_draw(const pr_chart_kind *kind, const pr_chart_input *in)
{
    return kind && !((kind->needs & PR_CHART_NEEDS_POINTS) && !in->points) &&
           !((kind->needs & PR_CHART_NEEDS_TS) && !in->ts) &&
           !((kind->needs & PR_CHART_NEEDS_DISTS) && !in->dists) &&
           !((kind->needs & PR_CHART_NEEDS_LABELS) && (!in->labels || in->labels->n < 2));
}

static void chart_opts(pr_chart_opts *o, json_t *run, const char *title, const char *subtitle)
{
    pr_chart_opts_init(o);
    o->width = 1000;
    o->height = 500;
    o->title = title;
    o->subtitle = subtitle ? subtitle : json_string_value(json_object_get(run, "name"));
    o->start_ns = json_integer_value(json_object_get(run, "start_ns"));
}

/* Findings that name a moment (error onset, saturation, a stall) are marked on time charts. */
static size_t finding_marks(json_t *run, pr_chart_marker *marks, size_t max)
{
    size_t n = 0, fi;
    json_t *fd;
    json_array_foreach (json_object_get(run, "findings"), fi, fd) {
        json_t *t = json_object_get(fd, "t_ns");
        if (json_is_integer(t) && n < max) {
            marks[n].x = (double)json_integer_value(t);
            marks[n].y = NAN;
            marks[n].label = json_string_value(json_object_get(fd, "title"));
            n++;
        }
    }
    return n;
}

/* The percentiles over time of each of the busiest labels (their own time series). */
static int label_charts(chart_out *co, json_t *run, long long run_id, pr_error *err)
{
    const pr_chart_kind *kind = pr_chart_kind_find("percentiles");
    size_t i;
    json_t *l;
    int rc = 0;
    json_array_foreach (json_object_get(run, "labels"), i, l) {
        json_t *ts = json_object_get(l, "timeseries");
        if (rc < 0 || i >= LABEL_CHARTS_MAX || !ts ||
            json_array_size(json_object_get(run, "labels")) < 2)
            break;
        json_t *wrap = json_object();
        json_object_set(wrap, "timeseries", ts);
        pr_model_charts mc;
        memset(&mc, 0, sizeof mc);
        pr_model_charts_run(&mc, wrap, "p99");
        pr_chart_input in = pr_model_charts_input(&mc);
        if (can_draw(kind, &in)) {
            pr_chart_opts o;
            chart_opts(&o, run, _("Latency percentiles over time"),
                       json_string_value(json_object_get(l, "label")));
            char key[64];
            snprintf(key, sizeof key, "label%zu-percentiles_over_time", i + 1);
            rc = draw_one(co, kind, &in, &o, run_id, key, "percentiles_chart", l, err);
        }
        pr_model_charts_dispose(&mc);
        json_decref(wrap);
    }
    return rc;
}

/* Every standard chart of one run into run.charts. */
static int run_charts(chart_out *co, json_t *run, pr_points_fn points, void *payload, pr_error *err)
{
    pr_model_charts mc;
    memset(&mc, 0, sizeof mc);
    pr_model_charts_run(&mc, run, "p99");
    pr_chart_input in = pr_model_charts_input(&mc);
    pr_run_points pts = {{0, NULL, NULL, NULL}, NULL, 0};
    int have_points = points && points(run, &pts, err, payload) == 0;
    in.points = have_points ? &pts.flat : NULL;
    in.point_chunks = have_points ? pts.chunks : NULL;
    in.n_point_chunks = have_points ? pts.nchunks : 0;
    long long id = (long long)json_integer_value(json_object_get(run, "id"));
    json_t *charts = json_object();
    int rc = 0;
    for (size_t j = 0; j < sizeof jobs / sizeof jobs[0] && rc == 0; j++) {
        const pr_chart_kind *kind = pr_chart_kind_find(jobs[j].kind);
        if (!can_draw(kind, &in) ||
            (!strcmp(jobs[j].kind, "status") && pr_report_status_unrecorded(run)))
            continue;
        pr_chart_opts o;
        chart_opts(&o, run, _(jobs[j].title), NULL);
        pr_chart_marker marks[8];
        if (kind->needs & PR_CHART_NEEDS_TS) {
            o.markers = marks;
            o.n_markers = finding_marks(run, marks, 8);
        }
        rc = draw_one(co, kind, &in, &o, id, jobs[j].key, jobs[j].key, charts, err);
    }
    json_object_set_new(run, "charts", charts);
    if (have_points)
        points(NULL, &pts, err, payload);
    pr_model_charts_dispose(&mc);
    return rc == 0 ? label_charts(co, run, id, err) : rc;
}

int pr_report_page_charts(json_t *ctx, const char *output, int inline_charts, pr_points_fn points,
                          void *payload, pr_error *err)
{
    chart_out co = {output, inline_charts};
    int rc = 0;
    size_t i;
    json_t *run;
    json_array_foreach (json_object_get(ctx, "runs"), i, run) {
        if (rc < 0)
            break;
        if (!json_is_true(json_object_get(run, "summary_only"))) {
            rc = run_charts(&co, run, points, payload, err);
            continue;
        }
        /* a summary-only run: the charts of what its tool printed (a time series, labels) */
        rc = run_charts(&co, run, NULL, NULL, err);
        if (json_object_size(json_object_get(run, "charts")) == 0)
            json_object_del(run, "charts");
    }
    return rc;
}

int pr_report_page_chart(const pr_chart_kind *kind, const pr_chart_input *in,
                         const pr_chart_opts *o, const char *output, const char *name,
                         int inline_charts, pr_buf *ref, pr_error *err)
{
    pr_buf img = PR_BUF_INIT;
    int rc = pr_chart_render_buf(kind, in, o, inline_charts ? PR_CHART_SVG : PR_CHART_PNG, &img,
                                 NULL, err);
    if (rc == 0 && inline_charts) {
        pr_buf_puts(ref, "data:image/svg+xml;base64,");
        base64((const unsigned char *)img.p, img.len, ref);
    } else if (rc == 0) {
        char *dir = files_dir(output);
        const char *base = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
        char *path = pr_xasprintf("%s/%s.png", dir, name);
        if (mkdir(dir, 0777) < 0 && errno != EEXIST)
            rc = pr_error_set(err, PR_EIO, dir, 0, 0, _("cannot create: %s"), strerror(errno));
        FILE *f = rc == 0 ? fopen(path, "wb") : NULL;
        int bad = rc == 0 && (!f || fwrite(img.p, 1, img.len, f) != img.len);
        if (f)
            bad |= fclose(f) != 0;
        if (bad) {
            rc =
                pr_error_set(err, PR_EIO, path, 0, 0, _("cannot write chart: %s"), strerror(errno));
            unlink(path); /* no truncated chart left behind */
        }
        pr_buf_printf(ref, "%s/%s.png", base, name);
        free(path);
        free(dir);
    }
    pr_buf_dispose(&img);
    return rc;
}
