/* The parser contract: a registry entry with a content sniffer and a streaming parse.
 * Adding a format = one new file in parsers/ plus one line in parsers/registry.c. */
#ifndef PR_PARSER_H
#define PR_PARSER_H
#include <stddef.h>
#include <stdint.h>
#include "model/error.h"
#include "model/input.h"
#include "model/sink.h"

enum pr_subresults {
    PR_SUB_EXCLUDE = 0, /* default: sub-results/transactions do not double count */
    PR_SUB_INCLUDE,     /* keep every row */
    PR_SUB_ONLY         /* keep only sub-results (and plain samples) */
};

typedef struct pr_parse_opts {
    const char *jtl_columns;     /* --jtl-columns a,b,c: column set of a header-less JTL */
    const char *jtl_time_format; /* --jtl-time-format: SimpleDateFormat pattern */
    const char *tz;              /* --tz: zone of stamps that carry none (e.g. "+02:00", "UTC") */
    int jtl_timestamp_end;       /* --jtl-timestamp end: stamps mark the sample's end */
    int split_runs;              /* --split-runs */
    int keep_gaps;               /* --no-split-runs: a JTL's sessions far apart stay one run */
    int recover;                 /* --recover: keep what can be read from damaged XML */
    int subresults;              /* enum pr_subresults */
    int64_t max_samples;         /* --max-samples: what a counting reader may emit; 0 = rule */
} pr_parse_opts;

/* Readers whose records are counts (HdrHistogram's .hgrm and .hlog) expand: a few bytes can ask
 * for millions of samples. Such a reader emits at most pr_expand_limit() samples once it has
 * read `bytes` of its input: PR_EXPAND_BASE plus PR_EXPAND_PER_BYTE per byte, or
 * opts->max_samples when set; beyond, the input is refused (PR_EPARSE) at the record that
 * asked for more (docs/security.md). */
#define PR_EXPAND_BASE 10000000LL
#define PR_EXPAND_PER_BYTE 1000LL
static inline int64_t pr_expand_limit(const pr_parse_opts *opts, int64_t bytes)
{
    if (opts->max_samples > 0)
        return opts->max_samples;
    if (bytes > (INT64_MAX - PR_EXPAND_BASE) / PR_EXPAND_PER_BYTE)
        return INT64_MAX;
    return PR_EXPAND_BASE + PR_EXPAND_PER_BYTE * (bytes > 0 ? bytes : 0);
}
/* Where that limit comes from, for the reader's error message. */
static inline const char *pr_expand_rule(const pr_parse_opts *opts)
{
    return opts->max_samples > 0 ? "set by --max-samples"
                                 : "10000000 + 1000 a byte read; --max-samples N allows more";
}

typedef struct pr_parser {
    const char *name;    /* --format name, e.g. "vegeta-gob" */
    const char *tool;    /* producing tool, e.g. "vegeta" */
    const char *summary; /* one line for `perfreport formats` */
    /* Confidence 0..100 that the input starting with buf[0..len) is this format.
     * len may be short (small files). Pure function: no side effects. */
    int (*sniff)(const unsigned char *buf, size_t len);
    /* Streams `in` into `sink` (sink->run is prefilled with name/source; the parser sets
     * format/tool and whatever metadata the file carries, and for summary-only inputs sets
     * run->summary_only and run->summary). Everything it adds to the run belongs to the run;
     * `in`, `sink` and `opts` stay the caller's. Returns 0, or a negative code with err
     * filled (file, line:col or byte offset, what was expected):
     *   PR_EFORMAT  the input is not this format (nothing usable was emitted);
     *   PR_EPARSE   malformed input at err's place: the input is rejected (ingest stores
     *               none of it);
     *   PR_ETRUNC   the input ends early: the samples emitted so far are valid, err says where;
     *   PR_EUSAGE   an option does not fit the input (--tz, --jtl-time-format, --jtl-columns);
     *   PR_EIO      reading the input failed;
     * or whatever the sink's consumer returned (a store error, PR_ESTORE), passed through. */
    int (*parse)(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err);
} pr_parser;

/* The registry (parsers/registry.c). NULL-terminated. */
extern const pr_parser *const pr_parsers[];

/* The parser of that --format name, or NULL. */
const pr_parser *pr_parser_find(const char *name);
/* Best parser for the first bytes of an input, or NULL if none is confident (score < 20). */
const pr_parser *pr_parser_sniff(const unsigned char *buf, size_t len, int *score);

#endif
