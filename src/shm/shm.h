#ifndef SKIFF_SHM_H
#define SKIFF_SHM_H

#include <stdint.h>

#include "core/transport.h"

/* Maps the job segment and builds this rank's view of it; NULL after printing why. It reaches the ranks
 * of this node (uses is not needed). */
const struct skiff_transport *skiff_shm_init(const unsigned char *uses);
/* What it offers on this host (single copy or not, and why), for skiff-info. */
void skiff_shm_describe(char *out, size_t len);

/* What went through shared memory since MPI_Init, from the positions and cell counts the transport
 * keeps anyway (MPI_T performance variables); all 0 when shm is not running. */
struct skiff_shm_traffic {
    unsigned long long fbox_sent, fbox_recv;   /* fast box bytes, record heads and padding included */
    unsigned long long cells_sent, cells_recv; /* queue cells (larger eager messages, pipelined copies) */
};
void skiff_shm_traffic(struct skiff_shm_traffic *t);

#endif
