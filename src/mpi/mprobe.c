/* Matched probe: MPI_Mprobe/MPI_Improbe take the message they find out of the unexpected queue into a
 * message handle, so that no other receive (a wildcard one posted in between, say) can take it, and
 * MPI_Mrecv/MPI_Imrecv receive exactly that message. A message handle is the id of a request object of
 * kind SKIFF_REQ_MSG (core/request.h): stale or made-up handles find nothing, as request handles do. A
 * rendezvous message waits in its handle with its sender unanswered; MPI_Finalize answers it (DROP) if
 * no MPI_Mrecv came (core/pt2pt.c). */
#include "core/progress.h"
#include "core/pt2pt.h"
#include "mpi/mpi_impl.h"
#include "mpi/typed.h"

static MPI_Message message_handle(struct skiff_request *m)
{
    return (MPI_Message)(uintptr_t)skiff_req_id(m);
}

static int check_probe(int source, int tag, MPI_Comm comm, const void *message, struct skiff_comm **c)
{
    int rc;
    if ((rc = skiff_check_comm(comm, c)) || (rc = skiff_check_source(*c, source)) || (rc = skiff_check_recv_tag(tag)))
        return rc;
    return skiff_check_ptr(message, "message");
}

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER(MPI_Mprobe);
    SKIFF_REQUIRE_INIT();
    int rc = check_probe(source, tag, comm, message, &c);
    if (rc)
        return skiff_fail(comm, rc);
    if (source == MPI_PROC_NULL) {
        skiff_status_empty(status, MPI_PROC_NULL);
        *message = MPI_MESSAGE_NO_PROC;
        return MPI_SUCCESS;
    }
    struct skiff_request *m = NULL;
    struct skiff_waiter w = SKIFF_WAITER_INIT;
    while (!(rc = skiff_mprobe_once(source, tag, c, status, &m)) && !m)
        skiff_wait_step(&w);
    if (rc)
        return skiff_fail(comm, rc);
    *message = message_handle(m);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Mprobe)

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER(MPI_Improbe);
    SKIFF_REQUIRE_INIT();
    int rc = check_probe(source, tag, comm, message, &c);
    if (rc || (rc = skiff_check_ptr(flag, "flag")))
        return skiff_fail(comm, rc);
    if (source == MPI_PROC_NULL) {
        skiff_status_empty(status, MPI_PROC_NULL);
        *message = MPI_MESSAGE_NO_PROC;
        *flag = 1;
        return MPI_SUCCESS;
    }
    struct skiff_request *m = NULL;
    rc = skiff_mprobe_once(source, tag, c, status, &m);
    if (!rc && !m) {
        skiff_progress();
        rc = skiff_mprobe_once(source, tag, c, status, &m);
    }
    if (rc)
        return skiff_fail(comm, rc);
    *flag = m != NULL;
    /* The standard leaves the handle undefined when nothing matched; MPICH and Open MPI set it null. */
    *message = m ? message_handle(m) : MPI_MESSAGE_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Improbe)

/* The arguments of Mrecv and Imrecv; *m is NULL for MPI_MESSAGE_NO_PROC. */
static int check_mrecv(void *buf, MPI_Count count, MPI_Datatype dt, const MPI_Message *message, const void *out,
                       const char *out_name, const struct skiff_type **t, struct skiff_request **m)
{
    int rc;
    if ((rc = skiff_check_ptr(message, "message")) || (out_name && (rc = skiff_check_ptr(out, out_name))))
        return rc;
    if (*message == MPI_MESSAGE_NO_PROC)
        *m = NULL;
    else if (!(*m = skiff_req_lookup((uint64_t)(uintptr_t)*message)) || (*m)->kind != SKIFF_REQ_MSG)
        return skiff_err(MPI_ERR_REQUEST, "message %#llx is not a matched message (%s)",
                         (unsigned long long)(uintptr_t)*message,
                         *message == MPI_MESSAGE_NULL ? "MPI_MESSAGE_NULL"
                                                      : "already received, or never given by MPI_Mprobe/MPI_Improbe");
    if ((rc = skiff_check_count(count)) || (rc = skiff_check_dtype(dt, 1, t)) ||
        (rc = skiff_check_not_in_place(buf, "buf")) || (rc = skiff_check_typed_buf(buf, count, *t)))
        return rc;
    return MPI_SUCCESS;
}

