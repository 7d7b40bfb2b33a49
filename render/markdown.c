/* Markdown to HTML through md4c-html, and the HTML escaping helper. */
#include "render/markdown.h"
#include "render/mustache.h"
#include <md4c-html.h>
#include <string.h>

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
    /* md4c 0.4.8 (Debian 12) can read past the end of its input, notably around NUL bytes
     * (found by fuzz_markdown; tests/fuzz/crashes/markdown/). It reads a copy: NULs become
     * U+FFFD, as CommonMark asks, and the copy ends with slack so a stray read stays in it. */
    pr_buf in = PR_BUF_INIT;
    in.max = len + 64 + 2 * (size_t)(memchr(md, 0, len) ? len : 0) + 1;
    for (const char *p = md, *end = md + len; p < end;) {
        const char *nul = memchr(p, 0, (size_t)(end - p));
        size_t k = nul ? (size_t)(nul - p) : (size_t)(end - p);
        pr_buf_append(&in, p, k);
        p += k;
        if (nul) {
            pr_buf_append(&in, "\xef\xbf\xbd", 3);
            p++;
        }
    }
    size_t n = in.len;
    static const char slack[64];
    pr_buf_append(&in, slack, sizeof slack);
    int rc = n > 0xFFFFFFFFu ? -1
                             : md_html(in.p ? in.p : "", (MD_SIZE)n, emit, out, flags,
                                       MD_HTML_FLAG_SKIP_UTF8_BOM);
    pr_buf_dispose(&in);
    if (rc != 0)
        return pr_error_set(err, PR_EPARSE, "", 0, 0, "markdown conversion failed");
    if (out->overflow)
        return pr_error_set(err, PR_EIO, "", 0, 0, "HTML output larger than %zu bytes", out->max);
    return 0;
}

void pr_html_escape(const char *s, size_t len, pr_buf *out)
{
    pr_mustache_escape(s, len, PR_ESC_HTML, out);
}
