/* JMeter CSV result files (JTL): streaming through libcsv, columns mapped by name, every
 * delimiter, quoting and timestamp format JMeter writes, sub-result and Transaction
 * Controller rows, damaged and appended files. */
#include <csv.h>
#include <stdarg.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include "model/datefmt.h"
#include "model/lex.h"
#include "model/text.h"
#include "model/xalloc.h"
#include "parsers/jmeter_common.h"
#include "parsers/parser.h"
#include "parsers/sniff.h"

#define MAX_FIELDS 256     /* columns per record beyond this are an error */
#define REC_MAX (4u << 20) /* bytes in one record (all fields), 4 MiB */
#define CHUNK (1u << 16)
#define BUF_SIZE (1u << 18)
#define GAP_NEW_RUN_MS (3600LL * 1000) /* a forward jump this long means an appended run */
/* ...and so does a shorter one, from GAP_MIN_MS on, that is GAP_SPACINGS times the run's own
 * mean spacing (its span over its samples, once it has GAP_MIN_SAMPLES): JMeter -l appends
 * each session to the same file, minutes to months apart */
#define GAP_MIN_MS (600LL * 1000)
#define GAP_SPACINGS 1000
#define GAP_MIN_SAMPLES 100

/* Column kinds, in JMeter's fixed output order (CSVSaveService). */
enum col {
    C_TS,
    C_ELAPSED,
    C_LABEL,
    C_CODE,
    C_MSG,
    C_THREAD,
    C_DTYPE,
    C_SUCCESS,
    C_FAILMSG,
    C_BYTES,
    C_SENT,
    C_GRP,
    C_ALL,
    C_URL,
    C_FILENAME,
    C_LATENCY,
    C_ENCODING,
    C_SCOUNT,
    C_ECOUNT,
    C_HOST,
    C_IDLE,
    C_CONNECT,
    NKNOWN,
    C_VAR = NKNOWN
};

static const char *const col_names[NKNOWN] = {
    "timeStamp",  "elapsed",  "label",          "responseCode", "responseMessage", "threadName",
    "dataType",   "success",  "failureMessage", "bytes",        "sentBytes",       "grpThreads",
    "allThreads", "URL",      "Filename",       "Latency",      "Encoding",        "SampleCount",
    "ErrorCount", "Hostname", "IdleTime",       "Connect"};

/* Header-less default column sets per JMeter version (jmeter.md §1.1). */
static const struct {
    int n;
    const char *version;
    const char *cols;
} default_sets[] = {
    {17, "5.0-5.6",
     "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,"
     "success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,"
     "IdleTime,Connect"},
    {16, "3.1-4.0",
     "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,"
     "success,failureMessage,bytes,sentBytes,grpThreads,allThreads,Latency,"
     "IdleTime,Connect"},
    {14, "3.0",
     "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,"
     "success,failureMessage,bytes,grpThreads,allThreads,Latency,IdleTime"},
    {13, "2.x with failureMessage",
     "timeStamp,elapsed,label,responseCode,responseMessage,"
     "threadName,dataType,success,failureMessage,bytes,grpThreads,"
     "allThreads,Latency"},
    {12, "2.x-2.13",
     "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,"
     "success,bytes,grpThreads,allThreads,Latency"},
    {10, "2.x (no thread counts)",
     "timeStamp,elapsed,label,responseCode,responseMessage,"
     "threadName,dataType,success,bytes,Latency"},
};

/* Timestamp formats JMeter tries when reading (CSVSaveService.DATE_FORMAT_STRINGS), then
 * ISO-8601 and time-of-day forms seen in the wild. */
static const char *const date_patterns[] = {"yyyy/MM/dd HH:mm:ss.SSS",
                                            "yyyy/MM/dd HH:mm:ss",
                                            "yyyy-MM-dd HH:mm:ss.SSS",
                                            "yyyy-MM-dd HH:mm:ss",
                                            "MM/dd/yy HH:mm:ss",
                                            "yyyy-MM-dd'T'HH:mm:ss.SSSZ",
                                            "yyyy-MM-dd'T'HH:mm:ssZ",
                                            "yyyy-MM-dd'T'HH:mm:ss.SSS",
                                            "yyyy-MM-dd'T'HH:mm:ss",
                                            "yyyy/MM/dd HH:mm:ss,SSS",
                                            "yyyy-MM-dd HH:mm:ss,SSS",
                                            "HH:mm:ss.SSS",
                                            "HH:mm:ss",
                                            NULL};

static const char delim_candidates[] = ",;\t|^~:#!";

enum ts_mode { TS_UNSET, TS_MS, TS_FMT, TS_NONE };

typedef struct jcsv {
    pr_input *in;
    pr_sink *sink;
    const pr_parse_opts *opts;
    pr_error *err;
    const char *name;
    struct csv_parser p;
    char delim;
    /* columns */
    int ncols;
    unsigned char kind[MAX_FIELDS];
    char *varname[MAX_FIELDS]; /* sample_variables names (owned) */
    size_t varlen[MAX_FIELDS];
    int colidx[NKNOWN]; /* field index of each known column, -1 if absent */
    int have_header;
    char header_sig[2048]; /* the header's fields joined by \x1f, to spot repeats */
    size_t header_sig_n;
    const char *version_guess;
    /* current record */
    char *rec;
    size_t rec_len, rec_cap;
    size_t foff[MAX_FIELDS], flen[MAX_FIELDS];
    int nf;
    int too_many;
    int too_long;
    long long extra_records; /* records with more fields than the columns: extras ignored */
    long rec_nl;             /* LFs inside the record's fields */
    long line;               /* line where the current record starts */
    long nrec;               /* records seen */
    /* timestamps */
    enum ts_mode ts_mode;
    pr_datefmt fmt;
    const char *fmt_pattern;
    int tz_offset_min;
    int tz_given;
    int64_t tod_day; /* time-of-day-only stamps: current day number */
    int64_t tod_last_ns;
    int tod_seen;
    /* sub-results */
    int have_pending;
    pr_sample pending;
    int pending_emitted;
    int parent_valid;
    uint32_t parent_label, parent_thread;
    int64_t parent_start_ms, parent_end_ms;
    int64_t prev_start_ms, prev_end_ms; /* the last top-level row, for the next one */
    /* run accounting */
    int64_t run_max_end;           /* for telling appended runs apart by their time gap */
    int64_t run_min_start, run_n;  /* the run's earliest start and samples, for its spacing */
    int64_t gaps_kept, gap_max_ms; /* --no-split-runs: the gaps kept inside the run */
    int32_t run_max_threads;
    long long n_sub, n_tc, n_empty_tc, n_idle_ms;
    int runs;
    int in_csv;           /* libcsv holds part of a record */
    pr_jtl_icache icache; /* recent interned ids */
    /* status */
    int rc;
    int stopped;
} jcsv;

