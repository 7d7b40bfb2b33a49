/* Data and assets of the interactive report: the model's series plus downsampled samples. */
#include "render/dashboard.h"
#include "analysis/rsort.h"
#include "model/l10n.h"
#include "model/threads.h"
#include "model/xalloc.h"
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

const char *pr_dashboard_asset(const char *name, size_t *len)
{
    for (size_t i = 0; pr_builtin_assets[i].name; i++)
        if (!strcmp(pr_builtin_assets[i].name, name)) {
            *len = pr_builtin_assets[i].len;
            return pr_builtin_assets[i].text;
        }
    *len = 0;
    return NULL;
}

/* The words of the charts (titles, series, axis units) by the key the script uses, in the
 * reader's language (templates/report-words.mustache puts them in the page). */
static const struct {
    const char *key, *word;
} words[] = {
    {"latency", N_("Latency over time")},
    {"percentiles", N_("Latency percentiles over time")},
    {"throughput", N_("Throughput over time")},
    {"codes", N_("Response codes over time")},
    {"threads", N_("Active threads over time")},
    {"timing", N_("Connect time and time to first byte over time")},
    {"label_latency", N_("Latency per label over time")},
    {"label_throughput", N_("Throughput per label over time")},
    {"label_errors", N_("Errors per label over time")},
    {"scatter_throughput", N_("Latency vs throughput")},
    {"scatter_threads", N_("Latency vs active threads")},
    {"okmax", N_("success max")},
    {"okmin", N_("success min")},
    {"errmax", N_("error max")},
    {"errmin", N_("error min")},
    {"p50", "p50"},
    {"p90", "p90"},
    {"p99", "p99"},
    {"max", NC_("series", "max")},
    {"mean", NC_("series", "mean")},
    {"ok", N_("successes/s")},
    {"err", N_("errors/s")},
    {"req", N_("requests/s")},
    {"thr", N_("threads")},
    {"conn", N_("connect (mean)")},
    {"ttfb", N_("TTFB (mean)")},
    {"time", NC_("axis", "time")},
    {"none", N_("no response")},
    {"per_s", NC_("axis", "throughput")},
    {"count", NC_("axis", "threads")},
    {"ms", NC_("unit", "ms")},
    {"bar_connect", NC_("breakdown", "connect")},
    {"bar_ttfb", N_("TTFB beyond connect")},
    {"bar_receive", NC_("breakdown", "receive")},
    {"unit_us", NC_("unit", "\xc2\xb5s")},
    {"unit_s", NC_("unit", "s")},
    {"unit_per_s", NC_("unit", "/s")},
};

/* A word of the table: a msgctxt entry ("ctx\004word") or a plain msgid. */
static const char *word(const char *w)
{
    return strchr(w, '\004') ? pr_l10n_pgettext(w) : _(w);
}

/* JSON safe inside a <script> element: < > & only occur inside JSON strings, where \u003c…
 * mean the same, so no "</script>" or "<!--" can end or confuse the element holding it. */
static json_t *script_safe(json_t *v, size_t flags)
{
    char *text = json_dumps(v, flags);
    pr_buf safe = PR_BUF_INIT;
    for (const char *c = text ? text : "{}"; *c; c++) {
        if (*c == '<' || *c == '>' || *c == '&')
            pr_buf_printf(&safe, "\\u%04x", (unsigned)*c);
        else
            pr_buf_putc(&safe, *c);
    }
    free(text);
    json_t *s = json_stringn(safe.p ? safe.p : "", safe.len);
    pr_buf_dispose(&safe);
    return s;
}

