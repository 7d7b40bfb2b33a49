/* The XML guard: attributes per element capped, bulky element content dropped, in one pass. */
#include "parsers/xml_guard.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "model/xalloc.h"

/* A queued start tag (pr_xml_guard.q): its pairs are kv[off..off+len). */
struct pr_xml_qtag {
    long line;
    int taken;
    uint32_t n;
    size_t off, len;
};

enum { G_TEXT, G_LT, G_NAME, G_TAG, G_QUOTE, G_BANG, G_COMMENT, G_CDATA, G_DECL, G_PI };

#define SPLIT_LINES 65536
static const char split_mark[] = "<!---->";

void pr_xml_guard_init(pr_xml_guard *g, const char *const *skip)
{
    memset(g, 0, sizeof *g);
    g->skip = skip;
    g->state = G_TEXT;
    g->line = g->col = 1;
}

/* Moves the position over in[0..k). */
static void advance(pr_xml_guard *g, const char *in, size_t k)
{
    const char *nl = in, *last = NULL;
    while ((nl = memchr(nl, '\n', k - (size_t)(nl - in)))) {
        g->line++;
        last = nl++;
    }
    g->col = last ? (long)(in + k - last) : g->col + (long)k;
}

static int skipped_name(const pr_xml_guard *g)
{
    if (g->name_n >= sizeof g->name)
        return 0;
    for (size_t i = 0; g->skip && g->skip[i]; i++) /* the first byte first: most tags differ */
        if (g->skip[i][0] == g->name[0] && strlen(g->skip[i]) == g->name_n &&
            !memcmp(g->skip[i], g->name, g->name_n))
            return 1;
    return 0;
}

/* Inside skipped content only line breaks are written (a split mark every SPLIT_LINES). */
static size_t keep_newline(pr_xml_guard *g, char *out)
{
    out[0] = '\n';
    if (++g->newlines < SPLIT_LINES)
        return 1;
    g->newlines = 0;
    memcpy(out + 1, split_mark, sizeof split_mark - 1);
    return sizeof split_mark;
}

void pr_xml_guard_dispose(pr_xml_guard *g)
{
    free(g->q);
    free(g->kv);
    g->q = NULL;
    g->kv = NULL;
    g->q_head = g->q_n = g->q_cap = g->kv_head = g->kv_n = g->kv_cap = 0;
}

int pr_xml_guard_next(pr_xml_guard *g, pr_xml_tag *t)
{
    if (g->q_head == g->q_n)
        return 0;
    const struct pr_xml_qtag *q = &g->q[g->q_head++];
    t->line = q->line;
    t->taken = q->taken;
    t->n = q->taken ? q->n : 0;
    t->kv = q->taken && q->n ? g->kv + q->off : NULL;
    if (q->taken)
        g->kv_head = q->off + q->len;
    if (g->q_head == g->q_n) /* empty: start again at the front (t->kv stays readable) */
        g->q_head = g->q_n = g->kv_head = g->kv_n = 0;
    return 1;
}

/* Room for one more queued tag and `bytes` more pairs: the queue moved to the front of its
 * arrays, then grown. */
static void queue_room(pr_xml_guard *g, size_t bytes)
{
    if ((g->q_n == g->q_cap || g->kv_n + bytes > g->kv_cap) && g->q_head > 0) {
        size_t off = g->kv_head;
        memmove(g->q, g->q + g->q_head, (g->q_n - g->q_head) * sizeof *g->q);
        g->q_n -= g->q_head;
        g->q_head = 0;
        for (size_t i = 0; i < g->q_n; i++)
            g->q[i].off -= g->q[i].taken ? off : 0;
        if (g->kv)
            memmove(g->kv, g->kv + off, g->kv_n - off);
        g->kv_n -= off;
        g->kv_head = 0;
    }
    if (g->q_n == g->q_cap) {
        g->q_cap = g->q_cap ? 2 * g->q_cap : 64;
        g->q = pr_xrealloc(g->q, g->q_cap * sizeof *g->q);
    }
    if (g->kv_n + bytes > g->kv_cap) {
        while (g->kv_n + bytes > g->kv_cap)
            g->kv_cap = g->kv_cap ? 2 * g->kv_cap : 4096;
        g->kv = pr_xrealloc(g->kv, g->kv_cap);
    }
}

/* Queues the start tag just read, untaken (a taken one is marked so by take_attrs). */
static void queue_tag(pr_xml_guard *g)
{
    queue_room(g, 0);
    struct pr_xml_qtag *q = &g->q[g->q_n++];
    q->line = g->line;
    q->taken = 0;
    q->n = 0;
    q->off = g->kv_n;
    q->len = 0;
}

