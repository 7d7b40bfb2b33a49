/* The load generator's TLS: one client context per attack, a session per connection, the
 * non-blocking handshake, and TLS reads and writes with the transport contract of conn.c. */
#include "gen/engine.h"
#include <errno.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <string.h>

int pr_tls_setup(pr_engine *a, pr_error *err)
{
    int any = 0;
    for (size_t e = 0; e < a->neps; e++)
        any |= a->eps[e].tls;
    if (!any)
        return 0;
    a->ssl = SSL_CTX_new(TLS_client_method());
    if (!a->ssl)
        return pr_error_set(err, PR_EIO, NULL, 0, 0, "tls: cannot create a context");
    SSL_CTX_set_mode(a->ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
#ifdef SSL_OP_IGNORE_UNEXPECTED_EOF
    SSL_CTX_set_options(a->ssl, SSL_OP_IGNORE_UNEXPECTED_EOF);
#endif
    /* read-ahead stays off: a read returns at most one record, so no decrypted bytes wait
     * inside OpenSSL when conn.c stops reading a connection at its slice */
    if (a->o->insecure) {
        SSL_CTX_set_verify(a->ssl, SSL_VERIFY_NONE, NULL);
    } else {
        SSL_CTX_set_verify(a->ssl, SSL_VERIFY_PEER, NULL);
        SSL_CTX_set_default_verify_paths(a->ssl);
    }
    return 0;
}

/* The failure text of a TLS call into c->why (w->why_buf). */
static long tls_failed(pr_worker *w, pr_conn *c, const char *what)
{
    long vr = c->ssl ? SSL_get_verify_result(c->ssl) : X509_V_OK;
    unsigned long e = ERR_peek_last_error();
    const char *reason = e ? ERR_reason_error_string(e) : NULL;
    if (vr != X509_V_OK)
        snprintf(w->why_buf, sizeof w->why_buf, "tls: %s", X509_verify_cert_error_string(vr));
    else
        snprintf(w->why_buf, sizeof w->why_buf, "tls: %s", reason ? reason : what);
    ERR_clear_error();
    c->why = w->why_buf;
    c->why_static = 0;
    c->why_errno = 0;
    return PR_XFER_FAIL;
}

/* Maps an SSL_* result r <= 0 of a read, write or handshake to the transport contract. */
static long tls_result(pr_worker *w, pr_conn *c, int r, const char *what)
{
    int e = SSL_get_error(c->ssl, r);
    if (e == SSL_ERROR_WANT_READ) {
        pr_conn_want(w, c, PR_LOOP_READ);
        return PR_XFER_AGAIN;
    }
    if (e == SSL_ERROR_WANT_WRITE) {
        pr_conn_want(w, c, PR_LOOP_READ | PR_LOOP_WRITE);
        return PR_XFER_AGAIN;
    }
    if (e == SSL_ERROR_ZERO_RETURN)
        return 0;
    if (e == SSL_ERROR_SYSCALL && !ERR_peek_error()) {
        if (errno == 0)
            return 0; /* the peer closed without close_notify */
        return pr_conn_errno_fail(c, errno);
    }
    return tls_failed(w, c, what);
}

static void handshake(pr_worker *w, pr_conn *c)
{
    ERR_clear_error();
    int r = SSL_do_handshake(c->ssl);
    if (r == 1) {
        c->connect_ns = pr_loop_now_ns() - c->conn_start;
        pr_conn_set_state(w, c, C_WRITING);
        pr_conn_write(w, c);
        return;
    }
    long x = tls_result(w, c, r, "handshake failed");
    if (x == PR_XFER_AGAIN)
        return;
    if (x == 0) /* closed during the handshake */
        tls_failed(w, c, "handshake failed");
    pr_conn_fail(w, c, c->why, c->why_static);
}

void pr_tls_start(pr_worker *w, pr_conn *c)
{
    pr_engine *a = w->a;
    pr_endpoint *ep = &a->eps[c->ep];
    c->ssl = SSL_new(a->ssl);
    if (!c->ssl || !SSL_set_fd(c->ssl, c->io.fd)) {
        ERR_clear_error();
        pr_conn_fail(w, c, "tls: cannot create session", 1);
        return;
    }
    if (!ep->ip_literal)
        SSL_set_tlsext_host_name(c->ssl, ep->host);
    if (!a->o->insecure) {
        X509_VERIFY_PARAM *vp = SSL_get0_param(c->ssl);
        if (ep->ip_literal)
            X509_VERIFY_PARAM_set1_ip_asc(vp, ep->host);
        else
            X509_VERIFY_PARAM_set1_host(vp, ep->host, 0);
    }
    SSL_set_connect_state(c->ssl);
    pr_conn_set_state(w, c, C_HANDSHAKE);
    handshake(w, c);
}

void pr_tls_handshake(pr_worker *w, pr_conn *c)
{
    handshake(w, c);
}

long pr_tls_send(pr_worker *w, pr_conn *c, const void *p, size_t n)
{
    ERR_clear_error();
    int r = SSL_write(c->ssl, p, n > INT32_MAX ? INT32_MAX : (int)n);
    if (r > 0)
        return r;
    long x = tls_result(w, c, r, "write failed");
    return x == 0 ? pr_conn_errno_fail(c, EPIPE) : x; /* closed under a write: gone */
}

long pr_tls_recv(pr_worker *w, pr_conn *c, void *p, size_t n)
{
    ERR_clear_error();
    int r = SSL_read(c->ssl, p, n > INT32_MAX ? INT32_MAX : (int)n);
    if (r > 0)
        return r;
    return tls_result(w, c, r, "read failed");
}
