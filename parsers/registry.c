/* The parser registry: one table, one entry per format. */
#include "parsers/parser.h"
#include <string.h>

extern const pr_parser pr_parser_native;
extern const pr_parser pr_parser_vegeta_gob;
extern const pr_parser pr_parser_vegeta_json;
extern const pr_parser pr_parser_vegeta_csv;
extern const pr_parser pr_parser_vegeta_text;
extern const pr_parser pr_parser_vegeta_report_json;
extern const pr_parser pr_parser_vegeta_hist;
extern const pr_parser pr_parser_ab_tsv, pr_parser_ab_text, pr_parser_ab_csv;
extern const pr_parser pr_parser_hey_csv, pr_parser_hey_text, pr_parser_wrk_text;
extern const pr_parser pr_parser_siege_text, pr_parser_siege_json, pr_parser_httperf_text;
extern const pr_parser pr_parser_jmeter_csv;
extern const pr_parser pr_parser_jmeter_xml;
extern const pr_parser pr_parser_k6_json, pr_parser_k6_summary, pr_parser_k6_csv;
extern const pr_parser pr_parser_hdr_hgrm, pr_parser_hdr_hlog;
extern const pr_parser pr_parser_gatling, pr_parser_gatling_bin, pr_parser_locust;
extern const pr_parser pr_parser_artillery, pr_parser_autocannon;

const pr_parser *const pr_parsers[] = {&pr_parser_native,
                                       &pr_parser_vegeta_gob,
                                       &pr_parser_vegeta_json,
                                       &pr_parser_vegeta_csv,
                                       &pr_parser_vegeta_text,
                                       &pr_parser_vegeta_report_json,
                                       &pr_parser_vegeta_hist,
                                       &pr_parser_ab_tsv,
                                       &pr_parser_ab_text,
                                       &pr_parser_ab_csv,
                                       &pr_parser_hey_csv,
                                       &pr_parser_hey_text,
                                       &pr_parser_wrk_text,
                                       &pr_parser_siege_text,
                                       &pr_parser_siege_json,
                                       &pr_parser_httperf_text,
                                       &pr_parser_jmeter_csv,
                                       &pr_parser_jmeter_xml,
                                       &pr_parser_k6_json,
                                       &pr_parser_k6_summary,
                                       &pr_parser_k6_csv,
                                       &pr_parser_hdr_hgrm,
                                       &pr_parser_hdr_hlog,
                                       &pr_parser_gatling,
                                       &pr_parser_gatling_bin,
                                       &pr_parser_locust,
                                       &pr_parser_artillery,
                                       &pr_parser_autocannon,
                                       NULL};

const pr_parser *pr_parser_find(const char *name)
{
    for (size_t i = 0; pr_parsers[i]; i++)
        if (strcmp(pr_parsers[i]->name, name) == 0)
            return pr_parsers[i];
    return NULL;
}

const pr_parser *pr_parser_sniff(const unsigned char *buf, size_t len, int *score)
{
    const pr_parser *best = NULL;
    int best_score = 0;
    for (size_t i = 0; pr_parsers[i]; i++) {
        int s = pr_parsers[i]->sniff(buf, len);
        if (s > best_score) {
            best_score = s;
            best = pr_parsers[i];
        }
    }
    if (score)
        *score = best_score;
    return best_score >= 20 ? best : NULL;
}
