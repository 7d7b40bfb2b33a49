/* The report's scans: rows, bins and totals from a selection's samples, exact durations in one
 * sorted array per duration (each value kept once, 10 bytes per sample) or histograms. */
#include "analysis/report_acc.h"
#include "analysis/cellsort.h"
#include "analysis/interval.h"
#include "analysis/pattern.h"
#include "analysis/rsort.h"
#include "model/buf.h"
#include "model/l10n.h"
#include "model/native.h"
#include "model/threads.h"
#include "model/xalloc.h"
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOROW UINT32_MAX
#define RESTART 1 /* a scan callback's "start again with the rows decided" */
#define ABORT 2   /* the parts of a scan on two threads do not merge exactly: scan on one */
/* The columns the main scan reads (colview_get: all but the attributes). */
#define MAIN_COLS (PR_COLS_ALL & ~PR_COLBIT(PR_COL_ATTRS))
#define STATUS_MEMO 1000                   /* status codes whose interval slot code_slot keeps */
#define PART_TS_MAX (PR_LABEL_TS_MAX * 16) /* labels with bins a part may hold */
#define STAGE_N 32 /* bounded mode: latencies a row stages before they go into its histogram */

/* The columns the main scan reads: MAIN_COLS, or those the options name (pr_report_opts.cols). */
static unsigned main_cols(const pr_report_opts *o)
{
    return o->cols ? MAIN_COLS & o->cols : MAIN_COLS;
}

/* Per row, exact mode: what the pass over the sorted values needs before it starts. */
typedef struct row_sum {
    __int128 sum[PR_NDUR];
    uint64_t n[PR_NDUR];
} row_sum;

struct pr_report_acc {
    pr_run *run;   /* run being scanned (strings) */
    uint32_t *map; /* run string id -> names id (0 = not mapped yet) */
    size_t map_cap;
    uint32_t *rowmap; /* run string id -> row of a one-column breakdown (NOROW: unset) */
    size_t rowmap_cap;
    uint32_t *row_of_key; /* names id -> row + 1 (0: none yet) */
    size_t row_of_key_cap;
    int fixed;            /* rows decided by a counting pass: unknown keys go to "other" */
    uint32_t other_row;   /* NOROW until there is one */
    size_t top;           /* rows before "other" (0: every key) */
    int pattern;          /* label/URL values are grouped by pattern */
    int fastdim;          /* one breakdown column read straight from the samples (enum pr_col) */
    int64_t raw_distinct; /* its distinct values (per run, summed) */
    uint32_t tag_ids[4];  /* per run: the interned value of each tag dimension */
    uint32_t status_ids[1000]; /* interned "200", "404"… for the status dimension */
    /* code_slot's answer for the codes below STATUS_MEMO, + 1 (0: not asked yet); the
     * slots are given once each in order of appearance, so an answer never changes */
    unsigned char slot_of_code[STATUS_MEMO];
    size_t rows_cap;
    /* groups: a row's samples without (tx 0) and with (tx 1) the Transaction Controller flag */
    uint32_t *group_of_row; /* [row * 2 + tx] -> group + 1 */
    uint32_t *row_of_group;
    unsigned char *tx_of_group;
    size_t ngroups, groups_cap;
    /* exact mode: the values of the duration being collected and their cells */
    int dur; /* enum pr_dur being collected */
    pr_cellsort vals;
    unsigned bin_bits;      /* cell = group << bin_bits | bin; bin nbins = none */
    double inv_interval;    /* 1 / a->interval */
    int64_t known[PR_NDUR]; /* values of each duration (sizes the arrays of later passes) */
    row_sum *sums;          /* per row */
    /* exact mode, per row: the counters of its Transaction Controller samples, kept apart from
     * a->rows[r].s (its others) until rows_total: the run's total is then the rows' sum */
    pr_series *txs;
    row_sum *txsums; /* the same for their durations' counts and sums (p->sums: the others) */
    /* bounded mode, per row: its latencies not yet in its histogram, in the order they came
     * ([row * STAGE_N + i], stage_n[row] of them). A sample's row is random, so a row's
     * buckets are rarely in cache from one of its samples to the next: STAGE_N at once touch
     * them while they are (stage_flush). Flushed before any read or merge of the rows. */
    int64_t *stage;
    unsigned char *stage_n;
    row_sum total_sum;
    int64_t total_lat_min;
    /* the counting pass */
    int64_t *key_count; /* per names id */
    size_t key_count_cap;
    size_t nsamples; /* the selection's samples (sizes the exact values' arrays) */
    int parallel;    /* the main scan runs on two threads (scan_par) */
    int bp;          /* bp_mode, decided once */
    int staged;      /* bounded mode stages the rows' latencies (pr_acc_fast_mode 0: the
                      * tests' reference adds them one by one) */
};

/* ---- keys and rows ----------------------------------------------------------------------- */

static uint32_t map_str(pr_acc *a, uint32_t id)
{
    pr_report_acc *p = a->priv;
    if (id == 0)
        return 0;
    if (id >= p->map_cap) {
        size_t old = p->map_cap;
        p->map = pr_xgrow(p->map, &p->map_cap, (size_t)id + 1, sizeof *p->map);
        memset(p->map + old, 0, (p->map_cap - old) * sizeof *p->map);
    }
    if (!p->map[id])
        p->map[id] =
            pr_strtab_intern(a->names, pr_run_str(p->run, id), pr_strtab_len(p->run->strings, id));
    return p->map[id];
}

/* The names id of a run string's pattern (pr_pattern_url). */
static uint32_t map_pattern(pr_acc *a, uint32_t id)
{
    if (id == 0)
        return 0;
    pr_buf b = PR_BUF_INIT;
    pr_pattern_url(pr_run_str(a->priv->run, id), pr_strtab_len(a->priv->run->strings, id), &b);
    uint32_t k = pr_strtab_intern(a->names, b.p ? b.p : "", b.len);
    pr_buf_dispose(&b);
    return k;
}

/* The id (in a->names) of one dimension's value for a sample; 0 = none. */
static uint32_t dim_id(pr_acc *a, int dim, size_t i, const pr_sample *x)
{
    pr_report_acc *p = a->priv;
    switch (dim) {
    case PR_BY_LABEL: return p->pattern ? map_pattern(a, x->label) : map_str(a, x->label);
    case PR_BY_URL: return p->pattern ? map_pattern(a, x->url) : map_str(a, x->url);
    case PR_BY_LABEL_PATTERN: return map_pattern(a, x->label);
    case PR_BY_URL_PATTERN: return map_pattern(a, x->url);
    case PR_BY_METHOD: return map_str(a, x->method);
    case PR_BY_ERROR: return map_str(a, x->error);
    case PR_BY_THREAD: return map_str(a, x->thread);
    case PR_BY_STATUS: {
        unsigned code = x->status < 1000 ? x->status : 999;
        if (!p->status_ids[code]) {
            char buf[16];
            if (code)
                snprintf(buf, sizeof buf, "%u", code);
            else
                snprintf(buf, sizeof buf, "%s", _("no response"));
            p->status_ids[code] = pr_strtab_intern_cstr(a->names, buf);
        }
        return p->status_ids[code];
    }
    default: return p->tag_ids[i];
    }
}

/* The breakdown key of a sample: one dimension's id, or the interned "a · b" of several. */
static uint32_t breakdown_key(pr_acc *a, const pr_sample *x)
{
    if (a->o->nby <= 1)
        return dim_id(a, a->o->nby ? a->o->by[0] : PR_BY_LABEL, 0, x);
    char buf[1024];
    size_t n = 0;
    for (size_t i = 0; i < a->o->nby; i++) {
        uint32_t id = dim_id(a, a->o->by[i], i, x);
        const char *s = id ? pr_strtab_get(a->names, id) : "-";
        size_t k = strlen(s);
        if (i && n + 4 < sizeof buf) {
            memcpy(buf + n, " \xc2\xb7 ", 4); /* " · " */
            n += 4;
        }
        if (k > sizeof buf - n - 1)
            k = sizeof buf - n - 1;
        memcpy(buf + n, s, k);
        n += k;
    }
    return pr_strtab_intern(a->names, buf, n);
}

static void row_init(pr_acc *a, pr_row *r, uint32_t key, int other)
{
    memset(r, 0, sizeof *r);
    r->key = key;
    r->other = other;
    pr_series_init_mode(&r->s, a->bounded);
}

static uint32_t new_row(pr_acc *a, uint32_t key, int other)
{
    pr_report_acc *p = a->priv;
    if (a->nrows == p->rows_cap) {
        size_t cap = p->rows_cap;
        a->rows = pr_xgrow(a->rows, &p->rows_cap, a->nrows + 1, sizeof *a->rows);
        size_t scap = cap;
        p->sums = pr_xgrow(p->sums, &scap, p->rows_cap, sizeof *p->sums);
        memset(p->sums + cap, 0, (p->rows_cap - cap) * sizeof *p->sums);
        p->txs = pr_xrealloc(p->txs, p->rows_cap * sizeof *p->txs);
        p->txsums = pr_xrealloc(p->txsums, p->rows_cap * sizeof *p->txsums);
        memset(p->txsums + cap, 0, (p->rows_cap - cap) * sizeof *p->txsums);
        for (size_t r = cap; r < p->rows_cap; r++)
            pr_series_init_mode(&p->txs[r], 0);
        p->group_of_row = pr_xrealloc(p->group_of_row, p->rows_cap * 2 * sizeof *p->group_of_row);
        memset(p->group_of_row + cap * 2, 0, (p->rows_cap - cap) * 2 * sizeof *p->group_of_row);
        if (p->staged) {
            p->stage = pr_xrealloc(p->stage, p->rows_cap * STAGE_N * sizeof *p->stage);
            p->stage_n = pr_xrealloc(p->stage_n, p->rows_cap);
            memset(p->stage_n + cap, 0, p->rows_cap - cap);
        }
    }
    row_init(a, &a->rows[a->nrows], key, other);
    return (uint32_t)a->nrows++;
}

