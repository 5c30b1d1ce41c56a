/* MPI_THREAD_MULTIPLE: one process-wide lock around every MPI call, taken only once MULTIPLE was granted.
 *
 * skiff_mt_on is set when MPI_Init_thread, MPI_Session_init or MPI_T_init_thread grants MULTIPLE, before
 * any other thread may call MPI, and never cleared. Each entry point tests it once (SKIFF_MT_GUARD, inside
 * SKIFF_ENTER): at SINGLE, FUNNELED and SERIALIZED that is one predictable branch and a local that is 0 at
 * the return. The lock is recursive (an entry point called from a callback inside MPI takes it again): each thread
 * counts its own nesting.
 *
 * A thread that waits inside MPI (core/progress.c) lets go of the lock entirely whenever a pass of the
 * progress engine found nothing, so other threads progress and complete its requests, and takes it back
 * before it looks at its own again. Only its nesting of the lock is set aside meanwhile: what the library
 * keeps about "the call under way" (the call's name for messages, the profiler's and tracer's open call)
 * is thread-local. */
#ifndef SKIFF_MT_H
#define SKIFF_MT_H

#include <stdatomic.h>

#include "util/arch.h"

extern SKIFF_HIDDEN int skiff_mt_on;
/* What the checked entry guard (SKIFF_MT_GUARD_CHECKED, in SKIFF_ENTER) does: 0 nothing (SINGLE: its one
 * branch, as before), SKIFF_MT_LOCK the lock (skiff_mt_on), SKIFF_MT_FUNNELED / SKIFF_MT_SERIALIZED a
 * check for the level's misuse (core/mt.c; MPI_Init_thread turns it on). */
extern SKIFF_HIDDEN int skiff_mt_mode;
#define SKIFF_MT_LOCK 1
#define SKIFF_MT_FUNNELED 2
#define SKIFF_MT_SERIALIZED 3
/* This thread called MPI_Init or MPI_Init_thread (MPI_Is_thread_main). */
extern __thread int skiff_mt_main __attribute__((tls_model("initial-exec")));
/* Turns the misuse check on for the level the world model granted (the lock, if on, wins). */
void skiff_mt_check_level(int level);
/* More than one application thread may be inside MPI at once (MULTIPLE was granted). skiff_mt_on alone
 * (the lock, without this) is the asynchronous progress thread's (core/async.c): it never creates
 * communicators nor runs collectives, so what must change for concurrent application calls (context-id
 * agreement, node-shared collectives) stays as it is. */
extern SKIFF_HIDDEN int skiff_mt_apps;

/* Turns the lock on for good (the caller is the only thread inside MPI). */
void skiff_mt_enable(void);

/* The lock word (0 free, 1 held, 2 held and maybe waited for, 3 held and the progress thread or a dozer
 * waits for its release) and this thread's nesting (core/mt.c). */
extern SKIFF_HIDDEN atomic_int skiff_mt_word;
extern __thread unsigned skiff_mt_depth __attribute__((tls_model("initial-exec")));
void skiff_mt_take_slow(int seen);
void skiff_mt_give_slow(void);

/* Takes the lock (again, if this thread holds it); returns 1. Inline: uncontended, one thread-local
 * increment and one compare-and-swap. */
static inline int skiff_mt_enter(void)
{
    if (skiff_mt_depth++ == 0) {
        int c = 0;
        if (SKIFF_UNLIKELY(!atomic_compare_exchange_strong_explicit(&skiff_mt_word, &c, 1, memory_order_acquire,
                                                                    memory_order_relaxed)))
            skiff_mt_take_slow(c);
    }
    return 1;
}

static inline void skiff_mt_exit(void)
{
    if (--skiff_mt_depth == 0 &&
        SKIFF_UNLIKELY(atomic_fetch_sub_explicit(&skiff_mt_word, 1, memory_order_release) != 1))
        skiff_mt_give_slow();
}

/* FUNNELED and SERIALIZED misuse (core/mt.c): reports it; 2 when the call is inside (SERIALIZED: to be
 * left at its return), else 0. */
int skiff_mt_check_enter(const char *call);
void skiff_mt_check_exit(void);

static inline void skiff_mt_leave(const int *held)
{
    if (SKIFF_UNLIKELY(*held)) {
        if (SKIFF_LIKELY(*held == 1))
            skiff_mt_exit();
        else
            skiff_mt_check_exit();
    }
}

static inline int skiff_mt_guard_enter(const char *call)
{
    return SKIFF_LIKELY(skiff_mt_mode == SKIFF_MT_LOCK) ? skiff_mt_enter() : skiff_mt_check_enter(call);
}

/* skiff_mt_guard_enter, except that under MULTIPLE the lock is left for the call to take when it needs
 * it: -1 (docs/per-communicator-locks.md, "The first slice"). The call must turn -1 into 0 (it never
 * took the lock) or into skiff_mt_enter()'s 1 before it returns. */
