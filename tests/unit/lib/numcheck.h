/* Test helper: every number a finding's sentence states must be one of its evidence values. */
#ifndef PR_TEST_NUMCHECK_H
#define PR_TEST_NUMCHECK_H
#include <jansson.h>
#include <stddef.h>

/* Checks the finding's title and explanation. Each number there, with its unit (a duration
 * "2.52 s", a rate "116.97/s", a percentage "7.50%", a size "781 kB" or a plain count), must
 * equal a number of the evidence (durations against keys ending in _ns, rates against keys
 * ending in _per_s, sizes against keys with "bytes") to the precision printed: within half a
 * unit of its last digit. Not numbers: digits inside a string of the evidence or the finding's
 * label (URLs, error messages), digits glued to letters (p99, 4xx, 99th) and the HTTP status
 * codes the rules name (429, 502, 503, 504). Returns 1 when all match; else 0 with a message
 * in why. */
int test_numbers_in_evidence(json_t *finding, char *why, size_t size);

#endif
