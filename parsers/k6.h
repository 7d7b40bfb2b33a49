/* Shared by the k6 readers (--out json, --out csv): the built-in metric names, the joining of
 * the points of one HTTP request into one sample, tag mapping, and the per-second series of
 * every other metric (vus, iterations, checks, custom metrics) kept in run meta.
 *
 * How k6 maps onto the model (docs/k6.md): one sample per HTTP request, whose points
 * (http_reqs, http_req_duration, _blocked, _connecting, _tls_handshaking, _sending, _waiting,
 * _receiving[, http_req_failed]) share one time (the request's end, Trail.EndTime) and one tag
 * set. latency_ns = http_req_duration (k6's: sending + waiting + receiving, no connection
 * time), connect_ns = connecting + tls_handshaking, ttfb_ns = sending + waiting, start_ns =
 * time - duration. Label = the `name` tag. */
#ifndef PR_K6_H
#define PR_K6_H
#include <jansson.h>
#include <stdint.h>
#include "model/lex.h"
#include "model/sink.h"

/* Requests whose points are still being collected, at most (older ones are emitted with what
 * they have when more are open: points of one request more than this many requests apart in
 * the stream are not joined). */
#define PR_K6_PENDING 4096
#define PR_K6_SERIES_MAX 128   /* metrics kept as series in run meta (more: counted, dropped) */
#define PR_K6_BUCKETS_MAX 7200 /* one-second buckets per series (2 h; later seconds dropped) */
#define PR_K6_STR_MAX 4096     /* longest tag value kept */

/* The HTTP request metrics, in k6's order (httpext/tracer.go SaveSamples). */
enum pr_k6_metric {
    PR_K6_REQS,
    PR_K6_DURATION,
    PR_K6_BLOCKED,
    PR_K6_CONNECTING,
    PR_K6_TLS,
    PR_K6_SENDING,
    PR_K6_WAITING,
    PR_K6_RECEIVING,
    PR_K6_FAILED,
    PR_K6_NHTTP,
    PR_K6_OTHER = PR_K6_NHTTP
};

/* The tags of a point that the model uses; empty slices when absent. `attrs` is every other
 * tag as "k=v\x1fk=v" (scenario, group, proto, custom tags). */
typedef struct pr_k6_tags {
    pr_str status, expected, error_code, error, name, url, method, check;
    char attrs[PR_K6_STR_MAX];
    size_t attrs_n;
} pr_k6_tags;

/* Adds tag k=v to t (mapped fields or attrs). Borrowed slices must live until the point is
 * handed to pr_k6_point. */
void pr_k6_tags_add(pr_k6_tags *t, pr_str k, pr_str v);

typedef struct pr_k6_acc pr_k6_acc;

/* One point as a reader decoded it. `tags` fills t on demand (only when the point starts a new
 * request or is a check); `key` identifies the request (a hash of the time and tag text). */
typedef struct pr_k6_point {
    pr_str metric;
    int64_t time_ns;
    int tz_offset_min, has_zone;
    pr_str value;   /* the number as written */
    long value_col; /* 1-based columns of the value and of the tags in the line (0: unknown) */
    long tags_col;
    uint64_t key;
    int (*tags)(pr_k6_tags *t, void *payload);
    void *payload;
} pr_k6_point;

pr_k6_acc *pr_k6_acc_new(pr_sink *sink, const char *src);
/* Which built-in HTTP metric a name is (PR_K6_OTHER for the rest). */
int pr_k6_metric_of(pr_str name);
/* Records a Metric line's declaration (type, contains, thresholds: borrowed JSON). */
void pr_k6_acc_declare(pr_k6_acc *a, const char *name, json_t *decl);
/* Takes one point. Returns 0, or a negative error (err set, place given by line). */
int pr_k6_acc_point(pr_k6_acc *a, const pr_k6_point *p, long line, pr_error *err);
/* Ends a read whose result so far is rc (0, PR_ETRUNC or an error): unless rc is an error,
 * emits the requests still pending and stores series, checks and notes in run meta (a failure
 * there is the result when rc was 0; err keeps a PR_ETRUNC's place); frees a. Returns the
 * read's result. */
int pr_k6_acc_end(pr_k6_acc *a, int rc, pr_error *err);

#endif
