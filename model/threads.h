/* How many threads a job may use: one reading of PERFREPORT_THREADS for the whole program. */
#ifndef PR_THREADS_H
#define PR_THREADS_H

/* The most any job uses (fixed-size thread tables are sized by it). */
#define PR_THREADS_MAX 8

/* PERFREPORT_THREADS when it is a number (clamped to 1..PR_THREADS_MAX; 1 turns threading
 * off everywhere: ingest's writer, the scans, sorts and charts), else the online processors,
 * at most 2 (the machines this runs on share their cores). */
int pr_threads(void);

#endif
