/* The nonblocking collectives beyond MPI_Ibarrier, Ibcast, Ireduce and Iallreduce (coll.c): each checks
 * its arguments as its blocking form does, writes the whole operation into a schedule
 * (coll_plan_calls.c) and hands it to the progress engine. Any number may be outstanding, on one
 * communicator or several, and complete in any order: each has its own tag. */
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

int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER(MPI_Iallgather);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request)
        return skiff_mpi_inter_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype,
                                         comm, request);
    SKIFF_PROFILE_MSG(skiff_prof_block(sendbuf, sendcount, sendtype, recvcount, recvtype));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, &s);
    return skiff_nb_start(comm, rc, s, request);
}
SKIFF_ALIAS(MPI_Iallgather)

int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                     const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER(MPI_Iallgatherv);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request)
        return skiff_mpi_inter_allgather(sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype,
                                         comm, request);
    SKIFF_PROFILE_MSG(sendbuf == MPI_IN_PLACE ? skiff_prof_own_bytes(recvcounts, recvtype, comm)
                      : skiff_prof_bytes(sendcount, sendtype));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, &s);
    return skiff_nb_start(comm, rc, s, request);
}
SKIFF_ALIAS(MPI_Iallgatherv)

int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER(MPI_Ialltoall);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request)
        return skiff_mpi_inter_alltoall(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, NULL, NULL,
                                        recvtype, comm, request);
    SKIFF_PROFILE_MSG(skiff_prof_block(sendbuf, sendcount, sendtype, recvcount, recvtype));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, &s);
    return skiff_nb_start(comm, rc, s, request);
}
SKIFF_ALIAS(MPI_Ialltoall)

int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                    void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER(MPI_Ialltoallv);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request)
        return skiff_mpi_inter_alltoall(sendbuf, 0, sendcounts, sdispls, sendtype, recvbuf, 0, recvcounts, rdispls,
                                        recvtype, comm, request);
    SKIFF_PROFILE_MSG(sendbuf == MPI_IN_PLACE ? skiff_prof_vbytes(recvcounts, recvtype, comm)
                      : skiff_prof_vbytes(sendcounts, sendtype, comm));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, &s);
    return skiff_nb_start(comm, rc, s, request);
}
SKIFF_ALIAS(MPI_Ialltoallv)

int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER(MPI_Igather);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request)
        return skiff_mpi_inter_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, root,
                                      comm, request);
    SKIFF_PROFILE_MSG(skiff_prof_block(sendbuf, sendcount, sendtype, recvcount, recvtype));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, &s);
    return skiff_nb_start(comm, rc, s, request);
}
SKIFF_ALIAS(MPI_Igather)

int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                  const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER(MPI_Igatherv);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request)
        return skiff_mpi_inter_gather(sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, root,
                                      comm, request);
    SKIFF_PROFILE_MSG(sendbuf == MPI_IN_PLACE ? skiff_prof_own_bytes(recvcounts, recvtype, comm)
                      : skiff_prof_bytes(sendcount, sendtype));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, &s);
    return skiff_nb_start(comm, rc, s, request);
}
SKIFF_ALIAS(MPI_Igatherv)

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER(MPI_Iscatter);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request)
        return skiff_mpi_inter_scatter(sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, recvtype, root,
                                       comm, request);
    SKIFF_PROFILE_MSG(skiff_prof_block(recvbuf, recvcount, recvtype, sendcount, sendtype));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, &s);
    return skiff_nb_start(comm, rc, s, request);
}
SKIFF_ALIAS(MPI_Iscatter)

int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER(MPI_Iscatterv);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request)
        return skiff_mpi_inter_scatter(sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                                       comm, request);
    SKIFF_PROFILE_MSG(recvbuf == MPI_IN_PLACE ? skiff_prof_own_bytes(sendcounts, sendtype, comm)
                      : skiff_prof_bytes(recvcount, recvtype));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, &s);
    return skiff_nb_start(comm, rc, s, request);
}
SKIFF_ALIAS(MPI_Iscatterv)

int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER(MPI_Ireduce_scatter);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request)
        return skiff_mpi_inter_reduce_scatter(sendbuf, recvbuf, 0, recvcounts, datatype, op, comm, request);
    SKIFF_PROFILE_MSG(skiff_prof_vbytes(recvcounts, datatype, comm));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_reduce_scatter(sendbuf, recvbuf, recvcounts, 0, datatype, op, comm, &s);
    return skiff_nb_start(comm, rc, s, request);
}
SKIFF_ALIAS(MPI_Ireduce_scatter)

int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm, MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER(MPI_Ireduce_scatter_block);
    SKIFF_REQUIRE_INIT();
    if (skiff_comm_is_inter(comm) && request)
        return skiff_mpi_inter_reduce_scatter(sendbuf, recvbuf, recvcount, NULL, datatype, op, comm, request);
    SKIFF_PROFILE_MSG(skiff_prof_bytes(recvcount, datatype));
    int rc = skiff_ck_request(comm, request);
    if (rc)
        return rc;
    rc = skiff_plan_reduce_scatter(sendbuf, recvbuf, NULL, recvcount, datatype, op, comm, &s);
    return skiff_nb_start(comm, rc, s, request);
}
SKIFF_ALIAS(MPI_Ireduce_scatter_block)

int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER(MPI_Iscan);
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
SKIFF_ALIAS(MPI_Iscan)

int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request *request)
{
    struct skiff_sched *s = NULL;
    SKIFF_ENTER(MPI_Iexscan);
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
SKIFF_ALIAS(MPI_Iexscan)
