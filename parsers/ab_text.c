/* Reader of ApacheBench's printed report (plain, -w HTML, -v noise, aborted runs) as a
 * summary-only run: every number ab printed, under ab's own labels plus the canonical keys. */
#include "parsers/ab.h"
#include "parsers/parser.h"
#include "parsers/textsum.h"
#include "model/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int contains(const unsigned char *buf, size_t len, const char *lit)
{
    size_t k = strlen(lit);
    if (k > len)
        return 0;
    return memmem(buf, len, lit, k) != NULL;
}

static int sniff(const unsigned char *buf, size_t len)
{
    if (contains(buf, len, "This is ApacheBench, Version "))
        return 95;
    int score = 0;
    if (contains(buf, len, "Server Hostname:"))
        score += 30;
    if (contains(buf, len, "Concurrency Level:"))
        score += 20;
    if (contains(buf, len, "Time taken for tests:"))
        score += 20;
    if (contains(buf, len, "Complete requests:"))
        score += 20;
    return score > 80 ? 80 : score;
}

enum { TBL_NONE = 0, TBL_FULL = 5, TBL_SHORT = 3 };

typedef struct abt {
    pr_run *run;
    pr_sink *sink;
    const char *name;
    json_t *sum, *tool;
    int banner, report, html, html_end, aborted;
    int table;      /* TBL_* while inside "Connection Times (ms)" */
    int table_rows; /* rows read */
    int saw_total_row, in_pct, pct_rows, pct_100;
    int time_per_request; /* how many "Time per request" lines were read */
    int64_t complete, failed;
    int64_t total_of; /* "Total of N requests completed" (an aborted run), -1 if absent */
    long last_line;   /* the last non-blank line and the column after its end */
    long last_col;
    int64_t cat[4];  /* Connect, Receive, Length, Exceptions; PR_UNKNOWN if not printed */
    json_t *warning; /* the WARNING/ERROR being assembled (its continuation follows) */
    char warnbuf[600];
    size_t warnlen;
} abt;

static const char *const cat_names[4] = {"Connect", "Receive", "Length", "Exceptions"};

/* Labels whose values are text even when they look like numbers. */
static int is_text_label(pr_str l)
{
    static const char *const text[] = {"Server Software",  "Server Hostname", "Document Path",
                                       "SSL/TLS Protocol", "Server Temp Key", "TLS Server Name"};
    for (size_t i = 0; i < sizeof text / sizeof text[0]; i++)
        if (pr_str_eq(l, text[i]))
            return 1;
    return 0;
}

static void flush_warning(abt *a)
{
    if (a->warnlen) {
        pr_textsum_append(pr_textsum_arr(a->tool, "warnings"),
                          pr_textsum_string(a->warnbuf, a->warnlen));
        a->warnlen = 0;
    }
}

static void warn_append(abt *a, pr_str s)
{
    if (a->warnlen && a->warnlen < sizeof a->warnbuf - 1)
        a->warnbuf[a->warnlen++] = ' ';
    size_t room = sizeof a->warnbuf - 1 - a->warnlen;
    size_t k = s.n < room ? s.n : room;
    memcpy(a->warnbuf + a->warnlen, s.p, k);
    a->warnlen += k;
}

/* "apr_socket_recv: Connection refused (111)": an ab fatal error line (stderr merged in). */
static int error_line(pr_str s)
{
    if (s.n < 6 || !((s.p[0] >= 'a' && s.p[0] <= 'z') || s.p[0] == '_'))
        return 0;
    size_t i = 0;
    while (i < s.n && s.p[i] != ':') {
        char c = s.p[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '(' || c == ')'))
            return 0;
        i++;
    }
    if (i == s.n || s.p[s.n - 1] != ')')
        return 0;
    const char *open = NULL;
    for (size_t j = s.n; j-- > i;)
        if (s.p[j] == '(') {
            open = s.p + j;
            break;
        }
    int64_t code;
    return open && pr_lex_i64(open + 1, (size_t)(s.p + s.n - 1 - open - 1), &code) == 0;
}

static void add_error(abt *a, pr_str msg, int64_t count)
{
    json_t *e = json_object();
    json_object_set_new(e, "message", pr_textsum_string(msg.p, msg.n));
    if (count != PR_UNKNOWN)
        json_object_set_new(e, "count", json_integer((json_int_t)count));
    pr_textsum_append(pr_textsum_arr(a->sum, "errors"), e);
}

