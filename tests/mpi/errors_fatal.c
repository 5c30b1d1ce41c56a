/* errors_fatal — under the default MPI_ERRORS_ARE_FATAL handler an erroneous call ends the
 * whole job. Run through expect_fatal.sh, which passes only if the job exits non-zero, quickly,
 * with the expected text on stderr.
 *
 *   errors_fatal rank      rank 0: MPI_Send to rank = size   (stderr must name "MPI_Send")
 *   errors_fatal truncate  rank 0: 4096 bytes into a 1024-byte MPI_Recv ("truncat")
 *   errors_fatal abort     rank 0: MPI_Send to rank = size on a duplicate of MPI_COMM_SELF whose
 *                          handler is MPI_ERRORS_ABORT: it ends the processes of that communicator,
 *                          and skiff (which cannot end part of a job) ends the whole job, saying
 *                          "MPI_ERRORS_ABORT"
 *
 * All other ranks wait in MPI_Recv for a message that is sent only if the bad call returns, so
 * the job can end promptly only if the abort takes every rank down. If the bad call does return,
 * rank 0 prints NOT-ABORTED, releases the others and the job exits 0: the wrapper fails it.
 */
#include "testutil.h"

enum { TAG_RELEASE = 1, TAG_DATA = 2 };

static void release_all_and_exit(const char *what)
{
    char token = 0;
    printf("NOT-ABORTED: %s returned instead of aborting the job\n", what);
    fflush(stdout);
    for (int r = 1; r < tu_size(); r++)
        MPI_Send(&token, 1, MPI_CHAR, r, TAG_RELEASE, MPI_COMM_WORLD);
    MPI_Finalize();
    exit(0);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    const char *mode = argc > 1 ? argv[1] : "rank";
    int rank = tu_rank(), size = tu_size();
    static uint8_t buf[4096], small[1024];

    if (rank == 0) {
        if (strcmp(mode, "abort") == 0) {
            MPI_Comm self;
            MPI_Comm_dup(MPI_COMM_SELF, &self);
            MPI_Comm_set_errhandler(self, MPI_ERRORS_ABORT);
            MPI_Send(buf, 1, MPI_INT, 1, 0, self);
            release_all_and_exit("MPI_Send to rank 1 of a one-rank communicator under MPI_ERRORS_ABORT");
        } else if (strcmp(mode, "rank") == 0) {
            MPI_Send(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
            release_all_and_exit("MPI_Send to rank = size");
        } else {
            MPI_Request req;
            MPI_Isend(buf, 4096, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD, &req); /* to self */
            MPI_Recv(small, 1024, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            release_all_and_exit("MPI_Recv of a truncated message");
        }
    } else {
        char token;
        MPI_Recv(&token, 1, MPI_CHAR, 0, TAG_RELEASE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
