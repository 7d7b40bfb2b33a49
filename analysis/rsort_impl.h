/* The body of the radix sorts of analysis/rsort.c, instantiated once per key and payload type:
 * define RS_NAME(x) (a name suffix), RS_PAYLOAD (the payload's type; leave it undefined for
 * keys alone) and, for unsigned 32-bit keys, RS_KEY32 before including. int64 keys are compared
 * as signed (the digit of a key is taken from key ^ 2^63). */

/* an instantiation need not use every function */
#define RS_STATIC static __attribute__((unused))

#ifdef RS_KEY32
#define RS_KEY uint32_t
#define RS_UKEY uint32_t
#define RS_FLIP 0u
#else
#define RS_KEY int64_t
#define RS_UKEY uint64_t
#define RS_FLIP SIGN
#endif

#ifdef RS_PAYLOAD
#define RS_P(...) __VA_ARGS__
#else
#define RS_P(...)
#endif

/* Insertion sort of a short range. */
RS_STATIC void RS_NAME(insertion)(RS_KEY *k RS_P(, RS_PAYLOAD *p), size_t n)
{
    for (size_t i = 1; i < n; i++) {
        RS_KEY x = k[i];
        RS_P(RS_PAYLOAD xp = p[i];)
        size_t j = i;
        while (j > 0 && k[j - 1] > x) {
            k[j] = k[j - 1];
            RS_P(p[j] = p[j - 1];)
            j--;
        }
        k[j] = x;
        RS_P(p[j] = xp;)
    }
}

/* Least significant digit first over bits [0, bits) (the bits above are equal in every key),
 * through the thread's buffer (n <= RS_LSD_MAX). */
RS_STATIC void RS_NAME(lsd)(rs_scratch *s, RS_KEY *k RS_P(, RS_PAYLOAD *p), size_t n, unsigned bits)
{
    RS_UKEY *src = (RS_UKEY *)(void *)k, *dst = (RS_UKEY *)(void *)s->keys;
    RS_P(RS_PAYLOAD *psrc = p; RS_PAYLOAD *pdst = (RS_PAYLOAD *)s->payload;)
    unsigned passes = (bits + RS_LSD_BITS - 1) / RS_LSD_BITS;
    unsigned width = (bits + passes - 1) / passes;
    size_t *count = s->count;
    for (unsigned pass = 0; pass < passes; pass++) {
        unsigned shift = pass * width;
        uint64_t mask = ((uint64_t)1 << width) - 1;
        size_t buckets = (size_t)mask + 1;
        memset(count, 0, buckets * sizeof *count);
        for (size_t i = 0; i < n; i++)
            count[((uint64_t)(src[i] ^ RS_FLIP) >> shift) & mask]++;
        size_t sum = 0;
        for (size_t d = 0; d < buckets; d++) {
            size_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) {
            size_t at = count[((uint64_t)(src[i] ^ RS_FLIP) >> shift) & mask]++;
            dst[at] = src[i];
            RS_P(pdst[at] = psrc[i];)
        }
        RS_UKEY *t = src;
        src = dst;
        dst = t;
        RS_P(RS_PAYLOAD *pt = psrc; psrc = pdst; pdst = pt;)
    }
    if (src != (RS_UKEY *)(void *)k) {
        memcpy(k, src, n * sizeof *k);
        RS_P(memcpy(p, psrc, n * sizeof *p);)
    }
}

/* One most-significant-digit step over [0, n) in place, bucket bounds into `start`
 * (RS_MSD_BUCKETS + 1 entries). The digit is log-linear in the key's distance from the
 * smallest key (rs_bucket), so durations, which spread over octaves, fall in many buckets
 * small enough to finish in cache. Returns -1 when every key is equal. */
