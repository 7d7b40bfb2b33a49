/* Works out the load a run was under and says where each value came from (docs/metrics.md). */
#include "analysis/load.h"
#include "analysis/human.h"
#include "model/buf.h"
#include "model/l10n.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What each tool's files say about its load, and whether its sent rate is its offered rate.
 * The bases are words of the catalog, translated where they are written. */
static const struct tool_load {
    const char *tool;
    pr_load_model model;    /* the tool's model, for files that do not record it */
    const char *rate_basis; /* where a rate stated by the file comes from */
    const char *conc_basis; /* where a concurrency stated by the file comes from */
    int infer_rate;         /* open-model generator: offered rate = sent rate if steady */
} tools[] = {
    {"vegeta", PR_LOAD_OPEN, N_("stated in the file"), NULL, 1},
    {"perfreport", PR_LOAD_UNKNOWN, N_("perfreport attack --rate"), N_("perfreport attack -c"), 0},
    {"perfreport-bench", PR_LOAD_UNKNOWN, N_("stated in the file"), NULL, 0},
    {"httperf", PR_LOAD_OPEN, N_("httperf --rate"), NULL, 0},
    {"ab", PR_LOAD_CLOSED, NULL, N_("ab -c, its Concurrency Level"), 0},
    {"hey", PR_LOAD_CLOSED, NULL, N_("hey -c"), 0},
    {"wrk", PR_LOAD_CLOSED, NULL, N_("wrk -c, its connections"), 0},
    {"siege", PR_LOAD_CLOSED, NULL, N_("siege -c, its concurrent users"), 0},
    {"jmeter", PR_LOAD_CLOSED, NULL, N_("JMeter's allThreads, the most seen"), 0},
    {"autocannon", PR_LOAD_CLOSED, NULL, N_("autocannon -c, its connections"), 0},
    {"locust", PR_LOAD_CLOSED, NULL, N_("Locust's user count"), 0},
    {"artillery", PR_LOAD_OPEN, NULL, NULL, 0},  /* arrivals are of sessions, not requests */
    {"gatling", PR_LOAD_UNKNOWN, NULL, NULL, 0}, /* open or closed: the injection profile */
    {"k6", PR_LOAD_UNKNOWN, NULL, N_("k6's vus, the most VUs active"), 0}, /* closed with VUs */
};

static const struct tool_load *tool_row(const char *tool)
{
    for (size_t i = 0; tool && i < sizeof tools / sizeof tools[0]; i++)
        if (!strcmp(tools[i].tool, tool))
            return &tools[i];
    return NULL;
}

/* A tag holding a positive number, optionally followed by a rate unit ("500", "500/s",
 * "500rps"); NAN when absent or not such a number. */
