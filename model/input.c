/* Buffered input with peek, bounded getline, offsets and a running XXH3-128 digest (on a
 * second thread for the large direct reads of callers that ask: pr_input_async_digest). */
#include "model/input.h"
#include "model/threads.h"
#include "model/xalloc.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <xxhash.h>
#if defined(__x86_64__) || defined(__i386__)
/* The library's run-time dispatch picks its AVX2/AVX-512 loop where the CPU has one (the
 * digest is the same): the plain entry points are built for SSE2. */
#include <xxh_x86dispatch.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define BUF_SIZE (PR_LINE_MAX + (1u << 16))

struct pr_input {
    int fd; /* -1 for memory inputs */
    char *name;
    const unsigned char *mem;
    size_t mem_len, mem_pos;
    unsigned char *buf;
    size_t pos, len; /* unread bytes are buf[pos..len) */
    int eof;
    long long offset; /* bytes consumed */
    long lineno;
    int terminated;
    XXH3_state_t *md;
    struct hasher *hs;  /* NULL: the digest is updated on the reading thread */
    int map_state;      /* pr_input_window: 0 untried, 1 mapping, -1 not mappable */
    unsigned char *map; /* current window (page aligned), map_len bytes */
    size_t map_len;
    long long size;   /* file size when the first window was mapped */
    long long window; /* window size: PR_WINDOW_SIZE, or smaller in tests */
};

/* The digest's second thread: one chunk at a time (the bytes of the last direct read, which
 * the caller leaves unchanged until its next call on the input), in the order read, so the
 * digest is the one a single thread computes. */
typedef struct hasher {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    const unsigned char *p; /* chunk being hashed, NULL when idle */
    size_t n;
    int quit;
    XXH3_state_t *md;
} hasher;

static void *hash_main(void *arg)
{
    hasher *h = arg;
    pthread_mutex_lock(&h->mu);
    for (;;) {
        while (!h->p && !h->quit)
            pthread_cond_wait(&h->cv, &h->mu);
        if (!h->p)
            break;
        const unsigned char *p = h->p;
        size_t n = h->n;
        pthread_mutex_unlock(&h->mu);
        XXH3_128bits_update(h->md, p, n);
        pthread_mutex_lock(&h->mu);
        h->p = NULL;
        pthread_cond_broadcast(&h->cv);
    }
    pthread_mutex_unlock(&h->mu);
    return NULL;
}

/* Waits until the hashing thread has taken in every byte handed to it. */
static void hash_wait(pr_input *in)
{
    hasher *h = in->hs;
    if (!h)
        return;
    pthread_mutex_lock(&h->mu);
    while (h->p)
        pthread_cond_wait(&h->cv, &h->mu);
    pthread_mutex_unlock(&h->mu);
}

/* Adds n bytes at p to the digest: handed to the hashing thread where there is one. */
static void hash_bytes(pr_input *in, const unsigned char *p, size_t n)
{
    hasher *h = in->hs;
    if (!h || n == 0) {
        hash_wait(in);
        XXH3_128bits_update(in->md, p, n);
        return;
    }
    pthread_mutex_lock(&h->mu);
    while (h->p)
        pthread_cond_wait(&h->cv, &h->mu);
    h->p = p;
    h->n = n;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
}

int pr_input_async_digest(pr_input *in)
{
    if (in->hs)
        return 1;
    if (in->fd < 0 || pr_threads() < 2) /* PERFREPORT_THREADS=1: no thread anywhere */
        return 0;
    hasher *h = pr_xcalloc(1, sizeof *h);
    h->md = in->md;
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->cv, NULL);
    if (pthread_create(&h->th, NULL, hash_main, h) != 0) {
        pthread_cond_destroy(&h->cv);
        pthread_mutex_destroy(&h->mu);
        free(h);
        return 0; /* the digest stays on the reading thread: slower, same value */
    }
    in->hs = h;
    return 1;
}

void pr_input_sync(pr_input *in)
{
    hash_wait(in);
}

