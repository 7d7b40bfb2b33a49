/* Fuzz target: the Artillery and autocannon JSON report readers on arbitrary input. */
#include "fuzz/reader_fuzz.h"

PR_FUZZ_READERS("artillery", "autocannon")