/* The handler that applies: the message's communicator's, or MPI_COMM_WORLD's for a bad handle. */
static int mrecv_fail(const struct skiff_request *m, int rc)
{
    return skiff_err_handle(m ? m->comm : NULL, rc);
}

/* Shared by each call and its large-count twin; *got: the bytes received. */
static int mrecv_impl(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status,
                      size_t *got)
{
    const struct skiff_type *t = NULL;
    struct skiff_request *m = NULL;
    int rc = check_mrecv(buf, count, datatype, message, NULL, NULL, &t, &m);
    if (rc)
        return mrecv_fail(m, rc);
    *message = MPI_MESSAGE_NULL;
    if (!m) {
        skiff_status_empty(status, MPI_PROC_NULL);
        return MPI_SUCCESS;
    }
    if ((rc = skiff_typed_mrecv(buf, (size_t)count, t, m)))
        return mrecv_fail(m, rc);
    if (m->state != SKIFF_RS_DONE)
        skiff_wait_req(m);
    skiff_status_from_req(status, m);
    *got = m->st_bytes;
    struct skiff_comm *c = m->comm;
    rc = m->st_error;
    skiff_req_release(m);
    return rc ? skiff_err_handle(c, rc) : MPI_SUCCESS;
}

#define MRECV(name, count_t)                                                                             \
    int P##name(void *buf, count_t count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status) \
    {                                                                                                    \
        SKIFF_ENTER(name);                                                                               \
        SKIFF_REQUIRE_INIT();                                                                            \
        size_t got = 0;                                                                                  \
        int rc = mrecv_impl(buf, count, datatype, message, status, &got);                                \
        SKIFF_PROFILE_MSG(got);                                                                          \
        return rc;                                                                                       \
    }                                                                                                    \
    SKIFF_ALIAS(name)

MRECV(MPI_Mrecv, int)
MRECV(MPI_Mrecv_c, MPI_Count)

static int imrecv_impl(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request)
{
    const struct skiff_type *t = NULL;
    struct skiff_request *m = NULL;
    int rc = check_mrecv(buf, count, datatype, message, request, "request", &t, &m);
    if (rc)
        return mrecv_fail(m, rc);
    if (!m) {
        /* From MPI_PROC_NULL: a request complete at once with the empty status. */
        struct skiff_request *r = skiff_req_alloc(SKIFF_REQ_RECV);
        if (!r)
            return mrecv_fail(NULL, skiff_err(MPI_ERR_NO_MEM, "out of request objects"));
        r->state = SKIFF_RS_DONE;
        r->comm = &skiff_comm_world;
        r->st_source = MPI_PROC_NULL;
        r->st_tag = MPI_ANY_TAG;
        *message = MPI_MESSAGE_NULL;
        *request = skiff_req_handle(r);
        return MPI_SUCCESS;
    }
    if ((rc = skiff_typed_mrecv(buf, (size_t)count, t, m)))
        return mrecv_fail(m, rc);
    *message = MPI_MESSAGE_NULL;
    *request = skiff_req_handle(m);
    return MPI_SUCCESS;
}

#define IMRECV(name, count_t)                                                                            \
    int P##name(void *buf, count_t count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request) \
    {                                                                                                    \
        SKIFF_ENTER(name);                                                                               \
        SKIFF_REQUIRE_INIT();                                                                            \
        SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));                                            \
        return imrecv_impl(buf, count, datatype, message, request);                                      \
    }                                                                                                    \
    SKIFF_ALIAS(name)

IMRECV(MPI_Imrecv, int)
IMRECV(MPI_Imrecv_c, MPI_Count)
