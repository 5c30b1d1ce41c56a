/* The send calls in their four modes, blocking and not. Ready mode behaves as standard mode (the
 * receive is posted, so the eager or rendezvous path is already the fastest). */
#include "core/bsend.h"
#include "core/progress.h"
#include "core/pt2pt.h"
#include "core/trace.h"
#include "mpi/mpi_impl.h"
#include "mpi/typed.h"

static int send_blocking(const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                         int mode)
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

/* MPI_THREAD_MULTIPLE, the lock not taken yet (*held is -1): a standard send of a contiguous message that
 * the peer's transport takes at once leaves without the library lock (docs/per-communicator-locks.md,
 * "The first slice"): 1, *held 0; a nonblocking one (blocking 0) gets the shared request of sends complete
 * at once in *request. Anything else, a bad argument included, takes the lock (*held 1) and returns 0 for the
 * usual path, which checks the arguments again and reports what is wrong. */
static __attribute__((noinline)) int send_late(const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag,
                                               MPI_Comm comm, int mode, int blocking, MPI_Request *request,
                                               int *held)
{
    struct skiff_comm *c = skiff_comm_get(comm);
    /* First whether the peer has a direct path at all: a send to oneself, say, goes the usual way at
     * once, at the cost of one lookup. */
    if (mode == SKIFF_SEND_STANDARD && (blocking || request) && c && dest >= 0 && dest < c->peers &&
        skiff_transport_for(skiff_comm_world_rank(c, dest))->send_direct) {
        const struct skiff_type *t = skiff_type_get(dt);
        if (t && t->committed && t->contiguous && count >= 0 && count <= INT_MAX && t->size <= INT_MAX &&
            (buf || count == 0) && buf != MPI_IN_PLACE && tag >= 0 &&
            skiff_send_direct(skiff_type_data(buf, t), (size_t)count * t->size, dest, tag, c)) {
            if (!blocking)
                *request = SKIFF_REQ_SENT_HANDLE;
            *held = 0;
            return 1;
        }
    }
    *held = skiff_mt_enter();
    return 0;
}

/* A request that is complete from the start (MPI_PROC_NULL, buffered sends): the shared one. */
static int completed_request(MPI_Request *request)
{
    *request = SKIFF_REQ_SENT_HANDLE;
    return MPI_SUCCESS;
}

static int send_nonblocking(const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                            int mode, MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    int rc = skiff_check_p2p(buf, "buf", count, dt, dest, tag, comm, 0, &c, &t);
    if (SKIFF_UNLIKELY(rc || (rc = skiff_check_ptr(request, "request"))))
        return skiff_fail(comm, rc);
    if (SKIFF_UNLIKELY(dest == MPI_PROC_NULL))
        return completed_request(request);
    /* Started as a blocking send, a message that leaves at once makes no request: it gets the shared one
     * of sends complete at once. Not while tracing, whose records follow each request to its end. */
    struct skiff_request *r = NULL;
    rc = skiff_typed_send(buf, (size_t)count, t, dest, tag, c, mode, !skiff_tracing(), &r);
    if (SKIFF_UNLIKELY(rc))
        return skiff_fail(comm, rc);
    *request = r ? skiff_req_handle(r) : SKIFF_REQ_SENT_HANDLE;
    return MPI_SUCCESS;
}

/* Each call and its large-count twin (count_t MPI_Count, name ending in _c) differ only in the type of count. */
#define SEND_BLOCKING(name, count_t, mode)                                                               \
    int P##name(const void *buf, count_t count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)  \
    {                                                                                                    \
        SKIFF_ENTER_LATE(name);                                                                          \
        SKIFF_REQUIRE_INIT();                                                                            \
        SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));                                            \
        if (SKIFF_UNLIKELY(skiff_mt_held_ < 0) &&                                                        \
            send_late(buf, count, datatype, dest, tag, comm, mode, 1, NULL, &skiff_mt_held_))            \
            return MPI_SUCCESS;                                                                          \
        return send_blocking(buf, count, datatype, dest, tag, comm, mode);                               \
    }                                                                                                    \
    SKIFF_ALIAS(name)

