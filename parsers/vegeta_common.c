/* Record-to-sample mapping shared by the Vegeta gob, JSON and CSV parsers. */
#include "parsers/vegeta.h"
#include <jansson.h>
#include <string.h>

void pr_vegeta_rec_clear(pr_vegeta_rec *r)
{
    memset(r, 0, sizeof *r);
}

void pr_vegeta_acc_init(pr_vegeta_acc *a, pr_sink *sink, const char *name)
{
    memset(a, 0, sizeof *a);
    a->sink = sink;
    a->name = name;
}

/* Interns s through a one-entry cache (consecutive records mostly repeat their strings). */
static uint32_t intern_cached(pr_run *run, pr_vegeta_cache *c, pr_str s)
{
    if (s.n == 0)
        return PR_NOSTR;
    if (c->valid && c->n == s.n && memcmp(c->s, s.p, s.n) == 0)
        return c->id;
    uint32_t id = pr_run_intern(run, s.p, s.n);
    if (s.n <= sizeof c->s) {
        memcpy(c->s, s.p, s.n);
        c->n = s.n;
        c->id = id;
        c->valid = 1;
    } else {
        c->valid = 0;
    }
    return id;
}

static pr_str cap_str(pr_str s)
{
    if (s.n > PR_VEGETA_STR_MAX)
        s.n = PR_VEGETA_STR_MAX;
    return s;
}

int pr_vegeta_acc_add(pr_vegeta_acc *a, const pr_vegeta_rec *rec, pr_error *err)
{
    pr_vegeta_rec capped = *rec;
    const pr_vegeta_rec *r = &capped;
    capped.method = cap_str(rec->method);
    capped.url = cap_str(rec->url);
    capped.error = cap_str(rec->error);
    capped.attack = cap_str(rec->attack);
    pr_run *run = a->sink->run;
    pr_sample s;
    pr_sample_init(&s);
    s.start_ns = r->has_ts ? r->ts_ns : PR_UNKNOWN;
    a->zero_times += r->go_zero;
    s.latency_ns = r->latency_ns;
    s.bytes_in = r->bytes_in;
    s.bytes_out = r->bytes_out;
    s.status = r->code >= 0 && r->code <= 65535 ? (uint16_t)r->code : 0;
    s.success = r->code >= 200 && r->code < 400 ? PR_OK_SUCCESS : PR_FAIL;
    s.error = intern_cached(run, &a->error, r->error);
    s.method = intern_cached(run, &a->method, r->method);
    s.url = intern_cached(run, &a->url, r->url);
    if (s.method != a->label_method || s.url != a->label_url || !a->label_id) {
        char buf[2 * PR_VEGETA_STR_MAX + 2];
        size_t n = 0;
        if (r->method.n) {
            memcpy(buf, r->method.p, r->method.n);
            n = r->method.n;
        }
        if (r->method.n && r->url.n)
            buf[n++] = ' ';
        if (r->url.n) {
            memcpy(buf + n, r->url.p, r->url.n);
            n += r->url.n;
        }
        a->label_id = pr_run_intern(run, buf, n);
        a->label_method = s.method;
        a->label_url = s.url;
    }
    s.label = a->label_id;
    if (r->has_ts) {
        if (r->has_zone) {
            if (!a->zone_set) {
                a->zone_set = 1;
                a->zone_min = r->tz_offset_min;
                pr_run_meta_set(run, "tz_offset_min", json_integer(r->tz_offset_min));
            } else if (a->zone_min != r->tz_offset_min) {
                a->mixed_zones = 1;
            }
        }
    }
    if (r->attack.n) {
        uint32_t before = a->attack.id;
        uint32_t id = intern_cached(run, &a->attack, r->attack);
        if (!a->attack_set) {
            a->attack_set = 1;
            const char *name = pr_run_str(run, id);
            pr_run_meta_set(run, "attack", json_string(name));
            if (!run->name)
                pr_run_set_name(run, name);
        } else if (id != before && !a->mixed_attacks) {
            a->mixed_attacks = 1;
            pr_sink_warn(a->sink, NULL, 0, 0,
                         "results of more than one attack name (\"%s\" "
                         "and \"%s\"); the run keeps the first",
                         json_string_value(json_object_get(run->meta, "attack")),
                         pr_run_str(run, id));
        }
    }
    return pr_sink_emit(a->sink, &s, err);
}

void pr_vegeta_acc_finish(pr_vegeta_acc *a)
{
    pr_run *run = a->sink->run;
    run->load_model = PR_LOAD_OPEN;
    if (a->mixed_zones)
        pr_run_meta_set(run, "tz_mixed", json_true());
    if (a->zero_times)
        pr_sink_warn(a->sink, a->name, 0, 0,
                     "%lld result(s) carry Go's zero time "
                     "(0001-01-01T00:00:00Z, no time): kept, with their start unknown",
                     a->zero_times);
}
