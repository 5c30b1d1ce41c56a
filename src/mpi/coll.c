/* The collective calls: argument checks, MPI_IN_PLACE, counts in bytes; then src/coll does the work. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "core/op.h"
#include "core/progress.h"
#include "mpi/coll_check.h"
#include "mpi/coll_plan.h"
#include "mpi/coll_stage.h"
#include "mpi/inter_coll.h"
#include "mpi/mpi_impl.h"
#include "mpi/red_stage.h"

/* ------------------------------------------------------------------------------------------------ */

int PMPI_Barrier(MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER(MPI_Barrier);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_barrier(comm, SKIFF_BLOCKING, NULL);
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = skiff_coll_barrier(c, NULL);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Barrier)

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    struct skiff_request *r = NULL;
    SKIFF_ENTER(MPI_Ibarrier);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request) /* NULL: refused below */
        return skiff_mpi_inter_barrier(comm, SKIFF_NONBLOCKING, request);
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = skiff_coll_barrier(c, &r);
    if (rc)
        return skiff_fail(comm, rc);
    *request = skiff_req_handle(r);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Ibarrier)

/* A nonblocking broadcast of a non-contiguous type unpacks when it completes. */
static void unpack_on_complete(struct skiff_request *r)
{
    struct skiff_stage *st = r->cookie;
    skiff_stage_done(st, 1);
    free(st);
    r->cookie = NULL;
}

static void free_on_complete(struct skiff_request *r)
{
    struct skiff_stage *st = r->cookie;
    skiff_stage_done(st, 0);
    free(st);
    r->cookie = NULL;
}

static int bcast(void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm, struct skiff_request **r)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    int rc;
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_ck_root(c, root)) ||
        (rc = skiff_check_not_in_place(buf, "buffer")) || (rc = skiff_ck_side(buf, count, dt, "buffer", &t)))
        return skiff_fail(comm, rc);
    struct skiff_stage *st = malloc(sizeof *st);
    if (!st)
        return skiff_fail(comm, skiff_err(MPI_ERR_NO_MEM, "out of memory"));
    rc = c->rank == root ? skiff_stage_send(st, buf, (size_t)count, t)
                         : skiff_stage_recv(st, buf, (size_t)count, t, -1, 0);
    int unpack = c->rank != root;
    /* A nonblocking call's packed copy must outlive it: the request finishes with it. */
    int handed = !rc && r && st->tmp;
    if (!rc)
        rc = skiff_coll_bcast(st->data, skiff_packed(t, count), root, c, r,
                              handed ? &(struct skiff_req_then){unpack ? unpack_on_complete : free_on_complete, st, 0}
                                     : NULL);
    if (handed && !rc)
        return MPI_SUCCESS;
    skiff_stage_done(st, unpack && !rc);
    free(st);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

/* The body of MPI_Bcast and MPI_Bcast_c. */
static int bcast_call(int large, void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    SKIFF_ENTER_TWIN(MPI_Bcast, large);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_ROOT(root);
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_bcast(buffer, count, datatype, root, comm, SKIFF_BLOCKING, NULL);
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return bcast(buffer, count, datatype, root, comm, NULL);
}

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return bcast_call(0, buffer, count, datatype, root, comm);
}
SKIFF_ALIAS(MPI_Bcast)

int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return bcast_call(1, buffer, count, datatype, root, comm);
}
SKIFF_ALIAS(MPI_Bcast_c)

/* The body of MPI_Ibcast and MPI_Ibcast_c. */
static int ibcast_call(int large, void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                       MPI_Request *request)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER_TWIN(MPI_Ibcast, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request) /* NULL: refused below */
        return skiff_mpi_inter_bcast(buffer, count, datatype, root, comm, SKIFF_NONBLOCKING, request);
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    int rc = skiff_ck_request(comm, request);
    if (!rc)
        rc = bcast(buffer, count, datatype, root, comm, &r);
    if (!rc)
        *request = skiff_req_handle(r);
    return rc;
}

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
{
    return ibcast_call(0, buffer, count, datatype, root, comm, request);
}
SKIFF_ALIAS(MPI_Ibcast)

int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
{
    return ibcast_call(1, buffer, count, datatype, root, comm, request);
}
SKIFF_ALIAS(MPI_Ibcast_c)

/* A nonblocking reduction on a non-contiguous datatype runs the schedule the persistent form builds,
 * whose steps stage the data (mpi/red_stage.h); rc: the planner's result. */