RS_STATIC int RS_NAME(partition)(RS_KEY *k RS_P(, RS_PAYLOAD *p), size_t n, size_t *start)
{
    RS_UKEY *u = (RS_UKEY *)(void *)k;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = (uint64_t)(u[i] ^ RS_FLIP);
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    if (lo == hi)
        return -1;
    size_t *next = pr_xmalloc(RS_MSD_BUCKETS * sizeof *next);
    memset(start, 0, (RS_MSD_BUCKETS + 1) * sizeof *start);
    for (size_t i = 0; i < n; i++)
        start[rs_bucket((uint64_t)(u[i] ^ RS_FLIP) - lo) + 1]++;
    for (size_t d = 0; d < RS_MSD_BUCKETS; d++)
        start[d + 1] += start[d];
    memcpy(next, start, RS_MSD_BUCKETS * sizeof *next);
    for (size_t d = 0; d < RS_MSD_BUCKETS; d++) {
        while (next[d] < start[d + 1]) {
            RS_UKEY x = u[next[d]];
            RS_P(RS_PAYLOAD xp = p[next[d]];)
            size_t dd = rs_bucket((uint64_t)(x ^ RS_FLIP) - lo);
            while (dd != d) { /* carry x to its bucket, pick up what was there */
                size_t at = next[dd]++;
                RS_UKEY y = u[at];
                u[at] = x;
                x = y;
                RS_P(RS_PAYLOAD yp = p[at]; p[at] = xp; xp = yp;)
                dd = rs_bucket((uint64_t)(x ^ RS_FLIP) - lo);
            }
            u[next[d]] = x;
            RS_P(p[next[d]] = xp;)
            next[d]++;
        }
    }
    free(next);
    return 0;
}

RS_STATIC void RS_NAME(sort)(rs_scratch *s, RS_KEY *k RS_P(, RS_PAYLOAD *p), size_t n)
{
    if (n <= RS_SMALL) {
        RS_NAME(insertion)(k RS_P(, p), n);
        return;
    }
    if (n <= RS_LSD_MAX) {
        RS_UKEY *u = (RS_UKEY *)(void *)k;
        uint64_t lo = UINT64_MAX, hi = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t x = (uint64_t)(u[i] ^ RS_FLIP);
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
        if (lo != hi)
            RS_NAME(lsd)(s, k RS_P(, p), n, 64 - (unsigned)__builtin_clzll(lo ^ hi));
        return;
    }
    size_t *start = pr_xmalloc((RS_MSD_BUCKETS + 1) * sizeof *start);
    if (RS_NAME(partition)(k RS_P(, p), n, start) == 0)
        for (size_t d = 0; d < RS_MSD_BUCKETS; d++)
            if (start[d + 1] - start[d] > 1)
                RS_NAME(sort)(s, k + start[d] RS_P(, p + start[d]), start[d + 1] - start[d]);
    free(start);
}

/* Sorts on the calling thread. */
RS_STATIC void RS_NAME(sort_one)(RS_KEY *k RS_P(, RS_PAYLOAD *p), size_t n)
{
    if (n <= RS_SMALL) {
        RS_NAME(insertion)(k RS_P(, p), n);
        return;
    }
    rs_scratch *s = scratch_new(n < RS_LSD_MAX ? n : RS_LSD_MAX);
    RS_NAME(sort)(s, k RS_P(, p), n);
    scratch_free(s);
}

typedef struct RS_NAME(job) {
    RS_KEY *k;
    RS_P(RS_PAYLOAD *p;)
    size_t n;
} RS_NAME(job);

RS_STATIC void *RS_NAME(worker)(void *arg)
{
    RS_NAME(job) *j = arg;
    RS_NAME(sort_one)(j->k RS_P(, j->p), j->n);
    return NULL;
}

/* Moves the keys below pivot before the others (payloads with them); returns how many. */
RS_STATIC size_t RS_NAME(split)(RS_KEY *k RS_P(, RS_PAYLOAD *p), size_t n, RS_KEY pivot)
{
    size_t i = 0, j = n;
    for (;;) {
        while (i < j && k[i] < pivot)
            i++;
        while (i < j && k[j - 1] >= pivot)
            j--;
        if (i >= j)
            return i;
        RS_KEY t = k[i];
        k[i] = k[j - 1];
        k[j - 1] = t;
        RS_P(RS_PAYLOAD tp = p[i]; p[i] = p[j - 1]; p[j - 1] = tp;)
        i++;
        j--;
    }
}

/* Splits [0, n) into `threads` ranges of keys, each below the next, around pivots read from
 * an evenly spaced sample: jobs[0..threads). */
