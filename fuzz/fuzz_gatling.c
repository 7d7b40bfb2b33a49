/* Fuzz target: the Gatling text and binary simulation.log readers on arbitrary input. */
#include "fuzz/reader_fuzz.h"

PR_FUZZ_READERS("gatling", "gatling-binary")
