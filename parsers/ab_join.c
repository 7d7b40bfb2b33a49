/* Joining the outputs of one ab run (-g samples, text report, -e CSV) into one run. */
#include "parsers/ab.h"
#include "parsers/textsum.h"
#include "model/xalloc.h"
#include <stdlib.h>
#include <string.h>

void pr_ab_merge_summary(json_t *into, const json_t *from)
{
    pr_textsum_merge(into, from);
}

void pr_ab_join(pr_run *into, const pr_run *from)
{
    if (json_is_object(from->summary)) {
        if (!json_is_object(into->summary)) {
            json_decref(into->summary);
            into->summary = json_object();
        }
        pr_textsum_merge(into->summary, from->summary);
    }
    if (json_is_object(from->meta)) {
        json_t *notes = json_object_get(from->meta, "notes");
        size_t i;
        json_t *n;
        json_array_foreach(notes, i, n)
            if (json_is_string(n))
                pr_textsum_note(into, json_string_value(n));
        json_t *rest = json_deep_copy(from->meta);
        json_object_del(rest, "notes");
        pr_textsum_merge(into->meta, rest);
        json_decref(rest);
    }
    if (into->concurrency < 0)
        into->concurrency = from->concurrency;
    if (!into->tool_version && from->tool_version)
        into->tool_version = pr_xstrdup(from->tool_version);
    if (into->load_model == PR_LOAD_UNKNOWN)
        into->load_model = from->load_model;
}
