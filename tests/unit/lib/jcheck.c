/* Test helper: JSON members that must be present, failing the current cmocka test otherwise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "tests/unit/lib/jcheck.h"

json_int_t jint(const json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    if (!json_is_integer(v))
        fail_msg("missing integer '%s'", k);
    return json_integer_value(v);
}

double jnum(const json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    if (!json_is_number(v))
        fail_msg("missing number '%s'", k);
    return json_number_value(v);
}

const json_t *jobj(const json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    if (!json_is_object(v))
        fail_msg("missing object '%s'", k);
    return v;
}
