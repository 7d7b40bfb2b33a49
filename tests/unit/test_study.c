/* Tests of the study document: conclusions on the recorded cache study, figures a summary-only
 * run lacks, recommendations merged across runs, capacity notes, errors, metadata sections. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "analysis/study.h"
#include "tests/unit/lib/collect.h"
#include "tests/unit/lib/ingest.h"
#include "model/xalloc.h"

static const char *jstr(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static int64_t ingest_tagged(pr_store *st, const char *file, const char *name, const char *k1,
                             const char *v1, const char *k2, const char *v2)
{
    int64_t id = test_ingest(st, NULL, testdata(file), name);
    assert_true(id > 0);
    if (k1)
        assert_int_equal(test_tag(st, id, k1, v1), 0);
    if (k2)
        assert_int_equal(test_tag(st, id, k2, v2), 0);
    return id;
}

static json_t *build(pr_store *st, const int64_t *ids, size_t n, char **by, size_t nby,
                     char **levels, size_t nlevels, int expect_rc, pr_error *err)
{
    pr_study_opts o;
    pr_study_opts_init(&o);
    o.by = by;
    o.nby = nby;
    o.levels = levels;
    o.nlevels = nlevels;
    json_t *doc = NULL;
    assert_int_equal(pr_study_build(st, ids, n, &o, &doc, err), expect_rc);
    return doc;
}

/* cache off and on at 50 and 200 req/s (tests/data/study-cache): every p50 conclusion is a
 * factor of the pair's own raw values, and the sentence quotes the pair's printed figures. */
static void test_study__cache_conclusions(void **state)
{
    (void)state;
    pr_store *st = test_store_open();
    int64_t ids[4];
    ids[0] = test_ingest(st, NULL, testdata("study-cache/cache-off-50.bin"), NULL);
    ids[1] = test_ingest(st, NULL, testdata("study-cache/cache-off-200.bin"), NULL);
    ids[2] = test_ingest(st, NULL, testdata("study-cache/cache-on-50.bin"), NULL);
    ids[3] = test_ingest(st, NULL, testdata("study-cache/cache-on-200.bin"), NULL);
    char *by[] = {"cache"}, *lv[] = {"rate"};
    pr_error err;
    pr_error_clear(&err);
    json_t *doc = build(st, ids, 4, by, 1, lv, 1, 0, &err);
    assert_string_equal(jstr(doc, "schema"), "perfreport-study");
    json_t *cmp = json_array_get(json_object_get(doc, "comparisons"), 0);
    assert_string_equal(jstr(cmp, "a"), "cache=off");
    assert_string_equal(jstr(cmp, "b"), "cache=on");
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(cmp, "levels"), i, l) {
        json_t *p50 = json_object_get(l, "p50"), *c = json_object_get(l, "conclusion");
        assert_string_equal(jstr(p50, "verdict"), "improvement");
        double a = json_number_value(json_object_get(p50, "a_value")),
               b = json_number_value(json_object_get(p50, "b_value"));
        assert_true(fabs(json_number_value(json_object_get(p50, "factor")) - a / b) < 1e-9 * a / b);
        assert_true(a / b > 10); /* a cache hit is tens of times faster than the 10 ms backend */
        assert_true(json_is_true(json_object_get(c, "significant")));
        char quoted[160];
        snprintf(quoted, sizeof quoted, "%s faster than cache=off at p50 (%s vs %s)",
                 jstr(p50, "factor_text"), jstr(p50, "b_human"), jstr(p50, "a_human"));
        assert_non_null(strstr(jstr(c, "sentence"), quoted));
    }
    json_t *m = json_array_get(json_object_get(json_object_get(cmp, "overall"), "metrics"), 0);
    assert_string_equal(jstr(m, "metric"), "p50");
    assert_string_equal(jstr(m, "state"), "better");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(m, "better_levels"), "n")), 2);
    /* two labels per run: the table of every request, then one per label */
    assert_int_equal(json_array_size(json_object_get(doc, "interfaces")), 3);
    json_t *row = json_array_get(json_object_get(json_array_get(json_object_get(doc, "interfaces"), 0), "rows"), 0);
    assert_string_equal(jstr(row, "protocol_method"), "HTTP GET");
    assert_true(json_is_false(json_object_get(row, "tool_printed")));
    json_decref(doc);
    test_store_close(st);
}