static int blank_element(pr_xml_guard *g);

/* The end of a start tag ('>'): a skipped element begins, or one more level inside one. A
 * blank_in element's tag, outside skipped content, is queued (pr_xml_guard_take). */
static void start_tag_done(pr_xml_guard *g)
{
    g->tag_blank = !g->skipping && g->blank && blank_element(g);
    if (g->tag_blank && g->take)
        queue_tag(g);
    if (g->slash)
        return; /* <x/> has no content */
    if (g->skipping)
        g->skipping++;
    else if (skipped_name(g)) {
        g->skipping = 1;
        g->newlines = 0;
    }
}

/* One byte of markup (any state but plain text); returns -1 past the attribute cap. */
static int step(pr_xml_guard *g, char c)
{
    switch (g->state) {
    case G_LT:
        if (c == '/') {
            g->end_tag = 1;
            g->name_n = 0;
            g->state = G_NAME;
        } else if (c == '!') {
            g->state = G_BANG;
            g->match = 0;
        } else if (c == '?') {
            g->state = G_PI;
            g->match = 0;
        } else {
            g->end_tag = 0;
            g->name[0] = c;
            g->name_n = 1;
            g->attrs = 0;
            g->slash = 0;
            g->state = G_NAME;
        }
        return 0;
    case G_NAME:
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '/' && c != '>') {
            if (g->name_n < sizeof g->name)
                g->name[g->name_n] = c;
            g->name_n += g->name_n <= sizeof g->name;
            return 0;
        }
        if (!g->root_n && !g->end_tag) {
            g->root_n = g->name_n < sizeof g->root ? g->name_n : sizeof g->root - 1;
            memcpy(g->root, g->name, g->root_n);
        }
        g->state = G_TAG; /* the byte ends the name and belongs to the tag */
        /* fall through */
    case G_TAG:
        if (c == '>') {
            if (!g->end_tag)
                start_tag_done(g);
            g->state = G_TEXT;
        } else if (c == '"' || c == '\'') {
            g->quote = c;
            g->state = G_QUOTE;
        } else if (c == '=' && !g->end_tag && ++g->attrs > PR_XML_MAX_ATTRS) {
            return -1;
        }
        g->slash = c == '/';
        return 0;
    case G_QUOTE:
        if (c == g->quote)
            g->state = G_TAG;
        return 0;
    case G_BANG: { /* "<!--", "<![CDATA[" or a declaration */
        static const char comment[] = "--", cdata[] = "[CDATA[";
        const char *want = g->match < 0 ? cdata : comment;
        int k = g->match < 0 ? -g->match : g->match;
        if (k == 0 && c == '[')
            want = cdata;
        if (c != want[k]) {
            g->state = G_DECL;
            g->match = c == '[';
            return 0;
        }
        k++;
        if (want[k] == 0) {
            g->state = want == cdata ? G_CDATA : G_COMMENT;
            g->match = 0;
        } else {
            g->match = want == cdata ? -k : k;
        }
        return 0;
    }
    case G_COMMENT:
    case G_CDATA: {
        char mark = g->state == G_COMMENT ? '-' : ']';
        if (c == '>' && g->match >= 2)
            g->state = G_TEXT;
        else if (c == mark)
            g->match = g->match < 2 ? g->match + 1 : 2;
        else
            g->match = 0;
        return 0;
    }
    case G_PI:
        if (c == '>' && g->match)
            g->state = G_TEXT;
        g->match = c == '?';
        return 0;
    case G_DECL: /* a DOCTYPE (refused by the reader later); its internal subset in [...] */
        if (c == '[')
            g->match++;
        else if (c == ']')
            g->match--;
        else if (c == '>' && g->match <= 0)
            g->state = G_TEXT;
        return 0;
    default: return 0;
    }
}

/* Plain text up to the next '<': copied, or (skipped) reduced to its line breaks. */
static size_t text_run(pr_xml_guard *g, const char *in, size_t n, char *out, size_t room, size_t *w)
{
    const char *lt = memchr(in, '<', n);
    size_t k = lt ? (size_t)(lt - in) : n;
    if (!g->skipping) {
        if (k > room - *w)
            k = room - *w;
        memcpy(out + *w, in, k);
        *w += k;
    } else {
        size_t i = 0;
        for (; i < k && *w + sizeof split_mark <= room; i++) {
            if (in[i] == '\n')
                *w += keep_newline(g, out + *w);
            else
                g->dropped++;
        }
        k = i;
    }
    advance(g, in, k);
    return k;
}

