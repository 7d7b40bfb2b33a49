/* Vegeta's report metrics (its definitions, exact percentiles) and its text/JSON layouts. */
#include "analysis/vegeta_stats.h"
#include "analysis/cellsort.h"
#include "analysis/vals.h"
#include "model/buf.h"
#include "model/lex.h"
#include "model/xalloc.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Go's int64 arithmetic wraps; so does ours (through unsigned, without undefined behaviour). */
static inline int64_t wrap_add(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

static inline int64_t wrap_sub(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a - (uint64_t)b);
}

int64_t pr_vegeta_percentile(const int64_t *sorted, size_t n, double q)
{
    if (n == 0)
        return 0;
    double r = ceil(q / 100.0 * (double)n);
    size_t rank = r < 1 ? 1 : (size_t)r;
    if (rank > n)
        rank = n;
    return sorted[rank - 1];
}

/* Go's Duration.Seconds(). */
static double go_seconds(int64_t d)
{
    int64_t sec = d / 1000000000LL, nsec = d % 1000000000LL;
    return (double)sec + (double)nsec / 1e9;
}

/* Status codes compare as their decimal strings. */
static int cmp_code_str(const void *a, const void *b)
{
    char x[12], y[12];
    snprintf(x, sizeof x, "%u", ((const pr_vegeta_code_count *)a)->code);
    snprintf(y, sizeof y, "%u", ((const pr_vegeta_code_count *)b)->code);
    return strcmp(x, y);
}

typedef struct err_first {
    uint32_t error;
    int64_t first_ns;
    size_t first_i;
    uint64_t count;
} err_first;

static int cmp_err_first(const void *a, const void *b)
{
    const err_first *x = a, *y = b;
    /* unknown starts (PR_UNKNOWN = INT64_MIN) sort first, consistently */
    if (x->first_ns != y->first_ns)
        return x->first_ns < y->first_ns ? -1 : 1;
    return (x->first_i > y->first_i) - (x->first_i < y->first_i);
}

struct pr_vegeta_stats_acc {
    pr_vegeta_stats out;
    const pr_run *run;
    uint64_t *codes; /* per status code */
    uint32_t nstr;
    err_first *errs; /* per string id of the run */
    int have_min;
    size_t seen;     /* samples so far: the error set's tie-break */
    pr_cellsort lat; /* exact mode: every latency (its cell unused), 6 bytes each when many */
    pr_vals hist;    /* bounded mode */
};

pr_vegeta_stats_acc *pr_vegeta_stats_new(const pr_run *run, size_t expected, int bounded)
{
    pr_vegeta_stats_acc *a = pr_xcalloc(1, sizeof *a);
    pr_vegeta_stats *out = &a->out;
    out->earliest_ns = out->latest_ns = out->end_ns = PR_UNKNOWN;
    json_t *tz = run && run->meta ? json_object_get(run->meta, "tz_offset_min") : NULL;
    out->tz_offset_min = json_is_integer(tz) ? (int)json_integer_value(tz) : 0;
    out->bounded = bounded;
    a->run = run;
    a->codes = pr_xcalloc(65536, sizeof *a->codes);
    a->nstr = run ? pr_strtab_count(run->strings) : 1;
    a->errs = pr_xcalloc(a->nstr ? a->nstr : 1, sizeof *a->errs);
    if (bounded) {
        pr_vals_init(&a->hist, 1);
    } else {
        pr_cellsort_init(&a->lat, expected);
    }
    return a;
}

void pr_vegeta_stats_add(pr_vegeta_stats_acc *a, const pr_sample *s, size_t n)
{
    pr_vegeta_stats *out = &a->out;
    for (size_t i = 0; i < n; i++, a->seen++) {
        const pr_sample *x = &s[i];
        int64_t l = x->latency_ns == PR_UNKNOWN ? 0 : x->latency_ns;
        if (out->bounded)
            pr_vals_add(&a->hist, l);
        else
            pr_cellsort_add(&a->lat, l, 0);
        out->lat_total_ns = wrap_add(out->lat_total_ns, l);
        if (l > out->lat_max_ns)
            out->lat_max_ns = l;
        /* Vegeta keeps 0 as "no minimum yet": a zero latency never stays the minimum. */
        if (l != 0 && (!a->have_min || l < out->lat_min_ns)) {
            out->lat_min_ns = l;
            a->have_min = 1;
        }
        a->codes[x->status]++;
        if (x->status >= 200 && x->status < 400)
            out->successes++;
        if (x->bytes_in > 0)
            out->bytes_in_total += (uint64_t)x->bytes_in;
        if (x->bytes_out > 0)
            out->bytes_out_total += (uint64_t)x->bytes_out;
        if (x->start_ns != PR_UNKNOWN) {
            if (out->earliest_ns == PR_UNKNOWN || x->start_ns < out->earliest_ns)
                out->earliest_ns = x->start_ns;
            if (out->latest_ns == PR_UNKNOWN || x->start_ns > out->latest_ns)
                out->latest_ns = x->start_ns;
            int64_t end = wrap_add(x->start_ns, l);
            if (out->end_ns == PR_UNKNOWN || end > out->end_ns)
                out->end_ns = end;
        }
        if (x->error != PR_NOSTR && x->error < a->nstr) {
            err_first *e = &a->errs[x->error];
            if (e->count == 0 || cmp_err_first(&(err_first){0, x->start_ns, a->seen, 0}, e) < 0) {
                e->first_ns = x->start_ns;
                e->first_i = a->seen;
            }
            e->error = x->error;
            e->count++;
        }
    }
    out->requests = a->seen;
}

