/* Test helper: members of a JSON object that must be present (the test fails otherwise). */
#ifndef PR_TEST_JCHECK_H
#define PR_TEST_JCHECK_H
#include <jansson.h>

json_int_t jint(const json_t *o, const char *k);
double jnum(const json_t *o, const char *k);
const json_t *jobj(const json_t *o, const char *k);

#endif
