/* Many fence epochs back to back, every one's data checked: the fence is the only thing that keeps the
 * epochs apart, so a barrier that lets a process through early (before everyone arrived, or without
 * ordering the memory) shows as a value of the wrong epoch. On three windows: Win_allocate over the
 * job, Win_allocate_shared over the node (written with plain stores through the shared pointers too)
 * and Win_allocate over half the job (a communicator that is not the whole job). Every few hundred
 * epochs one rank arrives late, so the others wait long enough to yield and sleep and must be woken.
 * Passes with MPICH and Open MPI too.
 *
 * Epoch i writes region i % 2 of every rank's window (a put into slot r of every target, rank r's
 * value for epoch i) and reads region (i + 1) % 2, written in epoch i - 1 (a get from the next rank);
 * after the closing fence each rank checks both. A region is written again two epochs later, so a
 * process that left a fence before a slow one had checked its region would overwrite it under it. */
#include "testutil.h"

#define EPOCHS 600
#define SLOW_EVERY 200

static int value(int r, int epoch)
{
    return r * 1000003 + epoch + 1;
}

/* Region reg's slot r in a window of 2 * size ints. */
static int slot(int size, int reg, int r)
{
    return reg * size + r;
}

/* A window of 2 * n ints, rounded up to whole lines: MPICH 4.0's Win_allocate on one node misplaces the
 * parts of other sizes (a put to slot 2 of 6 ints lands in slot 0). */
static MPI_Aint win_bytes(int n)
{
    return (2 * n * (MPI_Aint)sizeof(int) + 63) / 64 * 64;
}

static void run(MPI_Win win, int *mem, MPI_Comm comm, int *shared_next, const char *what)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int i = 0; i < 2 * size; i++)
        mem[i] = 0;
    int next = (rank + 1) % size, bad = 0;
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    for (int e = 0; e < EPOCHS; e++) {
        int reg = e % 2, v = value(rank, e), got = -1;
        if (e % SLOW_EVERY == SLOW_EVERY - 1 && rank == (e / SLOW_EVERY) % size)
            tu_sleep_ms(20); /* the others wait long enough to go to sleep */
        for (int t = 0; t < size; t++) {
            if (shared_next && t == next) /* a shared window: the next rank's slot by a plain store */
                shared_next[slot(size, reg, rank)] = v;
            else
                CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, slot(size, reg, rank), 1, MPI_INT, win));
        }
        if (e > 0)
            CHECK_MPI(MPI_Get(&got, 1, MPI_INT, next, slot(size, 1 - reg, next), 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_fence(e == EPOCHS - 1 ? MPI_MODE_NOSUCCEED : 0, win));
        for (int r = 0; r < size && bad < 5; r++)
            if (mem[slot(size, reg, r)] != value(r, e)) {
                printf("FAIL [rank %d] %s epoch %d: slot %d holds %d, want %d\n", rank, what, e, r,
                       mem[slot(size, reg, r)], value(r, e));
                bad++;
            }
        if (e > 0 && got != value(next, e - 1) && bad++ < 5)
            printf("FAIL [rank %d] %s epoch %d: got %d from rank %d, want %d\n", rank, what, e, got, next,
                   value(next, e - 1));
    }
    CHECK_EQ(0, bad);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, *mem;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win win;

    CHECK_MPI(MPI_Win_allocate(win_bytes(size), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem,
                               &win));
    run(win, mem, MPI_COMM_WORLD, NULL, "Win_allocate");
    CHECK_MPI(MPI_Win_free(&win));

    MPI_Comm node, half;
    int nsize;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    CHECK_MPI(MPI_Comm_size(node, &nsize));
    CHECK_MPI(MPI_Win_allocate_shared(win_bytes(nsize), sizeof(int), MPI_INFO_NULL, node, &mem,
                                      &win));
    MPI_Aint bytes;
    int unit, nrank, *next_mem;
    CHECK_MPI(MPI_Comm_rank(node, &nrank));
    CHECK_MPI(MPI_Win_shared_query(win, (nrank + 1) % nsize, &bytes, &unit, &next_mem));
    run(win, mem, node, next_mem, "Win_allocate_shared");
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Comm_free(&node));

    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    int hsize;
    CHECK_MPI(MPI_Comm_size(half, &hsize));
    CHECK_MPI(MPI_Win_allocate(win_bytes(hsize), sizeof(int), MPI_INFO_NULL, half, &mem, &win));
    run(win, mem, half, NULL, "Win_allocate over half the job");
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Comm_free(&half));

    if (rank == 0)
        printf("OK rma_fence_many\n");
    MPI_Finalize();
    return 0;
}
