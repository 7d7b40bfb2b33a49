/* Reader of HdrHistogram percentile distributions (.hgrm: outputPercentileDistribution,
 * wrk2's "Detailed Percentile spectrum", hdr_percentiles, perfreport's export --format hgrm)
 * as a histogram-backed run: each row's count step becomes that many samples at the row's
 * value, so every percentile the file lists is reproduced exactly. Values are read as ms (the
 * unit of wrk2, perfreport and HdrHistogram's default 1000.0 scaling of µs). */
#include "parsers/parser.h"
#include "parsers/sniff.h"
#include "parsers/textsum.h"
#include <stdio.h>
#include <ctype.h>
#include <string.h>

static int sniff(const unsigned char *buf, size_t len)
{
    pr_str w = {(const char *)buf, len};
    if (!pr_sniff_has(w, "Percentile") || !pr_sniff_has(w, "TotalCount") ||
        !pr_sniff_has(w, "1/(1-Percentile)"))
        return 0;
    /* wrk2 prints its spectrum inside its report: the distribution is the richer part */
    return pr_sniff_has(w, "Detailed Percentile spectrum") ? 97 : 90;
}

/* A distribution row: value, percentile, total count[, 1/(1-p)]. */
static int row(pr_str l, int64_t *ns, int64_t *count)
{
    pr_str t = l, v = pr_textsum_token(&t), p = pr_textsum_token(&t), c = pr_textsum_token(&t);
    double pct;
    if (!c.n || pr_lex_decimal_ns(v.p, v.n, 6, ns) < 0 || pr_lex_double(p.p, p.n, &pct) < 0 ||
        pr_lex_i64(c.p, c.n, count) < 0 || *ns < 0 || *count < 0 || pct < 0 || pct > 1)
        return -1;
    return 0;
}

/* The number after "=" in s, up to a ',' or ']'; *rest gets what follows. */
static int eq_num(pr_str s, double *v, pr_str *rest)
{
    const char *eq = memchr(s.p, '=', s.n);
    if (!eq)
        return -1;
    pr_str t = {eq + 1, s.n - (size_t)(eq + 1 - s.p)};
    const char *end = t.p;
    while (end < t.p + t.n && *end != ',' && *end != ']')
        end++;
    pr_str num = pr_str_trim((pr_str){t.p, (size_t)(end - t.p)});
    *rest = (pr_str){end, (size_t)(t.p + t.n - end)};
    return pr_lex_double(num.p, num.n, v);
}

/* "#[Mean    =        1.296, StdDeviation   =        0.400]" → the two numbers. */
static int footer(pr_str l, const char *a, const char *b, double *x, double *y)
{
    pr_str rest;
    if (!pr_str_starts(l, "#[") || !pr_str_starts((pr_str){l.p + 2, l.n - 2}, a) ||
        eq_num(l, x, &rest) < 0 || !pr_sniff_has(rest, b))
        return -1;
    return eq_num(rest, y, &rest);
}

/* wrk2's "  99.900%   12.30ms" lines (its own percentiles) into lat (ns, keys "p99.9"). */
static void wrk2_pct(pr_str l, json_t *lat)
{
    pr_str t = l, p = pr_textsum_token(&t), v = pr_textsum_token(&t);
    double pct;
    int64_t ns;
    if (p.n < 2 || p.p[p.n - 1] != '%' || pr_textsum_token(&t).n ||
        pr_lex_double(p.p, p.n - 1, &pct) < 0 || pr_lex_duration(v.p, v.n, 0, &ns) < 0)
        return;
    char key[32];
    snprintf(key, sizeof key, "p%.3f", pct);
    char *e = key + strlen(key) - 1; /* "p99.900" -> "p99.9", "p50.000" -> "p50" */
    while (*e == '0')
        *e-- = 0;
    if (*e == '.')
        *e = 0;
    pr_textsum_int(lat, key, ns);
}

