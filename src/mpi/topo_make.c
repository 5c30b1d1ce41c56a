#include "mpi/topo_make.h"

#include <stdlib.h>

#include "coll/ctxid_agree.h"
#include "core/node.h"
#include "mpi/mpi_impl.h"

int skiff_topo_placement(const struct skiff_comm *c, int reorder, int *order)
{
    if (!reorder) {
        for (int r = 0; r < c->size; r++)
            order[r] = r;
        return MPI_SUCCESS;
    }
    int *node = malloc(sizeof(int) * (size_t)c->size);
    if (!node)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory placing %d processes", c->size);
    for (int r = 0; r < c->size; r++)
        node[r] = skiff_node_of(c->group->world[r]);
    int rc = skiff_cart_order(c->size, node, order);
    free(node);
    return rc;
}

int skiff_topo_attach(struct skiff_comm *c, const int *world, int n, struct skiff_topo *t, struct skiff_comm **out)
{
    /* Every process takes part in agreeing on the context id, even one that could not build its topology:
     * the others would wait for it. */
    int rc = skiff_comm_make(c, world, n, out);
    if (!rc && *out && !t) {
        skiff_comm_free(*out);
        *out = NULL;
        rc = skiff_err(MPI_ERR_NO_MEM, "out of memory for the topology");
    }
    if (rc || !*out) {
        skiff_topo_free(t);
        return rc;
    }
    (*out)->topo = t;
    return MPI_SUCCESS;
}
