/* What a message on one communicator costs while other communicators hold many that wait. Before each
 * timing, every rank of the pair sends QUEUED messages on communicator A that its partner has not asked
 * for yet (the partner's unexpected queue) and posts QUEUED receives on communicator C that nothing will
 * match (its posted queue); then the two ping-pong 8 bytes on communicator B, and the queued messages are
 * received and the receives cancelled. A library that keeps one matching list walks past the waiting
 * entries at every receive and arrival; one that keeps them per communicator does not.
 *
 *   mpiexec -n 2 skiff-bench-match-comms [QUEUED...]     (default 0 100 1000 10000)
 *
 * Prints, for each QUEUED, the ping-pong's half round trip in microseconds (the best of 5 timings of 2000
 * round trips). Built with each library's mpicc: docs/performance.md, "Matching with many communicators". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { ITERS = 2000, TRIES = 5 };

static double pingpong(MPI_Comm b, int rank)
{
    char buf[8] = {0};
    int peer = 1 - rank;
    MPI_Barrier(b);
    double t0 = MPI_Wtime();
    for (int i = 0; i < ITERS; i++) {
        if (rank == 0) {
            MPI_Send(buf, 8, MPI_CHAR, peer, 1, b);
            MPI_Recv(buf, 8, MPI_CHAR, peer, 1, b, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, 8, MPI_CHAR, peer, 1, b, MPI_STATUS_IGNORE);
            MPI_Send(buf, 8, MPI_CHAR, peer, 1, b);
        }
    }
    return (MPI_Wtime() - t0) / ITERS / 2 * 1e6;
}

static double with_queued(int queued, MPI_Comm a, MPI_Comm b, MPI_Comm c, int rank)
{
    int peer = 1 - rank, *in = malloc(sizeof(int) * (size_t)(queued + 1));
    MPI_Request *posted = malloc(sizeof(MPI_Request) * (size_t)(queued + 1));
    for (int i = 0; i < queued; i++)
        MPI_Send(&i, 1, MPI_INT, peer, 7, a);
    for (int i = 0; i < queued; i++)
        MPI_Irecv(&in[i], 1, MPI_INT, peer, 9, c, &posted[i]);
    MPI_Barrier(b); /* the partner's messages on a have arrived: its sends are done */
    double best = 1e30;
    for (int t = 0; t < TRIES; t++) {
        double us = pingpong(b, rank);
        best = us < best ? us : best;
    }
    for (int i = 0; i < queued; i++) {
        MPI_Cancel(&posted[i]);
        MPI_Wait(&posted[i], MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < queued; i++)
        MPI_Recv(&in[i], 1, MPI_INT, peer, 7, a, MPI_STATUS_IGNORE);
    free(in);
    free(posted);
    return best;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "match-comms: run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm a, b, c;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    static const int dflt[] = {0, 100, 1000, 10000};
    int n = argc > 1 ? argc - 1 : 4;
    if (rank == 0)
        printf("# queued  half-round-trip-us\n");
    for (int i = 0; i < n; i++) {
        int queued = argc > 1 ? atoi(argv[i + 1]) : dflt[i];
        double us = with_queued(queued, a, b, c, rank);
        if (rank == 0)
            printf("%8d  %.3f\n", queued, us);
    }
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    MPI_Comm_free(&c);
    MPI_Finalize();
    return 0;
}