/* A "#[...]" footer line into tool/lat; returns 1 for the last one (Buckets). */
static int footer_line(pr_sink *sink, const char *name, long ln, pr_str l, int64_t total,
                       json_t *tool, json_t *lat)
{
    double x, y;
    if (footer(l, "Mean", "StdDeviation", &x, &y) == 0) {
        pr_textsum_real(tool, "mean_ms", x);
        pr_textsum_real(tool, "stdev_ms", y);
        pr_textsum_int(lat, "mean", pr_textsum_ns(x, 1e6));
        pr_textsum_int(lat, "stdev", pr_textsum_ns(y, 1e6));
    } else if (footer(l, "Max", "Total count", &x, &y) == 0) {
        pr_textsum_real(tool, "max_ms", x);
        pr_textsum_int(lat, "max", pr_textsum_ns(x, 1e6));
        pr_textsum_int(tool, "total_count", pr_textsum_round(y));
        if (pr_textsum_round(y) != total)
            pr_sink_warn(sink, name, ln, 1,
                         "the footer's total count (%.0f) differs from the "
                         "last row's (%lld)",
                         y, (long long)total);
    } else if (footer(l, "Buckets", "SubBuckets", &x, &y) == 0) {
        pr_textsum_int(tool, "buckets", pr_textsum_round(x));
        pr_textsum_int(tool, "sub_buckets", pr_textsum_round(y));
        return 1;
    }
    return 0;
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    pr_run *run = sink->run;
    const char *name = pr_input_name(in);
    pr_run_set_format(run, "hdr-hgrm", "hdrhistogram");
    const char *line;
    size_t len;
    int rc, in_rows = 0, blocks = 0;
    int64_t prev = 0, total = 0;
    json_t *tool = json_object(), *lat = json_object();
    pr_sample s;
    pr_sample_init(&s);
    s.success = PR_SUCCESS_UNKNOWN;
    while ((rc = pr_input_getline(in, &line, &len, err)) > 0) {
        pr_str l = pr_str_trim(pr_textsum_line(line, len));
        long ln = pr_input_lineno(in);
        if (pr_str_starts(l, "Value") && pr_sniff_has(l, "Percentile")) {
            if (blocks++) {
                pr_sink_warn(sink, name, ln, 1, "a second distribution: only the first is read");
                break;
            }
            in_rows = 1;
            continue;
        }
        if (!in_rows && l.n)
            wrk2_pct(l, lat);
        if (!in_rows || l.n == 0)
            continue;
        if (l.p[0] == '#') {
            if (footer_line(sink, name, ln, l, total, tool, lat))
                in_rows = 2; /* the distribution is complete */
            continue;
        }
        int negative =
            l.p[0] == '-' && l.n > 1 && (isdigit((unsigned char)l.p[1]) || l.p[1] == '.');
        if (in_rows == 2 || (l.p[0] == '-' && !negative))
            break;      /* the text after the distribution (wrk2's "----" and report) */
        if (negative) { /* a row, not the end of the rows: it was read as the end, silently */
            pr_str t = l, v = pr_textsum_token(&t);
            rc = pr_error_set(err, PR_EPARSE, name, ln, (long)(l.p - line) + 1,
                              "expected a non-negative value (ms) in a distribution row, found "
                              "\"%.*s\"",
                              (int)(v.n > 40 ? 40 : v.n), v.p);
            break;
        }
        int64_t ns, count;
        if (row(l, &ns, &count) < 0) {
            rc =
                pr_error_set(err, pr_input_line_terminated(in) ? PR_EPARSE : PR_ETRUNC, name, ln, 1,
                             "expected a distribution row \"value percentile total-count "
                             "[1/(1-percentile)]\"");
            break;
        }
        long long limit = pr_expand_limit(opts, pr_input_offset(in));
        if (count < prev || count > limit) {
            if (count < prev)
                rc = pr_error_set(err, PR_EPARSE, name, ln, 1,
                                  "total count goes down (%lld after %lld)", (long long)count,
                                  (long long)prev);
            else
                rc = pr_error_set(err, PR_EPARSE, name, ln, 1,
                                  "total count %lld; expected at most %lld samples after %lld "
                                  "bytes (%s)",
                                  (long long)count, limit, pr_input_offset(in),
                                  pr_expand_rule(opts));
            break;
        }
        s.latency_ns = ns;
        for (int64_t k = prev; k < count && rc >= 0; k++)
            rc = pr_sink_emit(sink, &s, err);
        if (rc < 0)
            break;
        prev = total = count;
    }
    if (rc >= 0 && !blocks)
        rc = pr_error_set(err, PR_EFORMAT, name, 0, 0,
                          "no HdrHistogram distribution (\"Value "
                          "Percentile TotalCount 1/(1-Percentile)\" header) found");
    json_decref(run->summary);
    run->summary = json_pack("{s:{s:o}}", "tool", "hgrm", tool);
    if (json_object_size(lat))
        json_object_set(run->summary, "latency_ns", lat);
    if (total)
        pr_textsum_int(run->summary, "requests", total);
    json_decref(lat);
    if (rc >= 0 && json_object_get(tool, "mean_ms")) {
        static const char note[] = "samples sit at the rows' values: percentiles at the rows are "
                                   "exact, the mean and stdev of the samples are upper bounds "
                                   "(the file's own are kept in the run summary)";
        pr_textsum_note(run, note);
    }
    pr_run_meta_set(run, "histogram", json_string("hgrm"));
    pr_run_meta_set(run, "value_unit", json_string("ms (assumed)"));
    pr_run_meta_set(run, "status_known", json_false());
    return rc < 0 ? rc : 0;
}

const pr_parser pr_parser_hdr_hgrm = {
    "hdr-hgrm", "hdrhistogram", "HdrHistogram percentile distribution (.hgrm, wrk2 --latency)",
    sniff, parse};