static int run_plan(int rc, struct skiff_sched *s, MPI_Comm comm, struct skiff_request **r)
{
    if (!rc)
        rc = skiff_sched_run(s, r);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

static int reduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, int root,
                  MPI_Comm comm,
                  struct skiff_request **r)
{
    struct skiff_rooted x = {0};
    struct skiff_red red;
    int rc = skiff_ck_rooted(comm, root, sendbuf, recvbuf, 0, &x);
    if (!rc)
        rc = skiff_ck_reduction(count, dt, op, &red);
    if (!rc)
        rc = x.is_root ? skiff_ck_red_bufs(sendbuf, recvbuf, (size_t)count, (size_t)count, &red)
                       : skiff_check_named_buf(sendbuf, (size_t)count, red.t, "sendbuf");
    if (rc)
        return skiff_fail(comm, rc);
    struct skiff_sched *s = NULL;
    struct skiff_red_stage st;
    int staged = skiff_red_staged(&red);
    if (staged && r) {
        rc = skiff_plan_reduce(sendbuf, recvbuf, count, dt, op, root, comm, &s);
        return run_plan(rc, s, comm, r);
    }
    if (staged && (rc = skiff_red_stage(&red, &sendbuf, &recvbuf, (size_t)count, x.is_root ? (size_t)count : 0, 0,
                                        &st)))
        return skiff_fail(comm, rc);
    if (x.in_place)
        sendbuf = recvbuf;
    rc = skiff_coll_reduce(skiff_shifted(sendbuf, &red), (void *)skiff_shifted(recvbuf, &red), red.count, red.dt, op,
                           root, x.c, r);
    if (staged)
        skiff_red_unstage(&st, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

/* The body of MPI_Reduce and MPI_Reduce_c. */
static int reduce_call(int large, const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, int root, MPI_Comm comm)
{
    SKIFF_ENTER_TWIN(MPI_Reduce, large);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_ROOT(root);
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, SKIFF_BLOCKING, NULL);
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return reduce(sendbuf, recvbuf, count, datatype, op, root, comm, NULL);
}

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm)
{
    return reduce_call(0, sendbuf, recvbuf, count, datatype, op, root, comm);
}
SKIFF_ALIAS(MPI_Reduce)

int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                  MPI_Comm comm)
{
    return reduce_call(1, sendbuf, recvbuf, count, datatype, op, root, comm);
}
SKIFF_ALIAS(MPI_Reduce_c)

/* The body of MPI_Ireduce and MPI_Ireduce_c. */
static int ireduce_call(int large, const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER_TWIN(MPI_Ireduce, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request) /* NULL: refused below */
        return skiff_mpi_inter_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, SKIFF_NONBLOCKING, request);
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    int rc = skiff_ck_request(comm, request);
    if (!rc)
        rc = reduce(sendbuf, recvbuf, count, datatype, op, root, comm, &r);
    if (!rc)
        *request = skiff_req_handle(r);
    return rc;
}

int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                 MPI_Comm comm, MPI_Request *request)
{
    return ireduce_call(0, sendbuf, recvbuf, count, datatype, op, root, comm, request);
}
SKIFF_ALIAS(MPI_Ireduce)

int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                   MPI_Comm comm, MPI_Request *request)
{
    return ireduce_call(1, sendbuf, recvbuf, count, datatype, op, root, comm, request);
}
SKIFF_ALIAS(MPI_Ireduce_c)

