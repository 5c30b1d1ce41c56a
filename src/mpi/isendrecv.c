/* MPI_Isendrecv and MPI_Isendrecv_replace: one request for a send and a receive. The user's request is
 * a parent that completes when both halves have (each half is an ordinary byte send or receive on the
 * communicator's point-to-point context, released by itself when done); its status is the receive's.
 * Packing stays with the parent, so the halves' completion hooks are free to tell it: a send of a
 * non-contiguous type (and every send of _replace, whose data the receive overwrites) leaves from a
 * packed copy, a receive of a non-contiguous type lands in a buffer unpacked when the parent completes. */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "core/pt2pt.h"
#include "mpi/mpi_impl.h"
#include "mpi/typed.h"

struct pair {
    int pending;             /* halves not yet complete */
    void *sendcopy;          /* packed outgoing data, or NULL */
    void *ubuf;              /* the user's receive buffer, when the receive lands elsewhere */
    size_t count;
    const struct skiff_type *t; /* held while landing is used */
    alignas(max_align_t) char landing[];
};

static void pair_done(struct skiff_request *p)
{
    struct pair *s = p->cookie;
    if (s->t) {
        skiff_type_unpack(s->landing, p->st_bytes, s->ubuf, s->count, s->t);
        skiff_type_unref(s->t);
    }
    free(s->sendcopy);
    free(s);
    p->cookie = NULL;
    p->on_complete = NULL;
}

/* A half is done: the receive gives the parent its status; the last one completes the parent. */
static void half_done(struct skiff_request *h)
{
    struct skiff_request *p = h->cookie;
    struct pair *s = p->cookie;
    if (h->kind == SKIFF_REQ_RECV) {
        p->st_source = h->st_source;
        p->st_tag = h->st_tag;
        p->st_bytes = h->st_bytes;
        p->cancelled = h->cancelled;
    }
    if (h->st_error && (p->st_error == MPI_SUCCESS || h->kind == SKIFF_REQ_RECV))
        p->st_error = h->st_error;
    h->on_complete = NULL;
    h->cookie = NULL;
    if (--s->pending == 0)
        skiff_req_complete(p);
}


/* Starts both halves behind a new parent request. sendbuf/sbytes are bytes to send as they are; the
 * receive of rcount elements of rt lands in recvbuf directly when rt is contiguous. owned: a packed
 * copy the parent frees (sendbuf points into it). */
static int start_pair(const void *sendbuf, size_t sbytes, void *owned, int dest, int sendtag, void *recvbuf,
                      size_t rcount, const struct skiff_type *rt, int source, int recvtag, struct skiff_comm *c,
                      MPI_Request *request)
{
    int direct = rt->contiguous || rcount == 0;
    size_t rbytes = skiff_type_packed_size(rt, rcount);
    struct pair *s = malloc(sizeof *s + (direct ? 0 : rbytes));
    struct skiff_request *p = s ? skiff_req_alloc(SKIFF_REQ_RECV) : NULL;
    if (!p) {
        free(s);
        free(owned);
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for a send-receive of %zu and %zu bytes", sbytes, rbytes);
    }
    *s = (struct pair){.pending = 1, .sendcopy = owned};
    p->comm = c;
    p->peer = source;
    p->world_peer = -1; /* no peer names the parent: only its halves travel */
    p->tag = recvtag;
    p->bytes = rbytes;
    p->state = SKIFF_RS_RECV_DATA;
    p->st_source = MPI_PROC_NULL;
    p->st_tag = MPI_ANY_TAG;
    p->cookie = s;
    p->on_complete = pair_done;
    if (!direct) {
        s->ubuf = recvbuf;
        s->count = rcount;
        s->t = rt;
        skiff_type_ref(rt);
    }
    /* Each half reports to p when done, then releases itself. */
    const struct skiff_req_then half = {half_done, p, 1};
    struct skiff_request *h = NULL;
    int rc = MPI_SUCCESS;
    /* The receive goes first, as in MPI_Sendrecv: a send to ourselves then finds it posted. */
    if (source != MPI_PROC_NULL) {
        s->pending++;
        void *at = direct ? skiff_type_data(recvbuf, rt) : s->landing;
        if ((rc = skiff_recv_start_then(at, direct ? rcount * rt->size : rbytes, source, recvtag, c, c->ctx, &half,
                                        &h)))
            s->pending--;
    }
    if (!rc && dest != MPI_PROC_NULL) {
        s->pending++;
        if ((rc = skiff_send_start_then(sendbuf, sbytes, dest, sendtag, c, c->ctx, SKIFF_SEND_STANDARD, 0, &half,
                                        &h)))
            s->pending--;
    }
    if (rc && p->st_error == MPI_SUCCESS)
        p->st_error = rc;
    /* The parent's own share: it completes once the halves started above have. */
    if (--s->pending == 0)
        skiff_req_complete(p);
    *request = skiff_req_handle(p);
    return MPI_SUCCESS;
}

