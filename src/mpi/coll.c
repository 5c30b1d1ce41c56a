/* The collective calls: argument checks, MPI_IN_PLACE, counts in bytes; then src/coll does the work. */
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "core/op.h"
#include "core/progress.h"
#include "mpi/mpi_impl.h"

/* Checks a (count, datatype) pair of a collective and gives its bytes. */
static int check_block(int count, MPI_Datatype dt, size_t *bytes)
{
    int rc = skiff_check_count(count);
    return rc ? rc : skiff_check_type(dt, count, bytes);
}

static int check_root(const struct skiff_comm *c, int root)
{
    if (root >= 0 && root < c->size)
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_ROOT, "invalid root %d (communicator %s has %d ranks)", root, c->name, c->size);
}

static int check_reduction(int count, MPI_Datatype dt, MPI_Op op, size_t *bytes)
{
    int rc = check_block(count, dt, bytes);
    return rc ? rc : skiff_op_check(op, dt);
}

/* Byte counts and displacements from the int arrays of the v-variants. */
static int v_layout(const struct skiff_comm *c, const int *counts, const int *displs, MPI_Datatype dt,
                    size_t **bc, size_t **bd)
{
    const struct skiff_type *t = skiff_type_get(dt);
    if (!t)
        return skiff_err(MPI_ERR_TYPE, "invalid datatype");
    if (!counts || (displs == NULL && bd))
        return skiff_err(MPI_ERR_ARG, "the counts or displacements array is NULL");
    *bc = malloc((size_t)c->size * sizeof **bc);
    if (bd)
        *bd = malloc((size_t)c->size * sizeof **bd);
    if (!*bc || (bd && !*bd))
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for %d counts", c->size);
    for (int i = 0; i < c->size; i++) {
        if (counts[i] < 0)
            return skiff_err(MPI_ERR_COUNT, "invalid count %d for rank %d", counts[i], i);
        (*bc)[i] = (size_t)counts[i] * t->extent;
        if (bd)
            (*bd)[i] = (size_t)(ptrdiff_t)displs[i] * t->extent;
    }
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------------------------------------ */

int PMPI_Barrier(MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER("MPI_Barrier");
    SKIFF_REQUIRE_INIT();
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
    SKIFF_ENTER("MPI_Ibarrier");
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = skiff_coll_barrier(c, &r);
    if (rc)
        return skiff_fail(comm, rc);
    *request = skiff_req_handle(r);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Ibarrier)

static int bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm, struct skiff_request **r)
{
    struct skiff_comm *c = NULL;
    size_t bytes = 0;
    int rc;
    if ((rc = skiff_check_comm(comm, &c)) || (rc = check_block(count, dt, &bytes)) || (rc = check_root(c, root)) ||
        (rc = skiff_check_buf(buf, count)))
        return skiff_fail(comm, rc);
    rc = skiff_coll_bcast(buf, bytes, root, c, r);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    SKIFF_ENTER("MPI_Bcast");
    SKIFF_REQUIRE_INIT();
    return bcast(buffer, count, datatype, root, comm, NULL);
}
SKIFF_ALIAS(MPI_Bcast)

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER("MPI_Ibcast");
    SKIFF_REQUIRE_INIT();
    int rc = bcast(buffer, count, datatype, root, comm, &r);
    if (!rc)
        *request = skiff_req_handle(r);
    return rc;
}
SKIFF_ALIAS(MPI_Ibcast)

static int reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm,
                  struct skiff_request **r)
{
    struct skiff_comm *c = NULL;
    size_t bytes = 0;
    int rc;
    if ((rc = skiff_check_comm(comm, &c)) || (rc = check_reduction(count, dt, op, &bytes)) ||
        (rc = check_root(c, root)))
        return skiff_fail(comm, rc);
    if (sendbuf == MPI_IN_PLACE) {
        if (c->rank != root)
            return skiff_fail(comm, skiff_err(MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root (%d)", root));
        sendbuf = recvbuf;
    }
    rc = skiff_coll_reduce(sendbuf, recvbuf, (size_t)count, dt, op, root, c, r);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm)
{
    SKIFF_ENTER("MPI_Reduce");
    SKIFF_REQUIRE_INIT();
    return reduce(sendbuf, recvbuf, count, datatype, op, root, comm, NULL);
}
SKIFF_ALIAS(MPI_Reduce)

int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                 MPI_Comm comm, MPI_Request *request)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER("MPI_Ireduce");
    SKIFF_REQUIRE_INIT();
    int rc = reduce(sendbuf, recvbuf, count, datatype, op, root, comm, &r);
    if (!rc)
        *request = skiff_req_handle(r);
    return rc;
}
SKIFF_ALIAS(MPI_Ireduce)

