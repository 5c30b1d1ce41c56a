#include "core/pt2pt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot/boot.h"
#include "core/core.h"
#include "core/error.h"
#include "core/match.h"
#include "core/progress.h"
#include "core/stats.h"
#include "core/trace.h"
#include "util/arch.h"
#include "util/copy.h"
#include "util/log.h"

/* A send that found no room in its transport, kept in order per peer until there is. */
struct pending {
    struct pending *next;
    struct skiff_hdr h;
    const void *payload;
    size_t len;
    struct skiff_request *req; /* completed once transmitted, if not NULL */
};

static struct {
    struct pending **head, **tail; /* per job rank */
    int npending;
    struct skiff_request *streams; /* rendezvous sends pushing DATA pieces */
    int active_sends;              /* sends whose peer still needs our buffer or an answer */
    /* Inside MPI_Finalize no receive can match any more: 1 while we still answer (DROP) messages
     * that wait for an answer, 2 once we close the transports and answer nothing (peers then see
     * that we finalized: our goodbye, our state). */
    int finalizing;
} pp;

static void protocol_error(int peer, const char *what, unsigned long long v)
{
    skiff_error("protocol error from rank %d: %s (%llu): ending the job", peer, what, v);
    skiff_abort_job(MPI_ERR_INTERN, "protocol error");
}

/* The head of a peer's queue is read without the library lock by skiff_send_direct: stored atomically
 * (a plain move on x86). */
static inline void set_head(int peer, struct pending *p)
{
    __atomic_store_n(&pp.head[peer], p, __ATOMIC_RELAXED);
}

/* The queues exist from init, not from the first deferred send: a send tests its peer's queue without
 * a second test for the table, and no two threads can race to create it (docs/per-communicator-locks.md,
 * step 2). */
int skiff_pt2pt_init(void)
{
    pp.head = calloc((size_t)skiff.size, sizeof *pp.head);
    pp.tail = calloc((size_t)skiff.size, sizeof *pp.tail);
    return pp.head && pp.tail ? 0 : -1;
}

/* Nothing of ours waits for room to peer, so a new send may go first. Tested through the count: with
 * no send deferred anywhere (nearly always) that is one load. */
static inline int no_queue(int peer)
{
    return pp.npending == 0 || !pp.head[peer];
}

static void defer(int peer, const struct skiff_hdr *h, const void *payload, size_t len, struct skiff_request *req)
{
    struct pending *p = malloc(sizeof *p);
    if (!p)
        skiff_abort_job(MPI_ERR_NO_MEM, "out of memory for deferred sends");
    skiff_stats.deferred_sends += h->type == SKIFF_MSG_EAGER;
    *p = (struct pending){NULL, *h, payload, len, req};
    if (pp.tail[peer])
        pp.tail[peer]->next = p;
    else
        set_head(peer, p);
    pp.tail[peer] = p;
    pp.npending++;
}

/* Sends now if the path is free, else queues behind earlier sends to the same peer (order!).
 * Returns 1 if the message left now. */
static int xmit(int peer, const struct skiff_hdr *h, const void *payload, size_t len, struct skiff_request *req)
{
    if (no_queue(peer) && skiff_transport_for(peer)->send(peer, h, payload, len) == 0)
        return 1;
    defer(peer, h, payload, len, req);
    return 0;
}

/* Every control message names the context of the message it answers (or withdraws), as EAGER and RTS do:
 * what a lock per communicator would need to find its communicator (docs/per-communicator-locks.md). */
static void send_ctrl(int peer, int type, uint32_t ctx, uint64_t sreq, uint64_t rreq)
{
    /* Closing: our goodbye may be out already, after which nothing may follow it; peers learn that
     * we finalized from the goodbye or our state instead. */
    if (SKIFF_UNLIKELY(pp.finalizing == 2))
        return;
    struct skiff_hdr h = {.type = (uint8_t)type, .version = SKIFF_PROTO_VERSION, .ctx = ctx, .sreq = sreq,
                          .rreq = rreq};
    xmit(peer, &h, NULL, 0, NULL);
}

/* The callback runs before DONE is stored, and the store is a release: a thread that sees DONE (an
 * acquire in the wait loops) may retire and release the request at once, so nothing of the completion
 * may follow it (docs/per-communicator-locks.md, step 3). A freed request has no waiter: the completer
 * releases it. */
void skiff_req_complete(struct skiff_request *r)
{
    if (r->kind == SKIFF_REQ_SEND && r->state != SKIFF_RS_DONE)
        pp.active_sends--;
    if (r->on_complete)
        r->on_complete(r);
    if (r->freed) {
        r->state = SKIFF_RS_DONE;
        skiff_req_destroy(r);
        return;
    }
    __atomic_store_n(&r->state, SKIFF_RS_DONE, __ATOMIC_RELEASE);
}

