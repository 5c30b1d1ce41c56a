/* What the topology constructors (Cartesian, graph, distributed graph) share: where each process goes
 * when reordering is allowed, and making the communicator that carries the topology. */
#ifndef SKIFF_MPI_TOPO_MAKE_H
#define SKIFF_MPI_TOPO_MAKE_H

#include "core/comm.h"
#include "core/topo.h"

/* order[i] = the rank of c that takes rank i of the new communicator (c->size entries): c's order without
 * reorder, else each node's processes in one block (skiff_cart_order). Returns an MPI error code. */
int skiff_topo_placement(const struct skiff_comm *c, int reorder, int *order);

/* Collective over c: the communicator of the job ranks world[0..n) with topology t attached (taken over,
 * also on failure). *out is NULL on processes outside world[]. Returns an MPI error code. */
int skiff_topo_attach(struct skiff_comm *c, const int *world, int n, struct skiff_topo *t, struct skiff_comm **out);

#endif