static int allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                     struct skiff_request **r)
{
    struct skiff_comm *c = NULL;
    size_t bytes = 0;
    int rc;
    if ((rc = skiff_check_comm(comm, &c)) || (rc = check_reduction(count, dt, op, &bytes)))
        return skiff_fail(comm, rc);
    rc = skiff_coll_allreduce(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf, (size_t)count, dt, op, c, r);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    SKIFF_ENTER("MPI_Allreduce");
    SKIFF_REQUIRE_INIT();
    return allreduce(sendbuf, recvbuf, count, datatype, op, comm, NULL);
}
SKIFF_ALIAS(MPI_Allreduce)

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Request *request)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER("MPI_Iallreduce");
    SKIFF_REQUIRE_INIT();
    int rc = allreduce(sendbuf, recvbuf, count, datatype, op, comm, &r);
    if (!rc)
        *request = skiff_req_handle(r);
    return rc;
}
SKIFF_ALIAS(MPI_Iallreduce)

/* The block each rank contributes must match what the root expects per rank. */
static int check_match(size_t sent, size_t expected, const char *what)
{
    if (sent == expected)
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_TRUNCATE, "%s: this rank's block is %zu bytes, the receive block is %zu", what, sent,
                     expected);
}

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    size_t sbytes = 0, rbytes = 0;
    SKIFF_ENTER("MPI_Gather");
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_root(c, root);
    int in_place = !rc && c->rank == root && sendbuf == MPI_IN_PLACE;
    if (!rc && !in_place)
        rc = check_block(sendcount, sendtype, &sbytes);
    if (!rc && c->rank == root) {
        rc = check_block(recvcount, recvtype, &rbytes);
        if (!rc && !in_place)
            rc = check_match(sbytes, rbytes, "gather");
    }
    if (!rc)
        rc = skiff_coll_gather(in_place ? NULL : sendbuf, c->rank == root ? rbytes : sbytes, recvbuf, root, c);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Gather)

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    size_t sbytes = 0, *bc = NULL, *bd = NULL;
    SKIFF_ENTER("MPI_Gatherv");
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_root(c, root);
    int in_place = !rc && c->rank == root && sendbuf == MPI_IN_PLACE;
    if (!rc && !in_place)
        rc = check_block(sendcount, sendtype, &sbytes);
    if (!rc && c->rank == root)
        rc = v_layout(c, recvcounts, displs, recvtype, &bc, &bd);
    if (!rc && c->rank == root && !in_place)
        rc = check_match(sbytes, bc[root], "gatherv");
    if (!rc)
        rc = skiff_coll_gatherv(in_place ? NULL : sendbuf, sbytes, recvbuf, bc, bd, root, c);
    free(bc);
    free(bd);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Gatherv)

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    size_t sbytes = 0, rbytes = 0;
    SKIFF_ENTER("MPI_Scatter");
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_root(c, root);
    int in_place = !rc && c->rank == root && recvbuf == MPI_IN_PLACE;
    if (!rc && !in_place)
        rc = check_block(recvcount, recvtype, &rbytes);
    if (!rc && c->rank == root) {
        rc = check_block(sendcount, sendtype, &sbytes);
        if (!rc && !in_place)
            rc = check_match(rbytes, sbytes, "scatter");
    }
    if (!rc)
        rc = skiff_coll_scatter(sendbuf, c->rank == root ? sbytes : rbytes, in_place ? NULL : recvbuf, root, c);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Scatter)

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    size_t rbytes = 0, *bc = NULL, *bd = NULL;
    SKIFF_ENTER("MPI_Scatterv");
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_root(c, root);
    int in_place = !rc && c->rank == root && recvbuf == MPI_IN_PLACE;
    if (!rc && !in_place)
        rc = check_block(recvcount, recvtype, &rbytes);
    if (!rc && c->rank == root)
        rc = v_layout(c, sendcounts, displs, sendtype, &bc, &bd);
    if (!rc && c->rank == root && !in_place)
        rc = check_match(rbytes, bc[root], "scatterv");
    if (!rc)
        rc = skiff_coll_scatterv(sendbuf, bc, bd, in_place ? NULL : recvbuf, rbytes, root, c);
    free(bc);
    free(bd);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Scatterv)

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    size_t sbytes = 0, rbytes = 0;
    SKIFF_ENTER("MPI_Allgather");
    SKIFF_REQUIRE_INIT();
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_block(recvcount, recvtype, &rbytes);
    if (!rc && !in_place) {
        rc = check_block(sendcount, sendtype, &sbytes);
        if (!rc)
            rc = check_match(sbytes, rbytes, "allgather");
    }
    if (!rc)
        rc = skiff_coll_allgather(in_place ? NULL : sendbuf, rbytes, recvbuf, c);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Allgather)

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    size_t sbytes = 0, *bc = NULL, *bd = NULL;
    SKIFF_ENTER("MPI_Allgatherv");
    SKIFF_REQUIRE_INIT();
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = v_layout(c, recvcounts, displs, recvtype, &bc, &bd);
    if (!rc && !in_place) {
        rc = check_block(sendcount, sendtype, &sbytes);
        if (!rc)
            rc = check_match(sbytes, bc[c->rank], "allgatherv");
    }
    if (!rc)
        rc = skiff_coll_allgatherv(in_place ? NULL : sendbuf, sbytes, recvbuf, bc, bd, c);
    free(bc);
    free(bd);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Allgatherv)

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    size_t sbytes = 0, rbytes = 0;
    void *copy = NULL;
    SKIFF_ENTER("MPI_Alltoall");
    SKIFF_REQUIRE_INIT();
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_block(recvcount, recvtype, &rbytes);
    if (!rc && !in_place) {
        rc = check_block(sendcount, sendtype, &sbytes);
        if (!rc)
            rc = check_match(sbytes, rbytes, "alltoall");
    }
    if (!rc && in_place) { /* every block is both sent and overwritten: send from a copy */
        copy = malloc(rbytes * (size_t)c->size + 1);
        if (!copy)
            rc = skiff_err(MPI_ERR_NO_MEM, "cannot copy %zu bytes for in-place alltoall", rbytes * (size_t)c->size);
        else
            memcpy(copy, recvbuf, rbytes * (size_t)c->size);
    }
    if (!rc)
        rc = skiff_coll_alltoall(in_place ? copy : sendbuf, rbytes, recvbuf, c);
    free(copy);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Alltoall)

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    size_t *sc = NULL, *sd = NULL, *rcnt = NULL, *rd = NULL;
    void *copy = NULL;
    SKIFF_ENTER("MPI_Alltoallv");
    SKIFF_REQUIRE_INIT();
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = v_layout(c, recvcounts, rdispls, recvtype, &rcnt, &rd);
    if (!rc && !in_place)
        rc = v_layout(c, sendcounts, sdispls, sendtype, &sc, &sd);
    if (!rc && in_place) { /* the send layout is the receive layout, from a copy */
        size_t end = 0;
        for (int i = 0; i < c->size; i++)
            end = rd[i] + rcnt[i] > end ? rd[i] + rcnt[i] : end;
        copy = malloc(end + 1);
        if (!copy)
            rc = skiff_err(MPI_ERR_NO_MEM, "cannot copy %zu bytes for in-place alltoallv", end);
        else
            memcpy(copy, recvbuf, end);
    }
    if (!rc)
        rc = skiff_coll_alltoallv(in_place ? copy : sendbuf, in_place ? rcnt : sc, in_place ? rd : sd, recvbuf, rcnt,
                                  rd, c);
    free(copy);
    free(sc);
    free(sd);
    free(rcnt);
    free(rd);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Alltoallv)

