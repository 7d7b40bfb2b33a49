/* Reader of Gatling's simulation.log: the tab-separated text layouts of 2.0 to 3.12 and the
 * binary log of 3.13+ (two registry entries sharing one record model). */
#include "parsers/gatling.h"
#include "parsers/jmeter_common.h"
#include "parsers/textsum.h"
#include "model/xalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- what both layouts share: one record at a time into the sink ---- */

void pr_gatling_begin(pr_gatling *g, pr_input *in, pr_sink *sink, pr_error *err)
{
    memset(g, 0, sizeof *g);
    g->in = in;
    g->sink = sink;
    g->run = sink->run;
    g->err = err;
    g->name = pr_input_name(in);
    g->errors = json_object();
    /* simulation.log stamps request start and end in epoch milliseconds */
    pr_run_meta_resolution(sink->run, "latency_resolution_ns", 1000000);
    pr_run_meta_resolution(sink->run, "time_resolution_ns", 1000000);
}

void pr_gatling_run(pr_gatling *g, pr_str cls, pr_str simid, int64_t start_ms, pr_str desc,
                    pr_str version)
{
    pr_run *r = g->run;
    json_t *m = json_object();
    pr_textsum_str(m, "simulation", cls.p, cls.n);
    if (simid.n)
        pr_textsum_str(m, "simulation_id", simid.p, simid.n);
    desc = pr_str_trim(desc);
    if (desc.n)
        pr_textsum_str(m, "description", desc.p, desc.n);
    if (start_ms != PR_UNKNOWN)
        pr_textsum_int(m, "run_start_ms", start_ms);
    pr_run_meta_set(r, "gatling", m);
    if (version.n && version.n < 32 && !r->tool_version) {
        char v[32];
        memcpy(v, version.p, version.n);
        v[version.n] = 0;
        r->tool_version = pr_xstrdup(v);
    }
    g->run_start_ms = start_ms;
    g->have_run = 1;
}

/* The label of a request: its group path, then its name ("Checkout / Pay / POST /pay"). */
static uint32_t label_id(pr_gatling *g, const pr_str *groups, size_t ngroups, pr_str name)
{
    size_t n = 0;
    char *b = g->label;
    for (size_t i = 0; i < ngroups + 1; i++) {
        pr_str s = i < ngroups ? groups[i] : name;
        if (i == ngroups && !name.p)
            break;
        if (n && n + 3 < sizeof g->label) {
            memcpy(b + n, " / ", 3);
            n += 3;
        }
        size_t k = s.n < sizeof g->label - n ? s.n : sizeof g->label - n;
        memcpy(b + n, s.p, k);
        n += k;
    }
    return pr_jtl_intern(&g->ic, g->run, PR_JTL_IC_LABEL, b, n);
}

static int emit(pr_gatling *g, const pr_str *groups, size_t ngroups, pr_str name, int64_t start_ms,
                int64_t end_ms, int ok, pr_str msg, int flags)
{
    pr_sample s;
    pr_sample_init(&s);
    int64_t end_ns;
    if (pr_time_from_epoch(start_ms, 1000000, &s.start_ns) < 0 ||
        pr_time_from_epoch(end_ms, 1000000, &end_ns) < 0)
        return pr_error_set(g->err, PR_EPARSE, g->name, g->line, 0,
                            "timestamps outside the years 1678..2261 (start %lld ms, end %lld "
                            "ms)",
                            (long long)start_ms, (long long)end_ms);
    if (end_ms < start_ms)
        return pr_error_set(g->err, PR_EPARSE, g->name, g->line, 0,
                            "a negative response time: end %lld ms before start %lld ms",
                            (long long)end_ms, (long long)start_ms);
    s.latency_ns = end_ns - s.start_ns;
    s.label = label_id(g, groups, ngroups, name);
    s.success = ok ? PR_OK_SUCCESS : PR_FAIL;
    s.status = 0; /* simulation.log records no HTTP status */
    s.flags = (uint8_t)flags;
    s.threads = g->users > INT32_MAX ? INT32_MAX : (int32_t)g->users;
    if (!ok) {
        msg = pr_str_trim(msg);
        s.error = msg.n ? pr_jtl_intern(&g->ic, g->run, PR_JTL_IC_URL, msg.p, msg.n)
                        : pr_run_intern(g->run, "KO", 2);
    }
    return pr_sink_emit(g->sink, &s, g->err);
}

