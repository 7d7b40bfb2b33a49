/* `export --format influx|prometheus`: a stored run as InfluxDB line protocol in JMeter's
 * InfluxDB backend listener schema, or its summary as OpenMetrics text for a Pushgateway. */
#include "cli/export_metrics.h"
#include "analysis/report.h"
#include "analysis/vec.h"
#include "model/text.h"
#include "model/xalloc.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void pr_influx_opts_init(pr_influx_opts *o)
{
    memset(o, 0, sizeof *o);
    o->measurement = "jmeter";
    o->interval_ns = 5000000000LL;
    const double d[] = {90, 95, 99};
    memcpy(o->pcts, d, sizeof d);
    o->npcts = 3;
}

int pr_influx_parse_pcts(pr_influx_opts *o, const char *list)
{
    o->npcts = 0;
    for (const char *p = list; *p;) {
        char *end;
        double v = strtod(p, &end);
        if (end == p || !(v > 0 && v <= 100) || o->npcts == PR_INFLUX_MAX_PCTS)
            return -1;
        o->pcts[o->npcts++] = v;
        p = end;
        if (*p == ',' || *p == ';')
            p++;
        else if (*p)
            return -1;
    }
    return o->npcts ? 0 : -1;
}

/* ---- line protocol ---- */

/* One sample reduced to what the listener's points need. */
typedef struct irec {
    int64_t window;
    uint32_t label, error;
    int64_t latency_ns, bytes_in, bytes_out;
    int32_t threads, status;
    int8_t outcome;         /* 1 ok, 0 ko, -1 unknown (counted in "all" only) */
    int8_t hit;             /* not a transaction controller's sample (the listener's hits) */
    int8_t has_in, has_out; /* bytes known */
} irec;

typedef struct influx {
    const pr_influx_opts *o;
    pr_run *run;
    int64_t t0;
    irec *v;
    size_t n, cap;
    int64_t unplaced; /* samples without a start time */
} influx;

static int collect(const pr_sample *s, size_t n, void *payload)
{
    influx *x = payload;
    for (size_t i = 0; i < n; i++) {
        const pr_sample *p = &s[i];
        if (p->start_ns == PR_UNKNOWN) {
            x->unplaced++;
            continue;
        }
        /* the listener counts a sample when it completes */
        int64_t end = p->start_ns + (p->latency_ns != PR_UNKNOWN ? p->latency_ns : 0);
        x->v = pr_xgrow(x->v, &x->cap, x->n + 1, sizeof *x->v);
        irec *r = &x->v[x->n++];
        r->window = end > x->t0 ? (end - x->t0) / x->o->interval_ns : 0;
        r->label = p->label;
        r->error = p->error;
        r->latency_ns = p->latency_ns;
        r->has_in = p->bytes_in != PR_UNKNOWN;
        r->has_out = p->bytes_out != PR_UNKNOWN;
        r->bytes_in = r->has_in ? p->bytes_in : 0;
        r->bytes_out = r->has_out ? p->bytes_out : 0;
        r->threads = p->threads;
        r->status = (int32_t)p->status;
        r->outcome = (int8_t)pr_sample_outcome(p);
        r->hit = !(p->flags & 2);
    }
    return 0;
}

static int by_window_label(const void *a, const void *b)
{
    const irec *x = a, *y = b;
    if (x->window != y->window)
        return x->window < y->window ? -1 : 1;
    if (x->label != y->label)
        return x->label < y->label ? -1 : 1;
    if (x->status != y->status)
        return x->status < y->status ? -1 : 1;
    return x->error < y->error ? -1 : x->error > y->error;
}

/* A tag key or value as the listener writes it (AbstractInfluxdbMetricsSender.tagToStringValue):
 * trimmed, with space, comma and equals sign escaped and newlines as "\n"; its control
 * characters made visible first (model/text.h), as in every other output. */
static void tag_text(pr_buf *b, const char *raw)
{
    char *vis = pr_text_visible_dup(raw, PR_TEXT_LINES);
    const char *s = vis;
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (!n)
        pr_buf_puts(b, "none");
    for (size_t i = 0; i < n; i++) {
        if (s[i] == ' ' || s[i] == ',' || s[i] == '=')
            pr_buf_putc(b, '\\');
        if (s[i] == '\n')
            pr_buf_puts(b, "\\n");
        else
            pr_buf_putc(b, s[i]);
    }
    free(vis);
}

