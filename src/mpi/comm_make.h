/* Shared by the calls that make communicators (comm_create.c, comm_info.c, comm_idup.c,
 * comm_create_group.c). */
#ifndef SKIFF_MPI_COMM_MAKE_H
#define SKIFF_MPI_COMM_MAKE_H

#include "core/comm.h"
#include "core/info.h"

/* hints with the assertions in `in` (NULL: none) applied: "true" sets one, "false" clears it. */
unsigned skiff_comm_hints_apply(unsigned hints, const struct skiff_info *in);

/* What a duplicate takes from c besides its processes: topology, attributes whose copy callback says so,
 * and c's hints (info NULL) or the assertions of info instead (the _with_info calls). On failure n is
 * discarded (attributes copied so far deleted) and an MPI error code returned. */
int skiff_comm_dup_props(struct skiff_comm *c, struct skiff_comm *n, const struct skiff_info *info);

/* Undoes a communicator that never reached the user. */
void skiff_comm_discard(struct skiff_comm *n);

/* The job ranks of the processes of c whose pairs[2 * rank] is color, ordered by (key = pairs[2 * rank + 1],
 * rank in c); *n of them. */
int skiff_comm_color_members(struct skiff_comm *c, const int *pairs, int color, int *world, int *n);

/* The context id of a communicator of g's processes, agreed among them alone on c's collective context
 * under tag (low 30 bits); every member of g calls it (comm_create_group.c). */
int skiff_comm_group_agree(struct skiff_comm *c, struct skiff_group *g, int tag, uint32_t *ctx);

/* MPI_Comm_split_type by hardware (comm_split_hw.c). Levels: 0 the node (mpi_shared_memory), 1 + a level
 * of core/hwtopo.h. The color of this process for a guided split (*level: the level the info names, or
 * -1); the unguided split itself (*level: the level chosen, or -1 when none splits c). */
int skiff_split_guided_color(struct skiff_comm *c, int split_type, const struct skiff_info *in, int *level);
int skiff_split_unguided(struct skiff_comm *c, int key, struct skiff_comm **out, int *level);
const char *skiff_split_level_name(int level);

#endif