int pr_gatling_request(pr_gatling *g, const pr_str *groups, size_t ngroups, pr_str name,
                       int64_t start_ms, int64_t end_ms, int ok, pr_str msg)
{
    g->requests++;
    g->kos += !ok;
    return emit(g, groups, ngroups, name, start_ms, end_ms, ok, msg, 0);
}

int pr_gatling_group(pr_gatling *g, const pr_str *groups, size_t ngroups, int64_t start_ms,
                     int64_t end_ms, int64_t cumulated_ms, int ok)
{
    pr_str none = {NULL, 0};
    g->groups++;
    (void)cumulated_ms; /* Gatling's "cumulated response time": the sum of its requests' times */
    return emit(g, groups, ngroups, none, start_ms, end_ms, ok, none, PR_SF_TRANSACTION);
}

void pr_gatling_user(pr_gatling *g, int start)
{
    if (start) {
        g->users++;
        g->user_starts++;
        if (g->users > g->users_max)
            g->users_max = g->users;
    } else {
        g->user_ends++;
        if (g->users > 0)
            g->users--;
    }
}

#define GATLING_MAX_ERRORS 100

void pr_gatling_error(pr_gatling *g, pr_str msg)
{
    g->error_records++;
    char key[512];
    msg = pr_str_trim(msg);
    size_t n = msg.n < sizeof key - 1 ? msg.n : sizeof key - 1;
    memcpy(key, msg.p, n);
    key[n] = 0;
    for (size_t i = 0; i < n; i++) /* keys must be valid UTF-8 for jansson */
        if ((unsigned char)key[i] >= 0x80 || key[i] == 0)
            key[i] = '?';
    json_t *c = json_object_get(g->errors, key);
    if (c)
        json_integer_set(c, json_integer_value(c) + 1);
    else if (json_object_size(g->errors) < GATLING_MAX_ERRORS)
        json_object_set_new(g->errors, key, json_integer(1));
}

void pr_gatling_end(pr_gatling *g, const char *layout)
{
    pr_run *r = g->run;
    json_t *m = json_object_get(r->meta, "gatling");
    if (!m) {
        m = json_object();
        pr_run_meta_set(r, "gatling", m);
    }
    json_object_set_new(m, "layout", json_string(layout));
    pr_textsum_int(m, "requests", g->requests);
    pr_textsum_int(m, "kos", g->kos);
    pr_textsum_int(m, "groups", g->groups);
    pr_textsum_int(m, "user_starts", g->user_starts);
    pr_textsum_int(m, "user_ends", g->user_ends);
    pr_textsum_int(m, "users_max", g->users_max);
    pr_textsum_int(m, "error_records", g->error_records);
    /* ERROR records are Gatling's crash/handler messages, not requests: counted, not sampled */
    json_object_set_new(m, "errors", g->errors);
    g->errors = NULL;
    pr_run_meta_set(r, "groups_rule",
                    json_string("GROUP records are kept as samples flagged 'transaction' (like "
                                "JMeter's Transaction Controllers): each has a label row of its "
                                "own, and totals leave them out, as the requests they hold are "
                                "already counted"));
    pr_run_meta_set(r, "status_rule",
                    json_string("simulation.log records no HTTP status: "
                                "status 0 means unknown here"));
}

void pr_gatling_dispose(pr_gatling *g)
{
    json_decref(g->errors);
}

/* ---- text layouts (2.0 to 3.12) ---- */

enum { L_20, L_22, L_30, L_34, NLAYOUTS };
static const char *const layout_names[NLAYOUTS] = {"2.0-2.1", "2.2-2.3", "3.0-3.3", "3.4-3.12"};

/* Field positions of each record kind per layout (-1: not in that layout). */
typedef struct req_cols {
    int nf, groups, name, start, end, resp_start, status, msg;
} req_cols;
typedef struct grp_cols {
    int nf, groups, start, end, cum, status;
} grp_cols;
typedef struct user_cols {
    int nf, kind;
} user_cols;

