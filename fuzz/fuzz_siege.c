/* Fuzz target: the siege-text and siege-json readers on arbitrary input. */
#include "fuzz/reader_fuzz.h"

PR_FUZZ_READERS("siege-text", "siege-json")
