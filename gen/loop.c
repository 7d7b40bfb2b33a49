/* The epoll event loop: descriptor readiness callbacks and a min-heap of ns timers. */
#include "gen/loop.h"
#include <errno.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>
#include "model/xalloc.h"

#define MAX_EVENTS 256

struct pr_loop {
    int epfd;
    int no_pwait2;        /* epoll_pwait2 unavailable: ms timeouts + short spin */
    int64_t nap_ns;       /* pr_loop_set_nap */
    int64_t nap_took;     /* what the naps took, a moving mean (pr_loop_nap_took) */
    pr_loop_timer **heap; /* min-heap on when_ns */
    size_t nheap, capheap;
    struct epoll_event ev[MAX_EVENTS];
    int nready, iready; /* events of the current round, for safe unwatch */
};

int64_t pr_loop_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

pr_loop *pr_loop_new(void)
{
    int fd = epoll_create1(EPOLL_CLOEXEC);
    if (fd < 0)
        return NULL;
    pr_loop *l = pr_xcalloc(1, sizeof *l);
    l->epfd = fd;
    return l;
}

void pr_loop_free(pr_loop *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->nheap; i++)
        l->heap[i]->slot = 0;
    close(l->epfd);
    free(l->heap);
    free(l);
}

static uint32_t to_epoll(unsigned events)
{
    uint32_t e = 0;
    if (events & PR_LOOP_READ)
        e |= EPOLLIN | EPOLLRDHUP;
    if (events & PR_LOOP_WRITE)
        e |= EPOLLOUT;
    return e;
}

int pr_loop_watch(pr_loop *l, pr_loop_io *io, unsigned events)
{
    struct epoll_event e = {.events = to_epoll(events), .data.ptr = io};
    io->events = events;
    return epoll_ctl(l->epfd, EPOLL_CTL_ADD, io->fd, &e);
}

int pr_loop_modify(pr_loop *l, pr_loop_io *io, unsigned events)
{
    if (io->events == events)
        return 0;
    struct epoll_event e = {.events = to_epoll(events), .data.ptr = io};
    io->events = events;
    return epoll_ctl(l->epfd, EPOLL_CTL_MOD, io->fd, &e);
}

void pr_loop_unwatch(pr_loop *l, pr_loop_io *io)
{
    epoll_ctl(l->epfd, EPOLL_CTL_DEL, io->fd, NULL);
    /* Drop events of this round that are still pending for io. */
    for (int i = l->iready; i < l->nready; i++)
        if (l->ev[i].data.ptr == io)
            l->ev[i].data.ptr = NULL;
}

/* Heap helpers: slot is index + 1 so 0 means "not armed". */
static void heap_place(pr_loop *l, size_t i, pr_loop_timer *t)
{
    l->heap[i] = t;
    t->slot = i + 1;
}

static void sift_up(pr_loop *l, size_t i)
{
    pr_loop_timer *t = l->heap[i];
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (l->heap[p]->when_ns <= t->when_ns)
            break;
        heap_place(l, i, l->heap[p]);
        i = p;
    }
    heap_place(l, i, t);
}

static void sift_down(pr_loop *l, size_t i)
{
    pr_loop_timer *t = l->heap[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= l->nheap)
            break;
        if (c + 1 < l->nheap && l->heap[c + 1]->when_ns < l->heap[c]->when_ns)
            c++;
        if (t->when_ns <= l->heap[c]->when_ns)
            break;
        heap_place(l, i, l->heap[c]);
        i = c;
    }
    heap_place(l, i, t);
}

void pr_loop_timer_clear(pr_loop *l, pr_loop_timer *t)
{
    if (!t->slot)
        return;
    size_t i = t->slot - 1;
    t->slot = 0;
    l->nheap--;
    if (i == l->nheap)
        return;
    pr_loop_timer *last = l->heap[l->nheap];
    heap_place(l, i, last);
    sift_up(l, i);
    sift_down(l, last->slot - 1);
}

void pr_loop_timer_set(pr_loop *l, pr_loop_timer *t, int64_t when_ns)
{
    if (t->slot) {
        size_t i = t->slot - 1;
        t->when_ns = when_ns;
        sift_up(l, i);
        sift_down(l, t->slot - 1);
        return;
    }
    l->heap = pr_xgrow(l->heap, &l->capheap, l->nheap + 1, sizeof *l->heap);
    t->when_ns = when_ns;
    heap_place(l, l->nheap++, t);
    sift_up(l, l->nheap - 1);
}

