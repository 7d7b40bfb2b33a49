/* The k6 readers' shared core: joining the points of one HTTP request into one sample within
 * a bounded window, tag mapping, and per-second series of the other metrics (see k6.h). */
#include "parsers/k6.h"
#include "parsers/textsum.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const http_names[PR_K6_NHTTP] = {
    "http_reqs",           "http_req_duration",        "http_req_blocked",
    "http_req_connecting", "http_req_tls_handshaking", "http_req_sending",
    "http_req_waiting",    "http_req_receiving",       "http_req_failed"};

typedef struct req {
    uint64_t key;
    int64_t time_ns;
    uint32_t mask;
    int live;
    int expected; /* expected_response tag: 1, 0, -1 absent */
    int64_t v[PR_K6_NHTTP];
    pr_sample s; /* tag-derived fields */
} req;

typedef struct bucket {
    int64_t sec, count;
    double sum, min, max;
} bucket;

typedef struct series {
    char *name;
    bucket *b;
    size_t n, cap;
    int64_t count, dropped;
    double sum, min, max, last;
} series;

typedef struct check {
    char *name;
    int64_t passes, fails;
} check;

struct pr_k6_acc {
    pr_sink *sink;
    const char *src;
    req ring[PR_K6_PENDING];
    size_t head, count;               /* FIFO of requests, oldest at head */
    uint32_t slot[2 * PR_K6_PENDING]; /* hash index: ring position + 1, 0 empty */
    int has_failed;                   /* the file writes http_req_failed points */
    int32_t vus;
    int32_t vus_most, vus_max; /* the most VUs of the vus and vus_max points, -1: none */
    int zone_set;
    series *ser;
    size_t nser, ser_dropped;
    size_t last_ser;
    check *chk;
    size_t nchk, chk_dropped;
    json_t *decls;
    int64_t orphans, split, points;
    pr_k6_tags tags;
};

int pr_k6_metric_of(pr_str name)
{
    if (name.n < 9 || memcmp(name.p, "http_req", 8) != 0)
        return PR_K6_OTHER;
    for (int i = 0; i < PR_K6_NHTTP; i++)
        if (pr_str_eq(name, http_names[i]))
            return i;
    return PR_K6_OTHER;
}

void pr_k6_tags_add(pr_k6_tags *t, pr_str k, pr_str v)
{
    static const struct {
        const char *k;
        size_t off;
    } map[] = {
        {"status", offsetof(pr_k6_tags, status)},
        {"expected_response", offsetof(pr_k6_tags, expected)},
        {"error_code", offsetof(pr_k6_tags, error_code)},
        {"error", offsetof(pr_k6_tags, error)},
        {"name", offsetof(pr_k6_tags, name)},
        {"url", offsetof(pr_k6_tags, url)},
        {"method", offsetof(pr_k6_tags, method)},
        {"check", offsetof(pr_k6_tags, check)},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (pr_str_eq(k, map[i].k)) {
            *(pr_str *)((char *)t + map[i].off) = v;
            return;
        }
    if (v.n == 0)
        return;
    size_t need = k.n + 1 + v.n + (t->attrs_n ? 1 : 0);
    if (t->attrs_n + need > sizeof t->attrs)
        return; /* attrs bounded: further tags are not kept */
    if (t->attrs_n)
        t->attrs[t->attrs_n++] = '\x1f';
    memcpy(t->attrs + t->attrs_n, k.p, k.n);
    t->attrs_n += k.n;
    t->attrs[t->attrs_n++] = '=';
    memcpy(t->attrs + t->attrs_n, v.p, v.n);
    t->attrs_n += v.n;
}

pr_k6_acc *pr_k6_acc_new(pr_sink *sink, const char *src)
{
    pr_k6_acc *a = pr_xcalloc(1, sizeof *a);
    a->sink = sink;
    a->src = src;
    a->vus = a->vus_most = a->vus_max = -1;
    a->decls = json_object();
    return a;
}

static void acc_free(pr_k6_acc *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->nser; i++) {
        free(a->ser[i].name);
        free(a->ser[i].b);
    }
    for (size_t i = 0; i < a->nchk; i++)
        free(a->chk[i].name);
    free(a->ser);
    free(a->chk);
    json_decref(a->decls);
    free(a);
}

void pr_k6_acc_declare(pr_k6_acc *a, const char *name, json_t *decl)
{
    if (json_object_size(a->decls) < 4 * PR_K6_SERIES_MAX && json_is_object(decl))
        json_object_set_new(a->decls, name, json_deep_copy(decl));
}

/* ---- the pending-request index (linear probing, backward-shift deletion) ---- */

