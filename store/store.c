/* The store's common part: choosing a backend, ingest transactions (sample blocks plus the
 * aggregates of what an input adds), shards landing in a shared run, and the queries. */
#include "store/backend.h"
#include "store/writer.h"
#include "model/buf.h"
#include "model/clock.h"
#include "model/native.h"
#include "model/threads.h"
#include "model/xalloc.h"
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *pr_store_default_path(void)
{
    const char *p = getenv("PERFREPORT_STORE");
    return p && *p ? p : "perfreport.db";
}

/* libpq connection keywords: a target starting "KEYWORD=" is a connection string. */
static const char *const pg_keywords[] = {"host",
                                          "hostaddr",
                                          "port",
                                          "dbname",
                                          "user",
                                          "password",
                                          "passfile",
                                          "service",
                                          "sslmode",
                                          "sslrootcert",
                                          "sslcert",
                                          "sslkey",
                                          "connect_timeout",
                                          "application_name",
                                          "options",
                                          "target_session_attrs",
                                          "channel_binding",
                                          "gssencmode",
                                          "requiressl",
                                          "keepalives",
                                          "load_balance_hosts",
                                          NULL};

int pr_store_target_is_pg(const char *t)
{
    if (!strncmp(t, "postgresql://", 13) || !strncmp(t, "postgres://", 11))
        return 1;
    while (isspace((unsigned char)*t))
        t++;
    size_t n = 0;
    while (isalpha((unsigned char)t[n]) || t[n] == '_')
        n++;
    const char *eq = t + n;
    while (isspace((unsigned char)*eq))
        eq++;
    if (n == 0 || *eq != '=')
        return 0;
    for (size_t i = 0; pg_keywords[i]; i++)
        if (strlen(pg_keywords[i]) == n && !strncmp(pg_keywords[i], t, n))
            return 1;
    return 0;
}

int pr_store_open(pr_store **out, const char *target, int create, pr_error *err)
{
    if (pr_store_target_is_pg(target))
        return pr_store_pg_open(out, target, create, err);
    return pr_store_sqlite_open(out, target, create, err);
}

void pr_store_close(pr_store *st)
{
    if (st)
        st->ops->close(st);
}

void pr_store_bulk_writes(pr_store *st, int on)
{
    st->bulk = on;
}

const char *pr_store_name(const pr_store *st)
{
    return st->path;
}

/* ---- ingest ------------------------------------------------------------------------ */

typedef struct counts {
    int64_t *v;
    size_t cap;
} counts;

static void count_add(counts *c, size_t i, int64_t k)
{
    if (i >= c->cap) {
        size_t old = c->cap;
        c->v = pr_xgrow(c->v, &c->cap, i + 1, sizeof *c->v);
        memset(c->v + old, 0, (c->cap - old) * sizeof *c->v);
    }
    c->v[i] += k;
}

struct pr_ingest {
    pr_store *st;
    pr_sink sink;
    pr_run *run;
    char *source;
    char *key; /* shard ingests: the shared run's key */
    int shard_index, shard_count;
    uint32_t strings_stored; /* ids below this are already in the strings table */
    int64_t next_seq;
    pr_sample *pending;
    size_t npending;
    pr_buf block;
    /* aggregates of what this input adds to the current run */
    int64_t samples, successes;
    int64_t tx_samples, tx_before; /* Transaction Controller samples: this input's, earlier */
    counts label_n, label_err, error_n, status_n;
    int64_t total_samples;
    int runs;
    int64_t *created; /* runs created in this transaction (ids change at commit) */
    size_t ncreated, capcreated;
    int run_created; /* the current run is created[ncreated - 1] */
    int shards_landed;
    pr_block_writer *writer;    /* stores the blocks on a thread of its own (NULL: here) */
    pr_ingest_observer observe; /* shown each native block stored as it is (or NULL) */
    void *observe_payload;
};

void pr_ingest_observe(pr_ingest *ing, pr_ingest_observer fn, void *payload)
{
    ing->observe = fn;
    ing->observe_payload = payload;
}

/* Stores a block of the current run, through the writer when there is one. */
static int put_block(pr_ingest *ing, const pr_store_block *b, pr_error *err)
{
    if (ing->writer)
        return pr_block_writer_put(ing->writer, ing->run->id, b, err);
    return ing->st->ops->block_put(ing->st, ing->run->id, b, err);
}

/* Every block queued so far stored: before any other call on the connection. */
static int drain_blocks(pr_ingest *ing, pr_error *err)
{
    return ing->writer ? pr_block_writer_drain(ing->writer, err) : 0;
}

static int flush_block(pr_ingest *ing, pr_error *err)
{
    if (ing->npending == 0)
        return 0;
    if (ing->writer) { /* the encoding was a tenth of the parse */
        int rc = pr_block_writer_put_samples(ing->writer, ing->run->id, ing->next_seq++,
                                             &ing->pending, ing->npending, err);
        ing->npending = 0;
        return rc;
    }
    pr_buf_reset(&ing->block);
    pr_block_encode(ing->pending, ing->npending, &ing->block);
    pr_store_block b = {ing->next_seq++, (int64_t)ing->npending, PR_UNKNOWN,
                        PR_UNKNOWN,      ing->block.p,           ing->block.len};
    for (size_t i = 0; i < ing->npending; i++) {
        int64_t t = ing->pending[i].start_ns;
        if (t == PR_UNKNOWN)
            continue;
        if (b.start_min == PR_UNKNOWN || t < b.start_min)
            b.start_min = t;
        if (b.start_max == PR_UNKNOWN || t > b.start_max)
            b.start_max = t;
    }
    int rc = put_block(ing, &b, err);
    ing->npending = 0;
    return rc;
}

/* Adds a sample to the aggregates of what this input adds to the run. */
static void count_sample(pr_ingest *ing, const pr_sample *x)
{
    int outcome = pr_sample_outcome(x);
    ing->samples++;
    ing->successes += outcome == 1;
    ing->tx_samples += (x->flags & PR_SF_TRANSACTION) != 0;
    count_add(&ing->label_n, x->label, 1);
    if (outcome == 0)
        count_add(&ing->label_err, x->label, 1);
    if (x->error)
        count_add(&ing->error_n, x->error, 1);
    count_add(&ing->status_n, x->status, 1);
}