/* pr_vegeta_percentile over a sorted pair set. */
static int64_t sorted_percentile(const pr_cellsort *cs, size_t n, double q)
{
    if (n == 0 || cs->n < n)
        return 0;
    double r = ceil(q / 100.0 * (double)n);
    size_t rank = r < 1 ? 1 : (size_t)r;
    if (rank > n)
        rank = n;
    int64_t v;
    uint32_t cell;
    return pr_cellsort_read(cs, rank - 1, &v, &cell, 1) ? v : 0;
}

/* The four percentiles from the sorted latencies (exact) or the histogram (bounded). */
static void finish_percentiles(pr_vegeta_stats_acc *a)
{
    pr_vegeta_stats *out = &a->out;
    size_t n = (size_t)out->requests;
    if (out->bounded) {
        out->lat_p50_ns = pr_vals_percentile(&a->hist, 50);
        out->lat_p90_ns = pr_vals_percentile(&a->hist, 90);
        out->lat_p95_ns = pr_vals_percentile(&a->hist, 95);
        out->lat_p99_ns = pr_vals_percentile(&a->hist, 99);
        return;
    }
    pr_cellsort_sort(&a->lat);
    out->lat_p50_ns = sorted_percentile(&a->lat, n, 50);
    out->lat_p90_ns = sorted_percentile(&a->lat, n, 90);
    out->lat_p95_ns = sorted_percentile(&a->lat, n, 95);
    out->lat_p99_ns = sorted_percentile(&a->lat, n, 99);
}

void pr_vegeta_stats_finish(pr_vegeta_stats_acc *a, pr_vegeta_stats *result)
{
    pr_vegeta_stats *out = &a->out;
    size_t n = (size_t)out->requests;
    if (out->earliest_ns != PR_UNKNOWN) {
        out->duration_ns = wrap_sub(out->latest_ns, out->earliest_ns);
        out->wait_ns = wrap_sub(out->end_ns, out->latest_ns);
    }
    out->rate_per_s = (double)n;
    out->throughput_per_s = (double)out->successes;
    double secs = go_seconds(out->duration_ns);
    if (secs > 0) {
        out->rate_per_s /= secs;
        out->throughput_per_s /= go_seconds(wrap_add(out->duration_ns, out->wait_ns));
    }
    if (n) {
        out->bytes_in_mean = (double)out->bytes_in_total / (double)n;
        out->bytes_out_mean = (double)out->bytes_out_total / (double)n;
        out->success_ratio = (double)out->successes / (double)n;
        out->lat_mean_ns = (int64_t)((double)out->lat_total_ns / (double)n);
        finish_percentiles(a);
    }
    for (unsigned c = 0; c < 65536; c++)
        if (a->codes[c])
            out->ncodes++;
    out->codes = pr_xcalloc(out->ncodes ? out->ncodes : 1, sizeof *out->codes);
    for (unsigned c = 0, k = 0; c < 65536; c++)
        if (a->codes[c])
            out->codes[k++] = (pr_vegeta_code_count){c, a->codes[c]};
    qsort(out->codes, out->ncodes, sizeof *out->codes, cmp_code_str);
    size_t ne = 0;
    for (uint32_t i = 0; i < a->nstr; i++)
        if (a->errs[i].count)
            a->errs[ne++] = a->errs[i];
    qsort(a->errs, ne, sizeof *a->errs, cmp_err_first);
    out->errors = pr_xcalloc(ne ? ne : 1, sizeof *out->errors);
    for (size_t i = 0; i < ne; i++)
        out->errors[i] = (pr_vegeta_error_count){a->errs[i].error, a->errs[i].count};
    out->nerrors = ne;
    *result = *out;
    free(a->codes);
    free(a->errs);
    pr_cellsort_dispose(&a->lat);
    pr_vals_dispose(&a->hist);
    free(a);
}

