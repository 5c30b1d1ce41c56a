/* MPI_THREAD_MULTIPLE under the profiler (tests/profile/check_profile.py, mode threads): each of
 * NTHREADS threads per rank, on a communicator of its own, sends ROUNDS messages of 8 * (t + 1) bytes to
 * the next rank and receives as many from the previous one, and calls MPI_Comm_rank RANKS times. The
 * profiler keeps a table per thread: threads 0 and 1 exit before MPI_Finalize (their counts must survive
 * their exit), threads 2 and 3 stay alive, idle, until after it (their tables are summed in place). The
 * report must count every call of every thread. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NTHREADS 4
#define ROUNDS 100
#define RANKS 250

static MPI_Comm comms[NTHREADS];
static int rank, size;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t finalized_cv = PTHREAD_COND_INITIALIZER;
static int finalized, finished;

static void *work(void *arg)
{
    int t = (int)(long)arg, r;
    char out[8 * NTHREADS], in[8 * NTHREADS];
    for (int i = 0; i < (int)sizeof out; i++)
        out[i] = (char)(rank + i);
    for (int i = 0; i < RANKS; i++)
        MPI_Comm_rank(comms[t], &r);
    for (int i = 0; i < ROUNDS; i++) {
        MPI_Request q;
        MPI_Irecv(in, 8 * (t + 1), MPI_CHAR, (rank + size - 1) % size, i, comms[t], &q);
        MPI_Send(out, 8 * (t + 1), MPI_CHAR, (rank + 1) % size, i, comms[t]);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        if (in[0] != (char)((rank + size - 1) % size)) {
            printf("FAIL: thread %d round %d got data of rank %d\n", t, i, in[0]);
            exit(1);
        }
    }
    pthread_mutex_lock(&lock);
    finished++;
    pthread_cond_broadcast(&finalized_cv);
    if (t >= 2)
        while (!finalized)
            pthread_cond_wait(&finalized_cv, &lock);
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided != MPI_THREAD_MULTIPLE) {
        printf("FAIL: provided %d\n", provided);
        return 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int t = 0; t < NTHREADS; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; t++)
        pthread_create(&th[t], NULL, work, (void *)(long)t);
    for (int t = 0; t < 2; t++)
        pthread_join(th[t], NULL);
    pthread_mutex_lock(&lock);
    while (finished < NTHREADS)
        pthread_cond_wait(&finalized_cv, &lock);
    pthread_mutex_unlock(&lock);
    for (int t = 0; t < NTHREADS; t++)
        MPI_Comm_free(&comms[t]);
    MPI_Finalize();
    pthread_mutex_lock(&lock);
    finalized = 1;
    pthread_cond_broadcast(&finalized_cv);
    pthread_mutex_unlock(&lock);
    for (int t = 2; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    if (rank == 0)
        printf("OK prof_threads np=%d\n", size);
    return 0;
}
