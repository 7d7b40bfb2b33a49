/* Fuzz target: the k6-csv reader on arbitrary input. */
#include "fuzz/reader_fuzz.h"

PR_FUZZ_READERS("k6-csv")
