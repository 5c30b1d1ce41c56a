/* partitioned_threads — partitioned point-to-point with several threads marking partitions, as
 * MPI_THREAD_SERIALIZED allows: every MPI call of a worker thread is made under one user mutex, so no two
 * threads are ever inside MPI at once (skiff provides up to MPI_THREAD_SERIALIZED).
 *
 * Every rank sends to its right neighbour and receives from its left one (itself at np 1). Per round,
 * after the main thread starts both requests, THREADS workers each fill their own send partitions (every
 * THREADS-th one, 4 each) and mark them ready: one MPI_Pready per partition, or one MPI_Pready_list per
 * thread, or MPI_Pready_range over a block of its own (the round says which); then each polls
 * MPI_Parrived on its share of the receive partitions (the receiver cuts the buffer in 2*THREADS, not
 * 4*THREADS) and checks each as it arrives. The main thread joins them, completes both requests with
 * MPI_Wait and checks the whole buffer. 4 rounds on the same requests.
 *
 * MPICH 4.0 implements these calls. Open MPI 4.1 (Debian 12's 4.1.4) is an MPI-3.1 library without them
 * (its part/persist component came with 5.0): below MPI_VERSION 4 the test has nothing to check.
 */
#include "testutil.h"

#include <pthread.h>

#define NAME "partitioned_threads"
#define THREADS 4
#define PER_THREAD 4
#define SPARTS (THREADS * PER_THREAD)
#define RPARTS (2 * THREADS)
#define PER_SPART 5
#define TOTAL (SPARTS * PER_SPART)
#define ROUNDS 4
#define TAG 21

#if MPI_VERSION >= 4

static pthread_mutex_t mpi_lock = PTHREAD_MUTEX_INITIALIZER;
static int sbuf[TOTAL], rbuf[TOTAL];
static MPI_Request sreq, rreq;
static int g_rank, g_left, g_round;

static int value(int sender, int round, int k)
{
    return sender * 100000 + round * 1000 + k;
}

/* Send partitions of thread t: t, t + THREADS, ...; in a Pready_range round, the block t*4 .. t*4+3. */
static int spart(int t, int j)
{
    return g_round % 3 == 2 ? t * PER_THREAD + j : t + j * THREADS;
}

static void mark(int t)
{
    int list[PER_THREAD];
    for (int j = 0; j < PER_THREAD; j++) {
        int i = spart(t, j);
        for (int k = i * PER_SPART; k < (i + 1) * PER_SPART; k++)
            sbuf[k] = value(g_rank, g_round, k);
        list[j] = i;
    }
    pthread_mutex_lock(&mpi_lock);
    if (g_round % 3 == 0) {
        for (int j = PER_THREAD - 1; j >= 0; j--)
            CHECK_MPI(MPI_Pready(list[j], sreq));
    } else if (g_round % 3 == 1) {
        CHECK_MPI(MPI_Pready_list(PER_THREAD, list, sreq));
    } else {
        CHECK_MPI(MPI_Pready_range(t * PER_THREAD, t * PER_THREAD + PER_THREAD - 1, sreq));
    }
    pthread_mutex_unlock(&mpi_lock);
}

/* Receive partitions t and t + THREADS. */
static void poll(int t)
{
    int seen[2] = {0, 0}, remaining = 2;
    unsigned polls = 0;
    while (remaining) {
        int got = 0;
        for (int j = 0; j < 2; j++) {
            int i = t + j * THREADS, flag = 0;
            if (seen[j])
                continue;
            pthread_mutex_lock(&mpi_lock);
            CHECK_MPI(MPI_Parrived(rreq, i, &flag));
            pthread_mutex_unlock(&mpi_lock);
            if (!flag)
                continue;
            int per = TOTAL / RPARTS;
            for (int k = i * per; k < (i + 1) * per; k++)
                CHECK_MSG(rbuf[k] == value(g_left, g_round, k), "round %d, receive partition %d: rbuf[%d] = %d, "
                          "expected %d", g_round, i, k, rbuf[k], value(g_left, g_round, k));
            seen[j] = 1;
            remaining--;
            got = 1;
        }
        if (!got)
            tu_poll_pause(&polls);
    }
}

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    mark(t);
    poll(t);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = 0;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided));
    CHECK_GE(MPI_THREAD_SERIALIZED, provided);
    int size = tu_size();
    g_rank = tu_rank();
    g_left = (g_rank + size - 1) % size;
    CHECK_MPI(MPI_Precv_init(rbuf, RPARTS, TOTAL / RPARTS, MPI_INT, g_left, TAG, MPI_COMM_WORLD, MPI_INFO_NULL,
                             &rreq));
    CHECK_MPI(MPI_Psend_init(sbuf, SPARTS, PER_SPART, MPI_INT, (g_rank + 1) % size, TAG, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &sreq));
    for (g_round = 0; g_round < ROUNDS; g_round++) {
        for (int k = 0; k < TOTAL; k++)
            rbuf[k] = -1;
        MPI_Request both[2] = {rreq, sreq};
        CHECK_MPI(MPI_Startall(2, both));
        pthread_t th[THREADS];
        for (int t = 0; t < THREADS; t++)
            CHECK_EQ(0, pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t));
        for (int t = 0; t < THREADS; t++)
            CHECK_EQ(0, pthread_join(th[t], NULL));
        CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
        for (int k = 0; k < TOTAL; k++)
            CHECK_EQ(value(g_left, g_round, k), rbuf[k]);
    }
    CHECK_MPI(MPI_Request_free(&sreq));
    CHECK_MPI(MPI_Request_free(&rreq));
    return tu_finish(NAME);
}

#else

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    if (tu_rank() == 0)
        printf("%s: MPI_VERSION %d has no partitioned communication: nothing to check\n", NAME, MPI_VERSION);
    return tu_finish(NAME);
}

#endif
