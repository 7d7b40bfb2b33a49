/* Conformance: runs every test of the Mustache spec files in tests/data/mustache-spec/. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/xalloc.h"
#include "render/mustache.h"

static int total_pass, total_run;

/* Partials from the test's "partials" object. */
static int json_partials(const char *name, char **text, size_t *len, pr_error *err, void *payload)
{
    json_t *p = json_object_get(payload, name);
    if (!json_is_string(p))
        return PR_ENOTFOUND;
    *len = json_string_length(p);
    *text = pr_xstrndup(json_string_value(p), *len);
    return 0;
}

static void run_file(const char *file)
{
    const char *dir = getenv("PR_TESTDATA");
    char path[1024];
    snprintf(path, sizeof path, "%s/mustache-spec/%s", dir ? dir : "tests/data", file);
    json_error_t jerr;
    json_t *doc = json_load_file(path, JSON_DECODE_ANY, &jerr);
    if (!doc)
        fail_msg("%s: %s", path, jerr.text);
    json_t *tests = json_object_get(doc, "tests");
    assert_true(json_array_size(tests) > 0);
    size_t i, pass = 0;
    json_t *t;
    json_array_foreach(tests, i, t) {
        const char *tpl = json_string_value(json_object_get(t, "template"));
        const char *want = json_string_value(json_object_get(t, "expected"));
        pr_tpl_loader loader = {json_partials, json_object_get(t, "partials")};
        pr_buf out = PR_BUF_INIT;
        pr_error err;
        pr_error_clear(&err);
        int rc = pr_mustache_render(tpl, strlen(tpl), "spec", json_object_get(t, "data"), &loader,
                                    PR_ESC_HTML, &out, &err);
        if (rc == 0 && strcmp(out.p ? out.p : "", want) == 0) {
            pass++;
        } else {
            char eb[1600];
            printf("FAIL %s: %s\n  template: %s\n  expected: [%s]\n  got:      [%s]\n  %s\n", file,
                   json_string_value(json_object_get(t, "name")), tpl, want, out.p ? out.p : "",
                   rc ? pr_error_format(&err, eb, sizeof eb) : "");
        }
        pr_buf_dispose(&out);
    }
    printf("%-22s %zu/%zu passed\n", file, pass, json_array_size(tests));
    total_pass += (int)pass;
    total_run += (int)json_array_size(tests);
    assert_int_equal(pass, json_array_size(tests));
    json_decref(doc);
}

static void test_mustache_spec__comments(void **st) { run_file("comments.json"); }
static void test_mustache_spec__delimiters(void **st) { run_file("delimiters.json"); }
static void test_mustache_spec__interpolation(void **st) { run_file("interpolation.json"); }
static void test_mustache_spec__inverted(void **st) { run_file("inverted.json"); }
static void test_mustache_spec__partials(void **st) { run_file("partials.json"); }
static void test_mustache_spec__sections(void **st) { run_file("sections.json"); }
static void test_mustache_spec__dynamic_names(void **st) { run_file("~dynamic-names.json"); }
static void test_mustache_spec__inheritance(void **st) { run_file("~inheritance.json"); }

int main(void)
{
    pr_xalloc_json();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mustache_spec__comments),
        cmocka_unit_test(test_mustache_spec__delimiters),
        cmocka_unit_test(test_mustache_spec__interpolation),
        cmocka_unit_test(test_mustache_spec__inverted),
        cmocka_unit_test(test_mustache_spec__partials),
        cmocka_unit_test(test_mustache_spec__sections),
        cmocka_unit_test(test_mustache_spec__dynamic_names),
        cmocka_unit_test(test_mustache_spec__inheritance),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("mustache spec: %d/%d passed\n", total_pass, total_run);
    return failed;
}
