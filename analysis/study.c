/* The study document: runs grouped into configurations and levels, the per-interface tables,
 * the merged recommendations and the metadata tables (the comparison: study_compare.c, the
 * capacity: study_capacity.c). */
#include "analysis/study_priv.h"
#include "analysis/human.h"
#include "model/buf.h"
#include "model/l10n.h"
#include "model/run.h"
#include "model/xalloc.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* At most this many per-label interface tables (the busiest labels; the rest are counted). */
#define STUDY_MAX_INTERFACES 30
/* Distinct methods or protocols kept per label ("GET, POST"). */
#define STUDY_MAX_KINDS 4

void pr_study_opts_init(pr_study_opts *o)
{
    memset(o, 0, sizeof *o);
    o->load_is_rate = -1;
    pr_capacity_opts_init(&o->capacity);
    pr_compare_opts_init(&o->compare);
    pr_report_opts_init(&o->report);
}

static const char *jstr(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

/* ---- configurations and levels ------------------------------------------------------------ */

/* "k=v k=v" of the run's values of keys (a missing one reads "(no KEY)" when allowed). Returns
 * NULL with *missing set when a key is absent and not allowed. */
static char *key_text(json_t *tags, char *const *keys, size_t n, int allow_missing,
                      const char **missing, json_t *key_values)
{
    pr_buf b = PR_BUF_INIT;
    for (size_t k = 0; k < n; k++) {
        const char *v = json_string_value(json_object_get(tags, keys[k]));
        if (!v && !allow_missing) {
            *missing = keys[k];
            pr_buf_dispose(&b);
            return NULL;
        }
        char none[128];
        snprintf(none, sizeof none, _("(no %s)"), keys[k]);
        pr_buf_printf(&b, "%s%s=%s", k ? " " : "", keys[k], v ? v : none);
        json_t *kv = json_object();
        json_object_set_new(kv, "key", json_string(keys[k]));
        json_object_set_new(kv, "value", json_string(v ? v : none));
        json_array_append_new(key_values, kv);
    }
    char *s = pr_buf_steal(&b);
    return s ? s : pr_xstrdup("");
}

/* The index of the group named text in list (by "name"), appending a new one. */
static size_t group_of(json_t *list, const char *field, const char *text, json_t *key_values,
                       int *is_new)
{
    size_t i;
    json_t *g;
    json_array_foreach (list, i, g)
        if (!strcmp(jstr(g, field), text)) {
            *is_new = 0;
            return i;
        }
    g = json_object();
    json_object_set_new(g, field, json_string(text));
    json_object_set(g, "key_values", key_values);
    json_object_set_new(g, "runs", json_array());
    json_array_append_new(list, g);
    *is_new = 1;
    return json_array_size(list) - 1;
}

static int level_cmp(const void *x, const void *y)
{
    json_t *a = *(json_t *const *)x, *b = *(json_t *const *)y;
    size_t n = json_array_size(json_object_get(a, "key_values"));
    for (size_t k = 0; k < n; k++) {
        int c = strverscmp(jstr(json_array_get(json_object_get(a, "key_values"), k), "value"),
                           jstr(json_array_get(json_object_get(b, "key_values"), k), "value"));
        if (c)
            return c;
    }
    return 0;
}

/* Sorts the levels as the pairs are sorted (strverscmp per key) and renumbers the runs. */
static void sort_levels(study *S)
{
    size_t n = json_array_size(S->levels), i;
    json_t **v = pr_xcalloc(n + 1, sizeof *v);
    for (i = 0; i < n; i++)
        v[i] = json_array_get(S->levels, i);
    qsort(v, n, sizeof *v, level_cmp);
    size_t *map = pr_xcalloc(n + 1, sizeof *map);
    json_t *sorted = json_array();
    for (i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++)
            if (json_array_get(S->levels, j) == v[i])
                map[j] = i;
        json_array_append(sorted, v[i]);
    }
    for (i = 0; i < S->nruns; i++)
        S->runs[i].level = map[S->runs[i].level];
    json_decref(S->levels);
    S->levels = sorted;
    free(v);
    free(map);
}

/* Marks first/last/index on every item of a list, for templates. */
static void mark_list(json_t *list)
{
    size_t i, n = json_array_size(list);
    json_t *e;
    json_array_foreach (list, i, e) {
        json_object_set_new(e, "first", json_boolean(i == 0));
        json_object_set_new(e, "last", json_boolean(i + 1 == n));
        json_object_set_new(e, "index", json_integer((json_int_t)i + 1));
    }
}

