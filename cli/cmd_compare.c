/* `perfreport compare`: runs or tag selections side by side, with tested verdicts. */
#include "analysis/compare.h"
#include "analysis/pairs.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "cli/selection.h"
#include "model/buf.h"
#include "model/text.h"
#include "model/run.h"
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

/* Prints the buffer as one line without trailing spaces, and empties it. */
static void flush_line(pr_buf *b)
{
    size_t n = b->len;
    while (n && b->p[n - 1] == ' ')
        n--;
    printf("%.*s\n", (int)n, b->p ? b->p : "");
    pr_buf_reset(b);
}

/* Width of the value columns: the longest run name (12 to 24 columns). */
static int col_width(json_t *runs)
{
    size_t i;
    json_t *r;
    int w = 12;
    json_array_foreach (runs, i, r) {
        int n = (int)pr_cli_text_width(jstr(r, "name"), (size_t)-1);
        if (n > w)
            w = n;
    }
    return w > 24 ? 24 : w;
}

static void print_rows(json_t *rows, json_t *runs, size_t w)
{
    int cw = col_width(runs);
    size_t n = json_array_size(runs), i, k;
    json_t *row, *r;
    pr_buf b = PR_BUF_INIT;
    pr_buf_printf(&b, "  %-*s", (int)w, "metric");
    json_array_foreach (runs, i, r) {
        char name[128];
        pr_buf_puts(&b, " ");
        pr_cli_cell(&b, pr_cli_cut(jstr(r, "name"), (size_t)cw, name, sizeof name), cw);
    }
    for (i = 1; i < n; i++)
        pr_buf_printf(&b, "  %9s %-12s", "change", "verdict");
    flush_line(&b);
    json_array_foreach (rows, k, row) {
        pr_buf_printf(&b, "  %-*s", (int)w, jstr(row, "metric"));
        json_t *v;
        json_array_foreach (json_object_get(row, "values"), i, v) {
            pr_buf_puts(&b, " ");
            pr_cli_cell(&b, jstr(v, "human"), cw);
        }
        json_array_foreach (json_object_get(row, "diffs"), i, v) {
            pr_buf_puts(&b, "  ");
            pr_cli_cell(&b, jstr(v, "rel_pct"), 9);
            pr_buf_puts(&b, " ");
            pr_cli_cell(&b, jstr(v, "verdict"), -12);
        }
        flush_line(&b);
    }
    pr_buf_dispose(&b);
}

