/* Reader of Locust's CSV files (--csv PREFIX): _stats, _stats_history, _failures, _exceptions
 * (0.13.3 to 2.x) and _requests, _distribution (up to 0.13). Each file is a summary-only input;
 * the files of one prefix ingested together form one run (see cli/cmd_ingest.c). */
#include "model/xalloc.h"
#include "parsers/parser.h"
#include "parsers/sniff.h"
#include "parsers/textsum.h"
#include <iconv.h>
#include <stdlib.h>
#include <string.h>

enum { K_STATS, K_HISTORY, K_FAILURES, K_EXCEPTIONS, K_REQUESTS, K_DISTRIBUTION, NKINDS };
static const char *const kind_names[NKINDS] = {"stats",      "stats_history", "failures",
                                               "exceptions", "requests",      "distribution"};

/* The columns a reader looks for, under every name a Locust version gave them. */
enum {
    C_TYPE,
    C_NAME,
    C_COUNT,
    C_FAILS,
    C_MEDIAN,
    C_AVG,
    C_MIN,
    C_MAX,
    C_SIZE,
    C_RPS,
    C_FPS,
    C_TIME,
    C_USERS,
    C_ERROR,
    C_OCCUR,
    C_MESSAGE,
    C_TRACE,
    C_NODES,
    NCOLS
};
static const char *const col_alias[NCOLS][4] = {
    [C_TYPE] = {"Type", "Method"},
    [C_NAME] = {"Name"},
    [C_COUNT] = {"Request Count", "# requests", "Total Request Count", "Count"},
    [C_FAILS] = {"Failure Count", "# failures", "Total Failure Count"},
    [C_MEDIAN] = {"Median Response Time", "Median response time", "Total Median Response Time"},
    [C_AVG] = {"Average Response Time", "Average response time", "Total Average Response Time"},
    [C_MIN] = {"Min Response Time", "Min response time", "Total Min Response Time"},
    [C_MAX] = {"Max Response Time", "Max response time", "Total Max Response Time"},
    [C_SIZE] = {"Average Content Size", "Total Average Content Size"},
    [C_RPS] = {"Requests/s"},
    [C_FPS] = {"Failures/s", "Requests Failed/s"},
    [C_TIME] = {"Timestamp"},
    [C_USERS] = {"User Count"},
    [C_ERROR] = {"Error"},
    [C_OCCUR] = {"Occurrences"},
    [C_MESSAGE] = {"Message"},
    [C_TRACE] = {"Traceback"},
    [C_NODES] = {"Nodes"},
};

#define LOCUST_MAX_COLS 64
#define LOCUST_RECORD_MAX (1u << 20)

typedef struct lcsv {
    pr_input *in;
    pr_sink *sink;
    pr_error *err;
    const char *name;
    int kind;
    int col[NCOLS];
    int pct_col[LOCUST_MAX_COLS]; /* percentile columns, in header order */
    char pct_key[LOCUST_MAX_COLS][16];
    int npct;
    long line;              /* first line of the current record */
    char *rec, *out, *conv; /* record text, unquoted fields, converted text (owned) */
    size_t rec_n, rec_cap, conv_cap;
    pr_str f[LOCUST_MAX_COLS + 1];
    int nf;
    iconv_t gbk;   /* GB18030 → UTF-8, opened on first need */
    int converted; /* records read as GBK */
    json_t *summary;
    json_t *labels, *series, *errors, *exceptions;
    int64_t hist_rows, hist_label_rows;
    int nhead;       /* fields of the header */
    int totals;      /* a stats file's total row was read */
    long short_line; /* the line of a row with fewer fields than the header, 0 if none */
    int short_nf;    /* its fields */
    int short_rows;  /* rows left out for it (only the last row may be short) */
} lcsv;

static int utf8_valid(const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t k = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (!k || i + k > n || (k == 2 && c < 0xc2))
            return 0;
        for (size_t j = 1; j < k; j++)
            if (((unsigned char)s[i + j] & 0xc0) != 0x80)
                return 0;
        i += k;
    }
    return 1;
}