static json_t *run_ref(const study_run *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "id", json_integer(r->id));
    json_object_set_new(o, "name", json_string(jstr(r->model, "name")));
    return o;
}

/* Gives every run its configuration (the --by tags) and level (the --pair tags). */
static int group_runs(study *S, pr_error *err)
{
    const pr_study_opts *o = S->o;
    size_t i;
    json_t *m;
    json_array_foreach (json_object_get(S->doc, "runs"), i, m) {
        study_run *r = &S->runs[S->nruns++];
        r->model = m;
        r->id = json_integer_value(json_object_get(m, "id"));
        json_t *tags = json_object_get(m, "tags"), *ckv = json_array(), *lkv = json_array();
        const char *missing = NULL;
        char *lt = key_text(tags, o->levels, o->nlevels, 0, &missing, lkv);
        if (!lt) {
            json_decref(ckv);
            json_decref(lkv);
            return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                                _("run %lld '%s' has no tag '%s', a tag of the study's load "
                                  "levels (tag it: perfreport tag %lld %s=VALUE, or select the "
                                  "runs that have it)"),
                                (long long)r->id, jstr(m, "name"), missing, (long long)r->id,
                                missing);
        }
        char *ct = key_text(tags, o->by, o->nby, 1, &missing, ckv);
        int fresh;
        r->config = group_of(S->configs, "name", ct, ckv, &fresh);
        r->level = group_of(S->levels, "key_text", lt, lkv, &fresh);
        json_array_append_new(json_object_get(json_array_get(S->configs, r->config), "runs"),
                              run_ref(r));
        json_array_append_new(json_object_get(json_array_get(S->levels, r->level), "runs"),
                              run_ref(r));
        free(ct);
        free(lt);
        json_decref(ckv);
        json_decref(lkv);
    }
    sort_levels(S);
    json_t *c;
    json_array_foreach (S->configs, i, c) {
        pr_buf b = PR_BUF_INIT;
        size_t k;
        json_t *kv;
        json_array_foreach (json_object_get(c, "key_values"), k, kv)
            pr_buf_printf(&b, "%s%s", k ? "/" : "", jstr(kv, "value"));
        json_object_set_new(c, "values_text", json_string(b.p ? b.p : ""));
        json_object_set_new(c, "baseline", json_boolean(i == 0));
        pr_buf_dispose(&b);
    }
    mark_list(S->configs);
    mark_list(S->levels);
    return 0;
}

/* ---- protocol and method per label ------------------------------------------------------- */

typedef struct kinds {
    char v[STUDY_MAX_KINDS][16];
    size_t n;
    int more;
} kinds;

typedef struct proto_slot {
    uint32_t label;
    kinds methods, protocols;
} proto_slot;

typedef struct proto_scan {
    const pr_run *run;
    uint32_t *slot_of; /* label id -> slot + 1 */
    uint32_t nids;
    proto_slot *slots;
    size_t nslots, cap;
} proto_scan;

static void kinds_add(kinds *k, const char *s, size_t len)
{
    char v[16];
    if (len >= sizeof v)
        len = sizeof v - 1;
    for (size_t i = 0; i < len; i++)
        v[i] = (char)toupper((unsigned char)s[i]);
    v[len] = 0;
    for (size_t i = 0; i < k->n; i++)
        if (!strcmp(k->v[i], v))
            return;
    if (k->n < STUDY_MAX_KINDS)
        memcpy(k->v[k->n++], v, len + 1);
    else
        k->more = 1;
}

static int proto_cb(const pr_sample *s, size_t n, void *payload)
{
    proto_scan *p = payload;
    for (size_t i = 0; i < n; i++) {
        uint32_t l = s[i].label < p->nids ? s[i].label : 0;
        if (!p->slot_of[l]) {
            p->slots = pr_xgrow(p->slots, &p->cap, p->nslots + 1, sizeof *p->slots);
            memset(&p->slots[p->nslots], 0, sizeof *p->slots);
            p->slots[p->nslots].label = l;
            p->slot_of[l] = (uint32_t)++p->nslots;
        }
        proto_slot *sl = &p->slots[p->slot_of[l] - 1];
        if (s[i].method != PR_NOSTR) {
            const char *m = pr_run_str(p->run, s[i].method);
            kinds_add(&sl->methods, m, strlen(m));
        }
        const char *u = s[i].url != PR_NOSTR ? pr_run_str(p->run, s[i].url) : NULL;
        const char *colon = u ? strstr(u, "://") : NULL;
        if (colon && colon - u < 12)
            kinds_add(&sl->protocols, u, (size_t)(colon - u));
    }
    return 0;
}

