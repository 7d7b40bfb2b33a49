/* Fuzz target: the k6-json reader on arbitrary input. */
#include "fuzz/reader_fuzz.h"

PR_FUZZ_READERS("k6-json")
