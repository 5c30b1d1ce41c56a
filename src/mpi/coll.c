/* The collective calls: argument checks, MPI_IN_PLACE, counts in bytes; then src/coll does the work. */
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "core/op.h"
#include "core/progress.h"
#include "mpi/coll_stage.h"
#include "mpi/mpi_impl.h"

/* Checks a (count, datatype) pair of a collective. */
static int check_block(int count, MPI_Datatype dt, const struct skiff_type **t)
{
    int rc = skiff_check_count(count);
    return rc ? rc : skiff_check_dtype(dt, 1, t);
}

static int check_root(const struct skiff_comm *c, int root)
{
    if (root >= 0 && root < c->size)
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_ROOT, "invalid root %d (communicator %s has %d ranks)", root, c->name, c->size);
}

/* What a reduction runs on: count elements of a basic type (or of the user's type, for user ops),
 * starting at the data of the buffers. Derived types must be contiguous: a predefined op then runs
 * on their basic elements. */
struct red {
    size_t count;
    MPI_Datatype dt;
    ptrdiff_t shift; /* from the user's buffer to the first byte of data */
};

static int check_reduction(int count, MPI_Datatype dt, MPI_Op op, struct red *red)
{
    const struct skiff_type *t = NULL;
    int rc = check_block(count, dt, &t);
    if (rc)
        return rc;
    *red = (struct red){(size_t)count, dt, 0};
    if (!t->predefined) {
        if (!t->contiguous || (!skiff_op_user(op) && t->basic == MPI_DATATYPE_NULL))
            return skiff_err(MPI_ERR_TYPE, "reductions need a contiguous datatype%s (this one has %zu bytes of data "
                                           "in an extent of %zu)",
                             skiff_op_user(op) ? "" : " of one basic type", t->size, t->extent);
        red->shift = t->true_lb;
        if (!skiff_op_user(op)) {
            red->count = (size_t)count * t->nbasic;
            red->dt = t->basic;
        }
    }
    return skiff_op_check(op, red->dt);
}

static const void *shifted(const void *buf, const struct red *red)
{
    return buf == MPI_IN_PLACE || buf == NULL ? buf : (const char *)buf + red->shift;
}

/* The block each rank contributes must match what the receiver expects per rank. */
static int check_match(size_t sent, size_t expected, const char *what)
{
    if (sent == expected)
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_TRUNCATE, "%s: this rank's block is %zu bytes, the receive block is %zu", what, sent,
                     expected);
}

static size_t packed(const struct skiff_type *t, int count)
{
    return skiff_type_packed_size(t, (size_t)count);
}

/* The profiler's message size for a call with two sides: this rank's block on side a, or on side b
 * when buffer a is MPI_IN_PLACE (the standard then ignores a's count and type). */
static size_t prof_block(const void *a, int acount, MPI_Datatype atype, int bcount, MPI_Datatype btype)
{
    return a == MPI_IN_PLACE ? skiff_prof_bytes(bcount, btype) : skiff_prof_bytes(acount, atype);
}

/* ------------------------------------------------------------------------------------------------ */

