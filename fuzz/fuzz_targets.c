/* Fuzz target: the attack's targets files (Vegeta's HTTP and JSON targets formats, and telling
 * them apart), then the serialisation of every request read. "@body" lines name files: inputs
 * naming absolute or parent paths are skipped, so the target never reads the machine's files
 * outside the folder it runs in (or blocks on a device). */
#include <stdint.h>
#include <string.h>
#include "gen/targets.h"
#include "model/input.h"

static int names_outside(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i + 1 < size; i++)
        if ((data[i] == '@' && (data[i + 1] == '/' || data[i + 1] == '~')) ||
            (data[i] == '.' && data[i + 1] == '.'))
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (names_outside(data, size))
        return 0;
    static const char *const formats[] = {NULL, "http", "json"};
    static const char *const headers[] = {"X-Fuzz: 1"};
    for (size_t i = 0; i < 3; i++) {
        pr_targets t;
        pr_targets_init(&t);
        pr_input *in = pr_input_mem("fuzz", data, size);
        pr_error err;
        pr_error_clear(&err);
        if (pr_targets_read(&t, in, formats[i], &err) == 0)
            (void)pr_targets_finish(&t, headers, 1, "b", 1, (int)(size & 1), &err);
        pr_input_close(in);
        pr_targets_dispose(&t);
    }
    return 0;
}