static void kinds_join(const kinds *k, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = 0;
    for (size_t i = 0; i < k->n; i++)
        o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? ", " : "", k->v[i]);
    if (k->more)
        snprintf(buf + o, size - o, ", …");
    if (!k->n)
        snprintf(buf, size, "-");
}

static void set_kinds(json_t *o, const kinds *methods, const kinds *protocols)
{
    char m[96], p[96], both[200];
    kinds_join(methods, m, sizeof m);
    kinds_join(protocols, p, sizeof p);
    json_object_set_new(o, "method", json_string(m));
    json_object_set_new(o, "protocol", json_string(p));
    if (methods->n && protocols->n)
        snprintf(both, sizeof both, "%s %s", p, m);
    else
        snprintf(both, sizeof both, "%s", methods->n ? m : p);
    json_object_set_new(o, "protocol_method", json_string(both));
}

/* Scans a sampled run once: the methods and URL schemes of each label, set on its labels[]
 * items and (all labels together) on the run as "_methods". */
static int scan_protocols(study *S, study_run *r, pr_error *err)
{
    pr_run *run;
    int rc = pr_store_load_run(S->st, r->id, &run, err);
    if (rc < 0)
        return rc;
    proto_scan p = {run, NULL, pr_strtab_count(run->strings) + 1, NULL, 0, 0};
    p.slot_of = pr_xcalloc(p.nids, sizeof *p.slot_of);
    rc = pr_store_scan(S->st, r->id, proto_cb, &p, err);
    kinds all_m, all_p;
    memset(&all_m, 0, sizeof all_m);
    memset(&all_p, 0, sizeof all_p);
    for (size_t i = 0; rc == 0 && i < p.nslots; i++) {
        const proto_slot *sl = &p.slots[i];
        const char *name = sl->label ? pr_run_str(run, sl->label) : "(none)";
        size_t k;
        json_t *l;
        json_array_foreach (json_object_get(r->model, "labels"), k, l)
            if (!strcmp(jstr(l, "label"), name))
                set_kinds(l, &sl->methods, &sl->protocols);
        for (size_t j = 0; j < sl->methods.n; j++)
            kinds_add(&all_m, sl->methods.v[j], strlen(sl->methods.v[j]));
        for (size_t j = 0; j < sl->protocols.n; j++)
            kinds_add(&all_p, sl->protocols.v[j], strlen(sl->protocols.v[j]));
        all_m.more |= sl->methods.more;
        all_p.more |= sl->protocols.more;
    }
    json_t *kv = json_object();
    set_kinds(kv, &all_m, &all_p);
    json_object_set_new(r->model, "_methods", kv);
    free(p.slot_of);
    free(p.slots);
    pr_run_free(run);
    return rc;
}

/* ---- interface tables --------------------------------------------------------------------- */

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The latency figures of a table row: human forms ("-" when the run has no such figure) and
 * raw ns (null). */
static void row_latency(json_t *row, json_t *stats)
{
    static const char *const keys[] = {"mean", "min", "max", "p50", "p90", "p95", "p99"};
    json_t *ns = json_object_get(stats, "latency_ns"), *hu = json_object_get(stats, "latency");
    json_t *rns = json_object(), *rhu = json_object();
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        json_t *v = json_object_get(ns, keys[i]);
        const char *h = json_string_value(json_object_get(hu, keys[i]));
        json_object_set_new(rns, keys[i], json_is_integer(v) ? json_copy(v) : json_null());
        json_object_set_new(rhu, keys[i], json_string(json_is_integer(v) && h ? h : "-"));
    }
    json_object_set_new(row, "latency_ns", rns);
    json_object_set_new(row, "latency", rhu);
}

/* One row of an interface table: a run's figures at its level (stats: the run's or a
 * label's). */
