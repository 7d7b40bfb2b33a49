/* Readers of siege's summary, the classic text (stderr) and the -j JSON object, as
 * summary-only runs. */
#include "parsers/parser.h"
#include "parsers/textsum.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* siege's summary fields: text label, JSON key. */
enum {
    F_TRANS,
    F_AVAIL,
    F_ELAPSED,
    F_DATA,
    F_RESP,
    F_RATE,
    F_THRU,
    F_CONC,
    F_OK,
    F_FAIL,
    F_LONG,
    F_SHORT,
    NF
};
static const struct {
    const char *label, *key;
} fields[NF] = {
    {"Transactions", "transactions"},
    {"Availability", "availability"},
    {"Elapsed time", "elapsed_time"},
    {"Data transferred", "data_transferred"},
    {"Response time", "response_time"},
    {"Transaction rate", "transaction_rate"},
    {"Throughput", "throughput"},
    {"Concurrency", "concurrency"},
    {"Successful transactions", "successful_transactions"},
    {"Failed transactions", "failed_transactions"},
    {"Longest transaction", "longest_transaction"},
    {"Shortest transaction", "shortest_transaction"},
};

static int sniff_text(const unsigned char *buf, size_t len)
{
    int banner = memmem(buf, len, "** SIEGE ", 9) != NULL;
    int t = memmem(buf, len, "Transactions:", 13) != NULL;
    int a = memmem(buf, len, "Availability:", 13) != NULL;
    if (banner && (t || a))
        return 95;
    if (t && a)
        return 80;
    return banner ? 40 : 0;
}

static int sniff_json(const unsigned char *buf, size_t len)
{
    const unsigned char *b = memchr(buf, '{', len);
    if (!b)
        return 0;
    /* only blanks (or siege's banner, when stderr was merged) may precede the object */
    int banner = memmem(buf, (size_t)(b - buf), "** SIEGE", 8) != NULL;
    for (const unsigned char *p = buf; p < b && !banner; p++)
        if (*p != ' ' && *p != '\n' && *p != '\r' && *p != '\t')
            return 0;
    size_t n = len - (size_t)(b - buf);
    if (memmem(b, n, "\"transactions\"", 14) && memmem(b, n, "\"availability\"", 14))
        return 90;
    return 0;
}

/* Fills the summary from the collected fields (NAN = not printed). */
static void finish(pr_run *run, const double *v, int64_t users)
{
    json_t *sum = pr_textsum_begin(run);
    json_t *tool = pr_textsum_obj(sum, "tool");
    for (int i = 0; i < NF; i++) {
        if ((i == F_TRANS || i == F_OK || i == F_FAIL) && v[i] == floor(v[i]))
            pr_textsum_int(tool, fields[i].label, pr_textsum_round(v[i]));
        else
            pr_textsum_real(tool, fields[i].label, v[i]);
    }
    if (!isnan(v[F_TRANS]) && !isnan(v[F_FAIL]))
        pr_textsum_int(sum, "requests", pr_textsum_round(v[F_TRANS] + v[F_FAIL]));
    if (!isnan(v[F_OK]))
        pr_textsum_int(sum, "successes", pr_textsum_round(v[F_OK]));
    if (!isnan(v[F_FAIL]))
        pr_textsum_int(sum, "failures", pr_textsum_round(v[F_FAIL]));
    if (!isnan(v[F_ELAPSED]))
        pr_textsum_int(sum, "duration_ns", pr_textsum_ns(v[F_ELAPSED], 1e9));
    if (!isnan(v[F_RATE]))
        pr_textsum_real(sum, "rate_per_s", v[F_RATE]);
    json_t *lat = NULL;
    if (!isnan(v[F_RESP]) || !isnan(v[F_LONG]) || !isnan(v[F_SHORT]))
        lat = pr_textsum_obj(sum, "latency_ns");
    if (!isnan(v[F_RESP]))
        pr_textsum_int(lat, "mean", pr_textsum_ns(v[F_RESP], 1e9));
    if (!isnan(v[F_LONG]))
        pr_textsum_int(lat, "max", pr_textsum_ns(v[F_LONG], 1e9));
    if (!isnan(v[F_SHORT]))
        pr_textsum_int(lat, "min", pr_textsum_ns(v[F_SHORT], 1e9));
    if (users != PR_UNKNOWN) {
        pr_textsum_int(sum, "concurrency", users);
        if (users > 0 && users <= INT32_MAX)
            run->concurrency = (int32_t)users;
    }
    run->load_model = PR_LOAD_CLOSED;
    pr_run_meta_resolution(run, "latency_resolution_ns", 10000000);
    pr_textsum_note(run, "siege: times are seconds with 2 decimals, data in MB; requests = "
                         "Transactions + Failed transactions (siege's availability "
                         "denominator); 'Concurrency' is the average achieved, kept under tool");
}

