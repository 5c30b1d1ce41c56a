/* A target outside MPI (issue 17): rank 1 blocks in read() on a FIFO, outside every MPI call, while rank
 * 0 locks its window with MPI_MODE_NOCHECK (no grant to wait for), puts, flushes, gets the data back and
 * unlocks; only then does rank 0 write the FIFO's byte that lets rank 1 go on and check its memory. So
 * the put and the get completed without the target's library or progress, or the job hangs (and fails
 * at mpiexec's timeout): nothing here depends on timing. In skiff that holds within a node (a shared
 * window) and, between nodes, where the transport's RDMA needs nothing of the target: over ucx between two
 * made-up hosts on UCX's shared-memory wires, into Win_allocate memory UCX allocated (tests/ucx.cmake);
 * with the argument "rdma" skiff must also count the two transfers (MPI_T skiff_rma_rdma). Also passes
 * under MPICH and Open MPI on one node. */
#include "testutil.h"

#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define N 4096

static struct tu_counter rdma;

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (tu_need_ranks(2, "rma_rdma_idle"))
        return tu_finish("rma_rdma_idle");
    int expect_rdma = argc > 1 && strcmp(argv[1], "rdma") == 0;
    tu_counter_open(&rdma, "skiff_rma_rdma");
    char path[64] = "";
    if (rank == 1) {
        snprintf(path, sizeof path, "/tmp/skiff-rdma-idle.%ld", (long)getpid());
        CHECK_MSG(mkfifo(path, 0600) == 0, "mkfifo %s failed", path);
    }
    CHECK_MPI(MPI_Bcast(path, sizeof path, MPI_CHAR, 1, MPI_COMM_WORLD));
    int *mem, *src = tu_malloc(sizeof(int) * N), *got = tu_malloc(sizeof(int) * N);
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(sizeof(int) * N, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    for (int i = 0; i < N; i++) {
        mem[i] = -1;
        src[i] = i * 3 + 1;
    }
    CHECK_MPI(MPI_Win_unlock(rank, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* every window initialized */
    if (rank == 1) {
        int fd = open(path, O_RDONLY); /* blocks until rank 0 opens it: outside MPI */
        char c = 0;
        CHECK_MSG(fd >= 0 && read(fd, &c, 1) == 1 && c == 'x', "reading %s failed", path);
        close(fd);
        unlink(path);
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
        for (int i = 0; i < N; i++)
            if (mem[i] != i * 3 + 1) {
                CHECK_MSG(0, "element %d is %d, expected %d", i, mem[i], i * 3 + 1);
                break;
            }
        CHECK_MPI(MPI_Win_unlock(1, win));
    } else if (rank == 0) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, MPI_MODE_NOCHECK, win));
        CHECK_MPI(MPI_Put(src, N, MPI_INT, 1, 0, N, MPI_INT, win));
        CHECK_MPI(MPI_Win_flush(1, win));
        CHECK_MPI(MPI_Get(got, N, MPI_INT, 1, 0, N, MPI_INT, win));
        CHECK_MPI(MPI_Win_unlock(1, win));
        unsigned long long moved = tu_counter_read(&rdma);
        if (tu_counter_on(&rdma) && expect_rdma)
            CHECK_MSG(moved == 2, "%llu transfers by RDMA, expected 2", moved);
        for (int i = 0; i < N; i++)
            if (got[i] != i * 3 + 1) {
                CHECK_MSG(0, "got element %d = %d, expected %d", i, got[i], i * 3 + 1);
                break;
            }
        int fd = open(path, O_WRONLY);
        CHECK_MSG(fd >= 0 && write(fd, "x", 1) == 1, "writing %s failed", path);
        close(fd);
    }
    CHECK_MPI(MPI_Win_free(&win));
    tu_counter_close(&rdma);
    free(src);
    free(got);
    return tu_finish("rma_rdma_idle");
}
