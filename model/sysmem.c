/* The memory available to this process: /proc/meminfo, cgroups v2 and v1, RLIMIT_AS. */
#include "model/sysmem.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define NO_LIMIT ((int64_t)1 << 62)

/* The first integer in file path (after `key` when given), times unit; -1 when absent. */
static int64_t read_num(const char *path, const char *key, int64_t unit)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[256];
    int64_t v = -1;
    while (fgets(line, sizeof line, f)) {
        const char *p = line;
        if (key) {
            size_t k = strlen(key);
            if (strncmp(line, key, k) != 0)
                continue;
            p += k;
        }
        char *end;
        long long x = strtoll(p, &end, 10);
        if (end != p)
            v = (int64_t)x * unit;
        break; /* "max" (no limit) leaves -1 */
    }
    fclose(f);
    return v;
}

static int64_t least(int64_t a, int64_t b)
{
    return b >= 0 && b < a ? b : a;
}

/* This process's virtual size (bytes), for the room RLIMIT_AS leaves. */
static int64_t vm_size(void)
{
    int64_t pages = read_num("/proc/self/statm", NULL, 1);
    long page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? pages * page : 0;
}

/* "512M", "2G", "1000000". */
static int64_t parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    int64_t mult = *end == 'k' || *end == 'K'   ? 1024
                   : *end == 'm' || *end == 'M' ? 1024 * 1024
                   : *end == 'g' || *end == 'G' ? (int64_t)1024 * 1024 * 1024
                                                : 1;
    return v > 0 ? (int64_t)(v * (double)mult) : 0;
}

int64_t pr_sysmem_available(void)
{
    const char *e = getenv("PERFREPORT_MEMORY");
    if (e && *e)
        return parse_size(e);
    int64_t avail = NO_LIMIT;
    avail = least(avail, read_num("/proc/meminfo", "MemAvailable:", 1024));
    int64_t max2 = read_num("/sys/fs/cgroup/memory.max", NULL, 1); /* cgroup v2 */
    if (max2 >= 0)
        avail = least(avail, max2 - read_num("/sys/fs/cgroup/memory.current", NULL, 1));
    int64_t max1 = read_num("/sys/fs/cgroup/memory/memory.limit_in_bytes", NULL, 1);
    if (max1 >= 0 && max1 < NO_LIMIT) /* v1 says "no limit" with a huge number */
        avail =
            least(avail, max1 - read_num("/sys/fs/cgroup/memory/memory.usage_in_bytes", NULL, 1));
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        avail = least(avail, (int64_t)rl.rlim_cur - vm_size());
    return avail > 0 ? avail : 0;
}
