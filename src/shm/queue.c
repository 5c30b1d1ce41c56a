#include "shm/queue.h"

#include "util/arch.h"

static inline struct skiff_cell *cell_at(unsigned char *base, uint64_t off)
{
    return (struct skiff_cell *)(base + off);
}

void skiff_queue_push(unsigned char *base, struct skiff_shm_mailbox *mb, uint64_t off)
{
    atomic_store_explicit(&cell_at(base, off)->next, 0, memory_order_relaxed);
    /* The exchange orders the cell's contents before its publication (seq_cst implies release). */
    uint64_t prev = atomic_exchange(&mb->tail, off);
    if (prev == 0)
        atomic_store_explicit(&mb->head, off, memory_order_release);
    else
        atomic_store_explicit(&cell_at(base, prev)->next, off, memory_order_release);
}

uint64_t skiff_queue_pop(unsigned char *base, struct skiff_shm_mailbox *mb)
{
    uint64_t h = atomic_load_explicit(&mb->head, memory_order_acquire);
    if (h == 0)
        return 0;
    struct skiff_cell *c = cell_at(base, h);
    uint64_t next = atomic_load_explicit(&c->next, memory_order_acquire);
    if (next == 0) {
        /* Possibly the last cell: clear head first, then try to detach the tail. If a producer has
         * already swapped itself in behind us, it will link itself to c->next shortly: wait a little.
         * Not forever: a producer preempted (or killed) between its exchange and its link would hold
         * us here. Then c stays at the head (only we write head while the tail is not 0) and the
         * queue looks empty until the link lands; the caller comes back later. */
        atomic_store_explicit(&mb->head, 0, memory_order_relaxed);
        uint64_t expect = h;
        if (atomic_compare_exchange_strong(&mb->tail, &expect, 0))
            return h;
        for (int i = 0; (next = atomic_load_explicit(&c->next, memory_order_acquire)) == 0; i++) {
            if (i == SKIFF_QUEUE_LINK_WAIT) {
                atomic_store_explicit(&mb->head, h, memory_order_relaxed);
                return 0;
            }
            skiff_cpu_relax();
        }
    }
    atomic_store_explicit(&mb->head, next, memory_order_release);
    return h;
}

struct skiff_cell *skiff_cell_alloc(struct skiff_cell_pool *p)
{
    for (uint32_t i = 0; i < p->ncells; i++) {
        uint32_t k = p->next + i;
        if (k >= p->ncells)
            k -= p->ncells;
        struct skiff_cell *c = (struct skiff_cell *)(p->first + (size_t)k * p->stride);
        if (atomic_load_explicit(&c->busy, memory_order_acquire) == 0) {
            atomic_store_explicit(&c->busy, 1, memory_order_relaxed);
            p->next = k + 1 == p->ncells ? 0 : k + 1;
            return c;
        }
    }
    return NULL;
}

int skiff_cell_check(const struct skiff_shm_layout *l, const unsigned char *base, uint64_t off, int *owner,
                     size_t *len)
{
    uint64_t rel = off - l->off_cells;
    if (off < l->off_cells || rel % l->cell_stride != 0 || rel / l->cell_stride >= (uint64_t)l->nranks * l->ncells)
        return -1;
    *owner = (int)(rel / l->cell_stride / l->ncells);
    uint32_t plen = ((const struct skiff_cell *)(const void *)(base + off))->plen;
    *len = plen;
    return plen > l->cell_payload ? -2 : 0;
}