extern SKIFF_HIDDEN int skiff_mt_direct; /* MULTIPLE, and a running transport offers send_direct (core/transports.c) */
/* A thread other than the one that initialized MPI has made a late-entering call (SKIFF_ENTER_LATE):
 * from then on calls may leave the lock, and what they share without it (shm's per-peer send locks, the
 * transports' threads hook) is on. Set once, under the lock, by skiff_mt_go_many, and never cleared:
 * until then every call takes the lock and no send lock is taken, so a program that asks for MULTIPLE and
 * calls from one thread pays for the lock only (docs/per-communicator-locks.md, "Switched on by a second
 * thread"). The load is an acquire: a thread that sees the flag without the lock also sees the send locks
 * made before it. */
extern SKIFF_HIDDEN int skiff_mt_many;
static inline int skiff_mt_is_many(void)
{
    return __atomic_load_n(&skiff_mt_many, __ATOMIC_ACQUIRE);
}
void skiff_mt_go_many(void);
static inline int skiff_mt_guard_late(const char *call, int late)
{
    if (SKIFF_LIKELY(skiff_mt_mode == SKIFF_MT_LOCK)) {
        if (late && SKIFF_LIKELY(skiff_mt_is_many()))
            return -1;
        int held = skiff_mt_enter();
        if (SKIFF_UNLIKELY(!skiff_mt_main) && !skiff_mt_is_many() && skiff_mt_apps)
            skiff_mt_go_many();
        return held;
    }
    return skiff_mt_check_enter(call);
}

/* The first statement of an entry point that does not use SKIFF_ENTER: holds the lock to its return. */
#define SKIFF_MT_GUARD()                                                                                 \
    __attribute__((cleanup(skiff_mt_leave), unused)) const int skiff_mt_held_ =                          \
        SKIFF_UNLIKELY(skiff_mt_on) ? skiff_mt_enter() : 0

/* SKIFF_MT_GUARD that also checks FUNNELED's and SERIALIZED's rule (SKIFF_ENTER's first statement): at
 * SINGLE still one branch on one global; the check costs only at the two levels it is for. */
#define SKIFF_MT_GUARD_CHECKED(call)                                                                     \
    __attribute__((cleanup(skiff_mt_leave), unused)) const int skiff_mt_held_ =                          \
        SKIFF_UNLIKELY(skiff_mt_mode) ? skiff_mt_guard_enter(call) : 0

/* The lock's nesting, set aside while a waiting thread does not hold the lock. What describes "the call
 * under way" (its name for messages, the profiler's and the tracer's open call) is per thread, so other
 * threads' calls during the wait leave it alone. */
struct skiff_mt_parked {
    unsigned depth;
};

/* The asynchronous progress thread's way in (core/async.c). It never makes a holder hand the lock over
 * (a holder that waits in MPI makes progress itself): try_enter takes the lock only if it is free, and
 * await marks a held lock 3, "tell me when you let go" (the holder's release then takes the slow path;
 * skiff_mt_contended stays false, and an application thread that blocks on it turns it into 2 as ever),
 * and sleeps until a release or for at most seconds. */
int skiff_mt_try_enter(void);
void skiff_mt_await(double seconds);
/* Wakes the progress thread from skiff_mt_await (it looks again): for stopping it. */
void skiff_mt_wake_all(void);

/* A waiter with nothing to do while another thread wants the lock (core/progress.c): lets go of the lock and
 * sleeps until a request of its own may have completed, or for at most seconds, and takes it back. The
 * thread that took the lock over progresses for both (and sleeps in the transports if it too finds
 * nothing), so two idle waiters cost what one does instead of handing the lock back and forth. Unless
 * quiet, it first rings the other dozers (its call may have completed one of their requests). */
void skiff_mt_doze(double seconds, int quiet);
extern SKIFF_HIDDEN atomic_int skiff_mt_dozers;
void skiff_mt_wake_dozers(void);
/* A pass of the progress engine moved something: a dozer's request may be complete. */
static inline void skiff_mt_progressed(void)
{
    if (SKIFF_UNLIKELY(atomic_load_explicit(&skiff_mt_dozers, memory_order_relaxed)))
        skiff_mt_wake_dozers();
}

/* Whether this thread holds the lock (false at SINGLE..SERIALIZED). */
int skiff_mt_held(void);
/* Another thread may be blocked on the lock. */
int skiff_mt_contended(void);
/* Lets go of the lock (every nesting level) and of the per-call globals; and takes them back. */
void skiff_mt_release(struct skiff_mt_parked *p);
void skiff_mt_reacquire(struct skiff_mt_parked *p);
/* For a loop that waits on something only another process or thread changes: if this thread holds
 * the lock, release it, yield the CPU, take it back; else just yield. */
void skiff_mt_yield(void);

#endif
