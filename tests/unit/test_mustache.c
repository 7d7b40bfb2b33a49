/* Unit tests: Mustache escaping, number formatting, errors, loaders, inheritance, limits, Markdown. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "lib/collect.h"
#include "model/xalloc.h"
#include "render/markdown.h"
#include "render/mustache.h"

/* Renders tpl against JSON text `data`; returns the code, output in *out (caller frees). */
static int render_json(const char *tpl, const char *data, const pr_tpl_loader *l, int esc,
                       char **out, pr_error *err)
{
    json_error_t jerr;
    json_t *ctx = json_loads(data, JSON_DECODE_ANY, &jerr);
    if (!ctx)
        fail_msg("bad test JSON: %s", jerr.text);
    pr_buf b = PR_BUF_INIT;
    pr_error_clear(err);
    int rc = pr_mustache_render(tpl, strlen(tpl), "t.md", ctx, l, esc, &b, err);
    json_decref(ctx);
    *out = pr_buf_steal(&b);
    return rc;
}

static void expect(const char *tpl, const char *data, int esc, const char *want)
{
    char *got;
    pr_error err;
    int rc = render_json(tpl, data, NULL, esc, &got, &err);
    if (rc != 0)
        fail_msg("render failed: %s", err.msg);
    assert_string_equal(got, want);
    free(got);
}

