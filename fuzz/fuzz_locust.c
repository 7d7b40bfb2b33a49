/* Fuzz target: the Locust CSV reader on arbitrary input. */
#include "fuzz/reader_fuzz.h"

PR_FUZZ_READERS("locust")
