/* bad_input rows: point-to-point, probe, requests and completion (see bad_input.h).
 *
 * The eight send calls (and the two receives, the two probes) take the same arguments, so each is run
 * through one signature and every bad argument becomes one row per call, made by a macro. */
#include <stdint.h>

#include "bad_input.h"

enum send_call { SEND, SSEND, RSEND, BSEND, ISEND, ISSEND, IRSEND, IBSEND };

static int send_as(enum send_call k, const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                   MPI_Request *req)
{
    switch (k) {
    case SEND:
        return MPI_Send(buf, count, dt, dest, tag, comm);
    case SSEND:
        return MPI_Ssend(buf, count, dt, dest, tag, comm);
    case RSEND:
        return MPI_Rsend(buf, count, dt, dest, tag, comm);
    case BSEND:
        return MPI_Bsend(buf, count, dt, dest, tag, comm);
    case ISEND:
        return MPI_Isend(buf, count, dt, dest, tag, comm, req);
    case ISSEND:
        return MPI_Issend(buf, count, dt, dest, tag, comm, req);
    case IRSEND:
        return MPI_Irsend(buf, count, dt, dest, tag, comm, req);
    case IBSEND:
        return MPI_Ibsend(buf, count, dt, dest, tag, comm, req);
    }
    return MPI_SUCCESS;
}

/* Every argument check a send makes, one function each. */
#define SEND_CASES(name, k)                                                                              \
    static int name##_rank_high(struct bad_ctx *x)                                                       \
    {                                                                                                    \
        return send_as(k, x->ibuf, 1, MPI_INT, 99, 0, x->comm, &x->req);                                 \
    }                                                                                                    \
    static int name##_tag_negative(struct bad_ctx *x)                                                    \
    {                                                                                                    \
        return send_as(k, x->ibuf, 1, MPI_INT, 0, -7, x->comm, &x->req);                                 \
    }                                                                                                    \
    static int name##_count_negative(struct bad_ctx *x)                                                  \
    {                                                                                                    \
        return send_as(k, x->ibuf, -3, MPI_INT, 0, 0, x->comm, &x->req);                                 \
    }                                                                                                    \
    static int name##_type_null(struct bad_ctx *x)                                                       \
    {                                                                                                    \
        return send_as(k, x->ibuf, 1, MPI_DATATYPE_NULL, 0, 0, x->comm, &x->req);                        \
    }                                                                                                    \
    static int name##_comm_null(struct bad_ctx *x)                                                       \
    {                                                                                                    \
        return send_as(k, x->ibuf, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &x->req);                            \
    }                                                                                                    \
    static int name##_null_buf(struct bad_ctx *x)                                                        \
    {                                                                                                    \
        return send_as(k, NULL, 4, MPI_INT, 0, 0, x->comm, &x->req);                                     \
    }                                                                                                    \
    static int name##_in_place(struct bad_ctx *x)                                                        \
    {                                                                                                    \
        return send_as(k, MPI_IN_PLACE, 1, MPI_INT, 0, 0, x->comm, &x->req);                             \
    }

