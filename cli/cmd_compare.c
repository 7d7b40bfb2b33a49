/* `perfreport compare`: runs or tag selections side by side, with tested verdicts. */
#include "analysis/compare.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/selection.h"
#include "model/buf.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "render/mustache.h"
#include "render/report_page.h"
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *jstr(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "-";
}

/* "5%", "0.05" or "5" (percent when > 1). */
static int parse_fraction(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || !isfinite(v) || v < 0)
        return -1;
    if (*end == '%') {
        v /= 100;
        end++;
    } else if (v > 1) {
        v /= 100;
    }
    if (*end)
        return -1;
    *out = v;
    return 0;
}

/* Prints s right- (w > 0) or left-aligned (w < 0) in |w| columns, counting UTF-8 characters. */
static void cell(const char *s, int w)
{
    int width = w < 0 ? -w : w, chars = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        chars += (*p & 0xC0) != 0x80;
    int pad = width > chars ? width - chars : 0;
    if (w > 0)
        printf("%*s%s", pad, "", s);
    else
        printf("%s%*s", s, pad, "");
}

/* Same into a buffer. */
static void cellb(pr_buf *b, const char *s, int w)
{
    int width = w < 0 ? -w : w, chars = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        chars += (*p & 0xC0) != 0x80;
    int pad = width > chars ? width - chars : 0;
    if (w > 0)
        pr_buf_printf(b, "%*s%s", pad, "", s);
    else
        pr_buf_printf(b, "%s%*s", s, pad, "");
}

/* Prints the buffer as one line without trailing spaces, and empties it. */
static void flush_line(pr_buf *b)
{
    size_t n = b->len;
    while (n && b->p[n - 1] == ' ')
        n--;
    printf("%.*s\n", (int)n, b->p ? b->p : "");
    pr_buf_reset(b);
}

/* Width of the value columns: the longest run name (12 to 24 characters). */
static int col_width(json_t *runs)
{
    size_t i;
    json_t *r;
    int w = 12;
    json_array_foreach(runs, i, r) {
        int n = 0;
        for (const unsigned char *p = (const unsigned char *)jstr(r, "name"); *p; p++)
            n += (*p & 0xC0) != 0x80;
        if (n > w)
            w = n;
    }
    return w > 24 ? 24 : w;
}

/* The run's name cut to w characters (UTF-8 aware) into buf. */
static const char *cut(const char *s, int w, char *buf, size_t size)
{
    size_t o = 0;
    int n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && o + 1 < size; p++) {
        if ((*p & 0xC0) != 0x80 && n++ == w)
            break;
        buf[o++] = (char)*p;
    }
    buf[o] = 0;
    return buf;
}

static void print_rows(json_t *rows, json_t *runs, size_t w)
{
    int cw = col_width(runs);
    size_t n = json_array_size(runs), i, k;
    json_t *row, *r;
    pr_buf b = PR_BUF_INIT;
    pr_buf_printf(&b, "  %-*s", (int)w, "metric");
    json_array_foreach(runs, i, r) {
        char name[128];
        pr_buf_puts(&b, " ");
        cellb(&b, cut(jstr(r, "name"), cw, name, sizeof name), cw);
    }
    for (i = 1; i < n; i++)
        pr_buf_printf(&b, "  %9s %-12s", "change", "verdict");
    flush_line(&b);
    json_array_foreach(rows, k, row) {
        pr_buf_printf(&b, "  %-*s", (int)w, jstr(row, "metric"));
        json_t *v;
        json_array_foreach(json_object_get(row, "values"), i, v) {
            pr_buf_puts(&b, " ");
            cellb(&b, jstr(v, "human"), cw);
        }
        json_array_foreach(json_object_get(row, "diffs"), i, v) {
            pr_buf_puts(&b, "  ");
            cellb(&b, jstr(v, "rel_pct"), 9);
            pr_buf_puts(&b, " ");
            cellb(&b, jstr(v, "verdict"), -12);
        }
        flush_line(&b);
    }
    pr_buf_dispose(&b);
}

static json_t *metric_of(json_t *label, const char *name)
{
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(label, "metrics"), i, m)
        if (!strcmp(jstr(m, "metric"), name))
            return m;
    return NULL;
}

/* One line per label: its p99 per run, the p99 change and verdict per compared run, and the
 * other label metrics whose verdict is not "same" (details in --json). */
