/* Persistent collectives (MPI-4): the init call checks its arguments and plans the whole operation
 * once, the algorithm, peers, scratch space and staging of derived datatypes, as a schedule
 * (coll_plan_calls.c) that each MPI_Start replays on the same request (persist.c starts it through the
 * request's start hook). The info argument may be MPI_INFO_NULL or any info object; no hint changes
 * the plan. A replay costs posting the sends and receives and nothing else. On an intercommunicator the
 * call goes to inter_coll.c, whose schedules replay the same way; MPI_Scan_init and MPI_Exscan_init,
 * undefined there, are refused with MPI_ERR_COMM. */
#include <stdlib.h>

#include "coll/sched.h"
#include "mpi/coll_check.h"
#include "mpi/coll_plan.h"
#include "mpi/inter_coll.h"
#include "mpi/mpi_impl.h"

static int coll_start(struct skiff_request *r)
{
    return skiff_sched_start(r->pdata, r);
}

static void coll_destroy(struct skiff_request *r)
{
    skiff_sched_free(r->pdata);
    r->pdata = NULL;
    r->persist = NULL;
}

static const struct skiff_persist_ops coll_ops = {"persistent collective", coll_start, coll_destroy};

int skiff_persist_make(MPI_Comm comm, int rc, struct skiff_sched *s, MPI_Request *request)
{
    struct skiff_request *r = NULL;
    if (!rc && !(r = skiff_req_alloc(SKIFF_REQ_COLL))) {
        skiff_sched_free(s);
        rc = skiff_err(MPI_ERR_NO_MEM, "out of request objects");
    }
    if (rc)
        return skiff_fail(comm, rc);
    skiff_sched_plan(s);
    r->comm = s->comm;
    r->state = SKIFF_RS_IDLE;
    r->persist = &coll_ops;
    r->pdata = s;
    *request = skiff_req_handle(r);
    return MPI_SUCCESS;
}

int skiff_persist_check(MPI_Comm comm, MPI_Info info, const MPI_Request *request)
{
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_check_info(info);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER(MPI_Barrier_init);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_persist_check(comm, info, request);
    if (rc)
        return rc;
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_barrier(comm, SKIFF_PERSISTENT, request);
    rc = skiff_plan_barrier(comm, &s);
    return skiff_persist_make(comm, rc, s, request);
}
SKIFF_ALIAS(MPI_Barrier_init)

/* The body of MPI_Bcast_init and MPI_Bcast_init_c. */
static int bcast_init_call(int large, void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                           MPI_Info info, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Bcast_init, large);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_persist_check(comm, info, request);
    if (rc)
        return rc;
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_bcast(buffer, count, datatype, root, comm, SKIFF_PERSISTENT, request);
    rc = skiff_plan_bcast(buffer, count, datatype, root, comm, &s);
    return skiff_persist_make(comm, rc, s, request);
}

int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                    MPI_Request *request)
{
    return bcast_init_call(0, buffer, count, datatype, root, comm, info, request);
}
SKIFF_ALIAS(MPI_Bcast_init)

int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    return bcast_init_call(1, buffer, count, datatype, root, comm, info, request);
}
SKIFF_ALIAS(MPI_Bcast_init_c)

/* The body of MPI_Reduce_init and MPI_Reduce_init_c. */
static int reduce_init_call(int large, const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Reduce_init, large);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_persist_check(comm, info, request);
    if (rc)
        return rc;
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, SKIFF_PERSISTENT, request);
    rc = skiff_plan_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, &s);
    return skiff_persist_make(comm, rc, s, request);
}

int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduce_init_call(0, sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
}
SKIFF_ALIAS(MPI_Reduce_init)

int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                       int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduce_init_call(1, sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
}
SKIFF_ALIAS(MPI_Reduce_init_c)

/* The body of MPI_Allreduce_init and MPI_Allreduce_init_c. */
static int allreduce_init_call(int large, const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                               MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Allreduce_init, large);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_persist_check(comm, info, request);
    if (rc)
        return rc;
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_allreduce(sendbuf, recvbuf, count, datatype, op, comm, SKIFF_PERSISTENT, request);
    rc = skiff_plan_allreduce(sendbuf, recvbuf, count, datatype, op, comm, &s);
    return skiff_persist_make(comm, rc, s, request);
}

int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return allreduce_init_call(0, sendbuf, recvbuf, count, datatype, op, comm, info, request);
}
SKIFF_ALIAS(MPI_Allreduce_init)