json_t *pr_dashboard_words(void)
{
    json_t *o = json_object();
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        json_object_set_new(o, words[i].key, json_string(word(words[i].word)));
    json_t *s = script_safe(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    return s;
}

static double num(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* NaN becomes null: charts leave a gap. */
static void push(json_t *arr, double v)
{
    json_array_append_new(arr, isfinite(v) ? json_real(v) : json_null());
}

/* Arrays named by keys[i] (model field, scale) from a list of points: ns fields become ms,
 * count fields become per-second rates over the interval. */
typedef struct field {
    const char *out;   /* key in the data */
    const char *model; /* key in a time-series point */
    double scale;      /* multiply by (0: divide by the interval in seconds) */
} field;

static const field run_fields[] = {
    {"req", "requests", 0},         {"ok", "successes", 0},  {"err", "errors", 0},
    {"p50", "p50_ns", 1e-6},        {"p90", "p90_ns", 1e-6}, {"p99", "p99_ns", 1e-6},
    {"max", "max_ns", 1e-6},        {"thr", "threads", 1},   {"conn", "connect_mean_ns", 1e-6},
    {"ttfb", "ttfb_mean_ns", 1e-6},
};

static const field label_fields[] = {
    {"req", "requests", 0},    {"ok", "successes", 0},  {"err", "errors", 0},
    {"mean", "mean_ns", 1e-6}, {"p50", "p50_ns", 1e-6}, {"p90", "p90_ns", 1e-6},
    {"p99", "p99_ns", 1e-6},
};

/* Adds one array per field that has at least one known value. */
static void series_fields(json_t *out, json_t *points, double secs, const field *f, size_t nf)
{
    for (size_t k = 0; k < nf; k++) {
        json_t *arr = json_array();
        int any = 0;
        size_t i;
        json_t *p;
        json_array_foreach (points, i, p) {
            double v = num(p, f[k].model);
            any |= isfinite(v);
            push(arr, f[k].scale ? v * f[k].scale : v / secs);
        }
        if (any)
            json_object_set_new(out, f[k].out, arr);
        else
            json_decref(arr);
    }
}

/* Responses per second by status code: {"200": [...], "other": [...]}. */
static json_t *codes_json(json_t *points, double secs)
{
    json_t *codes = json_object();
    size_t i, n = json_array_size(points);
    json_t *p;
    json_array_foreach (points, i, p) {
        const char *code;
        json_t *c;
        json_object_foreach (json_object_get(p, "status_codes"), code, c) {
            json_t *arr = json_object_get(codes, code);
            if (!arr) {
                arr = json_array();
                for (size_t k = 0; k < n; k++)
                    json_array_append_new(arr, json_real(0));
                json_object_set_new(codes, code, arr);
            }
            json_array_set_new(arr, i, json_real((double)json_integer_value(c) / secs));
        }
    }
    return codes;
}

static json_t *ts_json(json_t *ts)
{
    json_t *pts = json_object_get(ts, "points");
    double secs = num(ts, "interval_ns") / 1e9;
    if (!json_array_size(pts) || !(secs > 0))
        return NULL;
    json_t *o = json_object(), *t = json_array();
    size_t i;
    json_t *p;
    json_array_foreach (pts, i, p)
        push(t, num(p, "t_ns") / 1e9);
    json_object_set_new(o, "t", t);
    json_object_set_new(o, "interval_s", json_real(secs));
    series_fields(o, pts, secs, run_fields, sizeof run_fields / sizeof run_fields[0]);
    json_object_set_new(o, "codes", codes_json(pts, secs));
    return o;
}

static json_t *labels_json(json_t *run)
{
    json_t *arr = json_array();
    size_t i;
    json_t *l;
    json_array_foreach (json_object_get(run, "labels"), i, l) {
        json_t *ts = json_object_get(l, "timeseries");
        double secs = num(ts, "interval_ns") / 1e9;
        if (!ts || !(secs > 0))
            continue;
        json_t *o = json_object();
        json_object_set(o, "name", json_object_get(l, "label"));
        series_fields(o, json_object_get(ts, "points"), secs, label_fields,
                      sizeof label_fields / sizeof label_fields[0]);
        json_array_append_new(arr, o);
    }
    return arr;
}

/* Where the time goes, per label: mean connect, TTFB and receive (ms), where known. */
static json_t *breakdown_json(json_t *run)
{
    json_t *arr = json_array();
    size_t i;
    json_t *l;
    json_array_foreach (json_object_get(run, "labels"), i, l) {
        double c = num(json_object_get(l, "connect_ns"), "mean");
        double t = num(json_object_get(l, "ttfb_ns"), "mean");
        double r = num(json_object_get(l, "receive_ns"), "mean");
        double lat = num(json_object_get(l, "latency_ns"), "mean");
        if (!isfinite(c) && !isfinite(t))
            continue;
        json_t *o = json_object();
        json_object_set(o, "name", json_object_get(l, "label"));
        json_object_set_new(o, "connect", isfinite(c) ? json_real(c * 1e-6) : json_null());
        json_object_set_new(o, "ttfb", isfinite(t) ? json_real(t * 1e-6) : json_null());
        json_object_set_new(o, "receive", isfinite(r) ? json_real(r * 1e-6) : json_null());
        json_object_set_new(o, "latency", isfinite(lat) ? json_real(lat * 1e-6) : json_null());
        json_array_append_new(arr, o);
    }
    return arr;
}

/* Per column of the run's time: min and max latency of successes and of errors (ms) and the
 * counts, so a spike of one sample survives any downsampling; plus a coarser density grid
 * (log latency rows) drawn beneath. */
typedef struct col {
    int64_t okmin, okmax, errmin, errmax;
    uint32_t n, nerr;
} col;

static void put_col(json_t *o, const char *k, const col *c, size_t n, size_t off)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++) {
        int64_t v = *(const int64_t *)(const void *)((const char *)&c[i] + off);
        push(arr, v < 0 ? NAN : (double)v * 1e-6);
    }
    json_object_set_new(o, k, arr);
}

