/* Matching on a communicator that asserts mpi_assert_no_any_tag (skiff keeps its posted receives in
 * buckets by tag): many receives posted with distinct tags, and several with one tag, take the right
 * messages in MPI's order however the messages arrive; a cancelled receive leaves its bucket; traffic on a
 * plain duplicate with the same tags stays apart. On one that asserts only mpi_assert_no_any_source
 * (buckets by source), MPI_ANY_TAG receives take each sender's messages in the order sent. Every rank
 * sends to every other (and itself). */
#include "testutil.h"

#include <mpi.h>

#include <stdlib.h>

#define NTAGS 300 /* distinct tags per sender */
#define NSAME 5   /* messages with one tag, per sender: they must arrive in order */
#define SAME_TAG 100000

static int rank, size;

static int value(int src, int tag, int k)
{
    return src * 1000003 + tag * 7 + k;
}

static MPI_Comm asserting_dup(int no_any_tag)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", no_any_tag ? "true" : "false");
    MPI_Info_set(info, "mpi_assert_no_any_source", "true");
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &c));
    MPI_Info_free(&info);
    return c;
}

static void exchange(MPI_Comm fast, MPI_Comm plain)
{
    int nrecv = size * (NTAGS + NSAME) * 2;
    int *got = tu_malloc(sizeof(int) * (size_t)nrecv);
    MPI_Request *rq = tu_malloc(sizeof(MPI_Request) * (size_t)nrecv);
    int n = 0;
    /* Every receive first, on both communicators, with the same tags. */
    for (int src = 0; src < size; src++) {
        for (int t = 0; t < NTAGS; t++) {
            MPI_Irecv(&got[n], 1, MPI_INT, src, t, fast, &rq[n]);
            n++;
            MPI_Irecv(&got[n], 1, MPI_INT, src, t, plain, &rq[n]);
            n++;
        }
        for (int k = 0; k < NSAME; k++) {
            MPI_Irecv(&got[n], 1, MPI_INT, src, SAME_TAG, fast, &rq[n]);
            n++;
            MPI_Irecv(&got[n], 1, MPI_INT, src, SAME_TAG, plain, &rq[n]);
            n++;
        }
    }
    /* A receive that is cancelled must leave its bucket and take nothing. */
    int spare = -1;
    MPI_Request cancelled;
    MPI_Irecv(&spare, 1, MPI_INT, rank, 7, fast, &cancelled);
    MPI_Cancel(&cancelled);
    MPI_Status cst;
    MPI_Wait(&cancelled, &cst);
    int flag = 0;
    MPI_Test_cancelled(&cst, &flag);
    CHECK_MSG(flag, "the receive was not cancelled");
    MPI_Barrier(MPI_COMM_WORLD);
    /* Sends in reverse tag order, plain communicator's values negated. */
    for (int dst = 0; dst < size; dst++) {
        int d = (rank + dst) % size;
        for (int t = NTAGS - 1; t >= 0; t--) {
            int v = value(rank, t, 0), w = -v;
            MPI_Send(&w, 1, MPI_INT, d, t, plain);
            MPI_Send(&v, 1, MPI_INT, d, t, fast);
        }
        for (int k = 0; k < NSAME; k++) {
            int v = value(rank, SAME_TAG, k), w = -v;
            MPI_Send(&v, 1, MPI_INT, d, SAME_TAG, fast);
            MPI_Send(&w, 1, MPI_INT, d, SAME_TAG, plain);
        }
    }
    CHECK_MPI(MPI_Waitall(n, rq, TU_STATUSES_IGNORE));
    n = 0;
    for (int src = 0; src < size; src++) {
        for (int t = 0; t < NTAGS; t++, n += 2) {
            CHECK_MSG(got[n] == value(src, t, 0), "from %d tag %d: got %d on the asserting communicator", src, t,
                      got[n]);
            CHECK_MSG(got[n + 1] == -value(src, t, 0), "from %d tag %d: got %d on the plain one", src, t, got[n + 1]);
        }
        for (int k = 0; k < NSAME; k++, n += 2) {
            CHECK_MSG(got[n] == value(src, SAME_TAG, k), "from %d, message %d of one tag: got %d (order?)", src, k,
                      got[n]);
            CHECK_MSG(got[n + 1] == -value(src, SAME_TAG, k), "from %d, message %d of one tag on the plain one", src,
                      k);
        }
    }
    free(got);
    free(rq);
}

/* Only mpi_assert_no_any_source: wildcard-tag receives per sender, messages with changing tags. */
static void any_tag_in_order(MPI_Comm c)
{
    int n = size * NSAME, *got = tu_malloc(sizeof(int) * (size_t)n);
    MPI_Request *rq = tu_malloc(sizeof(MPI_Request) * (size_t)n);
    MPI_Status *st = tu_malloc(sizeof(MPI_Status) * (size_t)n);
    for (int src = 0; src < size; src++)
        for (int k = 0; k < NSAME; k++)
            MPI_Irecv(&got[src * NSAME + k], 1, MPI_INT, src, MPI_ANY_TAG, c, &rq[src * NSAME + k]);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int d = 0; d < size; d++)
        for (int k = 0; k < NSAME; k++) {
            int v = value(rank, 50 + 3 * k, k);
            MPI_Send(&v, 1, MPI_INT, (rank + d) % size, 50 + 3 * k, c);
        }
    CHECK_MPI(MPI_Waitall(n, rq, st));
    for (int src = 0; src < size; src++)
        for (int k = 0; k < NSAME; k++) {
            int i = src * NSAME + k;
            CHECK_MSG(got[i] == value(src, 50 + 3 * k, k) && st[i].MPI_TAG == 50 + 3 * k,
                      "from %d, ANY_TAG receive %d got %d with tag %d (order?)", src, k, got[i], st[i].MPI_TAG);
        }
    free(got);
    free(rq);
    free(st);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm fast = asserting_dup(1), by_source = asserting_dup(0), plain;
    MPI_Comm_dup(MPI_COMM_WORLD, &plain);
    for (int round = 0; round < 2; round++) {
        exchange(fast, plain);
        exchange(by_source, plain);
        any_tag_in_order(by_source);
    }
    MPI_Comm_free(&fast);
    MPI_Comm_free(&by_source);
    MPI_Comm_free(&plain);
    return tu_finish("match_assert");
}
