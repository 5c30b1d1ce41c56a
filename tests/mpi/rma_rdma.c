/* Put and get by the transport's RDMA (issue 17; rma/rdma.c): every rank puts to and gets from its right
 * neighbour in each synchronization model (fence, lock/flush/unlock, lock_all with Rput/Rget, post/start/
 * complete/wait), contiguous and into a vector target type, 1 MiB at once, beside the operations that stay
 * messages (a non-contiguous origin, an accumulate), on Win_create and Win_allocate memory; every element
 * is checked. With the argument "rdma", skiff must count (MPI_T skiff_rma_rdma) exactly the transfers the
 * RDMA path takes: one per contiguous run of the target type, none for the message ones (the neighbour is
 * on another node, reached by ucx); with "messages" none at all. Without an argument, or under MPICH and
 * Open MPI, the data alone is checked. */
#include "testutil.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#define N 1024
#define BIGN (256 * 1024) /* 1 MiB of ints */

static struct tu_counter rdma;

static int val(int owner, int i)
{
    return owner * 1000003 + i * 7 + 1;
}

/* One window's round of every model; returns the transfers the RDMA path takes for it. */
static unsigned long long round_trip(int create, int rank, int size)
{
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int *mem, *buf = tu_malloc(sizeof(int) * N), *src = tu_malloc(sizeof(int) * N);
    MPI_Win win;
    if (create) {
        mem = tu_malloc(sizeof(int) * N);
        CHECK_MPI(MPI_Win_create(mem, sizeof(int) * N, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    } else {
        CHECK_MPI(MPI_Win_allocate(sizeof(int) * N, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    }
    MPI_Datatype every2, vec;
    CHECK_MPI(MPI_Type_vector(8, 1, 2, MPI_INT, &every2));
    CHECK_MPI(MPI_Type_commit(&every2));
    CHECK_MPI(MPI_Type_vector(4, 1, 3, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    unsigned long long transfers = 0;

    /* Fence: a contiguous put and get, a put and a get through a vector on the target (8 runs each), a put
     * from a vector origin and an accumulate (messages). */
    for (int i = 0; i < N; i++) {
        mem[i] = val(rank, i);
        src[i] = val(rank, i) + 5;
    }
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(src, 256, MPI_INT, next, 0, 256, MPI_INT, win));
    CHECK_MPI(MPI_Get(buf, 256, MPI_INT, next, 256, 256, MPI_INT, win));
    CHECK_MPI(MPI_Put(src + 512, 8, MPI_INT, next, 512, 1, every2, win));
    CHECK_MPI(MPI_Get(buf + 512, 8, MPI_INT, next, 600, 1, every2, win));
    CHECK_MPI(MPI_Put(src + 700, 1, vec, next, 700, 4, MPI_INT, win));
    CHECK_MPI(MPI_Accumulate(src + 800, 4, MPI_INT, next, 800, 4, MPI_INT, MPI_SUM, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    transfers += 2 + 8 + 8;
    for (int i = 0; i < 256; i++) {
        CHECK_EQ(val(prev, i) + 5, mem[i]);
        CHECK_EQ(val(next, 256 + i), buf[i]);
    }
    for (int j = 0; j < 8; j++) {
        CHECK_EQ(val(prev, 512 + j) + 5, mem[512 + 2 * j]);
        CHECK_EQ(val(rank, 513 + 2 * j), mem[513 + 2 * j]); /* the gaps untouched */
        CHECK_EQ(val(next, 600 + 2 * j), buf[512 + j]);
    }
    for (int j = 0; j < 4; j++) {
        CHECK_EQ(val(prev, 700 + 3 * j) + 5, mem[700 + j]);
        CHECK_EQ(val(rank, 800 + j) + val(prev, 800 + j) + 5, mem[800 + j]);
    }
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));

    /* Passive target: lock, put, flush, get it back, unlock; the target checks after a barrier. */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, 0, win));
    for (int i = 0; i < 64; i++)
        src[i] = val(rank, i) * 3;
    CHECK_MPI(MPI_Put(src, 64, MPI_INT, next, 100, 64, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush(next, win));
    CHECK_MPI(MPI_Get(buf, 64, MPI_INT, next, 100, 64, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(next, win));
    transfers += 2;
    for (int i = 0; i < 64; i++)
        CHECK_EQ(val(rank, i) * 3, buf[i]);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    for (int i = 0; i < 64; i++)
        CHECK_EQ(val(prev, i) * 3, mem[100 + i]);
    CHECK_MPI(MPI_Win_unlock(rank, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* lock_all with request-based put and get, each waited for; then flush_all. */
    CHECK_MPI(MPI_Win_lock_all(0, win));
    MPI_Request rq[2];
    for (int i = 0; i < 32; i++)
        src[i] = val(rank, i) - 9;
    CHECK_MPI(MPI_Rput(src, 32, MPI_INT, next, 300, 32, MPI_INT, win, &rq[0]));
    CHECK_MPI(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_flush_all(win));
    CHECK_MPI(MPI_Rget(buf, 32, MPI_INT, next, 300, 32, MPI_INT, win, &rq[1]));
    CHECK_MPI(MPI_Wait(&rq[1], MPI_STATUS_IGNORE));
    for (int i = 0; i < 32; i++)
        CHECK_EQ(val(rank, i) - 9, buf[i]);
    CHECK_MPI(MPI_Win_unlock_all(win));
    transfers += 2;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* Post/start/complete/wait: the target sees the put once its wait returns. */
    MPI_Group world, to, from;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK_MPI(MPI_Group_incl(world, 1, &next, &to));
    CHECK_MPI(MPI_Group_incl(world, 1, &prev, &from));
    CHECK_MPI(MPI_Win_post(from, 0, win));
    CHECK_MPI(MPI_Win_start(to, 0, win));
    for (int i = 0; i < 16; i++)
        src[i] = val(rank, i) + 77;
    CHECK_MPI(MPI_Put(src, 16, MPI_INT, next, 900, 16, MPI_INT, win));
    CHECK_MPI(MPI_Win_complete(win));
    CHECK_MPI(MPI_Win_wait(win));
    transfers += 1;
    for (int i = 0; i < 16; i++)
        CHECK_EQ(val(prev, i) + 77, mem[900 + i]);
    MPI_Group_free(&world);
    MPI_Group_free(&to);
    MPI_Group_free(&from);

    CHECK_MPI(MPI_Type_free(&every2));
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_MPI(MPI_Win_free(&win));
    if (create)
        free(mem);
    free(buf);
    free(src);
    return transfers;
}

/* 1 MiB each way with fences, every element checked. */
static unsigned long long big(int rank, int size)
{
    int next = (rank + 1) % size, prev = (rank + size - 1) % size, *mem;
    int *src = tu_malloc(sizeof(int) * BIGN), *got = tu_malloc(sizeof(int) * BIGN);
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(sizeof(int) * BIGN, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    for (int i = 0; i < BIGN; i++) {
        src[i] = val(rank, i);
        mem[i] = -1;
    }
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(src, BIGN, MPI_INT, next, 0, BIGN, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Get(got, BIGN, MPI_INT, next, 0, BIGN, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < BIGN; i++)
        if (mem[i] != val(prev, i) || got[i] != val(rank, i)) {
            CHECK_MSG(0, "element %d: %d and %d, expected %d and %d", i, mem[i], got[i], val(prev, i), val(rank, i));
            break;
        }
    CHECK_MPI(MPI_Win_free(&win));
    free(src);
    free(got);
    return 2;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "";
    tu_counter_open(&rdma, "skiff_rma_rdma");
    unsigned long long before = tu_counter_read(&rdma), want = 0;
    for (int create = 0; create < 2; create++)
        want += round_trip(create, rank, size);
    want += big(rank, size);
    unsigned long long got = tu_counter_read(&rdma) - before;
    if (tu_counter_on(&rdma) && strcmp(mode, "rdma") == 0)
        CHECK_MSG(got == want, "%llu transfers by RDMA, expected %llu", got, want);
    if (tu_counter_on(&rdma) && strcmp(mode, "messages") == 0)
        CHECK_MSG(got == 0, "%llu transfers by RDMA, expected none", got);
    tu_counter_close(&rdma);
    return tu_finish("rma_rdma");
}
