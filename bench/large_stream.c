/* skiff bench/large_stream.c — large-message streaming between two ranks, for bench/ucx-inplace.sh.
 * Windows of 4 Isends (rank 0) matched by pre-posted Irecvs (rank 1) of argv[1] bytes each (default
 * 16 MiB), one warm-up window and argv[2] timed ones (default 8), each closed by a 4-byte ack; rank 0
 * prints GB/s (1e9 B/s). MPI API only: builds with any MPI. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 4

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 16u << 20;
    int reps = argc > 2 ? atoi(argv[2]) : 8;
    char *b = malloc(n * WINDOW);
    if (!b)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(b, rank + 1, n * WINDOW);
    MPI_Request r[WINDOW];
    double t0 = 0;
    for (int it = -1; it < reps; it++) {
        if (it == 0)
            t0 = MPI_Wtime();
        for (int k = 0; k < WINDOW && rank < 2; k++) {
            if (rank == 0)
                MPI_Isend(b + (size_t)k * n, (int)n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &r[k]);
            else
                MPI_Irecv(b + (size_t)k * n, (int)n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &r[k]);
        }
        if (rank < 2)
            MPI_Waitall(WINDOW, r, MPI_STATUSES_IGNORE);
        int ack = 0;
        if (rank == 0)
            MPI_Recv(&ack, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else if (rank == 1)
            MPI_Send(&ack, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    if (rank == 0)
        printf("%.3f\n", (double)n * WINDOW * reps / (MPI_Wtime() - t0) / 1e9);
    free(b);
    MPI_Finalize();
    return 0;
}
