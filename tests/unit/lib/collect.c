/* Test helper: an in-memory sink and parse shortcuts. */
#include "tests/unit/lib/collect.h"
#include "model/xalloc.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gather_cb(const pr_sample *s, size_t n, void *payload)
{
    gather *g = payload;
    g->s = pr_xgrow(g->s, &g->cap, g->n + n, sizeof *g->s);
    memcpy(g->s + g->n, s, n * sizeof *s);
    g->n += n;
    return 0;
}

static int push(pr_run *run, const pr_sample *s, size_t n, pr_error *err, void *payload)
{
    collect *c = payload;
    gather g = {c->s, c->n, c->cap};
    gather_cb(s, n, &g);
    c->s = g.s;
    c->n = g.n;
    c->cap = g.cap;
    return 0;
}

static int split(pr_sink *sink, pr_error *err, void *payload)
{
    collect *c = payload;
    c->splits++;
    return 0;
}

static void warn(const pr_error *w, void *payload)
{
    collect *c = payload;
    c->warnings++;
    pr_error_format(w, c->last_warning, sizeof c->last_warning);
}

void collect_init(collect *c)
{
    memset(c, 0, sizeof *c);
    c->run = pr_run_new();
    pr_sink_init(&c->sink, c->run, push, c);
    c->sink.split = split;
    c->sink.warn = warn;
}

void collect_free(collect *c)
{
    pr_run_free(c->run);
    free(c->s);
}

static int run_parse(collect *c, const char *parser, pr_input *in, const pr_parse_opts *opts,
                     pr_error *err)
{
    pr_parse_opts def;
    memset(&def, 0, sizeof def);
    const pr_parser *p;
    if (parser) {
        p = pr_parser_find(parser);
    } else {
        size_t got;
        const unsigned char *head = pr_input_peek(in, 4096, &got);
        p = pr_parser_sniff(head, got, NULL);
    }
    if (!p) {
        pr_input_close(in);
        return pr_error_set(err, PR_EFORMAT, NULL, 0, 0, "no parser");
    }
    c->sink.in = in;
    int rc = p->parse(in, &c->sink, opts ? opts : &def, err);
    if (rc >= 0 || rc == PR_ETRUNC) {
        int rc2 = pr_sink_flush(&c->sink, err);
        if (rc2 < 0)
            rc = rc2;
    }
    c->sink.in = NULL;
    pr_input_close(in);
    return rc;
}

int collect_parse_file(collect *c, const char *parser, const char *path,
                       const pr_parse_opts *opts, pr_error *err)
{
    pr_input *in = pr_input_open(path, err);
    if (!in)
        return err->code;
    return run_parse(c, parser, in, opts, err);
}

int collect_parse_mem(collect *c, const char *parser, const void *data, size_t len,
                      const pr_parse_opts *opts, pr_error *err)
{
    return run_parse(c, parser, pr_input_mem("<mem>", data, len), opts, err);
}

const char *testdata(const char *rel)
{
    static char buf[4][1024];
    static int k;
    const char *base = getenv("PR_TESTDATA");
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", base ? base : "tests/data", rel);
    return buf[k];
}

int collect_parse_ok(collect *c, const char *parser, const char *rel, int flags)
{
    pr_error err;
    pr_error_clear(&err);
    collect_init(c);
    int rc = collect_parse_file(c, parser, testdata(rel), NULL, &err);
    if (rc != 0 && !((flags & COLLECT_TRUNC_OK) && rc == PR_ETRUNC)) {
        char b[1200];
        fail_msg("%s: rc %d: %s", rel, rc, pr_error_format(&err, b, sizeof b));
    }
    if ((flags & COLLECT_FORMAT) && (!c->run->format || strcmp(c->run->format, parser)))
        fail_msg("%s: format %s, expected %s", rel, c->run->format ? c->run->format : "(none)",
                 parser);
    return rc;
}
