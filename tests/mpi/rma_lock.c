/* Passive target: MPI_Win_lock/unlock exclusive (a read-modify-write by get and put that only mutual
 * exclusion keeps exact), shared locks with accumulates, MPI_Win_lock_all with MPI_Win_flush /
 * flush_all / flush_local (a put is visible to a get after a flush), a lock on one's own window around
 * local loads and stores, MPI_MODE_NOCHECK, MPI_Win_sync. The targets progress in
 * MPI_Barrier. Passes with MPICH and Open MPI too. */
#include "testutil.h"

#define REPS 20

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long *mem;
    MPI_Win win;
    /* "create" as argument 1: the same over user memory (MPI_Win_create: single copy within a node) */
    int create = argc > 1 && strcmp(argv[1], "create") == 0;
    if (create) {
        mem = tu_malloc(8 * sizeof(long));
        CHECK_MPI(MPI_Win_create(mem, 8 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    } else {
        CHECK_MPI(MPI_Win_allocate(8 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    }
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    for (int i = 0; i < 8; i++)
        mem[i] = 0;
    CHECK_MPI(MPI_Win_unlock(rank, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* Exclusive: get, add one, put back, REPS times from every rank into every target's slot 0. */
    for (int k = 0; k < REPS; k++)
        for (int t = 0; t < size; t++) {
            long v = -1;
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
            CHECK_MPI(MPI_Get(&v, 1, MPI_LONG, t, 0, 1, MPI_LONG, win));
            CHECK_MPI(MPI_Win_flush(t, win));
            v++;
            CHECK_MPI(MPI_Put(&v, 1, MPI_LONG, t, 0, 1, MPI_LONG, win));
            CHECK_MPI(MPI_Win_unlock(t, win));
        }
    /* Shared: accumulates into slot 1 of every target. */
    long two = 2;
    for (int t = 0; t < size; t++) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
        for (int k = 0; k < REPS; k++)
            CHECK_MPI(MPI_Accumulate(&two, 1, MPI_LONG, t, 1, 1, MPI_LONG, MPI_SUM, win));
        CHECK_MPI(MPI_Win_unlock(t, win));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    CHECK_EQ((long)REPS * size, mem[0]);
    CHECK_EQ(2L * REPS * size, mem[1]);
    CHECK_MPI(MPI_Win_unlock(rank, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* lock_all: put into my slot (2 + rank % 6) of the next rank, flush, read it back in the same epoch. */
    int next = (rank + 1) % size, slot = 2 + rank % 6;
    long mine = 7000 + rank, back = -1;
    CHECK_MPI(MPI_Win_lock_all(0, win));
    CHECK_MPI(MPI_Put(&mine, 1, MPI_LONG, next, slot, 1, MPI_LONG, win));
    CHECK_MPI(MPI_Win_flush(next, win));
    CHECK_MPI(MPI_Get(&back, 1, MPI_LONG, next, slot, 1, MPI_LONG, win));
    CHECK_MPI(MPI_Win_flush_local(next, win));
    CHECK_EQ(mine, back);
    long fetched = -1, one = 1;
    CHECK_MPI(MPI_Fetch_and_op(&one, &fetched, MPI_LONG, next, 1, MPI_SUM, win));
    CHECK_MPI(MPI_Win_flush_all(win));
    CHECK(fetched >= 2L * REPS * size);
    CHECK_MPI(MPI_Win_flush_local_all(win));
    CHECK_MPI(MPI_Win_sync(win));
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    int prev = (rank + size - 1) % size;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, MPI_MODE_NOCHECK, win));
    CHECK_MPI(MPI_Win_sync(win));
    CHECK_EQ(7000L + prev, mem[2 + prev % 6]);
    CHECK_EQ(2L * REPS * size + 1, mem[1]); /* prev added one */
    CHECK_MPI(MPI_Win_unlock(rank, win));

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_free(&win));
    if (create)
        free(mem);
    if (rank == 0)
        printf("OK rma_lock\n");
    MPI_Finalize();
    return 0;
}