#define SEND_NONBLOCKING(name, count_t, mode)                                                            \
    int P##name(const void *buf, count_t count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,  \
                MPI_Request *request)                                                                    \
    {                                                                                                    \
        SKIFF_ENTER_LATE(name);                                                                          \
        SKIFF_REQUIRE_INIT();                                                                            \
        SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));                                            \
        if (SKIFF_UNLIKELY(skiff_mt_held_ < 0) &&                                                        \
            send_late(buf, count, datatype, dest, tag, comm, mode, 0, request, &skiff_mt_held_))         \
            return MPI_SUCCESS;                                                                          \
        return send_nonblocking(buf, count, datatype, dest, tag, comm, mode, request);                   \
    }                                                                                                    \
    SKIFF_ALIAS(name)

SEND_BLOCKING(MPI_Send, int, SKIFF_SEND_STANDARD)
SEND_BLOCKING(MPI_Send_c, MPI_Count, SKIFF_SEND_STANDARD)
SEND_BLOCKING(MPI_Ssend, int, SKIFF_SEND_SYNC)
SEND_BLOCKING(MPI_Ssend_c, MPI_Count, SKIFF_SEND_SYNC)
SEND_BLOCKING(MPI_Rsend, int, SKIFF_SEND_STANDARD)
SEND_BLOCKING(MPI_Rsend_c, MPI_Count, SKIFF_SEND_STANDARD)
SEND_NONBLOCKING(MPI_Isend, int, SKIFF_SEND_STANDARD)
SEND_NONBLOCKING(MPI_Isend_c, MPI_Count, SKIFF_SEND_STANDARD)
SEND_NONBLOCKING(MPI_Issend, int, SKIFF_SEND_SYNC)
SEND_NONBLOCKING(MPI_Issend_c, MPI_Count, SKIFF_SEND_SYNC)
SEND_NONBLOCKING(MPI_Irsend, int, SKIFF_SEND_STANDARD)
SEND_NONBLOCKING(MPI_Irsend_c, MPI_Count, SKIFF_SEND_STANDARD)

static int bsend(const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    int rc = skiff_check_p2p(buf, "buf", count, dt, dest, tag, comm, 0, &c, &t);
    if (!rc && dest != MPI_PROC_NULL)
        rc = skiff_bsend(buf, (size_t)count, t, dest, tag, c);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

#define BSEND(name, count_t)                                                                             \
    int P##name(const void *buf, count_t count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)  \
    {                                                                                                    \
        SKIFF_ENTER(name);                                                                               \
        SKIFF_REQUIRE_INIT();                                                                            \
        SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));                                            \
        return bsend(buf, count, datatype, dest, tag, comm);                                             \
    }                                                                                                    \
    SKIFF_ALIAS(name)

static int ibsend(const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request)
{
    int rc = skiff_check_ptr(request, "request");
    if (SKIFF_UNLIKELY(rc))
        return skiff_fail(comm, rc);
    rc = bsend(buf, count, dt, dest, tag, comm);
    return rc ? rc : completed_request(request);
}

#define IBSEND(name, count_t)                                                                            \
    int P##name(const void *buf, count_t count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,  \
                MPI_Request *request)                                                                    \
    {                                                                                                    \
        SKIFF_ENTER(name);                                                                               \
        SKIFF_REQUIRE_INIT();                                                                            \
        SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));                                            \
        return ibsend(buf, count, datatype, dest, tag, comm, request);                                   \
    }                                                                                                    \
    SKIFF_ALIAS(name)

BSEND(MPI_Bsend, int)
BSEND(MPI_Bsend_c, MPI_Count)
IBSEND(MPI_Ibsend, int)
IBSEND(MPI_Ibsend_c, MPI_Count)