/* The bytes of an attribute value before its closing quote, copied at once (most of a
 * tag's bytes: a byte at a time through step() was a quarter of a JTL's parse). */
static size_t quoted_run(pr_xml_guard *g, const char *in, size_t n, char *out, size_t room,
                         size_t *w)
{
    const char *q = memchr(in, g->quote, n);
    size_t k = q ? (size_t)(q - in) : n;
    if (k > room - *w)
        k = room > *w ? room - *w : 0;
    memcpy(out + *w, in, k);
    *w += k;
    advance(g, in, k);
    return k;
}

/* Bytes that end a run of a tag's bytes, outside a quoted value: its end ('>', '/'), a quote,
 * a line break, an '=' (counted); inside a value: its quote or a line break; and the bytes
 * that end an element's name. */
static const unsigned char tag_stop[256] = {
    ['>'] = 1, ['/'] = 1, ['"'] = 1, ['\''] = 1, ['\n'] = 1, ['='] = 1};
static const unsigned char dquote_stop[256] = {['"'] = 1, ['\n'] = 1};
static const unsigned char squote_stop[256] = {['\''] = 1, ['\n'] = 1};
static const unsigned char name_stop[256] = {
    [' '] = 1, ['\t'] = 1, ['\r'] = 1, ['\n'] = 1, ['/'] = 1, ['>'] = 1};

/* The index of the first byte of in[k..max) in `stop` (max when none is): a table look-up a
 * byte, four bytes a step while none of them stops (a branch a byte, and a compare per byte
 * it could be, were most of the guard's cost). */
static inline size_t span_to(const char *in, size_t k, size_t max, const unsigned char *stop)
{
    const unsigned char *u = (const unsigned char *)in;
    while (k + 4 <= max && !(stop[u[k]] | stop[u[k + 1]] | stop[u[k + 2]] | stop[u[k + 3]]))
        k += 4;
    while (k < max && !stop[u[k]])
        k++;
    return k;
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* The bits set in m (__builtin_popcountll is a call to libgcc without -mpopcnt). */
static inline size_t popcount64(uint64_t m)
{
    m -= m >> 1 & 0x5555555555555555ULL;
    m = (m & 0x3333333333333333ULL) + (m >> 2 & 0x3333333333333333ULL);
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (size_t)(m * 0x0101010101010101ULL >> 56);
}

/* Bit i set where an odd number of the bits 0..i of m are: with m the '"' bytes, the bytes
 * from an opening quote (included) to its closing quote (excluded). */
static inline uint64_t prefix_xor(uint64_t m)
{
    m ^= m << 1;
    m ^= m << 2;
    m ^= m << 4;
    m ^= m << 8;
    m ^= m << 16;
    return m ^ m << 32;
}

/* The first part of attrs_run, 64 bytes a step: in a JTL's tags a stop byte comes every three
 * or four bytes (' ', '=', '"' around each short value), so the byte-table scans stopped and
 * restarted ~60 times a tag. Here the stops of 64 bytes are bit masks: "-quoted values by a
 * prefix xor of the '"' bits (carried from step to step), the tag's end ('>' or '/') and a
 * '\'' outside them end the step (attrs_run goes on from there, as it does from a '"' whose
 * value does not close within max: the scan is taken back to that quote), '=' outside them
 * counted (stopping at the one past the cap), every '\n' counted. Returns where attrs_run
 * goes on, outside any value, with *lines, *nl (the last '\n') and g->attrs as its own scan
 * would have left them there. */
static size_t attrs_wide(const char *in, size_t max, size_t *attrs, int count, long *lines,
                         size_t *nl)
{
    const __m128i dq = _mm_set1_epi8('"'), sq = _mm_set1_epi8('\''), gt = _mm_set1_epi8('>'),
                  sl = _mm_set1_epi8('/'), eq = _mm_set1_epi8('='), lf = _mm_set1_epi8('\n');
    size_t k = 0, q_k = 0, q_nl = SIZE_MAX;
    long q_lines = 0;
    uint64_t inq = 0; /* all ones when a value is open at the step's start */
    while (k + 64 <= max) {
        uint64_t d = 0, st = 0, e = 0, n = 0;
        for (int i = 0; i < 4; i++) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(in + k + 16 * (size_t)i));
            __m128i sv = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, gt), _mm_cmpeq_epi8(v, sl)),
                                      _mm_cmpeq_epi8(v, sq));
            d |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, dq)) << (16 * i);
            st |= (uint64_t)(uint16_t)_mm_movemask_epi8(sv) << (16 * i);
            e |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, eq)) << (16 * i);
            n |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, lf)) << (16 * i);
        }
        uint64_t inside = prefix_xor(d) ^ inq, stop = st & ~inside;
        uint64_t before = stop ? (stop & -stop) - 1 : ~(uint64_t)0;
        if (count) {
            e &= ~inside & before;
            size_t c = popcount64(e);
            if (*attrs + c > PR_XML_MAX_ATTRS) { /* stop at the '=' past the cap */
                c = PR_XML_MAX_ATTRS - *attrs;
                for (size_t i = 0; i < c; i++)
                    e &= e - 1;
                stop = e & -e;
                before = stop - 1;
            }
            *attrs += c;
        }
        n &= before;
        long lines0 = *lines;
        size_t nl0 = *nl;
        if (n) {
            *lines += (long)popcount64(n);
            *nl = k + 63 - (size_t)__builtin_clzll(n);
        }
        if (stop)
            return k + (size_t)__builtin_ctzll(stop);
        uint64_t open = d & inside; /* opening quotes */
        inq = inside >> 63 ? ~(uint64_t)0 : 0;
        if (inq && open) { /* a value opened in this step is still open: where it began */
            size_t b = 63 - (size_t)__builtin_clzll(open);
            uint64_t nb = n & (((uint64_t)1 << b) - 1);
            q_k = k + b;
            q_lines = lines0 + (long)popcount64(nb);
            q_nl = nb ? k + 63 - (size_t)__builtin_clzll(nb) : nl0;
        }
        k += 64;
    }
    if (inq) { /* back to the quote of the value still open */
        k = q_k;
        *lines = q_lines;
        *nl = q_nl;
    }
    return k;
}

