/* Charts: cairo + pango drawings of already-computed results, as PNG, SVG or PDF.
 *
 * The chart layer never reads input files or the store: the analysis layer fills the plain
 * input structs below (C arrays it owns; every pointer is borrowed for the call only) and
 * picks a kind from pr_chart_kinds[]. Units are in the names: latencies and times are int64
 * nanoseconds, rates are doubles per second. Unknown values are skipped, never drawn as 0:
 * a latency < 0 (PR_UNKNOWN included) or a non-finite / negative double means "no data".
 *
 * Output is deterministic: identical input and options give byte-identical files (PNG, SVG,
 * and PDF, whose creation date is taken from SOURCE_DATE_EPOCH, or 1970-01-01 when unset). */
#ifndef PR_CHART_H
#define PR_CHART_H
#include <stddef.h>
#include <stdint.h>
#include "model/buf.h"
#include "model/error.h"

/* The font list every text goes through: Latin from DejaVu, CJK from WenQuanYi Zen Hei. */
#define PR_CHART_FONT "DejaVu Sans, WenQuanYi Zen Hei"

/* Latency over time, one point per sample: n samples as parallel arrays. */
typedef struct pr_chart_points {
    size_t n;
    const int64_t *t_ns;       /* request start, ns since the run start */
    const int64_t *latency_ns; /* < 0 = unknown, skipped */
    const uint8_t *ok;         /* 1 success, 0 error; NULL = all successes */
} pr_chart_points;

/* More points of the same chart, compact (analysis/points.h keeps a run's points so): each
 * time and latency is base + offset when the offsets are given, else the value itself; every
 * latency is known (>= 0). The summary lets the chart take the chunk's range without reading
 * its points when the chunk lies inside the window. */
typedef struct pr_chart_point_chunk {
    size_t n;
    int64_t t0_ns, l0_ns;             /* bases of dt, dl */
    const uint32_t *dt, *dl;          /* offsets, or NULL: */
    const int64_t *t_ns, *latency_ns; /* the values */
    const uint8_t *ok_bits;           /* bit i % 8 of byte i / 8: 1 success, 0 error; NULL:
                                         all successes */
    int64_t tmin_ns, tmax_ns;         /* summary: the times' range, */
    int64_t lmin_ns, lmax_ns;         /* the least latency > 0 (INT64_MAX: none), the greatest */
    size_t errors;                    /* and the errors */
} pr_chart_point_chunk;

/* Per-interval series of one run. Every array has n entries (or is NULL when unknown). */
typedef struct pr_chart_timeseries {
    size_t n;
    const int64_t *t_ns; /* interval start, ns since the run start (required) */
    int64_t interval_ns; /* interval length (> 0) */
    const int64_t *p50_ns, *p90_ns, *p99_ns, *max_ns; /* < 0 = no sample in the interval */
    const double *ok_per_s;                           /* successful responses per second */
    const double *fail_per_s;                         /* failed responses per second */
    const double *rate_per_s;                         /* requests sent per second (offered rate) */
    const double *threads; /* active threads / connections (second axis) */
    /* Status codes: n_codes codes, counts[c * n + i] responses with codes[c] in interval i.
     * Code 0 means "no response". */
    size_t n_codes;
    const int *codes;
    const double *code_counts;
} pr_chart_timeseries;

/* Latency distribution of one run (overlaid when several are given). */
typedef struct pr_chart_dist {
    const char *name;  /* run name for the legend (UTF-8) */
    size_t n_pct;      /* percentile spectrum: n_pct points, ascending */
    const double *pct; /* 0..100 (e.g. 50, 99.9, 100 = max) */
    const int64_t *pct_latency_ns;
    size_t n_buckets;            /* log-bucket histogram */
    const int64_t *bucket_lo_ns; /* bucket i covers [lo, hi) */
    const int64_t *bucket_hi_ns;
    const uint64_t *bucket_count;
} pr_chart_dist;

/* One label's bar: the chosen statistic, its sample count and error count. */
typedef struct pr_chart_label {
    const char *name;   /* UTF-8 */
    int64_t latency_ns; /* the chosen percentile (< 0 = unknown, drawn as "n/a") */
    uint64_t count;
    uint64_t errors;
} pr_chart_label;

