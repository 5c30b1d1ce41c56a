/* skiff bench/calls_ir.c — a fixed sequence of point-to-point calls, for instruction counts
 * (valgrind --tool=callgrind), where wall-clock latency is too noisy to compare two builds or two
 * thread levels within a few percent.
 *
 * One rank sends to itself N times: MPI_Irecv, MPI_Send, MPI_Wait, 8 bytes. Nothing ever waits (the
 * message is there when MPI_Wait looks), so the count is the same in every run: the entry points,
 * argument checks, matching and request handling of a ping-pong's calls, without its polling.
 *
 *   calls_ir N [--multiple]   (--multiple: MPI_Init_thread with MPI_THREAD_MULTIPLE, else SINGLE)
 *
 * Per iteration: (Ir at 2N - Ir at N) / N, which cancels MPI_Init and MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000, provided = -1;
    int multiple = argc > 2 && strcmp(argv[2], "--multiple") == 0;
    MPI_Init_thread(&argc, &argv, multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
    if (multiple && provided != MPI_THREAD_MULTIPLE)
        MPI_Abort(MPI_COMM_WORLD, 1);
    double out = 1.0, in = 0.0;
    for (int i = 0; i < n; i++) {
        MPI_Request r;
        MPI_Irecv(&in, 1, MPI_DOUBLE, 0, 7, MPI_COMM_SELF, &r);
        MPI_Send(&out, 1, MPI_DOUBLE, 0, 7, MPI_COMM_SELF);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    printf("calls_ir %d %s %g\n", n, multiple ? "multiple" : "single", in);
    MPI_Finalize();
    return 0;
}
