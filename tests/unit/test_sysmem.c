/* Unit tests: the memory available (model/sysmem.h) follows RLIMIT_AS and the override, and
 * the default exact limit follows it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "analysis/report.h"
#include "model/sysmem.h"

static void test_sysmem__override(void **st)
{
    setenv("PERFREPORT_MEMORY", "64M", 1);
    assert_int_equal(pr_sysmem_available(), 64 * 1024 * 1024);
    assert_int_equal(pr_report_exact_limit_auto(pr_sysmem_available()),
                     64 * 1024 * 1024 / 2 / PR_EXACT_BYTES_PER_SAMPLE);
    setenv("PERFREPORT_MEMORY", "1000", 1);
    assert_int_equal(pr_sysmem_available(), 1000);
    /* below a million samples the pairs are not packed: 10 bytes each */
    assert_int_equal(pr_report_exact_limit_auto(1000), 1000 / 2 / PR_EXACT_BYTES_PER_SAMPLE_SMALL);
    assert_true(pr_report_exact_bytes(3000) == 30000.0);
    assert_true(pr_report_exact_bytes(10000000) == 80000000.0);
    unsetenv("PERFREPORT_MEMORY");
    assert_true(pr_sysmem_available() > 0);
}

/* In a child: an address-space limit 100 MB above what the process maps leaves at most
 * 100 MB available. */
static void test_sysmem__rlimit_as(void **st)
{
    unsetenv("PERFREPORT_MEMORY");
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit rl;
        long pages = 0, page = sysconf(_SC_PAGESIZE);
        FILE *f = fopen("/proc/self/statm", "r");
        if (!f || fscanf(f, "%ld", &pages) != 1)
            _exit(3);
        fclose(f);
        rl.rlim_cur = rl.rlim_max = (rlim_t)(pages * page) + 100 * 1024 * 1024;
        if (setrlimit(RLIMIT_AS, &rl) != 0)
            _exit(0); /* not allowed here: nothing to check */
        int64_t a = pr_sysmem_available();
        _exit(a <= 100 * 1024 * 1024 ? 0 : 1);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sysmem__override),
        cmocka_unit_test(test_sysmem__rlimit_as),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