/* span_to(in, 0, max, name_stop) 16 bytes a step. */
static size_t name_wide(const char *in, size_t max)
{
    const __m128i sp = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t'), cr = _mm_set1_epi8('\r'),
                  lf = _mm_set1_epi8('\n'), sl = _mm_set1_epi8('/'), gt = _mm_set1_epi8('>');
    size_t k = 0;
    for (; k + 16 <= max; k += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(in + k));
        __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, sp), _mm_cmpeq_epi8(v, tab)),
                                 _mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, lf)));
        m = _mm_or_si128(m, _mm_or_si128(_mm_cmpeq_epi8(v, sl), _mm_cmpeq_epi8(v, gt)));
        unsigned bits = (unsigned)_mm_movemask_epi8(m);
        if (bits)
            return k + (size_t)__builtin_ctz(bits);
    }
    return span_to(in, k, max, name_stop);
}
#endif

/* A tag's attributes (not skipping), copied at once up to the tag's end ('>' or '/', left to
 * step()), '=' counted, line breaks counted in the same scan: a byte at a time through step()
 * they were most of the guard's cost, and a memchr per value (most are a few bytes) the most
 * of what was left. Stops short at a value whose quote closes past the input or the room, and
 * before the '=' past the cap (step() refuses it). */
static size_t attrs_run(pr_xml_guard *g, const char *in, size_t n, char *out, size_t room,
                        size_t *w)
{
    size_t max = room - *w < n ? room - *w : n, k = 0, nl = SIZE_MAX; /* the last '\n' */
    long lines = 0;
#if defined(__SSE2__)
    if (!g->narrow)
        k = attrs_wide(in, max, &g->attrs, !g->end_tag, &lines, &nl);
#endif
    while ((k = span_to(in, k, max, tag_stop)) < max) {
        char c = in[k];
        if (c == '>' || c == '/')
            break;
        if (c == '"' || c == '\'') {
            const unsigned char *stop = c == '"' ? dquote_stop : squote_stop;
            size_t j = k + 1, jnl = nl;
            long jl = lines;
            while ((j = span_to(in, j, max, stop)) < max && in[j] != c) { /* a '\n' */
                jl++;
                jnl = j++;
            }
            if (j == max)
                break;
            k = j + 1;
            lines = jl;
            nl = jnl;
            continue;
        }
        if (c == '\n') {
            lines++;
            nl = k;
        } else if (!g->end_tag) { /* '=' */
            if (g->attrs >= PR_XML_MAX_ATTRS)
                break;
            g->attrs++;
        }
        k++;
    }
    memcpy(out + *w, in, k);
    *w += k;
    g->line += lines;
    g->col = nl != SIZE_MAX ? (long)(k - nl) : g->col + (long)k;
    if (k)
        g->slash = 0;
    return k;
}