int PMPI_Barrier(MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER(MPI_Barrier);
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
    SKIFF_ENTER(MPI_Ibarrier);
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

static int bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm, struct skiff_request **r)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    int rc;
    if ((rc = skiff_check_comm(comm, &c)) || (rc = check_block(count, dt, &t)) || (rc = check_root(c, root)) ||
        (rc = skiff_check_typed_buf(buf, count, t)))
        return skiff_fail(comm, rc);
    struct skiff_stage *st = malloc(sizeof *st);
    if (!st)
        return skiff_fail(comm, skiff_err(MPI_ERR_NO_MEM, "out of memory"));
    rc = c->rank == root ? skiff_stage_send(st, buf, (size_t)count, t)
                         : skiff_stage_recv(st, buf, (size_t)count, t, -1, 0);
    if (!rc)
        rc = skiff_coll_bcast(st->data, packed(t, count), root, c, r);
    int unpack = c->rank != root;
    if (!rc && r && st->tmp && (*r)->state != SKIFF_RS_DONE) {
        /* The packed copy must outlive the call: the request finishes with it. */
        (*r)->cookie = st;
        (*r)->on_complete = unpack ? unpack_on_complete : free_on_complete;
        return MPI_SUCCESS;
    }
    skiff_stage_done(st, unpack && !rc);
    free(st);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Bcast);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return bcast(buffer, count, datatype, root, comm, NULL);
}
SKIFF_ALIAS(MPI_Bcast)

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER(MPI_Ibcast);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
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
    struct red red;
    int rc;
    if ((rc = skiff_check_comm(comm, &c)) || (rc = check_reduction(count, dt, op, &red)) ||
        (rc = check_root(c, root)))
        return skiff_fail(comm, rc);
    if (sendbuf == MPI_IN_PLACE) {
        if (c->rank != root)
            return skiff_fail(comm, skiff_err(MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root (%d)", root));
        sendbuf = recvbuf;
    }
    rc = skiff_coll_reduce(shifted(sendbuf, &red), (void *)shifted(recvbuf, &red), red.count, red.dt, op, root, c, r);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Reduce);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return reduce(sendbuf, recvbuf, count, datatype, op, root, comm, NULL);
}
SKIFF_ALIAS(MPI_Reduce)

