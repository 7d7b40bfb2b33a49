/* Unit tests: chart kinds, axes, pixel positions, SVG text, CJK glyphs, determinism, hostile input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cairo.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "model/sample.h"
#include "model/xalloc.h"
#include "render/chart.h"
#include "render/chart_priv.h"

/* ---- helpers ------------------------------------------------------------------------- */

typedef struct reader {
    const pr_buf *b;
    size_t at;
} reader;

static cairo_status_t read_buf(void *closure, unsigned char *data, unsigned int len)
{
    reader *r = closure;
    if (r->at + len > r->b->len)
        return CAIRO_STATUS_READ_ERROR;
    memcpy(data, r->b->p + r->at, len);
    r->at += len;
    return CAIRO_STATUS_SUCCESS;
}

/* Decodes a PNG in memory; asserts it is one. */
static cairo_surface_t *png_decode(const pr_buf *b)
{
    reader r = {b, 0};
    assert_true(b->len > 8);
    assert_memory_equal(b->p, "\x89PNG\r\n\x1a\n", 8);
    cairo_surface_t *s = cairo_image_surface_create_from_png_stream(read_buf, &r);
    assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    cairo_surface_flush(s);
    return s;
}

typedef struct px {
    int r, g, b;
} px;

static px pixel(cairo_surface_t *s, int x, int y)
{
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    px p = {255, 255, 255};
    if (x < 0 || y < 0 || x >= w || y >= h)
        return p;
    const uint8_t *d = cairo_image_surface_get_data(s);
    uint32_t v = *(
        const uint32_t *)(const void *)(d + (size_t)y * (size_t)cairo_image_surface_get_stride(s) +
                                        (size_t)x * 4);
    /* opaque background: premultiplied == straight */
    p.r = (int)(v >> 16 & 0xff);
    p.g = (int)(v >> 8 & 0xff);
    p.b = (int)(v & 0xff);
    return p;
}

static int is_vermillion(px p)
{
    return p.r > p.g + 60 && p.r > p.b + 100;
}

/* Okabe-Ito blue #0072B2 (possibly lightened by alpha on white) */
static int is_blue(px p)
{
    return p.b > p.r + 60 && p.b > p.g + 20;
}

static int render(const char *kind, const pr_chart_input *in, const pr_chart_opts *o,
                  pr_chart_format fmt, pr_buf *out, pr_chart_frame *fr)
{
    pr_error err;
    pr_error_clear(&err);
    pr_buf_reset(out);
    int rc = pr_chart_render_buf(pr_chart_kind_find(kind), in, o, fmt, out, fr, &err);
    if (rc != 0)
        fprintf(stderr, "render %s: %s\n", kind, err.msg);
    return rc;
}

/* A full fixture: every input filled from small synthetic data. */
#define FN 60
typedef struct fixture {
    int64_t pt[2000], pl[2000];
    uint8_t pok[2000];
    pr_chart_points points;
    int64_t t[FN], p50[FN], p90[FN], p99[FN], mx[FN];
    double ok[FN], fail[FN], rate[FN], thr[FN];
    int codes[3];
    double counts[3 * FN];
    pr_chart_timeseries ts;
    double pct[8];
    int64_t pctl[8];
    int64_t blo[20], bhi[20];
    uint64_t bc[20];
    pr_chart_dist d[2];
    pr_chart_label labs[4];
    pr_chart_labels labels;
    const char *runs[2];
    pr_chart_metric mets[2];
    double vals[4];
    pr_chart_compare cmp;
    double off[6], tput[6], er[6];
    int64_t cp99[6];
    pr_chart_capacity cap;
    pr_chart_input in;
} fixture;

static fixture *fixture_new(void)
{
    fixture *f = pr_xcalloc(1, sizeof *f);
    for (int i = 0; i < 2000; i++) {
        f->pt[i] = (int64_t)i * 30000000;
        f->pl[i] = 5000000 + (int64_t)(i % 97) * 300000;
        f->pok[i] = i % 50 != 0;
    }
    f->points = (pr_chart_points){2000, f->pt, f->pl, f->pok};
    for (int i = 0; i < FN; i++) {
        f->t[i] = (int64_t)i * 1000000000;
        f->p50[i] = 10000000 + i * 10000;
        f->p90[i] = 20000000;
        f->p99[i] = 40000000;
        f->mx[i] = 90000000;
        f->ok[i] = 100 + i;
        f->fail[i] = i % 10;
        f->rate[i] = 110 + i;
        f->thr[i] = 10;
        f->counts[i] = 100;
        f->counts[FN + i] = 3;
        f->counts[2 * FN + i] = i % 7;
    }
    f->codes[0] = 200;
    f->codes[1] = 404;
    f->codes[2] = 503;
    f->ts = (pr_chart_timeseries){FN,    f->t,    1000000000, f->p50, f->p90, f->p99,   f->mx,
                                  f->ok, f->fail, f->rate,    f->thr, 3,      f->codes, f->counts};
    static const double ps[8] = {0, 50, 90, 99, 99.9, 99.99, 99.999, 100};
    for (int i = 0; i < 8; i++) {
        f->pct[i] = ps[i];
        f->pctl[i] = (int64_t)(1e6 * (i + 1) * (i + 1));
    }
    for (int i = 0; i < 20; i++) {
        f->blo[i] = (int64_t)(1e5 * pow(10, i / 5.0));
        f->bhi[i] = (int64_t)(1e5 * pow(10, (i + 1) / 5.0));
        f->bc[i] = (uint64_t)(100 - (i - 10) * (i - 10));
    }
    f->d[0] = (pr_chart_dist){"run A", 8, f->pct, f->pctl, 20, f->blo, f->bhi, f->bc};
    f->d[1] = (pr_chart_dist){"run B 运行", 8, f->pct, f->pctl, 20, f->blo, f->bhi, f->bc};
    f->labs[0] = (pr_chart_label){"GET /a", 20000000, 1000, 0};
    f->labs[1] = (pr_chart_label){"登录", 90000000, 500, 50};
    f->labs[2] = (pr_chart_label){"POST /b", 50000000, 10, 1};
    f->labs[3] = (pr_chart_label){NULL, -1, 0, 0};
    f->labels = (pr_chart_labels){4, f->labs, "p95"};
    f->runs[0] = "base";
    f->runs[1] = "new";
    f->mets[0] = (pr_chart_metric){"p99", PR_CHART_UNIT_NS};
    f->mets[1] = (pr_chart_metric){"throughput", PR_CHART_UNIT_PER_S};
    f->vals[0] = 50e6;
    f->vals[1] = 40e6;
    f->vals[2] = 900;
    f->vals[3] = 1100;
    f->cmp = (pr_chart_compare){2, f->runs, 2, f->mets, f->vals};
    for (int i = 0; i < 6; i++) {
        f->off[i] = 100.0 * (i + 1);
        f->tput[i] = i < 4 ? f->off[i] : 400;
        f->cp99[i] = (int64_t)(10e6 * (i < 4 ? 1 : 10 * i));
        f->er[i] = i < 4 ? 0 : 0.05;
    }
    f->cap = (pr_chart_capacity){6, f->off, f->tput, f->cp99, f->er, 4, NULL, NULL};
    f->in.points = &f->points;
    f->in.ts = &f->ts;
    f->in.dists = f->d;
    f->in.n_dists = 2;
    f->in.labels = &f->labels;
    f->in.compare = &f->cmp;
    f->in.capacity = &f->cap;
    return f;
}