/* The row of key k (a names id): found, made (rows decided as they come), or "other". Returns
 * NOROW when a new row would pass the top rows while they come as they are seen: the scan
 * starts again with the rows decided by a count (RESTART). */
static uint32_t row_for_key(pr_acc *a, uint32_t k)
{
    pr_report_acc *p = a->priv;
    if (k < p->row_of_key_cap && p->row_of_key[k])
        return p->row_of_key[k] - 1;
    uint32_t r;
    if (p->fixed) {
        if (p->other_row == NOROW)
            p->other_row = new_row(a, 0, 1);
        r = p->other_row;
        a->rows[r].keys++;
    } else {
        if (p->top && a->nrows >= p->top)
            return NOROW;
        r = new_row(a, k, 0);
    }
    if (k >= p->row_of_key_cap) {
        size_t old = p->row_of_key_cap;
        p->row_of_key =
            pr_xgrow(p->row_of_key, &p->row_of_key_cap, (size_t)k + 1, sizeof *p->row_of_key);
        memset(p->row_of_key + old, 0, (p->row_of_key_cap - old) * sizeof *p->row_of_key);
    }
    p->row_of_key[k] = r + 1;
    return r;
}

/* The main scan's functions take `fast` (a constant where they are inlined, so the compiler
 * drops the tests it answers): 1 when the accumulator is exact (not bounded, with durations)
 * with a labels list of one breakdown column read straight from the samples (fast_mode);
 * FAST_NOTX in a block whose samples have no Transaction Controller flag. They take `bp` too,
 * 1 (fast 0) for the bounded rows of a labels chart (bp_mode): that loop tests none of the
 * options. */
#define INLINE static inline __attribute__((always_inline))
#define FAST_NOTX 2
/* The columns bp's loop reads from a block; it takes only blocks where no other one varies
 * (a labels chart's scan decodes no other one, pr_model_charts_opts). */
#define BP_COLS                                                                                    \
    (PR_COLBIT(PR_COL_START) | PR_COLBIT(PR_COL_LATENCY) | PR_COLBIT(PR_COL_LABEL) |               \
     PR_COLBIT(PR_COL_URL) | PR_COLBIT(PR_COL_ERROR) | PR_COLBIT(PR_COL_STATUS) |                  \
     PR_COLBIT(PR_COL_SUCCESS) | PR_COLBIT(PR_COL_FLAGS))

int pr_acc_fast_mode = 1;

static int fast_mode(const pr_acc *a)
{
    return pr_acc_fast_mode && !a->bounded && a->o->durations && a->o->rows &&
           a->priv->fastdim >= 0;
}

/* bp: bounded, a labels list of one breakdown column read straight from the samples, and of
 * each row only its counters and durations; no time series, no durations of the run's own
 * (what a labels chart asks for). */
static int bp_mode(const pr_acc *a)
{
    const pr_report_opts *o = a->o;
    return pr_acc_fast_mode && a->bounded && o->rows && o->durations && !o->run_durations &&
           !o->label_extras && !o->label_timeseries && a->nbins == 0 && a->priv->fastdim >= 0;
}

/* The row of a sample, NOROW to start again. A one-column breakdown maps the run's string ids
 * once each. */
static uint32_t row_of_slow(pr_acc *a, const pr_sample *x);

INLINE uint32_t row_of_mode(pr_acc *a, const pr_sample *x, int fast, int bp)
{
    pr_report_acc *p = a->priv;
    if (!fast && !bp && !a->o->rows && a->nrows) /* no labels list: the one row */
        return 0;
    if (fast || bp || (p->fastdim >= 0 && a->o->rows)) {
        uint32_t id = p->fastdim == PR_COL_LABEL ? x->label : x->url;
        if (id < p->rowmap_cap && p->rowmap[id] != NOROW)
            return p->rowmap[id];
    }
    return row_of_slow(a, x);
}

static inline uint32_t row_of(pr_acc *a, const pr_sample *x)
{
    return row_of_mode(a, x, 0, 0);
}

static uint32_t row_of_slow(pr_acc *a, const pr_sample *x)
{
    pr_report_acc *p = a->priv;
    if (!a->o->rows) /* no labels list: one row for everything */
        return a->nrows ? 0 : new_row(a, 0, 0);
    if (p->fastdim < 0)
        return row_for_key(a, breakdown_key(a, x));
    uint32_t id = p->fastdim == PR_COL_LABEL ? x->label : x->url;
    uint32_t r = row_for_key(a, breakdown_key(a, x));
    if (r == NOROW)
        return r;
    p->raw_distinct++; /* a value of this run seen for the first time */
    if (id >= p->rowmap_cap) {
        size_t old = p->rowmap_cap;
        p->rowmap = pr_xgrow(p->rowmap, &p->rowmap_cap, (size_t)id + 1, sizeof *p->rowmap);
        memset(p->rowmap + old, 0xff, (p->rowmap_cap - old) * sizeof *p->rowmap);
    }
    p->rowmap[id] = r;
    return r;
}

/* The group of row r's samples with (tx) or without the Transaction Controller flag. */
static uint32_t new_group(pr_acc *a, uint32_t r, int tx);

static inline uint32_t group_of(pr_acc *a, uint32_t r, int tx)
{
    uint32_t g = a->priv->group_of_row[(size_t)r * 2 + (tx != 0)];
    return g ? g - 1 : new_group(a, r, tx);
}

static uint32_t new_group(pr_acc *a, uint32_t r, int tx)
{
    pr_report_acc *p = a->priv;
    uint32_t *g = &p->group_of_row[(size_t)r * 2 + (tx != 0)];
    if (p->ngroups == p->groups_cap) {
        size_t cap = p->groups_cap;
        p->row_of_group =
            pr_xgrow(p->row_of_group, &p->groups_cap, p->ngroups + 1, sizeof *p->row_of_group);
        p->tx_of_group = pr_xrealloc(p->tx_of_group, p->groups_cap);
        (void)cap;
    }
    p->row_of_group[p->ngroups] = r;
    p->tx_of_group[p->ngroups] = (unsigned char)(tx != 0);
    *g = (uint32_t)++p->ngroups;
    return *g - 1;
}

/* ---- exact values ------------------------------------------------------------------------ */

/* The value of duration d of a sample, PR_UNKNOWN when it has none. */
static int64_t dur_value(int d, const pr_sample *x)
{
    switch (d) {
    case PR_D_LATENCY: return x->latency_ns;
    case PR_D_CONNECT: return x->connect_ns;
    case PR_D_TTFB: return x->ttfb_ns;
    case PR_D_LATENESS: return x->lateness_ns;
    default:
        return x->ttfb_ns != PR_UNKNOWN && x->latency_ns != PR_UNKNOWN &&
                       x->latency_ns >= x->ttfb_ns
                   ? x->latency_ns - x->ttfb_ns
                   : PR_UNKNOWN;
    }
}

/* ---- the main scan ----------------------------------------------------------------------- */

/* The time-series interval holding time t (analysis/interval.h's rule). */
static inline long bin_index(const pr_acc *a, int64_t t)
{
    pr_intervals iv = {a->t0, a->interval, a->priv->inv_interval, a->nbins};
    return pr_interval_of(&iv, t);
}

/* The interval slot of a status code: given in order of appearance, PR_BIN_CODES ("other")
 * once they are all given. */
static int code_slot_new(pr_acc *a, int code)
{
    int s = PR_BIN_CODES;
    for (int i = 0; i < a->ncodes && s == PR_BIN_CODES; i++)
        if (a->codes[i] == code)
            s = i;
    if (s == PR_BIN_CODES && a->ncodes < PR_BIN_CODES) {
        a->codes[a->ncodes] = code;
        s = a->ncodes++;
    }
    if (code >= 0 && code < STATUS_MEMO)
        a->priv->slot_of_code[code] = (unsigned char)(s + 1);
    return s;
}

static inline int code_slot(pr_acc *a, int code)
{
    if (code >= 0 && code < STATUS_MEMO && a->priv->slot_of_code[code])
        return a->priv->slot_of_code[code] - 1;
    return code_slot_new(a, code);
}

/* A response counts in the interval where it completed (start + latency); ks is the interval
 * of its start (>= 0), where most responses complete. */
INLINE void add_response(pr_acc *a, const pr_sample *x, int outcome, long ks)
{
    pr_intervals iv = {a->t0, a->interval, a->priv->inv_interval, a->nbins};
    long k = pr_interval_done(&iv, x->start_ns, x->latency_ns, ks);
    if (k < 0)
        return;
    pr_bin *b = &a->bins[k];
    b->done++;
    b->ok += outcome == 1;
    b->fail += outcome == 0;
    b->unknown += outcome < 0;
    if (x->bytes_in != PR_UNKNOWN)
        b->bytes_in += x->bytes_in;
    b->codes[code_slot(a, x->status)]++;
}

/* Exact mode: one value of duration d, counted and summed for its row (the run's and the
 * counts of each duration are the rows' sums: rows_total). */
static inline void add_dur(row_sum *rs, int d, int64_t v)
{
    rs->sum[d] += v;
    rs->n[d]++;
}

/* Bounded mode: row r's staged latencies into its histogram, in the order they came. */
static void stage_flush(pr_acc *a, size_t r)
{
    pr_report_acc *p = a->priv;
    pr_vals_add_many(&a->rows[r].s.latency, p->stage + r * STAGE_N, p->stage_n[r]);
    p->stage_n[r] = 0;
}

/* Every row's (before the rows are read or merged). */
static void stage_flush_all(pr_acc *a)
{
    for (size_t r = 0; a->priv->stage_n && r < a->nrows; r++)
        if (a->priv->stage_n[r])
            stage_flush(a, r);
}