/* "(Connect: 0, Receive: 100, Length: 0, Exceptions: 50)" (Receive absent in -w). */
static void breakdown(abt *a, pr_str s)
{
    json_t *o = pr_textsum_obj(a->tool, "Failed requests breakdown");
    for (int c = 0; c < 4; c++) {
        size_t k = strlen(cat_names[c]);
        for (size_t i = 0; i + k + 1 < s.n; i++) {
            if (memcmp(s.p + i, cat_names[c], k) == 0 && s.p[i + k] == ':') {
                pr_str v = {s.p + i + k + 1, s.n - i - k - 1};
                int64_t n;
                if (pr_textsum_i64(v, &n, NULL) == 0) {
                    a->cat[c] = n;
                    pr_textsum_int(o, cat_names[c], n);
                }
                break;
            }
        }
    }
}

static void set_time_row(abt *a, pr_str label, const int64_t *v, double sd, int full)
{
    char key[16];
    snprintf(key, sizeof key, "%.*s", (int)(label.n < 15 ? label.n : 15), label.p);
    json_t *tbl = pr_textsum_obj(a->tool, "Connection Times (ms)");
    json_t *row = pr_textsum_obj(tbl, key);
    const char *canon = NULL;
    if (strcmp(key, "Connect") == 0)
        canon = "connect_ns";
    else if (strcmp(key, "Waiting") == 0)
        canon = "ttfb_ns";
    else if (strcmp(key, "Total") == 0)
        canon = "latency_ns";
    json_t *c = canon ? pr_textsum_obj(a->sum, canon) : NULL;
    if (full) {
        pr_textsum_int(row, "min", v[0]);
        pr_textsum_int(row, "mean", v[1]);
        pr_textsum_real(row, "sd", sd);
        pr_textsum_int(row, "median", v[2]);
        pr_textsum_int(row, "max", v[3]);
        if (c) {
            pr_textsum_int(c, "min", v[0] * 1000000);
            pr_textsum_int(c, "mean", v[1] * 1000000);
            pr_textsum_int(c, "stdev", pr_textsum_ns(sd, 1e6));
            pr_textsum_int(c, "max", v[3] * 1000000);
        }
    } else {
        pr_textsum_int(row, "min", v[0]);
        pr_textsum_int(row, "avg", v[1]);
        pr_textsum_int(row, "max", v[3]);
        if (c) {
            pr_textsum_int(c, "min", v[0] * 1000000);
            pr_textsum_int(c, "mean", v[1] * 1000000);
            pr_textsum_int(c, "max", v[3] * 1000000);
        }
    }
    a->table_rows++;
    if (strcmp(key, "Total") == 0)
        a->saw_total_row = 1;
}

static int row_label(pr_str l)
{
    return pr_str_eq(l, "Connect") || pr_str_eq(l, "Processing") || pr_str_eq(l, "Waiting") ||
           pr_str_eq(l, "Total");
}

#define MS_OK(x) ((x) >= 0 && (x) < 9000000000000LL)

