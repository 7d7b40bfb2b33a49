/* The study's capacity: a curve per configuration (and per value of the level tags that are
 * not the load), each analysed by analysis/capacity.c. */
#include "analysis/study_priv.h"
#include "analysis/human.h"
#include "model/buf.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A tag load counts as an offered rate when every run sent within this share of it. */
#define RATE_MATCH 0.10

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

typedef struct load_spec {
    const char *source; /* "offered_rate", "concurrency", "tag:KEY" */
    const char *tag;    /* KEY, or NULL */
    const char *skip;   /* the level tag the load stands for (left out of series names) */
    pr_load_kind kind;
    int inferred;         /* the kind was inferred (a tag that every run's sent rate matches) */
    double *load;         /* per run */
    char tag_source[160]; /* "tag:KEY" of the default load */
} load_spec;

/* The load of every run; returns a note (static or in buf) when there is none. */
static const char *run_loads(const study *S, load_spec *L, char *buf, size_t size)
{
    const char *load = S->o->load;
    if (!load) {
        snprintf(L->tag_source, sizeof L->tag_source, "tag:%s", S->o->levels[0]);
        load = L->tag_source;
    }
    L->source = !strcmp(load, "rate") ? "offered_rate" : load;
    L->tag = !strncmp(load, "tag:", 4) ? load + 4 : NULL;
    L->skip = L->tag ? L->tag : S->o->levels[0];
    for (size_t i = 0; i < S->nruns; i++) {
        json_t *m = S->runs[i].model;
        double v = NAN;
        if (L->tag) {
            const char *t = json_string_value(json_object_get(json_object_get(m, "tags"), L->tag));
            char *end = NULL;
            v = t ? strtod(t, &end) : NAN;
            if (!t || end == t || *end)
                v = NAN;
        } else {
            v = num(m, strcmp(load, "concurrency") ? "offered_rate_per_s" : "concurrency");
        }
        if (!isfinite(v) || v <= 0) {
            if (L->tag)
                snprintf(buf, size, _("no capacity curve: run %lld '%s' has no numeric tag '%s'"),
                         (long long)S->runs[i].id, jstr(m, "name"), L->tag);
            else
                snprintf(buf, size, _("no capacity curve: run %lld '%s' has no %s"),
                         (long long)S->runs[i].id, jstr(m, "name"), load);
            return buf;
        }
        L->load[i] = v;
    }
    return NULL;
}

/* The kind of a tag load: --load-is-rate, else a rate when every run sent at about it. */
static void load_kind(const study *S, load_spec *L)
{
    if (!L->tag) {
        L->kind = strcmp(L->source, "concurrency") ? PR_LOAD_KIND_RATE : PR_LOAD_KIND_CONCURRENCY;
        return;
    }
    if (S->o->load_is_rate >= 0) {
        L->kind = S->o->load_is_rate ? PR_LOAD_KIND_RATE : PR_LOAD_KIND_CONCURRENCY;
        return;
    }
    int rate = S->nruns > 0;
    for (size_t i = 0; i < S->nruns && rate; i++) {
        json_t *m = S->runs[i].model;
        double sent = num(m, "offered_rate_per_s");
        if (!isfinite(sent))
            sent = num(json_object_get(m, "stats"), "rate_per_s");
        rate = isfinite(sent) && fabs(sent - L->load[i]) <= RATE_MATCH * L->load[i];
    }
    L->kind = rate ? PR_LOAD_KIND_RATE : PR_LOAD_KIND_CONCURRENCY;
    L->inferred = 1;
}

/* The series of a run: its configuration and the values of the other level tags. */
static char *series_name(const study *S, const study_run *r, const load_spec *L, json_t *kv)
{
    pr_buf b = PR_BUF_INIT;
    const char *c = jstr(json_array_get(S->configs, r->config), "name");
    pr_buf_puts(&b, c);
    json_t *tags = json_object_get(r->model, "tags");
    for (size_t k = 0; k < S->o->nlevels; k++) {
        if (!strcmp(S->o->levels[k], L->skip))
            continue;
        const char *v = jstr(tags, S->o->levels[k]);
        pr_buf_printf(&b, "%s%s=%s", b.len ? " " : "", S->o->levels[k], v);
        json_t *e = json_object();
        json_object_set_new(e, "key", json_string(S->o->levels[k]));
        json_object_set_new(e, "value", json_string(v));
        json_array_append_new(kv, e);
    }
    if (!b.len)
        pr_buf_puts(&b, pr_study_word(SW_ALL_RUNS));
    return pr_buf_steal(&b);
}

/* Two runs of one series at one load: the note that says so (a curve takes one run per load). */
static int duplicate(const study *S, const load_spec *L, const size_t *idx, size_t k, char *buf,
                     size_t size)
{
    for (size_t i = 0; i < k; i++)
        for (size_t j = i + 1; j < k; j++)
            if (L->load[idx[i]] == L->load[idx[j]]) {
                snprintf(buf, size,
                         _("no curve: runs %lld '%s' and %lld '%s' are both at load %g "
                           "(a curve takes one run per load: add the tag that tells "
                           "them apart to --pair)"),
                         (long long)S->runs[idx[i]].id, jstr(S->runs[idx[i]].model, "name"),
                         (long long)S->runs[idx[j]].id, jstr(S->runs[idx[j]].model, "name"),
                         L->load[idx[i]]);
                return 1;
            }
    return 0;
}