static int allreduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                     struct skiff_request **r)
{
    struct skiff_comm *c = NULL;
    struct skiff_red red;
    int rc = skiff_ck_each_reduces(sendbuf, recvbuf, count, dt, op, comm, &c, &red);
    if (rc)
        return skiff_fail(comm, rc);
    struct skiff_sched *s = NULL;
    struct skiff_red_stage st;
    int staged = skiff_red_staged(&red);
    if (staged && r) {
        rc = skiff_plan_allreduce(sendbuf, recvbuf, count, dt, op, comm, &s);
        return run_plan(rc, s, comm, r);
    }
    if (staged && (rc = skiff_red_stage(&red, &sendbuf, &recvbuf, (size_t)count, (size_t)count, 0, &st)))
        return skiff_fail(comm, rc);
    rc = skiff_coll_allreduce(skiff_red_input(sendbuf, recvbuf, &red), (void *)skiff_shifted(recvbuf, &red),
                              red.count, red.dt, op, c, r);
    if (staged)
        skiff_red_unstage(&st, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

/* The body of MPI_Allreduce and MPI_Allreduce_c. */
static int allreduce_call(int large, const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm)
{
    SKIFF_ENTER_TWIN(MPI_Allreduce, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_allreduce(sendbuf, recvbuf, count, datatype, op, comm, SKIFF_BLOCKING, NULL);
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return allreduce(sendbuf, recvbuf, count, datatype, op, comm, NULL);
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return allreduce_call(0, sendbuf, recvbuf, count, datatype, op, comm);
}
SKIFF_ALIAS(MPI_Allreduce)

int PMPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm)
{
    return allreduce_call(1, sendbuf, recvbuf, count, datatype, op, comm);
}
SKIFF_ALIAS(MPI_Allreduce_c)

/* The body of MPI_Iallreduce and MPI_Iallreduce_c. */
static int iallreduce_call(int large, const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER_TWIN(MPI_Iallreduce, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request) /* NULL: refused below */
        return skiff_mpi_inter_allreduce(sendbuf, recvbuf, count, datatype, op, comm, SKIFF_NONBLOCKING, request);
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    int rc = skiff_ck_request(comm, request);
    if (!rc)
        rc = allreduce(sendbuf, recvbuf, count, datatype, op, comm, &r);
    if (!rc)
        *request = skiff_req_handle(r);
    return rc;
}

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Request *request)
{
    return iallreduce_call(0, sendbuf, recvbuf, count, datatype, op, comm, request);
}
SKIFF_ALIAS(MPI_Iallreduce)

int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                      MPI_Comm comm, MPI_Request *request)
{
    return iallreduce_call(1, sendbuf, recvbuf, count, datatype, op, comm, request);
}
SKIFF_ALIAS(MPI_Iallreduce_c)

/* The body of MPI_Gather and MPI_Gather_c. */
static int gather_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct skiff_rooted x = {0};
    struct skiff_side own = {sendbuf, sendcount, sendtype, NULL}, all = {recvbuf, recvcount, recvtype, NULL};
    struct skiff_stage in = {0}, out = {0};
    SKIFF_ENTER_TWIN(MPI_Gather, large);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_ROOT(root);
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, root,
                                      comm, SKIFF_BLOCKING, NULL);
    SKIFF_PROFILE_MSG(skiff_prof_block(sendbuf, sendcount, sendtype, recvcount, recvtype));
    int rc = skiff_ck_rooted_blocks(&own, &all, NULL, root, comm, 0, &x);
    if (!rc && !x.in_place)
        rc = skiff_stage_send(&in, sendbuf, (size_t)sendcount, own.t);
    if (!rc && x.is_root)
        rc = skiff_stage_recv(&out, recvbuf, (size_t)recvcount * (size_t)x.c->size, all.t, x.in_place ? root : -1,
                              (size_t)recvcount);
    if (!rc)
        rc = skiff_coll_gather(x.in_place ? NULL : in.data,
                               x.is_root ? skiff_packed(all.t, recvcount) : skiff_packed(own.t, sendcount), out.data,
                               root, x.c);
    skiff_stage_done(&in, 0);
    skiff_stage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gather_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}
SKIFF_ALIAS(MPI_Gather)

int PMPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gather_call(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}
SKIFF_ALIAS(MPI_Gather_c)

/* The body of MPI_Gatherv (int arrays) and MPI_Gatherv_c (large: MPI_Count counts, MPI_Aint displacements). */
static int gatherv_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        struct skiff_cnts recvcounts, struct skiff_dsps displs, MPI_Datatype recvtype, int root,
                        MPI_Comm comm)
{
    struct skiff_rooted x = {0};
    struct skiff_side own = {sendbuf, sendcount, sendtype, NULL}, all = {recvbuf, 0, recvtype, NULL};
    struct skiff_vside v = {recvbuf, recvcounts, displs, recvtype, NULL, 0};
    struct skiff_stage in = {0};
    struct skiff_vstage out = {0};
    SKIFF_ENTER_TWIN(MPI_Gatherv, large);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_ROOT(root);
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_gather(sendbuf, sendcount, sendtype, recvbuf, 0, &recvcounts, &displs, recvtype, root,
                                      comm, SKIFF_BLOCKING, NULL);
    SKIFF_PROFILE_MSG(sendbuf == MPI_IN_PLACE ? skiff_prof_own_cnt(recvcounts, recvtype, comm)
                      : skiff_prof_bytes(sendcount, sendtype));
    int rc = skiff_ck_rooted_blocks(&own, &all, &v, root, comm, 0, &x);
    if (!rc && x.is_root)
        rc = skiff_vstage_init(&out, recvbuf, recvcounts, displs, x.c->size, all.t, x.in_place ? 2 : 0, root);
    if (!rc && !x.in_place)
        rc = skiff_stage_send(&in, sendbuf, (size_t)sendcount, own.t);
    if (!rc)
        rc = skiff_coll_gatherv(x.in_place ? NULL : in.data, x.in_place ? 0 : skiff_packed(own.t, sendcount), out.data,
                                out.bc, out.bd, root, x.c);
    skiff_stage_done(&in, 0);
    skiff_vstage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gatherv_call(0, sendbuf, sendcount, sendtype, recvbuf, skiff_icnts(recvcounts), skiff_idsps(displs),
                        recvtype, root, comm);
}
SKIFF_ALIAS(MPI_Gatherv)