/* A Connection Times row in ab's text layouts. Returns 1 if handled. */
static int time_row(abt *a, pr_str line, long lineno)
{
    pr_str label, rest;
    if (pr_textsum_kv(line, &label, &rest) < 0 || !row_label(label))
        return 0;
    int64_t v[4] = {PR_UNKNOWN, PR_UNKNOWN, PR_UNKNOWN, PR_UNKNOWN};
    pr_str t[6];
    size_t nt = 0;
    pr_str r = rest;
    while (nt < 6) {
        pr_str tok = pr_textsum_token(&r);
        if (!tok.n)
            break;
        t[nt++] = tok;
    }
    if (a->table == TBL_FULL) {
        double sd;
        if (nt != 5 || pr_lex_i64(t[0].p, t[0].n, &v[0]) || pr_lex_i64(t[1].p, t[1].n, &v[1]) ||
            pr_lex_double(t[2].p, t[2].n, &sd) || pr_lex_i64(t[3].p, t[3].n, &v[2]) ||
            pr_lex_i64(t[4].p, t[4].n, &v[3]) || !MS_OK(v[0]) || !MS_OK(v[1]) || !MS_OK(v[2]) ||
            !MS_OK(v[3])) {
            pr_sink_warn(a->sink, a->name, lineno, 0,
                         "expected 'min mean sd median max' after '%.*s:'", (int)label.n, label.p);
            return 1;
        }
        set_time_row(a, label, v, sd, 1);
        return 1;
    }
    /* -S layout "%5ld %5ld%5ld": avg and max run together once max >= 10000. */
    if (nt == 3 && !pr_lex_i64(t[0].p, t[0].n, &v[0]) && !pr_lex_i64(t[1].p, t[1].n, &v[1]) &&
        !pr_lex_i64(t[2].p, t[2].n, &v[3])) {
    } else if (nt == 2 && line.n >= 24 && (size_t)(rest.p - line.p) <= 12) {
        /* fixed columns: label in 12, min %5ld, ' ', avg %5ld, max %5ld */
        pr_str f0 = {line.p + 12, 5}, f1 = {line.p + 18, 5}, f2 = {line.p + 23, line.n - 23};
        f0 = pr_str_trim(f0);
        f1 = pr_str_trim(f1);
        f2 = pr_str_trim(f2);
        if (line.p[17] != ' ' || pr_lex_i64(f0.p, f0.n, &v[0]) || pr_lex_i64(f1.p, f1.n, &v[1]) ||
            pr_lex_i64(f2.p, f2.n, &v[3]))
            v[0] = PR_UNKNOWN;
    } else {
        v[0] = PR_UNKNOWN;
    }
    if (v[0] == PR_UNKNOWN || !MS_OK(v[0]) || !MS_OK(v[1]) || !MS_OK(v[3])) {
        pr_sink_warn(a->sink, a->name, lineno, 0, "expected 'min avg max' after '%.*s:'",
                     (int)label.n, label.p);
        return 1;
    }
    set_time_row(a, label, v, 0, 0);
    return 1;
}

/* "  50%      1" / " 100%      4 (longest request)". Returns 1 if handled. */
static int pct_row(abt *a, pr_str line)
{
    int64_t p, ms;
    pr_str rest, rest2;
    if (pr_textsum_i64(line, &p, &rest) < 0 || rest.n == 0 || rest.p[0] != '%')
        return 0;
    pr_str r = {rest.p + 1, rest.n - 1};
    if (pr_textsum_i64(r, &ms, &rest2) < 0 || p < 0 || p > 100 || !MS_OK(ms))
        return 0;
    char k[8];
    snprintf(k, sizeof k, "%d", (int)p);
    pr_textsum_int(pr_textsum_obj(a->tool, "Percentage served (ms)"), k, ms);
    json_t *lat = pr_textsum_obj(a->sum, "latency_ns");
    if (p == 100) {
        a->pct_100 = 1;
        if (!json_object_get(lat, "max"))
            pr_textsum_int(lat, "max", ms * 1000000);
    } else {
        snprintf(k, sizeof k, "p%d", (int)p);
        pr_textsum_int(lat, k, ms * 1000000);
    }
    a->pct_rows++;
    return 1;
}

