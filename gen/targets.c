/* Attack targets: command-line URLs, Vegeta's HTTP and JSON targets formats, request bytes. */
#include "gen/targets.h"
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/lex.h"
#include "model/xalloc.h"

void pr_targets_init(pr_targets *t)
{
    memset(t, 0, sizeof *t);
}

static void target_dispose(pr_target *x)
{
    free(x->method);
    free(x->url);
    for (size_t i = 0; i < x->nheaders; i++)
        free(x->headers[i]);
    free(x->headers);
    free(x->body);
    pr_http_url_dispose(&x->u);
    pr_buf_dispose(&x->request);
}

void pr_targets_dispose(pr_targets *t)
{
    for (size_t i = 0; i < t->n; i++)
        target_dispose(&t->v[i]);
    free(t->v);
    memset(t, 0, sizeof *t);
}

static int valid_method(const char *m, size_t n)
{
    if (n == 0 || n > 32)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isupper((unsigned char)m[i]) && m[i] != '-' && m[i] != '_')
            return 0;
    return 1;
}

int pr_targets_add(pr_targets *t, const char *method, const char *url, const char *const *headers,
                   size_t nheaders, const void *body, size_t body_len, pr_error *err)
{
    if (t->n >= PR_TARGETS_MAX)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0, "more than %d targets", PR_TARGETS_MAX);
    if (!valid_method(method, strlen(method)))
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            "'%s': expected an HTTP method in upper case", method);
    if (nheaders > PR_TARGET_HEADERS_MAX)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0, "more than %d headers on one target",
                            PR_TARGET_HEADERS_MAX);
    pr_target x;
    memset(&x, 0, sizeof x);
    int rc = pr_http_url_parse(&x.u, url, err);
    if (rc < 0)
        return rc;
    x.method = pr_xstrdup(method);
    x.url = pr_xstrdup(url);
    x.headers = pr_xcalloc(nheaders ? nheaders : 1, sizeof *x.headers);
    for (size_t i = 0; i < nheaders; i++)
        x.headers[i] = pr_xstrdup(headers[i]);
    x.nheaders = nheaders;
    if (body) {
        x.has_body = 1;
        x.body = pr_xmalloc(body_len ? body_len : 1);
        memcpy(x.body, body, body_len);
        x.body_len = body_len;
    }
    t->v = pr_xgrow(t->v, &t->cap, t->n + 1, sizeof *t->v);
    t->v[t->n++] = x;
    return 0;
}

int pr_targets_load_file(const char *path, unsigned char **out, size_t *len, pr_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return pr_error_set(err, PR_EIO, path, 0, 0, "cannot open body file: %s", strerror(errno));
    size_t cap = 4096, n = 0;
    unsigned char *b = pr_xmalloc(cap);
    for (;;) {
        if (n == cap)
            b = pr_xgrow(b, &cap, n + 1, 1);
        size_t got = fread(b + n, 1, cap - n, f);
        n += got;
        if (n > PR_TARGET_BODY_MAX) {
            fclose(f);
            free(b);
            return pr_error_set(err, PR_EUSAGE, path, 0, 0, "body file larger than %u bytes",
                                PR_TARGET_BODY_MAX);
        }
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(b);
        return pr_error_set(err, PR_EIO, path, 0, 0, "read error");
    }
    *out = b;
    *len = n;
    return 0;
}

/* ---- Vegeta HTTP format ---- */

typedef struct pending {
    char *method, *url;
    char *headers[PR_TARGET_HEADERS_MAX];
    size_t nheaders;
    unsigned char *body;
    size_t body_len;
    int has_body;
    long line;
} pending;

static void pending_clear(pending *p)
{
    free(p->method);
    free(p->url);
    for (size_t i = 0; i < p->nheaders; i++)
        free(p->headers[i]);
    free(p->body);
    memset(p, 0, sizeof *p);
}

static int pending_flush(pr_targets *t, pending *p, const char *name, pr_error *err)
{
    if (!p->method)
        return 0;
    int rc = pr_targets_add(t, p->method, p->url, (const char *const *)p->headers, p->nheaders,
                            p->has_body ? (p->body ? p->body : (unsigned char *)"") : NULL,
                            p->body_len, err);
    if (rc < 0) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        pr_error_set(err, rc, name, p->line, 1, "%s", msg);
    }
    pending_clear(p);
    return rc;
}

/* "METHOD URL": returns 1 and the split point if the line starts a target. */
static int target_line(const char *l, size_t n, size_t *sp)
{
    const char *s = memchr(l, ' ', n);
    if (!s || !valid_method(l, (size_t)(s - l)))
        return 0;
    *sp = (size_t)(s - l);
    return 1;
}

