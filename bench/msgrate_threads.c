/* skiff bench/msgrate_threads.c — message rate with T threads per rank (MPI_THREAD_MULTIPLE).
 *
 * Written against the MPI API only, so the same source builds with skiff's, MPICH's and Open MPI's mpicc.
 * Two ranks; each runs T threads (argv[1], default 1). Thread t of rank 0 streams 8-byte messages to
 * thread t of rank 1 in windows of 64 Isends matched by 64 pre-posted Irecvs, then waits for a 4-byte
 * ack, on a communicator of its own (--shared: all threads on MPI_COMM_WORLD, told apart by tag).
 * The threads start together (a barrier on each rank, then MPI_Barrier) and rank 0 prints
 *
 *   rate <threads> <messages per second, all threads together>
 *
 * Usage: mpiexec -n 2 msgrate_threads [threads] [--shared] [--windows N] */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 64
#define MAXT 16

static int rank, nthreads = 1, windows = 2000, shared;
static MPI_Comm comm[MAXT];
static pthread_barrier_t start;

static void *stream(void *arg)
{
    int t = (int)(long)arg, tag = shared ? t : 0;
    MPI_Comm c = comm[t];
    MPI_Request r[WINDOW];
    MPI_Status st[WINDOW]; /* not MPI_STATUSES_IGNORE: MPICH's header makes gcc warn about it */
    double buf[WINDOW];
    int ack = 0;
    pthread_barrier_wait(&start);
    for (int w = 0; w < windows; w++) {
        for (int i = 0; i < WINDOW; i++) {
            if (rank == 0)
                MPI_Isend(&buf[i], 1, MPI_DOUBLE, 1, tag, c, &r[i]);
            else
                MPI_Irecv(&buf[i], 1, MPI_DOUBLE, 0, tag, c, &r[i]);
        }
        MPI_Waitall(WINDOW, r, st);
        if (rank == 0)
            MPI_Recv(&ack, 1, MPI_INT, 1, tag + MAXT, c, MPI_STATUS_IGNORE);
        else
            MPI_Send(&ack, 1, MPI_INT, 0, tag + MAXT, c);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--shared") == 0)
            shared = 1;
        else if (strcmp(argv[i], "--windows") == 0 && i + 1 < argc)
            windows = atoi(argv[++i]);
        else
            nthreads = atoi(argv[i]);
    }
    if (provided != MPI_THREAD_MULTIPLE || size != 2 || nthreads < 1 || nthreads > MAXT) {
        if (rank == 0)
            fprintf(stderr, "msgrate_threads: needs MPI_THREAD_MULTIPLE (got %d), 2 ranks (got %d), 1..%d threads\n",
                    provided, size, MAXT);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int t = 0; t < nthreads; t++) {
        if (shared)
            comm[t] = MPI_COMM_WORLD;
        else
            MPI_Comm_dup(MPI_COMM_WORLD, &comm[t]);
    }
    pthread_barrier_init(&start, NULL, (unsigned)nthreads + 1);
    pthread_t th[MAXT];
    for (int t = 0; t < nthreads; t++)
        pthread_create(&th[t], NULL, stream, (void *)(long)t);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    pthread_barrier_wait(&start);
    for (int t = 0; t < nthreads; t++)
        pthread_join(th[t], NULL);
    double dt = MPI_Wtime() - t0;
    if (rank == 0)
        printf("rate %d %.0f\n", nthreads, (double)nthreads * windows * WINDOW / dt);
    for (int t = 0; t < nthreads && !shared; t++)
        MPI_Comm_free(&comm[t]);
    pthread_barrier_destroy(&start);
    MPI_Finalize();
    return 0;
}
