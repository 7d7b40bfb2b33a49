/* Reader of ApacheBench's -g "gnuplot" TSV: one sample per request ab recorded. */
#include "parsers/ab.h"
#include "parsers/parser.h"
#include "parsers/sniff.h"
#include "parsers/textsum.h"
#include "model/lex.h"
#include <stdio.h>
#include <string.h>

/* The exact header ab writes (support/ab.c output_results). */
#define AB_TSV_HEADER "starttime\tseconds\tctime\tdtime\tttime\twait"

static int sniff(const unsigned char *buf, size_t len)
{
    return pr_sniff_header(buf, len, AB_TSV_HEADER, 21);
}

/* Parses a decimal integer from p up to the next tab (or end); sets *end past it.
 * Returns 0, or -1 if the field is empty, not a number or out of range. */
static inline int field_i64(const char *p, const char *lim, int64_t *out, const char **end)
{
    int neg = 0;
    if (p < lim && *p == '-') {
        neg = 1;
        p++;
    }
    const char *st = p;
    uint64_t v = 0;
    while (p < lim) {
        unsigned d = (unsigned)(unsigned char)*p - '0';
        if (d > 9)
            break;
        if (v > 922337203685477580ULL) /* would exceed INT64_MAX / 10 */
            return -1;
        v = v * 10 + d;
        p++;
    }
    if (p == st || (p < lim && *p != '\t') || v > (uint64_t)INT64_MAX)
        return -1;
    *out = neg ? -(int64_t)v : (int64_t)v;
    *end = p;
    return 0;
}

static const char *const field_names[] = {"starttime", "seconds", "ctime",
                                          "dtime",     "ttime",   "wait"};

/* "Mon Nov 30 15:09:36 2026" (apr_ctime, local time) → seconds as if it were UTC. */
static int parse_ctime(const char *s, size_t n, int64_t *out)
{
    static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    if (n != 24 || s[3] != ' ' || s[7] != ' ' || s[10] != ' ' || s[13] != ':' || s[16] != ':' ||
        s[19] != ' ')
        return -1;
    int m = -1;
    for (int i = 0; i < 12; i++)
        if (memcmp(months + 3 * i, s + 4, 3) == 0)
            m = i + 1;
    int64_t d, hh, mi, ss, y;
    pr_str ds = {s + 8, 2};
    ds = pr_str_trim(ds);
    if (m < 0 || pr_lex_i64(ds.p, ds.n, &d) || pr_lex_i64(s + 11, 2, &hh) ||
        pr_lex_i64(s + 14, 2, &mi) || pr_lex_i64(s + 17, 2, &ss) || pr_lex_i64(s + 20, 4, &y))
        return -1;
    if (d < 1 || d > 31 || hh > 23 || mi > 59 || ss > 60 || y < 0)
        return -1;
    *out = pr_days_from_civil(y, (unsigned)m, (unsigned)d) * 86400 + hh * 3600 + mi * 60 + ss;
    return 0;
}

#define MS_MAX 9000000000000LL /* largest ms value that fits in int64 ns */

/* The five numeric fields of a row (after the start time, up to its first tab) into v; an
 * error names the field or the field count. */
static int row_fields(const char *line, size_t len, const char *tab, int64_t *v, const char *name,
                      long lineno, pr_error *err)
{
    const char *lim = line + len, *p = tab + 1;
    for (int f = 0; f < 5; f++) {
        const char *end;
        if (field_i64(p, lim, &v[f], &end) < 0) {
            size_t nf = 1;
            for (const char *q = line; q < lim; q++)
                nf += *q == '\t';
            if (nf != 6)
                return pr_error_set(err, PR_EPARSE, name, lineno, (long)(p - line) + 1,
                                    "expected 6 tab-separated fields (starttime, seconds, "
                                    "ctime, dtime, ttime, wait), found %zu",
                                    nf);
            return pr_error_set(err, PR_EPARSE, name, lineno, (long)(p - line) + 1,
                                "field '%s': expected an integer", field_names[f + 1]);
        }
        p = end;
        if (f < 4) {
            if (p >= lim)
                return pr_error_set(err, PR_EPARSE, name, lineno, (long)(p - line) + 1,
                                    "expected 6 tab-separated fields (starttime, seconds, "
                                    "ctime, dtime, ttime, wait), found %d",
                                    f + 2);
            p++; /* the tab */
        }
    }
    if (p != lim)
        return pr_error_set(err, PR_EPARSE, name, lineno, (long)(p - line) + 1,
                            "expected 6 tab-separated fields, found more");
    return 0;
}

/* The interned "ab.dtime=N" attribute, cached in ids[] for the common small values. */
static uint32_t dtime_attr(pr_run *run, int64_t dt, uint32_t ids[64])
{
    if (dt < 64 && ids[dt])
        return ids[dt];
    char a[48];
    int an = snprintf(a, sizeof a, PR_AB_DTIME_ATTR "%lld", (long long)dt);
    uint32_t id = pr_run_intern(run, a, (size_t)an);
    if (dt < 64)
        ids[dt] = id;
    return id;
}

