/* Data and assets of the interactive report: the model's series plus downsampled samples. */
#include "render/dashboard.h"
#include "analysis/report.h"
#include "model/l10n.h"
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
    {"throughput", N_("Throughput over time, responses by completion time")},
    {"codes", N_("Response codes over time")},
    {"threads", N_("Active threads over time")},
    {"timing", N_("Connect time and time to first byte over time")},
    {"label_latency", N_("Latency per label over time")},
    {"label_throughput", N_("Throughput per label over time, responses by completion time")},
    {"label_errors", N_("Errors per label over time, responses by completion time")},
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
static void put_col(json_t *o, const char *k, const pr_dash_col *c, size_t n, size_t off)
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

#define ROWS PR_DASH_DENSITY_ROWS
#define DCOLS PR_DASH_DENSITY_COLS
_Static_assert(ROWS >= 2 && (ROWS & (ROWS - 1)) == 0, "the rows' search halves a power of two");

/* The density row of latency l >= 0 by its definition: log10 l between lo and hi. */
static size_t row_by_log(double lo, double hi, int64_t l)
{
    double f = (log10((double)(l > 0 ? l : 1)) - lo) / (hi - lo);
    return f <= 0 ? 0 : f >= 1 ? ROWS - 1 : (size_t)(f * (double)ROWS);
}

/* How points map to columns and rows: the widths with their inverses, and each row's least
 * latency (found once by bisection of row_by_log, which only grows with l), so a point's row
 * is a search among ROWS integers rather than a log10. */
typedef struct binning {
    int64_t w, dw;
    double inv, dinv;
    uint64_t edge[ROWS]; /* edge[r]: the least latency of row r or above; UINT64_MAX: none up
                            to the greatest latency; edge[0] = 0 */
} binning;

static void binning_init(binning *b, const pr_dash_lat *lat, int64_t lmax)
{
    b->w = lat->w_ns;
    b->inv = 1.0 / (double)b->w;
    b->dw = lat->dens_w_ns;
    b->dinv = 1.0 / (double)b->dw;
    b->edge[0] = 0;
    int64_t from = 0;
    for (size_t r = 1; r < ROWS; r++) {
        if (row_by_log(lat->lo, lat->hi, lmax) < r) {
            b->edge[r] = UINT64_MAX;
            continue;
        }
        int64_t a = from, z = lmax; /* row_by_log(z) >= r */
        while (a < z) {
            int64_t m = a + (z - a) / 2;
            if (row_by_log(lat->lo, lat->hi, m) >= r)
                z = m;
            else
                a = m + 1;
        }
        b->edge[r] = (uint64_t)a;
        from = a;
    }
}

/* The row of latency l (0 <= l <= the greatest): as row_by_log. */
static inline size_t row_of(const binning *b, int64_t l)
{
    size_t r = 0;
#pragma GCC unroll 8
    for (size_t s = ROWS / 2; s; s /= 2) /* branch-free bisection: log2(ROWS) steps */
        r += (uint64_t)l >= b->edge[r + s] ? s : 0;
    return r;
}

/* One point (t >= 0, 0 <= l <= the greatest latency) into its column and grid cell. */
static inline __attribute__((always_inline)) void
add_point(const binning *b, pr_dash_col *cols, uint32_t *cells, int64_t t, int64_t l, int ok)
{
    pr_dash_col *k = &cols[div_ns(t, b->w, b->inv)];
    int64_t *mn = ok ? &k->okmin : &k->errmin, *mx = ok ? &k->okmax : &k->errmax;
    if (*mn < 0 || l < *mn)
        *mn = l;
    if (l > *mx)
        *mx = l;
    k->n++;
    k->nerr += !ok;
    size_t c = (size_t)div_ns(t, b->dw, b->dinv);
    cells[(c < DCOLS ? c : DCOLS - 1) * ROWS + row_of(b, l)]++;
}

/* The points of a run as views: 0 and 1 the halves of the flat points, then the chunks. */
typedef struct view {
    size_t n;
    const int64_t *t, *l; /* flat */
    const uint8_t *ok;
    const pr_chart_point_chunk *c; /* else a chunk */
} view;

static size_t nviews(const pr_run_points *p)
{
    return 2 + p->nchunks;
}

static view view_get(const pr_run_points *p, size_t k)
{
    const pr_chart_points *f = &p->flat;
    if (k >= 2)
        return (view){p->chunks[k - 2].n, NULL, NULL, NULL, &p->chunks[k - 2]};
    size_t h = f->n / 2, at = k ? h : 0;
    return (view){k ? f->n - h : h, f->t_ns ? f->t_ns + at : NULL,
                  f->latency_ns ? f->latency_ns + at : NULL, f->ok ? f->ok + at : NULL, NULL};
}