static int read_http(pr_targets *t, pr_input *in, pr_error *err)
{
    pending p;
    memset(&p, 0, sizeof p);
    const char *name = pr_input_name(in);
    const char *line;
    size_t n;
    int rc, done_body = 0;
    while ((rc = pr_input_getline(in, &line, &n, err)) > 0) {
        long lineno = pr_input_lineno(in);
        pr_str s = pr_str_trim((pr_str){line, n});
        size_t sp;
        if (s.n == 0) {
            if ((rc = pending_flush(t, &p, name, err)) < 0)
                goto out;
            done_body = 0;
            continue;
        }
        if (s.p[0] == '#')
            continue;
        if (target_line(s.p, s.n, &sp)) {
            if ((rc = pending_flush(t, &p, name, err)) < 0)
                goto out;
            pr_str u = pr_str_trim((pr_str){s.p + sp + 1, s.n - sp - 1});
            p.method = pr_xstrndup(s.p, sp);
            p.url = pr_xstrndup(u.p, u.n);
            p.line = lineno;
            done_body = 0;
            continue;
        }
        if (!p.method) {
            rc = pr_error_set(err, PR_EPARSE, name, lineno, 1,
                              "expected a target line \"METHOD URL\"");
            goto out;
        }
        if (done_body) {
            rc = pr_error_set(err, PR_EPARSE, name, lineno, 1,
                              "expected a blank line or a new target after the @body line");
            goto out;
        }
        if (s.p[0] == '@') {
            char *path = pr_xstrndup(s.p + 1, s.n - 1);
            rc = pr_targets_load_file(path, &p.body, &p.body_len, err);
            free(path);
            if (rc < 0) {
                char msg[sizeof err->msg + 600];
                snprintf(msg, sizeof msg, "%.*s: %s", (int)(s.n - 1 > 500 ? 500 : s.n - 1), s.p + 1,
                         err->msg);
                rc = pr_error_set(err, rc, name, lineno, 1, "%s", msg);
                goto out;
            }
            p.has_body = 1;
            done_body = 1;
            continue;
        }
        const char *colon = memchr(s.p, ':', s.n);
        if (!colon || colon == s.p) {
            rc = pr_error_set(err, PR_EPARSE, name, lineno, 1,
                              "expected a header line \"Name: value\", a @body line or a blank "
                              "line");
            goto out;
        }
        if (p.nheaders >= PR_TARGET_HEADERS_MAX) {
            rc = pr_error_set(err, PR_EPARSE, name, lineno, 1, "more than %d headers",
                              PR_TARGET_HEADERS_MAX);
            goto out;
        }
        pr_str k = pr_str_trim((pr_str){s.p, (size_t)(colon - s.p)});
        pr_str v = pr_str_trim((pr_str){colon + 1, s.n - (size_t)(colon - s.p) - 1});
        p.headers[p.nheaders++] = pr_xasprintf("%.*s: %.*s", (int)k.n, k.p, (int)v.n, v.p);
    }
    if (rc == 0)
        rc = pending_flush(t, &p, name, err);
out:
    pending_clear(&p);
    return rc;
}

/* ---- base64 ---- */

static int b64val(int c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+' || c == '-')
        return 62;
    if (c == '/' || c == '_')
        return 63;
    return -1;
}

long pr_base64_decode(const char *s, size_t n, unsigned char *out)
{
    while (n && s[n - 1] == '=')
        n--;
    if (n % 4 == 1)
        return -1;
    long o = 0;
    unsigned acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int v = b64val((unsigned char)s[i]);
        if (v < 0)
            return -1;
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (unsigned char)(acc >> bits);
        }
    }
    return o;
}

/* ---- Vegeta JSON format ---- */

/* The "header" object's values ({"Name": ["v1", "v2"]}, a lone string too) as lines. */
static int json_headers(json_t *jh, char **headers, size_t *nh, const char *name, long lineno,
                        pr_error *err)
{
    const char *key;
    json_t *vals;
    json_object_foreach (jh, key, vals) {
        size_t nv = json_is_array(vals) ? json_array_size(vals) : 1;
        for (size_t i = 0; i < nv; i++) {
            json_t *v = json_is_array(vals) ? json_array_get(vals, i) : vals;
            if (!json_is_string(v))
                return pr_error_set(err, PR_EPARSE, name, lineno, 1,
                                    "header \"%s\": expected an array of strings", key);
            if (*nh >= PR_TARGET_HEADERS_MAX)
                return pr_error_set(err, PR_EPARSE, name, lineno, 1, "more than %d headers",
                                    PR_TARGET_HEADERS_MAX);
            headers[(*nh)++] = pr_xasprintf("%s: %s", key, json_string_value(v));
        }
    }
    return 0;
}