static void print_labels(json_t *labels, json_t *runs)
{
    size_t n = json_array_size(runs), w = 5, i, k;
    json_t *l, *r;
    json_array_foreach(labels, i, l) {
        size_t len = strlen(jstr(l, "label"));
        if (len > w)
            w = len;
    }
    if (w > 40)
        w = 40;
    int cw = col_width(runs);
    printf("\n  per label: p99 (other metrics that changed, in brackets; all of them in --json)\n");
    printf("  %-*s", (int)w, "label");
    json_array_foreach(runs, i, r) {
        char name[128];
        printf(" ");
        cell(cut(jstr(r, "name"), cw, name, sizeof name), cw);
    }
    for (i = 1; i < n; i++)
        printf("  %9s %s", "change", "verdict");
    printf("\n");
    pr_buf b = PR_BUF_INIT;
    json_array_foreach(labels, k, l) {
        char name[41];
        snprintf(name, sizeof name, "%s", jstr(l, "label"));
        pr_buf_puts(&b, "  ");
        cellb(&b, name, -(int)w);
        json_t *p99 = metric_of(l, "p99"), *v;
        json_array_foreach(json_object_get(p99, "values"), i, v) {
            pr_buf_puts(&b, " ");
            cellb(&b, jstr(v, "human"), cw);
        }
        json_array_foreach(json_object_get(p99, "diffs"), i, v) {
            pr_buf_puts(&b, "  ");
            cellb(&b, jstr(v, "rel_pct"), 9);
            pr_buf_puts(&b, " ");
            cellb(&b, jstr(v, "verdict"), -12);
        }
        int first = 1;
        json_array_foreach(json_object_get(p99, "diffs"), i, v) {
            size_t q;
            json_t *m;
            json_array_foreach(json_object_get(l, "metrics"), q, m) {
                json_t *d = json_array_get(json_object_get(m, "diffs"), i);
                const char *vd = jstr(d, "verdict");
                if (!strcmp(jstr(m, "metric"), "p99") ||
                    (strcmp(vd, "regression") && strcmp(vd, "improvement")))
                    continue;
                pr_buf_printf(&b, "%s%s: %s %s", first ? "[" : ", ", jstr(v, "run"), jstr(m, "metric"), vd);
                first = 0;
            }
        }
        if (!first)
            pr_buf_puts(&b, "]");
        flush_line(&b);
    }
    pr_buf_dispose(&b);
}

static void print_text(json_t *doc)
{
    json_t *runs = json_object_get(doc, "runs");
    size_t i, k;
    json_t *r;
    json_array_foreach(runs, i, r) {
        printf("%s %s", i ? "compared:" : "baseline:", jstr(r, "name"));
        printf("  (run%s", json_array_size(json_object_get(r, "ids")) > 1 ? "s" : "");
        json_t *id;
        json_array_foreach(json_object_get(r, "ids"), k, id)
            printf(" %lld", (long long)json_integer_value(id));
        printf(")%s\n", json_is_true(json_object_get(r, "summary_only")) ? "  [summary only]" : "");
    }
    printf("verdicts: regression/improvement when significant (p < %g) and at least %g%% "
           "(error ratio: 1 point)\n\n",
           json_number_value(json_object_get(doc, "alpha")),
           100 * json_number_value(json_object_get(doc, "min_effect")));
    print_rows(json_object_get(doc, "metrics"), runs, 12);
    json_array_foreach(json_object_get(doc, "latency_tests"), i, r) {
        json_t *p = json_object_get(r, "p_value");
        if (json_is_number(p))
            printf("\n  latency distribution, %s vs baseline (Mann-Whitney): p = %.3g, "
                   "P(a request is slower) = %.3f", jstr(r, "run"), json_number_value(p),
                   json_number_value(json_object_get(r, "a12")));
        else
            printf("\n  latency distribution, %s vs baseline: not tested (no samples)", jstr(r, "run"));
    }
    printf("\n");
    json_t *labels = json_object_get(doc, "labels");
    if (json_array_size(labels))
        print_labels(labels, runs);
    printf("\n%lld regression(s), %lld improvement(s) overall; %lld regression(s), %lld "
           "improvement(s) in labels\n",
           (long long)json_integer_value(json_object_get(doc, "regressions")),
           (long long)json_integer_value(json_object_get(doc, "improvements")),
           (long long)json_integer_value(json_object_get(doc, "label_regressions")),
           (long long)json_integer_value(json_object_get(doc, "label_improvements")));
}