/* The rows of SEND_CASES or RECV_CASES (which make the same suffixes). */
#define P2P_ROWS(name, call)                                                                            \
    {#name "_rank_high", call, MPI_ERR_RANK, "invalid rank 99", name##_rank_high},                       \
        {#name "_tag_negative", call, MPI_ERR_TAG, "invalid tag -7", name##_tag_negative},               \
        {#name "_count_negative", call, MPI_ERR_COUNT, "invalid count -3", name##_count_negative},       \
        {#name "_type_null", call, MPI_ERR_TYPE, "MPI_DATATYPE_NULL", name##_type_null},                 \
        {#name "_comm_null", call, MPI_ERR_COMM, "MPI_COMM_NULL", name##_comm_null},                     \
        {#name "_null_buf", call, MPI_ERR_BUFFER, "NULL but count is 4", name##_null_buf},               \
        {#name "_in_place", call, MPI_ERR_BUFFER, "MPI_IN_PLACE", name##_in_place}

/* The nonblocking calls also need somewhere to put the request. */
#define NB_SEND_CASE(name, k)                                                                            \
    static int name##_null_request(struct bad_ctx *x)                                                    \
    {                                                                                                    \
        return send_as(k, x->ibuf, 1, MPI_INT, 0, 0, x->comm, NULL);                                     \
    }
#define NB_ROW(name, call) {#name "_null_request", call, MPI_ERR_ARG, "request is NULL", name##_null_request}

SEND_CASES(send, SEND)
SEND_CASES(ssend, SSEND)
SEND_CASES(rsend, RSEND)
SEND_CASES(bsend, BSEND)
SEND_CASES(isend, ISEND)
SEND_CASES(issend, ISSEND)
SEND_CASES(irsend, IRSEND)
SEND_CASES(ibsend, IBSEND)
NB_SEND_CASE(isend, ISEND)
NB_SEND_CASE(issend, ISSEND)
NB_SEND_CASE(irsend, IRSEND)
NB_SEND_CASE(ibsend, IBSEND)

/* Sends: the other ways to get a handle or a value wrong. */

static int send_uncommitted(struct bad_ctx *x)
{
    MPI_Datatype t = bad_uncommitted_type();
    int rc = MPI_Send(x->ibuf, 1, t, 0, 0, x->comm);
    MPI_Type_free(&t);
    return rc;
}

static int send_freed_type(struct bad_ctx *x)
{
    return MPI_Send(x->ibuf, 1, bad_freed_type(), 0, 0, x->comm);
}

static int send_freed_comm(struct bad_ctx *x)
{
    return MPI_Send(x->ibuf, 1, MPI_INT, 0, 0, bad_freed_comm());
}

static int send_any_tag(struct bad_ctx *x)
{
    return MPI_Send(x->ibuf, 1, MPI_INT, 0, MPI_ANY_TAG, x->comm);
}

static int send_any_source(struct bad_ctx *x)
{
    return MPI_Send(x->ibuf, 1, MPI_INT, MPI_ANY_SOURCE, 0, x->comm);
}

/* Buffered mode: nothing attached, too little attached. */

static int bsend_unattached(struct bad_ctx *x)
{
    return MPI_Bsend(x->ibuf, 4, MPI_INT, 0, 0, x->self);
}

static char small_buffer[100];

static int bsend_too_big(struct bad_ctx *x)
{
    void *addr;
    int size;
    MPI_Buffer_attach(small_buffer, sizeof small_buffer);
    int rc = MPI_Bsend(x->ibuf, 64, MPI_INT, 0, 0, x->self);
    MPI_Buffer_detach(&addr, &size);
    return rc;
}

static int ibsend_too_big(struct bad_ctx *x)
{
    void *addr;
    int size;
    MPI_Buffer_attach(small_buffer, sizeof small_buffer);
    int rc = MPI_Ibsend(x->ibuf, 64, MPI_INT, 0, 0, x->self, &x->req);
    MPI_Buffer_detach(&addr, &size);
    return rc;
}

static int buffer_attach_negative(struct bad_ctx *x)
{
    (void)x;
    return MPI_Buffer_attach(small_buffer, -3);
}

static int buffer_attach_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Buffer_attach(NULL, 100);
}

static int buffer_attach_twice(struct bad_ctx *x)
{
    void *addr;
    int size;
    (void)x;
    MPI_Buffer_attach(small_buffer, 50);
    int rc = MPI_Buffer_attach(small_buffer + 50, 50);
    MPI_Buffer_detach(&addr, &size);
    return rc;
}

static int buffer_attach_automatic_twice(struct bad_ctx *x)
{
    void *addr;
    int size;
    (void)x;
    MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0);
    int rc = MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0);
    MPI_Buffer_detach(&addr, &size);
    return rc;
}

static int buffer_detach_null_addr(struct bad_ctx *x)
{
    int size;
    (void)x;
    return MPI_Buffer_detach(NULL, &size);
}

static int comm_attach_buffer_null_comm(struct bad_ctx *x)
{
    (void)x;
    return MPI_Comm_attach_buffer(MPI_COMM_NULL, small_buffer, 50);
}

static int comm_attach_buffer_negative(struct bad_ctx *x)
{
    return MPI_Comm_attach_buffer(x->comm, small_buffer, -5);
}

static int comm_attach_buffer_twice(struct bad_ctx *x)
{
    void *addr;
    int size;
    MPI_Comm_attach_buffer(x->comm, small_buffer, 40);
    int rc = MPI_Comm_attach_buffer(x->comm, small_buffer + 50, 50);
    MPI_Comm_detach_buffer(x->comm, &addr, &size);
    return rc;
}

/* The communicator's buffer is used instead of the process's, however small. */
static int comm_bsend_too_big(struct bad_ctx *x)
{
    void *addr;
    int size;
    MPI_Comm_attach_buffer(x->self, small_buffer, sizeof small_buffer);
    int rc = MPI_Bsend(x->ibuf, 64, MPI_INT, 0, 0, x->self);
    MPI_Comm_detach_buffer(x->self, &addr, &size);
    return rc;
}

static int comm_detach_buffer_null_size(struct bad_ctx *x)
{
    void *addr;
    return MPI_Comm_detach_buffer(x->comm, &addr, NULL);
}

static int comm_flush_buffer_freed(struct bad_ctx *x)
{
    (void)x;
    return MPI_Comm_flush_buffer(bad_freed_comm());
}

static int comm_iflush_buffer_null_request(struct bad_ctx *x)
{
    return MPI_Comm_iflush_buffer(x->comm, NULL);
}

static int buffer_iflush_null_request(struct bad_ctx *x)
{
    (void)x;
    return MPI_Buffer_iflush(NULL);
}

static int buffer_detach_null_size(struct bad_ctx *x)
{
    void *addr;
    (void)x;
    return MPI_Buffer_detach(&addr, NULL);
}

/* Receives and probes. */

enum recv_call { RECV, IRECV };

static int recv_as(enum recv_call k, void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
                   struct bad_ctx *x, MPI_Request *req)
{
    return k == RECV ? MPI_Recv(buf, count, dt, source, tag, comm, &x->status)
                     : MPI_Irecv(buf, count, dt, source, tag, comm, req);
}

#define RECV_CASES(name, k)                                                                              \
    static int name##_rank_high(struct bad_ctx *x)                                                       \
    {                                                                                                    \
        return recv_as(k, x->ibuf, 1, MPI_INT, 99, 0, x->comm, x, &x->req);                              \
    }                                                                                                    \
    static int name##_tag_negative(struct bad_ctx *x)                                                    \
    {                                                                                                    \
        return recv_as(k, x->ibuf, 1, MPI_INT, 0, -7, x->comm, x, &x->req);                              \
    }                                                                                                    \
    static int name##_count_negative(struct bad_ctx *x)                                                  \
    {                                                                                                    \
        return recv_as(k, x->ibuf, -3, MPI_INT, 0, 0, x->comm, x, &x->req);                              \
    }                                                                                                    \
    static int name##_type_null(struct bad_ctx *x)                                                       \
    {                                                                                                    \
        return recv_as(k, x->ibuf, 1, MPI_DATATYPE_NULL, 0, 0, x->comm, x, &x->req);                     \
    }                                                                                                    \
    static int name##_comm_null(struct bad_ctx *x)                                                       \
    {                                                                                                    \
        return recv_as(k, x->ibuf, 1, MPI_INT, 0, 0, MPI_COMM_NULL, x, &x->req);                         \
    }                                                                                                    \
    static int name##_null_buf(struct bad_ctx *x)                                                        \
    {                                                                                                    \
        return recv_as(k, NULL, 4, MPI_INT, 0, 0, x->comm, x, &x->req);                                  \
    }                                                                                                    \
    static int name##_in_place(struct bad_ctx *x)                                                        \
    {                                                                                                    \
        return recv_as(k, MPI_IN_PLACE, 1, MPI_INT, 0, 0, x->comm, x, &x->req);                          \
    }

RECV_CASES(recv, RECV)
RECV_CASES(irecv, IRECV)

static int recv_uncommitted(struct bad_ctx *x)
{
    MPI_Datatype t = bad_uncommitted_type();
    int rc = MPI_Recv(x->ibuf, 1, t, 0, 0, x->comm, MPI_STATUS_IGNORE);
    MPI_Type_free(&t);
    return rc;
}

static int recv_freed_comm(struct bad_ctx *x)
{
    return MPI_Recv(x->ibuf, 1, MPI_INT, 0, 0, bad_freed_comm(), MPI_STATUS_IGNORE);
}

static int irecv_null_request(struct bad_ctx *x)
{
    return MPI_Irecv(x->ibuf, 1, MPI_INT, 0, 0, x->comm, NULL);
}

static int probe_rank_high(struct bad_ctx *x)
{
    return MPI_Probe(99, 0, x->comm, MPI_STATUS_IGNORE);
}

static int probe_tag_negative(struct bad_ctx *x)
{
    return MPI_Probe(0, -7, x->comm, MPI_STATUS_IGNORE);
}

static int probe_comm_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Probe(0, 0, MPI_COMM_NULL, MPI_STATUS_IGNORE);
}

static int iprobe_rank_high(struct bad_ctx *x)
{
    int flag;
    return MPI_Iprobe(99, 0, x->comm, &flag, MPI_STATUS_IGNORE);
}

static int iprobe_tag_negative(struct bad_ctx *x)
{
    int flag;
    return MPI_Iprobe(0, -7, x->comm, &flag, MPI_STATUS_IGNORE);
}

static int iprobe_freed_comm(struct bad_ctx *x)
{
    int flag;
    (void)x;
    return MPI_Iprobe(0, 0, bad_freed_comm(), &flag, MPI_STATUS_IGNORE);
}

static int iprobe_null_flag(struct bad_ctx *x)
{
    return MPI_Iprobe(0, 0, x->comm, NULL, MPI_STATUS_IGNORE);
}

/* Send-receive: both halves are checked, and the buffers must not overlap. */

static int sendrecv(struct bad_ctx *x, const void *sbuf, int scount, int dest, int stag, void *rbuf, int rcount,
                    MPI_Datatype rtype, int source, int rtag)
{
    return MPI_Sendrecv(sbuf, scount, MPI_INT, dest, stag, rbuf, rcount, rtype, source, rtag, x->comm, &x->status);
}

static int sendrecv_dest_high(struct bad_ctx *x)
{
    return sendrecv(x, x->ibuf, 1, 99, 0, x->ibuf2, 1, MPI_INT, 0, 0);
}

static int sendrecv_source_high(struct bad_ctx *x)
{
    return sendrecv(x, x->ibuf, 1, 0, 0, x->ibuf2, 1, MPI_INT, 98, 0);
}

static int sendrecv_sendtag(struct bad_ctx *x)
{
    return sendrecv(x, x->ibuf, 1, 0, -7, x->ibuf2, 1, MPI_INT, 0, 0);
}

static int sendrecv_recvtag(struct bad_ctx *x)
{
    return sendrecv(x, x->ibuf, 1, 0, 0, x->ibuf2, 1, MPI_INT, 0, -8);
}

static int sendrecv_sendcount(struct bad_ctx *x)
{
    return sendrecv(x, x->ibuf, -3, 0, 0, x->ibuf2, 1, MPI_INT, 0, 0);
}

static int sendrecv_recvcount(struct bad_ctx *x)
{
    return sendrecv(x, x->ibuf, 1, 0, 0, x->ibuf2, -4, MPI_INT, 0, 0);
}

static int sendrecv_recvtype_uncommitted(struct bad_ctx *x)
{
    MPI_Datatype t = bad_uncommitted_type();
    int rc = sendrecv(x, x->ibuf, 1, 0, 0, x->ibuf2, 1, t, 0, 0);
    MPI_Type_free(&t);
    return rc;
}

static int sendrecv_comm_null(struct bad_ctx *x)
{
    return MPI_Sendrecv(x->ibuf, 1, MPI_INT, 0, 0, x->ibuf2, 1, MPI_INT, 0, 0, MPI_COMM_NULL, MPI_STATUS_IGNORE);
}

static int sendrecv_null_recvbuf(struct bad_ctx *x)
{
    return sendrecv(x, x->ibuf, 1, 0, 0, NULL, 5, MPI_INT, 0, 0);
}

static int sendrecv_in_place(struct bad_ctx *x)
{
    return sendrecv(x, MPI_IN_PLACE, 1, 0, 0, x->ibuf2, 1, MPI_INT, 0, 0);
}

static int sendrecv_same_buf(struct bad_ctx *x)
{
    return sendrecv(x, x->ibuf, 4, 0, 0, x->ibuf, 4, MPI_INT, 0, 0);
}

/* ints 0..3 sent, 2..5 received: the ranges share ints 2 and 3 */
static int sendrecv_overlap(struct bad_ctx *x)
{
    return sendrecv(x, x->ibuf, 4, 0, 0, x->ibuf + 2, 4, MPI_INT, 0, 0);
}

/* The same start, a noncontiguous receive type: the first int is in both. */
static int sendrecv_same_start_vector(struct bad_ctx *x)
{
    MPI_Datatype t = bad_uncommitted_type();
    MPI_Type_commit(&t);
    int rc = sendrecv(x, x->ibuf, 1, 0, 0, x->ibuf, 1, t, 0, 0);
    MPI_Type_free(&t);
    return rc;
}

static int sendrecv_replace_rank_high(struct bad_ctx *x)
{
    return MPI_Sendrecv_replace(x->ibuf, 1, MPI_INT, 0, 0, 99, 0, x->comm, MPI_STATUS_IGNORE);
}

static int sendrecv_replace_tag_negative(struct bad_ctx *x)
{
    return MPI_Sendrecv_replace(x->ibuf, 1, MPI_INT, 0, -7, 0, 0, x->comm, MPI_STATUS_IGNORE);
}

static int sendrecv_replace_count_negative(struct bad_ctx *x)
{
    return MPI_Sendrecv_replace(x->ibuf, -3, MPI_INT, 0, 0, 0, 0, x->comm, MPI_STATUS_IGNORE);
}

static int sendrecv_replace_uncommitted(struct bad_ctx *x)
{
    MPI_Datatype t = bad_uncommitted_type();
    int rc = MPI_Sendrecv_replace(x->ibuf, 1, t, 0, 0, 0, 0, x->comm, MPI_STATUS_IGNORE);
    MPI_Type_free(&t);
    return rc;
}

static int sendrecv_replace_freed_comm(struct bad_ctx *x)
{
    return MPI_Sendrecv_replace(x->ibuf, 1, MPI_INT, 0, 0, 0, 0, bad_freed_comm(), MPI_STATUS_IGNORE);
}

static int sendrecv_replace_null_buf(struct bad_ctx *x)
{
    return MPI_Sendrecv_replace(NULL, 4, MPI_INT, 0, 0, 0, 0, x->comm, MPI_STATUS_IGNORE);
}

static int sendrecv_replace_in_place(struct bad_ctx *x)
{
    return MPI_Sendrecv_replace(MPI_IN_PLACE, 1, MPI_INT, 0, 0, 0, 0, x->comm, MPI_STATUS_IGNORE);
}

/* Requests. A released request's handle, kept by the user: made here, so nothing has reused the
 * slot yet (the check must not depend on that). */
static MPI_Request freed_request(void)
{
    MPI_Request r = MPI_REQUEST_NULL, stale;
    int buf;
    MPI_Irecv(&buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_SELF, &r);
    stale = r;
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    return stale;
}

/* A handle that reuses a released request's slot must still be refused. */
static MPI_Request reused_request_stale_handle(MPI_Request *live)
{
    MPI_Request stale = freed_request();
    int buf;
    MPI_Irecv(&buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_SELF, live);
    return stale;
}

#define FORGED_REQUEST ((MPI_Request)(uintptr_t)0x12345)

static int wait_null_ptr(struct bad_ctx *x)
{
    return MPI_Wait(NULL, &x->status);
}

static int wait_freed(struct bad_ctx *x)
{
    MPI_Request r = freed_request();
    return MPI_Wait(&r, &x->status);
}

static int wait_reused(struct bad_ctx *x)
{
    MPI_Request live, stale = reused_request_stale_handle(&live);
    int rc = MPI_Wait(&stale, &x->status);
    MPI_Wait(&live, MPI_STATUS_IGNORE);
    return rc;
}

static int wait_forged(struct bad_ctx *x)
{
    MPI_Request r = FORGED_REQUEST;
    return MPI_Wait(&r, &x->status);
}

static int test_null_ptr(struct bad_ctx *x)
{
    int flag;
    return MPI_Test(NULL, &flag, &x->status);
}

static int test_freed(struct bad_ctx *x)
{
    int flag;
    MPI_Request r = freed_request();
    return MPI_Test(&r, &flag, &x->status);
}

static int test_null_flag(struct bad_ctx *x)
{
    MPI_Request r = MPI_REQUEST_NULL;
    return MPI_Test(&r, NULL, &x->status);
}

/* The array calls, behind one signature: count, the array, and the output pointers each may give. */
enum array_call { WAITALL, WAITANY, WAITSOME, TESTALL, TESTANY, TESTSOME };

struct array_out {
    int *index, *flag, *outcount, *indices;
};

static int array_as(enum array_call k, int count, MPI_Request reqs[], struct array_out o)
{
    switch (k) {
    case WAITALL:
        return MPI_Waitall(count, reqs, MPI_STATUSES_IGNORE);
    case WAITANY:
        return MPI_Waitany(count, reqs, o.index, MPI_STATUS_IGNORE);
    case WAITSOME:
        return MPI_Waitsome(count, reqs, o.outcount, o.indices, MPI_STATUSES_IGNORE);
    case TESTALL:
        return MPI_Testall(count, reqs, o.flag, MPI_STATUSES_IGNORE);
    case TESTANY:
        return MPI_Testany(count, reqs, o.index, o.flag, MPI_STATUS_IGNORE);
    case TESTSOME:
        return MPI_Testsome(count, reqs, o.outcount, o.indices, MPI_STATUSES_IGNORE);
    }
    return MPI_SUCCESS;
}

static int outs[4][2];
#define OUTS ((struct array_out){outs[0], outs[1], outs[2], outs[3]})

/* {MPI_REQUEST_NULL, a released request} */
static int array_freed(enum array_call k)
{
    MPI_Request reqs[2] = {MPI_REQUEST_NULL, freed_request()};
    return array_as(k, 2, reqs, OUTS);
}

/* The same live request twice. */
static int array_repeat(enum array_call k)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int buf;
    MPI_Irecv(&buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_SELF, &r);
    MPI_Request reqs[2] = {r, r};
    int rc = array_as(k, 2, reqs, OUTS);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    return rc;
}

static int array_null_out(enum array_call k, int which)
{
    MPI_Request reqs[1] = {MPI_REQUEST_NULL};
    struct array_out o = OUTS;
    int **field[4] = {&o.index, &o.flag, &o.outcount, &o.indices};
    *field[which] = NULL;
    return array_as(k, 1, reqs, o);
}

#define ARRAY_CASES(name, k)                                                                             \
    static int name##_count_negative(struct bad_ctx *x)                                                  \
    {                                                                                                    \
        MPI_Request reqs[1] = {MPI_REQUEST_NULL};                                                        \
        (void)x;                                                                                         \
        return array_as(k, -5, reqs, OUTS);                                                              \
    }                                                                                                    \
    static int name##_null_array(struct bad_ctx *x)                                                      \
    {                                                                                                    \
        (void)x;                                                                                         \
        return array_as(k, 3, NULL, OUTS);                                                               \
    }                                                                                                    \
    static int name##_freed(struct bad_ctx *x)                                                           \
    {                                                                                                    \
        (void)x;                                                                                         \
        return array_freed(k);                                                                           \
    }                                                                                                    \
    static int name##_repeat(struct bad_ctx *x)                                                          \
    {                                                                                                    \
        (void)x;                                                                                         \
        return array_repeat(k);                                                                          \
    }

#define ARRAY_ROWS(name, call)                                                                           \
    {#name "_count_negative", call, MPI_ERR_COUNT, "invalid count -5", name##_count_negative},           \
        {#name "_null_array", call, MPI_ERR_ARG, "array_of_requests is NULL but is to hold 3 entries",             \
         name##_null_array},                                                                             \
        {#name "_freed", call, MPI_ERR_REQUEST, "array_of_requests[1] = 0x", name##_freed},              \
        {#name "_repeat", call, MPI_ERR_REQUEST, "array_of_requests[1] repeats array_of_requests[0]",    \
         name##_repeat}

#define NULL_OUT_CASE(name, k, which)                                                                    \
    static int name(struct bad_ctx *x)                                                                   \
    {                                                                                                    \
        (void)x;                                                                                         \
        return array_null_out(k, which);                                                                 \
    }

ARRAY_CASES(waitall, WAITALL)
ARRAY_CASES(waitany, WAITANY)
ARRAY_CASES(waitsome, WAITSOME)
ARRAY_CASES(testall, TESTALL)
ARRAY_CASES(testany, TESTANY)
ARRAY_CASES(testsome, TESTSOME)
NULL_OUT_CASE(waitany_null_index, WAITANY, 0)
NULL_OUT_CASE(waitsome_null_outcount, WAITSOME, 2)
NULL_OUT_CASE(waitsome_null_indices, WAITSOME, 3)
NULL_OUT_CASE(testall_null_flag, TESTALL, 1)
NULL_OUT_CASE(testany_null_index, TESTANY, 0)
NULL_OUT_CASE(testany_null_flag, TESTANY, 1)
NULL_OUT_CASE(testsome_null_outcount, TESTSOME, 2)
NULL_OUT_CASE(testsome_null_indices, TESTSOME, 3)

/* Matched probe, the nonblocking send-receive, persistent requests (issue 13). */
static int mprobe_rank_high(struct bad_ctx *x)
{
    MPI_Message m;
    return MPI_Mprobe(99, 0, x->comm, &m, MPI_STATUS_IGNORE);
}

static int mprobe_tag_negative(struct bad_ctx *x)
{
    MPI_Message m;
    return MPI_Mprobe(0, -7, x->comm, &m, MPI_STATUS_IGNORE);
}

static int mprobe_comm_null(struct bad_ctx *x)
{
    MPI_Message m;
    (void)x;
    return MPI_Mprobe(0, 0, MPI_COMM_NULL, &m, MPI_STATUS_IGNORE);
}

static int mprobe_null_message(struct bad_ctx *x)
{
    return MPI_Mprobe(0, 0, x->comm, NULL, MPI_STATUS_IGNORE);
}

static int improbe_null_flag(struct bad_ctx *x)
{
    MPI_Message m;
    return MPI_Improbe(0, 0, x->comm, NULL, &m, MPI_STATUS_IGNORE);
}

static int improbe_freed_comm(struct bad_ctx *x)
{
    MPI_Message m;
    int flag;
    (void)x;
    return MPI_Improbe(0, 0, bad_freed_comm(), &flag, &m, MPI_STATUS_IGNORE);
}

static int mrecv_message_null(struct bad_ctx *x)
{
    MPI_Message m = MPI_MESSAGE_NULL;
    return MPI_Mrecv(x->ibuf, 1, MPI_INT, &m, MPI_STATUS_IGNORE);
}

static int mrecv_null_message(struct bad_ctx *x)
{
    return MPI_Mrecv(x->ibuf, 1, MPI_INT, NULL, MPI_STATUS_IGNORE);
}

static int mrecv_forged(struct bad_ctx *x)
{
    MPI_Message m = (MPI_Message)(uintptr_t)0x12345;
    return MPI_Mrecv(x->ibuf, 1, MPI_INT, &m, MPI_STATUS_IGNORE);
}

static int mrecv_count_negative(struct bad_ctx *x)
{
    MPI_Message m = MPI_MESSAGE_NO_PROC;
    return MPI_Mrecv(x->ibuf, -3, MPI_INT, &m, MPI_STATUS_IGNORE);
}

static int mrecv_uncommitted(struct bad_ctx *x)
{
    MPI_Message m = MPI_MESSAGE_NO_PROC;
    MPI_Datatype t = bad_uncommitted_type();
    int rc = MPI_Mrecv(x->ibuf, 1, t, &m, MPI_STATUS_IGNORE);
    MPI_Type_free(&t);
    return rc;
}

static int imrecv_null_request(struct bad_ctx *x)
{
    MPI_Message m = MPI_MESSAGE_NO_PROC;
    return MPI_Imrecv(x->ibuf, 1, MPI_INT, &m, NULL);
}

static int imrecv_message_null(struct bad_ctx *x)
{
    MPI_Message m = MPI_MESSAGE_NULL;
    MPI_Request r;
    return MPI_Imrecv(x->ibuf, 1, MPI_INT, &m, &r);
}

static int isendrecv_dest_high(struct bad_ctx *x)
{
    MPI_Request r;
    return MPI_Isendrecv(x->ibuf, 1, MPI_INT, 99, 0, x->ibuf2, 1, MPI_INT, 0, 0, x->comm, &r);
}

static int isendrecv_recvtag(struct bad_ctx *x)
{
    MPI_Request r;
    return MPI_Isendrecv(x->ibuf, 1, MPI_INT, 0, 0, x->ibuf2, 1, MPI_INT, 0, -8, x->comm, &r);
}

static int isendrecv_same_buf(struct bad_ctx *x)
{
    MPI_Request r;
    return MPI_Isendrecv(x->ibuf, 4, MPI_INT, 0, 0, x->ibuf, 4, MPI_INT, 0, 0, x->comm, &r);
}

static int isendrecv_null_request(struct bad_ctx *x)
{
    return MPI_Isendrecv(x->ibuf, 1, MPI_INT, 0, 0, x->ibuf2, 1, MPI_INT, 0, 0, x->comm, NULL);
}

static int isendrecv_replace_count_negative(struct bad_ctx *x)
{
    MPI_Request r;
    return MPI_Isendrecv_replace(x->ibuf, -3, MPI_INT, 0, 0, 0, 0, x->comm, &r);
}

static int isendrecv_replace_comm_null(struct bad_ctx *x)
{
    MPI_Request r;
    return MPI_Isendrecv_replace(x->ibuf, 1, MPI_INT, 0, 0, 0, 0, MPI_COMM_NULL, &r);
}

static int send_init_rank_high(struct bad_ctx *x)
{
    MPI_Request r;
    return MPI_Send_init(x->ibuf, 1, MPI_INT, 99, 0, x->comm, &r);
}

static int send_init_null_request(struct bad_ctx *x)
{
    return MPI_Send_init(x->ibuf, 1, MPI_INT, 0, 0, x->comm, NULL);
}

static int send_init_uncommitted(struct bad_ctx *x)
{
    MPI_Request r;
    MPI_Datatype t = bad_uncommitted_type();
    int rc = MPI_Send_init(x->ibuf, 1, t, 0, 0, x->comm, &r);
    MPI_Type_free(&t);
    return rc;
}

static int ssend_init_tag_negative(struct bad_ctx *x)
{
    MPI_Request r;
    return MPI_Ssend_init(x->ibuf, 1, MPI_INT, 0, -7, x->comm, &r);
}

static int rsend_init_count_negative(struct bad_ctx *x)
{
    MPI_Request r;
    return MPI_Rsend_init(x->ibuf, -3, MPI_INT, 0, 0, x->comm, &r);
}

static int bsend_init_freed_comm(struct bad_ctx *x)
{
    MPI_Request r;
    return MPI_Bsend_init(x->ibuf, 1, MPI_INT, 0, 0, bad_freed_comm(), &r);
}

static int recv_init_rank_high(struct bad_ctx *x)
{
    MPI_Request r;
    return MPI_Recv_init(x->ibuf, 1, MPI_INT, 99, 0, x->comm, &r);
}

static int recv_init_null_buf(struct bad_ctx *x)
{
    MPI_Request r;
    return MPI_Recv_init(NULL, 5, MPI_INT, 0, 0, x->comm, &r);
}

static int start_null_ptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Start(NULL);
}

static int start_null(struct bad_ctx *x)
{
    MPI_Request r = MPI_REQUEST_NULL;
    (void)x;
    return MPI_Start(&r);
}

static int start_freed(struct bad_ctx *x)
{
    MPI_Request r = freed_request();
    (void)x;
    return MPI_Start(&r);
}

static int start_not_persistent(struct bad_ctx *x)
{
    MPI_Request r;
    MPI_Isend(x->ibuf, 1, MPI_INT, MPI_PROC_NULL, 0, x->comm, &r);
    int rc = MPI_Start(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    return rc;
}

/* A started receive that nothing matches (MPI_COMM_SELF, a tag nobody sends) is started again. */
static int start_active(struct bad_ctx *x)
{
    MPI_Request r;
    MPI_Recv_init(x->ibuf, 1, MPI_INT, 0, 4321, x->self, &r);
    MPI_Start(&r);
    int rc = MPI_Start(&r);
    MPI_Cancel(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Request_free(&r);
    return rc;
}

static int startall_count_negative(struct bad_ctx *x)
{
    MPI_Request r[1];
    (void)x;
    return MPI_Startall(-3, r);
}

static int startall_null_array(struct bad_ctx *x)
{
    (void)x;
    return MPI_Startall(2, NULL);
}

static int startall_null_entry(struct bad_ctx *x)
{
    MPI_Request r[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Send_init(x->ibuf, 1, MPI_INT, MPI_PROC_NULL, 0, x->comm, &r[0]);
    int rc = MPI_Startall(2, r);
    MPI_Request_free(&r[0]);
    return rc;
}

static int startall_repeat(struct bad_ctx *x)
{
    MPI_Request r[2];
    MPI_Send_init(x->ibuf, 1, MPI_INT, MPI_PROC_NULL, 0, x->comm, &r[0]);
    r[1] = r[0];
    int rc = MPI_Startall(2, r);
    MPI_Request_free(&r[0]);
    return rc;
}

/* A long array: the repeat is the last entry. */
static int startall_repeat_many(struct bad_ctx *x)
{
    enum { N = 40 };
    MPI_Request r[N];
    for (int i = 0; i < N - 1; i++)
        MPI_Send_init(x->ibuf, 1, MPI_INT, MPI_PROC_NULL, i, x->comm, &r[i]);
    r[N - 1] = r[7];
    int rc = MPI_Startall(N, r);
    for (int i = 0; i < N - 1; i++)
        MPI_Request_free(&r[i]);
    return rc;
}

/* Request_free and Cancel: a request must be given, and not a nonblocking collective's. */
static int request_free_null_ptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Request_free(NULL);
}

static int request_free_null(struct bad_ctx *x)
{
    MPI_Request r = MPI_REQUEST_NULL;
    (void)x;
    return MPI_Request_free(&r);
}

static int request_free_freed(struct bad_ctx *x)
{
    MPI_Request r = freed_request();
    (void)x;
    return MPI_Request_free(&r);
}

static int request_free_collective(struct bad_ctx *x)
{
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Ibarrier(x->self, &r);
    int rc = MPI_Request_free(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    return rc;
}

static int cancel_null_ptr(struct bad_ctx *x)
{
    (void)x;
    return MPI_Cancel(NULL);
}

static int cancel_null(struct bad_ctx *x)
{
    MPI_Request r = MPI_REQUEST_NULL;
    (void)x;
    return MPI_Cancel(&r);
}

static int cancel_freed(struct bad_ctx *x)
{
    MPI_Request r = freed_request();
    (void)x;
    return MPI_Cancel(&r);
}

static int cancel_collective(struct bad_ctx *x)
{
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Ibarrier(x->self, &r);
    int rc = MPI_Cancel(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    return rc;
}

static int request_get_status_freed(struct bad_ctx *x)
{
    int flag;
    return MPI_Request_get_status(freed_request(), &flag, &x->status);
}

static int request_get_status_null_flag(struct bad_ctx *x)
{
    return MPI_Request_get_status(MPI_REQUEST_NULL, NULL, &x->status);
}

static int test_cancelled_ignored_status(struct bad_ctx *x)
{
    int flag;
    (void)x;
    return MPI_Test_cancelled(MPI_STATUS_IGNORE, &flag);
}

static int test_cancelled_null_flag(struct bad_ctx *x)
{
    return MPI_Test_cancelled(&x->status, NULL);
}

/* Partitioned requests: init arguments, then Pready and Parrived on requests of MPI_PROC_NULL (no message
 * moves). part_send gives an inactive partitioned send of 4 partitions, started if asked. */
static MPI_Request part_send(struct bad_ctx *x, int start)
{
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Psend_init(x->ibuf, 4, 2, MPI_INT, MPI_PROC_NULL, 0, x->comm, MPI_INFO_NULL, &r);
    if (start)
        MPI_Start(&r);
    return r;
}

/* Marks what is left of a started part_send, completes and frees it. */
static void part_send_end(MPI_Request r, int from)
{
    if (from < 4)
        MPI_Pready_range(from, 3, r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Request_free(&r);
}

static int psend_init_partitions_negative(struct bad_ctx *x)
{
    MPI_Request r;
    return MPI_Psend_init(x->ibuf, -3, 1, MPI_INT, 0, 0, x->comm, MPI_INFO_NULL, &r);
}

static int psend_init_count_negative(struct bad_ctx *x)
{
    MPI_Request r;
    return MPI_Psend_init(x->ibuf, 2, -3, MPI_INT, 0, 0, x->comm, MPI_INFO_NULL, &r);
}

static int psend_init_rank_high(struct bad_ctx *x)
{
    MPI_Request r;
    return MPI_Psend_init(x->ibuf, 2, 1, MPI_INT, 99, 0, x->comm, MPI_INFO_NULL, &r);
}

static int psend_init_null_request(struct bad_ctx *x)
{
    return MPI_Psend_init(x->ibuf, 2, 1, MPI_INT, 0, 0, x->comm, MPI_INFO_NULL, NULL);
}

static int precv_init_any_source(struct bad_ctx *x)
{
    MPI_Request r;
    return MPI_Precv_init(x->ibuf, 2, 1, MPI_INT, MPI_ANY_SOURCE, 0, x->comm, MPI_INFO_NULL, &r);
}

static int precv_init_any_tag(struct bad_ctx *x)
{
    MPI_Request r;
    return MPI_Precv_init(x->ibuf, 2, 1, MPI_INT, 0, MPI_ANY_TAG, x->comm, MPI_INFO_NULL, &r);
}

static int precv_init_freed_comm(struct bad_ctx *x)
{
    MPI_Request r;
    return MPI_Precv_init(x->ibuf, 2, 1, MPI_INT, 0, 0, bad_freed_comm(), MPI_INFO_NULL, &r);
}

static int pready_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Pready(0, MPI_REQUEST_NULL);
}

static int pready_inactive(struct bad_ctx *x)
{
    MPI_Request r = part_send(x, 0);
    int rc = MPI_Pready(0, r);
    MPI_Request_free(&r);
    return rc;
}

static int pready_out_of_range(struct bad_ctx *x)
{
    MPI_Request r = part_send(x, 1);
    int rc = MPI_Pready(7, r);
    part_send_end(r, 0);
    return rc;
}

static int pready_twice(struct bad_ctx *x)
{
    MPI_Request r = part_send(x, 1);
    MPI_Pready(0, r);
    int rc = MPI_Pready(0, r);
    part_send_end(r, 1);
    return rc;
}

static int pready_receive(struct bad_ctx *x)
{
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Precv_init(x->ibuf, 2, 1, MPI_INT, MPI_PROC_NULL, 0, x->comm, MPI_INFO_NULL, &r);
    int rc = MPI_Pready(0, r);
    MPI_Request_free(&r);
    return rc;
}

static int pready_range_reversed(struct bad_ctx *x)
{
    MPI_Request r = part_send(x, 1);
    int rc = MPI_Pready_range(3, 1, r);
    part_send_end(r, 0);
    return rc;
}

static int pready_list_null(struct bad_ctx *x)
{
    MPI_Request r = part_send(x, 1);
    int rc = MPI_Pready_list(2, NULL, r);
    part_send_end(r, 0);
    return rc;
}

/* A list that names a partition twice marks none of it: all four can be marked afterwards. */
static int pready_list_repeat(struct bad_ctx *x)
{
    static const int list[] = {2, 0, 2};
    MPI_Request r = part_send(x, 1);
    int rc = MPI_Pready_list(3, list, r);
    if (MPI_Pready_range(0, 3, r) != MPI_SUCCESS)
        rc = MPI_ERR_OTHER;
    part_send_end(r, 4);
    return rc;
}

static int parrived_null_flag(struct bad_ctx *x)
{
    (void)x;
    return MPI_Parrived(MPI_REQUEST_NULL, 0, NULL);
}

static int parrived_send(struct bad_ctx *x)
{
    int flag;
    MPI_Request r = part_send(x, 0);
    int rc = MPI_Parrived(r, 0, &flag);
    MPI_Request_free(&r);
    return rc;
}

static int parrived_out_of_range(struct bad_ctx *x)
{
    int flag;
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Precv_init(x->ibuf, 2, 1, MPI_INT, MPI_PROC_NULL, 0, x->comm, MPI_INFO_NULL, &r);
    MPI_Start(&r);
    int rc = MPI_Parrived(r, 5, &flag);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Request_free(&r);
    return rc;
}

/* A started partitioned receive (of MPI_PROC_NULL: complete, but not yet waited for) is still active. */
static int request_free_partitioned(struct bad_ctx *x)
{
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Precv_init(x->ibuf, 2, 1, MPI_INT, MPI_PROC_NULL, 0, x->comm, MPI_INFO_NULL, &r);
    MPI_Start(&r);
    int rc = MPI_Request_free(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Request_free(&r);
    return rc;
}

const struct bad_case bad_p2p[] = {
    P2P_ROWS(send, "MPI_Send"),
    P2P_ROWS(ssend, "MPI_Ssend"),
    P2P_ROWS(rsend, "MPI_Rsend"),
    P2P_ROWS(bsend, "MPI_Bsend"),
    P2P_ROWS(isend, "MPI_Isend"),
    P2P_ROWS(issend, "MPI_Issend"),
    P2P_ROWS(irsend, "MPI_Irsend"),
    P2P_ROWS(ibsend, "MPI_Ibsend"),
    NB_ROW(isend, "MPI_Isend"),
    NB_ROW(issend, "MPI_Issend"),
    NB_ROW(irsend, "MPI_Irsend"),
    NB_ROW(ibsend, "MPI_Ibsend"),
    {"send_uncommitted", "MPI_Send", MPI_ERR_TYPE, "not committed", send_uncommitted},
    {"send_freed_type", "MPI_Send", MPI_ERR_TYPE, "already freed", send_freed_type},
    {"send_freed_comm", "MPI_Send", MPI_ERR_COMM, "already freed", send_freed_comm},
    {"send_any_tag", "MPI_Send", MPI_ERR_TAG, "invalid tag -2", send_any_tag},
    {"send_any_source", "MPI_Send", MPI_ERR_RANK, "invalid rank -1", send_any_source},
    {"bsend_unattached", "MPI_Bsend", MPI_ERR_BUFFER, "no buffer is attached", bsend_unattached},
    {"bsend_too_big", "MPI_Bsend", MPI_ERR_BUFFER, "no room for 256 bytes", bsend_too_big},
    {"ibsend_too_big", "MPI_Ibsend", MPI_ERR_BUFFER, "no room for 256 bytes", ibsend_too_big},
    {"buffer_attach_negative", "MPI_Buffer_attach", MPI_ERR_ARG, "invalid buffer size -3", buffer_attach_negative},
    {"buffer_attach_null", "MPI_Buffer_attach", MPI_ERR_BUFFER, "NULL but size is 100", buffer_attach_null},
    {"buffer_attach_twice", "MPI_Buffer_attach", MPI_ERR_BUFFER, "50 bytes is already attached", buffer_attach_twice},
    {"buffer_attach_automatic_twice", "MPI_Buffer_attach", MPI_ERR_BUFFER, "MPI_BUFFER_AUTOMATIC is already attached",
     buffer_attach_automatic_twice},
    {"buffer_detach_null_addr", "MPI_Buffer_detach", MPI_ERR_ARG, "buffer_addr is NULL", buffer_detach_null_addr},
    {"buffer_detach_null_size", "MPI_Buffer_detach", MPI_ERR_ARG, "size is NULL", buffer_detach_null_size},
    {"buffer_iflush_null_request", "MPI_Buffer_iflush", MPI_ERR_ARG, "request is NULL", buffer_iflush_null_request},
    {"comm_attach_buffer_null_comm", "MPI_Comm_attach_buffer", MPI_ERR_COMM, "MPI_COMM_NULL",
     comm_attach_buffer_null_comm},
    {"comm_attach_buffer_negative", "MPI_Comm_attach_buffer", MPI_ERR_ARG, "invalid buffer size -5",
     comm_attach_buffer_negative},
    {"comm_attach_buffer_twice", "MPI_Comm_attach_buffer", MPI_ERR_BUFFER, "40 bytes is already attached",
     comm_attach_buffer_twice},
    {"comm_bsend_too_big", "MPI_Bsend", MPI_ERR_BUFFER, "attached to MPI_COMM_SELF", comm_bsend_too_big},
    {"comm_detach_buffer_null_size", "MPI_Comm_detach_buffer", MPI_ERR_ARG, "size is NULL",
     comm_detach_buffer_null_size},
    {"comm_flush_buffer_freed", "MPI_Comm_flush_buffer", MPI_ERR_COMM, "already freed", comm_flush_buffer_freed},
    {"comm_iflush_buffer_null_request", "MPI_Comm_iflush_buffer", MPI_ERR_ARG, "request is NULL",
     comm_iflush_buffer_null_request},
    P2P_ROWS(recv, "MPI_Recv"),
    P2P_ROWS(irecv, "MPI_Irecv"),
    {"recv_uncommitted", "MPI_Recv", MPI_ERR_TYPE, "not committed", recv_uncommitted},
    {"recv_freed_comm", "MPI_Recv", MPI_ERR_COMM, "already freed", recv_freed_comm},
    {"irecv_null_request", "MPI_Irecv", MPI_ERR_ARG, "request is NULL", irecv_null_request},
    {"probe_rank_high", "MPI_Probe", MPI_ERR_RANK, "invalid rank 99", probe_rank_high},
    {"probe_tag_negative", "MPI_Probe", MPI_ERR_TAG, "invalid tag -7", probe_tag_negative},
    {"probe_comm_null", "MPI_Probe", MPI_ERR_COMM, "MPI_COMM_NULL", probe_comm_null},
    {"iprobe_rank_high", "MPI_Iprobe", MPI_ERR_RANK, "invalid rank 99", iprobe_rank_high},
    {"iprobe_tag_negative", "MPI_Iprobe", MPI_ERR_TAG, "invalid tag -7", iprobe_tag_negative},
    {"iprobe_freed_comm", "MPI_Iprobe", MPI_ERR_COMM, "already freed", iprobe_freed_comm},
    {"iprobe_null_flag", "MPI_Iprobe", MPI_ERR_ARG, "flag is NULL", iprobe_null_flag},
    {"mprobe_rank_high", "MPI_Mprobe", MPI_ERR_RANK, "invalid rank 99", mprobe_rank_high},
    {"mprobe_tag_negative", "MPI_Mprobe", MPI_ERR_TAG, "invalid tag -7", mprobe_tag_negative},
    {"mprobe_comm_null", "MPI_Mprobe", MPI_ERR_COMM, "MPI_COMM_NULL", mprobe_comm_null},
    {"mprobe_null_message", "MPI_Mprobe", MPI_ERR_ARG, "message is NULL", mprobe_null_message},
    {"improbe_null_flag", "MPI_Improbe", MPI_ERR_ARG, "flag is NULL", improbe_null_flag},
    {"improbe_freed_comm", "MPI_Improbe", MPI_ERR_COMM, "already freed", improbe_freed_comm},
    {"mrecv_message_null", "MPI_Mrecv", MPI_ERR_REQUEST, "(MPI_MESSAGE_NULL)", mrecv_message_null},
    {"mrecv_null_message", "MPI_Mrecv", MPI_ERR_ARG, "message is NULL", mrecv_null_message},
    {"mrecv_forged", "MPI_Mrecv", MPI_ERR_REQUEST, "message 0x12345 is not a matched message", mrecv_forged},
    {"mrecv_count_negative", "MPI_Mrecv", MPI_ERR_COUNT, "invalid count -3", mrecv_count_negative},
    {"mrecv_uncommitted", "MPI_Mrecv", MPI_ERR_TYPE, "not committed", mrecv_uncommitted},
    {"imrecv_null_request", "MPI_Imrecv", MPI_ERR_ARG, "request is NULL", imrecv_null_request},
    {"imrecv_message_null", "MPI_Imrecv", MPI_ERR_REQUEST, "(MPI_MESSAGE_NULL)", imrecv_message_null},
    {"isendrecv_dest_high", "MPI_Isendrecv", MPI_ERR_RANK, "invalid rank 99", isendrecv_dest_high},
    {"isendrecv_recvtag", "MPI_Isendrecv", MPI_ERR_TAG, "invalid tag -8", isendrecv_recvtag},
    {"isendrecv_same_buf", "MPI_Isendrecv", MPI_ERR_BUFFER, "overlap", isendrecv_same_buf},
    {"isendrecv_null_request", "MPI_Isendrecv", MPI_ERR_ARG, "request is NULL", isendrecv_null_request},
    {"isendrecv_replace_count_negative", "MPI_Isendrecv_replace", MPI_ERR_COUNT, "invalid count -3",
     isendrecv_replace_count_negative},
    {"isendrecv_replace_comm_null", "MPI_Isendrecv_replace", MPI_ERR_COMM, "MPI_COMM_NULL",
     isendrecv_replace_comm_null},
    {"send_init_rank_high", "MPI_Send_init", MPI_ERR_RANK, "invalid rank 99", send_init_rank_high},
    {"send_init_null_request", "MPI_Send_init", MPI_ERR_ARG, "request is NULL", send_init_null_request},
    {"send_init_uncommitted", "MPI_Send_init", MPI_ERR_TYPE, "not committed", send_init_uncommitted},
    {"ssend_init_tag_negative", "MPI_Ssend_init", MPI_ERR_TAG, "invalid tag -7", ssend_init_tag_negative},
    {"rsend_init_count_negative", "MPI_Rsend_init", MPI_ERR_COUNT, "invalid count -3", rsend_init_count_negative},
    {"bsend_init_freed_comm", "MPI_Bsend_init", MPI_ERR_COMM, "already freed", bsend_init_freed_comm},
    {"recv_init_rank_high", "MPI_Recv_init", MPI_ERR_RANK, "invalid rank 99", recv_init_rank_high},
    {"recv_init_null_buf", "MPI_Recv_init", MPI_ERR_BUFFER, "NULL but count is 5", recv_init_null_buf},
    {"start_null_ptr", "MPI_Start", MPI_ERR_ARG, "request is NULL", start_null_ptr},
    {"start_null", "MPI_Start", MPI_ERR_REQUEST, "is MPI_REQUEST_NULL", start_null},
    {"start_freed", "MPI_Start", MPI_ERR_REQUEST, "not a live request", start_freed},
    {"start_not_persistent", "MPI_Start", MPI_ERR_REQUEST, "not a persistent request", start_not_persistent},
    {"start_active", "MPI_Start", MPI_ERR_REQUEST, "is already active", start_active},
    {"startall_count_negative", "MPI_Startall", MPI_ERR_COUNT, "invalid count -3", startall_count_negative},
    {"startall_null_array", "MPI_Startall", MPI_ERR_ARG, "array_of_requests is NULL", startall_null_array},
    {"startall_null_entry", "MPI_Startall", MPI_ERR_REQUEST, "array_of_requests[1] is MPI_REQUEST_NULL",
     startall_null_entry},
    {"startall_repeat", "MPI_Startall", MPI_ERR_REQUEST, "array_of_requests[1] repeats", startall_repeat},
    {"startall_repeat_many", "MPI_Startall", MPI_ERR_REQUEST, "array_of_requests[39] repeats", startall_repeat_many},
    {"psend_init_partitions_negative", "MPI_Psend_init", MPI_ERR_ARG, "invalid partitions -3",
     psend_init_partitions_negative},
    {"psend_init_count_negative", "MPI_Psend_init", MPI_ERR_COUNT, "invalid count -3", psend_init_count_negative},
    {"psend_init_rank_high", "MPI_Psend_init", MPI_ERR_RANK, "invalid rank 99", psend_init_rank_high},
    {"psend_init_null_request", "MPI_Psend_init", MPI_ERR_ARG, "request is NULL", psend_init_null_request},
    {"precv_init_any_source", "MPI_Precv_init", MPI_ERR_RANK, "MPI_ANY_SOURCE", precv_init_any_source},
    {"precv_init_any_tag", "MPI_Precv_init", MPI_ERR_TAG, "MPI_ANY_TAG", precv_init_any_tag},
    {"precv_init_freed_comm", "MPI_Precv_init", MPI_ERR_COMM, "already freed", precv_init_freed_comm},
    {"pready_null", "MPI_Pready", MPI_ERR_REQUEST, "is MPI_REQUEST_NULL", pready_null},
    {"pready_inactive", "MPI_Pready", MPI_ERR_REQUEST, "is not active", pready_inactive},
    {"pready_out_of_range", "MPI_Pready", MPI_ERR_ARG, "partition 7 is out of range", pready_out_of_range},
    {"pready_twice", "MPI_Pready", MPI_ERR_ARG, "partition 0 is already marked ready", pready_twice},
    {"pready_receive", "MPI_Pready", MPI_ERR_REQUEST, "is not a partitioned send", pready_receive},
    {"pready_range_reversed", "MPI_Pready_range", MPI_ERR_ARG, "partition_low 3 is above partition_high 1",
     pready_range_reversed},
    {"pready_list_null", "MPI_Pready_list", MPI_ERR_ARG, "array_of_partitions is NULL", pready_list_null},
    {"pready_list_repeat", "MPI_Pready_list", MPI_ERR_ARG, "partition 2 is already marked ready", pready_list_repeat},
    {"parrived_null_flag", "MPI_Parrived", MPI_ERR_ARG, "flag is NULL", parrived_null_flag},
    {"parrived_send", "MPI_Parrived", MPI_ERR_REQUEST, "is not a partitioned receive", parrived_send},
    {"parrived_out_of_range", "MPI_Parrived", MPI_ERR_ARG, "partition 5 is out of range", parrived_out_of_range},
    {"request_free_partitioned", "MPI_Request_free", MPI_ERR_REQUEST, "request of a partitioned receive",
     request_free_partitioned},
    {"sendrecv_dest_high", "MPI_Sendrecv", MPI_ERR_RANK, "invalid rank 99", sendrecv_dest_high},
    {"sendrecv_source_high", "MPI_Sendrecv", MPI_ERR_RANK, "invalid rank 98", sendrecv_source_high},
    {"sendrecv_sendtag", "MPI_Sendrecv", MPI_ERR_TAG, "invalid tag -7", sendrecv_sendtag},
    {"sendrecv_recvtag", "MPI_Sendrecv", MPI_ERR_TAG, "invalid tag -8", sendrecv_recvtag},
    {"sendrecv_sendcount", "MPI_Sendrecv", MPI_ERR_COUNT, "invalid count -3", sendrecv_sendcount},
    {"sendrecv_recvcount", "MPI_Sendrecv", MPI_ERR_COUNT, "invalid count -4", sendrecv_recvcount},
    {"sendrecv_recvtype_uncommitted", "MPI_Sendrecv", MPI_ERR_TYPE, "not committed", sendrecv_recvtype_uncommitted},
    {"sendrecv_comm_null", "MPI_Sendrecv", MPI_ERR_COMM, "MPI_COMM_NULL", sendrecv_comm_null},
    {"sendrecv_null_recvbuf", "MPI_Sendrecv", MPI_ERR_BUFFER, "NULL but count is 5", sendrecv_null_recvbuf},
    {"sendrecv_in_place", "MPI_Sendrecv", MPI_ERR_BUFFER, "MPI_IN_PLACE", sendrecv_in_place},
    {"sendrecv_same_buf", "MPI_Sendrecv", MPI_ERR_BUFFER, "overlap", sendrecv_same_buf},
    {"sendrecv_overlap", "MPI_Sendrecv", MPI_ERR_BUFFER, "(16 bytes at", sendrecv_overlap},
    {"sendrecv_same_start_vector", "MPI_Sendrecv", MPI_ERR_BUFFER, "overlap", sendrecv_same_start_vector},
    {"sendrecv_replace_rank_high", "MPI_Sendrecv_replace", MPI_ERR_RANK, "invalid rank 99",
     sendrecv_replace_rank_high},
    {"sendrecv_replace_tag_negative", "MPI_Sendrecv_replace", MPI_ERR_TAG, "invalid tag -7",
     sendrecv_replace_tag_negative},
    {"sendrecv_replace_count_negative", "MPI_Sendrecv_replace", MPI_ERR_COUNT, "invalid count -3",
     sendrecv_replace_count_negative},
    {"sendrecv_replace_uncommitted", "MPI_Sendrecv_replace", MPI_ERR_TYPE, "not committed",
     sendrecv_replace_uncommitted},
    {"sendrecv_replace_freed_comm", "MPI_Sendrecv_replace", MPI_ERR_COMM, "already freed",
     sendrecv_replace_freed_comm},
    {"sendrecv_replace_null_buf", "MPI_Sendrecv_replace", MPI_ERR_BUFFER, "NULL but count is 4",
     sendrecv_replace_null_buf},
    {"sendrecv_replace_in_place", "MPI_Sendrecv_replace", MPI_ERR_BUFFER, "MPI_IN_PLACE", sendrecv_replace_in_place},
    {"wait_null_ptr", "MPI_Wait", MPI_ERR_ARG, "request is NULL", wait_null_ptr},
    {"wait_freed", "MPI_Wait", MPI_ERR_REQUEST, "not a live request", wait_freed},
    {"wait_reused", "MPI_Wait", MPI_ERR_REQUEST, "not a live request", wait_reused},
    {"wait_forged", "MPI_Wait", MPI_ERR_REQUEST, "request 0x12345 is not a live request", wait_forged},
    {"test_null_ptr", "MPI_Test", MPI_ERR_ARG, "request is NULL", test_null_ptr},
    {"test_freed", "MPI_Test", MPI_ERR_REQUEST, "not a live request", test_freed},
    {"test_null_flag", "MPI_Test", MPI_ERR_ARG, "flag is NULL", test_null_flag},
    ARRAY_ROWS(waitall, "MPI_Waitall"),
    ARRAY_ROWS(waitany, "MPI_Waitany"),
    ARRAY_ROWS(waitsome, "MPI_Waitsome"),
    ARRAY_ROWS(testall, "MPI_Testall"),
    ARRAY_ROWS(testany, "MPI_Testany"),
    ARRAY_ROWS(testsome, "MPI_Testsome"),
    {"waitany_null_index", "MPI_Waitany", MPI_ERR_ARG, "index is NULL", waitany_null_index},
    {"waitsome_null_outcount", "MPI_Waitsome", MPI_ERR_ARG, "outcount is NULL", waitsome_null_outcount},
    {"waitsome_null_indices", "MPI_Waitsome", MPI_ERR_ARG, "array_of_indices is NULL", waitsome_null_indices},
    {"testall_null_flag", "MPI_Testall", MPI_ERR_ARG, "flag is NULL", testall_null_flag},
    {"testany_null_index", "MPI_Testany", MPI_ERR_ARG, "index is NULL", testany_null_index},
    {"testany_null_flag", "MPI_Testany", MPI_ERR_ARG, "flag is NULL", testany_null_flag},
    {"testsome_null_outcount", "MPI_Testsome", MPI_ERR_ARG, "outcount is NULL", testsome_null_outcount},
    {"testsome_null_indices", "MPI_Testsome", MPI_ERR_ARG, "array_of_indices is NULL", testsome_null_indices},
    {"request_free_null_ptr", "MPI_Request_free", MPI_ERR_ARG, "request is NULL", request_free_null_ptr},
    {"request_free_null", "MPI_Request_free", MPI_ERR_REQUEST, "cannot free MPI_REQUEST_NULL", request_free_null},
    {"request_free_freed", "MPI_Request_free", MPI_ERR_REQUEST, "not a live request", request_free_freed},
    {"request_free_collective", "MPI_Request_free", MPI_ERR_REQUEST, "nonblocking collective",
     request_free_collective},
    {"cancel_null_ptr", "MPI_Cancel", MPI_ERR_ARG, "request is NULL", cancel_null_ptr},
    {"cancel_null", "MPI_Cancel", MPI_ERR_REQUEST, "cannot cancel MPI_REQUEST_NULL", cancel_null},
    {"cancel_freed", "MPI_Cancel", MPI_ERR_REQUEST, "not a live request", cancel_freed},
    {"cancel_collective", "MPI_Cancel", MPI_ERR_REQUEST, "nonblocking collective", cancel_collective},
    {"request_get_status_freed", "MPI_Request_get_status", MPI_ERR_REQUEST, "not a live request",
     request_get_status_freed},
    {"request_get_status_null_flag", "MPI_Request_get_status", MPI_ERR_ARG, "flag is NULL",
     request_get_status_null_flag},
    {"test_cancelled_ignored_status", "MPI_Test_cancelled", MPI_ERR_ARG, "MPI_STATUS_IGNORE",
     test_cancelled_ignored_status},
    {"test_cancelled_null_flag", "MPI_Test_cancelled", MPI_ERR_ARG, "flag is NULL", test_cancelled_null_flag},
    {0},
};
