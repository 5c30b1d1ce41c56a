/* Virtual topologies: a Cartesian grid attached to a communicator. Rank r of the communicator sits at the
 * row-major coordinates of r (the last dimension varies fastest). Everything here is arithmetic on the grid,
 * without communication. */
#ifndef SKIFF_TOPO_H
#define SKIFF_TOPO_H

struct skiff_topo {
    int kind;     /* MPI_CART */
    int ndims;
    int *dims;    /* extent of each dimension */
    int *periods; /* 1 where the dimension wraps around */
};

/* NULL when out of memory. */
struct skiff_topo *skiff_cart_new(int ndims, const int *dims, const int *periods);
struct skiff_topo *skiff_topo_copy(const struct skiff_topo *t);
void skiff_topo_free(struct skiff_topo *t);

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

/* Placement for MPI_Cart_create with reorder: order[i] is the parent rank that becomes grid rank i. Ranks of
 * one node (node[r] for parent rank r) get consecutive grid ranks, a contiguous block of the row-major grid,
 * so that grid neighbours are mostly node neighbours; within a node the parent order is kept. */
int skiff_cart_order(int n, const int *node, int *order);

#endif