/* One "Label: value" of the report. */
static void key_value(abt *a, pr_str label, pr_str value)
{
    char key[96];
    if (label.n == 0 || label.n >= 80)
        return;
    snprintf(key, sizeof key, "%.*s", (int)label.n, label.p);
    if (pr_str_eq(label, "Time per request")) {
        if (a->time_per_request++ > 0 || memmem(value.p, value.n, "across all", 10))
            snprintf(key, sizeof key, "Time per request (across all concurrent requests)");
    }
    if (is_text_label(label)) {
        pr_textsum_str(a->tool, key, value.p, value.n);
        return;
    }
    double d;
    int64_t i;
    pr_str rest;
    int isint = pr_textsum_i64(value, &i, &rest) == 0 && (rest.n == 0 || rest.p[0] != '.');
    if (isint) {
        pr_textsum_int(a->tool, key, i);
        d = (double)i;
    } else if (pr_textsum_num(value, &d, &rest) == 0) {
        pr_textsum_real(a->tool, key, d);
    } else {
        pr_textsum_str(a->tool, key, value.p, value.n);
        return;
    }
    json_t *s = a->sum;
    if (pr_str_eq(label, "Complete requests") && isint) {
        a->complete = i;
        pr_textsum_int(s, "requests", i);
    } else if (pr_str_eq(label, "Failed requests") && isint) {
        a->failed = i;
    } else if (pr_str_eq(label, "Concurrency Level") && isint) {
        pr_textsum_int(s, "concurrency", i);
        if (i > 0 && i <= INT32_MAX)
            a->run->concurrency = (int32_t)i;
    } else if (pr_str_eq(label, "Time taken for tests")) {
        pr_textsum_int(s, "duration_ns", pr_textsum_ns(d, 1e9));
    } else if (pr_str_eq(label, "Requests per second")) {
        pr_textsum_real(s, "rate_per_s", d);
    } else if (pr_str_eq(label, "Total transferred") && isint) {
        pr_textsum_int(s, "bytes_in_total", i);
    } else if ((pr_str_eq(label, "Total body sent") || pr_str_eq(label, "Total POSTed") ||
                pr_str_eq(label, "Total PUT")) &&
               isint) {
        pr_textsum_int(s, "bytes_out_total", i);
    } else if (pr_str_eq(label, "Transfer rate")) {
        pr_textsum_real(s, "bytes_in_per_s", d * 1024.0);
    } else if (pr_str_eq(label, "Write errors") && isint && i > 0) {
        pr_str m = {"Write errors", 12};
        add_error(a, m, i);
    }
}

/* "                        2397.22 kb/s sent" after Transfer rate. */
static int continuation(abt *a, pr_str line)
{
    double d;
    pr_str rest;
    if (pr_textsum_num(line, &d, &rest) < 0)
        return 0;
    if (pr_str_eq(rest, "kb/s sent"))
        pr_textsum_real(a->tool, "Transfer rate sent (kb/s)", d);
    else if (pr_str_eq(rest, "kb/s total"))
        pr_textsum_real(a->tool, "Transfer rate total (kb/s)", d);
    else
        return 0;
    return 1;
}

/* Cells of one HTML table row (text between tags, &nbsp; removed), at most max. */
static size_t html_cells(pr_str line, char cells[][256], size_t max)
{
    size_t n = 0, i = 0;
    int in_cell = 0;
    size_t len = 0;
    while (i < line.n) {
        char c = line.p[i];
        if (c == '<') {
            const char *close = memchr(line.p + i, '>', line.n - i);
            if (!close)
                break;
            pr_str tag = {line.p + i + 1, (size_t)(close - line.p) - i - 1};
            if (pr_str_starts(tag, "td") || pr_str_starts(tag, "th")) {
                in_cell = 1;
                len = 0;
            } else if (pr_str_starts(tag, "/td") || pr_str_starts(tag, "/th")) {
                if (in_cell && n < max) {
                    pr_str t = {cells[n], len};
                    t = pr_str_trim(t);
                    memmove(cells[n], t.p, t.n);
                    cells[n][t.n] = 0;
                    n++;
                }
                in_cell = 0;
            }
            i = (size_t)(close - line.p) + 1;
            continue;
        }
        if (in_cell && n < max) {
            if (c == '&' && line.n - i >= 6 && memcmp(line.p + i, "&nbsp;", 6) == 0) {
                i += 6;
                continue;
            }
            if (len < 255)
                cells[n][len++] = c;
        }
        i++;
    }
    return n;
}

