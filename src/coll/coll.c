/* Which algorithm runs: chosen per call from the message size and the rank count. The thresholds
 * are where the bandwidth-optimal algorithms start to beat the latency-optimal ones on shared
 * memory (bench/compare.sh -m coll shows the curves). */
#include <stdlib.h>
#include <string.h>

#include "coll/algo.h"
#include "coll/coll.h"
#include "core/core.h"
#include "core/mt.h"
#include "core/datatype.h"
#include "core/error.h"
#include "core/node.h"
#include "core/op.h"
#include "core/progress.h"
#include "core/stats.h"
#include "core/trace.h"
#include "shm/node_area.h"
#include "util/config.h"

#define LARGE_BCAST (64u << 10)
#define LARGE_ALLREDUCE (64u << 10)
#define LARGE_ALLGATHER (64u << 10)
#define SMALL_ALLTOALL 256u
#define HUGE_BCAST_OVERSUBSCRIBED (4u << 20)
#define LINEAR_ALLTOALL_MAX (128u << 10)

/* Runs a schedule built on the stack (blocking) or on the heap (nonblocking). */
#define SCHED_BEGIN(c, req)                                                                             \
    struct skiff_sched stack_sched, *s = (req) ? skiff_sched_new(c) : &stack_sched;                    \
    if (!s)                                                                                             \
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for a collective schedule");                   \
    if (!(req))                                                                                         \
    skiff_sched_init(s, c)

static int type_size(MPI_Datatype dt, size_t *esize);

static int barrier_passed(void *token)
{
    return skiff_node_barrier_done((unsigned)(uintptr_t)token);
}

/* The whole job on one node: one shared counter beats any message pattern, above all when the
 * ranks outnumber the cores and every message would cost a wake-up. The counter is the node's, not the
 * communicator's: under MPI_THREAD_MULTIPLE two threads may run barriers on two whole-job communicators
 * at once, in different orders on different ranks, so there it is not used. */
int skiff_coll_node_barrier(struct skiff_comm *c)
{
    if (!skiff_node_area_ready() || c->size != skiff.size || c->size == 1 || skiff_job_nodes() != 1 || skiff_mt_apps)
        return 0;
    SKIFF_TRACE_HOOK(skiff_trace_sync(c, SKIFF_TRS_BARRIER, 0));
    unsigned sense = skiff_node_barrier_arrive();
    skiff_stats.coll_node_barriers++;
    struct skiff_waiter w = SKIFF_WAITER_INIT;
    w.ready = barrier_passed;
    w.arg = (void *)(uintptr_t)sense;
    while (!skiff_node_barrier_done(sense))
        skiff_wait_step(&w);
    return 1;
}

int skiff_coll_barrier(struct skiff_comm *c, struct skiff_request **req)
{
    if (!req && skiff_coll_node_barrier(c))
        return MPI_SUCCESS;
    if (!req && skiff_hier_ready(c)) {
        skiff_stats.coll_hier++;
        return skiff_hier_barrier(c);
    }
    SCHED_BEGIN(c, req);
    skiff_build_barrier(s);
    return skiff_sched_run(s, req);
}

void skiff_build_barrier(struct skiff_sched *s)
{
    skiff_barrier_dissemination(s, skiff_cfg.barrier_ways);
}

int skiff_coll_bcast(void *buf, size_t bytes, int root, struct skiff_comm *c, struct skiff_request **req,
                     const struct skiff_req_then *then)
{
    if (!req && skiff_hier_ready(c)) {
        skiff_stats.coll_hier++;
        return skiff_hier_bcast(buf, bytes, root, c);
    }
    SCHED_BEGIN(c, req);
    skiff_build_bcast(s, buf, bytes, root);
    return req ? skiff_sched_run_then(s, req, then) : skiff_sched_run(s, NULL);
}

