/* Unit tests: the language (catalog lookup, the environment as gettext reads it, template
 * names), the reader's time zone and dates, the translated units and words. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/compare.h"
#include "analysis/findings.h"
#include "analysis/human.h"
#include <math.h>
#include "analysis/load.h"
#include "model/l10n.h"
#include "render/mustache.h"
#include "model/xalloc.h"

/* Every case starts from an empty environment and English. */
static int setup(void **st)
{
    unsetenv("LANGUAGE");
    unsetenv("LC_ALL");
    unsetenv("LC_MESSAGES");
    unsetenv("LANG");
    pr_l10n_init("en", NULL);
    pr_l10n_set_tz("UTC", NULL);
    return 0;
}

static void test_l10n__english_by_default(void **st)
{
    char b[32];
    assert_int_equal(pr_l10n_init(NULL, NULL), 0);
    assert_string_equal(pr_l10n_lang(), "en");
    assert_true(pr_l10n_english());
    assert_string_equal(pr_human_duration(4990000000LL, b, sizeof b), "4.99 s");
    assert_string_equal(pr_human_rate(200.22, b, sizeof b), "200.22/s");
    assert_string_equal(pr_human_rate(12345, b, sizeof b), "12.3 k/s");
    /* the buffer's size bounds every form: cut, never overrun */
    assert_string_equal(pr_human_duration(4990000000LL, b, 4), "4.9");
    assert_string_equal(pr_human_rate_range(81.93, 87.41, b, 8), "81.9/s ");
    assert_string_equal(pr_human_number(12345, b, sizeof b), "12.3k");
    assert_string_equal(pr_human_duration_short(2.5e6, b, sizeof b), "2.5 ms");
    assert_string_equal(pr_human_duration_short(NAN, b, sizeof b), "n/a");
    assert_string_equal(pr_compare_verdict_text("regression"), "regression");
    assert_string_equal(pr_load_model_text(PR_LOAD_OPEN), "open");
}

static void test_l10n__chinese_catalog(void **st)
{
    char b[32];
    assert_int_equal(pr_l10n_init("zh_CN", NULL), 0);
    assert_string_equal(pr_l10n_lang(), "zh_CN");
    assert_string_equal(pr_l10n_lang_tag(), "zh-CN");
    assert_false(pr_l10n_english());
    assert_non_null(pr_l10n_localedir());
    /* units: seconds and per second translate, ms and µs are the same symbols */
    assert_string_equal(pr_human_duration(4990000000LL, b, sizeof b), "4.99 秒");
    assert_string_equal(pr_human_duration(12400000, b, sizeof b), "12.4 ms");
    assert_string_equal(pr_human_duration(1200LL * 1000000000LL, b, sizeof b), "20.0 分钟");
    assert_string_equal(pr_human_duration_res(0, 1000000, b, sizeof b), "< 1 ms");
    assert_string_equal(pr_human_rate(200.22, b, sizeof b), "200.22/秒");
    assert_string_equal(pr_human_rate(12345, b, sizeof b), "12.3 千/秒");
    assert_string_equal(pr_human_bytes(1500, b, sizeof b), "1.50 kB");
    /* words with a context: the same English word, another translation */
    assert_string_equal(pr_compare_verdict_text("regression"), "退化");
    assert_string_equal(pr_compare_verdict_text("not-a-verdict"), "not-a-verdict");
    assert_string_equal(pr_compare_metric_text("error_ratio"), "错误率");
    assert_string_equal(pr_load_model_text(PR_LOAD_CLOSED), "封闭");
    assert_string_equal(C_("series", "max"), "最大");
    /* positional arguments reorder a sentence */
    char s[128];
    snprintf(s, sizeof s, _("%s is %s %s than %s at %s (%s vs %s)"), "B", "2.0×", _("faster"), "A",
             "p50", "1 ms", "2 ms");
    assert_string_equal(s, "B 的 p50 比 A 快 2.0×（1 ms 对 2 ms）");
    /* a plural */
    assert_string_equal(n_("… and %zu more label", "… and %zu more labels", 3), "……另有 %zu 个事务");
    /* back to English */
    assert_int_equal(pr_l10n_init("C", NULL), 0);
    assert_string_equal(pr_human_duration(4990000000LL, b, sizeof b), "4.99 s");
    assert_string_equal(pr_compare_verdict_text("regression"), "regression");
}