/* t / w for t >= 0, w > 0, inv = 1.0 / w: a multiplication, corrected, rather than a division
 * (two per point); exact. */
static inline int64_t div_ns(int64_t t, int64_t w, double inv)
{
    if (t >= ((int64_t)1 << 52))
        return t / w;
    int64_t q = (int64_t)((double)t * inv);
    if (q * w > t)
        q--;
    else if ((q + 1) * w <= t)
        q++;
    return q;
}

/* The density grid of the points: cols x rows counts, rows by log latency from lo to hi. */
typedef struct grid {
    int64_t w_ns;
    double inv, lo, hi;
    uint32_t *cells;
} grid;

static void grid_init(grid *g, int64_t w_ns, int64_t lmin, int64_t lmax)
{
    g->w_ns = w_ns;
    g->inv = 1.0 / (double)w_ns;
    g->lo = log10((double)(lmin > 0 ? lmin : 1));
    g->hi = log10((double)(lmax > 0 ? lmax : 1));
    if (g->hi <= g->lo)
        g->hi = g->lo + 1;
    g->cells = pr_xcalloc((size_t)PR_DASH_DENSITY_COLS * PR_DASH_DENSITY_ROWS, sizeof *g->cells);
}

static inline void grid_add(grid *g, int64_t t, int64_t l)
{
    const size_t cols = PR_DASH_DENSITY_COLS, rows = PR_DASH_DENSITY_ROWS;
    size_t c = (size_t)div_ns(t, g->w_ns, g->inv);
    double f = (log10((double)(l > 0 ? l : 1)) - g->lo) / (g->hi - g->lo);
    size_t r = f <= 0 ? 0 : f >= 1 ? rows - 1 : (size_t)(f * (double)rows);
    g->cells[(c < cols ? c : cols - 1) * rows + r]++;
}

static json_t *density_json(grid *g)
{
    const size_t cols = PR_DASH_DENSITY_COLS, rows = PR_DASH_DENSITY_ROWS;
    json_t *d = json_object(), *arr = json_array();
    for (size_t i = 0; i < cols * rows; i++)
        json_array_append_new(arr, json_integer(g->cells[i]));
    free(g->cells);
    json_object_set_new(d, "cols", json_integer((json_int_t)cols));
    json_object_set_new(d, "rows", json_integer((json_int_t)rows));
    json_object_set_new(d, "w_s", json_real((double)g->w_ns / 1e9));
    json_object_set_new(d, "lo_ms", json_real(pow(10, g->lo) * 1e-6));
    json_object_set_new(d, "hi_ms", json_real(pow(10, g->hi) * 1e-6));
    json_object_set_new(d, "c", arr);
    return d;
}

typedef struct grid_job {
    grid *g;
    const pr_chart_points *p;
} grid_job;