static struct skiff_request *new_send(struct skiff_comm *c, uint32_t ctx, int dest, int peer, int tag,
                                      const void *buf, size_t bytes, int state)
{
    struct skiff_request *r = skiff_req_alloc(SKIFF_REQ_SEND);
    if (!r)
        return NULL;
    r->comm = c;
    r->peer = dest;
    r->world_peer = peer;
    r->tag = tag;
    r->ctx = ctx;
    r->buf = (void *)buf;
    r->bytes = bytes;
    r->state = (uint8_t)state;
    if (state != SKIFF_RS_DONE)
        pp.active_sends++;
    return r;
}

/* A request that is already complete (an Isend whose data left at once). */
static struct skiff_request *done_send(struct skiff_comm *c, uint32_t ctx, int dest, int peer, int tag)
{
    return new_send(c, ctx, dest, peer, tag, NULL, 0, SKIFF_RS_DONE);
}

/* A synchronous eager send or a rendezvous: r waits for the receiver's answer, which names it by id. */
static void send_awaiting(struct skiff_request *r, struct skiff_hdr *h, int eager)
{
    h->sreq = skiff_req_id(r);
    if (eager) {
        skiff_stats.sync_sends++;
        h->flags = SKIFF_MSG_F_SYNC;
        xmit(r->world_peer, h, r->buf, r->bytes, NULL);
    } else {
        skiff_stats.rndv_sends++;
        h->type = SKIFF_MSG_RTS;
        h->aux = (uint64_t)(uintptr_t)r->buf;
        xmit(r->world_peer, h, NULL, 0, NULL);
    }
}

/* r, about to be posted, takes then: what the caller may keep of it (NULL for a request that releases
 * itself, which may be gone as soon as it is posted). */
static inline struct skiff_request *posting(struct skiff_request *r, const struct skiff_req_then *then)
{
    if (!then)
        return r;
    skiff_req_set_then(r, then);
    return then->freed ? NULL : r;
}

/* A send that left at once, for a caller whose request has something to do when complete. */
static int sent_then(struct skiff_comm *c, uint32_t ctx, int dest, int peer, int tag,
                     const struct skiff_req_then *then, struct skiff_request **out)
{
    struct skiff_request *r = new_send(c, ctx, dest, peer, tag, NULL, 0, SKIFF_RS_POSTED);
    if (!r)
        return skiff_err(MPI_ERR_NO_MEM, "out of request objects");
    *out = posting(r, then);
    skiff_req_complete(r);
    return MPI_SUCCESS;
}

/* The header of a message from rank src of its communicator: eager, until send_awaiting turns it into
 * an RTS or marks it synchronous. */
static inline struct skiff_hdr message_hdr(int src, int tag, uint32_t ctx, size_t bytes)
{
    return (struct skiff_hdr){.type = SKIFF_MSG_EAGER, .version = SKIFF_PROTO_VERSION, .src = src, .tag = tag,
                              .ctx = ctx, .len = bytes};
}

/* Inlined twice: with then NULL (every plain send), its tests fold away. */
static inline __attribute__((always_inline)) int send_start(const void *buf, size_t bytes, int dest, int tag,
                                                             struct skiff_comm *c, uint32_t ctx, int mode,
                                                             int blocking, const struct skiff_req_then *then,
                                                             struct skiff_request **out)
{
    int peer = skiff_comm_world_rank(c, dest);
    struct skiff_hdr h = message_hdr(c->rank, tag, ctx, bytes);
    struct skiff_request *r;
    *out = NULL;
    const struct skiff_transport *t = skiff_transport_for(peer);
    int eager = bytes <= t->max_eager; /* always, to oneself (self/self.c) */
    if (eager && mode == SKIFF_SEND_STANDARD) {
        if (no_queue(peer)) {
            if (t->send(peer, &h, buf, bytes) == 0) {
                if (blocking)
                    return MPI_SUCCESS;
                if (then)
                    return sent_then(c, ctx, dest, peer, tag, then, out);
                *out = r = done_send(c, ctx, dest, peer, tag);
                return r ? MPI_SUCCESS : skiff_err(MPI_ERR_NO_MEM, "out of request objects");
            }
        }
        if (!(r = new_send(c, ctx, dest, peer, tag, buf, bytes, SKIFF_RS_POSTED)))
            return skiff_err(MPI_ERR_NO_MEM, "out of request objects");
        *out = posting(r, then);
        defer(peer, &h, buf, bytes, r);
        return MPI_SUCCESS;
    }
    if (!(r = new_send(c, ctx, dest, peer, tag, buf, bytes, eager ? SKIFF_RS_WAIT_ACK : SKIFF_RS_WAIT_RNDV)))
        return skiff_err(MPI_ERR_NO_MEM, "out of request objects");
    *out = posting(r, then);
    send_awaiting(r, &h, eager);
    return MPI_SUCCESS;
}