/* The rest of an element's name (state G_NAME, not skipping) up to the byte that ends it,
 * copied at once (step() takes that byte); the name kept up to sizeof g->name bytes, its
 * length counted to one past that (not a skipped name). */
static size_t name_run(pr_xml_guard *g, const char *in, size_t n, char *out, size_t room, size_t *w)
{
    size_t max = room - *w < n ? room - *w : n;
#if defined(__SSE2__)
    size_t k = g->narrow ? span_to(in, 0, max, name_stop) : name_wide(in, max);
#else
    size_t k = span_to(in, 0, max, name_stop);
#endif
    size_t keep = g->name_n < sizeof g->name ? sizeof g->name - g->name_n : 0;
    if (keep)
        memcpy(g->name + g->name_n, in, k < keep ? k : keep);
    g->name_n = g->name_n + k > sizeof g->name ? sizeof g->name + 1 : g->name_n + k;
    memcpy(out + *w, in, k);
    *w += k;
    g->col += (long)k;
    return k;
}

/* The start tag just read is a blank_in element's, in a document whose root is blank_root. */
static int blank_element(pr_xml_guard *g)
{
    if (g->blank_on == 0) {
        int is_root =
            g->root_n == strlen(g->blank_root) && !memcmp(g->root, g->blank_root, g->root_n);
        g->blank_on = is_root ? 1 : -1;
    }
    if (g->blank_on < 0)
        return 0;
    for (size_t i = 0; g->blank_in[i]; i++)
        if (strlen(g->blank_in[i]) == g->name_n && !memcmp(g->blank_in[i], g->name, g->name_n))
            return 1;
    return 0;
}

void pr_xml_guard_take(pr_xml_guard *g)
{
#if defined(__SSE2__) /* the taking is tag_fast's: without it, nothing is queued */
    g->take = g->blank != NULL;
#endif
}

void pr_xml_guard_blank(pr_xml_guard *g, const pr_xml_blank *blank, const char *const *in,
                        const char *root)
{
    g->blank = blank;
    g->blank_in = in;
    g->blank_root = root;
    g->blank_on = 0;
    memset(g->blank_first, 0, sizeof g->blank_first);
    for (size_t i = 0; blank && blank[i].name; i++) {
        unsigned char c = (unsigned char)blank[i].name[0];
        g->blank_first[c >> 6] |= (uint64_t)1 << (c & 63);
    }
}

