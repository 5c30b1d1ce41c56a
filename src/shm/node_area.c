#include "shm/node_area.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

static struct {
    struct skiff_shm_barrier *barrier;
    unsigned char *slots;
    int n, me;
    unsigned sense;
    void (*wake)(int local_rank);
} area;

void skiff_node_area_attach(struct skiff_shm_barrier *barrier, unsigned char *slots, int n, int me,
                            void (*wake)(int local_rank))
{
    area.barrier = barrier;
    area.slots = slots;
    area.n = n;
    area.me = me;
    area.sense = 0;
    area.wake = wake;
}

void skiff_node_area_detach(void)
{
    memset(&area, 0, sizeof area);
}

int skiff_node_area_ready(void)
{
    return area.barrier != NULL;
}

/* The last rank to arrive resets the count and flips the sense; everyone waits for the flip. The
 * count is reset before the flip, so a fast rank cannot arrive at the next barrier too early. */
unsigned skiff_node_barrier_arrive(void)
{
    struct skiff_shm_barrier *b = area.barrier;
    unsigned sense = area.sense ^= 1;
    if (atomic_fetch_add(&b->arrived, 1) == (uint32_t)area.n - 1) {
        atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
        atomic_store_explicit(&b->sense, sense, memory_order_release);
        for (int p = 0; p < area.n; p++) /* sleepers wait on their doorbells */
            if (p != area.me)
                area.wake(p);
    }
    return sense;
}

void skiff_node_wake(int local_rank)
{
    if (local_rank != area.me)
        area.wake(local_rank);
}

int skiff_node_barrier_done(unsigned token)
{
    return atomic_load_explicit(&area.barrier->sense, memory_order_acquire) == token;
}

void *skiff_node_slot(unsigned set, int local_rank)
{
    return area.slots + ((size_t)(set & 1) * (size_t)area.n + (size_t)local_rank) * SKIFF_NODE_SLOT_BYTES;
}