int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                   MPI_Comm comm)
{
    return gatherv_call(1, sendbuf, sendcount, sendtype, recvbuf, skiff_lcnts(recvcounts), skiff_ldsps(displs),
                        recvtype, root, comm);
}
SKIFF_ALIAS(MPI_Gatherv_c)

/* The body of MPI_Scatter and MPI_Scatter_c. */
static int scatter_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct skiff_rooted x = {0};
    struct skiff_side own = {recvbuf, recvcount, recvtype, NULL}, all = {sendbuf, sendcount, sendtype, NULL};
    struct skiff_stage in = {0}, out = {0};
    SKIFF_ENTER_TWIN(MPI_Scatter, large);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_ROOT(root);
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_scatter(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, recvtype, root,
                                       comm, SKIFF_BLOCKING, NULL);
    SKIFF_PROFILE_MSG(skiff_prof_block(recvbuf, recvcount, recvtype, sendcount, sendtype));
    int rc = skiff_ck_rooted_blocks(&own, &all, NULL, root, comm, 1, &x);
    if (!rc && x.is_root)
        rc = skiff_stage_send(&in, sendbuf, (size_t)sendcount * (size_t)x.c->size, all.t);
    if (!rc && !x.in_place)
        rc = skiff_stage_recv(&out, recvbuf, (size_t)recvcount, own.t, -1, 0);
    if (!rc)
        rc = skiff_coll_scatter(in.data, x.is_root ? skiff_packed(all.t, sendcount) : skiff_packed(own.t, recvcount),
                                x.in_place ? NULL : out.data, root, x.c);
    skiff_stage_done(&in, 0);
    skiff_stage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return scatter_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}
SKIFF_ALIAS(MPI_Scatter)

int PMPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return scatter_call(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}
SKIFF_ALIAS(MPI_Scatter_c)

/* The body of MPI_Scatterv (int arrays) and MPI_Scatterv_c (large: MPI_Count counts, MPI_Aint displacements). */
static int scatterv_call(int large, const void *sendbuf, struct skiff_cnts sendcounts, struct skiff_dsps displs,
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                         MPI_Comm comm)
{
    struct skiff_rooted x = {0};
    struct skiff_side own = {recvbuf, recvcount, recvtype, NULL}, all = {sendbuf, 0, sendtype, NULL};
    struct skiff_vside v = {sendbuf, sendcounts, displs, sendtype, NULL, 0};
    struct skiff_vstage in = {0};
    struct skiff_stage out = {0};
    SKIFF_ENTER_TWIN(MPI_Scatterv, large);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_ROOT(root);
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_scatter(sendbuf, 0, &sendcounts, &displs, sendtype, recvbuf, recvcount, recvtype, root,
                                       comm, SKIFF_BLOCKING, NULL);
    SKIFF_PROFILE_MSG(recvbuf == MPI_IN_PLACE ? skiff_prof_own_cnt(sendcounts, sendtype, comm)
                      : skiff_prof_bytes(recvcount, recvtype));
    int rc = skiff_ck_rooted_blocks(&own, &all, &v, root, comm, 1, &x);
    if (!rc && x.is_root)
        rc = skiff_vstage_init(&in, sendbuf, sendcounts, displs, x.c->size, all.t, 1, -1);
    if (!rc && !x.in_place)
        rc = skiff_stage_recv(&out, recvbuf, (size_t)recvcount, own.t, -1, 0);
    if (!rc)
        rc = skiff_coll_scatterv(in.data, in.bc, in.bd, x.in_place ? NULL : out.data,
                                 x.in_place ? 0 : skiff_packed(own.t, recvcount), root, x.c);
    skiff_vstage_done(&in, 0);
    skiff_stage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return scatterv_call(0, sendbuf, skiff_icnts(sendcounts), skiff_idsps(displs), sendtype, recvbuf, recvcount,
                         recvtype, root, comm);
}
SKIFF_ALIAS(MPI_Scatterv)

