/* Joining the inputs of one run in an order that does not depend on the order of ingestion. */
#include "parsers/join.h"
#include "parsers/textsum.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void set_str(json_t *o, const char *k, const char *v)
{
    json_object_set_new(o, k, v ? json_string(v) : json_null());
}

static const char *get_str(const json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

/* The part of one input: what its parser set on `run`. */
static json_t *part_of(const pr_run *run, const char *source, int64_t samples)
{
    json_t *p = json_object();
    set_str(p, "format", run->format);
    set_str(p, "tool", run->tool);
    set_str(p, "source", source);
    json_object_set_new(p, "samples", json_integer(samples));
    set_str(p, "tool_version", run->tool_version);
    json_object_set_new(p, "concurrency", json_integer(run->concurrency));
    set_str(p, "load_model", pr_load_model_name(run->load_model));
    json_object_set_new(p, "offered_rate_per_s",
                        isnan(run->offered_rate) ? json_null() : json_real(run->offered_rate));
    json_object_set_new(p, "summary_only", json_boolean(run->summary_only));
    json_object_set_new(p, "summary", run->summary ? json_deep_copy(run->summary) : json_null());
    json_t *meta = json_is_object(run->meta) ? json_deep_copy(run->meta) : json_object();
    json_object_del(meta, "inputs");
    json_object_del(meta, "transaction_samples"); /* the store keeps that count itself */
    json_object_set_new(p, "meta", meta);
    return p;
}

/* A scratch run holding one part's metadata. */
static pr_run *run_of(const json_t *p)
{
    pr_run *r = pr_run_new();
    pr_run_set_format(r, get_str(p, "format"), get_str(p, "tool"));
    const char *v = get_str(p, "tool_version");
    r->tool_version = v ? pr_xstrdup(v) : NULL;
    json_t *c = json_object_get(p, "concurrency");
    r->concurrency = json_is_integer(c) ? (int32_t)json_integer_value(c) : -1;
    const char *lm = get_str(p, "load_model");
    r->load_model = lm && !strcmp(lm, "open")     ? PR_LOAD_OPEN
                    : lm && !strcmp(lm, "closed") ? PR_LOAD_CLOSED
                                                  : PR_LOAD_UNKNOWN;
    json_t *o = json_object_get(p, "offered_rate_per_s");
    r->offered_rate = json_is_number(o) ? json_number_value(o) : NAN;
    r->summary_only = json_is_true(json_object_get(p, "summary_only"));
    json_t *s = json_object_get(p, "summary");
    r->summary = json_is_object(s) ? json_deep_copy(s) : NULL;
    json_t *m = json_object_get(p, "meta");
    if (json_is_object(m)) {
        json_decref(r->meta);
        r->meta = json_deep_copy(m);
    }
    return r;
}

json_t *pr_join_begin(pr_run *run)
{
    json_t *parts = json_array();
    json_t *inputs = json_object_get(run->meta, "inputs");
    if (json_array_size(inputs) > 1) {
        size_t i;
        json_t *p;
        json_array_foreach (inputs, i, p)
            json_array_append_new(parts, json_deep_copy(p));
    } else if (run->format || run->samples || run->summary) {
        /* a run of one input (or stored before parts were kept): it is its own part */
        json_t *one = json_array_get(inputs, 0);
        json_t *n = json_object_get(one, "samples");
        json_array_append_new(parts,
                              part_of(run, get_str(one, "source"),
                                      json_is_integer(n) ? json_integer_value(n) : run->samples));
    }
    json_decref(run->summary);
    run->summary = NULL;
    run->summary_only = 0;
    json_decref(run->meta);
    run->meta = json_object();
    free(run->tool_version);
    run->tool_version = NULL;
    run->concurrency = -1;
    run->load_model = PR_LOAD_UNKNOWN;
    run->offered_rate = NAN;
    return parts;
}

/* Formats whose printed numbers win over another input's for the same key (others weigh 0):
 * ab's text report over its -e CSV (its counters and its own percentile rule), Vegeta's JSON
 * report (exact ns) over its text report (rounded) over its histogram. */
static const struct {
    const char *format;
    int weight;
} weights[] = {{"ab-text", 1}, {"vegeta-report-json", 2}, {"vegeta-text", 1}};

static int weight_of(const char *format)
{
    for (size_t i = 0; format && i < sizeof weights / sizeof weights[0]; i++)
        if (!strcmp(weights[i].format, format))
            return weights[i].weight;
    return 0;
}

static int cmp_str(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

static int cmp_dump(const json_t *a, const json_t *b)
{
    char *x = json_dumps(a, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    char *y = json_dumps(b, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    int c = cmp_str(x, y);
    free(x);
    free(y);
    return c;
}

/* The join order (see join.h). */
static int cmp_part(const void *x, const void *y)
{
    const json_t *a = *(json_t *const *)x, *b = *(json_t *const *)y;
    int sa = json_integer_value(json_object_get(a, "samples")) > 0;
    int sb = json_integer_value(json_object_get(b, "samples")) > 0;
    if (sa != sb)
        return sb - sa;
    int wa = weight_of(get_str(a, "format")), wb = weight_of(get_str(b, "format"));
    if (wa != wb)
        return wb - wa;
    int c = cmp_str(get_str(a, "format"), get_str(b, "format"));
    if (!c)
        c = cmp_str(get_str(a, "source"), get_str(b, "source"));
    if (!c)
        c = cmp_dump(a, b);
    return c;
}

static json_t *light_entry(const json_t *part)
{
    json_t *e = json_object();
    json_object_set(e, "format", json_object_get(part, "format"));
    json_object_set(e, "source", json_object_get(part, "source"));
    json_object_set(e, "samples", json_object_get(part, "samples"));
    return e;
}

void pr_join_end(pr_run *run, json_t *parts, const char *source, int64_t samples)
{
    json_array_append_new(parts, part_of(run, source, samples));
    size_t n = json_array_size(parts);
    if (n == 1) {
        json_t *inputs = json_array();
        json_array_append_new(inputs, light_entry(json_array_get(parts, 0)));
        pr_run_meta_set(run, "inputs", inputs);
        json_decref(parts);
        return;
    }
    json_t **v = pr_xmalloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = json_incref(json_array_get(parts, i));
    qsort(v, n, sizeof *v, cmp_part);
    json_array_clear(parts);
    pr_run *acc = pr_run_new();
    int any_samples = 0, any_summary_only = 0;
    for (size_t i = 0; i < n; i++) {
        pr_run *r = run_of(v[i]);
        any_samples |= json_integer_value(json_object_get(v[i], "samples")) > 0;
        any_summary_only |= r->summary_only;
        pr_run_join(acc, r);
        pr_run_free(r);
        json_array_append_new(parts, v[i]);
    }
    free(v);
    pr_run_set_format(run, acc->format, acc->tool);
    free(run->tool_version);
    run->tool_version = acc->tool_version;
    acc->tool_version = NULL;
    run->concurrency = acc->concurrency;
    run->load_model = acc->load_model;
    run->offered_rate = acc->offered_rate;
    run->summary_only = any_summary_only && !any_samples;
    json_decref(run->summary);
    run->summary = acc->summary;
    acc->summary = NULL;
    json_decref(run->meta);
    run->meta = acc->meta;
    acc->meta = json_object();
    pr_run_free(acc);
    pr_run_meta_set(run, "inputs", parts);
}

/* Appends each of from's notes that `into` does not have yet. */
static void join_notes(json_t *into_meta, const json_t *from_meta)
{
    json_t *notes = json_object_get(from_meta, "notes");
    if (!json_array_size(notes))
        return;
    json_t *have = pr_textsum_arr(into_meta, "notes");
    size_t i, k;
    json_t *n, *h;
    json_array_foreach (notes, i, n) {
        int dup = 0;
        json_array_foreach (have, k, h)
            dup |= json_equal(h, n);
        if (!dup && json_is_string(n))
            pr_textsum_append(have, json_incref(n));
    }
}

/* The percentile keys (p50, p99_9) of a printed distribution. */
static size_t pct_keys(json_t *dist)
{
    size_t n = 0;
    const char *k;
    json_t *v;
    json_object_foreach (dist, k, v)
        n += k[0] == 'p' && k[1] >= '0' && k[1] <= '9';
    return n;
}

/* Drops the spectrum of dist: its percentiles and its ends (min, max). */
static void drop_spectrum(json_t *dist)
{
    const char *k;
    json_t *v;
    void *tmp;
    json_object_foreach_safe (dist, tmp, k, v)
        if ((k[0] == 'p' && k[1] >= '0' && k[1] <= '9') || !strcmp(k, "min") || !strcmp(k, "max"))
            json_object_del(dist, k);
}

/* One percentile spectrum from one source: where both summaries printed percentiles of a
 * distribution (ab's text table, whole ms at 50 … 99, and its -e CSV, µs at 1 … 99), the one
 * with more of them (the earlier on a tie) gives all of them and the min and max, so they never
 * decrease; a key-by-key merge put the text's 1 ms at p50 between the CSV's 658 µs and 669 µs.
 * Returns from's summary with the losing spectrum left out (the caller's). */
static json_t *one_spectrum(json_t *into, const json_t *from)
{
    json_t *f = json_deep_copy(from);
    static const char *const dists[] = {"latency_ns", "connect_ns", "ttfb_ns"};
    for (size_t i = 0; i < sizeof dists / sizeof dists[0]; i++) {
        json_t *a = json_object_get(into, dists[i]), *b = json_object_get(f, dists[i]);
        if (!json_is_object(a) || !json_is_object(b) || !pct_keys(a) || !pct_keys(b))
            continue;
        drop_spectrum(pct_keys(b) > pct_keys(a) ? a : b);
    }
    return f;
}

void pr_run_join(pr_run *into, const pr_run *from)
{
    if (!into->format && from->format)
        pr_run_set_format(into, from->format, from->tool);
    if (json_is_object(from->summary)) {
        if (!json_is_object(into->summary)) {
            json_decref(into->summary);
            into->summary = json_object();
        }
        json_t *f = one_spectrum(into->summary, from->summary);
        pr_textsum_merge(into->summary, f);
        json_decref(f);
    }
    if (json_is_object(from->meta)) {
        join_notes(into->meta, from->meta);
        json_t *rest = json_deep_copy(from->meta);
        json_object_del(rest, "notes");
        json_object_del(rest, "inputs");
        pr_textsum_merge(into->meta, rest);
        json_decref(rest);
    }
    if (!into->tool_version && from->tool_version)
        into->tool_version = pr_xstrdup(from->tool_version);
    if (into->concurrency < 0)
        into->concurrency = from->concurrency;
    if (into->load_model == PR_LOAD_UNKNOWN)
        into->load_model = from->load_model;
    if (isnan(into->offered_rate))
        into->offered_rate = from->offered_rate;
}