int64_t pr_loop_next_deadline(const pr_loop *l)
{
    return l->nheap ? l->heap[0]->when_ns : INT64_MAX;
}

void pr_loop_set_nap(pr_loop *l, int64_t nap_ns)
{
    l->nap_ns = nap_ns > 0 && nap_ns < 1000000000 ? nap_ns : 0;
}

int64_t pr_loop_nap_took(const pr_loop *l)
{
    return l->nap_took;
}

static int wait_events(pr_loop *l, int64_t wait_ns)
{
    /* the nap as it really goes (a late timer's wake-up), twice over: it must not make a
     * timer that falls due after it late */
    int64_t nap_real = l->nap_took > l->nap_ns ? l->nap_took : l->nap_ns;
    if (l->nap_ns && wait_ns > 2 * nap_real) {
        int n = epoll_wait(l->epfd, l->ev, MAX_EVENTS, 0);
        if (n != 0)
            return n;
        struct timespec nap = {.tv_sec = 0, .tv_nsec = l->nap_ns};
        int64_t t0 = pr_loop_now_ns();
        clock_nanosleep(CLOCK_MONOTONIC, 0, &nap, NULL); /* EINTR: the poll below sees why */
        int64_t took = pr_loop_now_ns() - t0;
        /* one long nap (the thread descheduled) must not stop the naps for good: a sample
         * counts for at most twice the mean (the first, four naps) */
        int64_t cap = l->nap_took ? 2 * l->nap_took : 4 * l->nap_ns;
        int64_t seen = took < cap ? took : cap;
        l->nap_took = l->nap_took ? l->nap_took + (seen - l->nap_took) / 8 : seen;
        n = epoll_wait(l->epfd, l->ev, MAX_EVENTS, 0);
        if (n != 0)
            return n;
        wait_ns = wait_ns > took ? wait_ns - took : 0;
    }
    if (!l->no_pwait2) {
        struct timespec ts = {.tv_sec = wait_ns / 1000000000, .tv_nsec = wait_ns % 1000000000};
        int n = epoll_pwait2(l->epfd, l->ev, MAX_EVENTS, &ts, NULL);
        if (n >= 0 || errno != ENOSYS)
            return n;
        l->no_pwait2 = 1;
    }
    /* Millisecond fallback: round down, so sub-ms waits poll (the caller re-checks timers). */
    return epoll_wait(l->epfd, l->ev, MAX_EVENTS, (int)(wait_ns / 1000000));
}

/* Runs the timers that are due. */
static int run_timers(pr_loop *l)
{
    int64_t now = pr_loop_now_ns();
    int ran = 0;
    while (l->nheap && l->heap[0]->when_ns <= now) {
        pr_loop_timer *t = l->heap[0];
        pr_loop_timer_clear(l, t);
        t->fn(l, t, t->payload);
        ran++;
    }
    return ran;
}

int pr_loop_run_once(pr_loop *l, int64_t max_wait_ns)
{
    int64_t now = pr_loop_now_ns();
    int64_t wait = max_wait_ns;
    if (l->nheap) {
        int64_t d = l->heap[0]->when_ns - now;
        if (d < wait)
            wait = d;
    }
    if (wait < 0)
        wait = 0;
    int n = wait_events(l, wait);
    if (n < 0)
        return errno == EINTR ? 0 : -1;
    int ran = 0;
    l->nready = n;
    for (l->iready = 0; l->iready < l->nready;) {
        if (l->nheap && l->heap[0]->when_ns <= pr_loop_now_ns())
            ran += run_timers(l); /* due timers first, between descriptors */
        struct epoll_event *e = &l->ev[l->iready++];
        pr_loop_io *io = e->data.ptr;
        if (!io)
            continue;
        unsigned ready = 0;
        if (e->events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP))
            ready |= PR_LOOP_READ;
        if (e->events & EPOLLOUT)
            ready |= PR_LOOP_WRITE;
        if (e->events & (EPOLLERR | EPOLLHUP))
            ready |= PR_LOOP_ERROR;
        io->fn(l, io, ready, io->payload);
        ran++;
    }
    l->nready = l->iready = 0;
    return ran + run_timers(l);
}