void pr_vegeta_stats_compute(pr_vegeta_stats *out, const pr_sample *s, size_t n, const pr_run *run)
{
    pr_vegeta_stats_acc *a = pr_vegeta_stats_new(run, n, 0);
    pr_vegeta_stats_add(a, s, n);
    pr_vegeta_stats_finish(a, out);
}

void pr_vegeta_stats_dispose(pr_vegeta_stats *st)
{
    free(st->codes);
    free(st->errors);
    st->codes = NULL;
    st->errors = NULL;
}

/* ---- Go duration formatting ---- */

static size_t fmt_frac(char *buf, size_t w, uint64_t *v, int prec)
{
    int print = 0;
    for (int i = 0; i < prec; i++) {
        unsigned digit = (unsigned)(*v % 10);
        print = print || digit != 0;
        if (print)
            buf[--w] = (char)('0' + digit);
        *v /= 10;
    }
    if (print)
        buf[--w] = '.';
    return w;
}

static size_t fmt_int(char *buf, size_t w, uint64_t v)
{
    if (v == 0) {
        buf[--w] = '0';
        return w;
    }
    while (v > 0) {
        buf[--w] = (char)('0' + v % 10);
        v /= 10;
    }
    return w;
}

char *pr_vegeta_duration_string(int64_t ns, char *out)
{
    char buf[32];
    size_t w = sizeof buf;
    uint64_t u = (uint64_t)ns;
    int neg = ns < 0;
    if (neg)
        u = -u;
    if (u < 1000000000ull) {
        int prec;
        buf[--w] = 's';
        if (u == 0) {
            strcpy(out, "0s");
            return out;
        } else if (u < 1000ull) {
            prec = 0;
            buf[--w] = 'n';
        } else if (u < 1000000ull) {
            prec = 3;
            buf[--w] = '\xb5';
            buf[--w] = '\xc2';
        } else {
            prec = 6;
            buf[--w] = 'm';
        }
        w = fmt_frac(buf, w, &u, prec);
        w = fmt_int(buf, w, u);
    } else {
        buf[--w] = 's';
        w = fmt_frac(buf, w, &u, 9);
        w = fmt_int(buf, w, u % 60);
        u /= 60;
        if (u > 0) {
            buf[--w] = 'm';
            w = fmt_int(buf, w, u % 60);
            u /= 60;
            if (u > 0) {
                buf[--w] = 'h';
                w = fmt_int(buf, w, u);
            }
        }
    }
    if (neg)
        buf[--w] = '-';
    memcpy(out, buf + w, sizeof buf - w);
    out[sizeof buf - w] = 0;
    return out;
}

/* Go's Duration.Round(m) for m > 0. */
static int64_t go_round(int64_t d, int64_t m)
{
    int64_t r = d % m;
    if (d < 0) {
        r = -r;
        if (r + r < m)
            return d + r;
        int64_t d1 = wrap_add(wrap_sub(d, m), r);
        return d1 < d ? d1 : INT64_MIN;
    }
    if (r + r < m)
        return d - r;
    int64_t d1 = wrap_sub(wrap_add(d, m), r);
    return d1 > d ? d1 : INT64_MAX;
}

int64_t pr_vegeta_round(int64_t ns)
{
    static const int64_t units[] = {3600000000000LL, 60000000000LL, 1000000000LL,
                                    1000000LL,       1000LL,        1LL};
    for (size_t i = 0; i + 1 < sizeof units / sizeof units[0]; i++)
        if (ns >= units[i])
            return go_round(ns, units[i + 1]);
    return ns;
}

/* ---- tabwriter (Go text/tabwriter, left-aligned, padchar ' ') ---- */

typedef struct tw_line {
    pr_str *cells; /* tab-terminated cells, then the trailing text */
    size_t n;
} tw_line;

static size_t rune_count(pr_str s)
{
    size_t k = 0;
    for (size_t i = 0; i < s.n; i++)
        k += ((unsigned char)s.p[i] & 0xC0) != 0x80;
    return k;
}

static void tw_write_lines(pr_buf *b, const tw_line *lines, size_t l0, size_t l1,
                           const size_t *widths, size_t nw)
{
    for (size_t i = l0; i < l1; i++) {
        for (size_t j = 0; j < lines[i].n; j++) {
            pr_str c = lines[i].cells[j];
            pr_buf_append(b, c.p, c.n);
            if (j < nw && j + 1 < lines[i].n)
                for (size_t k = rune_count(c); k < widths[j]; k++)
                    pr_buf_putc(b, ' ');
        }
        pr_buf_putc(b, '\n');
    }
}

