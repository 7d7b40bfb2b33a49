/* Mustache engine: compiles template text into a node tree and renders it against jansson values. */
#include "render/mustache.h"
#include <ctype.h>
#include "model/l10n.h"
#include "model/text.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DELIM 32
#define MAX_PARTIALS 256

/* ---- Tokens (first pass) ---------------------------------------------------------------- */

enum {
    T_TEXT,
    T_VAR,
    T_RAW,
    T_SECTION,
    T_INVERTED,
    T_CLOSE,
    T_COMMENT,
    T_PARTIAL,
    T_PARENT,
    T_BLOCK,
    T_DELIM
};

typedef struct tok {
    int type;
    size_t start, len;       /* TEXT: the text; tags: the (trimmed) name */
    size_t at;               /* offset of the tag's opening delimiter (or of the text) */
    int dynamic;             /* {{>*x}} / {{<*x}} */
    int in_parent;           /* block directly inside a parent's body (an override) */
    size_t match;            /* CLOSE: index of its opening tag */
    int standalone;          /* tag on a standalone line */
    int removed;             /* TEXT dropped because its line is standalone */
    int bol;                 /* first token of a kept line */
    size_t ws_start, ws_len; /* tags: whitespace before the tag when only whitespace precedes it */
    int ws_only;             /* only whitespace precedes the tag on its line */
    size_t end;              /* tags: offset just past the closing delimiter */
} tok;

typedef struct toks {
    tok *v;
    size_t n, cap;
} toks;

/* ---- Nodes ------------------------------------------------------------------------------ */

enum { N_TEXT, N_BOL, N_VAR, N_RAW, N_SECTION, N_INVERTED, N_PARTIAL, N_PARENT, N_BLOCK };

typedef struct node {
    int type;
    const char *s; /* text or name */
    size_t n;
    const char *ws; /* BOL: leading whitespace of the line; PARTIAL/PARENT: standalone indent;
                        BLOCK: the block's indentation (see block_indent) */
    size_t wsn;
    int dynamic, standalone;
    size_t at;       /* tags: offset of the opening delimiter, for messages */
    const char *raw; /* a message section {{#_}}…{{/_}}: its text as written, the msgid */
    size_t nraw;
    struct node *kids;
    size_t nkids;
} node;

struct pr_template {
    char *name;
    char *text;
    size_t len;
    node root; /* N_SECTION-like container */
};

/* ---- Helpers ------------------------------------------------------------------------------ */

static int is_ws(char c)
{
    return c == ' ' || c == '\t';
}

