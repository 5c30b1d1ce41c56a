/* Process-wide state of the library core. */
#ifndef SKIFF_CORE_H
#define SKIFF_CORE_H

#include "util/arch.h"

#include "core/transport.h"

#define SKIFF_MAX_ACTIVE 4 /* transports with peers at once: within the node, between nodes, ... */

struct skiff_core {
    int rank, size;
    int initialized, finalized;
    int thread_level;
    const struct skiff_transport **peer_tr; /* per job rank: the transport that reaches it (self too) */
    /* The transports that reach at least one peer (self excluded): progressed, in list order. */
    const struct skiff_transport *active[SKIFF_MAX_ACTIVE];
    int nactive;
    /* Waiting (core/progress.c): a rank sleeps in the sleeper's sleep (NULL: no peers). The bells are
     * the other active transports, whose wake descriptors the sleeper watches: armed around its sleep.
     * sleep_brief: some other one could not be watched, so sleeps last 1 ms at most. */
    const struct skiff_transport *sleeper;
    const struct skiff_transport *bells[SKIFF_MAX_ACTIVE];
    int nbells, sleep_brief;
    int oversubscribed;    /* more ranks on this node than CPUs: yield and sleep early */
    unsigned spin_limit;   /* polls before a waiting rank yields */
    int spin_adaptive;     /* SKIFF_SPIN=auto with a core per rank: stop polling early when preempted */
};

extern SKIFF_HIDDEN struct skiff_core skiff;

/* 0 or an MPI error code (the reason is already printed). */
int skiff_core_init(void);
void skiff_core_finalize(void);

/* The networks the tcp transport would offer on this host, for tools (works before MPI_Init). */
void skiff_core_tcp_networks(char *out, size_t len);
/* The transports this build has and what each offers here (why single copy is held back, the networks,
 * UCX's version), for tools (works before MPI_Init). */
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