static void tw_format(pr_buf *b, const tw_line *lines, size_t l0, size_t l1, size_t *widths,
                      size_t nw)
{
    size_t column = nw;
    for (size_t t = l0; t < l1; t++) {
        if (column + 1 >= lines[t].n)
            continue;
        tw_write_lines(b, lines, l0, t, widths, nw);
        l0 = t;
        size_t width = 0;
        for (; t < l1; t++) {
            if (column + 1 >= lines[t].n)
                break;
            size_t w = rune_count(lines[t].cells[column]) + 2;
            if (w > width)
                width = w;
        }
        widths[nw] = width;
        tw_format(b, lines, l0, t, widths, nw + 1);
        l0 = t;
        t--; /* the loop's t++ revisits line t */
    }
    tw_write_lines(b, lines, l0, l1, widths, nw);
}

/* Aligns text whose lines end in "\n" and whose cells end in "\t". */
static char *tabwrite(const char *text)
{
    size_t nl = 0;
    for (const char *p = text; *p; p++)
        nl += *p == '\n';
    tw_line *lines = pr_xcalloc(nl + 1, sizeof *lines);
    size_t maxcells = 1;
    const char *p = text;
    size_t k = 0;
    while (*p && k < nl) {
        const char *e = strchr(p, '\n');
        size_t nc = 1;
        for (const char *q = p; q < e; q++)
            nc += *q == '\t';
        lines[k].cells = pr_xcalloc(nc, sizeof *lines[k].cells);
        const char *start = p;
        for (const char *q = p; q <= e; q++) {
            if (q == e || *q == '\t') {
                lines[k].cells[lines[k].n++] = (pr_str){start, (size_t)(q - start)};
                start = q + 1;
            }
        }
        if (nc > maxcells)
            maxcells = nc;
        k++;
        p = e + 1;
    }
    size_t *widths = pr_xcalloc(maxcells + 1, sizeof *widths);
    pr_buf b = PR_BUF_INIT;
    tw_format(&b, lines, 0, k, widths, 0);
    for (size_t i = 0; i < k; i++)
        free(lines[i].cells);
    free(lines);
    free(widths);
    return pr_buf_steal(&b);
}

char *pr_vegeta_stats_text(const pr_vegeta_stats *st, const pr_run *run)
{
    char d[7][32];
    pr_buf b = PR_BUF_INIT;
    pr_buf_printf(&b, "Requests\t[total, rate, throughput]\t%llu, %.2f, %.2f\n",
                  (unsigned long long)st->requests, st->rate_per_s, st->throughput_per_s);
    pr_buf_printf(
        &b, "Duration\t[total, attack, wait]\t%s, %s, %s\n",
        pr_vegeta_duration_string(pr_vegeta_round(wrap_add(st->duration_ns, st->wait_ns)), d[0]),
        pr_vegeta_duration_string(pr_vegeta_round(st->duration_ns), d[1]),
        pr_vegeta_duration_string(pr_vegeta_round(st->wait_ns), d[2]));
    const int64_t lat[7] = {st->lat_min_ns, st->lat_mean_ns, st->lat_p50_ns, st->lat_p90_ns,
                            st->lat_p95_ns, st->lat_p99_ns,  st->lat_max_ns};
    char l[7][32];
    for (int i = 0; i < 7; i++)
        pr_vegeta_duration_string(pr_vegeta_round(lat[i]), l[i]);
    pr_buf_printf(&b, "Latencies\t[min, mean, 50, 90, 95, 99, max]\t%s, %s, %s, %s, %s, %s, %s\n",
                  l[0], l[1], l[2], l[3], l[4], l[5], l[6]);
    pr_buf_printf(&b, "Bytes In\t[total, mean]\t%llu, %.2f\n",
                  (unsigned long long)st->bytes_in_total, st->bytes_in_mean);
    pr_buf_printf(&b, "Bytes Out\t[total, mean]\t%llu, %.2f\n",
                  (unsigned long long)st->bytes_out_total, st->bytes_out_mean);
    pr_buf_printf(&b, "Success\t[ratio]\t%.2f%%\n", st->success_ratio * 100);
    pr_buf_puts(&b, "Status Codes\t[code:count]\t");
    for (size_t i = 0; i < st->ncodes; i++)
        pr_buf_printf(&b, "%u:%llu  ", st->codes[i].code, (unsigned long long)st->codes[i].count);
    pr_buf_puts(&b, "\nError Set:\n");
    for (size_t i = 0; i < st->nerrors; i++) {
        pr_buf_puts(&b, run ? pr_run_str(run, st->errors[i].error) : "");
        pr_buf_putc(&b, '\n');
    }
    char *raw = pr_buf_steal(&b);
    char *out = tabwrite(raw);
    free(raw);
    return out;
}

