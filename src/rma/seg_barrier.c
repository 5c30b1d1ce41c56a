/* The fence barrier of a direct window (every process maps the window's segment): a dissemination
 * barrier whose messages are flags in that segment.
 *
 * Why not the node's barrier or messages: the node's (coll/coll.c) is one counter every rank
 * read-modify-writes, so its line goes to each rank in turn and then back to the waiters, and it serves
 * only whole-job communicators; a message barrier costs a send and a receive per round. Here, in round
 * k, process i writes its flag for round k into process (i + 2^k) mod n's slot and waits for its own slot:
 * each slot has one writer and one reader and a line of its own, so a round costs one line moving from
 * the writer to the reader, and the rounds' lines move in parallel on all processes. For 2 processes that
 * is one round: each writes the other's line and reads its own, the least any barrier can do.
 *
 * Flags hold the barrier's number (the epoch, counted per process, the same on all since everyone enters
 * every barrier), so they are never reset: a process one barrier ahead writes a larger number, which
 * "at least my epoch" still accepts. 64 bits never wrap. */
#include "rma/seg_barrier.h"

#include <stdlib.h>

#include "core/core.h"
#include "core/progress.h"
#include "shm/node_area.h"
#include "util/arch.h"

#define LINE 64
#define BARE_POLLS 64 /* polls of the flag alone before the wait loop's progress and back-off */

static int rounds_of(int n)
{
    int r = 0;
    while (r < 31 && (1 << r) < n)
        r++;
    return r;
}

size_t skiff_seg_barrier_bytes(int n)
{
    return (size_t)n * (size_t)rounds_of(n) * LINE;
}

static _Atomic uint64_t *flag(const struct skiff_seg_barrier *b, int rank, int round)
{
    return (_Atomic uint64_t *)((char *)b->flags + ((size_t)rank * (size_t)b->rounds + (size_t)round) * LINE);
}

int skiff_seg_barrier_init(struct skiff_seg_barrier *b, void *area, int n, int me, const int *local)
{
    *b = (struct skiff_seg_barrier){.flags = area, .n = n, .me = me, .rounds = rounds_of(n)};
    if (!skiff_node_area_ready()) /* no doorbells to wake a sleeping process with */
        return -1;
    if (!(b->wake = malloc(sizeof *b->wake * (size_t)(b->rounds ? b->rounds : 1))))
        return -1;
    for (int k = 0; k < b->rounds; k++)
        b->wake[k] = local[(me + (1 << k)) % n];
    return 0;
}

void skiff_seg_barrier_free(struct skiff_seg_barrier *b)
{
    free(b->wake);
    b->wake = NULL;
}

/* The waiter's check (also after it armed its doorbell, so a wake-up cannot slip past). Acquire: pairs
 * with the writer's release, so everything the writer did before it (and what it had acquired in its
 * earlier rounds) happens before what this process does after. */
static int arrived(void *arg)
{
    const struct skiff_seg_barrier *b = arg;
    return atomic_load_explicit(flag(b, b->me, b->round), memory_order_acquire) >= b->epoch;
}

void skiff_seg_barrier_wait(struct skiff_seg_barrier *b)
{
    uint64_t e = ++b->epoch;
    for (int k = 0; k < b->rounds; k++) {
        b->round = k;
        atomic_store_explicit(flag(b, (b->me + (1 << k)) % b->n, k), e, memory_order_release);
        /* Look at our own flag before waking the partner: the wake-up's check is behind a seq_cst
         * fence (the doorbell's Dekker pairing with a sleeper, shm.c's ring_bell), which waits for the
         * store above to leave this core. Issuing the load first lets the two line transfers overlap
         * when the partner arrived first, instead of following one another. */
        int done = arrived(b);
        skiff_node_wake(b->wake[k]);
        for (int i = 0; !done && skiff.spin_limit && i < BARE_POLLS; i++)
            done = arrived(b);
        if (done)
            continue;
        struct skiff_waiter wt = SKIFF_WAITER_INIT;
        wt.ready = arrived;
        wt.arg = b;
        while (!arrived(b))
            skiff_wait_step(&wt);
    }
}
