/* The lock of MPI_THREAD_MULTIPLE (core/mt.h): a futex word ("Futexes Are Tricky", Drepper: 0 free,
 * 1 held, 2 held and maybe waited for) and each thread's nesting depth in a thread-local. Uncontended,
 * taking it is one compare-and-swap and letting go one atomic decrement, against ~80 instructions for a
 * glibc mutex's trylock and unlock, which is most of what MULTIPLE costs a single-threaded call. The
 * atomics' acquire and release order the data it protects (and let ThreadSanitizer see that order); the
 * futex calls only park and wake. */
#include "core/mt.h"

#include <limits.h>
#include <linux/futex.h>
#include <stdio.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"
#include "core/error.h"
#include "core/progress.h"
#include "core/transports.h"

int skiff_mt_on;
int skiff_mt_apps;
int skiff_mt_mode;
__thread int skiff_mt_main __attribute__((tls_model("initial-exec")));
static atomic_int serial_inside; /* SERIALIZED: a thread is inside MPI */

atomic_int skiff_mt_word;
static _Atomic uint32_t gate; /* bumped by every slow release: the progress thread's futex */
static atomic_int gate_sleeps;
/* The dozers' futex (skiff_mt_doze): bumped when a request of theirs may have completed. */
static _Atomic uint32_t done;
atomic_int skiff_mt_dozers;
/* initial-exec: one %fs-relative access instead of a call to __tls_get_addr; the few bytes come from
 * the static TLS glibc keeps spare for libraries loaded later (mpi4py's dlopen). */
__thread unsigned skiff_mt_depth __attribute__((tls_model("initial-exec")));

int skiff_mt_direct;
int skiff_mt_many;

void skiff_mt_enable(void)
{
    skiff_mt_on = 1;
    skiff_mt_apps = 1;
    skiff_mt_mode = SKIFF_MT_LOCK;
}

/* Under the lock: whoever holds it next sees the flag, and a thread that reads it set without the lock
 * (acquire) also sees the transports' send locks on. */
void skiff_mt_go_many(void)
{
    skiff_transports_threads(); /* those running now; later ones at their init */
    __atomic_store_n(&skiff_mt_many, 1, __ATOMIC_RELEASE);
}

void skiff_mt_check_level(int level)
{
    skiff_mt_main = 1;
    if (skiff_mt_on)
        skiff_mt_mode = SKIFF_MT_LOCK;
    else
        skiff_mt_mode = level == MPI_THREAD_FUNNELED     ? SKIFF_MT_FUNNELED
                        : level == MPI_THREAD_SERIALIZED ? SKIFF_MT_SERIALIZED
                                                         : 0;
}

/* Misuse is reported, and the call then runs as it would have: FUNNELED's through the world's error
 * handler (the main thread is usually elsewhere: fatal by default, a user handler sees MPI_ERR_OTHER),
 * SERIALIZED's on stderr alone (another thread is inside MPI, and the handlers and the message table
 * are its). An early return from every entry point would cost the single-threaded path (measured:
 * +5 instructions per Irecv + Send + Wait), which this does not. */
int skiff_mt_check_enter(const char *call)
{
    if (*call == 'P') /* PMPI_X: the program called MPI_X */
        call++;
    if (skiff_mt_mode == SKIFF_MT_FUNNELED) {
        if (SKIFF_LIKELY(skiff_mt_main))
            return 0;
        skiff_call = call;
        (void)skiff_err_handle(NULL, skiff_err(MPI_ERR_OTHER, "called from a thread other than the one that called "
                                               "MPI_Init_thread, under MPI_THREAD_FUNNELED (the level it granted)"));
        return 0;
    }
    if (skiff_mt_depth++ == 0 && atomic_exchange_explicit(&serial_inside, 1, memory_order_acquire)) {
        skiff_mt_depth--;
        fprintf(stderr, "skiff: rank %d: %s called while another thread was inside MPI, under "
                "MPI_THREAD_SERIALIZED (the level MPI_Init_thread granted)\n", skiff.rank, call);
        return 0;
    }
    return 2;
}

void skiff_mt_check_exit(void)
{
    if (--skiff_mt_depth == 0)
        atomic_store_explicit(&serial_inside, 0, memory_order_release);
}

int skiff_mt_try_enter(void)
{
    int c = 0;
    if (!atomic_compare_exchange_strong_explicit(&skiff_mt_word, &c, 1, memory_order_acquire, memory_order_relaxed))
        return 0;
    skiff_mt_depth = 1;
    return 1;
}

/* The progress thread sleeps on a futex of its own, never on the lock word's: a wake-up meant for an
 * application thread blocked on the lock cannot go to it (and be lost to that thread). Every release from
 * 2 or 3 (the slow path) bumps the gate; the thread announces its sleep and reads the gate before it looks
 * at the word (seq_cst both sides: either the release sees the announcement, or the thread sees the new
 * gate). */
void skiff_mt_await(double seconds)
{
    atomic_store(&gate_sleeps, 1);
    uint32_t g = atomic_load(&gate);
    int c = atomic_load(&skiff_mt_word);
    if (c == 1 && atomic_compare_exchange_strong(&skiff_mt_word, &c, 3))
        c = 3;
    if (c != 0) {
        struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
        syscall(SYS_futex, &gate, FUTEX_WAIT_PRIVATE, g, &ts, NULL, 0);
    }
    atomic_store(&gate_sleeps, 0);
}