static void hash_stop(pr_input *in)
{
    hasher *h = in->hs;
    if (!h)
        return;
    hash_wait(in);
    pthread_mutex_lock(&h->mu);
    h->quit = 1;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
    pthread_join(h->th, NULL);
    pthread_cond_destroy(&h->cv);
    pthread_mutex_destroy(&h->mu);
    free(h);
    in->hs = NULL;
}

static pr_input *alloc_input(const char *name)
{
    pr_input *in = pr_xcalloc(1, sizeof *in);
    in->name = pr_xstrdup(name);
    in->md = XXH3_createState();
    if (!in->md || XXH3_128bits_reset(in->md) != XXH_OK) {
        fprintf(stderr, "perfreport: cannot initialise the content hash\n");
        abort();
    }
    return in;
}

pr_input *pr_input_open(const char *path, pr_error *err)
{
    int fd;
    const char *name = path;
    if (strcmp(path, "-") == 0) {
        fd = 0;
        name = "<stdin>";
    } else {
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            pr_error_set(err, PR_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
            return NULL;
        }
#ifdef POSIX_FADV_SEQUENTIAL
        posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    }
    pr_input *in = alloc_input(name);
    in->fd = fd;
    in->window = PR_WINDOW_SIZE;
    in->buf = pr_xmalloc(BUF_SIZE);
    return in;
}

pr_input *pr_input_mem(const char *name, const void *data, size_t len)
{
    pr_input *in = alloc_input(name);
    in->fd = -1;
    in->mem = data;
    in->mem_len = len;
    in->buf = pr_xmalloc(BUF_SIZE);
    return in;
}

void pr_input_close(pr_input *in)
{
    if (!in)
        return;
    hash_stop(in);
    if (in->map)
        munmap(in->map, in->map_len);
    if (in->fd > 0)
        close(in->fd);
    XXH3_freeState(in->md);
    free(in->buf);
    free(in->name);
    free(in);
}

const char *pr_input_name(const pr_input *in)
{
    return in->name;
}

/* Refills the buffer so that at least `want` unread bytes are present, or EOF is reached.
 * Returns -1 on I/O error. */
static int fill(pr_input *in, size_t want, pr_error *err)
{
    if (want > BUF_SIZE)
        want = BUF_SIZE;
    if (in->len - in->pos >= want || in->eof)
        return 0;
    if (in->pos > 0) {
        memmove(in->buf, in->buf + in->pos, in->len - in->pos);
        in->len -= in->pos;
        in->pos = 0;
    }
    while (in->len < want && !in->eof) {
        size_t room = BUF_SIZE - in->len;
        ssize_t r;
        if (in->fd < 0) {
            size_t n = in->mem_len - in->mem_pos;
            if (n > room)
                n = room;
            memcpy(in->buf + in->len, in->mem + in->mem_pos, n);
            in->mem_pos += n;
            r = (ssize_t)n;
        } else {
            r = read(in->fd, in->buf + in->len, room);
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0) {
                pr_error_set(err, PR_EIO, in->name, 0, 0, "read error: %s", strerror(errno));
                return -1;
            }
        }
        if (r == 0)
            in->eof = 1;
        in->len += (size_t)r;
    }
    return 0;
}

static void consume(pr_input *in, size_t n)
{
    hash_wait(in);
    XXH3_128bits_update(in->md, in->buf + in->pos, n);
    in->pos += n;
    in->offset += (long long)n;
}

const unsigned char *pr_input_peek(pr_input *in, size_t want, size_t *got)
{
    if (want > 65536)
        want = 65536;
    if (fill(in, want, NULL) < 0) {
        *got = 0;
        return in->buf + in->pos;
    }
    size_t avail = in->len - in->pos;
    *got = avail < want ? avail : want;
    return in->buf + in->pos;
}

/* A large read (half the buffer or more: the gob reader takes 1 MiB at a time) of a file with
 * nothing buffered: straight into the caller's buffer; a copy through buf was a tenth of the
 * gob reader's time. Smaller reads (the XML reader's 64 KiB) still go through buf. */