/* One JSON target object (method, url, body base64, header) added to t. */
static int json_target(pr_targets *t, json_t *o, const char *name, long lineno, pr_error *err)
{
    const char *method = json_string_value(json_object_get(o, "method"));
    const char *url = json_string_value(json_object_get(o, "url"));
    json_t *jb = json_object_get(o, "body");
    json_t *jh = json_object_get(o, "header");
    if (!method || !url)
        return pr_error_set(err, PR_EPARSE, name, lineno, 1,
                            "expected string fields \"method\" and \"url\"");
    if (jb && !json_is_null(jb) && !json_is_string(jb))
        return pr_error_set(err, PR_EPARSE, name, lineno, 1,
                            "expected \"body\" to be a base64 string");
    if (jh && !json_is_null(jh) && !json_is_object(jh))
        return pr_error_set(err, PR_EPARSE, name, lineno, 1,
                            "expected \"header\" to be an object of string arrays");
    char *headers[PR_TARGET_HEADERS_MAX];
    size_t nh = 0;
    unsigned char *body = NULL;
    long blen = 0;
    int rc = 0;
    if (json_is_string(jb)) {
        size_t bl = json_string_length(jb);
        body = pr_xmalloc(3 * (bl / 4) + 3);
        blen = pr_base64_decode(json_string_value(jb), bl, body);
        if (blen < 0)
            rc = pr_error_set(err, PR_EPARSE, name, lineno, 1, "\"body\" is not valid base64");
    }
    if (rc == 0 && json_is_object(jh))
        rc = json_headers(jh, headers, &nh, name, lineno, err);
    if (rc == 0) {
        rc = pr_targets_add(t, method, url, (const char *const *)headers, nh, body,
                            body ? (size_t)blen : 0, err);
        if (rc < 0) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            pr_error_set(err, rc, name, lineno, 1, "%s", msg);
        }
    }
    for (size_t i = 0; i < nh; i++)
        free(headers[i]);
    free(body);
    return rc;
}

static int read_json(pr_targets *t, pr_input *in, pr_error *err)
{
    const char *name = pr_input_name(in);
    const char *line;
    size_t n;
    int rc;
    while ((rc = pr_input_getline(in, &line, &n, err)) > 0) {
        long lineno = pr_input_lineno(in);
        pr_str s = pr_str_trim((pr_str){line, n});
        if (s.n == 0)
            continue;
        json_error_t je;
        json_t *o = json_loadb(s.p, s.n, JSON_REJECT_DUPLICATES, &je);
        if (!o || !json_is_object(o)) {
            json_decref(o);
            return pr_error_set(err, PR_EPARSE, name, lineno, o ? 1 : je.column,
                                "expected a JSON target object: %s", o ? "not an object" : je.text);
        }
        rc = json_target(t, o, name, lineno, err);
        json_decref(o);
        if (rc < 0)
            return rc;
    }
    return rc;
}

int pr_targets_read(pr_targets *t, pr_input *in, const char *format, pr_error *err)
{
    if (!format) {
        size_t got;
        const unsigned char *p = pr_input_peek(in, 4096, &got);
        size_t i = 0;
        while (i < got && isspace(p[i]))
            i++;
        format = i < got && p[i] == '{' ? "json" : "http";
    }
    if (!strcmp(format, "json"))
        return read_json(t, in, err);
    if (!strcmp(format, "http"))
        return read_http(t, in, err);
    return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                        "unknown targets format '%s' (expected http or json)", format);
}

int pr_targets_finish(pr_targets *t, const char *const *headers, size_t nheaders,
                      const void *default_body, size_t default_body_len, int keepalive,
                      pr_error *err)
{
    if (t->n == 0)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            "no targets (give URLs, or --targets FILE, or targets on stdin)");
    for (size_t i = 0; i < t->n; i++) {
        pr_target *x = &t->v[i];
        size_t nh = x->nheaders + nheaders;
        const char **all = pr_xcalloc(nh ? nh : 1, sizeof *all);
        for (size_t j = 0; j < nheaders; j++)
            all[j] = headers[j];
        for (size_t j = 0; j < x->nheaders; j++)
            all[nheaders + j] = x->headers[j];
        const void *body = x->has_body ? x->body : default_body;
        size_t blen = x->has_body ? x->body_len : (default_body ? default_body_len : 0);
        pr_buf_reset(&x->request);
        pr_http_request_build(&x->request, x->method, &x->u, all, nh, body, blen, keepalive);
        free(all);
    }
    return 0;
}
