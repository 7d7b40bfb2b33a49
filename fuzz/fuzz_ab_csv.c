/* Fuzz target: the ab-csv reader on arbitrary input. */
#include "fuzz/reader_fuzz.h"

PR_FUZZ_READERS("ab-csv")
