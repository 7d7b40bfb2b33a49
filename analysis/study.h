/* Studies: a set of runs grouped by tags into configurations (the --by tags: two JVMs, cache
 * off and on) and load levels (the --pair tags: rate, duration), as the reports people publish
 * present them: one table per interface with a row per level, every configuration compared with
 * the first at each level (analysis/pairs.c) with a generated conclusion, a capacity curve per
 * configuration (analysis/capacity.c), and the findings of every run merged into
 * recommendations. The document (schema "perfreport-study") is the `study` context of
 * docs/templates.md. */
#ifndef PR_STUDY_H
#define PR_STUDY_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include "analysis/capacity.h"
#include "analysis/compare.h"
#include "analysis/report.h"
#include "model/error.h"
#include "store/store.h"

#define PR_STUDY_SCHEMA_VERSION 1

typedef struct pr_study_opts {
    char *const *by; /* configuration tags (none: one configuration) */
    size_t nby;
    char *const *levels; /* load level tags (at least one) */
    size_t nlevels;
    const char *load;          /* capacity load: "rate", "concurrency", "tag:KEY"; NULL: the
                                 first level tag when every run's value is a number */
    int load_is_rate;          /* a tag load holds an offered rate: 1 yes, 0 no, -1 infer (every
                                 run sent within 10% of it) */
    pr_capacity_opts capacity; /* SLO and error limit (kind and source are set by the study) */
    pr_compare_opts compare;
    pr_report_opts report;
} pr_study_opts;

void pr_study_opts_init(pr_study_opts *o);

/* Builds the study of the runs ids[0..n) (in the order given: the first run's configuration is
 * the baseline). Returns 0 and *out, or a negative code with err set: a store error, no level
 * tag, or a run without one of the level tags (the message names the run). */
int pr_study_build(pr_store *st, const int64_t *ids, size_t n, const pr_study_opts *o, json_t **out,
                   pr_error *err);

/* Adds "sections" (and "has_sections") to a report's metadata object, one per member in
 * order (but title, purpose, system, author, date and thresholds): a table {name, is_table,
 * key_value, columns, rows: [{cells}]} for an object of key → value (key_value: the template
 * names the two columns), an object of objects (a row per member), an array of objects (a row
 * per item, columns in first-seen order) or an array of arrays (the first is the header); a
 * text {name, is_text, text} for a string or an array of scalars. Cells are strings ("-" for
 * null). */
void pr_study_meta_sections(json_t *meta);

#endif