static void add_chunk(const binning *b, pr_dash_col *cols, uint32_t *cells,
                      const pr_chart_point_chunk *c)
{
    const uint8_t *bits = c->ok_bits;
    if (c->dt && c->dl && c->tmin_ns >= 0) { /* the usual chunk: offsets, times >= 0 */
        for (size_t i = 0; i < c->n; i++)
            add_point(b, cols, cells, c->t0_ns + (int64_t)c->dt[i], c->l0_ns + (int64_t)c->dl[i],
                      !bits || (bits[i / 8] >> (i % 8) & 1));
        return;
    }
    for (size_t i = 0; i < c->n; i++) {
        int64_t t = c->dt ? c->t0_ns + (int64_t)c->dt[i] : c->t_ns[i];
        int64_t l = c->dl ? c->l0_ns + (int64_t)c->dl[i] : c->latency_ns[i];
        if (t >= 0)
            add_point(b, cols, cells, t, l, !bits || (bits[i / 8] >> (i % 8) & 1));
    }
}

static void add_view(const binning *b, pr_dash_col *cols, uint32_t *cells, const view *v)
{
    if (v->c) {
        add_chunk(b, cols, cells, v->c);
        return;
    }
    for (size_t i = 0; i < v->n; i++)
        if (v->l[i] >= 0 && v->t[i] >= 0)
            add_point(b, cols, cells, v->t[i], v->l[i], !v->ok || v->ok[i]);
}

/* The greatest time, the least latency > 0 and the greatest of the points a chart draws (a
 * chunk whose times are all >= 0: its summary). */
static void views_range(const pr_run_points *p, int64_t *tmax, int64_t *lmin, int64_t *lmax)
{
    for (size_t k = 0; k < nviews(p); k++) {
        view v = view_get(p, k);
        if (v.c && v.c->n && v.c->tmin_ns >= 0) {
            *tmax = v.c->tmax_ns > *tmax ? v.c->tmax_ns : *tmax;
            *lmin = v.c->lmin_ns < *lmin ? v.c->lmin_ns : *lmin;
            *lmax = v.c->lmax_ns > *lmax ? v.c->lmax_ns : *lmax;
            continue;
        }
        for (size_t i = 0; i < v.n; i++) {
            int64_t t = v.c ? (v.c->dt ? v.c->t0_ns + (int64_t)v.c->dt[i] : v.c->t_ns[i]) : v.t[i];
            int64_t l =
                v.c ? (v.c->dl ? v.c->l0_ns + (int64_t)v.c->dl[i] : v.c->latency_ns[i]) : v.l[i];
            if (l < 0 || t < 0)
                continue;
            *tmax = t > *tmax ? t : *tmax;
            *lmin = l > 0 && l < *lmin ? l : *lmin;
            *lmax = l > *lmax ? l : *lmax;
        }
    }
}

/* A share of the views on one thread, into its own columns and cells. */
typedef struct lat_part {
    const binning *b;
    const pr_run_points *p;
    size_t from, to; /* views */
    pr_dash_col *cols;
    uint32_t *cells;
} lat_part;

static void *lat_part_fill(void *arg)
{
    lat_part *j = arg;
    for (size_t k = j->from; k < j->to; k++) {
        view v = view_get(j->p, k);
        add_view(j->b, j->cols, j->cells, &v);
    }
    return NULL;
}

static pr_dash_col *cols_new(void)
{
    pr_dash_col *c = pr_xmalloc(PR_DASH_COLUMNS * sizeof *c);
    for (size_t i = 0; i < PR_DASH_COLUMNS; i++)
        c[i] = (pr_dash_col){-1, -1, -1, -1, 0, 0};
    return c;
}

/* Part b added into part a: least of the minima, greatest of the maxima, sums of counts. */
static void lat_part_merge(lat_part *a, const lat_part *b)
{
    for (size_t i = 0; i < PR_DASH_COLUMNS; i++) {
        pr_dash_col *x = &a->cols[i];
        const pr_dash_col *y = &b->cols[i];
        x->okmin = x->okmin < 0 || (y->okmin >= 0 && y->okmin < x->okmin) ? y->okmin : x->okmin;
        x->errmin =
            x->errmin < 0 || (y->errmin >= 0 && y->errmin < x->errmin) ? y->errmin : x->errmin;
        x->okmax = y->okmax > x->okmax ? y->okmax : x->okmax;
        x->errmax = y->errmax > x->errmax ? y->errmax : x->errmax;
        x->n += y->n;
        x->nerr += y->nerr;
    }
    for (size_t i = 0; i < (size_t)DCOLS * ROWS; i++)
        a->cells[i] += b->cells[i];
}

/* The points binned on two threads (the views cut where half the points lie before), else
 * on this one. */
static void lat_fill(const binning *b, const pr_run_points *p, int threads, pr_dash_lat *out)
{
    size_t nv = nviews(p), total = 0, cut = 0;
    for (size_t k = 0; k < nv; k++)
        total += view_get(p, k).n;
    for (size_t before = 0; cut < nv && 2 * before < total; cut++)
        before += view_get(p, cut).n;
    lat_part one = {b, p, 0, nv, out->cols, out->cells}, two = one;
    pthread_t th;
    int par = total >= ((size_t)1 << 20) && threads >= 2 && cut < nv;
    if (par) {
        two.from = one.to = cut;
        two.cols = cols_new();
        two.cells = pr_xcalloc((size_t)DCOLS * ROWS, sizeof *two.cells);
        if (pthread_create(&th, NULL, lat_part_fill, &two) != 0) {
            free(two.cols);
            free(two.cells);
            par = 0;
            one.to = nv;
        }
    }
    lat_part_fill(&one);
    if (par) {
        pthread_join(th, NULL);
        lat_part_merge(&one, &two);
        free(two.cols);
        free(two.cells);
    }
}

