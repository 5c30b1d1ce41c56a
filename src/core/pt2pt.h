/* Point-to-point protocol: eager for small messages, rendezvous (single-copy pull or pipelined
 * copy) for large ones, synchronous mode, self-sends, and the matching of arrivals. */
#ifndef SKIFF_PT2PT_H
#define SKIFF_PT2PT_H

#include <stddef.h>

#include "core/comm.h"
#include "core/request.h"

struct skiff_hdr;
struct skiff_transport;

enum skiff_send_mode { SKIFF_SEND_STANDARD = 0, SKIFF_SEND_SYNC = 1 };

/* Starts a send; *out is the request (NULL when blocking is set and the message is already gone).
 * Returns an MPI error code. dest is a rank in c (not MPI_PROC_NULL); ctx is c->ctx for user
 * point-to-point traffic and skiff_coll_ctx(c) for collectives, which keeps the two apart. */
int skiff_send_start(const void *buf, size_t bytes, int dest, int tag, struct skiff_comm *c, uint32_t ctx, int mode,
                     int blocking, struct skiff_request **out);
/* Posts a receive; src may be MPI_ANY_SOURCE (not MPI_PROC_NULL). */
int skiff_recv_start(void *buf, size_t bytes, int src, int tag, struct skiff_comm *c, uint32_t ctx,
                     struct skiff_request **out);
/* As skiff_send_start and skiff_recv_start, for a request that has something to do when it completes:
 * it carries then from before it is posted, and then->fn runs exactly once, in whichever thread
 * completes it (perhaps before this returns). With then->freed, *out is NULL: the request releases
 * itself. On error nothing ran and the caller still owns the cookie; so it does when a blocking send
 * left at once and made no request (*out NULL), so blocking and then->freed do not go together. */
int skiff_send_start_then(const void *buf, size_t bytes, int dest, int tag, struct skiff_comm *c, uint32_t ctx,
                          int mode, int blocking, const struct skiff_req_then *then, struct skiff_request **out);
int skiff_recv_start_then(void *buf, size_t bytes, int src, int tag, struct skiff_comm *c, uint32_t ctx,
                          const struct skiff_req_then *then, struct skiff_request **out);
/* MPI_THREAD_MULTIPLE's blocking standard send of an eager message, called without the library lock
 * (docs/per-communicator-locks.md, "The first slice"): 1 if the message left through the peer's
 * transport's send_direct, 0 if the caller must take the lock and send as usual (no direct path to that
 * peer, too large, tracing on, sends to the peer deferred, or no room). dest is a valid rank of c. */
int skiff_send_direct(const void *buf, size_t bytes, int dest, int tag, struct skiff_comm *c);
/* Persistent sends: r (kind SKIFF_REQ_SEND, inactive) already holds what skiff_send_start resolves per
 * call (comm, ctx, peer and world_peer, tag, buf, bytes); t is world_peer's transport. Begins one round
 * on r itself, in mode. */
int skiff_send_restart(struct skiff_request *r, const struct skiff_transport *t, int mode);
/* Persistent receives: posts r (kind SKIFF_REQ_RECV with buf, bytes, peer, tag, ctx, comm) again. */
void skiff_recv_restart(struct skiff_request *r);
/* Matched probe: takes the oldest message that matches out of the unexpected queue into *out (a request
 * of kind SKIFF_REQ_MSG, the MPI_Message), so no other receive can match it; *out NULL if none. */
int skiff_mprobe_once(int src, int tag, struct skiff_comm *c, MPI_Status *status, struct skiff_request **out);
/* Receives the message m holds into buf (bytes of room): m becomes its receive request, carrying then
 * (NULL: nothing to do when complete; never freed) as skiff_recv_start_then's does. */
void skiff_mrecv_start(struct skiff_request *m, void *buf, size_t bytes, const struct skiff_req_then *then);
/* Non-destructive probe of the unexpected queue: 1 and status filled if a message matches. */
int skiff_probe_once(int src, int tag, struct skiff_comm *c, MPI_Status *status);
/* Cancels a receive that has not matched yet; returns 1 if it was cancelled. */
int skiff_cancel_recv(struct skiff_request *r);

/* For a transport that can receive a DATA piece of len bytes straight into its final place (ucx: UCX's
 * rendezvous lands it there, by RDMA or a kernel copy where the wire allows): that address in the
 * receive's buffer, or NULL when the piece must land in a buffer of the transport's own (it is not a
 * piece of a receive of ours collecting from peer, or it reaches past what a truncated receive keeps;
 * delivered, such a piece gets the core's usual checks and errors). The core's receive buffers are
 * contiguous: non-contiguous datatypes receive into a packed landing buffer (mpi/typed.c). The transport
 * still delivers the piece through skiff_core_incoming, in order, with this address as its payload:
 * the core then does the accounting and skips the copy. Until then the receive cannot complete (this
 * piece is part of it), so the address stays valid while the data moves. */
void *skiff_core_data_target(int peer, const struct skiff_hdr *h, size_t len);

void skiff_req_complete(struct skiff_request *r);
void skiff_status_from_req(MPI_Status *st, const struct skiff_request *r);
void skiff_status_empty(MPI_Status *st, int source);

/* Creates the per-peer queues of deferred sends (skiff.size known); -1 if out of memory. */
int skiff_pt2pt_init(void);
/* Retries deferred sends and pushes pipelined pieces; returns the number of steps made. */
int skiff_pt2pt_progress(void);
/* 1 while sends wait for room in a transport: the rank must not fall asleep then. */
int skiff_pt2pt_busy(void);
/* Sends not yet complete (MPI_Finalize waits for them: a peer may still be reading our buffer). */
int skiff_pt2pt_outstanding(void);
/* Messages waiting for room in a transport. */
int skiff_pt2pt_deferred(void);
/* MPI_Finalize has begun: messages whose senders wait for an answer and that no receive can match
 * any more are dropped, and their senders told (DROP), now and as they arrive. */
void skiff_pt2pt_finalize_begin(void);
/* MPI_Finalize is about to close the transports: from now on nothing is answered. */
void skiff_pt2pt_closing(void);
/* MPI_Finalize has waited `waited` seconds: reports each send still unanswered and asks its receiver
 * to drop it if unmatched (WITHDRAW). Matched ones finish normally; nothing a peer reads is cut off. */
void skiff_pt2pt_withdraw_all(double waited);
/* Ends, with an error, every unfinished send to a peer that has finalized (it reads nothing more), and
 * forgets what still waits to be sent to it. */
void skiff_pt2pt_abandon_finished(void);
void skiff_pt2pt_finalize(void);
/* MPI_Finalize's wait for the sends still in flight (core/finalize_sends.c). */
void skiff_finalize_sends(void);

/* Status fields skiff keeps in MPI_internal. */
#define SKIFF_ST_BYTES_LO 0
#define SKIFF_ST_BYTES_HI 1
#define SKIFF_ST_CANCELLED 2

static inline size_t skiff_status_bytes(const MPI_Status *st)
{
    return (size_t)(uint32_t)st->MPI_internal[SKIFF_ST_BYTES_LO] |
           (size_t)(uint32_t)st->MPI_internal[SKIFF_ST_BYTES_HI] << 32;
}

#endif
