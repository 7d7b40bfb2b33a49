/* JMeter XML result files (JTL) through libxml2's streaming reader: sample attributes,
 * assertion failure messages, nested sub-samples; safe against hostile XML (no network, no
 * DTD, no entity expansion, bounded depth) and tolerant of killed runs. */
#include <jansson.h>
#include <libxml/xmlreader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/lex.h"
#include "model/xalloc.h"
#include "parsers/jmeter_common.h"
#include "parsers/parser.h"
#include "parsers/xml_guard.h"

#define MAX_DEPTH 64  /* XML element depth */
#define MAX_FRAMES 24 /* nested samples (JMeter writes at most ~12) */
#define TEXT_MAX 2048 /* captured text (failure messages, URLs) */
/* raw bytes read ahead of the guard: 1 MiB, half pr_input's buffer or more, so that a read goes
 * straight into the stage (a copy through pr_input's buffer was 1.5% of the parse) and its
 * digest to a second thread (pr_input_async_digest) */
#define STAGE_MAX (1u << 20)

/* Elements whose content the reader never uses: dropped by the guard before libxml2 (bodies
 * and headers of any size stream through; docs/jmeter.md). */
static const char *const bulky[] = {
    "responseData", "samplerData", "responseHeader", "requestHeader", "queryString",
    "cookies",      NULL};

/* Sample attributes whose bytes libxml2 need not parse (parsers/xml_guard.h): those the
 * reader skips (dt, de) and the defaults it drops (it="0", sc="1", ec="0"; sample_attr);
 * four of a JMeter sample's seventeen attributes, a seventh of the parse. */
static const pr_xml_blank unread[] = {{"dt", NULL}, {"de", NULL}, {"it", "0"},
                                      {"sc", "1"},  {"ec", "0"},  {NULL, NULL}};
static const char *const sample_names[] = {"httpSample", "sample", NULL};
int pr_jtl_xml_blank = 1;
long long pr_jtl_xml_taken;

enum capture { CAP_NONE, CAP_FAILMSG, CAP_FAILURE, CAP_ERROR, CAP_URL };

typedef struct frame {
    pr_sample s;
    int depth;
    int is_tc; /* 1 TC, 2 empty TC */
    int has_children;
    int under_sampler; /* some ancestor is a non-TC sample */
    char code[256];
    size_t code_n;
    char msg[1024];
    size_t msg_n;
    char fail[TEXT_MAX];
    size_t fail_n;
    int have_fail;
    pr_jtl_attrs attrs;
    int64_t ts_ms, elapsed_ms;
    /* the assertionResult being read */
    int a_failed;
    char a_msg[TEXT_MAX];
    size_t a_msg_n;
    char url[TEXT_MAX];
    size_t url_n;
} frame;

typedef struct jxml {
    pr_input *in;
    pr_sink *sink;
    const pr_parse_opts *opts;
    pr_error *err;
    const char *name;
    xmlTextReaderPtr reader;
    frame *fr; /* MAX_FRAMES frames */
    int nfr;
    enum capture cap;
    int cap_depth;
    char capbuf[TEXT_MAX];
    size_t cap_n;
    int eof;
    int io_error;
    char tail[32];
    size_t tail_n;
    int injected;       /* we supplied the missing </testResults> */
    pr_xml_guard guard; /* attribute cap, bulky content dropped (parsers/xml_guard.h) */
    pr_xml_tag tag;     /* the guard's entry for the sample element being read */
    int has_tag;        /* 1: tag is its */
    char *stage;        /* STAGE_MAX raw bytes for the guard */
    size_t stage_pos, stage_n;
    char small[64]; /* guard output held back for a read of fewer than 32 bytes */
    size_t small_pos, small_n;
    int root_bytes; /* "<testResults" went by */
    char carry[64]; /* --recover: bytes held back from the previous read */
    size_t carry_n;
    long n_blanked;
    long nsamples_seen;
    int saw_root, root_closed;
    long root_line;
    /* first libxml2 error */
    int xerr;
    int xerr_code;
    long xerr_line, xerr_col;
    char xerr_msg[512];
    long n_xerr;
    long long n_unknown, n_sub, n_tc, n_idle_ms;
    int32_t max_threads;
    pr_jtl_icache icache;
    int rc;
} jxml;

/* --recover: JMeter writes control characters of binary bodies as "&#x0;"-style references or
 * raw bytes, which make the file not well-formed and stop libxml2's reader. In recover mode
 * they are blanked in place (same length) before the parser sees them; a reference cut by
 * the chunk boundary is held back for the next read. Returns how many bytes are ready. */
static int xml_char_ok(unsigned long v)
{
    return v == 9 || v == 10 || v == 13 || (v >= 32 && v < 0xD800) ||
           (v >= 0xE000 && v <= 0xFFFD) || (v >= 0x10000 && v <= 0x10FFFF);
}

