/* Counters the tools interface (MPI_T performance variables) reads. Each is bumped only where the
 * library already does slow work (a rendezvous, a deferred send, an unexpected message), or once per
 * arriving message in the receive handler, never on the eager send path. One thread at a time is inside
 * the library (under MPI_THREAD_MULTIPLE: holding its lock, core/mt.h), so plain counters are exact. */
#ifndef SKIFF_STATS_H
#define SKIFF_STATS_H

#include "util/arch.h"

struct skiff_stats {
    unsigned long long recv_msgs;      /* eager messages and rendezvous announcements that arrived */
    unsigned long long recv_bytes;     /* their payload sizes */
    unsigned long long rndv_sends;     /* sends that announced themselves (RTS) and waited for the receiver */
    unsigned long long sync_sends;     /* synchronous-mode eager sends (waited for the receiver's ack) */
    unsigned long long deferred_sends; /* eager sends queued because the transport was full */
    unsigned long long rndv_recvs;     /* rendezvous receives started */
    unsigned long long rndv_pulls;     /* ... of them, pulled in one copy (CMA) */
    unsigned long long data_in_place;  /* pipelined pieces a transport received straight into the receive's buffer */
    unsigned long long unexp_msgs;     /* messages that arrived before their receive was posted */
    unsigned long long unexp_hwm;      /* the most unexpected messages queued at once */
    unsigned long long coll_scheds;         /* collectives run as message schedules (blocking or not) */
    unsigned long long coll_node_barriers;  /* barriers of the whole job on one node: a shared counter */
    unsigned long long coll_shm_allreduces; /* allreduces through shared slots, no messages */
    unsigned long long coll_hier;           /* node-aware collectives (inside nodes, then between leaders) */
    unsigned long long rma_rdma;            /* transfers of windows' put and get by a transport's RDMA */
};

extern SKIFF_HIDDEN struct skiff_stats skiff_stats;

#endif
