/* Content-sniffing helpers shared by the readers (see sniff.h). */
#include "parsers/sniff.h"
#include "model/jscan.h"
#include <string.h>

int pr_sniff_line(const unsigned char *buf, size_t len, pr_str *line)
{
    const char *p = (const char *)buf;
    size_t n = len;
    const char *nl = memchr(p, '\n', n);
    if (nl)
        n = (size_t)(nl - p);
    if (nl && n && p[n - 1] == '\r')
        n--;
    *line = (pr_str){p, n};
    return nl != NULL;
}

int pr_sniff_header(const unsigned char *buf, size_t len, const char *header, size_t min_prefix)
{
    size_t k = strlen(header);
    if (len < k)
        return len >= min_prefix && memcmp(buf, header, len) == 0 ? 60 : 0;
    if (memcmp(buf, header, k) != 0)
        return 0;
    return (len == k || buf[k] == '\n' || buf[k] == '\r') ? 100 : 0;
}

int pr_sniff_json(const unsigned char *buf, size_t len, pr_str *obj)
{
    pr_jscan s;
    char none[1];
    pr_jscan_init(&s, (const char *)buf, len, none, 0, 0);
    pr_jscan_ws(&s);
    if (s.p >= s.end || *s.p != '{')
        return -1;
    const char *at = s.p;
    if (pr_jscan_skip(&s) == 0) {
        *obj = (pr_str){at, (size_t)(s.p - at)};
        return 1;
    }
    *obj = (pr_str){at, (size_t)(s.end - at)};
    return 0;
}

int pr_sniff_has(pr_str s, const char *lit)
{
    return memmem(s.p, s.n, lit, strlen(lit)) != NULL;
}
