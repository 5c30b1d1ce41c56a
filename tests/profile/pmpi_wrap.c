/* An external profiler in the classic PMPI style: the program defines MPI_Send, MPI_Recv, MPI_Barrier
 * and MPI_Finalize itself, counts, and calls PMPI_X. The library's MPI_X are weak aliases of its
 * PMPI_X, so these definitions win, and the built-in profiler (when on) still sees each call once. */
#include <mpi.h>
#include <stdio.h>

static int sends, recvs, barriers;

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    sends++;
    return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    recvs++;
    return PMPI_Recv(buf, count, datatype, source, tag, comm, status);
}

int MPI_Barrier(MPI_Comm comm)
{
    barriers++;
    return PMPI_Barrier(comm);
}

/* Where such a profiler reports: before the library shuts down. */
int MPI_Finalize(void)
{
    int rank, size;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    int want_sends = rank == 0 ? 20 * (size - 1) : 20, want_recvs = want_sends;
    if (sends != want_sends || recvs != want_recvs || barriers != 3) {
        printf("FAIL [rank %d] wrappers counted %d sends (want %d), %d receives (want %d), %d barriers (want 3)\n",
               rank, sends, want_sends, recvs, want_recvs, barriers);
        fflush(stdout);
        PMPI_Abort(MPI_COMM_WORLD, 1);
    }
    return PMPI_Finalize();
}

int main(int argc, char **argv)
{
    int rank, size, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    /* Rank 0 talks to every other rank, 20 round trips each. */
    for (int peer = 1; peer < size; peer++) {
        for (int i = 0; i < 20 && (rank == 0 || rank == peer); i++) {
            if (rank == 0) {
                MPI_Send(&x, 1, MPI_INT, peer, 1, MPI_COMM_WORLD);
                MPI_Recv(&x, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                x++;
                MPI_Send(&x, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
            }
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && x != 20 * (size - 1)) {
        printf("FAIL [rank 0] the last reply was %d, want %d\n", x, 20 * (size - 1));
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Finalize();
    if (rank == 0)
        printf("OK pmpi_wrap\n");
    return 0;
}
