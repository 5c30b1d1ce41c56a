/* Where everything lives in the job's shared segment, and the structures placed there.
 *
 * The segment is the memfd that mpiexec creates (see boot/job_proto.h). All-zero memory is the empty
 * state of every structure here, so no rank has to initialise anything before its peers may use it.
 * Pointers between processes are byte offsets from the segment base (each process maps it elsewhere);
 * offset 0 is the job header and therefore never a cell, so 0 serves as "null".
 */
#ifndef SKIFF_SHM_LAYOUT_H
#define SKIFF_SHM_LAYOUT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/proto.h"

#define SKIFF_CACHELINE 64
#define SKIFF_SHM_SLOT 4096 /* bytes per rank per set of the node collective slots */

/* One per receiving rank: its doorbell and the head/tail of its queue, each on its own cache line
 * so senders ringing the bell do not steal the line the receiver polls. */
struct skiff_shm_mailbox {
    _Alignas(SKIFF_CACHELINE) _Atomic uint32_t bell; /* futex word, bumped by a sender that wakes us */
    _Atomic uint32_t sleeping;                       /* threads of the owner that may be in futex_wait */
    _Atomic uint32_t wake_sock;                      /* 1: owner sleeps in epoll, poke its wake socket */
    _Alignas(SKIFF_CACHELINE) _Atomic uint64_t tail; /* producers swap themselves in here */
    _Alignas(SKIFF_CACHELINE) _Atomic uint64_t head; /* owned by the consumer (and the first producer) */
};

/* A sense-reversing barrier of all ranks in the segment. */
struct skiff_shm_barrier {
    _Alignas(SKIFF_CACHELINE) _Atomic uint32_t arrived;
    _Alignas(SKIFF_CACHELINE) _Atomic uint32_t sense;
};

/* Per ordered pair (sender s -> receiver r): written only by r, read by s. */
struct skiff_fbox_ctl {
    _Alignas(SKIFF_CACHELINE) _Atomic uint64_t consumed; /* fast box bytes r has consumed */
    _Atomic uint64_t q_done;                             /* queue cells from s that r has consumed */
};

/* A fast box entry: header and payload in one cache-line-aligned record of a per-pair ring. */
struct skiff_fbox_entry {
    _Atomic uint32_t seq; /* written last; valid when it equals the reader's expectation */
    uint32_t plen;        /* payload bytes; SKIFF_FBOX_PAD means "skip to the end of the ring" */
    struct skiff_hdr hdr;
    unsigned char payload[];
};
#define SKIFF_FBOX_ENTRY_HDR ((size_t)sizeof(struct skiff_fbox_entry))
#define SKIFF_FBOX_PAD 0xffffffffu

/* A queue cell, owned by the sender that allocates it; the receiver gives it back by clearing busy. */
struct skiff_cell {
    _Alignas(SKIFF_CACHELINE) _Atomic uint64_t next; /* offset of the next cell in the receiver's queue */
    _Atomic uint32_t busy;
    uint32_t plen; /* payload bytes */
    _Alignas(SKIFF_CACHELINE) struct skiff_hdr hdr;
    _Alignas(SKIFF_CACHELINE) unsigned char payload[];
};
#define SKIFF_CELL_HDR ((size_t)offsetof(struct skiff_cell, payload))

struct skiff_shm_layout {
    uint32_t nranks;
    size_t fbox_size;    /* ring bytes per pair */
    size_t cell_payload; /* payload bytes per cell */
    size_t cell_stride;  /* bytes per cell including its header */
    uint32_t ncells;     /* cells per rank */
    size_t off_barrier, off_slots, off_mailbox, off_fctl, off_fbox, off_cells, total;
};

/* Computes offsets for nranks ranks; every rank computes the same answer from the same settings. */
void skiff_shm_layout_compute(struct skiff_shm_layout *l, uint32_t nranks, size_t header_bytes,
                              size_t fbox_size, size_t cell_payload, uint32_t ncells);

static inline size_t skiff_pair(const struct skiff_shm_layout *l, int sender, int receiver)
{
    return (size_t)receiver * l->nranks + (size_t)sender;
}

#endif
