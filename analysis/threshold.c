/* Thresholds (parse, evaluate) and the verdict a report opens with. */
#include "analysis/threshold.h"
#include "analysis/human.h"
#include "model/l10n.h"
#include "model/lex.h"
#include "model/xalloc.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The unit a metric is measured in, or -1 for an unknown metric. */
static int metric_unit(const char *m)
{
    if ((m[0] == 'p' && m[1] >= '0' && m[1] <= '9') || !strcmp(m, "mean") || !strcmp(m, "min") ||
        !strcmp(m, "max") || !strcmp(m, "stdev"))
        return PR_TU_NS;
    if (!strcmp(m, "error_ratio") || !strcmp(m, "success_ratio") || !strcmp(m, "apdex"))
        return PR_TU_RATIO;
    if (!strcmp(m, "throughput") || !strcmp(m, "rate"))
        return PR_TU_PER_S;
    if (!strcmp(m, "requests") || !strcmp(m, "errors"))
        return PR_TU_COUNT;
    return -1;
}

int pr_threshold_parse(pr_threshold *t, const char *arg, int is_max, pr_error *err)
{
    memset(t, 0, sizeof *t);
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof t->metric)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            _("threshold '%s': expected METRIC=VALUE (e.g. p99=250ms, "
                              "error_ratio=1%%)"),
                            arg);
    memcpy(t->metric, arg, (size_t)(eq - arg));
    for (char *c = t->metric; *c; c++)
        if (*c == '.')
            *c = '_';
    int u = metric_unit(t->metric);
    if (u < 0)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            _("threshold '%s': unknown metric '%s' (pNN, mean, min, max, stdev, "
                              "error_ratio, success_ratio, apdex, throughput, rate, requests, "
                              "errors)"),
                            arg, t->metric);
    t->unit = (pr_threshold_unit)u;
    t->is_max = is_max;
    snprintf(t->text, sizeof t->text, "%s %s %s", t->metric, is_max ? "<=" : ">=", eq + 1);
    const char *v = eq + 1;
    size_t n = strlen(v);
    int ok = 0;
    if (u == PR_TU_NS) {
        int64_t ns;
        ok = pr_lex_duration(v, n, 1000000, &ns) == 0; /* bare numbers are ms */
        t->limit = (double)ns;
    } else if (u == PR_TU_RATIO) {
        if (n && v[n - 1] == '%') {
            ok = pr_lex_double(v, n - 1, &t->limit) == 0;
            t->limit /= 100;
        } else {
            ok = pr_lex_double(v, n, &t->limit) == 0;
        }
    } else if (u == PR_TU_PER_S) {
        size_t k = n >= 2 && !strcmp(v + n - 2, "/s") ? n - 2 : n;
        ok = pr_lex_double(v, k, &t->limit) == 0;
    } else {
        ok = pr_lex_double(v, n, &t->limit) == 0;
    }
    if (!ok)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            _("threshold '%s': cannot read the value '%s'"), arg, v);
    return 0;
}

int pr_threshold_read_file(const char *path, pr_threshold **ts, size_t *n, size_t *cap,
                           pr_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return pr_error_set(err, PR_EIO, path, 0, 0, _("cannot read: %s"), strerror(errno));
    char line[512];
    long no = 0;
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        no++;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        p[strcspn(p, "\r\n#")] = 0;
        if (!*p)
            continue;
        char kind[8], spec[400];
        if (sscanf(p, "%7s %399s", kind, spec) != 2 ||
            (strcmp(kind, "max") && strcmp(kind, "min"))) {
            rc = pr_error_set(err, PR_EPARSE, path, no, (long)(p - line) + 1,
                              _("expected 'max METRIC=VALUE' or 'min METRIC=VALUE'"));
            break;
        }
        *ts = pr_xgrow(*ts, cap, *n + 1, sizeof **ts);
        pr_error e2;
        if (pr_threshold_parse(&(*ts)[*n], spec, !strcmp(kind, "max"), &e2) < 0) {
            rc = pr_error_set(err, PR_EPARSE, path, no, (long)(strstr(p, spec) - line) + 1, "%s",
                              e2.msg);
            break;
        }
        (*n)++;
    }
    fclose(f);
    return rc;
}