static void line_col(const char *s, size_t off, long *line, long *col)
{
    long l = 1, c = 1;
    for (size_t i = 0; i < off; i++) {
        if (s[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *col = c;
}

static const char *find(const char *hay, size_t hlen, size_t from, const char *needle, size_t nlen)
{
    if (nlen == 0 || from > hlen || hlen - from < nlen)
        return NULL;
    const char *p = hay + from, *end = hay + hlen - nlen + 1;
    while (p < end) {
        p = memchr(p, needle[0], (size_t)(end - p));
        if (!p)
            return NULL;
        if (memcmp(p, needle, nlen) == 0)
            return p;
        p++;
    }
    return NULL;
}

static tok *tok_push(toks *t, int type, size_t start, size_t len, size_t at)
{
    t->v = pr_xgrow(t->v, &t->cap, t->n + 1, sizeof *t->v);
    tok *k = &t->v[t->n++];
    memset(k, 0, sizeof *k);
    k->type = type;
    k->start = start;
    k->len = len;
    k->at = at;
    return k;
}

/* Adds text [start, end) as TEXT tokens, each ending after a newline or at `end`. */
static void push_text(toks *t, const char *s, size_t start, size_t end)
{
    while (start < end) {
        const char *nl = memchr(s + start, '\n', end - start);
        size_t e = nl ? (size_t)(nl - s) + 1 : end;
        tok_push(t, T_TEXT, start, e - start, start);
        start = e;
    }
}

typedef struct cc {
    const pr_template *t;
    const char *s;
    size_t len;
    pr_error *err;
} cc;

static int cerr(cc *c, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int cerr(cc *c, size_t off, const char *fmt, ...)
{
    long line, col;
    line_col(c->s, off, &line, &col);
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return pr_error_set(c->err, PR_EPARSE, c->t->name, line, col, "%s", msg);
}

/* Copies a name into a short printable buffer for messages. */
static const char *shown(const char *s, size_t n, char *buf, size_t size)
{
    size_t k = n < size - 4 ? n : size - 4;
    memcpy(buf, s, k);
    if (k < n)
        memcpy(buf + k, "...", 3), k += 3;
    buf[k] = 0;
    for (size_t i = 0; i < k; i++)
        if ((unsigned char)buf[i] < 0x20)
            buf[i] = '?';
    return buf;
}

/* ---- Tokenizer ---------------------------------------------------------------------------- */

/* The tokenizer's state: the current delimiters and the open sections. */
typedef struct tz {
    char open[MAX_DELIM + 1], close[MAX_DELIM + 1];
    size_t olen, clen;
    size_t stack[PR_MUSTACHE_MAX_DEPTH];
    size_t depth;
} tz;

/* The tag type its sigil at s[*p] names (T_VAR without one; *p moved past it) and the mark
 * that ends the tag (z's close, or "}" / "=" + close for {{{x}}} and {{=a b=}}, in braced). */
static int tag_type(const char *s, size_t len, size_t *p, const tz *z, char *braced,
                    const char **endmark, size_t *endlen)
{
    static const char sigils[] = "{&#^/!><$=";
    static const int types[] = {T_RAW,     T_RAW,     T_SECTION, T_INVERTED, T_CLOSE,
                                T_COMMENT, T_PARTIAL, T_PARENT,  T_BLOCK,    T_DELIM};
    *endmark = z->close;
    *endlen = z->clen;
    const char *q = *p < len && s[*p] ? strchr(sigils, s[*p]) : NULL;
    if (!q)
        return T_VAR;
    if (*q == '{' || *q == '=') {
        braced[0] = *q == '{' ? '}' : '=';
        memcpy(braced + 1, z->close, z->clen + 1);
        *endmark = braced;
        *endlen = z->clen + 1;
    }
    (*p)++;
    return types[q - sigils];
}

/* {{=OPEN CLOSE=}}: the new delimiters from s[ns..ne). */
static int set_delims(cc *c, tz *z, size_t ns, size_t ne, size_t at)
{
    const char *s = c->s;
    size_t a = ns, ae = a;
    while (ae < ne && !is_ws(s[ae]))
        ae++;
    size_t bs = ae;
    while (bs < ne && is_ws(s[bs]))
        bs++;
    size_t be = bs;
    while (be < ne && !is_ws(s[be]))
        be++;
    if (ae == a || bs == be || be != ne || ae - a > MAX_DELIM || be - bs > MAX_DELIM ||
        memchr(s + a, '=', ae - a) || memchr(s + bs, '=', be - bs))
        return cerr(c, at, "bad delimiter: expected '%s=OPEN CLOSE=%s'", z->open, z->close);
    memcpy(z->open, s + a, ae - a);
    z->open[ae - a] = 0;
    z->olen = ae - a;
    memcpy(z->close, s + bs, be - bs);
    z->close[be - bs] = 0;
    z->clen = be - bs;
    return 0;
}

/* Opens a section (parent, block) at the token just pushed, or closes the open one. */
static int nest(cc *c, tz *z, toks *t, size_t ns, size_t ne, size_t at)
{
    const char *s = c->s;
    tok *k = &t->v[t->n - 1];
    char b1[80], b2[80];
    if (k->type == T_SECTION || k->type == T_INVERTED || k->type == T_PARENT ||
        k->type == T_BLOCK) {
        if (z->depth == PR_MUSTACHE_MAX_DEPTH)
            return cerr(c, at, "sections nested deeper than %d levels", PR_MUSTACHE_MAX_DEPTH);
        if (k->type == T_BLOCK && z->depth > 0 && t->v[z->stack[z->depth - 1]].type == T_PARENT)
            k->in_parent = 1;
        z->stack[z->depth++] = t->n - 1;
    } else if (k->type == T_CLOSE) {
        if (z->depth == 0)
            return cerr(c, at, "unexpected end tag '%s'", shown(s + ns, ne - ns, b1, sizeof b1));
        tok *op = &t->v[z->stack[z->depth - 1]];
        if (op->len != ne - ns || memcmp(s + op->start, s + ns, op->len) != 0) {
            long l, cl;
            line_col(s, op->at, &l, &cl);
            return cerr(c, at, "mismatched end tag '%s': expected end of '%s' (opened at %ld:%ld)",
                        shown(s + ns, ne - ns, b1, sizeof b1),
                        shown(s + op->start, op->len, b2, sizeof b2), l, cl);
        }
        k->match = z->stack[z->depth - 1];
        k->in_parent = op->in_parent;
        z->depth--;
    }
    return 0;
}

/* One tag whose name (trimmed) is s[ns..ne): a name check, then the token. */
static int name_tag(cc *c, tz *z, toks *t, int type, size_t ns, size_t ne, size_t at)
{
    const char *s = c->s;
    char b1[80];
    int dynamic = 0;
    if ((type == T_PARTIAL || type == T_PARENT) && ns < ne && s[ns] == '*') {
        dynamic = 1;
        ns++;
        while (ns < ne && is_ws(s[ns]))
            ns++;
    }
    if (ns == ne)
        return cerr(c, at, "empty tag name");
    for (size_t i = ns; i < ne; i++)
        if (is_ws(s[i]) || s[i] == '\n' || s[i] == '\r')
            return cerr(c, at, "invalid tag name '%s'", shown(s + ns, ne - ns, b1, sizeof b1));
    tok_push(t, type, ns, ne - ns, at)->dynamic = dynamic;
    return nest(c, z, t, ns, ne, at);
}

static int tokenize(cc *c, toks *t)
{
    const char *s = c->s;
    size_t len = c->len, pos = 0;
    tz z = {"{{", "}}", 2, 2, {0}, 0};
    for (;;) {
        const char *o = find(s, len, pos, z.open, z.olen);
        if (!o) {
            push_text(t, s, pos, len);
            break;
        }
        size_t at = (size_t)(o - s);
        push_text(t, s, pos, at);
        size_t p = at + z.olen, endlen;
        const char *endmark;
        char braced[MAX_DELIM + 3];
        int type = tag_type(s, len, &p, &z, braced, &endmark, &endlen);
        const char *e = find(s, len, p, endmark, endlen);
        if (!e)
            return cerr(c, at, "unclosed tag: no '%.*s' after '%s'", (int)endlen, endmark, z.open);
        size_t ns = p, ne = (size_t)(e - s);
        pos = ne + endlen;
        if (type == T_COMMENT) {
            tok_push(t, T_COMMENT, ns, ne - ns, at);
            continue;
        }
        while (ns < ne && (is_ws(s[ns]) || s[ns] == '\n' || s[ns] == '\r'))
            ns++;
        while (ne > ns && (is_ws(s[ne - 1]) || s[ne - 1] == '\n' || s[ne - 1] == '\r'))
            ne--;
        int rc =
            type == T_DELIM ? set_delims(c, &z, ns, ne, at) : name_tag(c, &z, t, type, ns, ne, at);
        if (rc < 0)
            return rc;
        if (type != T_DELIM)
            t->v[t->n - 1].end = pos;
        if (type == T_DELIM)
            tok_push(t, T_DELIM, ns, ne - ns, at);
    }
    if (z.depth > 0) {
        char b1[80];
        tok *op = &t->v[z.stack[z.depth - 1]];
        const char *what = op->type == T_PARENT  ? "parent"
                           : op->type == T_BLOCK ? "block"
                                                 : "section";
        return cerr(c, op->at, "unclosed %s '%s'", what,
                    shown(s + op->start, op->len, b1, sizeof b1));
    }
    return 0;
}

/* ---- Standalone lines --------------------------------------------------------------------- */

static int text_is_ws(const char *s, const tok *k, int last)
{
    size_t n = k->len;
    if (last && n > 0 && s[k->start + n - 1] == '\n') {
        n--;
        if (n > 0 && s[k->start + n - 1] == '\r')
            n--;
    }
    for (size_t i = 0; i < n; i++)
        if (!is_ws(s[k->start + i]))
            return 0;
    return 1;
}

static int may_stand_alone(int type)
{
    return type != T_TEXT && type != T_VAR && type != T_RAW;
}

/* Tags that may share a standalone line: a parent's tags and its override blocks' tags. */
static int may_share_line(const tok *k)
{
    return k->type == T_PARENT || k->in_parent;
}

static void mark_lines(const char *s, toks *t)
{
    size_t i = 0;
    while (i < t->n) {
        size_t j = i;
        while (j < t->n && !(t->v[j].type == T_TEXT && s[t->v[j].start + t->v[j].len - 1] == '\n'))
            j++;
        size_t end = j < t->n ? j + 1 : t->n; /* [i, end) is the line */
        int tags = 0, ok = 1, share = 1;
        for (size_t k = i; k < end && ok; k++) {
            tok *x = &t->v[k];
            if (x->type == T_TEXT) {
                ok = text_is_ws(s, x, k == end - 1);
            } else if (!may_stand_alone(x->type)) {
                ok = 0;
            } else {
                tags++;
                const tok *y = x->type == T_CLOSE ? &t->v[x->match] : x;
                if (!may_share_line(y))
                    share = 0;
            }
        }
        int standalone = ok && tags > 0 && (tags == 1 || share);
        /* whitespace before each tag, when only whitespace precedes it */
        int ws_only = 1;
        size_t ws_start = t->v[i].start, ws_len = 0;
        for (size_t k = i; k < end; k++) {
            tok *x = &t->v[k];
            if (x->type == T_TEXT) {
                if (k == i && text_is_ws(s, x, 0) && s[x->start + x->len - 1] != '\n') {
                    ws_start = x->start;
                    ws_len = x->len;
                } else {
                    ws_only = 0;
                }
                if (standalone)
                    x->removed = 1;
            } else {
                x->ws_only = ws_only;
                x->ws_start = ws_start;
                x->ws_len = ws_only || standalone ? ws_len : 0;
                x->standalone = standalone;
                ws_only = 0;
            }
        }
        if (!standalone && i < end)
            t->v[i].bol = 1;
        i = end;
    }
}

/* ---- Tree --------------------------------------------------------------------------------- */

typedef struct nodes {
    node *v;
    size_t n, cap;
} nodes;

static node *node_push(nodes *ns, int type)
{
    ns->v = pr_xgrow(ns->v, &ns->cap, ns->n + 1, sizeof *ns->v);
    node *x = &ns->v[ns->n++];
    memset(x, 0, sizeof *x);
    x->type = type;
    return x;
}

/* A block's indentation: for a block whose opening tag stands alone, the leading whitespace of
 * its first content line (the "intrinsic" indentation); else the whitespace before the tag when
 * only whitespace precedes it; else none. Overriding content has its own indentation replaced
 * by the indentation of the block it fills. */
static void block_indent(node *b, const tok *open, const char *s)
{
    if (open->standalone && b->nkids > 0 && b->kids[0].type == N_BOL) {
        b->ws = b->kids[0].ws;
        b->wsn = b->kids[0].wsn;
    } else if (open->ws_only) {
        b->ws = s + open->ws_start;
        b->wsn = open->ws_len;
    } else {
        b->ws = s;
        b->wsn = 0;
    }
}

/* Builds nodes from tokens [*i, end) until the CLOSE matching `opener` (or the end). */
static void build(const char *s, toks *t, size_t *i, nodes *out)
{
    while (*i < t->n) {
        tok *k = &t->v[*i];
        if (k->type == T_CLOSE) {
            if (k->bol) { /* the line's start lies inside the closing section */
                node *b = node_push(out, N_BOL);
                b->ws = s + k->start;
                k->bol = 0;
            }
            return; /* caller consumes it */
        }
        (*i)++;
        if (k->bol) {
            node *b = node_push(out, N_BOL);
            b->ws = s + k->start;
            b->wsn = 0;
            if (k->type == T_TEXT && !k->removed) {
                size_t w = 0;
                while (w < k->len && is_ws(s[k->start + w]))
                    w++;
                b->wsn = w;
                if (w == k->len)
                    continue;
                node *x = node_push(out, N_TEXT);
                x->s = s + k->start + w;
                x->n = k->len - w;
                continue;
            }
        }
        switch (k->type) {
        case T_TEXT:
            if (!k->removed) {
                node *x = node_push(out, N_TEXT);
                x->s = s + k->start;
                x->n = k->len;
            }
            break;
        case T_VAR:
        case T_RAW: {
            node *x = node_push(out, k->type == T_VAR ? N_VAR : N_RAW);
            x->at = k->at;
            x->s = s + k->start;
            x->n = k->len;
            break;
        }
        case T_PARTIAL: {
            node *x = node_push(out, N_PARTIAL);
            x->at = k->at;
            x->s = s + k->start;
            x->n = k->len;
            x->dynamic = k->dynamic;
            x->standalone = k->standalone;
            x->ws = s + k->ws_start;
            x->wsn = k->standalone ? k->ws_len : 0;
            break;
        }
        case T_SECTION:
        case T_INVERTED:
        case T_PARENT:
        case T_BLOCK: {
            nodes kids = {NULL, 0, 0};
            build(s, t, i, &kids);
            (*i)++; /* the CLOSE */
            int ty = k->type == T_SECTION    ? N_SECTION
                     : k->type == T_INVERTED ? N_INVERTED
                     : k->type == T_PARENT   ? N_PARENT
                                             : N_BLOCK;
            node *x = node_push(out, ty);
            x->at = k->at;
            x->s = s + k->start;
            x->n = k->len;
            x->kids = kids.v;
            x->nkids = kids.n;
            x->dynamic = k->dynamic;
            x->standalone = k->standalone;
            x->ws = s + k->ws_start;
            x->wsn = k->standalone ? k->ws_len : 0;
            if (ty == N_BLOCK)
                block_indent(x, k, s);
            if (ty == N_SECTION && k->len == 1 && s[k->start] == '_' && *i <= t->n) {
                x->raw = s + k->end; /* the message: from the tag's end to its end tag */
                x->nraw = t->v[*i - 1].at - k->end;
            }
            break;
        }
        default: break; /* comments, delimiters */
        }
    }
}

static void free_nodes(node *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free_nodes(v[i].kids, v[i].nkids);
    free(v);
}

int pr_template_compile(pr_template **out, const char *text, size_t len, const char *name,
                        pr_error *err)
{
    *out = NULL;
    pr_template *t = pr_xcalloc(1, sizeof *t);
    t->name = pr_xstrdup(name ? name : "template");
    t->text = pr_xmalloc(len + 1);
    memcpy(t->text, text, len);
    t->text[len] = 0;
    t->len = len;
    t->root.type = N_SECTION;
    toks tk = {NULL, 0, 0};
    cc c = {t, t->text, len, err};
    int rc = tokenize(&c, &tk);
    if (rc < 0) {
        free(tk.v);
        pr_template_free(t);
        return rc;
    }
    mark_lines(t->text, &tk);
    nodes kids = {NULL, 0, 0};
    size_t i = 0;
    build(t->text, &tk, &i, &kids);
    free(tk.v);
    t->root.kids = kids.v;
    t->root.nkids = kids.n;
    *out = t;
    return 0;
}

void pr_template_free(pr_template *t)
{
    if (!t)
        return;
    free_nodes(t->root.kids, t->root.nkids);
    free(t->name);
    free(t->text);
    free(t);
}

const char *pr_template_name(const pr_template *t)
{
    return t->name;
}

/* ---- Values ------------------------------------------------------------------------------- */

void pr_mustache_format_value(json_t *v, pr_buf *out)
{
    char buf[64];
    switch (json_typeof(v)) {
    case JSON_STRING: pr_buf_append(out, json_string_value(v), json_string_length(v)); break;
    case JSON_INTEGER: pr_buf_printf(out, "%lld", (long long)json_integer_value(v)); break;
    case JSON_REAL: {
        double d = json_real_value(v);
        if (d == floor(d) && fabs(d) < 1e15) {
            pr_buf_printf(out, "%.0f", d == 0 ? 0.0 : d);
            break;
        }
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(buf, sizeof buf, "%.*g", prec, d);
            if (strtod(buf, NULL) == d)
                break;
        }
        pr_buf_puts(out, buf);
        break;
    }
    case JSON_TRUE: pr_buf_puts(out, "true"); break;
    case JSON_FALSE: pr_buf_puts(out, "false"); break;
    default: break;
    }
}

static const char *md_active = "\\`*_[]|~";

static void escape_chars(const char *s, size_t n, int escape, pr_buf *out)
{
    size_t run = 0; /* start of the pending unescaped run */
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        const char *rep = NULL;
        char two[3] = {'\\', 0, 0};
        switch (ch) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"':
            if (escape == PR_ESC_HTML)
                rep = "&quot;";
            break;
        case '\'':
            if (escape == PR_ESC_HTML)
                rep = "&#39;";
            break;
        default: break;
        }
        if (!rep && escape == PR_ESC_MARKDOWN) {
            if (ch == '\n' || ch == '\r') {
                rep = " ";
            } else if (ch == '_' && i > 0 && i + 1 < n && isalnum((unsigned char)s[i - 1]) &&
                       isalnum((unsigned char)s[i + 1])) {
                /* intraword underscores never start emphasis (CommonMark): keep names readable */
            } else if (ch && strchr(md_active, ch)) {
                two[1] = (char)ch;
                rep = two;
            } else if (i == 0 && (ch == '#' || ch == '+' || ch == '-' || ch == '=') && n > 1 &&
                       (s[1] == ' ' || s[1] == '\t' || s[1] == ch)) {
                /* only what could open a heading, a list item or a rule at a line start:
                 * a lone "-" (an unknown value) stays readable */
                two[1] = (char)ch;
                rep = two;
            } else if ((ch == '.' || ch == ')') && i > 0) {
                size_t d = 0;
                while (d < i && s[d] >= '0' && s[d] <= '9')
                    d++;
                if (d == i && (i + 1 == n || s[i + 1] == ' ' || s[i + 1] == '\t')) {
                    /* "1. " or "1) " at the start would begin a list */
                    two[1] = (char)ch;
                    rep = two;
                }
            }
        }
        if (rep) {
            pr_buf_append(out, s + run, i - run);
            pr_buf_puts(out, rep);
            run = i + 1;
        }
    }
    pr_buf_append(out, s + run, n - run);
}

void pr_mustache_escape(const char *s, size_t n, int escape, pr_buf *out)
{
    if (escape == PR_ESC_NONE) {
        pr_buf_append(out, s, n);
        return;
    }
    /* values come from input files: control characters made visible first, and in Markdown
     * (tables pasted into spreadsheets) a formula-like value is quoted */
    unsigned flags = PR_TEXT_LINES | (escape == PR_ESC_MARKDOWN ? PR_TEXT_CELL : 0);
    if (pr_text_is_safe(s, n, flags)) {
        escape_chars(s, n, escape, out);
        return;
    }
    pr_buf vis = PR_BUF_INIT;
    pr_text_visible(s, n, flags, &vis);
    escape_chars(vis.p, vis.len, escape, out);
    pr_buf_dispose(&vis);
}

/* ---- Rendering ---------------------------------------------------------------------------- */

typedef struct xform { /* indentation change applied to template lines: strip, then add */
    const char *strip;
    size_t nstrip;
    const char *add;
    size_t nadd;
    const struct xform *outer;
} xform;

typedef struct scope { /* block overrides of one parent tag; older frames win */
    const node *parent;
    const pr_template *owner; /* template the parent tag is in */
    const struct scope *older;
} scope;

typedef struct cached {
    char *name;
    pr_template *t; /* NULL: not found */
} cached;

typedef struct translated { /* a message section's translation, compiled */
    const char *raw;        /* the section's text in its template */
    pr_template *t;
} translated;

typedef struct rs {
    pr_buf *out;
    size_t out_start;
    int escape;
    const pr_tpl_loader *loader;
    pr_error *err;
    const pr_template *cur; /* template whose nodes are being rendered, for messages */
    const node *node;       /* node of `cur` being rendered, for messages */
    json_t *ctx[PR_MUSTACHE_MAX_DEPTH * 2 + 2];
    size_t nctx;
    unsigned depth;
    unsigned long long steps;
    cached *cache;
    size_t ncache, capcache;
    translated *msgs;
    size_t nmsgs, capmsgs;
    pr_buf tmp, tmp2;
} rs;

static int is_falsey(json_t *v)
{
    if (!v)
        return 1;
    switch (json_typeof(v)) {
    case JSON_FALSE:
    case JSON_NULL: return 1;
    case JSON_STRING: return json_string_length(v) == 0;
    case JSON_INTEGER: return json_integer_value(v) == 0;
    case JSON_REAL: return json_real_value(v) == 0.0;
    case JSON_ARRAY: return json_array_size(v) == 0;
    default: return 0;
    }
}

static json_t *member(json_t *v, const char *k, size_t n, int first)
{
    if (json_is_object(v))
        return json_object_getn(v, k, n);
    if (!first && json_is_array(v) && n > 0 && n < 10) {
        size_t idx = 0;
        for (size_t i = 0; i < n; i++) {
            if (k[i] < '0' || k[i] > '9')
                return NULL;
            idx = idx * 10 + (size_t)(k[i] - '0');
        }
        return json_array_get(v, idx);
    }
    return NULL;
}

/* Resolves a (dotted) name against the context stack; NULL when missing. */
static json_t *lookup(rs *r, const char *name, size_t n)
{
    if (n == 1 && name[0] == '.')
        return r->ctx[r->nctx - 1];
    const char *dot = memchr(name, '.', n);
    size_t seg = dot ? (size_t)(dot - name) : n;
    json_t *v = NULL;
    for (size_t i = r->nctx; i-- > 0;) {
        v = member(r->ctx[i], name, seg, 1);
        if (v)
            break;
    }
    while (v && dot) {
        const char *p = dot + 1, *end = name + n;
        dot = memchr(p, '.', (size_t)(end - p));
        seg = dot ? (size_t)(dot - p) : (size_t)(end - p);
        v = member(v, p, seg, 0);
    }
    return v;
}

static int rerr(rs *r, int code, const char *what)
{
    long line = 0, col = 0;
    if (r->cur && r->node && r->node->at <= r->cur->len)
        line_col(r->cur->text, r->node->at, &line, &col);
    return pr_error_set(r->err, code, r->cur ? r->cur->name : "", line, col, "%s", what);
}

/* Finds (loading and compiling once) the template `name`; *t = NULL when not found. */
static int get_partial(rs *r, const char *name, size_t n, const pr_template **t)
{
    *t = NULL;
    if (n == 0 || n > PR_TPL_MAX_NAME || memchr(name, 0, n))
        return 0;
    for (size_t i = 0; i < r->ncache; i++)
        if (strlen(r->cache[i].name) == n && memcmp(r->cache[i].name, name, n) == 0) {
            *t = r->cache[i].t;
            return 0;
        }
    if (r->ncache == MAX_PARTIALS)
        return rerr(r, PR_EPARSE, "more than 256 different partials");
    char nm[PR_TPL_MAX_NAME + 1];
    memcpy(nm, name, n);
    nm[n] = 0;
    pr_template *pt = NULL;
    if (r->loader && r->loader->load) {
        char *text = NULL;
        size_t len = 0;
        int rc = r->loader->load(nm, &text, &len, r->err, r->loader->payload);
        if (rc == 0) {
            if (len > PR_TPL_MAX_BYTES) {
                free(text);
                return pr_error_set(r->err, PR_EUSAGE, nm, 0, 0, "template larger than %u bytes",
                                    PR_TPL_MAX_BYTES);
            }
            rc = pr_template_compile(&pt, text, len, nm, r->err);
            free(text);
            if (rc < 0)
                return rc;
        } else if (rc != PR_ENOTFOUND) {
            return rc;
        }
    }
    r->cache = pr_xgrow(r->cache, &r->capcache, r->ncache + 1, sizeof *r->cache);
    r->cache[r->ncache].name = pr_xstrdup(nm);
    r->cache[r->ncache].t = pt;
    r->ncache++;
    *t = pt;
    return 0;
}

static int at_line_start(rs *r)
{
    return r->out->len == r->out_start || r->out->p[r->out->len - 1] == '\n';
}

static size_t common_prefix(const char *a, size_t na, const char *b, size_t nb)
{
    size_t k = 0;
    while (k < na && k < nb && a[k] == b[k])
        k++;
    return k;
}

/* Applies the indentation transforms to a line's leading whitespace, into r->tmp. */
static void indent_line(rs *r, const char *ws, size_t n, const xform *xs, int full)
{
    pr_buf_reset(&r->tmp);
    pr_buf_append(&r->tmp, ws, n);
    for (const xform *x = xs; x; x = x->outer) {
        size_t k = common_prefix(r->tmp.p ? r->tmp.p : "", r->tmp.len, x->strip, x->nstrip);
        pr_buf_reset(&r->tmp2);
        if (full)
            pr_buf_append(&r->tmp2, x->add, x->nadd);
        pr_buf_append(&r->tmp2, (r->tmp.p ? r->tmp.p : "") + k, r->tmp.len - k);
        pr_buf t = r->tmp;
        r->tmp = r->tmp2;
        r->tmp2 = t;
        if (!full)
            break;
    }
}

static int render(rs *r, const node *kids, size_t n, const xform *xs, const scope *sc);

static int push_ctx(rs *r, json_t *v)
{
    if (r->nctx == sizeof r->ctx / sizeof r->ctx[0])
        return rerr(r, PR_EPARSE, "context nesting deeper than 64 levels");
    r->ctx[r->nctx++] = v;
    return 0;
}

static int enter(rs *r)
{
    if (r->depth >= PR_MUSTACHE_MAX_DEPTH)
        return rerr(r, PR_EPARSE, "sections, partials or blocks nested deeper than 64 levels");
    r->depth++;
    return 0;
}

static int render_message(rs *r, const node *x, const xform *xs, const scope *sc);

static int render_section(rs *r, const node *x, const xform *xs, const scope *sc)
{
    if (x->raw)
        return render_message(r, x, xs, sc);
    json_t *v = lookup(r, x->s, x->n);
    int rc = 0;
    if (x->type == N_INVERTED) {
        if (is_falsey(v))
            rc = render(r, x->kids, x->nkids, xs, sc);
        return rc;
    }
    if (is_falsey(v))
        return 0;
    if ((rc = enter(r)) < 0)
        return rc;
    if (json_is_array(v)) {
        size_t i;
        json_t *e;
        json_array_foreach (v, i, e) {
            if (++r->steps > PR_MUSTACHE_MAX_STEPS) {
                r->node = x;
                rc = rerr(r, PR_EPARSE, "rendering takes more than 2^26 steps");
                break;
            }
            if ((rc = push_ctx(r, e)) < 0)
                break;
            rc = render(r, x->kids, x->nkids, xs, sc);
            r->nctx--;
            if (rc < 0)
                break;
        }
    } else if ((rc = push_ctx(r, v)) == 0) {
        rc = render(r, x->kids, x->nkids, xs, sc);
        r->nctx--;
    }
    r->depth--;
    return rc;
}

/* A message section, {{#_}}text{{/_}}: text is a message of the catalog (msgctxt "template",
 * the msgid as written, tags and all); its translation is compiled and rendered in the
 * current context, so a translation may reorder the tags. Untranslated (English), the text
 * is rendered as it stands. Each translation is compiled once per render. */
static int render_message(rs *r, const node *x, const xform *xs, const scope *sc)
{
    const pr_template *t = NULL;
    size_t i = 0;
    while (i < r->nmsgs && r->msgs[i].raw != x->raw)
        i++;
    if (i < r->nmsgs) {
        if (!(t = r->msgs[i].t)) /* not translated: the text as written */
            return render(r, x->kids, x->nkids, xs, sc);
    } else {
        if (pr_l10n_english())
            return render(r, x->kids, x->nkids, xs, sc);
        char *id = pr_xasprintf("template%c%.*s", 4, (int)x->nraw, x->raw);
        const char *msg = pr_l10n_pgettext(id);
        pr_template *c = NULL;
        pr_error e;
        pr_error_clear(&e);
        int bad = msg != id + 9 && pr_template_compile(&c, msg, strlen(msg), "", &e) < 0;
        free(id);
        if (bad)
            return pr_error_set(r->err, PR_EPARSE, r->cur ? r->cur->name : "", 0, 0,
                                "the translation of message '%.*s' does not compile: %s",
                                (int)(x->nraw < 60 ? x->nraw : 60), x->raw, e.msg);
        r->msgs = pr_xgrow(r->msgs, &r->capmsgs, r->nmsgs + 1, sizeof *r->msgs);
        r->msgs[r->nmsgs++] = (translated){x->raw, c};
        if (!c) /* not translated: the text as written */
            return render(r, x->kids, x->nkids, xs, sc);
        t = c;
    }
    int rc = enter(r);
    if (rc < 0)
        return rc;
    rc = render(r, t->root.kids, t->root.nkids, xs, sc);
    r->depth--;
    return rc;
}

/* Renders a partial or a parent (with its block overrides as a new scope frame). */
static int render_partial(rs *r, const node *x, const xform *xs, const scope *sc)
{
    const char *name = x->s;
    size_t n = x->n;
    if (x->dynamic) {
        json_t *v = lookup(r, x->s, x->n);
        if (!json_is_string(v))
            return 0;
        name = json_string_value(v);
        n = json_string_length(v);
    }
    const pr_template *t;
    int rc = get_partial(r, name, n, &t);
    if (rc < 0 || !t)
        return rc;
    if ((rc = enter(r)) < 0)
        return rc;
    xform indent = {"", 0, NULL, 0, NULL};
    char *add = NULL;
    if (x->standalone) {
        indent_line(r, x->ws, x->wsn, xs, 1);
        add = pr_xstrndup(r->tmp.p ? r->tmp.p : "", r->tmp.len);
        indent.add = add;
        indent.nadd = r->tmp.len;
    }
    scope frame = {x, r->cur, sc};
    const pr_template *saved = r->cur;
    r->cur = t;
    rc = render(r, t->root.kids, t->root.nkids, x->standalone ? &indent : NULL,
                x->type == N_PARENT ? &frame : sc);
    if (rc == 0) {
        r->cur = saved;
        r->node = x;
    }
    free(add);
    r->depth--;
    return rc;
}

static int render_block(rs *r, const node *x, const xform *xs, const scope *sc)
{
    const node *def = NULL;
    const pr_template *owner = NULL;
    for (const scope *f = sc; f; f = f->older) {
        r->steps += f->parent->nkids; /* searching counts as work */
        for (size_t i = 0; i < f->parent->nkids; i++) {
            const node *b = &f->parent->kids[i];
            if (b->type == N_BLOCK && b->n == x->n && memcmp(b->s, x->s, x->n) == 0) {
                def = b; /* keep the oldest */
                owner = f->owner;
            }
        }
    }
    int rc = enter(r);
    if (rc < 0)
        return rc;
    if (!def || def == x) {
        rc = render(r, x->kids, x->nkids, xs, sc);
    } else {
        xform re = {def->ws, def->wsn, x->ws, x->wsn, xs};
        const pr_template *saved = r->cur;
        r->cur = owner;
        rc = render(r, def->kids, def->nkids, &re, sc);
        if (rc == 0) {
            r->cur = saved;
            r->node = x;
        }
    }
    r->depth--;
    return rc;
}

static int render(rs *r, const node *kids, size_t n, const xform *xs, const scope *sc)
{
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const node *x = &kids[i];
        r->node = x;
        if (++r->steps > PR_MUSTACHE_MAX_STEPS)
            return rerr(r, PR_EPARSE, "rendering takes more than 2^26 steps");
        if (r->out->overflow)
            return pr_error_set(r->err, PR_EIO, r->cur ? r->cur->name : "", 0, 0,
                                "output larger than %zu bytes", r->out->max);
        switch (x->type) {
        case N_TEXT: pr_buf_append(r->out, x->s, x->n); break;
        case N_BOL:
            if (!xs) {
                pr_buf_append(r->out, x->ws, x->wsn);
            } else {
                indent_line(r, x->ws, x->wsn, xs, at_line_start(r));
                pr_buf_append(r->out, r->tmp.p, r->tmp.len);
            }
            break;
        case N_VAR:
        case N_RAW: {
            json_t *v = lookup(r, x->s, x->n);
            if (!v)
                break;
            if (x->type == N_RAW || r->escape == PR_ESC_NONE) {
                pr_mustache_format_value(v, r->out);
            } else if (json_is_string(v)) {
                pr_mustache_escape(json_string_value(v), json_string_length(v), r->escape, r->out);
            } else {
                pr_buf_reset(&r->tmp);
                pr_mustache_format_value(v, &r->tmp);
                pr_mustache_escape(r->tmp.p ? r->tmp.p : "", r->tmp.len,
                                   r->escape == PR_ESC_HTML ? PR_ESC_HTML : PR_ESC_NONE, r->out);
            }
            break;
        }
        case N_SECTION:
        case N_INVERTED: rc = render_section(r, x, xs, sc); break;
        case N_PARTIAL:
        case N_PARENT: rc = render_partial(r, x, xs, sc); break;
        case N_BLOCK: rc = render_block(r, x, xs, sc); break;
        default: break;
        }
    }
    return rc;
}

