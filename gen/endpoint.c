/* The load generator's endpoints: each distinct scheme, host and port of the targets resolved
 * once (DNS) to up to PR_EP_ADDRS addresses, before any worker starts. */
#include "gen/engine.h"
#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/xalloc.h"

static size_t find(const pr_engine *a, const pr_http_url *u)
{
    size_t e;
    for (e = 0; e < a->neps; e++)
        if (a->eps[e].port == u->port && a->eps[e].tls == u->tls &&
            !strcmp(a->eps[e].host, u->host))
            break;
    return e;
}

static int add(pr_engine *a, const pr_target *t, pr_error *err)
{
    const pr_http_url *u = &t->u;
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res = NULL;
    char port[16];
    snprintf(port, sizeof port, "%d", u->port);
    int rc = getaddrinfo(u->host, port, &hints, &res);
    if (rc != 0 || !res)
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0, "%s: cannot resolve host: %s", t->url,
                            gai_strerror(rc));
    a->eps = pr_xrealloc(a->eps, (a->neps + 1) * sizeof *a->eps);
    pr_endpoint *ep = &a->eps[a->neps++];
    memset(ep, 0, sizeof *ep);
    for (struct addrinfo *ai = res; ai && ep->naddr < PR_EP_ADDRS; ai = ai->ai_next) {
        memcpy(&ep->addr[ep->naddr], ai->ai_addr, ai->ai_addrlen);
        ep->addrlen[ep->naddr++] = ai->ai_addrlen;
    }
    freeaddrinfo(res);
    ep->tls = u->tls;
    ep->port = u->port;
    ep->host = pr_xstrdup(u->host);
    unsigned char tmp[16];
    ep->ip_literal =
        inet_pton(AF_INET, u->host, tmp) == 1 || inet_pton(AF_INET6, u->host, tmp) == 1;
    return 0;
}

int pr_endpoints_resolve(pr_engine *a, pr_error *err)
{
    const pr_targets *t = a->targets;
    a->target_ep = pr_xcalloc(t->n, sizeof *a->target_ep);
    for (size_t i = 0; i < t->n; i++) {
        size_t e = find(a, &t->v[i].u);
        if (e == a->neps) {
            int rc = add(a, &t->v[i], err);
            if (rc < 0)
                return rc;
        }
        a->target_ep[i] = (int)e;
    }
    return 0;
}

void pr_endpoints_free(pr_engine *a)
{
    for (size_t e = 0; e < a->neps; e++)
        free(a->eps[e].host);
    free(a->eps);
    free(a->target_ep);
    a->eps = NULL;
    a->target_ep = NULL;
    a->neps = 0;
}
