/* Fuzz target: the httperf-text reader on arbitrary input. */
#include "fuzz/reader_fuzz.h"

PR_FUZZ_READERS("httperf-text")
