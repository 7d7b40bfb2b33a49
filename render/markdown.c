/* Markdown to HTML through md4c-html, and the HTML escaping helper. */
#include "render/markdown.h"
#include "render/mustache.h"
#include <md4c-html.h>

static void emit(const MD_CHAR *text, MD_SIZE size, void *payload)
{
    pr_buf_append(payload, text, size);
}

int pr_markdown_to_html(const char *md, size_t len, pr_buf *out, pr_error *err)
{
    if (len > 0xFFFFFFFFu)
        return pr_error_set(err, PR_EUSAGE, "", 0, 0, "markdown input larger than 4 GiB");
    /* No permissive autolinks: a URL or "www." inside a label or an error (text from input
     * files) must never become a link. Values are escaped (render/mustache.c), so only the
     * template's own text can link, with <https://…> or [text](url). */
    unsigned flags = MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_TASKLISTS | MD_FLAG_NOHTML;
    if (md_html(md, (MD_SIZE)len, emit, out, flags, MD_HTML_FLAG_SKIP_UTF8_BOM) != 0)
        return pr_error_set(err, PR_EPARSE, "", 0, 0, "markdown conversion failed");
    if (out->overflow)
        return pr_error_set(err, PR_EIO, "", 0, 0, "HTML output larger than %zu bytes", out->max);
    return 0;
}

void pr_html_escape(const char *s, size_t len, pr_buf *out)
{
    pr_mustache_escape(s, len, PR_ESC_HTML, out);
}