#if defined(__SSE2__) /* the blanking is tag_fast's */
/* Bytes of an attribute name, and of a value that may be blanked (ASCII, no '<', '&', '"'). */
static const unsigned char attr_name_byte[256] = {
    ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1,
    ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1,
    ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1,
    ['y'] = 1, ['z'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1,
    ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1,
    ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1,
    ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1, ['0'] = 2, ['1'] = 2, ['2'] = 2, ['3'] = 2,
    ['4'] = 2, ['5'] = 2, ['6'] = 2, ['7'] = 2, ['8'] = 2, ['9'] = 2, ['_'] = 1, ['.'] = 2,
    ['-'] = 2};


#define BLANK_MAX 8 /* rules looked at (pr_xml_guard.blank) */

/* Bytes of a value the guard may take or blank: printable ASCII but '<', '&' and '"'. */
static const unsigned char plain_byte[256] = {
    [0x20 ... 0x21] = 1, [0x23 ... 0x25] = 1, [0x27 ... 0x3B] = 1, [0x3D ... 0x7E] = 1};

/* The length of the UTF-8 sequence at u (u[0] >= 0x80) of a character XML 1.0 allows, or 0
 * (a stray byte, an overlong form, a surrogate, U+FFFE, U+FFFF, past U+10FFFF). Reads no byte
 * past one that is not a continuation (a value's closing quote stops it). */
static size_t utf8_char(const unsigned char *u)
{
    unsigned c = u[0];
    if (c >= 0xC2 && c <= 0xDF)
        return (u[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if ((u[1] & 0xC0) != 0x80 || (u[2] & 0xC0) != 0x80)
            return 0;
        unsigned v = (c & 0x0Fu) << 12 | (u[1] & 0x3Fu) << 6 | (u[2] & 0x3Fu);
        return v < 0x800 || (v >= 0xD800 && v <= 0xDFFF) || v >= 0xFFFE ? 0 : 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if ((u[1] & 0xC0) != 0x80 || (u[2] & 0xC0) != 0x80 || (u[3] & 0xC0) != 0x80)
            return 0;
        unsigned v =
            (c & 0x07u) << 18 | (u[1] & 0x3Fu) << 12 | (u[2] & 0x3Fu) << 6 | (u[3] & 0x3Fu);
        return v < 0x10000 || v > 0x10FFFF ? 0 : 4;
    }
    return 0;
}

/* Takes the attributes of the start tag t[0..len) into the queue's last entry (g->take) and
 * blanks them all, when they are n plain pairs (names at nm[], values at vs[], ve[]): none
 * named twice (libxml2's error), none "xmlns" (a namespace, not an attribute); 1 if taken. */
static int take_attrs(pr_xml_guard *g, char *t, size_t e, size_t end, size_t n,
                      const uint32_t (*nm)[2], const uint32_t *vs, const uint32_t *ve)
{
    uint64_t seen = 0; /* names by first byte and length, a bit each */
    size_t bytes = 0;
    for (size_t a = 0; a < n; a++) {
        const char *k = t + nm[a][0];
        size_t kn = nm[a][1];
        if (kn == 5 && !memcmp(k, "xmlns", 5))
            return 0;
        uint64_t bit = (uint64_t)1 << (((unsigned char)k[0] ^ kn * 7) & 63);
        if (seen & bit)
            for (size_t b = 0; b < a; b++)
                if (nm[b][1] == kn && !memcmp(t + nm[b][0], k, kn))
                    return 0;
        seen |= bit;
        bytes += kn + 1 + (ve[a] - vs[a]) + 1;
    }
    if (g->kv_n - g->kv_head + bytes > PR_XML_TAKE_MAX_BYTES)
        return 0; /* the queue holds enough: this tag goes to libxml2 whole */
    queue_room(g, bytes);
    struct pr_xml_qtag *q = &g->q[g->q_n - 1];
    char *o = g->kv ? g->kv + g->kv_n : NULL; /* NULL: no pairs yet, and none here */
    for (size_t a = 0; a < n; a++) {
        memcpy(o, t + nm[a][0], nm[a][1]);
        o += nm[a][1];
        *o++ = 0;
        memcpy(o, t + vs[a], ve[a] - vs[a]);
        o += ve[a] - vs[a];
        *o++ = 0;
    }
    q->taken = 1;
    q->n = (uint32_t)n;
    q->off = g->kv_n;
    q->len = bytes;
    g->kv_n += bytes;
    g->taken++;
    memset(t + e, ' ', end - e);
    return 1;
}

/* The attributes of the start tag t[0..len) (the element name ends at t[e]): all taken
 * (take_attrs), or those g->blank lets go replaced by spaces in t (the guard's output).
 * Every attribute is read as ' ' name '=' '"' value '"' with a name of
 * [A-Za-z_][A-Za-z0-9_.-]*, up to the tag's '>' or "/>" (the scan found no '\'' there, so no
 * value holds a '"'); any other form, and nothing is taken or blanked. An attribute whose
 * name is a rule's is blanked only if that name comes once. */
static void blank_attrs(pr_xml_guard *g, char *t, size_t e, size_t len)
{
    const unsigned char *u = (const unsigned char *)t;
    size_t end = len - 1 - (t[len - 2] == '/'), i = e;
    size_t at[BLANK_MAX] = {0}; /* per rule: where its value starts (0: none to blank) */
    int seen[BLANK_MAX] = {0};
    uint32_t nm[PR_XML_TAKE_MAX_ATTRS][2], vs_[PR_XML_TAKE_MAX_ATTRS], ve_[PR_XML_TAKE_MAX_ATTRS];
    size_t na = 0;
    int take = g->take && len <= UINT32_MAX; /* still possible */
    while (i < end) {
        if (u[i] != ' ')
            return;
        size_t ns = ++i;
        if (attr_name_byte[u[i]] != 1)
            return;
        while (attr_name_byte[u[i]])
            i++;
        if (u[i] != '=' || u[i + 1] != '"')
            return;
        size_t vs = i + 2, ve = vs;
        /* printable ASCII but '&': a byte is a column to libxml2, in a value as in spaces */
        int plain = 1;
        for (;;) {
            while (plain_byte[u[ve]])
                ve++;
            size_t k;
            if (u[ve] == '"')
                break;
            if (u[ve] == '&') { /* an entity: libxml2's to read */
                plain = 0;
                ve++;
            } else if (u[ve] >= 0x80 && g->utf8 && (k = utf8_char(u + ve))) {
                plain = 0; /* a column for the character: not taken */
                ve += k;
            } else {
                /* '<', a control or another encoding's byte: libxml2's error may quote the
                 * bytes after it, or its recovery depend on them: nothing blanked */
                return;
            }
        }
        if (take) {
            if (plain && na < PR_XML_TAKE_MAX_ATTRS) {
                nm[na][0] = (uint32_t)ns;
                nm[na][1] = (uint32_t)(i - ns);
                vs_[na] = (uint32_t)vs;
                ve_[na++] = (uint32_t)ve;
            } else {
                take = 0;
            }
        }
        if (i - ns == 2 && g->blank_first[u[ns] >> 6] >> (u[ns] & 63) & 1) {
            for (int b = 0; b < BLANK_MAX && g->blank[b].name; b++) {
                const pr_xml_blank *r = &g->blank[b];
                if (u[ns] != (unsigned char)r->name[0] || u[ns + 1] != (unsigned char)r->name[1])
                    continue;
                seen[b]++;
                int ok = plain && (!r->value || (strlen(r->value) == ve - vs &&
                                                 !memcmp(r->value, t + vs, ve - vs)));
                at[b] = ok ? vs : 0;
                break;
            }
        }
        i = ve + 1; /* a ' ', or the end */
    }
    if (take && take_attrs(g, t, e, end, na, (const uint32_t(*)[2])nm, vs_, ve_))
        return;
    for (int b = 0; b < BLANK_MAX && g->blank[b].name; b++) {
        if (seen[b] != 1 || !at[b])
            continue; /* the same name twice is libxml2's error: leave it to say so */
        size_t q = at[b];
        while (t[q] != '"')
            q++;
        memset(t + at[b] - 5, ' ', q + 1 - (at[b] - 5)); /* ' ' name '=' '"' ... '"' */
    }
}

#endif

#if defined(__SSE2__)
/* A whole tag at in[0] == '<' outside skipped content, when it is a start or end tag with a
 * plain name that ends ('>' or "/>") within max bytes and under the attribute cap, copied to
 * out at once: the main loop took a tag in seven or so turns (name, the byte after it, the
 * attributes, the end) through step() and the runs, a third of the guard's cost once those
 * runs were wide. Returns the tag's length with g as those turns would have left it after its
 * '>', or 0 with g untouched (the main loop takes the tag as before: near the end of the
 * input or room, a '\'' value, a "/" not before '>', the cap, any odd first byte). */
static size_t tag_fast(pr_xml_guard *g, const char *in, size_t max, char *out)
{
    int end = max > 1 && in[1] == '/';
    size_t s = 1 + (size_t)end; /* the name's first byte */
    if (s + 1 >= max)
        return 0;
    unsigned char c0 = (unsigned char)in[s];
    if (name_stop[c0] || (!end && (c0 == '!' || c0 == '?')))
        return 0;
    size_t e = s + 1 + name_wide(in + s + 1, max - s - 1); /* the byte that ends the name */
    if (e >= max)
        return 0;
    size_t attrs = 0, nl = SIZE_MAX;
    long lines = 0;
    size_t p = in[e] == '>' ? e : e + attrs_wide(in + e, max - e, &attrs, !end, &lines, &nl);
    if (p >= max || (in[p] != '>' && (in[p] != '/' || p + 1 >= max || in[p + 1] != '>')))
        return 0;
    size_t len = p + 1 + (in[p] == '/'), name_n = e - s;
    memcpy(out, in, len);
    g->tag_line = g->line;
    g->tag_col = g->col;
    g->line += lines;
    g->col = nl != SIZE_MAX ? (long)(len - (e + nl)) : g->col + (long)len;
    g->end_tag = end;
    memcpy(g->name, in + s, name_n < sizeof g->name ? name_n : sizeof g->name);
    g->name_n = name_n > sizeof g->name ? sizeof g->name + 1 : name_n;
    if (!end) {
        if (!g->root_n) {
            g->root_n = g->name_n < sizeof g->root ? g->name_n : sizeof g->root - 1;
            memcpy(g->root, g->name, g->root_n);
        }
        g->attrs = attrs;
        g->slash = in[p] == '/';
        start_tag_done(g);
        if (g->tag_blank)
            blank_attrs(g, out, e, len);
    }
    g->slash = 0;
    g->state = G_TEXT;
    return len;
}
#endif

/* 1 when the document that starts with in[0..n) is XML 1.0 in UTF-8: an optional UTF-8 byte
 * order mark, then no declaration, or one of version 1.0 whose encoding is absent or UTF-8;
 * 0 when anything else or when the declaration does not end within n bytes. */
static int doc_is_utf8(const char *in, size_t n)
{
    if (n >= 3 && !memcmp(in, "\xEF\xBB\xBF", 3))
        in += 3, n -= 3;
    if (n < 5 || memcmp(in, "<?xml", 5) != 0)
        return n > 0 && in[0] == '<';
    const char *e = memmem(in, n, "?>", 2);
    if (!e || e - in < 6 || (in[5] != ' ' && in[5] != '\t' && in[5] != '\r' && in[5] != '\n'))
        return 0;
    size_t dn = (size_t)(e - in);
    const char *v = memmem(in, dn, "version", 7);
    if (!v || (!memmem(v, dn - (size_t)(v - in), "\"1.0\"", 5) &&
               !memmem(v, dn - (size_t)(v - in), "'1.0'", 5)))
        return 0;
    const char *enc = memmem(in, dn, "encoding", 8);
    if (!enc)
        return 1;
    const char *q = enc + 8;
    while (q < e && (*q == ' ' || *q == '=' || *q == '"' || *q == '\'' || *q == '\t'))
        q++;
    return (e - q > 5 && !strncasecmp(q, "UTF-8", 5) && (q[5] == '"' || q[5] == '\'')) ||
           (e - q > 4 && !strncasecmp(q, "UTF8", 4) && (q[4] == '"' || q[4] == '\''));
}

long pr_xml_guard_filter(pr_xml_guard *g, const char *in, size_t n, size_t *used, char *out,
                         size_t cap, const char *name, pr_error *err)
{
    size_t r = 0, w = 0;
    if (!g->prolog && n) { /* the document's first bytes */
        g->prolog = 1;
        g->utf8 = doc_is_utf8(in, n);
    }
    /* a step writes at most a line break and a split mark; a text run stops 10 bytes short */
    while (r < n && w + 2 * sizeof split_mark + 4 < cap) {
#if defined(__SSE2__)
        if (g->state == G_TEXT && in[r] == '<' && !g->skipping && !g->narrow) {
            size_t room = cap - 2 * sizeof split_mark - 4 - w;
            size_t len = tag_fast(g, in + r, n - r < room ? n - r : room, out + w);
            r += len;
            w += len;
            if (len)
                continue;
        }
#endif
        if (g->state == G_TEXT && in[r] != '<') {
            r += text_run(g, in + r, n - r, out, cap - 10, &w);
            continue;
        }
        if (g->state == G_NAME && !g->skipping) {
            r += name_run(g, in + r, n - r, out, cap - 2 * sizeof split_mark - 4, &w);
            if (r == n)
                continue;
        }
        if (g->state == G_TAG && !g->skipping) { /* up to the next byte that matters */
            r += attrs_run(g, in + r, n - r, out, cap - 2 * sizeof split_mark - 4, &w);
            if (r == n)
                continue;
        }
        if (g->state == G_QUOTE && !g->skipping) { /* a value: copied up to its quote */
            /* the loop's condition leaves at least one byte of this room */
            r += quoted_run(g, in + r, n - r, out, cap - 2 * sizeof split_mark - 4, &w);
            if (r == n || in[r] != g->quote)
                continue;
        }
        char c = in[r++];
        if (g->state == G_TEXT) { /* c == '<' */
            g->tag_line = g->line;
            g->tag_col = g->col;
            g->state = G_LT;
            if (!g->skipping)
                out[w++] = c; /* while skipping, written only if it opens the end tag */
            g->col++;
            continue;
        }
        if (g->skipping && g->state == G_LT && c == '/' && --g->skipping == 0)
            out[w++] = '<';      /* the skipped element's own end tag */
        int emit = !g->skipping; /* decided before the byte: a skip starts after its '>' */
        if (step(g, c) < 0) {
            *used = r;
            char nm[sizeof g->name + 1];
            size_t k = g->name_n < sizeof g->name ? g->name_n : sizeof g->name;
            memcpy(nm, g->name, k);
            nm[k] = 0;
            return pr_error_set(err, PR_EPARSE, name, g->tag_line, g->tag_col,
                                "element <%s%s> has more than %d attributes: refused (each "
                                "one would cost the XML parser a scan of all the others)",
                                nm, g->name_n > k ? "…" : "", PR_XML_MAX_ATTRS);
        }
        if (emit)
            out[w++] = c;
        else if (c == '\n')
            w += keep_newline(g, out + w);
        else
            g->dropped++;
        if (c == '\n') {
            g->line++;
            g->col = 1;
        } else {
            g->col++;
        }
    }
    *used = r;
    return (long)w;
}