/* Bounded mode: pr_series_add of a sample of row r, its latency staged. */
INLINE void bounded_add(pr_acc *a, uint32_t r, const pr_sample *x, int outcome)
{
    pr_report_acc *p = a->priv;
    pr_series *s = &a->rows[r].s;
    pr_series_count(s, x, outcome);
    if (x->latency_ns != PR_UNKNOWN) {
        unsigned n = p->stage_n[r];
        p->stage[(size_t)r * STAGE_N + n] = x->latency_ns;
        p->stage_n[r] = (unsigned char)(n + 1);
        if (n + 1 == STAGE_N)
            stage_flush(a, r);
    }
    pr_series_add_others(s, x);
}

/* The durations of a sample of row r (group g) outside the latency array's pass: histograms
 * in bounded mode, counts and sums in exact mode (the values come in later passes). */
INLINE void add_durations(pr_acc *a, uint32_t r, uint32_t g, long k, const pr_sample *x, int tx,
                          int outcome, int fast, int bp)
{
    pr_report_acc *p = a->priv;
    if (bp) {
        bounded_add(a, r, x, outcome);
        return;
    }
    if (!fast && a->bounded && !a->o->rows)
        return; /* no labels list: of the one row only its count is read (bounded_results) */
    if (!fast && !a->o->durations) {
        if (a->bounded)
            pr_series_count(&a->rows[r].s, x, outcome);
        return;
    }
    if (!fast && a->bounded) {
        if (p->staged)
            bounded_add(a, r, x, outcome);
        else /* the tests' reference (pr_acc_fast_mode 0): no staging */
            pr_series_add(&a->rows[r].s, x, outcome);
        return;
    }
    row_sum *rs = tx ? &p->txsums[r] : &p->sums[r];
    if (x->latency_ns != PR_UNKNOWN)
        add_dur(rs, PR_D_LATENCY, x->latency_ns);
    if (x->connect_ns != PR_UNKNOWN)
        add_dur(rs, PR_D_CONNECT, x->connect_ns);
    if (x->ttfb_ns != PR_UNKNOWN) {
        add_dur(rs, PR_D_TTFB, x->ttfb_ns);
        if (x->latency_ns != PR_UNKNOWN && x->latency_ns >= x->ttfb_ns)
            add_dur(rs, PR_D_RECEIVE, x->latency_ns - x->ttfb_ns);
    }
    if (x->lateness_ns != PR_UNKNOWN)
        add_dur(rs, PR_D_LATENESS, x->lateness_ns);
    if (x->latency_ns != PR_UNKNOWN) {
        pr_cellsort_add(&p->vals, x->latency_ns,
                        g << p->bin_bits | (uint32_t)(k >= 0 ? (size_t)k : a->nbins));
        if (!tx && x->latency_ns < p->total_lat_min)
            p->total_lat_min = x->latency_ns;
    }
}

/* The sample's part of the run's totals, status codes, errors, Apdex and intervals. */
INLINE void add_total(pr_acc *a, const pr_sample *x, int outcome, long k, int fast, int bp)
{
    int ok = outcome == 1;
    if (bp)
        pr_series_count(&a->total, x, outcome);
    else if (!fast && a->bounded && a->o->durations && a->o->run_durations)
        pr_series_add(&a->total, x, outcome);
    else if (!fast && a->bounded)
        pr_series_count(&a->total, x, outcome);
    /* exact mode: the total's counters are the sum of the rows' (rows_total) */
    if (x->error) {
        uint32_t e = map_str(a, x->error);
        if (e >= a->errors_cap) {
            size_t old = a->errors_cap;
            a->errors = pr_xgrow(a->errors, &a->errors_cap, (size_t)e + 1, sizeof *a->errors);
            memset(a->errors + old, 0, (a->errors_cap - old) * sizeof *a->errors);
        }
        a->errors[e]++;
    }
    a->status[x->status < 1000 ? x->status : 999]++;
    if (outcome != 0 && x->latency_ns != PR_UNKNOWN) {
        if (x->latency_ns <= a->o->apdex_t_ns)
            *(ok ? &a->apdex_s : &a->apdex_su) += 1;
        else if (x->latency_ns <= a->o->apdex_f_ns)
            *(ok ? &a->apdex_t : &a->apdex_tu) += 1;
    }
    if (k < 0)
        return;
    pr_bin *b = &a->bins[k];
    b->count++;
    b->sent_fail += outcome == 0;
    b->sent_unknown += outcome < 0;
    if (x->latency_ns != PR_UNKNOWN && (fast || a->o->durations)) {
        b->lat_n++;
        if (!fast && a->bounded)
            pr_vals_add(&b->lat, x->latency_ns);
    }
    if (x->connect_ns != PR_UNKNOWN) {
        b->connect_sum += x->connect_ns;
        b->connect_n++;
    }
    if (x->ttfb_ns != PR_UNKNOWN) {
        b->ttfb_sum += x->ttfb_ns;
        b->ttfb_n++;
    }
    if (x->threads >= 0) {
        a->has_threads = 1;
        if (x->threads > b->threads)
            b->threads = x->threads;
    }
    add_response(a, x, outcome, k);
}

/* One sample of the main scan, its outcome (pr_sample_outcome) given. Returns RESTART when
 * the rows must be decided first. */
INLINE int scan_one(pr_acc *a, const pr_sample *x, int outcome, int fast, int bp)
{
    if (x->start_ns != PR_UNKNOWN && (x->start_ns < a->from || x->start_ns >= a->to))
        return 0;
    uint32_t r = row_of_mode(a, x, fast, bp);
    if (r == NOROW)
        return RESTART;
    int tx = fast == FAST_NOTX ? 0 : (x->flags & PR_SF_TRANSACTION) != 0;
    long k = bp ? -1 : bin_index(a, x->start_ns); /* bp: no intervals */
    /* groups: the cells of the exact values (bounded mode has none) */
    int exact = fast || (!bp && !a->bounded);
    uint32_t g = exact ? group_of(a, r, tx) : 0;
    if (exact) /* a row's other samples are the total's (rows_total) */
        pr_series_count(tx ? &a->priv->txs[r] : &a->rows[r].s, x, outcome);
    add_durations(a, r, g, k, x, tx, outcome, fast, bp);
    if (!bp && (fast || a->o->rows) && (a->o->label_extras || a->o->label_timeseries)) {
        /* the labels list's Apdex, top errors and time series (responses by completion) */
        pr_intervals iv = {a->t0, a->interval, a->priv->inv_interval, a->nbins};
        long kd = k >= 0 ? pr_interval_done(&iv, x->start_ns, x->latency_ns, k) : -1;
        pr_label_extras_add(&a->lx, r, x, outcome, x->error ? map_str(a, x->error) : 0, k, kd);
    }
    if (tx) {
        /* a Transaction Controller sample sums its children: it has a label row of its
         * own but stays out of the totals, which already hold the children (as JMeter) */
        a->rows[r].tx = 1;
        a->tx_samples++;
        return 0;
    }
    add_total(a, x, outcome, k, fast, bp);
    return 0;
}

/* The sample fields the scans read, with their column and type (attrs stays unknown); 1: a
 * breakdown column the fast mode does not read. */
#define COLVIEW_FIELDS(X)                                                                          \
    X(PR_COL_START, start_ns, int64_t, 0)                                                          \
    X(PR_COL_LATENCY, latency_ns, int64_t, 0)                                                      \
    X(PR_COL_CONNECT, connect_ns, int64_t, 0)                                                      \
    X(PR_COL_TTFB, ttfb_ns, int64_t, 0)                                                            \
    X(PR_COL_LATENESS, lateness_ns, int64_t, 0)                                                    \
    X(PR_COL_BYTES_IN, bytes_in, int64_t, 0)                                                       \
    X(PR_COL_BYTES_OUT, bytes_out, int64_t, 0)                                                     \
    X(PR_COL_LABEL, label, uint32_t, 0)                                                            \
    X(PR_COL_URL, url, uint32_t, 0)                                                                \
    X(PR_COL_METHOD, method, uint32_t, 1)                                                          \
    X(PR_COL_THREAD, thread, uint32_t, 1)                                                          \
    X(PR_COL_ERROR, error, uint32_t, 0)                                                            \
    X(PR_COL_THREADS, threads, int32_t, 0)                                                         \
    X(PR_COL_STATUS, status, uint16_t, 0)                                                          \
    X(PR_COL_SUCCESS, success, uint8_t, 0)                                                         \
    X(PR_COL_FLAGS, flags, uint8_t, 0)

/* A block's columns as samples: the fields the scans read (attrs stays unknown). */
typedef struct colview {
    const int64_t *p[PR_NCOLS];
    size_t step[PR_NCOLS];
    unsigned vary; /* bit c: column c has values (else one constant) */
} colview;

/* The block's columns, and their constants written once into x (colview_get writes only the
 * columns with values: in most blocks most columns are constant). */
static void colview_init(colview *v, const pr_block_cols *c, pr_sample *x)
{
    v->vary = 0;
    for (int i = 0; i < PR_NCOLS; i++) {
        v->p[i] = c->vals[i] ? c->vals[i] : &c->konst[i];
        v->step[i] = c->vals[i] ? 1 : 0;
        v->vary |= c->vals[i] ? 1u << i : 0;
    }
#define K(c, f, T, breakdown) x->f = (T)v->p[c][0];
    COLVIEW_FIELDS(K)
#undef K
}

/* Sample i's columns with values into x (its constants are there from colview_init). Inlined
 * into each scan's loop whatever its size (a call per sample costs 5 % of a scan); the tests
 * of v->vary go the same way for a whole block. */
static inline __attribute__((always_inline)) void colview_get_mode(const colview *v, size_t i,
                                                                   pr_sample *x, int fast, int bp)
{
    /* the breakdown columns are not read in the fast mode (its breakdown is the label or URL);
     * bp's blocks vary in BP_COLS alone */
#define V(c, f, T, breakdown)                                                                      \
    if (!(fast && (breakdown)) && !(bp && !(BP_COLS >> (c)&1)) && (v->vary >> (c)&1))              \
        x->f = (T)v->p[c][i];
    COLVIEW_FIELDS(V)
#undef V
}

