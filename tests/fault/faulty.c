/* A job that fails on purpose, one way per mode, while its other ranks are busy communicating:
 *   kill      rank 1 kills itself with SIGKILL in the middle of a stream of large messages
 *   flood     rank 1 takes one small message and kills itself; rank 0 goes on sending small ones,
 *             which fill the shared-memory queue to rank 1 and then wait for room that never comes
 *   abort     rank 1 calls MPI_Abort(MPI_COMM_WORLD, 7)
 *   noexit    rank 1 returns from main without MPI_Finalize
 *   hang      every rank blocks in MPI_Recv forever (for "mpiexec itself killed")
 *   compute   every rank sleeps 60 s outside MPI, then finalizes (a job that cannot notice its
 *             launcher dying until it calls MPI again: what skiff-clean is for)
 *   deadlock  on a communicator named "ring", every rank starts an MPI_Issend of 100 bytes, tag 5, to
 *             the next rank and then blocks in MPI_Recv of 300 bytes, tag 7, from the previous one:
 *             nothing ever matches (for SKIFF_PROGRESS_TIMEOUT's report)
 *   win_fence   on a Win_allocate window (one segment within a node), rank 1 kills itself in a fence epoch
 *               after a put; the others block in the next MPI_Win_fence
 *   win_lock    rank 1 locks rank 0's part exclusively, puts, and kills itself holding the lock; the
 *               others wait in MPI_Win_lock for it (on the direct path: a word in the segment)
 *   win_epoch   every rank is in a lock_all epoch accumulating into rank 0 when rank 1 kills itself;
 *               the others close the epoch and block in MPI_Win_free
 *   win_noexit  win_fence, but rank 1 returns from main without MPI_Finalize instead
 * The other ranks block in receives that never complete: only the launcher can end them. */
#define _DEFAULT_SOURCE /* readlink, opendir under -std=c11 */
#include <dirent.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BIG (4 << 20)

static void stream_then_block(int rank, int fail_rank, const char *mode)
{
    static char buf[BIG];
    if (rank == fail_rank) {
        for (int i = 0; i < 3; i++)
            MPI_Recv(buf, BIG, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (strcmp(mode, "kill") == 0)
            raise(SIGKILL);
        if (strcmp(mode, "abort") == 0)
            MPI_Abort(MPI_COMM_WORLD, 7);
        exit(0); /* noexit: leaves without MPI_Finalize */
    }
    if (rank == 0)
        for (int i = 0; i < 100; i++) /* keeps sending while rank 1 dies: mid-transfer */
            MPI_Send(buf, BIG, MPI_BYTE, fail_rank, 1, MPI_COMM_WORLD);
    MPI_Recv(buf, 1, MPI_BYTE, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void flood(int rank)
{
    static char buf[8192];
    if (rank == 1) {
        MPI_Recv(buf, (int)sizeof buf, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        raise(SIGKILL);
    }
    if (rank == 0)
        for (int i = 0; i < 100000; i++)
            MPI_Send(buf, (int)sizeof buf, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
    MPI_Recv(buf, 1, MPI_BYTE, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* The win_* modes: a window open while rank 1 dies. */
static void window(int rank, int size, const char *mode)
{
    long *mem, one = 1;
    MPI_Win win;
    MPI_Win_allocate(64 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    if (strcmp(mode, "win_lock") == 0) {
        if (rank == 1) {
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
            MPI_Put(&one, 1, MPI_LONG, 0, 1, 1, MPI_LONG, win);
        }
        MPI_Barrier(MPI_COMM_WORLD); /* rank 1 holds the lock from here on */
        if (rank == 1)
            raise(SIGKILL);
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win); /* never granted ... */
        MPI_Win_unlock(0, win); /* ... which the message path's lock may only tell here */
    } else if (strcmp(mode, "win_epoch") == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1)
            raise(SIGKILL);
        for (int i = 0; i < 1000; i++)
            MPI_Accumulate(&one, 1, MPI_LONG, 0, 2, 1, MPI_LONG, MPI_SUM, win);
        MPI_Win_flush_all(win);
        MPI_Win_unlock_all(win);
    } else { /* win_fence, win_noexit */
        MPI_Win_fence(0, win);
        MPI_Put(&one, 1, MPI_LONG, (rank + 1) % size, 3, 1, MPI_LONG, win);
        if (rank == 1 && strcmp(mode, "win_fence") == 0)
            raise(SIGKILL);
        if (rank == 1)
            exit(0);
        MPI_Win_fence(0, win);
    }
    MPI_Win_free(&win); /* collective: waits for rank 1 */
}

static void deadlock(int rank, int size)
{
    static char out[100], in[300];
    MPI_Comm ring;
    MPI_Request req;
    MPI_Comm_dup(MPI_COMM_WORLD, &ring);
    MPI_Comm_set_name(ring, "ring");
    MPI_Issend(out, (int)sizeof out, MPI_BYTE, (rank + 1) % size, 5, ring, &req);
    MPI_Recv(in, (int)sizeof in, MPI_BYTE, (rank + size - 1) % size, 7, ring, MPI_STATUS_IGNORE);
}

/* The sockets this rank holds (tcp connections, the wake-up socket), as inode numbers: fault.sh checks
 * that no process holds any of them once the job has ended. */
static void print_sockets(int rank)
{
    char link[64], target[64];
    printf("rank %d sockets", rank);
    DIR *d = opendir("/proc/self/fd");
    for (struct dirent *e; d && (e = readdir(d));) {
        snprintf(link, sizeof link, "/proc/self/fd/%.16s", e->d_name);
        ssize_t n = readlink(link, target, sizeof target - 1);
        unsigned long ino;
        if (n > 0 && (target[n] = '\0', sscanf(target, "socket:[%lu]", &ino) == 1))
            printf(" %lu", ino);
    }
    if (d)
        closedir(d);
    printf("\n");
}

int main(int argc, char **argv)
{
    int rank, size;
    const char *mode = argc > 1 ? argv[1] : "kill";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    print_sockets(rank);
    printf("rank %d pid %d ready\n", rank, (int)getpid());
    fflush(stdout);
    if (strcmp(mode, "flood") == 0) {
        flood(rank);
    } else if (strcmp(mode, "deadlock") == 0) {
        deadlock(rank, size);
    } else if (strncmp(mode, "win_", 4) == 0 && size > 1) {
        window(rank, size, mode);
    } else if (strcmp(mode, "compute") == 0) {
        sleep(60);
    } else if (strcmp(mode, "hang") == 0) {
        char b;
        MPI_Recv(&b, 1, MPI_BYTE, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        stream_then_block(rank, size > 1 ? 1 : 0, mode);
    }
    MPI_Finalize();
    return 0;
}
