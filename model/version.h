/* The perfreport version, one definition for the CLI, run metadata and generated files. */
#ifndef PR_VERSION_H
#define PR_VERSION_H
#define PR_VERSION "0.1.0"
#endif