static json_t *table_row(const study *S, const study_run *r, json_t *stats, json_t *kinds_of)
{
    json_t *row = json_object(), *c = json_array_get(S->configs, r->config),
           *lv = json_array_get(S->levels, r->level);
    char h[32];
    json_object_set_new(row, "configuration", json_string(jstr(c, "name")));
    json_object_set_new(row, "configuration_values", json_string(jstr(c, "values_text")));
    json_object_set_new(row, "level", json_string(jstr(lv, "key_text")));
    json_object_set(row, "key_values", json_object_get(lv, "key_values"));
    json_object_set_new(row, "run", json_string(jstr(r->model, "name")));
    json_object_set_new(row, "run_id", json_integer(r->id));
    int printed = json_is_true(json_object_get(r->model, "summary_only"));
    json_object_set_new(row, "tool_printed", json_boolean(printed));
    const char *kk[] = {"protocol", "method", "protocol_method"};
    for (size_t i = 0; i < 3; i++) {
        const char *v = json_string_value(json_object_get(kinds_of, kk[i]));
        json_object_set_new(row, kk[i], json_string(v ? v : "-"));
    }
    json_t *req = json_object_get(stats, "requests");
    json_object_set_new(row, "requests", json_is_integer(req) ? json_copy(req) : json_null());
    json_object_set_new(
        row, "requests_text",
        json_string(json_is_integer(req)
                        ? pr_human_count((int64_t)json_integer_value(req), h, sizeof h)
                        : "-"));
    double thr = num(stats, "throughput_per_s");
    json_object_set_new(row, "throughput_per_s", isfinite(thr) ? json_real(thr) : json_null());
    const char *th = json_string_value(json_object_get(stats, "throughput"));
    json_object_set_new(row, "throughput", json_string(isfinite(thr) && th ? th : "-"));
    double er = num(stats, "error_ratio");
    if (!isfinite(er) && isfinite(num(stats, "success_ratio")))
        er = 1 - num(stats, "success_ratio");
    json_object_set_new(row, "error_ratio", isfinite(er) ? json_real(er) : json_null());
    json_object_set_new(row, "error_pct", json_string(pr_human_percent(er, h, sizeof h)));
    row_latency(row, stats);
    return row;
}

static json_t *table_new(const char *label, int all_requests)
{
    json_t *t = json_object();
    json_object_set_new(t, "label", json_string(label));
    json_object_set_new(t, "all_requests", json_boolean(all_requests));
    json_object_set_new(t, "rows", json_array());
    return t;
}

static int row_cmp(const void *x, const void *y)
{
    const study_run *a = *(const study_run *const *)x, *b = *(const study_run *const *)y;
    if (a->level != b->level)
        return a->level < b->level ? -1 : 1;
    if (a->config != b->config)
        return a->config < b->config ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

static json_t *label_named(json_t *model, const char *name)
{
    size_t i;
    json_t *l;
    json_array_foreach (json_object_get(model, "labels"), i, l)
        if (!strcmp(jstr(l, "label"), name))
            return l;
    return NULL;
}

/* The labels of sampled runs by total requests (most first), when some run has several. */
static json_t *busy_labels(study_run **rs, size_t n)
{
    json_t *totals = json_object(), *order = json_array();
    int several = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *labels = json_object_get(rs[i]->model, "labels");
        several |= json_array_size(labels) > 1;
        size_t k;
        json_t *l;
        json_array_foreach (labels, k, l) {
            json_t *t = json_object_get(totals, jstr(l, "label"));
            json_int_t add = json_integer_value(json_object_get(l, "requests"));
            if (!t) {
                json_object_set_new(totals, jstr(l, "label"), json_integer(add));
                json_array_append_new(order, json_string(jstr(l, "label")));
            } else {
                json_integer_set(t, json_integer_value(t) + add);
            }
        }
    }
    size_t cnt = json_array_size(order);
    for (size_t i = 1; several && i < cnt; i++) /* insertion sort, stable, by total desc */
        for (size_t j = i; j > 0; j--) {
            json_t *a = json_array_get(order, j - 1), *b = json_array_get(order, j);
            if (json_integer_value(json_object_get(totals, json_string_value(a))) >=
                json_integer_value(json_object_get(totals, json_string_value(b))))
                break;
            json_incref(a);
            json_array_set(order, j - 1, b);
            json_array_set_new(order, j, a);
        }
    json_decref(totals);
    if (!several)
        json_array_clear(order);
    return order;
}

/* "interfaces": the table of every request (named by the label when all runs have one and
 * the same), then one table per label when some run has several. */
