/* MPI_Comm_split_type by hardware: MPI_COMM_TYPE_HW_GUIDED and RESOURCE_GUIDED (the level named by the
 * info key mpi_hw_resource_type) and HW_UNGUIDED (the coarsest level that splits comm). Levels are the
 * node ("mpi_shared_memory", the ranks MPI_COMM_TYPE_SHARED groups) and below it the hwloc objects the
 * machine has: Package, Die, NUMANode, L3Cache, L2Cache, L1Cache, Core, PU (hwloc's names, any case, as
 * MPICH and Open MPI take them). Processes share a communicator when all the CPUs each may run on lie in one
 * object of the level; a process whose CPUs span several (mpiexec binds a rank to a core only when the
 * ranks fit the cores) belongs to none and gets MPI_COMM_NULL, as does every process when the level is
 * unknown here or the info does not name one. */
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/ctxid_agree.h"
#include "core/hwtopo.h"
#include "core/node.h"
#include "mpi/comm_make.h"
#include "mpi/mpi_impl.h"

#define LEVELS (1 + SKIFF_HW_LEVELS) /* the node, then hwtopo's levels */

const char *skiff_split_level_name(int level)
{
    return level == 0 ? "mpi_shared_memory" : skiff_hw_level_name(level - 1);
}

/* The level a resource type names, or -1. */
static int level_of(const char *type)
{
    if (strcmp(type, "mpi_shared_memory") == 0)
        return 0;
    int l = skiff_hw_level_of(type);
    return l < 0 ? -1 : l + 1;
}

/* This process's color at a level: equal for processes in one object of it, MPI_UNDEFINED when it is in
 * none. Objects of different nodes differ (node numbers stay below 2^15, object indices below 2^16). */
static int level_color(struct skiff_comm *c, int level)
{
    int node = skiff_node_of(skiff_comm_world_rank(c, c->rank));
    if (level == 0)
        return node;
    int obj = skiff_hw_object(level - 1);
    return obj < 0 ? MPI_UNDEFINED : node << 16 | (obj & 0xffff);
}

int skiff_split_guided_color(struct skiff_comm *c, int split_type, const struct skiff_info *in, int *level)
{
    const char *type = in ? skiff_info_lookup(in, "mpi_hw_resource_type") : NULL;
    const char *pset = in && split_type == MPI_COMM_TYPE_RESOURCE_GUIDED ? skiff_info_lookup(in, "mpi_pset_name")
                                                                         : NULL;
    *level = -1;
    if (type) {
        *level = level_of(type);
        return *level < 0 ? MPI_UNDEFINED : level_color(c, *level);
    }
    /* The two process sets every MPI has, and skiff's per-node one (mpi/session.c). */
    if (pset && strcmp(pset, "mpi://WORLD") == 0)
        return 0;
    if (pset && strcmp(pset, "mpi://SELF") == 0)
        return skiff_comm_world_rank(c, c->rank);
    if (pset && strcmp(pset, "skiff://node") == 0)
        return level_color(c, 0);
    return MPI_UNDEFINED;
}

/* The coarsest level at which every communicator would be a strict subset of comm's processes: some
 * process is in an object of it, and not every process is in the same one. -1 if none is. */
static int coarsest_strict(const int *all, int size)
{
    for (int l = 0; l < LEVELS; l++) {
        int defined = 0, same = 1, first = MPI_UNDEFINED;
        for (int r = 0; r < size; r++) {
            int col = all[r * (LEVELS + 1) + l];
            if (col == MPI_UNDEFINED)
                continue;
            if (defined++ == 0)
                first = col;
            else if (col != first)
                same = 0;
        }
        if (defined && !(defined == size && same))
            return l;
    }
    return -1;
}

int skiff_split_unguided(struct skiff_comm *c, int key, struct skiff_comm **out, int *level)
{
    int mine[LEVELS + 1], n = 0;
    for (int l = 0; l < LEVELS; l++)
        mine[l] = level_color(c, l);
    mine[LEVELS] = key;
    int *all = malloc(sizeof mine * (size_t)c->size), *pairs = malloc(2 * sizeof(int) * (size_t)c->size),
        *world = malloc(sizeof(int) * (size_t)c->size);
    int rc = all && pairs && world ? MPI_SUCCESS
                                   : skiff_err(MPI_ERR_NO_MEM, "out of memory splitting %d processes", c->size);
    if (!rc)
        rc = skiff_coll_allgather(mine, sizeof mine, all, c);
    *level = rc ? -1 : coarsest_strict(all, c->size);
    for (int r = 0; !rc && r < c->size; r++) {
        pairs[2 * r] = *level < 0 ? MPI_UNDEFINED : all[r * (LEVELS + 1) + *level];
        pairs[2 * r + 1] = all[r * (LEVELS + 1) + LEVELS];
    }
    if (!rc && pairs[2 * c->rank] != MPI_UNDEFINED)
        rc = skiff_comm_color_members(c, pairs, pairs[2 * c->rank], world, &n);
    /* Every process takes part in agreeing on the context id, members of no new communicator too. */
    if (!rc)
        rc = skiff_comm_make(c, world, n, out);
    free(all);
    free(pairs);
    free(world);
    return rc;
}
