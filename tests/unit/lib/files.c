/* Test helper: whole files (or their first bytes) in memory. */
#include "tests/unit/lib/files.h"
#include "model/xalloc.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

char *test_read_file(const char *path, size_t max, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    size_t cap = max ? max + 1 : 65536, n = 0, k;
    char *buf = pr_xmalloc(cap);
    while ((k = fread(buf + n, 1, cap - 1 - n, f)) > 0) {
        n += k;
        if (n == cap - 1 && !max)
            buf = pr_xgrow(buf, &cap, cap * 2, 1);
        else if (n == cap - 1)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad)
        fail_msg("cannot read %s", path);
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}