/* ---- tests --------------------------------------------------------------------------- */

static void test_chart__kinds_table(void **st)
{
    static const char *const want[] = {"latency", "percentiles", "throughput",
                                       "status",  "spectrum",    "histogram",
                                       "labels",  "compare",     "capacity"};
    assert_int_equal(pr_chart_nkinds, 9);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const pr_chart_kind *k = pr_chart_kind_find(want[i]);
        assert_non_null(k);
        assert_string_equal(k->name, want[i]);
        assert_true(strlen(k->summary) > 10 && strlen(k->summary) < 90);
        assert_non_null(k->draw);
        assert_true(k->needs != 0);
    }
    for (size_t i = 0; i < pr_chart_nkinds; i++)
        for (size_t j = i + 1; j < pr_chart_nkinds; j++)
            assert_string_not_equal(pr_chart_kinds[i].name, pr_chart_kinds[j].name);
    assert_null(pr_chart_kind_find("pie"));
    assert_null(pr_chart_kind_find(NULL));
    assert_int_equal(pr_chart_format_for_path("a/b.PNG"), PR_CHART_PNG);
    assert_int_equal(pr_chart_format_for_path("x.svg"), PR_CHART_SVG);
    assert_int_equal(pr_chart_format_for_path("x.pdf"), PR_CHART_PDF);
    assert_int_equal(pr_chart_format_for_path("x.jpg"), -1);
    assert_int_equal(pr_chart_format_for_path("png"), -1);
}

static void test_chart__png_dimensions(void **st)
{
    fixture *f = fixture_new();
    pr_chart_opts o;
    pr_chart_opts_init(&o);
    pr_buf b = PR_BUF_INIT;
    for (size_t k = 0; k < pr_chart_nkinds; k++) {
        o.width = 640;
        o.height = 360;
        o.scale = 1;
        assert_int_equal(render(pr_chart_kinds[k].name, &f->in, &o, PR_CHART_PNG, &b, NULL), 0);
        cairo_surface_t *s = png_decode(&b);
        assert_int_equal(cairo_image_surface_get_width(s), 640);
        assert_int_equal(cairo_image_surface_get_height(s), 360);
        cairo_surface_destroy(s);
        o.scale = 2;
        assert_int_equal(render(pr_chart_kinds[k].name, &f->in, &o, PR_CHART_PNG, &b, NULL), 0);
        s = png_decode(&b);
        assert_int_equal(cairo_image_surface_get_width(s), 1280);
        assert_int_equal(cairo_image_surface_get_height(s), 720);
        cairo_surface_destroy(s);
    }
    /* defaults: 1200x675 */
    assert_int_equal(render("status", &f->in, NULL, PR_CHART_PNG, &b, NULL), 0);
    cairo_surface_t *s = png_decode(&b);
    assert_int_equal(cairo_image_surface_get_width(s), 1200);
    assert_int_equal(cairo_image_surface_get_height(s), 675);
    cairo_surface_destroy(s);
    pr_buf_dispose(&b);
    free(f);
}

/* A constant p50 of 10 ms draws its line on the row the frame maps 10 ms to, at scale 1 and 2. */
static void test_chart__constant_line_position(void **st)
{
    int64_t t[30], p50[30];
    for (int i = 0; i < 30; i++) {
        t[i] = (int64_t)i * 1000000000;
        p50[i] = 10000000;
    }
    pr_chart_timeseries ts;
    memset(&ts, 0, sizeof ts);
    ts.n = 30;
    ts.t_ns = t;
    ts.interval_ns = 1000000000;
    ts.p50_ns = p50;
    pr_chart_input in;
    memset(&in, 0, sizeof in);
    in.ts = &ts;
    pr_chart_opts o;
    pr_chart_opts_init(&o);
    o.width = 800;
    o.height = 450;
    o.log_y = PR_CHART_LOG_OFF;
    pr_buf b = PR_BUF_INIT;
    for (int scale = 1; scale <= 2; scale++) {
        o.scale = scale;
        pr_chart_frame fr;
        assert_int_equal(render("percentiles", &in, &o, PR_CHART_PNG, &b, &fr), 0);
        assert_false(fr.y_log);
        assert_true(fr.y_min <= 0 && fr.y_max > 10e6);
        double y = fr.plot_y + fr.plot_h * (1 - (10e6 - fr.y_min) / (fr.y_max - fr.y_min));
        cairo_surface_t *s = png_decode(&b);
        int hits = 0;
        for (int i = 0; i < 10; i++) {
            double xl = fr.plot_x + fr.plot_w * (0.2 + 0.06 * i);
            int found = 0;
            for (int dy = -2 * scale; dy <= 2 * scale; dy++)
                found |= is_blue(pixel(s, (int)(xl * scale), (int)(y * scale) + dy));
            hits += found;
            /* and nothing blue well above or below the line */
            assert_false(is_blue(pixel(s, (int)(xl * scale), (int)((y - 15) * scale))));
            assert_false(is_blue(pixel(s, (int)(xl * scale), (int)((y + 15) * scale))));
        }
        assert_int_equal(hits, 10);
        cairo_surface_destroy(s);
    }
    pr_buf_dispose(&b);
}