static void interfaces(study *S, json_t *out)
{
    study_run **rs = pr_xcalloc(S->nruns + 1, sizeof *rs);
    size_t ns = 0, nbounded = 0, i;
    for (i = 0; i < S->nruns; i++)
        rs[i] = &S->runs[i];
    qsort(rs, S->nruns, sizeof *rs, row_cmp);
    const char *common = NULL;
    int one = 1;
    for (i = 0; i < S->nruns; i++) {
        json_t *labels = json_object_get(rs[i]->model, "labels");
        const char *l = jstr(json_array_get(labels, 0), "label");
        one &= json_array_size(labels) == 1 && (!common || !strcmp(common, l));
        common = l;
        int printed = json_is_true(json_object_get(rs[i]->model, "summary_only"));
        ns += !printed;
        nbounded +=
            !printed && strcmp(jstr(json_object_get(rs[i]->model, "stats"), "mode"), "exact") != 0;
    }
    json_t *list = json_array();
    json_t *all = table_new(one ? common : pr_study_word(SW_ALL_REQUESTS), !one);
    for (i = 0; i < S->nruns; i++)
        json_array_append_new(json_object_get(all, "rows"),
                              table_row(S, rs[i], json_object_get(rs[i]->model, "stats"),
                                        json_object_get(rs[i]->model, "_methods")));
    json_array_append_new(list, all);
    json_t *labels = busy_labels(rs, S->nruns), *name;
    size_t shown = 0;
    json_array_foreach (labels, i, name) {
        if (shown == STUDY_MAX_INTERFACES)
            break;
        json_t *t = table_new(json_string_value(name), 0);
        for (size_t k = 0; k < S->nruns; k++) {
            json_t *l = label_named(rs[k]->model, json_string_value(name));
            if (l)
                json_array_append_new(json_object_get(t, "rows"), table_row(S, rs[k], l, l));
        }
        json_array_append_new(list, t);
        shown++;
    }
    json_t *t;
    json_array_foreach (list, i, t)
        mark_list(json_object_get(t, "rows"));
    mark_list(list);
    json_object_set_new(out, "interfaces", list);
    json_object_set_new(out, "interfaces_omitted",
                        json_integer((json_int_t)(json_array_size(labels) - shown)));
    int shared = 0; /* two runs of one configuration at one level: the tables name the runs */
    for (i = 0; i < S->nruns; i++)
        for (size_t k = i + 1; k < S->nruns; k++)
            shared |=
                S->runs[i].config == S->runs[k].config && S->runs[i].level == S->runs[k].level;
    json_object_set_new(out, "runs_share_levels", json_boolean(shared));
    json_object_set_new(out, "has_samples", json_boolean(ns > 0));
    json_object_set_new(out, "has_tool_printed", json_boolean(ns < S->nruns));
    /* the note under the tables: percentiles are exact only where they were computed from
     * every sample; a summary-only run's are its tool's, a bounded run's within 0.1% */
    json_object_set_new(out, "percentiles_exact", json_boolean(ns > 0 && nbounded == 0));
    json_object_set_new(out, "percentiles_bounded", json_boolean(nbounded > 0));
    json_decref(labels);
    free(rs);
}

/* ---- recommendations ---------------------------------------------------------------------- */

static int sev_rank(const char *s)
{
    return !strcmp(s, "critical") ? 2 : !strcmp(s, "warning") ? 1 : 0;
}

/* One finding of a run joins the recommendation of its rule (appended when new). */
static void recommend_add(json_t *list, json_t *f, const study_run *r)
{
    size_t i;
    json_t *g = NULL, *e;
    json_array_foreach (list, i, e)
        if (!strcmp(jstr(e, "id"), jstr(f, "id")))
            g = e;
    if (!g) {
        g = json_object();
        const char *copy[] = {"id", "severity", "title", "explanation", "recommendation"};
        for (size_t k = 0; k < sizeof copy / sizeof copy[0]; k++)
            json_object_set_new(g, copy[k], json_string(jstr(f, copy[k])));
        json_object_set_new(g, "runs", json_array());
        json_array_append_new(list, g);
    }
    if (sev_rank(jstr(f, "severity")) > sev_rank(jstr(g, "severity")))
        json_object_set_new(g, "severity", json_string(jstr(f, "severity")));
    json_t *o = run_ref(r);
    json_object_set_new(o, "title", json_string(jstr(f, "title")));
    json_object_set_new(o, "explanation", json_string(jstr(f, "explanation")));
    json_t *label = json_object_get(f, "label");
    if (json_is_string(label))
        json_object_set(o, "label", label);
    json_array_append_new(json_object_get(g, "runs"), o);
}