RS_STATIC void RS_NAME(ranges)(RS_KEY *k RS_P(, RS_PAYLOAD *p), size_t n, int threads,
                               RS_NAME(job) * jobs)
{
    if (threads == 1 || n < RS_PAR_MIN) {
        jobs[0] = (RS_NAME(job)){k RS_P(, p), n};
        for (int t = 1; t < threads; t++)
            jobs[t] = (RS_NAME(job)){k + n RS_P(, p + n), 0};
        return;
    }
    RS_KEY sample[256];
    for (size_t i = 0; i < 256; i++)
        sample[i] = k[n / 256 * i + n % 256 * i / 256];
    RS_NAME(insertion)(sample RS_P(, (RS_PAYLOAD[256]){0}), 256);
    int left = threads / 2;
    size_t m = RS_NAME(split)(k RS_P(, p), n, sample[256 * left / threads]);
    RS_NAME(ranges)(k RS_P(, p), m, left, jobs);
    RS_NAME(ranges)(k + m RS_P(, p + m), n - m, threads - left, jobs + left);
}

/* The keys split into ranges of values, one per thread, each sorted on its thread. */
RS_STATIC void RS_NAME(sort_par)(RS_KEY *k RS_P(, RS_PAYLOAD *p), size_t n, int threads)
{
    if (threads < 2 || n < RS_PAR_MIN) {
        RS_NAME(sort_one)(k RS_P(, p), n);
        return;
    }
    if (threads > RS_MAX_THREADS)
        threads = RS_MAX_THREADS;
    RS_NAME(job) jobs[RS_MAX_THREADS];
    pthread_t tid[RS_MAX_THREADS];
    RS_NAME(ranges)(k RS_P(, p), n, threads, jobs);
    int started[RS_MAX_THREADS] = {0};
    for (int t = 1; t < threads; t++)
        started[t] = pthread_create(&tid[t], NULL, RS_NAME(worker), &jobs[t]) == 0;
    RS_NAME(worker)(&jobs[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            RS_NAME(worker)(&jobs[t]);
    }
}

typedef struct RS_NAME(rjob) {
    RS_KEY *k;
    RS_P(RS_PAYLOAD *p;)
    const size_t *bounds;
    size_t r0, r1; /* ranges [r0, r1) */
} RS_NAME(rjob);

RS_STATIC void *RS_NAME(rworker)(void *arg)
{
    RS_NAME(rjob) *j = arg;
    rs_scratch *s = scratch_new(RS_LSD_MAX);
    for (size_t r = j->r0; r < j->r1; r++) {
        size_t a = j->bounds[r], n = j->bounds[r + 1] - a;
        if (n > 1)
            RS_NAME(sort)(s, j->k + a RS_P(, j->p + a), n);
    }
    scratch_free(s);
    return NULL;
}

/* Sorts each range [bounds[r], bounds[r + 1]) for r < nranges, the ranges shared between
 * threads by their sizes. */
RS_STATIC void RS_NAME(sort_ranges)(RS_KEY *k RS_P(, RS_PAYLOAD *p), const size_t *bounds,
                                    size_t nranges, int threads)
{
    size_t total = bounds[nranges] - bounds[0];
    if (threads < 2 || total < RS_PAR_MIN)
        threads = 1;
    if (threads > RS_MAX_THREADS)
        threads = RS_MAX_THREADS;
    RS_NAME(rjob) jobs[RS_MAX_THREADS];
    pthread_t tid[RS_MAX_THREADS];
    size_t r = 0;
    for (int t = 0; t < threads; t++) {
        size_t goal = bounds[0] + total / (size_t)threads * (size_t)(t + 1);
        jobs[t] = (RS_NAME(rjob)){k RS_P(, p), bounds, r, r};
        while (jobs[t].r1 < nranges && (t == threads - 1 || bounds[jobs[t].r1] < goal))
            jobs[t].r1++;
        r = jobs[t].r1;
    }
    int started[RS_MAX_THREADS] = {0};
    for (int t = 1; t < threads; t++)
        started[t] = pthread_create(&tid[t], NULL, RS_NAME(rworker), &jobs[t]) == 0;
    RS_NAME(rworker)(&jobs[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            RS_NAME(rworker)(&jobs[t]);
    }
}

#undef RS_P
#undef RS_KEY
#undef RS_UKEY
#undef RS_FLIP
#undef RS_STATIC
