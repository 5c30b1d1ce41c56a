/* The MPI-1 datatype calls that MPI-3 removed but real codes still use: MPI_Address, MPI_Type_struct,
 * MPI_Type_extent, MPI_Type_hvector, MPI_Type_hindexed, MPI_Type_lb, MPI_Type_ub, written the way an
 * old code writes them (MPI_Address of each member, non-const arrays).
 *
 * MPICH 4 no longer provides them: there the test maps each to its successor, so the same checks
 * still validate against MPICH. */
#include "testutil.h"

#ifndef SKIFF_MPI
#define MPI_Address MPI_Get_address
#define MPI_Type_struct MPI_Type_create_struct
#define MPI_Type_hvector MPI_Type_create_hvector
#define MPI_Type_hindexed MPI_Type_create_hindexed
static int tu_type_extent(MPI_Datatype t, MPI_Aint *extent)
{
    MPI_Aint lb;
    return MPI_Type_get_extent(t, &lb, extent);
}
static int tu_type_lb(MPI_Datatype t, MPI_Aint *lb)
{
    MPI_Aint extent;
    return MPI_Type_get_extent(t, lb, &extent);
}
static int tu_type_ub(MPI_Datatype t, MPI_Aint *ub)
{
    MPI_Aint lb, extent;
    int rc = MPI_Type_get_extent(t, &lb, &extent);
    *ub = lb + extent;
    return rc;
}
#define MPI_Type_extent tu_type_extent
#define MPI_Type_lb tu_type_lb
#define MPI_Type_ub tu_type_ub
#endif

static int rank, peer;

struct cell {
    double x, y;
    int id;
    short flags;
};

static MPI_Datatype cell_type(void)
{
    struct cell c = {0};
    int bl[3] = {2, 1, 1};
    MPI_Aint disp[3], base;
    MPI_Datatype types[3] = {MPI_DOUBLE, MPI_INT, MPI_SHORT}, t;
    CHECK_MPI(MPI_Address(&c, &base));
    CHECK_MPI(MPI_Address(&c.x, &disp[0]));
    CHECK_MPI(MPI_Address(&c.id, &disp[1]));
    CHECK_MPI(MPI_Address(&c.flags, &disp[2]));
    for (int i = 0; i < 3; i++)
        disp[i] -= base;
    CHECK_MPI(MPI_Type_struct(3, bl, disp, types, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

static void exchange(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                     int tag)
{
    MPI_Request rq[2];
    CHECK_MPI(MPI_Irecv(rbuf, rcount, rtype, peer, tag, MPI_COMM_WORLD, &rq[0]));
    CHECK_MPI(MPI_Isend(sbuf, scount, stype, peer, tag, MPI_COMM_WORLD, &rq[1]));
    CHECK_MPI(MPI_Waitall(2, rq, TU_STATUSES_IGNORE));
}

static void fill(struct cell *c, int n, int r)
{
    memset(c, 0, (size_t)n * sizeof *c);
    for (int i = 0; i < n; i++)
        c[i] = (struct cell){r + i * 0.5, r - i * 0.5, r * 100 + i, (short)(r + 3 * i)};
}

static void check_cell(const struct cell *c, int r, int i)
{
    CHECK(c->x == r + i * 0.5 && c->y == r - i * 0.5);
    CHECK_EQ(r * 100 + i, c->id);
    CHECK_EQ(r + 3 * i, c->flags);
}

static void struct_and_extent(void)
{
    MPI_Datatype t = cell_type();
    MPI_Aint extent = 0, lb = -1, ub = -1;
    CHECK_MPI(MPI_Type_extent(t, &extent));
    CHECK_EQ(sizeof(struct cell), extent);
    CHECK_MPI(MPI_Type_lb(t, &lb));
    CHECK_MPI(MPI_Type_ub(t, &ub));
    CHECK_EQ(0, lb);
    CHECK_EQ(sizeof(struct cell), ub);
    struct cell src[4], dst[4];
    fill(src, 4, rank);
    fill(dst, 4, -1);
    exchange(src, 4, t, dst, 4, t, 1);
    for (int i = 0; i < 4; i++)
        check_cell(&dst[i], peer, i);
    CHECK_MPI(MPI_Type_free(&t));
}

/* Every other cell with MPI_Type_hvector (stride in bytes from MPI_Type_extent), and cells 3, 0
 * with MPI_Type_hindexed. */
static void hvector_and_hindexed(void)
{
    MPI_Datatype t = cell_type(), hv, hi;
    MPI_Aint extent;
    CHECK_MPI(MPI_Type_extent(t, &extent));
    CHECK_MPI(MPI_Type_hvector(3, 1, 2 * extent, t, &hv));
    CHECK_MPI(MPI_Type_commit(&hv));
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {3 * extent, 0};
    CHECK_MPI(MPI_Type_hindexed(2, bl, disp, t, &hi));
    CHECK_MPI(MPI_Type_commit(&hi));
    struct cell src[6], dst[6];
    fill(src, 6, rank);
    exchange(src, 1, hv, dst, 3, t, 2);
    for (int i = 0; i < 3; i++)
        check_cell(&dst[i], peer, 2 * i);
    exchange(src, 1, hi, dst, 2, t, 3);
    check_cell(&dst[0], peer, 3);
    check_cell(&dst[1], peer, 0);
    CHECK_MPI(MPI_Type_free(&hv));
    CHECK_MPI(MPI_Type_free(&hi));
    CHECK_MPI(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    rank = tu_rank();
    peer = rank ^ 1;
    if (peer >= tu_size())
        peer = rank;
    struct_and_extent();
    hvector_and_hindexed();
    return tu_finish("dt_mpi1");
}
