/* Error values carrying a location and a message. */
#include "model/error.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void pr_error_clear(pr_error *err)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    err->offset = -1;
}

static void set_path(pr_error *err, const char *path)
{
    if (path)
        snprintf(err->path, sizeof err->path, "%s", path);
    else
        err->path[0] = 0;
}

int pr_error_set(pr_error *err, int code, const char *path, long line, long col, const char *fmt,
                 ...)
{
    if (!err)
        return code;
    err->code = code;
    set_path(err, path);
    err->line = line;
    err->col = col;
    err->offset = -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return code;
}

int pr_error_at_offset(pr_error *err, int code, const char *path, long long offset, const char *fmt,
                       ...)
{
    if (!err)
        return code;
    err->code = code;
    set_path(err, path);
    err->line = 0;
    err->col = 0;
    err->offset = offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return code;
}

const char *pr_error_format(const pr_error *err, char *buf, unsigned size)
{
    int n = 0;
    buf[0] = 0;
    if (err->path[0])
        n = snprintf(buf, size, "%s:", err->path);
    if (n >= 0 && (unsigned)n < size && err->line > 0) {
        n += snprintf(buf + n, size - n, "%ld:", err->line);
        if (n >= 0 && (unsigned)n < size && err->col > 0)
            n += snprintf(buf + n, size - n, "%ld:", err->col);
    } else if (n >= 0 && (unsigned)n < size && err->offset >= 0) {
        n += snprintf(buf + n, size - n, "%soffset %lld:", n > 0 ? " " : "", err->offset);
    }
    if (n >= 0 && (unsigned)n < size)
        snprintf(buf + n, size - n, "%s%s", n > 0 ? " " : "", err->msg);
    return buf;
}
