/* JMeter semantics shared by the CSV and XML JTL readers (see jmeter_common.h). */
#include "parsers/jmeter_common.h"
#include <jansson.h>
#include <stdio.h>
#include <string.h>

int pr_jtl_tc_kind(const char *msg, size_t n)
{
    static const char prefix[] = PR_JTL_TC_PREFIX;
    size_t pn = sizeof prefix - 1;
    if (n < pn || memcmp(msg, prefix, pn) != 0)
        return 0;
    /* "Number of samples in transaction : 0, number of failing samples : 0" */
    size_t i = pn;
    while (i < n && (msg[i] == ' ' || msg[i] == ':'))
        i++;
    if (i < n && msg[i] == '0' && (i + 1 == n || msg[i + 1] < '0' || msg[i + 1] > '9'))
        return 2;
    return 1;
}

uint16_t pr_jtl_status(const char *code, size_t n)
{
    if (n == 0 || n > 5)
        return 0;
    unsigned v = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned d = (unsigned char)code[i] - '0';
        if (d > 9)
            return 0;
        v = v * 10 + d;
    }
    return v > 65535 ? 0 : (uint16_t)v;
}

static int blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
            return 0;
    return 1;
}

uint32_t pr_jtl_error_id(pr_run *run, const char *code, size_t code_n, const char *msg,
                         size_t msg_n, const char *fail, size_t fail_n)
{
    uint16_t st = pr_jtl_status(code, code_n);
    int has_fail = fail_n && !blank(fail, fail_n);
    if ((st >= 200 && st <= 399) || (code_n == 0 && has_fail)) {
        if (has_fail)
            return pr_run_intern(run, fail, fail_n);
        return pr_run_intern(run, "Assertion failed", 16);
    }
    if (code_n == 0) /* no code, no failure message: the message says most */
        return msg_n ? pr_run_intern(run, msg, msg_n) : pr_run_intern(run, "Assertion failed", 16);
    if (msg_n == 0)
        return pr_run_intern(run, code, code_n);
    char buf[2048];
    if (code_n + msg_n + 1 < sizeof buf) {
        memcpy(buf, code, code_n);
        buf[code_n] = '/';
        memcpy(buf + code_n + 1, msg, msg_n);
        return pr_run_intern(run, buf, code_n + 1 + msg_n);
    }
    return pr_run_intern(run, code, code_n);
}

void pr_jtl_meta_rule(pr_run *run, int mode)
{
    const char *name, *rule;
    switch (mode) {
    case PR_SUB_INCLUDE:
        name = "include";
        rule = "every sample JMeter wrote is kept: sub-results (5.x 'Label-N' rows, nested XML "
               "samples) and Transaction Controller samples alike (JMeter 5.x dashboard counting)";
        break;
    case PR_SUB_ONLY:
        name = "only";
        rule = "only leaf samples are kept: parents that have sub-results and Transaction "
               "Controller samples are dropped, each sub-result counts on its own";
        break;
    default:
        name = "exclude";
        rule = "each request counts once: sub-results of a sampler (5.x 'Label-N' rows, nested "
               "redirect/embedded-resource XML samples) are dropped because their parent already "
               "holds their time and bytes; children of a Transaction Controller are kept (they "
               "are the requests) and the controller sample is kept flagged 'transaction', which "
               "totals exclude as JMeter's dashboard does; empty controllers are dropped";
        break;
    }
    pr_run_meta_set(run, "subresults", json_string(name));
    pr_run_meta_set(run, "subresults_rule", json_string(rule));
}

void pr_jtl_attr_add(pr_jtl_attrs *a, const char *k, size_t kn, const char *v, size_t vn)
{
    size_t need = (a->n ? 1 : 0) + kn + 1 + vn;
    if (a->n + need > sizeof a->buf)
        return; /* capped: attributes beyond 1 KiB are dropped */
    if (a->n)
        a->buf[a->n++] = '\x1f';
    memcpy(a->buf + a->n, k, kn);
    a->n += kn;
    a->buf[a->n++] = '=';
    memcpy(a->buf + a->n, v, vn);
    a->n += vn;
}

uint32_t pr_jtl_intern(pr_jtl_icache *c, pr_run *run, int kind, const char *s, size_t n)
{
    if (n == 0)
        return PR_NOSTR;
    pr_strtab *t = run->strings;
    uint64_t a = 0, b = 0;
    memcpy(&a, s, n < 8 ? n : 8);
    memcpy(&b, s + (n > 8 ? n - 8 : 0), n < 8 ? n : 8);
    uint64_t h = (a * 0x9E3779B97F4A7C15ULL) ^ (b * 0xC2B2AE3D27D4EB4FULL) ^
                 ((uint64_t)n * 0x165667B19E3779F9ULL);
    uint32_t *slot = &c->id[kind][(h >> 56) & (PR_JTL_ICACHE - 1)];
    uint32_t id = *slot;
    if (id && pr_strtab_len(t, id) == n && memcmp(pr_strtab_get(t, id), s, n) == 0)
        return id;
    id = pr_run_intern(run, s, n); /* made valid UTF-8 there */
    *slot = id;
    return id;
}
