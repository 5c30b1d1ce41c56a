/* The node's shared area: a barrier of every rank on the node and per-rank slots that every rank reads
 * directly, for the collectives of a job that runs on one node (coll/coll.c, coll/allreduce_shm.c).
 *
 * A service of its own, not part of a transport: it lives in the job segment the shared-memory
 * transport maps (shm.c attaches it there), and the collectives call it by name. Not usable under
 * MPI_THREAD_MULTIPLE: the area is the node's, so two threads' collectives on two whole-job
 * communicators could meet in it in different orders on different ranks (the callers check). */
#ifndef SKIFF_NODE_AREA_H
#define SKIFF_NODE_AREA_H

#include <stddef.h>

#include "shm/layout.h"

#define SKIFF_NODE_SLOT_BYTES SKIFF_SHM_SLOT

/* 1 once the shared-memory transport has attached the area. */
int skiff_node_area_ready(void);

/* A sense-reversing barrier: arrive returns a token, done(token) is 1 once every rank of the node has
 * arrived. The caller waits in between with the normal progress loop, so messages keep flowing. */
unsigned skiff_node_barrier_arrive(void);
int skiff_node_barrier_done(unsigned token);

/* Wakes node-local rank local_rank if it sleeps on its doorbell (not this process: it is awake). A
 * seq_cst fence first: a waker's store then the check of the sleeper's flag, a sleeper's flag then
 * its check of what it waits for (shm.c's ring_bell). */
void skiff_node_wake(int local_rank);

/* Node-local rank's slot of SKIFF_NODE_SLOT_BYTES in set (two sets, used alternately: a set may be
 * written again only after everyone has passed the barrier that follows its reads). */
void *skiff_node_slot(unsigned set, int local_rank);

/* For shm.c: where the area is in the mapped segment, the node's rank count and ours, and how to wake
 * a node-local rank asleep on its doorbell. detach forgets it (at finalize). */
void skiff_node_area_attach(struct skiff_shm_barrier *barrier, unsigned char *slots, int n, int me,
                            void (*wake)(int local_rank));
void skiff_node_area_detach(void);

#endif