void skiff_build_bcast(struct skiff_sched *s, void *buf, size_t bytes, int root)
{
    /* Oversubscribed, every round is a wake-up: the binomial tree's log2(n) rounds win until the
     * message is large enough for the bandwidth to matter more. */
    size_t large = skiff.oversubscribed ? HUGE_BCAST_OVERSUBSCRIBED : LARGE_BCAST;
    if (bytes >= large && s->comm->size > 2)
        skiff_bcast_scatter_allgather(s, buf, bytes, root);
    else
        skiff_bcast_binomial(s, buf, bytes, root);
}

/* Reductions step through elements by extent: for the pair types that includes the padding the
 * C structs have, which is what the op loops expect. */
static int type_size(MPI_Datatype dt, size_t *esize)
{
    const struct skiff_type *t = skiff_type_get(dt);
    *esize = t ? t->extent : 0;
    return *esize ? MPI_SUCCESS : skiff_err(MPI_ERR_TYPE, "reductions need a datatype with a non-zero extent");
}

int skiff_coll_reduce(const void *sendbuf, void *recvbuf, size_t count, MPI_Datatype dt, MPI_Op op, int root,
                      struct skiff_comm *c, struct skiff_request **req)
{
    size_t esize;
    int rc = type_size(dt, &esize);
    if (rc)
        return rc;
    SCHED_BEGIN(c, req);
    s->dt = dt;
    s->op = op;
    skiff_reduce_binomial(s, sendbuf, recvbuf, count, esize, root);
    return skiff_sched_run(s, req);
}

int skiff_build_reduce(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t count, int root)
{
    size_t esize;
    int rc = type_size(s->dt, &esize);
    if (!rc)
        skiff_reduce_binomial(s, sendbuf, recvbuf, count, esize, root);
    return rc;
}

int skiff_coll_allreduce(const void *sendbuf, void *recvbuf, size_t count, MPI_Datatype dt, MPI_Op op,
                         struct skiff_comm *c, struct skiff_request **req)
{
    size_t esize;
    int rc = type_size(dt, &esize);
    if (rc)
        return rc;
    if (!req && c->size > 1 && skiff_allreduce_shm(sendbuf, recvbuf, count, esize, dt, op, c)) {
        skiff_stats.coll_shm_allreduces++;
        return MPI_SUCCESS;
    }
    if (!req && skiff_op_commutative(op) && skiff_hier_ready(c)) {
        skiff_stats.coll_hier++;
        return skiff_hier_allreduce(sendbuf, recvbuf, count, dt, op, c);
    }
    SCHED_BEGIN(c, req);
    s->dt = dt;
    s->op = op;
    skiff_build_allreduce(s, sendbuf, recvbuf, count);
    return skiff_sched_run(s, req);
}

int skiff_build_allreduce(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t count)
{
    size_t esize;
    int rc = type_size(s->dt, &esize);
    if (rc)
        return rc;
    if (count * esize >= LARGE_ALLREDUCE && count >= (size_t)s->comm->size && skiff_op_commutative(s->op))
        skiff_allreduce_ring(s, sendbuf, recvbuf, count, esize);
    else
        skiff_allreduce_recursive_doubling(s, sendbuf, recvbuf, count, esize);
    return MPI_SUCCESS;
}

int skiff_coll_gather(const void *sendbuf, size_t bytes, void *recvbuf, int root, struct skiff_comm *c)
{
    SCHED_BEGIN(c, (struct skiff_request **)NULL);
    skiff_gather_binomial(s, sendbuf, bytes, recvbuf, root);
    return skiff_sched_run(s, NULL);
}

int skiff_coll_gatherv(const void *sendbuf, size_t bytes, void *recvbuf, const size_t *counts, const size_t *displs,
                       int root, struct skiff_comm *c)
{
    SCHED_BEGIN(c, (struct skiff_request **)NULL);
    skiff_gatherv_linear(s, sendbuf, bytes, recvbuf, counts, displs, root);
    return skiff_sched_run(s, NULL);
}

