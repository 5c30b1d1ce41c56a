/* cart_topo — Cartesian communicators.
 *   - for 1, 2 and 3 dimensions (from MPI_Dims_create) and mixed periodicity, with and without
 *     reorder: Topo_test, Cartdim_get, Cart_get, Cart_coords <-> Cart_rank for every rank,
 *     periodic wrap-around in Cart_rank, Cart_shift by +-1 and +-2 against coordinates computed here
 *     (MPI_PROC_NULL off a non-periodic edge), and a halo exchange with the shift partners;
 *   - a grid smaller than the communicator: the ranks left over get MPI_COMM_NULL;
 *   - Cart_sub into rows, columns and a zero-dimensional grid, checked by coordinates and traffic;
 *   - MPI_Comm_dup keeps the topology; MPI_Topo_test of MPI_COMM_WORLD is MPI_UNDEFINED.
 */
#include "testutil.h"

#define NAME "cart_topo"
#define MAXD 3

/* Row-major rank of coords in dims, wrapping periodic dimensions; -1 off a non-periodic edge. */
static int rank_of(int nd, const int *dims, const int *periods, const int *coords)
{
    int r = 0;
    for (int d = 0; d < nd; d++) {
        int c = coords[d];
        if (periods[d])
            c = ((c % dims[d]) + dims[d]) % dims[d];
        else if (c < 0 || c >= dims[d])
            return -1;
        r = r * dims[d] + c;
    }
    return r;
}

static void check_shift(MPI_Comm cart, int nd, const int *dims, const int *periods, const int *me)
{
    for (int d = 0; d < nd; d++)
        for (int disp = -2; disp <= 2; disp++) {
            int src, dst, c[MAXD];
            CHECK_MPI(MPI_Cart_shift(cart, d, disp, &src, &dst));
            memcpy(c, me, sizeof c);
            c[d] = me[d] + disp;
            int want = rank_of(nd, dims, periods, c);
            CHECK_EQ(want < 0 ? MPI_PROC_NULL : want, dst);
            c[d] = me[d] - disp;
            want = rank_of(nd, dims, periods, c);
            CHECK_EQ(want < 0 ? MPI_PROC_NULL : want, src);
        }
}

/* Along each dimension: send my rank to dest, receive from source. */
static void halo(MPI_Comm cart, int nd)
{
    int rank;
    CHECK_MPI(MPI_Comm_rank(cart, &rank));
    for (int d = 0; d < nd; d++) {
        int src, dst, got = -7;
        MPI_Status st;
        CHECK_MPI(MPI_Cart_shift(cart, d, 1, &src, &dst));
        CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, dst, d, &got, 1, MPI_INT, src, d, cart, &st));
        CHECK_EQ(src == MPI_PROC_NULL ? -7 : src, got);
        CHECK_EQ(src, st.MPI_SOURCE);
    }
}

static void grid(int nd, const int *periods, int reorder)
{
    int size = tu_size(), dims[MAXD] = {0, 0, 0};
    CHECK_MPI(MPI_Dims_create(size, nd, dims));
    MPI_Comm cart, dup;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, nd, dims, periods, reorder, &cart));
    CHECK(cart != MPI_COMM_NULL);
    int status, n, rank, csize;
    CHECK_MPI(MPI_Topo_test(cart, &status));
    CHECK_EQ(MPI_CART, status);
    CHECK_MPI(MPI_Cartdim_get(cart, &n));
    CHECK_EQ(nd, n);
    CHECK_MPI(MPI_Comm_rank(cart, &rank));
    CHECK_MPI(MPI_Comm_size(cart, &csize));
    CHECK_EQ(size, csize);

    int gd[MAXD], gp[MAXD], me[MAXD], c[MAXD], r;
    CHECK_MPI(MPI_Cart_get(cart, MAXD, gd, gp, me));
    for (int d = 0; d < nd; d++) {
        CHECK_EQ(dims[d], gd[d]);
        CHECK_EQ(periods[d] != 0, gp[d] != 0);
    }
    CHECK_EQ(rank, rank_of(nd, dims, periods, me));
    for (int i = 0; i < size; i++) {
        CHECK_MPI(MPI_Cart_coords(cart, i, MAXD, c));
        CHECK_MPI(MPI_Cart_rank(cart, c, &r));
        CHECK_EQ(i, r);
        CHECK_EQ(i, rank_of(nd, dims, periods, c));
    }
    /* Periodic dimensions wrap in both directions. */
    for (int d = 0; d < nd; d++)
        if (periods[d]) {
            memcpy(c, me, sizeof c);
            c[d] = me[d] + dims[d];
            CHECK_MPI(MPI_Cart_rank(cart, c, &r));
            CHECK_EQ(rank, r);
            c[d] = me[d] - 3 * dims[d];
            CHECK_MPI(MPI_Cart_rank(cart, c, &r));
            CHECK_EQ(rank, r);
        }
    check_shift(cart, nd, dims, periods, me);
    halo(cart, nd);

    CHECK_MPI(MPI_Comm_dup(cart, &dup));
    CHECK_MPI(MPI_Topo_test(dup, &status));
    CHECK_EQ(MPI_CART, status);
    check_shift(dup, nd, dims, periods, me);
    halo(dup, nd);
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Comm_free(&cart));
}