#define NSLOT (2 * PR_K6_PENDING)

static size_t slot_of(uint64_t key)
{
    return (size_t)(key ^ key >> 29) & (NSLOT - 1);
}

static req *find(pr_k6_acc *a, uint64_t key, int64_t time_ns, size_t *at)
{
    for (size_t i = slot_of(key);; i = (i + 1) & (NSLOT - 1)) {
        uint32_t v = a->slot[i];
        if (!v)
            return NULL;
        req *r = &a->ring[v - 1];
        if (r->key == key && r->time_ns == time_ns) {
            *at = i;
            return r;
        }
    }
}

static void unindex(pr_k6_acc *a, size_t i)
{
    a->slot[i] = 0;
    for (size_t j = (i + 1) & (NSLOT - 1); a->slot[j]; j = (j + 1) & (NSLOT - 1)) {
        size_t home = slot_of(a->ring[a->slot[j] - 1].key);
        /* move j back into the hole i when its home is not in (i, j] (cyclically) */
        if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
            a->slot[i] = a->slot[j];
            a->slot[j] = 0;
            i = j;
        }
    }
}

static int emit(pr_k6_acc *a, req *r, pr_error *err)
{
    r->live = 0;
    if (!(r->mask & 1u << PR_K6_DURATION)) {
        a->orphans++;
        return 0;
    }
    pr_sample s = r->s;
    s.latency_ns = r->v[PR_K6_DURATION];
    /* the point's time is the request's end: its start is a difference, checked like every
     * time (years 1678..2261), and sums of durations that overflow are unknown */
    if (__builtin_sub_overflow(r->time_ns, s.latency_ns, &s.start_ns) ||
        s.start_ns < PR_TIME_MIN_NS || s.start_ns > PR_TIME_MAX_NS)
        s.start_ns = PR_UNKNOWN;
    if ((r->mask & (1u << PR_K6_CONNECTING | 1u << PR_K6_TLS)) &&
        __builtin_add_overflow(r->v[PR_K6_CONNECTING], r->v[PR_K6_TLS], &s.connect_ns))
        s.connect_ns = PR_UNKNOWN;
    if ((r->mask & 1u << PR_K6_SENDING) && (r->mask & 1u << PR_K6_WAITING) &&
        __builtin_add_overflow(r->v[PR_K6_SENDING], r->v[PR_K6_WAITING], &s.ttfb_ns))
        s.ttfb_ns = PR_UNKNOWN;
    if (r->expected >= 0)
        s.success = r->expected ? PR_OK_SUCCESS : PR_FAIL;
    else if (r->mask & 1u << PR_K6_FAILED)
        s.success = r->v[PR_K6_FAILED] ? PR_FAIL : PR_OK_SUCCESS;
    else /* k6's default expected statuses: 200-399 */
        s.success = s.status >= 200 && s.status < 400 ? PR_OK_SUCCESS : PR_FAIL;
    return pr_sink_emit(a->sink, &s, err);
}

/* Frees ring places from the head: finished requests, then (when full) the oldest open one. */
static int make_room(pr_k6_acc *a, pr_error *err)
{
    while (a->count && !a->ring[a->head].live) {
        a->head = (a->head + 1) % PR_K6_PENDING;
        a->count--;
    }
    if (a->count < PR_K6_PENDING)
        return 0;
    req *r = &a->ring[a->head];
    size_t at;
    if (find(a, r->key, r->time_ns, &at) == r)
        unindex(a, at);
    a->split++;
    int rc = emit(a, r, err);
    a->head = (a->head + 1) % PR_K6_PENDING;
    a->count--;
    return rc;
}

static uint32_t intern(pr_run *run, pr_str s)
{
    return s.n ? pr_run_intern(run, s.p, s.n > PR_K6_STR_MAX ? PR_K6_STR_MAX : s.n) : PR_NOSTR;
}

