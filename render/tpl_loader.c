/* Template loaders for partials and parents: a directory (path-safe), the built-in table, a chain. */
#include "render/mustache.h"
#include "model/l10n.h"
#include "model/xalloc.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>

/* Calls try(candidate, …, payload) for name, name+ext, name+".mustache" until one is not
 * PR_ENOTFOUND. */
static int try_names(const char *name, const char *ext,
                     int (*try)(const char *, char **, size_t *, pr_error *, void *), void *payload,
                     char **text, size_t *len, pr_error *err)
{
    const char *exts[3] = {"", ext, ".mustache"};
    char cand[PR_TPL_MAX_NAME + 32];
    for (int i = 0; i < 3; i++) {
        if (!exts[i] || (i > 0 && !exts[i][0]))
            continue;
        if (i == 2 && ext && strcmp(ext, ".mustache") == 0)
            continue;
        size_t nl = strlen(name), el = strlen(exts[i]);
        if (nl + el >= sizeof cand)
            return PR_ENOTFOUND;
        memcpy(cand, name, nl);
        memcpy(cand + nl, exts[i], el + 1);
        int rc = try(cand, text, len, err, payload);
        if (rc != PR_ENOTFOUND)
            return rc;
    }
    return PR_ENOTFOUND;
}

/* ---- Built-in templates ------------------------------------------------------------------- */

static int builtin_try(const char *name, char **text, size_t *len, pr_error *err, void *payload)
{
    const pr_builtin_template *t = payload;
    for (; t->name; t++)
        if (strcmp(t->name, name) == 0) {
            *text = pr_xstrndup(t->text, t->len);
            *len = t->len;
            return 0;
        }
    return PR_ENOTFOUND;
}

static int builtin_load(const char *name, char **text, size_t *len, pr_error *err, void *payload)
{
    pr_tpl_builtin *b = payload;
    const pr_builtin_template *table = b->table ? b->table : pr_builtin_templates;
    int rc = try_names(name, b->ext, builtin_try, (void *)(uintptr_t)table, text, len, err);
    char plain[PR_TPL_MAX_NAME + 1];
    if (rc == PR_ENOTFOUND && pr_tpl_builtin_plain(name, plain, sizeof plain))
        rc = try_names(plain, b->ext, builtin_try, (void *)(uintptr_t)table, text, len, err);
    return rc;
}

pr_tpl_loader pr_tpl_builtin_loader(pr_tpl_builtin *b)
{
    pr_tpl_loader l = {builtin_load, b};
    return l;
}

const char *pr_tpl_builtin_plain(const char *name, char *buf, size_t size)
{
    char lang[32];
    if (!pr_l10n_name_lang(name, lang, sizeof lang))
        return NULL;
    const char *ext = strrchr(name, '.');
    size_t n = strlen(lang);
    if ((size_t)(ext - name) <= n + 1 || ext[-(long)n - 1] != '.' || memcmp(ext - n, lang, n))
        return NULL; /* the language is not the component before the extension */
    size_t stem = (size_t)(ext - name) - n - 1; /* NAME.LANG.EXT: NAME */
    if (snprintf(buf, size, "%.*s%s", (int)stem, name, ext) >= (int)size)
        return NULL;
    return buf;
}

/* ---- Directory ---------------------------------------------------------------------------- */

int pr_tpl_dir_init(pr_tpl_dir *d, const char *dir, pr_error *err)
{
    char *rp = realpath(dir, NULL);
    struct stat st;
    if (!rp || stat(rp, &st) < 0 || !S_ISDIR(st.st_mode)) {
        int e = errno;
        free(rp);
        return pr_error_set(err, e == ENOENT ? PR_ENOTFOUND : PR_EIO, dir, 0, 0,
                            "expected a readable template directory");
    }
    if (strlen(rp) >= sizeof d->root) {
        free(rp);
        return pr_error_set(err, PR_EIO, dir, 0, 0, "directory path too long");
    }
    strcpy(d->root, rp);
    free(rp);
    return 0;
}

