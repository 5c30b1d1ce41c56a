#include "shm/fbox.h"

#include <errno.h>
#include <string.h>

static inline size_t entry_bytes(size_t plen)
{
    return (SKIFF_FBOX_ENTRY_HDR + plen + SKIFF_CACHELINE - 1) & ~(size_t)(SKIFF_CACHELINE - 1);
}

/* Slot sequence for a byte position: changes every cache line and every lap, and is never 0. */
static inline uint32_t seq_at(uint64_t pos)
{
    uint32_t s = (uint32_t)(pos >> 6) + 1u;
    return s ? s : 1u;
}

/* The first word of every line after the first of a consumed record is cleared: that line may be
 * where a later record starts, and the old payload there must never read as a valid sequence
 * (payloads of small integers would). Done before `consumed` is published, so before any reuse. */
static void clear_tail(struct skiff_fbox_rx *rx, size_t off, size_t bytes)
{
    for (size_t l = SKIFF_CACHELINE; l < bytes; l += SKIFF_CACHELINE)
        atomic_store_explicit((_Atomic uint32_t *)(void *)(rx->ring + off + l), 0, memory_order_relaxed);
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
        uint32_t plen = e->plen;
        if (plen == SKIFF_FBOX_PAD) {
            clear_tail(rx, off, rx->size - off);
            rx->pos += rx->size - off;
            continue;
        }
        /* The sender is a peer process: never trust a length that would read past the ring. */
        if (SKIFF_FBOX_ENTRY_HDR + (size_t)plen > rx->size - off)
            return SKIFF_FBOX_CORRUPT;
        rx->len = plen;
        return e;
    }
}

void skiff_fbox_pop(struct skiff_fbox_rx *rx)
{
    size_t bytes = entry_bytes(rx->len);
    clear_tail(rx, (size_t)(rx->pos & (rx->size - 1)), bytes);
    rx->pos += bytes;
    atomic_store_explicit(&rx->ctl->consumed, rx->pos, memory_order_release);
}