/* Reads one CSV record: lines are joined while a quoted cell is open (Locust's tracebacks);
 * trailing CRs of each line are dropped (CRLF, and \r\r\n from Windows runs). 1, 0 at the
 * end, or a negative error. */
static int read_record(lcsv *c)
{
    c->rec_n = 0;
    int open = 0, rc;
    const char *line;
    size_t len;
    while ((rc = pr_input_getline(c->in, &line, &len, c->err)) > 0) {
        if (c->rec_n == 0)
            c->line = pr_input_lineno(c->in);
        while (len && line[len - 1] == '\r')
            len--;
        if (c->rec_n + len + 1 > LOCUST_RECORD_MAX)
            return pr_error_set(c->err, PR_EPARSE, c->name, c->line, 0,
                                "record longer than 1 MiB (an unterminated quote?)");
        c->rec = pr_xgrow(c->rec, &c->rec_cap, c->rec_n + len + 1, 1);
        if (open)
            c->rec[c->rec_n++] = '\n';
        memcpy(c->rec + c->rec_n, line, len);
        c->rec_n += len;
        for (size_t i = 0; i < len; i++)
            open ^= line[i] == '"';
        if (!open)
            return 1;
    }
    if (rc < 0)
        return rc;
    if (open)
        return pr_error_set(c->err, PR_ETRUNC, c->name, c->line, 0,
                            "the last record is cut short (a quoted cell never closes)");
    return c->rec_n ? 1 : 0;
}

/* Converts the record from GBK (GB18030) when it is not UTF-8. 0, or -1 if it is neither. */
static int to_utf8(lcsv *c)
{
    if (utf8_valid(c->rec, c->rec_n))
        return 0;
    if (c->gbk == (iconv_t)0)
        c->gbk = iconv_open("UTF-8", "GB18030");
    if (c->gbk == (iconv_t)-1)
        return -1;
    c->conv = pr_xgrow(c->conv, &c->conv_cap, c->rec_n * 2 + 4, 1);
    char *ip = c->rec, *op = c->conv;
    size_t il = c->rec_n, ol = c->conv_cap;
    iconv(c->gbk, NULL, NULL, NULL, NULL);
    if (iconv(c->gbk, &ip, &il, &op, &ol) == (size_t)-1)
        return -1;
    size_t n = (size_t)(op - c->conv);
    c->rec = pr_xgrow(c->rec, &c->rec_cap, n + 1, 1);
    memcpy(c->rec, c->conv, n);
    c->rec_n = n;
    c->converted++;
    return 0;
}

static int split(lcsv *c)
{
    if (to_utf8(c) < 0)
        return pr_error_set(c->err, PR_EPARSE, c->name, c->line, 0,
                            "text is neither UTF-8 nor GBK (GB18030)");
    c->out = pr_xrealloc(c->out, c->rec_n + 1);
    size_t bad = 0;
    c->nf = pr_lex_split_csv(c->rec, c->rec_n, ',', c->f, LOCUST_MAX_COLS, c->out, &bad);
    if (c->nf < 0)
        return pr_error_set(c->err, PR_EPARSE, c->name, c->line, (long)bad + 1,
                            "malformed quoting in a CSV record");
    if (c->nf > LOCUST_MAX_COLS)
        c->nf = LOCUST_MAX_COLS;
    return 0;
}

static pr_str cell(const lcsv *c, int col)
{
    int i = c->col[col];
    return i >= 0 && i < c->nf ? c->f[i] : (pr_str){"", 0};
}

/* "95%", "99.9%", "99.999" (0.13.3's header), "100%" → "p95", "p99.9", "p99.999", "p100". */
static int pct_header(pr_str h, char *key, size_t cap)
{
    size_t n = h.n && h.p[h.n - 1] == '%' ? h.n - 1 : h.n;
    if (n == 0 || n + 2 > cap)
        return 0;
    int dot = 0;
    for (size_t i = 0; i < n; i++) {
        if (h.p[i] == '.' && !dot && i > 0)
            dot = 1;
        else if (h.p[i] < '0' || h.p[i] > '9')
            return 0;
    }
    if (n == h.n && !dot) /* a bare integer is a percentile only with '%' */
        return 0;
    key[0] = 'p';
    memcpy(key + 1, h.p, n);
    key[n + 1] = 0;
    return 1;
}