/* Errors only between 40 s and 50 s: the error colour appears in those columns and no other. */
static void test_chart__errors_only_where_errors(void **st)
{
    enum { N = 20000 };
    int64_t *t = pr_xmalloc(N * sizeof *t), *l = pr_xmalloc(N * sizeof *l);
    uint8_t *ok = pr_xmalloc(N);
    for (int i = 0; i < N; i++) {
        t[i] = (int64_t)i * 5000000; /* 0..100 s */
        l[i] = 10000000 + (int64_t)((i * 7919) % 1000) * 40000;
        ok[i] = !(t[i] >= 40000000000LL && t[i] < 50000000000LL && i % 3 == 0);
    }
    pr_chart_points p = {N, t, l, ok};
    pr_chart_input in;
    memset(&in, 0, sizeof in);
    in.points = &p;
    pr_chart_opts o;
    pr_chart_opts_init(&o);
    o.width = 900;
    o.height = 500;
    pr_buf b = PR_BUF_INIT;
    pr_chart_frame fr;
    assert_int_equal(render("latency", &in, &o, PR_CHART_PNG, &b, &fr), 0);
    cairo_surface_t *s = png_decode(&b);
    double x40 = fr.plot_x + (40e9 - fr.x_min) / (fr.x_max - fr.x_min) * fr.plot_w;
    double x50 = fr.plot_x + (50e9 - fr.x_min) / (fr.x_max - fr.x_min) * fr.plot_w;
    long inside = 0, outside = 0, blue = 0;
    for (int y = (int)fr.plot_y + 1; y < (int)(fr.plot_y + fr.plot_h) - 1; y++)
        for (int x = (int)fr.plot_x + 1; x < (int)(fr.plot_x + fr.plot_w) - 1; x++) {
            px c = pixel(s, x, y);
            if (is_blue(c))
                blue++;
            if (!is_vermillion(c))
                continue;
            if (x >= x40 - 2 && x <= x50 + 2)
                inside++;
            else
                outside++;
        }
    assert_int_equal(outside, 0);
    assert_true(inside > 200);
    assert_true(blue > 1000);
    cairo_surface_destroy(s);
    /* a time window shows only its samples: 45..60 s keeps the end of the burst at the left */
    o.from_ns = 45000000000LL;
    o.to_ns = 60000000000LL;
    assert_int_equal(render("latency", &in, &o, PR_CHART_PNG, &b, &fr), 0);
    assert_true(fr.x_min == 45e9 && fr.x_max == 60e9);
    s = png_decode(&b);
    x50 = fr.plot_x + (50e9 - fr.x_min) / (fr.x_max - fr.x_min) * fr.plot_w;
    inside = outside = 0;
    for (int y = (int)fr.plot_y + 1; y < (int)(fr.plot_y + fr.plot_h) - 1; y++)
        for (int x = (int)fr.plot_x + 1; x < (int)(fr.plot_x + fr.plot_w) - 1; x++) {
            if (!is_vermillion(pixel(s, x, y)))
                continue;
            if (x <= x50 + 2)
                inside++;
            else
                outside++;
        }
    assert_int_equal(outside, 0);
    assert_true(inside > 200);
    o.from_ns = o.to_ns = 0;
    /* the legend names both */
    assert_int_equal(render("latency", &in, &o, PR_CHART_SVG, &b, NULL), 0);
    assert_non_null(strstr(b.p, "legend: error (667 samples)"));
    cairo_surface_destroy(s);
    pr_buf_dispose(&b);
    free(t);
    free(l);
    free(ok);
}

static char *xml_text_of(xmlNode *root, const char *name)
{
    for (xmlNode *n = root->children; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name))
            return (char *)xmlNodeGetContent(n);
    return NULL;
}