/* Nothing this thread sent to the peer before may still wait in the peer's queue, or this message would
 * overtake it. A message it deferred is taken off the queue only after it has been handed to the
 * transport (flush_pending), under the peer's send lock that send_direct takes too, so an empty queue
 * read here means it went before. Other threads' messages have no order with ours. */
int skiff_send_direct(const void *buf, size_t bytes, int dest, int tag, struct skiff_comm *c)
{
    int peer = skiff_comm_world_rank(c, dest);
    const struct skiff_transport *t = skiff_transport_for(peer);
    if (!t->send_direct || bytes > t->max_eager || skiff_tracing() ||
        __atomic_load_n(&pp.head[peer], __ATOMIC_RELAXED))
        return 0;
    struct skiff_hdr h = message_hdr(c->rank, tag, c->ctx, bytes);
    return t->send_direct(peer, &h, buf, bytes) == 0;
}

static void trace_send(struct skiff_comm *c, uint32_t ctx, int dest, int tag, size_t bytes, int mode,
                       struct skiff_request *r)
{
    int peer = skiff_comm_world_rank(c, dest);
    skiff_trace_send(c, ctx, peer, tag, bytes, r, bytes > skiff_transport_for(peer)->max_eager,
                     mode == SKIFF_SEND_SYNC);
}

int skiff_send_start(const void *buf, size_t bytes, int dest, int tag, struct skiff_comm *c, uint32_t ctx, int mode,
                     int blocking, struct skiff_request **out)
{
    int rc = send_start(buf, bytes, dest, tag, c, ctx, mode, blocking, NULL, out);
    if (SKIFF_UNLIKELY(skiff_tracing()) && !rc)
        trace_send(c, ctx, dest, tag, bytes, mode, *out);
    return rc;
}

int skiff_send_start_then(const void *buf, size_t bytes, int dest, int tag, struct skiff_comm *c, uint32_t ctx,
                          int mode, int blocking, const struct skiff_req_then *then, struct skiff_request **out)
{
    int rc = send_start(buf, bytes, dest, tag, c, ctx, mode, blocking, then, out);
    if (SKIFF_UNLIKELY(skiff_tracing()) && !rc)
        trace_send(c, ctx, dest, tag, bytes, mode, *out);
    return rc;
}

int skiff_send_restart(struct skiff_request *r, const struct skiff_transport *t, int mode)
{
    int peer = r->world_peer;
    SKIFF_TRACE_HOOK(skiff_trace_send(r->comm, r->ctx, peer, r->tag, r->bytes, r, r->bytes > t->max_eager,
                                      mode == SKIFF_SEND_SYNC));
    struct skiff_hdr h = message_hdr(r->comm->rank, r->tag, r->ctx, r->bytes);
    r->st_error = MPI_SUCCESS;
    r->withdrawn = 0;
    int eager = r->bytes <= t->max_eager;
    if (eager && mode == SKIFF_SEND_STANDARD) {
        if (no_queue(peer) && t->send(peer, &h, r->buf, r->bytes) == 0) {
            r->state = SKIFF_RS_DONE;
        } else {
            r->state = SKIFF_RS_POSTED;
            pp.active_sends++;
            defer(peer, &h, r->buf, r->bytes, r);
        }
        return MPI_SUCCESS;
    }
    r->state = eager ? SKIFF_RS_WAIT_ACK : SKIFF_RS_WAIT_RNDV;
    pp.active_sends++;
    send_awaiting(r, &h, eager);
    return MPI_SUCCESS;
}

static void record_match(struct skiff_request *r, int peer, const struct skiff_hdr *h)
{
    /* The source goes into the user's status, where programs index arrays with it. */
    if (SKIFF_UNLIKELY(h->src < 0 || h->src >= r->comm->peers || skiff_comm_world_rank(r->comm, h->src) != peer))
        protocol_error(peer, "message claims a source rank that is not its sender", (unsigned long long)(uint32_t)h->src);
    r->world_peer = peer;
    r->st_source = h->src;
    r->st_tag = h->tag;
    r->msg_len = h->len;
    r->st_bytes = h->len < r->bytes ? h->len : r->bytes;
    if (h->len > r->bytes)
        r->st_error = skiff_err(MPI_ERR_TRUNCATE,
                                "message truncated: %llu bytes arrived from rank %d, tag %d, buffer holds %zu",
                                (unsigned long long)h->len, h->src, h->tag, r->bytes);
}

