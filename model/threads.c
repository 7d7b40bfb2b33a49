/* The thread count every threaded job asks for (model/threads.h). */
#include "model/threads.h"
#include <stdlib.h>
#include <unistd.h>

int pr_threads(void)
{
    const char *e = getenv("PERFREPORT_THREADS");
    if (e && *e) {
        char *end;
        long t = strtol(e, &end, 10);
        if (!*end)
            return t < 1 ? 1 : t > PR_THREADS_MAX ? PR_THREADS_MAX : (int)t;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n >= 2 ? 2 : 1;
}