static void test_chart__svg_wellformed_with_text(void **st)
{
    fixture *f = fixture_new();
    pr_chart_opts o;
    pr_chart_opts_init(&o);
    pr_buf b = PR_BUF_INIT;
    pr_chart_threshold thr = {250e6, "p99 SLO 250 ms & <more>"};
    o.thresholds = &thr;
    o.n_thresholds = 1;
    for (size_t k = 0; k < pr_chart_nkinds; k++) {
        assert_int_equal(render(pr_chart_kinds[k].name, &f->in, &o, PR_CHART_SVG, &b, NULL), 0);
        xmlDoc *doc = xmlReadMemory(b.p, (int)b.len, "chart.svg", NULL, XML_PARSE_NONET);
        assert_non_null(doc);
        xmlNode *root = xmlDocGetRootElement(doc);
        assert_string_equal((const char *)root->name, "svg");
        xmlChar *w = xmlGetProp(root, (const xmlChar *)"width");
        assert_string_equal((const char *)w, "1200px");
        xmlFree(w);
        char *title = xml_text_of(root, "title");
        assert_non_null(title);
        assert_true(strlen(title) > 5);
        xmlFree(title);
        xmlFreeDoc(doc);
    }
    /* expected axis titles and the user's title (UTF-8) */
    o.title = "Latenz / 延迟 <p95>";
    assert_int_equal(render("labels", &f->in, &o, PR_CHART_SVG, &b, NULL), 0);
    xmlDoc *doc = xmlReadMemory(b.p, (int)b.len, "chart.svg", NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    xmlNode *root = xmlDocGetRootElement(doc);
    char *title = xml_text_of(root, "title");
    assert_string_equal(title, "Latenz / 延迟 <p95>");
    xmlFree(title);
    char *desc = xml_text_of(root, "desc");
    assert_non_null(strstr(desc, "x axis: p95 (ms)"));
    assert_non_null(strstr(desc, "threshold: p99 SLO 250 ms & <more>"));
    xmlFree(desc);
    xmlFreeDoc(doc);
    o.title = NULL;
    o.n_thresholds = 0;
    assert_int_equal(render("percentiles", &f->in, &o, PR_CHART_SVG, &b, NULL), 0);
    doc = xmlReadMemory(b.p, (int)b.len, "chart.svg", NULL, XML_PARSE_NONET);
    root = xmlDocGetRootElement(doc);
    desc = xml_text_of(root, "desc");
    assert_non_null(strstr(desc, "x axis: Time since run start (s)"));
    assert_non_null(strstr(desc, "y axis: Latency by send time (ms)"));
    assert_non_null(strstr(desc, "legend: p90"));
    xmlFree(desc);
    title = xml_text_of(root, "title");
    assert_string_equal(title, "Latency percentiles over time");
    xmlFree(title);
    xmlFreeDoc(doc);
    pr_buf_dispose(&b);
    free(f);
}

static void test_chart__cjk_glyphs(void **st)
{
    assert_int_equal(pr_chart_missing_glyphs("登录 用户认证 延迟 – latency µs", NULL), 0);
    assert_int_equal(pr_chart_missing_glyphs("日本語のラベル 한국어", NULL), 0);
    /* the check itself works: a private-use code point has no glyph in any font */
    assert_true(pr_chart_missing_glyphs("\xee\x80\x80\xee\x80\x81", NULL) > 0);
    /* and a CJK title puts ink where the title is */
    fixture *f = fixture_new();
    pr_chart_opts o;
    pr_chart_opts_init(&o);
    o.width = 600;
    o.height = 300;
    o.title = "接口延迟";
    pr_buf b = PR_BUF_INIT;
    assert_int_equal(render("labels", &f->in, &o, PR_CHART_PNG, &b, NULL), 0);
    cairo_surface_t *s = png_decode(&b);
    long dark = 0;
    for (int y = 10; y < 34; y++)
        for (int x = 16; x < 90; x++) {
            px c = pixel(s, x, y);
            dark += c.r < 100 && c.g < 100 && c.b < 100;
        }
    assert_true(dark > 60);
    cairo_surface_destroy(s);
    pr_buf_dispose(&b);
    free(f);
}

static void test_chart__byte_identical(void **st)
{
    fixture *f = fixture_new();
    pr_chart_opts o;
    pr_chart_opts_init(&o);
    o.width = 500;
    o.height = 300;
    pr_chart_marker m = {20e9, NAN, "saturation"};
    o.markers = &m;
    o.n_markers = 1;
    pr_buf a = PR_BUF_INIT, b = PR_BUF_INIT;
    for (int fmt = PR_CHART_PNG; fmt <= PR_CHART_PDF; fmt++)
        for (size_t k = 0; k < pr_chart_nkinds; k++) {
            assert_int_equal(
                render(pr_chart_kinds[k].name, &f->in, &o, (pr_chart_format)fmt, &a, NULL), 0);
            assert_int_equal(
                render(pr_chart_kinds[k].name, &f->in, &o, (pr_chart_format)fmt, &b, NULL), 0);
            if (a.len != b.len || memcmp(a.p, b.p, a.len))
                fail_msg("%s (format %d) differs between two renders", pr_chart_kinds[k].name, fmt);
        }
    /* the PDF date is the fixed one, never today's */
    assert_int_equal(render("status", &f->in, &o, PR_CHART_PDF, &a, NULL), 0);
    assert_true(memcmp(a.p, "%PDF-", 5) == 0);
    pr_buf_dispose(&a);
    pr_buf_dispose(&b);
    free(f);
}

static void test_chart__empty_and_one_point(void **st)
{
    pr_chart_points p0 = {0, NULL, NULL, NULL};
    pr_chart_timeseries ts0;
    memset(&ts0, 0, sizeof ts0);
    pr_chart_labels l0 = {0, NULL, NULL};
    pr_chart_compare c0;
    memset(&c0, 0, sizeof c0);
    pr_chart_capacity cap0;
    memset(&cap0, 0, sizeof cap0);
    cap0.knee = -1;
    pr_chart_input in = {&p0, &ts0, NULL, 0, &l0, &c0, &cap0, NULL, 0};
    pr_buf b = PR_BUF_INIT;
    for (int fmt = PR_CHART_PNG; fmt <= PR_CHART_PDF; fmt++)
        for (size_t k = 0; k < pr_chart_nkinds; k++)
            assert_int_equal(
                render(pr_chart_kinds[k].name, &in, NULL, (pr_chart_format)fmt, &b, NULL), 0);
    assert_int_equal(render("percentiles", &in, NULL, PR_CHART_SVG, &b, NULL), 0);
    assert_non_null(strstr(b.p, "No data"));

    int64_t t1 = 0, l1 = 5000000, p1 = 5000000;
    uint8_t ok1 = 0;
    double d1 = 7, off1 = 100;
    int code = 200;
    double pct1 = 50;
    uint64_t c1 = 3;
    pr_chart_points p = {1, &t1, &l1, &ok1};
    pr_chart_timeseries ts = {1,   &t1, 1000000000, &p1, &p1, &p1,   &p1,
                              &d1, &d1, &d1,        &d1, 1,   &code, &d1};
    pr_chart_dist d = {"one", 1, &pct1, &p1, 1, &l1, &l1, &c1};
    pr_chart_label lab = {"only", 5000000, 1, 1};
    pr_chart_labels ls = {1, &lab, NULL};
    const char *rn = "r";
    pr_chart_metric mt = {"p99", PR_CHART_UNIT_NS};
    pr_chart_compare cmp = {1, &rn, 1, &mt, &d1};
    pr_chart_capacity cap = {1, &off1, &d1, &p1, &d1, 0, NULL, NULL};
    pr_chart_input in1 = {&p, &ts, &d, 1, &ls, &cmp, &cap, NULL, 0};
    for (size_t k = 0; k < pr_chart_nkinds; k++)
        assert_int_equal(render(pr_chart_kinds[k].name, &in1, NULL, PR_CHART_PNG, &b, NULL), 0);
    pr_buf_dispose(&b);
}

static void test_chart__hostile_values(void **st)
{
    const double bad[] = {NAN, INFINITY, -INFINITY, -1, 1e308, -1e308, 0, 5e-324};
    const int64_t badl[] = {PR_UNKNOWN, INT64_MAX, -1, 0, 1, INT64_MAX / 2, 1000, PR_UNKNOWN};
    enum { N = 8 };
    int64_t t[N], l[N];
    uint8_t ok[N];
    double dv[N * 3];
    int codes[3] = {-5, 0, 99999};
    double pct[N];
    uint64_t cnt[N];
    int64_t lo[N], hi[N];
    for (int i = 0; i < N; i++) {
        t[i] = badl[(i + 3) % N];
        l[i] = badl[i];
        ok[i] = (uint8_t)(i * 37);
        dv[i] = dv[N + i] = dv[2 * N + i] = bad[i];
        pct[i] = bad[i];
        cnt[i] = i % 2 ? UINT64_MAX : 0;
        lo[i] = badl[i];
        hi[i] = badl[(i + 1) % N];
    }
    pr_chart_points p = {N, t, l, ok};
    pr_chart_timeseries ts = {N, t, -5, l, l, l, l, dv, dv, dv, dv, 3, codes, dv};
    pr_chart_dist d[2] = {{NULL, N, pct, l, N, lo, hi, cnt}, {"", N, pct, l, N, hi, lo, cnt}};
    pr_chart_label labs[3] = {
        {NULL, INT64_MAX, 0, 5}, {"x", PR_UNKNOWN, UINT64_MAX, UINT64_MAX}, {"", 0, 1, 0}};
    pr_chart_labels ls = {3, labs, ""};
    const char *rn[2] = {NULL, ""};
    pr_chart_metric mt[2] = {{NULL, (pr_chart_unit)77}, {"", PR_CHART_UNIT_RATIO}};
    pr_chart_compare cmp = {2, rn, 2, mt, dv};
    pr_chart_capacity cap = {N, dv, dv, l, dv, 1000, NULL, NULL};
    pr_chart_input in = {&p, &ts, d, 2, &ls, &cmp, &cap, NULL, 0};
    pr_chart_threshold thr[3] = {{NAN, NULL}, {1e300, "huge"}, {-5, "neg"}};
    pr_chart_marker mk[3] = {{NAN, NAN, NULL}, {1e300, -1e300, "far"}, {-1, INFINITY, ""}};
    pr_chart_opts o;
    pr_chart_opts_init(&o);
    o.width = 300;
    o.height = 200;
    o.thresholds = thr;
    o.n_thresholds = 3;
    o.markers = mk;
    o.n_markers = 3;
    pr_buf b = PR_BUF_INIT;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int lg = 0; lg <= 2; lg++)
        for (int abs_time = 0; abs_time <= 1; abs_time++)
            for (size_t k = 0; k < pr_chart_nkinds; k++) {
                o.log_y = lg;
                o.abs_time = abs_time;
                o.start_ns = abs_time ? INT64_MAX - 5 : 0;
                assert_int_equal(render(pr_chart_kinds[k].name, &in, &o, PR_CHART_PNG, &b, NULL),
                                 0);
            }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_true(t1.tv_sec - t0.tv_sec < 20);
    /* a tiny canvas still draws */
    o.width = 16;
    o.height = 16;
    for (size_t k = 0; k < pr_chart_nkinds; k++)
        assert_int_equal(render(pr_chart_kinds[k].name, &in, &o, PR_CHART_SVG, &b, NULL), 0);
    pr_buf_dispose(&b);
}

