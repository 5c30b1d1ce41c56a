/* Concurrent accumulates on the same counters (issue 17: CPU atomics on shared memory). Every rank but
 * the target hammers one set of counters in rank 0's part of a shared window at once, in a lock_all
 * epoch: fetch-and-op (and every fetched value must be distinct), a compare-and-swap increment loop, a
 * double sum (a compare-and-swap loop inside skiff), int max, unsigned bxor, a uint8 sum that wraps, a
 * strided int accumulate through a vector type (the general path), and an int at an odd address (which
 * skiff updates under the lock word, never with atomics). The final values must be exact.
 *
 * Under skiff the target makes no MPI call meanwhile: it polls its own memory until every origin has
 * counted itself done (the direct path needs no target). The standard does not promise that, so under
 * MPICH and Open MPI the target waits in MPI_Barrier instead. No timing is judged. */
#include "testutil.h" /* first: it sets the feature macros */

#include <stdatomic.h>
#include <stdint.h>

#if defined(MPICH_VERSION) || defined(OPEN_MPI)
#define TARGET_OUTSIDE_MPI 0
#else
#define TARGET_OUTSIDE_MPI 1
#endif

#define N 2000
/* Byte offsets in rank 0's part (displacement unit 1). */
#define FOP 0
#define CASC 8
#define DSUM 16
#define VEC 24 /* 4 ints: [0] and [2] accumulate, [1] and [3] stay 0 */
#define MAXI 40
#define BXOR 44
#define U8 48
#define ODD 50 /* an int at an address that is not a multiple of 4 */
#define DONE 56
#define BYTES 64

static unsigned bx(int r, int i)
{
    return (unsigned)i * 2654435761u ^ (unsigned)r;
}

static void hammer(MPI_Win win, int rank, long *fetched_sum, MPI_Datatype vec)
{
    long one = 1, old;
    double d = 1.0;
    int pair[2] = {1, 2}, ione = 1;
    uint8_t u1 = 1;
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int i = 0; i < N; i++) {
        CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, FOP, MPI_SUM, win));
        CHECK_MPI(MPI_Win_flush(0, win));
        *fetched_sum += old;
        long cur = 0, seen = -1;
        CHECK_MPI(MPI_Fetch_and_op(NULL, &cur, MPI_LONG, 0, CASC, MPI_NO_OP, win));
        CHECK_MPI(MPI_Win_flush(0, win));
        for (;;) { /* increment by compare-and-swap: retry with the value that beat us */
            long next = cur + 1;
            CHECK_MPI(MPI_Compare_and_swap(&next, &cur, &seen, MPI_LONG, 0, CASC, win));
            CHECK_MPI(MPI_Win_flush(0, win));
            if (seen == cur)
                break;
            cur = seen;
        }
        CHECK_MPI(MPI_Accumulate(&d, 1, MPI_DOUBLE, 0, DSUM, 1, MPI_DOUBLE, MPI_SUM, win));
        CHECK_MPI(MPI_Accumulate(pair, 2, MPI_INT, 0, VEC, 1, vec, MPI_SUM, win));
        int m = rank * 100000 + i;
        CHECK_MPI(MPI_Accumulate(&m, 1, MPI_INT, 0, MAXI, 1, MPI_INT, MPI_MAX, win));
        unsigned x = bx(rank, i);
        CHECK_MPI(MPI_Accumulate(&x, 1, MPI_UNSIGNED, 0, BXOR, 1, MPI_UNSIGNED, MPI_BXOR, win));
        CHECK_MPI(MPI_Accumulate(&u1, 1, MPI_UINT8_T, 0, U8, 1, MPI_UINT8_T, MPI_SUM, win));
        CHECK_MPI(MPI_Accumulate(&ione, 1, MPI_INT, 0, ODD, 1, MPI_INT, MPI_SUM, win));
    }
    CHECK_MPI(MPI_Win_flush_all(win));
    CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, DONE, MPI_SUM, win));
    CHECK_MPI(MPI_Win_unlock_all(win));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm node;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    MPI_Comm_rank(node, &rank);
    MPI_Comm_size(node, &size);
    char *mem;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate_shared(rank == 0 ? BYTES : 0, 1, MPI_INFO_NULL, node, &mem, &win));
    if (rank == 0)
        memset(mem, 0, BYTES);
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    CHECK_MPI(MPI_Barrier(node));
    int norig = size > 1 ? size - 1 : 1, origin = size == 1 || rank > 0;
    long fetched = 0;
    if (origin)
        hammer(win, rank, &fetched, vec);
    if (rank == 0 && size > 1 && TARGET_OUTSIDE_MPI) {
        unsigned polls = 0;
        while (atomic_load((_Atomic long *)(mem + DONE)) != norig) /* no MPI call in here */
            tu_poll_pause(&polls);
    }
    CHECK_MPI(MPI_Barrier(node));
    long all_fetched = 0;
    CHECK_MPI(MPI_Allreduce(&fetched, &all_fetched, 1, MPI_LONG, MPI_SUM, node));
    char v[BYTES];
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    CHECK_MPI(MPI_Get(v, BYTES, MPI_BYTE, 0, 0, BYTES, MPI_BYTE, win));
    CHECK_MPI(MPI_Win_unlock(0, win));
    long total = (long)norig * N, l;
    double dd;
    int iv[4], im, odd;
    unsigned ux, want_x = 0;
    for (int r = size > 1 ? 1 : 0; r < (size > 1 ? size : 1); r++)
        for (int i = 0; i < N; i++)
            want_x ^= bx(r, i);
    memcpy(&l, v + FOP, sizeof l);
    CHECK_EQ(total, l);
    CHECK_EQ(total * (total - 1) / 2, all_fetched); /* each of 0 .. total-1 fetched once */
    memcpy(&l, v + CASC, sizeof l);
    CHECK_EQ(total, l);
    memcpy(&dd, v + DSUM, sizeof dd);
    CHECK(dd == (double)total);
    memcpy(iv, v + VEC, sizeof iv);
    CHECK_EQ(total, iv[0]);
    CHECK_EQ(0, iv[1]);
    CHECK_EQ(2 * total, iv[2]);
    CHECK_EQ(0, iv[3]);
    memcpy(&im, v + MAXI, sizeof im);
    CHECK_EQ((size > 1 ? size - 1 : 0) * 100000 + N - 1, im);
    memcpy(&ux, v + BXOR, sizeof ux);
    CHECK_EQ(want_x, ux);
    CHECK_EQ(total % 256, (uint8_t)v[U8]);
    memcpy(&odd, v + ODD, sizeof odd);
    CHECK_EQ(total, odd);
    memcpy(&l, v + DONE, sizeof l);
    CHECK_EQ(norig, l);
    MPI_Type_free(&vec);
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Comm_free(&node);
    if (rank == 0)
        printf("OK rma_atomic (%d origins x %d rounds)\n", norig, N);
    MPI_Finalize();
    return 0;
}