static int rec_cmp(const void *x, const void *y)
{
    json_t *a = *(json_t *const *)x, *b = *(json_t *const *)y;
    int d = sev_rank(jstr(b, "severity")) - sev_rank(jstr(a, "severity"));
    if (d)
        return d;
    size_t na = json_array_size(json_object_get(a, "runs")),
           nb = json_array_size(json_object_get(b, "runs"));
    if (na != nb)
        return na > nb ? -1 : 1;
    return (int)(json_integer_value(json_object_get(a, "_order")) -
                 json_integer_value(json_object_get(b, "_order")));
}

/* "recommendations": the findings of every run, one per rule (naming the runs it was seen
 * in), most severe first, then the most widespread. */
static void recommendations(study *S, json_t *out)
{
    json_t *list = json_array();
    for (size_t i = 0; i < S->nruns; i++) {
        size_t k;
        json_t *f;
        json_array_foreach (json_object_get(S->runs[i].model, "findings"), k, f)
            recommend_add(list, f, &S->runs[i]);
    }
    size_t n = json_array_size(list), i;
    json_t **v = pr_xcalloc(n + 1, sizeof *v), *g;
    json_array_foreach (list, i, g) {
        json_object_set_new(g, "_order", json_integer((json_int_t)i));
        v[i] = json_incref(g);
    }
    qsort(v, n, sizeof *v, rec_cmp);
    json_array_clear(list);
    for (i = 0; i < n; i++) {
        g = v[i];
        json_object_del(g, "_order");
        const char *sev = jstr(g, "severity");
        json_object_set_new(g, "is_critical", json_boolean(!strcmp(sev, "critical")));
        json_object_set_new(g, "is_warning", json_boolean(!strcmp(sev, "warning")));
        json_object_set_new(g, "is_info", json_boolean(!strcmp(sev, "info")));
        json_t *runs = json_object_get(g, "runs"), *r;
        pr_buf b = PR_BUF_INIT;
        size_t k;
        json_array_foreach (runs, k, r)
            pr_buf_printf(&b, "%s%s", k ? ", " : "", jstr(r, "name"));
        json_object_set_new(g, "runs_text", json_string(b.p ? b.p : ""));
        json_object_set_new(g, "n_runs", json_integer((json_int_t)json_array_size(runs)));
        pr_buf_dispose(&b);
        mark_list(runs);
        json_array_append_new(list, g);
    }
    free(v);
    mark_list(list);
    json_object_set_new(out, "recommendations", list);
    json_object_set_new(out, "has_recommendations", json_boolean(n > 0));
}

/* ---- the document ------------------------------------------------------------------------- */

static json_t *keys_json(char *const *keys, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_string(keys[i]));
    return a;
}

/* "runs": who is who (the report model of each run is `summary --json`). */
static json_t *runs_json(const study *S)
{
    json_t *list = json_array();
    for (size_t i = 0; i < S->nruns; i++) {
        const study_run *r = &S->runs[i];
        json_t *o = run_ref(r);
        const char *copy[] = {"tool", "format",   "summary_only", "load_model",
                              "tags", "tag_list", "meta"};
        for (size_t k = 0; k < sizeof copy / sizeof copy[0]; k++)
            json_object_set(o, copy[k], json_object_get(r->model, copy[k]));
        json_object_set_new(o, "configuration",
                            json_string(jstr(json_array_get(S->configs, r->config), "name")));
        json_object_set_new(o, "level",
                            json_string(jstr(json_array_get(S->levels, r->level), "key_text")));
        json_object_set(o, "findings", json_object_get(r->model, "findings"));
        json_array_append_new(list, o);
    }
    mark_list(list);
    return list;
}

