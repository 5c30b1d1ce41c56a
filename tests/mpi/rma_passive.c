/* Passive target without the target's help (issue 17): within a node, a target that computes outside MPI
 * must not hold up a lock, an accumulate or an unlock aimed at it. Rank 0 polls its own window memory with
 * plain loads (and pauses) and makes no MPI call until every other rank has locked it exclusively, added
 * one, and unlocked, twice, then a shared lock_all round of fetch-and-ops. skiff does this on
 * Win_allocate_shared windows (the lock is a word in the segment); the standard does not promise it, so
 * under MPICH and Open MPI the program only checks the same result with the target inside MPI. */
#include <stdatomic.h>

#include "testutil.h"

#if defined(MPICH_VERSION) || defined(OPEN_MPI)
#define TARGET_OUTSIDE_MPI 0
#else
#define TARGET_OUTSIDE_MPI 1
#endif

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm node;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    MPI_Comm_rank(node, &rank);
    MPI_Comm_size(node, &size);
    long *mem;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate_shared(sizeof(long), sizeof(long), MPI_INFO_NULL, node, &mem, &win));
    *mem = 0;
    CHECK_MPI(MPI_Barrier(node));
    long want = 3L * (size - 1);
    if (rank == 0) {
        if (TARGET_OUTSIDE_MPI) {
            unsigned polls = 0;
            while (atomic_load((_Atomic long *)mem) != want) /* no MPI call in here */
                tu_poll_pause(&polls);
        }
    } else {
        long one = 1, old = -1;
        for (int k = 0; k < 2; k++) {
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
            CHECK_MPI(MPI_Accumulate(&one, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win));
            CHECK_MPI(MPI_Win_unlock(0, win));
        }
        CHECK_MPI(MPI_Win_lock_all(0, win));
        CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 0, MPI_SUM, win));
        CHECK_MPI(MPI_Win_flush(0, win));
        CHECK(old >= 2 && old < want);
        CHECK_MPI(MPI_Win_unlock_all(win));
    }
    CHECK_MPI(MPI_Barrier(node));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    long v = -1;
    CHECK_MPI(MPI_Get(&v, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win));
    CHECK_MPI(MPI_Win_unlock(0, win));
    CHECK_EQ(want, v);
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Comm_free(&node);
    if (rank == 0)
        printf("OK rma_passive\n");
    MPI_Finalize();
    return 0;
}