static int push(pr_run *run, const pr_sample *s, size_t n, pr_error *err, void *payload)
{
    pr_ingest *ing = payload;
    for (size_t i = 0; i < n; i++) {
        const pr_sample *x = &s[i];
        count_sample(ing, x);
        ing->pending[ing->npending++] = *x;
        if (ing->npending == PR_NATIVE_BLOCK_MAX) {
            int rc = flush_block(ing, err);
            if (rc < 0)
                return rc;
        }
    }
    return 0;
}

/* Column c of a block as a pointer and a step (0: the block's constant). */
static const int64_t *col_of(const pr_block_cols *c, int k, size_t *step)
{
    *step = c->vals[k] ? 1 : 0;
    return c->vals[k] ? c->vals[k] : &c->konst[k];
}

/* The largest value of column k of a block (0 for none). */
static size_t col_max(const pr_block_cols *c, int k)
{
    size_t step;
    const int64_t *v = col_of(c, k, &step);
    int64_t m = 0;
    for (size_t i = 0; i < (step ? c->n : 1); i++)
        m = v[i] > m ? v[i] : m;
    return (size_t)m;
}

/* count_sample over a block's columns: the counters grown once, then plain additions. */
static void count_block(pr_ingest *ing, const pr_block_cols *c)
{
    if (!c->n)
        return;
    count_add(&ing->label_n, col_max(c, PR_COL_LABEL), 0);
    count_add(&ing->label_err, col_max(c, PR_COL_LABEL), 0);
    count_add(&ing->error_n, col_max(c, PR_COL_ERROR), 0);
    count_add(&ing->status_n, col_max(c, PR_COL_STATUS), 0);
    size_t sl, se, ss, su, sf;
    const int64_t *lab = col_of(c, PR_COL_LABEL, &sl), *er = col_of(c, PR_COL_ERROR, &se);
    const int64_t *st = col_of(c, PR_COL_STATUS, &ss), *su_ = col_of(c, PR_COL_SUCCESS, &su);
    const int64_t *fl = col_of(c, PR_COL_FLAGS, &sf);
    int64_t *ln = ing->label_n.v, *le = ing->label_err.v, *en = ing->error_n.v;
    int64_t *sn = ing->status_n.v, ok = 0, tx = 0;
    pr_sample x;
    pr_sample_init(&x);
    for (size_t i = 0; i < c->n; i++) {
        x.error = (uint32_t)er[i * se];
        x.status = (uint16_t)st[i * ss];
        x.success = (uint8_t)su_[i * su];
        int outcome = pr_sample_outcome(&x);
        size_t l = (size_t)lab[i * sl];
        ok += outcome == 1;
        tx += (fl[i * sf] & PR_SF_TRANSACTION) != 0;
        ln[l]++;
        le[l] += outcome == 0;
        en[x.error] += x.error != 0;
        sn[x.status]++;
    }
    ing->samples += (int64_t)c->n;
    ing->successes += ok;
    ing->tx_samples += tx;
}

/* A native block whose string ids are the run's: counted from its columns and stored as it
 * is (after the samples pushed before it), never decoded into samples nor encoded again. */
static int push_block(pr_run *run, const pr_block_cols *c, const unsigned char *raw, size_t len,
                      pr_error *err, void *payload)
{
    pr_ingest *ing = payload;
    (void)run;
    int rc = flush_block(ing, err);
    if (rc < 0)
        return rc;
    pr_store_block b = {ing->next_seq++, (int64_t)c->n, PR_UNKNOWN, PR_UNKNOWN, raw, len};
    count_block(ing, c);
    size_t step;
    const int64_t *t = col_of(c, PR_COL_START, &step);
    for (size_t i = 0; i < c->n; i++) {
        if (t[i * step] == PR_UNKNOWN)
            continue;
        if (b.start_min == PR_UNKNOWN || t[i * step] < b.start_min)
            b.start_min = t[i * step];
        if (b.start_max == PR_UNKNOWN || t[i * step] > b.start_max)
            b.start_max = t[i * step];
    }
    rc = put_block(ing, &b, err);
    if (rc == 0 && ing->observe)
        ing->observe(ing->run, &ing->sink, c, raw, len, ing->observe_payload);
    return rc;
}

static int create_run_row(pr_ingest *ing, pr_error *err)
{
    pr_run *r = ing->run;
    int rc = ing->st->ops->run_create(ing->st, r->name ? r->name : "", ing->key,
                                      r->created_s ? r->created_s : pr_clock_now_s(), &r->id, err);
    if (rc < 0)
        return rc;
    ing->created =
        pr_xgrow(ing->created, &ing->capcreated, ing->ncreated + 1, sizeof *ing->created);
    ing->created[ing->ncreated++] = r->id;
    ing->run_created = 1;
    ing->next_seq = 0;
    ing->strings_stored = 1;
    return 0;
}

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* The rows of one aggregate table from this input's counts. */
static int put_counts(pr_ingest *ing, pr_store_agg which, pr_error *err)
{
    pr_run *run = ing->run;
    const counts *c = which == PR_AGG_LABELS   ? &ing->label_n
                      : which == PR_AGG_ERRORS ? &ing->error_n
                                               : &ing->status_n;
    pr_store_count *rows = pr_xmalloc((c->cap ? c->cap : 1) * sizeof *rows);
    size_t n = 0;
    for (size_t id = which == PR_AGG_ERRORS ? 1 : 0; id < c->cap; id++) {
        if (!c->v[id])
            continue;
        pr_store_count *r = &rows[n++];
        r->key = which == PR_AGG_STATUS ? NULL : pr_strtab_get(run->strings, (uint32_t)id);
        r->code = (int64_t)id;
        r->a = c->v[id];
        r->b = which == PR_AGG_LABELS && id < ing->label_err.cap ? ing->label_err.v[id] : 0;
    }
    int rc = n ? ing->st->ops->agg_add(ing->st, run->id, which, rows, n, err) : 0;
    free(rows);
    return rc;
}