/* A finding's words (title, evidence sentence, recommendation, severity) in the reader's
 * language; its machine fields (id, severity, evidence) the same in both. */
static void test_l10n__findings(void **st)
{
    (void)st;
    json_t *r = json_pack("{s:i, s:s, s:{s:i, s:i, s:f}, s:[{s:i, s:i}, {s:i, s:i}]}", "id", 1,
                          "load_model", "open", "stats", "requests", 1000, "errors", 100,
                          "error_ratio", 0.1, "status_codes", "code", 200, "count", 900, "code",
                          500, "count", 100);
    pr_findings_opts o;
    pr_findings_opts_init(&o);
    o.only = "errors_5xx";
    json_t *en = pr_findings_run(r, &o);
    assert_int_equal(pr_l10n_init("zh_CN", NULL), 0);
    json_t *zh = pr_findings_run(r, &o);
    assert_int_equal(json_array_size(en), 1);
    assert_int_equal(json_array_size(zh), 1);
    json_t *e = json_array_get(en, 0), *z = json_array_get(zh, 0);
#define S(o, k) json_string_value(json_object_get(o, k))
    assert_string_equal(S(e, "title"), "Server errors (5xx)");
    assert_string_equal(S(e, "severity_text"), "warning");
    assert_string_equal(S(e, "explanation"),
                        "100 requests (10.00%) got a 5xx status: the server (or a gateway in front "
                        "of it) failed to handle them; 502/503/504 usually mean an upstream was "
                        "down, overloaded or too slow.");
    assert_string_equal(S(z, "title"), "服务端错误（5xx）");
    assert_string_equal(S(z, "severity"), "warning");
    assert_string_equal(S(z, "severity_text"), "警告");
    assert_string_equal(S(z, "explanation"),
                        "100 个请求（10.00%）收到 5xx 状态码：服务端（或其前面的网关）未能处理这些"
                        "请求；502/503/504 通常表示上游服务宕机、过载或太慢。");
    assert_string_equal(S(z, "recommendation"), "查看出错时刻的服务端日志；如果 5xx 随负载增加，"
                                                "说明服务端先于客户端耗尽了某种资源。");
    assert_true(json_equal(json_object_get(e, "evidence"), json_object_get(z, "evidence")));
#undef S
    assert_string_equal(pr_severity_text("critical"), "严重");
    assert_string_equal(pr_severity_text("info"), "提示");
    assert_string_equal(pr_severity_text(NULL), "?");
    json_decref(en);
    json_decref(zh);
    json_decref(r);
}

static void test_l10n__aliases(void **st)
{
    assert_int_equal(pr_l10n_init("zh", NULL), 0); /* a bare language: its one catalog */
    assert_string_equal(pr_l10n_lang(), "zh_CN");
    assert_int_equal(pr_l10n_init("zh-CN", NULL), 0); /* BCP 47 */
    assert_string_equal(pr_l10n_lang(), "zh_CN");
    assert_int_equal(pr_l10n_init("zh_CN.UTF-8@latin", NULL), 0);
    assert_string_equal(pr_l10n_lang(), "zh_CN");
    assert_int_equal(pr_l10n_init("en_GB", NULL), 0);
    assert_string_equal(pr_l10n_lang(), "en");
    pr_error err;
    assert_int_equal(pr_l10n_init("fr", &err), PR_EUSAGE);
    assert_non_null(strstr(err.msg, "fr"));
    assert_non_null(strstr(err.msg, "zh_CN"));
    assert_string_equal(pr_l10n_lang(), "en");
    assert_int_equal(pr_l10n_init("../../etc", &err), PR_EUSAGE);
}