static size_t sanitize(jxml *x, char *buf, size_t n, int final)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)buf[i];
        if (ch < 32 && ch != 9 && ch != 10 && ch != 13) {
            buf[i] = ' ';
            x->n_blanked++;
            continue;
        }
        if (ch != '&')
            continue;
        if (!final && n - i < 12 && i > 0)
            return i; /* maybe a reference cut by the chunk end: hold it back */
        if (i + 1 >= n || buf[i + 1] != '#')
            continue;
        size_t j = i + 2;
        int hex = j < n && (buf[j] == 'x' || buf[j] == 'X');
        j += (size_t)hex;
        size_t d0 = j;
        unsigned long v = 0;
        while (j < n && j - d0 < 8) {
            int c = (unsigned char)buf[j], dv;
            if (c >= '0' && c <= '9')
                dv = c - '0';
            else if (hex && (c | 32) >= 'a' && (c | 32) <= 'f')
                dv = (c | 32) - 'a' + 10;
            else
                break;
            v = v * (hex ? 16u : 10u) + (unsigned long)dv;
            j++;
        }
        if (j < n && buf[j] == ';' && j > d0 && !xml_char_ok(v)) {
            memset(buf + i, ' ', j - i + 1);
            x->n_blanked++;
        }
    }
    return n;
}

/* Raw input through the guard: up to len filtered bytes, 0 at the end, -1 on an error (in
 * x->err). Loops while the guard drops everything it is given (inside a long body). */
static long guarded_read(jxml *x, char *buf, size_t len)
{
    if (x->small_pos == x->small_n && len < 32) { /* the guard needs room: fill `small` */
        long w = guarded_read(x, x->small, sizeof x->small);
        if (w <= 0)
            return w;
        x->small_pos = 0;
        x->small_n = (size_t)w;
    }
    if (x->small_pos < x->small_n) {
        size_t k = x->small_n - x->small_pos < len ? x->small_n - x->small_pos : len;
        memcpy(buf, x->small + x->small_pos, k);
        x->small_pos += k;
        return (long)k;
    }
    for (;;) {
        if (x->stage_pos == x->stage_n) {
            long got = pr_input_read(x->in, x->stage, STAGE_MAX, x->err);
            if (got <= 0)
                return got;
            x->stage_pos = 0;
            x->stage_n = (size_t)got;
        }
        size_t used;
        long w = pr_xml_guard_filter(&x->guard, x->stage + x->stage_pos, x->stage_n - x->stage_pos,
                                     &used, buf, len, x->name, x->err);
        if (w < 0)
            return -1;
        x->stage_pos += used;
        if (w > 0)
            return w;
    }
}

/* Feeds the reader. A killed JMeter leaves no </testResults>; libxml2's reader then drops the
 * nodes of its last chunk when it reports the error, so at end of input the missing end tag
 * is supplied (once) and the run is reported as killed. */
static int xread(void *ctx, char *buf, int len)
{
    static const char close_tag[] = "\n</testResults>\n";
    jxml *x = ctx;
    if (x->eof)
        return 0;
    long r;
    if (x->opts->recover) {
        /* carry-over from the previous read first */
        size_t have = x->carry_n;
        if (have > (size_t)len)
            have = (size_t)len;
        memcpy(buf, x->carry, have);
        memmove(x->carry, x->carry + have, x->carry_n - have);
        x->carry_n -= have;
        long got = 0;
        if ((size_t)len > have && x->carry_n == 0) {
            got = guarded_read(x, buf + have, (size_t)len - have);
            if (got < 0) {
                x->io_error = 1;
                return -1;
            }
        }
        size_t n = have + (size_t)got;
        int final = got == 0 || x->carry_n != 0;
        size_t ok = n ? sanitize(x, buf, n, final) : 0;
        if (ok == 0 && n > 0)
            ok = n; /* never stall */
        if (ok < n) {
            memmove(x->carry + x->carry_n, buf + ok, n - ok);
            x->carry_n += n - ok;
        }
        r = (long)ok;
    } else {
        r = guarded_read(x, buf, (size_t)len);
    }
    if (r < 0) {
        x->io_error = 1;
        return -1;
    }
    if (r > 0) {
        if (!x->root_bytes && x->guard.root_n == 11 && !memcmp(x->guard.root, "testResults", 11))
            x->root_bytes = 1;
        /* keep the last bytes to see how the input ends */
        size_t n = (size_t)r;
        if (n >= sizeof x->tail) {
            memcpy(x->tail, buf + n - sizeof x->tail, sizeof x->tail);
            x->tail_n = sizeof x->tail;
        } else {
            size_t keep = x->tail_n + n > sizeof x->tail ? sizeof x->tail - n : x->tail_n;
            memmove(x->tail, x->tail + x->tail_n - keep, keep);
            memcpy(x->tail + keep, buf, n);
            x->tail_n = keep + n;
        }
        return (int)r;
    }
    x->eof = 1;
    size_t t = x->tail_n;
    while (t && (x->tail[t - 1] == ' ' || x->tail[t - 1] == '\n' || x->tail[t - 1] == '\r' ||
                 x->tail[t - 1] == '\t'))
        t--;
    static const char end[] = "</testResults>";
    int ended =
        t >= sizeof end - 1 && memcmp(x->tail + t - (sizeof end - 1), end, sizeof end - 1) == 0;
    int selfclosed = t >= 2 && x->tail[t - 2] == '/' && x->tail[t - 1] == '>' && !x->nsamples_seen;
    if (!ended && !selfclosed && x->root_bytes && len >= (int)sizeof close_tag) {
        memcpy(buf, close_tag, sizeof close_tag - 1);
        x->injected = 1;
        return (int)(sizeof close_tag - 1);
    }
    return 0;
}

