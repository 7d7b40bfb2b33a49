/* Test helper: reading a whole file (or its first bytes) into memory. */
#ifndef PR_TEST_FILES_H
#define PR_TEST_FILES_H
#include <stddef.h>

/* The file at path, NUL-terminated, in a malloc'd buffer (the caller frees): all of it, or at
 * most max bytes when max > 0. *len (len may be NULL) gets the length. Fails the running
 * test, naming the path, when the file cannot be read. */
char *test_read_file(const char *path, size_t max, size_t *len);

#endif