int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return allreduce_init_call(1, sendbuf, recvbuf, count, datatype, op, comm, info, request);
}
SKIFF_ALIAS(MPI_Allreduce_init_c)

/* The body of MPI_Gather_init and MPI_Gather_init_c. */
static int gather_init_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                            MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                            MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Gather_init, large);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_persist_check(comm, info, request);
    if (rc)
        return rc;
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, root,
                                      comm, SKIFF_PERSISTENT, request);
    rc = skiff_plan_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, &s);
    return skiff_persist_make(comm, rc, s, request);
}

int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return gather_init_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info, request);
}
SKIFF_ALIAS(MPI_Gather_init)

int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    return gather_init_call(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info, request);
}
SKIFF_ALIAS(MPI_Gather_init_c)

/* The body of MPI_Gatherv_init (int arrays) and MPI_Gatherv_init_c (large). */
static int gatherv_init_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void *recvbuf, struct skiff_cnts recvcounts, struct skiff_dsps displs,
                             MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Gatherv_init, large);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_persist_check(comm, info, request);
    if (rc)
        return rc;
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_gather(sendbuf, sendcount, sendtype, recvbuf, 0, &recvcounts, &displs, recvtype, root,
                                      comm, SKIFF_PERSISTENT, request);
    rc = skiff_plan_gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, &s);
    return skiff_persist_make(comm, rc, s, request);
}

int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                      const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    return gatherv_init_call(0, sendbuf, sendcount, sendtype, recvbuf, skiff_icnts(recvcounts), skiff_idsps(displs),
                             recvtype, root, comm, info, request);
}
SKIFF_ALIAS(MPI_Gatherv_init)

int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return gatherv_init_call(1, sendbuf, sendcount, sendtype, recvbuf, skiff_lcnts(recvcounts), skiff_ldsps(displs),
                             recvtype, root, comm, info, request);
}
SKIFF_ALIAS(MPI_Gatherv_init_c)

/* The body of MPI_Scatter_init and MPI_Scatter_init_c. */
static int scatter_init_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                             MPI_Info info, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Scatter_init, large);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_persist_check(comm, info, request);
    if (rc)
        return rc;
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_scatter(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, recvtype, root,
                                       comm, SKIFF_PERSISTENT, request);
    rc = skiff_plan_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, &s);
    return skiff_persist_make(comm, rc, s, request);
}

int PMPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return scatter_init_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info,
                             request);
}
SKIFF_ALIAS(MPI_Scatter_init)

int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    return scatter_init_call(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info,
                             request);
}
SKIFF_ALIAS(MPI_Scatter_init_c)

/* The body of MPI_Scatterv_init (int arrays) and MPI_Scatterv_init_c (large). */
static int scatterv_init_call(int large, const void *sendbuf, struct skiff_cnts sendcounts, struct skiff_dsps displs,
                              MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Scatterv_init, large);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_persist_check(comm, info, request);
    if (rc)
        return rc;
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_scatter(sendbuf, 0, &sendcounts, &displs, sendtype, recvbuf, recvcount, recvtype, root,
                                       comm, SKIFF_PERSISTENT, request);
    rc = skiff_plan_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, &s);
    return skiff_persist_make(comm, rc, s, request);
}

int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    return scatterv_init_call(0, sendbuf, skiff_icnts(sendcounts), skiff_idsps(displs), sendtype, recvbuf, recvcount,
                              recvtype, root, comm, info, request);
}
SKIFF_ALIAS(MPI_Scatterv_init)

int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return scatterv_init_call(1, sendbuf, skiff_lcnts(sendcounts), skiff_ldsps(displs), sendtype, recvbuf, recvcount,
                              recvtype, root, comm, info, request);
}
SKIFF_ALIAS(MPI_Scatterv_init_c)

/* The body of MPI_Allgather_init and MPI_Allgather_init_c. */
static int allgather_init_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                               MPI_Info info, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Allgather_init, large);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_persist_check(comm, info, request);
    if (rc)
        return rc;
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, comm,
                                         SKIFF_PERSISTENT, request);
    rc = skiff_plan_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, &s);
    return skiff_persist_make(comm, rc, s, request);
}

int PMPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return allgather_init_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
}
SKIFF_ALIAS(MPI_Allgather_init)

int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    return allgather_init_call(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
}
SKIFF_ALIAS(MPI_Allgather_init_c)