/* The analysis of the runs idx[0..k) of one series. */
static json_t *series_json(const study *S, const load_spec *L, const size_t *idx, size_t k,
                           const pr_capacity_opts *co)
{
    char note[512];
    if (duplicate(S, L, idx, k, note, sizeof note)) {
        json_t *a = json_object();
        json_object_set_new(a, "note", json_string(note));
        return a;
    }
    pr_capacity_point *pts = pr_xcalloc(k + 1, sizeof *pts);
    for (size_t q = 0; q < k; q++) {
        pr_capacity_point_of(&pts[q], S->runs[idx[q]].model, L->load[idx[q]]);
        pts[q].run_id = S->runs[idx[q]].id;
        pts[q].name = jstr(S->runs[idx[q]].model, "name");
    }
    json_t *a = pr_capacity_analyse(pts, k, co), *p;
    free(pts);
    size_t i;
    json_array_foreach (json_object_get(a, "points"), i, p) {
        char t[32];
        double e = num(p, "efficiency");
        snprintf(t, sizeof t, isfinite(e) ? "%.2f" : "-", e);
        json_object_set_new(p, "efficiency_text", json_string(t));
    }
    return a;
}

/* One series per distinct name, in order of first appearance. */
static json_t *all_series(const study *S, const load_spec *L, const pr_capacity_opts *co)
{
    json_t *list = json_array();
    char **names = pr_xcalloc(S->nruns + 1, sizeof *names);
    json_t **kvs = pr_xcalloc(S->nruns + 1, sizeof *kvs);
    size_t *idx = pr_xcalloc(S->nruns + 1, sizeof *idx);
    for (size_t i = 0; i < S->nruns; i++) {
        kvs[i] = json_array();
        names[i] = series_name(S, &S->runs[i], L, kvs[i]);
    }
    for (size_t i = 0; i < S->nruns; i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = !strcmp(names[i], names[j]);
        if (seen)
            continue;
        size_t k = 0;
        for (size_t j = i; j < S->nruns; j++)
            if (!strcmp(names[i], names[j]))
                idx[k++] = j;
        json_t *a = series_json(S, L, idx, k, co);
        json_object_set_new(a, "name", json_string(names[i]));
        json_object_set(a, "configuration",
                        json_object_get(json_array_get(S->configs, S->runs[i].config), "name"));
        json_object_set(a, "key_values", kvs[i]);
        json_object_set_new(a, "has_curve", json_boolean(json_object_get(a, "points") != NULL));
        json_array_append_new(list, a);
    }
    for (size_t i = 0; i < S->nruns; i++) {
        free(names[i]);
        json_decref(kvs[i]);
    }
    free(names);
    free(kvs);
    free(idx);
    size_t i, n = json_array_size(list);
    json_t *e;
    json_array_foreach (list, i, e) {
        json_object_set_new(e, "first", json_boolean(i == 0));
        json_object_set_new(e, "last", json_boolean(i + 1 == n));
        json_object_set_new(e, "index", json_integer((json_int_t)i + 1));
    }
    return list;
}

void pr_study_capacity(study *S, json_t *out)
{
    load_spec L;
    memset(&L, 0, sizeof L);
    L.load = pr_xcalloc(S->nruns + 1, sizeof *L.load);
    char buf[512], h[32];
    json_t *cap = json_object();
    const char *note = run_loads(S, &L, buf, sizeof buf);
    json_object_set_new(cap, "load_source", json_string(L.source));
    json_object_set_new(cap, "load_source_text",
                        json_string(!strcmp(L.source, "offered_rate")  ? _("the offered rate")
                                    : !strcmp(L.source, "concurrency") ? _("the concurrency")
                                                                       : L.source));
    json_object_set_new(cap, "load_key", L.tag ? json_string(L.tag) : json_null());
    if (note) {
        json_object_set_new(cap, "note", json_string(note));
        json_object_set_new(cap, "series", json_array());
    } else {
        load_kind(S, &L);
        pr_capacity_opts co = S->o->capacity;
        co.kind = L.kind;
        co.load_source = L.source;
        json_object_set_new(cap, "load_kind",
                            json_string(L.kind == PR_LOAD_KIND_RATE ? "rate" : "concurrency"));
        json_object_set_new(cap, "load_is_rate", json_boolean(L.kind == PR_LOAD_KIND_RATE));
        json_object_set_new(cap, "load_kind_inferred", json_boolean(L.inferred));
        double slo = co.slo_p99_ns;
        json_object_set_new(cap, "slo_p99_ns", isfinite(slo) ? json_real(slo) : json_null());
        json_object_set_new(
            cap, "slo_p99",
            json_string(isfinite(slo) ? pr_human_duration((int64_t)slo, h, sizeof h) : "-"));
        json_object_set_new(cap, "max_error_ratio", json_real(co.max_error_ratio));
        json_object_set_new(cap, "max_error_pct",
                            json_string(pr_human_percent(co.max_error_ratio, h, sizeof h)));
        json_object_set_new(cap, "series", all_series(S, &L, &co));
    }
    json_object_set_new(out, "capacity", cap);
    json_object_set_new(out, "has_capacity",
                        json_boolean(json_array_size(json_object_get(cap, "series")) > 0));
    free(L.load);
}
