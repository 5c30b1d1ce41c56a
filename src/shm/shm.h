#ifndef SKIFF_SHM_H
#define SKIFF_SHM_H

#include <stdint.h>

#include "core/transports.h"

/* Maps the job segment and builds this rank's view of it; NULL after printing why. It reaches the ranks
 * of this node (uses is not needed). */
const struct skiff_transport *skiff_shm_init(const unsigned char *uses);
/* What it offers on this host (single copy or not, and why), for skiff-info. */
void skiff_shm_describe(char *out, size_t len);

/* Its MPI_T counters (core/transports.h): fast box bytes and queue cells, each way. */
extern const struct skiff_transport_counter skiff_shm_counters[];

#endif