static inline __attribute__((always_inline)) void colview_get(const colview *v, size_t i,
                                                              pr_sample *x)
{
    colview_get_mode(v, i, x, 0, 0);
}

/* pr_sample_outcome of sample i read from the columns (not from the sample just written:
 * its narrow fields read back at once stall the stores' forwarding). */
static inline int colview_outcome(const colview *v, size_t i)
{
#define V(c) v->p[c][i * v->step[c]]
    pr_sample x;
    x.success = (uint8_t)V(PR_COL_SUCCESS);
    x.status = (uint16_t)V(PR_COL_STATUS);
    x.error = (uint32_t)V(PR_COL_ERROR);
#undef V
    return pr_sample_outcome(&x);
}

/* The main scan of a block's samples, fast as fast_mode and bp as bp_mode say (constants: a
 * loop each). */
INLINE int scan_samples(pr_acc *a, const pr_block_cols *c, int fast, int bp)
{
    colview v;
    pr_sample x;
    pr_sample_init(&x);
    colview_init(&v, c, &x);
    for (size_t i = 0; i < c->n; i++) {
        colview_get_mode(&v, i, &x, fast, bp);
        int rc = scan_one(a, &x, colview_outcome(&v, i), fast, bp);
        if (rc)
            return rc;
    }
    return 0;
}

static int scan_block(const pr_block_cols *c, void *payload)
{
    pr_acc *a = payload;
    if (a->priv->bp) {
        unsigned vary = 0;
        for (int i = 0; i < PR_NCOLS; i++)
            vary |= c->vals[i] ? 1u << i : 0;
        if (!(vary & ~BP_COLS))
            return scan_samples(a, c, 0, 1);
    }
    if (!fast_mode(a))
        return scan_samples(a, c, 0, 0);
    /* the flags one constant without the Transaction Controller bit (most blocks) */
    int notx = !c->vals[PR_COL_FLAGS] && !(c->konst[PR_COL_FLAGS] & PR_SF_TRANSACTION);
    return notx ? scan_samples(a, c, FAST_NOTX, 0) : scan_samples(a, c, 1, 0);
}

/* ---- the counting pass (rows decided before the main scan) ------------------------------- */

static int scan_runs(pr_acc *a, pr_store *st, const int64_t *ids, pr_run **runs, size_t nids,
                     unsigned want, int (*cb)(const pr_block_cols *, void *), pr_error *err);

static int count_block(const pr_block_cols *c, void *payload)
{
    pr_acc *a = payload;
    pr_report_acc *p = a->priv;
    colview v;
    pr_sample x;
    pr_sample_init(&x);
    colview_init(&v, c, &x);
    for (size_t i = 0; i < c->n; i++) {
        colview_get(&v, i, &x);
        if (x.start_ns != PR_UNKNOWN && (x.start_ns < a->from || x.start_ns >= a->to))
            continue;
        uint32_t k;
        if (p->fastdim >= 0) { /* counted per run string, named after the pass */
            k = p->fastdim == PR_COL_LABEL ? x.label : x.url;
        } else {
            k = breakdown_key(a, &x);
        }
        if (k >= p->key_count_cap) {
            size_t old = p->key_count_cap;
            p->key_count =
                pr_xgrow(p->key_count, &p->key_count_cap, (size_t)k + 1, sizeof *p->key_count);
            memset(p->key_count + old, 0, (p->key_count_cap - old) * sizeof *p->key_count);
        }
        p->key_count[k]++;
    }
    return 0;
}

typedef struct key_ref {
    uint32_t key;
    int64_t count;
} key_ref;

static int cmp_key_ref(const void *x, const void *y)
{
    const key_ref *a = x, *b = y;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return (a->key > b->key) - (a->key < b->key);
}

static int dim_patternable(const pr_report_opts *o)
{
    int d = o->nby ? o->by[0] : PR_BY_LABEL;
    return o->nby <= 1 && (d == PR_BY_LABEL || d == PR_BY_URL) && o->patterns >= 0;
}

/* Names (interns) the keys of run i's counts per run string, patterned or not, into kc. */
static void name_counts(pr_acc *a, pr_run *run, const int64_t *per, size_t n, int64_t **kc,
                        size_t *kcap)
{
    pr_report_acc *p = a->priv;
    p->run = run;
    if (p->map)
        memset(p->map, 0, p->map_cap * sizeof *p->map);
    for (size_t k = 0; k < n; k++) {
        if (!per[k])
            continue;
        uint32_t key = p->fastdim < 0 ? (uint32_t)k
                       : p->pattern   ? map_pattern(a, (uint32_t)k)
                                      : map_str(a, (uint32_t)k);
        if (key >= *kcap) {
            size_t old = *kcap;
            *kc = pr_xgrow(*kc, kcap, (size_t)key + 1, sizeof **kc);
            memset(*kc + old, 0, (*kcap - old) * sizeof **kc);
        }
        (*kc)[key] += per[k];
    }
}

/* Counts the samples of every breakdown key into kc[names id]: one scan per run counting run
 * strings (a one-column breakdown) or keys, then the strings named, grouped by pattern when
 * there are more than PR_PATTERN_MIN distinct values. */
static int count_keys(pr_acc *a, pr_store *st, const int64_t *ids, pr_run **runs, size_t nids,
                      int64_t **kc_out, size_t *kc_n, pr_error *err)
{
    pr_report_acc *p = a->priv;
    int64_t **per = pr_xcalloc(nids, sizeof *per);
    size_t *pern = pr_xcalloc(nids, sizeof *pern);
    int rc = 0;
    int64_t distinct = 0;
    for (size_t i = 0; i < nids && rc == 0; i++) {
        p->key_count = NULL;
        p->key_count_cap = 0;
        rc = scan_runs(a, st, ids + i, runs + i, 1,
                       PR_COLBIT(PR_COL_START) | PR_COLBIT(PR_COL_LABEL) | PR_COLBIT(PR_COL_URL) |
                           PR_COLBIT(PR_COL_METHOD) | PR_COLBIT(PR_COL_ERROR) |
                           PR_COLBIT(PR_COL_THREAD) | PR_COLBIT(PR_COL_STATUS),
                       count_block, err);
        per[i] = p->key_count;
        pern[i] = p->key_count_cap;
        for (size_t k = 0; k < pern[i]; k++)
            distinct += per[i][k] != 0;
    }
    p->key_count = NULL;
    p->key_count_cap = 0;
    int64_t *kc = NULL;
    size_t kcap = 0;
    if (rc == 0) {
        /* distinct values summed over merged runs: at least the number of distinct keys */
        if (p->fastdim >= 0 && !p->pattern && a->o->patterns == 0 && dim_patternable(a->o) &&
            distinct > PR_PATTERN_MIN)
            p->pattern = a->patterned = 1;
        for (size_t i = 0; i < nids; i++)
            name_counts(a, runs[i], per[i], pern[i], &kc, &kcap);
        a->distinct_keys = 0;
        for (size_t k = 0; k < kcap; k++)
            a->distinct_keys += kc[k] != 0;
        if (p->pattern && p->fastdim >= 0)
            a->distinct_keys = distinct; /* the values before grouping */
    }
    for (size_t i = 0; i < nids; i++)
        free(per[i]);
    free(per);
    free(pern);
    *kc_out = kc;
    *kc_n = kcap;
    return rc;
}

/* Decides the rows: the top keys by count, in the model's order, then "other". */
static int decide_rows(pr_acc *a, pr_store *st, const int64_t *ids, pr_run **runs, size_t nids,
                       pr_error *err)
{
    pr_report_acc *p = a->priv;
    int64_t *kc;
    size_t kn;
    int rc = count_keys(a, st, ids, runs, nids, &kc, &kn, err);
    if (rc < 0)
        return rc;
    size_t n = 0;
    key_ref *refs = pr_xmalloc((kn + 1) * sizeof *refs);
    for (size_t k = 0; k < kn; k++)
        if (kc[k])
            refs[n++] = (key_ref){(uint32_t)k, kc[k]};
    qsort(refs, n, sizeof *refs, cmp_key_ref);
    for (size_t i = 0; i < n && (!p->top || i < p->top); i++)
        row_for_key(a, refs[i].key);
    p->fixed = 1;
    free(refs);
    free(kc);
    return 0;
}

/* ---- the pass over sorted values --------------------------------------------------------- */

/* The order statistics of one class of values (a row, the run, an interval) read as the
 * sorted values go by: the value at each wanted rank, the squared deviations from the mean
 * summed in ascending order (as pr_dist_compute does over a sorted copy). */
typedef struct qclass {
    uint64_t n, seen;
    size_t nr, next;
    uint64_t rank[PR_MAX_PERCENTILES + PR_SPECTRUM_POINTS];
    int64_t *dst[PR_MAX_PERCENTILES + PR_SPECTRUM_POINTS];
    long double mean, ss;
    int64_t min, max;
} qclass;

/* An interval's p50, p90, p99 and max. */
typedef struct qbin {
    uint64_t seen, rank[4];
    int64_t *dst;
    unsigned next;
} qbin;

static void qclass_want(qclass *c, size_t rank, int64_t *dst)
{
    size_t i = c->nr++;
    while (i > 0 && c->rank[i - 1] > rank) { /* kept ascending */
        c->rank[i] = c->rank[i - 1];
        c->dst[i] = c->dst[i - 1];
        i--;
    }
    c->rank[i] = rank;
    c->dst[i] = dst;
}

/* Class c over n values with sum sum wanting the model's percentiles into r->q. */
static void qclass_init(qclass *c, const pr_report_opts *o, uint64_t n, __int128 sum, pr_dres *r)
{
    memset(c, 0, sizeof *c);
    c->n = n;
    memset(r, 0, sizeof *r);
    r->d.count = (int64_t)n;
    r->d.min = r->d.max = PR_UNKNOWN;
    r->d.mean = r->d.stdev = NAN;
    if (!n)
        return;
    long double s = (long double)sum;
    c->mean = s / (long double)n;
    r->d.sum = (int64_t)s;
    r->d.mean = (double)c->mean;
    for (size_t i = 0; i < o->npercentiles; i++)
        qclass_want(c, pr_percentile_rank(n, o->percentiles[i]), &r->q[i]);
}