static void *grid_fill(void *arg)
{
    grid_job *j = arg;
    const pr_chart_points *p = j->p;
    for (size_t i = 0; i < p->n; i++)
        if (p->latency_ns[i] >= 0 && p->t_ns[i] >= 0)
            grid_add(j->g, p->t_ns[i], p->latency_ns[i]);
    return NULL;
}

/* The columns' minima, maxima and counts, and the density grid unless g is NULL. */
static void columns_pass(const pr_chart_points *p, col *c, int64_t w, grid *g)
{
    double inv = 1.0 / (double)w;
    for (size_t i = 0; i < p->n; i++) {
        int64_t l = p->latency_ns[i], t = p->t_ns[i];
        if (l < 0 || t < 0)
            continue;
        col *k = &c[div_ns(t, w, inv)];
        int ok = !p->ok || p->ok[i];
        int64_t *mn = ok ? &k->okmin : &k->errmin, *mx = ok ? &k->okmax : &k->errmax;
        if (*mn < 0 || l < *mn)
            *mn = l;
        if (l > *mx)
            *mx = l;
        k->n++;
        k->nerr += !ok;
        if (g)
            grid_add(g, t, l);
    }
}

/* The columns' minima, maxima and counts and the density grid: two passes over the points at
 * once on the analysis threads (pr_threads), else one. */
static void columns_fill(const pr_chart_points *p, col *c, int64_t w, grid *g)
{
    grid_job j = {g, p};
    pthread_t th;
    int par = p->n >= ((size_t)1 << 20) && pr_threads() >= 2 &&
              pthread_create(&th, NULL, grid_fill, &j) == 0;
    columns_pass(p, c, w, par ? NULL : g);
    if (par)
        pthread_join(th, NULL);
}

static json_t *latency_json(const pr_chart_points *p)
{
    int64_t tmax = -1, lmin = INT64_MAX, lmax = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->latency_ns[i] < 0 || p->t_ns[i] < 0)
            continue;
        tmax = p->t_ns[i] > tmax ? p->t_ns[i] : tmax;
        if (p->latency_ns[i] > 0 && p->latency_ns[i] < lmin)
            lmin = p->latency_ns[i];
        lmax = p->latency_ns[i] > lmax ? p->latency_ns[i] : lmax;
    }
    if (tmax < 0)
        return NULL;
    size_t n = PR_DASH_COLUMNS;
    int64_t w = tmax / (int64_t)n + 1;
    col *c = pr_xmalloc(n * sizeof *c);
    for (size_t i = 0; i < n; i++)
        c[i] = (col){-1, -1, -1, -1, 0, 0};
    grid g;
    grid_init(&g, tmax / PR_DASH_DENSITY_COLS + 1, lmin == INT64_MAX ? 1 : lmin, lmax);
    columns_fill(p, c, w, &g);
    while (n > 1 && c[n - 1].n == 0) /* nothing after the last sample */
        n--;
    json_t *o = json_object(), *cnt = json_array(), *cerr = json_array();
    json_object_set_new(o, "w_s", json_real((double)w / 1e9));
    put_col(o, "okmin", c, n, offsetof(col, okmin));
    put_col(o, "okmax", c, n, offsetof(col, okmax));
    put_col(o, "errmin", c, n, offsetof(col, errmin));
    put_col(o, "errmax", c, n, offsetof(col, errmax));
    for (size_t i = 0; i < n; i++) {
        json_array_append_new(cnt, json_integer(c[i].n));
        json_array_append_new(cerr, json_integer(c[i].nerr));
    }
    json_object_set_new(o, "n", cnt);
    json_object_set_new(o, "nerr", cerr);
    json_object_set_new(o, "dens", density_json(&g));
    free(c);
    return o;
}

