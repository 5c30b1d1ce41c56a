/* General active target: MPI_Win_post / start / complete / wait / test. Each rank exposes its window to
 * its two neighbours in a ring and accesses both: puts into its slot at each, gets, accumulates; the
 * target sees everything once MPI_Win_wait (or MPI_Win_test, polled with pauses) returns. Then rank 0
 * alone exposes to everyone else (a group that is not symmetric), and MPI_MODE_NOCHECK with a barrier
 * in between. Passes with MPICH and Open MPI too. */
#include "testutil.h"

#define ROUNDS 5

/* My neighbours in a ring: both at np >= 3, the other rank at np 2, myself at np 1. */
static MPI_Group ring_group(MPI_Group world, int rank, int size)
{
    int r[2] = {(rank + size - 1) % size, (rank + 1) % size}, n = size >= 3 ? 2 : 1;
    MPI_Group g;
    CHECK_MPI(MPI_Group_incl(world, n, r, &g));
    return g;
}

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
        mem = tu_malloc(4 * sizeof(int));
        CHECK_MPI(MPI_Win_create(mem, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    } else {
        CHECK_MPI(MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    }
    MPI_Group world, ring;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    ring = ring_group(world, rank, size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < 4; i++)
            mem[i] = -1;
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* nobody puts before the reset */
        CHECK_MPI(MPI_Win_post(ring, 0, win));
        CHECK_MPI(MPI_Win_start(ring, 0, win));
        int v = 100 * round + rank, got = -7;
        /* My value into slot 0 of my right neighbour and slot 1 of my left one (one slot per writer even
         * at np 2, where they are the same rank; at np 1 the last put wins). */
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
        if (size > 1 || round % 2)
            CHECK_MPI(MPI_Put(&v, 1, MPI_INT, left, 1, 1, MPI_INT, win));
        int one = 1;
        CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, right, 2, 1, MPI_INT, MPI_REPLACE, win));
        CHECK_MPI(MPI_Get(&got, 1, MPI_INT, right, 3, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_complete(win));
        CHECK_EQ(-1, got); /* slot 3 is never written */
        if (round % 2) {
            int flag = 0;
            unsigned polls = 0;
            while (!flag) {
                CHECK_MPI(MPI_Win_test(win, &flag));
                if (!flag)
                    tu_poll_pause(&polls);
            }
        } else {
            CHECK_MPI(MPI_Win_wait(win));
        }
        CHECK_EQ(100 * round + left, mem[0]);
        if (size > 1)
            CHECK_EQ(100 * round + right, mem[1]);
        CHECK_EQ(1, mem[2]);
    }

    /* Rank 0 exposes to all others; they each add into its slot 0. */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0)
        mem[0] = 0;
    MPI_Group others, zero;
    int z = 0;
    CHECK_MPI(MPI_Group_excl(world, 1, &z, &others));
    CHECK_MPI(MPI_Group_incl(world, 1, &z, &zero));
    if (rank == 0 && size > 1) {
        CHECK_MPI(MPI_Win_post(others, MPI_MODE_NOPUT, win));
        CHECK_MPI(MPI_Win_wait(win));
        CHECK_EQ((size - 1) * size / 2, mem[0]);
    } else if (rank > 0) {
        CHECK_MPI(MPI_Win_start(zero, 0, win));
        CHECK_MPI(MPI_Accumulate(&rank, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win));
        CHECK_MPI(MPI_Win_complete(win));
    }
    /* NOCHECK: the barrier does what the post's message would. */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_post(ring, MPI_MODE_NOCHECK, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_start(ring, MPI_MODE_NOCHECK, win));
    int v = 555 + rank;
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 3, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_complete(win));
    CHECK_MPI(MPI_Win_wait(win));
    CHECK_EQ(555 + left, mem[3]);

    MPI_Group_free(&others);
    MPI_Group_free(&zero);
    MPI_Group_free(&ring);
    MPI_Group_free(&world);
    CHECK_MPI(MPI_Win_free(&win));
    if (create)
        free(mem);
    if (rank == 0)
        printf("OK rma_pscw\n");
    MPI_Finalize();
    return 0;
}