static void html_row(abt *a, pr_str line, long lineno)
{
    char cells[6][256];
    size_t n = html_cells(line, cells, 6);
    if (n == 0)
        return;
    pr_str c0 = {cells[0], strlen(cells[0])};
    if (n == 1 && pr_str_eq(c0, "Connection Times (ms)")) {
        a->table = TBL_SHORT;
        return;
    }
    if (n == 1 && c0.n && c0.p[0] == '(') {
        breakdown(a, c0);
        return;
    }
    if (n == 2 && c0.n == 0) {
        pr_str c1 = {cells[1], strlen(cells[1])};
        continuation(a, c1);
        return;
    }
    if (n == 2 && c0.n && c0.p[c0.n - 1] == ':') {
        pr_str label = {c0.p, c0.n - 1}, value = {cells[1], strlen(cells[1])};
        if (pr_str_eq(label, "Server Software") || pr_str_eq(label, "Server Hostname"))
            a->report = 1;
        if (a->report)
            key_value(a, pr_str_trim(label), value);
        return;
    }
    if (n == 4 && a->table && c0.n && c0.p[c0.n - 1] == ':') {
        pr_str label = {c0.p, c0.n - 1};
        int64_t v[4] = {PR_UNKNOWN, PR_UNKNOWN, PR_UNKNOWN, PR_UNKNOWN};
        if (!row_label(label) || pr_lex_i64(cells[1], strlen(cells[1]), &v[0]) ||
            pr_lex_i64(cells[2], strlen(cells[2]), &v[1]) ||
            pr_lex_i64(cells[3], strlen(cells[3]), &v[3])) {
            pr_sink_warn(a->sink, a->name, lineno, 0, "unexpected row in the -w time table");
            return;
        }
        /* ab derives -w's Processing row from aggregates (can even be negative) */
        if (!pr_str_eq(label, "Processing") && (!MS_OK(v[0]) || !MS_OK(v[1]) || !MS_OK(v[3])))
            return;
        if (v[0] < -9000000000000LL || v[0] > 9000000000000LL || v[1] < -9000000000000LL ||
            v[1] > 9000000000000LL || v[3] < -9000000000000LL || v[3] > 9000000000000LL)
            return;
        set_time_row(a, label, v, 0, 0);
    }
}

static void benchmarking(abt *a, pr_str l)
{
    /* "Benchmarking HOST (be patient)....done" or "...apr_socket_recv: ... (111)" */
    pr_str rest = {l.p + 13, l.n - 13};
    const char *bp = memmem(rest.p, rest.n, " (be patient)", 13);
    if (bp) {
        pr_textsum_str(a->tool, "Benchmarking", rest.p, (size_t)(bp - rest.p));
        size_t i = (size_t)(bp - l.p) + 13;
        while (i < l.n && l.p[i] == '.')
            i++;
        pr_str tail = {l.p + i, l.n - i};
        if (error_line(tail)) {
            add_error(a, tail, PR_UNKNOWN);
            a->aborted = 1;
        }
    }
}

static void handle_line(abt *a, pr_str l, long lineno)
{
    pr_str t = pr_str_trim(l);
    const char *ver = memmem(l.p, l.n, "This is ApacheBench, Version ", 29);
    if (ver) {
        pr_str v = {ver + 29, l.n - (size_t)(ver + 29 - l.p)};
        pr_str tok = pr_textsum_token(&v);
        if (tok.n && tok.n < 32) {
            free(a->run->tool_version);
            a->run->tool_version = pr_xstrndup(tok.p, tok.n);
        }
        a->banner = 1;
        return;
    }
    if (a->warnlen) {
        /* second line of a WARNING/ERROR pair is indented */
        if (l.n && l.p[0] == ' ' && t.n) {
            warn_append(a, t);
            flush_warning(a);
            return;
        }
        flush_warning(a);
    }
    if (pr_str_starts(t, "<table")) {
        a->html = 1;
        return;
    }
    if (pr_str_starts(t, "</table>")) {
        a->html_end = 1;
        a->table = TBL_NONE;
        return;
    }
    if (pr_str_starts(t, "<tr")) {
        a->html = 1;
        html_row(a, t, lineno);
        return;
    }
    if (pr_str_starts(l, "Benchmarking ")) {
        benchmarking(a, l);
        return;
    }
    int64_t n;
    pr_str rest;
    if (pr_str_starts(t, "Total of ")) {
        pr_str r = {t.p + 9, t.n - 9};
        if (pr_textsum_i64(r, &n, &rest) == 0 && pr_str_eq(rest, "requests completed")) {
            a->aborted = 1;
            a->total_of = n;
            pr_textsum_int(a->tool, "Total of requests completed", n);
            if (!a->report)
                pr_textsum_int(a->sum, "requests", n);
            return;
        }
    }
    if (pr_str_eq(t, "Test aborted after 10 failures")) {
        a->aborted = 1;
        add_error(a, t, PR_UNKNOWN);
        return;
    }
    if (error_line(t)) {
        add_error(a, t, PR_UNKNOWN);
        a->aborted = 1;
        return;
    }
    if (pr_str_eq(t, "Send request failed!") || pr_str_eq(t, "Send request timed out!")) {
        json_t *o = json_object_get(a->tool, t.p[13] == 'f' ? "Send request failed"
                                                            : "Send request timed out");
        json_int_t c = json_is_integer(o) ? json_integer_value(o) : 0;
        json_object_set_new(a->tool,
                            t.p[13] == 'f' ? "Send request failed" : "Send request timed out",
                            json_integer(c + 1));
        return;
    }
    if (!a->report) {
        if (!pr_str_starts(t, "Server Software:") && !pr_str_starts(t, "Server Hostname:"))
            return; /* banner, -v dumps, progress lines */
        a->report = 1;
    }
    if (t.n == 0) {
        a->table = TBL_NONE;
        return;
    }
    if (pr_str_starts(t, "WARNING:") || pr_str_starts(t, "ERROR:")) {
        warn_append(a, t);
        return;
    }
    if (pr_str_eq(t, "Connection Times (ms)")) {
        a->table = TBL_FULL;
        return;
    }
    if (a->table && pr_str_starts(t, "min")) {
        a->table = memmem(t.p, t.n, "median", 6) ? TBL_FULL : TBL_SHORT;
        return;
    }
    if (a->table && time_row(a, l, lineno))
        return;
    if (pr_str_starts(t, "Percentage of the requests served")) {
        a->in_pct = 1;
        return;
    }
    if (a->in_pct && pct_row(a, t))
        return;
    if (t.p[0] == '(' && memmem(t.p, t.n, "Connect:", 8)) {
        breakdown(a, t);
        return;
    }
    if (l.n && l.p[0] == ' ' && continuation(a, t))
        return;
    pr_str label, value;
    if (pr_textsum_kv(l, &label, &value) == 0)
        key_value(a, label, value);
}

