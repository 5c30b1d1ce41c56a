/* Receives, probes and the combined send-receive calls. */
#include <stdlib.h>

#include "core/progress.h"
#include "core/pt2pt.h"
#include "mpi/mpi_impl.h"
#include "mpi/typed.h"

/* Completes r, fills status, releases r and applies the handler to any error it carried; *got: the
 * bytes received. */
static int finish(struct skiff_request *r, MPI_Status *status, size_t *got)
{
    if (r->state != SKIFF_RS_DONE)
        skiff_wait_req(r);
    skiff_status_from_req(status, r);
    *got = r->st_bytes;
    int rc = r->st_error;
    struct skiff_comm *c = r->comm;
    skiff_req_release(r);
    return rc ? skiff_err_handle(c, rc) : MPI_SUCCESS;
}

/* Shared by each call and its large-count twin; *got: the bytes received. Inlined: the ping-pong path. */
static inline __attribute__((always_inline)) int recv_impl(void *buf, MPI_Count count, MPI_Datatype datatype,
                                                           int source, int tag, MPI_Comm comm, MPI_Status *status,
                                                           size_t *got)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    int rc = skiff_check_p2p(buf, "buf", count, datatype, source, tag, comm, 1, &c, &t);
    if (SKIFF_UNLIKELY(rc))
        return skiff_fail(comm, rc);
    if (SKIFF_UNLIKELY(source == MPI_PROC_NULL)) {
        skiff_status_empty(status, MPI_PROC_NULL);
        return MPI_SUCCESS;
    }
    struct skiff_request *r = NULL;
    if ((rc = skiff_typed_recv(buf, (size_t)count, t, source, tag, c, &r)))
        return skiff_fail(comm, rc);
    return finish(r, status, got);
}

#define RECV(name, count_t)                                                                              \
    int P##name(void *buf, count_t count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,      \
                MPI_Status *status)                                                                      \
    {                                                                                                    \
        SKIFF_ENTER(name);                                                                               \
        SKIFF_REQUIRE_INIT();                                                                            \
        size_t got = 0;                                                                                  \
        int rc = recv_impl(buf, count, datatype, source, tag, comm, status, &got);                       \
        SKIFF_PROFILE_MSG(got);                                                                          \
        return rc;                                                                                       \
    }                                                                                                    \
    SKIFF_ALIAS(name)

RECV(MPI_Recv, int)
RECV(MPI_Recv_c, MPI_Count)

/* A receive from MPI_PROC_NULL: complete at once with the empty status. */
static int null_recv(MPI_Comm comm, MPI_Request *request)
{
    struct skiff_request *r = skiff_req_alloc(SKIFF_REQ_RECV);
    if (!r)
        return skiff_fail(comm, skiff_err(MPI_ERR_NO_MEM, "out of request objects"));
    r->state = SKIFF_RS_DONE;
    r->comm = skiff_comm_get(comm);
    r->st_source = MPI_PROC_NULL;
    r->st_tag = MPI_ANY_TAG;
    *request = skiff_req_handle(r);
    return MPI_SUCCESS;
}

static inline __attribute__((always_inline)) int irecv_impl(void *buf, MPI_Count count, MPI_Datatype datatype,
                                                            int source, int tag, MPI_Comm comm,
                                                            MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    int rc = skiff_check_p2p(buf, "buf", count, datatype, source, tag, comm, 1, &c, &t);
    if (SKIFF_UNLIKELY(rc || (rc = skiff_check_ptr(request, "request"))))
        return skiff_fail(comm, rc);
    if (SKIFF_UNLIKELY(source == MPI_PROC_NULL))
        return null_recv(comm, request);
    struct skiff_request *r = NULL;
    if ((rc = skiff_typed_recv(buf, (size_t)count, t, source, tag, c, &r)))
        return skiff_fail(comm, rc);
    *request = skiff_req_handle(r);
    return MPI_SUCCESS;
}

#define IRECV(name, count_t)                                                                             \
    int P##name(void *buf, count_t count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,      \
                MPI_Request *request)                                                                    \
    {                                                                                                    \
        SKIFF_ENTER(name);                                                                               \
        SKIFF_REQUIRE_INIT();                                                                            \
        SKIFF_PROFILE_MSG(skiff_prof_bytes(count, datatype));                                            \
        return irecv_impl(buf, count, datatype, source, tag, comm, request);                             \
    }                                                                                                    \
    SKIFF_ALIAS(name)

