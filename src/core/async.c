/* The asynchronous progress thread (SKIFF_ASYNC_PROGRESS=1; docs/design.md, Threads).
 *
 * Without it skiff moves data only inside MPI calls: a rendezvous send whose receiver answers while the
 * sender computes, a nonblocking collective's next round, a passive-target operation arriving over tcp
 * all wait for the process's next call. The thread runs the same progress engine as a waiting call does,
 * under the library's lock (core/mt.h), in passes:
 *
 * - It never makes an application thread wait for it. It takes the lock only when it is free; when an
 *   application thread is inside MPI (which makes progress itself), it marks the lock "wake me when you
 *   let go" and sleeps on the lock's futex (skiff_mt_await), so a call that waits in MPI is not asked to
 *   hand the lock over at every step, as it is for another application thread.
 * - A pass that moved something is followed by another after a sched_yield (the application's thread on
 *   the same core runs first); sends that wait for room in a full queue (only polling sees room come
 *   back) make it nap, 50 us doubling to 1 ms; otherwise it sleeps on the transports' own wake-up until a
 *   peer's message arrives: shared memory's futex doorbell (the announcement made under the lock, the
 *   sleep without it), or epoll over a network transport's connections, the doorbell's wake socket and
 *   the transport's own wake descriptor (its wake). So with nothing to do it costs nothing, and with more ranks than cores it runs only when a message came in.
 * - MPI_Finalize (or the exit of a process whose sessions all ended) stops it before anything is torn
 *   down, waking it from whichever sleep it is in. */
#include "core/async.h"

#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"
#include "core/error.h"
#include "core/mt.h"
#include "core/progress.h"
#include "core/pt2pt.h"
#include "util/config.h"
#include "util/log.h"

#define NAP_FIRST 50e-6
#define NAP_MAX 1e-3
/* The longest sleep: every wake-up is rung, so this only bounds what a lost one could cost. */
#define SLEEP_SECONDS 0.1
/* A transport whose wake descriptor the sleeper cannot watch (core/progress.c). */
#define MIXED_SLEEP_SECONDS 0.001
#define CALL_NAME "the progress thread (SKIFF_ASYNC_PROGRESS)"

static pthread_t thread;
static int running;          /* the application's starting and stopping thread alone reads and writes it */
static atomic_int stop;
static _Atomic uint32_t kick; /* a futex to sleep on when the process has no transport (one rank) */

int skiff_async_running(void)
{
    return running;
}

static void sleep_for(double t)
{
    struct timespec ts = {(time_t)t, (long)((t - (double)(time_t)t) * 1e9)};
    nanosleep(&ts, NULL);
}

static void nap(unsigned n)
{
    double t = NAP_FIRST * (double)(1u << (n < 5 ? n : 5));
    sleep_for(t < NAP_MAX ? t : NAP_MAX);
}

/* Arms the bells (core/progress.c) and the sleeper when it has a doze; 0 if something came in meanwhile
 * (nothing is left armed then). */
static int arm_all(uint32_t *token)
{
    const struct skiff_transport *s = skiff.sleeper;
    uint32_t t;
    int k = 0;
    while (k < skiff.nbells && !skiff.bells[k]->arm(&t))
        k++;
    if (k == skiff.nbells && !(s->doze && s->arm(token)))
        return 1;
    while (k-- > 0)
        skiff.bells[k]->disarm();
    return 0;
}

/* Called holding the lock; lets go of it and sleeps until a peer's message (or the stop) wakes it. */
static void sleep_on_transports(void)
{
    const struct skiff_transport *s = skiff.sleeper;
    uint32_t token = 0, k = atomic_load(&kick);
    if (!s) {
        skiff_mt_exit();
        if (!atomic_load(&stop)) {
            struct timespec ts = {0, (long)(SLEEP_SECONDS * 1e9)};
            syscall(SYS_futex, &kick, FUTEX_WAIT_PRIVATE, k, &ts, NULL, 0);
        }
        return;
    }
    if (!s->doze && !s->wake) { /* nothing could wake it: nap */
        skiff_mt_exit();
        sleep_for(NAP_MAX);
        return;
    }
    if (!arm_all(&token)) { /* something came in meanwhile: another pass */
        skiff_mt_exit();
        return;
    }
    skiff_mt_exit();
    if (s->doze) {
        s->doze(token, SLEEP_SECONDS);
    } else { /* the transport's wake-up stays rung until its progress, under the lock, takes it */
        s->sleep(skiff.sleep_brief ? MIXED_SLEEP_SECONDS : SLEEP_SECONDS, NULL, NULL);
    }
    for (int i = skiff.nbells; i-- > 0;)
        skiff.bells[i]->disarm();
}

static void *run(void *arg)
{
    (void)arg;
    unsigned naps = 0;
    while (!atomic_load_explicit(&stop, memory_order_acquire)) {
        if (!skiff_mt_try_enter()) { /* an application thread is inside MPI: it progresses itself */
            skiff_mt_await(SLEEP_SECONDS);
            continue;
        }
        skiff_call = CALL_NAME;
        if (skiff_progress() > 0) {
            naps = 0;
            skiff_mt_exit();
            sched_yield();
        } else if (skiff_pt2pt_busy()) { /* sends wait for room: only polling sees it come back */
            skiff_mt_exit();
            nap(naps++);
        } else {
            naps = 0;
            sleep_on_transports();
        }
    }
    return NULL;
}

int skiff_async_start(void)
{
    if (running || !skiff_cfg.async_progress || !skiff.initialized)
        return MPI_SUCCESS;
    /* The lock is on for good from here (as under MULTIPLE); the caller's level stays what it asked for. */
    skiff_mt_on = 1;
    skiff_mt_mode = SKIFF_MT_LOCK;
    atomic_store(&stop, 0);
    /* Signals go to the application's threads, as they would without this one. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int e = pthread_create(&thread, NULL, run, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (e)
        return skiff_err(MPI_ERR_OTHER, "SKIFF_ASYNC_PROGRESS=1: cannot start the progress thread: %s", strerror(e));
    running = 1;
    return MPI_SUCCESS;
}

void skiff_async_after_init(const int *unused)
{
    (void)unused;
    int rc = skiff_async_start();
    if (rc) {
        char msg[MPI_MAX_ERROR_STRING];
        skiff_err_string(rc, msg);
        skiff_error("%s", msg);
        skiff_abort_job(1, "MPI initialization failed");
    }
}

/* Wherever it sleeps: on the lock, the doorbell, epoll, or the kick. Repeated until it has ended, since
 * a wake-up rung just before it went to sleep is lost (the sleeps time out, so this is quick anyway). */
static void wake(void)
{
    skiff_mt_wake_all();
    if (skiff.sleeper && skiff.sleeper->wake)
        skiff.sleeper->wake();
    atomic_fetch_add(&kick, 1);
    syscall(SYS_futex, &kick, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

void skiff_async_stop(void)
{
    if (!running || pthread_equal(pthread_self(), thread))
        return;
    atomic_store_explicit(&stop, 1, memory_order_release);
    for (;;) {
        wake();
        if (pthread_tryjoin_np(thread, NULL) == 0)
            break;
        sleep_for(100e-6);
    }
    running = 0;
}
