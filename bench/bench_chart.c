/* Chart benchmark: draws every chart kind from synthetic results and prints the time of each.
 *
 * usage: bench_chart [-n POINTS] [-o DIR] [-s SCALE] [-f png|svg|pdf]
 *   -n  samples for the latency-over-time chart (default 10000000)
 *   -o  also write each chart to DIR/<kind>.<fmt> (to look at them)
 * Prints "chart <kind>: X ms" per kind (latency at 1600x900, the others at 1200x675). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "model/xalloc.h"
#include "render/chart.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

static double unif(void)
{
    return ((double)(rnd() >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
    return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

/* A 120 s run: warm-up for 10 s, lognormal latencies around 18 ms with a slow tail, an error
 * burst (timeouts and fast 503s) from 70 to 78 s, and a load ramp. */
typedef struct run {
    size_t n;
    int64_t *t, *lat;
    uint8_t *ok;
    int *status;
} run;

static void make_run(run *r, size_t n, double median_ms, double dur_s)
{
    r->n = n;
    r->t = pr_xmalloc(n * sizeof *r->t);
    r->lat = pr_xmalloc(n * sizeof *r->lat);
    r->ok = pr_xmalloc(n);
    r->status = pr_xmalloc(n * sizeof *r->status);
    for (size_t i = 0; i < n; i++) {
        /* arrivals ramp up over the first 20 s */
        double u = (double)i / (double)n;
        double ts = dur_s * (u < 0.08 ? sqrt(u / 0.08) * 0.16 + u * 0.0 : 0.16 + (u - 0.08) / 0.92 * 0.84);
        ts += unif() * 0.001;
        double med = median_ms * (ts < 10 ? 1 + 2.5 * (10 - ts) / 10 : 1);
        double l = med * exp(0.45 * gauss());
        if (unif() < 0.004)
            l *= 8 + 20 * unif(); /* slow tail */
        int st = 200, ok = 1;
        if (ts > 70 && ts < 78 && unif() < 0.35) {
            ok = 0;
            if (unif() < 0.3) {
                l = 2000 + 5 * unif(); /* client timeout */
                st = 0;
            } else {
                l = 0.8 + unif();
                st = 503;
            }
        } else if (unif() < 0.002) {
            ok = 0;
            st = 500;
        } else if (unif() < 0.01) {
            st = 404;
            ok = 0;
        }
        r->t[i] = (int64_t)(ts * 1e9);
        r->lat[i] = (int64_t)(l * 1e6);
        r->ok[i] = (uint8_t)ok;
        r->status[i] = st;
    }
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int64_t pct_of(const int64_t *sorted, size_t n, double p)
{
    if (!n)
        return -1;
    size_t rank = (size_t)ceil(p / 100 * (double)n);
    if (rank < 1)
        rank = 1;
    if (rank > n)
        rank = n;
    return sorted[rank - 1];
}

#define NI 120
#define NCODES 4

typedef struct model {
    int64_t t[NI], p50[NI], p90[NI], p99[NI], mx[NI];
    double okps[NI], failps[NI], rate[NI], threads[NI];
    int codes[NCODES];
    double counts[NCODES * NI];
    double pct[40];
    int64_t pct_lat[40];
    size_t npct;
    int64_t blo[80], bhi[80];
    uint64_t bcnt[80];
    size_t nb;
} model;

static void compute(model *m, const run *r)
{
    static const int codes[NCODES] = {200, 404, 500, 503};
    memset(m, 0, sizeof *m);
    memcpy(m->codes, codes, sizeof codes);
    m->codes[3] = 503;
    int64_t *buf = pr_xmalloc(r->n * sizeof *buf);
    size_t *cnt = pr_xcalloc(NI, sizeof *cnt);
    for (size_t i = 0; i < r->n; i++) {
        int k = (int)(r->t[i] / 1000000000);
        if (k >= 0 && k < NI)
            cnt[k]++;
    }
    for (int k = 0; k < NI; k++) {
        size_t nn = 0, nok = 0, nfail = 0;
        for (size_t i = 0; i < r->n; i++) {
            if (r->t[i] / 1000000000 != k)
                continue;
            buf[nn++] = r->lat[i];
            if (r->ok[i])
                nok++;
            else
                nfail++;
            int st = r->status[i];
            int c = st == 200 ? 0 : st == 404 ? 1 : st == 500 ? 2 : st == 503 ? 3 : -1;
            if (c >= 0)
                m->counts[c * NI + k] += 1;
        }
        qsort(buf, nn, sizeof *buf, cmp_i64);
        m->t[k] = (int64_t)k * 1000000000;
        m->p50[k] = pct_of(buf, nn, 50);
        m->p90[k] = pct_of(buf, nn, 90);
        m->p99[k] = pct_of(buf, nn, 99);
        m->mx[k] = nn ? buf[nn - 1] : -1;
        m->okps[k] = (double)nok;
        m->failps[k] = (double)nfail;
        m->rate[k] = (double)nn * 1.02;
        m->threads[k] = k < 20 ? 5 + k * 2.5 : 55;
    }
    /* whole-run distribution */
    memcpy(buf, r->lat, r->n * sizeof *buf);
    qsort(buf, r->n, sizeof *buf, cmp_i64);
    static const double ps[] = {0,  10, 20, 30,   40,    50,     60,     70,     75,  80,
                                85, 90, 92, 94,   95,    96,     97,     98,     99,  99.5,
                                99.7, 99.8, 99.9, 99.95, 99.99, 99.995, 99.999, 100};
    m->npct = sizeof ps / sizeof ps[0];
    for (size_t i = 0; i < m->npct; i++) {
        m->pct[i] = ps[i];
        m->pct_lat[i] = pct_of(buf, r->n, ps[i] == 0 ? 0.0000001 : ps[i]);
    }
    /* log buckets, 10 per decade from 100 µs */
    m->nb = 50;
    for (size_t b = 0; b < m->nb; b++) {
        m->blo[b] = (int64_t)(1e5 * pow(10, b / 10.0));
        m->bhi[b] = (int64_t)(1e5 * pow(10, (b + 1) / 10.0));
    }
    for (size_t i = 0; i < r->n; i++) {
        double l = (double)r->lat[i];
        int b = l <= 1e5 ? 0 : (int)(log10(l / 1e5) * 10);
        if (b >= (int)m->nb)
            b = (int)m->nb - 1;
        m->bcnt[b]++;
    }
    free(buf);
    free(cnt);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int draw(const char *kind, const pr_chart_input *in, const pr_chart_opts *o,
                const char *dir, const char *ext)
{
    pr_error err;
    pr_error_clear(&err);
    const pr_chart_kind *k = pr_chart_kind_find(kind);
    double t0 = now_ms();
    int rc;
    if (dir) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.%s", dir, kind, ext);
        rc = pr_chart_render_file(k, in, o, path, NULL, &err);
    } else {
        pr_buf b = PR_BUF_INIT;
        int fmt = !strcmp(ext, "svg") ? PR_CHART_SVG : !strcmp(ext, "pdf") ? PR_CHART_PDF
                                                                            : PR_CHART_PNG;
        rc = pr_chart_render_buf(k, in, o, (pr_chart_format)fmt, &b, NULL, &err);
        pr_buf_dispose(&b);
    }
    double t1 = now_ms();
    if (rc < 0) {
        char msg[1600];
        fprintf(stderr, "bench_chart: %s: %s\n", kind, pr_error_format(&err, msg, sizeof msg));
        return 1;
    }
    printf("chart %s: %.1f ms\n", kind, t1 - t0);
    return 0;
}

static void run_free(run *r)
{
    free(r->t);
    free(r->lat);
    free(r->ok);
    free(r->status);
}

static const pr_chart_threshold slo = {250e6, "p99 SLO 250 ms"};

/* Where the charts go and how they are drawn. */
typedef struct out {
    const char *dir, *ext;
    pr_chart_opts o;
} out;

/* The time charts of one run: every sample's latency (big), then the series of m. */
static int time_charts(out *w, const run *big, const model *m)
{
    pr_chart_marker burst = {70e9, NAN, "error burst"};
    w->o.subtitle = "checkout-service · run 2026-11-30 14:02 UTC · 120 s, open model";
    w->o.thresholds = &slo;
    w->o.n_thresholds = 1;
    w->o.markers = &burst;
    w->o.n_markers = 1;
    pr_chart_points pts = {big->n, big->t, big->lat, big->ok};
    pr_chart_input in;
    memset(&in, 0, sizeof in);
    in.points = &pts;
    w->o.width = 1600;
    w->o.height = 900;
    int bad = draw("latency", &in, &w->o, w->dir, w->ext);
    w->o.width = 1200;
    w->o.height = 675;
    pr_chart_timeseries ts = {0};
    ts.n = NI;
    ts.t_ns = m->t;
    ts.interval_ns = 1000000000;
    ts.p50_ns = m->p50;
    ts.p90_ns = m->p90;
    ts.p99_ns = m->p99;
    ts.max_ns = m->mx;
    ts.ok_per_s = m->okps;
    ts.fail_per_s = m->failps;
    ts.rate_per_s = m->rate;
    ts.threads = m->threads;
    ts.n_codes = NCODES;
    ts.codes = m->codes;
    ts.code_counts = m->counts;
    in.ts = &ts;
    bad |= draw("percentiles", &in, &w->o, w->dir, w->ext);
    w->o.n_thresholds = 0;
    bad |= draw("throughput", &in, &w->o, w->dir, w->ext);
    bad |= draw("status", &in, &w->o, w->dir, w->ext);
    w->o.n_markers = 0;
    w->o.markers = NULL;
    return bad;
}

/* Two runs' distributions overlaid: the spectrum and the histogram. */
static int distribution_charts(out *w, const model *m, const model *m2)
{
    pr_chart_dist d[2] = {
        {"before (v1.41)", m->npct, m->pct, m->pct_lat, m->nb, m->blo, m->bhi, m->bcnt},
        {"after (v1.42, 缓存)", m2->npct, m2->pct, m2->pct_lat, m2->nb, m2->blo, m2->bhi,
         m2->bcnt},
    };
    pr_chart_input in;
    memset(&in, 0, sizeof in);
    in.dists = d;
    in.n_dists = 2;
    w->o.thresholds = &slo;
    w->o.n_thresholds = 1;
    w->o.subtitle = "checkout-service · v1.41 against v1.42";
    int bad = draw("spectrum", &in, &w->o, w->dir, w->ext);
    bad |= draw("histogram", &in, &w->o, w->dir, w->ext);
    return bad;
}

/* Labels (CJK and long names included, the SLO drawn) and three runs side by side. */
static int label_and_compare_charts(out *w)
{
    pr_chart_label labs[] = {
        {"GET /api/products", 42000000, 120000, 12},
        {"POST /api/checkout", 310000000, 8000, 240},
        {"登录 /api/login (用户认证)", 95000000, 15000, 0},
        {"GET /static/app.js", 3000000, 60000, 0},
        {"GET /api/search?q=…", 180000000, 30000, 1500},
        {"PUT /api/cart/items/{id}/quantity/very-long-endpoint-name-for-testing", 120000000,
         9000, 9},
        {"DELETE /api/cart", 60000000, 2000, 0},
        {"GET /health", 800000, 1200, 0},
    };
    pr_chart_labels L = {sizeof labs / sizeof labs[0], labs, "p95"};
    pr_chart_input in;
    memset(&in, 0, sizeof in);
    in.labels = &L;
    w->o.subtitle = NULL;
    int bad = draw("labels", &in, &w->o, w->dir, w->ext);
    const char *runs[] = {"baseline", "v1.42", "v1.42 + cache"};
    pr_chart_metric mets[] = {{"p50 latency", PR_CHART_UNIT_NS},
                              {"p99 latency", PR_CHART_UNIT_NS},
                              {"throughput", PR_CHART_UNIT_PER_S},
                              {"error ratio", PR_CHART_UNIT_RATIO}};
    double vals[] = {18e6, 16e6, 9e6, 240e6, 310e6, 120e6, 1180, 1210, 1650, 0.004, 0.021, 0.0};
    pr_chart_compare cmp = {3, runs, 4, mets, vals};
    in.compare = &cmp;
    w->o.n_thresholds = 0;
    bad |= draw("compare", &in, &w->o, w->dir, w->ext);
    return bad;
}

/* A capacity series of 15 runs past a capacity of 1850/s. */
static int capacity_chart(out *w)
{
    double off[15], thr[15], er[15];
    int64_t p99[15];
    for (int i = 0; i < 15; i++) {
        off[i] = 200.0 * (i + 1);
        double cap = 1850;
        thr[i] = off[i] < cap ? off[i] * 0.998 : cap - (off[i] - cap) * 0.15;
        double rho = off[i] / cap;
        p99[i] = (int64_t)((rho < 0.97 ? 40 / (1 - rho * 0.9) : 400 + (rho - 0.97) * 4000) * 1e6);
        er[i] = off[i] > cap ? (off[i] - cap) / off[i] * 0.5 : 0;
    }
    pr_chart_capacity cap = {15, off, thr, p99, er, -1, NULL, NULL};
    cap.knee = pr_chart_capacity_knee(&cap);
    pr_chart_input in;
    memset(&in, 0, sizeof in);
    in.capacity = &cap;
    w->o.subtitle = "checkout-service · 15 runs of 60 s, open model";
    return draw("capacity", &in, &w->o, w->dir, w->ext);
}

int main(int argc, char **argv)
{
    size_t npoints = 10000000;
    out w = {NULL, "png", {0}};
    pr_chart_opts_init(&w.o);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc)
            npoints = (size_t)strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            w.dir = argv[++i];
        else if (!strcmp(argv[i], "-s") && i + 1 < argc)
            w.o.scale = atof(argv[++i]);
        else if (!strcmp(argv[i], "-f") && i + 1 < argc)
            w.ext = argv[++i];
        else {
            fprintf(stderr, "usage: bench_chart [-n POINTS] [-o DIR] [-s SCALE] [-f png|svg|pdf]\n");
            return 2;
        }
    }
    run big, small, other;
    make_run(&big, npoints, 18, 120);
    make_run(&small, npoints < 300000 ? npoints : 300000, 18, 120);
    make_run(&other, 100000, 11, 120);
    model *m = pr_xcalloc(1, sizeof *m), *m2 = pr_xcalloc(1, sizeof *m2);
    compute(m, &small);
    compute(m2, &other);
    int bad = time_charts(&w, &big, m);
    bad |= distribution_charts(&w, m, m2);
    bad |= label_and_compare_charts(&w);
    bad |= capacity_chart(&w);
    run_free(&big);
    run_free(&small);
    run_free(&other);
    free(m);
    free(m2);
    return bad;
}
