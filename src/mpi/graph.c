/* Graph topologies (MPI_Graph_create): every process gives, and keeps, the whole graph. */
#include <stdlib.h>

#include "core/topo.h"
#include "mpi/mpi_impl.h"
#include "mpi/topo_make.h"

static int check_graph_comm(struct skiff_comm *c, const struct skiff_topo **t)
{
    if (SKIFF_UNLIKELY(!c->topo || c->topo->kind != MPI_GRAPH))
        return skiff_err(MPI_ERR_TOPOLOGY, "communicator %s has no graph topology", skiff_comm_label(c));
    *t = c->topo;
    return MPI_SUCCESS;
}

/* index must not decrease and every edge must name a node; self-loops and repeated edges are allowed. */
static int check_graph(const struct skiff_comm *c, int nnodes, const int *index, const int *edges)
{
    int rc;
    if (nnodes < 0 || nnodes > c->size)
        return skiff_err(MPI_ERR_ARG, "invalid nnodes %d (communicator %s has %d processes)", nnodes,
                         skiff_comm_label(c), c->size);
    if ((rc = skiff_check_array(nnodes, index, "index")))
        return rc;
    for (int i = 0; i < nnodes; i++)
        if (index[i] < (i ? index[i - 1] : 0))
            return skiff_err(MPI_ERR_ARG, "index[%d] = %d is less than %s (index holds running totals of degrees)",
                             i, index[i], i ? "the entry before it" : "0");
    int nedges = nnodes ? index[nnodes - 1] : 0;
    if ((rc = skiff_check_array(nedges, edges, "edges")))
        return rc;
    for (int e = 0; e < nedges; e++)
        if (edges[e] < 0 || edges[e] >= nnodes)
            return skiff_err(MPI_ERR_ARG, "edges[%d] = %d is not a node of the graph (nnodes is %d)", e, edges[e],
                             nnodes);
    return MPI_SUCCESS;
}

int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                      MPI_Comm *comm_graph)
{
    struct skiff_comm *c = NULL, *n = NULL;
    SKIFF_ENTER(MPI_Graph_create);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm_old, &c);
    if (!rc && !(rc = skiff_check_intra(c)) && !(rc = check_graph(c, nnodes, index, edges)))
        rc = skiff_check_ptr(comm_graph, "comm_graph");
    if (rc)
        return skiff_fail(comm_old, rc);
    int *order = malloc(sizeof(int) * (size_t)c->size), *world = malloc(sizeof(int) * (size_t)c->size);
    rc = order && world ? skiff_topo_placement(c, reorder, order) : skiff_err(MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; !rc && i < nnodes; i++)
        world[i] = c->group->world[order[i]];
    if (!rc)
        rc = skiff_topo_attach(c, world, nnodes, skiff_graph_new(nnodes, index, edges), &n);
    free(order);
    free(world);
    if (rc)
        return skiff_fail(comm_old, rc);
    *comm_graph = n ? n->handle : MPI_COMM_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Graph_create)

int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER(MPI_Graph_map);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc && !(rc = skiff_check_intra(c)) && !(rc = check_graph(c, nnodes, index, edges)))
        rc = skiff_check_ptr(newrank, "newrank");
    if (rc)
        return skiff_fail(comm, rc);
    int *order = malloc(sizeof(int) * (size_t)c->size);
    rc = order ? skiff_topo_placement(c, 1, order) : skiff_err(MPI_ERR_NO_MEM, "out of memory");
    /* The rank MPI_Graph_create with reorder would give this process. */
    *newrank = MPI_UNDEFINED;
    for (int i = 0; !rc && i < nnodes; i++)
        if (order[i] == c->rank)
            *newrank = i;
    free(order);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Graph_map)

int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    struct skiff_comm *c = NULL;
    const struct skiff_topo *t = NULL;
    SKIFF_ENTER(MPI_Graphdims_get);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc && !(rc = check_graph_comm(c, &t)) && !(rc = skiff_check_ptr(nnodes, "nnodes")))
        rc = skiff_check_ptr(nedges, "nedges");
    if (rc)
        return skiff_fail(comm, rc);
    *nnodes = t->nnodes;
    *nedges = t->nedges;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Graphdims_get)

/* An array the caller gives must hold everything (MPICH refuses a shorter one too). */
static int check_max(int max, int need, const char *name, const char *what)
{
    if (SKIFF_LIKELY(max >= need))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_ARG, "%s %d is less than the %d %s", name, max, need, what);
}

int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    struct skiff_comm *c = NULL;
    const struct skiff_topo *t = NULL;
    SKIFF_ENTER(MPI_Graph_get);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc && !(rc = check_graph_comm(c, &t)) && !(rc = check_max(maxindex, t->nnodes, "maxindex", "nodes")) &&
        !(rc = check_max(maxedges, t->nedges, "maxedges", "edges")) &&
        !(rc = skiff_check_array(t->nnodes, index, "index")))
        rc = skiff_check_array(t->nedges, edges, "edges");
    if (rc)
        return skiff_fail(comm, rc);
    for (int i = 0; i < t->nnodes; i++)
        index[i] = t->index[i];
    for (int e = 0; e < t->nedges; e++)
        edges[e] = t->edges[e];
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Graph_get)

static int check_node(const struct skiff_comm *c, const struct skiff_topo *t, int rank)
{
    if (SKIFF_LIKELY(rank >= 0 && rank < t->nnodes))
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_RANK, "invalid rank %d (the graph of communicator %s has %d nodes)", rank,
                     skiff_comm_label(c), t->nnodes);
}

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    struct skiff_comm *c = NULL;
    const struct skiff_topo *t = NULL;
    int in = 0, out = 0;
    SKIFF_ENTER(MPI_Graph_neighbors_count);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc && !(rc = check_graph_comm(c, &t)) && !(rc = check_node(c, t, rank)))
        rc = skiff_check_ptr(nneighbors, "nneighbors");
    if (rc)
        return skiff_fail(comm, rc);
    skiff_topo_degrees(t, rank, &in, &out);
    *nneighbors = out;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Graph_neighbors_count)

int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    struct skiff_comm *c = NULL;
    const struct skiff_topo *t = NULL;
    int in = 0, out = 0;
    SKIFF_ENTER(MPI_Graph_neighbors);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc && !(rc = check_graph_comm(c, &t)) && !(rc = check_node(c, t, rank))) {
        skiff_topo_degrees(t, rank, &in, &out);
        if (!(rc = check_max(maxneighbors, out, "maxneighbors", "neighbours of that rank")))
            rc = skiff_check_array(out, neighbors, "neighbors");
    }
    if (rc)
        return skiff_fail(comm, rc);
    skiff_topo_neighbors(t, rank, NULL, neighbors);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Graph_neighbors)
