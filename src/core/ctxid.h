/* Context ids: the number in every message header that keeps one communicator's traffic apart from every
 * other's. A communicator's id must not be used by any other communicator of any of its members, so the
 * members agree on it: an allreduce(MAX) over the parent of each process's next unused id. Ids come in pairs,
 * ctx for point-to-point and ctx + 1 for collectives (skiff_coll_ctx); MPI_COMM_WORLD holds 0 and
 * MPI_COMM_SELF 2.
 *
 * Ids are never reused, even after MPI_Comm_free: the collectives keep one tag sequence per context id
 * (coll/sched.c), which stays the same on every member only if a context belongs to one communicator for the
 * whole run. Disjoint communicators made by one split share an id, which is safe: no message crosses them.
 *
 * The ids agreed here are multiples of 4; those agreed behind a request or by part of a communicator
 * (coll/ctxid_nb.h) are 2 more than a multiple of 4. The two spaces never meet, which is what lets the
 * blocking agreement stay one allreduce: a nonblocking agreement may reserve ids while a blocking one waits
 * for its allreduce (progress runs both), and only in its own space. 2^29 creations of each kind per job
 * are possible. */
#ifndef SKIFF_CTXID_H
#define SKIFF_CTXID_H

#include <stdint.h>

/* Ids of one space are this far apart: ctx and ctx + 1 for one communicator, then the other space's. */
#define SKIFF_CTX_STRIDE 4

struct skiff_comm;

/* Marks the predefined communicators' ids as used. */
void skiff_ctx_init(void);

/* The agreement itself is collective and so lives above the core: coll/ctxid_agree.h. */

/* For intercommunicators, whose two groups agree without a common parent: the lowest id this process
 * has not used, and taking id `agreed` (the maximum of every member's skiff_ctx_next) as the new one. */
int skiff_ctx_next(void);
int skiff_ctx_claim(int agreed, uint32_t *ctx);
/* Takes id if it is at or above the lowest unused id (so no communicator of this process has it): 1 if
 * taken. For agreements that vote (Intercomm_create under MPI_THREAD_MULTIPLE, mpi/intercomm_make.c). */
int skiff_ctx_try_claim(int id);

/* The nonblocking space (coll/ctxid_nb.h): its lowest id this process has neither used nor reserved, and
 * taking (or reserving) one. */
int skiff_ctx_nb_next(void);
int skiff_ctx_nb_claim(int id, uint32_t *ctx);

#endif
