/* Run comparison: metric and label differences, Mann-Whitney and bootstrap tests, verdicts. */
#include "analysis/compare.h"
#include "analysis/cellsort.h"
#include "model/native.h"
#include "analysis/human.h"
#include "analysis/report.h"
#include "analysis/rsort.h"
#include "model/l10n.h"
#include "model/run.h"
#include "model/strtab.h"
#include "model/threads.h"
#include "model/xalloc.h"
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- deterministic random numbers ----------------------------------------------------------- */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rng_next(rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull); /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double rng_unif(rng *r) /* (0, 1) */
{
    return ((double)(rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
}

static double rng_normal(rng *r)
{
    double u = rng_unif(r), v = rng_unif(r);
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* Gamma(shape, 1), Marsaglia and Tsang (shape >= 1 here). */
static double rng_gamma(rng *r, double shape)
{
    double d = shape - 1.0 / 3, c = 1 / sqrt(9 * d);
    for (;;) {
        double x = rng_normal(r), v = 1 + c * x;
        if (v <= 0)
            continue;
        v = v * v * v;
        double u = rng_unif(r);
        if (log(u) < 0.5 * x * x + d - d * v + d * log(v))
            return d * v;
    }
}

static double rng_beta(rng *r, double a, double b)
{
    double x = rng_gamma(r, a), y = rng_gamma(r, b);
    return x / (x + y);
}

/* ---- tests ------------------------------------------------------------------------------------ */

int pr_mann_whitney(const int64_t *a, size_t na, const int64_t *b, size_t nb, pr_mw_result *out)
{
    out->u = out->z = out->p_value = out->a12 = NAN;
    if (!na || !nb)
        return -1;
    /* walk both sorted arrays; each run of equal values gets the average rank */
    size_t i = 0, j = 0;
    double rank = 1, rb = 0, ties = 0;
    while (i < na || j < nb) {
        int64_t v = i < na && (j >= nb || a[i] <= b[j]) ? a[i] : b[j];
        size_t ca = 0, cb = 0;
        while (i < na && a[i] == v)
            i++, ca++;
        while (j < nb && b[j] == v)
            j++, cb++;
        double t = (double)(ca + cb);
        double avg = rank + (t - 1) / 2;
        rb += avg * (double)cb;
        rank += t;
        if (t > 1)
            ties += t * t * t - t;
    }
    double n1 = (double)na, n2 = (double)nb, N = n1 + n2;
    double u = rb - n2 * (n2 + 1) / 2;
    double mu = n1 * n2 / 2;
    double var = n1 * n2 / 12 * ((N + 1) - ties / (N * (N - 1)));
    out->u = u;
    out->a12 = u / (n1 * n2);
    if (var <= 0) {
        out->z = 0;
        out->p_value = 1;
        return 0;
    }
    double diff = u - mu;
    double cc = diff > 0 ? -0.5 : diff < 0 ? 0.5 : 0;
    out->z = (diff + cc) / sqrt(var);
    out->p_value = erfc(fabs(out->z) / sqrt(2.0));
    if (out->p_value > 1)
        out->p_value = 1;
    return 0;
}

static int cmp_d(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int pr_mann_whitney_d(const double *a, size_t na, const double *b, size_t nb, pr_mw_result *out)
{
    /* doubles to sortable int64 by scaling: the test only needs the order */
    int64_t *x = pr_xmalloc((na + 1) * sizeof *x), *y = pr_xmalloc((nb + 1) * sizeof *y);
    double *c = pr_xmalloc((na + nb + 1) * sizeof *c);
    if (na)
        memcpy(c, a, na * sizeof *a);
    if (nb)
        memcpy(c + na, b, nb * sizeof *b);
    qsort(c, na + nb, sizeof *c, cmp_d);
    /* rank of each value among all distinct values keeps ties exact */
    for (size_t i = 0; i < na; i++) {
        double *p = bsearch(&a[i], c, na + nb, sizeof *c, cmp_d);
        while (p > c && p[-1] == a[i])
            p--;
        x[i] = p - c;
    }
    for (size_t i = 0; i < nb; i++) {
        double *p = bsearch(&b[i], c, na + nb, sizeof *c, cmp_d);
        while (p > c && p[-1] == b[i])
            p--;
        y[i] = p - c;
    }
    pr_sort_i64(x, na);
    pr_sort_i64(y, nb);
    int rc = pr_mann_whitney(x, na, y, nb, out);
    free(x);
    free(y);
    free(c);
    return rc;
}

static size_t rank_of(size_t n, double p)
{
    double r = ceil(p / 100 * (double)n);
    if (r < 1)
        r = 1;
    if (r > (double)n)
        r = (double)n;
    return (size_t)r;
}

static int64_t resampled_order_stat(rng *r, const int64_t *x, size_t n, size_t k)
{
    if (n == 1)
        return x[0];
    double u = rng_beta(r, (double)k, (double)(n - k + 1));
    double idx = ceil((double)n * u);
    if (idx < 1)
        idx = 1;
    if (idx > (double)n)
        idx = (double)n;
    return x[(size_t)idx - 1];
}

int pr_bootstrap_pdiff(const int64_t *a, size_t na, const int64_t *b, size_t nb, double p,
                       int resamples, double conf, uint64_t seed, double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (!na || !nb || resamples < 10)
        return -1;
    rng r = {seed};
    size_t ka = rank_of(na, p), kb = rank_of(nb, p);
    double *d = pr_xmalloc((size_t)resamples * sizeof *d);
    for (int i = 0; i < resamples; i++)
        d[i] = (double)resampled_order_stat(&r, b, nb, kb) -
               (double)resampled_order_stat(&r, a, na, ka);
    qsort(d, (size_t)resamples, sizeof *d, cmp_d);
    double tail = (1 - conf) / 2;
    size_t il = (size_t)floor(tail * (resamples - 1));
    size_t ih = (size_t)ceil((1 - tail) * (resamples - 1));
    *lo = d[il];
    *hi = d[ih];
    free(d);
    return 0;
}

/* ---- sides ------------------------------------------------------------------------------------ */

typedef struct scan_state {
    pr_compare_side *side;
    pr_run *run;
    pr_strtab *labels;
    uint32_t *map; /* run string id -> label index + 1 */
    size_t map_cap;
} scan_state;

/* Every sample with a latency: (latency, label index) into the side's pairs. */
static int scan_cb(const pr_block_cols *c, void *payload)
{
    scan_state *st = payload;
    for (size_t i = 0; i < c->n; i++) {
        int64_t lat =
            c->vals[PR_COL_LATENCY] ? c->vals[PR_COL_LATENCY][i] : c->konst[PR_COL_LATENCY];
        if (lat == PR_UNKNOWN)
            continue;
        uint32_t id =
            (uint32_t)(c->vals[PR_COL_LABEL] ? c->vals[PR_COL_LABEL][i] : c->konst[PR_COL_LABEL]);
        if (id >= st->map_cap) {
            size_t old = st->map_cap;
            st->map = pr_xgrow(st->map, &st->map_cap, (size_t)id + 1, sizeof *st->map);
            memset(st->map + old, 0, (st->map_cap - old) * sizeof *st->map);
        }
        if (!st->map[id]) {
            const char *name = id ? pr_run_str(st->run, id) : _("(no label)");
            st->map[id] = pr_strtab_intern_cstr(st->labels, name && *name ? name : _("(no label)"));
        }
        pr_cellsort_add(&st->side->pairs, lat, st->map[id] - 1);
    }
    return 0;
}

/* The report's sorted latencies as the side's pairs: each row's cell turned into the index of
 * its label (rows named alike share one). */
static void take_kept(pr_compare_side *out, pr_report_latencies *k, pr_strtab *labels)
{
    uint32_t *label_of = pr_xmalloc((k->nrows + 1) * sizeof *label_of);
    for (size_t r = 0; r < k->nrows; r++)
        label_of[r] = pr_strtab_intern_cstr(labels, k->row_names[r]) - 1;
    out->pairs =
        (pr_cellsort){.v = k->v, .c16 = k->r16, .c32 = k->r32, .n = k->n, .cap = k->n ? k->n : 1};
    for (size_t i = 0; i < k->n; i++) {
        uint32_t l = label_of[k->r32 ? k->r32[i] : k->r16[i]];
        if (k->r32)
            k->r32[i] = l;
        else
            k->r16[i] = (uint16_t)l;
    }
    k->v = NULL;
    k->r16 = NULL;
    k->r32 = NULL;
    free(label_of);
}

int pr_compare_side_load(pr_store *st, const int64_t *ids, size_t nids, const char *name,
                         const char *selection, pr_compare_side *out, pr_error *err)
{
    memset(out, 0, sizeof *out);
    pr_report_opts o;
    pr_report_opts_init(&o);
    o.histogram = 0;
    o.timeseries = 1;
    o.findings = 0; /* the comparison reads the figures, not the findings */
    pr_report_latencies kept;
    memset(&kept, 0, sizeof kept);
    o.keep = &kept; /* the report's sorted latencies, rather than a scan and a sort again */
    json_t *doc;
    int rc = pr_report_build(st, ids, nids, nids > 1, &o, &doc, err);
    if (rc < 0) {
        pr_report_latencies_dispose(&kept);
        return rc;
    }
    out->model = json_incref(json_array_get(json_object_get(doc, "runs"), 0));
    json_decref(doc);
    out->ids = pr_xmalloc(nids * sizeof *ids);
    memcpy(out->ids, ids, nids * sizeof *ids);
    out->nids = nids;
    const char *mname = json_string_value(json_object_get(out->model, "name"));
    out->name = pr_xstrdup(name ? name : mname ? mname : "?");
    out->selection = pr_xstrdup(selection ? selection : out->name);
    scan_state ss;
    memset(&ss, 0, sizeof ss);
    ss.side = out;
    ss.labels = pr_strtab_new();
    int64_t total = 0;
    for (size_t i = 0; i < nids && rc == 0; i++) {
        rc = pr_store_load_run(st, ids[i], &ss.run, err);
        if (rc == 0)
            total += ss.run->samples;
        pr_run_free(ss.run);
    }
    if (rc == 0 && kept.kept) {
        take_kept(out, &kept, ss.labels);
        nids = 0; /* nothing to scan */
    } else {
        pr_cellsort_init(&out->pairs, (size_t)total);
    }
    pr_report_latencies_dispose(&kept);
    for (size_t i = 0; i < nids && rc == 0; i++) {
        rc = pr_store_load_run(st, ids[i], &ss.run, err);
        if (rc < 0)
            break;
        if (!ss.run->summary_only) {
            if (ss.map)
                memset(ss.map, 0, ss.map_cap * sizeof *ss.map);
            rc = pr_store_scan_cols(st, ids[i], PR_COLBIT(PR_COL_LATENCY) | PR_COLBIT(PR_COL_LABEL),
                                    scan_cb, &ss, err);
        }
        pr_run_free(ss.run);
        ss.run = NULL;
    }
    if (!kept.kept) {
        pr_cellsort_sort(&out->pairs);
        pr_cellsort_flatten(&out->pairs); /* the latencies are read by index */
    }
    out->latency = (pr_vec){out->pairs.v, out->pairs.n, out->pairs.n}; /* a view */
    uint32_t nl = pr_strtab_count(ss.labels);
    out->nlabels = nl > 0 ? nl - 1 : 0;
    out->label_names = pr_xcalloc(out->nlabels + 1, sizeof *out->label_names);
    out->label_lat = pr_xcalloc(out->nlabels + 1, sizeof *out->label_lat);
    out->label_n = pr_xcalloc(out->nlabels + 1, sizeof *out->label_n);
    for (size_t l = 0; l < out->nlabels; l++)
        out->label_names[l] = pr_xstrdup(pr_strtab_get(ss.labels, (uint32_t)l + 1));
    for (size_t i = 0; i < out->pairs.n; i++)
        out->label_n[pr_cellsort_cell(&out->pairs, i)]++;
    free(ss.map);
    pr_strtab_free(ss.labels);
    if (rc < 0)
        pr_compare_side_dispose(out);
    return rc;
}

/* The label's index in the side, or -1. */
static long side_label(const pr_compare_side *s, const char *name)
{
    for (size_t l = 0; l < s->nlabels; l++)
        if (!strcmp(s->label_names[l], name))
            return (long)l;
    return -1;
}

void pr_compare_side_labels(pr_compare_side *s, const char *const *names, size_t n)
{
    for (size_t l = 0; l < s->nlabels; l++)
        pr_vec_dispose(&s->label_lat[l]);
    unsigned char *want = pr_xcalloc(s->nlabels + 1, 1);
    for (size_t i = 0; i < n; i++) {
        long l = side_label(s, names[i]);
        if (l >= 0 && !want[l]) {
            want[l] = 1;
            pr_vec_reserve(&s->label_lat[l], s->label_n[l] ? s->label_n[l] : 1);
        }
    }
    /* in ascending order, each label comes sorted; labels not wanted write to a scratch slot
     * (no branch per value) */
    int64_t scratch;
    int64_t **dst = pr_xmalloc((s->nlabels + 1) * sizeof *dst);
    size_t *n_of = pr_xcalloc(s->nlabels + 1, sizeof *n_of);
    for (size_t l = 0; l < s->nlabels; l++)
        dst[l] = want[l] ? s->label_lat[l].v : &scratch;
    for (size_t i = 0; i < s->pairs.n; i++) {
        uint32_t c = pr_cellsort_cell(&s->pairs, i);
        dst[c][n_of[c]] = s->pairs.v[i];
        n_of[c] += want[c];
    }
    for (size_t l = 0; l < s->nlabels; l++)
        s->label_lat[l].n = want[l] ? n_of[l] : 0;
    free(dst);
    free(n_of);
    free(want);
}

void pr_compare_side_dispose(pr_compare_side *s)
{
    free(s->name);
    free(s->selection);
    free(s->ids);
    json_decref(s->model);
    pr_cellsort_dispose(&s->pairs);
    for (size_t l = 0; l < s->nlabels; l++) {
        free(s->label_names[l]);
        pr_vec_dispose(&s->label_lat[l]);
    }
    free(s->label_names);
    free(s->label_lat);
    free(s->label_n);
    memset(s, 0, sizeof *s);
}

void pr_compare_opts_init(pr_compare_opts *o)
{
    o->min_effect = 0.05;
    o->alpha = 0.01;
    o->resamples = 2000;
    o->seed = 1;
}

/* ---- the document ----------------------------------------------------------------------------- */

void pr_compare_rel_text(double rel, char *buf, size_t size)
{
    double f = rel >= 1 ? 1 + rel : rel <= -0.5 ? 1 / (1 + rel) : 0;
    if (!isfinite(rel))
        snprintf(buf, size, "-");
    else if (f >= 2 && isfinite(f)) /* B = 10.1× A, B = A ÷ 40.4 */
        snprintf(buf, size, "%s%.*f%s", rel > 0 ? "" : "\xc3\xb7",
                 f >= 99.95   ? 0
                 : f >= 9.995 ? 1
                              : 2,
                 f, rel > 0 ? "\xc3\x97" : "");
    else
        snprintf(buf, size, "%+.1f%%", 100 * rel);
}

enum kind { K_COUNT, K_RATE, K_RATIO, K_MEAN, K_PCT, K_MAX };

typedef struct metric_def {
    const char *name;
    const char *key; /* stats key, or latency_ns key for latency kinds */
    enum kind kind;
    double p;         /* percentile for K_PCT */
    int higher_worse; /* 1 higher is worse, 0 higher is better, -1 neutral */
    const char *unit;
} metric_def;

static const metric_def metrics[] = {
    {"requests", "requests", K_COUNT, 0, -1, "count"},
    {"throughput", "throughput_per_s", K_RATE, 0, 0, "per_s"},
    {"rate", "rate_per_s", K_RATE, 0, -1, "per_s"},
    {"error_ratio", "error_ratio", K_RATIO, 0, 1, "ratio"},
    {"mean", "mean", K_MEAN, 0, 1, "ns"},
    {"p50", "p50", K_PCT, 50, 1, "ns"},
    {"p90", "p90", K_PCT, 90, 1, "ns"},
    {"p99", "p99", K_PCT, 99, 1, "ns"},
    {"max", "max", K_MAX, 0, 1, "ns"},
};

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static double stat_value(json_t *stats, const metric_def *m)
{
    if (m->kind == K_MEAN || m->kind == K_PCT || m->kind == K_MAX)
        return num(json_object_get(stats, "latency_ns"), m->key);
    double v = num(stats, m->key);
    if (!isfinite(v) && m->kind == K_RATIO && isfinite(num(stats, "success_ratio")))
        v = 1 - num(stats, "success_ratio");
    if (!isfinite(v) && !strcmp(m->key, "requests") && isfinite(num(stats, "samples")))
        v = num(stats, "samples");
    return v;
}

/* v in unit; durations measured with a clock of res_ns ("< 1 ms" for a whole-ms 0). */
static void human(double v, const char *unit, int64_t res_ns, char *buf, size_t size)
{
    if (!isfinite(v))
        strcpy(buf, "-");
    else if (!strcmp(unit, "ns"))
        pr_human_duration_res((int64_t)llround(v), res_ns, buf, size);
    else if (!strcmp(unit, "per_s"))
        pr_human_rate(v, buf, size);
    else if (!strcmp(unit, "ratio"))
        pr_human_percent(v, buf, size);
    else
        snprintf(buf, size, "%.0f", v);
}

static void human_diff(double v, const char *unit, int64_t res_ns, char *buf)
{
    char h[32];
    if (!isfinite(v)) {
        strcpy(buf, "-");
        return;
    }
    if (!strcmp(unit, "ratio")) {
        snprintf(buf, 48, "%+.2f %s", 100 * v, C_("unit", "pp"));
        return;
    }
    human(fabs(v), unit, res_ns, h, sizeof h);
    snprintf(buf, 48, "%s%s", v < 0 ? "-" : v > 0 || h[0] != '<' ? "+" : "", h);
}

/* The words of the verdicts and metric names (msgctxt "verdict", "metric"). */
static const char *const verdict_words[] = {
    NC_("verdict", "regression"), NC_("verdict", "improvement"), NC_("verdict", "same"),
    NC_("verdict", "untested"),   NC_("verdict", "mixed"),
};
static const char *const metric_words[] = {
    NC_("metric", "requests"),    NC_("metric", "throughput"), NC_("metric", "rate"),
    NC_("metric", "error_ratio"), NC_("metric", "mean"),       NC_("metric", "max"),
    NC_("metric", "min"),
};

/* The word of w in the table (entries "context\004word"), else w. */
static const char *word_of(const char *const *table, size_t n, const char *w)
{
    for (size_t i = 0; w && i < n; i++) {
        const char *eot = strchr(table[i], '\004');
        if (eot && !strcmp(eot + 1, w))
            return pr_l10n_pgettext(table[i]);
    }
    return w;
}

const char *pr_compare_verdict_text(const char *verdict)
{
    return word_of(verdict_words, sizeof verdict_words / sizeof verdict_words[0], verdict);
}

const char *pr_compare_metric_text(const char *metric)
{
    return word_of(metric_words, sizeof metric_words / sizeof metric_words[0], metric);
}

static void jset_num(json_t *o, const char *k, double v)
{
    json_object_set_new(o, k, isfinite(v) ? json_real(v) : json_null());
}

/* Mean and variance of a sorted vector. */
static void moments(const pr_vec *v, double *mean, double *var)
{
    long double s = 0, s2 = 0;
    for (size_t i = 0; i < v->n; i++)
        s += v->v[i];
    long double m = v->n ? s / v->n : 0;
    for (size_t i = 0; i < v->n; i++)
        s2 += (v->v[i] - m) * (v->v[i] - m);
    *mean = (double)m;
    *var = v->n > 1 ? (double)(s2 / (v->n - 1)) : 0;
}

typedef struct moments_job {
    const pr_vec *v;
    double mean, var;
} moments_job;

static void *moments_main(void *arg)
{
    moments_job *j = arg;
    moments(j->v, &j->mean, &j->var);
    return NULL;
}

/* moments of a and b, the first on another thread when both are large. */
static void moments_two(const pr_vec *a, const pr_vec *b, double *ma, double *va, double *mb,
                        double *vb)
{
    moments_job j = {a, 0, 0};
    pthread_t th;
    int par = a->n >= PR_CELLSORT_BUCKETED && b->n >= PR_CELLSORT_BUCKETED && pr_threads() >= 2 &&
              pthread_create(&th, NULL, moments_main, &j) == 0;
    if (!par)
        moments_main(&j);
    moments(b, mb, vb);
    if (par)
        pthread_join(th, NULL);
    *ma = j.mean;
    *va = j.var;
}

/* Per-interval series of a rate from the model's time series: the intervals of the sending
 * period (the partial one of the last send and those of the wait after it left out). */
static size_t interval_rates(json_t *model, const char *key, double **out)
{
    json_t *pts = json_object_get(json_object_get(model, "timeseries"), "points");
    size_t n = json_array_size(pts);
    while (n > 0 && !(num(json_array_get(pts, n - 1), "requests") > 0))
        n--;
    if (n < 3) {
        *out = NULL;
        return 0;
    }
    n--;
    *out = pr_xmalloc(n * sizeof **out);
    for (size_t i = 0; i < n; i++)
        (*out)[i] = num(json_array_get(pts, i), key);
    return n;
}

typedef struct cell {
    double a, b;           /* values */
    const pr_vec *va, *vb; /* latencies (NULL or empty: untested) */
    json_t *ma, *mb;       /* models (rate tests) */
    double na, nb;         /* counts (ratio test) */
    int64_t res_ns;        /* the coarser clock of the two sides (durations) */
} cell;

/* The smallest p-value a Mann-Whitney test of na against nb values can give (every value of
 * one side above every value of the other, no ties). */
static double mw_min_p(double na, double nb)
{
    double sd = sqrt(na * nb * (na + nb + 1) / 12);
    return sd > 0 ? erfc((na * nb / 2 - 0.5) / sd / sqrt(2.0)) : 1;
}

/* The smallest p-value the two-proportion test of na against nb requests can give (none of one
 * side failed, every request of the other did). */
static double prop_min_p(double na, double nb)
{
    double pool = nb / (na + nb), se = sqrt(pool * (1 - pool) * (1 / na + 1 / nb));
    return se > 0 ? erfc(1 / se / sqrt(2.0)) : 1;
}

/* Whether the metric's test could reach significance at all with these sample sizes: a test
 * that cannot (too few samples, intervals or requests) is not run, and the metric is untested
 * ("too_few_samples"), never "same". The bounds are the tests' own (docs/metrics.md). */
static int has_power(const metric_def *m, const cell *c, const pr_compare_opts *o)
{
    switch (m->kind) {
    case K_PCT:
    case K_MEAN: return mw_min_p((double)c->va->n, (double)c->vb->n) < o->alpha;
    case K_RATIO: return prop_min_p(c->na, c->nb) < o->alpha;
    default: return 1;
    }
}

/* Fills the test fields of d; returns 1 when a test ran, with *sig set; *few is set when the
 * test had the data but too little of it to ever be significant. */
static int run_test(const metric_def *m, const cell *c, const pr_compare_opts *o, json_t *d,
                    int *sig, int *few)
{
    *sig = 0;
    *few = 0;
    switch (m->kind) {
    case K_PCT: {
        if (!c->va || !c->vb || !c->va->n || !c->vb->n)
            return 0;
        if (!has_power(m, c, o))
            return !(*few = 1);
        double lo, hi;
        pr_bootstrap_pdiff(c->va->v, c->va->n, c->vb->v, c->vb->n, m->p, o->resamples, 1 - o->alpha,
                           o->seed, &lo, &hi);
        json_object_set_new(d, "test", json_string("bootstrap"));
        jset_num(d, "ci_low", lo);
        jset_num(d, "ci_high", hi);
        *sig = lo > 0 || hi < 0;
        return 1;
    }
    case K_MEAN: {
        if (!c->va || !c->vb || c->va->n < 2 || c->vb->n < 2)
            return 0;
        if (!has_power(m, c, o))
            return !(*few = 1);
        double ma, va, mb, vb;
        moments_two(c->va, c->vb, &ma, &va, &mb, &vb);
        double se = sqrt(va / (double)c->va->n + vb / (double)c->vb->n);
        double z = se > 0 ? (mb - ma) / se : 0;
        double p = se > 0 ? erfc(fabs(z) / sqrt(2.0)) : (ma == mb ? 1 : 0);
        json_object_set_new(d, "test", json_string("welch"));
        jset_num(d, "p_value", p);
        *sig = p < o->alpha;
        return 1;
    }
    case K_RATIO: {
        if (!(c->na > 0) || !(c->nb > 0) || !isfinite(c->a) || !isfinite(c->b))
            return 0;
        if (!has_power(m, c, o))
            return !(*few = 1);
        double pool = (c->a * c->na + c->b * c->nb) / (c->na + c->nb);
        double se = sqrt(pool * (1 - pool) * (1 / c->na + 1 / c->nb));
        double p = se > 0 ? erfc(fabs(c->b - c->a) / se / sqrt(2.0)) : (c->a == c->b ? 1 : 0);
        json_object_set_new(d, "test", json_string("two-proportion"));
        jset_num(d, "p_value", p);
        *sig = p < o->alpha;
        return 1;
    }
    case K_RATE: {
        if (!c->ma || !c->mb)
            return 0;
        double *xa, *xb;
        size_t na = interval_rates(c->ma, m->key, &xa), nb = interval_rates(c->mb, m->key, &xb);
        int ok = na >= 5 && nb >= 5 && mw_min_p((double)na, (double)nb) < o->alpha;
        *few = !ok && (na || nb);
        if (ok) {
            pr_mw_result r;
            pr_mann_whitney_d(xa, na, xb, nb, &r);
            json_object_set_new(d, "test", json_string("mann-whitney"));
            jset_num(d, "p_value", r.p_value);
            *sig = r.p_value < o->alpha;
        }
        free(xa);
        free(xb);
        return ok;
    }
    default: return 0;
    }
}

/* One metric row's comparison of side b against side a; counts verdicts. */
static json_t *diff_json(const metric_def *m, const cell *c, const pr_compare_opts *o,
                         const char *run_name, int *regressions, int *improvements)
{
    json_t *d = json_object();
    char h[48];
    json_object_set_new(d, "run", json_string(run_name));
    double abs = c->b - c->a;
    double rel = isfinite(abs) && c->a != 0 ? abs / fabs(c->a) : (abs == 0 ? 0 : NAN);
    jset_num(d, "abs", abs);
    human_diff(abs, m->unit, c->res_ns, h);
    json_object_set_new(d, "abs_human", json_string(h));
    jset_num(d, "rel", rel);
    if (isfinite(rel))
        pr_compare_rel_text(rel, h, sizeof h);
    else
        snprintf(h, sizeof h, "%s", isfinite(abs) ? _("new") : "-");
    json_object_set_new(d, "rel_pct", json_string(h));
    int sig = 0, few = 0, tested = isfinite(abs) && run_test(m, c, o, d, &sig, &few);
    json_object_set_new(d, "significant", tested ? json_boolean(sig) : json_null());
    /* why a comparable metric has no test: the runs hold no samples (a tool's printed
     * summary), or too few for the test ever to be significant */
    json_object_set_new(d, "untested_why",
                        tested || !isfinite(abs) || m->higher_worse < 0
                            ? json_null()
                            : json_string(few ? "too_few_samples" : "no_samples"));
    int large = m->kind == K_RATIO
                    ? fabs(abs) >= 0.01
                    : (isfinite(rel) ? fabs(rel) >= o->min_effect : isfinite(abs) && abs != 0);
    const char *v;
    if (!isfinite(abs))
        v = "-";
    else if (m->higher_worse < 0)
        v = "";
    else if (!tested)
        v = "untested"; /* equal figures without a test are an observation, not a verdict */
    else if (sig && large) {
        int worse = m->higher_worse ? abs > 0 : abs < 0;
        v = worse ? "regression" : "improvement";
        if (worse)
            (*regressions)++;
        else
            (*improvements)++;
    } else
        v = "same";
    json_object_set_new(d, "verdict", json_string(v));
    json_object_set_new(d, "verdict_text", json_string(pr_compare_verdict_text(v)));
    json_object_set_new(d, "is_regression", json_boolean(!strcmp(v, "regression")));
    json_object_set_new(d, "is_improvement", json_boolean(!strcmp(v, "improvement")));
    return d;
}

static int64_t coarser(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

static json_t *metric_row(const metric_def *m, double *vals, const pr_vec **lat, json_t **models,
                          double *counts, size_t n, const pr_compare_opts *o,
                          pr_compare_side *sides, int *regs, int *imps)
{
    json_t *row = json_object(), *values = json_array(), *diffs = json_array();
    char h[32];
    json_object_set_new(row, "metric", json_string(m->name));
    json_object_set_new(row, "metric_text", json_string(pr_compare_metric_text(m->name)));
    json_object_set_new(row, "unit", json_string(m->unit));
    json_object_set_new(row, "higher_is",
                        json_string(m->higher_worse < 0 ? "neutral"
                                    : m->higher_worse   ? "worse"
                                                        : "better"));
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_object();
        jset_num(v, "value", vals[i]);
        human(vals[i], m->unit, pr_report_latency_res(json_object_get(sides[i].model, "stats")), h,
              sizeof h);
        json_object_set_new(v, "human", json_string(h));
        json_array_append_new(values, v);
    }
    for (size_t i = 1; i < n; i++) {
        cell c = {vals[0],
                  vals[i],
                  lat ? lat[0] : NULL,
                  lat ? lat[i] : NULL,
                  models ? models[0] : NULL,
                  models ? models[i] : NULL,
                  counts ? counts[0] : NAN,
                  counts ? counts[i] : NAN,
                  coarser(pr_report_latency_res(json_object_get(sides[0].model, "stats")),
                          pr_report_latency_res(json_object_get(sides[i].model, "stats")))};
        json_array_append_new(diffs, diff_json(m, &c, o, sides[i].name, regs, imps));
    }
    json_object_set_new(row, "values", values);
    json_object_set_new(row, "diffs", diffs);
    return row;
}

/* Metrics a history can follow that the comparison table does not show. */
static const metric_def extra_metrics[] = {
    {"p95", "p95", K_PCT, 95, 1, "ns"},
    {"p99.9", "p99_9", K_PCT, 99.9, 1, "ns"},
    {"min", "min", K_MAX, 0, 1, "ns"},
};

json_t *pr_compare_metric(const pr_compare_side *a, const pr_compare_side *b, const char *metric,
                          const pr_compare_opts *o)
{
    pr_compare_opts def;
    if (!o) {
        pr_compare_opts_init(&def);
        o = &def;
    }
    const metric_def *m = NULL;
    for (size_t i = 0; i < sizeof metrics / sizeof metrics[0] && !m; i++)
        if (!strcmp(metrics[i].name, metric))
            m = &metrics[i];
    for (size_t i = 0; i < sizeof extra_metrics / sizeof extra_metrics[0] && !m; i++)
        if (!strcmp(extra_metrics[i].name, metric))
            m = &extra_metrics[i];
    if (!m)
        return NULL;
    const pr_compare_side *s[2] = {a, b};
    double v[2], cnt[2];
    json_t *mod[2];
    for (int i = 0; i < 2; i++) {
        json_t *stats = json_object_get(s[i]->model, "stats");
        v[i] = stat_value(stats, m);
        cnt[i] = num(stats, "requests");
        mod[i] = json_is_true(json_object_get(s[i]->model, "summary_only")) ? NULL : s[i]->model;
    }
    cell c = {v[0],
              v[1],
              a->latency.n ? &a->latency : NULL,
              b->latency.n ? &b->latency : NULL,
              mod[0],
              mod[1],
              cnt[0],
              cnt[1],
              coarser(pr_report_latency_res(json_object_get(a->model, "stats")),
                      pr_report_latency_res(json_object_get(b->model, "stats")))};
    int regs = 0, imps = 0;
    json_t *d = diff_json(m, &c, o, b->name, &regs, &imps);
    json_object_set_new(d, "metric", json_string(m->name));
    json_object_set_new(d, "metric_text", json_string(pr_compare_metric_text(m->name)));
    jset_num(d, "a_value", v[0]);
    jset_num(d, "b_value", v[1]);
    return d;
}

static json_t *find_label(json_t *model, const char *name)
{
    size_t i;
    json_t *l;
    json_array_foreach (json_object_get(model, "labels"), i, l) {
        const char *s = json_string_value(json_object_get(l, "label"));
        if (s && !strcmp(s, name))
            return l;
    }
    return NULL;
}

static const pr_vec *side_label_lat(const pr_compare_side *s, const char *name)
{
    long l = side_label(s, name);
    return l >= 0 ? &s->label_lat[l] : NULL;
}

/* The end of the batch of label names from `from` whose latencies, extracted together, hold
 * at most half the largest side's samples (one at least). */
static size_t label_batch(const pr_compare_side *sides, size_t n, json_t *names, size_t from)
{
    size_t biggest = 0, used = 0, k = from;
    for (size_t i = 0; i < n; i++)
        biggest = sides[i].pairs.n > biggest ? sides[i].pairs.n : biggest;
    size_t budget = biggest / 2 > 1000000 ? biggest / 2 : 1000000;
    for (; k < json_array_size(names); k++) {
        const char *name = json_string_value(json_array_get(names, k));
        size_t need = 0;
        for (size_t i = 0; i < n; i++) {
            long l = side_label(&sides[i], name);
            need += l >= 0 ? sides[i].label_n[l] : 0;
        }
        if (k > from && used + need > budget)
            break;
        used += need;
    }
    return k;
}

typedef struct side_job {
    pr_compare_side *side;
    const char *const *names;
    size_t n;
} side_job;

static void *side_labels_main(void *arg)
{
    side_job *j = arg;
    pr_compare_side_labels(j->side, j->names, j->n);
    return NULL;
}

/* pr_compare_side_labels of every side, two sides at a time on the analysis threads. */
static void side_labels_all(pr_compare_side *sides, size_t n, const char *const *names, size_t nn)
{
    int two = pr_threads() >= 2;
    for (size_t i = 0; i < n; i += 2) {
        side_job j = {&sides[i], names, nn};
        pthread_t th;
        int par = two && i + 1 < n && pthread_create(&th, NULL, side_labels_main, &j) == 0;
        if (!par)
            pr_compare_side_labels(&sides[i], names, nn);
        if (i + 1 < n)
            pr_compare_side_labels(&sides[i + 1], names, nn);
        if (par)
            pthread_join(th, NULL);
    }
}

/* Extracts the latencies of the batch of labels from `from` into every side; returns the
 * batch's end. */
static size_t extract_batch(pr_compare_side *sides, size_t n, json_t *names, size_t from)
{
    size_t end = label_batch(sides, n, names, from);
    const char **bn = pr_xmalloc((end - from + 1) * sizeof *bn);
    for (size_t b = from; b < end; b++)
        bn[b - from] = json_string_value(json_array_get(names, b));
    side_labels_all(sides, n, bn, end - from);
    free(bn);
    return end;
}

/* The sides as the document lists them ("runs"; "compared": all but the baseline). */
static void sides_json(json_t *doc, const pr_compare_side *sides, size_t n)
{
    json_t *runs = json_array(), *others = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *r = json_object();
        json_object_set_new(r, "name", json_string(sides[i].name));
        json_object_set_new(r, "selection", json_string(sides[i].selection));
        json_t *ids = json_array();
        for (size_t k = 0; k < sides[i].nids; k++)
            json_array_append_new(ids, json_integer(sides[i].ids[k]));
        json_object_set_new(r, "ids", ids);
        json_object_set_new(r, "baseline", json_boolean(i == 0));
        json_object_set_new(r, "first", json_boolean(i == 0));
        json_object_set_new(r, "last", json_boolean(i + 1 == n));
        json_object_set(r, "summary_only", json_object_get(sides[i].model, "summary_only"));
        json_object_set_new(r, "samples", json_integer((json_int_t)sides[i].latency.n));
        json_array_append_new(runs, r);
        if (i)
            json_array_append(others, r);
    }
    json_object_set_new(doc, "runs", runs);
    json_object_set_new(doc, "compared", others);
}

/* The columns of one metric row, one per side. */
typedef struct row_cols {
    double *vals, *counts;
    const pr_vec **lat;
    json_t **models;
} row_cols;

/* One row per metric of the runs' totals; regressions and improvements counted. */
static json_t *total_rows(pr_compare_side *sides, size_t n, const pr_compare_opts *o, row_cols *c,
                          int *regs, int *imps)
{
    json_t *rows = json_array();
    for (size_t k = 0; k < sizeof metrics / sizeof metrics[0]; k++) {
        for (size_t i = 0; i < n; i++) {
            json_t *stats = json_object_get(sides[i].model, "stats");
            c->vals[i] = stat_value(stats, &metrics[k]);
            c->counts[i] = num(stats, "requests");
            c->lat[i] = sides[i].latency.n ? &sides[i].latency : NULL;
            c->models[i] = json_is_true(json_object_get(sides[i].model, "summary_only"))
                               ? NULL
                               : sides[i].model;
        }
        json_array_append_new(rows, metric_row(&metrics[k], c->vals, c->lat, c->models, c->counts,
                                               n, o, sides, regs, imps));
    }
    return rows;
}

/* Each side's whole latency distribution against the baseline's (Mann-Whitney). */
static json_t *latency_tests(const pr_compare_side *sides, size_t n, const pr_compare_opts *o)
{
    json_t *tests = json_array();
    for (size_t i = 1; i < n; i++) {
        pr_mw_result r;
        json_t *t = json_object();
        json_object_set_new(t, "run", json_string(sides[i].name));
        json_object_set_new(t, "test", json_string("mann-whitney"));
        size_t na = sides[0].latency.n, nb = sides[i].latency.n;
        int few = na && nb && !(mw_min_p((double)na, (double)nb) < o->alpha);
        json_object_set_new(t, "untested_why",
                            !na || !nb ? json_string("no_samples")
                            : few      ? json_string("too_few_samples")
                                       : json_null());
        if (!few && pr_mann_whitney(sides[0].latency.v, na, sides[i].latency.v, nb, &r) == 0) {
            jset_num(t, "u", r.u);
            jset_num(t, "z", r.z);
            jset_num(t, "p_value", r.p_value);
            jset_num(t, "a12", r.a12);
            char h[32];
            snprintf(h, sizeof h, "%.3g", r.p_value);
            json_object_set_new(t, "p_value_human", json_string(h));
            snprintf(h, sizeof h, "%.3f", r.a12);
            json_object_set_new(t, "a12_human", json_string(h));
            json_object_set_new(t, "significant", json_boolean(r.p_value < o->alpha));
        } else {
            json_object_set_new(t, "significant", json_null());
        }
        json_array_append_new(tests, t);
    }
    return tests;
}

/* The label names: those of the baseline, in its order, then labels only the others have. */
static json_t *label_names(const pr_compare_side *sides, size_t n)
{
    json_t *names = json_array(), *seen = json_object();
    for (size_t i = 0; i < n; i++) {
        size_t k;
        json_t *l;
        json_array_foreach (json_object_get(sides[i].model, "labels"), k, l) {
            const char *s = json_string_value(json_object_get(l, "label"));
            if (s && !json_object_get(seen, s)) {
                json_object_set_new(seen, s, json_true());
                json_array_append_new(names, json_string(s));
            }
        }
    }
    json_decref(seen);
    return names;
}

/* One entry per label (when there is more than one), its metrics' rows. */
static json_t *label_rows(pr_compare_side *sides, size_t n, const pr_compare_opts *o, row_cols *c,
                          int *regs, int *imps)
{
    static const metric_def lmetrics[] = {
        {"requests", "requests", K_COUNT, 0, -1, "count"},
        {"error_ratio", "error_ratio", K_RATIO, 0, 1, "ratio"},
        {"mean", "mean", K_MEAN, 0, 1, "ns"},
        {"p50", "p50", K_PCT, 50, 1, "ns"},
        {"p99", "p99", K_PCT, 99, 1, "ns"},
    };
    json_t *names = label_names(sides, n), *labels = json_array();
    size_t k, batch_end = 0;
    json_t *nm_j;
    json_array_foreach (json_array_size(names) > 1 ? names : NULL, k, nm_j) {
        const char *name = json_string_value(nm_j);
        if (k == batch_end) /* the next labels' latencies, a batch at a time */
            batch_end = extract_batch(sides, n, names, k);
        json_t *lrow = json_object(), *lm = json_array();
        json_object_set_new(lrow, "label", json_string(name));
        for (size_t q = 0; q < sizeof lmetrics / sizeof lmetrics[0]; q++) {
            for (size_t i = 0; i < n; i++) {
                json_t *l = find_label(sides[i].model, name);
                c->vals[i] = l ? stat_value(l, &lmetrics[q]) : NAN;
                c->counts[i] = l ? num(l, "requests") : NAN;
                const pr_vec *v = side_label_lat(&sides[i], name);
                c->lat[i] = v && v->n ? v : NULL;
            }
            json_array_append_new(lm, metric_row(&lmetrics[q], c->vals, c->lat, NULL, c->counts, n,
                                                 o, sides, regs, imps));
        }
        json_object_set_new(lrow, "metrics", lm);
        json_array_append_new(labels, lrow);
    }
    json_decref(names);
    return labels;
}

json_t *pr_compare_build(pr_compare_side *sides, size_t n, const pr_compare_opts *o)
{
    pr_compare_opts def;
    if (!o) {
        pr_compare_opts_init(&def);
        o = &def;
    }
    json_t *doc = json_object();
    json_object_set_new(doc, "schema", json_string("perfreport-compare"));
    json_object_set_new(doc, "version", json_integer(PR_COMPARE_SCHEMA_VERSION));
    jset_num(doc, "min_effect", o->min_effect);
    jset_num(doc, "alpha", o->alpha);
    char pct[32];
    snprintf(pct, sizeof pct, "%g%%", 100 * o->min_effect);
    json_object_set_new(doc, "min_effect_pct", json_string(pct));
    json_object_set_new(doc, "resamples", json_integer(o->resamples));
    json_object_set_new(doc, "seed", json_integer((json_int_t)o->seed));
    sides_json(doc, sides, n);
    int regs = 0, imps = 0, lregs = 0, limps = 0;
    row_cols c = {pr_xcalloc(n, sizeof *c.vals), pr_xcalloc(n, sizeof *c.counts),
                  pr_xcalloc(n, sizeof *c.lat), pr_xcalloc(n, sizeof *c.models)};
    json_object_set_new(doc, "metrics", total_rows(sides, n, o, &c, &regs, &imps));
    json_object_set_new(doc, "latency_tests", latency_tests(sides, n, o));
    json_object_set_new(doc, "labels", label_rows(sides, n, o, &c, &lregs, &limps));
    json_object_set_new(doc, "regressions", json_integer(regs));
    json_object_set_new(doc, "improvements", json_integer(imps));
    json_object_set_new(doc, "label_regressions", json_integer(lregs));
    json_object_set_new(doc, "label_improvements", json_integer(limps));
    free(c.vals);
    free(c.counts);
    free(c.lat);
    free(c.models);
    return doc;
}