/* What ab -g files are: their clocks, what they lack, how the rows are ordered. */
static void finish(pr_run *run, unsigned long long mismatched)
{
    pr_run_meta_set(run, "time_resolution_ns", json_integer(1000000000));
    pr_run_meta_resolution(run, "latency_resolution_ns", 1000000);
    pr_run_meta_set(run, "status_known", json_false());
    /* no outcome per row, whole-second starts: ab's printed counters and times win */
    json_t *lossy = json_array();
    json_array_append_new(lossy, json_string("outcomes"));
    json_array_append_new(lossy, json_string("timing"));
    pr_run_meta_set(run, "lossy", lossy);
    pr_run_meta_set(run, "row_order", json_string("total time (ab sorts before writing)"));
    pr_run_meta_set(run, "ab_dtime_mismatches", json_integer((json_int_t)mismatched));
    pr_textsum_note(run, "ab -g: start times have 1 s resolution; connect, wait and total "
                         "are whole milliseconds (ab rounds half up)");
    pr_textsum_note(run, "ab -g has no status code and no success flag: samples carry "
                         "status 0 and success unknown; failed requests (ab's Failed "
                         "requests) are among the rows and cannot be told apart");
    pr_textsum_note(run, "ttfb is ab's 'wait' (end of request write to first response byte), "
                         "connect is ab's 'ctime' (0 for keep-alive reuse)");
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    pr_run *run = sink->run;
    const char *name = pr_input_name(in);
    const char *line;
    size_t len;
    int rc = pr_input_getline(in, &line, &len, err);
    if (rc < 0)
        return rc;
    pr_str head = pr_textsum_line(line, rc > 0 ? len : 0);
    if (rc == 0 || !pr_str_eq(head, AB_TSV_HEADER))
        return pr_error_set(err, PR_EFORMAT, name, 1, 1,
                            "expected ab's -g header \"starttime<TAB>seconds<TAB>ctime<TAB>"
                            "dtime<TAB>ttime<TAB>wait\"");
    pr_run_set_format(run, "ab-gnuplot", "ab");
    run->load_model = PR_LOAD_CLOSED;

    int have_zone = 0;
    unsigned long long mismatched = 0;
    pr_sample s;
    pr_sample_init(&s);
    s.status = 0;
    s.success = PR_SUCCESS_UNKNOWN;
    /* Cache of interned "ab.dtime=N" attributes for the common small values. */
    uint32_t dtime_ids[64];
    memset(dtime_ids, 0, sizeof dtime_ids);

    for (;;) {
        rc = pr_input_getline(in, &line, &len, err);
        if (rc < 0)
            goto out;
        if (rc == 0)
            break;
        long lineno = pr_input_lineno(in);
        if (len && line[len - 1] == '\r')
            len--;
        if (len == 0)
            continue;
        if (!pr_input_line_terminated(in)) {
            rc = pr_error_set(err, PR_ETRUNC, name, lineno, (long)len + 1,
                              "input ends inside a row (no newline after the last row)");
            goto out;
        }
        const char *tab = memchr(line, '\t', len);
        if (!tab) {
            rc = pr_error_set(err, PR_EPARSE, name, lineno, 1,
                              "expected 6 tab-separated fields (starttime, seconds, ctime, "
                              "dtime, ttime, wait), found 1");
            goto out;
        }
        int64_t v[5];
        if ((rc = row_fields(line, len, tab, v, name, lineno, err)) < 0)
            goto out;
        int64_t sec = v[0], ct = v[1], dt = v[2], tt = v[3], wt = v[4];
        if (pr_time_from_epoch(sec, 1000000000LL, &s.start_ns) < 0 || ct < 0 || ct > MS_MAX ||
            dt < 0 || dt > MS_MAX || tt < 0 || tt > MS_MAX || wt < 0 || wt > MS_MAX) {
            rc = pr_error_set(err, PR_EPARSE, name, lineno, 1,
                              "value out of range (seconds must be an epoch second of the years "
                              "1678..2261, times non-negative milliseconds)");
            goto out;
        }
        if (!have_zone) {
            int64_t local;
            if (parse_ctime(line, (size_t)(tab - line), &local) == 0) {
                int64_t off_min = (local - sec) / 60;
                if (off_min >= -24 * 60 && off_min <= 24 * 60)
                    pr_run_meta_set(run, "utc_offset_min", json_integer(off_min));
            }
            have_zone = 1;
        }
        s.connect_ns = ct * 1000000LL;
        s.ttfb_ns = wt * 1000000LL;
        s.latency_ns = tt * 1000000LL;
        s.attrs = PR_NOSTR;
        if (dt != tt - ct) {
            /* ab rounds dtime on its own; keep it so ab's Processing row can be rebuilt. */
            mismatched++;
            s.attrs = dtime_attr(run, dt, dtime_ids);
        }
        rc = pr_sink_emit(sink, &s, err);
        if (rc < 0)
            goto out;
    }
    rc = 0;
out:
    finish(run, mismatched);
    return rc;
}

const pr_parser pr_parser_ab_tsv = {"ab-gnuplot", "ab",
                                    "ApacheBench -g TSV (per-request, whole ms)", sniff, parse};
