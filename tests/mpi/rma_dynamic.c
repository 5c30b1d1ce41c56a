/* Dynamic windows: MPI_Win_create_dynamic, MPI_Win_attach/detach of memory allocated later, whose
 * addresses (MPI_Get_address, exchanged by MPI_Allgather) are the target displacements; puts, gets and
 * accumulates with fences and in a lock_all epoch, two regions at once, a region detached and another
 * attached. Passes with MPICH and Open MPI too. */
#include "testutil.h"

#define N 16

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win win;
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    int flag = 0, *flavor;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
    CHECK(flag && *flavor == MPI_WIN_FLAVOR_DYNAMIC);

    int *a = tu_malloc(N * sizeof(int)), *b = tu_malloc(N * sizeof(int));
    for (int i = 0; i < N; i++)
        a[i] = b[i] = -1;
    CHECK_MPI(MPI_Win_attach(win, a, N * sizeof(int)));
    CHECK_MPI(MPI_Win_attach(win, b, N * sizeof(int)));
    MPI_Aint mine[2], *all = tu_malloc(2 * sizeof(MPI_Aint) * (size_t)size);
    MPI_Get_address(a, &mine[0]);
    MPI_Get_address(b, &mine[1]);
    CHECK_MPI(MPI_Allgather(mine, 2, MPI_AINT, all, 2, MPI_AINT, MPI_COMM_WORLD));
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;

    int src[N], got[N];
    for (int i = 0; i < N; i++)
        src[i] = rank * 100 + i;
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(src, N, MPI_INT, next, all[2 * next], N, MPI_INT, win));
    int one = 1;
    CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0, MPI_Aint_add(all[1], 3 * sizeof(int)), 1, MPI_INT, MPI_REPLACE, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < N; i++)
        CHECK_EQ(prev * 100 + i, a[i]);
    if (rank == 0)
        CHECK_EQ(1, b[3]);
    CHECK_MPI(MPI_Get(got, N, MPI_INT, next, all[2 * next], N, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < N; i++)
        CHECK_EQ(rank * 100 + i, got[i]);

    /* Detach a, attach c in its place; passive target into c. */
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Win_detach(win, a));
    int *c = tu_malloc(N * sizeof(int));
    for (int i = 0; i < N; i++)
        c[i] = 0;
    CHECK_MPI(MPI_Win_attach(win, c, N * sizeof(int)));
    MPI_Get_address(c, &mine[0]);
    CHECK_MPI(MPI_Allgather(mine, 2, MPI_AINT, all, 2, MPI_AINT, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int t = 0; t < size; t++) {
        MPI_Aint at = MPI_Aint_add(all[2 * t], (MPI_Aint)(rank % N) * (MPI_Aint)sizeof(int));
        CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, t, at, 1, MPI_INT, MPI_SUM, win));
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    int sum = 0;
    for (int i = 0; i < N; i++)
        sum += c[i];
    CHECK_EQ(size, sum);
    CHECK_MPI(MPI_Win_unlock(rank, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_detach(win, b));
    CHECK_MPI(MPI_Win_detach(win, c));
    CHECK_MPI(MPI_Win_free(&win));
    free(a);
    free(b);
    free(c);
    free(all);
    if (rank == 0)
        printf("OK rma_dynamic\n");
    MPI_Finalize();
    return 0;
}
