/* Vegeta's binary results (gob-encoded vegeta.Result values), read directly with parsers/gob.c. */
#include "parsers/gob.h"
#include "parsers/parser.h"
#include "parsers/vegeta.h"
#include "model/lex.h"
#include "model/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum field_use {
    F_SKIP = 0,
    F_ATTACK,
    F_CODE,
    F_TIMESTAMP,
    F_LATENCY,
    F_BYTESOUT,
    F_BYTESIN,
    F_ERROR,
    F_METHOD,
    F_URL
};

static const struct {
    const char *name;
    enum field_use use;
} field_names[] = {
    {"Attack", F_ATTACK},   {"Code", F_CODE},         {"Timestamp", F_TIMESTAMP},
    {"Latency", F_LATENCY}, {"BytesOut", F_BYTESOUT}, {"BytesIn", F_BYTESIN},
    {"Error", F_ERROR},     {"Method", F_METHOD},     {"URL", F_URL},
};

/* Whether a definition is a Vegeta Result: a struct with Code, Timestamp and Latency. */
static int is_result_type(const pr_gob_type *t)
{
    if (!t || t->kind != PR_GOB_STRUCT)
        return 0;
    int have = 0;
    for (size_t i = 0; i < t->nfields; i++) {
        const char *n = t->fields[i].name ? t->fields[i].name : "";
        if (strcmp(n, "Code") == 0)
            have |= 1;
        else if (strcmp(n, "Timestamp") == 0)
            have |= 2;
        else if (strcmp(n, "Latency") == 0)
            have |= 4;
    }
    return have == 7;
}

static int sniff(const unsigned char *buf, size_t len)
{
    pr_gob *g = pr_gob_open_mem("<sniff>", buf, len);
    pr_error err;
    pr_error_clear(&err);
    int64_t id;
    int defs = 0, score = 0;
    for (int i = 0; i < 64; i++) {
        unsigned long gen = pr_gob_generation(g);
        int rc = pr_gob_next(g, &id, &err);
        if (pr_gob_generation(g) != gen)
            defs = 1;
        if (rc <= 0)
            break;
        pr_gob_skip_message(g, &err);
    }
    if (defs) {
        score = 30; /* gob, but maybe not Vegeta's */
        for (int64_t t = 65; t < 65 + PR_GOB_TYPES_MAX; t++) {
            const pr_gob_type *ty = pr_gob_type_get(g, t);
            if (!ty)
                continue;
            if (is_result_type(ty) && ty->name && strcmp(ty->name, "Result") == 0) {
                score = 95;
                break;
            }
            if (is_result_type(ty))
                score = 80;
        }
    }
    pr_gob_free(g);
    return score;
}

typedef struct gob_state {
    pr_vegeta_rec rec; /* shared record-to-sample mapping (parsers/vegeta.h) */
    int64_t result_id;
    unsigned long generation;
    const pr_gob_type *type;
    unsigned char use[PR_GOB_FIELDS_MAX];
    /* Per field: a Timestamp whose type is a TextMarshaler (RFC 3339), not MarshalBinary;
     * looked up once per type rather than per result. */
    unsigned char ts_text[PR_GOB_FIELDS_MAX];
    /* Copies of the record's strings: pointers into the decoder's buffer do not survive the
     * refill that skipping a later large field (the body) may cause. */
    char strbuf[4][PR_VEGETA_STR_MAX];
    /* Per field, for the one-pass read of a whole result (pr_gob_read_struct): what to do
     * with it and, for a value read, its most bytes. */
    unsigned char op[PR_GOB_READ_STRUCT_MAX];
    size_t max[PR_GOB_READ_STRUCT_MAX];
} gob_state;

/* 0: every result read field by field (tests compare the two ways). */
int pr_vegeta_gob_fast = 1;

