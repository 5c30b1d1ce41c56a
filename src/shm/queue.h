/* Per-receiver lock-free queue of cells (the Nemesis design): any rank enqueues with one atomic
 * exchange on the tail, only the owner dequeues. Cells come from the sender's own pool and go back
 * to it when the receiver clears their busy flag, so no allocator is shared between processes.
 */
#ifndef SKIFF_SHM_QUEUE_H
#define SKIFF_SHM_QUEUE_H

#include "shm/layout.h"

/* base: the segment base; off: offset of a cell. */
void skiff_queue_push(unsigned char *base, struct skiff_shm_mailbox *mb, uint64_t off);
/* Polls a producer's link to its cell this many times before pop reports the queue empty for now. */
#define SKIFF_QUEUE_LINK_WAIT 64

/* Offset of the oldest cell, or 0 if the queue is empty (or its next cell is not linked yet). */
uint64_t skiff_queue_pop(unsigned char *base, struct skiff_shm_mailbox *mb);

static inline int skiff_queue_empty(struct skiff_shm_mailbox *mb)
{
    return atomic_load_explicit(&mb->head, memory_order_acquire) == 0;
}

/* Decodes the cell a peer queued at offset off: a peer cannot make us touch memory outside the cell
 * pools nor read past a cell. Gives the owning (node-local) rank and the payload length, read once
 * (the peer could rewrite the cell). Returns 0, -1 for a bad offset (*owner untouched) or -2 for a
 * length beyond the cell (in *len). */
int skiff_cell_check(const struct skiff_shm_layout *l, const unsigned char *base, uint64_t off, int *owner,
                     size_t *len);

/* A sender's view of its own pool of cells. */
struct skiff_cell_pool {
    unsigned char *first; /* first cell of this rank's pool */
    size_t stride;
    uint32_t ncells;
    uint32_t next; /* where to look for a free cell first */
};

/* A free cell marked busy, or NULL when every cell is in flight. */
struct skiff_cell *skiff_cell_alloc(struct skiff_cell_pool *p);

static inline void skiff_cell_release(struct skiff_cell *c)
{
    atomic_store_explicit(&c->busy, 0, memory_order_release);
}

#endif