/* ---- helpers -------------------------------------------------------------------------- */

static int known_col(const char *s, size_t n)
{
    for (int i = 0; i < NKNOWN; i++)
        if (strlen(col_names[i]) == n && strncasecmp(col_names[i], s, n) == 0)
            return i;
    return -1;
}

/* Splits one physical line (no embedded newline expected) at `d`, honouring quotes.
 * Fills starts/lengths of raw fields (quotes included). Returns the field count (max+1 when
 * there are more). */
static int split_raw(const char *s, size_t n, char d, pr_str *f, int max)
{
    int k = 0;
    size_t st = 0;
    int q = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && s[i] == '"')
            q = !q;
        if (i == n || (!q && s[i] == d)) {
            if (k == max)
                return max + 1;
            f[k].p = s + st;
            f[k].n = i - st;
            k++;
            st = i + 1;
        }
    }
    return k;
}

/* Whether the raw fields look like a JTL header: every field a known column name or a quoted
 * variable name, or the first field a known name and at least three known names. */
static int is_header(const pr_str *f, int nf)
{
    int known = 0, quoted = 0;
    for (int i = 0; i < nf; i++) {
        pr_str t = f[i];
        if (t.n >= 2 && t.p[0] == '"' && t.p[t.n - 1] == '"')
            quoted++;
        else if (known_col(t.p, t.n) >= 0)
            known++;
    }
    if (known == 0)
        return 0;
    if (known + quoted == nf)
        return 1;
    return known_col(f[0].p, f[0].n) >= 0 && known >= 3;
}

/* The first physical line of buf (without CR/LF). */
static size_t first_line(const unsigned char *buf, size_t len)
{
    size_t i = 0;
    while (i < len && buf[i] != '\n' && buf[i] != '\r')
        i++;
    return i;
}

/* Counts the fields of the first record (quote-aware, may span lines) for delimiter d.
 * Fills up to `max` raw fields. Returns the count or -1 if the record does not end in buf. */
static int first_record_fields(const unsigned char *buf, size_t len, char d, pr_str *f, int max,
                               int at_eof)
{
    int k = 0, q = 0;
    size_t st = 0;
    for (size_t i = 0; i <= len; i++) {
        int end = i == len;
        if (end && !at_eof)
            return -1;
        char c = end ? '\n' : (char)buf[i];
        if (c == '"')
            q = !q;
        if (!q && (c == d || c == '\n' || c == '\r')) {
            if (k < max) {
                f[k].p = (const char *)buf + st;
                f[k].n = i - st;
            }
            k++;
            st = i + 1;
            if (c != d)
                return k;
        }
    }
    return k;
}

static int is_bool(pr_str s)
{
    return pr_str_eq(s, "true") || pr_str_eq(s, "false") || pr_str_eq(s, "TRUE") ||
           pr_str_eq(s, "FALSE");
}

