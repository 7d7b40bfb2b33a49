/* Reader of the native sample stream (frames of header, strings, sample blocks, footer). */
#include "model/native.h"
#include "model/varint.h"
#include "model/xalloc.h"
#include "parsers/parser.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define PAYLOAD_MAX (64u << 20)

static int sniff(const unsigned char *buf, size_t len)
{
    return len >= 4 && memcmp(buf, PR_NATIVE_MAGIC, 4) == 0 ? 100 : 0;
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

typedef struct reader {
    pr_input *in;
    pr_sink *sink;
    uint32_t *map; /* segment string id -> run string id */
    size_t map_cap;
    uint32_t map_n;
    int identity; /* every segment id so far is the same id in the run (pass-through) */
    pr_sample *samples;
    size_t samples_cap;
    int have_header;
} reader;

static void apply_run_json(pr_run *run, json_t *r, int first)
{
    const char *s;
    if ((s = json_string_value(json_object_get(r, "name"))) && !run->name)
        pr_run_set_name(run, s);
    if ((s = json_string_value(json_object_get(r, "tool"))) && first) {
        free(run->tool);
        run->tool = pr_xstrdup(s);
    }
    if ((s = json_string_value(json_object_get(r, "tool_version"))) && !run->tool_version)
        run->tool_version = pr_xstrdup(s);
    if ((s = json_string_value(json_object_get(r, "load_model"))) && first) {
        run->load_model = !strcmp(s, "open")     ? PR_LOAD_OPEN
                          : !strcmp(s, "closed") ? PR_LOAD_CLOSED
                                                 : PR_LOAD_UNKNOWN;
    }
    json_t *v;
    if ((v = json_object_get(r, "offered_rate")) && json_is_number(v) && isnan(run->offered_rate))
        run->offered_rate = json_number_value(v);
    if ((v = json_object_get(r, "concurrency")) && json_is_integer(v) && run->concurrency < 0)
        run->concurrency = (int32_t)json_integer_value(v);
    json_t *tags = json_object_get(r, "tags");
    const char *k;
    json_object_foreach (tags, k, v) {
        if (json_is_string(v) && !pr_run_tag_get(run, k))
            pr_run_tag(run, k, json_string_value(v));
    }
    json_t *meta = json_object_get(r, "meta");
    if (json_is_object(meta))
        json_object_update_missing(run->meta, meta);
    if (json_is_true(json_object_get(r, "summary_only"))) {
        run->summary_only = 1;
        json_t *sum = json_object_get(r, "summary");
        if (json_is_object(sum) && !run->summary)
            run->summary = json_deep_copy(sum);
    }
}

static int frame_header(reader *rd, const unsigned char *p, size_t len, long long off, int split,
                        pr_error *err)
{
    json_error_t je;
    json_t *doc = json_loadb((const char *)p, len, 0, &je);
    if (!doc || !json_is_object(doc)) {
        json_decref(doc);
        return pr_error_at_offset(err, PR_EPARSE, pr_input_name(rd->in), off,
                                  "header block is not a JSON object: %s", je.text);
    }
    json_int_t version = json_integer_value(json_object_get(doc, "version"));
    if (version < 1 || version > PR_NATIVE_VERSION) {
        json_decref(doc);
        return pr_error_at_offset(
            err, PR_EFORMAT, pr_input_name(rd->in), off,
            "native format version %lld not supported (this build reads 1..%d)", (long long)version,
            PR_NATIVE_VERSION);
    }
    int first = !rd->have_header;
    if (rd->have_header && split) {
        /* --split-runs: each segment (e.g. each step of a stepped attack) is a run of its own */
        int rc = pr_sink_split(rd->sink, err);
        if (rc < 0) {
            json_decref(doc);
            return rc;
        }
        pr_run_set_name(rd->sink->run, NULL);
        first = 1;
    }
    apply_run_json(rd->sink->run, json_object_get(doc, "run"), first);
    rd->have_header = 1;
    rd->map_n = 1; /* a new segment: string ids start again */
    rd->identity = first && pr_strtab_count(rd->sink->run->strings) <= 1; /* a fresh run */
    json_decref(doc);
    return 0;
}

static int frame_strings(reader *rd, const unsigned char *p, size_t len, long long off,
                         pr_error *err)
{
    const unsigned char *end = p + len;
    uint64_t count;
    if (pr_uvarint_get(&p, end, &count) < 0)
        goto bad;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t id, n;
        if (pr_uvarint_get(&p, end, &id) < 0 || pr_uvarint_get(&p, end, &n) < 0 ||
            n > (uint64_t)(end - p) || id != rd->map_n || id >= UINT32_MAX)
            goto bad;
        rd->map = pr_xgrow(rd->map, &rd->map_cap, (size_t)id + 1, sizeof *rd->map);
        rd->map[id] = pr_run_intern(rd->sink->run, (const char *)p, (size_t)n);
        rd->identity &= rd->map[id] == id;
        rd->map_n++;
        p += n;
    }
    return 0;
bad:
    return pr_error_at_offset(err, PR_EPARSE, pr_input_name(rd->in), off, "corrupt string block");
}

