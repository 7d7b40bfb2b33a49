/* Fuzz target: the JMeter XML JTL reader over arbitrary bytes, in every option mode. */
#include "fuzz/jtl_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return jtl_fuzz("jmeter-xml", data, size);
}
