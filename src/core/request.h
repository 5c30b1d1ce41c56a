/* Requests: one object per nonblocking operation, from a pool. Peers refer to our requests by id
 * (index and generation), never by address, so a stale or forged id is caught, not followed. */
#ifndef SKIFF_REQUEST_H
#define SKIFF_REQUEST_H

#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

#include "util/arch.h"

struct skiff_comm;
struct skiff_request;
struct skiff_unexp;

/* SKIFF_REQ_MSG: a message MPI_Mprobe took out of the unexpected queue, waiting in its handle for
 * MPI_Mrecv (which turns the object into a receive). SKIFF_REQ_GREQ: a generalized request (core/greq.h;
 * cookie holds its callbacks). */
enum skiff_req_kind { SKIFF_REQ_SEND = 1, SKIFF_REQ_RECV, SKIFF_REQ_COLL, SKIFF_REQ_MSG, SKIFF_REQ_GREQ };

/* What makes a request persistent (point-to-point, collective, partitioned): MPI_Start calls start on
 * the inactive request, which begins one round on the request object itself (same handle, same id);
 * completion calls make it inactive again (state SKIFF_RS_IDLE) instead of releasing it. destroy frees
 * what the init call set up (in pdata), just before the object is released; also at MPI_Finalize for a
 * request the program never freed, when communicators and transports are already gone (free memory,
 * drop references to datatypes and ops; send nothing, touch no communicator). */
struct skiff_persist_ops {
    const char *what; /* for messages: "persistent send" */
    int (*start)(struct skiff_request *r); /* an MPI error code */
    void (*destroy)(struct skiff_request *r);
};

enum skiff_req_state {
    SKIFF_RS_IDLE = 0,
    SKIFF_RS_POSTED,    /* receive waiting for a match / eager send waiting for the transport */
    SKIFF_RS_WAIT_ACK,  /* synchronous eager send waiting for ACK */
    SKIFF_RS_WAIT_RNDV, /* rendezvous send waiting for FIN or CTS */
    SKIFF_RS_STREAM,    /* rendezvous send pushing DATA pieces */
    SKIFF_RS_RECV_DATA, /* receive collecting DATA pieces */
    SKIFF_RS_DONE,
};

struct skiff_request {
    uint32_t idx, gen;
    uint8_t kind, state;
    uint8_t freed;     /* MPI_Request_free called: release when complete */
    uint8_t cancelled;
    uint8_t listed;    /* seen earlier in the array a Wait/Test call is checking (duplicates) */
    uint8_t withdrawn; /* send: MPI_Finalize asked the receiver to drop it if still unmatched */
    uint8_t bucketed;  /* posted receive: kept in a bucket by tag or source (core/match.c), not in the one list */
    struct skiff_comm *comm;
    int peer;          /* rank in comm, or MPI_ANY_SOURCE */
    int world_peer;    /* job rank of the peer once known */
    int tag;
    uint32_t ctx;
    void *buf;
    size_t bytes;      /* send: message bytes; recv: buffer capacity */
    size_t msg_len;    /* recv: bytes the sender sent */
    size_t done;       /* DATA bytes received / pushed */
    uint64_t remote;   /* the peer's request id (rendezvous) */
    int st_source, st_tag, st_error;
    size_t st_bytes;
    struct skiff_request *next, *prev; /* posted-receive list or stream list */
    void (*on_complete)(struct skiff_request *r); /* e.g. give a buffered send's space back */
    void *cookie;
    const struct skiff_persist_ops *persist; /* NULL: a one-shot request */
    void *pdata;                             /* the persistent request's own data */
    struct skiff_unexp *matched;             /* SKIFF_REQ_MSG: the message */
};

/* What a request does when it completes, handed to the call that starts it so that it is in place
 * before the request is posted: from then on another thread's progress may complete it at any moment
 * (docs/per-communicator-locks.md, step 3). fn runs in whichever thread completes the request, before
 * DONE is published, with cookie in r->cookie. freed: nobody waits for the request; it releases itself
 * when complete. */
struct skiff_req_then {
    void (*fn)(struct skiff_request *r);
    void *cookie;
    int freed;
};
static inline void skiff_req_set_then(struct skiff_request *r, const struct skiff_req_then *then)
{
    r->on_complete = then->fn;
    r->cookie = then->cookie;
    r->freed = (uint8_t)then->freed;
}