/* Renders the document with a template: a file path, else a built-in name (compare.md).
 * Markdown written to a .html output is converted to an HTML page. */
static int render_template(json_t *doc, const char *tpl, const char *out)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = fopen(tpl, "rb");
    if (f) {
        pr_buf b = PR_BUF_INIT;
        b.max = 4u << 20;
        char chunk[8192];
        size_t k;
        while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
            pr_buf_append(&b, chunk, k);
        int bad = ferror(f) || b.overflow;
        fclose(f);
        if (bad) {
            pr_cli_errorf("%s: cannot read the template (or larger than 4 MiB)", tpl);
            pr_buf_dispose(&b);
            return PR_EXIT_ERROR;
        }
        len = b.len;
        text = pr_buf_steal(&b);
    } else {
        for (size_t i = 0; pr_builtin_templates[i].name; i++)
            if (!strcmp(pr_builtin_templates[i].name, tpl)) {
                text = pr_xstrndup(pr_builtin_templates[i].text, pr_builtin_templates[i].len);
                len = pr_builtin_templates[i].len;
            }
        if (!text) {
            pr_cli_errorf("%s: no such template file or built-in template", tpl);
            return PR_EXIT_USAGE;
        }
    }
    pr_tpl_builtin bt = {NULL, NULL};
    pr_tpl_loader bl = pr_tpl_builtin_loader(&bt);
    pr_buf o = PR_BUF_INIT;
    pr_error err;
    pr_error_clear(&err);
    int rc = 0;
    int html_tpl = pr_cli_is_html(tpl);
    int esc = html_tpl ? PR_ESC_HTML : PR_ESC_MARKDOWN;
    if (pr_mustache_render(text, len, tpl, doc, &bl, esc, &o, &err) < 0) {
        pr_cli_print_error(&err);
        rc = PR_EXIT_ERROR;
    } else if (!html_tpl && out && pr_cli_is_html(out)) {
        /* Markdown into an .html file: converted as `render` does (a page, md4c) */
        json_t *page_ctx = json_pack("{s:{s:s}}", "meta", "title", "Comparison of runs");
        pr_buf page = PR_BUF_INIT;
        if (pr_report_page_html(o.p ? o.p : "", o.len, page_ctx, &page, &err) < 0) {
            pr_cli_print_error(&err);
            rc = PR_EXIT_ERROR;
        } else if (pr_cli_write_file(out, page.p, page.len) < 0) {
            rc = PR_EXIT_ERROR;
        }
        pr_buf_dispose(&page);
        json_decref(page_ctx);
    } else if (pr_cli_write_file(out ? out : "-", o.p ? o.p : "", o.len) < 0) {
        rc = PR_EXIT_ERROR;
    }
    free(text);
    pr_buf_dispose(&o);
    return rc;
}

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"store", required_argument, NULL, 'S'},       {"json", no_argument, NULL, 'j'},
        {"min-effect", required_argument, NULL, 'e'},  {"alpha", required_argument, NULL, 'a'},
        {"fail-on-regression", no_argument, NULL, 'F'}, {"template", required_argument, NULL, 't'},
        {"output", required_argument, NULL, 'o'},      {"resamples", required_argument, NULL, 'r'},
        {"seed", required_argument, NULL, 's'},        {NULL, 0, NULL, 0}};
    const char *store = NULL, *tpl = NULL, *out = NULL;
    int json = 0, fail = 0, c;
    pr_compare_opts o;
    pr_compare_opts_init(&o);
    optind = 1;
    while ((c = getopt_long(argc, argv, "jt:o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'S': store = optarg; break;
        case 'j': json = 1; break;
        case 'F': fail = 1; break;
        case 't': tpl = optarg; break;
        case 'o': out = optarg; break;
        case 'e':
            if (parse_fraction(optarg, &o.min_effect) < 0) {
                pr_cli_errorf("--min-effect expects a percentage like 5%%, got '%s'", optarg);
                return PR_EXIT_USAGE;
            }
            break;
        case 'a': {
            char *end;
            o.alpha = strtod(optarg, &end);
            if (*end || !(o.alpha > 0 && o.alpha < 1)) {
                pr_cli_errorf("--alpha expects a probability like 0.01, got '%s'", optarg);
                return PR_EXIT_USAGE;
            }
            break;
        }
        case 'r':
            o.resamples = atoi(optarg);
            if (o.resamples < 100 || o.resamples > 1000000) {
                pr_cli_errorf("--resamples expects 100 to 1000000, got '%s'", optarg);
                return PR_EXIT_USAGE;
            }
            break;
        case 's': o.seed = strtoull(optarg, NULL, 10); break;
        default: return PR_EXIT_USAGE;
        }
    }
    int nrefs = argc - optind;
    if (nrefs < 2) {
        pr_cli_errorf("compare needs at least two runs or selections (see perfreport compare --help)");
        return PR_EXIT_USAGE;
    }
    pr_store *st;
    int rc = pr_cli_open_store(store, 0, &st);
    if (rc)
        return rc;
    pr_compare_side *sides = pr_xcalloc((size_t)nrefs, sizeof *sides);
    int loaded = 0;
    for (int i = 0; i < nrefs && rc == 0; i++) {
        const char *ref = argv[optind + i];
        int64_t *ids;
        size_t n;
        rc = pr_cli_select_one(st, ref, &ids, &n);
        if (rc)
            break;
        pr_error err;
        pr_error_clear(&err);
        if (pr_compare_side_load(st, ids, n, strncmp(ref, "tag:", 4) ? NULL : ref + 4, ref,
                                 &sides[i], &err) < 0) {
            pr_cli_print_error(&err);
            rc = PR_EXIT_ERROR;
        } else {
            loaded++;
        }
        free(ids);
    }
    json_t *doc = NULL;
    if (rc == 0) {
        doc = pr_compare_build(sides, (size_t)nrefs, &o);
        if (tpl) {
            rc = render_template(doc, tpl, out);
        } else if (json) {
            char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
            size_t len = strlen(text);
            text[len] = '\n';
            if (pr_cli_write_file(out ? out : "-", text, len + 1) < 0)
                rc = PR_EXIT_ERROR;
            free(text);
        } else {
            pr_text_visible_json(doc, 0); /* names and labels come from the files */
            print_text(doc);
            if (fflush(stdout) != 0)
                rc = PR_EXIT_ERROR;
        }
        if (rc == 0 && fail &&
            json_integer_value(json_object_get(doc, "regressions")) +
                    json_integer_value(json_object_get(doc, "label_regressions")) > 0)
            rc = PR_EXIT_THRESHOLD;
    }
    json_decref(doc);
    for (int i = 0; i < loaded; i++)
        pr_compare_side_dispose(&sides[i]);
    free(sides);
    pr_store_close(st);
    return rc;
}

