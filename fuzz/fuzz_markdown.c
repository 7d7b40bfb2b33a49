/* Fuzz target: Markdown to HTML through md4c (render/markdown.c) on arbitrary text, and the
 * promise that text from input files, escaped into a Markdown table cell, stays text: the
 * table keeps its two columns, no element, link or control character comes out of it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/buf.h"
#include "render/markdown.h"
#include "render/mustache.h"

static size_t count(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    pr_error err;
    pr_buf html = PR_BUF_INIT;
    html.max = 1 << 24;
    (void)pr_markdown_to_html((const char *)data, size, &html, &err); /* any text at all */
    if (html.p && strstr(html.p, "<script"))
        abort(); /* raw HTML never passes through */
    /* the input as a value: a label in a two-column table row */
    pr_buf md = PR_BUF_INIT;
    pr_buf_puts(&md, "| label | n |\n|---|---:|\n| ");
    pr_mustache_escape((const char *)data, size, PR_ESC_MARKDOWN, &md);
    pr_buf_puts(&md, " | 1 |\n");
    pr_buf_reset(&html);
    if (pr_markdown_to_html(md.p, md.len, &html, &err) == 0 && html.p) {
        if (count(html.p, "</td>") != 2 || count(html.p, "</th>") != 2)
            abort(); /* the cell broke the table */
        if (strstr(html.p, "<a ") || strstr(html.p, "<img") || strstr(html.p, "<script"))
            abort(); /* a value became a link or an element */
        for (const char *p = html.p; *p; p++)
            if ((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t')
                abort(); /* a control character reached the page */
    }
    pr_buf_dispose(&md);
    pr_buf_dispose(&html);
    return 0;
}