/* ab stopped before its report (a refused connection, a reset without -r, an -s timeout):
 * its stdout holds the banner, maybe "Total of N requests completed", and the fatal error
 * only when stderr was pasted in. Nothing was measured: an error, not an empty run. */
static int no_report(const abt *a, pr_error *err)
{
    static const char expected[] = "expected ab's report ('Server Software:' ... 'Complete "
                                   "requests:')";
    json_t *e = json_array_get(json_object_get(a->sum, "errors"), 0);
    const char *why = json_string_value(json_object_get(e, "message"));
    char after[64] = "before completing a request";
    if (a->total_of >= 0)
        snprintf(after, sizeof after, "after %lld requests", (long long)a->total_of);
    if (why)
        return pr_error_set(err, PR_EFORMAT, a->name, a->last_line, a->last_col,
                            "%s, but ab stopped %s with '%s': nothing to ingest", expected, after,
                            why);
    return pr_error_set(err, PR_EFORMAT, a->name, a->last_line, a->last_col,
                        "%s, but ab stopped %s (its stderr says why: %s): nothing to "
                        "ingest",
                        expected, after,
                        a->total_of >= 0 ? "a reset without -r, a timeout with -s, ..."
                                         : "a refused connection, an unknown host, ...");
}

/* Canonical failure count: only when ab's counter is a count of requests (see ab.md §6).
 * Length failures are responses whose length differs from the first one's (normal for a
 * dynamic page): answers, not failed requests; they stay in ab's own counters only. */
