/* Self-contained HTML report pages and chart placement. */
#include "render/report_page.h"
#include "render/markdown.h"
#include <string.h>

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

int pr_report_page_charts(json_t *ctx, const char *output, int inline_charts, pr_error *err)
{
    (void)ctx;
    (void)output;
    (void)inline_charts;
    (void)err;
    return 0;
}
