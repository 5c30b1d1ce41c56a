/* What the core asks of a transport: one small table each. The list of transports, which peers each
 * reaches and in what order they are preferred, is core/transports.c; the core picks one per peer from
 * it and drives every transport through these tables alone (docs/design.md, "Adding a transport"). */
#ifndef SKIFF_TRANSPORT_H
#define SKIFF_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include "core/proto.h"

/* Counts a transport's one-sided operations (put, get, flush) in flight for their starter: the transport
 * adds one when it starts an operation that does not complete at once and takes it back (setting failed
 * on an error) from its progress when the operation is done. Lives until pending is 0 again. */
struct skiff_rdma_done {
    unsigned pending;
    int failed;
};

struct skiff_transport {
    const char *name;
    /* Post header + payload to a peer. 0 when the transport has taken it (the payload may be reused),
     * -EAGAIN when it has no room right now (the core retries from its progress loop). May be called
     * from inside this or another transport's progress (the core answers messages as they arrive). */
    int (*send)(int peer, const struct skiff_hdr *h, const void *payload, size_t len);
    /* MPI_THREAD_MULTIPLE's way around the library lock: posts header + payload only if the transport's
     * fastest way takes it at once (0), else -EAGAIN and nothing happened. Called without the library
     * lock, by any number of threads at once, beside send under the lock. NULL until threads has run, or
     * for a transport without one (its peers' sends then take the lock). */
    int (*send_direct)(int peer, const struct skiff_hdr *h, const void *payload, size_t len);
    /* Called once calls may leave the library lock: under MULTIPLE, when a second thread first enters
     * a call that can (core/mt.h, skiff_mt_go_many), or at the transport's init after that; under the
     * library lock, while every send still takes it. A transport that offers send_direct sets it here
     * and makes send safe beside it. NULL: nothing to do. */
    void (*threads)(void);
    /* Deliver what has arrived to skiff_core_incoming(); returns how many messages were handled. NULL
     * when nothing can arrive that a send did not deliver at once (self). */
    int (*progress)(void);
    /* Copy len bytes from a peer's address space (single copy); 0 or -errno. NULL if unsupported. */
    int (*pull)(int peer, uint64_t remote_addr, void *dst, size_t len);
    void (*finalize)(void);
    /* 1 once the peer has finalized (or ended): it will read nothing more from us. Everything it sent
     * before that can still be taken by progress. */
    int (*peer_finalized)(int peer);
    /* After init: how many ranks of other nodes run on this same machine (namespaces, made-up host
     * names), which compete for its CPUs. NULL: none can. */
    int (*same_machine)(void);

    /* ---- waiting (core/progress.c, core/async.c). A rank with nothing to do sleeps in one transport's
     * sleep, the "sleeper"; the others must be able to wake it. ---- */
    /* Sleep until a peer's message arrives or the timeout passes; returns at once if something is
     * already waiting or ready(arg) holds once the sleep is announced (ready may be NULL). */
    void (*sleep)(double seconds, int (*ready)(void *arg), void *arg);
    /* Makes a descriptor's readiness end this transport's sleep too: 0 or -1. NULL: cannot (then it
     * sleeps for others only when it is the one transport with peers). */
    int (*watch)(int fd);
    /* A descriptor that becomes readable when a peer wants this rank awake while it is armed, for
     * another transport's sleep to watch; -1 if none can be made. NULL: none. */
    int (*wake_fd)(void);
    /* Announce a sleep that this transport's peers must wake (with the descriptor, or with doze), and
     * withdraw it. arm returns 1, announcing nothing, if something already waits (do not sleep); token
     * is for doze. Without the library lock: disarm, doze and wake only. NULL: nothing to announce. */
    int (*arm)(uint32_t *token);
    void (*disarm)(void);
    /* Sleep after arm (it also disarms), until a peer or wake rings; needs no library lock. */
    void (*doze)(uint32_t token, double seconds);
    /* Wake a thread of this process that sleeps in this transport (armed or in sleep). NULL: cannot (a
     * waiter under MULTIPLE then naps instead of sleeping holding the lock). */
    void (*wake)(void);

    /* ---- one-sided (rma/rdma.c): put and get of contiguous bytes straight into a peer's registered
     * memory, which the core at the peer takes no part in (on a wire without RDMA the transport may need
     * the peer's progress, never its core). All NULL: windows reach this transport's peers by messages
     * the target applies. None of these waits: the caller progresses until done->pending is 0. ---- */
    /* Registers len (> 0) bytes at *base for peers' put and get: *mem, and its remote key packed in
     * *keylen bytes at *key (the registration's, valid until it is deregistered). With *base NULL the
     * transport allocates the memory itself, where its wires reach it best (memory peers of this machine
     * can map), and sets *base; mem_deregister frees it. 0, or -1 after logging. */
    int (*mem_register)(void **base, size_t len, void **mem, const void **key, size_t *keylen);
    void (*mem_deregister)(void *mem);
    /* Opens a peer's packed key for put and get into its registration: 0 (*rkey set) or -1. */
    int (*rkey_open)(int peer, const void *key, size_t keylen, void **rkey);
    void (*rkey_close)(void *rkey);
    /* Starts moving len bytes from src to raddr in the peer's memory (put), or from raddr to dst (get).
     * With done, done->pending counts it until src may be reused (put) or dst holds the data (get); with
     * NULL, only a flush says so. 0, or -1 after logging (the operation was not started). */
    int (*put)(int peer, const void *src, size_t len, uint64_t raddr, void *rkey, struct skiff_rdma_done *done);
    int (*get)(int peer, void *dst, size_t len, uint64_t raddr, void *rkey, struct skiff_rdma_done *done);
    /* Starts a flush: once done->pending is back to 0, every put and get started before it to peer (-1:
     * to every peer) is complete at the target, and every get's data is here. 0 or -1. */
    int (*flush)(int peer, struct skiff_rdma_done *done);

    size_t max_eager; /* messages up to this many bytes go eagerly */
    size_t max_piece; /* largest payload of one send (pipelined DATA pieces) */
};

/* Called by transports for each arriving message. The payload is only valid during the call. */
void skiff_core_incoming(int peer, const struct skiff_hdr *h, const void *payload, size_t plen);

#endif