static long read_direct(pr_input *in, unsigned char *out, size_t n, pr_error *err)
{
    ssize_t r;
    do
        r = read(in->fd, out, n);
    while (r < 0 && errno == EINTR);
    if (r < 0) {
        pr_error_set(err, PR_EIO, in->name, 0, 0, "read error: %s", strerror(errno));
        return -1;
    }
    if (r == 0)
        in->eof = 1;
    hash_bytes(in, out, (size_t)r);
    in->offset += (long long)r;
    return (long)r;
}

long pr_input_tail(pr_input *in, void *buf, size_t n)
{
    if (in->fd < 0) {
        size_t k = n < in->mem_len ? n : in->mem_len;
        if (k)
            memcpy(buf, in->mem + (in->mem_len - k), k);
        return (long)k;
    }
    struct stat sb;
    if (in->fd == 0 || fstat(in->fd, &sb) < 0 || !S_ISREG(sb.st_mode))
        return -1;
    size_t k = (uint64_t)sb.st_size < n ? (size_t)sb.st_size : n;
    off_t from = sb.st_size - (off_t)k;
    for (size_t done = 0; done < k;) {
        ssize_t r = pread(in->fd, (char *)buf + done, k - done, from + (off_t)done);
        if (r == 0 || (r < 0 && errno != EINTR))
            return -1;
        done += r > 0 ? (size_t)r : 0;
    }
    return (long)k;
}

/* Whether the whole file can be read through windows: a regular file (not stdin) of which
 * nothing was consumed yet (peeked bytes are dropped: the window holds them too). */
static int window_start(pr_input *in)
{
    struct stat sb;
    if (in->fd <= 0 || in->window <= 0 || in->offset != 0 || fstat(in->fd, &sb) < 0 ||
        !S_ISREG(sb.st_mode) || sb.st_size <= 0)
        return -1;
    in->size = (long long)sb.st_size;
    return 1;
}

/* A mapped file cut short by another process while it is read turns the next access past
 * its new end into SIGBUS: the process then says so and exits 1 (an ingest's transaction is
 * not committed: the store is unchanged, its journal rolled back at the next open) instead of
 * dying of the signal. The name is the last mapped input's. */
static char bus_msg[512];
static size_t bus_len;

static void on_sigbus(int sig)
{
    (void)sig;
    ssize_t w = write(2, bus_msg, bus_len);
    (void)w;
    _exit(1);
}

static void catch_sigbus(const char *name)
{
    int k = snprintf(bus_msg, sizeof bus_msg,
                     "perfreport: %s: the file was cut short while it was being read\n", name);
    bus_len = k < 0 ? 0 : (size_t)k < sizeof bus_msg ? (size_t)k : sizeof bus_msg - 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigbus;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
}

const unsigned char *pr_input_window(pr_input *in, long long from, size_t *len, int *last,
                                     pr_error *err)
{
    if (in->map_state == 0) {
        in->map_state = window_start(in);
        if (in->map_state > 0)
            catch_sigbus(in->name);
    }
    if (in->map_state < 0)
        return NULL;
    if (from > in->offset || from < 0) {
        pr_error_set(err, PR_EIO, in->name, 0, 0, "window past the bytes read");
        return NULL;
    }
    hash_wait(in); /* the hashing thread may still be reading the old window */
    if (in->map) {
        munmap(in->map, in->map_len);
        in->map = NULL;
    }
    long long page = sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096;
    long long at = from - from % page;
    long long end = at + in->window < in->size ? at + in->window : in->size;
    if (end < in->offset)
        end = in->offset; /* the file shrank: nothing new to map; let the caller end */
    size_t n = (size_t)(end - at);
    void *m =
        n ? mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_POPULATE, in->fd, (off_t)at) : MAP_FAILED;
    if (m == MAP_FAILED) {
        if (in->offset == 0) { /* first window: the caller reads instead */
            in->map_state = -1;
            return NULL;
        }
        pr_error_set(err, PR_EIO, in->name, 0, 0, "cannot map: %s", strerror(errno));
        return NULL;
    }
