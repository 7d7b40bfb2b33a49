/* Internals shared by the files of the study module (study.c, study_compare.c,
 * study_capacity.c): the runs with their configuration and level, and the words the study
 * writes itself (one table, study_compare.c, so a message catalog can take them). */
#ifndef PR_STUDY_PRIV_H
#define PR_STUDY_PRIV_H
#include "analysis/study.h"
#include "model/l10n.h"

typedef struct study_run {
    json_t *model; /* borrowed from the report document */
    int64_t id;
    size_t config; /* index into configs */
    size_t level;  /* index into levels */
} study_run;

typedef struct study {
    const pr_study_opts *o;
    pr_store *st;
    json_t *doc; /* the report document of every run (owned) */
    study_run *runs;
    size_t nruns;
    json_t *configs; /* [{name, values_text, key_values, runs, baseline, index…}] */
    json_t *levels;  /* [{key_text, key_values, index…}], ascending (strverscmp per key) */
} study;

/* The words of the study's sentences and labels (msgids of the catalog: pr_study_word translates). */
typedef enum study_word {
    SW_ALL_REQUESTS = 0, /* the interface of a run's every request */
    SW_ALL_RUNS,         /* the capacity series of a study without configurations */
    SW_FASTER,
    SW_SLOWER,
    SW_HIGHER,
    SW_LOWER,
    SW_AT_LEVEL,   /* "At %s, " (level) */
    SW_LAT_FIRST,  /* B, factor, faster, A, metric, b figure, a figure */
    SW_LAT_NEXT,   /* factor, faster, metric, b figure, a figure */
    SW_THROUGHPUT, /* B, b figure, a figure, A, change */
    SW_ERRORS,     /* B, b figure, a figure, A, change (points) */
    SW_CLAUSE_SEP,
    SW_LIST_SEP,
    SW_END,
    SW_SENTENCES,     /* two sentences: the first, the next */
    SW_NO_DIFFERENCE, /* B, A */
    SW_IN,            /* metrics */
    SW_NONE_TESTED,   /* A, B */
    SW_NOT_PAIRED,    /* level, A, B, why */
    SW_HEAD_LATENCY,  /* B, faster, A, metric */
    SW_HEAD_OTHER,    /* B, higher, metric, A */
    SW_OVERALL_ALL,   /* head, range */
    SW_OVERALL_ONE,   /* head, the level, figure */
    SW_OVERALL_SOME,  /* head, levels, range, levels without a difference */
    SW_OVERALL_MIXED, /* B, A, metric, better, levels, range, worse, levels, range */
    SW_OVERALL_SAME,  /* B, A */
    SW_AT,            /* figure, level */
    SW_FROM_TO,       /* figure at level, figure at level */
    SW_METRIC_THROUGHPUT,
    SW_METRIC_ERRORS,
    SW_OBS_FIRST,        /* B, metric, b figure, a figure, A, change */
    SW_OBS_NEXT,         /* metric, b figure, a figure, change */
    SW_OBSERVED,         /* the end of observed clauses: no samples */
    SW_OBSERVED_FEW,     /* the same: too few samples for a test */
    SW_WITHIN,           /* metrics, min effect */
    SW_SAME_IN,          /* metrics */
    SW_MISSING,          /* metrics */
    SW_OBS_HEAD_LATENCY, /* B, "faster" or "slower", A, metric */
    SW_OBS_HEAD_OTHER,   /* B, "higher" or "lower", metric, A */
    SW_OBS_ALL,          /* head, range, end */
    SW_OBS_ONE,          /* head, the first observed clause, level, end */
    SW_OBS_SOME,         /* head, levels, range, min effect, levels within, end */
    SW_OBS_MIXED,        /* B, A, metric, better, levels, range, worse, levels, range, end */
    SW_OBS_WITHIN_ALL,   /* metrics, min effect */
    SW_OVERALL_SAME_IN,  /* metrics */
    SW_OBS_NONE,         /* B, A */
    SW_COUNT
} study_word;

const char *pr_study_word(study_word w);

/* Adds "comparisons" (every configuration against the first, level by level, with the
 * conclusions) to out. */
int pr_study_compare(study *S, json_t *out, pr_error *err);
/* Adds "capacity" (one series per configuration and the level tags other than the load). */
void pr_study_capacity(study *S, json_t *out);

#endif
