/* skiff bench/calls_ir.c — a fixed sequence of point-to-point calls, for instruction counts
 * (valgrind --tool=callgrind), where wall-clock latency is too noisy to compare two builds or two
 * thread levels within a few percent.
 *
 * One rank sends to itself N times: MPI_Irecv, MPI_Send, MPI_Wait, 8 bytes. Nothing ever waits (the
 * message is there when MPI_Wait looks), so the count is the same in every run: the entry points,
 * argument checks, matching and request handling of a ping-pong's calls, without its polling.
 * With --isend the send is MPI_Isend and both requests end in one MPI_Waitall: a message-rate loop's
 * calls.
 *
 *   calls_ir N [--multiple] [--isend]   (--multiple: MPI_Init_thread with MPI_THREAD_MULTIPLE, else SINGLE)
 *
 * Per iteration: (Ir at 2N - Ir at N) / N, which cancels MPI_Init and MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000, provided = -1;
    int multiple = 0, isend = 0;
    for (int a = 2; a < argc; a++) {
        multiple |= strcmp(argv[a], "--multiple") == 0;
        isend |= strcmp(argv[a], "--isend") == 0;
    }
    MPI_Init_thread(&argc, &argv, multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
    if (multiple && provided != MPI_THREAD_MULTIPLE)
        MPI_Abort(MPI_COMM_WORLD, 1);
    double out = 1.0, in = 0.0;
    for (int i = 0; i < n; i++) {
        MPI_Request r[2];
        MPI_Irecv(&in, 1, MPI_DOUBLE, 0, 7, MPI_COMM_SELF, &r[0]);
        if (isend) {
            MPI_Isend(&out, 1, MPI_DOUBLE, 0, 7, MPI_COMM_SELF, &r[1]);
            MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        } else {
            MPI_Send(&out, 1, MPI_DOUBLE, 0, 7, MPI_COMM_SELF);
            MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        }
    }
    printf("calls_ir %d %s%s %g\n", n, multiple ? "multiple" : "single", isend ? " isend" : "", in);
    MPI_Finalize();
    return 0;
}