double pr_threshold_value(json_t *stats, const char *m)
{
    json_t *v = NULL;
    int u = metric_unit(m);
    if (u == PR_TU_NS)
        v = json_object_get(json_object_get(stats, "latency_ns"), m);
    else if (!strcmp(m, "throughput") || !strcmp(m, "rate"))
        v = json_object_get(stats, !strcmp(m, "rate") ? "rate_per_s" : "throughput_per_s");
    else if (!strcmp(m, "apdex"))
        v = json_object_get(json_object_get(stats, "apdex"), "score");
    else
        v = json_object_get(stats, m);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

int pr_threshold_passes(const pr_threshold *t, double value)
{
    return !isnan(value) && (t->is_max ? value <= t->limit : value >= t->limit);
}

char *pr_threshold_human(const pr_threshold *t, double v, int64_t res_ns, char *buf, size_t size)
{
    if (isnan(v))
        snprintf(buf, size, "%s", _("n/a"));
    else if (t->unit == PR_TU_NS)
        pr_human_duration_res((int64_t)llround(v), res_ns, buf, size);
    else if (t->unit == PR_TU_RATIO)
        pr_human_percent(v, buf, size);
    else if (t->unit == PR_TU_PER_S)
        pr_human_rate(v, buf, size);
    else
        snprintf(buf, size, "%.0f", v);
    return buf;
}

double pr_threshold_percentile(const pr_threshold *t)
{
    if (t->metric[0] != 'p' || t->metric[1] < '0' || t->metric[1] > '9')
        return -1;
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%s", t->metric + 1);
    for (char *q = tmp; *q; q++)
        if (*q == '_')
            *q = '.';
    double p = atof(tmp);
    return p > 0 && p <= 100 ? p : -1;
}

void pr_threshold_add_percentiles(pr_report_opts *o, const pr_threshold *ts, size_t n)
{
    for (size_t i = 0; i < n && o->npercentiles < PR_MAX_PERCENTILES; i++) {
        double p = pr_threshold_percentile(&ts[i]);
        int have = 0;
        for (size_t k = 0; k < o->npercentiles; k++)
            have |= o->percentiles[k] == p;
        if (!have && p > 0)
            o->percentiles[o->npercentiles++] = p;
    }
}

/* ---- the verdict ---------------------------------------------------------------------- */

/* Findings that answer "what was the limit", in the findings' order (most severe first). */
static const char *const limit_rules[] = {
    "saturation", "generator_bottleneck", "client_timeouts", "errors_refused", "errors_reset",
    "errors_429", "errors_5xx",           "error_onset",     "degradation",
};

static int is_limit_rule(const char *id)
{
    for (size_t i = 0; id && i < sizeof limit_rules / sizeof limit_rules[0]; i++)
        if (!strcmp(limit_rules[i], id))
            return 1;
    return 0;
}

static json_t *finding_ref(json_t *f)
{
    json_t *r = json_object();
    static const char *const keys[] = {"id",   "severity", "severity_text", "title",
                                       "t_ns", "index",    "label",         "anchor"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        json_t *v = json_object_get(f, keys[i]);
        if (v)
            json_object_set(r, keys[i], v);
    }
    return r;
}

static void mark_list(json_t *arr)
{
    size_t n = json_array_size(arr);
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(arr, i);
        json_object_set_new(e, "first", json_boolean(i == 0));
        json_object_set_new(e, "last", json_boolean(i + 1 == n));
    }
}

