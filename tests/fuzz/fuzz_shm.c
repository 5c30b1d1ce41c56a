/* libFuzzer target for what the shared-memory transport reads from its peers' writes: fast box rings
 * and queue cell offsets and lengths. The input is the memory a broken or hostile peer could leave.
 *
 * Fast box: the input fills a ring and sets the reader's position; the reader then drains it.
 * Invariants: every entry handed out lies inside the ring with its whole payload, and the reader
 * stops (a ring can yield at most one entry per cache line per lap).
 * Cells: the input picks a layout (ranks, cells, payload size), an offset and a length. Invariant:
 * an accepted cell lies inside the cell pools, on a cell boundary, and its length fits the cell. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shm/fbox.h"
#include "shm/queue.h"

#define RING 2048

static void check(int ok)
{
    if (!ok)
        abort();
}

static uint64_t take(const uint8_t **data, size_t *size, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n && *size; i++, (*data)++, (*size)--)
        v |= (uint64_t)**data << (8 * i);
    return v;
}

static void fbox(const uint8_t *data, size_t size)
{
    static _Alignas(64) unsigned char ring[RING];
    struct skiff_fbox_ctl ctl = {0};
    struct skiff_fbox_rx rx = {.ring = ring, .ctl = &ctl, .size = RING};
    rx.pos = take(&data, &size, 4) * 64; /* readers only ever stand on line boundaries */
    memset(ring, 0, sizeof ring);
    memcpy(ring, data, size < sizeof ring ? size : sizeof ring);
    for (int i = 0; i <= 2 * RING / 64; i++) {
        const struct skiff_fbox_entry *e = skiff_fbox_peek(&rx);
        if (e == NULL || e == SKIFF_FBOX_CORRUPT)
            return;
        const unsigned char *p = (const unsigned char *)e;
        check(p >= ring && p + SKIFF_FBOX_ENTRY_HDR + rx.len <= ring + RING);
        volatile unsigned char sink = rx.len ? e->payload[rx.len - 1] : 0; /* ASan: inside the ring */
        (void)sink;
        uint64_t before = rx.pos;
        skiff_fbox_pop(&rx);
        check(rx.pos > before && atomic_load(&ctl.consumed) == rx.pos);
    }
    check(0); /* more entries than the ring can hold: the reader would spin */
}

static void cells(const uint8_t *data, size_t size)
{
    struct skiff_shm_layout l;
    uint32_t nranks = 1 + (uint32_t)take(&data, &size, 1) % 8;
    uint32_t ncells = 1 + (uint32_t)take(&data, &size, 1) % 16;
    size_t payload = (size_t)take(&data, &size, 2) % 4096;
    skiff_shm_layout_compute(&l, nranks, 4096, 1024, payload, ncells);
    unsigned char *base = calloc(1, l.total);
    check(base != NULL);
    while (size >= 12) {
        uint64_t off = take(&data, &size, 8);
        if (off & 1) /* half the offsets near the pools, where the interesting boundaries are */
            off = l.off_cells - 2 * l.cell_stride + (off >> 1) % ((uint64_t)(nranks * ncells + 4) * l.cell_stride);
        uint32_t plen = (uint32_t)take(&data, &size, 4);
        int owner = -1;
        size_t len = 0;
        if (off >= l.off_cells && off <= l.total - SKIFF_CELL_HDR && off % SKIFF_CACHELINE == 0)
            ((struct skiff_cell *)(void *)(base + off))->plen = plen; /* what the peer wrote */
        int rc = skiff_cell_check(&l, base, off, &owner, &len);
        if (rc != -1)
            check(off >= l.off_cells && (off - l.off_cells) % l.cell_stride == 0 &&
                  off + l.cell_stride <= l.off_cells + (uint64_t)nranks * ncells * l.cell_stride &&
                  owner >= 0 && owner < (int)nranks);
        if (rc == 0)
            check(len <= l.cell_payload && off + SKIFF_CELL_HDR + len <= l.total);
    }
    free(base);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    if (data[0] & 1)
        fbox(data + 1, size - 1);
    else
        cells(data + 1, size - 1);
    return 0;
}
