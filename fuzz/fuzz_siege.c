/* Fuzz target: the siege-text and siege-json readers on arbitrary input. */
#include "fuzz/abtools_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_sniff_all(data, size);
    fuzz_one("siege-text", data, size);
    fuzz_one("siege-json", data, size);
    return 0;
}