/* Fills a new request's sample fields from its tags. */
static int open_req(pr_k6_acc *a, req *r, const pr_k6_point *p)
{
    pr_run *run = a->sink->run;
    pr_k6_tags *t = &a->tags;
    memset(t, 0, offsetof(pr_k6_tags, attrs));
    t->attrs_n = 0;
    if (p->tags && p->tags(t, p->payload) < 0)
        return -1;
    pr_sample_init(&r->s);
    int64_t code;
    if (t->status.n && pr_lex_i64(t->status.p, t->status.n, &code) == 0 && code >= 0 &&
        code <= 65535)
        r->s.status = (uint16_t)code;
    r->expected = pr_str_eq(t->expected, "true") ? 1 : pr_str_eq(t->expected, "false") ? 0 : -1;
    r->s.url = intern(run, t->url);
    r->s.method = intern(run, t->method);
    r->s.label = t->name.n ? intern(run, t->name) : r->s.url;
    if (t->error.n) {
        r->s.error = intern(run, t->error);
    } else if (t->error_code.n && pr_lex_i64(t->error_code.p, t->error_code.n, &code) == 0 &&
               code != 1000 + (int64_t)r->s.status) {
        char b[48];
        int n = snprintf(b, sizeof b, "k6 error_code %lld", (long long)code);
        r->s.error = pr_run_intern(run, b, (size_t)n);
    }
    if (t->attrs_n)
        r->s.attrs = pr_run_intern(run, t->attrs, t->attrs_n);
    r->s.threads = a->vus;
    return 0;
}

/* 1 when s[0..n) is written as a decimal number, whatever its size (1e308, 1e400). */
static int number_syntax(pr_str v)
{
    char buf[64];
    if (v.n == 0 || v.n >= sizeof buf || strspn(v.p, "0123456789.+-eE") < v.n)
        return 0;
    memcpy(buf, v.p, v.n);
    buf[v.n] = 0;
    char *end;
    (void)strtod(buf, &end);
    return end == buf + v.n;
}

/* The error of a point whose value cannot be a request metric's: what is wrong with it (not a
 * number, negative, out of range), quoting it as written, at its column. */
static int bad_value(const pr_k6_acc *a, int m, const pr_k6_point *p, long line, pr_error *err)
{
    int n = (int)(p->value.n > 40 ? 40 : p->value.n);
    const char *more = p->value.n > 40 ? "…" : "";
    double d = 0;
    int num = number_syntax(p->value), finite = pr_lex_double(p->value.p, p->value.n, &d) == 0;
    if (m == PR_K6_REQS || m == PR_K6_FAILED)
        return pr_error_set(err, PR_EPARSE, a->src, line, p->value_col,
                            "expected a number for %s (k6 writes %s), found \"%.*s%s\"%s",
                            http_names[m], m == PR_K6_REQS ? "1" : "0 or 1", n, p->value.p, more,
                            num ? ": out of range" : "");
    if (!num)
        return pr_error_set(err, PR_EPARSE, a->src, line, p->value_col,
                            "expected a number of ms for %s, found \"%.*s%s\"", http_names[m], n,
                            p->value.p, more);
    if (finite && d < 0)
        return pr_error_set(err, PR_EPARSE, a->src, line, p->value_col,
                            "expected a non-negative number of ms for %s, found \"%.*s%s\"",
                            http_names[m], n, p->value.p, more);
    return pr_error_set(err, PR_EPARSE, a->src, line, p->value_col,
                        "expected a number of ms from 0 to %lld (292 years) for %s, found "
                        "\"%.*s%s\": out of range",
                        (long long)(INT64_MAX / 1000000), http_names[m], n, p->value.p, more);
}

static int http_point(pr_k6_acc *a, int m, const pr_k6_point *p, long line, pr_error *err)
{
    int64_t v = 0;
    if (m == PR_K6_FAILED || m == PR_K6_REQS) {
        double d;
        if (pr_lex_double(p->value.p, p->value.n, &d) < 0)
            goto bad;
        v = d != 0;
    } else if (pr_lex_decimal_ns(p->value.p, p->value.n, 6, &v) < 0 || v < 0) {
        goto bad;
    }
    size_t at;
    req *r = find(a, p->key, p->time_ns, &at);
    if (!r) {
        if (m == PR_K6_FAILED) { /* the first request's, or one already emitted: redundant */
            a->has_failed = 1;
            return 0;
        }
        int rc = make_room(a, err);
        if (rc < 0)
            return rc;
        r = &a->ring[(a->head + a->count) % PR_K6_PENDING];
        memset(r, 0, offsetof(req, s));
        r->key = p->key;
        r->time_ns = p->time_ns;
        r->live = 1;
        if (open_req(a, r, p) < 0)
            return pr_error_set(err, PR_EPARSE, a->src, line, p->tags_col,
                                "expected a tags object of strings");
        a->count++;
        size_t i = slot_of(p->key);
        while (a->slot[i])
            i = (i + 1) & (NSLOT - 1);
        a->slot[i] = (uint32_t)((r - a->ring) + 1);
        at = i;
    }
    r->mask |= 1u << m;
    r->v[m] = v;
    int last = a->has_failed ? PR_K6_FAILED : PR_K6_RECEIVING;
    if (m == last) {
        unindex(a, at);
        return emit(a, r, err);
    }
    return 0;
bad:
    return bad_value(a, m, p, line, err);
}

