/* The memory this process may still take: the least of the machine's available memory, its
 * cgroup's remaining limit and its address-space limit (RLIMIT_AS). */
#ifndef PR_SYSMEM_H
#define PR_SYSMEM_H
#include <stdint.h>

/* Bytes; PERFREPORT_MEMORY (bytes, or with a k/M/G suffix) overrides, for tests. A very
 * large number when nothing can be read. */
int64_t pr_sysmem_available(void);

#endif
