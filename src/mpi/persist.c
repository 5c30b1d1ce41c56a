/* Persistent point-to-point: MPI_Send_init and its modes, MPI_Recv_init, and MPI_Start/MPI_Startall,
 * which start any persistent request through its start hook (core/request.h: collectives and
 * partitioned requests plug in there too). The init call does once what every Isend does per call:
 * checks, communicator and datatype lookups, the peer's job rank and transport; a round then costs
 * the transport's send and nothing else. The request keeps its handle and id across rounds (Wait and
 * Test leave it inactive, SKIFF_RS_IDLE); only MPI_Request_free releases it. */
#include <stdio.h>
#include <stdlib.h>

#include "core/bsend.h"
#include "core/pt2pt.h"
#include "mpi/mpi_impl.h"

enum { MODE_BUFFERED = 2 }; /* beside SKIFF_SEND_STANDARD and SKIFF_SEND_SYNC */

struct p2p {
    const void *ubuf; /* the user's buffer, count elements of t (held) */
    size_t count;
    const struct skiff_type *t;
    int mode;
    const struct skiff_transport *tr; /* the peer's, for sends */
    void *packed;                     /* a non-contiguous type travels through this */
};

static void p2p_destroy(struct skiff_request *r)
{
    struct p2p *p = r->pdata;
    skiff_type_unref(p->t);
    free(p->packed);
    free(p);
    r->pdata = NULL;
    r->persist = NULL;
}

static int send_round(struct skiff_request *r)
{
    struct p2p *p = r->pdata;
    r->st_error = MPI_SUCCESS;
    if (SKIFF_UNLIKELY(p->packed != NULL))
        skiff_type_pack(p->ubuf, p->count, p->t, p->packed);
    if (SKIFF_UNLIKELY(r->peer == MPI_PROC_NULL || p->mode == MODE_BUFFERED)) {
        int rc = r->peer == MPI_PROC_NULL ? MPI_SUCCESS : skiff_bsend(p->ubuf, p->count, p->t, r->peer, r->tag, r->comm);
        if (!rc)
            r->state = SKIFF_RS_DONE; /* a buffered send's copy is its own business now */
        return rc;
    }
    return skiff_send_restart(r, p->tr, p->mode);
}

static int recv_round(struct skiff_request *r)
{
    if (SKIFF_UNLIKELY(r->peer == MPI_PROC_NULL)) {
        r->st_source = MPI_PROC_NULL;
        r->st_tag = MPI_ANY_TAG;
        r->state = SKIFF_RS_DONE;
        return MPI_SUCCESS;
    }
    skiff_recv_restart(r);
    return MPI_SUCCESS;
}

static const struct skiff_persist_ops send_ops = {"persistent send", send_round, p2p_destroy},
                                      recv_ops = {"persistent receive", recv_round, p2p_destroy};

/* A non-contiguous receive lands packed: unpacked as each round completes. */
static void unpack_round(struct skiff_request *r)
{
    struct p2p *p = r->pdata;
    skiff_type_unpack(p->packed, r->st_bytes, (void *)p->ubuf, p->count, p->t);
}

static int make(const void *buf, MPI_Count count, MPI_Datatype dt, int peer, int tag, MPI_Comm comm, int mode,
                int is_recv,
                MPI_Request *request)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    int rc = skiff_check_p2p(buf, "buf", count, dt, peer, tag, comm, is_recv, &c, &t);
    if (rc || (rc = skiff_check_ptr(request, "request")))
        return skiff_fail(comm, rc);
    size_t bytes = skiff_type_packed_size(t, (size_t)count);
    int direct = t->contiguous || count == 0;
    struct p2p *p = malloc(sizeof *p);
    void *packed = direct ? NULL : malloc(bytes ? bytes : 1);
    struct skiff_request *r = p && (direct || packed) ? skiff_req_alloc(is_recv ? SKIFF_REQ_RECV : SKIFF_REQ_SEND) : NULL;
    if (!r) {
        free(p);
        free(packed);
        return skiff_fail(comm, skiff_err(MPI_ERR_NO_MEM, "out of memory for a persistent request of %zu bytes", bytes));
    }
    skiff_type_ref(t);
    *p = (struct p2p){buf, (size_t)count, t, mode, NULL, packed};
    int world = peer >= 0 ? skiff_comm_world_rank(c, peer) : -1;
    if (!is_recv && world >= 0)
        p->tr = skiff_transport_for(world);
    r->comm = c;
    r->peer = peer;
    r->world_peer = world;
    r->tag = tag;
    r->ctx = c->ctx;
    r->buf = direct ? skiff_type_data(buf, t) : packed;
    r->bytes = bytes;
    r->persist = is_recv ? &recv_ops : &send_ops;
    r->pdata = p;
    if (is_recv && !direct)
        r->on_complete = unpack_round;
    *request = skiff_req_handle(r);
    return MPI_SUCCESS;
}

/* Each call and its large-count twin (count_t MPI_Count) differ only in the type of count. Ready mode is
 * standard mode, as for MPI_Rsend (mpi/send.c). */
#define INIT(name, count_t, mode, is_recv)                                                               \
    int P##name(const void *buf, count_t count, MPI_Datatype datatype, int peer, int tag, MPI_Comm comm,  \
                MPI_Request *request)                                                                    \
    {                                                                                                    \
        SKIFF_ENTER(name);                                                                               \
        SKIFF_REQUIRE_INIT();                                                                            \
        return make(buf, count, datatype, peer, tag, comm, mode, is_recv, request);                      \
    }                                                                                                    \
    SKIFF_ALIAS(name)

