/* LEB128 unsigned varints and zigzag signed mapping, shared by the native codec and the store. */
#ifndef PR_VARINT_H
#define PR_VARINT_H
#include <stddef.h>
#include <stdint.h>

static inline uint64_t pr_zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t pr_unzigzag(uint64_t u)
{
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

static inline unsigned pr_uvarint_len(uint64_t v)
{
    unsigned n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

/* Writes v at p (room for 10 bytes); returns bytes written. */
static inline unsigned pr_uvarint_put(unsigned char *p, uint64_t v)
{
    unsigned n = 0;
    while (v >= 0x80) {
        p[n++] = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (unsigned char)v;
    return n;
}

/* Reads a varint from [*p, end); advances *p. Returns 0, or -1 if truncated/overlong. */
static inline int pr_uvarint_get(const unsigned char **p, const unsigned char *end, uint64_t *out)
{
    const unsigned char *q = *p;
    uint64_t v = 0;
    unsigned shift = 0;
    while (q < end) {
        unsigned char b = *q++;
        if (shift == 63 && b > 1)
            return -1;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *p = q;
            *out = v;
            return 0;
        }
        shift += 7;
        if (shift > 63)
            return -1;
    }
    return -1;
}

#endif
