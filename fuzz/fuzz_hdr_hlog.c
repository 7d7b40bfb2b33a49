/* Fuzz target: the hdr-hlog reader on arbitrary input. */
#include "fuzz/reader_fuzz.h"

PR_FUZZ_READERS("hdr-hlog")