/* The environment as gettext reads it: LANGUAGE (a list) unless the locale is C or POSIX. */
static void test_l10n__environment(void **st)
{
    setenv("LANG", "zh_CN.UTF-8", 1);
    assert_int_equal(pr_l10n_init(NULL, NULL), 0);
    assert_string_equal(pr_l10n_lang(), "zh_CN");
    setenv("LC_ALL", "C", 1); /* C wins over LANG, and LANGUAGE is ignored in it */
    setenv("LANGUAGE", "zh_CN", 1);
    assert_int_equal(pr_l10n_init(NULL, NULL), 0);
    assert_string_equal(pr_l10n_lang(), "en");
    setenv("LC_ALL", "C.UTF-8", 1);
    assert_int_equal(pr_l10n_init(NULL, NULL), 0);
    assert_string_equal(pr_l10n_lang(), "zh_CN");
    setenv("LANGUAGE", "fr:de:zh_CN:en", 1); /* the first with a catalog */
    assert_int_equal(pr_l10n_init(NULL, NULL), 0);
    assert_string_equal(pr_l10n_lang(), "zh_CN");
    setenv("LANGUAGE", "fr:en:zh_CN", 1); /* English comes first */
    assert_int_equal(pr_l10n_init(NULL, NULL), 0);
    assert_string_equal(pr_l10n_lang(), "en");
    unsetenv("LANGUAGE");
    setenv("LC_ALL", "fr_FR.UTF-8", 1); /* no catalog: English, no error */
    assert_int_equal(pr_l10n_init(NULL, NULL), 0);
    assert_string_equal(pr_l10n_lang(), "en");
    /* --lang wins over everything */
    setenv("LC_ALL", "zh_CN.UTF-8", 1);
    assert_int_equal(pr_l10n_init("en", NULL), 0);
    assert_string_equal(pr_l10n_lang(), "en");
}

/* PERFREPORT_LOCALEDIR is searched first; without it (or with a folder holding no catalog)
 * the catalog is looked for beside the binary and in the install prefix. */
static void test_l10n__localedir(void **st)
{
    const char *dir = getenv("PERFREPORT_LOCALEDIR");
    assert_non_null(dir);
    char *keep = strdup(dir);
    assert_int_equal(pr_l10n_init("zh_CN", NULL), 0);
    assert_string_equal(pr_l10n_localedir(), keep);
    setenv("PERFREPORT_LOCALEDIR", "/nonexistent", 1);
    pr_error err;
    int rc = pr_l10n_init("zh_CN", &err);
    if (rc == 0) /* installed, or beside this binary: never the folder without one */
        assert_string_not_equal(pr_l10n_localedir(), "/nonexistent");
    else
        assert_int_equal(rc, PR_EUSAGE);
    setenv("PERFREPORT_LOCALEDIR", keep, 1);
    free(keep);
}

static void test_l10n__template_names(void **st)
{
    char b[32], v[64];
    assert_string_equal(pr_l10n_name_lang("report.zh.md", b, sizeof b), "zh");
    assert_string_equal(pr_l10n_name_lang("tpl/my.report.zh_CN.html", b, sizeof b), "zh_CN");
    assert_null(pr_l10n_name_lang("report.md", b, sizeof b));
    assert_null(pr_l10n_name_lang("my.report.md", b, sizeof b)); /* "report" is no language */
    assert_null(pr_l10n_name_lang("x.zh/report.md", b, sizeof b));
    assert_null(pr_l10n_name_lang("zh.md", b, sizeof b));
    /* one template per report: NAME.LANG.EXT is NAME.EXT */
    assert_string_equal(pr_tpl_builtin_plain("report.zh.md", v, sizeof v), "report.md");
    assert_string_equal(pr_tpl_builtin_plain("study.zh_CN.html", v, sizeof v), "study.html");
    assert_string_equal(pr_tpl_builtin_plain("my.report.zh.md", v, sizeof v), "my.report.md");
    assert_null(pr_tpl_builtin_plain("report.md", v, sizeof v));
    assert_null(pr_tpl_builtin_plain("a.zh.b.md", v, sizeof v)); /* not before the extension */
    pr_tpl_builtin bt = {NULL, NULL};
    pr_tpl_loader l = pr_tpl_builtin_loader(&bt);
    char *zh = NULL, *en = NULL;
    size_t nzh = 0, nen = 0;
    pr_error err;
    pr_error_clear(&err);
    assert_int_equal(l.load("report.zh.md", &zh, &nzh, &err, l.payload), 0);
    assert_int_equal(l.load("report.md", &en, &nen, &err, l.payload), 0);
    assert_int_equal(nzh, nen);
    assert_memory_equal(zh, en, nen);
    free(zh);
    free(en);
}