static const req_cols req_layout[NLAYOUTS] = {
    {11, 3, 4, 5, 8, 7, 9,
     10}, /* scen uid REQUEST groups name reqStart reqEnd respStart respEnd st msg */
    {9, 3, 4, 5, 6, -1, 7, 8}, /* REQUEST scen uid groups name start end st msg */
    {8, 2, 3, 4, 5, -1, 6, 7}, /* REQUEST uid groups name start end st msg */
    {7, 1, 2, 3, 4, -1, 5, 6}, /* REQUEST groups name start end st msg */
};
static const grp_cols grp_layout[NLAYOUTS] = {
    {10, 3, 4, 5, 6, 9}, /* scen uid GROUP groups start end cum oks kos st */
    {8, 3, 4, 5, 6, 7},  /* GROUP scen uid groups start end cum st */
    {7, 2, 3, 4, 5, 6},  /* GROUP uid groups start end cum st */
    {6, 1, 2, 3, 4, 5},  /* GROUP groups start end cum st */
};
static const user_cols user_layout[NLAYOUTS] = {{5, 3}, {5, 3}, {5, 3}, {4, 2}};

#define GATLING_MAX_FIELDS 64
#define GATLING_MAX_GROUPS 32

typedef struct gtext {
    pr_gatling g;
    int layout; /* -1 until known */
    /* REQUEST records one field short, their empty trailing message stripped (logs passed
     * through tools that trim trailing tabs): how many, and the first one's line */
    int64_t stripped;
    long stripped_line;
    pr_str f[GATLING_MAX_FIELDS];
    size_t nf;
} gtext;

static int field_i64(gtext *t, int idx, int64_t *v)
{
    pr_str s = t->f[idx];
    if (pr_lex_i64(s.p, s.n, v) == 0)
        return 0;
    long col = 1;
    for (int i = 0; i < idx; i++)
        col += (long)t->f[i].n + 1;
    return pr_error_set(t->g.err, PR_EPARSE, t->g.name, t->g.line, col,
                        "expected a timestamp in ms, found '%.*s'", (int)(s.n > 40 ? 40 : s.n),
                        s.p);
}

static int field_status(gtext *t, int idx, int *ok)
{
    pr_str s = t->f[idx];
    if (pr_str_eq(s, "OK") || pr_str_eq(s, "KO")) {
        *ok = s.p[0] == 'O';
        return 0;
    }
    long col = 1;
    for (int i = 0; i < idx; i++)
        col += (long)t->f[i].n + 1;
    return pr_error_set(t->g.err, PR_EPARSE, t->g.name, t->g.line, col,
                        "expected OK or KO, found '%.*s'", (int)(s.n > 40 ? 40 : s.n), s.p);
}

static int too_few(gtext *t, const char *kind, int want)
{
    return pr_error_set(t->g.err, PR_EPARSE, t->g.name, t->g.line, 0,
                        "expected %d tab-separated fields in a %s record (Gatling %s layout), "
                        "found %zu",
                        want, kind, layout_names[t->layout], t->nf);
}

/* Splits "a,b,c" (Gatling's group hierarchy) into parts. */
static size_t split_groups(pr_str s, pr_str *out)
{
    if (s.n == 0)
        return 0;
    size_t n = pr_lex_split(s.p, s.n, ',', out, GATLING_MAX_GROUPS);
    return n > GATLING_MAX_GROUPS ? GATLING_MAX_GROUPS : n; /* deeper levels dropped */
}

static int text_request(gtext *t)
{
    const req_cols *c = &req_layout[t->layout];
    pr_str none = {"", 0};
    int no_msg = (int)t->nf == c->nf - 1 && c->msg == c->nf - 1; /* only the message is missing */
    if ((int)t->nf < c->nf && !no_msg)
        return too_few(t, "REQUEST", c->nf);
    if (no_msg && t->stripped++ == 0)
        t->stripped_line = t->g.line;
    int64_t start, end;
    int ok, rc;
    if ((rc = field_i64(t, c->start, &start)) < 0 || (rc = field_i64(t, c->end, &end)) < 0 ||
        (rc = field_status(t, c->status, &ok)) < 0)
        return rc;
    pr_str groups[GATLING_MAX_GROUPS];
    size_t ng = split_groups(t->f[c->groups], groups);
    return pr_gatling_request(&t->g, groups, ng, t->f[c->name], start, end, ok,
                              no_msg ? none : t->f[c->msg]);
}