/* The moment a finding marks, and a window around it to zoom to (seconds since the start). */
static json_t *findings_json(json_t *run, double span_s, double interval_s)
{
    json_t *arr = json_array();
    size_t i;
    json_t *f;
    json_array_foreach (json_object_get(run, "findings"), i, f) {
        json_t *o = json_object();
        json_object_set(o, "index", json_object_get(f, "index"));
        json_object_set(o, "id", json_object_get(f, "id"));
        json_object_set(o, "severity", json_object_get(f, "severity"));
        json_object_set(o, "title", json_object_get(f, "title"));
        double t = num(f, "t_ns") / 1e9;
        json_t *ev = json_object_get(f, "evidence");
        double from = num(ev, "from_ns") / 1e9, to = num(ev, "to_ns") / 1e9;
        double pad = fmax(2 * interval_s, 0.02 * span_s);
        if (isfinite(t)) {
            if (!isfinite(from))
                from = t - pad;
            if (!isfinite(to))
                to = t + pad;
        }
        if (isfinite(t))
            json_object_set_new(o, "t", json_real(t));
        if (isfinite(from) && isfinite(to) && to > from) {
            json_object_set_new(o, "from", json_real(fmax(0, from)));
            json_object_set_new(o, "to", json_real(to));
        }
        json_array_append_new(arr, o);
    }
    return arr;
}

json_t *pr_dashboard_run_data(json_t *run, const pr_chart_points *pts)
{
    json_t *o = json_object();
    json_object_set(o, "id", json_object_get(run, "id"));
    json_object_set(o, "name", json_object_get(run, "name"));
    json_object_set(o, "start", json_object_get(run, "start"));
    json_t *stats = json_object_get(run, "stats");
    double span = (num(stats, "duration_ns") + num(stats, "wait_ns")) / 1e9;
    json_t *ts = ts_json(json_object_get(run, "timeseries"));
    double interval = ts ? num(ts, "interval_s") : 0;
    if (ts)
        json_object_set_new(o, "ts", ts);
    json_object_set_new(o, "labels", labels_json(run));
    json_t *lat = pts && pts->n ? latency_json(pts) : NULL;
    if (lat)
        json_object_set_new(o, "lat", lat);
    json_object_set_new(o, "findings", findings_json(run, isfinite(span) ? span : 0, interval));
    json_object_set_new(o, "breakdown", breakdown_json(run));
    return o;
}

static json_t *asset_string(const char *name)
{
    size_t n;
    const char *s = pr_dashboard_asset(name, &n);
    return json_stringn(s ? s : "", s ? n : 0);
}

/* "1.6.32" from the version the library names in its first line ("(v1.6.32)"). */
static json_t *library_version(void)
{
    size_t n;
    const char *s = pr_dashboard_asset("uPlot.min.js", &n);
    const char *v = s ? strstr(s, "(v") : NULL;
    const char *e = v ? strchr(v, ')') : NULL;
    if (!v || !e || e - v > 32 || (size_t)(e - s) > 200)
        return json_null();
    return json_stringn(v + 2, (size_t)(e - v - 2));
}

int pr_dashboard_add(json_t *ctx, pr_points_fn points, void *payload, pr_error *err)
{
    json_t *data = json_object(), *runs = json_array();
    size_t i;
    json_t *run;
    int rc = 0;
    json_array_foreach (json_object_get(ctx, "runs"), i, run) {
        int printed = json_is_true(json_object_get(run, "summary_only"));
        if (printed && !json_object_get(run, "timeseries"))
            continue; /* nothing to draw: the tool printed no series */
        pr_chart_points pts = {0, NULL, NULL, NULL};
        int have = !printed && points && points(run, &pts, err, payload) == 0;
        json_array_append_new(runs, pr_dashboard_run_data(run, have ? &pts : NULL));
        if (points)
            points(NULL, &pts, err, payload);
    }
    json_object_set_new(data, "runs", runs);
    /* compact, 5 significant digits */
    json_t *d = json_object();
    json_object_set_new(d, "data", script_safe(data, JSON_COMPACT | JSON_REAL_PRECISION(5)));
    json_decref(data);
    json_object_set_new(d, "words", pr_dashboard_words());
    json_object_set_new(d, "script", asset_string("dashboard.js"));
    json_object_set_new(d, "library", asset_string("uPlot.min.js"));
    json_object_set_new(d, "library_css", asset_string("uPlot.min.css"));
    json_object_set_new(d, "library_licence", asset_string("uPlot.LICENSE"));
    json_object_set_new(d, "library_version", library_version());
    json_object_set_new(ctx, "dashboard", d);
    return rc;
}