static inline void qclass_step(qclass *c, int64_t v)
{
    uint64_t s = ++c->seen;
    if (s == 1)
        c->min = v;
    c->max = v;
    while (c->next < c->nr && c->rank[c->next] == s)
        *c->dst[c->next++] = v;
    long double d = v - c->mean;
    c->ss += d * d;
}

static void qclass_done(const qclass *c, pr_dres *r)
{
    if (!c->n)
        return;
    r->d.min = c->min;
    r->d.max = c->max;
    r->d.stdev = (double)sqrtl(c->ss / (long double)c->n);
}

static void qbin_init(qbin *b, uint64_t n, int64_t *dst)
{
    b->seen = 0;
    b->next = 0;
    b->dst = dst;
    if (!n) {
        b->next = 4;
        return;
    }
    b->rank[0] = pr_percentile_rank(n, 50);
    b->rank[1] = pr_percentile_rank(n, 90);
    b->rank[2] = pr_percentile_rank(n, 99);
    b->rank[3] = n;
}

static inline void qbin_step(qbin *b, int64_t v)
{
    uint64_t s = ++b->seen;
    while (b->next < 4 && b->rank[b->next] == s)
        b->dst[b->next++] = v;
}

/* The run's histogram bounds (1-2-5 steps from the power of ten at or below its fastest
 * latency), as many as int64 holds. */
static void hist_bounds(pr_acc *a, int64_t first)
{
    int64_t lo = 1000; /* 1 µs */
    while (lo * 10 <= first && lo < INT64_MAX / 10)
        lo *= 10;
    a->hist_lo = lo;
    static const int mult[] = {1, 2, 5};
    int64_t base = lo;
    a->nhist = 0;
    for (int step = 0; step < PR_HIST_STEPS; step++) {
        int m = step % 3 == 2 ? 10 : mult[(step + 1) % 3];
        if (base > INT64_MAX / m)
            break;
        int64_t hi = base * m / mult[step % 3];
        a->hist_bound[a->nhist++] = hi;
        base = hi;
    }
}

double pr_report_spectrum_pct(int k)
{
    double pct = k == PR_SPECTRUM_POINTS - 1 ? 100 : 100.0 * (1.0 - pow(10.0, -k / 10.0));
    if (k % 10 == 0 && k && k < PR_SPECTRUM_POINTS - 1)
        pct = 100.0 - pow(10.0, 2 - k / 10); /* exact 90, 99, 99.9 … */
    return pct;
}

/* The pass over the sorted latencies, in two halves that share nothing but the values (on
 * two threads): the rows and their first half of intervals; the run, its histogram and
 * intervals and the rows' other intervals. */
typedef struct lat_pass {
    pr_acc *a;
    qclass *rq, *tq;
    qbin *bq, *lq;
    const long *lbix; /* row -> its intervals in lq / nbins, -1: none (NULL: no row has) */
    size_t mid;       /* the rows' intervals from mid on are lat_pass_total's */
} lat_pass;

/* The rows' intervals [lo, hi) of value v in cell c. */
static inline void lat_pass_row_bins(lat_pass *lp, uint32_t c, int64_t v, size_t lo, size_t hi)
{
    pr_report_acc *p = lp->a->priv;
    uint32_t b = c & ((1u << p->bin_bits) - 1);
    long lb = lp->lbix[p->row_of_group[c >> p->bin_bits]];
    if (lb >= 0 && b >= lo && b < hi)
        qbin_step(&lp->lq[(size_t)lb * lp->a->nbins + b], v);
}

/* The two halves take a constant `mode` (lat_pass_mode) so that their loops do not test
 * whether there are rows' intervals. They read the sorted pairs in chunks
 * (pr_cellsort_read). */
#define LP_BINS 1 /* rows have intervals (lp->lbix) */

static int lat_pass_mode(const lat_pass *lp)
{
    return lp->lbix ? LP_BINS : 0;
}

INLINE void lat_pass_rows_mode(lat_pass *lp, int mode)
{
    pr_acc *a = lp->a;
    pr_report_acc *p = a->priv;
    int64_t vb[PR_CELLSORT_CHUNK];
    uint32_t cb[PR_CELLSORT_CHUNK];
    for (size_t at = 0, k; (k = pr_cellsort_read(&p->vals, at, vb, cb, PR_CELLSORT_CHUNK)) > 0;
         at += k)
        for (size_t j = 0; j < k; j++) {
            int64_t v = vb[j];
            uint32_t c = cb[j];
            qclass_step(&lp->rq[p->row_of_group[c >> p->bin_bits]], v);
            if (mode & LP_BINS)
                lat_pass_row_bins(lp, c, v, 0, lp->mid);
        }
}

static void lat_pass_rows(lat_pass *lp)
{
    if (lat_pass_mode(lp) == LP_BINS)
        lat_pass_rows_mode(lp, LP_BINS);
    else
        lat_pass_rows_mode(lp, 0);
}

INLINE void lat_pass_total_mode(lat_pass *lp, int mode)
{
    pr_acc *a = lp->a;
    pr_report_acc *p = a->priv;
    unsigned bits = p->bin_bits;
    uint32_t bmask = (1u << bits) - 1;
    int hb = 0;
    int64_t next = a->nhist ? a->hist_bound[0] : INT64_MAX; /* the histogram bound to pass */
    int64_t vb[PR_CELLSORT_CHUNK];
    uint32_t cb[PR_CELLSORT_CHUNK];
    for (size_t at = 0, k; (k = pr_cellsort_read(&p->vals, at, vb, cb, PR_CELLSORT_CHUNK)) > 0;
         at += k)
        for (size_t j = 0; j < k; j++) {
            int64_t v = vb[j];
            uint32_t c = cb[j];
            if (mode & LP_BINS)
                lat_pass_row_bins(lp, c, v, lp->mid, a->nbins);
            if (p->tx_of_group[c >> bits])
                continue;
            if (v >= next) {
                while (hb < a->nhist && v >= a->hist_bound[hb])
                    a->hist_below[hb++] = (size_t)lp->tq->seen;
                next = hb < a->nhist ? a->hist_bound[hb] : INT64_MAX;
            }
            qclass_step(lp->tq, v);
            if ((c & bmask) < a->nbins)
                qbin_step(&lp->bq[c & bmask], v);
        }
    while (hb < a->nhist)
        a->hist_below[hb++] = (size_t)lp->tq->seen;
}

static void *lat_pass_total(void *arg)
{
    lat_pass *lp = arg;
    if (lat_pass_mode(lp) == LP_BINS)
        lat_pass_total_mode(lp, LP_BINS);
    else
        lat_pass_total_mode(lp, 0);
    return NULL;
}

/* The pass over the sorted latencies: rows, the run (with its spectrum and histogram),
 * intervals and the rows' intervals. */
static void latency_pass(pr_acc *a)
{
    pr_report_acc *p = a->priv;
    const pr_report_opts *o = a->o;
    qclass *rq = pr_xcalloc(a->nrows + 1, sizeof *rq), tq;
    for (size_t r = 0; r < a->nrows; r++)
        qclass_init(&rq[r], o, p->sums[r].n[PR_D_LATENCY], p->sums[r].sum[PR_D_LATENCY],
                    &a->rows[r].d[PR_D_LATENCY]);
    uint64_t tn = p->total_sum.n[PR_D_LATENCY];
    qclass_init(&tq, o, tn, p->total_sum.sum[PR_D_LATENCY], &a->total_d[PR_D_LATENCY]);
    if (tn && o->histogram) {
        for (int k = 0; k < PR_SPECTRUM_POINTS; k++)
            qclass_want(&tq, pr_percentile_rank(tn, pr_report_spectrum_pct(k)), &a->spectrum[k]);
        hist_bounds(a, p->total_lat_min);
    }
    qbin *bq = pr_xcalloc(a->nbins + 1, sizeof *bq);
    for (size_t b = 0; b < a->nbins; b++)
        qbin_init(&bq[b], (uint64_t)a->bins[b].lat_n, a->bins[b].lat_q);
    /* the rows with a time series of their own */
    long *lbix = pr_xmalloc((a->nrows + 1) * sizeof *lbix);
    size_t nlb = 0;
    for (size_t r = 0; r < a->nrows; r++) {
        int64_t n;
        lbix[r] = pr_label_extras_bin_q(&a->lx, (uint32_t)r, 0, &n) ? (long)nlb++ : -1;
    }
    qbin *lq = pr_xcalloc(nlb * a->nbins + 1, sizeof *lq);
    for (size_t r = 0; r < a->nrows; r++)
        for (size_t b = 0; lbix[r] >= 0 && b < a->nbins; b++) {
            int64_t n;
            int64_t *q = pr_label_extras_bin_q(&a->lx, (uint32_t)r, b, &n);
            qbin_init(&lq[(size_t)lbix[r] * a->nbins + b], (uint64_t)n, q);
        }
    lat_pass lp = {a, rq, &tq, bq, lq, nlb ? lbix : NULL, a->nbins / 2};
    pthread_t th;
    int par = p->vals.n >= PR_CELLSORT_BUCKETED && pr_threads() >= 2 &&
              pthread_create(&th, NULL, lat_pass_total, &lp) == 0;
    if (!par)
        lat_pass_total(&lp);
    lat_pass_rows(&lp);
    if (par)
        pthread_join(th, NULL);
    for (size_t r = 0; r < a->nrows; r++)
        qclass_done(&rq[r], &a->rows[r].d[PR_D_LATENCY]);
    qclass_done(&tq, &a->total_d[PR_D_LATENCY]);
    free(rq);
    free(bq);
    free(lq);
    free(lbix);
}