static int xclose(void *ctx)
{
    return 0;
}

static void on_xml_error(void *ctx, xmlErrorPtr e)
{
    jxml *x = ctx;
    if (!e || e->level < XML_ERR_ERROR)
        return;
    x->n_xerr++;
    if (x->xerr)
        return;
    x->xerr = 1;
    x->xerr_code = e->code;
    x->xerr_line = e->line;
    x->xerr_col = e->int2;
    snprintf(x->xerr_msg, sizeof x->xerr_msg, "%s", e->message ? e->message : "XML error");
    size_t n = strlen(x->xerr_msg);
    while (n && (x->xerr_msg[n - 1] == '\n' || x->xerr_msg[n - 1] == ' '))
        x->xerr_msg[--n] = 0;
}

static int64_t num(const char *v, size_t n, int *ok)
{
    int64_t r = 0;
    if (n > 0 && n <= 18) { /* digits only: the common case */
        size_t i = 0;
        while (i < n && v[i] >= '0' && v[i] <= '9')
            r = r * 10 + (v[i++] - '0');
        if (i == n)
            return r;
    }
    if (pr_lex_i64(v, n, &r) < 0) {
        *ok = 0;
        return PR_UNKNOWN;
    }
    return r;
}

/* num() of a NUL-terminated value: up to 18 digits read without its length (most values; a
 * strlen each was a twentieth of the reader's own cost), the rest through num(). */
static int64_t num_z(const char *v, int *ok)
{
    int64_t r = 0;
    size_t i = 0;
    while (i < 18 && v[i] >= '0' && v[i] <= '9')
        r = r * 10 + (v[i++] - '0');
    if (i > 0 && v[i] == 0)
        return r;
    return num(v, strlen(v), ok);
}

static size_t copy_capped(char *dst, size_t cap, const char *src, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
    return n;
}

/* The sample attributes the reader knows (docs/jmeter.md); others are sample variables. */
enum attr {
    A_OTHER,
    A_T,
    A_S,
    A_TS,
    A_LT,
    A_CT,
    A_IT,
    A_LB,
    A_RC,
    A_RM,
    A_TN,
    A_BY,
    A_NA,
    A_NG,
    A_HN,
    A_SC,
    A_EC,
    A_SKIP,
    A_SBY
};

static enum attr attr_of(const char *k)
{
    /* the first byte, then the second and the length (a switch on both bytes was a compare
     * tree; this is a jump table and a compare or two) */
    char b = k[0] ? k[1] : 0;
    if (b == 0)
        return k[0] == 't' ? A_T : k[0] == 's' ? A_S : A_OTHER;
    if (k[2] != 0)
        return k[0] == 's' && b == 'b' && k[2] == 'y' && k[3] == 0 ? A_SBY : A_OTHER;
    switch (k[0]) {
    case 't': return b == 's' ? A_TS : b == 'n' ? A_TN : A_OTHER;
    case 'l': return b == 't' ? A_LT : b == 'b' ? A_LB : A_OTHER;
    case 'c': return b == 't' ? A_CT : A_OTHER;
    case 'i': return b == 't' ? A_IT : A_OTHER;
    case 'r': return b == 'c' || b == 's' ? A_RC : b == 'm' ? A_RM : A_OTHER;
    case 'b': return b == 'y' ? A_BY : A_OTHER;
    case 'n': return b == 'a' ? A_NA : b == 'g' ? A_NG : A_OTHER;
    case 'h': return b == 'n' ? A_HN : A_OTHER;
    case 's': return b == 'c' ? A_SC : A_OTHER;
    case 'e': return b == 'c' ? A_EC : A_OTHER;
    case 'd': return b == 't' || b == 'e' ? A_SKIP : A_OTHER;
    default: return A_OTHER;
    }
}

