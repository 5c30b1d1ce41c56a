/* What waking the right thread costs under MPI_THREAD_MULTIPLE: one int passed from thread to thread of
 * rank 0 (a send to its own rank), from rank 0's last thread to rank 1's first, and so on round the ring of
 * every thread of every rank, for LAPS laps (default 300). All but one thread of each rank wait in MPI_Recv
 * at any moment, so each hop is one thread's completion that must wake another. Prints microseconds per
 * hop. The pattern of tests/mpi/threads.c's relay mode, timed; built with each library's mpicc:
 * docs/performance.md, "A token relay along every thread". */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NT 4

static int rank, size, laps = 300;

static void *relay(void *arg)
{
    int t = (int)(long)arg, hops = NT * size, me = rank * NT + t;
    int next = t == NT - 1 ? (rank + 1) % size : rank, prev = t == 0 ? (rank + size - 1) % size : rank;
    for (int lap = 0; lap < laps; lap++) {
        int token = 0;
        if (me != 0 || lap != 0)
            MPI_Recv(&token, 1, MPI_INT, prev, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (token != lap * hops + me) {
            fprintf(stderr, "rank %d thread %d: token %d, expected %d\n", rank, t, token, lap * hops + me);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        token++;
        MPI_Send(&token, 1, MPI_INT, next, (t + 1) % NT, MPI_COMM_WORLD);
    }
    if (me == 0) { /* the last lap's token comes home */
        int token;
        MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1)
        laps = atoi(argv[1]);
    if (provided < MPI_THREAD_MULTIPLE || laps < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n N %s [laps] (needs MPI_THREAD_MULTIPLE)\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    pthread_t th[NT];
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long t = 0; t < NT; t++)
        if (pthread_create(&th[t], NULL, relay, (void *)t) != 0)
            MPI_Abort(MPI_COMM_WORLD, 3);
    for (int t = 0; t < NT; t++)
        pthread_join(th[t], NULL);
    double s = MPI_Wtime() - t0;
    if (rank == 0)
        printf("threads %d per rank, ranks %d, laps %d: %.1f us per hop\n", NT, size, laps,
               s / ((double)laps * NT * size) * 1e6);
    MPI_Finalize();
    return 0;
}
