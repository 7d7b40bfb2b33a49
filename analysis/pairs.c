/* Paired studies: two selections matched by key tags, compared pair by pair, summed per metric. */
#include "analysis/pairs.h"
#include "model/l10n.h"
#include "model/run.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The metrics a pair row shows (rows of the two-run comparison document). */
static const char *const headline[] = {"throughput", "error_ratio", "p50", "p99"};
#define NHEAD (sizeof headline / sizeof headline[0])

typedef struct member {
    pr_run *run;
    int side;
} member;

typedef struct group {
    const char **vals; /* nkeys values, borrowed from the first member's run */
    size_t *m[2];      /* member indexes per side */
    size_t n[2], cap[2];
} group;

typedef struct pairing {
    pr_store *st;
    const pr_pair_side *side[2];
    char *const *keys;
    size_t nkeys;
    member *mem;
    size_t nmem;
    group *g;
    size_t ng, gcap;
    json_t *unpaired;
} pairing;

double pr_sign_test_p(size_t k, size_t n)
{
    if (n == 0)
        return 1;
    size_t lo = k < n - k ? k : n - k;
    /* P(X <= lo) for X ~ Bin(n, 1/2), summed in logs */
    double s = 0;
    for (size_t i = 0; i <= lo; i++)
        s += exp(lgamma((double)n + 1) - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) -
                 (double)n * log(2.0));
    double p = 2 * s;
    return p > 1 ? 1 : p;
}

static const char *side_letter(int s)
{
    return s ? "B" : "A";
}

static char *key_text(char *const *keys, const char *const *vals, size_t n)
{
    size_t len = 1;
    for (size_t i = 0; i < n; i++)
        len += strlen(keys[i]) + strlen(vals[i]) + 2;
    char *t = pr_xmalloc(len), *p = t;
    *p = 0;
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "%s%s=%s", i ? " " : "", keys[i], vals[i]);
    return t;
}

static json_t *run_ref(const pr_run *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "id", json_integer(r->id));
    json_object_set_new(o, "name", json_string(r->name ? r->name : ""));
    json_object_set_new(o, "summary_only", json_boolean(r->summary_only));
    return o;
}

/* Adds an unpaired entry: the runs of one side (member indexes), why they have no partner. */
static void add_unpaired(pairing *P, int side, const size_t *m, size_t n, const char *key,
                         const char *reason)
{
    json_t *e = json_object(), *runs = json_array();
    json_object_set_new(e, "side", json_string(side_letter(side)));
    json_object_set_new(e, "selection", json_string(P->side[side]->name));
    json_object_set_new(e, "key_text", key ? json_string(key) : json_null());
    for (size_t i = 0; i < n; i++)
        json_array_append_new(runs, run_ref(P->mem[m[i]].run));
    json_object_set_new(e, "runs", runs);
    json_object_set_new(e, "reason", json_string(reason));
    json_array_append_new(P->unpaired, e);
}

static int group_cmp(const void *x, const void *y, void *nkeys)
{
    const group *a = x, *b = y;
    for (size_t i = 0; i < *(size_t *)nkeys; i++) {
        int c = strverscmp(a->vals[i], b->vals[i]);
        if (c)
            return c;
    }
    return 0;
}

