/* Fuzz target: the httperf-text reader on arbitrary input. */
#include "fuzz/abtools_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_sniff_all(data, size);
    fuzz_one("httperf-text", data, size);
    return 0;
}
