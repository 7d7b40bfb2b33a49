/* A tiny event loop: readiness callbacks on file descriptors and one-shot timers with
 * nanosecond deadlines. One loop per thread; nothing here is shared between threads.
 * gen/loop.c is the only file that knows about epoll. */
#ifndef PR_LOOP_H
#define PR_LOOP_H
#include <stddef.h>
#include <stdint.h>

typedef struct pr_loop pr_loop;

enum { PR_LOOP_READ = 1u << 0, PR_LOOP_WRITE = 1u << 1, PR_LOOP_ERROR = 1u << 2 };

/* A watched descriptor: caller-owned (usually embedded in a connection), registered with
 * pr_loop_watch and valid until pr_loop_unwatch. `fn` gets the ready events (PR_LOOP_*). */
typedef struct pr_loop_io {
    int fd;
    unsigned events; /* currently requested events */
    void (*fn)(pr_loop *loop, struct pr_loop_io *io, unsigned ready, void *payload);
    void *payload;
} pr_loop_io;

/* A one-shot timer: caller-owned, armed with pr_loop_timer_set, disarmed when it fires or
 * by pr_loop_timer_clear. */
typedef struct pr_loop_timer {
    int64_t when_ns; /* CLOCK_MONOTONIC deadline */
    size_t slot;     /* position in the heap + 1, 0 when not armed */
    void (*fn)(pr_loop *loop, struct pr_loop_timer *t, void *payload);
    void *payload;
} pr_loop_timer;

/* Monotonic clock in ns (CLOCK_MONOTONIC). */
int64_t pr_loop_now_ns(void);

/* Returns a new loop, or NULL with errno set if epoll cannot be created. */
pr_loop *pr_loop_new(void);
/* Frees the loop (watched descriptors are not closed; armed timers are forgotten). */
void pr_loop_free(pr_loop *l);

/* Starts watching io->fd for `events`; io->fn/payload must be set. 0 or -1 (errno). */
int pr_loop_watch(pr_loop *l, pr_loop_io *io, unsigned events);
/* Changes the requested events (no system call when unchanged). 0 or -1 (errno). */
int pr_loop_modify(pr_loop *l, pr_loop_io *io, unsigned events);
/* Stops watching io->fd (call before closing it). */
void pr_loop_unwatch(pr_loop *l, pr_loop_io *io);

/* Arms (or re-arms) timer t to fire at when_ns; t->fn/payload must be set. */
void pr_loop_timer_set(pr_loop *l, pr_loop_timer *t, int64_t when_ns);
/* Disarms t (no-op when not armed). */
void pr_loop_timer_clear(pr_loop *l, pr_loop_timer *t);
/* Deadline of the earliest armed timer, or INT64_MAX. */
int64_t pr_loop_next_deadline(const pr_loop *l);

/* Sets the nap (0, the default: none). With a nap, a wait of more than twice what the naps
 * really take (pr_loop_nap_took, at least nap_ns) first takes what is ready without
 * blocking; when nothing is, it sleeps nap_ns on a timer, takes what came meanwhile, and only
 * then blocks for the rest of the wait. A shorter wait blocks at once, so a nap does not make
 * a timer late. A thread asleep on a timer is not on its sockets' wait queues: the peers'
 * sends that arrive meanwhile do not each pay for waking it up, and it wakes to a batch
 * (docs/bench.md, issue 18, seventh round: 50 connections to nginx on the same two cores,
 * 1.12-1.14x the requests/s). The caller times what it reads by the kernel's receive
 * stamps, not by when it woke. */
void pr_loop_set_nap(pr_loop *l, int64_t nap_ns);
/* How long the naps actually took, a moving mean over the last few (0 before the first):
 * the timer's wake-up comes late, by tens of µs on a virtual machine. One nap that ran long
 * (the thread was descheduled) moves it by at most an eighth. */
int64_t pr_loop_nap_took(const pr_loop *l);

/* Waits for events at most max_wait_ns (or until the earliest timer), then runs the ready
 * callbacks and the due timers; a timer that comes due while the callbacks run fires before
 * the next callback (so a slow descriptor never delays a deadline by more than one callback).
 * Returns the number of callbacks run, or -1 on a wait error other than EINTR. */
int pr_loop_run_once(pr_loop *l, int64_t max_wait_ns);

#endif