/* Loads every run of both sides; a run without a key goes to unpaired, the others to groups. */
static int collect(pairing *P, pr_error *err)
{
    size_t total = P->side[0]->nids + P->side[1]->nids, mcap = 0;
    const char **vals = pr_xmalloc((P->nkeys + 1) * sizeof *vals);
    for (size_t t = 0; t < total; t++) {
        int s = t >= P->side[0]->nids;
        int64_t id = P->side[s]->ids[s ? t - P->side[0]->nids : t];
        pr_run *r;
        int rc = pr_store_load_run(P->st, id, &r, err);
        if (rc < 0) {
            free(vals);
            return rc;
        }
        P->mem = pr_xgrow(P->mem, &mcap, P->nmem + 1, sizeof *P->mem);
        size_t mi = P->nmem++;
        P->mem[mi] = (member){r, s};
        const char *missing = NULL;
        for (size_t k = 0; k < P->nkeys && !missing; k++)
            if (!(vals[k] = pr_run_tag_get(r, P->keys[k])))
                missing = P->keys[k];
        if (missing) {
            char why[160];
            snprintf(why, sizeof why, _("no tag '%s'"), missing);
            add_unpaired(P, s, &mi, 1, NULL, why);
            continue;
        }
        size_t g = 0;
        while (g < P->ng && group_cmp(&(group){vals, {0}, {0}, {0}}, &P->g[g], &P->nkeys))
            g++;
        if (g == P->ng) {
            P->g = pr_xgrow(P->g, &P->gcap, P->ng + 1, sizeof *P->g);
            memset(&P->g[g], 0, sizeof P->g[g]);
            P->g[g].vals = pr_xmalloc((P->nkeys + 1) * sizeof *vals);
            memcpy(P->g[g].vals, vals, P->nkeys * sizeof *vals);
            P->ng++;
        }
        group *G = &P->g[g];
        G->m[s] = pr_xgrow(G->m[s], &G->cap[s], G->n[s] + 1, sizeof *G->m[s]);
        G->m[s][G->n[s]++] = mi;
    }
    free(vals);
    qsort_r(P->g, P->ng, sizeof *P->g, group_cmp, &P->nkeys);
    return 0;
}

/* The tags whose values differ among the members m[0..n) (", "-joined into buf). */
static void differing_tags(const pairing *P, const size_t *m, size_t n, char *buf, size_t size)
{
    size_t o = 0, nseen = 0, cap = 0;
    const char **seen = NULL;
    buf[0] = 0;
    for (size_t i = 0; i < n; i++) {
        const pr_run *x = P->mem[m[i]].run;
        for (size_t t = 0; t < x->ntags; t++) {
            const char *k = x->tags[t].key;
            int differs = 0, dup = 0;
            for (size_t j = 0; j < n && !differs; j++) {
                const char *v = pr_run_tag_get(P->mem[m[j]].run, k);
                differs = !v || strcmp(v, x->tags[t].value);
            }
            for (size_t q = 0; q < nseen && !dup; q++)
                dup = !strcmp(seen[q], k);
            if (!differs || dup)
                continue;
            seen = pr_xgrow(seen, &cap, nseen + 1, sizeof *seen);
            seen[nseen++] = k;
            int w = snprintf(buf + o, size - o, "%s%s", o ? ", " : "", k);
            if (w < 0 || (size_t)w >= size - o)
                break;
            o += (size_t)w;
        }
    }
    free(seen);
}

/* A group that cannot be paired: a side is missing, or a side has several runs. */
static void group_unpaired(pairing *P, const group *G, const char *key)
{
    char why[512], tags[256];
    for (int s = 0; s < 2; s++) {
        int o = !s;
        if (!G->n[s])
            continue;
        if (G->n[s] > 1) {
            differing_tags(P, G->m[s], G->n[s], tags, sizeof tags);
            if (*tags)
                snprintf(why, sizeof why,
                         _("%zu runs of %s have %s (they differ in %s): never "
                           "merged; pair by more tags or select fewer runs"),
                         G->n[s], side_letter(s), key, tags);
            else
                snprintf(why, sizeof why,
                         _("%zu runs of %s have %s: never merged; pair by more "
                           "tags or select fewer runs"),
                         G->n[s], side_letter(s), key);
        } else if (!G->n[o]) {
            snprintf(why, sizeof why, _("no run of %s has %s"), side_letter(o), key);
        } else {
            snprintf(why, sizeof why, _("its partner in %s is ambiguous (%zu runs)"),
                     side_letter(o), G->n[o]);
        }
        add_unpaired(P, s, G->m[s], G->n[s], key, why);
    }
}