/* Maps the fields of the value's struct type by name; refuses types that are not Results. */
static int map_type(pr_gob *g, gob_state *st, int64_t id, pr_input *in, pr_error *err)
{
    const pr_gob_type *t = pr_gob_type_get(g, id);
    if (!is_result_type(t))
        return pr_error_at_offset(err, PR_EFORMAT, pr_input_name(in), pr_gob_msg_offset(g),
                                  "gob stream of type %s%s%s, not Vegeta results (expected a "
                                  "struct Result with Code, Timestamp and Latency fields)",
                                  t && t->name[0] ? "\"" : "",
                                  t && t->name[0] ? t->name : "(unnamed)",
                                  t && t->name[0] ? "\"" : "");
    memset(st->use, 0, sizeof st->use);
    memset(st->ts_text, 0, sizeof st->ts_text);
    for (size_t i = 0; i < t->nfields; i++) {
        const char *n = t->fields[i].name ? t->fields[i].name : "";
        const pr_gob_type *ft = pr_gob_type_get(g, t->fields[i].id);
        pr_gob_kind k = ft ? ft->kind : PR_GOB_NONE;
        for (size_t j = 0; j < sizeof field_names / sizeof field_names[0]; j++) {
            if (strcmp(n, field_names[j].name) != 0)
                continue;
            enum field_use u = field_names[j].use;
            int ok;
            switch (u) {
            case F_TIMESTAMP:
                ok = k == PR_GOB_GOBENCODER || k == PR_GOB_BINARY || k == PR_GOB_TEXT;
                break;
            case F_ATTACK:
            case F_ERROR:
            case F_METHOD:
            case F_URL: ok = k == PR_GOB_STRING || k == PR_GOB_BYTES; break;
            default: ok = k == PR_GOB_UINT || k == PR_GOB_INT;
            }
            if (!ok && (u == F_TIMESTAMP || u == F_LATENCY || u == F_CODE))
                return pr_error_at_offset(err, PR_EFORMAT, pr_input_name(in), pr_gob_msg_offset(g),
                                          "gob: field Result.%s has an unexpected type", n);
            st->use[i] = ok ? (unsigned char)u : F_SKIP;
            st->ts_text[i] = ok && u == F_TIMESTAMP && k == PR_GOB_TEXT;
        }
    }
    for (size_t i = 0; i < t->nfields && i < PR_GOB_READ_STRUCT_MAX; i++) {
        enum field_use u = (enum field_use)st->use[i];
        int64_t fid = t->fields[i].id;
        st->max[i] = u == F_TIMESTAMP ? 64 : PR_VEGETA_STR_MAX;
        if (u == F_SKIP)
            st->op[i] = (unsigned char)pr_gob_skip_op(g, fid);
        else if (u == F_TIMESTAMP || u == F_ATTACK || u == F_ERROR || u == F_METHOD || u == F_URL)
            st->op[i] = PR_GOB_OP_BYTES;
        else /* as read_result reads them: an int only of the built-in int type */
            st->op[i] = fid == PR_GOB_ID_INT ? PR_GOB_OP_INT : PR_GOB_OP_UINT;
    }
    st->result_id = id;
    st->type = t;
    st->generation = pr_gob_generation(g);
    return 0;
}

/* Decodes time.Time's MarshalBinary form (version 1: 15 bytes, version 2: 16 bytes). */
/* time.Time's MarshalBinary form: 0, 1 for Go's zero time (no time), -1 when malformed,
 * PR_TIME_RANGE outside the years 1678..2261. */
static int decode_time(const unsigned char *p, size_t n, int64_t *ns, int *offset_min)
{
    if (n < 15 || (p[0] != 1 && p[0] != 2) || (p[0] == 1 && n != 15) || (p[0] == 2 && n != 16))
        return -1;
    uint64_t u = 0;
    for (int i = 1; i <= 8; i++)
        u = u << 8 | p[i];
    uint32_t nsec = (uint32_t)p[9] << 24 | (uint32_t)p[10] << 16 | (uint32_t)p[11] << 8 | p[12];
    if (nsec >= 1000000000u)
        return -1;
    if (u == 0 && nsec == 0)
        return 1; /* seconds since year 1: Go's zero time */
    /* seconds since year 1 -> since 1970, in range before anything is multiplied */
    if (u > (uint64_t)INT64_MAX)
        return PR_TIME_RANGE;
    /* pr_time_from_epoch(sec, 1000000000, ns)'s range check with the division by constants
     * (its two calls were 3% of the ingest); its check with a unit of 1 is implied. */
    int64_t sec = (int64_t)u - 62135596800LL;
    if (sec < PR_TIME_MIN_NS / 1000000000LL || sec > PR_TIME_MAX_NS / 1000000000LL)
        return PR_TIME_RANGE;
    *ns = sec * 1000000000LL + (int64_t)nsec;
    int16_t off = (int16_t)((uint16_t)p[13] << 8 | p[14]);
    *offset_min = off == -1 ? 0 : off;
    return 0;
}