int skiff_coll_scatter(const void *sendbuf, size_t bytes, void *recvbuf, int root, struct skiff_comm *c)
{
    SCHED_BEGIN(c, (struct skiff_request **)NULL);
    skiff_scatter_binomial(s, sendbuf, bytes, recvbuf, root);
    return skiff_sched_run(s, NULL);
}

int skiff_coll_scatterv(const void *sendbuf, const size_t *counts, const size_t *displs, void *recvbuf,
                        size_t bytes, int root, struct skiff_comm *c)
{
    SCHED_BEGIN(c, (struct skiff_request **)NULL);
    skiff_scatterv_linear(s, sendbuf, counts, displs, recvbuf, bytes, root);
    return skiff_sched_run(s, NULL);
}

/* Even blocks described as counts/displacements, for the ring that also serves allgatherv; they
 * live as long as the schedule. */
static void even_blocks(struct skiff_sched *s, size_t bytes, size_t **counts, size_t **displs)
{
    int n = s->comm->size;
    *counts = skiff_sched_scratch(s, 2 * (size_t)n * sizeof **counts);
    *displs = *counts + n;
    for (int i = 0; i < n; i++) {
        (*counts)[i] = bytes;
        (*displs)[i] = (size_t)i * bytes;
    }
}

void skiff_build_allgather(struct skiff_sched *s, const void *sendbuf, size_t bytes, void *recvbuf)
{
    int n = s->comm->size, me = s->comm->rank;
    if (sendbuf)
        skiff_sched_copy_first(s, (char *)recvbuf + (size_t)me * bytes, sendbuf, bytes);
    if (bytes * (size_t)n < LARGE_ALLGATHER) {
        if ((n & (n - 1)) == 0)
            skiff_allgather_recursive_doubling(s, recvbuf, bytes);
        else
            skiff_allgather_bruck(s, recvbuf, bytes);
        return;
    }
    size_t *counts, *displs;
    even_blocks(s, bytes, &counts, &displs);
    skiff_allgatherv_ring(s, recvbuf, counts, displs);
}

int skiff_coll_allgather(const void *sendbuf, size_t bytes, void *recvbuf, struct skiff_comm *c)
{
    SCHED_BEGIN(c, (struct skiff_request **)NULL);
    skiff_build_allgather(s, sendbuf, bytes, recvbuf);
    return skiff_sched_run(s, NULL);
}

void skiff_build_allgatherv(struct skiff_sched *s, const void *sendbuf, size_t bytes, void *recvbuf,
                            const size_t *counts, const size_t *displs)
{
    if (sendbuf)
        skiff_sched_copy_first(s, (char *)recvbuf + displs[s->comm->rank], sendbuf, bytes);
    skiff_allgatherv_ring(s, recvbuf, counts, displs);
}

int skiff_coll_allgatherv(const void *sendbuf, size_t bytes, void *recvbuf, const size_t *counts,
                          const size_t *displs, struct skiff_comm *c)
{
    SCHED_BEGIN(c, (struct skiff_request **)NULL);
    skiff_build_allgatherv(s, sendbuf, bytes, recvbuf, counts, displs);
    return skiff_sched_run(s, NULL);
}

void skiff_build_alltoall(struct skiff_sched *s, const void *sendbuf, size_t bytes, void *recvbuf)
{
    int n = s->comm->size;
    if (bytes <= SMALL_ALLTOALL && n > 2 && !skiff.oversubscribed) {
        skiff_alltoall_bruck(s, sendbuf, recvbuf, bytes);
        return;
    }
    size_t *counts, *displs;
    even_blocks(s, bytes, &counts, &displs);
    if (skiff.oversubscribed && bytes <= LINEAR_ALLTOALL_MAX)
        skiff_alltoallv_linear(s, sendbuf, counts, displs, recvbuf, counts, displs);
    else
        skiff_alltoallv_pairwise(s, sendbuf, counts, displs, recvbuf, counts, displs);
}

