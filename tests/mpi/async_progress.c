/* Progress without MPI calls (SKIFF_ASYNC_PROGRESS=1): rank 0 starts an operation that the other ranks
 * can only finish if rank 0's side moves, then leaves MPI and blocks in poll() on a datagram socket
 * until every other rank says, through that socket, that its part completed (and checked its data). It
 * never calls MPI meanwhile, so the others finish only if something inside rank 0's process makes
 * progress by itself: the test passes with a progress thread whenever it runs, and without one rank 0
 * gives up after LIMIT seconds (a generous bound for a failure report only; nothing depends on timing
 * when progress happens). The others likewise post their side only after rank 0 said, through the
 * socket, that it is out of MPI, so nothing can have arrived while rank 0 was still inside a call.
 *
 *   recv      rank 0 posts MPI_Irecv of a rendezvous-size message; rank 1 MPI_Send's it (a blocking
 *             rendezvous send returns only once rank 0's side took the data, by any protocol)
 *   send      rank 0 MPI_Isend's one; rank 1 MPI_Recv's it (needs rank 0 to answer the handshake and
 *             send the data, unless the receiver can pull it itself: run with SKIFF_SHM_CMA=0)
 *   ibarrier  everyone MPI_Ibarrier (np >= 3: the others need rank 0 to relay a later round)
 *   iallreduce  everyone MPI_Iallreduce of BIG ints (np >= 3)
 *   rma       passive target: the others lock rank 0's window (MPI_Win_create on private memory; with
 *             SKIFF_SHM_CMA=0 skiff's operations on it are messages that the target must answer),
 *             accumulate, unlock, lock, get, unlock
 *
 * MPICH 4.0 passes with MPICH_ASYNC_PROGRESS=1 (every mode; it then reports MPI_THREAD_MULTIPLE from
 * MPI_Query_thread, which skiff does not) and fails, as intended, without. */
#define _GNU_SOURCE /* abstract unix socket names */
#include "testutil.h"

#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define BIG (1 << 20) /* ints: 4 MiB, above every eager limit */
#define TAG 5
#define LIMIT_MS 60000

static int rank, size, sock = -1;
static long job;

static socklen_t addr_of(int r, struct sockaddr_un *a)
{
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    int n = snprintf(a->sun_path + 1, sizeof a->sun_path - 1, "skiff-async-test.%ld.%d", job, r);
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
}

