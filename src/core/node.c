#include "core/node.h"

/* Every rank of a job shares one host until the TCP transport spans several. */
int skiff_node_of(int world_rank)
{
    (void)world_rank;
    return 0;
}
