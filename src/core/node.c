#include "core/node.h"

#include "boot/boot.h"
#include "core/core.h"
#include "util/config.h"

/* Nodes are where the launcher placed the ranks (boot/nodemap.c). In a one-node job, SKIFF_NODE_SIZE
 * splits the job into pretend nodes of that many consecutive ranks, so node-aware code (hierarchical
 * collectives, MPI_COMM_TYPE_SHARED, Cartesian placement) can be exercised on one machine; the
 * transports still see one node. */
int skiff_node_of(int world_rank)
{
    if (skiff_cfg.node_size > 0 && skiff_boot.map.nnodes <= 1)
        return world_rank / skiff_cfg.node_size;
    return skiff_boot.map.node ? skiff_boot.map.node[world_rank] : 0;
}

int skiff_job_nodes(void)
{
    return skiff.size > 0 ? skiff_node_of(skiff.size - 1) + 1 : 1;
}