/* The pass over another duration's sorted values: rows and the run. */
static void duration_pass(pr_acc *a, int d)
{
    pr_report_acc *p = a->priv;
    qclass *rq = pr_xcalloc(a->nrows + 1, sizeof *rq), tq;
    for (size_t r = 0; r < a->nrows; r++)
        qclass_init(&rq[r], a->o, p->sums[r].n[d], p->sums[r].sum[d], &a->rows[r].d[d]);
    qclass_init(&tq, a->o, p->total_sum.n[d], p->total_sum.sum[d], &a->total_d[d]);
    int64_t vb[PR_CELLSORT_CHUNK];
    uint32_t cb[PR_CELLSORT_CHUNK];
    for (size_t at = 0, k; (k = pr_cellsort_read(&p->vals, at, vb, cb, PR_CELLSORT_CHUNK)) > 0;
         at += k)
        for (size_t j = 0; j < k; j++) {
            qclass_step(&rq[p->row_of_group[cb[j]]], vb[j]);
            if (!p->tx_of_group[cb[j]])
                qclass_step(&tq, vb[j]);
        }
    for (size_t r = 0; r < a->nrows; r++)
        qclass_done(&rq[r], &a->rows[r].d[d]);
    qclass_done(&tq, &a->total_d[d]);
    free(rq);
}

/* A later pass for duration d: the values of every sample in the window, cell = group. */
static int collect_block(const pr_block_cols *c, void *payload)
{
    pr_acc *a = payload;
    pr_report_acc *p = a->priv;
    colview v;
    pr_sample x;
    pr_sample_init(&x);
    colview_init(&v, c, &x);
    for (size_t i = 0; i < c->n; i++) {
        colview_get(&v, i, &x);
        if (x.start_ns != PR_UNKNOWN && (x.start_ns < a->from || x.start_ns >= a->to))
            continue;
        int64_t val = dur_value(p->dur, &x);
        if (val == PR_UNKNOWN)
            continue;
        uint32_t r = row_of(a, &x);
        pr_cellsort_add(&p->vals, val, group_of(a, r, (x.flags & PR_SF_TRANSACTION) != 0));
    }
    return 0;
}

/* ---- bounded mode ------------------------------------------------------------------------ */

static void dres_from_vals(pr_vals *v, const pr_report_opts *o, pr_dres *r)
{
    memset(r, 0, sizeof *r);
    pr_vals_dist(v, &r->d);
    if (!pr_vals_count(v))
        return;
    for (size_t i = 0; i < o->npercentiles; i++)
        r->q[i] = pr_vals_percentile(v, o->percentiles[i]);
}

static void series_results(pr_series *s, const pr_report_opts *o, pr_dres *r)
{
    dres_from_vals(&s->latency, o, &r[PR_D_LATENCY]);
    dres_from_vals(&s->connect, o, &r[PR_D_CONNECT]);
    dres_from_vals(&s->ttfb, o, &r[PR_D_TTFB]);
    dres_from_vals(&s->receive, o, &r[PR_D_RECEIVE]);
    dres_from_vals(&s->lateness, o, &r[PR_D_LATENESS]);
}

static void bounded_results(pr_acc *a)
{
    if (!a->o->rows && a->nrows) /* the one row: every sample of the window */
        a->rows[0].s.count = a->total.count + a->tx_samples;
    for (size_t r = 0; r < a->nrows; r++)
        series_results(&a->rows[r].s, a->o, a->rows[r].d);
    series_results(&a->total, a->o, a->total_d);
    pr_vals *lat = &a->total.latency;
    if (pr_vals_count(lat) && a->o->histogram) {
        for (int k = 0; k < PR_SPECTRUM_POINTS; k++)
            a->spectrum[k] = pr_vals_percentile(lat, pr_report_spectrum_pct(k));
        hist_bounds(a, pr_vals_percentile(lat, 0));
        for (int k = 0; k < a->nhist; k++)
            a->hist_below[k] = pr_vals_count_below(lat, a->hist_bound[k]);
    }
    for (size_t b = 0; b < a->nbins; b++) {
        pr_bin *x = &a->bins[b];
        if (!pr_vals_count(&x->lat))
            continue;
        x->lat_q[0] = pr_vals_percentile(&x->lat, 50);
        x->lat_q[1] = pr_vals_percentile(&x->lat, 90);
        x->lat_q[2] = pr_vals_percentile(&x->lat, 99);
        x->lat_q[3] = pr_vals_percentile(&x->lat, 100);
    }
}

/* ---- driver ------------------------------------------------------------------------------ */

/* Before a run's scan: the tag dimensions' values, fresh string maps. */
static void run_begin(pr_acc *a, pr_run *run)
{
    pr_report_acc *p = a->priv;
    p->run = run;
    for (size_t d = 0; d < a->o->nby; d++) {
        const char *v = a->o->by[d] == PR_BY_TAG ? pr_run_tag_get(run, a->o->by_tag[d]) : NULL;
        p->tag_ids[d] = v ? pr_strtab_intern_cstr(a->names, v) : 0;
    }
    if (p->map)
        memset(p->map, 0, p->map_cap * sizeof *p->map);
    if (p->rowmap)
        memset(p->rowmap, 0xff, p->rowmap_cap * sizeof *p->rowmap);
}

/* Exact mode, after the main scan: the run's total counters and durations' counts and sums
 * summed from the rows' (each sample is in one row; the sums, minima and maxima are those of
 * counting each sample), then each row's Transaction Controller samples, which the total
 * leaves out, added to its own. */
static void rows_total(pr_acc *a)
{
    pr_report_acc *p = a->priv;
    for (size_t r = 0; r < a->nrows; r++) {
        pr_series_merge(&a->total, &a->rows[r].s);
        pr_series_merge(&a->rows[r].s, &p->txs[r]);
        pr_series_init_mode(&p->txs[r], 0);
        for (int d = 0; d < PR_NDUR; d++) {
            p->total_sum.sum[d] += p->sums[r].sum[d];
            p->total_sum.n[d] += p->sums[r].n[d];
            p->sums[r].sum[d] += p->txsums[r].sum[d];
            p->sums[r].n[d] += p->txsums[r].n[d];
            p->known[d] += (int64_t)p->sums[r].n[d];
        }
        memset(&p->txsums[r], 0, sizeof p->txsums[r]);
    }
}

/* Scans every run with cb; per run: the tag dimensions' values, fresh string maps. */
static int scan_runs(pr_acc *a, pr_store *st, const int64_t *ids, pr_run **runs, size_t nids,
                     unsigned want, int (*cb)(const pr_block_cols *, void *), pr_error *err)
{
    int rc = 0;
    for (size_t i = 0; i < nids && rc == 0; i++) {
        run_begin(a, runs[i]);
        rc = pr_store_scan_cols(st, ids[i], want, cb, a, err);
    }
    return rc;
}

/* Everything the main scan fills, cleared for a new start. */
static void clear_main(pr_acc *a)
{
    pr_report_acc *p = a->priv;
    for (size_t r = 0; r < a->nrows; r++) {
        pr_series_dispose(&a->rows[r].s);
        pr_series_init_mode(&p->txs[r], 0);
    }
    if (p->stage_n) /* the staged values of the rows dropped */
        memset(p->stage_n, 0, p->rows_cap);
    a->nrows = 0;
    memset(p->group_of_row, 0, p->rows_cap * 2 * sizeof *p->group_of_row);
    p->ngroups = 0;
    memset(p->sums, 0, p->rows_cap * sizeof *p->sums);
    if (p->txsums)
        memset(p->txsums, 0, p->rows_cap * sizeof *p->txsums);
    memset(&p->total_sum, 0, sizeof p->total_sum);
    memset(p->known, 0, sizeof p->known);
    p->total_lat_min = INT64_MAX;
    p->other_row = NOROW;
    p->raw_distinct = 0;
    if (p->row_of_key)
        memset(p->row_of_key, 0, p->row_of_key_cap * sizeof *p->row_of_key);
    pr_series_dispose(&a->total);
    pr_series_init_mode(&a->total, a->bounded);
    if (a->errors)
        memset(a->errors, 0, a->errors_cap * sizeof *a->errors);
    memset(a->status, 0, sizeof a->status);
    a->apdex_s = a->apdex_t = a->apdex_su = a->apdex_tu = a->tx_samples = 0;
    for (size_t b = 0; b < a->nbins; b++) {
        pr_vals_dispose(&a->bins[b].lat);
        memset(&a->bins[b], 0, sizeof a->bins[b]);
        pr_vals_init(&a->bins[b].lat, a->bounded);
    }
    a->ncodes = 0;
    memset(p->slot_of_code, 0, sizeof p->slot_of_code);
    a->has_threads = 0;
    size_t nb = a->lx.nbins;
    pr_label_extras_dispose(&a->lx);
    pr_label_extras_init(&a->lx, nb, a->bounded, a->o->apdex_t_ns, a->o->apdex_f_ns);
    if (p->vals.v || p->vals.lo) { /* made again: a bucketed set cannot be emptied in place */
        pr_cellsort_dispose(&p->vals);
        pr_cellsort_init(&p->vals, p->nsamples);
    }
}

/* The exact mode's later passes: each other duration the rows have, collected, sorted and
 * read in turn in the same arrays (so the peak stays one duration's). */
