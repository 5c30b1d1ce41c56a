/* Cartesian topologies: creating grids and sub-grids, and the arithmetic between ranks and coordinates. */
#include <stdlib.h>

#include "core/topo.h"
#include "mpi/mpi_impl.h"
#include "mpi/topo_make.h"

static int check_cart(struct skiff_comm *c, const struct skiff_topo **t)
{
    if (SKIFF_UNLIKELY(!c->topo || c->topo->kind != MPI_CART))
        return skiff_err(MPI_ERR_TOPOLOGY, "communicator %s has no Cartesian topology", skiff_comm_label(c));
    *t = c->topo;
    return MPI_SUCCESS;
}

/* The grid must fit into the parent communicator. */
static int check_grid(const struct skiff_comm *c, int ndims, const int *dims, const int *periods, int *cells)
{
    int rc;
    if (ndims < 0)
        return skiff_err(MPI_ERR_ARG, "invalid number of dimensions %d", ndims);
    if ((rc = skiff_check_array(ndims, dims, "dims")) || (rc = skiff_check_array(ndims, periods, "periods")))
        return rc;
    for (int d = 0; d < ndims; d++)
        if (dims[d] <= 0)
            return skiff_err(MPI_ERR_DIMS, "dims[%d] = %d (extents must be >= 1)", d, dims[d]);
    long n = skiff_cart_cells(ndims, dims);
    if (n < 0 || n > c->size)
        return skiff_err(MPI_ERR_ARG, "the grid has %s%ld cells but communicator %s has only %d processes",
                         n < 0 ? "more than " : "", n < 0 ? (long)INT_MAX : n, skiff_comm_label(c), c->size);
    *cells = (int)n;
    return MPI_SUCCESS;
}

int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                     MPI_Comm *comm_cart)
{
    struct skiff_comm *c = NULL, *n = NULL;
    int cells = 0;
    SKIFF_ENTER(MPI_Cart_create);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm_old, &c);
    if (!rc && !(rc = skiff_check_intra(c)) && !(rc = check_grid(c, ndims, dims, periods, &cells)))
        rc = skiff_check_ptr(comm_cart, "comm_cart");
    if (rc)
        return skiff_fail(comm_old, rc);
    int *order = malloc(sizeof(int) * (size_t)c->size), *world = malloc(sizeof(int) * (size_t)c->size);
    rc = order && world ? skiff_topo_placement(c, reorder, order) : skiff_err(MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; !rc && i < cells; i++)
        world[i] = c->group->world[order[i]];
    if (!rc)
        rc = skiff_topo_attach(c, world, cells, skiff_cart_new(ndims, dims, periods), &n);
    free(order);
    free(world);
    if (rc)
        return skiff_fail(comm_old, rc);
    *comm_cart = n ? n->handle : MPI_COMM_NULL;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Cart_create)

int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
    struct skiff_comm *c = NULL;
    int cells = 0;
    SKIFF_ENTER(MPI_Cart_map);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc && !(rc = skiff_check_intra(c)) && !(rc = check_grid(c, ndims, dims, periods, &cells)))
        rc = skiff_check_ptr(newrank, "newrank");
    if (rc)
        return skiff_fail(comm, rc);
    int *order = malloc(sizeof(int) * (size_t)c->size);
    rc = order ? skiff_topo_placement(c, 1, order) : skiff_err(MPI_ERR_NO_MEM, "out of memory");
    /* The rank MPI_Cart_create with reorder would give this process. */
    *newrank = MPI_UNDEFINED;
    for (int i = 0; !rc && i < cells; i++)
        if (order[i] == c->rank)
            *newrank = i;
    free(order);
    return rc ? skiff_fail(comm, rc) : MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Cart_map)

int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    struct skiff_comm *c = NULL, *n = NULL;
    const struct skiff_topo *t = NULL;
    SKIFF_ENTER(MPI_Cart_sub);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc && !(rc = check_cart(c, &t)) && !(rc = skiff_check_array(t->ndims, remain_dims, "remain_dims")))
        rc = skiff_check_ptr(newcomm, "newcomm");
    if (rc)
        return skiff_fail(comm, rc);
    /* Every process knows the whole grid, so the sub-grids need no exchange: only the context id is agreed. */
    int k = 0, dims[t->ndims + 1], periods[t->ndims + 1];
    for (int d = 0; d < t->ndims; d++)
        if (remain_dims[d]) {
            dims[k] = t->dims[d];
            periods[k++] = t->periods[d];
        }
    int *world = malloc(sizeof(int) * (size_t)c->size), nw = 0, mine, key, color;
    if (!world)
        return skiff_fail(comm, skiff_err(MPI_ERR_NO_MEM, "out of memory"));
    skiff_cart_sub_of(t, remain_dims, c->rank, &mine, &key);
    for (int r = 0; r < c->size; r++) {
        skiff_cart_sub_of(t, remain_dims, r, &color, &key);
        if (color == mine) /* row-major: increasing rank is increasing rank in the sub-grid */
            world[nw++] = c->group->world[r];
    }
    rc = skiff_topo_attach(c, world, nw, skiff_cart_new(k, dims, periods), &n);
    free(world);
    if (rc)
        return skiff_fail(comm, rc);
    *newcomm = n->handle;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Cart_sub)