typedef struct pr_chart_labels {
    size_t n;
    const pr_chart_label *v;
    const char *stat; /* name of the statistic for the axis, e.g. "p95"; NULL = "latency" */
} pr_chart_labels;

/* The unit of a comparison metric, used for its axis and value labels. */
typedef enum pr_chart_unit {
    PR_CHART_UNIT_NS = 0, /* duration in ns */
    PR_CHART_UNIT_PER_S,  /* rate per second */
    PR_CHART_UNIT_RATIO,  /* 0..1, shown as % */
    PR_CHART_UNIT_COUNT   /* plain number */
} pr_chart_unit;

typedef struct pr_chart_metric {
    const char *name; /* "p99", "throughput" … */
    pr_chart_unit unit;
} pr_chart_metric;

/* Grouped bars: values[m * n_runs + r] is metric m of run r (NaN = unknown). */
typedef struct pr_chart_compare {
    size_t n_runs;
    const char *const *run_names;
    size_t n_metrics;
    const pr_chart_metric *metrics;
    const double *values;
} pr_chart_compare;

/* A series of runs at increasing offered load. */
typedef struct pr_chart_capacity {
    size_t n;
    const double *offered_per_s;    /* x */
    const double *throughput_per_s; /* left axis */
    const int64_t *p99_ns;          /* right axis (< 0 = unknown) */
    const double *error_ratio;      /* 0..1 or NULL; shown as annotation when > 0 */
    long knee;                      /* index of the knee, -1 = none */
    const char *knee_label;         /* what the knee crossed, e.g. "p99 above the SLO"; NULL:
                                       pr_chart_capacity_knee_reason */
    const char *load_title;         /* x axis title; NULL: offered load in requests per second
                                       (and the throughput = offered line is drawn) */
} pr_chart_capacity;

/* Everything a kind may draw from; a kind uses the members its `needs` names. */
typedef struct pr_chart_input {
    const pr_chart_points *points;
    const pr_chart_timeseries *ts;
    const pr_chart_dist *dists;
    size_t n_dists;
    const pr_chart_labels *labels;
    const pr_chart_compare *compare;
    const pr_chart_capacity *capacity;
    /* the points kind draws points (required) and these chunks, as if they were appended */
    const pr_chart_point_chunk *point_chunks;
    size_t n_point_chunks;
} pr_chart_input;

/* A horizontal threshold line on the value axis, e.g. {250e6, "p99 SLO 250 ms"}.
 * The value is in the value axis' data unit (ns for latency axes, per second for rates). */
typedef struct pr_chart_threshold {
    double value;
    const char *label;
} pr_chart_threshold;

/* A finding: a vertical line at x (x-axis data unit: ns since run start for time axes,
 * req/s for the capacity curve), with a marked point when y is finite. */
typedef struct pr_chart_marker {
    double x;
    double y;
    const char *label;
} pr_chart_marker;

enum { PR_CHART_LOG_AUTO = 0, PR_CHART_LOG_ON = 1, PR_CHART_LOG_OFF = 2 };

typedef struct pr_chart_opts {
    const char *title;    /* NULL = the kind's default title */
    const char *subtitle; /* NULL = none (e.g. run name and date) */
    int width;            /* logical pixels (points in SVG/PDF); 0 = 1200 */
    int height;           /* 0 = 675 */
    double scale;         /* HiDPI factor for PNG (2 = twice the pixels); 0 = 1 */
    int log_y;            /* PR_CHART_LOG_*: logarithmic latency axis */
    int abs_time;         /* time axes in UTC wall clock instead of time since start */
    int64_t start_ns;     /* run start, ns since the Unix epoch (for abs_time) */
    int64_t from_ns;      /* time charts: window since run start; to_ns <= from_ns = all */
    int64_t to_ns;
    const pr_chart_threshold *thresholds;
    size_t n_thresholds;
    const pr_chart_marker *markers;
    size_t n_markers;
    const char *font; /* pango family list; NULL = PR_CHART_FONT */
    int threads;      /* threads binning the points of the latency chart: 0 = 2, 1 = the caller's
                         only; the chart is the same for any number */
} pr_chart_opts;