/* Every rank's socket, named after rank 0's pid (broadcast) and the rank; a barrier after, so all exist. */
static void open_side_channel(void)
{
    struct sockaddr_un a;
    job = (long)getpid();
    MPI_Bcast(&job, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    sock = socket(AF_UNIX, SOCK_DGRAM, 0);
    CHECK_MSG(sock >= 0 && bind(sock, (struct sockaddr *)&a, addr_of(rank, &a)) == 0, "side channel: %s",
              strerror(errno));
    MPI_Barrier(MPI_COMM_WORLD);
}

static void tell(int r)
{
    struct sockaddr_un a;
    char one = 1;
    socklen_t len = addr_of(r, &a);
    CHECK_MSG(sendto(sock, &one, 1, 0, (struct sockaddr *)&a, len) == 1, "side channel send: %s", strerror(errno));
}

/* Blocks outside MPI until n datagrams came, or fails after LIMIT_MS with no news. */
static void hear(int n, const char *what)
{
    char buf[8];
    for (int got = 0; got < n; got++) {
        struct pollfd p = {sock, POLLIN, 0};
        int k = poll(&p, 1, LIMIT_MS);
        CHECK_MSG(k == 1, "%d of %d ranks finished %s while rank 0 stayed out of MPI for %d s: no progress "
                  "without MPI calls (is SKIFF_ASYNC_PROGRESS=1 set?)", got, n, what, LIMIT_MS / 1000);
        CHECK(recv(sock, buf, sizeof buf, 0) == 1);
    }
}

/* Rank 0 is out of MPI from here until the others told it they are done. */
static void rank0_blocks(const char *what)
{
    for (int r = 1; r < size; r++)
        tell(r);
    hear(size - 1, what);
}

static void fill(int *v, int n, int seed)
{
    for (int i = 0; i < n; i++)
        v[i] = seed * 7919 + i;
}

static void check_fill(const int *v, int n, int seed, const char *what)
{
    for (int i = 0; i < n; i++)
        CHECK_MSG(v[i] == seed * 7919 + i, "%s: element %d is %d, expected %d", what, i, v[i], seed * 7919 + i);
}

static void mode_p2p(int rank0_receives)
{
    int *buf = malloc(sizeof(int) * BIG);
    MPI_Request r = MPI_REQUEST_NULL;
    CHECK(buf != NULL);
    if (rank == 0) {
        if (rank0_receives) {
            MPI_Irecv(buf, BIG, MPI_INT, 1, TAG, MPI_COMM_WORLD, &r);
        } else {
            fill(buf, BIG, 3);
            MPI_Isend(buf, BIG, MPI_INT, 1, TAG, MPI_COMM_WORLD, &r);
        }
        rank0_blocks(rank0_receives ? "a rendezvous send to rank 0" : "a rendezvous receive from rank 0");
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        if (rank0_receives)
            check_fill(buf, BIG, 3, "received");
    } else if (rank == 1) {
        hear(1, "rank 0's post");
        if (rank0_receives) {
            fill(buf, BIG, 3);
            MPI_Send(buf, BIG, MPI_INT, 0, TAG, MPI_COMM_WORLD);
        } else {
            MPI_Recv(buf, BIG, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            check_fill(buf, BIG, 3, "received");
        }
        tell(0);
    } else {
        hear(1, "rank 0's post");
        tell(0);
    }
    free(buf);
}

static void mode_icoll(int allreduce)
{
    int n = allreduce ? BIG : 0;
    int *in = malloc(sizeof(int) * (size_t)(n + 1)), *out = malloc(sizeof(int) * (size_t)(n + 1));
    MPI_Request r;
    CHECK(in && out);
    for (int i = 0; i < n; i++)
        in[i] = rank + i % 1000;
    if (rank != 0)
        hear(1, "rank 0's post");
    if (allreduce)
        MPI_Iallreduce(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
    else
        MPI_Ibarrier(MPI_COMM_WORLD, &r);
    if (rank == 0) {
        rank0_blocks(allreduce ? "MPI_Iallreduce" : "MPI_Ibarrier");
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < n; i++)
        CHECK_EQ((long long)size * (size - 1) / 2 + (long long)size * (i % 1000), out[i]);
    if (rank != 0)
        tell(0);
    free(in);
    free(out);
}

static void mode_rma(void)
{
    long long *base = malloc(2 * sizeof(long long)), got[2] = {0, 0}, add[2] = {5, 6};
    MPI_Win w;
    CHECK(base != NULL);
    /* MPI_Win_create on private memory: with SKIFF_SHM_CMA=0 every operation is a message to the target. */
    MPI_Win_create(base, 2 * sizeof(long long), sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w);
    base[0] = 100 + rank;
    base[1] = 200 + rank;
    MPI_Win_unlock(rank, w);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        rank0_blocks("passive-target operations on rank 0's window");
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w);
        CHECK_EQ(100 + 5LL * (size - 1), base[0]);
        CHECK_EQ(200 + 6LL * (size - 1), base[1]);
        MPI_Win_unlock(0, w);
    } else {
        hear(1, "rank 0's post");
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w);
        MPI_Accumulate(add, 2, MPI_LONG_LONG, 0, 0, 2, MPI_LONG_LONG, MPI_SUM, w);
        MPI_Win_unlock(0, w);
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w);
        MPI_Get(got, 2, MPI_LONG_LONG, 0, 0, 2, MPI_LONG_LONG, w);
        MPI_Win_unlock(0, w);
        CHECK_MSG(got[0] >= 105 && got[1] >= 206, "rank %d read %lld %lld after its accumulate", rank, got[0], got[1]);
        tell(0);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&w);
    free(base);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "recv";
    CHECK_MSG(size >= 2, "needs at least 2 ranks");
    open_side_channel();
    if (strcmp(mode, "recv") == 0 || strcmp(mode, "send") == 0)
        mode_p2p(strcmp(mode, "recv") == 0);
    else if (strcmp(mode, "ibarrier") == 0 || strcmp(mode, "iallreduce") == 0)
        mode_icoll(strcmp(mode, "iallreduce") == 0);
    else if (strcmp(mode, "rma") == 0)
        mode_rma();
    else
        TU_FAIL("unknown mode %s", mode);
    int level, len;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Query_thread(&level);
    MPI_Get_library_version(lib, &len);
    if (strstr(lib, "skiff")) /* skiff's thread does not change the level granted; MPICH's says MULTIPLE */
        CHECK_EQ(MPI_THREAD_SINGLE, level);
    close(sock);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("OK async_progress %s\n", mode);
    MPI_Finalize();
    return 0;
}