/* "stdin", or "stdin-2", "stdin-3"… when another run already has the name: inputs read from
 * stdin have no file name to tell them apart. Malloc'd. */
static char *stdin_name(pr_store *st, int64_t run_id)
{
    char *name = pr_xstrdup("stdin");
    for (int k = 2;; k++) {
        int64_t *ids = NULL;
        size_t n = 0;
        int taken = 0;
        if (st->ops->runs(st, PR_RUNS_NAMED, name, &ids, &n, NULL) == 0)
            for (size_t i = 0; i < n; i++)
                taken |= ids[i] != run_id;
        free(ids);
        if (!taken)
            return name;
        free(name);
        name = pr_xasprintf("stdin-%d", k);
    }
}

/* Writes metadata, strings and aggregates of the current run. */
static int finish_run(pr_ingest *ing, pr_error *err)
{
    int rc = flush_block(ing, err);
    if (rc == 0)
        rc = drain_blocks(ing, err);
    if (rc < 0)
        return rc;
    pr_store *st = ing->st;
    pr_run *run = ing->run;
    if (!run->name || !*run->name) {
        char *n =
            strcmp(ing->source, "-") ? pr_xstrdup(base_name(ing->source)) : stdin_name(st, run->id);
        char *dot = strrchr(n, '.');
        if (dot && dot != n && strcmp(ing->source, "-"))
            *dot = 0;
        pr_run_set_name(run, n);
        free(n);
    }
    run->samples += ing->samples;
    run->successes += ing->successes;
    /* store-maintained: samples that are not requests (JMeter Transaction Controllers) */
    int64_t tx = ing->tx_before + ing->tx_samples;
    if (tx > 0)
        pr_run_meta_set(run, "transaction_samples", json_integer(tx));
    if (run->samples > 0) /* a tool's printed summary beside samples: samples win */
        run->summary_only = 0;
    uint32_t count = pr_strtab_count(run->strings);
    if ((rc = st->ops->run_write(st, run, err)) < 0 ||
        (ing->strings_stored < count &&
         (rc = st->ops->strings_put(st, run->id, run->strings, ing->strings_stored, count, err)) <
             0) ||
        (rc = put_counts(ing, PR_AGG_LABELS, err)) < 0 ||
        (rc = put_counts(ing, PR_AGG_ERRORS, err)) < 0 ||
        (rc = put_counts(ing, PR_AGG_STATUS, err)) < 0 ||
        (rc = st->ops->cache_clear(st, run->id, err)) < 0) /* cached analysis is stale */
        return rc;
    ing->strings_stored = count;
    ing->total_samples += ing->samples;
    ing->runs++;
    ing->samples = ing->successes = 0;
    ing->tx_samples = ing->tx_before = 0;
    counts *all[] = {&ing->label_n, &ing->label_err, &ing->error_n, &ing->status_n};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i]->v)
            memset(all[i]->v, 0, all[i]->cap * sizeof(int64_t));
    return 0;
}

static int split(pr_sink *sink, pr_error *err, void *payload)
{
    pr_ingest *ing = payload;
    int rc = finish_run(ing, err);
    if (rc < 0)
        return rc;
    pr_run *old = ing->run;
    pr_run *r = pr_run_new();
    if (old->name) {
        /* the first run's name and the run's number: name#2, name#3 (not name#2#3) */
        size_t base = strlen(old->name);
        const char *hash = strrchr(old->name, '#');
        if (ing->runs > 1 && hash && hash[1] && strspn(hash + 1, "0123456789") == strlen(hash + 1))
            base = (size_t)(hash - old->name);
        char *name = pr_xasprintf("%.*s#%d", (int)base, old->name, ing->runs + 1);
        pr_run_set_name(r, name);
        free(name);
    }
    pr_run_set_format(r, old->format, old->tool);
    for (size_t i = 0; i < old->ntags; i++)
        pr_run_tag(r, old->tags[i].key, old->tags[i].value);
    /* the previous run is complete in the store; keep only the new one in memory */
    pr_run_free(old);
    ing->run = sink->run = r;
    return create_run_row(ing, err);
}

static void free_ingest(pr_ingest *ing)
{
    pr_block_writer_free(ing->writer);
    pr_run_free(ing->run);
    free(ing->source);
    free(ing->key);
    free(ing->pending);
    free(ing->created);
    pr_buf_dispose(&ing->block);
    free(ing->label_n.v);
    free(ing->label_err.v);
    free(ing->error_n.v);
    free(ing->status_n.v);
    free(ing);
}

/* The newest run matching `which`/`arg`, 0 if none. */
static int newest_run(pr_store *st, pr_store_which which, const char *arg, int64_t *id,
                      pr_error *err)
{
    int64_t *ids = NULL;
    size_t n = 0;
    int rc = st->ops->runs(st, which, arg, &ids, &n, err);
    *id = rc == 0 && n ? ids[n - 1] : 0;
    free(ids);
    return rc;
}

/* Opens the transaction and the run: the existing one named `name` (or keyed `key`), or a
 * new one. */
