#include "shm/fbox.h"

#include <errno.h>
#include <string.h>

static inline size_t entry_bytes(size_t plen)
{
    return (SKIFF_FBOX_ENTRY_HDR + plen + SKIFF_CACHELINE - 1) & ~(size_t)(SKIFF_CACHELINE - 1);
}

/* Slot sequence for a byte position: changes every cache line and every lap. */
static inline uint32_t seq_at(uint64_t pos)
{
    return (uint32_t)(pos >> 6) + 1u;
}

static int has_room(struct skiff_fbox_tx *tx, size_t need)
{
    if (tx->head + need - tx->known_consumed <= tx->size)
        return 1;
    tx->known_consumed = atomic_load_explicit(&tx->ctl->consumed, memory_order_acquire);
    return tx->head + need - tx->known_consumed <= tx->size;
}

int skiff_fbox_push(struct skiff_fbox_tx *tx, const struct skiff_hdr *h, const void *payload, size_t len)
{
    size_t need = entry_bytes(len);
    size_t off = (size_t)(tx->head & (tx->size - 1));
    size_t to_end = tx->size - off;
    size_t pad = need > to_end ? to_end : 0;
    if (!has_room(tx, need + pad))
        return -EAGAIN;
    if (pad) {
        struct skiff_fbox_entry *p = (struct skiff_fbox_entry *)(tx->ring + off);
        p->plen = SKIFF_FBOX_PAD;
        atomic_store_explicit(&p->seq, seq_at(tx->head), memory_order_release);
        tx->head += pad;
        off = 0;
    }
    struct skiff_fbox_entry *e = (struct skiff_fbox_entry *)(tx->ring + off);
    e->plen = (uint32_t)len;
    e->hdr = *h;
    if (len)
        memcpy(e->payload, payload, len);
    atomic_store_explicit(&e->seq, seq_at(tx->head), memory_order_release);
    tx->head += need;
    return 0;
}

const struct skiff_fbox_entry *skiff_fbox_peek(struct skiff_fbox_rx *rx)
{
    for (;;) {
        size_t off = (size_t)(rx->pos & (rx->size - 1));
        const struct skiff_fbox_entry *e = (const struct skiff_fbox_entry *)(rx->ring + off);
        if (atomic_load_explicit(&e->seq, memory_order_acquire) != seq_at(rx->pos))
            return NULL;
        if (e->plen == SKIFF_FBOX_PAD) {
            rx->pos += rx->size - off;
            continue;
        }
        /* The sender is a peer process: never trust a length that would read past the ring. */
        if (SKIFF_FBOX_ENTRY_HDR + (size_t)e->plen > rx->size - off)
            return SKIFF_FBOX_CORRUPT;
        return e;
    }
}

void skiff_fbox_pop(struct skiff_fbox_rx *rx, const struct skiff_fbox_entry *e)
{
    rx->pos += entry_bytes(e->plen);
    atomic_store_explicit(&rx->ctl->consumed, rx->pos, memory_order_release);
}