static void deliver_eager(struct skiff_request *r, int peer, const struct skiff_hdr *h, const void *payload)
{
    record_match(r, peer, h);
    if (r->st_bytes)
        memcpy(r->buf, payload, r->st_bytes);
    if (h->flags & SKIFF_MSG_F_SYNC)
        send_ctrl(peer, SKIFF_MSG_ACK, h->ctx, h->sreq, 0);
    skiff_req_complete(r);
}

/* A matched rendezvous: pull the data in one copy if the kernel lets us, else ask for pieces. */
static void start_rndv_recv(struct skiff_request *r, int peer, const struct skiff_hdr *h)
{
    record_match(r, peer, h);
    skiff_stats.rndv_recvs++;
    const struct skiff_transport *t = skiff_transport_for(peer);
    if (t->pull) {
        int rc = t->pull(peer, h->aux, r->buf, r->st_bytes);
        if (rc == 0 || (rc != -EPERM && rc != -ENOSYS)) {
            skiff_stats.rndv_pulls += rc == 0;
            if (rc && r->st_error == MPI_SUCCESS)
                r->st_error = skiff_err(MPI_ERR_OTHER, "single-copy read of %zu bytes from rank %d failed: %s",
                                        r->st_bytes, h->src, strerror(-rc));
            send_ctrl(peer, SKIFF_MSG_FIN, h->ctx, h->sreq, 0);
            skiff_req_complete(r);
            return;
        }
    }
    r->state = SKIFF_RS_RECV_DATA;
    r->remote = h->sreq;
    r->done = 0;
    send_ctrl(peer, SKIFF_MSG_CTS, h->ctx, h->sreq, skiff_req_id(r));
}

static void stash(int peer, const struct skiff_hdr *h, const void *payload, size_t plen)
{
    struct skiff_unexp *u = malloc(sizeof *u);
    void *data = plen ? malloc(plen) : NULL;
    if (!u || (plen && !data))
        skiff_abort_job(MPI_ERR_NO_MEM, "out of memory for unexpected messages");
    if (plen)
        memcpy(data, payload, plen);
    *u = (struct skiff_unexp){NULL, *h, peer, data};
    skiff_unexp_add(u);
}

/* The request an answer names. Its context must be the header's: the communicator, and so the lock it
 * will need (docs/per-communicator-locks.md), is known from the header before the request is touched. */
static struct skiff_request *find_own(const struct skiff_hdr *h, uint64_t id, int kind, int state, int peer)
{
    struct skiff_request *r = skiff_req_lookup(id);
    if (!r || r->kind != kind || r->state != state || r->world_peer != peer || r->ctx != h->ctx)
        protocol_error(peer, "message names no request of ours in that state and context", (unsigned long long)id);
    return r;
}

static void on_data(int peer, const struct skiff_hdr *h, const void *payload, size_t plen)
{
    struct skiff_request *r = find_own(h, h->rreq, SKIFF_REQ_RECV, SKIFF_RS_RECV_DATA, peer);
    /* Pieces may arrive in any order (tcp stripes them over several connections); each must lie
     * inside the message, and together they may not exceed it. */
    if (plen != h->len || h->aux > r->msg_len || plen > r->msg_len - h->aux || plen > r->msg_len - r->done)
        protocol_error(peer, "data piece out of place", (unsigned long long)h->aux);
    if (h->aux < r->st_bytes) {
        size_t n = r->st_bytes - h->aux < plen ? r->st_bytes - h->aux : plen;
        /* A transport that received the piece in place (skiff_core_data_target) passes that address. */
        if (payload == (const char *)r->buf + h->aux)
            skiff_stats.data_in_place++;
        else if (r->msg_len >= SKIFF_STREAM_MIN)
            skiff_copy_stream((char *)r->buf + h->aux, payload, n);
        else
            memcpy((char *)r->buf + h->aux, payload, n);
    }
    r->done += plen;
    if (r->done == r->msg_len)
        skiff_req_complete(r);
}

void *skiff_core_data_target(int peer, const struct skiff_hdr *h, size_t len)
{
    if (h->type != SKIFF_MSG_DATA || len != h->len)
        return NULL;
    /* The receive stays in this state until its last piece is delivered, which this one is not yet. */
    struct skiff_request *r = skiff_req_lookup(h->rreq);
    if (!r || r->kind != SKIFF_REQ_RECV || r->state != SKIFF_RS_RECV_DATA || r->world_peer != peer ||
        r->ctx != h->ctx)
        return NULL;
    if (h->aux > r->st_bytes || len > r->st_bytes - h->aux)
        return NULL;
    return (char *)r->buf + h->aux;
}

