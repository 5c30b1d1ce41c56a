/* Agreeing on context ids (core/ctxid.h says how ids are kept apart) and making communicators with them:
 * the collective half of communicator creation, above the core. */
#ifndef SKIFF_CTXID_AGREE_H
#define SKIFF_CTXID_AGREE_H

#include <stdint.h>

struct skiff_comm;

/* Collective over parent: every process of parent calls it. Sets *ctx to an id that no communicator of any
 * process of parent has used. Returns an MPI error code. */
int skiff_ctx_agree(struct skiff_comm *parent, uint32_t *ctx);

/* Collective over parent: every process of parent calls it with the job ranks, in rank order, of the
 * communicator it will belong to (n = 0 for none; disjoint lists on different processes make disjoint
 * communicators, as MPI_Comm_split does). Agrees on a context id, then sets *out to the new communicator
 * (inheriting parent's error handler and session), or to NULL when this process is not in world[]. Returns
 * an MPI error code. */
int skiff_comm_make(struct skiff_comm *parent, const int *world, int n, struct skiff_comm **out);

#endif