static json_t *document(study *S)
{
    json_t *out = json_object();
    json_object_set_new(out, "schema", json_string("perfreport-study"));
    json_object_set_new(out, "schema_version", json_integer(PR_STUDY_SCHEMA_VERSION));
    json_object_set(out, "generated", json_object_get(S->doc, "generated"));
    json_object_set_new(out, "by", keys_json(S->o->by, S->o->nby));
    json_object_set_new(out, "level_keys", keys_json(S->o->levels, S->o->nlevels));
    json_object_set(out, "configurations", S->configs);
    json_object_set_new(out, "n_configurations",
                        json_integer((json_int_t)json_array_size(S->configs)));
    json_object_set_new(out, "several_configurations",
                        json_boolean(json_array_size(S->configs) > 1));
    json_object_set(out, "levels", S->levels);
    json_object_set_new(out, "n_levels", json_integer((json_int_t)json_array_size(S->levels)));
    json_object_set_new(out, "runs", runs_json(S));
    json_object_set_new(out, "n_runs", json_integer((json_int_t)S->nruns));
    return out;
}

int pr_study_build(pr_store *st, const int64_t *ids, size_t n, const pr_study_opts *o, json_t **out,
                   pr_error *err)
{
    *out = NULL;
    if (!o->nlevels)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            _("a study needs the tags of its load levels (--pair "
                              "tag:KEY[,KEY…], e.g. --pair tag:rate)"));
    study S;
    memset(&S, 0, sizeof S);
    S.o = o;
    S.st = st;
    S.configs = json_array();
    S.levels = json_array();
    int rc = pr_report_build(st, ids, n, 0, &o->report, &S.doc, err);
    if (rc == 0) {
        S.runs = pr_xcalloc(json_array_size(json_object_get(S.doc, "runs")) + 1, sizeof *S.runs);
        rc = group_runs(&S, err);
    }
    for (size_t i = 0; rc == 0 && i < S.nruns; i++)
        if (!json_is_true(json_object_get(S.runs[i].model, "summary_only")))
            rc = scan_protocols(&S, &S.runs[i], err);
    json_t *doc = NULL;
    if (rc == 0) {
        doc = document(&S);
        interfaces(&S, doc);
        rc = pr_study_compare(&S, doc, err);
    }
    if (rc == 0) {
        pr_study_capacity(&S, doc);
        recommendations(&S, doc);
        *out = doc;
    } else {
        json_decref(doc);
    }
    json_decref(S.doc);
    json_decref(S.configs);
    json_decref(S.levels);
    free(S.runs);
    return rc;
}

/* ---- metadata tables ---------------------------------------------------------------------- */

static json_t *cell(json_t *v)
{
    if (json_is_string(v))
        return json_copy(v);
    if (!v || json_is_null(v))
        return json_string("-");
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    json_t *c = json_string(s ? s : "");
    free(s);
    return c;
}

/* Adds a column name (once) and returns its index. */
static size_t column(json_t *cols, const char *name)
{
    size_t i;
    json_t *c;
    json_array_foreach (cols, i, c)
        if (!strcmp(json_string_value(c), name))
            return i;
    json_array_append_new(cols, json_string(name));
    return json_array_size(cols) - 1;
}

/* A row of cells in column order from an object (missing cells "-"). */
static json_t *object_row(json_t *cols, json_t *first, json_t *obj)
{
    json_t *cells = json_array();
    size_t n = json_array_size(cols), i;
    for (i = 0; i < n; i++)
        json_array_append_new(
            cells, i == 0 && first
                       ? json_incref(first)
                       : cell(json_object_get(obj, json_string_value(json_array_get(cols, i)))));
    json_t *row = json_object();
    json_object_set_new(row, "cells", cells);
    return row;
}

