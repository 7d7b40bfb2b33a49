/* A streaming decoder of Go's encoding/gob wire format: messages, a type table built from the
 * stream's own definitions, and a cursor for walking values by the table.
 *
 * Use: pr_gob_open() over a pr_input, then pr_gob_next() for each value message. Definitions
 * met on the way go into the type table (resolved lazily: they may refer to ids defined later).
 * A definition of an id that is already defined starts a new stream (`cat a.bin b.bin`): the
 * table is cleared first and pr_gob_generation() changes, so callers remap field names.
 * Inside a value, pr_gob_field() walks struct fields and the read/skip functions consume one
 * value each. Everything is bounded: message length (PR_GOB_MSG_MAX), nesting depth, element
 * counts (never more than the bytes left in the message), table size, name lengths. Large
 * byte strings are skipped by streaming, never buffered whole. */
#ifndef PR_GOB_H
#define PR_GOB_H
#include <stddef.h>
#include <stdint.h>
#include "model/error.h"
#include "model/input.h"

#define PR_GOB_MSG_MAX (1ll << 30) /* longest message accepted (1 GiB, as Go's decoder) */
#define PR_GOB_DEPTH_MAX 64        /* deepest nesting of values */
#define PR_GOB_TYPES_MAX 4096      /* type definitions per stream */
#define PR_GOB_FIELDS_MAX 1024     /* fields per struct type */
#define PR_GOB_NAME_MAX 1024       /* longest type or field name */

/* Built-in type ids (Go's encoding/gob). User types start at 65. */
enum {
    PR_GOB_ID_BOOL = 1,
    PR_GOB_ID_INT = 2,
    PR_GOB_ID_UINT = 3,
    PR_GOB_ID_FLOAT = 4,
    PR_GOB_ID_BYTES = 5,
    PR_GOB_ID_STRING = 6,
    PR_GOB_ID_COMPLEX = 7,
    PR_GOB_ID_INTERFACE = 8
};

typedef enum pr_gob_kind {
    PR_GOB_NONE = 0,
    PR_GOB_BOOL,
    PR_GOB_INT,
    PR_GOB_UINT,
    PR_GOB_FLOAT,
    PR_GOB_BYTES,
    PR_GOB_STRING,
    PR_GOB_COMPLEX,
    PR_GOB_INTERFACE,
    PR_GOB_ARRAY,
    PR_GOB_SLICE,
    PR_GOB_STRUCT,
    PR_GOB_MAP,
    PR_GOB_GOBENCODER,
    PR_GOB_BINARY,
    PR_GOB_TEXT /* opaque: length + bytes */
} pr_gob_kind;

typedef struct pr_gob_field {
    char *name;
    int64_t id;
} pr_gob_field;

/* One entry of the type table (borrowed from the decoder; valid until the table restarts). */
typedef struct pr_gob_type {
    int64_t id;
    pr_gob_kind kind;
    char *name;           /* type name, "" if unnamed */
    int64_t elem;         /* array, slice, map element type id */
    int64_t key;          /* map key type id */
    int64_t len;          /* array length */
    pr_gob_field *fields; /* struct fields in wire order: field number = index */
    size_t nfields;
} pr_gob_type;

typedef struct pr_gob pr_gob;

/* A decoder streaming over `in` (borrowed). */
pr_gob *pr_gob_open(pr_input *in);
/* A decoder over a memory block (borrowed), e.g. for sniffing the first bytes; `name` is used
 * in messages. Running out of bytes is reported as PR_ETRUNC. */
pr_gob *pr_gob_open_mem(const char *name, const void *data, size_t len);
void pr_gob_free(pr_gob *g);

/* Reads messages up to the next value message, adding definitions to the type table.
 * Returns 1 with *type_id set (the cursor is at the start of the value; a top-level
 * non-struct value's leading 0 byte has been consumed), 0 at a clean end of input, or a
 * negative code: PR_ETRUNC if input ends inside a message, PR_EFORMAT/PR_EPARSE for bad
 * data, PR_EIO. A value left partly read is skipped by the next call. */
int pr_gob_next(pr_gob *g, int64_t *type_id, pr_error *err);