static void on_cts(int peer, const struct skiff_hdr *h)
{
    struct skiff_request *s = find_own(h, h->sreq, SKIFF_REQ_SEND, SKIFF_RS_WAIT_RNDV, peer);
    s->state = SKIFF_RS_STREAM;
    s->remote = h->rreq;
    s->done = 0;
    s->next = pp.streams;
    s->prev = NULL;
    if (pp.streams)
        pp.streams->prev = s;
    pp.streams = s;
}

/* A send that will never be received ends with an error that says why. The user sees it in the status
 * of Wait/Test; a send nobody will wait for (freed, or left behind at MPI_Finalize) is reported here. */
static void end_unreceived(struct skiff_request *s, const char *why)
{
    const char *comm = s->comm ? skiff_comm_label(s->comm) : "?";
    s->st_error = skiff_err(MPI_ERR_OTHER, "message never received: %zu bytes to rank %d, tag %d, communicator %s (%s)",
                            s->bytes, s->peer, s->tag, comm, why);
    if (pp.finalizing || s->freed) {
        char msg[MPI_MAX_ERROR_STRING];
        skiff_err_string(s->st_error, msg);
        skiff_error("%s", msg);
    }
    skiff_req_complete(s);
}

static int awaits_answer(const struct skiff_request *s)
{
    return s->kind == SKIFF_REQ_SEND && (s->state == SKIFF_RS_WAIT_ACK || s->state == SKIFF_RS_WAIT_RNDV);
}

static void on_drop(int peer, const struct skiff_hdr *h)
{
    struct skiff_request *s = skiff_req_lookup(h->sreq);
    if (!s || !awaits_answer(s) || s->world_peer != peer || s->ctx != h->ctx)
        protocol_error(peer, "drop names no send of ours in that context that waits for an answer",
                       (unsigned long long)h->sreq);
    char why[96];
    snprintf(why, sizeof why, "rank %d %s", s->peer,
             s->withdrawn ? "had not matched it when MPI_Finalize here gave up waiting" : "called MPI_Finalize without a matching receive");
    end_unreceived(s, why);
}

/* A sender gave up on sreq. Unmatched, it is dropped and the sender told so; matched, our CTS, FIN or
 * ACK for it is already on its way, which answers the sender. */
static void answer_withdraw(int peer, uint32_t ctx, uint64_t sreq)
{
    struct skiff_unexp *u = skiff_unexp_take_awaiting(peer, ctx, sreq);
    if (!u)
        return;
    send_ctrl(peer, SKIFF_MSG_DROP, ctx, sreq, 0);
    free(u->data);
    free(u);
}

void skiff_core_incoming(int peer, const struct skiff_hdr *h, const void *payload, size_t plen)
{
    struct skiff_request *r;
    switch (h->type) {
    case SKIFF_MSG_EAGER:
        skiff_stats.recv_msgs++;
        skiff_stats.recv_bytes += h->len;
        if (plen != h->len)
            protocol_error(peer, "eager length differs from payload", (unsigned long long)h->len);
        if ((r = skiff_posted_take(h->ctx, h->src, h->tag)))
            deliver_eager(r, peer, h, payload);
        else if (SKIFF_UNLIKELY(pp.finalizing == 1 && (h->flags & SKIFF_MSG_F_SYNC)))
            send_ctrl(peer, SKIFF_MSG_DROP, h->ctx, h->sreq, 0);
        else
            stash(peer, h, payload, plen);
        break;
    case SKIFF_MSG_RTS:
        skiff_stats.recv_msgs++;
        skiff_stats.recv_bytes += h->len;
        if ((r = skiff_posted_take(h->ctx, h->src, h->tag)))
            start_rndv_recv(r, peer, h);
        else if (SKIFF_UNLIKELY(pp.finalizing == 1))
            send_ctrl(peer, SKIFF_MSG_DROP, h->ctx, h->sreq, 0);
        else
            stash(peer, h, NULL, 0);
        break;
    case SKIFF_MSG_CTS:
        on_cts(peer, h);
        break;
    case SKIFF_MSG_DATA:
        on_data(peer, h, payload, plen);
        break;
    case SKIFF_MSG_FIN:
        skiff_req_complete(find_own(h, h->sreq, SKIFF_REQ_SEND, SKIFF_RS_WAIT_RNDV, peer));
        break;
    case SKIFF_MSG_ACK:
        skiff_req_complete(find_own(h, h->sreq, SKIFF_REQ_SEND, SKIFF_RS_WAIT_ACK, peer));
        break;
    case SKIFF_MSG_DROP:
        on_drop(peer, h);
        break;
    case SKIFF_MSG_WITHDRAW:
        answer_withdraw(peer, h->ctx, h->sreq);
        break;
    default:
        protocol_error(peer, "unknown message type", h->type);
    }
}