struct skiff_request *skiff_req_alloc(int kind);
void skiff_req_release(struct skiff_request *r);
/* Releases r after a persistent request's destroy hook (for any request: what MPI_Request_free ends). */
void skiff_req_destroy(struct skiff_request *r);
/* Whether r is complete, as the wait loops ask it: an acquire that pairs with the release in
 * skiff_req_complete, so a thread that sees DONE also sees the status and data the completer wrote. On
 * x86 a plain load. */
static inline int skiff_req_done(const struct skiff_request *r)
{
    return __atomic_load_n(&r->state, __ATOMIC_ACQUIRE) == SKIFF_RS_DONE;
}
/* A persistent request between rounds: completion calls treat it as MPI_REQUEST_NULL, but keep it. */
static inline int skiff_req_inactive(const struct skiff_request *r)
{
    return r->state == SKIFF_RS_IDLE && r->persist != NULL;
}
/* Calls fn on every live request (deadlock reports). */
void skiff_req_foreach(void (*fn)(struct skiff_request *r, void *arg), void *arg);
void skiff_req_finalize(void);

/* Requests live in chunks that never move (peers and handles name them), reached from a fixed table.
 * The pool is visible here only so that id <-> request inlines: every Wait and Test resolves handles. */
#define SKIFF_REQ_CHUNK_SHIFT 8
#define SKIFF_REQ_CHUNK (1u << SKIFF_REQ_CHUNK_SHIFT)
#define SKIFF_REQ_MAX_CHUNKS 4096

struct skiff_req_pool {
    struct skiff_request *chunk[SKIFF_REQ_MAX_CHUNKS];
    uint32_t nchunks;
    struct skiff_request *free; /* linked through next */
};
extern SKIFF_HIDDEN struct skiff_req_pool skiff_req_pool;

static inline uint64_t skiff_req_id(const struct skiff_request *r)
{
    return (uint64_t)r->gen << 32 | r->idx;
}

/* The live request with this id, or NULL. The chunk bound keeps a forged index inside the table; the
 * generation refuses a released slot's old ids, and kind a free slot's next id before it is handed out. */
static inline struct skiff_request *skiff_req_lookup(uint64_t id)
{
    uint32_t idx = (uint32_t)id, gen = (uint32_t)(id >> 32), c = idx >> SKIFF_REQ_CHUNK_SHIFT;
    if (skiff_req_pool.nchunks > SKIFF_REQ_MAX_CHUNKS)
        __builtin_unreachable(); /* so the compiler sees that the bound keeps c inside chunk[] */
    if (SKIFF_UNLIKELY(c >= skiff_req_pool.nchunks))
        return NULL;
    struct skiff_request *r = &skiff_req_pool.chunk[c][idx & (SKIFF_REQ_CHUNK - 1)];
    return SKIFF_LIKELY(r->gen == gen && r->kind) ? r : NULL;
}

/* Request handle <-> object. The handle is the id, not the address: a copy kept after the request
 * was released, or a made-up value, finds nothing (NULL, as MPI_REQUEST_NULL does) instead of the
 * next request to reuse the slot. Ids have gen >= 1, so none equals MPI_REQUEST_NULL. */
_Static_assert(sizeof(MPI_Request) >= sizeof(uint64_t), "a request handle must hold a 64-bit id");
static inline MPI_Request skiff_req_handle(struct skiff_request *r)
{
    return (MPI_Request)(uintptr_t)skiff_req_id(r);
}

/* The one request every send that is complete when its call returns shares (MPI_Isend of a message that
 * left at once, MPI_Ibsend, a send to MPI_PROC_NULL): no object to make, nothing to release, and a thread
 * can wait for it without the library's lock (mpi/wait.c). MPICH hands out such a request too. It is const,
 * so nothing may write it: its `listed`, `freed` and release are skipped by name. Its id has generation 0,
 * which no pool request has, so peers cannot name it and skiff_req_lookup does not find it. A send status
 * says nothing but "success", as the status of any completed send. */
extern SKIFF_HIDDEN const struct skiff_request skiff_req_sent;
#define SKIFF_REQ_SENT_ID INT32_MAX /* fits an instruction's immediate operand */
#define SKIFF_REQ_SENT_HANDLE ((MPI_Request)(uintptr_t)SKIFF_REQ_SENT_ID)
static inline int skiff_req_is_sent(const struct skiff_request *r)
{
    return r == &skiff_req_sent;
}

static inline struct skiff_request *skiff_req_of(MPI_Request h)
{
    if (SKIFF_UNLIKELY(h == SKIFF_REQ_SENT_HANDLE))
        return (struct skiff_request *)&skiff_req_sent;
    return skiff_req_lookup((uint64_t)(uintptr_t)h);
}

#endif