static void smaller_grid(void)
{
    int size = tu_size(), rank = tu_rank();
    int dims[2] = {(size + 1) / 2, size > 1 ? 1 : 1}, periods[2] = {1, 0};
    MPI_Comm cart;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    if (rank >= dims[0]) {
        CHECK(cart == MPI_COMM_NULL);
        return;
    }
    int n, r;
    CHECK_MPI(MPI_Comm_size(cart, &n));
    CHECK_MPI(MPI_Comm_rank(cart, &r));
    CHECK_EQ(dims[0], n);
    CHECK_EQ(rank, r); /* no reorder: the first ranks in order */
    halo(cart, 2);
    CHECK_MPI(MPI_Comm_free(&cart));
}

static void sub(void)
{
    int size = tu_size(), dims[2] = {0, 0}, periods[2] = {0, 1};
    CHECK_MPI(MPI_Dims_create(size, 2, dims));
    MPI_Comm cart, row, col, point;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart));
    int me[2], rank;
    CHECK_MPI(MPI_Comm_rank(cart, &rank));
    CHECK_MPI(MPI_Cart_coords(cart, rank, 2, me));

    int keep_row[2] = {0, 1}, keep_col[2] = {1, 0}, keep_none[2] = {0, 0};
    CHECK_MPI(MPI_Cart_sub(cart, keep_row, &row));
    CHECK_MPI(MPI_Cart_sub(cart, keep_col, &col));
    int n, r, nd, c[2], gd[1], gp[1];
    CHECK_MPI(MPI_Comm_size(row, &n));
    CHECK_MPI(MPI_Comm_rank(row, &r));
    CHECK_EQ(dims[1], n);
    CHECK_EQ(me[1], r);
    CHECK_MPI(MPI_Cartdim_get(row, &nd));
    CHECK_EQ(1, nd);
    CHECK_MPI(MPI_Cart_get(row, 1, gd, gp, c));
    CHECK_EQ(dims[1], gd[0]);
    CHECK_EQ(1, gp[0] != 0);
    CHECK_EQ(me[1], c[0]);
    CHECK_MPI(MPI_Comm_size(col, &n));
    CHECK_MPI(MPI_Comm_rank(col, &r));
    CHECK_EQ(dims[0], n);
    CHECK_EQ(me[0], r);
    CHECK_MPI(MPI_Cart_get(col, 1, gd, gp, c));
    CHECK_EQ(0, gp[0] != 0);

    /* Traffic on a row: everyone sends its parent rank to the row's rank 0. */
    CHECK_MPI(MPI_Comm_rank(row, &r));
    if (r != 0) {
        CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, 0, 4, row));
    } else {
        for (int i = 1; i < dims[1]; i++) {
            int got = -1, cc[2] = {me[0], i}, want;
            CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, i, 4, row, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Cart_rank(cart, cc, &want));
            CHECK_EQ(want, got);
        }
    }
    halo(row, 1);
    halo(col, 1);

    /* No dimension kept: MPI-4 gives every process a zero-dimensional grid of its own. (MPICH 4.0
     * gives MPI_COMM_NULL to all but one process, so only skiff is held to this.) */
    CHECK_MPI(MPI_Cart_sub(cart, keep_none, &point));
#ifdef SKIFF_MPI
    CHECK_MPI(MPI_Comm_size(point, &n));
    CHECK_EQ(1, n);
    CHECK_MPI(MPI_Cartdim_get(point, &nd));
    CHECK_EQ(0, nd);
#endif
    if (point != MPI_COMM_NULL)
        CHECK_MPI(MPI_Comm_free(&point));
    CHECK_MPI(MPI_Comm_free(&row));
    CHECK_MPI(MPI_Comm_free(&col));
    CHECK_MPI(MPI_Comm_free(&cart));
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    int status;
    CHECK_MPI(MPI_Topo_test(MPI_COMM_WORLD, &status));
    CHECK_EQ(MPI_UNDEFINED, status);
    const int ring[3] = {1, 0, 0}, line[3] = {0, 0, 0}, torus[3] = {1, 1, 1}, mixed[3] = {1, 0, 1};
    grid(1, ring, 0);
    grid(1, line, 1);
    grid(2, torus, 0);
    grid(2, mixed + 1, 1);
    grid(3, mixed, 0);
    grid(3, torus, 1);
    smaller_grid();
    sub();
    return tu_finish(NAME);
}