/* Many codes, runs, labels and metrics: bounded work, no crash. */
static void test_chart__many_series(void **st)
{
    enum { NC = 100000, NL = 100000, ND = 200 };
    int *codes = pr_xmalloc(NC * sizeof *codes);
    double *counts = pr_xmalloc(NC * 2 * sizeof *counts);
    for (int c = 0; c < NC; c++) {
        codes[c] = 100 + c % 700;
        counts[2 * c] = counts[2 * c + 1] = 1;
    }
    int64_t t[2] = {0, 1000000000};
    pr_chart_timeseries ts;
    memset(&ts, 0, sizeof ts);
    ts.n = 2;
    ts.t_ns = t;
    ts.interval_ns = 1000000000;
    ts.n_codes = NC;
    ts.codes = codes;
    ts.code_counts = counts;
    pr_chart_label *labs = pr_xcalloc(NL, sizeof *labs);
    for (int i = 0; i < NL; i++)
        labs[i] =
            (pr_chart_label){"same name", (int64_t)(i % 1000) * 1000000, 10, (uint64_t)(i % 3)};
    pr_chart_labels ls = {NL, labs, "p50"};
    fixture *f = fixture_new();
    pr_chart_dist *d = pr_xcalloc(ND, sizeof *d);
    for (int i = 0; i < ND; i++)
        d[i] = f->d[i % 2];
    pr_chart_input in = f->in;
    in.ts = &ts;
    in.labels = &ls;
    in.dists = d;
    in.n_dists = ND;
    pr_buf b = PR_BUF_INIT;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(render("status", &in, NULL, PR_CHART_SVG, &b, NULL), 0);
    assert_non_null(strstr(b.p, "more codes not drawn"));
    assert_int_equal(render("labels", &in, NULL, PR_CHART_SVG, &b, NULL), 0);
    assert_non_null(strstr(b.p, "more labels"));
    assert_int_equal(render("spectrum", &in, NULL, PR_CHART_PNG, &b, NULL), 0);
    assert_int_equal(render("histogram", &in, NULL, PR_CHART_PNG, &b, NULL), 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_true(t1.tv_sec - t0.tv_sec < 20);
    pr_buf_dispose(&b);
    free(codes);
    free(counts);
    free(labs);
    free(d);
    free(f);
}

static void test_chart__usage_errors(void **st)
{
    fixture *f = fixture_new();
    pr_chart_opts o;
    pr_chart_opts_init(&o);
    pr_buf b = PR_BUF_INIT;
    pr_error err;
    const pr_chart_kind *k = pr_chart_kind_find("latency");
    pr_chart_input none;
    memset(&none, 0, sizeof none);
    assert_int_equal(pr_chart_render_buf(k, &none, &o, PR_CHART_PNG, &b, NULL, &err), PR_EUSAGE);
    assert_string_equal(err.msg, "chart 'latency' needs per-sample points");
    o.width = 15;
    assert_int_equal(pr_chart_render_buf(k, &f->in, &o, PR_CHART_PNG, &b, NULL, &err), PR_EUSAGE);
    o.width = 20001;
    assert_int_equal(pr_chart_render_buf(k, &f->in, &o, PR_CHART_PNG, &b, NULL, &err), PR_EUSAGE);
    o.width = 20000;
    o.height = 20000;
    assert_int_equal(pr_chart_render_buf(k, &f->in, &o, PR_CHART_PNG, &b, NULL, &err), PR_EUSAGE);
    o.width = 800;
    o.height = 600;
    o.scale = NAN;
    /* NaN scale is "not set" -> 1 */
    assert_int_equal(pr_chart_render_buf(k, &f->in, &o, PR_CHART_PNG, &b, NULL, &err), 0);
    o.scale = 9;
    assert_int_equal(pr_chart_render_buf(k, &f->in, &o, PR_CHART_PNG, &b, NULL, &err), PR_EUSAGE);
    o.scale = 1;
    assert_int_equal(pr_chart_render_buf(NULL, &f->in, &o, PR_CHART_PNG, &b, NULL, &err),
                     PR_EUSAGE);
    assert_int_equal(pr_chart_render_file(k, &f->in, &o, "chart.gif", NULL, &err), PR_EUSAGE);
    assert_string_equal(err.path, "chart.gif");
    assert_int_equal(pr_chart_render_file(k, &f->in, &o, "/nonexistent-dir/x.png", NULL, &err),
                     PR_EIO);
    assert_string_equal(err.path, "/nonexistent-dir/x.png");
    /* a full disk is an error, and no truncated file stays behind */
    char full[64];
    snprintf(full, sizeof full, "/tmp/test_chart_full_%ld.png", (long)getpid());
    if (symlink("/dev/full", full) == 0) {
        assert_int_equal(pr_chart_render_file(k, &f->in, &o, full, NULL, &err), PR_EIO);
        assert_non_null(strstr(err.msg, "writing chart file failed"));
        assert_int_equal(access(full, F_OK), -1);
        unlink(full);
    }
    /* and a real file */
    char path[] = "/tmp/test_chart_XXXXXX.svg";
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(
        pr_chart_render_file(pr_chart_kind_find("spectrum"), &f->in, &o, path, NULL, &err), 0);
    FILE *fp = fopen(path, "rb");
    char head[6] = {0};
    assert_int_equal(fread(head, 1, 5, fp), 5);
    fclose(fp);
    assert_string_equal(head, "<?xml");
    unlink(path);
    pr_buf_dispose(&b);
    free(f);
}

/* Axis ticks land on round 1-2-5 numbers in a unit chosen from the range. */
static void test_chart__axis_ticks(void **st)
{
    pr_axis a;
    char buf[64], t[128];
    memset(&a, 0, sizeof a);
    a.title = "Latency";
    pr_axis_set(&a, AX_DUR, 0, 3e6, 730e6, 1);
    pr_axis_ticks(&a, 400, 45);
    assert_true(a.nt >= 4 && a.nt <= 10);
    assert_true(a.t[0] == 0);
    for (int i = 1; i < a.nt; i++) {
        double step = (a.t[i] - a.t[i - 1]) / 1e6;
        assert_true(step == 100 || step == 200 || step == 50);
    }
    pr_axis_label(&a, a.t[1], buf, sizeof buf);
    assert_true(!strcmp(buf, "100") || !strcmp(buf, "200") || !strcmp(buf, "50"));
    pr_axis_title(&a, t, sizeof t);
    assert_string_equal(t, "Latency (ms)");
    assert_true(a.hi >= 730e6 && a.hi <= 800e6);

    pr_axis_set(&a, AX_DUR, 1, 800e3, 9e9, 0);
    pr_axis_ticks(&a, 400, 45);
    const char *want[] = {"1 ms", "10 ms", "100 ms", "1 s"};
    int w = 0;
    for (int i = 0; i < a.nt; i++) {
        if (!a.lab[i])
            continue;
        pr_axis_label(&a, a.t[i], buf, sizeof buf);
        if (w < 4 && !strcmp(buf, want[w]))
            w++;
    }
    assert_int_equal(w, 4);
    pr_axis_title(&a, t, sizeof t);
    assert_string_equal(t, "Latency (log scale)");

    pr_axis_set(&a, AX_DUR, 0, 0, 700, 1);
    pr_axis_ticks(&a, 400, 45);
    pr_axis_title(&a, t, sizeof t);
    assert_string_equal(t, "Latency (ns)");
    pr_axis_set(&a, AX_DUR, 0, 0, 4500, 1);
    pr_axis_ticks(&a, 400, 45);
    pr_axis_title(&a, t, sizeof t);
    assert_string_equal(t, "Latency (\xc2\xb5s)");

    pr_axis_set(&a, AX_SPECTRUM, 0, 0, 100, 0);
    pr_axis_ticks(&a, 600, 100);
    assert_true(a.hi == 5);
    const char *sp[] = {"0%", "90%", "99%", "99.9%", "99.99%", "99.999%"};
    for (int i = 0; i < 6; i++) {
        pr_axis_label(&a, a.t[i], buf, sizeof buf);
        assert_string_equal(buf, sp[i]);
    }

    a.title = "Time since run start";
    pr_axis_set(&a, AX_TIME, 0, 0, 3600e9, 1);
    pr_axis_ticks(&a, 800, 100);
    pr_axis_title(&a, t, sizeof t);
    assert_string_equal(t, "Time since run start (min:s)");
    pr_axis_label(&a, a.t[1], buf, sizeof buf);
    assert_true(!strcmp(buf, "5:00") || !strcmp(buf, "10:00"));

    a.abs_time = 1;
    a.epoch_ns = 1796047320000000000LL + 7000000000LL; /* 2026-11-30 14:02:07 UTC */
    pr_axis_set(&a, AX_TIME, 0, 0, 120e9, 1);
    pr_axis_ticks(&a, 800, 100);
    pr_axis_label(&a, a.t[0], buf, sizeof buf);
    assert_string_equal(buf, "14:02:15"); /* 15 s steps, the first round instant after 14:02:07 */
    pr_axis_title(&a, t, sizeof t);
    assert_string_equal(t, "Time, UTC (2026-11-30)");

    a.abs_time = 0;
    memset(&a, 0, sizeof a);
    pr_axis_set(&a, AX_NUM, 0, 0, 23456, 1);
    pr_axis_ticks(&a, 400, 45);
    pr_axis_label(&a, a.t[1], buf, sizeof buf);
    assert_true(!strcmp(buf, "5k") || !strcmp(buf, "2k") || !strcmp(buf, "10k"));

    pr_human_duration_short(1500000, buf, sizeof buf);
    assert_string_equal(buf, "1.5 ms");
    pr_human_duration_short(250e6, buf, sizeof buf);
    assert_string_equal(buf, "250 ms");
    pr_human_duration_short(2e9, buf, sizeof buf);
    assert_string_equal(buf, "2 s");
    pr_human_duration_short(800e3, buf, sizeof buf);
    assert_string_equal(buf, "800 \xc2\xb5s");
}

static int is_dark(px p)
{
    return p.r < 90 && p.g < 90 && p.b < 90;
}

static int is_purple(px p)
{
    /* Okabe-Ito reddish purple #CC79A7 */
    return p.r > 170 && p.g > 90 && p.g < 150 && p.b > 130 && p.b < 200;
}

/* A threshold draws its dashed line at the value's row; a marker its line at the x of its time. */
static void test_chart__annotations_position(void **st)
{
    fixture *f = fixture_new();
    pr_chart_opts o;
    pr_chart_opts_init(&o);
    o.width = 800;
    o.height = 450;
    o.log_y = PR_CHART_LOG_OFF;
    pr_chart_threshold thr = {30e6, "SLO"};
    pr_chart_marker mk = {25e9, NAN, "saturation"};
    o.thresholds = &thr;
    o.n_thresholds = 1;
    o.markers = &mk;
    o.n_markers = 1;
    f->ts.p90_ns = f->ts.p99_ns = f->ts.max_ns = NULL; /* only p50 (~10 ms), far from 30 ms */
    pr_buf b = PR_BUF_INIT;
    pr_chart_frame fr;
    assert_int_equal(render("percentiles", &f->in, &o, PR_CHART_PNG, &b, &fr), 0);
    cairo_surface_t *s = png_decode(&b);
    double y = fr.plot_y + fr.plot_h * (1 - (30e6 - fr.y_min) / (fr.y_max - fr.y_min));
    double x = fr.plot_x + (25e9 - fr.x_min) / (fr.x_max - fr.x_min) * fr.plot_w;
    int on = 0, off = 0;
    for (int xx = (int)fr.plot_x + 5; xx < (int)(fr.plot_x + fr.plot_w * 0.5); xx++) {
        int d = 0;
        for (int dy = -1; dy <= 1; dy++)
            d |= is_dark(pixel(s, xx, (int)y + dy));
        on += d;
        off += is_dark(pixel(s, xx, (int)y + 12));
    }
    assert_true(on > (int)(fr.plot_w * 0.5) / 2); /* dashes cover more than half */
    assert_int_equal(off, 0);
    on = 0;
    off = 0;
    for (int yy = (int)fr.plot_y + 30; yy < (int)(fr.plot_y + fr.plot_h) - 5; yy++) {
        int d = 0;
        for (int dx = -1; dx <= 1; dx++)
            d |= is_purple(pixel(s, (int)x + dx, yy));
        on += d;
        off += is_purple(pixel(s, (int)x + 15, yy));
    }
    assert_true(on > (int)(fr.plot_h - 35) / 2);
    assert_int_equal(off, 0);
    cairo_surface_destroy(s);
    pr_buf_dispose(&b);
    free(f);
}

/* At scale 2 the scatter bins per device pixel; a lone sample still covers a logical pixel. */
static void test_chart__scatter_hidpi(void **st)
{
    int64_t t[3] = {0, 50000000000LL, 100000000000LL}, l[3] = {10000000, 10000000, 10000000};
    pr_chart_points p = {3, t, l, NULL};
    pr_chart_input in;
    memset(&in, 0, sizeof in);
    in.points = &p;
    pr_chart_opts o;
    pr_chart_opts_init(&o);
    o.width = 600;
    o.height = 300;
    o.scale = 2;
    o.log_y = PR_CHART_LOG_OFF;
    pr_buf b = PR_BUF_INIT;
    pr_chart_frame fr;
    assert_int_equal(render("latency", &in, &o, PR_CHART_PNG, &b, &fr), 0);
    cairo_surface_t *s = png_decode(&b);
    double x = fr.plot_x + (50e9 - fr.x_min) / (fr.x_max - fr.x_min) * fr.plot_w;
    double y = fr.plot_y + fr.plot_h * (1 - (10e6 - fr.y_min) / (fr.y_max - fr.y_min));
    int blue = 0;
    for (int dy = -3; dy <= 3; dy++)
        for (int dx = -3; dx <= 3; dx++)
            blue += is_blue(pixel(s, (int)(x * 2) + dx, (int)(y * 2) + dy));
    assert_true(blue >= 4);
    assert_true(blue <= 9);
    cairo_surface_destroy(s);
    pr_buf_dispose(&b);
}

/* The latency chart of compact chunks (analysis/points.h: offsets or plain values, outcomes
 * as bits or none, unknown latencies left out, a summary per chunk) is the chart of the same
 * points as flat arrays, byte for byte, binned on one thread or two, on log and linear axes,
 * with and without a window that cuts chunks. */
static void test_chart__latency_chunks_same_as_flat(void **st)
{
    enum { N = 300000, CH = 4096 };
    int64_t *t = malloc(N * sizeof *t), *l = malloc(N * sizeof *l);
    uint8_t *ok = malloc(N);
    uint64_t r = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < N; i++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        int k = i / CH;
        /* most chunks span ~80 ms of starts; every 7th spans minutes (plain values) */
        t[i] = k % 7 == 3 ? (int64_t)(r % 600000000000ull)
                          : (int64_t)k * 80000000 + (int64_t)(r % 80000000);
        l[i] = 100000 + (int64_t)(r >> 40) * (1 + (int64_t)(r >> 60)); /* 0.1 ms .. ~250 ms */
        if (k % 5 == 2 && i % 97 == 0)
            l[i] = 9000000000LL; /* 9 s: this chunk's latencies as plain values */
        if (i % 1013 == 0)
            l[i] = -1; /* unknown */
        if (i % 499 == 0)
            l[i] = 0;
        ok[i] = !(k % 3 == 0 && r % 50 == 0); /* errors in every third chunk only */
    }
    size_t nc = (N + CH - 1) / CH;
    pr_chart_point_chunk *ck = calloc(nc, sizeof *ck);
    uint32_t *dt = malloc(N * sizeof *dt), *dl = malloc(N * sizeof *dl);
    int64_t *wt = malloc(N * sizeof *wt), *wl = malloc(N * sizeof *wl);
    uint8_t *bits = calloc(N / 8 + nc, 1);
    size_t m = 0, bitat = 0;
    for (size_t k = 0; k < nc; k++) {
        pr_chart_point_chunk *c = &ck[k];
        size_t at = m, errs = 0;
        int64_t tlo = INT64_MAX, thi = INT64_MIN, llo = INT64_MAX, lhi = INT64_MIN,
                lpos = INT64_MAX;
        for (size_t i = k * CH; i < (k + 1) * CH && i < N; i++) {
            if (l[i] < 0)
                continue;
            wt[m] = t[i], wl[m] = l[i];
            tlo = t[i] < tlo ? t[i] : tlo, thi = t[i] > thi ? t[i] : thi;
            llo = l[i] < llo ? l[i] : llo, lhi = l[i] > lhi ? l[i] : lhi;
            lpos = l[i] > 0 && l[i] < lpos ? l[i] : lpos;
            if (!ok[i])
                errs++;
            else
                bits[bitat + (m - at) / 8] |= (uint8_t)(1u << ((m - at) % 8));
            m++;
        }
        size_t n = m - at;
        *c = (pr_chart_point_chunk){
            n,   tlo, llo,  NULL, NULL, wt + at, wl + at, errs ? bits + bitat : NULL,
            tlo, thi, lpos, lhi,  errs};
        bitat += n / 8 + 1;
        if (thi - tlo <= UINT32_MAX) {
            for (size_t i = at; i < m; i++)
                dt[i] = (uint32_t)(wt[i] - tlo);
            c->dt = dt + at, c->t_ns = NULL;
        }
        if (lhi - llo <= UINT32_MAX) {
            for (size_t i = at; i < m; i++)
                dl[i] = (uint32_t)(wl[i] - llo);
            c->dl = dl + at, c->latency_ns = NULL;
        }
    }
    assert_true(ck[3].t_ns && !ck[0].t_ns && ck[2].latency_ns && !ck[1].latency_ns);
    pr_chart_points flat = {N, t, l, ok}, none = {0, NULL, NULL, NULL};
    pr_chart_input fi, ci;
    memset(&fi, 0, sizeof fi);
    memset(&ci, 0, sizeof ci);
    fi.points = &flat;
    ci.points = &none;
    ci.point_chunks = ck;
    ci.n_point_chunks = nc;
    pr_buf want = PR_BUF_INIT, got = PR_BUF_INIT;
    for (int v = 0; v < 4; v++) {
        pr_chart_opts o;
        pr_chart_opts_init(&o);
        o.width = 500;
        o.height = 300;
        o.log_y = v % 2 ? PR_CHART_LOG_OFF : PR_CHART_LOG_ON;
        if (v >= 2) { /* a window through the middle of chunks */
            o.from_ns = 1000000000 + 12345;
            o.to_ns = 4000000000LL - 777;
        }
        o.threads = 1;
        assert_int_equal(render("latency", &fi, &o, PR_CHART_PNG, &want, NULL), 0);
        for (int th = 1; th <= 2; th++) {
            o.threads = th;
            assert_int_equal(render("latency", &ci, &o, PR_CHART_PNG, &got, NULL), 0);
            assert_true(got.len == want.len && memcmp(got.p, want.p, want.len) == 0);
            assert_int_equal(render("latency", &fi, &o, PR_CHART_PNG, &got, NULL), 0);
            assert_true(got.len == want.len && memcmp(got.p, want.p, want.len) == 0);
        }
    }
    pr_buf_dispose(&want);
    pr_buf_dispose(&got);
    free(t), free(l), free(ok), free(ck), free(dt), free(dl), free(wt), free(wl), free(bits);
    (void)st;
}

