/* Fuzz target: the hey-csv and hey-text readers on arbitrary input. */
#include "fuzz/abtools_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_sniff_all(data, size);
    fuzz_one("hey-csv", data, size);
    fuzz_one("hey-text", data, size);
    return 0;
}