static int all_digits(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

static int stamp_like(pr_str s)
{
    if (all_digits(s.p, s.n))
        return 1;
    pr_datefmt f;
    int64_t ns;
    for (int i = 0; date_patterns[i]; i++)
        if (pr_datefmt_compile(&f, date_patterns[i], NULL, 0) == 0 &&
            pr_datefmt_parse(&f, s.p, s.n, 0, &ns) == 0)
            return 1;
    return 0;
}

/* Detects header and delimiter from the first bytes. Returns the delimiter (0 if unknown),
 * sets *header and, for header-less input, *nfields of the first record. */
static char detect(const unsigned char *buf, size_t len, int at_eof, int *header, int *nfields)
{
    pr_str f[MAX_FIELDS];
    size_t ln = first_line(buf, len);
    *header = 0;
    *nfields = 0;
    for (const char *d = delim_candidates; *d; d++) {
        int nf = split_raw((const char *)buf, ln, *d, f, MAX_FIELDS);
        if (nf >= 2 && nf <= MAX_FIELDS && is_header(f, nf)) {
            *header = 1;
            *nfields = nf;
            return *d;
        }
    }
    /* Header-less: a delimiter giving a known column count with a boolean in column 8 and a
     * stamp in column 1 wins; else the main four by the largest field count. */
    char best = 0;
    int best_n = 1;
    for (const char *d = delim_candidates; *d; d++) {
        int nf = first_record_fields(buf, len, *d, f, MAX_FIELDS, at_eof);
        if (nf < 2 || nf > MAX_FIELDS)
            continue;
        for (size_t k = 0; k < sizeof default_sets / sizeof default_sets[0]; k++)
            if (default_sets[k].n == nf && is_bool(f[7]) && stamp_like(f[0])) {
                *nfields = nf;
                return *d;
            }
        if (d - delim_candidates < 4 && nf > best_n) {
            best = *d;
            best_n = nf;
        }
    }
    *nfields = best_n;
    return best;
}

/* ---- column set ----------------------------------------------------------------------- */

static void clear_columns(jcsv *j)
{
    for (int i = 0; i < j->ncols; i++) {
        free(j->varname[i]);
        j->varname[i] = NULL;
    }
    j->ncols = 0;
    for (int i = 0; i < NKNOWN; i++)
        j->colidx[i] = -1;
}

/* Installs a column set from names (quotes around variable names are removed). */
static void set_columns(jcsv *j, const pr_str *names, int n)
{
    clear_columns(j);
    j->header_sig_n = 0;
    for (int i = 0; i < n && i < MAX_FIELDS; i++) {
        pr_str t = pr_str_trim(names[i]);
        int quoted = t.n >= 2 && t.p[0] == '"' && t.p[t.n - 1] == '"';
        if (quoted) {
            t.p++;
            t.n -= 2;
        }
        int k = quoted ? -1 : known_col(t.p, t.n);
        if (k >= 0 && j->colidx[k] < 0) {
            j->kind[i] = (unsigned char)k;
            j->colidx[k] = i;
        } else {
            j->kind[i] = C_VAR;
            j->varname[i] = pr_xstrndup(t.p, t.n);
            j->varlen[i] = t.n;
        }
        if (j->header_sig_n + t.n + 1 < sizeof j->header_sig) {
            if (i)
                j->header_sig[j->header_sig_n++] = '\x1f';
            memcpy(j->header_sig + j->header_sig_n, t.p, t.n);
            j->header_sig_n += t.n;
        }
        j->ncols++;
    }
}

static void set_columns_csv(jcsv *j, const char *list)
{
    pr_str f[MAX_FIELDS];
    int n = split_raw(list, strlen(list), ',', f, MAX_FIELDS);
    if (n > MAX_FIELDS)
        n = MAX_FIELDS;
    set_columns(j, f, n);
}

/* ---- run setup ------------------------------------------------------------------------ */

static void setup_run(jcsv *j)
{
    pr_run *r = j->sink->run;
    pr_run_set_format(r, "jmeter-csv", "jmeter");
    r->load_model = PR_LOAD_CLOSED;
    pr_run_meta_resolution(r, "latency_resolution_ns", 1000000); /* elapsed, Latency, Connect: ms */
    char d[3] = {j->delim, 0, 0};
    if (j->delim == '\t')
        strcpy(d, "\\t");
    pr_run_meta_set(r, "jtl_delimiter", json_string(d));
    pr_run_meta_set(r, "jtl_header", json_boolean(j->have_header));
    if (j->version_guess)
        pr_run_meta_set(r, "jmeter_version_guess", json_string(j->version_guess));
    json_t *cols = json_array();
    for (int i = 0; i < j->ncols; i++)
        json_array_append_new(
            cols, json_string(j->kind[i] == C_VAR ? j->varname[i] : col_names[j->kind[i]]));
    pr_run_meta_set(r, "jtl_columns", cols);
    pr_run_meta_set(r, "timestamp_marks",
                    json_string(j->opts->jtl_timestamp_end ? "end" : "start"));
    pr_jtl_meta_rule(r, j->opts->subresults);
    j->run_max_end = PR_UNKNOWN;
    j->run_min_start = PR_UNKNOWN;
    j->run_n = 0;
    j->gaps_kept = j->gap_max_ms = 0;
    j->run_max_threads = -1;
    j->n_sub = j->n_tc = j->n_empty_tc = j->n_idle_ms = 0;
}

static void time_meta(jcsv *j)
{
    pr_run *r = j->sink->run;
    if (j->ts_mode == TS_MS) {
        pr_run_meta_set(r, "time_resolution_ns", json_integer(1000000));
        pr_run_meta_set(r, "timestamp_format", json_string("ms"));
        return;
    }
    if (j->ts_mode != TS_FMT)
        return;
    pr_run_meta_set(r, "timestamp_format", json_string(j->fmt_pattern));
    pr_run_meta_set(r, "time_resolution_ns", json_integer(j->fmt.resolution_ns));
    if (j->fmt.resolution_ns >= 1000000000LL)
        pr_run_meta_set(r, "time_note_resolution",
                        json_string("timestamps have 1-second resolution: start times are "
                                    "truncated to the second, so durations and throughput over "
                                    "short spans are approximate"));
    if (!j->fmt.has_zone) {
        char buf[160];
        int o = j->tz_offset_min, a = o < 0 ? -o : o;
        snprintf(buf, sizeof buf, "%c%02d:%02d%s", o < 0 ? '-' : '+', a / 60, a % 60,
                 j->tz_given ? "" : " (assumed: the file names no zone; give --tz)");
        pr_run_meta_set(r, "time_zone", json_string(buf));
    }
    if (!j->fmt.has_date)
        pr_run_meta_set(r, "time_note_date",
                        json_string("timestamps carry the time of day only: the first is "
                                    "placed on 1970-01-01 (as JMeter's dashboard does) and a day "
                                    "is added each time the clock wraps past midnight"));
}

static void finish_run(jcsv *j)
{
    pr_run *r = j->sink->run;
    if (j->run_max_threads > r->concurrency)
        r->concurrency = j->run_max_threads;
    pr_run_meta_set(r, "subresult_rows", json_integer(j->n_sub));
    pr_run_meta_set(r, "transaction_rows", json_integer(j->n_tc));
    if (j->n_empty_tc)
        pr_run_meta_set(r, "empty_transaction_rows", json_integer(j->n_empty_tc));
    pr_run_meta_set(r, "idle_time_total_ms", json_integer(j->n_idle_ms));
    time_meta(j);
}

/* ---- errors --------------------------------------------------------------------------- */

static long field_col(const jcsv *j, int idx)
{
    long col = 1;
    for (int i = 0; i < idx && i < j->nf; i++)
        col += (long)j->flen[i] + 1;
    return col;
}

/* A short copy of a field for messages, its control characters visible (model/text.h). */
#define SHOWN_MAX (40 * 4 + 4)
static const char *shown(char out[SHOWN_MAX], const char *s, size_t n)
{
    pr_buf b = PR_BUF_INIT;
    pr_text_visible(s, n < 40 ? n : 40, 0, &b);
    snprintf(out, SHOWN_MAX, "%s%s", b.p ? b.p : "", n > 40 ? "..." : "");
    pr_buf_dispose(&b);
    return out;
}

static int fail_at(jcsv *j, int code, int idx, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail_at(jcsv *j, int code, int idx, const char *fmt, ...)
{
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pr_error_set(j->err, code, j->name, j->line, idx >= 0 ? field_col(j, idx) : 0, "%s", msg);
    j->rc = code;
    j->stopped = 1;
    return code;
}

/* ---- emission and sub-results --------------------------------------------------------- */

static int emit(jcsv *j, const pr_sample *s)
{
    if (j->rc)
        return j->rc;
    int64_t end = s->start_ns + (s->latency_ns == PR_UNKNOWN ? 0 : s->latency_ns);
    if (j->run_max_end == PR_UNKNOWN || end > j->run_max_end)
        j->run_max_end = end;
    if (j->run_min_start == PR_UNKNOWN || s->start_ns < j->run_min_start)
        j->run_min_start = s->start_ns;
    j->run_n++;
    if (s->threads > j->run_max_threads)
        j->run_max_threads = s->threads;
    int rc = pr_sink_emit(j->sink, s, j->err);
    if (rc < 0) {
        j->rc = rc;
        j->stopped = 1;
    }
    return rc;
}

/* Whether a top-level sample is kept under the selection rule. */
static int keep_top(const jcsv *j, const pr_sample *s)
{
    switch (j->opts->subresults) {
    case PR_SUB_INCLUDE: return 1;
    case PR_SUB_ONLY: return !(s->flags & (PR_SF_PARENT | PR_SF_TRANSACTION));
    default: return 1;
    }
}

static int flush_pending(jcsv *j)
{
    if (!j->have_pending)
        return 0;
    j->have_pending = 0;
    if (j->pending_emitted || !keep_top(j, &j->pending))
        return 0;
    return emit(j, &j->pending);
}

/* "<parent>-<N>[-<N>…]" */
static int sub_label(const char *parent, size_t pn, const char *l, size_t ln)
{
    if (ln < pn + 2 || memcmp(parent, l, pn) != 0 || l[pn] != '-')
        return 0;
    size_t i = pn + 1;
    int digits = 0;
    for (; i < ln; i++) {
        if (l[i] >= '0' && l[i] <= '9') {
            digits++;
        } else if (l[i] == '-' && digits) {
            digits = 0;
        } else {
            return 0;
        }
    }
    return digits > 0;
}

/* ---- one record ----------------------------------------------------------------------- */

#define F(k) (j->colidx[k] >= 0 && j->colidx[k] < j->nf)
#define FP(k) (j->rec + j->foff[j->colidx[k]])
#define FN(k) (j->flen[j->colidx[k]])

/* Digits only, up to 18: the common case, without the general parser. */
static inline int quick_int(const char *s, size_t n, int64_t *out)
{
    if (n == 0 || n > 18)
        return -1;
    int64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned d = (unsigned char)s[i] - '0';
        if (d > 9)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static int get_int(jcsv *j, int k, int64_t *out)
{
    if (!F(k)) {
        *out = PR_UNKNOWN;
        return 0;
    }
    size_t n = FN(k);
    if (n == 0) {
        *out = PR_UNKNOWN;
        return 0;
    }
    if (quick_int(FP(k), n, out) < 0 && pr_lex_i64(FP(k), n, out) < 0) {
        char b[SHOWN_MAX];
        return fail_at(j, PR_EPARSE, j->colidx[k], "column '%s': expected an integer, found '%s'",
                       col_names[k], shown(b, FP(k), n));
    }
    return 0;
}

static int detect_time(jcsv *j, const char *s, size_t n)
{
    if (j->opts->tz) {
        if (pr_tz_offset(j->opts->tz, &j->tz_offset_min) < 0)
            return fail_at(j, PR_EUSAGE, -1, "--tz %s: expected UTC or an offset like +02:00",
                           j->opts->tz);
        j->tz_given = 1;
    }
    if (j->opts->jtl_time_format) {
        char eb[128];
        if (pr_datefmt_compile(&j->fmt, j->opts->jtl_time_format, eb, sizeof eb) < 0)
            return fail_at(j, PR_EUSAGE, -1, "--jtl-time-format: %s", eb);
        j->fmt_pattern = j->opts->jtl_time_format;
        j->ts_mode = TS_FMT;
        return 0;
    }
    if (all_digits(s, n) || (n > 1 && s[0] == '-' && all_digits(s + 1, n - 1))) {
        j->ts_mode = TS_MS; /* epoch ms (before 1970: negative) */
        return 0;
    }
    int64_t ns;
    for (int i = 0; date_patterns[i]; i++) {
        pr_datefmt f;
        /* a pattern that reads the stamp, even as a year out of range (said by get_ts_ms) */
        if (pr_datefmt_compile(&f, date_patterns[i], NULL, 0) == 0 &&
            pr_datefmt_parse(&f, s, n, j->tz_offset_min, &ns) != -1) {
            j->fmt = f;
            j->fmt_pattern = date_patterns[i];
            j->ts_mode = TS_FMT;
            return 0;
        }
    }
    char b[SHOWN_MAX];
    return fail_at(j, PR_EPARSE, j->colidx[C_TS],
                   "column 'timeStamp': expected epoch milliseconds or a date JMeter writes, "
                   "found '%s' (give --jtl-time-format)",
                   shown(b, s, n));
}

/* The timeStamp field in ms since the epoch. */
static int get_ts_ms(jcsv *j, int64_t *ms)
{
    if (!F(C_TS) || FN(C_TS) == 0)
        return fail_at(j, PR_EPARSE, F(C_TS) ? j->colidx[C_TS] : -1,
                       "column 'timeStamp': expected a time stamp, found nothing");
    const char *s = FP(C_TS);
    size_t n = FN(C_TS);
    if (j->ts_mode == TS_UNSET && detect_time(j, s, n) < 0)
        return j->rc;
    char b[SHOWN_MAX];
    if (j->ts_mode == TS_MS) {
        if (quick_int(s, n, ms) < 0 && pr_lex_i64(s, n, ms) < 0)
            return fail_at(j, PR_EPARSE, j->colidx[C_TS],
                           "column 'timeStamp': expected epoch milliseconds, found '%s'",
                           shown(b, s, n));
        return 0;
    }
    int64_t ns;
    int r = pr_datefmt_parse(&j->fmt, s, n, j->tz_offset_min, &ns);
    if (r == PR_TIME_RANGE)
        return fail_at(j, PR_EPARSE, j->colidx[C_TS],
                       "column 'timeStamp': '%s' is outside the years 1678..2261", shown(b, s, n));
    if (r < 0)
        return fail_at(j, PR_EPARSE, j->colidx[C_TS],
                       "column 'timeStamp': expected a date like '%s', found '%s'", j->fmt_pattern,
                       shown(b, s, n));
    if (!j->fmt.has_date) {
        /* Time of day only: choose the day that keeps the stamp nearest the previous one. */
        const int64_t day = 86400LL * 1000000000LL;
        int64_t best = ns + j->tod_day * day;
        if (j->tod_seen) {
            for (int64_t dd = -1; dd <= 1; dd++) {
                int64_t c = ns + (j->tod_day + dd) * day;
                int64_t e1 = c - j->tod_last_ns, e2 = best - j->tod_last_ns;
                if ((e1 < 0 ? -e1 : e1) < (e2 < 0 ? -e2 : e2))
                    best = c;
            }
        }
        int64_t d = (best - ns) / day;
        if (d > j->tod_day)
            j->tod_day = d;
        if (j->tod_day > 36500)
            return fail_at(j, PR_EPARSE, j->colidx[C_TS],
                           "column 'timeStamp': time-of-day stamps wrap past midnight more than "
                           "36500 times");
        j->tod_last_ns = best;
        j->tod_seen = 1;
        ns = best;
    }
    *ms = ns / 1000000;
    return 0;
}

static int is_repeated_header(jcsv *j)
{
    if (j->nf < 2 || !F(C_TS))
        return 0;
    /* cheap tests first: the first field is a column name */
    if (j->flen[0] == 0 || (j->rec[j->foff[0]] >= '0' && j->rec[j->foff[0]] <= '9') ||
        known_col(j->rec + j->foff[0], j->flen[0]) < 0)
        return 0;
    pr_str f[MAX_FIELDS];
    for (int i = 0; i < j->nf; i++) {
        f[i].p = j->rec + j->foff[i];
        f[i].n = j->flen[i];
    }
    int known = 0;
    for (int i = 0; i < j->nf; i++)
        known += known_col(f[i].p, f[i].n) >= 0;
    return known >= 3;
}

/* Another run starts at the current line: split there when `split`, else say so. */
static int new_run(jcsv *j, const char *why, int split, const char *option)
{
    if (flush_pending(j) < 0)
        return j->rc;
    j->parent_valid = 0;
    if (!split) {
        pr_sink_warn(j->sink, j->name, j->line, 0,
                     "another run seems to start here (%s); its samples are kept in the same "
                     "run (%s)",
                     why, option);
        return 0;
    }
    pr_sink_warn(j->sink, j->name, j->line, 0,
                 "another run starts here (%s); it is stored as a separate run", why);
    finish_run(j);
    pr_run *old = j->sink->run;
    int rc = pr_sink_split(j->sink, j->err);
    if (rc < 0) {
        j->rc = rc;
        j->stopped = 1;
        return rc;
    }
    if (j->sink->run != old || j->sink->split) {
        memset(&j->icache, 0, sizeof j->icache);
        setup_run(j);
        j->runs++;
    }
    return 0;
}

/* A header line among the records: a new run (its columns, when they differ). */
static int repeated_header(jcsv *j)
{
    pr_str f[MAX_FIELDS];
    for (int i = 0; i < j->nf; i++) {
        f[i].p = j->rec + j->foff[i];
        f[i].n = j->flen[i];
    }
    int same = 1;
    size_t off = 0;
    for (int i = 0; i < j->nf && same; i++) {
        if (i) {
            same = off < j->header_sig_n && j->header_sig[off] == '\x1f';
            off++;
        }
        same = same && off + f[i].n <= j->header_sig_n &&
               memcmp(j->header_sig + off, f[i].p, f[i].n) == 0;
        off += f[i].n;
    }
    same = same && off == j->header_sig_n;
    if (!same)
        set_columns(j, f, j->nf);
    if (new_run(j, same ? "repeated header line" : "a header line with other columns",
                j->opts->split_runs, "use --split-runs to store them separately") < 0)
        return j->rc;
    return 0;
}

/* The record's shape: 1 when it is no sample (the header, a blank line, a header line among
 * the records), 0 when it has the column set's fields (extra ones dropped with a warning), or
 * an error. */
static int record_shape(jcsv *j, int terminated)
{
    if (j->too_long)
        return fail_at(j, PR_EPARSE, -1, "record longer than 4 MiB (unterminated quote?)");
    if (j->too_many)
        return fail_at(j, PR_EPARSE, -1, "more than %d fields in a record", MAX_FIELDS);
    if ((j->nrec == 1 && j->have_header) || (j->nf == 1 && j->flen[0] == 0))
        return 1; /* the header, a blank line */
    if (is_repeated_header(j))
        return repeated_header(j) < 0 ? j->rc : 1;
    if (j->nf > j->ncols && terminated) { /* kept, the extra fields named by no column */
        if (j->extra_records++ < 3)
            pr_sink_warn(j->sink, j->name, j->line, field_col(j, j->ncols),
                         "%d fields where the %s names %d: the record is kept, the extra "
                         "fields are ignored%s",
                         j->nf, j->have_header ? "header" : "column set", j->ncols,
                         j->extra_records == 3 ? " (further ones counted at the end)" : "");
        j->nf = j->ncols;
    }
    if (j->nf != j->ncols) {
        if (!terminated && j->nf < j->ncols)
            return fail_at(j, PR_ETRUNC, -1,
                           "input ends inside a record (%d of %d fields, "
                           "the last one possibly cut); the records before it are kept",
                           j->nf, j->ncols);
        return fail_at(j, PR_EPARSE, -1, "expected %d fields, found %d", j->ncols, j->nf);
    }
    if (!terminated)
        pr_sink_warn(j->sink, j->name, j->line, 0,
                     "the last record has no line end; kept, but its last field may be cut");
    return 0;
}

/* The record's times and counters into s: start, elapsed (*start_ms, *elapsed), latency,
 * connect, bytes, threads. */
static int record_numbers(jcsv *j, pr_sample *s, int64_t *start_ms, int64_t *elapsed)
{
    int64_t ts_ms, v;
    if (get_ts_ms(j, &ts_ms) < 0 || get_int(j, C_ELAPSED, elapsed) < 0)
        return j->rc;
    if (*elapsed == PR_UNKNOWN)
        *elapsed = 0;
    if (*elapsed > PR_JTL_MS_MAX || *elapsed < -PR_JTL_MS_MAX)
        return fail_at(j, PR_EPARSE, j->colidx[C_ELAPSED], "column 'elapsed': out of range");
    if (*elapsed < 0)
        return fail_at(j, PR_EPARSE, j->colidx[C_ELAPSED],
                       "column 'elapsed': a negative "
                       "response time (%lld ms): no percentile can be computed from it",
                       (long long)*elapsed);
    /* the time stamp in range first, so that taking the elapsed time off cannot overflow */
    *start_ms = ts_ms;
    if (pr_time_from_epoch(ts_ms, 1000000, &s->start_ns) == 0 && j->opts->jtl_timestamp_end)
        *start_ms = ts_ms - *elapsed;
    if (pr_time_from_epoch(*start_ms, 1000000, &s->start_ns) < 0)
        return fail_at(j, PR_EPARSE, j->colidx[C_TS],
                       "column 'timeStamp': %lld ms is outside "
                       "the years 1678..2261",
                       (long long)*start_ms);
    s->latency_ns = *elapsed * 1000000;
    if (get_int(j, C_LATENCY, &v) < 0)
        return j->rc;
    if (pr_jtl_ms_ns(v, &s->ttfb_ns) < 0)
        return fail_at(j, PR_EPARSE, j->colidx[C_LATENCY], "column 'Latency': out of range");
    if (get_int(j, C_CONNECT, &v) < 0)
        return j->rc;
    if (pr_jtl_ms_ns(v, &s->connect_ns) < 0)
        return fail_at(j, PR_EPARSE, j->colidx[C_CONNECT], "column 'Connect': out of range");
    if (get_int(j, C_BYTES, &s->bytes_in) < 0 || get_int(j, C_SENT, &s->bytes_out) < 0)
        return j->rc;
    if (get_int(j, C_ALL, &v) < 0)
        return j->rc;
    s->threads = v == PR_UNKNOWN ? -1 : (int32_t)(v > INT32_MAX ? INT32_MAX : v < 0 ? -1 : v);
    return 0;
}

/* The record's strings into s: label, thread, URL, status, outcome and error; *msg is the
 * responseMessage (a transaction controller's mark). */
static int record_strings(jcsv *j, pr_sample *s, const char **msg, size_t *msg_n)
{
    pr_run *run = j->sink->run;
    if (F(C_LABEL))
        s->label = pr_jtl_intern(&j->icache, run, PR_JTL_IC_LABEL, FP(C_LABEL), FN(C_LABEL));
    if (F(C_THREAD))
        s->thread = pr_jtl_intern(&j->icache, run, PR_JTL_IC_THREAD, FP(C_THREAD), FN(C_THREAD));
    if (F(C_URL) && FN(C_URL) && !(FN(C_URL) == 4 && memcmp(FP(C_URL), "null", 4) == 0))
        s->url = pr_jtl_intern(&j->icache, run, PR_JTL_IC_URL, FP(C_URL), FN(C_URL));
    const char *code = F(C_CODE) ? FP(C_CODE) : "";
    size_t code_n = F(C_CODE) ? FN(C_CODE) : 0;
    *msg = F(C_MSG) ? FP(C_MSG) : "";
    *msg_n = F(C_MSG) ? FN(C_MSG) : 0;
    s->status = pr_jtl_status(code, code_n);
    if (F(C_SUCCESS)) {
        pr_str b = {FP(C_SUCCESS), FN(C_SUCCESS)};
        if (b.n == 4 && strncasecmp(b.p, "true", 4) == 0)
            s->success = PR_OK_SUCCESS;
        else if (b.n == 5 && strncasecmp(b.p, "false", 5) == 0)
            s->success = PR_FAIL;
        else {
            char sb[SHOWN_MAX];
            return fail_at(j, PR_EPARSE, j->colidx[C_SUCCESS],
                           "column 'success': expected true or false, found '%s'",
                           shown(sb, b.p, b.n));
        }
    }
    if (s->success == PR_FAIL)
        s->error =
            pr_jtl_error_id(run, code, code_n, *msg, *msg_n, F(C_FAILMSG) ? FP(C_FAILMSG) : "",
                            F(C_FAILMSG) ? FN(C_FAILMSG) : 0);
    return 0;
}

/* The record's attributes into at and s: sample variables, then the per-sample extras that
 * have no field. */
static int record_attrs(jcsv *j, pr_sample *s, pr_jtl_attrs *at)
{
    at->n = 0;
    for (int i = 0; i < j->ncols; i++)
        if (j->kind[i] == C_VAR)
            pr_jtl_attr_add(at, j->varname[i], j->varlen[i], j->rec + j->foff[i], j->flen[i]);
    if (F(C_GRP) && FN(C_GRP))
        pr_jtl_attr_add(at, "grpThreads", 10, FP(C_GRP), FN(C_GRP));
    if (F(C_HOST) && FN(C_HOST))
        pr_jtl_attr_add(at, "Hostname", 8, FP(C_HOST), FN(C_HOST));
    if (F(C_FILENAME) && FN(C_FILENAME))
        pr_jtl_attr_add(at, "Filename", 8, FP(C_FILENAME), FN(C_FILENAME));
    if (F(C_SCOUNT) && FN(C_SCOUNT) && !(FN(C_SCOUNT) == 1 && FP(C_SCOUNT)[0] == '1')) {
        pr_jtl_attr_add(at, "SampleCount", 11, FP(C_SCOUNT), FN(C_SCOUNT));
        if (F(C_ECOUNT))
            pr_jtl_attr_add(at, "ErrorCount", 10, FP(C_ECOUNT), FN(C_ECOUNT));
    }
    int64_t v;
    if (get_int(j, C_IDLE, &v) < 0)
        return j->rc;
    if (v != PR_UNKNOWN && v != 0) {
        pr_jtl_attr_add(at, "IdleTime", 8, FP(C_IDLE), FN(C_IDLE));
        if (v > 0 && v < PR_JTL_MS_MAX)
            j->n_idle_ms += v;
    }
    if (at->n)
        s->attrs = pr_jtl_intern(&j->icache, j->sink->run, PR_JTL_IC_ATTRS, at->buf, at->n);
    return 0;
}

/* Copies of a sample's strings, taken before a split hands its run to the consumer (which may
 * free it), and interned into the new run after. */
typedef struct {
    char *str[4];
} saved_strs;

static void save_strs(saved_strs *v, const pr_run *run, const pr_sample *s)
{
    const uint32_t ids[4] = {s->label, s->thread, s->url, s->error};
    for (int i = 0; i < 4; i++)
        v->str[i] = ids[i] ? pr_xstrdup(pr_run_str(run, ids[i])) : NULL;
}

static void restore_strs(saved_strs *v, pr_run *nr, pr_sample *s)
{
    uint32_t *ids[4] = {&s->label, &s->thread, &s->url, &s->error};
    for (int i = 0; i < 4; i++) {
        if (v->str[i])
            *ids[i] = pr_run_intern(nr, v->str[i], strlen(v->str[i]));
        free(v->str[i]);
    }
}

/* An appended run (a forward jump of more than an hour past everything seen): a new run,
 * s's strings interned again into it. Kept in the same run (no --split-runs), the jump is the
 * run's new end, so the rows after it do not warn again. */
static int record_gap(jcsv *j, pr_sample *s, const pr_jtl_attrs *at, int64_t start_ms)
{
    if (j->run_max_end == PR_UNKNOWN)
        return 0;
    int64_t gap = start_ms - j->run_max_end / 1000000;
    double spacing_ms = j->run_n >= GAP_MIN_SAMPLES && j->run_min_start != PR_UNKNOWN
                            ? (double)(j->run_max_end - j->run_min_start) / 1e6 / (double)j->run_n
                            : NAN;
    int far = gap > GAP_NEW_RUN_MS ||
              (gap > GAP_MIN_MS && isfinite(spacing_ms) && (double)gap > GAP_SPACINGS * spacing_ms);
    if (!far)
        return 0;
    pr_run *run = j->sink->run;
    char why[160];
    if (isfinite(spacing_ms))
        snprintf(why, sizeof why,
                 "a gap of %.1f h in the timestamps, after %lld samples %.3g s "
                 "apart on average",
                 (double)gap / 3.6e6, (long long)j->run_n, spacing_ms / 1e3);
    else
        snprintf(why, sizeof why, "a gap of %.1f h in the timestamps", (double)gap / 3.6e6);
    saved_strs v;
    save_strs(&v, run, s);
    int rc = new_run(j, why, j->opts->split_runs || !j->opts->keep_gaps,
                     "--no-split-runs; without it they are a run of their own");
    pr_run *nr = j->sink->run;
    if (rc == 0 && nr == run) { /* kept (--no-split-runs): the run says so (its notes) */
        j->gaps_kept++;
        j->gap_max_ms = gap > j->gap_max_ms ? gap : j->gap_max_ms;
        pr_run_meta_set(run, "gaps_kept",
                        json_pack("{s:I,s:I}", "count", (json_int_t)j->gaps_kept, "largest_ns",
                                  (json_int_t)(j->gap_max_ms * 1000000)));
        j->run_min_start = PR_UNKNOWN; /* the next gap is measured on this session's spacing */
        j->run_n = 0;
    }
    if (rc < 0 || nr == run) {
        for (int i = 0; i < 4; i++)
            free(v.str[i]);
        if (rc == 0 && j->run_max_end / 1000000 < start_ms)
            j->run_max_end = start_ms * 1000000;
        return rc < 0 ? j->rc : 0;
    }
    restore_strs(&v, nr, s);
    if (s->attrs)
        s->attrs = pr_run_intern(nr, at->buf, at->n);
    return 0;
}

/* A 5.x sub-result row ("<parent>-<N>" right after the parent, same thread, inside it):
 * emitted as one (1), or 0 when s is not one. */
static int record_subresult(jcsv *j, pr_sample *s, int64_t start_ms, int64_t end_ms)
{
    pr_run *run = j->sink->run;
    const char *pl = pr_strtab_get(run->strings, j->parent_label);
    size_t pln = pr_strtab_len(run->strings, j->parent_label);
    const char *l = pr_strtab_get(run->strings, s->label);
    size_t ln = pr_strtab_len(run->strings, s->label);
    int64_t slack = j->ts_mode == TS_FMT ? j->fmt.resolution_ns / 1000000 : 1;
    if (!(ln > pln + 1 && l[pln] == '-' && sub_label(pl, pln, l, ln) &&
          start_ms + slack >= j->parent_start_ms && end_ms <= j->parent_end_ms + slack))
        return 0;
    s->flags |= PR_SF_SUBRESULT;
    j->n_sub++;
    if (j->have_pending && !(j->pending.flags & PR_SF_PARENT)) {
        j->pending.flags |= PR_SF_PARENT;
        if (j->opts->subresults == PR_SUB_INCLUDE) { /* keep file order */
            if (emit(j, &j->pending) < 0)
                return j->rc;
            j->pending_emitted = 1;
        }
    }
    if (j->opts->subresults != PR_SUB_EXCLUDE && emit(j, s) < 0)
        return j->rc;
    return 1;
}

/* A sample that is no sub-result: a transaction controller's emitted now, any other kept
 * pending (the parent of the sub-results that may follow). */
static int record_place(jcsv *j, pr_sample *s, int tc, int64_t start_ms, int64_t end_ms)
{
    if (flush_pending(j) < 0)
        return j->rc;
    j->parent_valid = 0;
    if (tc) {
        s->flags |= PR_SF_TRANSACTION;
        j->n_tc++;
        if (tc == 2) {
            j->n_empty_tc++;
            if (j->opts->subresults != PR_SUB_INCLUDE)
                return 0;
        }
        if (!keep_top(j, s))
            return 0;
        return emit(j, s);
    }
    j->pending = *s;
    j->have_pending = 1;
    j->pending_emitted = 0;
    j->parent_valid = 1;
    j->parent_label = s->label;
    j->parent_thread = s->thread;
    j->parent_start_ms = start_ms;
    j->parent_end_ms = end_ms;
    return 0;
}

static int record(jcsv *j, int terminated)
{
    j->nrec++;
    int rc = record_shape(j, terminated);
    if (rc)
        return rc < 0 ? rc : 0;
    pr_sample s;
    pr_sample_init(&s);
    int64_t start_ms = 0, elapsed = 0;
    const char *msg = "";
    size_t msg_n = 0;
    pr_jtl_attrs at;
    if (record_numbers(j, &s, &start_ms, &elapsed) < 0 || record_strings(j, &s, &msg, &msg_n) < 0 ||
        record_attrs(j, &s, &at) < 0)
        return j->rc;
    pr_sink_strings_read(j->sink, j->line); /* the sample may be emitted a record later */
    int tc = pr_jtl_tc_kind(msg, msg_n);
    int64_t end_ms = start_ms + elapsed;
    if (record_gap(j, &s, &at, start_ms) < 0)
        return j->rc;
    if (j->parent_valid && s.thread == j->parent_thread && !tc) {
        rc = record_subresult(j, &s, start_ms, end_ms);
        if (rc)
            return rc < 0 ? rc : 0;
    }
    return record_place(j, &s, tc, start_ms, end_ms);
}

/* ---- libcsv callbacks ----------------------------------------------------------------- */

static void on_field(void *data, size_t len, void *payload)
{
    jcsv *j = payload;
    if (j->stopped)
        return;
    const char *d = data ? data : "";
    const char *p = d, *e = d + len;
    while ((p = memchr(p, '\n', (size_t)(e - p))) != NULL) {
        j->rec_nl++;
        p++;
    }
    if (j->nf >= MAX_FIELDS) {
        j->too_many = 1;
        return;
    }
    if (j->rec_len + len + 1 > REC_MAX) {
        j->too_long = 1;
        return;
    }
    if (j->rec_len + len + 1 > j->rec_cap)
        j->rec = pr_xgrow(j->rec, &j->rec_cap, j->rec_len + len + 1, 1);
    memcpy(j->rec + j->rec_len, d, len);
    j->foff[j->nf] = j->rec_len;
    j->flen[j->nf] = len;
    j->rec_len += len;
    j->nf++;
}

static void on_record(int c, void *payload)
{
    jcsv *j = payload;
    if (!j->stopped)
        record(j, c != -1);
    j->line += 1 + j->rec_nl;
    j->rec_nl = 0;
    j->nf = 0;
    j->rec_len = 0;
    j->too_many = 0;
    j->too_long = 0;
}

/* libcsv grows its field buffer with this: a field longer than REC_MAX is refused. */
static void *capped_realloc(void *p, size_t n)
{
    if (n > REC_MAX + CHUNK)
        return NULL;
    return realloc(p, n);
}

static int no_space(unsigned char c)
{
    return 0;
}

/* ---- reading ---------------------------------------------------------------------------- */

/* Feeds bytes to libcsv (records with quotes, or spanning lines). Afterwards in_csv says
 * whether libcsv holds part of a record (its public parser state is back at "row not begun"
 * otherwise), so the following lines must go to it too. */
static int feed(jcsv *j, const char *p, size_t n)
{
    size_t done = csv_parse(&j->p, p, n, on_field, on_record, j);
    if (j->rc)
        return j->rc;
    if (done != n) {
        j->rc = pr_error_set(j->err, PR_EPARSE, j->name, j->line, 0,
                             "field longer than 4 MiB (unterminated quote?)");
        j->stopped = 1;
        return j->rc;
    }
    j->in_csv = j->p.pstate != 0 || j->p.entry_pos != 0;
    return 0;
}

/* The fast path: a whole line with no quote and no inner CR is split here without copying.
 * It yields exactly the fields libcsv would (no space trimming, a trailing CR ends the
 * record, blank lines are skipped). */
static void fast_line(jcsv *j, char *p, size_t n, int terminated)
{
    if (n && p[n - 1] == '\r')
        n--;
    if (n > 0) {
        const char d = j->delim;
        size_t st = 0;
        j->nf = 0;
        for (size_t i = 0;; i++) {
            if (i == n || p[i] == d) {
                if (j->nf >= MAX_FIELDS) {
                    j->too_many = 1;
                    break;
                }
                j->foff[j->nf] = st;
                j->flen[j->nf] = i - st;
                j->nf++;
                st = i + 1;
                if (i == n)
                    break;
            }
        }
        char *own = j->rec;
        j->rec = p;
        j->sink->line = j->line; /* the record, for the sink's warnings */
        if (!j->stopped)
            record(j, terminated);
        j->rec = own;
    }
    j->line++;
    j->nf = 0;
    j->rec_len = 0;
    j->rec_nl = 0;
    j->too_many = 0;
    j->too_long = 0;
}

/* ---- entry points --------------------------------------------------------------------- */

static int sniff(const unsigned char *buf, size_t len)
{
    size_t i = len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    int header, nf;
    if (len - i < 8 || buf[i] == '<' || buf[i] == '{')
        return 0;
    char d = detect(buf + i, len - i, 1, &header, &nf);
    if (!d)
        return 0;
    if (header)
        return 95;
    for (size_t k = 0; k < sizeof default_sets / sizeof default_sets[0]; k++)
        if (default_sets[k].n == nf)
            return 70;
    return 0;
}

/* The column set: the header's (its version guessed from it), --jtl-columns, or the JMeter
 * default set with the first line's field count. *skip = the BOM's length. */
static int read_columns(jcsv *j, size_t *skip)
{
    size_t got;
    const unsigned char *head = pr_input_peek(j->in, PR_SNIFF_WINDOW, &got);
    *skip = got >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    int header, nf;
    j->delim = detect(head + *skip, got - *skip, got < 65536, &header, &nf);
    if (!j->delim)
        j->delim = ',';
    if (header) {
        pr_str f[MAX_FIELDS];
        size_t ln = first_line(head + *skip, got - *skip);
        int n = split_raw((const char *)head + *skip, ln, j->delim, f, MAX_FIELDS);
        set_columns(j, f, n);
        j->have_header = 1;
    } else if (j->opts->jtl_columns) {
        set_columns_csv(j, j->opts->jtl_columns);
    } else {
        for (size_t k = 0; k < sizeof default_sets / sizeof default_sets[0]; k++)
            if (default_sets[k].n == nf) {
                set_columns_csv(j, default_sets[k].cols);
                j->version_guess = default_sets[k].version;
            }
        if (!j->ncols)
            return pr_error_set(j->err, got ? PR_EFORMAT : PR_EPARSE, j->name, 1, 0,
                                got ? "no header line, and %d fields per record match no JMeter "
                                      "default column set (10, 12, 13, 14, 16 or 17); give "
                                      "--jtl-columns"
                                    : "empty input: expected a JMeter CSV result file%.0d",
                                nf);
    }
    for (size_t k = 0; header && j->ncols && k < sizeof default_sets / sizeof default_sets[0];
         k++) { /* version guess from the header's column set */
        pr_str f[MAX_FIELDS];
        int n = split_raw(default_sets[k].cols, strlen(default_sets[k].cols), ',', f, MAX_FIELDS);
        int same = n == j->ncols;
        for (int i = 0; i < n && same; i++)
            same = j->kind[i] != C_VAR && known_col(f[i].p, f[i].n) == j->kind[i];
        if (same)
            j->version_guess = default_sets[k].version;
    }
    if (j->colidx[C_TS] < 0)
        return pr_error_set(j->err, PR_EFORMAT, j->name, 1, 0,
                            "no timeStamp column (timestamp_format=none): sample times unknown");
    return 0;
}

/* The lines of the input from byte skip: unquoted ones through the in-place splitter, the
 * others (quotes, CR inside, a record libcsv is inside of, a line longer than the buffer)
 * through libcsv. */
static int read_lines(jcsv *j, size_t skip)
{
    if (csv_init(&j->p, CSV_STRICT_FINI) != 0) {
        fprintf(stderr, "perfreport: out of memory\n");
        abort();
    }
    csv_set_delim(&j->p, (unsigned char)j->delim);
    csv_set_space_func(&j->p, no_space);
    csv_set_realloc_func(&j->p, capped_realloc);
    csv_set_blk_size(&j->p, 4096);
    char *chunk = pr_xmalloc(BUF_SIZE);
    size_t have = 0, pos = skip;
    int rc = 0;
    for (;;) {
        long r = pr_input_read(j->in, chunk + have, BUF_SIZE - have, j->err);
        if (r < 0) {
            rc = PR_EIO;
            break;
        }
        int eof = r == 0;
        have += (size_t)r;
        while (pos < have && !j->stopped) {
            char *line = chunk + pos;
            char *nl = memchr(line, '\n', have - pos);
            if (!nl && !eof) {
                if (pos == 0 && have == BUF_SIZE) { /* a line longer than the buffer */
                    if (feed(j, line, have) < 0)
                        rc = j->rc;
                    pos = have;
                }
                break;
            }
            size_t len = nl ? (size_t)(nl - line) : have - pos;
            size_t full = nl ? len + 1 : len;
            if (j->in_csv || memchr(line, '"', len) || (len > 1 && memchr(line, '\r', len - 1))) {
                if (feed(j, line, full) < 0) {
                    rc = j->rc;
                    break;
                }
            } else {
                fast_line(j, line, len, nl != NULL);
            }
            pos += full;
        }
        if (rc || j->rc)
            break;
        memmove(chunk, chunk + pos, have - pos);
        have -= pos;
        pos = 0;
        if (eof)
            break;
    }
    free(chunk);
    if (!rc && !j->rc && csv_fini(&j->p, on_field, on_record, j) != 0 && !j->rc)
        rc = pr_error_set(j->err, PR_ETRUNC, j->name, j->line, 0,
                          "input ends inside a quoted field of the record that starts here; "
                          "the records before it are kept");
    csv_free(&j->p);
    return rc ? rc : j->rc;
}

/* The end of the input (also after a truncated record): the pending sample, the run's
 * figures, the warnings counted at the end. */
static int finish_input(jcsv *j, int rc, unsigned long long total_before)
{
    int saved = j->rc;
    j->rc = 0;
    flush_pending(j);
    if (j->rc < 0)
        rc = j->rc;
    else
        j->rc = saved;
    finish_run(j);
    if (j->extra_records > 3)
        pr_sink_warn(j->sink, j->name, 0, 0,
                     "%lld records in all had more fields than the "
                     "%s names: their extra fields were ignored",
                     j->extra_records, j->have_header ? "header" : "column set");
    if (j->have_header && j->sink->total == total_before)
        pr_sink_warn(j->sink, j->name, 1, 0,
                     "a header line and no records: the run has no "
                     "samples from this file");
    return rc;
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    jcsv *j = pr_xcalloc(1, sizeof *j);
    j->in = in;
    j->sink = sink;
    j->opts = opts;
    j->err = err;
    j->name = pr_input_name(in);
    j->line = 1;
    unsigned long long total_before = sink->total;
    for (int i = 0; i < NKNOWN; i++)
        j->colidx[i] = -1;
    size_t skip;
    int rc = read_columns(j, &skip);
    if (rc == 0) {
        setup_run(j);
        rc = read_lines(j, skip);
        if (rc == 0 || rc == PR_ETRUNC)
            rc = finish_input(j, rc, total_before);
    }
    clear_columns(j);
    free(j->rec);
    free(j);
    return rc;
}

const pr_parser pr_parser_jmeter_csv = {
    "jmeter-csv", "jmeter", "Apache JMeter CSV result file (JTL), any version, any delimiter",
    sniff, parse};
