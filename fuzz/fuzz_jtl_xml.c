/* Fuzz target: the JMeter XML JTL reader over arbitrary bytes, in every option mode, read
 * with the XML guard's help (blanked and taken attributes: parsers/xml_guard.h) and without:
 * the two must read the same samples and fail with the same error. */
#include <stdlib.h>
#define JTL_FUZZ_COMPARE
#include "fuzz/jtl_fuzz.h"
#include "parsers/jmeter_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static jtl_fuzz_out a, b;
    pr_jtl_xml_blank = 1;
    jtl_fuzz_into("jmeter-xml", data, size, &a);
    pr_jtl_xml_blank = 0;
    jtl_fuzz_into("jmeter-xml", data, size, &b);
    pr_jtl_xml_blank = 1;
    if (a.rc != b.rc || strcmp(a.msg, b.msg) || a.line != b.line || a.col != b.col ||
        a.count != b.count || a.sum != b.sum) {
        fprintf(stderr,
                "fuzz_jtl_xml: with and without the guard's help differ:\n  %d %s (%ld:%ld) "
                "%llu samples %llx\n  %d %s (%ld:%ld) %llu samples %llx\n",
                a.rc, a.msg, a.line, a.col, a.count, a.sum, b.rc, b.msg, b.line, b.col, b.count,
                b.sum);
        abort();
    }
    return 0;
}