/* A Timestamp's bytes into r: 0, or (a bad one) the error, at the decoder's offset. */
static int take_time(pr_gob *g, const gob_state *st, long f, const unsigned char *p, size_t n,
                     pr_vegeta_rec *r, pr_input *in, pr_error *err)
{
    int tr; /* 0, 1 Go's zero time, negative: malformed or out of range */
    if (st->ts_text[f])
        tr = pr_time_is_go_zero((const char *)p, n)
                 ? 1
                 : pr_lex_rfc3339((const char *)p, n, &r->ts_ns, &r->tz_offset_min);
    else
        tr = decode_time(p, n, &r->ts_ns, &r->tz_offset_min);
    r->go_zero = tr == 1;
    r->has_ts = tr == 0;
    r->has_zone = tr == 0;
    if (tr == PR_TIME_RANGE)
        return pr_error_at_offset(err, PR_EPARSE, pr_input_name(in), pr_gob_offset(g),
                                  "gob: Result.Timestamp is outside the years 1678..2261");
    if (tr < 0)
        return pr_error_at_offset(err, PR_EPARSE, pr_input_name(in), pr_gob_offset(g),
                                  "gob: Result.Timestamp is not a valid time.Time "
                                  "encoding (%zu bytes)",
                                  n);
    return 0;
}

/* A number field's value into r (an int's zigzag form undone by the reader). */
static void take_number(gob_state *st, long f, int64_t v, pr_vegeta_rec *r)
{
    if (st->use[f] == F_CODE)
        r->code = v;
    else if (st->use[f] == F_BYTESOUT)
        r->bytes_out = v;
    else if (st->use[f] == F_BYTESIN)
        r->bytes_in = v;
    else
        r->latency_ns = v;
}

/* A string field's bytes into r, copied (n at most PR_VEGETA_STR_MAX). */
static void take_string(gob_state *st, long f, const unsigned char *p, size_t n, pr_vegeta_rec *r)
{
    int slot = st->use[f] == F_ATTACK   ? 0
               : st->use[f] == F_ERROR  ? 1
               : st->use[f] == F_METHOD ? 2
                                        : 3;
    memcpy(st->strbuf[slot], p, n);
    pr_str sv = {st->strbuf[slot], n};
    if (slot == 0)
        r->attack = sv;
    else if (slot == 1)
        r->error = sv;
    else if (slot == 2)
        r->method = sv;
    else
        r->url = sv;
}

/* The whole result in one pass (pr_gob_read_struct): 1 when read, 0 when the fields are to
 * be walked one by one (then from the same place: a bad timestamp is reported by the walk, at
 * its offset). */
static int read_result_fast(pr_gob *g, gob_state *st, pr_input *in, pr_error *err)
{
    const pr_gob_type *t = st->type;
    pr_gob_val v[PR_GOB_READ_STRUCT_MAX];
    uint64_t present;
    size_t mark = pr_gob_mark(g);
    if (!pr_vegeta_gob_fast || pr_gob_read_struct(g, t, st->op, st->max, v, &present) != 1)
        return 0;
    pr_vegeta_rec *r = &st->rec;
    for (long f = 0; present; f++, present >>= 1) {
        if (!(present & 1))
            continue;
        switch ((enum field_use)st->use[f]) {
        case F_SKIP: break;
        case F_CODE:
        case F_BYTESOUT:
        case F_BYTESIN:
        case F_LATENCY:
            take_number(st, f,
                        st->op[f] == PR_GOB_OP_INT ? v[f].i
                        : v[f].u > INT64_MAX       ? INT64_MAX
                                                   : (int64_t)v[f].u,
                        r);
            break;
        case F_TIMESTAMP:
            if (take_time(g, st, f, v[f].p, v[f].n, r, in, err) < 0) {
                pr_error_clear(err);
                pr_gob_back(g, mark);
                pr_vegeta_rec_clear(r);
                return 0;
            }
            break;
        case F_ATTACK:
        case F_ERROR:
        case F_METHOD:
        case F_URL: take_string(st, f, v[f].p, v[f].n, r); break;
        }
    }
    return 1;
}