/* The body of MPI_Allgatherv_init (int arrays) and MPI_Allgatherv_init_c (large). */
static int allgatherv_init_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                void *recvbuf, struct skiff_cnts recvcounts, struct skiff_dsps displs,
                                MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Allgatherv_init, large);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_persist_check(comm, info, request);
    if (rc)
        return rc;
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_allgather(sendbuf, sendcount, sendtype, recvbuf, 0, &recvcounts, &displs, recvtype,
                                         comm, SKIFF_PERSISTENT, request);
    rc = skiff_plan_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, &s);
    return skiff_persist_make(comm, rc, s, request);
}

int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request)
{
    return allgatherv_init_call(0, sendbuf, sendcount, sendtype, recvbuf, skiff_icnts(recvcounts),
                                skiff_idsps(displs), recvtype, comm, info, request);
}
SKIFF_ALIAS(MPI_Allgatherv_init)

int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                           MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return allgatherv_init_call(1, sendbuf, sendcount, sendtype, recvbuf, skiff_lcnts(recvcounts),
                                skiff_ldsps(displs), recvtype, comm, info, request);
}
SKIFF_ALIAS(MPI_Allgatherv_init_c)

/* The body of MPI_Alltoall_init and MPI_Alltoall_init_c. */
static int alltoall_init_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                              MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Alltoall_init, large);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_persist_check(comm, info, request);
    if (rc)
        return rc;
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_alltoall(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, NULL, NULL,
                                        recvtype, comm, SKIFF_PERSISTENT, request);
    rc = skiff_plan_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, &s);
    return skiff_persist_make(comm, rc, s, request);
}

int PMPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return alltoall_init_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
}
SKIFF_ALIAS(MPI_Alltoall_init)

int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                         MPI_Request *request)
{
    return alltoall_init_call(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
}
SKIFF_ALIAS(MPI_Alltoall_init_c)

/* The body of MPI_Alltoallv_init (int arrays) and MPI_Alltoallv_init_c (large). */
static int alltoallv_init_call(int large, const void *sendbuf, struct skiff_cnts sendcounts,
                               struct skiff_dsps sdispls, MPI_Datatype sendtype, void *recvbuf,
                               struct skiff_cnts recvcounts, struct skiff_dsps rdispls, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Alltoallv_init, large);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_persist_check(comm, info, request);
    if (rc)
        return rc;
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_alltoall(sendbuf, 0, &sendcounts, &sdispls, sendtype, recvbuf, 0, &recvcounts,
                                        &rdispls, recvtype, comm, SKIFF_PERSISTENT, request);
    rc = skiff_plan_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, &s);
    return skiff_persist_make(comm, rc, s, request);
}

int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                        void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return alltoallv_init_call(0, sendbuf, skiff_icnts(sendcounts), skiff_idsps(sdispls), sendtype, recvbuf,
                               skiff_icnts(recvcounts), skiff_idsps(rdispls), recvtype, comm, info, request);
}
SKIFF_ALIAS(MPI_Alltoallv_init)

int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                          MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                          const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    return alltoallv_init_call(1, sendbuf, skiff_lcnts(sendcounts), skiff_ldsps(sdispls), sendtype, recvbuf,
                               skiff_lcnts(recvcounts), skiff_ldsps(rdispls), recvtype, comm, info, request);
}
SKIFF_ALIAS(MPI_Alltoallv_init_c)

/* The body of MPI_Alltoallw_init (int arrays) and MPI_Alltoallw_init_c (large). */
static int alltoallw_init_call(int large, const void *sendbuf, struct skiff_cnts sendcounts,
                               struct skiff_dsps sdispls, const MPI_Datatype sendtypes[], void *recvbuf,
                               struct skiff_cnts recvcounts, struct skiff_dsps rdispls,
                               const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Alltoallw_init, large);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_persist_check(comm, info, request);
    if (rc)
        return rc;
    rc = skiff_plan_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm,
                              &s);
    return skiff_persist_make(comm, rc, s, request);
}

int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
                        const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return alltoallw_init_call(0, sendbuf, skiff_icnts(sendcounts), skiff_idsps(sdispls), sendtypes, recvbuf,
                               skiff_icnts(recvcounts), skiff_idsps(rdispls), recvtypes, comm, info, request);
}
SKIFF_ALIAS(MPI_Alltoallw_init)

