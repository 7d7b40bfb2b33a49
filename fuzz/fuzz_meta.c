/* Fuzz target: a --meta file (any JSON), made ready for templates as `render` does, rendered
 * through the built-in report.md with its control characters made visible, then to HTML. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli/common.h"
#include "model/text.h"
#include "render/markdown.h"
#include "render/mustache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    json_error_t je;
    json_t *meta = json_loadb((const char *)data, size, 0, &je);
    if (!json_is_object(meta)) {
        json_decref(meta);
        return 0;
    }
    pr_cli_prepare_meta(meta);
    json_t *ctx = json_pack("{s:o,s:[],s:s,s:s}", "meta", meta, "runs", "version", "fuzz",
                            "generated", "2026-12-01T00:00:00Z");
    pr_text_visible_json(ctx, PR_TEXT_LINES);
    const char *text = NULL;
    size_t len = 0;
    for (size_t i = 0; pr_builtin_templates[i].name; i++)
        if (!strcmp(pr_builtin_templates[i].name, "report.md")) {
            text = pr_builtin_templates[i].text;
            len = pr_builtin_templates[i].len;
        }
    if (!text)
        abort();
    pr_tpl_builtin bt = {NULL, ".md"};
    pr_tpl_loader bl = pr_tpl_builtin_loader(&bt);
    pr_buf md = PR_BUF_INIT;
    md.max = 1 << 24;
    pr_error err;
    if (pr_mustache_render(text, len, "report.md", ctx, &bl, PR_ESC_MARKDOWN, &md, &err) == 0) {
        pr_buf html = PR_BUF_INIT;
        html.max = 1 << 26;
        if (pr_markdown_to_html(md.p ? md.p : "", md.len, &html, &err) == 0 && html.p) {
            if (strstr(html.p, "<script"))
                abort(); /* nothing from the file becomes markup */
            for (const char *a = html.p; (a = strstr(a, "<a ")); a++)
                if (strncmp(a, "<a href=\"#", 10) != 0)
                    abort(); /* only the template's own links, to its own sections */
        }
        pr_buf_dispose(&html);
    }
    pr_buf_dispose(&md);
    json_decref(ctx);
    return 0;
}