static int reduce_scatter(const void *sendbuf, void *recvbuf, const int counts[], MPI_Datatype dt, MPI_Op op,
                          MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    size_t bytes = 0;
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_reduction(0, dt, op, &bytes);
    size_t *sc = NULL;
    if (!rc && (sc = malloc((size_t)c->size * sizeof *sc)) == NULL)
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory for %d counts", c->size);
    for (int i = 0; !rc && i < c->size; i++) {
        if (counts[i] < 0)
            rc = skiff_err(MPI_ERR_COUNT, "invalid count %d for rank %d", counts[i], i);
        else
            sc[i] = (size_t)counts[i];
    }
    if (!rc)
        rc = skiff_coll_reduce_scatter(sendbuf == MPI_IN_PLACE ? NULL : sendbuf, recvbuf, sc, dt, op, c);
    free(sc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm)
{
    SKIFF_ENTER("MPI_Reduce_scatter");
    SKIFF_REQUIRE_INIT();
    if (!recvcounts)
        return skiff_fail(comm, skiff_err(MPI_ERR_ARG, "recvcounts is NULL"));
    return reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
}
SKIFF_ALIAS(MPI_Reduce_scatter)

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER("MPI_Reduce_scatter_block");
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = skiff_check_count(recvcount);
    if (rc)
        return skiff_fail(comm, rc);
    int *counts = malloc((size_t)c->size * sizeof *counts);
    if (!counts)
        return skiff_fail(comm, skiff_err(MPI_ERR_NO_MEM, "out of memory for %d counts", c->size));
    for (int i = 0; i < c->size; i++)
        counts[i] = recvcount;
    rc = reduce_scatter(sendbuf, recvbuf, counts, datatype, op, comm);
    free(counts);
    return rc;
}
SKIFF_ALIAS(MPI_Reduce_scatter_block)

static int scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm, int excl)
{
    struct skiff_comm *c = NULL;
    size_t bytes = 0;
    int rc;
    if ((rc = skiff_check_comm(comm, &c)) || (rc = check_reduction(count, dt, op, &bytes)))
        return skiff_fail(comm, rc);
    rc = skiff_coll_scan(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf, (size_t)count, dt, op, excl, c);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    SKIFF_ENTER("MPI_Scan");
    SKIFF_REQUIRE_INIT();
    return scan(sendbuf, recvbuf, count, datatype, op, comm, 0);
}
SKIFF_ALIAS(MPI_Scan)

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    SKIFF_ENTER("MPI_Exscan");
    SKIFF_REQUIRE_INIT();
    return scan(sendbuf, recvbuf, count, datatype, op, comm, 1);
}
SKIFF_ALIAS(MPI_Exscan)

int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op)
{
    size_t bytes = 0;
    SKIFF_ENTER("MPI_Reduce_local");
    SKIFF_REQUIRE_INIT();
    int rc = check_reduction(count, datatype, op, &bytes);
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    skiff_op_apply(op, inbuf, inoutbuf, (size_t)count, datatype);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Reduce_local)