static int begin_run(pr_store *st, pr_ingest **out, const char *name, const char *key,
                     const char *source, pr_error *err)
{
    int rc = st->ops->begin(st, err);
    if (rc < 0)
        return rc;
    pr_ingest *ing = pr_xcalloc(1, sizeof *ing);
    ing->st = st;
    ing->source = pr_xstrdup(source);
    ing->key = key ? pr_xstrdup(key) : NULL;
    ing->shard_index = -1;
    ing->pending = pr_xmalloc(PR_NATIVE_BLOCK_MAX * sizeof *ing->pending);
    ing->block.max = (size_t)1 << 30;
    const char *lock = key ? key : name;
    int64_t existing = 0;
    if (lock && (rc = st->ops->lock_name(st, lock, err)) < 0)
        goto fail;
    if (lock &&
        (rc = newest_run(st, key ? PR_RUNS_KEYED : PR_RUNS_NAMED, lock, &existing, err)) < 0)
        goto fail;
    if (existing) {
        if ((rc = st->ops->load_run(st, existing, &ing->run, err)) < 0 ||
            (rc = st->ops->block_next_seq(st, existing, &ing->next_seq, err)) < 0)
            goto fail;
        ing->strings_stored = pr_strtab_count(ing->run->strings);
        json_t *tx = json_object_get(ing->run->meta, "transaction_samples");
        ing->tx_before = json_is_integer(tx) ? json_integer_value(tx) : 0;
    } else {
        ing->run = pr_run_new();
        if (lock)
            pr_run_set_name(ing->run, lock);
        if ((rc = create_run_row(ing, err)) < 0)
            goto fail;
    }
    free(ing->run->source);
    ing->run->source = pr_xstrdup(source);
    pr_sink_init(&ing->sink, ing->run, push, ing);
    ing->sink.push_block = push_block; /* native blocks go in as they are */
    ing->writer = pr_block_writer_new(st);
    if (!key)
        ing->sink.split = split; /* a shard is one part of one run */
    *out = ing;
    return 0;
fail:
    st->ops->rollback(st);
    free_ingest(ing);
    return rc;
}

int pr_ingest_begin(pr_store *st, pr_ingest **out, const char *run_name, const char *source,
                    pr_error *err)
{
    return begin_run(st, out, run_name, NULL, source, err);
}

int pr_ingest_begin_shard(pr_store *st, pr_ingest **out, const char *run_key, int index, int count,
                          const char *source, pr_error *err)
{
    if (!run_key || !*run_key)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0, "a shard needs a run id");
    int rc = begin_run(st, out, NULL, run_key, source, err);
    if (rc == 0) {
        (*out)->shard_index = index;
        (*out)->shard_count = count;
    }
    return rc;
}

pr_sink *pr_ingest_sink(pr_ingest *ing)
{
    return &ing->sink;
}

/* Records this input as shard I of N of the keyed run and writes the run's meta "shards"
 * {"count", "landed", "missing", "complete"}. */
static int land_shard(pr_ingest *ing, pr_error *err)
{
    pr_store *st = ing->st;
    pr_run *run = ing->run;
    int index = ing->shard_index, count = ing->shard_count;
    json_t *own = json_object_get(run->meta, "shard");
    if (index < 0) {
        index = (int)json_integer_value(json_object_get(own, "index"));
        count = (int)json_integer_value(json_object_get(own, "count"));
        if (!json_is_integer(json_object_get(own, "index")))
            count = 0;
    }
    if (count < 1 || index < 0 || index >= count)
        return pr_error_set(err, PR_EUSAGE, ing->source, 0, 0,
                            "run '%s': this input does not say which shard it is (give "
                            "--shard I/N)",
                            ing->key);
    pr_store_shard *have = NULL;
    size_t n = 0;
    int rc = st->ops->shards(st, run->id, &have, &n, err);
    if (rc == 0 && n && have[0].count != count)
        rc = pr_error_set(err, PR_EUSAGE, ing->source, 0, 0,
                          "run '%s' has %d shards; this input is shard %d of %d", ing->key,
                          have[0].count, index, count);
    int dup = 0;
    pr_store_shard me = {index, count, ing->samples, pr_clock_now_s()};
    if (rc == 0)
        rc = st->ops->shard_put(st, run->id, &me, &dup, err);
    if (rc == 0 && dup)
        rc = pr_error_set(err, PR_EDUP, ing->source, 0, 0,
                          "run '%s': shard %d of %d already landed; nothing added", ing->key, index,
                          count);
    if (rc == 0) {
        char *seen = pr_xcalloc((size_t)count, 1);
        seen[index] = 1;
        for (size_t i = 0; i < n; i++)
            if (have[i].index >= 0 && have[i].index < count)
                seen[have[i].index] = 1;
        json_t *missing = json_array();
        int landed = 0;
        for (int i = 0; i < count; i++) {
            landed += seen[i];
            if (!seen[i])
                json_array_append_new(missing, json_integer(i));
        }
        free(seen);
        /* the per-shard header's "shard" is one part's; the run's truth is "shards" */
        json_object_del(run->meta, "shard");
        pr_run_meta_set(run, "shards",
                        json_pack("{s:i,s:i,s:o,s:b}", "count", count, "landed", landed, "missing",
                                  missing, "complete", landed == count));
        ing->shards_landed = landed;
        ing->shard_index = index;
        ing->shard_count = count;
    }
    free(have);
    return rc;
}

/* Fills res->duplicate_of from the store; 0 or an error. */
static int find_duplicate(pr_store *st, const char *digest, pr_ingest_result *res, pr_error *err)
{
    int64_t id = 0;
    int rc = st->ops->source_find(st, digest, &id, err);
    res->duplicate_of = (int)id;
    return rc;
}

int pr_ingest_commit(pr_ingest *ing, const char *digest, int force, pr_ingest_result *res,
                     pr_error *err)
{
    pr_store *st = ing->st;
    memset(res, 0, sizeof *res);
    int rc = pr_sink_flush(&ing->sink, err);
    if (rc == 0)
        rc = drain_blocks(ing, err);
    int check = digest && *digest && !force;
    if (rc == 0 && check) {
        rc = find_duplicate(st, digest, res, err);
        if (rc == 0 && res->duplicate_of) {
            pr_ingest_abort(ing);
            return 0;
        }
    }
    if (rc == 0 && ing->key)
        rc = land_shard(ing, err);
    if (rc == 0)
        rc = finish_run(ing, err);
    int dup = 0;
    if (rc == 0) {
        pr_store_source src = {ing->run->id,
                               ing->source,
                               digest ? digest : "",
                               ing->run->format,
                               ing->total_samples,
                               pr_clock_now_s(),
                               !check};
        rc = st->ops->source_put(st, &src, &dup, err);
    }
    if (rc == 0 && dup) {
        /* the same content landed meanwhile from another writer: it wins */
        pr_ingest_abort(ing);
        return find_duplicate(st, digest, res, err);
    }
    if (rc == 0)
        rc = st->ops->commit(st, ing->created, ing->ncreated, err);
    if (rc < 0) {
        pr_ingest_abort(ing);
        return rc;
    }
    res->run_id = ing->run_created ? ing->created[ing->ncreated - 1] : ing->run->id;
    snprintf(res->name, sizeof res->name, "%s", ing->run->name ? ing->run->name : "");
    res->samples = ing->total_samples;
    res->runs = ing->runs;
    res->shard_index = ing->shard_index;
    res->shards_landed = ing->shards_landed;
    res->shard_count = ing->key ? ing->shard_count : 0;
    free_ingest(ing);
    return 0;
}

