/* skiff bench/send_beside_wait.c — what a thread's MPI_Send costs while another thread of its rank waits
 * in MPI_Recv (MPI_THREAD_MULTIPLE).
 *
 * Written against the MPI API only, so the same source builds with skiff's, MPICH's and Open MPI's mpicc.
 * Two ranks. On rank 0 one thread waits in MPI_Recv for a message that comes only at the end, while a
 * second thread sends N 8-byte messages to rank 1 with MPI_Send, in windows of 64 that rank 1 answers
 * with a 4-byte ack (so the sender never runs far ahead). Rank 1 receives with one thread. Rank 0 prints
 *
 *   send_beside_wait <usec per message>
 *
 * A library whose sends need the lock that the waiting thread holds while it sleeps pays for waking it
 * (or for its polling) on every send; docs/per-communicator-locks.md, "The first slice".
 *
 * Usage: mpiexec -n 2 send_beside_wait [windows] (default 2000) */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define WINDOW 64
#define TAG_DATA 1
#define TAG_ACK 2
#define TAG_END 3

static int windows = 2000;

static void *waiter(void *arg)
{
    (void)arg;
    int end = 0;
    MPI_Recv(&end, 1, MPI_INT, 1, TAG_END, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = 0, rank = 0, size = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1)
        windows = atoi(argv[1]);
    if (provided != MPI_THREAD_MULTIPLE || size != 2 || windows < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n 2 %s [windows] (needs MPI_THREAD_MULTIPLE)\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double msg = 0, t0 = 0, t1 = 0;
    int ack = 0, end = 1;
    pthread_t th;
    if (rank == 0 && pthread_create(&th, NULL, waiter, NULL) != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int w = -1; w < windows; w++) { /* window -1 warms up */
        if (w == 0)
            t0 = MPI_Wtime();
        for (int i = 0; i < WINDOW; i++) {
            if (rank == 0)
                MPI_Send(&msg, 1, MPI_DOUBLE, 1, TAG_DATA, MPI_COMM_WORLD);
            else
                MPI_Recv(&msg, 1, MPI_DOUBLE, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        if (rank == 0)
            MPI_Recv(&ack, 1, MPI_INT, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else
            MPI_Send(&ack, 1, MPI_INT, 0, TAG_ACK, MPI_COMM_WORLD);
    }
    t1 = MPI_Wtime();
    if (rank == 1)
        MPI_Send(&end, 1, MPI_INT, 0, TAG_END, MPI_COMM_WORLD);
    else
        pthread_join(th, NULL);
    if (rank == 0)
        printf("send_beside_wait %.3f\n", (t1 - t0) * 1e6 / ((double)windows * WINDOW));
    MPI_Finalize();
    return 0;
}