/* A/A: the same run twice in two configurations: no conclusion, no factor in the sentence. */
static void test_study__no_difference_no_conclusion(void **state)
{
    (void)state;
    pr_store *st = test_store_open();
    int64_t ids[2];
    ids[0] = ingest_tagged(st, "vegeta/basic.bin", "a", "ab", "a", "rate", "50");
    ids[1] = ingest_tagged(st, "vegeta/basic.json", "b", "ab", "b", "rate", "50");
    char *by[] = {"ab"}, *lv[] = {"rate"};
    pr_error err;
    pr_error_clear(&err);
    json_t *doc = build(st, ids, 2, by, 1, lv, 1, 0, &err);
    json_t *cmp = json_array_get(json_object_get(doc, "comparisons"), 0);
    json_t *c = json_object_get(json_array_get(json_object_get(cmp, "levels"), 0), "conclusion");
    assert_true(json_is_false(json_object_get(c, "significant")));
    assert_true(json_is_true(json_object_get(c, "same")));
    assert_int_equal(json_array_size(json_object_get(c, "clauses")), 0);
    assert_null(strstr(jstr(c, "sentence"), "\xc3\x97"));
    assert_string_equal(jstr(json_object_get(cmp, "overall"), "sentence"),
                        "No significant difference between ab=b and ab=a at any load tested.");
    json_decref(doc);
    test_store_close(st);
}

/* wrk without --latency printed mean and max only: the row says "-" for the rest, and the
 * comparison with it is untested but for what the counts allow. */
static void test_study__summary_only_gaps(void **state)
{
    (void)state;
    pr_store *st = test_store_open();
    int64_t ids[1];
    ids[0] = ingest_tagged(st, "other/wrk_nolatency_big.txt", "wrk", "conn", "10", NULL, NULL);
    char *lv[] = {"conn"};
    pr_error err;
    pr_error_clear(&err);
    json_t *doc = build(st, ids, 1, NULL, 0, lv, 1, 0, &err);
    json_t *t = json_array_get(json_object_get(doc, "interfaces"), 0);
    assert_true(json_is_true(json_object_get(t, "all_requests")));
    json_t *row = json_array_get(json_object_get(t, "rows"), 0), *lat = json_object_get(row, "latency");
    assert_true(json_is_true(json_object_get(row, "tool_printed")));
    assert_string_equal(jstr(lat, "mean"), "10.8 ms");
    assert_string_equal(jstr(lat, "max"), "430 ms");
    assert_string_equal(jstr(lat, "min"), "-");
    assert_string_equal(jstr(lat, "p90"), "-");
    assert_string_equal(jstr(lat, "p99"), "-");
    assert_true(json_is_null(json_object_get(json_object_get(row, "latency_ns"), "p99")));
    assert_string_equal(jstr(row, "protocol_method"), "-");
    assert_int_equal(json_integer_value(json_object_get(row, "requests")), 52038);
    assert_true(json_is_false(json_object_get(doc, "has_comparison")));
    json_decref(doc);
    test_store_close(st);
}

/* The 5xx rule on two runs is one recommendation naming both; the capacity series of one
 * configuration with two runs at one load has no curve and says why. */
static void test_study__recommendations_and_capacity(void **state)
{
    (void)state;
    pr_store *st = test_store_open();
    int64_t ids[3];
    ids[0] = ingest_tagged(st, "study/hotspot-500-10s.report.txt", "h10", "rate", "500", NULL, NULL);
    ids[1] = ingest_tagged(st, "study/openj9-500-10s.report.txt", "j10", "rate", "500", NULL, NULL);
    ids[2] = ingest_tagged(st, "study/hotspot-50-10s.report.txt", "h50", "rate", "50", NULL, NULL);
    char *lv[] = {"rate"};
    pr_error err;
    pr_error_clear(&err);
    json_t *doc = build(st, ids, 3, NULL, 0, lv, 1, 0, &err);
    json_t *recs = json_object_get(doc, "recommendations"), *r, *five = NULL;
    size_t i;
    int last_rank = 3;
    json_array_foreach(recs, i, r) {
        const char *sev = jstr(r, "severity");
        int rank = !strcmp(sev, "critical") ? 2 : !strcmp(sev, "warning") ? 1 : 0;
        assert_true(rank <= last_rank); /* most severe first */
        last_rank = rank;
        if (!strcmp(jstr(r, "id"), "errors_5xx"))
            five = r;
    }
    assert_non_null(five);
    assert_int_equal(json_integer_value(json_object_get(five, "n_runs")), 2);
    assert_string_equal(jstr(five, "runs_text"), "h10, j10");
    json_t *s = json_array_get(json_object_get(json_object_get(doc, "capacity"), "series"), 0);
    assert_true(json_is_false(json_object_get(s, "has_curve")));
    assert_non_null(strstr(jstr(s, "note"), "both at load 500"));
    json_decref(doc);
    test_store_close(st);
}