typedef enum pr_chart_format { PR_CHART_PNG = 0, PR_CHART_SVG, PR_CHART_PDF } pr_chart_format;

/* Where the plot landed, for tests and image maps: the plot rectangle in logical pixels
 * (top-left origin) and the data range at its edges. Log axes hold log10 of the data;
 * the spectrum's x axis holds -log10(1 - p/100). */
typedef struct pr_chart_frame {
    double plot_x, plot_y, plot_w, plot_h;
    double x_min, x_max, y_min, y_max;
    int x_log, y_log;
} pr_chart_frame;

typedef struct pr_canvas pr_canvas; /* drawing state, internal */

enum {
    PR_CHART_NEEDS_POINTS = 1u << 0,
    PR_CHART_NEEDS_TS = 1u << 1,
    PR_CHART_NEEDS_DISTS = 1u << 2,
    PR_CHART_NEEDS_LABELS = 1u << 3,
    PR_CHART_NEEDS_COMPARE = 1u << 4,
    PR_CHART_NEEDS_CAPACITY = 1u << 5,
    /* kinds drawn from samples: nothing to draw for a summary-only run (compare and capacity
     * draw from the statistics, which a tool's printed summary also gives) */
    PR_CHART_NEEDS_SAMPLES =
        PR_CHART_NEEDS_POINTS | PR_CHART_NEEDS_TS | PR_CHART_NEEDS_DISTS | PR_CHART_NEEDS_LABELS
};

/* One chart kind: the table row `perfreport chart --list` prints. */
typedef struct pr_chart_kind {
    const char *name;
    const char *summary; /* one line */
    unsigned needs;      /* PR_CHART_NEEDS_* */
    void (*draw)(pr_canvas *cv, const pr_chart_input *in);
} pr_chart_kind;

extern const pr_chart_kind pr_chart_kinds[];
extern const size_t pr_chart_nkinds;

/* The kind named `name`, or NULL. */
const pr_chart_kind *pr_chart_kind_find(const char *name);

/* Sets the defaults (1200×675, scale 1, auto log, relative time). */
void pr_chart_opts_init(pr_chart_opts *o);

/* The format for a file name's extension (.png .svg .pdf, case-insensitive); -1 otherwise. */
int pr_chart_format_for_path(const char *path);

/* Draws `kind` into `out` (appended). Returns 0, PR_EUSAGE when the input the kind needs is
 * missing or the size is out of range (16..20000 px, at most 200 Mpixel after scaling), or
 * PR_EIO when cairo fails. Empty inputs draw axes and a "No data" note. `frame` may be NULL. */
int pr_chart_render_buf(const pr_chart_kind *kind, const pr_chart_input *in,
                        const pr_chart_opts *opts, pr_chart_format fmt, pr_buf *out,
                        pr_chart_frame *frame, pr_error *err);

/* Same, to a file whose extension picks the format. Writes the whole file or returns
 * PR_EIO (the error names the path); PR_EUSAGE for an unknown extension. */
int pr_chart_render_file(const pr_chart_kind *kind, const pr_chart_input *in,
                         const pr_chart_opts *opts, const char *path, pr_chart_frame *frame,
                         pr_error *err);

/* Glyphs of `utf8` that no installed font in the chart font list covers (0 = all render). */
int pr_chart_missing_glyphs(const char *utf8, const char *font);

/* Releases pango's default font map (optional; call once at exit after the last chart).
 * fontconfig's process-wide caches stay until the exit. No chart call may follow. */
void pr_chart_shutdown(void);

/* A simple knee for a capacity series: the first step whose throughput falls
 * below 90% of the offered load or whose p99 exceeds 3× the first step's; -1 if none. */
long pr_chart_capacity_knee(const pr_chart_capacity *c);
/* What point i of c crossed by pr_chart_capacity_knee's rules (a static string). */
const char *pr_chart_capacity_knee_reason(const pr_chart_capacity *c, long i);

#endif