/* The attributes that keep a value worth a run attribute only when not their default. */
static void attr_keep(frame *f, const char *name, const char *v, size_t vn, const char *dflt)
{
    if (!dflt || strcmp(v, dflt))
        pr_jtl_attr_add(&f->attrs, name, strlen(name), v, vn);
}

/* One attribute k=v of the sample in frame f; *ok = 0 when a number does not read. */
static void sample_attr(jxml *x, frame *f, const char *k, const char *v, int *ok)
{
    pr_run *run = x->sink->run;
    enum attr a = attr_of(k);
    /* the numbers read without their length */
    switch (a) {
    case A_T: f->elapsed_ms = num_z(v, ok); return;
    case A_S: f->s.success = strcmp(v, "true") == 0 ? PR_OK_SUCCESS : PR_FAIL; return;
    case A_TS: f->ts_ms = num_z(v, ok); return;
    case A_BY: f->s.bytes_in = num_z(v, ok); return;
    case A_SBY: f->s.bytes_out = num_z(v, ok); return;
    case A_SKIP: return;
    default: break;
    }
    size_t vn = strlen(v);
    int64_t n;
    switch (a) {
    case A_LT:
        n = num(v, vn, ok);
        if (*ok && pr_jtl_ms_ns(n, &f->s.ttfb_ns) < 0)
            *ok = 0;
        break;
    case A_CT:
        n = num(v, vn, ok);
        if (*ok && pr_jtl_ms_ns(n, &f->s.connect_ns) < 0)
            *ok = 0;
        break;
    case A_IT:
        n = num(v, vn, ok);
        if (n != PR_UNKNOWN && n != 0) {
            pr_jtl_attr_add(&f->attrs, "IdleTime", 8, v, vn);
            if (n > 0 && n < PR_JTL_MS_MAX)
                x->n_idle_ms += n;
        }
        break;
    case A_LB: f->s.label = pr_jtl_intern(&x->icache, run, PR_JTL_IC_LABEL, v, vn); break;
    case A_RC: f->code_n = copy_capped(f->code, sizeof f->code, v, vn); break;
    case A_RM: f->msg_n = copy_capped(f->msg, sizeof f->msg, v, vn); break;
    case A_TN: f->s.thread = pr_jtl_intern(&x->icache, run, PR_JTL_IC_THREAD, v, vn); break;
    case A_NA:
        n = num(v, vn, ok);
        f->s.threads = n == PR_UNKNOWN || n < 0 ? -1 : n > INT32_MAX ? INT32_MAX : (int32_t)n;
        break;
    case A_NG: attr_keep(f, "grpThreads", v, vn, NULL); break;
    case A_HN: attr_keep(f, "Hostname", v, vn, NULL); break;
    case A_SC: attr_keep(f, "SampleCount", v, vn, "1"); break;
    case A_EC: attr_keep(f, "ErrorCount", v, vn, "0"); break;
    case A_OTHER: pr_jtl_attr_add(&f->attrs, k, strlen(k), v, vn); break; /* a variable */
    default: break;
    }
}

/* Reads the attributes of the sample element into frame f: NULL, or the name of the first
 * one whose number does not read. */
static const char *read_attrs(jxml *x, frame *f)
{
    xmlTextReaderPtr rd = x->reader;
    int ok = 1;
    if (x->has_tag && x->tag.taken) { /* the guard took them out of the bytes libxml2 got */
        const char *p = x->tag.kv;
        for (size_t i = 0; i < x->tag.n; i++) {
            const char *k = p, *v = k + strlen(k) + 1;
            p = v + strlen(v) + 1;
            sample_attr(x, f, k, v, &ok);
            if (!ok)
                return k;
        }
        return NULL;
    }
    /* the element's attribute list read directly (the reader's attribute cursor costs a
     * quarter of the parse); a value that is not one text node goes through the reader */
    xmlNodePtr node = xmlTextReaderCurrentNode(rd);
    for (xmlAttrPtr at = node ? node->properties : NULL; at; at = at->next) {
        const char *k = (const char *)at->name, *v = NULL;
        xmlNodePtr t = at->children;
        if (t && t->type == XML_TEXT_NODE && !t->next)
            v = (const char *)t->content;
        if (!v && xmlTextReaderMoveToAttribute(rd, at->name) == 1)
            v = (const char *)xmlTextReaderConstValue(rd);
        if (!v && !t)
            v = "";
        if (!k || !v)
            continue;
        sample_attr(x, f, k, v, &ok);
        if (!ok)
            return k;
    }
    return NULL;
}

