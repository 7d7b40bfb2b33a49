/* Whole-document JSON inputs (see jsondoc.h). */
#include "parsers/jsondoc.h"
#include "model/xalloc.h"
#include <stdlib.h>

int pr_jsondoc_load(pr_input *in, json_t **out, pr_error *err)
{
    size_t cap = 0, n = 0;
    char *buf = NULL;
    for (;;) {
        buf = pr_xgrow(buf, &cap, n + 65536, 1);
        long got = pr_input_read(in, buf + n, cap - n, err);
        if (got < 0) {
            free(buf);
            return PR_EIO;
        }
        if (got == 0)
            break;
        n += (size_t)got;
        if (n > PR_JSONDOC_MAX) {
            free(buf);
            return pr_error_set(err, PR_EPARSE, pr_input_name(in), 0, 0,
                                "report larger than 256 MiB");
        }
    }
    json_error_t je;
    json_t *doc = json_loadb(buf, n, JSON_REJECT_DUPLICATES, &je);
    free(buf);
    if (!doc)
        return pr_error_set(err, n ? PR_EPARSE : PR_EFORMAT, pr_input_name(in), je.line, je.column,
                            "%s", n ? je.text : "empty input: expected a JSON report");
    if (!json_is_object(doc)) {
        json_decref(doc);
        return pr_error_set(err, PR_EFORMAT, pr_input_name(in), 1, 1, "expected a JSON object");
    }
    *out = doc;
    return 0;
}

int pr_jsondoc_num(const json_t *o, const char *key, double *v)
{
    json_t *x = json_object_get(o, key);
    if (!json_is_number(x))
        return -1;
    *v = json_number_value(x);
    return 0;
}
