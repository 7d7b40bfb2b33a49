/* The body of the in-place order statistics of analysis/view_stats.c, instantiated once per
 * value type: define SEL_NAME(x) (a name suffix) and SEL_T (the values' integer type) before
 * including. */

static inline void SEL_NAME(swap)(SEL_T *v, size_t i, size_t j)
{
    SEL_T t = v[i];
    v[i] = v[j];
    v[j] = t;
}

/* Reorders v[0..n) so that v[k] holds the value of 0-based rank k, no larger value before it
 * and no smaller one after it (Hoare's partition around a median of three). */
static void SEL_NAME(select_k)(SEL_T *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1; /* inclusive */
    while (hi - lo > 16) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < v[lo])
            SEL_NAME(swap)(v, mid, lo);
        if (v[hi] < v[lo])
            SEL_NAME(swap)(v, hi, lo);
        if (v[hi] < v[mid])
            SEL_NAME(swap)(v, hi, mid);
        SEL_T p = v[mid];
        size_t i = lo, j = hi;
        for (;;) { /* v[lo] <= p <= v[hi]: both scans stop inside [lo, hi] */
            while (v[i] < p)
                i++;
            while (v[j] > p)
                j--;
            if (i >= j)
                break;
            SEL_NAME(swap)(v, i, j);
            i++;
            j--;
        }
        /* v[lo..j] <= p <= v[j+1..hi], lo <= j < hi */
        if (k <= j)
            hi = j;
        else
            lo = j + 1;
    }
    for (size_t i = lo + 1; i <= hi; i++) { /* the last few: insertion sort */
        SEL_T x = v[i];
        size_t j = i;
        while (j > lo && v[j - 1] > x) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

/* The values at the 1-based ascending ranks rank[0..nr) of v[0..n) (n > 0) into out. */
static void SEL_NAME(select_ranks)(SEL_T *v, size_t n, const size_t *rank, size_t nr, int64_t *out)
{
    size_t lo = 0; /* v[0..lo) holds the lo smallest values, the selected ranks in place */
    for (size_t i = 0; i < nr; i++) {
        size_t k = rank[i] - 1;
        if (k < lo) { /* the rank selected before */
            out[i] = (int64_t)v[k];
        } else if (k == n - 1) { /* the maximum: a scan */
            SEL_T m = v[lo];
            for (size_t j = lo + 1; j < n; j++)
                m = v[j] > m ? v[j] : m;
            out[i] = (int64_t)m;
        } else if (k == lo) { /* the smallest left: a scan */
            size_t at = lo;
            for (size_t j = lo + 1; j < n; j++)
                at = v[j] < v[at] ? j : at;
            SEL_NAME(swap)(v, lo, at);
            out[i] = (int64_t)v[lo++];
        } else {
            SEL_NAME(select_k)(v + lo, n - lo, k - lo);
            out[i] = (int64_t)v[k];
            lo = k + 1;
        }
    }
}