static series *series_of(pr_k6_acc *a, pr_str name)
{
    if (a->last_ser < a->nser && pr_str_eq(name, a->ser[a->last_ser].name))
        return &a->ser[a->last_ser];
    for (size_t i = 0; i < a->nser; i++)
        if (pr_str_eq(name, a->ser[i].name)) {
            a->last_ser = i;
            return &a->ser[i];
        }
    if (a->nser == PR_K6_SERIES_MAX) {
        a->ser_dropped++;
        return NULL;
    }
    if (a->nser % 16 == 0)
        a->ser = pr_xrealloc(a->ser, (a->nser + 16) * sizeof *a->ser);
    series *s = &a->ser[a->nser];
    memset(s, 0, sizeof *s);
    s->name = pr_xstrndup(name.p, name.n > 256 ? 256 : name.n);
    a->last_ser = a->nser++;
    return s;
}

static void series_add(series *s, int64_t time_ns, double v)
{
    int64_t sec = time_ns / 1000000000LL - (time_ns % 1000000000LL < 0);
    s->count++;
    s->sum += v;
    s->last = v;
    if (s->count == 1 || v < s->min)
        s->min = v;
    if (s->count == 1 || v > s->max)
        s->max = v;
    size_t lo = 0, hi = s->n; /* buckets are sorted by second; most points land on the last */
    if (s->n && s->b[s->n - 1].sec <= sec)
        lo = s->b[s->n - 1].sec == sec ? s->n - 1 : s->n;
    else
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (s->b[mid].sec < sec)
                lo = mid + 1;
            else
                hi = mid;
        }
    if (lo == s->n || s->b[lo].sec != sec) {
        if (s->n == PR_K6_BUCKETS_MAX) {
            s->dropped++;
            return;
        }
        s->b = pr_xgrow(s->b, &s->cap, s->n + 1, sizeof *s->b);
        memmove(s->b + lo + 1, s->b + lo, (s->n - lo) * sizeof *s->b);
        s->b[lo] = (bucket){sec, 0, 0, v, v};
        s->n++;
    }
    bucket *b = &s->b[lo];
    b->count++;
    b->sum += v;
    if (v < b->min)
        b->min = v;
    if (v > b->max)
        b->max = v;
}

static int check_point(pr_k6_acc *a, const pr_k6_point *p, double v)
{
    pr_k6_tags *t = &a->tags;
    memset(t, 0, offsetof(pr_k6_tags, attrs));
    t->attrs_n = 0;
    if (p->tags && p->tags(t, p->payload) < 0)
        return -1;
    pr_str name = t->check.n ? t->check : (pr_str){"", 0}; /* a checks point without its tag */
    size_t i = 0;
    while (i < a->nchk && !pr_str_eq(name, a->chk[i].name))
        i++;
    if (i == a->nchk) {
        if (a->nchk == PR_K6_SERIES_MAX) {
            a->chk_dropped++;
            return 0;
        }
        if (a->nchk % 16 == 0)
            a->chk = pr_xrealloc(a->chk, (a->nchk + 16) * sizeof *a->chk);
        a->chk[i] = (check){pr_xstrndup(name.p, name.n > 512 ? 512 : name.n), 0, 0};
        a->nchk++;
    }
    if (v != 0)
        a->chk[i].passes++;
    else
        a->chk[i].fails++;
    return 0;
}

int pr_k6_acc_point(pr_k6_acc *a, const pr_k6_point *p, long line, pr_error *err)
{
    a->points++;
    if (p->has_zone && !a->zone_set) {
        a->zone_set = 1;
        pr_run_meta_set(a->sink->run, "tz_offset_min", json_integer(p->tz_offset_min));
    }
    int m = pr_k6_metric_of(p->metric);
    if (m != PR_K6_OTHER)
        return http_point(a, m, p, line, err);
    double v;
    if (pr_lex_double(p->value.p, p->value.n, &v) < 0)
        return pr_error_set(err, PR_EPARSE, a->src, line, p->value_col,
                            "expected a number for %.*s, found \"%.*s%s\"%s",
                            (int)(p->metric.n > 64 ? 64 : p->metric.n), p->metric.p,
                            (int)(p->value.n > 40 ? 40 : p->value.n), p->value.p,
                            p->value.n > 40 ? "…" : "",
                            number_syntax(p->value) ? ": out of range" : "");
    if (pr_str_eq(p->metric, "vus") && v >= 0 && v < 2e9)
        a->vus = (int32_t)v;
    if (pr_str_eq(p->metric, "vus") && v >= 0 && v < 2e9 && (int32_t)v > a->vus_most)
        a->vus_most = (int32_t)v;
    if (pr_str_eq(p->metric, "vus_max") && v >= 0 && v < 2e9 && (int32_t)v > a->vus_max)
        a->vus_max = (int32_t)v;
    if (pr_str_eq(p->metric, "checks") && check_point(a, p, v) < 0)
        return pr_error_set(err, PR_EPARSE, a->src, line, p->tags_col,
                            "expected a tags object of strings");
    series *s = series_of(a, p->metric);
    if (s)
        series_add(s, p->time_ns, v);
    return 0;
}