/* The table of one metadata member, or NULL when it is not table-shaped. */
static json_t *meta_table(const char *name, json_t *v)
{
    json_t *cols = json_array(), *rows = json_array(), *e;
    const char *k;
    size_t i;
    int objs = json_is_object(v) && json_object_size(v) > 0, arr_obj = json_is_array(v),
        arr_arr = json_is_array(v);
    json_object_foreach (v, k, e)
        objs &= json_is_object(e);
    json_array_foreach (v, i, e) {
        arr_obj &= json_is_object(e);
        arr_arr &= json_is_array(e);
    }
    if (json_is_object(v) && objs) { /* rows = members, columns = "" + inner keys */
        column(cols, "");
        json_object_foreach (v, k, e) {
            const char *k2;
            json_t *x;
            json_object_foreach (e, k2, x)
                column(cols, k2);
        }
        json_object_foreach (v, k, e) {
            json_t *first = json_string(k);
            json_array_append_new(rows, object_row(cols, first, e));
            json_decref(first);
        }
    } else if (json_is_object(v)) { /* key → value: the template names the two columns */
        json_object_foreach (v, k, e) {
            json_t *row = json_object(), *cells = json_array();
            json_array_append_new(cells, json_string(k));
            json_array_append_new(cells, cell(e));
            json_object_set_new(row, "cells", cells);
            json_array_append_new(rows, row);
        }
    } else if (arr_obj && json_array_size(v)) {
        json_array_foreach (v, i, e) {
            const char *k2;
            json_t *x;
            json_object_foreach (e, k2, x)
                column(cols, k2);
        }
        json_array_foreach (v, i, e)
            json_array_append_new(rows, object_row(cols, NULL, e));
    } else if (arr_arr && json_array_size(v)) {
        json_array_foreach (json_array_get(v, 0), i, e)
            json_array_append_new(cols, cell(e));
        json_array_foreach (v, i, e) {
            if (i == 0)
                continue;
            json_t *row = json_object(), *cells = json_array(), *x;
            size_t j;
            json_array_foreach (e, j, x)
                json_array_append_new(cells, cell(x));
            json_object_set_new(row, "cells", cells);
            json_array_append_new(rows, row);
        }
    } else {
        json_decref(cols);
        json_decref(rows);
        return NULL;
    }
    json_t *t = json_object(), *hdr = json_array(), *c;
    json_array_foreach (cols, i, c) {
        json_t *h = json_object();
        json_object_set(h, "name", c);
        json_array_append_new(hdr, h);
    }
    mark_list(hdr);
    mark_list(rows);
    json_object_set_new(t, "name", json_string(name));
    json_object_set_new(t, "columns", hdr);
    json_object_set_new(t, "key_value", json_boolean(json_array_size(hdr) == 0));
    json_object_set_new(t, "rows", rows);
    json_decref(cols);
    return t;
}

/* A text section: a string, or an array of scalars joined by ", ". NULL otherwise. */
static json_t *meta_text(const char *name, json_t *v)
{
    pr_buf b = PR_BUF_INIT;
    size_t i;
    json_t *e;
    if (json_is_string(v))
        pr_buf_puts(&b, json_string_value(v));
    else if (json_is_array(v) && json_array_size(v))
        json_array_foreach (v, i, e) {
            if (json_is_object(e) || json_is_array(e)) {
                pr_buf_dispose(&b);
                return NULL;
            }
            json_t *c = cell(e);
            pr_buf_printf(&b, "%s%s", i ? ", " : "", json_string_value(c));
            json_decref(c);
        }
    else
        return NULL;
    json_t *t = json_object();
    json_object_set_new(t, "name", json_string(name));
    json_object_set_new(t, "is_text", json_true());
    json_object_set_new(t, "text", json_string(b.p ? b.p : ""));
    pr_buf_dispose(&b);
    return t;
}

/* The name a section is shown under: the usual English members (versions, hardware, topology,
 * tuning, memory) in the reader's language, as the member itself in English; any other
 * member's own name. */
static const char *section_name(const char *key)
{
    static const char *const known[] = {
        NC_("meta section", "versions"), NC_("meta section", "hardware"),
        NC_("meta section", "topology"), NC_("meta section", "tuning"),
        NC_("meta section", "memory")};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(strchr(known[i], '\004') + 1, key))
            return pr_l10n_pgettext(known[i]);
    return key;
}

void pr_study_meta_sections(json_t *meta)
{
    /* the members the report's heading table shows, and the ones perfreport reads */
    static const char *const skip[] = {"title", "purpose",    "system",   "author",
                                       "date",  "thresholds", "sections", "has_environment"};
    json_t *sections = json_array(), *v;
    const char *k;
    json_object_foreach (meta, k, v) {
        size_t n = strlen(k), s = 0;
        while (s < sizeof skip / sizeof skip[0] && strcmp(skip[s], k))
            s++;
        if (s < sizeof skip / sizeof skip[0] || (n > 5 && !strcmp(k + n - 5, "_list")))
            continue;
        json_t *t = meta_table(section_name(k), v);
        if (t)
            json_object_set_new(t, "is_table", json_true());
        else
            t = meta_text(section_name(k), v);
        if (t)
            json_array_append_new(sections, t);
    }
    mark_list(sections);
    json_object_set_new(meta, "has_sections", json_boolean(json_array_size(sections) > 0));
    json_object_set_new(meta, "sections", sections);
}