/* Tags every point carries: application, then the run's tags (the listener's TAG_ args). */
static void point_head(pr_buf *b, const influx *x, const char *measurement)
{
    tag_text(b, measurement);
    pr_buf_puts(b, ",application=");
    tag_text(b, x->o->application);
}

static void user_tags(pr_buf *b, const influx *x)
{
    static const char *const reserved[] = {
        "application",     "transaction", "statut", "responseCode",
        "responseMessage", "title",       "tags",   NULL};
    for (size_t i = 0; i < x->run->ntags; i++) {
        int skip = 0;
        for (int k = 0; reserved[k]; k++)
            skip |= !strcmp(reserved[k], x->run->tags[i].key);
        if (skip || !*x->run->tags[i].value)
            continue;
        pr_buf_putc(b, ',');
        tag_text(b, x->run->tags[i].key);
        pr_buf_putc(b, '=');
        tag_text(b, x->run->tags[i].value);
    }
}

static void ms(pr_buf *b, const char *key, double ns)
{
    pr_buf_printf(b, ",%s=%.6f", key, ns / 1e6);
}

/* "pct90.0": the listener names a percentile field after Java's Float.toString. */
static void pct_key(pr_buf *b, double p)
{
    char k[32];
    snprintf(k, sizeof k, "%.10g", p);
    pr_buf_printf(b, ",pct%s%s=", k, strchr(k, '.') ? "" : ".0");
}

/* Latency figures of a set: avg, min, max (sorts v). */
static void timing(pr_buf *b, pr_vec *v)
{
    if (!v->n)
        return;
    pr_sort_i64(v->v, v->n);
    double sum = 0;
    for (size_t i = 0; i < v->n; i++)
        sum += (double)v->v[i];
    ms(b, "avg", sum / (double)v->n);
    ms(b, "min", (double)v->v[0]);
    ms(b, "max", (double)v->v[v->n - 1]);
}

static void pct_fields(pr_buf *b, pr_vec *v, const pr_influx_opts *o)
{
    for (int i = 0; i < o->npcts && v->n; i++) {
        pct_key(b, o->pcts[i]);
        pr_buf_printf(b, "%.6f", (double)pr_percentile_sorted(v->v, v->n, o->pcts[i]) / 1e6);
    }
}

typedef struct group {
    int64_t count[3]; /* ko, ok, all */
    int64_t hits, sb, rb;
    int known_sb, known_rb; /* some sample knew its bytes: else sb/rb are not written */
    pr_vec lat[3];
} group;

static void group_reset(group *g)
{
    for (int i = 0; i < 3; i++) {
        g->count[i] = 0;
        g->lat[i].n = 0;
    }
    g->hits = g->sb = g->rb = 0;
    g->known_sb = g->known_rb = 0;
}

static void group_add(group *g, const irec *r)
{
    int slots[2] = {2, r->outcome >= 0 ? r->outcome : -1};
    for (int k = 0; k < 2; k++) {
        if (slots[k] < 0)
            continue;
        g->count[slots[k]]++;
        if (r->latency_ns != PR_UNKNOWN)
            pr_vec_push(&g->lat[slots[k]], r->latency_ns);
    }
    if (r->hit) {
        g->hits++;
        g->sb += r->bytes_out;
        g->rb += r->bytes_in;
        g->known_sb |= r->has_out;
        g->known_rb |= r->has_in;
    }
}

/* hit, sb, rb: bytes only when the source recorded them (unknown is not 0). */
static void hits_bytes(pr_buf *b, const group *g)
{
    pr_buf_printf(b, ",hit=%lld", (long long)g->hits);
    if (g->known_sb)
        pr_buf_printf(b, ",sb=%lld", (long long)g->sb);
    if (g->known_rb)
        pr_buf_printf(b, ",rb=%lld", (long long)g->rb);
}