/* Reads the attributes of a <sample>/<httpSample> into a new frame. */
static int open_sample(jxml *x, int depth)
{
    xmlTextReaderPtr rd = x->reader;
    if (x->nfr >= MAX_FRAMES)
        return pr_error_set(x->err, PR_EPARSE, x->name, xmlTextReaderGetParserLineNumber(rd),
                            xmlTextReaderGetParserColumnNumber(rd),
                            "samples nested deeper than %d levels", MAX_FRAMES);
    frame *parent = x->nfr ? &x->fr[x->nfr - 1] : NULL;
    frame *f = &x->fr[x->nfr++];
    x->sink->line = xmlTextReaderGetParserLineNumber(rd); /* for the sink's warnings */
    /* the scalars and each buffer's first byte (a memset of the buffers was a tenth of the
     * parse) */
    f->depth = f->is_tc = f->has_children = f->under_sampler = 0;
    f->code_n = f->msg_n = f->fail_n = 0;
    f->code[0] = f->msg[0] = f->fail[0] = 0;
    f->have_fail = 0;
    f->attrs.n = 0;
    f->attrs.buf[0] = 0;
    f->a_failed = 0;
    f->a_msg_n = f->url_n = 0;
    f->a_msg[0] = f->url[0] = 0;
    pr_sample_init(&f->s);
    f->depth = depth;
    f->ts_ms = PR_UNKNOWN;
    f->elapsed_ms = 0;
    if (parent) {
        parent->has_children = 1;
        f->under_sampler = parent->under_sampler || !parent->is_tc;
    }
    const char *bad = read_attrs(x, f);
    xmlTextReaderMoveToElement(rd);
    if (bad)
        return pr_error_set(x->err, PR_EPARSE, x->name, xmlTextReaderGetParserLineNumber(rd),
                            xmlTextReaderGetParserColumnNumber(rd),
                            "attribute %s: expected an integer", bad);
    if (f->ts_ms == PR_UNKNOWN)
        return pr_error_set(x->err, PR_EPARSE, x->name, xmlTextReaderGetParserLineNumber(rd),
                            xmlTextReaderGetParserColumnNumber(rd),
                            "sample without a ts attribute (time stamp)");
    if (f->elapsed_ms == PR_UNKNOWN)
        f->elapsed_ms = 0;
    if (f->elapsed_ms > PR_JTL_MS_MAX || f->elapsed_ms < -PR_JTL_MS_MAX)
        return pr_error_set(x->err, PR_EPARSE, x->name, xmlTextReaderGetParserLineNumber(rd),
                            xmlTextReaderGetParserColumnNumber(rd), "attribute t: out of range");
    if (f->elapsed_ms < 0)
        return pr_error_set(x->err, PR_EPARSE, x->name, xmlTextReaderGetParserLineNumber(rd),
                            xmlTextReaderGetParserColumnNumber(rd),
                            "attribute t: a negative response time (%lld ms): no percentile "
                            "can be computed from it",
                            (long long)f->elapsed_ms);
    /* the time stamp in range first, so that taking the elapsed time off cannot overflow */
    int64_t start = f->ts_ms;
    if (pr_time_from_epoch(start, 1000000, &f->s.start_ns) == 0 && x->opts->jtl_timestamp_end)
        start = f->ts_ms - f->elapsed_ms;
    if (pr_time_from_epoch(start, 1000000, &f->s.start_ns) < 0)
        return pr_error_set(x->err, PR_EPARSE, x->name, xmlTextReaderGetParserLineNumber(rd),
                            xmlTextReaderGetParserColumnNumber(rd),
                            "attribute ts: %lld ms is outside the years 1678..2261",
                            (long long)start);
    f->s.latency_ns = f->elapsed_ms * 1000000;
    f->s.status = pr_jtl_status(f->code, f->code_n);
    f->is_tc = pr_jtl_tc_kind(f->msg, f->msg_n);
    return 0;
}

static int emit(jxml *x, const pr_sample *s)
{
    if (s->threads > x->max_threads)
        x->max_threads = s->threads;
    return pr_sink_emit(x->sink, s, x->err);
}

/* The sample element of the top frame ended: decide flags, error, and whether to emit. */
static int close_sample(jxml *x)
{
    frame *f = &x->fr[--x->nfr];
    pr_run *run = x->sink->run;
    if (f->is_tc) {
        f->s.flags |= PR_SF_TRANSACTION;
        x->n_tc++;
    }
    if (f->has_children)
        f->s.flags |= PR_SF_PARENT;
    if (x->nfr > 0) {
        f->s.flags |= PR_SF_SUBRESULT;
        x->n_sub++;
    }
    if (f->url_n)
        f->s.url = pr_jtl_intern(&x->icache, run, PR_JTL_IC_URL, f->url, f->url_n);
    if (f->attrs.n)
        f->s.attrs = pr_jtl_intern(&x->icache, run, PR_JTL_IC_ATTRS, f->attrs.buf, f->attrs.n);
    if (f->s.success == PR_FAIL)
        f->s.error = pr_jtl_error_id(run, f->code, f->code_n, f->msg, f->msg_n, f->fail, f->fail_n);
    int keep;
    switch (x->opts->subresults) {
    case PR_SUB_INCLUDE: keep = 1; break;
    case PR_SUB_ONLY: keep = !f->has_children && !f->is_tc; break;
    default: keep = !f->under_sampler && f->is_tc != 2; break;
    }
    return keep ? emit(x, &f->s) : 0;
}