static inline int remap(reader *rd, uint32_t *id)
{
    if (*id == 0)
        return 0;
    if (*id >= rd->map_n)
        return -1;
    *id = rd->map[*id];
    return 0;
}

/* A block whose string ids are the run's own (a fresh run fed by one segment) goes to the
 * consumer as it is, after a check of every column and string id: no sample is decoded into
 * structs or encoded again. */
static int block_through(reader *rd, const unsigned char *p, size_t len, long long off,
                         unsigned long long block, pr_error *err)
{
    pr_block_cols c;
    if (pr_block_decode_cols(p, len, PR_COLS_ALL, &c, err) < 0) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return pr_error_at_offset(err, PR_EPARSE, pr_input_name(rd->in), off, "block %llu: %s",
                                  block, msg);
    }
    static const int strcols[] = {PR_COL_LABEL, PR_COL_URL,    PR_COL_METHOD,
                                  PR_COL_ERROR, PR_COL_THREAD, PR_COL_ATTRS};
    for (size_t k = 0; k < sizeof strcols / sizeof strcols[0]; k++) {
        const int64_t *v = c.vals[strcols[k]];
        int64_t mx = v ? 0 : c.konst[strcols[k]];
        for (size_t i = 0; v && i < c.n; i++)
            mx = v[i] > mx ? v[i] : mx;
        if (c.n && mx >= (int64_t)rd->map_n)
            return pr_error_at_offset(err, PR_EPARSE, pr_input_name(rd->in), off,
                                      "block %llu: a sample names an undefined string", block);
    }
    return pr_sink_emit_block(rd->sink, &c, p, len, err);
}