void pr_ingest_abort(pr_ingest *ing)
{
    pr_block_writer_free(ing->writer); /* its queue dropped, before the connection is used */
    ing->writer = NULL;
    ing->st->ops->rollback(ing->st);
    free_ingest(ing);
}

/* ---- queries -------------------------------------------------------------------------- */

int pr_store_list_runs(pr_store *st, int64_t **ids, size_t *n, pr_error *err)
{
    return st->ops->runs(st, PR_RUNS_ALL, NULL, ids, n, err);
}

int pr_store_find_run(pr_store *st, const char *ref, int64_t *id, pr_error *err)
{
    char *end;
    strtoll(ref, &end, 10);
    pr_store_which which = *ref && !*end          ? PR_RUNS_ID
                           : !strcmp(ref, "last") ? PR_RUNS_LAST
                                                  : PR_RUNS_NAMED;
    int64_t *ids = NULL;
    size_t n = 0;
    int rc = st->ops->runs(st, which, ref, &ids, &n, err);
    if (rc == 0 && n == 0)
        rc = pr_error_set(err, PR_ENOTFOUND, NULL, 0, 0, "no run '%s' (see perfreport runs)", ref);
    else if (rc == 0 && n > 1)
        rc = pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                          "%zu runs are named '%s'; name one by its id (see perfreport runs)", n,
                          ref);
    if (rc == 0)
        *id = ids[0];
    free(ids);
    return rc;
}

int pr_store_load_run(pr_store *st, int64_t id, pr_run **out, pr_error *err)
{
    return st->ops->load_run(st, id, out, err);
}

typedef struct scan_ctx {
    pr_store *st;
    int64_t run_id;
    int (*cb)(const pr_sample *s, size_t n, void *payload);
    void *payload;
    pr_sample *buf;
    size_t cap;
    pr_error *err;
} scan_ctx;

static int scan_block(const pr_store_block *b, void *payload)
{
    scan_ctx *c = payload;
    size_t n;
    int rc = pr_block_decode(b->data, b->len, &c->buf, &c->cap, &n, c->err);
    if (rc < 0) {
        char msg[sizeof c->err->msg];
        snprintf(msg, sizeof msg, "%s", c->err->msg);
        return pr_error_set(c->err, PR_ESTORE, c->st->path, 0, 0, "run %lld block %lld: %s",
                            (long long)c->run_id, (long long)b->seq, msg);
    }
    return c->cb(c->buf, n, c->payload);
}

int pr_store_scan(pr_store *st, int64_t id, int (*cb)(const pr_sample *s, size_t n, void *payload),
                  void *payload, pr_error *err)
{
    scan_ctx c = {st, id, cb, payload, NULL, 0, err};
    int rc = st->ops->scan_blocks(st, id, scan_block, &c, err);
    free(c.buf);
    return rc;
}

typedef struct cols_ctx {
    pr_store *st;
    int64_t run_id;
    unsigned want;
    int (*cb)(const pr_block_cols *c, void *payload);
    void *payload;
    pr_error *err;
} cols_ctx;

static int cols_block(const pr_store_block *b, void *payload)
{
    cols_ctx *c = payload;
    pr_block_cols cols;
    int rc = pr_block_decode_cols(b->data, b->len, c->want, &cols, c->err);
    if (rc < 0) {
        char msg[sizeof c->err->msg];
        snprintf(msg, sizeof msg, "%s", c->err->msg);
        return pr_error_set(c->err, PR_ESTORE, c->st->path, 0, 0, "run %lld block %lld: %s",
                            (long long)c->run_id, (long long)b->seq, msg);
    }
    return c->cb(&cols, c->payload);
}

int pr_store_scan_cols(pr_store *st, int64_t id, unsigned want,
                       int (*cb)(const pr_block_cols *c, void *payload), void *payload,
                       pr_error *err)
{
    cols_ctx c = {st, id, want, cb, payload, err};
    return st->ops->scan_blocks(st, id, cols_block, &c, err);
}

/* ---- the column scan on worker threads ------------------------------------------------- */

#define MT_SLOTS 8

/* One block read and not yet decoded (its bytes copied: the backend's are borrowed). */
typedef struct mt_slot {
    unsigned char *data;
    size_t len, cap, ordinal;
    int64_t seq;
    int state; /* MT_FREE, MT_FULL (read), MT_BUSY (a worker's) */
} mt_slot;

enum { MT_FREE, MT_FULL, MT_BUSY };

typedef struct mt_scan {
    pthread_mutex_t mu;
    pthread_cond_t can_put, can_take;
    mt_slot slot[MT_SLOTS];
    size_t head, tail; /* blocks taken by workers, blocks read */
    int done, stop, rc;
    pr_error err; /* the first failure's */
    pr_store *st;
    int64_t run_id;
    unsigned want;
    int (*cb)(const pr_block_cols *c, size_t ordinal, int worker, void *payload);
    void *payload;
} mt_scan;

typedef struct mt_worker {
    mt_scan *m;
    int id;
} mt_worker;

/* The worker's block: decoded and handed to cb; rc and err as the serial scan's. */
static int mt_decode(mt_scan *m, const mt_slot *s, int worker, pr_error *err)
{
    pr_block_cols cols;
    int rc = pr_block_decode_cols(s->data, s->len, m->want, &cols, err);
    if (rc < 0) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return pr_error_set(err, PR_ESTORE, m->st->path, 0, 0, "run %lld block %lld: %s",
                            (long long)m->run_id, (long long)s->seq, msg);
    }
    return m->cb(&cols, s->ordinal, worker, m->payload);
}

