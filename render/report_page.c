/* Self-contained HTML report pages and chart placement. */
#include "render/report_page.h"
#include "render/markdown.h"
#include "render/model_charts.h"
#include "model/xalloc.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

const char pr_report_page_css[] =
    ":root{--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--head:#f6f8fa;--accent:#0072b2}"
    "body{font:15px/1.5 -apple-system,'Segoe UI',Roboto,'Noto Sans','WenQuanYi Zen Hei',"
    "sans-serif;color:var(--fg);max-width:1100px;margin:2em auto;padding:0 1.5em}"
    "h1{border-bottom:2px solid var(--accent);padding-bottom:.2em}"
    "h2{border-bottom:1px solid var(--line);padding-bottom:.2em;margin-top:2em}"
    "table{border-collapse:collapse;margin:1em 0;font-variant-numeric:tabular-nums}"
    "th,td{border:1px solid var(--line);padding:.3em .6em;text-align:left}"
    "th{background:var(--head);cursor:pointer;user-select:none;white-space:nowrap}"
    "th[aria-sort=ascending]::after{content:' \\25B2'}th[aria-sort=descending]::after{content:' \\25BC'}"
    "td[align=right],th[align=right]{text-align:right}"
    "img{max-width:100%;height:auto;display:block;margin:1em 0}"
    "code{background:var(--head);padding:.1em .3em;border-radius:3px}"
    "hr{border:0;border-top:1px solid var(--line);margin-top:3em}"
    "footer,.muted{color:var(--muted);font-size:.9em}"
    "@media print{body{max-width:none;margin:0;font-size:11pt}th{cursor:auto}"
    "h2{page-break-after:avoid}table,img{page-break-inside:avoid}}";

/* Click a header to sort its table; numbers with units sort by value. */
const char pr_report_page_js[] =
    "(function(){"
    "var U={ns:1e-9,'\\u00b5s':1e-6,us:1e-6,ms:1e-3,s:1,min:60,h:3600,B:1,kB:1e3,MB:1e6,GB:1e9,"
    "TB:1e12,'/s':1,'k/s':1e3,'M/s':1e6,'%':1};"
    "function key(t){t=t.trim();var m=t.match(/^(-?[0-9.]+)\\s*([a-zA-Z\\u00b5%/]*)$/);"
    "if(m){var u=m[2];var f=U[u]!==undefined?U[u]:(u==''?1:null);if(f!==null)return[0,parseFloat(m[1])*f];}"
    "return[1,t.toLowerCase()];}"
    "function cmp(a,b){if(a[0]!=b[0])return a[0]-b[0];return a[1]<b[1]?-1:a[1]>b[1]?1:0;}"
    "document.querySelectorAll('table').forEach(function(tb){"
    "var hs=tb.querySelectorAll('thead th');hs.forEach(function(th,i){"
    "th.addEventListener('click',function(){var body=tb.tBodies[0];if(!body)return;"
    "var asc=th.getAttribute('aria-sort')!='ascending';"
    "hs.forEach(function(h){h.removeAttribute('aria-sort');});"
    "th.setAttribute('aria-sort',asc?'ascending':'descending');"
    "var rows=Array.prototype.slice.call(body.rows);"
    "rows.sort(function(x,y){var r=cmp(key(x.cells[i].textContent),key(y.cells[i].textContent));"
    "return asc?r:-r;});rows.forEach(function(r){body.appendChild(r);});});});});"
    "})();";

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
    pr_buf_puts(out, pr_report_page_css);
    pr_buf_puts(out, "</style>\n</head>\n<body>\n<main>\n");
    int rc = pr_markdown_to_html(md, len, out, err);
    pr_buf_puts(out, "</main>\n<script>");
    pr_buf_puts(out, pr_report_page_js);
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
                if (bad)
                    rc = pr_error_set(err, PR_EIO, path, 0, 0, "cannot write chart: %s",
                                      strerror(errno));
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
