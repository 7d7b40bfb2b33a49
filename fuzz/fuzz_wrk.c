/* Fuzz target: the wrk-text reader on arbitrary input. */
#include "fuzz/reader_fuzz.h"

PR_FUZZ_READERS("wrk-text")