/* r takes the message u, which is out of the unexpected queue: all of it now, or its rendezvous. Inlined:
 * MPI_Recv of a message that is already here comes this way. */
static inline __attribute__((always_inline)) void deliver_unexp(struct skiff_request *r, struct skiff_unexp *u)
{
    if (u->h.type == SKIFF_MSG_EAGER)
        deliver_eager(r, u->peer, &u->h, u->data);
    else
        start_rndv_recv(r, u->peer, &u->h);
    free(u->data);
    free(u);
}

/* The oldest matching message that is already here, else a place among the posted receives. The
 * envelope comes as arguments, not from r: the tracing test before this is an atomic load, after which
 * the compiler reloads what it would otherwise keep in registers. */
static inline __attribute__((always_inline)) void recv_post(struct skiff_request *r, uint32_t ctx, int src, int tag)
{
    struct skiff_unexp *u = skiff_unexp_find(ctx, src, tag, 1);
    if (!u)
        skiff_posted_add(r);
    else
        deliver_unexp(r, u);
}

static inline __attribute__((always_inline)) int recv_start(void *buf, size_t bytes, int src, int tag,
                                                             struct skiff_comm *c, uint32_t ctx,
                                                             const struct skiff_req_then *then,
                                                             struct skiff_request **out)
{
    struct skiff_request *r = skiff_req_alloc(SKIFF_REQ_RECV);
    if (!r)
        return skiff_err(MPI_ERR_NO_MEM, "out of request objects");
    r->comm = c;
    r->peer = src;
    r->world_peer = -1;
    r->tag = tag;
    r->ctx = ctx;
    r->buf = buf;
    r->bytes = bytes;
    r->state = SKIFF_RS_POSTED;
    *out = posting(r, then);
    SKIFF_TRACE_HOOK(skiff_trace_recv(r));
    recv_post(r, ctx, src, tag);
    return MPI_SUCCESS;
}

int skiff_recv_start(void *buf, size_t bytes, int src, int tag, struct skiff_comm *c, uint32_t ctx,
                     struct skiff_request **out)
{
    return recv_start(buf, bytes, src, tag, c, ctx, NULL, out);
}

int skiff_recv_start_then(void *buf, size_t bytes, int src, int tag, struct skiff_comm *c, uint32_t ctx,
                          const struct skiff_req_then *then, struct skiff_request **out)
{
    return recv_start(buf, bytes, src, tag, c, ctx, then, out);
}

void skiff_recv_restart(struct skiff_request *r)
{
    r->st_source = r->st_tag = 0;
    r->st_error = MPI_SUCCESS;
    r->st_bytes = r->msg_len = r->done = 0;
    r->cancelled = 0;
    r->world_peer = -1;
    r->state = SKIFF_RS_POSTED;
    SKIFF_TRACE_HOOK(skiff_trace_recv(r));
    recv_post(r, r->ctx, r->peer, r->tag);
}

int skiff_mprobe_once(int src, int tag, struct skiff_comm *c, MPI_Status *status, struct skiff_request **out)
{
    *out = NULL;
    if (!skiff_probe_once(src, tag, c, status))
        return MPI_SUCCESS;
    struct skiff_request *m = skiff_req_alloc(SKIFF_REQ_MSG);
    if (!m)
        return skiff_err(MPI_ERR_NO_MEM, "out of request objects for a matched message");
    /* The same oldest match as the probe's, now out of every other receive's reach. */
    m->matched = skiff_unexp_find(c->ctx, src, tag, 1);
    m->comm = c;
    m->peer = m->matched->h.src;
    m->world_peer = m->matched->peer;
    m->tag = m->matched->h.tag;
    m->ctx = c->ctx;
    m->bytes = m->matched->h.len;
    *out = m;
    return MPI_SUCCESS;
}

void skiff_mrecv_start(struct skiff_request *m, void *buf, size_t bytes, const struct skiff_req_then *then)
{
    struct skiff_unexp *u = m->matched;
    if (then)
        skiff_req_set_then(m, then);
    m->matched = NULL;
    m->kind = SKIFF_REQ_RECV;
    m->buf = buf;
    m->bytes = bytes;
    m->state = SKIFF_RS_POSTED;
    SKIFF_TRACE_HOOK(skiff_trace_recv(m));
    deliver_unexp(m, u);
}