static int parse_text(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    pr_run *run = sink->run;
    pr_run_set_format(run, "siege-text", "siege");
    double v[NF];
    for (int i = 0; i < NF; i++)
        v[i] = NAN;
    int64_t users = PR_UNKNOWN;
    int seen = 0;
    const char *line;
    size_t len;
    int rc;
    while ((rc = pr_input_getline(in, &line, &len, err)) > 0) {
        pr_str t = pr_str_trim(pr_textsum_line(line, len)), label, value, rest;
        if (pr_str_starts(t, "** SIEGE ")) {
            pr_str ver = {t.p + 9, t.n - 9};
            ver = pr_str_trim(ver);
            if (ver.n && ver.n < 32) {
                free(run->tool_version);
                run->tool_version = pr_xstrndup(ver.p, ver.n);
            }
            continue;
        }
        if (pr_str_starts(t, "** Preparing ")) {
            pr_str r = {t.p + 13, t.n - 13};
            int64_t n;
            if (pr_textsum_i64(r, &n, &rest) == 0 && pr_str_starts(rest, "concurrent users"))
                users = n;
            continue;
        }
        if (pr_textsum_kv(t, &label, &value) < 0)
            continue;
        for (int i = 0; i < NF; i++) {
            double d;
            if (pr_str_eq(label, fields[i].label) && pr_textsum_num(value, &d, &rest) == 0) {
                v[i] = d;
                seen++;
            }
        }
    }
    if (rc < 0)
        return rc;
    if (!seen)
        return pr_error_set(err, PR_EFORMAT, pr_input_name(in), 1, 1,
                            "not a siege summary: expected 'Transactions:'");
    finish(run, v, users);
    if (isnan(v[F_SHORT]))
        return pr_error_set(err, PR_ETRUNC, pr_input_name(in), pr_input_lineno(in), 0,
                            "input ends before 'Shortest transaction:'");
    return 0;
}

#define JSON_MAX (1u << 20)

static int parse_json(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    pr_run *run = sink->run;
    const char *name = pr_input_name(in);
    pr_run_set_format(run, "siege-json", "siege");
    char *buf = pr_xmalloc(JSON_MAX + 1);
    long n = pr_input_read(in, buf, JSON_MAX, err);
    if (n < 0) {
        free(buf);
        return PR_EIO;
    }
    char extra;
    if (n == JSON_MAX && pr_input_read(in, &extra, 1, err) == 1) {
        free(buf);
        return pr_error_set(err, PR_EPARSE, name, 0, 0, "siege JSON larger than 1 MiB");
    }
    char *brace = memchr(buf, '{', (size_t)n);
    json_error_t je;
    json_t *root = brace ? json_loadb(brace, (size_t)(buf + n - brace),
                                      JSON_DISABLE_EOF_CHECK | JSON_REJECT_DUPLICATES, &je)
                         : NULL;
    free(buf);
    if (!json_is_object(root)) {
        json_decref(root);
        return pr_error_set(err, brace ? PR_EPARSE : PR_EFORMAT, name, brace ? je.line : 1,
                            brace ? je.column : 1, "expected siege's JSON summary object%s%s",
                            brace ? ": " : "", brace ? je.text : "");
    }
    double v[NF];
    int seen = 0;
    for (int i = 0; i < NF; i++) {
        json_t *x = json_object_get(root, fields[i].key);
        v[i] = json_is_number(x) ? json_number_value(x) : NAN;
        seen += json_is_number(x);
    }
    json_decref(root);
    if (!seen)
        return pr_error_set(err, PR_EFORMAT, name, 1, 1,
                            "not siege's JSON summary: no 'transactions' key");
    finish(run, v, PR_UNKNOWN);
    return 0;
}

const pr_parser pr_parser_siege_text = {"siege-text", "siege", "siege printed summary (summary)",
                                        sniff_text, parse_text};
const pr_parser pr_parser_siege_json = {"siege-json", "siege", "siege -j JSON summary (summary)",
                                        sniff_json, parse_json};
