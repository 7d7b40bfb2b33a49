/* Fuzz target: compiles and renders arbitrary templates against fuzzed JSON or a fixed context.
 * Input: template bytes, optionally followed by a NUL byte and JSON data. The first byte picks
 * the escape mode. Partials: a few fixed ones plus "self" (the input template itself). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/xalloc.h"
#include "render/markdown.h"
#include "render/mustache.h"

static const char *CTX =
    "{\"a\": {\"b\": {\"c\": \"<deep & \\\"x\\\">\"}}, \"list\": [1, 2.5, \"three|3\", null, true,"
    " {\"a\": \"inner\"}, [\"x\", \"y\"]], \"x\": \"*_`[]()#-+.!|\\\\\\n\", \"n\": 0, \"e\": \"\","
    " \"t\": true, \"f\": false, \"z\": null, \"obj\": {}, \"num\": -1.21e-5,"
    " \"name\": \"self\", \"p\": \"part\", \"runs\": [{\"name\": \"r1\", \"labels\": [{\"label\":"
    " \"GET /\", \"p99_ms\": 12.5}]}, {\"name\": \"r2\", \"labels\": []}]}";

#define TPL(name, text) {name, text, sizeof text - 1}
static const pr_builtin_template PARTIALS[] = {
    TPL("part", "[{{x}}|{{#list}}{{.}}{{/list}}]\n  {{$blk}}default{{/blk}}\n"),
    TPL("base", "<{{$title}}T{{/title}}>\n{{$body}}\n  body {{a.b.c}}\n{{/body}}\n"),
    TPL("rec", "{{#list}}{{>rec}}{{/list}}"),
    {NULL, NULL, 0}};

typedef struct fz {
    const uint8_t *tpl;
    size_t len;
    pr_tpl_builtin bi;
} fz;

static int load(const char *name, char **text, size_t *len, pr_error *err, void *payload)
{
    fz *f = payload;
    if (strcmp(name, "self") == 0) {
        *text = pr_xstrndup((const char *)f->tpl, f->len);
        *len = f->len;
        return 0;
    }
    pr_tpl_loader b = pr_tpl_builtin_loader(&f->bi);
    return b.load(name, text, len, err, b.payload);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 65536)
        return 0;
    int esc = data[0] % 3;
    data++;
    size--;
    const uint8_t *nul = memchr(data, 0, size);
    size_t tlen = nul ? (size_t)(nul - data) : size;
    json_t *ctx = NULL;
    if (nul) {
        json_error_t jerr;
        ctx = json_loadb((const char *)nul + 1, size - tlen - 1, JSON_DECODE_ANY | JSON_ALLOW_NUL,
                         &jerr);
    }
    if (!ctx)
        ctx = json_loads(CTX, 0, NULL);
    fz f = {data, tlen, {PARTIALS, NULL}};
    pr_tpl_loader l = {load, &f};
    pr_buf out = PR_BUF_INIT;
    out.max = 1 << 20;
    pr_error err;
    pr_template *t;
    if (pr_template_compile(&t, (const char *)data, tlen, "fuzz", &err) == 0) {
        if (pr_template_render(t, ctx, &l, esc, &out, &err) == 0 && esc == PR_ESC_MARKDOWN) {
            pr_buf html = PR_BUF_INIT;
            html.max = 1 << 22;
            if (pr_markdown_to_html(out.p ? out.p : "", out.len, &html, &err) == 0 && html.p &&
                strstr(html.p, "<script"))
                abort(); /* raw HTML must never pass through */
            pr_buf_dispose(&html);
        }
        pr_template_free(t);
    }
    pr_buf_dispose(&out);
    json_decref(ctx);
    return 0;
}