char *pr_vegeta_hist_text(const pr_sample *s, size_t n, const int64_t *bounds_ns, size_t nb)
{
    uint64_t *counts = pr_xcalloc(nb ? nb : 1, sizeof *counts);
    for (size_t k = 0; k < n && nb; k++) {
        int64_t l = s[k].latency_ns == PR_UNKNOWN ? 0 : s[k].latency_ns;
        size_t i = 0;
        for (; i + 1 < nb; i++)
            if (l >= bounds_ns[i] && l < bounds_ns[i + 1])
                break;
        counts[i]++;
    }
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, "Bucket\t\t#\t%\tHistogram\n");
    for (size_t i = 0; i < nb; i++) {
        double ratio = n ? (double)counts[i] / (double)n : NAN;
        char lo[32], hi[32];
        pr_vegeta_duration_string(bounds_ns[i], lo);
        if (i + 1 < nb)
            pr_vegeta_duration_string(bounds_ns[i + 1], hi);
        else
            strcpy(hi, "+Inf");
        pr_buf_printf(&b, "[%s,\t%s]\t%llu\t%.2f%%\t", lo, hi, (unsigned long long)counts[i],
                      ratio * 100);
        int bars = n ? (int)(ratio * 75) : 0;
        for (int k = 0; k < bars; k++)
            pr_buf_putc(&b, '#');
        pr_buf_putc(&b, '\n');
    }
    free(counts);
    char *raw = pr_buf_steal(&b);
    char *out = tabwrite(raw);
    free(raw);
    return out;
}

/* Go's encoding/json float format: shortest round-trip digits, 'f' form unless tiny/huge. */
static void json_float(pr_buf *b, double f)
{
    if (!isfinite(f)) {
        pr_buf_puts(b, "0");
        return;
    }
    char tmp[64];
    int p;
    for (p = 1; p <= 17; p++) {
        snprintf(tmp, sizeof tmp, "%.*e", p - 1, f);
        if (strtod(tmp, NULL) == f)
            break;
    }
    double a = fabs(f);
    if (a != 0 && (a < 1e-6 || a >= 1e21)) {
        size_t n = strlen(tmp); /* Go shortens e-07 to e-7 */
        if (n >= 4 && tmp[n - 4] == 'e' && tmp[n - 3] == '-' && tmp[n - 2] == '0') {
            tmp[n - 2] = tmp[n - 1];
            tmp[n - 1] = 0;
        }
        pr_buf_puts(b, tmp);
        return;
    }
    int exp10 = a == 0 ? 0 : atoi(strchr(tmp, 'e') + 1);
    int decimals = p - 1 - exp10;
    if (decimals < 0)
        decimals = 0;
    pr_buf_printf(b, "%.*f", decimals, f);
}

static void json_str(pr_buf *b, const char *s)
{
    pr_buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            pr_buf_putc(b, '\\');
            pr_buf_putc(b, (char)*p);
        } else if (*p == '\n') {
            pr_buf_puts(b, "\\n");
        } else if (*p == '\r') {
            pr_buf_puts(b, "\\r");
        } else if (*p == '\t') {
            pr_buf_puts(b, "\\t");
        } else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&') {
            pr_buf_printf(b, "\\u%04x", *p);
        } else {
            pr_buf_putc(b, (char)*p);
        }
    }
    pr_buf_putc(b, '"');
}