static void cap_text(jxml *x, const char *t)
{
    size_t n = strlen(t);
    if (x->cap_n + n >= sizeof x->capbuf)
        n = sizeof x->capbuf - 1 - x->cap_n;
    memcpy(x->capbuf + x->cap_n, t, n);
    x->cap_n += n;
    x->capbuf[x->cap_n] = 0;
}

static void end_capture(jxml *x)
{
    frame *f = x->nfr ? &x->fr[x->nfr - 1] : NULL;
    if (!f)
        return;
    switch (x->cap) {
    case CAP_FAILMSG:
        memcpy(f->a_msg, x->capbuf, x->cap_n + 1);
        f->a_msg_n = x->cap_n;
        break;
    case CAP_FAILURE:
    case CAP_ERROR:
        if (x->cap_n == 4 && memcmp(x->capbuf, "true", 4) == 0)
            f->a_failed = 1;
        break;
    case CAP_URL:
        memcpy(f->url, x->capbuf, x->cap_n + 1);
        f->url_n = x->cap_n;
        break;
    default: break;
    }
    x->cap = CAP_NONE;
    x->cap_n = 0;
    x->capbuf[0] = 0;
}

static void setup_run(jxml *x)
{
    pr_run *r = x->sink->run;
    pr_run_set_format(r, "jmeter-xml", "jmeter");
    r->load_model = PR_LOAD_CLOSED;
    pr_run_meta_set(r, "time_resolution_ns", json_integer(1000000));
    pr_run_meta_resolution(r, "latency_resolution_ns", 1000000); /* elapsed, Latency, Connect: ms */
    pr_run_meta_set(r, "timestamp_format", json_string("ms"));
    pr_run_meta_set(r, "timestamp_marks",
                    json_string(x->opts->jtl_timestamp_end ? "end" : "start"));
    pr_jtl_meta_rule(r, x->opts->subresults);
}

static void finish_run(jxml *x)
{
    pr_run *r = x->sink->run;
    if (x->max_threads > r->concurrency)
        r->concurrency = x->max_threads;
    pr_run_meta_set(r, "subresult_samples", json_integer(x->n_sub));
    pr_run_meta_set(r, "transaction_samples", json_integer(x->n_tc));
    pr_run_meta_set(r, "idle_time_total_ms", json_integer(x->n_idle_ms));
    if (x->n_unknown)
        pr_run_meta_set(r, "unsupported_elements_skipped", json_integer(x->n_unknown));
}

static int is_sample_name(const char *n)
{
    return n[0] == 'h' ? !strcmp(n, "httpSample") : n[0] == 's' && !strcmp(n, "sample");
}

/* The root element: <testResults version="1.2">. */
static int root_element(jxml *x, const char *nm, int empty)
{
    xmlTextReaderPtr rd = x->reader;
    if (strcmp(nm, "testResults") != 0)
        return pr_error_set(x->err, PR_EFORMAT, x->name, xmlTextReaderGetParserLineNumber(rd), 0,
                            "expected <testResults>, found <%s>", nm);
    x->saw_root = 1;
    x->root_line = xmlTextReaderGetParserLineNumber(rd);
    xmlChar *ver = xmlTextReaderGetAttribute(rd, BAD_CAST "version");
    if (ver) {
        pr_run_meta_set(x->sink->run, "jtl_xml_version", json_string((char *)ver));
        xmlFree(ver);
    }
    if (empty)
        x->root_closed = 1;
    return 0;
}

/* An element inside the top frame's sample that holds text the reader keeps (failure
 * messages, errors, the URL): 1 when it starts a capture. */
static int start_capture(jxml *x, const frame *f, const char *nm, int depth)
{
    static const struct {
        const char *name;
        int below; /* levels below the sample */
        enum capture cap;
    } caps[] = {{"failureMessage", 2, CAP_FAILMSG},
                {"failure", 2, CAP_FAILURE},
                {"error", 2, CAP_ERROR},
                {"java.net.URL", 1, CAP_URL}};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++)
        if (depth == f->depth + caps[i].below && !strcmp(nm, caps[i].name)) {
            x->cap = caps[i].cap;
            x->cap_depth = depth;
            return 1;
        }
    return 0;
}