static void test_chart__capacity_knee(void **st)
{
    double off[5] = {100, 200, 300, 400, 500}, tp[5] = {100, 200, 299, 330, 320};
    int64_t p99[5] = {10000000, 11000000, 12000000, 90000000, 200000000};
    pr_chart_capacity c = {5, off, tp, p99, NULL, -1, NULL, NULL};
    assert_int_equal(pr_chart_capacity_knee(&c), 3);
    tp[3] = 400;
    tp[4] = 500;
    p99[3] = 12000000;
    assert_int_equal(pr_chart_capacity_knee(&c), 4);
    p99[4] = 13000000;
    assert_int_equal(pr_chart_capacity_knee(&c), -1);
    assert_int_equal(pr_chart_capacity_knee(NULL), -1);
}

int main(void)
{
    setenv("SOURCE_DATE_EPOCH", "1796083200", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chart__kinds_table),
        cmocka_unit_test(test_chart__png_dimensions),
        cmocka_unit_test(test_chart__constant_line_position),
        cmocka_unit_test(test_chart__errors_only_where_errors),
        cmocka_unit_test(test_chart__svg_wellformed_with_text),
        cmocka_unit_test(test_chart__cjk_glyphs),
        cmocka_unit_test(test_chart__byte_identical),
        cmocka_unit_test(test_chart__empty_and_one_point),
        cmocka_unit_test(test_chart__hostile_values),
        cmocka_unit_test(test_chart__many_series),
        cmocka_unit_test(test_chart__usage_errors),
        cmocka_unit_test(test_chart__axis_ticks),
        cmocka_unit_test(test_chart__capacity_knee),
        cmocka_unit_test(test_chart__latency_chunks_same_as_flat),
        cmocka_unit_test(test_chart__annotations_position),
        cmocka_unit_test(test_chart__scatter_hidpi),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    pr_chart_shutdown();
    return rc;
}
