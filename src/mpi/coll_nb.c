/* The nonblocking collectives beyond MPI_Ibarrier, Ibcast, Ireduce and Iallreduce (coll.c): each checks
 * its arguments as its blocking form does, writes the whole operation into a schedule
 * (coll_plan_calls.c) and hands it to the progress engine. Any number may be outstanding, on one
 * communicator or several, and complete in any order: each has its own tag. */
#include <stdlib.h>

#include "coll/sched.h"
#include "mpi/coll_check.h"
#include "mpi/coll_plan.h"
#include "mpi/inter_coll.h"
#include "mpi/mpi_impl.h"

int skiff_nb_start(MPI_Comm comm, int rc, struct skiff_sched *s, MPI_Request *request)
{
    struct skiff_request *r = NULL;
    if (!rc)
        rc = skiff_sched_run(s, &r);
    if (rc)
        return skiff_fail(comm, rc);
    *request = skiff_req_handle(r);
    return MPI_SUCCESS;
}

/* The body of MPI_Iallgather and MPI_Iallgather_c. */
static int iallgather_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Iallgather, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request)
        return skiff_mpi_inter_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype,
                                         comm, SKIFF_NONBLOCKING, request);
    SKIFF_PROFILE_MSG(skiff_prof_block(sendbuf, sendcount, sendtype, recvcount, recvtype));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, &s);
    return skiff_nb_start(comm, rc, s, request);
}

int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return iallgather_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}
SKIFF_ALIAS(MPI_Iallgather)

int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return iallgather_call(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}
SKIFF_ALIAS(MPI_Iallgather_c)

/* The body of MPI_Iallgatherv (int arrays) and MPI_Iallgatherv_c (large). */
static int iallgatherv_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                            void *recvbuf, struct skiff_cnts recvcounts, struct skiff_dsps displs,
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Iallgatherv, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request)
        return skiff_mpi_inter_allgather(sendbuf, sendcount, sendtype, recvbuf, 0, &recvcounts, &displs, recvtype,
                                         comm, SKIFF_NONBLOCKING, request);
    SKIFF_PROFILE_MSG(sendbuf == MPI_IN_PLACE ? skiff_prof_own_cnt(recvcounts, recvtype, comm)
                      : skiff_prof_bytes(sendcount, sendtype));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, &s);
    return skiff_nb_start(comm, rc, s, request);
}

int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                     const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return iallgatherv_call(0, sendbuf, sendcount, sendtype, recvbuf, skiff_icnts(recvcounts), skiff_idsps(displs),
                            recvtype, comm, request);
}
SKIFF_ALIAS(MPI_Iallgatherv)

int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                       MPI_Request *request)
{
    return iallgatherv_call(1, sendbuf, sendcount, sendtype, recvbuf, skiff_lcnts(recvcounts), skiff_ldsps(displs),
                            recvtype, comm, request);
}
SKIFF_ALIAS(MPI_Iallgatherv_c)

/* The body of MPI_Ialltoall and MPI_Ialltoall_c. */
static int ialltoall_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Ialltoall, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request)
        return skiff_mpi_inter_alltoall(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, NULL, NULL,
                                        recvtype, comm, SKIFF_NONBLOCKING, request);
    SKIFF_PROFILE_MSG(skiff_prof_block(sendbuf, sendcount, sendtype, recvcount, recvtype));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, &s);
    return skiff_nb_start(comm, rc, s, request);
}

int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return ialltoall_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}
SKIFF_ALIAS(MPI_Ialltoall)

int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return ialltoall_call(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}
SKIFF_ALIAS(MPI_Ialltoall_c)

/* The body of MPI_Ialltoallv (int arrays) and MPI_Ialltoallv_c (large). */
static int ialltoallv_call(int large, const void *sendbuf, struct skiff_cnts sendcounts, struct skiff_dsps sdispls,
                           MPI_Datatype sendtype, void *recvbuf, struct skiff_cnts recvcounts,
                           struct skiff_dsps rdispls, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Ialltoallv, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request)
        return skiff_mpi_inter_alltoall(sendbuf, 0, &sendcounts, &sdispls, sendtype, recvbuf, 0, &recvcounts,
                                        &rdispls, recvtype, comm, SKIFF_NONBLOCKING, request);
    SKIFF_PROFILE_MSG(sendbuf == MPI_IN_PLACE ? skiff_prof_cnts(recvcounts, recvtype, comm)
                      : skiff_prof_cnts(sendcounts, sendtype, comm));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, &s);
    return skiff_nb_start(comm, rc, s, request);
}