int skiff_probe_once(int src, int tag, struct skiff_comm *c, MPI_Status *status)
{
    struct skiff_unexp *u = skiff_unexp_find(c->ctx, src, tag, 0);
    if (!u)
        return 0;
    if (status) {
        status->MPI_SOURCE = u->h.src;
        status->MPI_TAG = u->h.tag;
        status->MPI_ERROR = MPI_SUCCESS;
        status->MPI_internal[SKIFF_ST_BYTES_LO] = (int)(uint32_t)u->h.len;
        status->MPI_internal[SKIFF_ST_BYTES_HI] = (int)(uint32_t)(u->h.len >> 32);
        status->MPI_internal[SKIFF_ST_CANCELLED] = 0;
    }
    return 1;
}

int skiff_cancel_recv(struct skiff_request *r)
{
    if (r->kind != SKIFF_REQ_RECV || r->state != SKIFF_RS_POSTED)
        return 0;
    skiff_posted_remove(r);
    r->cancelled = 1;
    r->st_source = MPI_ANY_SOURCE;
    r->st_tag = MPI_ANY_TAG;
    r->st_bytes = 0;
    skiff_req_complete(r);
    return 1;
}

void skiff_status_from_req(MPI_Status *st, const struct skiff_request *r)
{
    if (!st)
        return;
    st->MPI_SOURCE = r->kind == SKIFF_REQ_RECV ? r->st_source : MPI_ANY_SOURCE;
    st->MPI_TAG = r->kind == SKIFF_REQ_RECV ? r->st_tag : MPI_ANY_TAG;
    st->MPI_ERROR = r->st_error;
    size_t b = r->kind == SKIFF_REQ_RECV ? r->st_bytes : 0;
    st->MPI_internal[SKIFF_ST_BYTES_LO] = (int)(uint32_t)b;
    st->MPI_internal[SKIFF_ST_BYTES_HI] = (int)(uint32_t)((uint64_t)b >> 32);
    st->MPI_internal[SKIFF_ST_CANCELLED] = r->cancelled;
}

void skiff_status_empty(MPI_Status *st, int source)
{
    if (!st)
        return;
    st->MPI_SOURCE = source;
    st->MPI_TAG = MPI_ANY_TAG;
    st->MPI_ERROR = MPI_SUCCESS;
    st->MPI_internal[SKIFF_ST_BYTES_LO] = 0;
    st->MPI_internal[SKIFF_ST_BYTES_HI] = 0;
    st->MPI_internal[SKIFF_ST_CANCELLED] = 0;
}

static int flush_pending(void)
{
    int n = 0;
    for (int peer = 0; peer < skiff.size && pp.npending; peer++) {
        struct pending *p;
        while ((p = pp.head[peer]) != NULL &&
               skiff_transport_for(peer)->send(peer, &p->h, p->payload, p->len) == 0) {
            set_head(peer, p->next); /* only now: see skiff_send_direct */
            if (!p->next)
                pp.tail[peer] = NULL;
            pp.npending--;
            if (p->req)
                skiff_req_complete(p->req);
            free(p);
            n++;
        }
    }
    return n;
}

static void stream_done(struct skiff_request *s)
{
    if (s->prev)
        s->prev->next = s->next;
    else
        pp.streams = s->next;
    if (s->next)
        s->next->prev = s->prev;
    s->next = s->prev = NULL;
    skiff_req_complete(s);
}

static int push_streams(void)
{
    int n = 0;
    struct skiff_request *s = pp.streams, *next;
    for (; s; s = next) {
        next = s->next;
        const struct skiff_transport *t = skiff_transport_for(s->world_peer);
        while (s->done < s->bytes) {
            size_t piece = s->bytes - s->done < t->max_piece ? s->bytes - s->done : t->max_piece;
            struct skiff_hdr h = {.type = SKIFF_MSG_DATA, .version = SKIFF_PROTO_VERSION, .ctx = s->ctx,
                                  .len = piece, .rreq = s->remote, .aux = s->done,
                                  .flags = s->done + piece == s->bytes ? SKIFF_MSG_F_LAST : 0};
            if (t->send(s->world_peer, &h, (const char *)s->buf + s->done, piece) != 0)
                break;
            s->done += piece;
            n++;
        }
        if (s->done == s->bytes)
            stream_done(s);
    }
    return n;
}

int skiff_pt2pt_progress(void)
{
    int n = 0;
    if (SKIFF_UNLIKELY(pp.npending))
        n += flush_pending();
    if (SKIFF_UNLIKELY(pp.streams != NULL))
        n += push_streams();
    return n;
}

int skiff_pt2pt_busy(void)
{
    return pp.npending || pp.streams;
}

int skiff_pt2pt_deferred(void)
{
    return pp.npending;
}

int skiff_pt2pt_outstanding(void)
{
    return pp.active_sends;
}

