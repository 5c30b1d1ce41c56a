/* The collective calls on an intercommunicator: coll.c's entry points hand them over at their top
 * (if skiff_comm_is_inter), before any intracommunicator rule (root range, MPI_IN_PLACE, counts per
 * local rank) applies; the nonblocking and persistent entry points likewise. Each checks its arguments
 * as the standard defines them for intercommunicators and writes coll/inter.h's schedule, with steps
 * that stage non-contiguous data around it. form says how the call ends; the nonblocking and persistent
 * ones store their request at request. They return what the entry point returns (the error handler
 * applied). */
#ifndef SKIFF_MPI_INTER_COLL_H
#define SKIFF_MPI_INTER_COLL_H

#include "core/comm.h"
#include "mpi.h"
#include "mpi/coll_counts.h"

static inline int skiff_comm_is_inter(MPI_Comm comm)
{
    const struct skiff_comm *c = skiff_comm_get(comm);
    return c && c->remote;
}

enum skiff_coll_form { SKIFF_BLOCKING, SKIFF_NONBLOCKING, SKIFF_PERSISTENT };

int skiff_mpi_inter_barrier(MPI_Comm comm, enum skiff_coll_form form, MPI_Request *request);
int skiff_mpi_inter_bcast(void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm,
                          enum skiff_coll_form form, MPI_Request *request);
int skiff_mpi_inter_reduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, int root,
                           MPI_Comm comm, enum skiff_coll_form form, MPI_Request *request);
int skiff_mpi_inter_allreduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op,
                              MPI_Comm comm, enum skiff_coll_form form, MPI_Request *request);
/* Gather and gatherv (recvcounts NULL: recvcount each; else the v call's arrays, an int call's or a _c
 * call's), scatter and scatterv, allgather(v) and alltoall(v) likewise. */
int skiff_mpi_inter_gather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           MPI_Count recvcount, const struct skiff_cnts *recvcounts, const struct skiff_dsps *displs,
                           MPI_Datatype recvtype, int root, MPI_Comm comm, enum skiff_coll_form form,
                           MPI_Request *request);
int skiff_mpi_inter_scatter(const void *sendbuf, MPI_Count sendcount, const struct skiff_cnts *sendcounts,
                            const struct skiff_dsps *displs, MPI_Datatype sendtype, void *recvbuf,
                            MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                            enum skiff_coll_form form, MPI_Request *request);
int skiff_mpi_inter_allgather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, const struct skiff_cnts *recvcounts,
                              const struct skiff_dsps *displs, MPI_Datatype recvtype, MPI_Comm comm,
                              enum skiff_coll_form form, MPI_Request *request);
int skiff_mpi_inter_alltoall(const void *sendbuf, MPI_Count sendcount, const struct skiff_cnts *sendcounts,
                             const struct skiff_dsps *sdispls, MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, const struct skiff_cnts *recvcounts,
                             const struct skiff_dsps *rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                             enum skiff_coll_form form, MPI_Request *request);
/* recvcounts NULL: recvcount each (MPI_Reduce_scatter_block). */
int skiff_mpi_inter_reduce_scatter(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                   const MPI_Count *recvcounts, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                                   enum skiff_coll_form form, MPI_Request *request);
/* MPI_Scan and MPI_Exscan (and their nonblocking forms): not defined on intercommunicators. */
int skiff_mpi_inter_refuse(MPI_Comm comm);

#endif