static int text_group(gtext *t)
{
    const grp_cols *c = &grp_layout[t->layout];
    if (t->layout == L_22 && t->nf == 3) { /* 2.2/2.3 wrote ERROR records as GROUP */
        pr_gatling_error(&t->g, t->f[1]);
        return 0;
    }
    if ((int)t->nf < c->nf)
        return too_few(t, "GROUP", c->nf);
    int64_t start, end, cum;
    int ok, rc;
    if ((rc = field_i64(t, c->start, &start)) < 0 || (rc = field_i64(t, c->end, &end)) < 0 ||
        (rc = field_i64(t, c->cum, &cum)) < 0 || (rc = field_status(t, c->status, &ok)) < 0)
        return rc;
    pr_str groups[GATLING_MAX_GROUPS];
    size_t ng = split_groups(t->f[c->groups], groups);
    return pr_gatling_group(&t->g, groups, ng, start, end, cum, ok);
}

static int text_user(gtext *t)
{
    const user_cols *c = &user_layout[t->layout];
    if ((int)t->nf < c->nf)
        return too_few(t, "USER", c->nf);
    pr_str k = t->f[c->kind];
    if (!pr_str_eq(k, "START") && !pr_str_eq(k, "END"))
        return pr_error_set(t->g.err, PR_EPARSE, t->g.name, t->g.line, 0,
                            "expected START or END in a USER record, found '%.*s'",
                            (int)(k.n > 40 ? 40 : k.n), k.p);
    pr_gatling_user(&t->g, k.p[0] == 'S');
    return 0;
}

/* "3.9.5" → 1 if at least 3.4 (user ids gone from records), 0 if older, -1 if no version. */
static int version_34(pr_str v)
{
    int64_t major = 0, minor = 0;
    size_t i = 0;
    while (i < v.n && v.p[i] >= '0' && v.p[i] <= '9')
        major = major * 10 + (v.p[i++] - '0');
    if (i == 0 || i >= v.n || v.p[i] != '.')
        return -1;
    i++;
    while (i < v.n && v.p[i] >= '0' && v.p[i] <= '9' && minor < 1000)
        minor = minor * 10 + (v.p[i++] - '0');
    return major > 3 || (major == 3 && minor >= 4);
}

static int text_run(gtext *t)
{
    pr_str none = {"", 0};
    int64_t start;
    int rc;
    if (t->nf >= 3 && pr_str_eq(t->f[2], "RUN")) { /* 2.0/2.1: simClass simId RUN start desc 2.0 */
        t->layout = L_20;
        if (t->nf < 6)
            return too_few(t, "RUN", 6);
        if ((rc = field_i64(t, 3, &start)) < 0)
            return rc;
        pr_gatling_run(&t->g, t->f[0], t->f[1], start, t->f[4], t->f[5]);
        return 0;
    }
    pr_str last = t->f[t->nf - 1];
    if (t->nf >= 6 && last.n >= 2 && last.p[0] == '2' && last.p[1] == '.') {
        /* 2.2/2.3 (log format "2.0"): RUN simClass userSimId defaultSimId start desc 2.0; some
         * writers joined the two ids in one field */
        t->layout = L_22;
        int at = t->nf >= 7 ? 4 : 3;
        if ((rc = field_i64(t, at, &start)) < 0)
            return rc;
        pr_gatling_run(&t->g, t->f[1], t->f[2].n ? t->f[2] : t->f[3], start, t->f[at + 1], none);
        return 0;
    }
    if (t->nf < 6) {
        t->layout = L_34;
        return too_few(t, "RUN", 6);
    }
    int v34 = version_34(t->f[5]);
    t->layout = v34 == 0 ? L_30 : L_34;
    if ((rc = field_i64(t, 3, &start)) < 0)
        return rc;
    pr_gatling_run(&t->g, t->f[1], t->f[2], start, t->f[4], v34 < 0 ? none : t->f[5]);
    return 0;
}

/* Before any RUN record (a file cut at its head): the layout from a record's field count. */
static void guess_layout(gtext *t)
{
    pr_str k = t->f[0];
    if (pr_str_eq(k, "REQUEST"))
        t->layout = t->nf == 7 ? L_34 : t->nf == 8 ? L_30 : L_22;
    else if (pr_str_eq(k, "USER"))
        t->layout = t->nf == 4 ? L_34 : L_30;
    else if (pr_str_eq(k, "GROUP"))
        t->layout = t->nf == 6 ? L_34 : t->nf == 7 ? L_30 : L_22;
    else
        t->layout = L_34;
}

