/* Agreeing on a context id inside a schedule (coll/sched.h), so that the agreement can run behind a
 * request (MPI_Comm_idup) or among the members of a group alone (MPI_Comm_create_group).
 *
 * The blocking agreement (core/ctxid.h) takes the maximum of every member's lowest unused id, which is
 * safe because nothing else takes an id on a process while it waits. Here other agreements may finish
 * between a process's offer and the result, so each process reserves what it offers, and the members vote
 * on the result before taking it:
 *
 *   cycle 0:  every member offers its lowest unused id (and reserves it); candidate = the maximum.
 *   cycle k:  every member votes whether the candidate is still free for it (it is its own reservation
 *             for this agreement, or above every id it has used or reserved; it then reserves it) and
 *             offers a fresh reserved id; one allreduce(MAX) carries both. No "taken" vote: all take the
 *             candidate. Otherwise the maximum fresh offer is the next candidate.
 *
 * Blocking agreements take their ids from another space (core/ctxid.h), so only these agreements can
 * meet, and two pending ones never both pass the same id on one process: whichever is checked second finds
 * it below the lowest unused id and not its own. When no new agreement starts meanwhile, the
 * second vote passes (the maximum fresh offer is someone's own reservation and above everyone else's), so
 * an agreement costs two allreduces of two ints; the unused reservations cost ids, of which there are 2^29.
 * The allreduce is a dissemination over the members (MAX may count a value twice), ceil(log2 m) rounds. */
#ifndef SKIFF_CTXID_NB_H
#define SKIFF_CTXID_NB_H

#include <stdint.h>

struct skiff_sched;

/* Called when the members have agreed: ctx is the new id, or rc an MPI error code (the schedule's or
 * running out of ids). */
typedef void skiff_ctx_done_fn(struct skiff_sched *s, void *arg, uint32_t ctx, int rc);

/* Writes the agreement into s, whose communicator contains the members: members[0..m) are their ranks in
 * it, in the same order on every member, and this process is members[me]. members must stay valid until
 * done is called. On an intercommunicator the members are every process of both groups (members, m and me
 * are not used): each cycle's allreduce is then a linear exchange across and back, two rounds. Returns an
 * MPI error code (out of memory). */
int skiff_ctx_agree_sched(struct skiff_sched *s, const int *members, int m, int me, skiff_ctx_done_fn *done,
                          void *arg);
/* The same among every process of s's communicator (both groups of an intercommunicator). */
int skiff_ctx_agree_all_sched(struct skiff_sched *s, skiff_ctx_done_fn *done, void *arg);
/* The whole agreement at once: writes it into s (members as above, or NULL for every process of s's
 * communicator), runs it to completion and frees s (from skiff_sched_new*) whatever happens. The new id
 * in *ctx; returns an MPI error code. */
int skiff_ctx_agree_run(struct skiff_sched *s, const int *members, int m, int me, uint32_t *ctx);

#endif