int pr_template_render(const pr_template *t, json_t *ctx, const pr_tpl_loader *partials, int escape,
                       pr_buf *out, pr_error *err)
{
    rs r;
    memset(&r, 0, sizeof r);
    r.out = out;
    r.out_start = out->len;
    r.escape = escape;
    r.loader = partials;
    r.err = err;
    r.cur = t;
    r.tmp.max = r.tmp2.max = (size_t)1 << 24;
    json_t *null = NULL;
    if (!ctx)
        ctx = null = json_null();
    r.ctx[r.nctx++] = ctx;
    int rc = render(&r, t->root.kids, t->root.nkids, NULL, NULL);
    if (rc == 0 && out->overflow)
        rc = pr_error_set(err, PR_EIO, t->name, 0, 0, "output larger than %zu bytes", out->max);
    for (size_t i = 0; i < r.ncache; i++) {
        free(r.cache[i].name);
        pr_template_free(r.cache[i].t);
    }
    free(r.cache);
    for (size_t i = 0; i < r.nmsgs; i++)
        pr_template_free(r.msgs[i].t);
    free(r.msgs);
    pr_buf_dispose(&r.tmp);
    pr_buf_dispose(&r.tmp2);
    json_decref(null);
    return rc;
}

int pr_mustache_render(const char *tpl, size_t len, const char *tpl_name, json_t *ctx,
                       const pr_tpl_loader *partials, int escape, pr_buf *out, pr_error *err)
{
    pr_template *t;
    int rc = pr_template_compile(&t, tpl, len, tpl_name, err);
    if (rc < 0)
        return rc;
    rc = pr_template_render(t, ctx, partials, escape, out, err);
    pr_template_free(t);
    return rc;
}