int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                    void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request)
{
    return ialltoallv_call(0, sendbuf, skiff_icnts(sendcounts), skiff_idsps(sdispls), sendtype, recvbuf,
                           skiff_icnts(recvcounts), skiff_idsps(rdispls), recvtype, comm, request);
}
SKIFF_ALIAS(MPI_Ialltoallv)

int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return ialltoallv_call(1, sendbuf, skiff_lcnts(sendcounts), skiff_ldsps(sdispls), sendtype, recvbuf,
                           skiff_lcnts(recvcounts), skiff_ldsps(rdispls), recvtype, comm, request);
}
SKIFF_ALIAS(MPI_Ialltoallv_c)

/* The body of MPI_Igather and MPI_Igather_c. */
static int igather_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Igather, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request)
        return skiff_mpi_inter_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, root,
                                      comm, SKIFF_NONBLOCKING, request);
    SKIFF_PROFILE_MSG(skiff_prof_block(sendbuf, sendcount, sendtype, recvcount, recvtype));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, &s);
    return skiff_nb_start(comm, rc, s, request);
}

int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return igather_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}
SKIFF_ALIAS(MPI_Igather)

int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return igather_call(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}
SKIFF_ALIAS(MPI_Igather_c)

/* The body of MPI_Igatherv (int arrays) and MPI_Igatherv_c (large). */
static int igatherv_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                         struct skiff_cnts recvcounts, struct skiff_dsps displs, MPI_Datatype recvtype, int root,
                         MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Igatherv, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request)
        return skiff_mpi_inter_gather(sendbuf, sendcount, sendtype, recvbuf, 0, &recvcounts, &displs, recvtype, root,
                                      comm, SKIFF_NONBLOCKING, request);
    SKIFF_PROFILE_MSG(sendbuf == MPI_IN_PLACE ? skiff_prof_own_cnt(recvcounts, recvtype, comm)
                      : skiff_prof_bytes(sendcount, sendtype));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, &s);
    return skiff_nb_start(comm, rc, s, request);
}

int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                  const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return igatherv_call(0, sendbuf, sendcount, sendtype, recvbuf, skiff_icnts(recvcounts), skiff_idsps(displs),
                         recvtype, root, comm, request);
}
SKIFF_ALIAS(MPI_Igatherv)

int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                    MPI_Comm comm, MPI_Request *request)
{
    return igatherv_call(1, sendbuf, sendcount, sendtype, recvbuf, skiff_lcnts(recvcounts), skiff_ldsps(displs),
                         recvtype, root, comm, request);
}
SKIFF_ALIAS(MPI_Igatherv_c)

/* The body of MPI_Iscatter and MPI_Iscatter_c. */
static int iscatter_call(int large, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Iscatter, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request)
        return skiff_mpi_inter_scatter(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, recvtype, root,
                                       comm, SKIFF_NONBLOCKING, request);
    SKIFF_PROFILE_MSG(skiff_prof_block(recvbuf, recvcount, recvtype, sendcount, sendtype));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, &s);
    return skiff_nb_start(comm, rc, s, request);
}

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return iscatter_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}
SKIFF_ALIAS(MPI_Iscatter)

int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return iscatter_call(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}
SKIFF_ALIAS(MPI_Iscatter_c)

/* The body of MPI_Iscatterv (int arrays) and MPI_Iscatterv_c (large). */
static int iscatterv_call(int large, const void *sendbuf, struct skiff_cnts sendcounts, struct skiff_dsps displs,
                          MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                          MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Iscatterv, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request)
        return skiff_mpi_inter_scatter(sendbuf, 0, &sendcounts, &displs, sendtype, recvbuf, recvcount, recvtype, root,
                                       comm, SKIFF_NONBLOCKING, request);
    SKIFF_PROFILE_MSG(recvbuf == MPI_IN_PLACE ? skiff_prof_own_cnt(sendcounts, sendtype, comm)
                      : skiff_prof_bytes(recvcount, recvtype));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, &s);
    return skiff_nb_start(comm, rc, s, request);
}

int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return iscatterv_call(0, sendbuf, skiff_icnts(sendcounts), skiff_idsps(displs), sendtype, recvbuf, recvcount,
                          recvtype, root, comm, request);
}
SKIFF_ALIAS(MPI_Iscatterv)

int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                     MPI_Comm comm, MPI_Request *request)
{
    return iscatterv_call(1, sendbuf, skiff_lcnts(sendcounts), skiff_ldsps(displs), sendtype, recvbuf, recvcount,
                          recvtype, root, comm, request);
}
SKIFF_ALIAS(MPI_Iscatterv_c)