int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                 MPI_Comm comm, MPI_Request *request)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER(MPI_Ireduce);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
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
    struct red red;
    int rc;
    if ((rc = skiff_check_comm(comm, &c)) || (rc = check_reduction(count, dt, op, &red)))
        return skiff_fail(comm, rc);
    const void *in = shifted(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, &red);
    rc = skiff_coll_allreduce(in, (void *)shifted(recvbuf, &red), red.count, red.dt, op, c, r);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Allreduce);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return allreduce(sendbuf, recvbuf, count, datatype, op, comm, NULL);
}
SKIFF_ALIAS(MPI_Allreduce)

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Request *request)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER(MPI_Iallreduce);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    int rc = allreduce(sendbuf, recvbuf, count, datatype, op, comm, &r);
    if (!rc)
        *request = skiff_req_handle(r);
    return rc;
}
SKIFF_ALIAS(MPI_Iallreduce)

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *st = NULL, *rt = NULL;
    struct skiff_stage in = {0}, out = {0};
    SKIFF_ENTER(MPI_Gather);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(prof_block(sendbuf, sendcount, sendtype, recvcount, recvtype));
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_root(c, root);
    int is_root = !rc && c->rank == root, in_place = is_root && sendbuf == MPI_IN_PLACE;
    if (!rc && !in_place)
        rc = check_block(sendcount, sendtype, &st);
    if (!rc && is_root) {
        rc = check_block(recvcount, recvtype, &rt);
        if (!rc && !in_place)
            rc = check_match(packed(st, sendcount), packed(rt, recvcount), "gather");
    }
    if (!rc && !in_place)
        rc = skiff_stage_send(&in, sendbuf, (size_t)sendcount, st);
    if (!rc && is_root)
        rc = skiff_stage_recv(&out, recvbuf, (size_t)recvcount * (size_t)c->size, rt, in_place ? root : -1,
                              (size_t)recvcount);
    if (!rc)
        rc = skiff_coll_gather(in_place ? NULL : in.data, is_root ? packed(rt, recvcount) : packed(st, sendcount),
                               out.data, root, c);
    skiff_stage_done(&in, 0);
    skiff_stage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Gather)

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *st = NULL, *rt = NULL;
    struct skiff_stage in = {0};
    struct skiff_vstage out = {0};
    SKIFF_ENTER(MPI_Gatherv);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(sendbuf == MPI_IN_PLACE ? skiff_prof_own_bytes(recvcounts, recvtype, comm)
                                                : skiff_prof_bytes(sendcount, sendtype));
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_root(c, root);
    int is_root = !rc && c->rank == root, in_place = is_root && sendbuf == MPI_IN_PLACE;
    if (!rc && !in_place)
        rc = check_block(sendcount, sendtype, &st);
    if (!rc && is_root && (!recvcounts || !displs))
        rc = skiff_err(MPI_ERR_ARG, "recvcounts or displs is NULL at the root");
    if (!rc && is_root)
        rc = skiff_check_dtype(recvtype, 1, &rt);
    if (!rc && is_root)
        rc = skiff_vstage_init(&out, recvbuf, recvcounts, displs, c->size, rt, in_place ? 2 : 0, root);
    if (!rc && is_root && !in_place)
        rc = check_match(packed(st, sendcount), out.bc[root], "gatherv");
    if (!rc && !in_place)
        rc = skiff_stage_send(&in, sendbuf, (size_t)sendcount, st);
    if (!rc)
        rc = skiff_coll_gatherv(in_place ? NULL : in.data, in_place ? 0 : packed(st, sendcount), out.data, out.bc,
                                out.bd, root, c);
    skiff_stage_done(&in, 0);
    skiff_vstage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Gatherv)

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *st = NULL, *rt = NULL;
    struct skiff_stage in = {0}, out = {0};
    SKIFF_ENTER(MPI_Scatter);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(prof_block(recvbuf, recvcount, recvtype, sendcount, sendtype));
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_root(c, root);
    int is_root = !rc && c->rank == root, in_place = is_root && recvbuf == MPI_IN_PLACE;
    if (!rc && !in_place)
        rc = check_block(recvcount, recvtype, &rt);
    if (!rc && is_root) {
        rc = check_block(sendcount, sendtype, &st);
        if (!rc && !in_place)
            rc = check_match(packed(rt, recvcount), packed(st, sendcount), "scatter");
    }
    if (!rc && is_root)
        rc = skiff_stage_send(&in, sendbuf, (size_t)sendcount * (size_t)c->size, st);
    if (!rc && !in_place)
        rc = skiff_stage_recv(&out, recvbuf, (size_t)recvcount, rt, -1, 0);
    if (!rc)
        rc = skiff_coll_scatter(in.data, is_root ? packed(st, sendcount) : packed(rt, recvcount),
                                in_place ? NULL : out.data, root, c);
    skiff_stage_done(&in, 0);
    skiff_stage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Scatter)

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *st = NULL, *rt = NULL;
    struct skiff_vstage in = {0};
    struct skiff_stage out = {0};
    SKIFF_ENTER(MPI_Scatterv);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(recvbuf == MPI_IN_PLACE ? skiff_prof_own_bytes(sendcounts, sendtype, comm)
                                                : skiff_prof_bytes(recvcount, recvtype));
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_root(c, root);
    int is_root = !rc && c->rank == root, in_place = is_root && recvbuf == MPI_IN_PLACE;
    if (!rc && !in_place)
        rc = check_block(recvcount, recvtype, &rt);
    if (!rc && is_root && (!sendcounts || !displs))
        rc = skiff_err(MPI_ERR_ARG, "sendcounts or displs is NULL at the root");
    if (!rc && is_root)
        rc = skiff_check_dtype(sendtype, 1, &st);
    if (!rc && is_root)
        rc = skiff_vstage_init(&in, sendbuf, sendcounts, displs, c->size, st, 1, -1);
    if (!rc && is_root && !in_place)
        rc = check_match(packed(rt, recvcount), in.bc[root], "scatterv");
    if (!rc && !in_place)
        rc = skiff_stage_recv(&out, recvbuf, (size_t)recvcount, rt, -1, 0);
    if (!rc)
        rc = skiff_coll_scatterv(in.data, in.bc, in.bd, in_place ? NULL : out.data, in_place ? 0 : packed(rt, recvcount),
                                 root, c);
    skiff_vstage_done(&in, 0);
    skiff_stage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Scatterv)

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *st = NULL, *rt = NULL;
    struct skiff_stage in = {0}, out = {0};
    SKIFF_ENTER(MPI_Allgather);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(prof_block(sendbuf, sendcount, sendtype, recvcount, recvtype));
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_block(recvcount, recvtype, &rt);
    if (!rc && !in_place) {
        rc = check_block(sendcount, sendtype, &st);
        if (!rc)
            rc = check_match(packed(st, sendcount), packed(rt, recvcount), "allgather");
        if (!rc)
            rc = skiff_stage_send(&in, sendbuf, (size_t)sendcount, st);
    }
    if (!rc)
        rc = skiff_stage_recv(&out, recvbuf, (size_t)recvcount * (size_t)c->size, rt, in_place ? c->rank : -1,
                              (size_t)recvcount);
    if (!rc)
        rc = skiff_coll_allgather(in_place ? NULL : in.data, packed(rt, recvcount), out.data, c);
    skiff_stage_done(&in, 0);
    skiff_stage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Allgather)

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *st = NULL, *rt = NULL;
    struct skiff_stage in = {0};
    struct skiff_vstage out = {0};
    SKIFF_ENTER(MPI_Allgatherv);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(sendbuf == MPI_IN_PLACE ? skiff_prof_own_bytes(recvcounts, recvtype, comm)
                                                : skiff_prof_bytes(sendcount, sendtype));
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = skiff_check_comm(comm, &c);
    if (!rc && (!recvcounts || !displs))
        rc = skiff_err(MPI_ERR_ARG, "recvcounts or displs is NULL");
    if (!rc)
        rc = skiff_check_dtype(recvtype, 1, &rt);
    if (!rc)
        rc = skiff_vstage_init(&out, recvbuf, recvcounts, displs, c->size, rt, in_place ? 2 : 0, c->rank);
    if (!rc && !in_place) {
        rc = check_block(sendcount, sendtype, &st);
        if (!rc)
            rc = check_match(packed(st, sendcount), out.bc[c->rank], "allgatherv");
        if (!rc)
            rc = skiff_stage_send(&in, sendbuf, (size_t)sendcount, st);
    }
    if (!rc)
        rc = skiff_coll_allgatherv(in_place ? NULL : in.data, out.bc[c->rank], out.data, out.bc, out.bd, c);
    skiff_stage_done(&in, 0);
    skiff_vstage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Allgatherv)

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *st = NULL, *rt = NULL;
    struct skiff_stage in = {0}, out = {0};
    void *copy = NULL;
    SKIFF_ENTER(MPI_Alltoall);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(prof_block(sendbuf, sendcount, sendtype, recvcount, recvtype));
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_block(recvcount, recvtype, &rt);
    if (!rc && !in_place) {
        rc = check_block(sendcount, sendtype, &st);
        if (!rc)
            rc = check_match(packed(st, sendcount), packed(rt, recvcount), "alltoall");
    }
    size_t n = c ? (size_t)c->size : 0, all = rt ? packed(rt, recvcount) * n : 0;
    if (!rc)
        rc = in_place ? skiff_stage_send(&in, recvbuf, (size_t)recvcount * n, rt)
                      : skiff_stage_send(&in, sendbuf, (size_t)sendcount * n, st);
    if (!rc && in_place && !in.tmp) { /* every block is both sent and overwritten: send from a copy */
        if (!(copy = malloc(all + 1)))
            rc = skiff_err(MPI_ERR_NO_MEM, "cannot copy %zu bytes for an in-place alltoall", all);
        else
            in.data = memcpy(copy, in.data, all);
    }
    if (!rc)
        rc = skiff_stage_recv(&out, recvbuf, (size_t)recvcount * n, rt, -1, 0);
    if (!rc)
        rc = skiff_coll_alltoall(in.data, packed(rt, recvcount), out.data, c);
    free(copy);
    skiff_stage_done(&in, 0);
    skiff_stage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Alltoall)

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *st = NULL, *rt = NULL;
    struct skiff_vstage in = {0}, out = {0};
    void *copy = NULL;
    SKIFF_ENTER(MPI_Alltoallv);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(sendbuf == MPI_IN_PLACE ? skiff_prof_vbytes(recvcounts, recvtype, comm)
                                                : skiff_prof_vbytes(sendcounts, sendtype, comm));
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = skiff_check_comm(comm, &c);
    if (!rc && (!recvcounts || !rdispls || (!in_place && (!sendcounts || !sdispls))))
        rc = skiff_err(MPI_ERR_ARG, "a counts or displacements array is NULL");
    if (!rc)
        rc = skiff_check_dtype(recvtype, 1, &rt);
    if (!rc && !in_place)
        rc = skiff_check_dtype(sendtype, 1, &st);
    if (!rc)
        rc = in_place ? skiff_vstage_init(&in, recvbuf, recvcounts, rdispls, c->size, rt, 1, -1)
                      : skiff_vstage_init(&in, sendbuf, sendcounts, sdispls, c->size, st, 1, -1);
    if (!rc)
        rc = skiff_vstage_init(&out, recvbuf, recvcounts, rdispls, c->size, rt, 0, -1);
    if (!rc && in_place && !in.tmp) { /* contiguous and in place: send from a copy of the whole span */
        size_t end = 0;
        for (int i = 0; i < c->size; i++)
            end = in.bd[i] + in.bc[i] > end ? in.bd[i] + in.bc[i] : end;
        if (!(copy = malloc(end + 1)))
            rc = skiff_err(MPI_ERR_NO_MEM, "cannot copy %zu bytes for an in-place alltoallv", end);
        else
            in.data = memcpy(copy, in.data, end);
    }
    if (!rc)
        rc = skiff_coll_alltoallv(in.data, in.bc, in.bd, out.data, out.bc, out.bd, c);
    free(copy);
    skiff_vstage_done(&in, 0);
    skiff_vstage_done(&out, !rc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Alltoallv)

