/* Collectives on an intercommunicator: every process's partners are the other group's processes
 * (MPI-4.1 §6.2.2), so each call is written as one schedule of sends and receives across, to and from
 * remote ranks only, on the intercommunicator's collective context. Each process talks to every remote
 * process it exchanges data with (linear: size x remote size messages for the all-to-all shapes), which
 * keeps the whole call one schedule: the same schedule serves the blocking, nonblocking and persistent
 * forms (mpi/inter_coll.c stages the user's data around it), with no local helper communicator.
 *
 * Each builder writes the call into s, whose communicator is the intercommunicator; the caller ends the
 * last round. Roots are as the standard has them: MPI_ROOT at the root, MPI_PROC_NULL at the rest of the
 * root's group, the root's rank in the other group there. Counts and displacements (bytes) index the
 * remote group; reductions give each group the reduction of the other group's data, combined in rank
 * order. */
#ifndef SKIFF_COLL_INTER_H
#define SKIFF_COLL_INTER_H

#include <stddef.h>

#include "coll/sched.h"
#include "mpi.h"

void skiff_build_inter_barrier(struct skiff_sched *s);
void skiff_build_inter_bcast(struct skiff_sched *s, void *buf, size_t bytes, int root);
void skiff_build_inter_reduce(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t count, MPI_Datatype dt,
                              MPI_Op op, int root);
void skiff_build_inter_allreduce(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t count,
                                 MPI_Datatype dt, MPI_Op op);
/* Gather: bytes from every process of the non-root group; counts/displs NULL means bytes each, packed. */
void skiff_build_inter_gather(struct skiff_sched *s, const void *sendbuf, size_t bytes, void *recvbuf,
                              const size_t *counts, const size_t *displs, int root);
void skiff_build_inter_scatter(struct skiff_sched *s, const void *sendbuf, const size_t *counts, const size_t *displs,
                               void *recvbuf, size_t bytes, int root);
/* Allgather: sbytes to every remote process, rcounts[r] (or rbytes each) from remote r. */
void skiff_build_inter_allgather(struct skiff_sched *s, const void *sendbuf, size_t sbytes, void *recvbuf,
                                 size_t rbytes, const size_t *rcounts, const size_t *rdispls);
/* Alltoall: NULL counts mean sbytes/rbytes per block, packed. */
void skiff_build_inter_alltoall(struct skiff_sched *s, const void *sendbuf, size_t sbytes, const size_t *scounts,
                                const size_t *sdispls, void *recvbuf, size_t rbytes, const size_t *rcounts,
                                const size_t *rdispls);
/* counts: this group's counts (elements); the other group's vectors hold their sum, as ours do. */
void skiff_build_inter_reduce_scatter(struct skiff_sched *s, const void *sendbuf, void *recvbuf, const size_t *counts,
                                      MPI_Datatype dt, MPI_Op op);

#endif