char *pr_vegeta_stats_json_text(const pr_vegeta_stats *st, const pr_run *run)
{
    pr_buf b = PR_BUF_INIT;
    char t[3][40];
    int64_t times[3] = {st->earliest_ns, st->latest_ns, st->end_ns};
    for (int i = 0; i < 3; i++) {
        if (times[i] == PR_UNKNOWN)
            strcpy(t[i], "0001-01-01T00:00:00Z");
        else
            pr_format_rfc3339(times[i], st->tz_offset_min, t[i]);
    }
    pr_buf_printf(&b,
                  "{\"latencies\":{\"total\":%lld,\"mean\":%lld,\"50th\":%lld,\"90th\":%lld,"
                  "\"95th\":%lld,\"99th\":%lld,\"max\":%lld,\"min\":%lld},",
                  (long long)st->lat_total_ns, (long long)st->lat_mean_ns,
                  (long long)st->lat_p50_ns, (long long)st->lat_p90_ns, (long long)st->lat_p95_ns,
                  (long long)st->lat_p99_ns, (long long)st->lat_max_ns, (long long)st->lat_min_ns);
    pr_buf_printf(&b,
                  "\"bytes_in\":{\"total\":%llu,\"mean\":", (unsigned long long)st->bytes_in_total);
    json_float(&b, st->bytes_in_mean);
    pr_buf_printf(
        &b, "},\"bytes_out\":{\"total\":%llu,\"mean\":", (unsigned long long)st->bytes_out_total);
    json_float(&b, st->bytes_out_mean);
    pr_buf_printf(&b, "},\"earliest\":\"%s\",\"latest\":\"%s\",\"end\":\"%s\",", t[0], t[1], t[2]);
    pr_buf_printf(&b, "\"duration\":%lld,\"wait\":%lld,\"requests\":%llu,\"rate\":",
                  (long long)st->duration_ns, (long long)st->wait_ns,
                  (unsigned long long)st->requests);
    json_float(&b, st->rate_per_s);
    pr_buf_puts(&b, ",\"throughput\":");
    json_float(&b, st->throughput_per_s);
    pr_buf_puts(&b, ",\"success\":");
    json_float(&b, st->success_ratio);
    pr_buf_puts(&b, ",\"status_codes\":{");
    for (size_t i = 0; i < st->ncodes; i++)
        pr_buf_printf(&b, "%s\"%u\":%llu", i ? "," : "", st->codes[i].code,
                      (unsigned long long)st->codes[i].count);
    pr_buf_puts(&b, "},\"errors\":[");
    for (size_t i = 0; i < st->nerrors; i++) {
        if (i)
            pr_buf_putc(&b, ',');
        json_str(&b, run ? pr_run_str(run, st->errors[i].error) : "");
    }
    pr_buf_puts(&b, "]}\n");
    return pr_buf_steal(&b);
}

json_t *pr_vegeta_stats_summary(const pr_vegeta_stats *st, const pr_run *run)
{
    json_t *o = json_object();
    json_object_set_new(o, "requests", json_integer((json_int_t)st->requests));
    json_object_set_new(o, "successes", json_integer((json_int_t)st->successes));
    json_object_set_new(o, "failures", json_integer((json_int_t)(st->requests - st->successes)));
    json_object_set_new(o, "success_ratio", json_real(st->success_ratio));
    json_object_set_new(o, "duration_ns", json_integer(st->duration_ns));
    json_object_set_new(o, "wait_ns", json_integer(st->wait_ns));
    json_object_set_new(o, "rate_per_s", json_real(st->rate_per_s));
    json_object_set_new(o, "throughput_per_s", json_real(st->throughput_per_s));
    json_t *l = json_object();
    json_object_set_new(l, "min", json_integer(st->lat_min_ns));
    json_object_set_new(l, "mean", json_integer(st->lat_mean_ns));
    json_object_set_new(l, "p50", json_integer(st->lat_p50_ns));
    json_object_set_new(l, "p90", json_integer(st->lat_p90_ns));
    json_object_set_new(l, "p95", json_integer(st->lat_p95_ns));
    json_object_set_new(l, "p99", json_integer(st->lat_p99_ns));
    json_object_set_new(l, "max", json_integer(st->lat_max_ns));
    json_object_set_new(o, "latency_ns", l);
    json_object_set_new(o, "bytes_in_total", json_integer((json_int_t)st->bytes_in_total));
    json_object_set_new(o, "bytes_out_total", json_integer((json_int_t)st->bytes_out_total));
    json_t *c = json_object();
    for (size_t i = 0; i < st->ncodes; i++) {
        char k[12];
        snprintf(k, sizeof k, "%u", st->codes[i].code);
        json_object_set_new(c, k, json_integer((json_int_t)st->codes[i].count));
    }
    json_object_set_new(o, "status_codes", c);
    json_t *e = json_array();
    for (size_t i = 0; i < st->nerrors; i++) {
        json_t *x = json_object();
        json_object_set_new(x, "message",
                            json_string(run ? pr_run_str(run, st->errors[i].error) : ""));
        json_object_set_new(x, "count", json_integer((json_int_t)st->errors[i].count));
        json_array_append_new(e, x);
    }
    json_object_set_new(o, "errors", e);
    return o;
}

/* ---- the layouts from a printed summary (summary-only runs) ---------------------------- */

static int64_t sum_int(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : PR_UNKNOWN;
}

