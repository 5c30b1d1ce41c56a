/* Request-based one-sided operations in a passive target epoch: MPI_Rput, MPI_Rget, MPI_Raccumulate,
 * MPI_Rget_accumulate, completed by MPI_Wait/MPI_Waitall/MPI_Test (an Rget's data is there when its
 * request completes, before any flush), derived types, MPI_PROC_NULL (a request that is complete at
 * once). Passes with MPICH and Open MPI too. */
#include "testutil.h"

#define N 32

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *mem;
    MPI_Win win;
    /* "create" as argument: the same over user memory (MPI_Win_create: single copy within a node) */
    int create = argc > 1 && strcmp(argv[1], "create") == 0;
    if (create) {
        mem = tu_malloc(2 * N * sizeof(int));
        CHECK_MPI(MPI_Win_create(mem, 2 * N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    } else {
        CHECK_MPI(MPI_Win_allocate(2 * N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    }
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    for (int i = 0; i < 2 * N; i++)
        mem[i] = 0;
    CHECK_MPI(MPI_Win_unlock(rank, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int src[N], got[N], ones[N], old[N];
    for (int i = 0; i < N; i++) {
        src[i] = rank * 1000 + i;
        ones[i] = 1;
        got[i] = old[i] = -1;
    }
    MPI_Request req[4];
    CHECK_MPI(MPI_Win_lock_all(0, win));
    CHECK_MPI(MPI_Rput(src, N, MPI_INT, next, 0, N, MPI_INT, win, &req[0]));
    CHECK_MPI(MPI_Wait(&req[0], MPI_STATUS_IGNORE)); /* local completion: src may change */
    CHECK(req[0] == MPI_REQUEST_NULL);
    for (int i = 0; i < N; i++)
        src[i] = -5;
    CHECK_MPI(MPI_Win_flush(next, win));
    CHECK_MPI(MPI_Rget(got, N, MPI_INT, next, 0, N, MPI_INT, win, &req[0]));
    CHECK_MPI(MPI_Raccumulate(ones, N, MPI_INT, next, N, N, MPI_INT, MPI_SUM, win, &req[1]));
    CHECK_MPI(MPI_Rput(src, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win, &req[2]));
    MPI_Datatype every2;
    CHECK_MPI(MPI_Type_vector(N / 2, 1, 2, MPI_INT, &every2));
    CHECK_MPI(MPI_Type_commit(&every2));
    CHECK_MPI(MPI_Rget_accumulate(ones, N / 2, MPI_INT, old, 1, every2, prev, N, 1, every2, MPI_SUM, win, &req[3]));
    CHECK_MPI(MPI_Type_free(&every2));
    CHECK_MPI(MPI_Waitall(4, req, TU_STATUSES_IGNORE));
    for (int i = 0; i < N; i++)
        CHECK_EQ(rank * 1000 + i, got[i]);
    for (int i = 0; i < N; i++)
        CHECK(old[i] == -1 || i % 2 == 0);
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    /* Each slot N + i got one from prev's Raccumulate and, at even i, one more from next's
     * Rget_accumulate (whose fetched values were 0 or 1, depending on the order). */
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    for (int i = 0; i < N; i++) {
        CHECK_EQ(prev * 1000 + i, mem[i]);
        CHECK_EQ(i % 2 == 0 ? 2 : 1, mem[N + i]);
    }
    CHECK_MPI(MPI_Win_unlock(rank, win));
    for (int i = 0; i < N; i += 2)
        CHECK(old[i] == 0 || old[i] == 1);

    /* MPI_Test until done (yielding between tries). */
    int flag = 0, v = -1;
    unsigned polls = 0;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, next, 0, win));
    CHECK_MPI(MPI_Rget(&v, 1, MPI_INT, next, 3, 1, MPI_INT, win, &req[0]));
    while (!flag) {
        CHECK_MPI(MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE));
        if (!flag)
            tu_poll_pause(&polls);
    }
    CHECK_EQ(rank * 1000 + 3, v);
    CHECK_MPI(MPI_Win_unlock(next, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_free(&win));
    if (create)
        free(mem);
    if (rank == 0)
        printf("OK rma_req\n");
    MPI_Finalize();
    return 0;
}
