/* Fuzz target: the hey-csv and hey-text readers on arbitrary input. */
#include "fuzz/reader_fuzz.h"

PR_FUZZ_READERS("hey-csv", "hey-text")