const pr_command pr_cmd_compare = {
    "compare", "compare [OPTIONS] A B [C…]", "compare runs: differences, tests and verdicts",
    "Compares runs or selections: B, C… against the baseline A. Each argument is a run (an id,\n"
    "a name or 'last') or a tag selection 'tag:KEY=VALUE' whose runs are merged into one.\n"
    "For each metric (throughput, rate, error ratio, mean, p50, p90, p99, max) and each label\n"
    "it prints the values, the relative change and a verdict: 'regression' or 'improvement'\n"
    "only when the change is statistically significant (bootstrap confidence interval of the\n"
    "percentile difference excluding 0; Welch test for the mean; Mann-Whitney on per-interval\n"
    "throughput; two-proportion test for the error ratio) AND at least the minimum effect;\n"
    "otherwise 'same'. Summary-only runs compare on what they have ('untested').\n"
    "Method: docs/metrics.md.\n\n"
    "options:\n"
    "      --json               the comparison model as JSON\n"
    "  -t, --template T         render with a template (file, or built-in 'compare.md')\n"
    "  -o, --output FILE        write there instead of stdout (a Markdown template into a\n"
    "                           .html file is converted to an HTML page, as render does)\n"
    "      --min-effect P       minimum relative change for a verdict (default 5%)\n"
    "      --alpha A            significance level (default 0.01)\n"
    "      --resamples N        bootstrap resamples (default 2000; seeded, deterministic)\n"
    "      --seed N             bootstrap seed (default 1)\n"
    "      --fail-on-regression exit 3 when a regression is found\n"
    "      --store PATH         store file\n\n"
    "examples:\n  perfreport compare baseline candidate --fail-on-regression\n"
    "  perfreport compare tag:jvm=hotspot tag:jvm=openj9 -t compare.md -o compare.md\n",
    run};