static void test_l10n__time_zones(void **st)
{
    char b[40];
    const int64_t t = 1796051498623196545LL; /* 2026-11-30T15:11:38.623196545Z */
    assert_int_equal(pr_l10n_set_tz("UTC", NULL), 0);
    assert_string_equal(pr_l10n_time(t, b), "2026-11-30T15:11:38Z");
    assert_int_equal(pr_l10n_set_tz("+08:00", NULL), 0);
    assert_string_equal(pr_l10n_time(t, b), "2026-11-30T23:11:38+08:00");
    assert_int_equal(pr_l10n_set_tz("-0530", NULL), 0);
    assert_string_equal(pr_l10n_time(t, b), "2026-11-30T09:41:38-05:30");
    assert_int_equal(pr_l10n_set_tz("+8", NULL), 0);
    assert_int_equal(pr_l10n_offset_min(t), 480);
    assert_int_equal(pr_l10n_set_tz("Asia/Shanghai", NULL), 0);
    assert_string_equal(pr_l10n_time(t, b), "2026-11-30T23:11:38+08:00");
    /* a zone with summer time: the offset of the instant */
    assert_int_equal(pr_l10n_set_tz("Europe/Berlin", NULL), 0);
    assert_string_equal(pr_l10n_time(t, b), "2026-11-30T16:11:38+01:00");
    assert_string_equal(pr_l10n_time(1782832298000000000LL, b), "2026-06-30T17:11:38+02:00");
    /* before the epoch: rounded down to the second, not towards zero */
    assert_int_equal(pr_l10n_set_tz("Z", NULL), 0);
    assert_string_equal(pr_l10n_time(-1, b), "1969-12-31T23:59:59Z");
    assert_string_equal(pr_l10n_offset_text(0, b), "UTC");
    assert_string_equal(pr_l10n_offset_text(-330, b), "UTC-05:30");
    pr_error err;
    static const char *const bad[] = {"Mars/Olympus", "+25:00", "+08:60", "+", "08:00", "",
                                      "../../etc/passwd", "/etc/localtime", "+08:0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (!*bad[i])
            continue; /* "" is the environment's zone */
        assert_int_equal(pr_l10n_set_tz(bad[i], &err), PR_EUSAGE);
        assert_non_null(strstr(err.msg, "--tz"));
    }
    setenv("TZ", "Asia/Kolkata", 1);
    assert_int_equal(pr_l10n_set_tz(NULL, NULL), 0); /* the environment's */
    assert_string_equal(pr_l10n_time(t, b), "2026-11-30T20:41:38+05:30");
    setenv("TZ", "UTC", 1);
    pr_l10n_set_tz(NULL, NULL);
}

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_l10n__english_by_default, setup),
        cmocka_unit_test_setup(test_l10n__chinese_catalog, setup),
        cmocka_unit_test_setup(test_l10n__aliases, setup),
        cmocka_unit_test_setup(test_l10n__environment, setup),
        cmocka_unit_test_setup(test_l10n__findings, setup),
        cmocka_unit_test_setup(test_l10n__localedir, setup),
        cmocka_unit_test_setup(test_l10n__template_names, setup),
        cmocka_unit_test_setup(test_l10n__time_zones, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
