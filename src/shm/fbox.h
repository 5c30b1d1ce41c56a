/* Per-pair fast box: a single-producer single-consumer ring of cache-line-aligned entries.
 *
 * The sender writes header and payload, then publishes the entry with one release store of its
 * sequence word; the receiver polls that word at its read position. Positions are monotonic byte
 * counts; the sequence a slot must hold is derived from the position, so an old entry's own sequence
 * from the previous lap is never mistaken for a new one. Old payload could be (a line inside an old
 * entry may be where a later entry starts, and small integers look like sequences): the receiver
 * clears the first word of each such line before it publishes the space as consumed (fbox.c).
 */
#ifndef SKIFF_SHM_FBOX_H
#define SKIFF_SHM_FBOX_H

#include "shm/layout.h"

struct skiff_fbox_tx {
    unsigned char *ring;
    struct skiff_fbox_ctl *ctl;
    size_t size;             /* power of two */
    uint64_t head;           /* bytes written */
    uint64_t known_consumed; /* last value read from ctl->consumed: saves a shared read per send */
};

struct skiff_fbox_rx {
    unsigned char *ring;
    struct skiff_fbox_ctl *ctl;
    size_t size;
    uint64_t pos; /* bytes consumed */
    size_t len;   /* payload bytes of the entry peek returned, read once: the peer may rewrite it */
};

/* Largest payload one entry can carry in a ring of this size (a quarter, so the ring pipelines). */
static inline size_t skiff_fbox_max_payload(size_t ring_size)
{
    return ring_size / 4 - SKIFF_FBOX_ENTRY_HDR;
}

int skiff_fbox_push(struct skiff_fbox_tx *tx, const struct skiff_hdr *h, const void *payload, size_t len);

/* The next entry, or NULL if none has been published. Returns (void *)-1 for a corrupt entry. Its
 * payload length, checked against the ring, is rx->len: use that, never the entry's own field. */
const struct skiff_fbox_entry *skiff_fbox_peek(struct skiff_fbox_rx *rx);
/* Consumes the entry peek returned. */
void skiff_fbox_pop(struct skiff_fbox_rx *rx);

#define SKIFF_FBOX_CORRUPT ((const struct skiff_fbox_entry *)(uintptr_t)-1)

#endif