/* A start tag; *skip = 1 to step over its content unread. */
static int start_element(jxml *x, int depth, int *skip)
{
    xmlTextReaderPtr rd = x->reader;
    const char *nm = (const char *)xmlTextReaderConstLocalName(rd);
    if (!nm)
        return 0;
    int empty = xmlTextReaderIsEmptyElement(rd);
    if (depth == 0)
        return root_element(x, nm, empty);
    if (x->cap != CAP_NONE) { /* markup inside captured text: skip it */
        *skip = !empty;
        return 0;
    }
    if (is_sample_name(nm) && (depth == 1 || x->nfr > 0)) {
        x->nsamples_seen++;
        if (open_sample(x, depth) < 0)
            return PR_EPARSE;
        if (empty && close_sample(x) < 0)
            return x->err->code ? x->err->code : PR_EIO;
        return 0;
    }
    frame *f = x->nfr ? &x->fr[x->nfr - 1] : NULL;
    if (f && depth == f->depth + 1 && !strcmp(nm, "assertionResult")) {
        f->a_failed = 0; /* its children are read */
        f->a_msg_n = 0;
        return 0;
    }
    if (f && !empty && start_capture(x, f, nm, depth))
        return 0;
    if (depth == 1)
        x->n_unknown++;
    /* anything else (responseData, headers, cookies, unknown classes): skip unread */
    *skip = !empty;
    return 0;
}

/* An end tag: a capture, a sample or an assertion ends. */
static int end_element(jxml *x, int depth)
{
    if (x->cap != CAP_NONE) {
        if (depth == x->cap_depth)
            end_capture(x);
        return 0;
    }
    frame *f = x->nfr ? &x->fr[x->nfr - 1] : NULL;
    if (f && depth == f->depth)
        return close_sample(x) < 0 ? (x->err->code ? x->err->code : PR_EIO) : 0;
    if (f && depth == f->depth + 1) {
        const char *nm = (const char *)xmlTextReaderConstLocalName(x->reader);
        if (nm && !strcmp(nm, "assertionResult") && f->a_failed && !f->have_fail) {
            memcpy(f->fail, f->a_msg, f->a_msg_n + 1);
            f->fail_n = f->a_msg_n;
            f->have_fail = 1;
        }
        return 0;
    }
    if (depth == 0)
        x->root_closed = 1;
    return 0;
}

/* The guard's entry for the element the reader is at, when the guard queues them
 * (pr_xml_guard_take): taken for every sample element, read or skipped, in step; an entry
 * missing or on another line is a bug the parse stops at rather than read wrong attributes. */
static int guard_tag(jxml *x)
{
    x->has_tag = 0;
    if (!x->guard.take || x->guard.blank_on != 1)
        return 0;
    const char *nm = (const char *)xmlTextReaderConstName(x->reader);
    if (!nm || !is_sample_name(nm))
        return 0;
    xmlNodePtr node = xmlTextReaderCurrentNode(x->reader);
    long line = node ? (long)node->line : -1; /* 65535 past that line */
    if (!pr_xml_guard_next(&x->guard, &x->tag) ||
        (x->tag.line < 65535 ? x->tag.line != line : line != 65535) ||
        (x->tag.taken && node && node->properties))
        return pr_error_set(x->err, PR_EPARSE, x->name, xmlTextReaderGetParserLineNumber(x->reader),
                            0,
                            "<%s>: the XML guard is out of step with libxml2 (a bug in "
                            "perfreport; --recover reads the file without the guard's help)",
                            nm);
    x->has_tag = 1;
    return 0;
}

static int walk(jxml *x)
{
    xmlTextReaderPtr rd = x->reader;
    int skip = 0, rc = 0;
    int skip_depth = -1; /* stepping over the content of the element at this depth, unread */
    for (;;) {
        if (skip)
            skip_depth = xmlTextReaderDepth(rd);
        int r = xmlTextReaderRead(rd);
        skip = 0;
        if (r <= 0)
            return r < 0 ? -1 : 0;
        int type = xmlTextReaderNodeType(rd);
        int depth = xmlTextReaderDepth(rd);
        if (skip_depth >= 0) { /* its sample elements' guard entries go by all the same */
            if (type == XML_READER_TYPE_ELEMENT && guard_tag(x) < 0)
                return PR_EPARSE;
            if (type == XML_READER_TYPE_END_ELEMENT && depth == skip_depth)
                skip_depth = -1;
            continue;
        }
        if (depth > MAX_DEPTH)
            return pr_error_set(x->err, PR_EPARSE, x->name, xmlTextReaderGetParserLineNumber(rd), 0,
                                "elements nested deeper than %d levels", MAX_DEPTH);
        switch (type) {
        case XML_READER_TYPE_DOCUMENT_TYPE:
            return pr_error_set(x->err, PR_EFORMAT, x->name, xmlTextReaderGetParserLineNumber(rd),
                                0, "a DOCTYPE is not allowed in a JMeter result file");
        case XML_READER_TYPE_ELEMENT:
            rc = guard_tag(x);
            if (rc == 0)
                rc = start_element(x, depth, &skip);
            break;
        case XML_READER_TYPE_TEXT:
        case XML_READER_TYPE_CDATA:
        case XML_READER_TYPE_SIGNIFICANT_WHITESPACE:
            if (x->cap != CAP_NONE) {
                const char *t = (const char *)xmlTextReaderConstValue(rd);
                if (t)
                    cap_text(x, t);
            }
            break;
        case XML_READER_TYPE_END_ELEMENT: rc = end_element(x, depth); break;
        default: break;
        }
        if (rc < 0)
            return rc;
    }
}

