/* Intercommunicators: two disjoint groups, where point-to-point and collective ranks name the other
 * group (struct skiff_comm's remote, peers, world). Their context id must be unused by every process
 * of both groups: each group agrees internally, the two leaders trade their maxima over a peer
 * communicator, and each leader hands the result to its group. Once an intercommunicator exists, its
 * own collectives (coll/inter.h) let both groups agree on ids for its duplicates and merges. */
#ifndef SKIFF_INTERCOMM_H
#define SKIFF_INTERCOMM_H

#include "core/comm.h"

/* MPI_Intercomm_create: collective over local (and, through the leaders, the remote group). tag is
 * the user's, for the two leaders' messages on peer (which only local_leader reads). */
int skiff_intercomm_create(struct skiff_comm *local, int local_leader, struct skiff_comm *peer, int remote_leader,
                           int tag, struct skiff_comm **out);
/* MPI_Intercomm_merge: the group with high = 0 first; with equal high, the group whose first process has
 * the lower job rank (the standard leaves the order open, but both groups must pick the same). */
int skiff_intercomm_merge(struct skiff_comm *c, int high, struct skiff_comm **out);
/* MPI_Comm_dup of an intercommunicator (attributes are the caller's). */
int skiff_intercomm_dup(struct skiff_comm *c, struct skiff_comm **out);
/* MPI_Comm_split of an intercommunicator: each group splits by color, and a color's local part is paired
 * with the other group's part of the same color; *out is NULL where either part is empty. */
int skiff_intercomm_split(struct skiff_comm *c, int color, int key, struct skiff_comm **out);
/* MPI_Comm_create of an intercommunicator: g is a subgroup of the local group. */
int skiff_intercomm_subset(struct skiff_comm *c, const struct skiff_group *g, struct skiff_comm **out);

#endif