/* The listener's three points of one transaction: statut=all, ok, ko. */
static void transaction_points(pr_buf *b, const influx *x, const char *label, group *g, int64_t ts)
{
    static const char *const statut[] = {"ko", "ok", "all"};
    const int order[] = {2, 1, 0};
    for (int k = 0; k < 3; k++) {
        int s = order[k];
        if (g->count[s] <= 0)
            continue;
        point_head(b, x, x->o->measurement);
        pr_buf_puts(b, ",transaction=");
        tag_text(b, label);
        pr_buf_printf(b, ",statut=%s", statut[s]);
        user_tags(b, x);
        pr_buf_printf(b, " count=%lld", (long long)g->count[s]);
        timing(b, &g->lat[s]);
        hits_bytes(b, g);
        pct_fields(b, &g->lat[s], x->o);
        pr_buf_printf(b, " %lld\n", (long long)ts);
    }
}

/* Error points of a transaction: per response code and message, failures only. */
static void error_points(pr_buf *b, const influx *x, const char *label, const irec *r, size_t n,
                         int64_t ts)
{
    for (size_t i = 0; i < n;) {
        size_t j = i;
        int64_t count = 0;
        for (; j < n && r[j].status == r[i].status && r[j].error == r[i].error; j++)
            count += r[j].outcome == 0;
        if (count > 0) {
            const char *msg = pr_run_str(x->run, r[i].error);
            char code[16];
            snprintf(code, sizeof code, "%d", r[i].status);
            point_head(b, x, x->o->measurement);
            pr_buf_puts(b, ",transaction=");
            tag_text(b, label);
            pr_buf_printf(b, ",responseCode=%s,responseMessage=", code);
            tag_text(b, *msg ? msg : "None");
            user_tags(b, x);
            pr_buf_printf(b, " count=%lld %lld\n", (long long)count, (long long)ts);
        }
        i = j;
    }
}

/* The window's cumulated point (transaction=all) and its threads point (internal). */
static void window_points(pr_buf *b, const influx *x, group *all, const irec *r, size_t n,
                          int64_t ts)
{
    point_head(b, x, x->o->measurement);
    pr_buf_puts(b, ",transaction=all,statut=all");
    user_tags(b, x);
    pr_buf_printf(b, " count=%lld,countError=%lld", (long long)all->count[2],
                  (long long)all->count[0]);
    timing(b, &all->lat[1]); /* the listener's cumulated avg/min/max: OK samples */
    hits_bytes(b, all);
    pr_sort_i64(all->lat[2].v, all->lat[2].n);
    pct_fields(b, &all->lat[2], x->o);
    pr_buf_printf(b, " %lld\n", (long long)ts);
    int64_t lo = INT64_MAX, hi = -1, sum = 0, known = 0;
    for (size_t i = 0; i < n; i++) {
        if (r[i].threads < 0)
            continue;
        lo = r[i].threads < lo ? r[i].threads : lo;
        hi = r[i].threads > hi ? r[i].threads : hi;
        sum += r[i].threads;
        known++;
    }
    if (!known) /* active threads unknown: no "internal" point rather than invented zeros */
        return;
    point_head(b, x, x->o->measurement);
    pr_buf_puts(b, ",transaction=internal");
    user_tags(b, x);
    pr_buf_printf(b, " minAT=%lld,maxAT=%lld,meanAT=%lld %lld\n", (long long)lo, (long long)hi,
                  (long long)(sum / known), (long long)ts);
}

static void annotation(pr_buf *b, const influx *x, const char *what, int64_t ts_ns)
{
    point_head(b, x, "events");
    pr_buf_puts(b, ",title=perfreport");
    user_tags(b, x);
    pr_buf_puts(b, " text=\"");
    for (const char *s = x->run->name ? x->run->name : "run"; *s; s++) {
        if (*s == '"' || *s == '\\')
            pr_buf_putc(b, '\\');
        pr_buf_putc(b, *s);
    }
    pr_buf_printf(b, " %s\" %lld\n", what, (long long)ts_ns);
}

/* The points of one window (records r[0..n) sorted by label, status, error). */
static void window(pr_buf *b, const influx *x, const irec *r, size_t n, group *g, group *all)
{
    int64_t end_ms = (x->t0 + (r[0].window + 1) * x->o->interval_ns) / 1000000;
    int64_t ts = end_ms * 1000000; /* ms precision, as the listener stamps its points */
    group_reset(all);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        group_reset(g);
        for (; j < n && r[j].label == r[i].label; j++) {
            group_add(g, &r[j]);
            group_add(all, &r[j]);
        }
        const char *label = pr_run_str(x->run, r[i].label);
        transaction_points(b, x, *label ? label : "none", g, ts);
        error_points(b, x, *label ? label : "none", r + i, j - i, ts);
        i = j;
    }
    window_points(b, x, all, r, n, ts);
}