static void *mt_work(void *arg)
{
    mt_worker *w = arg;
    mt_scan *m = w->m;
    pr_error e;
    pr_error_clear(&e);
    pthread_mutex_lock(&m->mu);
    for (;;) {
        while (m->head == m->tail && !m->done && !m->stop)
            pthread_cond_wait(&m->can_take, &m->mu);
        if (m->stop || m->head == m->tail)
            break;
        mt_slot *s = &m->slot[m->head++ % MT_SLOTS];
        s->state = MT_BUSY;
        pthread_mutex_unlock(&m->mu);
        int rc = mt_decode(m, s, w->id, &e);
        pthread_mutex_lock(&m->mu);
        s->state = MT_FREE;
        if (rc && !m->stop) {
            m->stop = 1;
            m->rc = rc;
            m->err = e;
            pthread_cond_broadcast(&m->can_take);
        }
        pthread_cond_broadcast(&m->can_put);
    }
    pthread_mutex_unlock(&m->mu);
    pr_block_decode_thread_end();
    return NULL;
}

/* The reader: each block's bytes into the next free slot. */
static int mt_put(const pr_store_block *b, void *payload)
{
    mt_scan *m = payload;
    pthread_mutex_lock(&m->mu);
    mt_slot *s = &m->slot[m->tail % MT_SLOTS];
    while (s->state != MT_FREE && !m->stop)
        pthread_cond_wait(&m->can_put, &m->mu);
    int stop = m->stop;
    pthread_mutex_unlock(&m->mu);
    if (stop)
        return 1;
    if (b->len > s->cap) {
        s->cap = b->len;
        s->data = pr_xrealloc(s->data, s->cap);
    }
    if (b->len)
        memcpy(s->data, b->data, b->len);
    s->len = b->len;
    s->seq = b->seq;
    pthread_mutex_lock(&m->mu);
    s->ordinal = m->tail++;
    s->state = MT_FULL;
    pthread_cond_signal(&m->can_take);
    pthread_mutex_unlock(&m->mu);
    return 0;
}

/* The serial scan of pr_store_scan_cols_mt: ordinals counted, worker 0. */
typedef struct mt_serial {
    int (*cb)(const pr_block_cols *c, size_t ordinal, int worker, void *payload);
    void *payload;
    size_t next;
} mt_serial;

static int mt_serial_block(const pr_block_cols *c, void *payload)
{
    mt_serial *s = payload;
    return s->cb(c, s->next++, 0, s->payload);
}

int pr_store_scan_cols_mt(pr_store *st, int64_t id, unsigned want, int threads,
                          int (*cb)(const pr_block_cols *c, size_t ordinal, int worker,
                                    void *payload),
                          void *payload, pr_error *err)
{
    if (threads <= 1) {
        mt_serial s = {cb, payload, 0};
        return pr_store_scan_cols(st, id, want, mt_serial_block, &s, err);
    }
    mt_scan *m = pr_xcalloc(1, sizeof *m);
    pthread_mutex_init(&m->mu, NULL);
    pthread_cond_init(&m->can_put, NULL);
    pthread_cond_init(&m->can_take, NULL);
    m->st = st;
    m->run_id = id;
    m->want = want;
    m->cb = cb;
    m->payload = payload;
    pthread_t *tid = pr_xcalloc((size_t)threads, sizeof *tid);
    mt_worker *w = pr_xcalloc((size_t)threads, sizeof *w);
    int started = 0;
    for (; started < threads; started++) {
        w[started] = (mt_worker){m, started};
        if (pthread_create(&tid[started], NULL, mt_work, &w[started]) != 0)
            break;
    }
    int rc = started ? st->ops->scan_blocks(st, id, mt_put, m, err) : 0;
    pthread_mutex_lock(&m->mu);
    m->done = 1;
    pthread_cond_broadcast(&m->can_take);
    pthread_mutex_unlock(&m->mu);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    if (!started) { /* no thread: the serial scan */
        mt_serial s = {cb, payload, 0};
        rc = pr_store_scan_cols(st, id, want, mt_serial_block, &s, err);
    } else if (m->rc) {
        rc = m->rc;
        *err = m->err;
    }
    for (int i = 0; i < MT_SLOTS; i++)
        free(m->slot[i].data);
    pthread_mutex_destroy(&m->mu);
    pthread_cond_destroy(&m->can_put);
    pthread_cond_destroy(&m->can_take);
    free(m);
    free(tid);
    free(w);
    return rc;
}

/* One part of a concurrent scan. */
typedef struct par_part {
    pr_store *st;
    int64_t id, lo, hi;
    cols_ctx c;
    pr_error err;
    int rc;
} par_part;

static void *par_main(void *arg)
{
    par_part *p = arg;
    p->c.err = &p->err;
    p->rc = p->st->ops->scan_range(p->st, p->id, p->lo, p->hi, cols_block, &p->c, &p->err);
    return NULL;
}

/* A part on a thread of its own, which frees its decode buffer as it ends. */
static void *par_thread(void *arg)
{
    par_main(arg);
    pr_block_decode_thread_end();
    return NULL;
}

/* The first seq of each part (bounds[parts] past the last block): equal shares of samples. */
static void par_bounds(const int64_t *seq, const int64_t *samples, size_t n, int parts,
                       int64_t *bounds)
{
    int64_t total = 0, sum = 0;
    for (size_t i = 0; i < n; i++)
        total += samples[i];
    int k = 1;
    bounds[0] = seq[0];
    for (size_t i = 0; i < n && k < parts; i++) {
        /* block i starts part k once the parts before hold their share */
        if (i > 0 && sum * parts >= total * k)
            bounds[k++] = seq[i];
        sum += samples[i];
    }
    while (k < parts) /* fewer blocks than the shares need: empty trailing parts */
        bounds[k++] = seq[n - 1] + 1;
    bounds[parts] = seq[n - 1] + 1;
}