static json_t *row_named(json_t *doc, const char *metric)
{
    size_t i;
    json_t *r;
    json_array_foreach (json_object_get(doc, "metrics"), i, r)
        if (!strcmp(json_string_value(json_object_get(r, "metric")), metric))
            return r;
    return NULL;
}

/* One metric of a pair: A's and B's values and the diff, flattened for templates. */
static json_t *pair_metric(json_t *row, json_t *key_values, const char *key, const pr_run *a,
                           const pr_run *b)
{
    json_t *m = json_object(), *va = json_array_get(json_object_get(row, "values"), 0),
           *vb = json_array_get(json_object_get(row, "values"), 1),
           *d = json_array_get(json_object_get(row, "diffs"), 0);
    json_object_set(m, "metric", json_object_get(row, "metric"));
    json_object_set(m, "metric_text", json_object_get(row, "metric_text"));
    json_object_set_new(m, "key_text", json_string(key));
    json_object_set(m, "key_values", key_values);
    json_object_set_new(m, "a_name", json_string(a->name ? a->name : ""));
    json_object_set_new(m, "b_name", json_string(b->name ? b->name : ""));
    json_object_set(m, "a_value", json_object_get(va, "value"));
    json_object_set(m, "a_human", json_object_get(va, "human"));
    json_object_set(m, "b_value", json_object_get(vb, "value"));
    json_object_set(m, "b_human", json_object_get(vb, "human"));
    const char *copy[] = {"abs",
                          "abs_human",
                          "rel",
                          "rel_pct",
                          "test",
                          "p_value",
                          "ci_low",
                          "ci_high",
                          "significant",
                          "verdict",
                          "verdict_text",
                          "is_regression",
                          "is_improvement",
                          "untested_why"};
    for (size_t i = 0; i < sizeof copy / sizeof copy[0]; i++)
        if (json_object_get(d, copy[i]))
            json_object_set(m, copy[i], json_object_get(d, copy[i]));
    return m;
}

/* Compares one pair; appends its row object to every metric's rows. */
static int compare_pair(pairing *P, const group *G, const char *key, const pr_compare_opts *o,
                        json_t *pairs, json_t **rows, pr_error *err)
{
    const pr_run *ra = P->mem[G->m[0][0]].run, *rb = P->mem[G->m[1][0]].run;
    pr_compare_side sd[2];
    int rc = pr_compare_side_load(P->st, &ra->id, 1, NULL, NULL, &sd[0], err);
    if (rc < 0)
        return rc;
    if ((rc = pr_compare_side_load(P->st, &rb->id, 1, NULL, NULL, &sd[1], err)) < 0) {
        pr_compare_side_dispose(&sd[0]);
        return rc;
    }
    json_t *doc = pr_compare_build(sd, 2, o);
    json_t *p = json_object(), *kobj = json_object(), *kv = json_array(), *ms = json_array();
    for (size_t k = 0; k < P->nkeys; k++) {
        json_object_set_new(kobj, P->keys[k], json_string(G->vals[k]));
        json_t *v = json_object();
        json_object_set_new(v, "key", json_string(P->keys[k]));
        json_object_set_new(v, "value", json_string(G->vals[k]));
        json_array_append_new(kv, v);
    }
    json_object_set_new(p, "key", kobj);
    json_object_set_new(p, "key_values", kv);
    json_object_set_new(p, "key_text", json_string(key));
    json_t *ja = run_ref(ra), *jb = run_ref(rb);
    json_object_set_new(ja, "samples", json_integer((json_int_t)sd[0].latency.n));
    json_object_set_new(jb, "samples", json_integer((json_int_t)sd[1].latency.n));
    json_object_set_new(p, "a", ja);
    json_object_set_new(p, "b", jb);
    for (size_t h = 0; h < NHEAD; h++) {
        json_t *m = pair_metric(row_named(doc, headline[h]), kv, key, ra, rb);
        json_array_append(rows[h], m);
        json_array_append_new(ms, m);
    }
    json_object_set_new(p, "metrics", ms);
    json_t *lt = json_array_get(json_object_get(doc, "latency_tests"), 0);
    json_object_set(p, "latency_test",
                    json_is_number(json_object_get(lt, "p_value")) ? lt : json_null());
    json_array_append_new(pairs, p);
    json_decref(doc);
    pr_compare_side_dispose(&sd[0]);
    pr_compare_side_dispose(&sd[1]);
    return 0;
}