int pr_export_influx(pr_store *st, int64_t id, const pr_influx_opts *o, pr_buf *out, pr_error *err)
{
    influx x = {o, NULL, 0, NULL, 0, 0, 0};
    int rc = pr_store_load_run(st, id, &x.run, err);
    if (rc < 0)
        return rc;
    pr_influx_opts own = *o;
    if (!own.application)
        own.application = x.run->name && *x.run->name ? x.run->name : "perfreport";
    x.o = &own;
    x.t0 = x.run->start_ns != PR_UNKNOWN ? x.run->start_ns : 0;
    rc = pr_store_scan(st, id, collect, &x, err);
    if (rc == 0 && x.unplaced)
        fprintf(stderr,
                "perfreport: warning: %lld samples have no start time and are not in "
                "any point\n",
                (long long)x.unplaced);
    if (rc == 0 && x.n) {
        qsort(x.v, x.n, sizeof *x.v, by_window_label);
        group g = {0}, all = {0};
        annotation(out, &x, "started", x.t0 / 1000000 * 1000000);
        for (size_t i = 0; i < x.n;) {
            size_t j = i;
            while (j < x.n && x.v[j].window == x.v[i].window)
                j++;
            window(out, &x, x.v + i, j - i, &g, &all);
            i = j;
        }
        int64_t end = x.run->end_ns != PR_UNKNOWN ? x.run->end_ns : x.t0;
        annotation(out, &x, "ended", end / 1000000 * 1000000);
        for (int k = 0; k < 3; k++) {
            pr_vec_dispose(&g.lat[k]);
            pr_vec_dispose(&all.lat[k]);
        }
    }
    if (rc == 0 && out->overflow)
        rc = pr_error_set(err, PR_EIO, NULL, 0, 0, "the line protocol text exceeds 1 GiB");
    free(x.v);
    pr_run_free(x.run);
    return rc;
}

/* ---- OpenMetrics (Pushgateway) ---- */

static const char *str_of(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* A label name from a tag key: [a-zA-Z_][a-zA-Z0-9_]*, others become '_'. */
static void label_name(pr_buf *b, const char *key)
{
    if (!*key || isdigit((unsigned char)*key))
        pr_buf_putc(b, '_');
    for (; *key; key++)
        pr_buf_putc(b, isalnum((unsigned char)*key) || *key == '_' ? *key : '_');
}

/* An OpenMetrics label value: its control characters made visible (model/text.h), then
 * backslash, quote and newline escaped. */
static void label_value(pr_buf *b, const char *raw)
{
    char *vis = pr_text_visible_dup(raw, PR_TEXT_LINES);
    for (const char *s = vis; *s; s++) {
        if (*s == '\\' || *s == '"')
            pr_buf_putc(b, '\\');
        if (*s == '\n')
            pr_buf_puts(b, "\\n");
        else
            pr_buf_putc(b, *s);
    }
    free(vis);
}

/* {run="…",run_id="…",tool="…",TAG="…"} */
static char *run_labels(json_t *run)
{
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, "run=\"");
    label_value(&b, str_of(run, "name"));
    pr_buf_printf(&b, "\",run_id=\"%lld\",tool=\"",
                  (long long)json_integer_value(json_object_get(run, "id")));
    label_value(&b, str_of(run, "tool"));
    pr_buf_putc(&b, '"');
    const char *k;
    json_t *v;
    json_object_foreach (json_object_get(run, "tags"), k, v) {
        /* job and instance belong to the Pushgateway's grouping key */
        int reserved = !strcmp(k, "job") || !strcmp(k, "instance") || !strcmp(k, "run") ||
                       !strcmp(k, "run_id") || !strcmp(k, "tool") || !strcmp(k, "label") ||
                       !strcmp(k, "quantile");
        pr_buf_putc(&b, ',');
        if (reserved)
            pr_buf_puts(&b, "tag_");
        label_name(&b, k);
        pr_buf_puts(&b, "=\"");
        label_value(&b, json_is_string(v) ? json_string_value(v) : "");
        pr_buf_putc(&b, '"');
    }
    return pr_buf_steal(&b);
}