static void test_study__errors(void **state)
{
    (void)state;
    pr_store *st = test_store_open();
    int64_t ids[1];
    ids[0] = ingest_tagged(st, "vegeta/basic.report.txt", "printed", "rate", "50", NULL, NULL);
    char *lv[] = {"rate", "duration"};
    pr_error err;
    pr_error_clear(&err);
    assert_null(build(st, ids, 1, NULL, 0, lv, 0, PR_EUSAGE, &err));
    assert_non_null(strstr(err.msg, "--pair"));
    pr_error_clear(&err);
    assert_null(build(st, ids, 1, NULL, 0, lv, 2, PR_EUSAGE, &err));
    assert_non_null(strstr(err.msg, "run 1 'printed' has no tag 'duration'"));
    test_store_close(st);
}

static void test_study__meta_sections(void **state)
{
    (void)state;
    json_error_t je;
    json_t *meta = json_loads(
        "{\"title\": \"T\", \"硬件信息\": {\"CPU\": \"8 核\", \"磁盘\": null},"
        " \"服务内存分配\": {\"app\": {\"堆\": \"2 GB\"}, \"db\": {\"shared_buffers\": \"4 GB\"}},"
        " \"版本信息\": [{\"组件\": \"nginx\", \"版本\": \"1.22\"}, {\"组件\": \"jdk\", \"说明\": 17}],"
        " \"调优参数\": [[\"参数\", \"A\"], [\"GC\", \"G1\"]],"
        " \"服务调用链路\": [\"client\", \"nginx\"], \"purpose\": \"p\", \"mixed\": [1, {\"a\": 2}]}",
        0, &je);
    assert_non_null(meta);
    pr_study_meta_sections(meta);
    json_t *sec = json_object_get(meta, "sections");
    assert_int_equal(json_array_size(sec), 5); /* title, purpose and the mixed array are not sections */
    json_t *kv = json_array_get(sec, 0);
    assert_string_equal(jstr(kv, "name"), "硬件信息");
    assert_true(json_is_true(json_object_get(kv, "key_value")));
    json_t *cells = json_object_get(json_array_get(json_object_get(kv, "rows"), 1), "cells");
    assert_string_equal(json_string_value(json_array_get(cells, 1)), "-");
    json_t *oo = json_array_get(sec, 1);
    assert_int_equal(json_array_size(json_object_get(oo, "columns")), 3); /* "", 堆, shared_buffers */
    cells = json_object_get(json_array_get(json_object_get(oo, "rows"), 1), "cells");
    assert_string_equal(json_string_value(json_array_get(cells, 0)), "db");
    assert_string_equal(json_string_value(json_array_get(cells, 1)), "-");
    json_t *ao = json_array_get(sec, 2);
    assert_int_equal(json_array_size(json_object_get(ao, "columns")), 3); /* 组件, 版本, 说明 */
    cells = json_object_get(json_array_get(json_object_get(ao, "rows"), 1), "cells");
    assert_string_equal(json_string_value(json_array_get(cells, 2)), "17");
    json_t *aa = json_array_get(sec, 3);
    assert_string_equal(jstr(json_array_get(json_object_get(aa, "columns"), 1), "name"), "A");
    assert_int_equal(json_array_size(json_object_get(aa, "rows")), 1);
    json_t *tx = json_array_get(sec, 4);
    assert_true(json_is_true(json_object_get(tx, "is_text")));
    assert_string_equal(jstr(tx, "text"), "client, nginx");
    json_decref(meta);
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_study__cache_conclusions),
        cmocka_unit_test(test_study__no_difference_no_conclusion),
        cmocka_unit_test(test_study__summary_only_gaps),
        cmocka_unit_test(test_study__recommendations_and_capacity),
        cmocka_unit_test(test_study__errors),
        cmocka_unit_test(test_study__meta_sections),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