static int cmp_dbl(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double jnum(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The per-metric summary over the pairs: verdict counts, a sign test, the overall verdict. */
static json_t *metric_summary(json_t *rows, const char *metric, const pr_compare_opts *o, int *regs,
                              int *imps)
{
    int higher_worse = strcmp(metric, "throughput") != 0, ratio = !strcmp(metric, "error_ratio");
    size_t n = json_array_size(rows), tested = 0, R = 0, I = 0, same = 0, untested = 0;
    size_t higher = 0, lower = 0, ties = 0, nrel = 0, i;
    double *rel = pr_xmalloc((n + 1) * sizeof *rel);
    json_t *r;
    json_array_foreach (rows, i, r) {
        const char *v = json_string_value(json_object_get(r, "verdict"));
        R += !strcmp(v, "regression");
        I += !strcmp(v, "improvement");
        same += !strcmp(v, "same");
        untested += !strcmp(v, "untested");
        tested += json_is_boolean(json_object_get(r, "significant"));
        double d = jnum(r, "b_value") - jnum(r, "a_value");
        if (isfinite(d)) {
            higher += d > 0;
            lower += d < 0;
            ties += d == 0;
            double q = ratio ? d : jnum(r, "rel");
            if (isfinite(q))
                rel[nrel++] = q;
        }
    }
    qsort(rel, nrel, sizeof *rel, cmp_dbl);
    double med = nrel ? (nrel % 2 ? rel[nrel / 2] : (rel[nrel / 2 - 1] + rel[nrel / 2]) / 2) : NAN;
    free(rel);
    size_t nt = higher + lower, need = 1;
    while (2 * pow(0.5, (double)need) >= o->alpha)
        need++;
    double p = pr_sign_test_p(higher, nt), pmin = nt ? 2 * pow(0.5, (double)nt) : 1;
    if (pmin > 1)
        pmin = 1;
    int large = isfinite(med) && fabs(med) >= (ratio ? 0.01 : o->min_effect);
    int sig = nt > 0 && p < o->alpha && large && (higher > lower) == (med > 0);
    int sig_worse = sig && (higher > lower) == higher_worse;
    int worse = R > 0 || sig_worse, better = I > 0 || (sig && !sig_worse);
    const char *verdict = worse && better ? "mixed"
                          : worse         ? "regression"
                          : better        ? "improvement"
                          : tested == 0   ? "untested"
                                          : "same";
    *regs += (int)R + (sig_worse && R == 0);
    *imps += (int)I + (sig && !sig_worse && I == 0);
    json_t *m = json_object(), *st = json_object();
    char h[64];
    json_object_set_new(m, "metric", json_string(metric));
    json_object_set_new(m, "metric_text", json_string(pr_compare_metric_text(metric)));
    json_object_set_new(m, "higher_is", json_string(higher_worse ? "worse" : "better"));
    json_object_set_new(m, "higher_is_worse", json_boolean(higher_worse));
    json_object_set(m, "rows", rows);
    json_object_set_new(m, "pairs", json_integer((json_int_t)n));
    json_object_set_new(m, "tested", json_integer((json_int_t)tested));
    json_object_set_new(m, "regressions", json_integer((json_int_t)R));
    json_object_set_new(m, "improvements", json_integer((json_int_t)I));
    json_object_set_new(m, "same", json_integer((json_int_t)same));
    json_object_set_new(m, "untested", json_integer((json_int_t)untested));
    json_object_set_new(m, "b_higher", json_integer((json_int_t)higher));
    json_object_set_new(m, "b_lower", json_integer((json_int_t)lower));
    json_object_set_new(m, "ties", json_integer((json_int_t)ties));
    json_object_set_new(m, "median_change", isfinite(med) ? json_real(med) : json_null());
    if (isfinite(med))
        if (ratio)
            snprintf(h, sizeof h, "%+.2f %s", 100 * med, C_("unit", "pp"));
        else
            pr_compare_rel_text(med, h, sizeof h);
    else
        snprintf(h, sizeof h, "-");
    json_object_set_new(m, "median_change_human", json_string(h));
    json_object_set_new(st, "test", json_string("sign"));
    json_object_set_new(st, "n", json_integer((json_int_t)nt));
    json_object_set_new(st, "p_value", json_real(p));
    snprintf(h, sizeof h, "%.3g", p);
    json_object_set_new(st, "p_value_human", json_string(h));
    json_object_set_new(st, "min_p_value", json_real(pmin));
    snprintf(h, sizeof h, "%.3g", pmin);
    json_object_set_new(st, "min_p_value_human", json_string(h));
    json_object_set_new(st, "pairs_needed", json_integer((json_int_t)need));
    json_object_set_new(st, "can_decide", json_boolean(pmin < o->alpha));
    /* a p-value is shown only where the test could decide: with too few differing pairs its
     * smallest possible p is at least alpha, and its p-value says nothing */
    json_object_set_new(st, "show_p_value", json_boolean(pmin < o->alpha));
    json_object_set_new(st, "significant", json_boolean(sig));
    json_object_set_new(m, "sign_test", st);
    json_object_set_new(m, "verdict", json_string(verdict));
    json_object_set_new(m, "verdict_text", json_string(pr_compare_verdict_text(verdict)));
    json_object_set_new(m, "is_regression", json_boolean(worse));
    json_object_set_new(m, "is_improvement", json_boolean(better));
    return m;
}

static void dispose(pairing *P)
{
    for (size_t i = 0; i < P->nmem; i++)
        pr_run_free(P->mem[i].run);
    free(P->mem);
    for (size_t g = 0; g < P->ng; g++) {
        free(P->g[g].vals);
        free(P->g[g].m[0]);
        free(P->g[g].m[1]);
    }
    free(P->g);
    json_decref(P->unpaired);
}

static json_t *side_json(const pr_pair_side *s, int first)
{
    json_t *r = json_object(), *ids = json_array();
    json_object_set_new(r, "name", json_string(s->name));
    json_object_set_new(r, "selection", json_string(s->selection));
    for (size_t k = 0; k < s->nids; k++)
        json_array_append_new(ids, json_integer(s->ids[k]));
    json_object_set_new(r, "ids", ids);
    json_object_set_new(r, "baseline", json_boolean(first));
    json_object_set_new(r, "first", json_boolean(first));
    json_object_set_new(r, "last", json_boolean(!first));
    return r;
}

/* The document around the pairs: runs, pairing {keys, pairs, unpaired, metrics}, verdicts. */
static json_t *document(pairing *P, json_t *pairs, json_t **rows, const pr_compare_opts *o)
{
    json_t *doc = json_object(), *runs = json_array(), *cmp = json_array(), *pg = json_object();
    json_object_set_new(doc, "schema", json_string("perfreport-compare"));
    json_object_set_new(doc, "version", json_integer(PR_COMPARE_SCHEMA_VERSION));
    json_object_set_new(doc, "kind", json_string("paired"));
    json_object_set_new(doc, "min_effect", json_real(o->min_effect));
    json_object_set_new(doc, "alpha", json_real(o->alpha));
    char pct[32];
    snprintf(pct, sizeof pct, "%g%%", 100 * o->min_effect);
    json_object_set_new(doc, "min_effect_pct", json_string(pct));
    json_object_set_new(doc, "resamples", json_integer(o->resamples));
    json_object_set_new(doc, "seed", json_integer((json_int_t)o->seed));
    json_array_append_new(runs, side_json(P->side[0], 1));
    json_array_append_new(runs, side_json(P->side[1], 0));
    json_array_append(cmp, json_array_get(runs, 1));
    json_object_set_new(doc, "runs", runs);
    json_object_set_new(doc, "compared", cmp);
    json_t *keys = json_array();
    size_t klen = 1;
    for (size_t k = 0; k < P->nkeys; k++) {
        json_array_append_new(keys, json_string(P->keys[k]));
        klen += strlen(P->keys[k]) + 2;
    }
    char *kt = pr_xmalloc(klen);
    kt[0] = 0;
    for (size_t k = 0; k < P->nkeys; k++)
        strcat(strcat(kt, k ? ", " : ""), P->keys[k]);
    json_object_set_new(pg, "keys", keys);
    json_object_set_new(pg, "keys_text", json_string(kt));
    free(kt);
    json_object_set(pg, "pairs", pairs);
    json_object_set_new(pg, "n_pairs", json_integer((json_int_t)json_array_size(pairs)));
    json_object_set(pg, "unpaired", P->unpaired);
    json_object_set_new(pg, "n_unpaired", json_integer((json_int_t)json_array_size(P->unpaired)));
    json_t *ms = json_array();
    int regs = 0, imps = 0, worse = 0, better = 0, tested = 0, untested = 0;
    for (size_t h = 0; h < NHEAD; h++) {
        json_t *m = metric_summary(rows[h], headline[h], o, &regs, &imps);
        worse |= json_is_true(json_object_get(m, "is_regression"));
        better |= json_is_true(json_object_get(m, "is_improvement"));
        int u = !strcmp(json_string_value(json_object_get(m, "verdict")), "untested");
        tested |= !u;
        untested |= u;
        json_array_append_new(ms, m);
    }
    json_object_set_new(pg, "metrics", ms);
    json_object_set_new(doc, "pairing", pg);
    /* "same" only when every metric was tested: a metric that was not is no evidence of
     * sameness (its figures may differ tenfold) */
    const char *v = worse && better       ? "mixed"
                    : worse               ? "regression"
                    : better              ? "improvement"
                    : tested && !untested ? "same"
                                          : "untested";
    json_object_set_new(doc, "verdict", json_string(v));
    json_object_set_new(doc, "verdict_text", json_string(pr_compare_verdict_text(v)));
    json_object_set_new(doc, "regressions", json_integer(regs));
    json_object_set_new(doc, "improvements", json_integer(imps));
    json_object_set_new(doc, "label_regressions", json_integer(0));
    json_object_set_new(doc, "label_improvements", json_integer(0));
    return doc;
}

int pr_compare_pairs(pr_store *st, const pr_pair_side *a, const pr_pair_side *b, char *const *keys,
                     size_t nkeys, const pr_compare_opts *o, json_t **out, pr_error *err)
{
    pr_compare_opts def;
    if (!o) {
        pr_compare_opts_init(&def);
        o = &def;
    }
    pairing P;
    memset(&P, 0, sizeof P);
    P.st = st;
    P.side[0] = a;
    P.side[1] = b;
    P.keys = keys;
    P.nkeys = nkeys;
    P.unpaired = json_array();
    *out = NULL;
    int rc = collect(&P, err);
    json_t *pairs = json_array(), *rows[NHEAD];
    for (size_t h = 0; h < NHEAD; h++)
        rows[h] = json_array();
    for (size_t g = 0; g < P.ng && rc == 0; g++) {
        char *key = key_text(keys, P.g[g].vals, nkeys);
        if (P.g[g].n[0] == 1 && P.g[g].n[1] == 1)
            rc = compare_pair(&P, &P.g[g], key, o, pairs, rows, err);
        else
            group_unpaired(&P, &P.g[g], key);
        free(key);
    }
    if (rc == 0)
        *out = document(&P, pairs, rows, o);
    json_decref(pairs);
    for (size_t h = 0; h < NHEAD; h++)
        json_decref(rows[h]);
    dispose(&P);
    return rc;
}