typedef struct gauge {
    const char *name, *key, *help;
    double scale;
} gauge;

static const gauge gauges[] = {
    {"perfreport_run_requests", "requests", "Requests of the run.", 1},
    {"perfreport_run_successes", "successes", "Successful requests.", 1},
    {"perfreport_run_errors", "errors", "Failed requests.", 1},
    {"perfreport_run_error_ratio", "error_ratio", "Failed / known-outcome requests.", 1},
    {"perfreport_run_duration_seconds", "duration_ns",
     "From the first request's start to the last one's end.", 1e-9},
    {"perfreport_run_rate_per_second", "rate_per_s", "Requests sent per second.", 1},
    {"perfreport_run_throughput_per_second", "throughput_per_s",
     "Successful requests per second, including the wait for the last responses.", 1},
    {"perfreport_run_apdex", NULL, "Apdex score.", 1},
};

static void metric_value(pr_buf *b, const char *name, const char *labels, const char *extra,
                         double v)
{
    pr_buf_printf(b, "%s{%s%s} %.12g\n", name, labels, extra ? extra : "", v);
}

/* The latency summary: quantiles, _sum and _count. */
static void latency_summary(pr_buf *b, json_t *stats, const char *labels)
{
    json_t *lat = json_object_get(stats, "latency_ns");
    json_t *list = json_object_get(lat, "percentiles");
    if (!json_array_size(list))
        return;
    pr_buf_puts(b, "# HELP perfreport_run_latency_seconds Latency percentiles of the run "
                   "(nearest rank over every sample).\n# TYPE perfreport_run_latency_seconds "
                   "summary\n# UNIT perfreport_run_latency_seconds seconds\n");
    size_t i;
    json_t *e;
    json_array_foreach (list, i, e) {
        double p = atof(str_of(e, "p")) / 100;
        char q[64];
        snprintf(q, sizeof q, ",quantile=\"%.10g\"", p);
        metric_value(b, "perfreport_run_latency_seconds", labels, q,
                     (double)json_integer_value(json_object_get(e, "ns")) / 1e9);
    }
    /* _count only: the model's mean is rounded to the ns, so a _sum would not be exact */
    json_t *req = json_object_get(stats, "requests");
    if (json_is_integer(req))
        pr_buf_printf(b, "perfreport_run_latency_seconds_count{%s} %lld\n", labels,
                      (long long)json_integer_value(req));
}

int pr_export_openmetrics(pr_store *st, int64_t id, pr_buf *out, pr_error *err)
{
    pr_report_opts o;
    pr_report_opts_init(&o);
    o.timeseries = o.histogram = o.findings = 0;
    json_t *run = NULL;
    int rc = pr_report_run(st, id, &o, &run, err);
    if (rc < 0)
        return rc;
    char *labels = run_labels(run);
    json_t *stats = json_object_get(run, "stats");
    for (size_t i = 0; i < sizeof gauges / sizeof gauges[0]; i++) {
        const gauge *g = &gauges[i];
        json_t *v = g->key ? json_object_get(stats, g->key)
                           : json_object_get(json_object_get(stats, "apdex"), "score");
        if (!json_is_number(v)) /* unknown stays out, never 0 */
            continue;
        pr_buf_printf(out, "# HELP %s %s\n# TYPE %s gauge\n", g->name, g->help, g->name);
        metric_value(out, g->name, labels, NULL, json_number_value(v) * g->scale);
    }
    latency_summary(out, stats, labels);
    pr_buf_puts(out, "# HELP perfreport_run_label_requests Requests per label.\n"
                     "# TYPE perfreport_run_label_requests gauge\n");
    size_t i;
    json_t *l;
    json_array_foreach (json_object_get(run, "labels"), i, l) {
        pr_buf b = PR_BUF_INIT;
        pr_buf_puts(&b, ",label=\"");
        label_value(&b, str_of(l, "label"));
        pr_buf_putc(&b, '"');
        metric_value(out, "perfreport_run_label_requests", labels, b.p,
                     (double)json_integer_value(json_object_get(l, "requests")));
        pr_buf_dispose(&b);
    }
    pr_buf_puts(out, "# EOF\n");
    free(labels);
    json_decref(run);
    return 0;
}