int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                    MPI_Comm comm)
{
    return scatterv_call(1, sendbuf, skiff_lcnts(sendcounts), skiff_ldsps(displs), sendtype, recvbuf, recvcount,
                         recvtype, root, comm);
}
SKIFF_ALIAS(MPI_Scatterv_c)

/* The body of MPI_Allgather and MPI_Allgather_c. */
static int allgather_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    struct skiff_side s = {sendbuf, sendcount, sendtype, NULL}, r = {recvbuf, recvcount, recvtype, NULL};
    struct skiff_stage in = {0}, out = {0};
    SKIFF_ENTER_TWIN(MPI_Allgather, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, comm,
                                         SKIFF_BLOCKING, NULL);
    SKIFF_PROFILE_MSG(skiff_prof_block(sendbuf, sendcount, sendtype, recvcount, recvtype));
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = skiff_ck_all_blocks(&s, &r, comm, &c);
    if (!rc && !in_place)
        rc = skiff_stage_send(&in, sendbuf, (size_t)sendcount, s.t);
    if (!rc)
        rc = skiff_stage_recv(&out, recvbuf, (size_t)recvcount * (size_t)c->size, r.t, in_place ? c->rank : -1,
                              (size_t)recvcount);
    if (!rc)
        rc = skiff_coll_allgather(in_place ? NULL : in.data, skiff_packed(r.t, recvcount), out.data, c);
    skiff_stage_done(&in, 0);
    skiff_stage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgather_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
SKIFF_ALIAS(MPI_Allgather)

int PMPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgather_call(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
SKIFF_ALIAS(MPI_Allgather_c)

/* The body of MPI_Allgatherv (int arrays) and MPI_Allgatherv_c (large: MPI_Count counts, MPI_Aint
 * displacements). */
static int allgatherv_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           struct skiff_cnts recvcounts, struct skiff_dsps displs, MPI_Datatype recvtype,
                           MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    struct skiff_side s = {sendbuf, sendcount, sendtype, NULL};
    struct skiff_vside r = {recvbuf, recvcounts, displs, recvtype, NULL, 0};
    struct skiff_stage in = {0};
    struct skiff_vstage out = {0};
    SKIFF_ENTER_TWIN(MPI_Allgatherv, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_allgather(sendbuf, sendcount, sendtype, recvbuf, 0, &recvcounts, &displs, recvtype,
                                         comm, SKIFF_BLOCKING, NULL);
    SKIFF_PROFILE_MSG(sendbuf == MPI_IN_PLACE ? skiff_prof_own_cnt(recvcounts, recvtype, comm)
                      : skiff_prof_bytes(sendcount, sendtype));
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = skiff_ck_allgatherv(&s, &r, comm, &c);
    if (!rc)
        rc = skiff_vstage_init(&out, recvbuf, recvcounts, displs, c->size, r.t, in_place ? 2 : 0, c->rank);
    if (!rc && !in_place)
        rc = skiff_stage_send(&in, sendbuf, (size_t)sendcount, s.t);
    if (!rc)
        rc = skiff_coll_allgatherv(in_place ? NULL : in.data, out.bc[c->rank], out.data, out.bc, out.bd, c);
    skiff_stage_done(&in, 0);
    skiff_vstage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgatherv_call(0, sendbuf, sendcount, sendtype, recvbuf, skiff_icnts(recvcounts), skiff_idsps(displs),
                           recvtype, comm);
}
SKIFF_ALIAS(MPI_Allgatherv)

int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgatherv_call(1, sendbuf, sendcount, sendtype, recvbuf, skiff_lcnts(recvcounts), skiff_ldsps(displs),
                           recvtype, comm);
}
SKIFF_ALIAS(MPI_Allgatherv_c)

