/* Reader of ApacheBench's -e percentile CSV as a summary-only run (total-time percentiles). */
#include "parsers/ab.h"
#include "parsers/parser.h"
#include "parsers/sniff.h"
#include "parsers/textsum.h"
#include <stdio.h>
#include <string.h>

#define AB_CSV_HEADER "Percentage served,Time in ms"

static int sniff(const unsigned char *buf, size_t len)
{
    return pr_sniff_header(buf, len, AB_CSV_HEADER, 17);
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
    if (rc == 0 || !pr_str_eq(pr_textsum_line(line, len), AB_CSV_HEADER))
        return pr_error_set(err, PR_EFORMAT, name, 1, 1,
                            "expected ab's -e header \"Percentage served,Time in ms\"");
    pr_run_set_format(run, "ab-csv", "ab");
    run->load_model = PR_LOAD_CLOSED;

    double ms[101];
    int rows = 0;
    for (;;) {
        rc = pr_input_getline(in, &line, &len, err);
        if (rc < 0)
            return rc;
        if (rc == 0)
            break;
        long lineno = pr_input_lineno(in);
        pr_str l = pr_textsum_line(line, len);
        if (l.n == 0)
            continue;
        if (rows == 101)
            return pr_error_set(err, PR_EPARSE, name, lineno, 1,
                                "expected 101 rows (0..100), found more");
        pr_str f[3];
        size_t nf = pr_lex_split(l.p, l.n, ',', f, 2);
        int64_t pct;
        double v;
        if (nf != 2)
            return pr_error_set(err, PR_EPARSE, name, lineno, 1,
                                "expected 2 comma-separated fields (percentage, ms), found %zu",
                                nf);
        if (pr_lex_i64(f[0].p, f[0].n, &pct) < 0 || pct != rows)
            return pr_error_set(err, PR_EPARSE, name, lineno, 1, "expected percentage %d", rows);
        if (pr_lex_double(f[1].p, f[1].n, &v) < 0 || v < 0 || v > 9e12)
            return pr_error_set(err, PR_EPARSE, name, lineno, (long)(f[1].p - l.p) + 1,
                                "expected a time in ms");
        if (!pr_input_line_terminated(in))
            return pr_error_set(err, PR_ETRUNC, name, lineno, (long)l.n + 1,
                                "input ends inside row %d", rows);
        ms[rows++] = v;
    }

    json_t *sum = pr_textsum_begin(run);
    json_t *tool = pr_textsum_obj(sum, "tool");
    /* its own table, not the text report's "Percentage served (ms)" (ab's printed rows) */
    json_t *raw = pr_textsum_obj(tool, "Percentage served,Time in ms");
    for (int i = 0; i < rows; i++) {
        char k[16];
        snprintf(k, sizeof k, "%d", i);
        pr_textsum_real(raw, k, ms[i]);
    }
    /* ab reads one past its sample array for the top rows when done <= 50 (ab.md §3): the
     * first row lower than an earlier one (or above the maximum) starts the unreliable tail. */
    int bad_from = rows;
    double runmax = -1;
    for (int i = 0; i < rows && i < 100; i++) {
        if (ms[i] < runmax || (rows == 101 && ms[i] > ms[100])) {
            bad_from = i;
            break;
        }
        runmax = ms[i];
    }
    json_t *lat = pr_textsum_obj(sum, "latency_ns");
    for (int i = 0; i < rows; i++) {
        if (i >= bad_from && i < 100)
            continue;
        char k[16];
        if (i == 0)
            snprintf(k, sizeof k, "min");
        else if (i == 100)
            snprintf(k, sizeof k, "max");
        else
            snprintf(k, sizeof k, "p%d", i);
        pr_textsum_int(lat, k, pr_textsum_ns(ms[i], 1e6));
    }
    if (bad_from < rows && bad_from < 100) {
        json_t *bad = pr_textsum_arr(tool, "unreliable_rows");
        for (int i = bad_from; i < rows && i < 100; i++)
            pr_textsum_append(bad, json_integer(i));
        pr_sink_warn(sink, name, bad_from + 2, 0,
                     "rows %d..99 are not monotonic: ab reads past its samples when a run has "
                     "50 requests or fewer; left out of the percentiles",
                     bad_from);
    }
    pr_run_meta_resolution(run, "latency_resolution_ns", 1000); /* ms, 3 decimals */
    pr_textsum_note(run, "ab -e: total time percentiles, row i = sorted[round(n*i/100)] (ab's "
                         "CSV index rule, not the text table's floor rule)");
    if (rows < 101)
        return pr_error_set(err, PR_ETRUNC, name, pr_input_lineno(in), 0,
                            "expected 101 rows (0..100), found %d", rows);
    return 0;
}

const pr_parser pr_parser_ab_csv = {"ab-csv", "ab", "ApacheBench -e percentile CSV (summary)",
                                    sniff, parse};