IRECV(MPI_Irecv, int)
IRECV(MPI_Irecv_c, MPI_Count)

static int check_probe(int source, int tag, MPI_Comm comm, struct skiff_comm **c)
{
    int rc;
    if ((rc = skiff_check_comm(comm, c)) || (rc = skiff_check_source(*c, source)) || (rc = skiff_check_recv_tag(tag)))
        return rc;
    return MPI_SUCCESS;
}

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER(MPI_Probe);
    SKIFF_REQUIRE_INIT();
    int rc = check_probe(source, tag, comm, &c);
    if (rc)
        return skiff_fail(comm, rc);
    if (source == MPI_PROC_NULL) {
        skiff_status_empty(status, MPI_PROC_NULL);
        return MPI_SUCCESS;
    }
    struct skiff_waiter w = SKIFF_WAITER_INIT;
    while (!skiff_probe_once(source, tag, c, status))
        skiff_wait_step(&w);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Probe)

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER(MPI_Iprobe);
    SKIFF_REQUIRE_INIT();
    int rc = check_probe(source, tag, comm, &c);
    if (rc || (rc = skiff_check_ptr(flag, "flag")))
        return skiff_fail(comm, rc);
    if (source == MPI_PROC_NULL) {
        skiff_status_empty(status, MPI_PROC_NULL);
        *flag = 1;
        return MPI_SUCCESS;
    }
    *flag = skiff_probe_once(source, tag, c, status);
    if (!*flag) {
        skiff_progress();
        *flag = skiff_probe_once(source, tag, c, status);
    }
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Iprobe)

/* Posts the receive, sends, waits for both. The send's buffer is free when this returns; *got: the
 * bytes received. */
static int sendrecv(const void *sendbuf, size_t sendcount, const struct skiff_type *st, int dest, int sendtag,
                    void *recvbuf, size_t recvcount, const struct skiff_type *rt, int source, int recvtag,
                    struct skiff_comm *c, MPI_Status *status, size_t *got)
{
    struct skiff_request *rr = NULL, *sr = NULL;
    int rc;
    if (source != MPI_PROC_NULL && (rc = skiff_typed_recv(recvbuf, recvcount, rt, source, recvtag, c, &rr)))
        return skiff_err_handle(c, rc);
    if (dest != MPI_PROC_NULL &&
        (rc = skiff_typed_send(sendbuf, sendcount, st, dest, sendtag, c, SKIFF_SEND_STANDARD, 1, &sr)))
        return skiff_err_handle(c, rc);
    if (sr) {
        skiff_wait_req(sr);
        skiff_req_release(sr);
    }
    if (!rr) {
        skiff_status_empty(status, MPI_PROC_NULL);
        return MPI_SUCCESS;
    }
    return finish(rr, status, got);
}

/* MPI forbids send and receive buffers that overlap (MPI_Sendrecv_replace is for that). Detectable
 * cheaply when both types are contiguous (exact byte ranges) or the data of both starts at the same
 * byte; a side that moves nothing cannot conflict. */
int skiff_check_disjoint(const void *sendbuf, MPI_Count sendcount, const struct skiff_type *st, int dest,
                         const void *recvbuf, MPI_Count recvcount, const struct skiff_type *rt, int source)
{
    size_t sn = (size_t)sendcount * st->size, rn = (size_t)recvcount * rt->size;
    if (dest == MPI_PROC_NULL || source == MPI_PROC_NULL || !sn || !rn)
        return MPI_SUCCESS;
    uintptr_t s = (uintptr_t)skiff_type_data(sendbuf, st), r = (uintptr_t)skiff_type_data(recvbuf, rt);
    int apart = s != r && (!st->contiguous || !rt->contiguous || s + sn <= r || r + rn <= s);
    if (SKIFF_LIKELY(apart))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_BUFFER,
                     "the send buffer (%zu bytes at %p) and the receive buffer (%zu bytes at %p) overlap: "
                     "use MPI_Sendrecv_replace",
                     sn, (void *)s, rn, (void *)r);
}