static double sum_num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The success ratio a summary prints, or follows from its counts (NaN when neither). */
static double sum_success(const json_t *s)
{
    double r = sum_num(s, "success_ratio");
    int64_t n = sum_int(s, "requests"), ok = sum_int(s, "successes"), bad = sum_int(s, "failures");
    if (isfinite(r) || n == PR_UNKNOWN || n <= 0)
        return r;
    if (ok != PR_UNKNOWN)
        return (double)ok / (double)n;
    return bad != PR_UNKNOWN && bad <= n ? (double)(n - bad) / (double)n : NAN;
}

/* The byte mean Vegeta prints (total / requests), from the tool's own when it printed one. */
static double sum_bytes_mean(const json_t *s, const char *total, const char *mean)
{
    double m = sum_num(json_object_get(s, "tool"), mean);
    int64_t t = sum_int(s, total), n = sum_int(s, "requests");
    if (isfinite(m) || t == PR_UNKNOWN || n == PR_UNKNOWN || n <= 0)
        return m;
    return (double)t / (double)n;
}

static const char *vdur(int64_t ns, char *buf)
{
    return ns == PR_UNKNOWN ? strcpy(buf, "-")
                            : pr_vegeta_duration_string(pr_vegeta_round(ns), buf);
}

static const char *vint(int64_t v, char *buf)
{
    if (v == PR_UNKNOWN)
        return strcpy(buf, "-");
    snprintf(buf, 32, "%lld", (long long)v);
    return buf;
}

static const char *vreal(double v, double scale, const char *suffix, char *buf)
{
    if (!isfinite(v))
        return strcpy(buf, "-");
    snprintf(buf, 32, "%.2f%s", v * scale, suffix);
    return buf;
}

static const char *const lat_keys[7] = {"min", "mean", "p50", "p90", "p95", "p99", "max"};

char *pr_vegeta_summary_text(const pr_run *run)
{
    const json_t *s = run->summary, *lat = json_object_get(s, "latency_ns");
    char a[32], b[32], c[32], l[7][32];
    pr_buf t = PR_BUF_INIT;
    pr_buf_printf(&t, "Requests\t[total, rate, throughput]\t%s, %s, %s\n",
                  vint(sum_int(s, "requests"), a), vreal(sum_num(s, "rate_per_s"), 1, "", b),
                  vreal(sum_num(s, "throughput_per_s"), 1, "", c));
    /* without a printed wait the tool's duration is its whole test: Vegeta's total */
    int64_t d = sum_int(s, "duration_ns"), w = sum_int(s, "wait_ns");
    /* Vegeta rounds its total apart from attack and wait: the total as printed, when it was */
    int64_t total = sum_int(json_object_get(s, "tool"), "duration_total_ns");
    if (total == PR_UNKNOWN && w != PR_UNKNOWN && d != PR_UNKNOWN)
        total = wrap_add(d, w);
    pr_buf_printf(&t, "Duration\t[total, attack, wait]\t%s, %s, %s\n",
                  vdur(w == PR_UNKNOWN ? d : total, a), vdur(w == PR_UNKNOWN ? PR_UNKNOWN : d, b),
                  vdur(w, c));
    for (int i = 0; i < 7; i++)
        vdur(sum_int(lat, lat_keys[i]), l[i]);
    pr_buf_printf(&t, "Latencies\t[min, mean, 50, 90, 95, 99, max]\t%s, %s, %s, %s, %s, %s, %s\n",
                  l[0], l[1], l[2], l[3], l[4], l[5], l[6]);
    pr_buf_printf(&t, "Bytes In\t[total, mean]\t%s, %s\n", vint(sum_int(s, "bytes_in_total"), a),
                  vreal(sum_bytes_mean(s, "bytes_in_total", "bytes_in_mean"), 1, "", b));
    pr_buf_printf(&t, "Bytes Out\t[total, mean]\t%s, %s\n", vint(sum_int(s, "bytes_out_total"), a),
                  vreal(sum_bytes_mean(s, "bytes_out_total", "bytes_out_mean"), 1, "", b));
    pr_buf_printf(&t, "Success\t[ratio]\t%s\n", vreal(sum_success(s), 100, "%", a));
    pr_buf_puts(&t, "Status Codes\t[code:count]\t");
    const json_t *codes = json_object_get(s, "status_codes");
    if (!json_is_object(codes))
        pr_buf_puts(&t, "-");
    const char *k;
    json_t *v;
    union {
        const json_t *c;
        json_t *m;
    } cc = {codes};                  /* jansson's iteration is not const-correct; only read */
    json_object_foreach (cc.m, k, v) /* loaded with sorted keys: Vegeta's string order */
        pr_buf_printf(&t, "%s:%lld  ", k, (long long)json_integer_value(v));
    pr_buf_puts(&t, "\nError Set:\n");
    size_t i;
    json_t *e;
    json_array_foreach (json_object_get(s, "errors"), i, e) {
        const char *m = json_string_value(json_object_get(e, "message"));
        pr_buf_puts(&t, m ? m : "");
        pr_buf_putc(&t, '\n');
    }
    char *raw = pr_buf_steal(&t);
    char *out = tabwrite(raw);
    free(raw);
    return out;
}

