/* The send calls in their four modes, blocking and not. Ready mode behaves as standard mode (the
 * receive is posted, so the eager or rendezvous path is already the fastest). */
#include "core/bsend.h"
#include "core/progress.h"
#include "core/pt2pt.h"
#include "mpi/mpi_impl.h"
#include "mpi/typed.h"

static int send_blocking(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, int mode)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    int rc = skiff_check_p2p(buf, "buf", count, dt, dest, tag, comm, 0, &c, &t);
    if (SKIFF_UNLIKELY(rc))
        return skiff_fail(comm, rc);
    if (SKIFF_UNLIKELY(dest == MPI_PROC_NULL))
        return MPI_SUCCESS;
    struct skiff_request *r = NULL;
    rc = skiff_typed_send(buf, (size_t)count, t, dest, tag, c, mode, 1, &r);
    if (SKIFF_UNLIKELY(rc))
        return skiff_fail(comm, rc);
    if (r) {
        skiff_wait_req(r);
        rc = r->st_error;
        skiff_req_release(r);
    }
    return rc ? skiff_err_handle(c, rc) : MPI_SUCCESS;
}

/* A request that is complete from the start (MPI_PROC_NULL, buffered sends). */
static int completed_request(MPI_Request *request, MPI_Comm comm)
{
    struct skiff_request *r = skiff_req_alloc(SKIFF_REQ_SEND);
    if (!r)
        return skiff_fail(comm, skiff_err(MPI_ERR_NO_MEM, "out of request objects"));
    r->state = SKIFF_RS_DONE;
    r->comm = skiff_comm_get(comm);
    *request = skiff_req_handle(r);
    return MPI_SUCCESS;
}

static int send_nonblocking(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                            int mode, MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    int rc = skiff_check_p2p(buf, "buf", count, dt, dest, tag, comm, 0, &c, &t);
    if (SKIFF_UNLIKELY(rc || (rc = skiff_check_ptr(request, "request"))))
        return skiff_fail(comm, rc);
    if (SKIFF_UNLIKELY(dest == MPI_PROC_NULL))
        return completed_request(request, comm);
    struct skiff_request *r = NULL;
    rc = skiff_typed_send(buf, (size_t)count, t, dest, tag, c, mode, 0, &r);
    if (SKIFF_UNLIKELY(rc))
        return skiff_fail(comm, rc);
    *request = skiff_req_handle(r);
    return MPI_SUCCESS;
}

int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Send);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return send_blocking(buf, count, datatype, dest, tag, comm, SKIFF_SEND_STANDARD);
}
SKIFF_ALIAS(MPI_Send)

int PMPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Ssend);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return send_blocking(buf, count, datatype, dest, tag, comm, SKIFF_SEND_SYNC);
}
SKIFF_ALIAS(MPI_Ssend)

int PMPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Rsend);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return send_blocking(buf, count, datatype, dest, tag, comm, SKIFF_SEND_STANDARD);
}
SKIFF_ALIAS(MPI_Rsend)

int PMPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    SKIFF_ENTER(MPI_Isend);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return send_nonblocking(buf, count, datatype, dest, tag, comm, SKIFF_SEND_STANDARD, request);
}
SKIFF_ALIAS(MPI_Isend)

int PMPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request)
{
    SKIFF_ENTER(MPI_Issend);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return send_nonblocking(buf, count, datatype, dest, tag, comm, SKIFF_SEND_SYNC, request);
}
SKIFF_ALIAS(MPI_Issend)

int PMPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request)
{
    SKIFF_ENTER(MPI_Irsend);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return send_nonblocking(buf, count, datatype, dest, tag, comm, SKIFF_SEND_STANDARD, request);
}
SKIFF_ALIAS(MPI_Irsend)

static int bsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    int rc = skiff_check_p2p(buf, "buf", count, dt, dest, tag, comm, 0, &c, &t);
    if (!rc && dest != MPI_PROC_NULL)
        rc = skiff_bsend(buf, (size_t)count, t, dest, tag, c);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

int PMPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    SKIFF_ENTER(MPI_Bsend);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    return bsend(buf, count, datatype, dest, tag, comm);
}
SKIFF_ALIAS(MPI_Bsend)

int PMPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request)
{
    SKIFF_ENTER(MPI_Ibsend);
    SKIFF_REQUIRE_INIT();
    SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));
    int rc = skiff_check_ptr(request, "request");
    if (SKIFF_UNLIKELY(rc))
        return skiff_fail(comm, rc);
    rc = bsend(buf, count, datatype, dest, tag, comm);
    return rc ? rc : completed_request(request, comm);
}
SKIFF_ALIAS(MPI_Ibsend)