static int other_durations(pr_acc *a, pr_store *st, const int64_t *ids, pr_run **runs, size_t nids,
                           pr_error *err)
{
    pr_report_acc *p = a->priv;
    static const unsigned need[PR_NDUR] = {[PR_D_CONNECT] = PR_COLBIT(PR_COL_CONNECT),
                                           [PR_D_TTFB] = PR_COLBIT(PR_COL_TTFB),
                                           [PR_D_RECEIVE] =
                                               PR_COLBIT(PR_COL_TTFB) | PR_COLBIT(PR_COL_LATENCY),
                                           [PR_D_LATENESS] = PR_COLBIT(PR_COL_LATENESS)};
    unsigned keys = PR_COLBIT(PR_COL_START) | PR_COLBIT(PR_COL_FLAGS) | PR_COLBIT(PR_COL_LABEL) |
                    PR_COLBIT(PR_COL_URL) | PR_COLBIT(PR_COL_METHOD) | PR_COLBIT(PR_COL_ERROR) |
                    PR_COLBIT(PR_COL_THREAD) | PR_COLBIT(PR_COL_STATUS);
    int rc = 0;
    for (int d = PR_D_CONNECT; d < PR_NDUR && rc == 0; d++) {
        if (!p->known[d]) {
            for (size_t r = 0; r < a->nrows; r++)
                qclass_init(&(qclass){0}, a->o, 0, 0, &a->rows[r].d[d]);
            qclass_init(&(qclass){0}, a->o, 0, 0, &a->total_d[d]);
            continue;
        }
        pr_cellsort_dispose(&p->vals);
        pr_cellsort_init(&p->vals, (size_t)p->known[d]);
        p->dur = d;
        rc = scan_runs(a, st, ids, runs, nids, keys | need[d], collect_block, err);
        if (rc == 0) {
            pr_cellsort_sort(&p->vals);
            duration_pass(a, d);
        }
    }
    return rc;
}

/* Hands the sorted latencies to the caller, each cell turned into its row. */
static void keep_latencies(pr_acc *a, pr_report_latencies *k)
{
    pr_report_acc *p = a->priv;
    pr_cellsort *cs = &p->vals;
    unsigned bits = p->bin_bits;
    pr_cellsort_flatten(cs); /* the caller reads the latencies by index */
    for (size_t i = 0; i < cs->n; i++) {
        uint32_t row = p->row_of_group[pr_cellsort_cell(cs, i) >> bits];
        if (cs->c32)
            cs->c32[i] = row;
        else
            cs->c16[i] = (uint16_t)row;
    }
    k->v = cs->v;
    k->r16 = cs->c16;
    k->r32 = cs->c32;
    k->n = cs->n;
    memset(cs, 0, sizeof *cs);
    k->nrows = a->nrows;
    k->row_names = pr_xcalloc(a->nrows + 1, sizeof *k->row_names);
    char other[64];
    for (size_t r = 0; r < a->nrows; r++) {
        const pr_row *row = &a->rows[r];
        const char *name = row->key ? pr_strtab_get(a->names, row->key) : NULL;
        if (row->other)
            snprintf(other, sizeof other, "other (%lld label%s)", (long long)row->keys,
                     row->keys == 1 ? "" : "s");
        k->row_names[r] = pr_xstrdup(row->other ? other : name && *name ? name : "(no label)");
    }
    k->kept = 1;
}

void pr_report_latencies_dispose(pr_report_latencies *l)
{
    free(l->v);
    free(l->r16);
    free(l->r32);
    for (size_t r = 0; r < l->nrows; r++)
        free(l->row_names[r]);
    free(l->row_names);
    memset(l, 0, sizeof *l);
}

/* The accumulator's working state; fillers: 0 for a part (its values go in the first
 * accumulator's arrays, pr_cellsort_part_open), else how many threads may fill them. */
static void acc_setup(pr_acc *a, pr_run **runs, size_t nids, int fillers)
{
    pr_report_acc *p = a->priv = pr_xcalloc(1, sizeof *a->priv);
    const pr_report_opts *o = a->o;
    a->names = pr_strtab_new();
    p->other_row = NOROW;
    p->top = o->top > 0 ? (size_t)o->top : 0;
    int d0 = o->nby ? o->by[0] : PR_BY_LABEL;
    p->pattern = o->nby == 1 && (d0 == PR_BY_LABEL_PATTERN || d0 == PR_BY_URL_PATTERN ||
                                 (o->patterns > 0 && dim_patternable(o)));
    a->patterned = p->pattern;
    p->fastdim = o->nby <= 1 && (d0 == PR_BY_LABEL || d0 == PR_BY_LABEL_PATTERN) ? PR_COL_LABEL
                 : o->nby == 1 && (d0 == PR_BY_URL || d0 == PR_BY_URL_PATTERN)   ? PR_COL_URL
                                                                                 : -1;
    p->total_lat_min = INT64_MAX;
    p->inv_interval = a->interval > 0 ? 1.0 / (double)a->interval : 0;
    while ((1u << p->bin_bits) < a->nbins + 1)
        p->bin_bits++;
    pr_series_init_mode(&a->total, a->bounded);
    pr_label_extras_init(&a->lx, o->label_timeseries ? a->nbins : 0, a->bounded, o->apdex_t_ns,
                         o->apdex_f_ns);
    int64_t n = 0;
    for (size_t i = 0; i < nids; i++)
        n += runs[i]->samples;
    p->nsamples = (size_t)n;
    if (!a->bounded && o->durations && fillers)
        pr_cellsort_init_fillers(&p->vals, (size_t)n, fillers);
    p->dur = PR_D_LATENCY;
    p->bp = bp_mode(a);
    p->staged = a->bounded && pr_acc_fast_mode;
}

/* ---- the main scan on two threads -------------------------------------------------------
 * The run's blocks are cut in two (pr_store_scan_cols_par): this accumulator takes the first
 * part, a second one (a "part") the rest on another thread, its values in the same arrays.
 * The part is then added in as if its samples had come after the first part's: its strings
 * interned in the order it met them, its rows and groups made in that order, its intervals'
 * status codes given slots in that order, its cells renumbered. What cannot be replayed so
 * (a part that lost values, tracked too many status codes or label errors) is ABORT. */

static void part_setup(pr_acc *w, const pr_acc *a, pr_run *run)
{
    memset(w, 0, sizeof *w);
    w->o = a->o;
    w->res = a->res;
    w->t0 = a->t0;
    w->from = a->from;
    w->to = a->to;
    w->interval = a->interval;
    w->nbins = a->nbins;
    w->bounded = a->bounded;
    w->bins = pr_xcalloc(a->nbins + 1, sizeof *w->bins);
    for (size_t b = 0; b < a->nbins; b++)
        pr_vals_init(&w->bins[b].lat, a->bounded);
    acc_setup(w, &run, 1, 0);
    w->lx.ts_max = PART_TS_MAX;
    run_begin(w, run);
}

/* A part that counted a status code in an interval's "other" slot: its slots cannot be
 * renumbered exactly. */
static int codes_spilled(const pr_acc *w)
{
    for (size_t b = 0; b < w->nbins; b++)
        if (w->bins[b].codes[PR_BIN_CODES])
            return 1;
    return 0;
}

/* The part's rows (rm: its row -> ours) and their counters, sums and run string rows. */
static void merge_rows(pr_acc *a, const pr_acc *w, const uint32_t *rm)
{
    pr_report_acc *p = a->priv, *q = w->priv;
    for (size_t r = 0; r < w->nrows; r++) {
        pr_row *dst = &a->rows[rm[r]];
        pr_series_merge(&dst->s, &w->rows[r].s);
        if (!a->bounded)
            pr_series_merge(&p->txs[rm[r]], &q->txs[r]);
        dst->tx |= w->rows[r].tx;
        for (int d = 0; d < PR_NDUR; d++) {
            p->sums[rm[r]].sum[d] += q->sums[r].sum[d];
            p->sums[rm[r]].n[d] += q->sums[r].n[d];
            p->txsums[rm[r]].sum[d] += q->txsums[r].sum[d];
            p->txsums[rm[r]].n[d] += q->txsums[r].n[d];
        }
    }
    for (size_t id = 0; id < q->rowmap_cap; id++) { /* run strings first seen by the part */
        if (q->rowmap[id] == NOROW || (id < p->rowmap_cap && p->rowmap[id] != NOROW))
            continue;
        if (id >= p->rowmap_cap) {
            size_t old = p->rowmap_cap;
            p->rowmap = pr_xgrow(p->rowmap, &p->rowmap_cap, id + 1, sizeof *p->rowmap);
            memset(p->rowmap + old, 0xff, (p->rowmap_cap - old) * sizeof *p->rowmap);
        }
        p->rowmap[id] = rm[q->rowmap[id]];
        p->raw_distinct++;
    }
}

/* The part's totals, errors (nm: its names id -> ours), status codes and Apdex. */
static void merge_totals(pr_acc *a, const pr_acc *w, const uint32_t *nm)
{
    pr_report_acc *p = a->priv, *q = w->priv;
    pr_series_merge(&a->total, &w->total); /* bounded mode (exact: rows_total) */
    if (q->total_lat_min < p->total_lat_min)
        p->total_lat_min = q->total_lat_min;
    for (size_t e = 0; e < w->errors_cap; e++) {
        if (!w->errors[e])
            continue;
        uint32_t k = nm[e];
        if (k >= a->errors_cap) {
            size_t old = a->errors_cap;
            a->errors = pr_xgrow(a->errors, &a->errors_cap, (size_t)k + 1, sizeof *a->errors);
            memset(a->errors + old, 0, (a->errors_cap - old) * sizeof *a->errors);
        }
        a->errors[k] += w->errors[e];
    }
    for (size_t c = 0; c < 1000; c++)
        a->status[c] += w->status[c];
    a->apdex_s += w->apdex_s;
    a->apdex_t += w->apdex_t;
    a->apdex_su += w->apdex_su;
    a->apdex_tu += w->apdex_tu;
    a->tx_samples += w->tx_samples;
    a->has_threads |= w->has_threads;
}

