/* A known set of calls for the tracer's tests (tests/trace/check_trace.py counts them back):
 *   rank 0 -> rank 1: 5 x MPI_Send of 1000 bytes, tag 7 (received with MPI_ANY_SOURCE, MPI_ANY_TAG);
 *   every rank: MPI_Isend of 64 bytes to the next rank and MPI_Irecv from the previous, tag 3, one MPI_Waitall;
 *   MPI_Bcast of 100 bytes from root 1 (np >= 2) on MPI_COMM_WORLD: a binomial tree;
 *   MPI_Barrier, MPI_Allreduce of one double;
 *   MPI_Comm_split into even and odd ranks, MPI_Bcast of 8 bytes from root 0 there, MPI_Comm_free.
 * It works at any np >= 2. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char buf[1000];
    memset(buf, rank, sizeof buf);
    for (int i = 0; i < 5; i++) {
        if (rank == 0)
            MPI_Send(buf, 1000, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
        else if (rank == 1)
            MPI_Recv(buf, 1000, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    char out[64], in[64];
    MPI_Request req[2];
    MPI_Isend(out, 64, MPI_BYTE, (rank + 1) % size, 3, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(in, 64, MPI_BYTE, (rank + size - 1) % size, 3, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    MPI_Bcast(buf, 100, MPI_BYTE, 1, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    double x = rank, sum;
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Bcast(buf, 8, MPI_BYTE, 0, half);
    MPI_Comm_free(&half);
    if (sum != size * (size - 1) / 2.0)
        printf("rank %d: wrong sum %g\n", rank, sum);
    MPI_Finalize();
    return 0;
}
