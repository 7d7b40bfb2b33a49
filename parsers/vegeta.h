/* Shared by the Vegeta parsers (gob, JSON, CSV): one decoded result record and the mapping
 * of records to samples and run metadata, so the three encodings mean exactly the same. */
#ifndef PR_VEGETA_H
#define PR_VEGETA_H
#include <stdint.h>
#include "model/lex.h"
#include "model/sink.h"

#define PR_VEGETA_STR_MAX 16384 /* longest error/URL/method/attack text kept (longer: cut) */

/* One vegeta.Result as decoded; strings are borrowed from the parser's buffer. */
typedef struct pr_vegeta_rec {
    int64_t ts_ns; /* request start, ns since the Unix epoch */
    int has_ts;
    int go_zero;  /* the timestamp was Go's zero time: start unknown */
    int has_zone; /* 0 for CSV, which loses the zone */
    int tz_offset_min;
    int64_t code;
    int64_t latency_ns;
    int64_t bytes_in, bytes_out;
    pr_str attack, error, method, url;
} pr_vegeta_rec;

/* Resets a record to Vegeta's zero values (omitted fields are zero). */
void pr_vegeta_rec_clear(pr_vegeta_rec *r);

typedef struct pr_vegeta_cache {
    char s[512];
    size_t n;
    uint32_t id;
    int valid;
} pr_vegeta_cache;

/* Accumulates run metadata while records are turned into samples. */
typedef struct pr_vegeta_acc {
    pr_sink *sink;
    const char *name;     /* the input, for warnings */
    long long zero_times; /* results with Go's zero time */
    int zone_set;
    int zone_min;
    int mixed_zones;
    int attack_set;
    int mixed_attacks;
    pr_vegeta_cache method, url, error, attack;
    uint32_t label_method, label_url, label_id;
} pr_vegeta_acc;

void pr_vegeta_acc_init(pr_vegeta_acc *a, pr_sink *sink, const char *name);
/* The Unix-ns value Vegeta's CSV holds for Go's zero time (Go's UnixNano wraps around). */
#define PR_VEGETA_CSV_ZERO_NS (-6795364578871345152LL)
/* Emits the sample for one record: start, latency, status, bytes, error, method, URL, label
 * "METHOD URL", success by Vegeta's rule 200 <= code < 400. */
int pr_vegeta_acc_add(pr_vegeta_acc *a, const pr_vegeta_rec *r, pr_error *err);
/* Sets run start/end, the open load model and the attack/zone metadata. */
void pr_vegeta_acc_finish(pr_vegeta_acc *a);

/* 0: the gob reader reads every result field by field, never in one pass (tests compare). */
extern int pr_vegeta_gob_fast;

#endif