/* The type with this id (built-in or defined), or NULL. */
const pr_gob_type *pr_gob_type_get(pr_gob *g, int64_t id);
/* Counts table restarts plus definitions added: changes whenever callers must remap. */
unsigned long pr_gob_generation(const pr_gob *g);
/* Number of stream starts seen so far (1 after the first definitions, 2 after a second
 * stream's definitions, ...). */
unsigned pr_gob_streams(const pr_gob *g);
/* Byte offset of the cursor and of the start of the current message. */
long long pr_gob_offset(const pr_gob *g);
long long pr_gob_msg_offset(const pr_gob *g);

/* Struct walking: *field holds the previous field number (start with -1). Returns 1 with
 * *field set to the next present field number (checked against the type's field count),
 * 0 at the end of the struct, negative on error. */
int pr_gob_next_field(pr_gob *g, const pr_gob_type *st, long *field, pr_error *err);
/* Reads one value of the given primitive encoding. */
int pr_gob_read_uint(pr_gob *g, uint64_t *out, pr_error *err);
int pr_gob_read_int(pr_gob *g, int64_t *out, pr_error *err);
/* Reads a length-prefixed value (string, []byte, GobEncoder data...). *p points at the first
 * min(len, max) bytes (valid until the next call on g); *len gets the full length; bytes past
 * max are skipped. */
int pr_gob_read_bytes(pr_gob *g, const unsigned char **p, size_t *len, size_t max, pr_error *err);
/* Skips one value of type `id`, whatever it is. */
int pr_gob_skip(pr_gob *g, int64_t id, pr_error *err);
/* Whether skips may take their unchecked shortcuts (on by default) where the checked walk
 * would consume the same bytes; tests turn them off to compare both ways. */
void pr_gob_set_fast_skip(pr_gob *g, int on);
/* Skips whatever is left of the current message. */
int pr_gob_skip_message(pr_gob *g, pr_error *err);

/* One pass over a whole struct value: what pr_gob_read_struct does with each field. */
enum {
    PR_GOB_OP_NONE = 0,    /* not handled: the value is read field by field */
    PR_GOB_OP_UINT,        /* a uint into u */
    PR_GOB_OP_INT,         /* an int into i */
    PR_GOB_OP_BYTES,       /* a length-prefixed value of at most max[f] bytes into p, n */
    PR_GOB_OP_SKIP_UINT,   /* skipped: bool, int, uint, float */
    PR_GOB_OP_SKIP_BYTES,  /* skipped: string, []byte */
    PR_GOB_OP_SKIP_STRMAP, /* skipped: map[string]string */
    PR_GOB_OP_SKIP_STRSMAP /* skipped: map[string][]string (http.Header) */
};
/* Fields of a struct pr_gob_read_struct takes (a bit each in *present). */
#define PR_GOB_READ_STRUCT_MAX 64
typedef struct pr_gob_val {
    uint64_t u;
    int64_t i;
    const unsigned char *p; /* into the decoder's buffer: valid until the next call on g */
    size_t n;
} pr_gob_val;
/* The skip op for a field of type id (PR_GOB_OP_NONE when it is not a simple one). */
int pr_gob_skip_op(pr_gob *g, int64_t id);
/* Reads the struct value of type t at the cursor (where pr_gob_next leaves it) at once, when
 * its message is buffered whole and every field present has an op (at most
 * PR_GOB_READ_STRUCT_MAX fields): 1 with
 * out[f] for the fields read and *present (bit f: field f came), the cursor past the struct's
 * end; 0 when it cannot (nothing consumed: the caller walks the fields with
 * pr_gob_next_field, which then gives the error where there is one). Off with the fast skips
 * (pr_gob_set_fast_skip). Consumes exactly what the field-by-field walk would. */
int pr_gob_read_struct(pr_gob *g, const pr_gob_type *t, const unsigned char *ops, const size_t *max,
                       pr_gob_val *out, uint64_t *present);
/* The cursor, and back to it: only between pr_gob_read_struct and the next call on g (the
 * caller found a value it would rather read field by field). */
size_t pr_gob_mark(const pr_gob *g);
void pr_gob_back(pr_gob *g, size_t mark);

#endif