void skiff_mt_wake_all(void)
{
    atomic_fetch_add(&gate, 1);
    syscall(SYS_futex, &gate, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

int skiff_mt_held(void)
{
    return skiff_mt_depth != 0;
}

int skiff_mt_contended(void)
{
    return atomic_load_explicit(&skiff_mt_word, memory_order_relaxed) == 2;
}

/* The compare-and-swap from 0 failed, finding seen: mark the lock waited for and sleep until it is free.
 * Each time the lock is found held, its holder may be asleep in the transports (core/progress.c) and is
 * woken: woken once, it may have let go and taken the lock back before this thread ran, and then gone to
 * sleep before this thread marked the word again (the holder's check of the word and this wake are ordered
 * by seq_cst, as core/progress.c says). */
void skiff_mt_take_slow(int seen)
{
    int c = seen;
    if (c != 2)
        c = atomic_exchange_explicit(&skiff_mt_word, 2, memory_order_seq_cst);
    while (c != 0) {
        skiff_progress_wake_holder();
        syscall(SYS_futex, &skiff_mt_word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
        c = atomic_exchange_explicit(&skiff_mt_word, 2, memory_order_seq_cst);
    }
}

void skiff_mt_wake_dozers(void)
{
    atomic_fetch_add(&done, 1);
    syscall(SYS_futex, &done, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* The word was 2 (someone may sleep on it) or 3 (the progress thread or a dozer waits for it). Quiet (a
 * dozer's own release) rings no dozer. Returns whether a thread blocked on the lock was woken (it takes the
 * lock next). */
static int give_slow(int quiet)
{
    atomic_store_explicit(&skiff_mt_word, 0, memory_order_release);
    long woken = syscall(SYS_futex, &skiff_mt_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    atomic_fetch_add(&gate, 1);
    if (atomic_load(&gate_sleeps))
        syscall(SYS_futex, &gate, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    if (!quiet && atomic_load_explicit(&skiff_mt_dozers, memory_order_relaxed))
        skiff_mt_wake_dozers();
    return woken > 0;
}

void skiff_mt_give_slow(void)
{
    give_slow(0);
}

static void take(void)
{
    int c = 0;
    if (!atomic_compare_exchange_strong_explicit(&skiff_mt_word, &c, 1, memory_order_acquire, memory_order_relaxed))
        skiff_mt_take_slow(c);
}

/* A word at 3 was marked by a dozer that waits for this very release: rung even by a quiet one. */
static int give(int quiet)
{
    int c = atomic_fetch_sub_explicit(&skiff_mt_word, 1, memory_order_release);
    return c != 1 ? give_slow(quiet && c != 3) : 0;
}

static void park(struct skiff_mt_parked *p)
{
    p->depth = skiff_mt_depth;
    skiff_mt_depth = 0;
}

void skiff_mt_release(struct skiff_mt_parked *p)
{
    park(p);
    (void)give(0);
}

void skiff_mt_reacquire(struct skiff_mt_parked *p)
{
    take();
    skiff_mt_depth = p->depth;
}

/* Whatever completes a dozer's request rings it: a pass that moved something (skiff_mt_progressed), a
 * release from a word at 2 or 3 (every release but a dozer's own, which rings only a word a dozer marked
 * 3), and a waiter's first doze (for what its call did before it waited). The count goes up and the futex
 * is read while the lock is still held, so a thread that takes the lock next sees the count and any ring
 * it makes comes after the read: none is lost. The word is marked 3 when a holder took it uncontended
 * since, so its release rings too; found free, the lock is taken back at once (no one holds it, so no one
 * would ring). The timeout is the safety net of a ring that never comes (the waiter then reports, as every
 * sleeper does; dead peers are the holder's to notice). */
void skiff_mt_doze(double seconds, int quiet)
{
    struct skiff_mt_parked p;
    if (!quiet)
        skiff_mt_progressed();
    atomic_fetch_add(&skiff_mt_dozers, 1);
    uint32_t g = atomic_load(&done);
    park(&p);
    /* Handed to a thread blocked on the lock: it holds the word at 2 from its first step, so its release rings.
     * Looking at the word instead, this thread could find it still free, take it back before the woken one
     * ran, be woken by it in turn, and so on without end, the two sharing one core. */
    int c = give(1) ? 2 : atomic_load(&skiff_mt_word);
    while (c == 1 && !atomic_compare_exchange_weak(&skiff_mt_word, &c, 3))
        ;
    if (c != 0) {
        struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
        syscall(SYS_futex, &done, FUTEX_WAIT_PRIVATE, g, &ts, NULL, 0);
    }
    atomic_fetch_sub(&skiff_mt_dozers, 1);
    skiff_mt_reacquire(&p);
}

void skiff_mt_yield(void)
{
    if (!skiff_mt_on || !skiff_mt_depth) {
        sched_yield();
        return;
    }
    struct skiff_mt_parked p;
    skiff_mt_release(&p);
    sched_yield();
    skiff_mt_reacquire(&p);
}
