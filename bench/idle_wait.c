/* What a wait costs a rank while nothing arrives, under MPI_THREAD_MULTIPLE: rank 0 waits in MPI_Recv
 * from N threads (default 1, at most 8) for messages that rank 1 sends after sleeping one second, and
 * prints rank 0's CPU time and voluntary context switches over the wait (getrusage). A library that
 * spins shows a second of CPU per waiting thread; one that sleeps, a few milliseconds.
 * Built with each library's mpicc: docs/performance.md, "What an idle wait costs under MULTIPLE". */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#define MAX_THREADS 8

static void *waiter(void *arg)
{
    int x;
    MPI_Recv(&x, 1, MPI_INT, 1, *(int *)arg, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return NULL;
}

static double cpu_seconds(const struct rusage *u)
{
    return (double)(u->ru_utime.tv_sec + u->ru_stime.tv_sec) + 1e-6 * (double)(u->ru_utime.tv_usec + u->ru_stime.tv_usec);
}

int main(int argc, char **argv)
{
    int provided, rank, size, nthr = argc > 1 ? atoi(argv[1]) : 1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided < MPI_THREAD_MULTIPLE || size != 2 || nthr < 1 || nthr > MAX_THREADS) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n 2 %s [threads 1-%d] (needs MPI_THREAD_MULTIPLE)\n", argv[0], MAX_THREADS);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        sleep(1);
        for (int t = 0; t < nthr; t++)
            MPI_Send(&t, 1, MPI_INT, 0, t, MPI_COMM_WORLD);
    } else {
        struct rusage before, after;
        pthread_t th[MAX_THREADS];
        int tags[MAX_THREADS];
        getrusage(RUSAGE_SELF, &before);
        for (int t = 0; t < nthr; t++) {
            tags[t] = t;
            if (pthread_create(&th[t], NULL, waiter, &tags[t]) != 0)
                MPI_Abort(MPI_COMM_WORLD, 3);
        }
        for (int t = 0; t < nthr; t++)
            pthread_join(th[t], NULL);
        getrusage(RUSAGE_SELF, &after);
        printf("threads %d: cpu %.3f s, voluntary switches %ld\n", nthr, cpu_seconds(&after) - cpu_seconds(&before),
               after.ru_nvcsw - before.ru_nvcsw);
    }
    MPI_Finalize();
    return 0;
}
