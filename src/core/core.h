/* Process-wide state of the library core. */
#ifndef SKIFF_CORE_H
#define SKIFF_CORE_H

#include "core/transport.h"

struct skiff_core {
    int rank, size;
    int initialized, finalized;
    int thread_level;
    const struct skiff_transport *shm; /* ranks on this node (NULL with SKIFF_TRANSPORTS=tcp) */
    const struct skiff_transport *tcp; /* ranks on other nodes: tcp, or ucx with SKIFF_TRANSPORTS naming
                                          it (NULL in a one-node job) */
    const struct skiff_transport **peer_tr; /* per job rank: the transport that reaches it (self too) */
    unsigned char *via_tcp;             /* per job rank: 1 if reached over tcp (or ucx) */
    int sleep_mixed;                    /* peers on both transports: 1 sleeps in epoll, woken by shm's
                                           wake socket; 2 no wake socket, sleeps 1 ms at a time */
    int oversubscribed;    /* more ranks on this node than CPUs: yield and sleep early */
    unsigned spin_limit;   /* polls before a waiting rank yields */
    int spin_adaptive;     /* SKIFF_SPIN=auto with a core per rank: stop polling early when preempted */
};

extern struct skiff_core skiff;

/* 0 or an MPI error code (the reason is already printed). */
int skiff_core_init(void);
void skiff_core_finalize(void);

/* The networks the tcp transport would offer on this host, for tools (works before MPI_Init). */
void skiff_core_tcp_networks(char *out, size_t len);
/* The transports this machine offers and why one is held back (single copy refused or slow). */
void skiff_core_transports(char *out, size_t len);

/* The transport that reaches a job rank (this rank itself: self/self.c). */
static inline const struct skiff_transport *skiff_transport_for(int world_rank)
{
    return skiff.peer_tr[world_rank];
}

/* 1 once a peer has finalized (or ended): it will read nothing more, so nothing it has not matched yet
 * can ever be received. */
static inline int skiff_peer_finalized(int world_rank)
{
    const struct skiff_transport *t = skiff.peer_tr ? skiff.peer_tr[world_rank] : NULL;
    return t && t->peer_finalized && t->peer_finalized(world_rank);
}

#endif