static json_t *series_json(const series *s, json_t *decl)
{
    json_t *o = json_is_object(decl) ? json_deep_copy(decl) : json_object();
    json_object_set_new(o, "count", json_integer(s->count));
    pr_textsum_real(o, "sum", s->sum);
    pr_textsum_real(o, "min", s->min);
    pr_textsum_real(o, "max", s->max);
    pr_textsum_real(o, "last", s->last);
    json_t *pts = json_array();
    for (size_t i = 0; i < s->n; i++) {
        const bucket *b = &s->b[i];
        json_t *row = json_pack("[I,I,f,f,f]", (json_int_t)b->sec, (json_int_t)b->count,
                                isfinite(b->sum) ? b->sum : 0.0, b->min, b->max);
        json_array_append_new(pts, row);
    }
    json_object_set_new(o, "series", pts);
    if (s->dropped)
        json_object_set_new(o, "series_dropped_points", json_integer(s->dropped));
    return o;
}

static int acc_finish(pr_k6_acc *a, pr_error *err)
{
    pr_run *run = a->sink->run;
    int rc = 0;
    for (size_t i = 0; i < a->count && rc == 0; i++) {
        req *r = &a->ring[(a->head + i) % PR_K6_PENDING];
        if (r->live)
            rc = emit(a, r, err);
    }
    a->count = 0;
    json_t *k6 = json_object();
    json_t *ms = json_object();
    for (size_t i = 0; i < a->nser; i++)
        json_object_set_new(ms, a->ser[i].name,
                            series_json(&a->ser[i], json_object_get(a->decls, a->ser[i].name)));
    json_object_set_new(k6, "metrics", ms);
    json_t *decl = json_object();
    const char *k;
    json_t *v;
    json_object_foreach (a->decls, k, v)
        if (pr_k6_metric_of((pr_str){k, strlen(k)}) != PR_K6_OTHER)
            json_object_set(decl, k, v);
    json_object_set_new(k6, "http_metrics", decl);
    json_t *checks = json_object();
    for (size_t i = 0; i < a->nchk; i++)
        json_object_set_new(checks, a->chk[i].name,
                            json_pack("{s:I,s:I}", "passes", (json_int_t)a->chk[i].passes, "fails",
                                      (json_int_t)a->chk[i].fails));
    json_object_set_new(k6, "checks", checks);
    pr_run_meta_set(run, "k6", k6);
    /* k6's rates (http_reqs, data_*) are over the test's duration, not the send span */
    pr_run_meta_set(run, "rates_over_test", json_true());
    if (a->orphans || a->split) {
        char b[300];
        snprintf(b, sizeof b,
                 "%lld request(s) had points too far apart to join (window %d "
                 "requests); %lld point group(s) without http_req_duration were dropped",
                 (long long)a->split, PR_K6_PENDING, (long long)a->orphans);
        pr_textsum_note(run, b);
        pr_sink_warn(a->sink, a->src, 0, 0, "%s", b);
    }
    if (a->ser_dropped || a->chk_dropped)
        pr_textsum_note(run, "more than 128 metrics or checks: the rest are not kept as series");
    /* k6's virtual users each wait for their answers: a run with VUs is a closed model of at
     * most that many (the executor, which the output does not name, is not read) */
    int32_t vus = a->vus_most > 0 ? a->vus_most : a->vus_max; /* active, else allocated */
    if (vus > 0) {
        run->load_model = PR_LOAD_CLOSED;
        if (run->concurrency < vus)
            run->concurrency = vus;
    }
    return rc;
}

int pr_k6_acc_end(pr_k6_acc *a, int rc, pr_error *err)
{
    if (rc == 0 || rc == PR_ETRUNC) {
        pr_error e2;
        int r2 = acc_finish(a, rc == 0 ? err : &e2);
        if (r2 < 0 && rc == 0)
            rc = r2;
    }
    acc_free(a);
    return rc;
}
