/* What the core asks of a transport. One small table per transport; the core picks one per peer. */
#ifndef SKIFF_TRANSPORT_H
#define SKIFF_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include "core/proto.h"

struct skiff_transport {
    const char *name;
    /* Post header + payload to a peer. 0 when the transport has taken it (the payload may be reused),
     * -EAGAIN when it has no room right now (the core retries from its progress loop). */
    int (*send)(int peer, const struct skiff_hdr *h, const void *payload, size_t len);
    /* Deliver what has arrived to skiff_core_incoming(); returns how many messages were handled. */
    int (*progress)(void);
    /* Sleep until a peer rings this rank's doorbell or the timeout passes; returns at once if
     * something is already waiting or ready(arg) holds once the doorbell is armed (ready may be NULL). */
    void (*sleep)(double seconds, int (*ready)(void *arg), void *arg);
    /* Copy len bytes from a peer's address space (single copy); 0 or -errno. NULL if unsupported. */
    int (*pull)(int peer, uint64_t remote_addr, void *dst, size_t len);
    void (*finalize)(void);
    /* 1 once the peer has finalized (or ended): it will read nothing more from us. Everything it sent
     * before that can still be taken by progress. */
    int (*peer_finalized)(int peer);
    size_t max_eager; /* messages up to this many bytes go eagerly */
    size_t max_piece; /* largest payload of one send (pipelined DATA pieces) */
};

/* Called by transports for each arriving message. The payload is only valid during the call. */
void skiff_core_incoming(int peer, const struct skiff_hdr *h, const void *payload, size_t plen);

#endif