static int text_record(gtext *t, pr_str l)
{
    t->nf = pr_lex_split(l.p, l.n, '\t', t->f, GATLING_MAX_FIELDS);
    if (t->nf > GATLING_MAX_FIELDS)
        t->nf = GATLING_MAX_FIELDS;
    if (pr_str_eq(t->f[0], "RUN") || (t->nf >= 3 && pr_str_eq(t->f[2], "RUN")))
        return text_run(t);
    if (pr_str_eq(t->f[0], "ASSERTION")) {
        t->g.assertions++;
        return 0;
    }
    if (t->layout < 0)
        guess_layout(t);
    pr_str kind = t->layout == L_20 && t->nf >= 3 ? t->f[2] : t->f[0];
    if (pr_str_eq(kind, "REQUEST"))
        return text_request(t);
    if (pr_str_eq(kind, "USER"))
        return text_user(t);
    if (pr_str_eq(kind, "GROUP"))
        return text_group(t);
    if (pr_str_eq(kind, "ERROR")) {
        pr_gatling_error(&t->g, t->nf >= 2 ? t->f[1] : kind);
        return 0;
    }
    return pr_error_set(t->g.err, PR_EPARSE, t->g.name, t->g.line, 1,
                        "expected a RUN, USER, REQUEST, GROUP, ERROR or ASSERTION record, found "
                        "'%.*s'",
                        (int)(kind.n > 40 ? 40 : kind.n), kind.p);
}

static int text_sniff(const unsigned char *buf, size_t len)
{
    /* first line: ASSERTION or RUN (3.x, 2.2+) or "<class>\t<id>\tRUN\t" (2.0/2.1) */
    size_t n = 0;
    while (n < len && buf[n] != '\n')
        n++;
    pr_str f[8];
    size_t nf = pr_lex_split((const char *)buf, n, '\t', f, 7);
    if (nf < 2)
        return 0;
    if (pr_str_eq(f[0], "RUN") && nf >= 6)
        return 95;
    if (pr_str_eq(f[0], "ASSERTION") && nf >= 2)
        return 80;
    if (nf >= 6 && pr_str_eq(f[2], "RUN"))
        return 95;
    if (nf >= 4 && (pr_str_eq(f[0], "REQUEST") || pr_str_eq(f[0], "USER")))
        return 60; /* a log cut at its head */
    return 0;
}

static int text_parse(pr_input *in, pr_sink *sink, const pr_parse_opts *opts, pr_error *err)
{
    gtext *t = pr_xcalloc(1, sizeof *t);
    pr_gatling_begin(&t->g, in, sink, err);
    t->layout = -1;
    const char *line;
    size_t len;
    int rc;
    while ((rc = pr_input_getline(in, &line, &len, err)) > 0) {
        t->g.line = pr_input_lineno(in);
        if (!pr_input_line_terminated(in)) { /* Gatling ends every record: this one was cut */
            rc = pr_error_set(err, PR_ETRUNC, t->g.name, t->g.line, (long)len + 1,
                              "record cut short (the run was interrupted): kept the %ld "
                              "complete lines before it",
                              t->g.line - 1);
            break;
        }
        pr_str l = pr_textsum_line(line, len);
        if (l.n == 0)
            continue;
        if ((rc = text_record(t, l)) < 0)
            break;
    }
    if (rc >= 0 && !t->g.have_run && t->g.requests + t->g.groups + t->g.user_starts == 0)
        rc = pr_error_set(err, PR_EFORMAT, t->g.name, 1, 1,
                          "expected a Gatling simulation.log (a RUN record first)");
    if ((rc >= 0 || rc == PR_ETRUNC) && t->stripped) {
        char b[256];
        snprintf(b, sizeof b,
                 "%lld REQUEST record(s) have %d fields, not %d: their empty trailing message "
                 "field was stripped; read as no message",
                 (long long)t->stripped, req_layout[t->layout].nf - 1, req_layout[t->layout].nf);
        pr_sink_warn(sink, t->g.name, t->stripped_line, 0, "%s", b);
        pr_textsum_note(sink->run, b);
    }
    if (rc >= 0 || rc == PR_ETRUNC)
        pr_gatling_end(&t->g, t->layout >= 0 ? layout_names[t->layout] : "unknown");
    pr_gatling_dispose(&t->g);
    free(t);
    return rc > 0 ? 0 : rc;
}

const pr_parser pr_parser_gatling = {
    "gatling", "gatling",
    "Gatling simulation.log, text (2.0 to 3.12): REQUEST samples, GROUP transactions, users",
    text_sniff, text_parse};