int skiff_coll_alltoall(const void *sendbuf, size_t bytes, void *recvbuf, struct skiff_comm *c)
{
    SCHED_BEGIN(c, (struct skiff_request **)NULL);
    skiff_build_alltoall(s, sendbuf, bytes, recvbuf);
    return skiff_sched_run(s, NULL);
}

void skiff_build_alltoallv(struct skiff_sched *s, const void *sendbuf, const size_t *scounts, const size_t *sdispls,
                           void *recvbuf, const size_t *rcounts, const size_t *rdispls)
{
    if (skiff.oversubscribed)
        skiff_alltoallv_linear(s, sendbuf, scounts, sdispls, recvbuf, rcounts, rdispls);
    else
        skiff_alltoallv_pairwise(s, sendbuf, scounts, sdispls, recvbuf, rcounts, rdispls);
}

int skiff_coll_alltoallv(const void *sendbuf, const size_t *scounts, const size_t *sdispls, void *recvbuf,
                         const size_t *rcounts, const size_t *rdispls, struct skiff_comm *c)
{
    SCHED_BEGIN(c, (struct skiff_request **)NULL);
    skiff_build_alltoallv(s, sendbuf, scounts, sdispls, recvbuf, rcounts, rdispls);
    return skiff_sched_run(s, NULL);
}

/* Reduce everything to rank 0, then hand each rank its share: simple, order-preserving (so
 * non-commutative ops work), and one schedule. counts: elements per rank. */
int skiff_build_reduce_scatter(struct skiff_sched *s, const void *sendbuf, void *recvbuf, const size_t *counts)
{
    size_t esize, total = 0;
    int rc = type_size(s->dt, &esize);
    if (rc)
        return rc;
    int n = s->comm->size;
    size_t *bcounts = skiff_sched_scratch(s, 2 * (size_t)n * sizeof *bcounts), *bdispls = bcounts + n;
    for (int i = 0; i < n; i++) {
        bcounts[i] = counts[i] * esize;
        bdispls[i] = total * esize;
        total += counts[i];
    }
    char *full = skiff_sched_scratch(s, total * esize);
    /* In place: the input is recvbuf (full length) and the result lands at its start. */
    skiff_reduce_binomial(s, sendbuf ? sendbuf : recvbuf, full, total, esize, 0);
    skiff_scatterv_linear(s, full, bcounts, bdispls, recvbuf, bcounts[s->comm->rank], 0);
    return MPI_SUCCESS;
}

int skiff_coll_reduce_scatter(const void *sendbuf, void *recvbuf, const size_t *counts, MPI_Datatype dt, MPI_Op op,
                              struct skiff_comm *c)
{
    SCHED_BEGIN(c, (struct skiff_request **)NULL);
    s->dt = dt;
    s->op = op;
    int rc = skiff_build_reduce_scatter(s, sendbuf, recvbuf, counts);
    if (rc) {
        skiff_sched_release(s);
        return rc;
    }
    return skiff_sched_run(s, NULL);
}

int skiff_build_scan(struct skiff_sched *s, const void *sendbuf, void *recvbuf, size_t count, int exclusive)
{
    size_t esize;
    int rc = type_size(s->dt, &esize);
    if (!rc)
        skiff_scan_recursive_doubling(s, sendbuf, recvbuf, count, esize, exclusive);
    return rc;
}

int skiff_coll_scan(const void *sendbuf, void *recvbuf, size_t count, MPI_Datatype dt, MPI_Op op, int exclusive,
                    struct skiff_comm *c)
{
    size_t esize;
    int rc = type_size(dt, &esize);
    if (rc)
        return rc;
    SCHED_BEGIN(c, (struct skiff_request **)NULL);
    s->dt = dt;
    s->op = op;
    skiff_scan_recursive_doubling(s, sendbuf, recvbuf, count, esize, exclusive);
    return skiff_sched_run(s, NULL);
}
