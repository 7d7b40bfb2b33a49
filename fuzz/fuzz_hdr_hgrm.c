/* Fuzz target: the hdr-hgrm reader on arbitrary input. */
#include "fuzz/reader_fuzz.h"

PR_FUZZ_READERS("hdr-hgrm")
