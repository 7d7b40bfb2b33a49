/* The study's comparison: every configuration against the first at each level (the pairs of
 * analysis/pairs.c), with a conclusion per level and one overall, only where the pairs'
 * verdicts say the difference is significant. */
#include "analysis/study_priv.h"
#include "analysis/pairs.h"
#include "model/buf.h"
#include "model/l10n.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every word the study writes itself, translated by the catalog where it is used. Sentences
 * take their figures as printed in the tables (the pairs' a_human, b_human, rel_pct), never
 * recomputed. */
static const char *const words[SW_COUNT] = {
    [SW_ALL_REQUESTS] = N_("all requests"),
    [SW_ALL_RUNS] = N_("all runs"),
    [SW_FASTER] = N_("faster"),
    [SW_SLOWER] = N_("slower"),
    [SW_HIGHER] = N_("higher"),
    [SW_LOWER] = N_("lower"),
    /* TRANSLATORS: the level (rate=200); the sentence of the level follows */
    [SW_AT_LEVEL] = N_("At %s, "),
    /* TRANSLATORS: B, the factor (20.4×), "faster" or "slower", A, the metric (p50), B's
     * figure, A's figure: "cache=on is 20.4× faster than cache=off at p50 (208 µs vs 12.4 ms)" */
    [SW_LAT_FIRST] = N_("%s is %s %s than %s at %s (%s vs %s)"),
    /* TRANSLATORS: the factor, "faster" or "slower", the metric, B's figure, A's figure */
    [SW_LAT_NEXT] = N_(" and %s %s at %s (%s vs %s)"),
    /* TRANSLATORS: B, B's figure, A's figure, A, the change (+12.3%) */
    [SW_THROUGHPUT] = N_("%s's throughput is %s against %s for %s (%s)"),
    /* TRANSLATORS: B, B's figure, A's figure, A, the change in percentage points */
    [SW_ERRORS] = N_("%s's error ratio is %s against %s for %s (%s)"),
    [SW_CLAUSE_SEP] = N_("; "),
    [SW_LIST_SEP] = N_(", "),
    /* TRANSLATORS: the end of a sentence */
    [SW_END] = N_("."),
    /* TRANSLATORS: two sentences one after the other */
    [SW_SENTENCES] = N_("%s %s"),
    /* TRANSLATORS: B, A */
    [SW_NO_DIFFERENCE] = N_("no significant difference between %s and %s"),
    /* TRANSLATORS: the metrics ("p50, p99") without a difference */
    [SW_IN] = N_(" in %s"),
    /* TRANSLATORS: A, B */
    [SW_NONE_TESTED] = N_("%s and %s are not tested: their runs have no samples (a tool's "
                          "printed summary); the figures are in the table"),
    /* TRANSLATORS: the level, A, B, why */
    [SW_NOT_PAIRED] = N_("At %s, %s and %s are not compared: %s."),
    /* TRANSLATORS: B, "faster" or "slower", A, the metric: "B is faster than A at p50" */
    [SW_HEAD_LATENCY] = N_("%s is %s than %s at %s"),
    /* TRANSLATORS: B, "higher" or "lower", the metric, A: "B has a higher throughput than A" */
    [SW_HEAD_OTHER] = N_("%s has a %s %s than %s"),
    /* TRANSLATORS: the head (SW_HEAD_*), the figures' range */
    [SW_OVERALL_ALL] = N_("%s at every load tested (%s)."),
    /* TRANSLATORS: the head, the level, the figure */
    [SW_OVERALL_ONE] = N_("%s at %s (%s)."),
    /* TRANSLATORS: the head, the levels, the range, the levels without a difference */
    [SW_OVERALL_SOME] = N_("%s at %s (%s); no significant difference at %s."),
    /* TRANSLATORS: B, A, the metric, "faster", the levels, the range, "slower", the levels,
     * the range */
    [SW_OVERALL_MIXED] = N_("%s against %s, %s: %s at %s (%s), %s at %s (%s)."),
    /* TRANSLATORS: B, A */
    [SW_OVERALL_SAME] = N_("No significant difference between %s and %s at any load tested."),
    /* TRANSLATORS: a figure, the level: "20.4× at rate=200" */
    [SW_AT] = N_("%s at %s"),
    /* TRANSLATORS: the two ends of a range: "from 18.1× at rate=50 to 22.3× at rate=200" */
    [SW_FROM_TO] = N_("from %s to %s"),
    [SW_METRIC_THROUGHPUT] = N_("throughput"),
    [SW_METRIC_ERRORS] = N_("error ratio"),
    /* TRANSLATORS: B, the metric, B's figure, A's figure, A, the change (10.0×, -13.8%): what
     * was seen without a test: "jvm=openj9's p99 was 1.82 s against 180 ms for jvm=hotspot
     * (10.1×)" */
    [SW_OBS_FIRST] = N_("%s's %s was %s against %s for %s (%s)"),
    /* TRANSLATORS: the metric, B's figure, A's figure, the change */
    [SW_OBS_NEXT] = N_(", its %s %s against %s (%s)"),
    /* TRANSLATORS: after the observed figures of runs without samples */
    [SW_OBSERVED] = N_("; one run each: observed, not tested"),
    /* TRANSLATORS: after the observed figures of runs with too few samples for a test */
    [SW_OBSERVED_FEW] = N_("; one run each, too few samples for a test: observed, not tested"),
    /* TRANSLATORS: the metrics, the minimum effect (5%) */
    [SW_WITHIN] = N_("; %s within %s of each other (observed, not tested)"),
    /* TRANSLATORS: the metrics a test found no difference in */
    [SW_SAME_IN] = N_("; no significant difference in %s"),
    /* TRANSLATORS: the metrics one of the runs has no figure of */
    [SW_MISSING] = N_("; %s not compared (a run has no figure)"),
    /* TRANSLATORS: B, "faster" or "slower", A, the metric: what was seen, not tested */
    [SW_OBS_HEAD_LATENCY] = N_("%s was %s than %s at %s"),
    /* TRANSLATORS: B, "higher" or "lower", the metric, A: what was seen, not tested */
    [SW_OBS_HEAD_OTHER] = N_("%s had a %s %s than %s"),
    /* TRANSLATORS: the head (SW_OBS_HEAD_*), the figures' range, the end (SW_OBSERVED…) */
    [SW_OBS_ALL] = N_("%s at every load compared (%s)%s."),
    /* TRANSLATORS: the head, the figures (SW_OBS_FIRST), the level, the end: "jvm=openj9 was
     * slower than jvm=hotspot at p99: jvm=openj9's p99 was 1.82 s against 180 ms for
     * jvm=hotspot (10.1×) at rate=50; one run each: observed, not tested." */
    [SW_OBS_ONE] = N_("%s: %s at %s%s."),
    /* TRANSLATORS: the head, the levels, the range, the minimum effect, the levels within it,
     * the end */
    [SW_OBS_SOME] = N_("%s at %s (%s), within %s at %s%s."),
    /* TRANSLATORS: B, A, the metric, "faster", the levels, the range, "slower", the levels,
     * the range, the end */
    [SW_OBS_MIXED] = N_("%s against %s, %s: %s at %s (%s), %s at %s (%s)%s."),
    /* TRANSLATORS: the metrics, the minimum effect */
    [SW_OBS_WITHIN_ALL] = N_("%s within %s of each other at every load compared (observed, not "
                             "tested)."),
    /* TRANSLATORS: the metrics a test found no difference in at any level */
    [SW_OVERALL_SAME_IN] = N_("No significant difference in %s at any load tested."),
    /* TRANSLATORS: B, A */
    [SW_OBS_NONE] = N_("%s and %s have no figure in common to compare."),
};

const char *pr_study_word(study_word w)
{
    return w < SW_COUNT && words[w] ? _(words[w]) : "";
}

static void say(pr_buf *b, study_word w, ...)
{
    va_list ap;
    va_start(ap, w);
    pr_buf_vprintf(b, pr_study_word(w), ap);
    va_end(ap);
}

static const char *jstr(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The metrics of a conclusion, in the order it names them, and what "better" means. */
typedef enum mkind { MK_LATENCY, MK_THROUGHPUT, MK_ERRORS } mkind;
static const struct {
    const char *name;
    mkind kind;
} conclusion_metrics[] = {{"p50", MK_LATENCY},
                          {"p99", MK_LATENCY},
                          {"throughput", MK_THROUGHPUT},
                          {"error_ratio", MK_ERRORS}};
#define NCM (sizeof conclusion_metrics / sizeof conclusion_metrics[0])

static const char *metric_word(size_t m)
{
    return conclusion_metrics[m].kind == MK_THROUGHPUT ? pr_study_word(SW_METRIC_THROUGHPUT)
           : conclusion_metrics[m].kind == MK_ERRORS   ? pr_study_word(SW_METRIC_ERRORS)
                                                       : conclusion_metrics[m].name;
}

static json_t *pair_metric(json_t *pair, const char *metric)
{
    size_t i;
    json_t *m;
    json_array_foreach (json_object_get(pair, "metrics"), i, m)
        if (!strcmp(jstr(m, "metric"), metric))
            return m;
    return NULL;
}

/* One metric of one level: the pair's figures and verdict, plus for latencies the factor
 * ("20.4×": the slower value over the faster one) and the direction. */
static json_t *level_metric(json_t *pm, size_t m, double min_effect)
{
    json_t *o = json_object();
    const char *copy[] = {"a_value",      "a_human",       "b_value",       "b_human",
                          "abs",          "abs_human",     "rel",           "rel_pct",
                          "test",         "p_value",       "significant",   "verdict",
                          "verdict_text", "is_regression", "is_improvement"};
    for (size_t i = 0; i < sizeof copy / sizeof copy[0]; i++)
        if (json_object_get(pm, copy[i]))
            json_object_set(o, copy[i], json_object_get(pm, copy[i]));
    const char *v = jstr(pm, "verdict");
    json_object_set_new(o, "metric", json_string(conclusion_metrics[m].name));
    json_object_set_new(o, "metric_text", json_string(metric_word(m)));
    json_object_set_new(o, "is_latency", json_boolean(conclusion_metrics[m].kind == MK_LATENCY));
    json_object_set_new(o, "is_throughput",
                        json_boolean(conclusion_metrics[m].kind == MK_THROUGHPUT));
    json_object_set_new(o, "is_errors", json_boolean(conclusion_metrics[m].kind == MK_ERRORS));
    json_object_set_new(o, "is_same", json_boolean(!strcmp(v, "same")));
    json_object_set_new(o, "is_untested", json_boolean(!strcmp(v, "untested")));
    int sig = !strcmp(v, "regression") || !strcmp(v, "improvement");
    json_object_set_new(o, "decided", json_boolean(sig));
    json_object_set_new(o, "better", json_boolean(!strcmp(v, "improvement")));
    json_object_set_new(o, "worse", json_boolean(!strcmp(v, "regression")));
    double a = num(pm, "a_value"), b = num(pm, "b_value");
    if (conclusion_metrics[m].kind == MK_LATENCY && a > 0 && b > 0) {
        double f = a > b ? a / b : b / a;
        char t[32];
        snprintf(t, sizeof t, "%.*f\xc3\x97",
                 f >= 99.95   ? 0
                 : f >= 9.995 ? 1
                              : 2,
                 f); /* 1.32×, 20.4× */
        json_object_set_new(o, "factor", json_real(f));
        json_object_set_new(o, "factor_text", json_string(t));
    } else {
        json_object_set_new(o, "factor", json_null());
        json_object_set_new(o, "factor_text", json_string("-"));
    }
    /* untested with both figures: what was seen (the sentences say "observed, not tested");
     * close: within the minimum effect (error ratio: one point) */
    int obs = !strcmp(v, "untested") && isfinite(a) && isfinite(b);
    double rel = num(pm, "rel"), abs = num(pm, "abs");
    int close = conclusion_metrics[m].kind == MK_ERRORS ? fabs(abs) < 0.01
                                                        : isfinite(rel) && fabs(rel) < min_effect;
    json_object_set_new(o, "observed", json_boolean(obs));
    json_object_set_new(o, "observed_close", json_boolean(obs && close));
    json_object_set(o, "untested_why", json_object_get(pm, "untested_why"));
    json_object_set_new(o, "missing", json_boolean(!isfinite(a) || !isfinite(b)));
    json_object_set_new(o, "change_text",
                        json_string(conclusion_metrics[m].kind == MK_ERRORS ? jstr(pm, "abs_human")
                                                                            : jstr(pm, "rel_pct")));
    return o;
}

/* The clauses of the metrics that differ significantly at a level. */
static void decided_clauses(pr_buf *b, json_t *lv, const char *an, const char *bn)
{
    int lat = 0, clauses = 0;
    for (size_t m = 0; m < NCM; m++) {
        json_t *x = json_object_get(lv, conclusion_metrics[m].name);
        if (!json_is_true(json_object_get(x, "decided")))
            continue;
        const char *dir =
            pr_study_word(json_is_true(json_object_get(x, "better")) ? SW_FASTER : SW_SLOWER);
        if (conclusion_metrics[m].kind == MK_LATENCY && lat) {
            say(b, SW_LAT_NEXT, jstr(x, "factor_text"), dir, metric_word(m), jstr(x, "b_human"),
                jstr(x, "a_human"));
        } else if (conclusion_metrics[m].kind == MK_LATENCY) {
            say(b, SW_LAT_FIRST, bn, jstr(x, "factor_text"), dir, an, metric_word(m),
                jstr(x, "b_human"), jstr(x, "a_human"));
            lat = 1;
        } else {
            if (clauses)
                say(b, SW_CLAUSE_SEP);
            say(b, conclusion_metrics[m].kind == MK_THROUGHPUT ? SW_THROUGHPUT : SW_ERRORS, bn,
                jstr(x, "b_human"), jstr(x, "a_human"), an,
                jstr(x, conclusion_metrics[m].kind == MK_ERRORS ? "abs_human" : "rel_pct"));
        }
        clauses++;
    }
}

/* A list of metric names ("p50, p99, throughput") and its template form. */
static void metric_list(pr_buf *b, json_t *list, size_t m)
{
    json_t *e = json_object();
    json_object_set_new(e, "metric", json_string(conclusion_metrics[m].name));
    json_object_set_new(e, "metric_text", json_string(metric_word(m)));
    json_object_set_new(e, "is_latency", json_boolean(conclusion_metrics[m].kind == MK_LATENCY));
    json_object_set_new(e, "is_throughput",
                        json_boolean(conclusion_metrics[m].kind == MK_THROUGHPUT));
    json_object_set_new(e, "is_errors", json_boolean(conclusion_metrics[m].kind == MK_ERRORS));
    json_object_set_new(e, "first", json_boolean(json_array_size(list) == 0));
    json_array_append_new(list, e);
    pr_buf_printf(b, "%s%s", b->len ? pr_study_word(SW_LIST_SEP) : "", metric_word(m));
}

static void mark_last(json_t *list)
{
    size_t i, n = json_array_size(list);
    json_t *e;
    json_array_foreach (list, i, e)
        json_object_set_new(e, "last", json_boolean(i + 1 == n));
}

/* The clauses of the metrics that were seen but not tested at a level, and the end that says
 * so: "jvm=openj9's p99 was 1.82 s against 180 ms for jvm=hotspot (10.1×); one run each:
 * observed, not tested". Only differences of at least the minimum effect are quoted. */
static void observed_clauses(pr_buf *b, json_t *lv, const char *an, const char *bn)
{
    int n = 0, few = 0;
    for (size_t m = 0; m < NCM; m++) {
        json_t *x = json_object_get(lv, conclusion_metrics[m].name);
        if (!json_is_true(json_object_get(x, "observed")) ||
            json_is_true(json_object_get(x, "observed_close")))
            continue;
        if (n++)
            say(b, SW_OBS_NEXT, metric_word(m), jstr(x, "b_human"), jstr(x, "a_human"),
                jstr(x, "change_text"));
        else
            say(b, SW_OBS_FIRST, bn, metric_word(m), jstr(x, "b_human"), jstr(x, "a_human"), an,
                jstr(x, "change_text"));
        few |= !strcmp(jstr(x, "untested_why"), "too_few_samples");
    }
    if (n)
        say(b, few ? SW_OBSERVED_FEW : SW_OBSERVED);
}

/* The metric lists of a level's conclusion, by what could be said of them. */
typedef enum mgroup { MG_DECIDED, MG_SAME, MG_OBSERVED, MG_CLOSE, MG_MISSING, MG_COUNT } mgroup;

static mgroup metric_group(json_t *x)
{
    return json_is_true(json_object_get(x, "decided"))          ? MG_DECIDED
           : json_is_true(json_object_get(x, "observed_close")) ? MG_CLOSE
           : json_is_true(json_object_get(x, "observed"))       ? MG_OBSERVED
           : json_is_true(json_object_get(x, "is_same"))        ? MG_SAME
                                                                : MG_MISSING;
}

/* The conclusion of one level: a sentence quoting the figures of the metrics that differ
 * significantly, then what was seen of the metrics without a test ("observed, not tested"),
 * and only for metrics a test with the power to find a difference did not: "no significant
 * difference". */
static json_t *level_conclusion(json_t *lv, const char *an, const char *bn, const char *effect)
{
    json_t *g[MG_COUNT];
    pr_buf gl[MG_COUNT], b = PR_BUF_INIT;
    for (int k = 0; k < MG_COUNT; k++) {
        g[k] = json_array();
        gl[k] = (pr_buf)PR_BUF_INIT;
    }
    for (size_t m = 0; m < NCM; m++) {
        json_t *x = json_object_get(lv, conclusion_metrics[m].name);
        mgroup k = metric_group(x);
        if (k == MG_DECIDED || k == MG_OBSERVED)
            json_array_append_new(g[k], json_copy(x));
        else
            metric_list(&gl[k], g[k], m);
    }
    json_t *cl;
    size_t ci;
    for (int k = 0; k < MG_COUNT; k++) {
        json_array_foreach (g[k], ci, cl)
            json_object_set_new(cl, "first", json_boolean(ci == 0));
        mark_last(g[k]);
    }
    size_t nd = json_array_size(g[MG_DECIDED]), ns = json_array_size(g[MG_SAME]),
           no = json_array_size(g[MG_OBSERVED]), nc = json_array_size(g[MG_CLOSE]);
    say(&b, SW_AT_LEVEL, jstr(lv, "key_text"));
    if (nd)
        decided_clauses(&b, lv, an, bn);
    if (nd && no)
        say(&b, SW_CLAUSE_SEP);
    if (no)
        observed_clauses(&b, lv, an, bn);
    if (!nd && !no && ns) {
        say(&b, SW_NO_DIFFERENCE, bn, an);
        if (nc || json_array_size(g[MG_MISSING]))
            say(&b, SW_IN, gl[MG_SAME].p);
    }
    if (!nd && !no && !ns && nc) { /* only figures within the minimum effect */
        pr_buf x = PR_BUF_INIT;
        say(&x, SW_WITHIN, gl[MG_CLOSE].p, effect);
        pr_buf_puts(&b, x.p + strlen(pr_study_word(SW_CLAUSE_SEP)));
        pr_buf_dispose(&x);
    } else if (nc) {
        say(&b, SW_WITHIN, gl[MG_CLOSE].p, effect);
    }
    if ((nd || no) && ns)
        say(&b, SW_SAME_IN, gl[MG_SAME].p);
    if (!nd && !no && !ns && !nc)
        say(&b, SW_NONE_TESTED, an, bn);
    else if (json_array_size(g[MG_MISSING]))
        say(&b, SW_MISSING, gl[MG_MISSING].p);
    say(&b, SW_END);
    json_t *c = json_object();
    json_object_set_new(c, "significant", json_boolean(nd > 0));
    json_object_set_new(c, "same", json_boolean(!nd && !no && ns));
    json_object_set_new(c, "observed", json_boolean(no > 0 || nc > 0));
    json_object_set_new(c, "untested", json_boolean(!nd && !ns));
    json_object_set_new(c, "clauses", g[MG_DECIDED]);
    json_object_set_new(c, "observed_clauses", g[MG_OBSERVED]);
    json_object_set_new(c, "same_metrics", g[MG_SAME]);
    json_object_set_new(c, "close_metrics", g[MG_CLOSE]);
    json_object_set_new(c, "untested_metrics", g[MG_MISSING]);
    json_object_set_new(c, "sentence", json_string(b.p ? b.p : ""));
    pr_buf_dispose(&b);
    for (int k = 0; k < MG_COUNT; k++)
        pr_buf_dispose(&gl[k]);
    return c;
}

/* The reasons a level has no pair (the pairs' unpaired entries of its key), "; "-joined. */
static char *unpaired_reason(json_t *pairing, const char *key)
{
    pr_buf b = PR_BUF_INIT;
    size_t i;
    json_t *u;
    json_array_foreach (json_object_get(pairing, "unpaired"), i, u)
        if (!strcmp(jstr(u, "key_text"), key))
            pr_buf_printf(&b, "%s%s", b.len ? pr_study_word(SW_CLAUSE_SEP) : "", jstr(u, "reason"));
    char *s = pr_buf_steal(&b);
    return s;
}

static json_t *find_pair(json_t *pairing, const char *key)
{
    size_t i;
    json_t *p;
    json_array_foreach (json_object_get(pairing, "pairs"), i, p)
        if (!strcmp(jstr(p, "key_text"), key))
            return p;
    return NULL;
}

/* The levels of one comparison, in the study's level order (levels neither side ran are left
 * out). */
static json_t *compare_levels(study *S, json_t *pairing, const char *an, const char *bn)
{
    json_t *out = json_array(), *lv;
    size_t i;
    char effect[32];
    snprintf(effect, sizeof effect, "%g%%", 100 * S->o->compare.min_effect);
    json_array_foreach (S->levels, i, lv) {
        const char *key = jstr(lv, "key_text");
        json_t *p = find_pair(pairing, key), *e = json_object();
        char *why = p ? NULL : unpaired_reason(pairing, key);
        if (!p && !why) {
            json_decref(e);
            continue;
        }
        json_object_set_new(e, "key_text", json_string(key));
        json_object_set(e, "key_values", json_object_get(lv, "key_values"));
        json_object_set_new(e, "paired", json_boolean(p != NULL));
        if (p) {
            json_object_set(e, "a_run", json_object_get(p, "a"));
            json_object_set(e, "b_run", json_object_get(p, "b"));
            for (size_t m = 0; m < NCM; m++)
                json_object_set_new(e, conclusion_metrics[m].name,
                                    level_metric(pair_metric(p, conclusion_metrics[m].name), m,
                                                 S->o->compare.min_effect));
            json_object_set_new(e, "conclusion", level_conclusion(e, an, bn, effect));
        } else {
            pr_buf b = PR_BUF_INIT;
            say(&b, SW_NOT_PAIRED, key, an, bn, why);
            json_t *c = json_object();
            json_object_set_new(c, "not_paired", json_true());
            json_object_set_new(c, "reason", json_string(why));
            json_object_set_new(c, "sentence", json_string(b.p ? b.p : ""));
            json_object_set_new(c, "clauses", json_array());
            json_object_set_new(e, "conclusion", c);
            pr_buf_dispose(&b);
        }
        free(why);
        json_array_append_new(out, e);
    }
    return out;
}

/* The figure a summary quotes for one level's metric: the factor for latencies, the change
 * for throughput, the change in points for the error ratio; and its size, for ranges. */
static const char *figure(json_t *lv, size_t m, double *size)
{
    json_t *x = json_object_get(lv, conclusion_metrics[m].name);
    mkind k = conclusion_metrics[m].kind;
    *size = fabs(num(x, k == MK_LATENCY ? "factor" : k == MK_ERRORS ? "abs" : "rel"));
    return jstr(x, k == MK_LATENCY ? "factor_text" : k == MK_ERRORS ? "abs_human" : "rel_pct");
}

/* The levels of a metric with one outcome: their names, the range of their figures ("20.4×"
 * for one level, "from 18.1× at rate=50 to 22.3× at rate=200" for several). */
typedef struct outcome {
    json_t *levels; /* the level objects */
    pr_buf names, range;
    size_t lo, hi; /* the levels of the smallest and largest figure */
} outcome;

static void outcome_finish(outcome *oc, size_t m)
{
    size_t n = json_array_size(oc->levels), i;
    double lo = INFINITY, hi = -INFINITY, v;
    json_t *lv;
    oc->lo = oc->hi = 0;
    json_array_foreach (oc->levels, i, lv) {
        pr_buf_printf(&oc->names, "%s%s", i ? pr_study_word(SW_LIST_SEP) : "",
                      jstr(lv, "key_text"));
        figure(lv, m, &v);
        if (v < lo) {
            lo = v;
            oc->lo = i;
        }
        if (v > hi) {
            hi = v;
            oc->hi = i;
        }
    }
    if (n == 0)
        return;
    json_t *a = json_array_get(oc->levels, oc->lo), *b = json_array_get(oc->levels, oc->hi);
    if (n == 1) { /* the figure alone: the sentence names the level */
        pr_buf_puts(&oc->range, figure(a, m, &v));
    } else if (oc->lo == oc->hi) {
        say(&oc->range, SW_AT, figure(a, m, &v), jstr(a, "key_text"));
    } else {
        pr_buf x = PR_BUF_INIT, y = PR_BUF_INIT;
        say(&x, SW_AT, figure(a, m, &v), jstr(a, "key_text"));
        say(&y, SW_AT, figure(b, m, &v), jstr(b, "key_text"));
        say(&oc->range, SW_FROM_TO, x.p, y.p);
        pr_buf_dispose(&x);
        pr_buf_dispose(&y);
    }
}

static json_t *figure_json(json_t *lv, size_t m)
{
    double v;
    json_t *o = json_object();
    json_object_set_new(o, "figure", json_string(lv ? figure(lv, m, &v) : ""));
    json_object_set_new(o, "key_text", json_string(jstr(lv, "key_text")));
    return o;
}

static json_t *outcome_json(outcome *oc, size_t m)
{
    json_t *o = json_object(), *names = json_array(), *lv;
    size_t i, n = json_array_size(oc->levels);
    json_array_foreach (oc->levels, i, lv) {
        json_t *e = json_object();
        json_object_set(e, "key_text", json_object_get(lv, "key_text"));
        json_object_set_new(e, "first", json_boolean(i == 0));
        json_object_set_new(e, "last", json_boolean(i + 1 == n));
        json_array_append_new(names, e);
    }
    json_object_set_new(o, "levels", names);
    json_object_set_new(o, "n", json_integer((json_int_t)n));
    json_object_set_new(o, "single", json_boolean(n == 1));
    json_object_set_new(o, "spread", json_boolean(n > 1 && oc->lo != oc->hi));
    json_object_set_new(o, "levels_text", json_string(oc->names.p ? oc->names.p : ""));
    json_object_set_new(o, "range_text", json_string(oc->range.p ? oc->range.p : ""));
    json_object_set_new(o, "lo", figure_json(n ? json_array_get(oc->levels, oc->lo) : NULL, m));
    json_object_set_new(o, "hi", figure_json(n ? json_array_get(oc->levels, oc->hi) : NULL, m));
    return o;
}

/* Where a level goes in the overall view of metric m: 0 B better, 1 B worse, 2 the same (a
 * test found no difference; observed: within the minimum effect), -1 elsewhere. tested: by
 * the verdicts; else by the figures of the levels that were observed, not tested. */
static int level_outcome(json_t *lv, size_t m, int tested)
{
    json_t *x = json_object_get(lv, conclusion_metrics[m].name);
    if (tested)
        return json_is_true(json_object_get(x, "better"))    ? 0
               : json_is_true(json_object_get(x, "worse"))   ? 1
               : json_is_true(json_object_get(x, "is_same")) ? 2
                                                             : -1;
    if (!json_is_true(json_object_get(x, "observed")))
        return -1;
    if (json_is_true(json_object_get(x, "observed_close")))
        return 2;
    int higher = num(x, "b_value") > num(x, "a_value");
    return conclusion_metrics[m].kind == MK_THROUGHPUT ? !higher : higher;
}

/* The end of an observed sentence: "; one run each: observed, not tested" (or too few
 * samples, when a level had samples but too few for its test). */
static const char *observed_end(json_t *levels, size_t m)
{
    size_t i;
    json_t *lv;
    json_array_foreach (levels, i, lv)
        if (level_outcome(lv, m, 0) >= 0 &&
            !strcmp(jstr(json_object_get(lv, conclusion_metrics[m].name), "untested_why"),
                    "too_few_samples"))
            return pr_study_word(SW_OBSERVED_FEW);
    return pr_study_word(SW_OBSERVED);
}

/* The sentence of one metric across its levels: tested (the verdicts) or observed (the
 * figures of the levels without a test, saying so). Returns the state. */
static const char *metric_sentence(outcome *oc, json_t *levels, size_t m, const char *an,
                                   const char *bn, int tested, const char *effect, pr_buf *sent)
{
    size_t nb = json_array_size(oc[0].levels), nw = json_array_size(oc[1].levels),
           nsame = json_array_size(oc[2].levels);
    int lat = conclusion_metrics[m].kind == MK_LATENCY,
        thr = conclusion_metrics[m].kind == MK_THROUGHPUT;
    const char *better = pr_study_word(lat   ? SW_FASTER
                                       : thr ? SW_HIGHER
                                             : SW_LOWER),
               *worse = pr_study_word(lat   ? SW_SLOWER
                                      : thr ? SW_LOWER
                                            : SW_HIGHER);
    const char *mw = metric_word(m), *end = tested ? "" : observed_end(levels, m);
    if (nb && nw) {
        say(sent, tested ? SW_OVERALL_MIXED : SW_OBS_MIXED, bn, an, mw, better, oc[0].names.p,
            oc[0].range.p, worse, oc[1].names.p, oc[1].range.p, end);
        return "mixed";
    }
    if (!nb && !nw)
        return "none";
    int k = nb ? 0 : 1;
    pr_buf head = PR_BUF_INIT;
    if (lat)
        say(&head, tested ? SW_HEAD_LATENCY : SW_OBS_HEAD_LATENCY, bn, nb ? better : worse, an, mw);
    else
        say(&head, tested ? SW_HEAD_OTHER : SW_OBS_HEAD_OTHER, bn, nb ? better : worse, mw, an);
    if (tested && nsame)
        say(sent, SW_OVERALL_SOME, head.p, oc[k].names.p, oc[k].range.p, oc[2].names.p);
    else if (nsame)
        say(sent, SW_OBS_SOME, head.p, oc[k].names.p, oc[k].range.p, effect, oc[2].names.p, end);
    else if (json_array_size(oc[k].levels) == 1 && tested)
        say(sent, SW_OVERALL_ONE, head.p, oc[k].names.p, oc[k].range.p);
    else if (json_array_size(oc[k].levels) == 1) { /* the figures themselves */
        json_t *x = json_object_get(json_array_get(oc[k].levels, 0), conclusion_metrics[m].name);
        pr_buf fig = PR_BUF_INIT;
        say(&fig, SW_OBS_FIRST, bn, mw, jstr(x, "b_human"), jstr(x, "a_human"), an,
            jstr(x, "change_text"));
        say(sent, SW_OBS_ONE, head.p, fig.p, oc[k].names.p, end);
        pr_buf_dispose(&fig);
    } else
        say(sent, tested ? SW_OVERALL_ALL : SW_OBS_ALL, head.p, oc[k].range.p, end);
    pr_buf_dispose(&head);
    return nsame ? (nb ? "partly_better" : "partly_worse") : (nb ? "better" : "worse");
}

/* The overall view of one metric across the levels: where B is better, worse, the same, by
 * the verdicts (tested) or, over the levels without a test, by what was seen (observed). */
static json_t *overall_metric(json_t *levels, size_t m, const char *an, const char *bn, int tested,
                              const char *effect, pr_buf *sent)
{
    outcome oc[3]; /* better, worse, same */
    for (int k = 0; k < 3; k++) {
        oc[k].levels = json_array();
        oc[k].names = (pr_buf)PR_BUF_INIT;
        oc[k].range = (pr_buf)PR_BUF_INIT;
    }
    size_t i;
    json_t *lv;
    json_array_foreach (levels, i, lv) {
        int k = level_outcome(lv, m, tested);
        if (k >= 0)
            json_array_append(oc[k].levels, lv);
    }
    for (int k = 0; k < 3; k++)
        outcome_finish(&oc[k], m);
    const char *state = metric_sentence(oc, levels, m, an, bn, tested, effect, sent);
    json_t *o = json_object();
    json_object_set_new(o, "metric", json_string(conclusion_metrics[m].name));
    json_object_set_new(o, "metric_text", json_string(metric_word(m)));
    json_object_set_new(o, "is_latency", json_boolean(conclusion_metrics[m].kind == MK_LATENCY));
    json_object_set_new(o, "is_throughput",
                        json_boolean(conclusion_metrics[m].kind == MK_THROUGHPUT));
    json_object_set_new(o, "is_errors", json_boolean(conclusion_metrics[m].kind == MK_ERRORS));
    json_object_set_new(o, "state", json_string(state));
    const char *states[] = {"better", "worse", "partly_better", "partly_worse", "mixed"};
    for (size_t s = 0; s < 5; s++)
        json_object_set_new(o, states[s], json_boolean(!strcmp(state, states[s])));
    json_object_set_new(o, "decided", json_boolean(strcmp(state, "none") != 0));
    json_object_set_new(o, "better_levels", outcome_json(&oc[0], m));
    json_object_set_new(o, "worse_levels", outcome_json(&oc[1], m));
    json_object_set_new(o, "same_levels", outcome_json(&oc[2], m));
    for (int k = 0; k < 3; k++) {
        json_decref(oc[k].levels);
        pr_buf_dispose(&oc[k].names);
        pr_buf_dispose(&oc[k].range);
    }
    return o;
}

/* Appends sentence s to b (two sentences joined as the language joins them). */
static void add_sentence(pr_buf *b, const char *s)
{
    if (!s || !*s)
        return;
    if (!b->len) {
        pr_buf_puts(b, s);
        return;
    }
    char *before = pr_buf_steal(b);
    say(b, SW_SENTENCES, before, s);
    free(before);
}

/* What the levels say of metric m: bit 1 a level with a test (decided or the same), bit 2 a
 * level the test found the same, bit 4 a level observed within the minimum effect. */
static int metric_levels(json_t *levels, size_t m)
{
    int f = 0;
    size_t i;
    json_t *lv;
    json_array_foreach (levels, i, lv) {
        json_t *x = json_object_get(lv, conclusion_metrics[m].name);
        f |= json_is_true(json_object_get(x, "decided")) ? 1 : 0;
        f |= json_is_true(json_object_get(x, "is_same")) ? 3 : 0;
        f |= json_is_true(json_object_get(x, "observed_close")) ? 4 : 0;
    }
    return f;
}

/* The overall conclusion, first what answers "which configuration is better, by how much, at
 * which loads": a sentence per metric that a test decided somewhere, then one per metric seen
 * to differ where it was not tested ("observed, not tested"), then the metrics a test found
 * no difference in; "no significant difference" only for metrics a test could decide. */
static json_t *overall(json_t *levels, const char *an, const char *bn, const char *effect)
{
    json_t *o = json_object(), *ms = json_array(), *untested = json_array(), *same = json_array(),
           *close = json_array();
    pr_buf b = PR_BUF_INIT, ul = PR_BUF_INIT, sl = PR_BUF_INIT, cl = PR_BUF_INIT;
    int decided = 0, observed = 0, tested = 0;
    json_t *obs[NCM];
    for (size_t m = 0; m < NCM; m++) {
        pr_buf s = PR_BUF_INIT;
        json_t *x = overall_metric(levels, m, an, bn, 1, effect, &s);
        add_sentence(&b, s.p);
        decided |= json_is_true(json_object_get(x, "decided"));
        int f = metric_levels(levels, m);
        tested |= f & 1;
        if (!(f & 1))
            metric_list(&ul, untested, m);
        json_object_set_new(x, "tested", json_boolean(f & 1));
        json_object_set_new(x, "sentence", json_string(s.p ? s.p : ""));
        json_array_append_new(ms, x);
        pr_buf_dispose(&s);
    }
    for (size_t m = 0; m < NCM; m++) {
        pr_buf s = PR_BUF_INIT;
        obs[m] = overall_metric(levels, m, an, bn, 0, effect, &s);
        add_sentence(&b, s.p);
        observed |= json_is_true(json_object_get(obs[m], "decided"));
        json_object_set_new(obs[m], "sentence", json_string(s.p ? s.p : ""));
        json_object_set(json_array_get(ms, m), "observed", obs[m]);
        json_decref(obs[m]);
        pr_buf_dispose(&s);
        int f = metric_levels(levels, m);
        int d = json_is_true(json_object_get(json_array_get(ms, m), "decided"));
        if ((f & 2) && !d)
            metric_list(&sl, same, m);
        else if ((f & 4) && !(f & 1) && !json_is_true(json_object_get(obs[m], "decided")))
            metric_list(&cl, close, m);
    }
    if (!decided && !observed && json_array_size(same) == NCM) {
        pr_buf_reset(&b);
        say(&b, SW_OVERALL_SAME, bn, an);
    } else if (json_array_size(same)) {
        pr_buf x = PR_BUF_INIT;
        say(&x, SW_OVERALL_SAME_IN, sl.p);
        add_sentence(&b, x.p);
        pr_buf_dispose(&x);
    }
    if (json_array_size(close)) {
        pr_buf x = PR_BUF_INIT;
        say(&x, SW_OBS_WITHIN_ALL, cl.p, effect);
        add_sentence(&b, x.p);
        pr_buf_dispose(&x);
    }
    if (!b.len)
        say(&b, SW_OBS_NONE, bn, an);
    mark_last(untested);
    mark_last(same);
    mark_last(close);
    json_object_set_new(o, "untested_metrics", untested);
    json_object_set_new(o, "same_metrics", same);
    json_object_set_new(o, "close_metrics", close);
    pr_buf_dispose(&ul);
    pr_buf_dispose(&sl);
    pr_buf_dispose(&cl);
    json_object_set_new(o, "significant", json_boolean(decided));
    json_object_set_new(o, "observed", json_boolean(observed));
    json_object_set_new(o, "same", json_boolean(!decided && !observed && tested));
    json_object_set_new(o, "untested", json_boolean(!tested));
    json_object_set_new(o, "metrics", ms);
    json_object_set_new(o, "sentence", json_string(b.p ? b.p : ""));
    pr_buf_dispose(&b);
    return o;
}

/* The run ids of one configuration. */
static int64_t *config_ids(const study *S, size_t c, size_t *n)
{
    int64_t *ids = pr_xcalloc(S->nruns + 1, sizeof *ids);
    *n = 0;
    for (size_t i = 0; i < S->nruns; i++)
        if (S->runs[i].config == c)
            ids[(*n)++] = S->runs[i].id;
    return ids;
}

/* Configuration c against the baseline: the pairs, the levels, the conclusions. */
static int compare_one(study *S, size_t c, json_t **out, pr_error *err)
{
    json_t *ca = json_array_get(S->configs, 0), *cb = json_array_get(S->configs, c);
    const char *an = jstr(ca, "name"), *bn = jstr(cb, "name");
    size_t na, nb;
    int64_t *ia = config_ids(S, 0, &na), *ib = config_ids(S, c, &nb);
    pr_pair_side sa = {an, an, ia, na}, sb = {bn, bn, ib, nb};
    json_t *pdoc = NULL;
    int rc =
        pr_compare_pairs(S->st, &sa, &sb, S->o->levels, S->o->nlevels, &S->o->compare, &pdoc, err);
    free(ia);
    free(ib);
    if (rc < 0)
        return rc;
    json_t *pairing = json_object_get(pdoc, "pairing"), *o = json_object();
    json_object_set_new(o, "a", json_string(an));
    json_object_set_new(o, "b", json_string(bn));
    json_object_set(o, "a_configuration", ca);
    json_object_set(o, "b_configuration", cb);
    json_t *levels = compare_levels(S, pairing, an, bn);
    char effect[32];
    snprintf(effect, sizeof effect, "%g%%", 100 * S->o->compare.min_effect);
    json_object_set_new(o, "overall", overall(levels, an, bn, effect));
    json_object_set_new(o, "levels", levels);
    json_object_set(o, "verdict", json_object_get(pdoc, "verdict"));
    json_object_set(o, "verdict_text", json_object_get(pdoc, "verdict_text"));
    const char *copy[] = {"alpha", "min_effect", "min_effect_pct", "regressions", "improvements"};
    for (size_t i = 0; i < sizeof copy / sizeof copy[0]; i++)
        json_object_set(o, copy[i], json_object_get(pdoc, copy[i]));
    json_t *ms = json_deep_copy(json_object_get(pairing, "metrics")), *m;
    size_t i;
    json_array_foreach (ms, i, m)
        json_object_del(m, "rows"); /* the rows are the levels above */
    json_object_set_new(o, "metrics", ms);
    json_object_set(o, "unpaired", json_object_get(pairing, "unpaired"));
    json_object_set(o, "n_pairs", json_object_get(pairing, "n_pairs"));
    json_decref(pdoc);
    *out = o;
    return 0;
}

int pr_study_compare(study *S, json_t *out, pr_error *err)
{
    json_t *list = json_array();
    int rc = 0;
    for (size_t c = 1; c < json_array_size(S->configs) && rc == 0; c++) {
        json_t *one = NULL;
        rc = compare_one(S, c, &one, err);
        if (rc == 0)
            json_array_append_new(list, one);
    }
    size_t i, n = json_array_size(list);
    json_t *e;
    json_array_foreach (list, i, e) {
        json_object_set_new(e, "first", json_boolean(i == 0));
        json_object_set_new(e, "last", json_boolean(i + 1 == n));
        json_object_set_new(e, "index", json_integer((json_int_t)i + 1));
        size_t k, nl = json_array_size(json_object_get(e, "levels"));
        json_t *lv;
        json_array_foreach (json_object_get(e, "levels"), k, lv) {
            json_object_set_new(lv, "first", json_boolean(k == 0));
            json_object_set_new(lv, "last", json_boolean(k + 1 == nl));
        }
    }
    json_object_set_new(out, "comparisons", list);
    json_object_set_new(out, "has_comparison", json_boolean(n > 0));
    return rc;
}
