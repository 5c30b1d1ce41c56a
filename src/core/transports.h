/* The list of transports (core/transports.c): the one place that names them. */
#ifndef SKIFF_TRANSPORTS_H
#define SKIFF_TRANSPORTS_H

#include <stddef.h>

#include "core/transport.h"

/* Which peers a transport can reach. */
enum skiff_reach {
    SKIFF_REACH_SELF, /* this rank alone */
    SKIFF_REACH_NODE, /* ranks on this node */
    SKIFF_REACH_ALL,  /* any rank (between nodes; on this node too when SKIFF_TRANSPORTS leaves no other) */
};

/* A count a transport keeps, shown as an MPI_T performance variable (class COUNTER) in the transport's
 * own category ("skiff_<name>"). */
struct skiff_transport_counter {
    const char *name, *desc;
    unsigned long long (*read)(void); /* since MPI_Init; 0 while the transport is not running */
};

struct skiff_transport_kind {
    const char *name;         /* as SKIFF_TRANSPORTS spells it */
    enum skiff_reach reach;
    /* Collective over the job when reach is SKIFF_REACH_ALL (every rank calls it, peers or not); uses[r]
     * is 1 for the ranks it is to reach. NULL after logging why. NULL init: not in this build. */
    const struct skiff_transport *(*init)(const unsigned char *uses);
    /* What it would offer on this host, for skiff-info (no MPI_Init needed). */
    void (*describe)(char *out, size_t len);
    const char *absent; /* why init is NULL in this build */
    /* SKIFF_TRANSPORTS=auto, a job across nodes: 1 if this one should take the place of the default
     * transport between nodes here (a fabric faster than tcp). NULL: never. */
    int (*preferred)(void);
    /* Its MPI_T category's description (NULL: no counters), and the counters, ended by a NULL name. */
    const char *category;
    const struct skiff_transport_counter *counters;
};

/* In order of preference: a peer goes to the first transport SKIFF_TRANSPORTS allows that reaches it. */
extern const struct skiff_transport_kind skiff_transport_kinds[];
extern const int skiff_transport_nkinds;

/* MPI_Init: starts the transports SKIFF_TRANSPORTS allows that the job needs, gives each peer the first
 * that reaches it (skiff.peer_tr), and plans the sleep (skiff.active, sleeper, bells). Collective.
 * 0, or -1 after logging why. */
int skiff_transports_init(void);
/* SKIFF_TRANSPORTS=auto: settles skiff_cfg.transports to the default list, with a transport between
 * nodes that is preferred here in the default one's place (asked only when the job spans nodes). Called
 * by init; exported for the unit test. */
void skiff_transports_settle_auto(int spans_nodes);
/* After init: ranks of other nodes running on this machine, by the transports' own count. */
int skiff_transports_same_machine(void);
void skiff_transports_finalize(void);
/* Application threads may now call MPI at once: each running transport's threads hook (the ones
 * started later run theirs at init). */
void skiff_transports_threads(void);
/* The eager limit of the running transport with that reach (otherwise if none runs). */
size_t skiff_transports_eager(enum skiff_reach reach, size_t otherwise);
/* For skiff-info: each transport of this build and what it offers here. */
void skiff_transports_describe(char *out, size_t len);

/* The SKIFF_TRANSPORTS bit of a transport (1 << its place in the list); 0 if the name is unknown. */
int skiff_transport_bit(const char *name);

#endif