/* The body of MPI_Alltoall and MPI_Alltoall_c. */
static int alltoall_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    struct skiff_side s = {sendbuf, sendcount, sendtype, NULL}, r = {recvbuf, recvcount, recvtype, NULL};
    struct skiff_stage in = {0}, out = {0};
    void *copy = NULL;
    SKIFF_ENTER_TWIN(MPI_Alltoall, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_alltoall(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, NULL, NULL,
                                        recvtype, comm,
                                         SKIFF_BLOCKING, NULL);
    SKIFF_PROFILE_MSG(skiff_prof_block(sendbuf, sendcount, sendtype, recvcount, recvtype));
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = skiff_ck_all_blocks(&s, &r, comm, &c);
    if (rc)
        return skiff_fail(comm, rc);
    size_t n = (size_t)c->size, all = skiff_packed(r.t, recvcount) * n;
    rc = in_place ? skiff_stage_send(&in, recvbuf, (size_t)recvcount * n, r.t)
                  : skiff_stage_send(&in, sendbuf, (size_t)sendcount * n, s.t);
    if (!rc && in_place && !in.tmp) { /* every block is both sent and overwritten: send from a copy */
        if (!(copy = malloc(all + 1)))
            rc = skiff_err(MPI_ERR_NO_MEM, "cannot copy %zu bytes for an in-place alltoall", all);
        else
            in.data = memcpy(copy, in.data, all);
    }
    if (!rc)
        rc = skiff_stage_recv(&out, recvbuf, (size_t)recvcount * n, r.t, -1, 0);
    if (!rc)
        rc = skiff_coll_alltoall(in.data, skiff_packed(r.t, recvcount), out.data, c);
    free(copy);
    skiff_stage_done(&in, 0);
    skiff_stage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
SKIFF_ALIAS(MPI_Alltoall)

int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall_call(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
SKIFF_ALIAS(MPI_Alltoall_c)

/* In place and contiguous: every block is both sent and overwritten, so send from a copy of the span. */
static int copy_span(struct skiff_vstage *in, int n, void **copy)
{
    size_t end = 0;
    for (int i = 0; i < n; i++)
        end = in->bd[i] + in->bc[i] > end ? in->bd[i] + in->bc[i] : end;
    if (!(*copy = malloc(end + 1)))
        return skiff_err(MPI_ERR_NO_MEM, "cannot copy %zu bytes for an in-place alltoallv", end);
    in->data = memcpy(*copy, in->data, end);
    return MPI_SUCCESS;
}

/* The body of MPI_Alltoallv (int arrays) and MPI_Alltoallv_c (large: MPI_Count counts, MPI_Aint
 * displacements). */
static int alltoallv_call(int large, const void *sendbuf, struct skiff_cnts sendcounts, struct skiff_dsps sdispls,
                          MPI_Datatype sendtype, void *recvbuf, struct skiff_cnts recvcounts,
                          struct skiff_dsps rdispls, MPI_Datatype recvtype, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    struct skiff_vside s = {sendbuf, sendcounts, sdispls, sendtype, NULL, 0};
    struct skiff_vside r = {recvbuf, recvcounts, rdispls, recvtype, NULL, 0};
    struct skiff_vstage in = {0}, out = {0};
    void *copy = NULL;
    SKIFF_ENTER_TWIN(MPI_Alltoallv, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_alltoall(sendbuf, 0, &sendcounts, &sdispls, sendtype, recvbuf, 0, &recvcounts,
                                        &rdispls, recvtype, comm,
                                         SKIFF_BLOCKING, NULL);
    SKIFF_PROFILE_MSG(sendbuf == MPI_IN_PLACE ? skiff_prof_cnts(recvcounts, recvtype, comm)
                      : skiff_prof_cnts(sendcounts, sendtype, comm));
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = skiff_ck_alltoallv(&s, &r, comm, &c);
    if (rc)
        return skiff_fail(comm, rc);
    rc = in_place ? skiff_vstage_init(&in, recvbuf, recvcounts, rdispls, c->size, r.t, 1, -1)
                  : skiff_vstage_init(&in, sendbuf, sendcounts, sdispls, c->size, s.t, 1, -1);
    if (!rc)
        rc = skiff_vstage_init(&out, recvbuf, recvcounts, rdispls, c->size, r.t, 0, -1);
    if (!rc && in_place && !in.tmp)
        rc = copy_span(&in, c->size, &copy);
    if (!rc)
        rc = skiff_coll_alltoallv(in.data, in.bc, in.bd, out.data, out.bc, out.bd, c);
    free(copy);
    skiff_vstage_done(&in, 0);
    skiff_vstage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoallv_call(0, sendbuf, skiff_icnts(sendcounts), skiff_idsps(sdispls), sendtype, recvbuf,
                          skiff_icnts(recvcounts), skiff_idsps(rdispls), recvtype, comm);
}
SKIFF_ALIAS(MPI_Alltoallv)

int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                     MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoallv_call(1, sendbuf, skiff_lcnts(sendcounts), skiff_ldsps(sdispls), sendtype, recvbuf,
                          skiff_lcnts(recvcounts), skiff_ldsps(rdispls), recvtype, comm);
}
SKIFF_ALIAS(MPI_Alltoallv_c)

static int reduce_scatter(const void *sendbuf, void *recvbuf, const MPI_Count counts[], MPI_Count block,
                          MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    struct skiff_red red;
    size_t *sc = NULL;
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = skiff_ck_reduce_scatter(sendbuf, recvbuf, counts, block, dt, op, c, &red);
    if (!rc && (sc = malloc((size_t)c->size * sizeof *sc)) == NULL)
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory for %d counts", c->size);
    size_t total = 0, mine = rc ? 0 : (size_t)(counts ? counts[c->rank] : block);
    for (int i = 0; !rc && i < c->size; i++) {
        total += (size_t)(counts ? counts[i] : block);
        sc[i] = (size_t)(counts ? counts[i] : block) * red.scale;
    }
    struct skiff_red_stage st = {0};
    if (!rc && skiff_red_staged(&red))
        rc = skiff_red_stage(&red, &sendbuf, &recvbuf, total, mine, 0, &st);
    if (!rc)
        rc = skiff_coll_reduce_scatter(sendbuf == MPI_IN_PLACE ? NULL : skiff_shifted(sendbuf, &red),
                                       (void *)skiff_shifted(recvbuf, &red), sc, red.dt, op, c);
    if (st.mem)
        skiff_red_unstage(&st, !rc);
    free(sc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

/* The counts of the comm's ranks: an int call's widened (*owned, freed by the caller), a _c call's (large)
 * as given. */
int skiff_lcounts_of(int large, MPI_Comm comm, const int *icounts, const MPI_Count *lcounts, const MPI_Count **out,
                     MPI_Count **owned)
{
    const struct skiff_comm *c = skiff_comm_get(comm);
    *owned = NULL;
    *out = lcounts;
    if (large)
        return MPI_SUCCESS;
    int rc = skiff_widen_counts(icounts, c ? c->size : 0, owned);
    *out = *owned;
    return rc;
}

/* The body of MPI_Reduce_scatter (icounts) and MPI_Reduce_scatter_c (large, lcounts). */
static int reduce_scatter_call(int large, const void *sendbuf, void *recvbuf, const int icounts[],
                               const MPI_Count lcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    SKIFF_ENTER_TWIN(MPI_Reduce_scatter, large);
    SKIFF_REQUIRE_INIT();
    const MPI_Count *recvcounts = NULL;
    MPI_Count *owned = NULL;
    int rc = skiff_lcounts_of(large, comm, icounts, lcounts, &recvcounts, &owned);
    if (rc)
        return skiff_fail(comm, rc);
    if (skiff_comm_is_inter(comm))
        rc = skiff_mpi_inter_reduce_scatter(sendbuf, recvbuf, 0, recvcounts, datatype, op, comm, SKIFF_BLOCKING, NULL);
    else if ((rc = skiff_check_ptr(recvcounts, "recvcounts")))
        rc = skiff_fail(comm, rc);
    else {
        SKIFF_PROFILE_MSG(skiff_prof_vbytes_c(recvcounts, datatype, comm));
        rc = reduce_scatter(sendbuf, recvbuf, recvcounts, 0, datatype, op, comm);
    }
    free(owned);
    return rc;
}

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm)
{
    return reduce_scatter_call(0, sendbuf, recvbuf, recvcounts, NULL, datatype, op, comm);
}
SKIFF_ALIAS(MPI_Reduce_scatter)

int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm)
{
    return reduce_scatter_call(1, sendbuf, recvbuf, NULL, recvcounts, datatype, op, comm);
}
SKIFF_ALIAS(MPI_Reduce_scatter_c)

/* The body of MPI_Reduce_scatter_block and MPI_Reduce_scatter_block_c. */
static int reduce_scatter_block_call(int large, const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    SKIFF_ENTER_TWIN(MPI_Reduce_scatter_block, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_reduce_scatter(sendbuf, recvbuf, recvcount, NULL, datatype, op, comm, SKIFF_BLOCKING,
                                              NULL);
    SKIFF_PROFILE_MSG(skiff_prof_bytes(recvcount, datatype));
    return reduce_scatter(sendbuf, recvbuf, NULL, recvcount, datatype, op, comm);
}

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm)
{
    return reduce_scatter_block_call(0, sendbuf, recvbuf, recvcount, datatype, op, comm);
}
SKIFF_ALIAS(MPI_Reduce_scatter_block)

int PMPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                MPI_Op op, MPI_Comm comm)
{
    return reduce_scatter_block_call(1, sendbuf, recvbuf, recvcount, datatype, op, comm);
}
SKIFF_ALIAS(MPI_Reduce_scatter_block_c)

static int scan(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                int excl)
{
    struct skiff_comm *c = NULL;
    struct skiff_red red;
    int rc = skiff_ck_each_reduces(sendbuf, recvbuf, count, dt, op, comm, &c, &red);
    if (rc)
        return skiff_fail(comm, rc);
    struct skiff_red_stage st;
    int staged = skiff_red_staged(&red);
    /* Exscan leaves rank 0's recvbuf as it was: staged, it must be scattered back as it was */
    if (staged && (rc = skiff_red_stage(&red, &sendbuf, &recvbuf, (size_t)count, (size_t)count, excl, &st)))
        return skiff_fail(comm, rc);
    rc = skiff_coll_scan(skiff_red_input(sendbuf, recvbuf, &red), (void *)skiff_shifted(recvbuf, &red), red.count,
                         red.dt, op, excl, c);
    if (staged)
        skiff_red_unstage(&st, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

/* The body of MPI_Scan and MPI_Scan_c. */
static int scan_call(int large, const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm)
{
    SKIFF_ENTER_TWIN(MPI_Scan, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_refuse(comm);
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return scan(sendbuf, recvbuf, count, datatype, op, comm, 0);
}

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return scan_call(0, sendbuf, recvbuf, count, datatype, op, comm);
}
SKIFF_ALIAS(MPI_Scan)

int PMPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return scan_call(1, sendbuf, recvbuf, count, datatype, op, comm);
}
SKIFF_ALIAS(MPI_Scan_c)

/* The body of MPI_Exscan and MPI_Exscan_c. */
static int exscan_call(int large, const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm)
{
    SKIFF_ENTER_TWIN(MPI_Exscan, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_refuse(comm);
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return scan(sendbuf, recvbuf, count, datatype, op, comm, 1);
}

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return exscan_call(0, sendbuf, recvbuf, count, datatype, op, comm);
}
SKIFF_ALIAS(MPI_Exscan)

int PMPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm)
{
    return exscan_call(1, sendbuf, recvbuf, count, datatype, op, comm);
}
SKIFF_ALIAS(MPI_Exscan_c)

/* The body of MPI_Reduce_local and MPI_Reduce_local_c. */
static int reduce_local_call(int large, const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Op op)
{
    struct skiff_red red;
    SKIFF_ENTER_TWIN(MPI_Reduce_local, large);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_ck_reduction(count, datatype, op, &red);
    if (!rc)
        rc = skiff_check_not_in_place(inbuf, "inbuf");
    if (!rc)
        rc = skiff_check_not_in_place(inoutbuf, "inoutbuf");
    if (!rc)
        rc = skiff_check_named_buf(inbuf, (size_t)count, red.t, "inbuf");
    if (!rc)
        rc = skiff_check_named_buf(inoutbuf, (size_t)count, red.t, "inoutbuf");
    if (!rc)
        rc = skiff_ck_alias(inbuf, inoutbuf, count > 0, "inbuf and inoutbuf", "MPI_Reduce_local has no in-place form");
    struct skiff_red_stage st;
    int staged = !rc && skiff_red_staged(&red);
    if (staged)
        rc = skiff_red_stage(&red, &inbuf, &inoutbuf, (size_t)count, (size_t)count, 1, &st);
    if (rc)
        return skiff_fail_world(rc);
    skiff_op_apply(op, skiff_shifted(inbuf, &red), (void *)skiff_shifted(inoutbuf, &red), red.count, red.dt);
    if (staged)
        skiff_red_unstage(&st, 1);
    return MPI_SUCCESS;
}

int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op)
{
    return reduce_local_call(0, inbuf, inoutbuf, count, datatype, op);
}
SKIFF_ALIAS(MPI_Reduce_local)

int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op)
{
    return reduce_local_call(1, inbuf, inoutbuf, count, datatype, op);
}
SKIFF_ALIAS(MPI_Reduce_local_c)
