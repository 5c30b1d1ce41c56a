/* finalize_pending.c MODE — MPI_Finalize with sends that nobody receives (erroneous programs that
 * MPICH and Open MPI let return): every rank must get out of MPI_Finalize and say "done".
 *
 *   unmatched  even ranks send to the next odd rank, which never receives: a small synchronous send
 *              and a rendezvous send, both freed, and a rendezvous send left incomplete.
 *   withdraw   the receiver sees the message (probe), lets the sender finalize and stays in MPI:
 *              skiff's sender waits SKIFF_FINALIZE_TIMEOUT (set to 0 here), then withdraws the send,
 *              and the receiver's probe no longer finds it. Other MPIs: the receiver just finalizes.
 *              On a duplicate of MPI_COMM_WORLD, so the withdrawal must name the right context.
 *   unwaited   the receiver matches a rendezvous message with MPI_Irecv but finalizes without waiting.
 *   blocking   skiff only (MPICH and Open MPI hang): a blocking rendezvous send to a receiver that
 *              finalizes without receiving returns an error (MPI_ERRORS_RETURN here) that says so.
 *
 * Built with MPICH: mpicc.mpich -std=c11 finalize_pending.c && mpiexec.mpich -n 2 ./a.out unmatched */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define BIG 100000
#define TAG 7

static int is_skiff(void)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(v, &len);
    return strstr(v, "skiff") != NULL;
}

/* Waits (pausing, see tu_poll_pause) until a message with TAG from src is there (want 1) or gone
 * (want 0). A probe that finds its message need not look for news, so a probe for a tag nobody sends
 * keeps the library moving while we wait for the message to go. */
static void probe_until(int src, int want, MPI_Comm comm)
{
    int flag = !want, none;
    unsigned polls = 0;
    while (flag != want) {
        MPI_Iprobe(src, TAG + 99, comm, &none, MPI_STATUS_IGNORE);
        MPI_Iprobe(src, TAG, comm, &flag, MPI_STATUS_IGNORE);
        if (flag != want)
            tu_poll_pause(&polls);
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "unmatched";
    if (strcmp(mode, "withdraw") == 0)
        setenv("SKIFF_FINALIZE_TIMEOUT", "0", 1); /* read by skiff only */
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *small = calloc(8, 1), *big = malloc(BIG);
    for (int i = 0; i < BIG; i++)
        big[i] = (char)(i * 7 + rank);
    int sender = rank % 2 == 0 && rank + 1 < size, receiver = rank % 2 == 1;
    MPI_Request r;
    if (strcmp(mode, "unmatched") == 0 && sender) {
        MPI_Issend(small, 8, MPI_CHAR, rank + 1, TAG, MPI_COMM_WORLD, &r);
        MPI_Request_free(&r);
        MPI_Isend(big, BIG, MPI_CHAR, rank + 1, TAG, MPI_COMM_WORLD, &r);
        MPI_Request_free(&r);
        MPI_Isend(big, BIG, MPI_CHAR, rank + 1, TAG + 1, MPI_COMM_WORLD, &r); /* never completed */
    } else if (strcmp(mode, "withdraw") == 0) {
        int go = 1;
        MPI_Comm dup; /* left to MPI_Finalize */
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        if (sender) {
            MPI_Isend(big, BIG, MPI_CHAR, rank + 1, TAG, dup, &r);
            MPI_Request_free(&r);
            MPI_Recv(&go, 1, MPI_INT, rank + 1, TAG + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (receiver) {
            probe_until(rank - 1, 1, dup);
            MPI_Send(&go, 1, MPI_INT, rank - 1, TAG + 1, MPI_COMM_WORLD);
            if (is_skiff())
                probe_until(rank - 1, 0, dup);
        }
    } else if (strcmp(mode, "unwaited") == 0) {
        if (sender) {
            MPI_Isend(big, BIG, MPI_CHAR, rank + 1, TAG, MPI_COMM_WORLD, &r);
            MPI_Request_free(&r);
        } else if (receiver) {
            MPI_Irecv(big, BIG, MPI_CHAR, rank - 1, TAG, MPI_COMM_WORLD, &r); /* never waited */
        }
    } else if (strcmp(mode, "blocking") == 0) {
        if (sender) {
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
            int rc = MPI_Send(big, BIG, MPI_CHAR, rank + 1, TAG, MPI_COMM_WORLD);
            char msg[MPI_MAX_ERROR_STRING];
            int len = 0;
            MPI_Error_string(rc, msg, &len);
            CHECK_MSG(rc != MPI_SUCCESS, "MPI_Send to a rank that finalized without receiving returned success");
            fprintf(stderr, "rank %d: MPI_Send returned: %s\n", rank, msg);
        }
    } else if (strcmp(mode, "unmatched") != 0) {
        fprintf(stderr, "unknown mode %s\n", mode);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Finalize();
    printf("rank %d done\n", rank);
    free(small);
    free(big);
    return 0;
}