static int read_result(pr_gob *g, gob_state *st, pr_input *in, pr_error *err)
{
    pr_vegeta_rec *r = &st->rec;
    pr_vegeta_rec_clear(r);
    if (read_result_fast(g, st, in, err))
        return 0;
    const pr_gob_type *t = st->type;
    long f = -1;
    int rc;
    while ((rc = pr_gob_next_field(g, t, &f, err)) == 1) {
        const unsigned char *p;
        size_t n;
        uint64_t u;
        int64_t v;
        switch ((enum field_use)st->use[f]) {
        case F_SKIP: rc = pr_gob_skip(g, t->fields[f].id, err); break;
        case F_CODE:
        case F_BYTESOUT:
        case F_BYTESIN:
        case F_LATENCY:
            if (t->fields[f].id == PR_GOB_ID_INT) {
                rc = pr_gob_read_int(g, &v, err);
            } else {
                rc = pr_gob_read_uint(g, &u, err);
                v = u > INT64_MAX ? INT64_MAX : (int64_t)u;
            }
            if (rc < 0)
                break;
            take_number(st, f, v, r);
            break;
        case F_TIMESTAMP:
            rc = pr_gob_read_bytes(g, &p, &n, 64, err);
            if (rc < 0)
                break;
            rc = take_time(g, st, f, p, n, r, in, err);
            break;
        case F_ATTACK:
        case F_ERROR:
        case F_METHOD:
        case F_URL:
            rc = pr_gob_read_bytes(g, &p, &n, PR_VEGETA_STR_MAX, err);
            if (rc < 0)
                break;
            take_string(st, f, p, n > PR_VEGETA_STR_MAX ? PR_VEGETA_STR_MAX : n, r);
            break;
        }
        if (rc < 0)
            return rc;
    }
    return rc;
}

static int parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    pr_run_set_format(sink->run, "vegeta-gob", "vegeta");
    pr_gob *g = pr_gob_open(in);
    gob_state *st = pr_xcalloc(1, sizeof *st);
    pr_vegeta_acc acc;
    pr_vegeta_acc_init(&acc, sink, pr_input_name(in));
    st->result_id = -1;
    int rc;
    int64_t id;
    long long records = 0;
    while ((rc = pr_gob_next(g, &id, err)) == 1) {
        if (id != st->result_id || pr_gob_generation(g) != st->generation)
            if ((rc = map_type(g, st, id, in, err)) < 0)
                break;
        /* Read the record fully before emitting it, so a cut record is never emitted. */
        if ((rc = read_result(g, st, in, err)) < 0)
            break;
        if ((rc = pr_gob_skip_message(g, err)) < 0)
            break;
        if ((rc = pr_vegeta_acc_add(&acc, &st->rec, err)) < 0)
            break;
        records++;
    }
    if ((rc == PR_EPARSE || rc == PR_ETRUNC) && records == 0 && pr_gob_streams(g) == 0) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        rc = pr_error_at_offset(err, PR_EFORMAT, pr_input_name(in), 0,
                                "not a Vegeta gob results file (%s)", why);
    }
    if (rc == 0 && pr_gob_streams(g) == 0)
        rc = pr_error_at_offset(err, PR_EFORMAT, pr_input_name(in), 0,
                                "not a Vegeta gob results file (no gob type definitions)");
    if (rc >= 0 || rc == PR_ETRUNC) {
        pr_vegeta_acc_finish(&acc);
        if (pr_gob_streams(g) > 1)
            pr_run_meta_set(sink->run, "gob_streams", json_integer(pr_gob_streams(g)));
    }
    pr_gob_free(g);
    free(st);
    return rc < 0 ? rc : 0;
}

const pr_parser pr_parser_vegeta_gob = {
    "vegeta-gob", "vegeta", "Vegeta results in gob (vegeta attack's default output)", sniff, parse,
};
