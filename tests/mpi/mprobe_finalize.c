/* mprobe_finalize — MPI_Finalize with messages that MPI_Mprobe matched but no MPI_Mrecv received (an
 * erroneous program): every rank must still get out of MPI_Finalize and say "done", and the senders
 * must learn why their messages were never received. A matched message is out of the unexpected queue,
 * where a finalizing receiver looks for senders waiting for an answer; its handle must be answered too.
 *
 * Even ranks send to the next odd rank: a rendezvous send (left incomplete), a small synchronous one
 * (freed) and a small standard one. The receiver Mprobes all three (Improbe for the last) and finalizes.
 * Each sender sees its two waiting sends end "without a matching receive" (skiff prints it, stderr).
 *
 * MPICH 4.0 and Open MPI 4.1 get out too, without a word; the suite runs it with skiff. */
#include "testutil.h"

#include <stdlib.h>

#define BIG 200000
#define TAG 7

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *small = calloc(8, 1), *big = calloc(BIG, 1);
    MPI_Request r;
    if (rank % 2 == 0 && rank + 1 < size) {
        MPI_Isend(big, BIG, MPI_CHAR, rank + 1, TAG, MPI_COMM_WORLD, &r); /* never completed */
        MPI_Request s;
        MPI_Issend(small, 8, MPI_CHAR, rank + 1, TAG + 1, MPI_COMM_WORLD, &s);
        MPI_Request_free(&s);
        MPI_Send(small, 8, MPI_CHAR, rank + 1, TAG + 2, MPI_COMM_WORLD);
    } else if (rank % 2 == 1) {
        MPI_Message m[3];
        MPI_Mprobe(rank - 1, TAG, MPI_COMM_WORLD, &m[0], MPI_STATUS_IGNORE);
        MPI_Mprobe(rank - 1, TAG + 1, MPI_COMM_WORLD, &m[1], MPI_STATUS_IGNORE);
        int flag = 0;
        for (unsigned polls = 0;; tu_poll_pause(&polls)) {
            MPI_Improbe(rank - 1, TAG + 2, MPI_COMM_WORLD, &flag, &m[2], MPI_STATUS_IGNORE);
            if (flag)
                break;
        }
    }
    MPI_Finalize();
    printf("rank %d done\n", rank);
    free(small);
    free(big);
    return 0;
}