static int kind_of(const pr_str *f, int nf)
{
    if (nf < 2)
        return -1;
    if (pr_str_eq(f[0], "Timestamp") || (nf > 2 && pr_str_eq(f[2], "Timestamp")))
        return K_HISTORY;
    if (pr_str_eq(f[0], "Type") && pr_str_eq(f[1], "Name"))
        return K_STATS;
    if (pr_str_eq(f[0], "Method") && pr_str_eq(f[1], "Name") && nf >= 3) {
        if (pr_str_eq(f[2], "Error"))
            return K_FAILURES;
        if (pr_str_eq(f[2], "# requests"))
            return K_REQUESTS;
    }
    if (pr_str_eq(f[0], "Count") && pr_str_eq(f[1], "Message"))
        return K_EXCEPTIONS;
    if (pr_str_eq(f[0], "Name") && pr_str_eq(f[1], "# requests"))
        return K_DISTRIBUTION;
    return -1;
}

static void header(lcsv *c)
{
    c->nhead = c->nf;
    for (int k = 0; k < NCOLS; k++) {
        c->col[k] = -1;
        for (int i = 0; i < c->nf && c->col[k] < 0; i++)
            for (int a = 0; a < 4 && col_alias[k][a]; a++)
                if (pr_str_eq(c->f[i], col_alias[k][a]))
                    c->col[k] = i;
    }
    c->npct = 0;
    for (int i = 0; i < c->nf; i++)
        if (pct_header(c->f[i], c->pct_key[c->npct], sizeof c->pct_key[0]))
            c->pct_col[c->npct++] = i;
}

static int bad_number(lcsv *c, int col, const char *what)
{
    long at = 1;
    for (int i = 0; i < col && i < c->nf; i++)
        at += (long)c->f[i].n + 1;
    pr_str v = c->col[col] >= 0 ? cell(c, col) : (pr_str){"", 0};
    return pr_error_set(c->err, PR_EPARSE, c->name, c->line, at, "expected %s, found '%.*s'", what,
                        (int)(v.n > 40 ? 40 : v.n), v.p);
}

/* o[key] = ms text → ns; "N/A" and empty cells are left out. 0, or -1 if not a number. */
static int put_ms(json_t *o, const char *key, pr_str v)
{
    v = pr_str_trim(v);
    if (v.n == 0 || pr_str_eq(v, "N/A"))
        return 0;
    int64_t ns;
    if (pr_lex_decimal_ns(v.p, v.n, 6, &ns) < 0)
        return -1;
    pr_textsum_int(o, key, ns);
    return 0;
}

static int put_count(json_t *o, const char *key, pr_str v, int64_t *out)
{
    v = pr_str_trim(v);
    int64_t n;
    if (v.n == 0 || pr_lex_i64(v.p, v.n, &n) < 0 || n < 0)
        return -1;
    pr_textsum_int(o, key, n);
    if (out)
        *out = n;
    return 0;
}

static int put_real(json_t *o, const char *key, pr_str v)
{
    v = pr_str_trim(v);
    double d;
    if (v.n == 0 || pr_str_eq(v, "N/A"))
        return 0;
    if (pr_lex_double(v.p, v.n, &d) < 0)
        return -1;
    pr_textsum_real(o, key, d);
    return 0;
}

/* The latency object of one stats/requests/history row: min, mean, max, the median column and
 * the header's own percentile columns. */
static int row_latency(lcsv *c, json_t *lat)
{
    static const struct {
        int col;
        const char *key;
    } ms[] = {{C_MIN, "min"}, {C_AVG, "mean"}, {C_MAX, "max"}, {C_MEDIAN, "median"}};
    for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++)
        if (c->col[ms[i].col] >= 0 && put_ms(lat, ms[i].key, cell(c, ms[i].col)) < 0)
            return bad_number(c, ms[i].col, "a response time in ms");
    for (int i = 0; i < c->npct; i++) {
        pr_str v = c->pct_col[i] < c->nf ? c->f[c->pct_col[i]] : (pr_str){"", 0};
        if (put_ms(lat, c->pct_key[i], v) < 0)
            return pr_error_set(c->err, PR_EPARSE, c->name, c->line, 0,
                                "expected a response time in ms in column %s, found '%.*s'",
                                c->pct_key[i] + 1, (int)(v.n > 40 ? 40 : v.n), v.p);
    }
    if (!c->npct && json_object_get(lat, "median")) /* ≤ 0.13 requests: no percentile columns */
        json_object_set(lat, "p50", json_object_get(lat, "median"));
    return 0;
}