static int frame_samples(reader *rd, const unsigned char *p, size_t len, long long off,
                         unsigned long long block, pr_error *err)
{
    if (rd->identity && rd->sink->push_block)
        return block_through(rd, p, len, off, block, err);
    size_t n;
    if (pr_block_decode(p, len, &rd->samples, &rd->samples_cap, &n, err) < 0) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return pr_error_at_offset(err, PR_EPARSE, pr_input_name(rd->in), off, "block %llu: %s",
                                  block, msg);
    }
    for (size_t i = 0; i < n; i++) {
        pr_sample *s = &rd->samples[i];
        if (remap(rd, &s->label) || remap(rd, &s->url) || remap(rd, &s->method) ||
            remap(rd, &s->error) || remap(rd, &s->thread) || remap(rd, &s->attrs))
            return pr_error_at_offset(err, PR_EPARSE, pr_input_name(rd->in), off,
                                      "block %llu: sample %zu names an undefined string", block, i);
        int rc = pr_sink_emit(rd->sink, s, err);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static int frame_footer(reader *rd, const unsigned char *p, size_t len)
{
    json_t *doc = json_loadb((const char *)p, len, 0, NULL);
    if (doc) {
        json_t *meta = json_object_get(doc, "meta");
        if (json_is_object(meta))
            json_object_update(rd->sink->run->meta, meta);
    }
    json_decref(doc);
    return 0;
}

/* How far from its end a footer is looked for: a footer's JSON is its counts and bounds plus
 * the metadata changed after the header (a few hundred bytes). */
#define FOOTER_TAIL 4096

static int64_t footer_int(json_t *doc, const char *key)
{
    json_t *v = json_object_get(doc, key);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : PR_UNKNOWN;
}

/* The counts and bounds a file states in the footer that ends it, into the sink's declared
 * figures before any sample is read (a consumer prepares for them and checks them after): a
 * complete footer block (magic, type F, a length that ends at the end of the file, its
 * checksum) in the file's last FOOTER_TAIL bytes. Nothing for other inputs. */
static void declare_from_footer(pr_input *in, pr_sink *sink)
{
    unsigned char *t = pr_xmalloc(FOOTER_TAIL);
    long n = pr_input_tail(in, t, FOOTER_TAIL);
    for (long at = n - 16; at >= 0; at--) {
        if (t[at] != 0x89 || memcmp(t + at, PR_NATIVE_MAGIC, 4) != 0 || t[at + 4] != 'F')
            continue;
        uint32_t len = get_u32(t + at + 8);
        if ((long)len != n - at - 16)
            continue;
        uLong crc = crc32(crc32(0L, t + at + 4, 8), t + at + 12, len);
        if ((uint32_t)crc != get_u32(t + at + 12 + len))
            continue;
        json_t *doc = json_loadb((const char *)t + at + 12, len, 0, NULL);
        sink->declared_samples = footer_int(doc, "samples");
        sink->declared_start_ns = footer_int(doc, "start_ns");
        sink->declared_end_ns = footer_int(doc, "end_ns");
        json_decref(doc);
        break;
    }
    free(t);
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    reader rd = {in, sink, NULL, 0, 1, 0, NULL, 0, 0};
    unsigned char hdr[12];
    unsigned char *payload = NULL;
    size_t payload_cap = 0;
    unsigned long long block = 0;
    int rc = 0;
    pr_run_set_format(sink->run, "native", NULL);
    declare_from_footer(in, sink);
    for (;;) {
        long long off = pr_input_offset(in);
        long got = pr_input_read(in, hdr, sizeof hdr, err);
        if (got < 0) {
            rc = got;
            break;
        }
        if (got == 0)
            break;
        block++;
        if (got < (long)sizeof hdr) {
            rc = pr_error_at_offset(err, PR_ETRUNC, pr_input_name(in), off,
                                    "block %llu is truncated (%ld of 12 header bytes)", block, got);
            break;
        }
        if (memcmp(hdr, PR_NATIVE_MAGIC, 4) != 0) {
            rc = pr_error_at_offset(err, PR_EPARSE, pr_input_name(in), off,
                                    "block %llu: expected block magic 89 50 52 46", block);
            break;
        }
        uint32_t len = get_u32(hdr + 8);
        if (len > PAYLOAD_MAX) {
            rc = pr_error_at_offset(err, PR_EPARSE, pr_input_name(in), off,
                                    "block %llu: payload of %u bytes exceeds the 64 MiB limit",
                                    block, len);
            break;
        }
        payload = pr_xgrow(payload, &payload_cap, (size_t)len + 4, 1);
        got = pr_input_read(in, payload, (size_t)len + 4, err);
        if (got < 0) {
            rc = got;
            break;
        }
        if ((size_t)got < (size_t)len + 4) {
            rc = pr_error_at_offset(err, PR_ETRUNC, pr_input_name(in), off,
                                    "block %llu is truncated (%ld of %u bytes); the %llu blocks "
                                    "before it are kept",
                                    block, got, len + 4, block - 1);
            break;
        }
        uLong crc = crc32(0L, hdr + 4, 8);
        crc = crc32(crc, payload, len);
        if ((uint32_t)crc != get_u32(payload + len)) {
            rc = pr_error_at_offset(err, PR_EPARSE, pr_input_name(in), off,
                                    "block %llu: checksum mismatch (corrupted data)", block);
            break;
        }
        if (hdr[5] > PR_NATIVE_VERSION) {
            rc = pr_error_at_offset(err, PR_EFORMAT, pr_input_name(in), off,
                                    "block %llu: version %u not supported", block, hdr[5]);
            break;
        }
        char type = (char)hdr[4];
        if (!rd.have_header && type != 'H') {
            rc = pr_error_at_offset(err, PR_EPARSE, pr_input_name(in), off,
                                    "block %llu: expected a header block first", block);
            break;
        }
        switch (type) {
        case 'H': rc = frame_header(&rd, payload, len, off, opts->split_runs, err); break;
        case 'T': rc = frame_strings(&rd, payload, len, off, err); break;
        case 'D': rc = frame_samples(&rd, payload, len, off, block, err); break;
        case 'F': rc = frame_footer(&rd, payload, len); break;
        default: break; /* unknown block types are skipped: newer writers may add some */
        }
        if (rc < 0)
            break;
    }
    free(payload);
    free(rd.map);
    free(rd.samples);
    return rc;
}

const pr_parser pr_parser_native = {
    "native", "perfreport", "perfreport native sample stream (attack -o, export)", sniff, parse};