void pr_dashboard_lat(const pr_run_points *pts, int threads, pr_dash_lat *out)
{
    memset(out, 0, sizeof *out);
    int64_t tmax = -1, lmin = INT64_MAX, lmax = 0;
    views_range(pts, &tmax, &lmin, &lmax);
    if (tmax < 0)
        return;
    out->w_ns = tmax / PR_DASH_COLUMNS + 1;
    out->dens_w_ns = tmax / DCOLS + 1;
    out->lo = log10((double)(lmin == INT64_MAX ? 1 : lmin));
    out->hi = log10((double)(lmax > 0 ? lmax : 1));
    if (out->hi <= out->lo)
        out->hi = out->lo + 1;
    out->cols = cols_new();
    out->cells = pr_xcalloc((size_t)DCOLS * ROWS, sizeof *out->cells);
    binning b;
    binning_init(&b, out, lmax);
    lat_fill(&b, pts, threads, out);
}

void pr_dashboard_lat_dispose(pr_dash_lat *lat)
{
    free(lat->cols);
    free(lat->cells);
    memset(lat, 0, sizeof *lat);
}

static json_t *density_json(const pr_dash_lat *L)
{
    json_t *d = json_object(), *arr = json_array();
    for (size_t i = 0; i < (size_t)DCOLS * ROWS; i++)
        json_array_append_new(arr, json_integer(L->cells[i]));
    json_object_set_new(d, "cols", json_integer((json_int_t)DCOLS));
    json_object_set_new(d, "rows", json_integer((json_int_t)ROWS));
    json_object_set_new(d, "w_s", json_real((double)L->dens_w_ns / 1e9));
    json_object_set_new(d, "lo_ms", json_real(pow(10, L->lo) * 1e-6));
    json_object_set_new(d, "hi_ms", json_real(pow(10, L->hi) * 1e-6));
    json_object_set_new(d, "c", arr);
    return d;
}

static json_t *latency_json(const pr_dash_lat *L)
{
    const pr_dash_col *c = L->cols;
    size_t n = PR_DASH_COLUMNS;
    while (n > 1 && c[n - 1].n == 0) /* nothing after the last sample */
        n--;
    json_t *o = json_object(), *cnt = json_array(), *cerr = json_array();
    json_object_set_new(o, "w_s", json_real((double)L->w_ns / 1e9));
    put_col(o, "okmin", c, n, offsetof(pr_dash_col, okmin));
    put_col(o, "okmax", c, n, offsetof(pr_dash_col, okmax));
    put_col(o, "errmin", c, n, offsetof(pr_dash_col, errmin));
    put_col(o, "errmax", c, n, offsetof(pr_dash_col, errmax));
    for (size_t i = 0; i < n; i++) {
        json_array_append_new(cnt, json_integer(c[i].n));
        json_array_append_new(cerr, json_integer(c[i].nerr));
    }
    json_object_set_new(o, "n", cnt);
    json_object_set_new(o, "nerr", cerr);
    json_object_set_new(o, "dens", density_json(L));
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

json_t *pr_dashboard_run_data(json_t *run, const pr_dash_lat *latency)
{
    json_t *o = json_object();
    json_object_set(o, "id", json_object_get(run, "id"));
    json_object_set(o, "name", json_object_get(run, "name"));
    json_object_set(o, "start", json_object_get(run, "start"));
    json_t *stats = json_object_get(run, "stats");
    double span = (num(stats, "duration_ns") + num(stats, "wait_ns")) / 1e9;
    json_t *ts = ts_json(json_object_get(run, "timeseries"));
    if (ts && pr_report_status_unrecorded(run)) /* ab -g: every bar would read "no response" */
        json_object_del(ts, "codes");
    double interval = ts ? num(ts, "interval_s") : 0;
    if (ts)
        json_object_set_new(o, "ts", ts);
    json_object_set_new(o, "labels", labels_json(run));
    json_t *lat = latency && latency->w_ns ? latency_json(latency) : NULL;
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

int pr_dashboard_add(json_t *ctx, pr_dash_lat_fn lat, void *payload, pr_error *err)
{
    json_t *data = json_object(), *runs = json_array();
    size_t i;
    json_t *run;
    int rc = 0;
    json_array_foreach (json_object_get(ctx, "runs"), i, run) {
        int printed = json_is_true(json_object_get(run, "summary_only"));
        if (printed && !json_object_get(run, "timeseries"))
            continue; /* nothing to draw: the tool printed no series */
        pr_dash_lat L = {0, NULL, 0, 0, 0, NULL};
        int have = !printed && lat && lat(run, &L, err, payload) == 0;
        json_array_append_new(runs, pr_dashboard_run_data(run, have ? &L : NULL));
        pr_dashboard_lat_dispose(&L);
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