#ifdef MADV_SEQUENTIAL
    madvise(m, n, MADV_SEQUENTIAL);
#endif
    in->map = m;
    in->map_len = n;
    in->pos = in->len = 0;  /* bytes peeked at offset 0 are in the window too */
    if (end > in->offset) { /* the new bytes, in file order, as the reads would */
        hash_bytes(in, in->map + (in->offset - at), (size_t)(end - in->offset));
        in->offset = end;
    }
    /* Later reads (pr_input_drain) go on after the window. */
    if (lseek(in->fd, (off_t)end, SEEK_SET) < 0) {
        pr_error_set(err, PR_EIO, in->name, 0, 0, "cannot seek: %s", strerror(errno));
        return NULL;
    }
    *last = end >= in->size;
    if (*last)
        in->eof = 1;
    *len = (size_t)(end - from);
    return in->map + (from - at);
}

void pr_input_set_window(pr_input *in, long long bytes)
{
    in->window = bytes;
}

long pr_input_read(pr_input *in, void *out, size_t n, pr_error *err)
{
    hash_wait(in); /* the last chunk handed to the hashing thread may be overwritten now */
    size_t done = 0;
    unsigned char *o = out;
    while (done < n) {
        if (in->pos == in->len && !in->eof && in->fd >= 0 && n - done >= BUF_SIZE / 2) {
            long r = read_direct(in, o + done, n - done, err);
            if (r < 0)
                return -1;
            done += (size_t)r;
            continue;
        }
        if (in->pos == in->len) {
            if (in->eof)
                break;
            if (fill(in, 1, err) < 0)
                return -1;
            if (in->pos == in->len)
                break;
        }
        size_t k = in->len - in->pos;
        if (k > n - done)
            k = n - done;
        memcpy(o + done, in->buf + in->pos, k);
        consume(in, k);
        done += k;
    }
    return (long)done;
}

int pr_input_getline(pr_input *in, const char **line, size_t *len, pr_error *err)
{
    size_t scanned = 0;
    for (;;) {
        unsigned char *start = in->buf + in->pos;
        size_t avail = in->len - in->pos;
        unsigned char *nl = scanned < avail ? memchr(start + scanned, '\n', avail - scanned) : NULL;
        if (nl) {
            size_t n = (size_t)(nl - start);
            *line = (const char *)start;
            *len = n;
            consume(in, n + 1);
            in->lineno++;
            in->terminated = 1;
            return 1;
        }
        if (avail > PR_LINE_MAX)
            return pr_error_set(err, PR_EPARSE, in->name, in->lineno + 1, 0,
                                "line longer than %u bytes", PR_LINE_MAX);
        if (in->eof) {
            if (avail == 0)
                return 0;
            *line = (const char *)start;
            *len = avail;
            consume(in, avail);
            in->lineno++;
            in->terminated = 0;
            return 1;
        }
        scanned = avail;
        if (fill(in, avail + 65536, err) < 0)
            return -1;
    }
}

long pr_input_lineno(const pr_input *in)
{
    return in->lineno;
}

long long pr_input_offset(const pr_input *in)
{
    return in->offset;
}

int pr_input_line_terminated(const pr_input *in)
{
    return in->terminated;
}

int pr_input_drain(pr_input *in, pr_error *err)
{
    for (;;) {
        if (in->pos < in->len)
            consume(in, in->len - in->pos);
        if (in->eof)
            return 0;
        if (fill(in, 1, err) < 0)
            return -1;
    }
}

void pr_input_digest(pr_input *in, char out[PR_DIGEST_HEX])
{
    hash_wait(in);
    XXH128_hash_t h = XXH3_128bits_digest(in->md);
    snprintf(out, PR_DIGEST_HEX, "xxh128:%016llx%016llx", (unsigned long long)h.high64,
             (unsigned long long)h.low64);
}
