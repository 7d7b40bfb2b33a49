/* String interning with an open-addressing hash table and one growing arena. */
#include "model/strtab.h"
#include "model/xalloc.h"
#include <stdlib.h>
#include <string.h>

struct pr_strtab {
    char *arena; /* all strings, each NUL-terminated */
    size_t arena_len, arena_cap;
    size_t *off;    /* off[id] = arena offset; off[0] unused */
    uint32_t *len;  /* len[id] */
    uint32_t count; /* next id */
    size_t off_cap;
    uint32_t *slots; /* hash slots holding ids, 0 = empty */
    size_t nslots;   /* power of two */
};

static uint64_t hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h ^ (h >> 29);
}

pr_strtab *pr_strtab_new(void)
{
    pr_strtab *t = pr_xcalloc(1, sizeof *t);
    t->count = 1;
    t->nslots = 64;
    t->slots = pr_xcalloc(t->nslots, sizeof *t->slots);
    t->off_cap = 16;
    t->off = pr_xcalloc(t->off_cap, sizeof *t->off);
    t->len = pr_xcalloc(t->off_cap, sizeof *t->len);
    t->arena_cap = 1024;
    t->arena = pr_xmalloc(t->arena_cap);
    t->arena[0] = 0; /* id 0 -> "" */
    t->arena_len = 1;
    return t;
}

void pr_strtab_free(pr_strtab *t)
{
    if (!t)
        return;
    free(t->arena);
    free(t->off);
    free(t->len);
    free(t->slots);
    free(t);
}

static void rehash(pr_strtab *t)
{
    size_t n = t->nslots * 2;
    uint32_t *slots = pr_xcalloc(n, sizeof *slots);
    for (uint32_t id = 1; id < t->count; id++) {
        size_t i = hash(t->arena + t->off[id], t->len[id]) & (n - 1);
        while (slots[i])
            i = (i + 1) & (n - 1);
        slots[i] = id;
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = n;
}

uint32_t pr_strtab_find(const pr_strtab *t, const char *s, size_t n)
{
    if (n > PR_STR_MAX)
        n = PR_STR_MAX;
    size_t i = hash(s, n) & (t->nslots - 1);
    for (;;) {
        uint32_t id = t->slots[i];
        if (!id)
            return 0;
        if (t->len[id] == n && memcmp(t->arena + t->off[id], s, n) == 0)
            return id;
        i = (i + 1) & (t->nslots - 1);
    }
}

uint32_t pr_strtab_intern(pr_strtab *t, const char *s, size_t n)
{
    if (n > PR_STR_MAX)
        n = PR_STR_MAX;
    if (n == 0)
        return 0;
    size_t i = hash(s, n) & (t->nslots - 1);
    for (;;) {
        uint32_t id = t->slots[i];
        if (!id)
            break;
        if (t->len[id] == n && memcmp(t->arena + t->off[id], s, n) == 0)
            return id;
        i = (i + 1) & (t->nslots - 1);
    }
    uint32_t id = t->count++;
    if (id >= t->off_cap) {
        size_t cap = t->off_cap;
        t->off = pr_xgrow(t->off, &cap, (size_t)id + 1, sizeof *t->off);
        t->len = pr_xrealloc(t->len, cap * sizeof *t->len);
        t->off_cap = cap;
    }
    t->arena = pr_xgrow(t->arena, &t->arena_cap, t->arena_len + n + 1, 1);
    memcpy(t->arena + t->arena_len, s, n);
    t->arena[t->arena_len + n] = 0;
    t->off[id] = t->arena_len;
    t->len[id] = (uint32_t)n;
    t->arena_len += n + 1;
    t->slots[i] = id;
    if ((size_t)t->count * 2 > t->nslots)
        rehash(t);
    return id;
}

uint32_t pr_strtab_intern_cstr(pr_strtab *t, const char *s)
{
    return s ? pr_strtab_intern(t, s, strlen(s)) : 0;
}

const char *pr_strtab_get(const pr_strtab *t, uint32_t id)
{
    if (id == 0 || id >= t->count)
        return "";
    return t->arena + t->off[id];
}

size_t pr_strtab_len(const pr_strtab *t, uint32_t id)
{
    if (id == 0 || id >= t->count)
        return 0;
    return t->len[id];
}

uint32_t pr_strtab_count(const pr_strtab *t)
{
    return t->count;
}