/* Count elements of t ready to send as bytes: the data itself when contiguous, else a packed copy. */
static int outgoing(const void *buf, size_t count, const struct skiff_type *t, int copy, const void **data,
                    size_t *bytes, void **owned)
{
    *owned = NULL;
    *bytes = skiff_type_packed_size(t, count);
    if (!copy && (t->contiguous || count == 0)) {
        *data = skiff_type_data(buf, t);
        return MPI_SUCCESS;
    }
    if (!(*owned = malloc(*bytes ? *bytes : 1)))
        return skiff_err(MPI_ERR_NO_MEM, "cannot allocate %zu bytes for the outgoing copy", *bytes);
    skiff_type_pack(buf, count, t, *owned);
    *data = *owned;
    return MPI_SUCCESS;
}

/* Shared by each call and its large-count twin; *sent: the bytes sent. */
static int isendrecv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                          void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                          MPI_Comm comm, MPI_Request *request, size_t *sent)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *st = NULL, *rt = NULL;
    int rc = skiff_check_p2p(sendbuf, "sendbuf", sendcount, sendtype, dest, sendtag, comm, 0, &c, &st);
    if (!rc)
        rc = skiff_check_p2p(recvbuf, "recvbuf", recvcount, recvtype, source, recvtag, comm, 1, &c, &rt);
    if (!rc)
        rc = skiff_check_disjoint(sendbuf, sendcount, st, dest, recvbuf, recvcount, rt, source);
    if (!rc)
        rc = skiff_check_ptr(request, "request");
    const void *data = NULL;
    size_t bytes = 0;
    void *owned = NULL;
    if (!rc && dest != MPI_PROC_NULL)
        rc = outgoing(sendbuf, (size_t)sendcount, st, 0, &data, &bytes, &owned);
    if (!rc)
        rc = start_pair(data, bytes, owned, dest, sendtag, recvbuf, (size_t)recvcount, rt, source, recvtag, c,
                        request);
    *sent = bytes;
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

#define ISENDRECV(name, count_t)                                                                         \
    int P##name(const void *sendbuf, count_t sendcount, MPI_Datatype sendtype, int dest, int sendtag,     \
                void *recvbuf, count_t recvcount, MPI_Datatype recvtype, int source, int recvtag,         \
                MPI_Comm comm, MPI_Request *request)                                                     \
    {                                                                                                    \
        SKIFF_ENTER(name);                                                                               \
        SKIFF_REQUIRE_INIT();                                                                            \
        size_t sent = 0;                                                                                 \
        int rc = isendrecv_impl(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,         \
                                recvtype, source, recvtag, comm, request, &sent);                        \
        SKIFF_PROFILE_MSG(sent);                                                                         \
        return rc;                                                                                       \
    }                                                                                                    \
    SKIFF_ALIAS(name)

ISENDRECV(MPI_Isendrecv, int)
ISENDRECV(MPI_Isendrecv_c, MPI_Count)

static int isendrecv_replace_impl(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
                                  int source, int recvtag, MPI_Comm comm, MPI_Request *request, size_t *sent)
{
    struct skiff_comm *c = NULL;
    const struct skiff_type *t = NULL;
    int rc = skiff_check_p2p(buf, "buf", count, datatype, dest, sendtag, comm, 0, &c, &t);
    if (!rc)
        rc = skiff_check_p2p(buf, "buf", count, datatype, source, recvtag, comm, 1, &c, &t);
    if (!rc)
        rc = skiff_check_ptr(request, "request");
    const void *data = NULL;
    size_t bytes = 0;
    void *owned = NULL;
    /* The outgoing data must survive the incoming overwrite: it leaves from a copy. */
    if (!rc && dest != MPI_PROC_NULL)
        rc = outgoing(buf, (size_t)count, t, source != MPI_PROC_NULL, &data, &bytes, &owned);
    if (!rc)
        rc = start_pair(data, bytes, owned, dest, sendtag, buf, (size_t)count, t, source, recvtag, c, request);
    *sent = bytes;
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}

#define ISENDRECV_REPLACE(name, count_t)                                                                 \
    int P##name(void *buf, count_t count, MPI_Datatype datatype, int dest, int sendtag, int source,       \
                int recvtag, MPI_Comm comm, MPI_Request *request)                                        \
    {                                                                                                    \
        SKIFF_ENTER(name);                                                                               \
        SKIFF_REQUIRE_INIT();                                                                            \
        size_t sent = 0;                                                                                 \
        int rc = isendrecv_replace_impl(buf, count, datatype, dest, sendtag, source, recvtag, comm,      \
                                        request, &sent);                                                 \
        SKIFF_PROFILE_MSG(sent);                                                                         \
        return rc;                                                                                       \
    }                                                                                                    \
    SKIFF_ALIAS(name)

ISENDRECV_REPLACE(MPI_Isendrecv_replace, int)
ISENDRECV_REPLACE(MPI_Isendrecv_replace_c, MPI_Count)
