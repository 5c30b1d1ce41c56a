/* The algorithms: each writes its rounds into a schedule that skiff_sched_init() prepared (and,
 * for reductions, whose dt/op are set). One file per algorithm, named after it; coll.c chooses. */
#ifndef SKIFF_COLL_ALGO_H
#define SKIFF_COLL_ALGO_H

#include "coll/sched.h"

void skiff_barrier_dissemination(struct skiff_sched *s, int ways);
void skiff_bcast_binomial(struct skiff_sched *s, void *buf, size_t bytes, int root);
void skiff_bcast_scatter_allgather(struct skiff_sched *s, void *buf, size_t bytes, int root);
/* esize: bytes per element of s->dt. */
void skiff_reduce_binomial(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t count, size_t esize,
                           int root);
void skiff_allreduce_recursive_doubling(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t count,
                                        size_t esize);
void skiff_allreduce_ring(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t count, size_t esize);
void skiff_gather_binomial(struct skiff_sched *s, const void *sendbuf, size_t bytes, void *recvbuf, int root);
void skiff_scatter_binomial(struct skiff_sched *s, const void *sendbuf, size_t bytes, void *recvbuf, int root);
void skiff_gatherv_linear(struct skiff_sched *s, const void *sendbuf, size_t bytes, void *recvbuf,
                          const size_t *counts, const size_t *displs, int root);
void skiff_scatterv_linear(struct skiff_sched *s, const void *sendbuf, const size_t *counts, const size_t *displs,
                           void *recvbuf, size_t bytes, int root);
void skiff_allgather_recursive_doubling(struct skiff_sched *s, void *recvbuf, size_t bytes);
void skiff_allgather_bruck(struct skiff_sched *s, void *recvbuf, size_t bytes);
void skiff_allgatherv_ring(struct skiff_sched *s, void *recvbuf, const size_t *counts, const size_t *displs);
void skiff_alltoall_bruck(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t bytes);
void skiff_alltoallv_pairwise(struct skiff_sched *s, const void *sendbuf, const size_t *scounts,
                              const size_t *sdispls, void *recvbuf, const size_t *rcounts, const size_t *rdispls);
void skiff_alltoallv_linear(struct skiff_sched *s, const void *sendbuf, const size_t *scounts, const size_t *sdispls,
                            void *recvbuf, const size_t *rcounts, const size_t *rdispls);
/* Per peer i: sbytes[i] bytes at sptr[i] go to it, rbytes[i] from it land at rptr[i]. */
void skiff_alltoallw_linear(struct skiff_sched *s, char *const *sptr, const size_t *sbytes, char *const *rptr,
                            const size_t *rbytes);
void skiff_scan_recursive_doubling(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t count,
                                   size_t esize, int exclusive);

/* Blocking allreduce through the node's shared slots; returns 0 (did nothing) where it does not
 * apply: communicator smaller than the job, message larger than a slot, no shared area. */
int skiff_allreduce_shm(const void *sendbuf, void *recvbuf, size_t count, size_t esize, MPI_Datatype dt, MPI_Op op,
                        struct skiff_comm *c);

/* Ranks (relative to the root) in the binomial subtree rooted at rel. */
static inline int skiff_binomial_subtree(int rel, int n)
{
    int mask = 1;
    while (mask < n && !(rel & mask))
        mask <<= 1;
    int size = rel ? mask : n;
    return size < n - rel ? size : n - rel;
}

/* Barrier of the whole job through the node's shared area; returns 0 (did nothing) where that does
 * not apply (communicator smaller than the job, no shared area). */
int skiff_coll_node_barrier(struct skiff_comm *c);

/* Hierarchical variants (hier.c): usable once skiff_hier_ready(c) says the communicator spans
 * several nodes and its node and leader communicators exist. */
int skiff_hier_ready(struct skiff_comm *c);
int skiff_hier_barrier(struct skiff_comm *c);
int skiff_hier_bcast(void *buf, size_t bytes, int root, struct skiff_comm *c);
int skiff_hier_allreduce(const void *sendbuf, void *recvbuf, size_t count, MPI_Datatype dt, MPI_Op op,
                         struct skiff_comm *c);

static inline int skiff_pof2_floor(int n)
{
    int p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

#endif
