/* coll_barrier — MPI_Barrier really separates "before" from "after", and keeps out of the way of
 * point-to-point traffic.
 *
 * 1. Round counters in files (timing-free): in round k every rank writes k into its own file in a
 *    directory rank 0 created, then calls MPI_Barrier, then reads every rank's file. Each value
 *    must be k or k+1: below k means a rank left the barrier before that rank entered it; k+2
 *    would mean a rank passed the *next* barrier without us. One rank per round sleeps a little
 *    before entering, so the barrier is entered in varying order. (All ranks share one host's
 *    /tmp; a rank that cannot see the directory skips this part and says so.)
 * 2. Isolation: rank 0 holds a fully wildcard receive (MPI_ANY_SOURCE, MPI_ANY_TAG) open across
 *    100 barriers; it must still be pending after them, and then receive only the user message
 *    the last rank sends after one more barrier.
 * 3. MPI_Barrier on MPI_COMM_SELF returns at once, whatever the other ranks do.
 *
 * usage: coll_barrier [rounds]   (default 200)
 */
#include "testutil.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define NAME "coll_barrier"
#define DIRLEN 256

static void file_rounds(int rank, int np, int rounds)
{
    char dir[DIRLEN] = "";
    if (rank == 0) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/skiff-coll-barrier.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        CHECK_MSG(mkdtemp(dir) != NULL, "mkdtemp(%s) failed", dir);
        for (int r = 1; r < np; r++)
            CHECK_MPI(MPI_Send(dir, DIRLEN, MPI_CHAR, r, 1, MPI_COMM_WORLD));
    } else {
        CHECK_MPI(MPI_Recv(dir, DIRLEN, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    struct stat sb;
    int visible = stat(dir, &sb) == 0, all_visible = 0;
    CHECK_MPI(MPI_Allreduce(&visible, &all_visible, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD));
    if (!all_visible) {
        if (rank == 0) {
            printf("%s: %s not visible on every rank: file check skipped\n", NAME, dir);
            rmdir(dir);
        }
        return;
    }

    int *fd = tu_malloc(sizeof(int) * (size_t)np);
    char path[DIRLEN + 32];
    int zero = -1;
    snprintf(path, sizeof path, "%s/r%d", dir, rank);
    int mine = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);
    CHECK_MSG(mine >= 0, "open(%s) failed", path);
    CHECK(pwrite(mine, &zero, sizeof zero, 0) == (ssize_t)sizeof zero);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* every file exists */
    for (int r = 0; r < np; r++) {
        snprintf(path, sizeof path, "%s/r%d", dir, r);
        fd[r] = open(path, O_RDONLY);
        CHECK_MSG(fd[r] >= 0, "open(%s) failed", path);
    }

    for (int k = 0; k < rounds; k++) {
        CHECK(pwrite(mine, &k, sizeof k, 0) == (ssize_t)sizeof k);
        if (k % np == rank && k % 4 == 0)
            tu_sleep_ms(2); /* this rank arrives late */
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        for (int r = 0; r < np; r++) {
            int v = -2;
            CHECK(pread(fd[r], &v, sizeof v, 0) == (ssize_t)sizeof v);
            CHECK_MSG(v == k || v == k + 1,
                      "after barrier %d, rank %d's counter is %d: the barrier let this rank "
                      "through before rank %d entered it",
                      k, r, v, r);
        }
    }

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* nobody reads any more */
    for (int r = 0; r < np; r++)
        close(fd[r]);
    close(mine);
    snprintf(path, sizeof path, "%s/r%d", dir, rank);
    unlink(path);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0)
        rmdir(dir);
    free(fd);
}

static void isolation(int rank, int np)
{
    int got = -1, last = np - 1;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status st;
    if (rank == 0)
        CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req));
    for (int i = 0; i < 100; i++)
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        int flag = 1;
        if (np > 1) { /* nothing was sent to rank 0 yet: the receive must still be pending */
            CHECK_MPI(MPI_Test(&req, &flag, &st));
            CHECK_MSG(!flag, "wildcard receive matched barrier traffic (source %d, tag %d)",
                      st.MPI_SOURCE, st.MPI_TAG);
        }
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* the user message goes out only after the Test */
    if (rank == last) {
        int v = 4242;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD));
    }
    if (rank == 0) {
        CHECK_MPI(MPI_Wait(&req, &st));
        CHECK_EQ(4242, got);
        CHECK_EQ(last, st.MPI_SOURCE);
        CHECK_EQ(7, st.MPI_TAG);
    }
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    int rank = tu_rank(), np = tu_size();
    int rounds = (int)tu_arg_long(argc, argv, 1, 200);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    file_rounds(rank, np, rounds);
    isolation(rank, np);
    for (int i = 0; i < 10; i++)
        CHECK_MPI(MPI_Barrier(MPI_COMM_SELF));
    return tu_finish(NAME);
}