/* One threshold on one stats object, appended to list (and to fails when it failed). */
static int check_one(const pr_threshold *t, json_t *stats, const char *label, json_t *list,
                     json_t *fails)
{
    double v = pr_threshold_value(stats, t->metric);
    int pass = pr_threshold_passes(t, v);
    char h[32];
    json_t *e = json_object();
    json_object_set_new(e, "text", json_string(t->text));
    json_object_set_new(e, "metric", json_string(t->metric));
    json_object_set_new(e, "label", label ? json_string(label) : json_null());
    json_object_set_new(
        e, "value",
        json_string(pr_threshold_human(t, v, pr_report_latency_res(stats), h, sizeof h)));
    json_object_set_new(e, "value_raw", isnan(v) ? json_null() : json_real(v));
    json_object_set_new(e, "pass", json_boolean(pass));
    if (!pass)
        json_array_append(fails, e);
    json_array_append_new(list, e);
    return pass;
}

static void run_verdict(json_t *run, const pr_threshold *ts, size_t n, int by_label,
                        size_t *checked, size_t *failed)
{
    json_t *v = json_object(), *list = json_array(), *fails = json_array();
    size_t f0 = *failed;
    for (size_t t = 0; t < n; t++) { /* the run's totals, then each label */
        *failed += !check_one(&ts[t], json_object_get(run, "stats"), NULL, list, fails);
        (*checked)++;
    }
    size_t k;
    json_t *l;
    json_array_foreach (by_label ? json_object_get(run, "labels") : NULL, k, l) {
        for (size_t t = 0; t < n; t++) {
            *failed +=
                !check_one(&ts[t], l, json_string_value(json_object_get(l, "label")), list, fails);
            (*checked)++;
        }
    }
    mark_list(list);
    mark_list(fails);
    json_object_set_new(v, "pass", n ? json_boolean(*failed == f0) : json_null());
    json_object_set_new(v, "failed", json_integer((json_int_t)(*failed - f0)));
    json_object_set_new(v, "thresholds", list);
    json_object_set_new(v, "failures", fails);
    json_t *crit = json_array(), *limit = NULL;
    size_t i;
    json_t *f;
    json_array_foreach (json_object_get(run, "findings"), i, f) {
        char anchor[64]; /* the finding's place in a page: #finding-RUN-INDEX */
        snprintf(anchor, sizeof anchor, "finding-%lld-%zu",
                 (long long)json_integer_value(json_object_get(run, "id")), i + 1);
        json_object_set_new(f, "anchor", json_string(anchor));
        json_t *t = json_object_get(f, "t_ns"); /* its moment, for pages without charts */
        if (json_is_integer(t)) {
            char at[PR_HUMAN_SIZE];
            json_object_set_new(
                f, "at", json_string(pr_human_duration(json_integer_value(t), at, sizeof at)));
        }
        const char *sev = json_string_value(json_object_get(f, "severity"));
        if (sev && !strcmp(sev, "critical"))
            json_array_append_new(crit, finding_ref(f));
        if (!limit && is_limit_rule(json_string_value(json_object_get(f, "id"))))
            limit = finding_ref(f);
    }
    mark_list(crit);
    json_object_set_new(v, "critical", crit);
    json_object_set_new(v, "limit", limit ? limit : json_null());
    json_object_set_new(run, "verdict", v);
}

void pr_threshold_verdict(json_t *doc, const pr_threshold *ts, size_t n, int by_label)
{
    size_t checked = 0, failed = 0, i;
    json_t *run;
    json_array_foreach (json_object_get(doc, "runs"), i, run) {
        run_verdict(run, ts, n, by_label, &checked, &failed);
    }
    json_t *v = json_object();
    json_object_set_new(v, "pass", n ? json_boolean(failed == 0) : json_null());
    json_object_set_new(v, "checked", json_integer((json_int_t)checked));
    json_object_set_new(v, "failed", json_integer((json_int_t)failed));
    json_object_set_new(v, "met", json_integer((json_int_t)(checked - failed)));
    json_object_set_new(doc, "verdict", v);
}