/* Expects a compile/render error formatted exactly as `want`. */
static void expect_error(const char *tpl, const pr_tpl_loader *l, int code, const char *want)
{
    char *got, eb[1600];
    pr_error err;
    int rc = render_json(tpl, "{}", l, PR_ESC_HTML, &got, &err);
    free(got);
    assert_int_equal(rc, code);
    assert_string_equal(pr_error_format(&err, eb, sizeof eb), want);
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

static void test_mustache__escape_html(void **st)
{
    expect("{{v}}|{{{v}}}|{{&v}}", "{\"v\": \"<script>alert('x')</script> & \\\"q\\\"\"}",
           PR_ESC_HTML,
           "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;|"
           "<script>alert('x')</script> & \"q\"|<script>alert('x')</script> & \"q\"");
    expect("{{v}}", "{\"v\": \"<b>&\"}", PR_ESC_NONE, "<b>&");
}

static void test_mustache__escape_markdown(void **st)
{
    expect("{{v}}", "{\"v\": \"a|b\\n*c* _d_ `e` [f](g) <script> \\\\ ~s~ 1.5\\r\\nx\"}",
           PR_ESC_MARKDOWN,
           "a\\|b \\*c\\* \\_d\\_ \\`e\\` \\[f\\](g) &lt;script&gt; \\\\ \\~s\\~ 1.5\\\\x0d x");
    /* block markers only matter at the start of a value */
    expect("{{a}} {{b}} {{c}} {{d}} {{e}} {{f}}",
           "{\"a\": \"- x\", \"b\": \"1. y\", \"c\": \"# h\", \"d\": \"12) z\", \"e\": \"a-b.c\", "
           "\"f\": \"-- y\"}",
           PR_ESC_MARKDOWN, "\\- x 1\\. y \\# h 12\\) z a-b.c \\-- y");
    /* formulas in cells are quoted, numbers with a unit and the unknown "-" are not */
    expect("{{a}}|{{b}}|{{c}}|{{d}}|{{e}}|{{f}}",
           "{\"a\": \"=HYPERLINK(\\\"http://x\\\")\", \"b\": \"@SUM(A1)\", \"c\": \"+SUM(1)\", "
           "\"d\": \"-3.2%\", \"e\": \"-\", \"f\": \"+1.50 ms\"}",
           PR_ESC_MARKDOWN, "'=HYPERLINK(\"http://x\")|'@SUM(A1)|'+SUM(1)|-3.2%|-|+1.50 ms");
    /* numbers are never escaped */
    expect("{{n}}", "{\"n\": -1.5}", PR_ESC_MARKDOWN, "-1.5");
}

static void test_mustache__markdown_table_survives_hostile_values(void **st)
{
    const char *tpl = "| label | error |\n|---|---|\n{{#rows}}\n| {{label}} | {{error}} |\n{{/rows}}\n";
    const char *data = "{\"rows\": ["
                       "{\"label\": \"GET /a|b\", \"error\": \"<script>alert(1)</script>\"},"
                       "{\"label\": \"[x](javascript:alert(1))\", \"error\": \"line1\\nline2 | `x`\"}]}";
    char *md;
    pr_error err;
    assert_int_equal(render_json(tpl, data, NULL, PR_ESC_MARKDOWN, &md, &err), 0);
    pr_buf html = PR_BUF_INIT;
    assert_int_equal(pr_markdown_to_html(md, strlen(md), &html, &err), 0);
    assert_null(strstr(html.p, "<script"));
    assert_null(strstr(html.p, "<a "));
    assert_non_null(strstr(html.p, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert_int_equal(count(html.p, "<table>"), 1);
    assert_int_equal(count(html.p, "<tr>"), 3);
    assert_int_equal(count(html.p, "<td>"), 4);
    assert_non_null(strstr(html.p, "<td>GET /a|b</td>"));
    assert_non_null(strstr(html.p, "<td>line1 line2 | `x`</td>"));
    free(md);
    pr_buf_dispose(&html);
}

static void test_mustache__numbers(void **st)
{
    expect("{{a}} {{b}} {{c}} {{d}} {{e}} {{f}} {{g}} {{h}}[{{i}}] {{j}} {{k}} {{l}}",
           "{\"a\": 1.5, \"b\": 2.0, \"c\": 1.21, \"d\": 0.1, \"e\": -3, \"f\": 1e20,"
           " \"g\": 123456789012, \"h\": true, \"i\": null, \"j\": 1e-7, \"k\": -0.0,"
           " \"l\": 0.30000000000000004}",
           PR_ESC_HTML, "1.5 2 1.21 0.1 -3 1e+20 123456789012 true[] 1e-07 0 0.30000000000000004");
}

static void test_mustache__truthiness_and_paths(void **st)
{
    expect("{{#e}}E{{/e}}{{#z}}Z{{/z}}{{#l}}L{{/l}}{{#o}}O{{/o}}{{^e}}e{{/e}}{{^z}}z{{/z}}",
           "{\"e\": \"\", \"z\": 0, \"l\": [], \"o\": {}}", PR_ESC_HTML, "Oez");
    expect("{{runs.1.name}}|{{runs.2.name}}|{{runs.x}}",
           "{\"runs\": [{\"name\": \"a\"}, {\"name\": \"b\"}]}", PR_ESC_HTML, "b||");
    expect("{{#runs}}{{name}}={{#labels}}{{.}},{{/labels}};{{/runs}}",
           "{\"runs\": [{\"name\": \"a\", \"labels\": [1, 2]}, {\"name\": \"b\", \"labels\": []}]}",
           PR_ESC_HTML, "a=1,2,;b=;");
}

static void test_mustache__error_positions(void **st)
{
    char *got;
    pr_error err;
    char eb[1600];
    json_t *ctx = json_object();
    pr_buf b = PR_BUF_INIT;
    const char *tpl = "# Report\n\n    {{#runs}}\n{{name}}\n";
    assert_int_equal(pr_mustache_render(tpl, strlen(tpl), "report.md", ctx, NULL, PR_ESC_HTML, &b,
                                        &err),
                     PR_EPARSE);
    assert_string_equal(pr_error_format(&err, eb, sizeof eb),
                        "report.md:3:5: unclosed section 'runs'");
    json_decref(ctx);
    pr_buf_dispose(&b);
    expect_error("{{#a}}\n  {{/b}}", NULL, PR_EPARSE,
                 "t.md:2:3: mismatched end tag 'b': expected end of 'a' (opened at 1:1)");
    expect_error("ab\n{{=<%>=}}", NULL, PR_EPARSE,
                 "t.md:2:1: bad delimiter: expected '{{=OPEN CLOSE=}}'");
    expect_error("x {{name", NULL, PR_EPARSE, "t.md:1:3: unclosed tag: no '}}' after '{{'");
    expect_error("{{=<% %>=}}\n<%name", NULL, PR_EPARSE,
                 "t.md:2:1: unclosed tag: no '%>' after '<%'");
    expect_error("{{/x}}", NULL, PR_EPARSE, "t.md:1:1: unexpected end tag 'x'");
    expect_error("{{#x}}{{/x}}{{<p}}", NULL, PR_EPARSE, "t.md:1:13: unclosed parent 'p'");
    expect_error("{{a b}}", NULL, PR_EPARSE, "t.md:1:1: invalid tag name 'a b'");
    expect_error("{{ }}", NULL, PR_EPARSE, "t.md:1:1: empty tag name");
    (void)got;
}

static void test_mustache__partial_error_names_partial(void **st)
{
    pr_tpl_dir d = {0};
    pr_error err;
    assert_int_equal(pr_tpl_dir_init(&d, testdata("templates"), &err), 0);
    pr_tpl_loader l = pr_tpl_dir_loader(&d);
    expect_error("a\n{{>broken.md}}", &l, PR_EPARSE, "broken.md:2:1: unclosed section 'x'");
    d.ext = ".md";
    expect_error("a\n{{>broken}}", &l, PR_EPARSE, "broken:2:1: unclosed section 'x'");
}

static void test_mustache__dir_loader_partials(void **st)
{
    pr_tpl_dir d = {0};
    pr_error err;
    char *got;
    assert_int_equal(pr_tpl_dir_init(&d, testdata("templates"), &err), 0);
    d.ext = ".md";
    pr_tpl_loader l = pr_tpl_dir_loader(&d);
    assert_int_equal(render_json("{{>table}}  {{>sub/inner}}",
                                 "{\"x\": 1, \"labels\": [{\"label\": \"GET |a\", \"p99_ms\": 1.25},"
                                 " {\"label\": \"POST\", \"p99_ms\": 30}]}",
                                 &l, PR_ESC_MARKDOWN, &got, &err),
                     0);
    assert_string_equal(got, "| label | p99 ms |\n|---|---|\n| GET \\|a | 1.25 |\n| POST | 30 |\n"
                             "  nested 1\n");
    free(got);
    /* a missing partial renders as nothing */
    assert_int_equal(render_json("[{{>nope}}]", "{}", &l, PR_ESC_HTML, &got, &err), 0);
    assert_string_equal(got, "[]");
    free(got);
}

static void test_mustache__partial_path_safety(void **st)
{
    pr_tpl_dir d = {0};
    pr_error err;
    assert_int_equal(pr_tpl_dir_init(&d, testdata("templates/sub"), &err), 0);
    pr_tpl_loader l = pr_tpl_dir_loader(&d);
    char *got;
    assert_int_equal(render_json("{{>../row.md}}", "{}", &l, PR_ESC_HTML, &got, &err), PR_EUSAGE);
    free(got);
    assert_non_null(strstr(err.msg, ".."));
    assert_int_equal(render_json("{{>/etc/passwd}}", "{}", &l, PR_ESC_HTML, &got, &err), PR_EUSAGE);
    free(got);
    assert_int_equal(render_json("{{>inner/../../row.md}}", "{}", &l, PR_ESC_HTML, &got, &err),
                     PR_EUSAGE);
    free(got);
    /* a dynamic name from data is checked the same way */
    assert_int_equal(render_json("{{>*p}}", "{\"p\": \"../row.md\"}", &l, PR_ESC_HTML, &got, &err),
                     PR_EUSAGE);
    free(got);
    /* explicitly allowed */
    const char *allowed[] = {"../row.md", NULL};
    d.allowed = allowed;
    assert_int_equal(render_json("{{>../row.md}}", "{\"label\": \"x\", \"p99_ms\": 2}", &l,
                                 PR_ESC_HTML, &got, &err),
                     0);
    assert_string_equal(got, "| x | 2 |\n");
    free(got);

    /* a symlink inside the directory pointing outside is refused */
    char tmpl[] = "/tmp/pr_tpl_XXXXXX";
    assert_non_null(mkdtemp(tmpl));
    char link[256], inner[256], good[256];
    snprintf(link, sizeof link, "%s/evil.md", tmpl);
    assert_int_equal(symlink("/etc/hostname", link), 0);
    snprintf(inner, sizeof inner, "%s/ok.md", tmpl);
    FILE *f = fopen(inner, "w");
    assert_non_null(f);
    fputs("fine {{x}}", f);
    fclose(f);
    snprintf(good, sizeof good, "%s/alias.md", tmpl);
    assert_int_equal(symlink("ok.md", good), 0);
    pr_tpl_dir d2 = {0};
    assert_int_equal(pr_tpl_dir_init(&d2, tmpl, &err), 0);
    pr_tpl_loader l2 = pr_tpl_dir_loader(&d2);
    assert_int_equal(render_json("{{>evil.md}}", "{}", &l2, PR_ESC_HTML, &got, &err), PR_EUSAGE);
    free(got);
    assert_non_null(strstr(err.msg, "outside"));
    assert_int_equal(render_json("{{>alias.md}}", "{\"x\": 3}", &l2, PR_ESC_HTML, &got, &err), 0);
    assert_string_equal(got, "fine 3");
    free(got);
    unlink(link);
    unlink(inner);
    unlink(good);
    rmdir(tmpl);
}

static const char *BASE = "# {{$title}}Report{{/title}}\n\n{{$body}}\nNo runs.\n{{/body}}\n\n"
                          "{{$footer}}_generated_{{/footer}}\n";

static void test_mustache__inheritance_from_loaders(void **st)
{
    const char *child = "{{<base}}\n{{$title}}Nightly {{name}}{{/title}}\n{{/base}}\n";
    const char *want = "# Nightly build 42\n\nNo runs.\n\n_generated_\n";
    pr_error err;
    char *got;
    /* from a directory */
    pr_tpl_dir d = {0};
    assert_int_equal(pr_tpl_dir_init(&d, testdata("templates"), &err), 0);
    d.ext = ".md";
    pr_tpl_loader dl = pr_tpl_dir_loader(&d);
    assert_int_equal(render_json(child, "{\"name\": \"build 42\"}", &dl, PR_ESC_MARKDOWN, &got, &err),
                     0);
    assert_string_equal(got, want);
    free(got);
    /* from built-ins (a table standing in for the compiled-in templates), behind a directory
     * that does not have it: the chain falls through */
    const pr_builtin_template table[] = {{"base.md", BASE, strlen(BASE)}, {NULL, NULL, 0}};
    pr_tpl_builtin bi = {table, ".md"};
    pr_tpl_loader bl = pr_tpl_builtin_loader(&bi);
    pr_tpl_dir sub = {0};
    assert_int_equal(pr_tpl_dir_init(&sub, testdata("templates/sub"), &err), 0);
    pr_tpl_loader sl = pr_tpl_dir_loader(&sub);
    pr_tpl_chain ch = {&sl, &bl};
    pr_tpl_loader cl = pr_tpl_chain_loader(&ch);
    assert_int_equal(render_json(child, "{\"name\": \"build 42\"}", &cl, PR_ESC_MARKDOWN, &got, &err),
                     0);
    assert_string_equal(got, want);
    free(got);
    /* overriding a block that holds a section, indented like the parent's block */
    const char *child2 = "{{<base}}\n  {{$body}}\n  {{#runs}}\n  - {{.}}\n  {{/runs}}\n  {{/body}}\n"
                         "{{/base}}\n";
    assert_int_equal(render_json(child2, "{\"runs\": [\"a\", \"b\"]}", &bl, PR_ESC_MARKDOWN, &got,
                                 &err),
                     0);
    assert_string_equal(got, "# Report\n\n- a\n- b\n\n_generated_\n");
    free(got);
    /* the real built-in table is NULL-terminated and reachable */
    pr_tpl_builtin real = {NULL, NULL};
    pr_tpl_loader rl = pr_tpl_builtin_loader(&real);
    assert_int_equal(render_json("[{{>no-such-template}}]", "{}", &rl, PR_ESC_HTML, &got, &err), 0);
    assert_string_equal(got, "[]");
    free(got);
}

/* The inheritance example of docs/templates.md renders as documented. */
static void test_mustache__docs_example(void **st)
{
    static const char report[] = "{{! report.md (built in) }}\n# {{$title}}Load test report{{/title}}\n"
                                 "\n{{$summary}}\n{{> summary-table}}\n{{/summary}}\n\n"
                                 "{{$footer}}Generated by perfreport {{version}}{{/footer}}\n";
    static const char table_md[] = "| run | p99 |\n|---|---|\n| {{run.name}} | {{run.p99_ms}} |\n";
    const pr_builtin_template table[] = {{"report.md", report, sizeof report - 1},
                                         {"summary-table.md", table_md, sizeof table_md - 1},
                                         {NULL, NULL, 0}};
    pr_tpl_builtin bi = {table, ".md"};
    pr_tpl_loader bl = pr_tpl_builtin_loader(&bi);
    const char *child = "{{! nightly.md }}\n{{< report.md}}\n{{$title}}Nightly run {{run.name}}{{/title}}\n"
                        "{{$footer}}Questions: #perf-team{{/footer}}\n{{/report.md}}\n";
    char *got;
    pr_error err;
    assert_int_equal(render_json(child, "{\"run\": {\"name\": \"n-7\", \"p99_ms\": 41.5},"
                                        " \"version\": \"0.1\"}",
                                 &bl, PR_ESC_MARKDOWN, &got, &err),
                     0);
    assert_string_equal(got, "# Nightly run n-7\n\n| run | p99 |\n|---|---|\n| n-7 | 41.5 |\n\n"
                             "Questions: #perf-team\n");
    free(got);
}

static void test_mustache__depth_limit(void **st)
{
    pr_tpl_dir d = {0};
    pr_error err;
    assert_int_equal(pr_tpl_dir_init(&d, testdata("templates"), &err), 0);
    pr_tpl_loader l = pr_tpl_dir_loader(&d);
    char *got;
    assert_int_equal(render_json("{{>self}}", "{}", &l, PR_ESC_HTML, &got, &err), PR_EPARSE);
    free(got);
    assert_non_null(strstr(err.msg, "deeper than 64"));
    assert_string_equal(err.path, "self");
    assert_int_equal(err.line, 1);
    assert_int_equal(err.col, 1);
    /* 65 nested sections in one template */
    pr_buf t = PR_BUF_INIT;
    for (int i = 0; i < 65; i++)
        pr_buf_puts(&t, "{{#a}}");
    for (int i = 0; i < 65; i++)
        pr_buf_puts(&t, "{{/a}}");
    char eb[1600];
    expect_error(t.p, NULL, PR_EPARSE, "t.md:1:385: sections nested deeper than 64 levels");
    (void)eb;
    pr_buf_dispose(&t);
    /* deep data recursion through a partial */
    const char *node = "{{#kids}}<{{>node}}>{{/kids}}";
    const pr_builtin_template table[] = {{"node", node, strlen(node)}, {NULL, NULL, 0}};
    pr_tpl_builtin bi = {table, NULL};
    pr_tpl_loader bl = pr_tpl_builtin_loader(&bi);
    pr_buf data = PR_BUF_INIT;
    for (int i = 0; i < 100; i++)
        pr_buf_puts(&data, "{\"kids\": [");
    pr_buf_puts(&data, "1");
    for (int i = 0; i < 100; i++)
        pr_buf_puts(&data, "]}");
    assert_int_equal(render_json("{{>node}}", data.p, &bl, PR_ESC_HTML, &got, &err), PR_EPARSE);
    free(got);
    pr_buf_dispose(&data);
}

static void test_mustache__output_and_work_caps(void **st)
{
    json_t *ctx = json_pack("{s:[i,i,i,i,i,i,i,i,i,i]}", "l", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    pr_buf b = PR_BUF_INIT;
    b.max = 1000;
    pr_error err;
    const char *tpl = "{{#l}}{{#l}}{{#l}}0123456789{{/l}}{{/l}}{{/l}}";
    assert_int_equal(pr_mustache_render(tpl, strlen(tpl), "t", ctx, NULL, PR_ESC_HTML, &b, &err),
                     PR_EIO);
    assert_true(b.len <= 1000);
    pr_buf_dispose(&b);
    /* 10^8 iterations producing nothing hit the work cap */
    const char *spin = "{{#l}}{{#l}}{{#l}}{{#l}}{{#l}}{{#l}}{{#l}}{{#l}}{{/l}}{{/l}}{{/l}}{{/l}}"
                       "{{/l}}{{/l}}{{/l}}{{/l}}";
    b.max = 0;
    assert_int_equal(pr_mustache_render(spin, strlen(spin), "t", ctx, NULL, PR_ESC_HTML, &b, &err),
                     PR_EPARSE);
    assert_non_null(strstr(err.msg, "steps"));
    assert_int_equal(err.col, 43); /* the innermost section */
    pr_buf_reset(&b);
    /* the same inside a block overriding a parent's block: the position is in the child */
    const pr_builtin_template table[] = {{"base", "a\n{{$b}}{{/b}}", 14}, {NULL, NULL, 0}};
    pr_tpl_builtin bi = {table, NULL};
    pr_tpl_loader bl = pr_tpl_builtin_loader(&bi);
    pr_buf child = PR_BUF_INIT;
    pr_buf_printf(&child, "{{<base}}\n{{$b}}\n%s{{/b}}\n{{/base}}\n", spin);
    assert_int_equal(pr_mustache_render(child.p, child.len, "child.md", ctx, &bl, PR_ESC_HTML, &b,
                                        &err),
                     PR_EPARSE);
    char eb[1600];
    assert_string_equal(pr_error_format(&err, eb, sizeof eb),
                        "child.md:3:43: rendering takes more than 2^26 steps");
    pr_buf_dispose(&child);
    pr_buf_dispose(&b);
    json_decref(ctx);
}

/* Compiles once, renders a 20 runs x 200 labels report many times. */
static void test_mustache__compile_once_render_fast(void **st)
{
    json_t *runs = json_array();
    for (int r = 0; r < 20; r++) {
        json_t *labels = json_array();
        for (int i = 0; i < 200; i++)
            json_array_append_new(labels, json_pack("{s:s+,s:f,s:f,s:i,s:f}", "label", "GET /api/",
                                                    r % 2 ? "items" : "users", "p50_ms",
                                                    1.5 + i, "p99_ms", 10.25 * i, "errors", i % 3,
                                                    "rps", 1234.5));
        json_array_append_new(runs, json_pack("{s:s,s:o}", "name", "run", "labels", labels));
    }
    json_t *ctx = json_pack("{s:o,s:s}", "runs", runs, "title", "Nightly");
    const char *tpl = "# {{title}}\n{{#runs}}\n## {{name}}\n\n| label | p50 | p99 | rps | errors |\n"
                      "|---|---:|---:|---:|---:|\n{{#labels}}\n| {{label}} | {{p50_ms}} | "
                      "{{p99_ms}} | {{rps}} | {{#errors}}**{{errors}}**{{/errors}}{{^errors}}0"
                      "{{/errors}} |\n{{/labels}}\n\n{{/runs}}\n";
    pr_template *t;
    pr_error err;
    assert_int_equal(pr_template_compile(&t, tpl, strlen(tpl), "perf.md", &err), 0);
    pr_buf out = PR_BUF_INIT;
    struct timespec a, z;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int k = 0; k < 5; k++) {
        pr_buf_reset(&out);
        assert_int_equal(pr_template_render(t, ctx, NULL, PR_ESC_MARKDOWN, &out, &err), 0);
    }
    clock_gettime(CLOCK_MONOTONIC, &z);
    double ms = ((z.tv_sec - a.tv_sec) * 1e3 + (z.tv_nsec - a.tv_nsec) / 1e6) / 5;
    printf("render 20 runs x 200 labels: %.2f ms, %zu bytes\n", ms, out.len);
    assert_int_equal(count(out.p, "\n| GET /api/"), 4000);
    assert_non_null(strstr(out.p, "| GET /api/users | 1.5 | 0 | 1234.5 | 0 |\n"));
    assert_non_null(strstr(out.p, "| GET /api/items | 200.5 | 2039.75 | 1234.5 | **1** |\n"));
    /* the time is printed for information only: performance is measured in bench/, not asserted */
    pr_buf_dispose(&out);
    pr_template_free(t);
    json_decref(ctx);
}

static void test_mustache__markdown_to_html(void **st)
{
    const char *md = "# T\n\n| a | b |\n|---|--:|\n| 1 | ~~2~~ |\n\n<script>alert(1)</script>\n\n"
                     "x <b onclick=y>z</b>\n";
    pr_buf out = PR_BUF_INIT;
    pr_error err;
    assert_int_equal(pr_markdown_to_html(md, strlen(md), &out, &err), 0);
    assert_non_null(strstr(out.p, "<h1>T</h1>"));
    assert_non_null(strstr(out.p, "<table>"));
    assert_non_null(strstr(out.p, "<td>1</td>"));
    assert_non_null(strstr(out.p, "<del>2</del>"));
    assert_null(strstr(out.p, "<script"));
    assert_null(strstr(out.p, "<b "));
    assert_non_null(strstr(out.p, "&lt;script&gt;"));
    pr_buf_reset(&out);
    pr_html_escape("<a href=\"x\">'&'</a>", 19, &out);
    assert_string_equal(out.p, "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    pr_buf_dispose(&out);
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mustache__escape_html),
        cmocka_unit_test(test_mustache__escape_markdown),
        cmocka_unit_test(test_mustache__markdown_table_survives_hostile_values),
        cmocka_unit_test(test_mustache__numbers),
        cmocka_unit_test(test_mustache__truthiness_and_paths),
        cmocka_unit_test(test_mustache__error_positions),
        cmocka_unit_test(test_mustache__partial_error_names_partial),
        cmocka_unit_test(test_mustache__dir_loader_partials),
        cmocka_unit_test(test_mustache__partial_path_safety),
        cmocka_unit_test(test_mustache__inheritance_from_loaders),
        cmocka_unit_test(test_mustache__docs_example),
        cmocka_unit_test(test_mustache__depth_limit),
        cmocka_unit_test(test_mustache__output_and_work_caps),
        cmocka_unit_test(test_mustache__compile_once_render_fast),
        cmocka_unit_test(test_mustache__markdown_to_html),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