static int is_allowed(const pr_tpl_dir *d, const char *name)
{
    for (const char *const *a = d->allowed; a && *a; a++)
        if (strcmp(*a, name) == 0)
            return 1;
    return 0;
}

static int has_dotdot(const char *name)
{
    for (const char *p = name; *p;) {
        const char *e = strchr(p, '/');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == 2 && p[0] == '.' && p[1] == '.')
            return 1;
        if (!e)
            break;
        p = e + 1;
    }
    return 0;
}

int pr_tpl_read_file(const char *path, const char *name, char **text, size_t *len, pr_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno == ENOENT || errno == ENOTDIR
                   ? PR_ENOTFOUND
                   : pr_error_set(err, PR_EIO, name, 0, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && !S_ISREG(st.st_mode)) { /* a folder of that name */
        fclose(f);
        return PR_ENOTFOUND;
    }
    pr_buf b = PR_BUF_INIT;
    b.max = PR_TPL_MAX_BYTES;
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        pr_buf_append(&b, chunk, n);
    int bad = ferror(f);
    fclose(f);
    if (bad || b.overflow) {
        pr_buf_dispose(&b);
        return bad ? pr_error_set(err, PR_EIO, name, 0, 0, "read error")
                   : pr_error_set(err, PR_EUSAGE, name, 0, 0, "template larger than %u bytes",
                                  PR_TPL_MAX_BYTES);
    }
    *len = b.len;
    *text = pr_buf_steal(&b);
    return 0;
}

static int dir_try(const char *name, char **text, size_t *len, pr_error *err, void *payload)
{
    const pr_tpl_dir *d = payload;
    char path[sizeof d->root + PR_TPL_MAX_NAME + 40];
    if (name[0] == '/')
        snprintf(path, sizeof path, "%s", name);
    else
        snprintf(path, sizeof path, "%s/%s", d->root, name);
    if (is_allowed(d, name))
        return pr_tpl_read_file(path, name, text, len, err);
    char *rp = realpath(path, NULL);
    if (!rp)
        return PR_ENOTFOUND;
    size_t rl = strlen(d->root);
    int inside = strncmp(rp, d->root, rl) == 0 && (rp[rl] == '/' || (rl == 1 && d->root[0] == '/'));
    struct stat st;
    int regular = stat(rp, &st) == 0 && S_ISREG(st.st_mode);
    int rc;
    if (!inside)
        rc = pr_error_set(err, PR_EUSAGE, name, 0, 0,
                          "template resolves outside the template directory %s", d->root);
    else if (!regular)
        rc = PR_ENOTFOUND;
    else
        rc = pr_tpl_read_file(rp, name, text, len, err);
    free(rp);
    return rc;
}

static int dir_load(const char *name, char **text, size_t *len, pr_error *err, void *payload)
{
    pr_tpl_dir *d = payload;
    if (!is_allowed(d, name)) {
        if (name[0] == '/' || has_dotdot(name))
            return pr_error_set(err, PR_EUSAGE, name, 0, 0,
                                "partial names may not be absolute or contain '..'");
    }
    return try_names(name, d->ext, dir_try, d, text, len, err);
}

pr_tpl_loader pr_tpl_dir_loader(pr_tpl_dir *d)
{
    pr_tpl_loader l = {dir_load, d};
    return l;
}

/* ---- Chain -------------------------------------------------------------------------------- */

static int chain_load(const char *name, char **text, size_t *len, pr_error *err, void *payload)
{
    pr_tpl_chain *c = payload;
    int rc = PR_ENOTFOUND;
    if (c->first && c->first->load)
        rc = c->first->load(name, text, len, err, c->first->payload);
    if (rc == PR_ENOTFOUND && c->second && c->second->load)
        rc = c->second->load(name, text, len, err, c->second->payload);
    return rc;
}

pr_tpl_loader pr_tpl_chain_loader(pr_tpl_chain *c)
{
    pr_tpl_loader l = {chain_load, c};
    return l;
}