/* Locust keys entries by (method, name); our label is "METHOD name". */
static json_t *label_text(lcsv *c)
{
    pr_str t = pr_str_trim(cell(c, C_TYPE)), n = cell(c, C_NAME);
    char buf[2048];
    size_t k = 0;
    if (t.n && !pr_str_eq(t, "None")) {
        k = t.n < 256 ? t.n : 256;
        memcpy(buf, t.p, k);
        buf[k++] = ' ';
    }
    size_t m = n.n < sizeof buf - k ? n.n : sizeof buf - k;
    memcpy(buf + k, n.p, m);
    return pr_textsum_string(buf, k + m);
}

static int is_total(lcsv *c)
{
    pr_str n = cell(c, C_NAME);
    return pr_str_eq(n, "Aggregated") || pr_str_eq(n, "Total") || pr_str_eq(n, "None Total");
}

static int stats_row(lcsv *c)
{
    json_t *o = json_object();
    int64_t req = 0, fails = 0;
    int rc = 0;
    if (put_count(o, "requests", cell(c, C_COUNT), &req) < 0)
        rc = bad_number(c, C_COUNT, "a request count");
    else if (c->col[C_FAILS] >= 0 && put_count(o, "failures", cell(c, C_FAILS), &fails) < 0)
        rc = bad_number(c, C_FAILS, "a failure count");
    else if (put_real(o, "rate_per_s", cell(c, C_RPS)) < 0)
        rc = bad_number(c, C_RPS, "requests per second");
    else if (put_real(o, "failures_per_s", cell(c, C_FPS)) < 0)
        rc = bad_number(c, C_FPS, "failures per second");
    else if (put_real(o, "avg_content_size", cell(c, C_SIZE)) < 0)
        rc = bad_number(c, C_SIZE, "a content size");
    json_t *lat = json_object();
    json_object_set_new(o, c->kind == K_DISTRIBUTION ? "distribution_ns" : "latency_ns", lat);
    if (rc == 0)
        rc = row_latency(c, lat);
    if (rc < 0) {
        json_decref(o);
        return rc;
    }
    if (c->col[C_FAILS] >= 0) {
        pr_textsum_int(o, "successes", req - fails);
        if (req)
            pr_textsum_real(o, "success_ratio", (double)(req - fails) / (double)req);
    }
    json_t *size = json_object_get(o, "avg_content_size");
    if (size) /* Locust's average is total bytes / requests: the total comes back exactly */
        pr_textsum_int(o, "bytes_in_total",
                       pr_textsum_round(json_number_value(size) * (double)req));
    if (is_total(c)) {
        c->totals = 1;
        json_t *tool = json_object_get(o, "avg_content_size")
                           ? json_pack("{s:O}", "Average Content Size", size)
                           : json_object();
        json_object_del(o, "avg_content_size");
        json_object_set_new(o, "tool", tool);
        json_object_update(c->summary, o);
        json_decref(o);
        return 0;
    }
    json_object_set_new(o, "label", label_text(c));
    pr_textsum_append(c->labels, o);
    return 0;
}

