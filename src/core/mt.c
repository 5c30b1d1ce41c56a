/* The lock of MPI_THREAD_MULTIPLE (core/mt.h). A plain mutex with an owner and a nesting count beside it,
 * rather than a recursive mutex, so that a waiting thread can let go of every nesting level at once and
 * take them all back (and ThreadSanitizer sees an ordinary mutex). */
#include "core/mt.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "core/error.h"
#include "core/trace.h"

_Static_assert(sizeof(pthread_t) == sizeof(unsigned long), "pthread_t is an integer on Linux");

int skiff_mt_on;
void (*skiff_mt_park_hook)(struct skiff_mt_parked *p, int park);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* The holder, or 0. Written only by the holder, so a thread that reads its own id here holds the lock. */
static _Atomic unsigned long owner;
static unsigned depth;       /* the holder's nesting; under the lock */
static atomic_int blocked;   /* threads asleep on the lock: a waiter holding it should let go */

void skiff_mt_enable(void)
{
    skiff_mt_on = 1;
}

int skiff_mt_held(void)
{
    return atomic_load_explicit(&owner, memory_order_relaxed) == (unsigned long)pthread_self();
}

int skiff_mt_contended(void)
{
    return atomic_load_explicit(&blocked, memory_order_relaxed) != 0;
}

static void take(void)
{
    if (pthread_mutex_trylock(&lock) != 0) {
        atomic_fetch_add_explicit(&blocked, 1, memory_order_relaxed);
        pthread_mutex_lock(&lock);
        atomic_fetch_sub_explicit(&blocked, 1, memory_order_relaxed);
    }
    atomic_store_explicit(&owner, (unsigned long)pthread_self(), memory_order_relaxed);
}

static void give(void)
{
    atomic_store_explicit(&owner, 0, memory_order_relaxed);
    pthread_mutex_unlock(&lock);
}

int skiff_mt_enter(void)
{
    if (skiff_mt_held()) {
        depth++;
        return 1;
    }
    take();
    depth = 1;
    return 1;
}

void skiff_mt_exit(void)
{
    if (--depth == 0)
        give();
}

void skiff_mt_release(struct skiff_mt_parked *p)
{
    p->depth = depth;
    depth = 0;
    p->call = skiff_call;
    p->trace_cur = skiff_trace_park();
    if (skiff_mt_park_hook)
        skiff_mt_park_hook(p, 1);
    give();
}

void skiff_mt_reacquire(struct skiff_mt_parked *p)
{
    take();
    depth = p->depth;
    skiff_call = p->call;
    skiff_trace_unpark(p->trace_cur);
    if (skiff_mt_park_hook)
        skiff_mt_park_hook(p, 0);
}

void skiff_mt_yield(void)
{
    if (!skiff_mt_on || !skiff_mt_held()) {
        sched_yield();
        return;
    }
    struct skiff_mt_parked p;
    skiff_mt_release(&p);
    sched_yield();
    skiff_mt_reacquire(&p);
}