static void jnum_or_null(pr_buf *b, double v)
{
    if (isfinite(v))
        json_float(b, v);
    else
        pr_buf_puts(b, "null");
}

static void jint_or_null(pr_buf *b, int64_t v)
{
    if (v == PR_UNKNOWN)
        pr_buf_puts(b, "null");
    else
        pr_buf_printf(b, "%lld", (long long)v);
}

char *pr_vegeta_summary_json_text(const pr_run *run)
{
    const json_t *s = run->summary, *lat = json_object_get(s, "latency_ns");
    const json_t *tool = json_object_get(s, "tool");
    pr_buf b = PR_BUF_INIT;
    static const char *const names[7] = {"min", "mean", "50th", "90th", "95th", "99th", "max"};
    static const int order[7] = {1, 2, 3, 4, 5, 6, 0}; /* Vegeta's key order, min last */
    pr_buf_puts(&b, "{\"latencies\":{\"total\":");
    jint_or_null(&b, sum_int(tool, "latency_total_ns"));
    for (int i = 0; i < 7; i++) {
        pr_buf_printf(&b, ",\"%s\":", names[order[i]]);
        jint_or_null(&b, sum_int(lat, lat_keys[order[i]]));
    }
    static const char *const bytes[2][3] = {{"bytes_in", "bytes_in_total", "bytes_in_mean"},
                                            {"bytes_out", "bytes_out_total", "bytes_out_mean"}};
    for (int i = 0; i < 2; i++) {
        pr_buf_printf(&b, "},\"%s\":{\"total\":", bytes[i][0]);
        jint_or_null(&b, sum_int(s, bytes[i][1]));
        pr_buf_puts(&b, ",\"mean\":");
        jnum_or_null(&b, sum_bytes_mean(s, bytes[i][1], bytes[i][2]));
    }
    pr_buf_putc(&b, '}');
    static const char *const times[] = {"earliest", "latest", "end"};
    for (int i = 0; i < 3; i++) {
        const char *v = json_string_value(json_object_get(tool, times[i]));
        pr_buf_printf(&b, ",\"%s\":", times[i]);
        if (v)
            json_str(&b, v);
        else
            pr_buf_puts(&b, "null");
    }
    static const char *const ints[][2] = {
        {"duration", "duration_ns"}, {"wait", "wait_ns"}, {"requests", "requests"}};
    for (int i = 0; i < 3; i++) {
        pr_buf_printf(&b, ",\"%s\":", ints[i][0]);
        jint_or_null(&b, sum_int(s, ints[i][1]));
    }
    pr_buf_puts(&b, ",\"rate\":");
    jnum_or_null(&b, sum_num(s, "rate_per_s"));
    pr_buf_puts(&b, ",\"throughput\":");
    jnum_or_null(&b, sum_num(s, "throughput_per_s"));
    pr_buf_puts(&b, ",\"success\":");
    jnum_or_null(&b, sum_success(s));
    pr_buf_puts(&b, ",\"status_codes\":");
    const json_t *codes = json_object_get(s, "status_codes");
    if (json_is_object(codes)) {
        pr_buf_putc(&b, '{');
        const char *k;
        json_t *v;
        int first = 1;
        union {
            const json_t *c;
            json_t *m;
        } cc = {codes};
        json_object_foreach (cc.m, k, v) {
            pr_buf_printf(&b, "%s\"%s\":%lld", first ? "" : ",", k,
                          (long long)json_integer_value(v));
            first = 0;
        }
        pr_buf_putc(&b, '}');
    } else {
        pr_buf_puts(&b, "null");
    }
    pr_buf_puts(&b, ",\"errors\":[");
    size_t i;
    json_t *e;
    json_array_foreach (json_object_get(s, "errors"), i, e) {
        const char *m = json_string_value(json_object_get(e, "message"));
        if (i)
            pr_buf_putc(&b, ',');
        json_str(&b, m ? m : "");
    }
    pr_buf_puts(&b, "]}\n");
    return pr_buf_steal(&b);
}
