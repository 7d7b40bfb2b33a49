/* Fuzz target: the ab-text reader on arbitrary input. */
#include "fuzz/reader_fuzz.h"

PR_FUZZ_READERS("ab-text")