INIT(MPI_Send_init, int, SKIFF_SEND_STANDARD, 0)
INIT(MPI_Send_init_c, MPI_Count, SKIFF_SEND_STANDARD, 0)
INIT(MPI_Ssend_init, int, SKIFF_SEND_SYNC, 0)
INIT(MPI_Ssend_init_c, MPI_Count, SKIFF_SEND_SYNC, 0)
INIT(MPI_Rsend_init, int, SKIFF_SEND_STANDARD, 0)
INIT(MPI_Rsend_init_c, MPI_Count, SKIFF_SEND_STANDARD, 0)
INIT(MPI_Bsend_init, int, MODE_BUFFERED, 0)
INIT(MPI_Bsend_init_c, MPI_Count, MODE_BUFFERED, 0)

int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Request *request)
{
    SKIFF_ENTER(MPI_Recv_init);
    SKIFF_REQUIRE_INIT();
    return make(buf, count, datatype, source, tag, comm, 0, 1, request);
}
SKIFF_ALIAS(MPI_Recv_init)

int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
    SKIFF_ENTER(MPI_Recv_init_c);
    SKIFF_REQUIRE_INIT();
    return make(buf, count, datatype, source, tag, comm, 0, 1, request);
}
SKIFF_ALIAS(MPI_Recv_init_c)

/* A persistent request that may start: live, not freed, inactive. at: its index in the array, or -1. */
static int startable(MPI_Request h, int at, struct skiff_request **out)
{
    struct skiff_request *r = h == MPI_REQUEST_NULL ? NULL : skiff_req_of(h);
    if (SKIFF_LIKELY(r && !r->freed && r->persist && r->state == SKIFF_RS_IDLE)) {
        *out = r;
        return MPI_SUCCESS;
    }
    unsigned long long bits = (unsigned long long)(uintptr_t)h;
    char name[48] = "request";
    if (at >= 0)
        snprintf(name, sizeof name, "array_of_requests[%d]", at);
    if (h == MPI_REQUEST_NULL)
        return skiff_err(MPI_ERR_REQUEST, "%s is MPI_REQUEST_NULL", name);
    if (!r || r->freed)
        return skiff_err(MPI_ERR_REQUEST, "%s %#llx is not a live request (already completed and freed, or never "
                         "created)", name, bits);
    if (!r->persist)
        return skiff_err(MPI_ERR_REQUEST, "%s %#llx is not a persistent request (made by MPI_Send_init, "
                         "MPI_Recv_init or their kin)", name, bits);
    return skiff_err(MPI_ERR_REQUEST, "%s %#llx (%s) is already active: complete it with MPI_Wait or MPI_Test "
                     "before starting it again", name, bits, r->persist->what);
}

int PMPI_Start(MPI_Request *request)
{
    struct skiff_request *r = NULL;
    SKIFF_ENTER(MPI_Start);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_ptr(request, "request");
    if (SKIFF_UNLIKELY(rc || (rc = startable(*request, -1, &r))))
        return skiff_fail_world(rc);
    rc = r->persist->start(r);
    return SKIFF_UNLIKELY(rc) ? skiff_err_handle(r->comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Start)

/* Up to this many requests Startall resolves them on the stack and finds repeats by comparing pairs. */
#define START_STACK 16

/* Every entry startable and none twice, before any starts: r[i] is what reqs[i] names. */
static int resolve_all(int count, MPI_Request reqs[], struct skiff_request **r)
{
    int rc = MPI_SUCCESS, i = 0, dup = -1;
    for (; !rc && i < count; i++) {
        if ((rc = startable(reqs[i], i, &r[i])))
            break;
        if (count <= START_STACK) {
            for (int j = 0; j < i && dup < 0; j++)
                dup = r[j] == r[i] ? i : -1;
        } else if (r[i]->listed) {
            dup = i;
        }
        r[i]->listed = count > START_STACK;
        if (dup >= 0)
            rc = skiff_err(MPI_ERR_REQUEST, "array_of_requests[%d] repeats an earlier entry: a request may be "
                           "listed only once", dup);
    }
    for (int j = 0; count > START_STACK && j < i && j < count; j++)
        if (r[j])
            r[j]->listed = 0;
    return rc;
}

int PMPI_Startall(int count, MPI_Request array_of_requests[])
{
    SKIFF_ENTER(MPI_Startall);
    SKIFF_REQUIRE_INIT();
    struct skiff_request *stack[START_STACK] = {NULL}, **r = stack;
    int rc = skiff_check_count(count);
    if (rc || (rc = skiff_check_array(count, array_of_requests, "array_of_requests")))
        return skiff_fail_world(rc);
    if (count > START_STACK && !(r = calloc((size_t)count, sizeof *r)))
        return skiff_fail_world(skiff_err(MPI_ERR_NO_MEM, "cannot allocate a table of %d requests", count));
    if ((rc = resolve_all(count, array_of_requests, r))) {
        if (r != stack)
            free(r);
        return skiff_fail_world(rc);
    }
    struct skiff_comm *failed = NULL;
    for (int i = 0; i < count && !rc; i++)
        if ((rc = r[i]->persist->start(r[i])))
            failed = r[i]->comm;
    if (r != stack)
        free(r);
    return rc ? skiff_err_handle(failed, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Startall)