static void finish_failures(abt *a)
{
    if (a->failed == PR_UNKNOWN)
        return;
    int nonzero = 0, which = -1;
    for (int c = 0; c < 4; c++) {
        if (c == 2 || a->cat[c] == PR_UNKNOWN || a->cat[c] <= 0)
            continue;
        nonzero++;
        which = c;
        char msg[64];
        int mn = snprintf(msg, sizeof msg, "Failed requests (%s)", cat_names[c]);
        pr_str m = {msg, (size_t)mn};
        add_error(a, m, a->cat[c]);
    }
    int64_t length = a->cat[2] != PR_UNKNOWN && a->cat[2] > 0 ? a->cat[2] : 0;
    if (length > 0)
        pr_textsum_note(a->run, "ab's Length failures (responses whose length differed from the "
                                "first response's) are answers, not failed requests: they are "
                                "kept in ab's counters (tool), out of failures and errors");
    /* ab does not count non-2xx responses as failed (it prints them apart, only when there
     * are some); perfreport does. A request can be both, so the sum is exact only when one
     * of the two is 0. */
    json_t *n2 = json_object_get(a->tool, "Non-2xx responses");
    int64_t non2xx = json_is_integer(n2) ? json_integer_value(n2) : 0;
    if (a->failed == 0 || (nonzero == 0 && a->failed == length)) {
        pr_textsum_int(a->sum, "failures", non2xx);
    } else if (nonzero == 1 && a->failed == a->cat[which] + length &&
               (a->complete == PR_UNKNOWN || a->cat[which] <= a->complete)) {
        if (non2xx == 0)
            pr_textsum_int(a->sum, "failures", a->cat[which]);
        else
            pr_textsum_note(a->run, "ab: some requests failed and some responses were non-2xx; "
                                    "a request can be both, so the failed requests are not "
                                    "known");
    } else {
        pr_textsum_note(a->run, "ab's 'Failed requests' counts failure events, not requests "
                                "(one reset can count as Receive and Exceptions): it is kept "
                                "under tool, not as 'failures'");
    }
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    abt a;
    memset(&a, 0, sizeof a);
    a.run = sink->run;
    a.sink = sink;
    a.name = pr_input_name(in);
    a.complete = a.failed = PR_UNKNOWN;
    for (int c = 0; c < 4; c++)
        a.cat[c] = PR_UNKNOWN;
    pr_run_set_format(a.run, "ab-text", "ab");
    a.run->load_model = PR_LOAD_CLOSED;
    a.sum = pr_textsum_begin(a.run);
    a.tool = pr_textsum_obj(a.sum, "tool");
    const char *line;
    size_t len;
    int rc;
    long lines = 0;
    a.total_of = -1;
    while ((rc = pr_input_getline(in, &line, &len, err)) > 0) {
        lines++;
        pr_str l = pr_textsum_line(line, len);
        handle_line(&a, l, pr_input_lineno(in));
        if (pr_str_trim(l).n) {
            a.last_line = pr_input_lineno(in);
            a.last_col = (long)l.n + 1;
        }
    }
    flush_warning(&a);
    if (rc < 0)
        return rc;
    if (!a.banner && !a.report)
        return pr_error_set(err, PR_EFORMAT, a.name, lines ? 1 : 0, 0,
                            "not ApacheBench output: expected the banner 'This is "
                            "ApacheBench' or a report starting with 'Server Software:'");
    if (!a.report)
        return no_report(&a, err);
    finish_failures(&a);
    if (a.aborted)
        json_object_set_new(a.tool, "aborted", json_true());
    if (a.html)
        pr_textsum_note(a.run, "ab -w: the Processing row is derived from aggregates "
                               "(min/avg/max of total minus those of connect), not from "
                               "requests");
    pr_run_meta_resolution(a.run, "latency_resolution_ns", 1000000);
    pr_textsum_note(a.run, "ab text: times are whole ms; latency_ns p50..p99 come from ab's "
                           "percentage table (index floor(n*p/100) into the requests sorted "
                           "by total time); ttfb_ns is ab's Waiting row (write end to first "
                           "byte)");
    long last = pr_input_lineno(in);
    if (a.report) {
        if (a.html && !a.html_end)
            return pr_error_set(err, PR_ETRUNC, a.name, last, 0,
                                "input ends inside the -w table (no </table>)");
        if (!a.html && a.complete == PR_UNKNOWN)
            return pr_error_set(err, PR_ETRUNC, a.name, last, 0,
                                "input ends before 'Complete requests:'");
        if (!a.html && a.complete > 0 && !a.saw_total_row)
            return pr_error_set(err, PR_ETRUNC, a.name, last, 0,
                                "input ends before the 'Total:' row of Connection Times");
        if (a.in_pct && !a.pct_100)
            return pr_error_set(err, PR_ETRUNC, a.name, last, 0,
                                "input ends inside the percentage table (no 100%% row)");
    }
    return 0;
}

const pr_parser pr_parser_ab_text = {
    "ab-text", "ab", "ApacheBench printed report, plain or -w HTML (summary)", sniff, parse};
