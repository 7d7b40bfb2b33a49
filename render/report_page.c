/* Self-contained HTML report pages and chart placement. */
#include "render/report_page.h"
#include "render/markdown.h"
#include "render/model_charts.h"
#include "render/mustache.h"
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
        title = "Load test report";
    pr_buf_puts(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                     "<meta name=\"generator\" content=\"perfreport\">\n<title>");
    pr_html_escape(title, strlen(title), out);
    pr_buf_puts(out, "</title>\n<style>");
    size_t n;
    const char *css = builtin("report-style.mustache", &n);
    pr_buf_append(out, css, n);
    pr_buf_puts(out, "</style>\n</head>\n<body>\n<div class=\"page\">\n");
    int rc = pr_markdown_to_html(md, len, out, err);
    pr_buf_puts(out, "</div>\n<script>");
    const char *js = builtin("report-script.mustache", &n);
    pr_buf_append(out, js, n);
    pr_buf_puts(out, "</script>\n</body>\n</html>\n");
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
    {"latency_over_time", "latency", "Latency over time"},
    {"percentiles_over_time", "percentiles", "Latency percentiles over time"},
    {"throughput", "throughput", "Throughput over time"},
    {"distribution", "spectrum", "Latency by percentile"},
};

int pr_report_page_charts(json_t *ctx, const char *output, int inline_charts,
                          pr_points_fn points, void *payload, pr_error *err)
{
    char *dir = files_dir(output);
    const char *base = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
    int rc = 0, made_dir = 0;
    size_t i;
    json_t *run;
    json_array_foreach(json_object_get(ctx, "runs"), i, run) {
        if (rc < 0)
            break;
        if (json_is_true(json_object_get(run, "summary_only")))
            continue;
        pr_model_charts mc;
        memset(&mc, 0, sizeof mc);
        pr_model_charts_run(&mc, run, "p99");
        pr_chart_input in = pr_model_charts_input(&mc);
        pr_chart_points pts = {0, NULL, NULL, NULL};
        int have_points = points && points(payload, run, &pts, err) == 0;
        in.points = have_points ? &pts : NULL;
        json_t *charts = json_object();
        for (size_t j = 0; j < sizeof jobs / sizeof jobs[0] && rc == 0; j++) {
            const pr_chart_kind *kind = pr_chart_kind_find(jobs[j].kind);
            if (!kind || ((kind->needs & PR_CHART_NEEDS_POINTS) && !in.points) ||
                ((kind->needs & PR_CHART_NEEDS_TS) && !in.ts) ||
                ((kind->needs & PR_CHART_NEEDS_DISTS) && !in.dists))
                continue;
            pr_chart_opts o;
            pr_chart_opts_init(&o);
            /* findings that name a moment (error onset, saturation, a stall) are marked on the
             * time charts */
            pr_chart_marker marks[8];
            size_t nmarks = 0, fi;
            json_t *fd;
            json_array_foreach(json_object_get(run, "findings"), fi, fd) {
                json_t *t = json_object_get(fd, "t_ns");
                if (json_is_integer(t) && nmarks < 8 && (kind->needs & PR_CHART_NEEDS_TS)) {
                    marks[nmarks].x = (double)json_integer_value(t);
                    marks[nmarks].y = NAN;
                    marks[nmarks].label = json_string_value(json_object_get(fd, "title"));
                    nmarks++;
                }
            }
            o.markers = marks;
            o.n_markers = nmarks;
            o.width = 1000;
            o.height = 500;
            o.title = jobs[j].title;
            o.subtitle = json_string_value(json_object_get(run, "name"));
            o.start_ns = json_integer_value(json_object_get(run, "start_ns"));
            pr_buf img = PR_BUF_INIT;
            rc = pr_chart_render_buf(kind, &in, &o, inline_charts ? PR_CHART_SVG : PR_CHART_PNG,
                                     &img, NULL, err);
            if (rc < 0) {
                pr_buf_dispose(&img);
                break;
            }
            pr_buf ref = PR_BUF_INIT;
            if (inline_charts) {
                pr_buf_puts(&ref, "data:image/svg+xml;base64,");
                base64((const unsigned char *)img.p, img.len, &ref);
            } else {
                if (!made_dir) {
                    mkdir(dir, 0777);
                    made_dir = 1;
                }
                char *path = pr_xasprintf("%s/run%lld-%s.png", dir,
                                          (long long)json_integer_value(json_object_get(run, "id")),
                                          jobs[j].key);
                FILE *f = fopen(path, "wb");
                int bad = !f || fwrite(img.p, 1, img.len, f) != img.len;
                if (f)
                    bad |= fclose(f) != 0;
                if (bad) {
                    rc = pr_error_set(err, PR_EIO, path, 0, 0, "cannot write chart: %s",
                                      strerror(errno));
                    unlink(path); /* no truncated chart left behind */
                }
                free(path);
                pr_buf_printf(&ref, "%s/run%lld-%s.png", base,
                              (long long)json_integer_value(json_object_get(run, "id")),
                              jobs[j].key);
            }
            json_object_set_new(charts, jobs[j].key, json_string(ref.p ? ref.p : ""));
            pr_buf_dispose(&ref);
            pr_buf_dispose(&img);
        }
        json_object_set_new(run, "charts", charts);
        if (have_points)
            points(payload, NULL, &pts, err);
        pr_model_charts_dispose(&mc);
    }
    free(dir);
    return rc;
}