static int history_row(lcsv *c)
{
    c->hist_rows++;
    if (!is_total(c)) { /* --csv-full-history: one row per entry per second */
        c->hist_label_rows++;
        return 0;
    }
    json_t *p = json_object();
    int64_t ts, t_ns, users;
    pr_str t = pr_str_trim(cell(c, C_TIME)), u = pr_str_trim(cell(c, C_USERS));
    int rc = 0;
    if (pr_lex_i64(t.p, t.n, &ts) < 0 || pr_time_from_epoch(ts, 1000000000LL, &t_ns) < 0)
        rc = bad_number(c, C_TIME, "a Unix timestamp in seconds (years 1678..2261)");
    else if (c->col[C_USERS] >= 0 && (pr_lex_i64(u.p, u.n, &users) < 0 || users < 0))
        rc = bad_number(c, C_USERS, "a user count");
    if (rc == 0) {
        pr_textsum_int(p, "t_ns", t_ns);
        if (c->col[C_USERS] >= 0)
            pr_textsum_int(p, "users", users);
        if (put_count(p, "requests_total", cell(c, C_COUNT), NULL) < 0)
            rc = bad_number(c, C_COUNT, "a request count");
        else if (put_count(p, "failures_total", cell(c, C_FAILS), NULL) < 0)
            rc = bad_number(c, C_FAILS, "a failure count");
        else if (put_real(p, "current_rps", cell(c, C_RPS)) < 0)
            rc = bad_number(c, C_RPS, "requests per second");
        else if (put_real(p, "current_fail_per_s", cell(c, C_FPS)) < 0)
            rc = bad_number(c, C_FPS, "failures per second");
    }
    json_t *lat = json_object();
    json_object_set_new(p, "latency_ns", lat);
    if (rc == 0)
        rc = row_latency(c, lat);
    if (rc < 0) {
        json_decref(p);
        return rc;
    }
    pr_textsum_append(c->series, p);
    return 0;
}

static int failures_row(lcsv *c)
{
    json_t *e = json_object();
    if (put_count(e, "count", cell(c, C_OCCUR), NULL) < 0) {
        json_decref(e);
        return bad_number(c, C_OCCUR, "an occurrence count");
    }
    /* as Locust's own error report prints it: "GET /path: message" */
    pr_str t = pr_str_trim(cell(c, C_TYPE)), n = cell(c, C_NAME), m = cell(c, C_ERROR);
    char buf[4096];
    int k = snprintf(buf, sizeof buf, "%.*s%s%.*s: %.*s", (int)(t.n > 256 ? 256 : t.n), t.p,
                     t.n ? " " : "", (int)(n.n > 1024 ? 1024 : n.n), n.p,
                     (int)(m.n > 2048 ? 2048 : m.n), m.p);
    json_object_set_new(
        e, "message", pr_textsum_string(buf, (size_t)k < sizeof buf ? (size_t)k : sizeof buf - 1));
    json_object_set_new(e, "label", label_text(c));
    pr_textsum_append(c->errors, e);
    return 0;
}

static int exceptions_row(lcsv *c)
{
    json_t *e = json_object();
    if (put_count(e, "count", cell(c, C_COUNT), NULL) < 0) {
        json_decref(e);
        return bad_number(c, C_COUNT, "an exception count");
    }
    pr_str m = cell(c, C_MESSAGE), t = cell(c, C_TRACE), n = cell(c, C_NODES);
    pr_textsum_str(e, "message", m.p, m.n);
    pr_textsum_str(e, "traceback", t.p, t.n);
    pr_textsum_str(e, "nodes", n.p, n.n);
    pr_textsum_append(c->exceptions, e);
    return 0;
}

static int (*const rows[NKINDS])(lcsv *) = {stats_row,      history_row, failures_row,
                                            exceptions_row, stats_row,   stats_row};

static int sniff(const unsigned char *buf, size_t len)
{
    pr_str l;
    pr_sniff_line(buf, len, &l);
    if (l.n < 10 || l.n > 4096)
        return 0;
    pr_str f[LOCUST_MAX_COLS + 1];
    char out[4096];
    size_t bad;
    int nf = pr_lex_split_csv(l.p, l.n, ',', f, LOCUST_MAX_COLS, out, &bad);
    if (nf < 4)
        return 0;
    return kind_of(f, nf) >= 0 ? 98 : 0; /* above the JMeter CSV sniffer's 95 for a header */
}

