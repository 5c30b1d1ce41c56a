/* Collectives on an intercommunicator: every process's partners are the other group's processes
 * (MPI-4.1 §6.2.2), so each call is written as one schedule of sends and receives across, to and from
 * remote ranks only, on the intercommunicator's collective context. Each process talks to every remote
 * process it exchanges data with (linear: size x remote size messages for the all-to-all shapes), which
 * keeps the whole call one schedule: the same code serves the blocking and the nonblocking form, with
 * no local helper communicator.
 *
 * Roots are as the standard has them: MPI_ROOT at the root, MPI_PROC_NULL at the rest of the root's
 * group, the root's rank in the other group there. Counts and displacements (bytes) index the remote
 * group; reductions give each group the reduction of the other group's data, combined in rank order.
 * A non-NULL req makes the call nonblocking. All return an MPI error code. */
#ifndef SKIFF_COLL_INTER_H
#define SKIFF_COLL_INTER_H

#include <stddef.h>

#include "core/comm.h"
#include "core/request.h"
#include "mpi.h"

int skiff_inter_barrier(struct skiff_comm *c, struct skiff_request **req);
int skiff_inter_bcast(void *buf, size_t bytes, int root, struct skiff_comm *c, struct skiff_request **req);
int skiff_inter_reduce(const void *sendbuf, void *recvbuf, size_t count, MPI_Datatype dt, MPI_Op op, int root,
                       struct skiff_comm *c, struct skiff_request **req);
int skiff_inter_allreduce(const void *sendbuf, void *recvbuf, size_t count, MPI_Datatype dt, MPI_Op op,
                          struct skiff_comm *c, struct skiff_request **req);
/* Gather: bytes from every process of the non-root group; counts/displs NULL means bytes each, packed. */
int skiff_inter_gather(const void *sendbuf, size_t bytes, void *recvbuf, const size_t *counts, const size_t *displs,
                       int root, struct skiff_comm *c, struct skiff_request **req);
int skiff_inter_scatter(const void *sendbuf, const size_t *counts, const size_t *displs, void *recvbuf, size_t bytes,
                        int root, struct skiff_comm *c, struct skiff_request **req);
/* Allgather: sbytes to every remote process, rcounts[r] (or rbytes each) from remote r. */
int skiff_inter_allgather(const void *sendbuf, size_t sbytes, void *recvbuf, size_t rbytes, const size_t *rcounts,
                          const size_t *rdispls, struct skiff_comm *c, struct skiff_request **req);
/* Alltoall: NULL counts mean sbytes/rbytes per block, packed. */
int skiff_inter_alltoall(const void *sendbuf, size_t sbytes, const size_t *scounts, const size_t *sdispls,
                         void *recvbuf, size_t rbytes, const size_t *rcounts, const size_t *rdispls,
                         struct skiff_comm *c, struct skiff_request **req);
/* counts: this group's counts (elements); the other group's vectors hold their sum, as ours do. */
int skiff_inter_reduce_scatter(const void *sendbuf, void *recvbuf, const size_t *counts, MPI_Datatype dt, MPI_Op op,
                               struct skiff_comm *c, struct skiff_request **req);

#endif