/* The body of MPI_Ireduce_scatter (icounts) and MPI_Ireduce_scatter_c (large, lcounts); the schedule keeps
 * its own copy of the counts, so the widened ones go when it is built. */
static int ireduce_scatter_call(int large, const void *sendbuf, void *recvbuf, const int icounts[],
                                const MPI_Count lcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Ireduce_scatter, large);
    SKIFF_REQUIRE_INIT();
    const MPI_Count *recvcounts = NULL;
    MPI_Count *owned = NULL;
    int rc = skiff_lcounts_of(large, comm, icounts, lcounts, &recvcounts, &owned);
    if (rc)
        return skiff_fail(comm, rc);
    if (skiff_comm_is_inter(comm) && request) {
        rc = skiff_mpi_inter_reduce_scatter(sendbuf, recvbuf, 0, recvcounts, datatype, op, comm, SKIFF_NONBLOCKING,
                                            request);
    } else if (!(rc = skiff_ck_request(comm, request)) && (rc = skiff_check_ptr(recvcounts, "recvcounts"))) {
        rc = skiff_fail(comm, rc); /* as MPI_Reduce_scatter checks (NULL would read as the _block form) */
    } else if (!rc) {
        SKIFF_PROFILE_MSG(skiff_prof_vbytes_c(recvcounts, datatype, comm));
        rc = skiff_plan_reduce_scatter(sendbuf, recvbuf, recvcounts, 0, datatype, op, comm, &s);
        rc = skiff_nb_start(comm, rc, s, request);
    }
    free(owned);
    return rc;
}

int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm, MPI_Request *request)
{
    return ireduce_scatter_call(0, sendbuf, recvbuf, recvcounts, NULL, datatype, op, comm, request);
}
SKIFF_ALIAS(MPI_Ireduce_scatter)

int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return ireduce_scatter_call(1, sendbuf, recvbuf, NULL, recvcounts, datatype, op, comm, request);
}
SKIFF_ALIAS(MPI_Ireduce_scatter_c)

/* The body of MPI_Ireduce_scatter_block and MPI_Ireduce_scatter_block_c. */
static int ireduce_scatter_block_call(int large, const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Ireduce_scatter_block, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request)
        return skiff_mpi_inter_reduce_scatter(sendbuf, recvbuf, recvcount, NULL, datatype, op, comm,
                                              SKIFF_NONBLOCKING, request);
    SKIFF_PROFILE_MSG(skiff_prof_bytes(recvcount, datatype));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_reduce_scatter(sendbuf, recvbuf, NULL, recvcount, datatype, op, comm, &s);
    return skiff_nb_start(comm, rc, s, request);
}

int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm, MPI_Request *request)
{
    return ireduce_scatter_block_call(0, sendbuf, recvbuf, recvcount, datatype, op, comm, request);
}
SKIFF_ALIAS(MPI_Ireduce_scatter_block)

int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return ireduce_scatter_block_call(1, sendbuf, recvbuf, recvcount, datatype, op, comm, request);
}
SKIFF_ALIAS(MPI_Ireduce_scatter_block_c)

/* The body of MPI_Iscan and MPI_Iscan_c. */
static int iscan_call(int large, const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Iscan, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_refuse(comm);
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_scan(sendbuf, recvbuf, count, datatype, op, comm, 0, &s);
    return skiff_nb_start(comm, rc, s, request);
}

int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               MPI_Request *request)
{
    return iscan_call(0, sendbuf, recvbuf, count, datatype, op, comm, request);
}
SKIFF_ALIAS(MPI_Iscan)

int PMPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request *request)
{
    return iscan_call(1, sendbuf, recvbuf, count, datatype, op, comm, request);
}
SKIFF_ALIAS(MPI_Iscan_c)

/* The body of MPI_Iexscan and MPI_Iexscan_c. */
static int iexscan_call(int large, const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER_TWIN(MPI_Iexscan, large);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm))
        return skiff_mpi_inter_refuse(comm);
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_scan(sendbuf, recvbuf, count, datatype, op, comm, 1, &s);
    return skiff_nb_start(comm, rc, s, request);
}

int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request *request)
{
    return iexscan_call(0, sendbuf, recvbuf, count, datatype, op, comm, request);
}
SKIFF_ALIAS(MPI_Iexscan)

int PMPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Request *request)
{
    return iexscan_call(1, sendbuf, recvbuf, count, datatype, op, comm, request);
}
SKIFF_ALIAS(MPI_Iexscan_c)
