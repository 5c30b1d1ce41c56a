/* Neighbourhood collectives over the point-to-point core (see coll/coll.h for tags and contexts). */
#ifndef SKIFF_COLL_NEIGHBOR_H
#define SKIFF_COLL_NEIGHBOR_H

#include <stddef.h>

#include "core/comm.h"
#include "core/request.h"

/* One block: bytes of contiguous data to or from peer (MPI_PROC_NULL: nothing moves). */
struct skiff_nbr_xfer {
    int peer;
    void *buf;
    size_t bytes;
};

/* Receives recvs[] and sends sends[] in one round, each list posted in its order: the k-th message from
 * p to q lands in the k-th receive q posted from p. Blocking when req is NULL, else *req completes when
 * everything has moved, and then does what then (NULL if nothing) says (skiff_sched_run_then). The lists
 * may be freed when this returns. Returns an MPI error code. */
int skiff_coll_neighbor(struct skiff_comm *c, const struct skiff_nbr_xfer *recvs, int nrecv,
                        const struct skiff_nbr_xfer *sends, int nsend, struct skiff_request **req,
                        const struct skiff_req_then *then);

/* The same round written into s (a planned schedule: the persistent calls), which it ends. */
struct skiff_sched;
void skiff_build_neighbor(struct skiff_sched *s, const struct skiff_nbr_xfer *recvs, int nrecv,
                          const struct skiff_nbr_xfer *sends, int nsend);

#endif