int pr_store_scan_cols_par(pr_store *st, int64_t id, unsigned want,
                           int (*cb)(const pr_block_cols *c, void *payload), void *const *payloads,
                           int parts, int *rcs, pr_error *err)
{
    int64_t *seq = NULL, *samples = NULL;
    size_t n = 0;
    int rc = parts >= 2 && parts <= PR_SCAN_PARTS && st->ops->block_list
                 ? st->ops->block_list(st, id, &seq, &samples, &n, err)
                 : PR_EUSAGE;
    if (rc < 0 && rc != PR_EUSAGE)
        return rc;
    if (rc == PR_EUSAGE || n < (size_t)parts) {
        free(seq);
        free(samples);
        rcs[0] = pr_store_scan_cols(st, id, want, cb, payloads[0], err);
        return 1;
    }
    int64_t bounds[PR_SCAN_PARTS + 1];
    par_bounds(seq, samples, n, parts, bounds);
    free(seq);
    free(samples);
    par_part pp[PR_SCAN_PARTS];
    pthread_t th[PR_SCAN_PARTS];
    int started[PR_SCAN_PARTS] = {0};
    for (int k = 0; k < parts; k++) {
        pp[k] = (par_part){st,  id, bounds[k], bounds[k + 1], {st, id, want, cb, payloads[k], NULL},
                           {0}, 0};
        if (k > 0)
            started[k] = pthread_create(&th[k], NULL, par_thread, &pp[k]) == 0;
    }
    par_main(&pp[0]);
    for (int k = 1; k < parts; k++) {
        if (started[k])
            pthread_join(th[k], NULL);
        else /* no thread: the part after the first, on this one */
            par_main(&pp[k]);
    }
    int failed = 0;
    for (int k = 0; k < parts; k++) {
        rcs[k] = pp[k].rc;
        if (rcs[k] < 0 && !failed++)
            *err = pp[k].err;
    }
    return parts;
}

typedef struct some_scan {
    int (*cb)(const pr_sample *s, size_t n, void *payload);
    void *payload;
    pr_sample buf[512];
} some_scan;

static int some_block(const pr_block_cols *c, void *payload)
{
    some_scan *ss = payload;
    for (size_t at = 0; at < c->n; at += 512) {
        size_t m = c->n - at < 512 ? c->n - at : 512;
        pr_block_cols_samples(c, at, m, ss->buf);
        int rc = ss->cb(ss->buf, m, ss->payload);
        if (rc)
            return rc;
    }
    return 0;
}

/* The pipelined scan: a thread reads, decodes and makes the samples, SOME_SLOTS batches of at
 * most SOME_BATCH ahead, while the calling thread hands them to cb in storage order. */
#define SOME_BATCH 512
#define SOME_SLOTS 8

typedef struct some_pipe {
    pthread_mutex_t mu;
    pthread_cond_t cv; /* a change of count, done or stop */
    pr_sample *buf[SOME_SLOTS];
    size_t n[SOME_SLOTS];
    size_t head, count; /* batches buf[head .. head + count) wait for cb */
    int done, stop, rc;
    pr_error err; /* the scan's (the reading thread's) */
    pr_store *st;
    int64_t id;
    unsigned want;
} some_pipe;

/* On the reading thread: a block's samples into free batches (waiting for one). */
static int pipe_block(const pr_block_cols *c, void *payload)
{
    some_pipe *p = payload;
    for (size_t at = 0; at < c->n; at += SOME_BATCH) {
        size_t m = c->n - at < SOME_BATCH ? c->n - at : SOME_BATCH;
        pthread_mutex_lock(&p->mu);
        while (p->count == SOME_SLOTS && !p->stop)
            pthread_cond_wait(&p->cv, &p->mu);
        int stop = p->stop;
        size_t k = (p->head + p->count) % SOME_SLOTS; /* the reader's until count grows */
        pthread_mutex_unlock(&p->mu);
        if (stop)
            return 1; /* cb asked to stop: its return is the scan's */
        pr_block_cols_samples(c, at, m, p->buf[k]);
        p->n[k] = m;
        pthread_mutex_lock(&p->mu);
        p->count++;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
    return 0;
}

static void *pipe_main(void *arg)
{
    some_pipe *p = arg;
    pr_error_clear(&p->err);
    int rc = pr_store_scan_cols(p->st, p->id, p->want, pipe_block, p, &p->err);
    pthread_mutex_lock(&p->mu);
    p->rc = rc;
    p->done = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pr_block_decode_thread_end();
    return NULL;
}

/* cb on each batch in order, on this thread; 0 when the reading thread could not start. */
static int scan_some_piped(some_pipe *p, int (*cb)(const pr_sample *s, size_t n, void *payload),
                           void *payload, int *rc_out, pr_error *err)
{
    pthread_t th;
    if (pthread_create(&th, NULL, pipe_main, p) != 0)
        return 0;
    int rc = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->count && !p->done)
            pthread_cond_wait(&p->cv, &p->mu);
        if (!p->count)
            break;
        size_t k = p->head; /* this thread's until count drops */
        pthread_mutex_unlock(&p->mu);
        rc = cb(p->buf[k], p->n[k], payload);
        pthread_mutex_lock(&p->mu);
        p->head = (p->head + 1) % SOME_SLOTS;
        p->count--;
        if (rc)
            p->stop = 1;
        pthread_cond_broadcast(&p->cv);
        if (rc)
            break;
    }
    pthread_mutex_unlock(&p->mu);
    pthread_join(th, NULL);
    if (!rc && p->rc) { /* the scan's failure */
        rc = p->rc;
        if (err)
            *err = p->err;
    }
    *rc_out = rc;
    return 1;
}

