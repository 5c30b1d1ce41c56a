/* Collective operations, written only against the point-to-point core.
 *
 * Every algorithm works on contiguous bytes (the MPI layer packs derived datatypes before and unpacks
 * after) and, for reductions, on a basic datatype and an op. Collective traffic travels on the
 * communicator's collective context (skiff_coll_ctx), never mixing with user messages, and each
 * collective call on a communicator takes the next sequence number as its tag, so consecutive and
 * nonblocking collectives never match each other's messages.
 *
 * Each algorithm builds a schedule (coll/sched.h): rounds of sends and receives followed by local
 * reductions or copies. Blocking calls run the schedule to completion; nonblocking calls hand it to
 * the progress engine and return its request.
 */
#ifndef SKIFF_COLL_H
#define SKIFF_COLL_H

#include <stddef.h>

#include "core/comm.h"
#include "core/request.h"
#include "mpi.h"

static inline uint32_t skiff_coll_ctx(const struct skiff_comm *c)
{
    return c->ctx + 1;
}

/* All return an MPI error code. Buffers are contiguous; `bytes` counts one rank's block.
 * sendbuf == MPI_IN_PLACE follows the standard's rules for each call. For reductions, count elements
 * of the basic datatype dt are combined with op. A non-NULL req makes the call nonblocking. */
int skiff_coll_barrier(struct skiff_comm *c, struct skiff_request **req);
/* then (NULL if none): what req does when it completes (skiff_sched_run_then). */
int skiff_coll_bcast(void *buf, size_t bytes, int root, struct skiff_comm *c, struct skiff_request **req,
                     const struct skiff_req_then *then);
int skiff_coll_reduce(const void *sendbuf, void *recvbuf, size_t count, MPI_Datatype dt, MPI_Op op, int root,
                      struct skiff_comm *c, struct skiff_request **req);
int skiff_coll_allreduce(const void *sendbuf, void *recvbuf, size_t count, MPI_Datatype dt, MPI_Op op,
                         struct skiff_comm *c, struct skiff_request **req);
int skiff_coll_gather(const void *sendbuf, size_t bytes, void *recvbuf, int root, struct skiff_comm *c);
int skiff_coll_gatherv(const void *sendbuf, size_t bytes, void *recvbuf, const size_t *counts, const size_t *displs,
                       int root, struct skiff_comm *c);
int skiff_coll_scatter(const void *sendbuf, size_t bytes, void *recvbuf, int root, struct skiff_comm *c);
int skiff_coll_scatterv(const void *sendbuf, const size_t *counts, const size_t *displs, void *recvbuf,
                        size_t bytes, int root, struct skiff_comm *c);
int skiff_coll_allgather(const void *sendbuf, size_t bytes, void *recvbuf, struct skiff_comm *c);
int skiff_coll_allgatherv(const void *sendbuf, size_t bytes, void *recvbuf, const size_t *counts,
                          const size_t *displs, struct skiff_comm *c);
int skiff_coll_alltoall(const void *sendbuf, size_t bytes, void *recvbuf, struct skiff_comm *c);
int skiff_coll_alltoallv(const void *sendbuf, const size_t *scounts, const size_t *sdispls, void *recvbuf,
                         const size_t *rcounts, const size_t *rdispls, struct skiff_comm *c);
int skiff_coll_reduce_scatter(const void *sendbuf, void *recvbuf, const size_t *counts, MPI_Datatype dt, MPI_Op op,
                              struct skiff_comm *c);
int skiff_coll_scan(const void *sendbuf, void *recvbuf, size_t count, MPI_Datatype dt, MPI_Op op, int exclusive,
                    struct skiff_comm *c);

/* The same algorithms written into a schedule the caller made (skiff_sched_new) and runs, once or
 * again and again (persistent collectives). Arguments as above; for reductions s->dt and s->op are
 * set first, and those return an MPI error code. Arrays may be freed once the builder returns.
 * Gather, scatter and their v-variants build with their algorithm (coll/algo.h) directly. */
struct skiff_sched;
void skiff_build_barrier(struct skiff_sched *s);
void skiff_build_bcast(struct skiff_sched *s, void *buf, size_t bytes, int root);
int skiff_build_reduce(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t count, int root);
int skiff_build_allreduce(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t count);
void skiff_build_allgather(struct skiff_sched *s, const void *sendbuf, size_t bytes, void *recvbuf);
void skiff_build_allgatherv(struct skiff_sched *s, const void *sendbuf, size_t bytes, void *recvbuf,
                            const size_t *counts, const size_t *displs);
void skiff_build_alltoall(struct skiff_sched *s, const void *sendbuf, size_t bytes, void *recvbuf);
void skiff_build_alltoallv(struct skiff_sched *s, const void *sendbuf, const size_t *scounts, const size_t *sdispls,
                           void *recvbuf, const size_t *rcounts, const size_t *rdispls);
int skiff_build_reduce_scatter(struct skiff_sched *s, const void *sendbuf, void *recvbuf, const size_t *counts);
int skiff_build_scan(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t count, int exclusive);

/* Advances nonblocking collectives; called by the progress engine. Returns events handled. */
int skiff_coll_progress(void);

#endif
