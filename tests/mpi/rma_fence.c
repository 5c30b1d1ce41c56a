/* One-sided Put and Get with fences, on windows of every flavor that takes memory (Win_create,
 * Win_allocate, Win_allocate_shared over the node), with basic and derived datatypes on both sides, to
 * oneself and to every other rank, MPI_PROC_NULL targets and the fence assertions. Passes with MPICH and
 * Open MPI too. */
#include <stddef.h>

#include "testutil.h"

#define N 64

enum { FLAVOR_CREATE, FLAVOR_ALLOCATE, FLAVOR_SHARED, NFLAVORS };

static int value(int owner, int i, int round)
{
    return owner * 100000 + round * 1000 + i;
}

/* A window of N ints on comm by flavor; *mem is this rank's memory. */
static MPI_Win make_win(int flavor, MPI_Comm comm, int **mem, int **owned)
{
    MPI_Win win;
    *owned = NULL;
    if (flavor == FLAVOR_CREATE) {
        *owned = tu_malloc(N * sizeof(int));
        *mem = *owned;
        CHECK_MPI(MPI_Win_create(*mem, N * sizeof(int), sizeof(int), MPI_INFO_NULL, comm, &win));
    } else if (flavor == FLAVOR_ALLOCATE) {
        CHECK_MPI(MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, comm, mem, &win));
    } else {
        CHECK_MPI(MPI_Win_allocate_shared(N * sizeof(int), sizeof(int), MPI_INFO_NULL, comm, mem, &win));
    }
    return win;
}

static void run(int flavor, MPI_Comm comm)
{
    int rank, size, *mem, *owned;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Win win = make_win(flavor, comm, &mem, &owned);
    for (int i = 0; i < N; i++)
        mem[i] = -1;

    /* Round 1: each rank puts its block of N/size... simply: rank r puts value(r, i) into slot i of rank
     * (r + 1) % size for i in its stripe; then everyone checks. */
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int src[N];
    for (int i = 0; i < N; i++)
        src[i] = value(rank, i, 1);
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    CHECK_MPI(MPI_Put(src, N, MPI_INT, next, 0, N, MPI_INT, win));
    CHECK_MPI(MPI_Put(src, N, MPI_INT, MPI_PROC_NULL, 0, N, MPI_INT, win)); /* moves nothing */
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < N; i++)
        CHECK_EQ(value(prev, i, 1), mem[i]);

    /* Round 2: get the previous rank's memory back, and my own. */
    int got[N], mine[N];
    memset(got, 0, sizeof got);
    CHECK_MPI(MPI_Get(got, N, MPI_INT, prev, 0, N, MPI_INT, win));
    CHECK_MPI(MPI_Get(mine, N, MPI_INT, rank, 0, N, MPI_INT, win));
    CHECK_MPI(MPI_Get(got, N, MPI_INT, MPI_PROC_NULL, 0, N, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPUT, win));
    for (int i = 0; i < N; i++) {
        CHECK_EQ(value((prev + size - 1) % size, i, 1), got[i]);
        CHECK_EQ(value(prev, i, 1), mine[i]);
    }

    /* Round 3: derived types on both sides. Origin: every other int of 2*(N/2) ints (a vector);
     * target: an indexed type placing them at the odd slots, at displacement 0. */
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < N; i++)
        mem[i] = -1;
    CHECK_MPI(MPI_Win_fence(0, win));
    int wide[N];
    for (int i = 0; i < N; i++)
        wide[i] = (i % 2) ? -7 : value(rank, i / 2, 3);
    MPI_Datatype vec, odd;
    CHECK_MPI(MPI_Type_vector(N / 2, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    int blens[N / 2], displs[N / 2];
    for (int i = 0; i < N / 2; i++) {
        blens[i] = 1;
        displs[i] = 2 * i + 1;
    }
    CHECK_MPI(MPI_Type_indexed(N / 2, blens, displs, MPI_INT, &odd));
    CHECK_MPI(MPI_Type_commit(&odd));
    CHECK_MPI(MPI_Put(wide, 1, vec, next, 0, 1, odd, win));
    CHECK_MPI(MPI_Type_free(&vec)); /* an operation keeps what it needs */
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < N; i++)
        CHECK_EQ((i % 2) ? value(prev, i / 2, 3) : -1, mem[i]);
    /* And back: get the odd slots of prev's memory into a contiguous array through a resized type
     * (target: a contiguous origin count of N/2 ints). */
    int back[N / 2];
    CHECK_MPI(MPI_Get(back, N / 2, MPI_INT, prev, 0, 1, odd, win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED | MPI_MODE_NOSTORE, win));
    for (int i = 0; i < N / 2; i++)
        CHECK_EQ(value((prev + size - 1) % size, i, 3), back[i]);
    CHECK_MPI(MPI_Type_free(&odd));

    /* Round 4: displacement units other than 1: a struct {int; double} array with disp_unit = its
     * extent; puts of single elements by index. */
    MPI_Win_free(&win);
    CHECK(win == MPI_WIN_NULL);
    free(owned);
    struct rec {
        int i;
        double d;
    } recs[4], put;
    MPI_Datatype rt, rtr;
    int bl[2] = {1, 1};
    MPI_Aint dp[2] = {offsetof(struct rec, i), offsetof(struct rec, d)};
    MPI_Datatype tys[2] = {MPI_INT, MPI_DOUBLE};
    CHECK_MPI(MPI_Type_create_struct(2, bl, dp, tys, &rt));
    CHECK_MPI(MPI_Type_create_resized(rt, 0, sizeof(struct rec), &rtr));
    CHECK_MPI(MPI_Type_commit(&rtr));
    memset(recs, 0, sizeof recs);
    CHECK_MPI(MPI_Win_create(recs, sizeof recs, sizeof(struct rec), MPI_INFO_NULL, comm, &win));
    CHECK_MPI(MPI_Win_fence(0, win));
    put.i = rank;
    put.d = rank + 0.5;
    CHECK_MPI(MPI_Put(&put, 1, rtr, next, 2, 1, rtr, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_EQ(prev, recs[2].i);
    CHECK(recs[2].d == prev + 0.5);
    CHECK_EQ(0, recs[1].i);
    CHECK_EQ(0, recs[3].i);
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Type_free(&rt));
    CHECK_MPI(MPI_Type_free(&rtr));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm node;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    for (int f = 0; f < NFLAVORS; f++)
        run(f, f == FLAVOR_SHARED ? node : MPI_COMM_WORLD);
    /* Large puts and gets (past the eager limit): 1 MiB each way. */
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int big = 1 << 18;
    int *mem, *src = tu_malloc(big * sizeof(int)), *dst = tu_malloc(big * sizeof(int));
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate((MPI_Aint)big * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    for (int i = 0; i < big; i++)
        src[i] = rank ^ i;
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(src, big, MPI_INT, (rank + 1) % size, 0, big, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Get(dst, big, MPI_INT, (rank + 1) % size, 0, big, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    int prev = (rank + size - 1) % size;
    for (int i = 0; i < big; i++) {
        CHECK_EQ(prev ^ i, mem[i]);
        CHECK_EQ(rank ^ i, dst[i]);
    }
    CHECK_MPI(MPI_Win_free(&win));
    free(src);
    free(dst);
    MPI_Comm_free(&node);
    if (rank == 0)
        printf("OK rma_fence\n");
    MPI_Finalize();
    return 0;
}
