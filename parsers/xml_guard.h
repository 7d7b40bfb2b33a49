/* A byte-level guard in front of libxml2's reader for result files in XML (JMeter's JTL).
 *
 * It reads the raw bytes once, with a small state machine that knows start and end tags,
 * quoted attribute values, comments, CDATA sections and processing instructions, and:
 *   - refuses a start tag with more than PR_XML_MAX_ATTRS attributes before libxml2 sees it
 *     (libxml2 2.9's duplicate-attribute check is quadratic: 100k attributes on one element
 *     cost minutes of CPU);
 *   - drops the content of bulky elements the reader never uses (response bodies, headers):
 *     a 200 MB <responseData> streams through in constant memory and never becomes a text
 *     node, so libxml2's 10 MB text limit stays in force for the tree (no XML_PARSE_HUGE).
 *     Line breaks of dropped content are kept (and a "<!---->" every 65,536 of them splits
 *     the remaining text), so every line:col libxml2 reports stays exact.
 * The guard does not check well-formedness: what it passes on is checked by libxml2. */
#ifndef PR_XML_GUARD_H
#define PR_XML_GUARD_H
#include <stddef.h>
#include <stdint.h>
#include "model/error.h"

#define PR_XML_MAX_ATTRS 1024

/* An attribute the caller never reads, or whose value it ignores when it is `value`
 * (NULL: any value), blanked in the bytes libxml2 gets (pr_xml_guard.blank). */
typedef struct pr_xml_blank {
    const char *name;  /* two bytes */
    const char *value; /* or NULL */
} pr_xml_blank;

typedef struct pr_xml_guard {
    const char *const *skip; /* element names whose content is dropped (NULL-terminated) */
    int state;
    int match;              /* progress through "--", "[CDATA[", "-->", "]]>", "?>" */
    char quote;             /* the quote that opened the attribute value being read */
    int end_tag;            /* the tag being read is an end tag */
    int slash;              /* the last byte of the tag so far was '/' */
    char name[32];          /* the start of the tag's name */
    size_t name_n;          /* its length (past sizeof name: not a skipped name) */
    size_t attrs;           /* attributes of the start tag being read */
    int skipping;           /* inside a skipped element: its nesting depth, else 0 */
    size_t newlines;        /* line breaks kept since the last split */
    long line, col;         /* position of the byte being read (1-based) */
    long tag_line, tag_col; /* where the current tag starts */
    long long dropped;      /* bytes of skipped content dropped */
    char root[32];          /* the name of the first element (cut to 31 bytes) */
    size_t root_n;          /* its length; 0 until its name has been read */
    int narrow;             /* 1: tags scanned by byte tables only (tests compare the two) */
    /* Attributes of the start tags named in blank_in (NULL-terminated) that are replaced by as
     * many spaces before libxml2 sees them (each costs it more than 1,000 instructions: a
     * name, a value, two nodes). Only a plain name="value" (ASCII, no '<' or '&') that the tag
     * has once, after a space and before a space, '>' or '/', in a tag of such attributes
     * only: then the attribute can raise no error, nor hide one (a duplicate, missing space),
     * and every line:col stays. NULL: none (the caller sets it, e.g. not in --recover mode,
     * where libxml2's error recovery could depend on those bytes); set by pr_xml_guard_blank. */
    const pr_xml_blank *blank;
    const char *const *blank_in;
    uint64_t blank_first[4]; /* the first bytes of the blank names, a bit each */
    const char *blank_root;  /* ... once the first element is this one */
    int blank_on;            /* 0 until the root is read, then 1 (it is blank_root) or -1 */
} pr_xml_guard;

/* Starts a guard over a new input; skip names the elements whose content is dropped. */
void pr_xml_guard_init(pr_xml_guard *g, const char *const *skip);
/* Sets g->blank (at most 8 rules) and g->blank_in, in force once the root element is `root`
 * (its name in ASCII bytes: an encoding where the guard's bytes are the characters); blank
 * NULL: none. */
void pr_xml_guard_blank(pr_xml_guard *g, const pr_xml_blank *blank, const char *const *in,
                        const char *root);
/* Filters in[0..n) into out (cap bytes, at least 32): *used gets how many input bytes were
 * consumed (fewer than n when out is full). Returns the bytes written, or PR_EPARSE with err
 * filled ("name:line:col: element <x> has more than 1024 attributes"). */
long pr_xml_guard_filter(pr_xml_guard *g, const char *in, size_t n, size_t *used, char *out,
                         size_t cap, const char *name, pr_error *err);

#endif
