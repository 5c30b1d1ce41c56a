#include "core/node.h"

#include "core/core.h"
#include "util/config.h"

/* Every rank of a job shares one host until the TCP transport spans several. SKIFF_NODE_SIZE splits
 * the job into pretend nodes of that many consecutive ranks, so node-aware code (hierarchical
 * collectives, MPI_COMM_TYPE_SHARED, Cartesian placement) can be exercised on one machine. */
int skiff_node_of(int world_rank)
{
    return skiff_cfg.node_size > 0 ? world_rank / skiff_cfg.node_size : 0;
}

int skiff_job_nodes(void)
{
    return skiff.size > 0 ? skiff_node_of(skiff.size - 1) + 1 : 1;
}