/* The part's intervals, its status code slots given ours in the order it met them. */
static void merge_bins(pr_acc *a, const pr_acc *w)
{
    int sm[PR_BIN_CODES + 1];
    for (int c = 0; c < w->ncodes; c++)
        sm[c] = code_slot(a, w->codes[c]);
    for (size_t k = 0; k < a->nbins; k++) {
        pr_bin *d = &a->bins[k];
        const pr_bin *b = &w->bins[k];
        d->count += b->count;
        d->sent_fail += b->sent_fail;
        d->sent_unknown += b->sent_unknown;
        d->done += b->done;
        d->ok += b->ok;
        d->fail += b->fail;
        d->unknown += b->unknown;
        d->bytes_in += b->bytes_in;
        d->connect_sum += b->connect_sum;
        d->connect_n += b->connect_n;
        d->ttfb_sum += b->ttfb_sum;
        d->ttfb_n += b->ttfb_n;
        d->lat_n += b->lat_n;
        if (b->threads > d->threads)
            d->threads = b->threads;
        if (a->bounded) /* histograms add exactly */
            pr_vals_merge(&d->lat, &b->lat);
        for (int c = 0; c < w->ncodes; c++)
            d->codes[sm[c]] += b->codes[c];
    }
}

static atomic_ulong parts_merged;

unsigned long pr_acc_parts_merged(void)
{
    return atomic_load(&parts_merged);
}

/* Adds the part w into a; RESTART when its keys pass the top rows. */
static int merge_part(pr_acc *a, pr_acc *w)
{
    pr_report_acc *p = a->priv, *q = w->priv;
    /* each histogram as if its values came one by one: ours first, then the part's */
    stage_flush_all(a);
    stage_flush_all(w);
    uint32_t nn = pr_strtab_count(w->names);
    uint32_t *nm = pr_xcalloc((size_t)nn + 1, sizeof *nm);
    for (uint32_t id = 1; id < nn; id++) /* interned in the order the part met them */
        nm[id] =
            pr_strtab_intern(a->names, pr_strtab_get(w->names, id), pr_strtab_len(w->names, id));
    uint32_t *rm = pr_xmalloc((w->nrows + 1) * sizeof *rm);
    uint32_t *gm = pr_xmalloc((q->ngroups + 1) * sizeof *gm);
    int rc = 0;
    for (size_t r = 0; r < w->nrows && rc == 0; r++) {
        rm[r] =
            !a->o->rows ? (a->nrows ? 0 : new_row(a, 0, 0)) : row_for_key(a, nm[w->rows[r].key]);
        rc = rm[r] == NOROW ? RESTART : 0;
    }
    if (rc == 0) {
        for (size_t g = 0; g < q->ngroups; g++)
            gm[g] = group_of(a, rm[q->row_of_group[g]], q->tx_of_group[g]);
        merge_rows(a, w, rm);
        merge_totals(a, w, nm);
        merge_bins(a, w);
        pr_label_extras_merge(&a->lx, &w->lx, rm, nm);
        if (!a->bounded)
            pr_cellsort_part_join(&p->vals, &q->vals, gm, p->bin_bits);
        atomic_fetch_add(&parts_merged, 1);
    }
    free(nm);
    free(rm);
    free(gm);
    return rc;
}

/* The main scan of one run on two threads (0, RESTART, ABORT or a negative code). */
static int scan_par(pr_acc *a, pr_store *st, int64_t id, pr_run *run, pr_error *err)
{
    pr_report_acc *p = a->priv;
    run_begin(a, run);
    pr_acc w;
    part_setup(&w, a, run);
    int rc;
    if (pr_cellsort_part_open(&p->vals, &w.priv->vals) < 0) {
        rc = pr_store_scan_cols(st, id, main_cols(a->o), scan_block, a, err);
    } else {
        void *pl[2] = {a, &w};
        int rcs[2] = {0, 0};
        int used = pr_store_scan_cols_par(st, id, main_cols(a->o), scan_block, pl, 2, rcs, err);
        rc = used < 0           ? used
             : rcs[0] < 0       ? rcs[0]
             : used < 2         ? rcs[0]
             : rcs[1] < 0       ? rcs[1]
             : rcs[0] || rcs[1] ? RESTART
                                : 0;
        if (rc == 0 &&
            (pr_cellsort_part_lost(&p->vals, &w.priv->vals) || w.lx.refused || codes_spilled(&w)))
            rc = ABORT;
        if (rc == 0 && used == 2)
            rc = merge_part(a, &w);
        if (w.priv->vals.bk) /* not joined: the part's values dropped */
            pr_cellsort_part_join(&p->vals, &w.priv->vals, NULL, 0);
        if (rc == 0 && pr_cellsort_part_lost(&p->vals, &w.priv->vals))
            rc = ABORT;
    }
    pr_acc_dispose(&w);
    return rc;
}

/* A part whose histograms summed the squares of values from 2^42 ns in a long double
 * (model/hist.h): added to ours they could round otherwise than summed in one order. */
static int squares_inexact(const pr_acc *w)
{
    const pr_series *s = &w->total;
    if (s->latency.h.sumsq_big != 0 || s->connect.h.sumsq_big != 0 || s->ttfb.h.sumsq_big != 0 ||
        s->receive.h.sumsq_big != 0 || s->lateness.h.sumsq_big != 0)
        return 1;
    for (size_t r = 0; r < w->nrows; r++) {
        s = &w->rows[r].s;
        if (s->latency.h.sumsq_big != 0 || s->connect.h.sumsq_big != 0 ||
            s->ttfb.h.sumsq_big != 0 || s->receive.h.sumsq_big != 0 || s->lateness.h.sumsq_big != 0)
            return 1;
    }
    return 0;
}

/* Bounded mode: the main scan of one run on two threads (0, RESTART, ABORT or a negative
 * code). Histograms and counters add exactly, so the merged part gives one thread's model. */
static int scan_par_bounded(pr_acc *a, pr_store *st, int64_t id, pr_run *run, unsigned want,
                            pr_error *err)
{
    run_begin(a, run);
    pr_acc w;
    part_setup(&w, a, run);
    void *pl[2] = {a, &w};
    int rcs[2] = {0, 0};
    int used = pr_store_scan_cols_par(st, id, want, scan_block, pl, 2, rcs, err);
    stage_flush_all(a); /* the part's squares are read next */
    stage_flush_all(&w);
    int rc = used < 0           ? used
             : rcs[0] < 0       ? rcs[0]
             : used < 2         ? rcs[0]
             : rcs[1] < 0       ? rcs[1]
             : rcs[0] || rcs[1] ? RESTART
                                : 0;
    if (rc == 0 && used == 2 && (w.lx.refused || codes_spilled(&w) || squares_inexact(&w)))
        rc = ABORT;
    if (rc == 0 && used == 2)
        rc = merge_part(a, &w);
    pr_acc_dispose(&w);
    return rc;
}

/* Bounded mode's main scan: run by run, each large one on two threads. */
static int scan_bounded(pr_acc *a, pr_store *st, const int64_t *ids, pr_run **runs, size_t nids,
                        unsigned want, pr_error *err)
{
    int par = pr_threads() >= 2;
    int rc = 0;
    for (size_t i = 0; i < nids && rc == 0; i++)
        rc = par && runs[i]->samples >= PR_ACC_PAR_MIN
                 ? scan_par_bounded(a, st, ids[i], runs[i], want, err)
                 : scan_runs(a, st, ids + i, runs + i, 1, want, scan_block, err);
    return rc;
}

int pr_acc_scan(pr_acc *a, pr_store *st, const int64_t *ids, pr_run **runs, size_t nids,
                pr_error *err)
{
    /* one run of an exact analysis with a bucketed value set: the main scan on two threads */
    int par = nids == 1 && !a->bounded && a->o->durations && pr_threads() >= 2 &&
              runs[0]->samples >= (int64_t)PR_CELLSORT_BUCKETED;
    unsigned want = main_cols(a->o);
    acc_setup(a, runs, nids, par ? 2 : 1);
    pr_report_acc *p = a->priv;
    int rc = par          ? scan_par(a, st, ids[0], runs[0], err)
             : a->bounded ? scan_bounded(a, st, ids, runs, nids, want, err)
                          : scan_runs(a, st, ids, runs, nids, want, scan_block, err);
    if (rc == ABORT) { /* the parts would not merge exactly: on one thread */
        clear_main(a);
        rc = scan_runs(a, st, ids, runs, nids, want, scan_block, err);
    }
    if (rc == RESTART) { /* more keys than rows: count them, decide the rows, scan again */
        clear_main(a);
        rc = decide_rows(a, st, ids, runs, nids, err);
        if (rc == 0)
            rc = scan_runs(a, st, ids, runs, nids, want, scan_block, err);
    }
    if (rc < 0)
        return rc;
    if (!p->fixed) /* rows as they came: one per key */
        a->distinct_keys = p->fastdim >= 0 ? p->raw_distinct : (int64_t)a->nrows;
    if (!a->bounded)
        rows_total(a);
    if (a->bounded) {
        stage_flush_all(a);
        bounded_results(a);
        return 0;
    }
    pr_cellsort_sort(&p->vals);
    latency_pass(a);
    if (a->o->keep)
        keep_latencies(a, a->o->keep);
    rc = other_durations(a, st, ids, runs, nids, err);
    pr_cellsort_dispose(&p->vals);
    return rc;
}

void pr_acc_dispose(pr_acc *a)
{
    pr_report_acc *p = a->priv;
    pr_series_dispose(&a->total);
    for (size_t r = 0; r < a->nrows; r++)
        pr_series_dispose(&a->rows[r].s);
    free(a->rows);
    free(a->errors);
    for (size_t i = 0; i < a->nbins; i++)
        pr_vals_dispose(&a->bins[i].lat);
    free(a->bins);
    pr_label_extras_dispose(&a->lx);
    pr_strtab_free(a->names);
    if (p) {
        pr_cellsort_dispose(&p->vals);
        free(p->map);
        free(p->rowmap);
        free(p->row_of_key);
        free(p->group_of_row);
        free(p->row_of_group);
        free(p->tx_of_group);
        free(p->sums);
        free(p->txs);
        free(p->txsums);
        free(p->stage);
        free(p->stage_n);
        free(p->key_count);
        free(p);
    }
    memset(a, 0, sizeof *a);
}
