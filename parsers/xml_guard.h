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
    int prolog;              /* 1 once the document's first bytes were seen */
    int utf8;                /* 1: they say XML 1.0 in UTF-8 (non-ASCII values may go) */
    int tag_blank;           /* the start tag just read is a blank_in element's */
    int take;                /* 1: take whole attribute lists (pr_xml_guard_take) */
    /* The start tags of blank_in elements, in document order, queued for the caller
     * (pr_xml_guard_next): each with its line and, when the guard took its attributes out of
     * the bytes, their names and values. Owned by the guard. */
    struct pr_xml_qtag *q;     /* the queue: q[q_head..q_n) */
    size_t q_head, q_n, q_cap; /* (records) */
    char *kv;                  /* the taken "name\0value\0" pairs: kv[kv_head..kv_n) */
    size_t kv_head, kv_n, kv_cap;
    long long taken; /* start tags whose attributes were taken */
} pr_xml_guard;

/* A start tag of a blank_in element as the guard saw it (pr_xml_guard_next). */
typedef struct pr_xml_tag {
    long line;      /* the line of its '>' */
    int taken;      /* 1: its attributes are in kv, and libxml2 sees none of them */
    size_t n;       /* how many (taken only) */
    const char *kv; /* n pairs "name\0value\0", in the tag's order */
} pr_xml_tag;

/* What the guard takes out of the bytes at most, per tag: its attributes' count, and the
 * bytes the queue holds (past either, the tag is left to libxml2 as before). */
#define PR_XML_TAKE_MAX_ATTRS 64
#define PR_XML_TAKE_MAX_BYTES (4u << 20)

/* Starts a guard over a new input; skip names the elements whose content is dropped. */
void pr_xml_guard_init(pr_xml_guard *g, const char *const *skip);
/* Sets g->blank (at most 8 rules) and g->blank_in, in force once the root element is `root`
 * (its name in ASCII bytes: an encoding where the guard's bytes are the characters); blank
 * NULL: none. */
void pr_xml_guard_blank(pr_xml_guard *g, const pr_xml_blank *blank, const char *const *in,
                        const char *root);
/* Turns on the taking of attributes (after pr_xml_guard_blank, which names the elements): a
 * blank_in start tag whose attributes are all plain (the form g->blank allows, each name once,
 * no "xmlns", at most PR_XML_TAKE_MAX_ATTRS) has them all copied to the queue and replaced by
 * spaces, so that libxml2 parses an element with none (a JMeter sample's seventeen cost it
 * more than half of its parse); every other blank_in start tag is queued untaken. The caller
 * then takes, for each such element libxml2 reports, in order, its entry (pr_xml_guard_next):
 * every one, including those it skips, so the two stay in step; the line lets it check. */
void pr_xml_guard_take(pr_xml_guard *g);
/* The next queued start tag into *t: 1, or 0 when the queue is empty. t->kv stays valid until
 * the next pr_xml_guard_filter or pr_xml_guard_dispose. */
int pr_xml_guard_next(pr_xml_guard *g, pr_xml_tag *t);
/* Frees the queue (the guard may be started again with pr_xml_guard_init). */
void pr_xml_guard_dispose(pr_xml_guard *g);
/* Filters in[0..n) into out (cap bytes, at least 32): *used gets how many input bytes were
 * consumed (fewer than n when out is full). Returns the bytes written, or PR_EPARSE with err
 * filled ("name:line:col: element <x> has more than 1024 attributes"). */
long pr_xml_guard_filter(pr_xml_guard *g, const char *in, size_t n, size_t *used, char *out,
                         size_t cap, const char *name, pr_error *err);

#endif
