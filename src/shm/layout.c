#include "shm/layout.h"

static size_t page_up(size_t x)
{
    return (x + 4095) & ~(size_t)4095;
}

void skiff_shm_layout_compute(struct skiff_shm_layout *l, uint32_t nranks, size_t header_bytes,
                              size_t fbox_size, size_t cell_payload, uint32_t ncells)
{
    size_t pairs = (size_t)nranks * nranks;
    l->nranks = nranks;
    l->fbox_size = fbox_size;
    l->cell_payload = (cell_payload + SKIFF_CACHELINE - 1) & ~(size_t)(SKIFF_CACHELINE - 1);
    l->cell_stride = SKIFF_CELL_HDR + l->cell_payload;
    l->ncells = ncells;
    l->off_barrier = page_up(header_bytes);
    l->off_slots = page_up(l->off_barrier + sizeof(struct skiff_shm_barrier));
    l->off_mailbox = page_up(l->off_slots + 2 * (size_t)nranks * SKIFF_SHM_SLOT);
    l->off_fctl = page_up(l->off_mailbox + nranks * sizeof(struct skiff_shm_mailbox));
    l->off_fbox = page_up(l->off_fctl + pairs * sizeof(struct skiff_fbox_ctl));
    l->off_cells = page_up(l->off_fbox + pairs * fbox_size);
    l->total = page_up(l->off_cells + (size_t)nranks * ncells * l->cell_stride);
}
