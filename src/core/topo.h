/* Virtual topologies attached to a communicator: a Cartesian grid, a graph (MPI_Graph_create: every process
 * knows every edge) or a distributed graph (each process knows only its own edges). In a grid rank r sits at
 * the row-major coordinates of r (the last dimension varies fastest). Everything here is arithmetic on the
 * topology, without communication. */
#ifndef SKIFF_TOPO_H
#define SKIFF_TOPO_H

#include <stddef.h>

struct skiff_topo {
    int kind;     /* MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */
    /* MPI_CART */
    int ndims;
    int *dims;    /* extent of each dimension */
    int *periods; /* 1 where the dimension wraps around */
    /* MPI_GRAPH: the neighbours of node i are edges[index[i-1]..index[i]) (from 0 for i = 0) */
    int nnodes, nedges;
    int *index, *edges;
    /* MPI_DIST_GRAPH: this process's edges, in the order they were given */
    int indegree, outdegree;
    int weighted; /* 0 when created with MPI_UNWEIGHTED */
    int *sources, *sweights, *dests, *dweights;
    /* Every array lives in one allocation after the struct: copying is one memcpy and a fix-up. */
    size_t nints;
};

/* All NULL when out of memory. */
struct skiff_topo *skiff_cart_new(int ndims, const int *dims, const int *periods);
struct skiff_topo *skiff_graph_new(int nnodes, const int *index, const int *edges);
/* sweights/dweights NULL for an unweighted graph. */
struct skiff_topo *skiff_dist_graph_new(int indegree, const int *sources, const int *sweights, int outdegree,
                                        const int *dests, const int *dweights);
struct skiff_topo *skiff_topo_copy(const struct skiff_topo *t);
void skiff_topo_free(struct skiff_topo *t);

/* The neighbourhood of rank for the neighbourhood collectives and MPI_Graph_neighbors: how many processes
 * it receives from and sends to, and (when the arrays are not NULL) who, in the standard's order. A grid
 * has 2 * ndims of each: per dimension the negative, then the positive neighbour (MPI_PROC_NULL off the
 * edge of a non-periodic dimension). */
void skiff_topo_degrees(const struct skiff_topo *t, int rank, int *indegree, int *outdegree);
void skiff_topo_neighbors(const struct skiff_topo *t, int rank, int *sources, int *dests);

/* Number of grid cells, or -1 if it exceeds INT_MAX (dims must be positive). */
long skiff_cart_cells(int ndims, const int *dims);
void skiff_cart_coords(const struct skiff_topo *t, int rank, int *coords);
/* The rank at coords (periodic dimensions wrap), or -1 with *bad_dim set if a coordinate of a non-periodic
 * dimension is off the grid. */
int skiff_cart_rank(const struct skiff_topo *t, const int *coords, int *bad_dim);
/* Neighbours of rank at distance disp along dim: MPI_PROC_NULL off the edge of a non-periodic dimension. */
void skiff_cart_shift(const struct skiff_topo *t, int rank, int dim, int disp, int *source, int *dest);
/* MPI_Cart_sub: rank's sub-grid (color) and its rank within it (key); remain[d] keeps dimension d. */
void skiff_cart_sub_of(const struct skiff_topo *t, const int *remain, int rank, int *color, int *key);

/* MPI_Dims_create: fills the zero entries of dims so that the product is nnodes and the filled extents are
 * as close to each other as possible, in non-increasing order. Returns an MPI error code. */
int skiff_dims_create(int nnodes, int ndims, int *dims);

/* Placement for MPI_Cart_create (and the graph constructors) with reorder: order[i] is the parent rank that becomes grid rank i. Ranks of
 * one node (node[r] for parent rank r) get consecutive grid ranks, a contiguous block of the row-major grid,
 * so that grid neighbours are mostly node neighbours; within a node the parent order is kept. */
int skiff_cart_order(int n, const int *node, int *order);

#endif