static int reduce_scatter(const void *sendbuf, void *recvbuf, const int counts[], MPI_Datatype dt, MPI_Op op,
                          MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    struct red red;
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = check_reduction(0, dt, op, &red);
    size_t *sc = NULL, scale = 1;
    const struct skiff_type *t = skiff_type_get(dt);
    if (!rc && !t->predefined && !skiff_op_user(op))
        scale = t->nbasic;
    if (!rc && (sc = malloc((size_t)c->size * sizeof *sc)) == NULL)
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory for %d counts", c->size);
    for (int i = 0; !rc && i < c->size; i++) {
        if (counts[i] < 0)
            rc = skiff_err(MPI_ERR_COUNT, "invalid count %d for rank %d", counts[i], i);
        else
            sc[i] = (size_t)counts[i] * scale;
    }
    if (!rc)
        rc = skiff_coll_reduce_scatter(sendbuf == MPI_IN_PLACE ? NULL : shifted(sendbuf, &red),
                                       (void *)shifted(recvbuf, &red), sc, red.dt, op, c);
    free(sc);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Reduce_scatter);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_vbytes(recvcounts, datatype, comm));
    if (!recvcounts)
        return skiff_fail(comm, skiff_err(MPI_ERR_ARG, "recvcounts is NULL"));
    return reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
}
SKIFF_ALIAS(MPI_Reduce_scatter)

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER(MPI_Reduce_scatter_block);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(recvcount, datatype));
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
    struct red red;
    int rc;
    if ((rc = skiff_check_comm(comm, &c)) || (rc = check_reduction(count, dt, op, &red)))
        return skiff_fail(comm, rc);
    const void *in = shifted(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, &red);
    rc = skiff_coll_scan(in, (void *)shifted(recvbuf, &red), red.count, red.dt, op, excl, c);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Scan);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return scan(sendbuf, recvbuf, count, datatype, op, comm, 0);
}
SKIFF_ALIAS(MPI_Scan)

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Exscan);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return scan(sendbuf, recvbuf, count, datatype, op, comm, 1);
}
SKIFF_ALIAS(MPI_Exscan)

int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op)
{
    struct red red;
    SKIFF_ENTER(MPI_Reduce_local);
    SKIFF_REQUIRE_INIT();
    int rc = check_reduction(count, datatype, op, &red);
    if (rc)
        return skiff_fail(MPI_COMM_WORLD, rc);
    skiff_op_apply(op, shifted(inbuf, &red), (void *)shifted(inoutbuf, &red), red.count, red.dt);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Reduce_local)