static int sniff(const unsigned char *buf, size_t len)
{
    size_t n = len < 4096 ? len : 4096;
    const char *p = memmem(buf, n, "<testResults", 12);
    if (p)
        return 95;
    if (n >= 5 && memcmp(buf, "<?xml", 5) == 0 &&
        (memmem(buf, n, "<httpSample", 11) || memmem(buf, n, "<sample ", 8)))
        return 60;
    return 0;
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    jxml *x = pr_xcalloc(1, sizeof *x);
    x->in = in;
    x->sink = sink;
    x->opts = opts;
    x->err = err;
    x->name = pr_input_name(in);
    x->max_threads = -1;
    x->fr = pr_xcalloc(MAX_FRAMES, sizeof *x->fr);
    x->stage = pr_xmalloc(STAGE_MAX);
    pr_xml_guard_init(&x->guard, bulky);
    /* not in --recover mode: libxml2's recovery from an error could depend on those bytes */
    if (pr_jtl_xml_blank && !opts->recover) {
        pr_xml_guard_blank(&x->guard, unread, sample_names, "testResults");
        pr_xml_guard_take(&x->guard);
    }
    pr_input_async_digest(in); /* the stage is written by pr_input_read only */
    int rc = 0;
    int options = XML_PARSE_NONET | XML_PARSE_NOBLANKS | XML_PARSE_COMPACT | XML_PARSE_NOWARNING |
                  XML_PARSE_NOERROR;
    if (opts->recover)
        options |= XML_PARSE_RECOVER;
    x->reader = xmlReaderForIO(xread, xclose, x, NULL, NULL, options);
    if (!x->reader) {
        rc = pr_error_set(err, PR_EIO, x->name, 0, 0, "cannot start the XML reader");
        goto out;
    }
    xmlTextReaderSetStructuredErrorHandler(x->reader, on_xml_error, x);
    setup_run(x);
    pr_error_clear(err);
    int w = walk(x);
    if (x->io_error) { /* a read error, or the guard refused the input */
        rc = err->code ? err->code : PR_EIO;
        goto out;
    }
    if (w < 0 && err->code) {
        rc = err->code;
        goto out;
    }
    if (x->xerr || w < 0) {
        /* the supplied end tag explains an error at the input's end (its last line, or the
         * next), not one before: how far libxml2 had parsed when the input ran out varies */
        if (x->injected && (!x->xerr || x->xerr_line >= x->guard.line - 1)) {
            rc = pr_error_set(err, PR_ETRUNC, x->name, x->xerr_line, 0,
                              "input ends inside a sample (%s); the complete samples before it "
                              "are kept",
                              x->xerr_msg);
        } else if (opts->recover && x->saw_root && x->n_xerr < 1000000) {
            pr_sink_warn(sink, x->name, x->xerr_line, x->xerr_col,
                         "not well-formed XML (%s; %ld errors in all): kept what could be read "
                         "(--recover)",
                         x->xerr_msg, x->n_xerr);
        } else {
            rc = pr_error_set(err, PR_EPARSE, x->name, x->xerr_line, x->xerr_col,
                              "not well-formed XML: %s%s", x->xerr_msg,
                              opts->recover ? "" : " (--recover keeps what can be read)");
            goto out;
        }
    } else if (!x->saw_root) {
        rc = pr_error_set(err, PR_EFORMAT, x->name, 1, 0,
                          "expected <testResults>: not a JMeter XML result file");
        goto out;
    } else if (x->n_blanked && !x->injected) {
        pr_sink_warn(sink, x->name, 0, 0,
                     "not well-formed XML: %ld invalid characters or character references "
                     "blanked (--recover)",
                     x->n_blanked);
    } else if (x->injected) {
        pr_sink_warn(sink, x->name, 0, 0,
                     "no </testResults>: the run was probably killed; the %llu complete "
                     "samples are kept",
                     sink->total);
    }
    finish_run(x);
out:
    if (x->reader)
        xmlFreeTextReader(x->reader);
    free(x->fr);
    pr_input_sync(in); /* the digest may still be reading the stage */
    free(x->stage);
    pr_jtl_xml_taken += x->guard.taken;
    pr_xml_guard_dispose(&x->guard);
    free(x);
    return rc;
}

const pr_parser pr_parser_jmeter_xml = {"jmeter-xml", "jmeter",
                                        "Apache JMeter XML result file (JTL)", sniff, parse};