static int check_maxdims(const struct skiff_topo *t, int maxdims)
{
    if (SKIFF_UNLIKELY(maxdims < t->ndims))
        return skiff_err(MPI_ERR_ARG, "maxdims %d is less than the %d dimensions of the grid", maxdims, t->ndims);
    return MPI_SUCCESS;
}

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    struct skiff_comm *c = NULL;
    const struct skiff_topo *t = NULL;
    SKIFF_ENTER(MPI_Cart_coords);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc && !(rc = check_cart(c, &t)) && SKIFF_UNLIKELY(rank < 0 || rank >= c->size))
        rc = skiff_err(MPI_ERR_RANK, "invalid rank %d (communicator %s has %d ranks)", rank, skiff_comm_label(c),
                       c->size);
    if (!rc && !(rc = check_maxdims(t, maxdims)))
        rc = skiff_check_array(t->ndims, coords, "coords");
    if (rc)
        return skiff_fail(comm, rc);
    skiff_cart_coords(t, rank, coords);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Cart_coords)

int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    struct skiff_comm *c = NULL;
    const struct skiff_topo *t = NULL;
    SKIFF_ENTER(MPI_Cart_rank);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c), bad = 0, r = 0;
    if (!rc && !(rc = check_cart(c, &t)) && !(rc = skiff_check_array(t->ndims, coords, "coords")))
        rc = skiff_check_ptr(rank, "rank");
    if (!rc && SKIFF_UNLIKELY((r = skiff_cart_rank(t, coords, &bad)) < 0))
        rc = skiff_err(MPI_ERR_ARG, "coords[%d] = %d is off the grid (dimension %d has extent %d and does not wrap)",
                       bad, coords[bad], bad, t->dims[bad]);
    if (rc)
        return skiff_fail(comm, rc);
    *rank = r;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Cart_rank)

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    struct skiff_comm *c = NULL;
    const struct skiff_topo *t = NULL;
    SKIFF_ENTER(MPI_Cart_shift);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc && !(rc = check_cart(c, &t)) && SKIFF_UNLIKELY(direction < 0 || direction >= t->ndims))
        rc = skiff_err(MPI_ERR_ARG, "invalid direction %d (the grid has %d dimensions)", direction, t->ndims);
    if (!rc && !(rc = skiff_check_ptr(rank_source, "rank_source")))
        rc = skiff_check_ptr(rank_dest, "rank_dest");
    if (rc)
        return skiff_fail(comm, rc);
    skiff_cart_shift(t, c->rank, direction, disp, rank_source, rank_dest);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Cart_shift)

int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    struct skiff_comm *c = NULL;
    const struct skiff_topo *t = NULL;
    SKIFF_ENTER(MPI_Cart_get);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc && !(rc = check_cart(c, &t)) && !(rc = check_maxdims(t, maxdims)) &&
        !(rc = skiff_check_array(t->ndims, dims, "dims")) && !(rc = skiff_check_array(t->ndims, periods, "periods")))
        rc = skiff_check_array(t->ndims, coords, "coords");
    if (rc)
        return skiff_fail(comm, rc);
    for (int d = 0; d < t->ndims; d++) {
        dims[d] = t->dims[d];
        periods[d] = t->periods[d];
    }
    skiff_cart_coords(t, c->rank, coords);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Cart_get)

int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    struct skiff_comm *c = NULL;
    const struct skiff_topo *t = NULL;
    SKIFF_ENTER(MPI_Cartdim_get);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc && !(rc = check_cart(c, &t)))
        rc = skiff_check_ptr(ndims, "ndims");
    if (rc)
        return skiff_fail(comm, rc);
    *ndims = t->ndims;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Cartdim_get)

int PMPI_Topo_test(MPI_Comm comm, int *status)
{
    struct skiff_comm *c = NULL;
    SKIFF_ENTER(MPI_Topo_test);
    SKIFF_REQUIRE_INIT();
    int rc = skiff_check_comm(comm, &c);
    if (!rc)
        rc = skiff_check_ptr(status, "status");
    if (rc)
        return skiff_fail(comm, rc);
    *status = c->topo ? c->topo->kind : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Topo_test)

int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
    SKIFF_ENTER(MPI_Dims_create);
    SKIFF_REQUIRE_INIT();
    /* A negative ndims is left to skiff_dims_create, which names it. */
    int rc = skiff_check_array(ndims, dims, "dims");
    if (!rc)
        rc = skiff_dims_create(nnodes, ndims, dims);
    return skiff_fail_world(rc);
}
SKIFF_ALIAS(MPI_Dims_create)