/* A message MPI_Mprobe matched that no MPI_Mrecv took: its sender, if it waits, is told as an unmatched
 * one would be (a matched message is not in the queue a WITHDRAW searches). */
static void drop_matched(struct skiff_request *m, void *arg)
{
    (void)arg;
    if (m->kind != SKIFF_REQ_MSG)
        return;
    struct skiff_unexp *u = m->matched;
    if (u->h.type == SKIFF_MSG_RTS || (u->h.flags & SKIFF_MSG_F_SYNC))
        send_ctrl(u->peer, SKIFF_MSG_DROP, u->h.ctx, u->h.sreq, 0);
    free(u->data);
    free(u);
    skiff_req_release(m);
}

void skiff_pt2pt_finalize_begin(void)
{
    pp.finalizing = 1;
    skiff_req_foreach(drop_matched, NULL);
    struct skiff_unexp *u;
    while ((u = skiff_unexp_take_awaiting(-1, 0, 0)) != NULL) {
        send_ctrl(u->peer, SKIFF_MSG_DROP, u->h.ctx, u->h.sreq, 0);
        free(u->data);
        free(u);
    }
}

void skiff_pt2pt_closing(void)
{
    pp.finalizing = 2;
}

/* A send that still needs something from its peer: an answer, room in the transport, or pieces pushed. */
static int unfinished_send(const struct skiff_request *r)
{
    return r->kind == SKIFF_REQ_SEND && r->state != SKIFF_RS_DONE && r->state != SKIFF_RS_IDLE;
}

static void withdraw(struct skiff_request *r, void *arg)
{
    double *waited = arg;
    if (!awaits_answer(r) || r->withdrawn)
        return;
    skiff_error("MPI_Finalize: after %.1f s a message is still not received: %zu bytes to rank %d, tag %d, "
                "communicator %s; asking rank %d to drop it if it has not matched it",
                *waited, r->bytes, r->peer, r->tag, r->comm ? skiff_comm_label(r->comm) : "?", r->peer);
    r->withdrawn = 1;
    send_ctrl(r->world_peer, SKIFF_MSG_WITHDRAW, r->ctx, skiff_req_id(r), 0);
}

void skiff_pt2pt_withdraw_all(double waited)
{
    skiff_req_foreach(withdraw, &waited);
}

static void mark_peer(struct skiff_request *r, void *arg)
{
    if (unfinished_send(r) && r->world_peer != skiff.rank)
        ((unsigned char *)arg)[r->world_peer] = 1;
}

static void abandon_send(struct skiff_request *r, void *arg)
{
    int peer = *(const int *)arg;
    if (!unfinished_send(r) || r->world_peer != peer)
        return;
    if (r->state == SKIFF_RS_STREAM && (r->prev || r->next || pp.streams == r)) {
        if (r->prev)
            r->prev->next = r->next;
        else
            pp.streams = r->next;
        if (r->next)
            r->next->prev = r->prev;
        r->next = r->prev = NULL;
    }
    char why[64];
    snprintf(why, sizeof why, "rank %d finalized before receiving it", r->peer);
    end_unreceived(r, why);
}

/* The peer has finalized and reads nothing more: what we still owe it or wait for from it ends here. */
static void abandon_peer(int peer)
{
    while (pp.head && pp.head[peer]) {
        struct pending *p = pp.head[peer];
        set_head(peer, p->next);
        pp.npending--;
        free(p);
    }
    if (pp.tail)
        pp.tail[peer] = NULL;
    skiff_req_foreach(abandon_send, &peer);
}

void skiff_pt2pt_abandon_finished(void)
{
    unsigned char *waits = calloc((size_t)skiff.size, 1);
    if (!waits)
        return;
    skiff_req_foreach(mark_peer, waits);
    int any = 0;
    for (int p = 0; p < skiff.size; p++) {
        waits[p] |= pp.head && pp.head[p] && p != skiff.rank;
        waits[p] = waits[p] && skiff_peer_finalized(p);
        any |= waits[p];
    }
    /* The peer said everything it will ever say before it finalized: take all of it first (a FIN
     * for one of these sends may be among it). */
    while (any && skiff_progress() > 0)
        ;
    for (int p = 0; any && p < skiff.size; p++)
        if (waits[p])
            abandon_peer(p);
    free(waits);
}

void skiff_pt2pt_finalize(void)
{
    for (int peer = 0; pp.head && peer < skiff.size; peer++) {
        while (pp.head[peer]) {
            struct pending *p = pp.head[peer];
            pp.head[peer] = p->next;
            free(p);
        }
    }
    free(pp.head);
    free(pp.tail);
    memset(&pp, 0, sizeof pp);
}