int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                          const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                          const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    return alltoallw_init_call(1, sendbuf, skiff_lcnts(sendcounts), skiff_ldsps(sdispls), sendtypes, recvbuf,
                               skiff_lcnts(recvcounts), skiff_ldsps(rdispls), recvtypes, comm, info, request);
}
SKIFF_ALIAS(MPI_Alltoallw_init_c)

/* The body of MPI_Reduce_scatter_init (icounts) and MPI_Reduce_scatter_init_c (large, lcounts); the schedule
 * keeps its own copy of the counts. */
static int reduce_scatter_init_call(int large, const void *sendbuf, void *recvbuf, const int icounts[],
                                    const MPI_Count lcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                    MPI_Info info, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Reduce_scatter_init, large);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_persist_check(comm, info, request);
    if (rc)
        return rc;
    const MPI_Count *recvcounts = NULL;
    MPI_Count *owned = NULL;
    if ((rc = skiff_lcounts_of(large, comm, icounts, lcounts, &recvcounts, &owned)) ||
        (rc = skiff_check_ptr(recvcounts, "recvcounts"))) /* NULL would read as the _block form */
        return skiff_fail(comm, rc);
    if (skiff_comm_is_inter(comm)) {
        rc = skiff_mpi_inter_reduce_scatter(sendbuf, recvbuf, 0, recvcounts, datatype, op, comm, SKIFF_PERSISTENT,
                                            request);
    } else {
        rc = skiff_plan_reduce_scatter(sendbuf, recvbuf, recvcounts, 0, datatype, op, comm, &s);
        rc = skiff_persist_make(comm, rc, s, request);
    }
    free(owned);
    return rc;
}

int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduce_scatter_init_call(0, sendbuf, recvbuf, recvcounts, NULL, datatype, op, comm, info, request);
}
SKIFF_ALIAS(MPI_Reduce_scatter_init)

int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduce_scatter_init_call(1, sendbuf, recvbuf, NULL, recvcounts, datatype, op, comm, info, request);
}
SKIFF_ALIAS(MPI_Reduce_scatter_init_c)

/* The body of MPI_Reduce_scatter_block_init and MPI_Reduce_scatter_block_init_c. */
static int reduce_scatter_block_init_call(int large, const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                          MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Reduce_scatter_block_init, large);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_persist_check(comm, info, request);
    if (rc)
        return rc;
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_reduce_scatter(sendbuf, recvbuf, recvcount, NULL, datatype, op, comm,
                                              SKIFF_PERSISTENT, request);
    rc = skiff_plan_reduce_scatter(sendbuf, recvbuf, NULL, recvcount, datatype, op, comm, &s);
    return skiff_persist_make(comm, rc, s, request);
}

int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduce_scatter_block_init_call(0, sendbuf, recvbuf, recvcount, datatype, op, comm, info, request);
}
SKIFF_ALIAS(MPI_Reduce_scatter_block_init)

int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduce_scatter_block_init_call(1, sendbuf, recvbuf, recvcount, datatype, op, comm, info, request);
}
SKIFF_ALIAS(MPI_Reduce_scatter_block_init_c)

/* The body of MPI_Scan_init and MPI_Scan_init_c. */
static int scan_init_call(int large, const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Scan_init, large);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_persist_check(comm, info, request);
    if (rc)
        return rc;
    rc = skiff_plan_scan(sendbuf, recvbuf, count, datatype, op, comm, 0, &s);
    return skiff_persist_make(comm, rc, s, request);
}

int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Info info, MPI_Request *request)
{
    return scan_init_call(0, sendbuf, recvbuf, count, datatype, op, comm, info, request);
}
SKIFF_ALIAS(MPI_Scan_init)

int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return scan_init_call(1, sendbuf, recvbuf, count, datatype, op, comm, info, request);
}
SKIFF_ALIAS(MPI_Scan_init_c)

/* The body of MPI_Exscan_init and MPI_Exscan_init_c. */
static int exscan_init_call(int large, const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Exscan_init, large);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_persist_check(comm, info, request);
    if (rc)
        return rc;
    rc = skiff_plan_scan(sendbuf, recvbuf, count, datatype, op, comm, 1, &s);
    return skiff_persist_make(comm, rc, s, request);
}

int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request)
{
    return exscan_init_call(0, sendbuf, recvbuf, count, datatype, op, comm, info, request);
}
SKIFF_ALIAS(MPI_Exscan_init)

int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return exscan_init_call(1, sendbuf, recvbuf, count, datatype, op, comm, info, request);
}
SKIFF_ALIAS(MPI_Exscan_init_c)