static double tag_number(const pr_run *run, const char *key, int rate)
{
    const char *v = pr_run_tag_get(run, key);
    if (!v || !*v)
        return NAN;
    char *end;
    double x = strtod(v, &end);
    if (!(x > 0) || !isfinite(x) || end == v)
        return NAN;
    if (*end && !(rate && (!strcmp(end, "/s") || !strcmp(end, "rps") || !strcmp(end, "qps"))))
        return NAN;
    return x;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Median of v[from, to) (sorts a copy). */
static double median_i64(const int64_t *v, size_t from, size_t to)
{
    size_t n = to - from;
    int64_t *c = pr_xmalloc((n + 1) * sizeof *c);
    memcpy(c, v + from, n * sizeof *c);
    qsort(c, n, sizeof *c, cmp_i64);
    double m = n % 2 ? (double)c[n / 2] : ((double)c[n / 2 - 1] + (double)c[n / 2]) / 2;
    free(c);
    return m;
}

/* The pacing check (load.h) over the full intervals (the last, partial one left out). Returns
 * 1 steady, 0 not, -1 too few intervals to tell; *out gets {"intervals", "median", "min",
 * "first_third_median", "last_third_median", "steady"} when checked. */
static int pacing_check(const pr_load_facts *f, json_t **out)
{
    *out = NULL;
    if (!f->sends || f->nsends < 7)
        return -1;
    size_t n = f->nsends - 1, t = n / 3;
    int64_t lo = f->sends[0];
    for (size_t i = 1; i < n; i++)
        if (f->sends[i] < lo)
            lo = f->sends[i];
    double med = median_i64(f->sends, 0, n), m1 = median_i64(f->sends, 0, t),
           m3 = median_i64(f->sends, n - t, n);
    int steady = med > 0 && (double)lo >= PR_LOAD_PAUSE * med &&
                 fabs(m3 - m1) <= PR_LOAD_STEP_TOL * fmax(m1, m3);
    *out = json_pack("{s:I, s:f, s:I, s:f, s:f, s:b}", "intervals", (json_int_t)n, "median", med,
                     "min", (json_int_t)lo, "first_third_median", m1, "last_third_median", m3,
                     "steady", steady);
    return steady;
}

typedef struct load {
    pr_load_model model;
    const char *model_source;
    double rate;
    const char *rate_source, *rate_basis;
    int64_t conc;
    const char *conc_source, *conc_basis;
} load;

/* The offered rate: a tag, else the file, else the sent rate of a steady open-model generator. */
static void offered_rate(load *l, const pr_run *run, const struct tool_load *t,
                         const pr_load_facts *f, json_t *j)
{
    double tag = tag_number(run, "rate", 1);
    if (isfinite(tag)) {
        l->rate = tag, l->rate_source = "tag", l->rate_basis = N_("--tag rate");
        return;
    }
    if (run->offered_rate > 0) {
        l->rate = run->offered_rate, l->rate_source = "file";
        l->rate_basis = t && t->rate_basis ? t->rate_basis : N_("stated in the file");
        /* httperf: --rate is of connections, each making --num-calls requests */
        if (json_number_value(json_object_get(run->meta, "requests_per_connection")) > 1)
            l->rate_basis = N_("httperf --rate (connections/s) × --num-calls (requests per "
                               "connection)");
        return;
    }
    if (l->model != PR_LOAD_OPEN)
        return;
    json_t *pacing = NULL;
    int steady = pacing_check(f, &pacing);
    if (pacing)
        json_object_set_new(j, "pacing", pacing);
    if (!t || !t->infer_rate || f->merged || !(f->requests > 1) || !(f->rate_per_s > 0) ||
        steady == 0)
        return;
    l->rate = f->rate_per_s, l->rate_source = "inferred";
    l->rate_basis = f->summary_only ? N_("requests / attack duration, the rate the tool printed")
                                    : N_("requests / attack duration");
}

static void concurrency(load *l, const pr_run *run, const struct tool_load *t)
{
    double tag = tag_number(run, "concurrency", 0);
    if (isfinite(tag) && tag == floor(tag) && tag < 1e9) {
        l->conc = (int64_t)tag, l->conc_source = "tag", l->conc_basis = N_("--tag concurrency");
    } else if (run->concurrency >= 0) {
        l->conc = run->concurrency, l->conc_source = "file";
        l->conc_basis = t && t->conc_basis ? t->conc_basis : N_("stated in the file");
    }
}

/* "open model, offered rate 200.22/s (inferred: requests / attack duration)" and the like. */
static char *load_text(const load *l, const json_t *pacing)
{
    pr_buf b = PR_BUF_INIT;
    char h[32];
    pr_buf_puts(&b, l->model == PR_LOAD_OPEN     ? _("open model")
                    : l->model == PR_LOAD_CLOSED ? _("closed model")
                                                 : _("load model unknown"));
    if (isfinite(l->rate) && !strcmp(l->rate_source, "inferred")) {
        pr_buf_printf(&b, _(", offered rate %s (inferred: %s)"),
                      pr_human_rate(l->rate, h, sizeof h), _(l->rate_basis));
    } else if (isfinite(l->rate)) {
        pr_buf_printf(&b, _(", offered rate %s (%s)"), pr_human_rate(l->rate, h, sizeof h),
                      _(l->rate_basis));
    } else if (l->model == PR_LOAD_OPEN) {
        pr_buf_puts(&b, _(", offered rate unknown"));
        if (json_is_false(json_object_get(pacing, "steady")))
            pr_buf_printf(&b,
                          _(" (requests sent per interval: median %g, lowest %lld, %g in the "
                            "first third and %g in the last: the generator did not keep a "
                            "constant rate; --tag rate=N states it)"),
                          json_number_value(json_object_get(pacing, "median")),
                          (long long)json_integer_value(json_object_get(pacing, "min")),
                          json_number_value(json_object_get(pacing, "first_third_median")),
                          json_number_value(json_object_get(pacing, "last_third_median")));
    }
    if (l->conc >= 0)
        pr_buf_printf(&b, _(", concurrency %lld (%s)"), (long long)l->conc, _(l->conc_basis));
    else if (l->model == PR_LOAD_CLOSED)
        pr_buf_puts(&b, _(", concurrency unknown (--tag concurrency=N states it)"));
    return pr_buf_steal(&b);
}

const char *pr_load_model_text(pr_load_model m)
{
    static const char *const words[] = {
        [PR_LOAD_UNKNOWN] = NC_("load model", "unknown"),
        [PR_LOAD_OPEN] = NC_("load model", "open"),
        [PR_LOAD_CLOSED] = NC_("load model", "closed"),
    };
    return pr_l10n_pgettext(words[m <= PR_LOAD_CLOSED ? m : PR_LOAD_UNKNOWN]);
}

json_t *pr_load_json(const pr_run *run, const pr_load_facts *f)
{
    const struct tool_load *t = tool_row(run->tool);
    load l = {run->load_model, "file", NAN, NULL, NULL, -1, NULL, NULL};
    if (l.model == PR_LOAD_UNKNOWN && t && t->model != PR_LOAD_UNKNOWN)
        l.model = t->model, l.model_source = "tool";
    else if (l.model == PR_LOAD_UNKNOWN)
        l.model_source = NULL;
    json_t *j = json_object();
    offered_rate(&l, run, t, f, j);
    concurrency(&l, run, t);
    char h[32];
    json_object_set_new(j, "model", json_string(pr_load_model_name(l.model)));
    json_object_set_new(j, "model_text", json_string(pr_load_model_text(l.model)));
    json_object_set_new(j, "model_source",
                        l.model_source ? json_string(l.model_source) : json_null());
    json_object_set_new(j, "offered_rate_per_s",
                        isfinite(l.rate) ? json_real(l.rate) : json_null());
    json_object_set_new(j, "offered_rate",
                        isfinite(l.rate) ? json_string(pr_human_rate(l.rate, h, sizeof h))
                                         : json_null());
    json_object_set_new(j, "offered_rate_source",
                        l.rate_source ? json_string(l.rate_source) : json_null());
    json_object_set_new(j, "offered_rate_basis",
                        l.rate_basis ? json_string(_(l.rate_basis)) : json_null());
    json_object_set_new(j, "offered_rate_inferred",
                        json_boolean(l.rate_source && !strcmp(l.rate_source, "inferred")));
    json_object_set_new(j, "concurrency", l.conc >= 0 ? json_integer(l.conc) : json_null());
    json_object_set_new(j, "concurrency_source",
                        l.conc_source ? json_string(l.conc_source) : json_null());
    json_object_set_new(j, "concurrency_basis",
                        l.conc_basis ? json_string(_(l.conc_basis)) : json_null());
    char *text = load_text(&l, json_object_get(j, "pacing"));
    json_object_set_new(j, "text", json_string(text));
    free(text);
    return j;
}