static json_t *metric_of(json_t *label, const char *name)
{
    size_t i;
    json_t *m;
    json_array_foreach (json_object_get(label, "metrics"), i, m)
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
    json_array_foreach (labels, i, l) {
        size_t len = pr_cli_text_width(jstr(l, "label"), (size_t)-1);
        if (len > w)
            w = len;
    }
    if (w > 40)
        w = 40;
    int cw = col_width(runs);
    printf("\n  per label: p99 (other metrics that changed, in brackets; all of them in --json)\n");
    pr_buf b = PR_BUF_INIT;
    pr_buf_printf(&b, "  %-*s", (int)w, "label");
    json_array_foreach (runs, i, r) {
        char name[128];
        pr_buf_puts(&b, " ");
        pr_cli_cell(&b, pr_cli_cut(jstr(r, "name"), (size_t)cw, name, sizeof name), cw);
    }
    for (i = 1; i < n; i++)
        pr_buf_printf(&b, "  %9s %s", "change", "verdict");
    printf("%s\n", b.p);
    pr_buf_reset(&b);
    json_array_foreach (labels, k, l) {
        char name[256];
        pr_buf_puts(&b, "  ");
        pr_cli_cell(&b, pr_cli_cut(jstr(l, "label"), w, name, sizeof name), -(int)w);
        json_t *p99 = metric_of(l, "p99"), *v;
        json_array_foreach (json_object_get(p99, "values"), i, v) {
            pr_buf_puts(&b, " ");
            pr_cli_cell(&b, jstr(v, "human"), cw);
        }
        json_array_foreach (json_object_get(p99, "diffs"), i, v) {
            pr_buf_puts(&b, "  ");
            pr_cli_cell(&b, jstr(v, "rel_pct"), 9);
            pr_buf_puts(&b, " ");
            pr_cli_cell(&b, jstr(v, "verdict"), -12);
        }
        int first = 1;
        json_array_foreach (json_object_get(p99, "diffs"), i, v) {
            size_t q;
            json_t *m;
            json_array_foreach (json_object_get(l, "metrics"), q, m) {
                json_t *d = json_array_get(json_object_get(m, "diffs"), i);
                const char *vd = jstr(d, "verdict");
                if (!strcmp(jstr(m, "metric"), "p99") ||
                    (strcmp(vd, "regression") && strcmp(vd, "improvement")))
                    continue;
                pr_buf_printf(&b, "%s%s: %s %s", first ? "[" : ", ", jstr(v, "run"),
                              jstr(m, "metric"), vd);
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
    json_array_foreach (runs, i, r) {
        printf("%s %s", i ? "compared:" : "baseline:", jstr(r, "name"));
        printf("  (run%s", json_array_size(json_object_get(r, "ids")) > 1 ? "s" : "");
        json_t *id;
        json_array_foreach (json_object_get(r, "ids"), k, id)
            printf(" %lld", (long long)json_integer_value(id));
        printf(")%s\n", json_is_true(json_object_get(r, "summary_only")) ? "  [summary only]" : "");
    }
    printf("verdicts: regression/improvement when significant (p < %g) and at least %g%% "
           "(error ratio: 1 point); untested: no samples, or too few for a test to decide\n\n",
           json_number_value(json_object_get(doc, "alpha")),
           100 * json_number_value(json_object_get(doc, "min_effect")));
    print_rows(json_object_get(doc, "metrics"), runs, 12);
    json_array_foreach (json_object_get(doc, "latency_tests"), i, r) {
        json_t *p = json_object_get(r, "p_value");
        if (json_is_number(p))
            printf("\n  latency distribution, %s vs baseline (Mann-Whitney): p = %.3g, "
                   "P(a request is slower) = %.3f",
                   jstr(r, "run"), json_number_value(p),
                   json_number_value(json_object_get(r, "a12")));
        else if (!strcmp(jstr(r, "untested_why"), "too_few_samples"))
            printf("\n  latency distribution, %s vs baseline: not tested (too few samples for "
                   "the test ever to be significant)",
                   jstr(r, "run"));
        else
            printf("\n  latency distribution, %s vs baseline: not tested (no samples)",
                   jstr(r, "run"));
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

/* Paired study, the pairs: key, A's run, B's run. */
static void print_pair_list(json_t *pg)
{
    size_t i;
    json_t *p;
    printf("pairs (A vs B):\n");
    json_array_foreach (json_object_get(pg, "pairs"), i, p) {
        json_t *a = json_object_get(p, "a"), *b = json_object_get(p, "b");
        printf("  %s: %s (run %lld) vs %s (run %lld)\n", jstr(p, "key_text"), jstr(a, "name"),
               (long long)json_integer_value(json_object_get(a, "id")), jstr(b, "name"),
               (long long)json_integer_value(json_object_get(b, "id")));
    }
}

/* The sentence under a metric's rows: directions, median change, sign test, verdict. */
static void print_pair_summary(json_t *m)
{
    json_t *t = json_object_get(m, "sign_test");
    long long n = json_integer_value(json_object_get(m, "pairs"));
    printf("  over %lld pair(s): B higher in %lld, lower in %lld, equal or unknown in %lld; median "
           "change %s; ",
           n, (long long)json_integer_value(json_object_get(m, "b_higher")),
           (long long)json_integer_value(json_object_get(m, "b_lower")),
           n - json_integer_value(json_object_get(m, "b_higher")) -
               json_integer_value(json_object_get(m, "b_lower")),
           jstr(m, "median_change_human"));
    /* no p-value where the sign test cannot decide: it would say nothing */
    if (json_is_true(json_object_get(t, "can_decide")))
        printf("sign test p = %s", jstr(t, "p_value_human"));
    else
        printf("no sign test: %lld differing pair(s) cannot decide (%lld are needed)",
               (long long)json_integer_value(json_object_get(t, "n")),
               (long long)json_integer_value(json_object_get(t, "pairs_needed")));
    printf("\n  verdict: %s (%lld regression(s), %lld improvement(s), %lld same, %lld untested)\n",
           jstr(m, "verdict"), (long long)json_integer_value(json_object_get(m, "regressions")),
           (long long)json_integer_value(json_object_get(m, "improvements")),
           (long long)json_integer_value(json_object_get(m, "same")),
           (long long)json_integer_value(json_object_get(m, "untested")));
}

/* Paired study, one metric: one row per pair (key values, A, B, change, verdict). */
static void print_pair_metric(json_t *m, json_t *keys, int *kw)
{
    size_t i, k;
    json_t *r, *v;
    pr_buf b = PR_BUF_INIT;
    printf("\n%s (higher is %s)\n", jstr(m, "metric"), jstr(m, "higher_is"));
    pr_buf_puts(&b, " ");
    json_array_foreach (keys, k, v) {
        pr_buf_puts(&b, " ");
        pr_cli_cell(&b, json_string_value(v), -kw[k]);
    }
    pr_buf_printf(&b, " %12s %12s  %9s  %s", "A", "B", "change", "verdict");
    flush_line(&b);
    json_array_foreach (json_object_get(m, "rows"), i, r) {
        pr_buf_puts(&b, " ");
        json_array_foreach (json_object_get(r, "key_values"), k, v) {
            pr_buf_puts(&b, " ");
            pr_cli_cell(&b, jstr(v, "value"), -kw[k]);
        }
        pr_buf_puts(&b, " ");
        pr_cli_cell(&b, jstr(r, "a_human"), 12);
        pr_buf_puts(&b, " ");
        pr_cli_cell(&b, jstr(r, "b_human"), 12);
        pr_buf_puts(&b, "  ");
        pr_cli_cell(&b, jstr(r, "rel_pct"), 9);
        pr_buf_printf(&b, "  %s", jstr(r, "verdict"));
        flush_line(&b);
    }
    pr_buf_dispose(&b);
    print_pair_summary(m);
}

static void print_unpaired(json_t *pg)
{
    size_t i, k;
    json_t *u, *r;
    if (!json_array_size(json_object_get(pg, "unpaired")))
        return;
    printf("\nunpaired (left out of the verdicts):\n");
    json_array_foreach (json_object_get(pg, "unpaired"), i, u) {
        printf("  %s:", jstr(u, "side"));
        json_array_foreach (json_object_get(u, "runs"), k, r)
            printf("%s %s (run %lld)", k ? "," : "", jstr(r, "name"),
                   (long long)json_integer_value(json_object_get(r, "id")));
        printf(": %s\n", jstr(u, "reason"));
    }
}

static void print_paired(json_t *doc)
{
    json_t *pg = json_object_get(doc, "pairing"), *keys = json_object_get(pg, "keys"), *r, *v;
    size_t i, k, nk = json_array_size(keys);
    json_array_foreach (json_object_get(doc, "runs"), i, r) {
        printf("%s %s (%zu run%s)\n", i ? "B:" : "A:", jstr(r, "name"),
               json_array_size(json_object_get(r, "ids")),
               json_array_size(json_object_get(r, "ids")) == 1 ? "" : "s");
    }
    printf("paired by %s: %lld pair(s), %lld group(s) of runs without a partner\n",
           jstr(pg, "keys_text"), (long long)json_integer_value(json_object_get(pg, "n_pairs")),
           (long long)json_integer_value(json_object_get(pg, "n_unpaired")));
    printf("verdicts per pair: regression/improvement when significant (p < %g) and at least %g%% "
           "(error ratio: 1 point); untested: no samples, or too few for a test to decide "
           "(the figures are observed)\n",
           json_number_value(json_object_get(doc, "alpha")),
           100 * json_number_value(json_object_get(doc, "min_effect")));
    print_pair_list(pg);
    int *kw = pr_xcalloc(nk + 1, sizeof *kw);
    json_array_foreach (keys, k, v)
        kw[k] = (int)pr_cli_text_width(json_string_value(v), (size_t)-1);
    json_array_foreach (json_object_get(pg, "pairs"), i, r)
        json_array_foreach (json_object_get(r, "key_values"), k, v)
            if (k < nk && (int)pr_cli_text_width(jstr(v, "value"), (size_t)-1) > kw[k])
                kw[k] = (int)pr_cli_text_width(jstr(v, "value"), (size_t)-1);
    if (json_array_size(json_object_get(pg, "pairs")))
        json_array_foreach (json_object_get(pg, "metrics"), i, r)
            print_pair_metric(r, keys, kw);
    free(kw);
    print_unpaired(pg);
    printf("\noverall: %s (%lld regression(s), %lld improvement(s) over %lld pair(s))\n",
           jstr(doc, "verdict"), (long long)json_integer_value(json_object_get(doc, "regressions")),
           (long long)json_integer_value(json_object_get(doc, "improvements")),
           (long long)json_integer_value(json_object_get(pg, "n_pairs")));
}

/* Renders the document with a template: a built-in name (compare.md) or a file's path.
 * Markdown written to a .html output is converted to an HTML page. */
static int render_template(json_t *doc, const char *tpl, const char *out)
{
    char *text = NULL;
    size_t len = 0;
    int rc = pr_cli_load_template(tpl, &text, &len, NULL, 0);
    if (rc)
        return rc;
    pr_tpl_builtin bt = {NULL, NULL};
    pr_tpl_loader bl = pr_tpl_builtin_loader(&bt);
    pr_buf o = PR_BUF_INIT;
    pr_error err;
    pr_error_clear(&err);
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

/* How many of the runs are summary-only (a store error counts as none: loading reports it). */
static size_t count_summary_only(pr_store *st, const int64_t *ids, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        pr_run *r;
        pr_error err;
        pr_error_clear(&err);
        if (pr_store_load_run(st, ids[i], &r, &err) == 0) {
            k += r->summary_only != 0;
            pr_run_free(r);
        }
    }
    return k;
}

/* Side by side: each selection one side (merged), B, C… against A. */
static int build_sides(pr_store *st, char **refs, int nrefs, const pr_compare_opts *o, json_t **doc)
{
    pr_compare_side *sides = pr_xcalloc((size_t)nrefs, sizeof *sides);
    int loaded = 0, rc = 0;
    for (int i = 0; i < nrefs && rc == 0; i++) {
        int64_t *ids;
        size_t n;
        rc = pr_cli_select_one(st, refs[i], &ids, &n);
        if (rc)
            break;
        pr_error err;
        pr_error_clear(&err);
        if (pr_compare_side_load(st, ids, n, strncmp(refs[i], "tag:", 4) ? NULL : refs[i] + 4,
                                 refs[i], &sides[i], &err) < 0) {
            pr_cli_print_error(&err);
            rc = PR_EXIT_ERROR;
        } else {
            loaded++;
            size_t so = n > 1 ? count_summary_only(st, ids, n) : 0;
            if (so) {
                pr_cli_errorf("%s: %zu runs, %zu of them summary-only: printed numbers cannot be "
                              "merged into one side; compare them pair by pair with --pair "
                              "tag:KEY[,KEY…] (the tags that tell the runs apart, e.g. --pair "
                              "tag:rate,duration)",
                              refs[i], n, so);
                rc = PR_EXIT_ERROR;
            }
        }
        free(ids);
    }
    if (rc == 0)
        *doc = pr_compare_build(sides, (size_t)nrefs, o);
    for (int i = 0; i < loaded; i++)
        pr_compare_side_dispose(&sides[i]);
    free(sides);
    return rc;
}

/* A paired study: the runs of A and B matched by the --pair keys. */
static int build_pairs(pr_store *st, char **refs, char **keys, size_t nkeys,
                       const pr_compare_opts *o, json_t **doc)
{
    int64_t *ids[2] = {NULL, NULL};
    size_t n[2] = {0, 0};
    int rc = pr_cli_select_one(st, refs[0], &ids[0], &n[0]);
    if (rc == 0)
        rc = pr_cli_select_one(st, refs[1], &ids[1], &n[1]);
    if (rc == 0) {
        pr_pair_side sd[2];
        for (int s = 0; s < 2; s++)
            sd[s] = (pr_pair_side){strncmp(refs[s], "tag:", 4) ? refs[s] : refs[s] + 4, refs[s],
                                   ids[s], n[s]};
        pr_error err;
        pr_error_clear(&err);
        if (pr_compare_pairs(st, &sd[0], &sd[1], keys, nkeys, o, doc, &err) < 0) {
            pr_cli_print_error(&err);
            rc = PR_EXIT_ERROR;
        }
    }
    free(ids[0]);
    free(ids[1]);
    return rc;
}

static int emit(json_t *doc, const char *tpl, const char *out, int json)
{
    if (tpl)
        return render_template(doc, tpl, out);
    if (json)
        return pr_cli_print_json(doc, out);
    pr_text_visible_json(doc, 0); /* names, labels and pairing keys come from the files */
    if (json_object_get(doc, "pairing"))
        print_paired(doc);
    else
        print_text(doc);
    return 0;
}

static int parse_opt(int c, pr_compare_opts *o)
{
    char *end;
    switch (c) {
    case 'e':
        if (parse_fraction(optarg, &o->min_effect) < 0) {
            pr_cli_errorf("--min-effect expects a percentage like 5%%, got '%s'", optarg);
            return PR_EXIT_USAGE;
        }
        return 0;
    case 'a':
        o->alpha = strtod(optarg, &end);
        if (*end || !(o->alpha > 0 && o->alpha < 1)) {
            pr_cli_errorf("--alpha expects a probability like 0.01, got '%s'", optarg);
            return PR_EXIT_USAGE;
        }
        return 0;
    case 'r':
        o->resamples = atoi(optarg);
        if (o->resamples < 100 || o->resamples > 1000000) {
            pr_cli_errorf("--resamples expects 100 to 1000000, got '%s'", optarg);
            return PR_EXIT_USAGE;
        }
        return 0;
    case 's': o->seed = strtoull(optarg, NULL, 10); return 0;
    default: return PR_EXIT_USAGE;
    }
}

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {{"store", required_argument, NULL, 'S'},
                                             {"json", no_argument, NULL, 'j'},
                                             {"min-effect", required_argument, NULL, 'e'},
                                             {"alpha", required_argument, NULL, 'a'},
                                             {"fail-on-regression", no_argument, NULL, 'F'},
                                             {"template", required_argument, NULL, 't'},
                                             {"output", required_argument, NULL, 'o'},
                                             {"resamples", required_argument, NULL, 'r'},
                                             {"seed", required_argument, NULL, 's'},
                                             {"pair", required_argument, NULL, 'p'},
                                             {NULL, 0, NULL, 0}};
    const char *store = NULL, *tpl = NULL, *out = NULL, *pair = NULL;
    int json = 0, fail = 0, c, rc = 0;
    pr_compare_opts o;
    pr_compare_opts_init(&o);
    optind = 1;
    while (rc == 0 && (c = getopt_long(argc, argv, "jt:o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'S': store = optarg; break;
        case 'j': json = 1; break;
        case 'F': fail = 1; break;
        case 't': tpl = optarg; break;
        case 'o': out = optarg; break;
        case 'p': pair = optarg; break;
        default: rc = parse_opt(c, &o); break;
        }
    }
    if (rc)
        return rc;
    pr_cli_template_language(tpl); /* before the words of the comparison are written */
    int nrefs = argc - optind;
    if (nrefs < 2 || (pair && nrefs != 2)) {
        pr_cli_errorf(
            pair ? "compare --pair takes two selections, A and B (got %d)"
                 : "compare needs at least two runs or selections (see perfreport compare --help)",
            nrefs);
        return PR_EXIT_USAGE;
    }
    char **keys = NULL;
    size_t nkeys = 0;
    if (pair && (rc = pr_cli_parse_keys("--pair", pair, &keys, &nkeys)) != 0)
        return rc;
    pr_store *st;
    if ((rc = pr_cli_open_store(store, 0, &st)) != 0) {
        pr_cli_keys_free(keys, nkeys);
        return rc;
    }
    json_t *doc = NULL;
    rc = pair ? build_pairs(st, argv + optind, keys, nkeys, &o, &doc)
              : build_sides(st, argv + optind, nrefs, &o, &doc);
    if (rc == 0)
        rc = emit(doc, tpl, out, json);
    json_t *pg = json_object_get(doc, "pairing");
    if (rc == 0 && pg && !json_integer_value(json_object_get(pg, "n_pairs"))) {
        pr_cli_errorf("compare --pair %s: no run of A has a partner in B (the reasons are listed)",
                      pair);
        rc = PR_EXIT_ERROR;
    }
    if (rc == 0 && fail &&
        json_integer_value(json_object_get(doc, "regressions")) +
                json_integer_value(json_object_get(doc, "label_regressions")) >
            0)
        rc = PR_EXIT_THRESHOLD;
    json_decref(doc);
    pr_cli_keys_free(keys, nkeys);
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
    "otherwise 'same'. A metric no test could decide (a summary-only run has no samples;\n"
    "too few samples or intervals for the test ever to be significant) is 'untested':\n"
    "its figures are observed, not tested. Changes beyond 2x read as factors (10.1×, ÷40.4).\n"
    "With --pair tag:KEY[,KEY…] the two selections A and B are a study across a series: their\n"
    "runs are paired by the values of those tags (e.g. rate and duration), every pair is\n"
    "compared, and each metric gets one row per pair, a sign test across the pairs and an\n"
    "overall verdict. Runs without a partner (or with several) are listed, never dropped or\n"
    "merged. Method: docs/metrics.md.\n\n"
    "options:\n"
    "      --json               the comparison model as JSON\n"
    "  -t, --template T         render with a template: a built-in name ('compare.md'), or\n"
    "                           a file given as a path ('./mine.md', 'tpl/mine.md')\n"
    "  -o, --output FILE        write there instead of stdout (a Markdown template into a\n"
    "                           .html file is converted to an HTML page, as render does)\n"
    "      --min-effect P       minimum relative change for a verdict (default 5%)\n"
    "      --alpha A            significance level (default 0.01)\n"
    "      --resamples N        bootstrap resamples (default 2000; seeded, deterministic)\n"
    "      --seed N             bootstrap seed (default 1)\n"
    "      --pair tag:KEY[,KEY…] pair the runs of A and B by these tags (a study)\n"
    "      --fail-on-regression exit 3 when a regression is found\n"
    "      --store PATH         store file\n\n"
    "examples:\n  perfreport compare baseline candidate --fail-on-regression\n"
    "  perfreport compare tag:jvm=hotspot tag:jvm=openj9 -t compare.md -o compare.md\n"
    "  perfreport compare tag:jvm=hotspot tag:jvm=openj9 --pair tag:rate,duration\n",
    run};