/* *sent, *got: the bytes sent and received. */
static int sendrecv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                         MPI_Comm comm, MPI_Status *status, size_t *sent, size_t *got)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *st = NULL, *rt = NULL;
    int rc = skiff_check_p2p(sendbuf, "sendbuf", sendcount, sendtype, dest, sendtag, comm, 0, &c, &st);
    if (!rc)
        rc = skiff_check_p2p(recvbuf, "recvbuf", recvcount, recvtype, source, recvtag, comm, 1, &c, &rt);
    if (!rc)
        rc = skiff_check_disjoint(sendbuf, sendcount, st, dest, recvbuf, recvcount, rt, source);
    if (rc)
        return skiff_fail(comm, rc);
    *sent = skiff_prof_bytes(sendcount, sendtype);
    return sendrecv(sendbuf, (size_t)sendcount, st, dest, sendtag, recvbuf, (size_t)recvcount, rt, source, recvtag, c,
                    status, got);
}

#define SENDRECV(name, count_t)                                                                          \
    int P##name(const void *sendbuf, count_t sendcount, MPI_Datatype sendtype, int dest, int sendtag,     \
                void *recvbuf, count_t recvcount, MPI_Datatype recvtype, int source, int recvtag,         \
                MPI_Comm comm, MPI_Status *status)                                                       \
    {                                                                                                    \
        SKIFF_ENTER(name);                                                                               \
        SKIFF_REQUIRE_INIT();                                                                            \
        size_t sent = 0, got = 0;                                                                        \
        int rc = sendrecv_impl(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, \
                               source, recvtag, comm, status, &sent, &got);                              \
        SKIFF_PROFILE_MSG(sent);                                                                         \
        SKIFF_PROFILE_MSG(got);                                                                          \
        return rc;                                                                                       \
    }                                                                                                    \
    SKIFF_ALIAS(name)

SENDRECV(MPI_Sendrecv, int)
SENDRECV(MPI_Sendrecv_c, MPI_Count)

static int sendrecv_replace_impl(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source,
                                 int recvtag, MPI_Comm comm, MPI_Status *status, size_t *sent, size_t *got)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    int rc = skiff_check_p2p(buf, "buf", count, datatype, dest, sendtag, comm, 0, &c, &t);
    if (!rc)
        rc = skiff_check_p2p(buf, "buf", count, datatype, source, recvtag, comm, 1, &c, &t);
    if (rc)
        return skiff_fail(comm, rc);
    /* The outgoing data must survive the incoming overwrite: send it packed, from a copy. */
    size_t bytes = skiff_type_packed_size(t, (size_t)count);
    void *copy = malloc(bytes ? bytes : 1);
    if (!copy)
        return skiff_fail(comm, skiff_err(MPI_ERR_NO_MEM, "cannot allocate %zu bytes for the outgoing copy", bytes));
    skiff_type_pack(buf, (size_t)count, t, copy);
    rc = sendrecv(copy, bytes, skiff_type_get(MPI_BYTE), dest, sendtag, buf, (size_t)count, t, source, recvtag, c,
                  status, got);
    free(copy);
    *sent = bytes;
    return rc;
}

#define SENDRECV_REPLACE(name, count_t)                                                                  \
    int P##name(void *buf, count_t count, MPI_Datatype datatype, int dest, int sendtag, int source,       \
                int recvtag, MPI_Comm comm, MPI_Status *status)                                          \
    {                                                                                                    \
        SKIFF_ENTER(name);                                                                               \
        SKIFF_REQUIRE_INIT();                                                                            \
        size_t sent = 0, got = 0;                                                                        \
        int rc = sendrecv_replace_impl(buf, count, datatype, dest, sendtag, source, recvtag, comm, status, \
                                       &sent, &got);                                                     \
        SKIFF_PROFILE_MSG(sent);                                                                         \
        SKIFF_PROFILE_MSG(got);                                                                          \
        return rc;                                                                                       \
    }                                                                                                    \
    SKIFF_ALIAS(name)

SENDRECV_REPLACE(MPI_Sendrecv_replace, int)
SENDRECV_REPLACE(MPI_Sendrecv_replace_c, MPI_Count)