static void finish(lcsv *c, pr_run *run)
{
    json_t *s = pr_textsum_begin(run);
    json_t *m = json_object();
    json_object_set_new(m, "file", json_string(kind_names[c->kind]));
    if (c->kind == K_HISTORY) {
        pr_textsum_int(m, "history_rows", c->hist_rows);
        pr_textsum_int(m, "history_entry_rows", c->hist_label_rows);
    }
    if (c->converted)
        pr_textsum_int(m, "gbk_records", c->converted);
    pr_run_meta_set(run, c->kind == K_STATS || c->kind == K_REQUESTS ? "locust" : "locust_extra",
                    m);
    if (json_array_size(c->labels))
        json_object_set(c->summary, c->kind == K_DISTRIBUTION ? "labels_distribution" : "labels",
                        c->labels);
    if (c->kind == K_HISTORY)
        json_object_set(c->summary, "series", c->series);
    if (c->kind == K_FAILURES)
        json_object_set(c->summary, "errors", c->errors);
    if (c->kind == K_EXCEPTIONS)
        json_object_set(c->summary, "exceptions", c->exceptions);
    if (c->kind == K_DISTRIBUTION) { /* its total row holds percentiles only */
        json_t *d = json_object_get(c->summary, "distribution_ns");
        if (d)
            json_object_set(c->summary, "latency_distribution_ns", d);
        json_object_del(c->summary, "distribution_ns");
        json_object_del(c->summary, "requests");
        json_object_del(c->summary, "tool");
    }
    json_object_update(s, c->summary);
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    lcsv *c = pr_xcalloc(1, sizeof *c);
    c->in = in;
    c->sink = sink;
    c->err = err;
    c->name = pr_input_name(in);
    c->summary = json_object();
    c->labels = json_array();
    c->series = json_array();
    c->errors = json_array();
    c->exceptions = json_array();
    int rc = read_record(c);
    if (rc == 0)
        rc = pr_error_set(err, PR_EFORMAT, c->name, 1, 1, "empty input: expected a Locust CSV");
    if (rc > 0 && (rc = split(c)) == 0) {
        c->kind = kind_of(c->f, c->nf);
        if (c->kind < 0)
            rc = pr_error_set(err, PR_EFORMAT, c->name, 1, 1,
                              "expected a Locust CSV header (stats, stats_history, failures, "
                              "exceptions, requests or distribution)");
        else
            header(c);
    }
    while (rc >= 0 && (rc = read_record(c)) > 0) {
        if (c->rec_n == 0)
            continue;
        if ((rc = split(c)) < 0)
            break;
        if (c->short_line) { /* a short row before this one: not the file's end */
            rc = pr_error_set(err, PR_EFORMAT, c->name, c->short_line, 0,
                              "expected %d fields as the header has, found %d", c->nhead,
                              c->short_nf);
            break;
        }
        if (c->nf < c->nhead) { /* kept aside: a file cut short ends with one */
            c->short_line = c->line;
            c->short_nf = c->nf;
            continue;
        }
        if ((rc = rows[c->kind](c)) < 0)
            break;
    }
    if (rc >= 0 || rc == PR_ETRUNC) {
        finish(c, sink->run);
        if (c->short_line)
            pr_sink_warn(sink, c->name, c->short_line, 0,
                         "the last row has %d of the header's %d fields: the file is cut short; "
                         "that row is left out",
                         c->short_nf, c->nhead);
        if (c->kind == K_STATS && !c->totals)
            pr_sink_warn(sink, c->name, 0, 0,
                         "no 'Aggregated' row (Locust writes it last): the file is cut short or "
                         "edited; the run's totals are unknown, %zu endpoint row(s) kept",
                         json_array_size(c->labels));
        if (c->converted)
            pr_sink_warn(sink, c->name, 0, 0,
                         "%d record(s) were not UTF-8: read as GBK (GB18030) and converted",
                         c->converted);
    }
    if (c->gbk && c->gbk != (iconv_t)-1)
        iconv_close(c->gbk);
    json_decref(c->summary);
    json_decref(c->labels);
    json_decref(c->series);
    json_decref(c->errors);
    json_decref(c->exceptions);
    free(c->rec);
    free(c->out);
    free(c->conv);
    free(c);
    return rc > 0 ? 0 : rc;
}

const pr_parser pr_parser_locust = {
    "locust", "locust",
    "Locust --csv files (_stats, _stats_history, _failures, _exceptions; <=0.13 _requests, "
    "_distribution): summary-only",
    sniff, parse};