int pr_store_scan_some(pr_store *st, int64_t id, unsigned want,
                       int (*cb)(const pr_sample *s, size_t n, void *payload), void *payload,
                       pr_error *err)
{
    int rc;
    if (pr_threads() >= 2) {
        some_pipe *p = pr_xcalloc(1, sizeof *p);
        pthread_mutex_init(&p->mu, NULL);
        pthread_cond_init(&p->cv, NULL);
        for (size_t k = 0; k < SOME_SLOTS; k++)
            p->buf[k] = pr_xmalloc(SOME_BATCH * sizeof *p->buf[k]);
        p->st = st;
        p->id = id;
        p->want = want;
        int piped = scan_some_piped(p, cb, payload, &rc, err);
        for (size_t k = 0; k < SOME_SLOTS; k++)
            free(p->buf[k]);
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
        free(p);
        if (piped)
            return rc;
    }
    some_scan *ss = pr_xmalloc(sizeof *ss);
    ss->cb = cb;
    ss->payload = payload;
    rc = pr_store_scan_cols(st, id, want, some_block, ss, err);
    free(ss);
    return rc;
}

int pr_store_remove(pr_store *st, int64_t id, pr_error *err)
{
    return st->ops->remove(st, id, err);
}

int pr_store_tag(pr_store *st, int64_t id, const char *key, const char *value, pr_error *err)
{
    return st->ops->tag(st, id, key, value, err);
}

int pr_store_cache_put(pr_store *st, int64_t id, const char *key, const char *json, pr_error *err)
{
    return st->ops->cache_put(st, id, key, json, err);
}

int pr_store_cache_get(pr_store *st, int64_t id, const char *key, char **json, pr_error *err)
{
    return st->ops->cache_get(st, id, key, json, err);
}

int pr_store_put_stats(pr_store *st, int64_t id, const pr_store_stats *s, pr_error *err)
{
    return st->ops->stats_put(st, id, s, err);
}

/* ---- copying a run between stores ------------------------------------------------------ */

typedef struct copier {
    pr_ingest *ing; /* the target's transaction; its aggregates count the samples */
    pr_sample *buf;
    size_t cap;
    pr_error *err;
} copier;

static int copy_block(const pr_store_block *b, void *payload)
{
    copier *c = payload;
    size_t n;
    int rc = pr_block_decode(b->data, b->len, &c->buf, &c->cap, &n, c->err);
    for (size_t i = 0; rc == 0 && i < n; i++)
        count_sample(c->ing, &c->buf[i]);
    if (rc == 0) /* the block itself as it is: same bytes, same sequence number */
        rc = c->ing->st->ops->block_put(c->ing->st, c->ing->run->id, b, c->err);
    return rc;
}

typedef struct source_check {
    pr_store *to;
    int64_t found;
    int64_t new_id;
    int put; /* 0: check the target holds none; 1: record them there */
    pr_error *err;
} source_check;

static int copy_source(const pr_store_source *s, void *payload)
{
    source_check *c = payload;
    if (!c->put) {
        if (s->forced || !*s->digest)
            return 0;
        int rc = c->to->ops->source_find(c->to, s->digest, &c->found, c->err);
        return rc < 0 ? rc : c->found ? 1 : 0;
    }
    pr_store_source t = *s;
    int dup = 0;
    t.run_id = c->new_id;
    int rc = c->to->ops->source_put(c->to, &t, &dup, c->err);
    return rc < 0 ? rc
           : dup  ? pr_error_set(c->err, PR_EDUP, c->to->path, 0, 0, "%s is already there", s->path)
                  : 0;
}

/* Shards of the run, recorded again under its new id. */
static int copy_shards(pr_store *from, int64_t id, pr_store *to, int64_t new_id, pr_error *err)
{
    pr_store_shard *sh = NULL;
    size_t n = 0;
    int dup = 0, rc = from->ops->shards(from, id, &sh, &n, err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rc = to->ops->shard_put(to, new_id, &sh[i], &dup, err);
        if (rc == 0 && dup)
            rc = pr_error_set(err, PR_EDUP, to->path, 0, 0, "shard %d is already there",
                              sh[i].index);
    }
    free(sh);
    return rc;
}

/* PR_EDUP when `to` already holds the run's content or its key. */
static int copy_check(pr_store *from, pr_run *run, pr_store *to, pr_error *err)
{
    source_check sc = {to, 0, 0, 0, err};
    int rc = from->ops->sources(from, run->id, copy_source, &sc, err);
    if (rc < 0)
        return rc;
    if (sc.found)
        return pr_error_set(err, PR_EDUP, to->path, 0, 0,
                            "run %lld '%s' is already there as "
                            "run %lld",
                            (long long)run->id, run->name ? run->name : "", (long long)sc.found);
    int64_t keyed = 0;
    if (run->key && (rc = newest_run(to, PR_RUNS_KEYED, run->key, &keyed, err)) < 0)
        return rc;
    return keyed ? pr_error_set(err, PR_EDUP, to->path, 0, 0,
                                "a run with id '%s' is already there (run %lld)", run->key,
                                (long long)keyed)
                 : 0;
}

int pr_store_copy(pr_store *from, int64_t id, pr_store *to, int64_t *new_id, pr_error *err)
{
    pr_run *run;
    int rc = from->ops->load_run(from, id, &run, err);
    if (rc < 0)
        return rc;
    if ((rc = copy_check(from, run, to, err)) < 0 || (rc = to->ops->begin(to, err)) < 0) {
        pr_run_free(run);
        return rc;
    }
    pr_ingest *ing = pr_xcalloc(1, sizeof *ing);
    ing->st = to;
    ing->source = pr_xstrdup(from->path);
    ing->key = run->key ? pr_xstrdup(run->key) : NULL;
    ing->run = run;
    rc = create_run_row(ing, err);
    /* the counts come back from the blocks themselves */
    run->samples = run->successes = 0;
    copier c = {ing, NULL, 0, err};
    if (rc == 0)
        rc = from->ops->scan_blocks(from, id, copy_block, &c, err);
    free(c.buf);
    if (rc == 0)
        rc = finish_run(ing, err);
    source_check sc = {to, 0, run->id, 1, err};
    if (rc == 0)
        rc = from->ops->sources(from, id, copy_source, &sc, err);
    if (rc == 0)
        rc = copy_shards(from, id, to, run->id, err);
    if (rc == 0)
        rc = to->ops->commit(to, ing->created, ing->ncreated, err);
    else
        to->ops->rollback(to);
    if (rc == 0)
        *new_id = ing->created[0];
    free_ingest(ing);
    return rc;
}
