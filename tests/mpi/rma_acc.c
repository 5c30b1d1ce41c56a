/* One-sided accumulates with fences: MPI_Accumulate with every predefined op on the types it is defined
 * for (and MPI_REPLACE), MINLOC/MAXLOC on pair types, derived datatypes on both sides, MPI_Get_accumulate
 * (MPI_NO_OP too), MPI_Fetch_and_op, MPI_Compare_and_swap, MPI_PROC_NULL, and atomicity: every rank adds
 * into the same elements many times, fetch-and-add hands out unique tickets, compare-and-swap elects one
 * winner. Passes with MPICH and Open MPI too. */
#include <stdbool.h>

#include "testutil.h"

#define REPS 50

/* Open MPI 4.1's osc/rdma over its shared-memory btl crashes inside MPI_Compare_and_swap
 * (mca_btl_vader_emu_acswap, a NULL endpoint): the compare-and-swap part is left out there. */
#if defined(OPEN_MPI) && OMPI_MAJOR_VERSION < 5
#define HAVE_WORKING_CAS 0
#else
#define HAVE_WORKING_CAS 1
#endif

static int rank, size;

/* Every rank accumulates its contribution f(r) into element 0 of rank 0's window; the result must be the
 * op over init and all contributions. */
#define OP_CASE(T, MPIT, OPNAME, OP, INIT, CONTRIB, COMBINE)                                                \
    do {                                                                                                 \
        T *base;                                                                                         \
        MPI_Win win;                                                                                     \
        CHECK_MPI(MPI_Win_allocate(sizeof(T), sizeof(T), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));   \
        *base = (T)(INIT);                                                                               \
        CHECK_MPI(MPI_Win_fence(0, win));                                                                \
        T mine = (T)(CONTRIB(rank));                                                                     \
        CHECK_MPI(MPI_Accumulate(&mine, 1, MPIT, 0, 0, 1, MPIT, OP, win));                               \
        CHECK_MPI(MPI_Win_fence(0, win));                                                                \
        if (rank == 0) {                                                                                 \
            T want = (T)(INIT);                                                                          \
            for (int r = 0; r < size; r++)                                                               \
                want = COMBINE(want, (T)(CONTRIB(r)));                                                   \
            CHECK_MSG(*base == want, "%s on %s: got %g, want %g", OPNAME, #MPIT, (double)*base,          \
                      (double)want);                                                                     \
        }                                                                                                \
        CHECK_MPI(MPI_Win_free(&win));                                                                   \
    } while (0)

#define C_SUM(a, b) ((a) + (b))
#define C_PROD(a, b) ((a) * (b))
#define C_MAX(a, b) ((a) > (b) ? (a) : (b))
#define C_MIN(a, b) ((a) < (b) ? (a) : (b))
#define C_LAND(a, b) ((a) && (b))
#define C_LOR(a, b) ((a) || (b))
#define C_LXOR(a, b) (!(a) != !(b))
#define C_BAND(a, b) ((a) & (b))
#define C_BOR(a, b) ((a) | (b))
#define C_BXOR(a, b) ((a) ^ (b))
#define C_REPLACE(a, b) (b)

#define F_SMALL(r) ((r) + 2)
#define F_BITS(r) (1 << (r))
#define F_LOGIC(r) ((r) % 2)
#define F_MASK(r) (0xff ^ (1 << (r)))

static void every_op(void)
{
    OP_CASE(int, MPI_INT, "MPI_SUM", MPI_SUM, 10, F_SMALL, C_SUM);
    OP_CASE(long, MPI_LONG, "MPI_PROD", MPI_PROD, 3, F_SMALL, C_PROD);
    OP_CASE(double, MPI_DOUBLE, "MPI_MAX", MPI_MAX, -1.5, F_SMALL, C_MAX);
    OP_CASE(float, MPI_FLOAT, "MPI_MIN", MPI_MIN, 100.0f, F_SMALL, C_MIN);
    OP_CASE(unsigned, MPI_UNSIGNED, "MPI_SUM", MPI_SUM, 7, F_BITS, C_SUM);
    OP_CASE(short, MPI_SHORT, "MPI_MIN", MPI_MIN, 5, F_SMALL, C_MIN);
    OP_CASE(long long, MPI_LONG_LONG, "MPI_MAX", MPI_MAX, 0, F_BITS, C_MAX);
    OP_CASE(signed char, MPI_SIGNED_CHAR, "MPI_SUM", MPI_SUM, 1, F_SMALL, C_SUM);
    OP_CASE(uint64_t, MPI_UINT64_T, "MPI_PROD", MPI_PROD, 1, F_SMALL, C_PROD);
    OP_CASE(int, MPI_INT, "MPI_LAND", MPI_LAND, 1, F_LOGIC, C_LAND);
    OP_CASE(int, MPI_INT, "MPI_LOR", MPI_LOR, 0, F_LOGIC, C_LOR);
    OP_CASE(int, MPI_INT, "MPI_LXOR", MPI_LXOR, 1, F_LOGIC, C_LXOR);
    OP_CASE(_Bool, MPI_C_BOOL, "MPI_LOR", MPI_LOR, 0, F_LOGIC, C_LOR);
    OP_CASE(unsigned, MPI_UNSIGNED, "MPI_BAND", MPI_BAND, 0xff, F_MASK, C_BAND);
    OP_CASE(unsigned char, MPI_UNSIGNED_CHAR, "MPI_BOR", MPI_BOR, 0, F_BITS, C_BOR);
    OP_CASE(int16_t, MPI_INT16_T, "MPI_BXOR", MPI_BXOR, 0x5a, F_BITS, C_BXOR);
    OP_CASE(unsigned char, MPI_BYTE, "MPI_BXOR", MPI_BXOR, 0x0f, F_BITS, C_BXOR);
    /* MPI_REPLACE with one writer: the result is its value. */
    {
        int *base;
        MPI_Win win;
        CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
        *base = -1;
        CHECK_MPI(MPI_Win_fence(0, win));
        int v = 4242;
        if (rank == size - 1)
            CHECK_MPI(MPI_Accumulate(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_REPLACE, win));
        CHECK_MPI(MPI_Accumulate(&v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, MPI_SUM, win));
        CHECK_MPI(MPI_Win_fence(0, win));
        if (rank == 0)
            CHECK_EQ(4242, *base);
        CHECK_MPI(MPI_Win_free(&win));
    }
}

/* MAXLOC on MPI_DOUBLE_INT (a pair with padding) and MINLOC on MPI_2INT, several elements. */
static void pairs(void)
{
    struct di {
        double v;
        int i;
    } *d, mine[3];
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(3 * sizeof(struct di), sizeof(struct di), MPI_INFO_NULL, MPI_COMM_WORLD, &d, &win));
    for (int k = 0; k < 3; k++) {
        d[k].v = -1e9;
        d[k].i = -1;
        mine[k].v = (double)((rank * 7 + k * 3) % size); /* ties broken by the lowest index */
        mine[k].i = rank;
    }
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Accumulate(mine, 3, MPI_DOUBLE_INT, 0, 0, 3, MPI_DOUBLE_INT, MPI_MAXLOC, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    if (rank == 0)
        for (int k = 0; k < 3; k++) {
            double best = -1e9;
            int at = -1;
            for (int r = 0; r < size; r++) {
                double v = (double)((r * 7 + k * 3) % size);
                if (v > best) {
                    best = v;
                    at = r;
                }
            }
            CHECK(d[k].v == best);
            CHECK_EQ(at, d[k].i);
        }
    CHECK_MPI(MPI_Win_free(&win));

    int *p, two[2] = {100 - rank, rank};
    CHECK_MPI(MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &p, &win));
    p[0] = 1000;
    p[1] = -1;
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Accumulate(two, 1, MPI_2INT, 0, 0, 1, MPI_2INT, MPI_MINLOC, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    if (rank == 0) {
        CHECK_EQ(100 - (size - 1), p[0]);
        CHECK_EQ(size - 1, p[1]);
    }
    CHECK_MPI(MPI_Win_free(&win));
}

/* Derived types: the origin a vector of every other double, the target an indexed type of doubles in
 * reverse-ish order; sums from every rank land in the right places. */
static void derived(void)
{
    enum { K = 8 };
    double *t;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(2 * K * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &t, &win));
    for (int i = 0; i < 2 * K; i++)
        t[i] = 0;
    double src[2 * K];
    for (int i = 0; i < 2 * K; i++)
        src[i] = (i % 2) ? 1e6 : (double)(i / 2 + 1);
    MPI_Datatype vec, idx;
    CHECK_MPI(MPI_Type_vector(K, 1, 2, MPI_DOUBLE, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    int bl[K], dp[K];
    for (int i = 0; i < K; i++) {
        bl[i] = 1;
        dp[i] = 2 * K - 1 - 2 * i; /* element i lands at 15, 13, ..., 1 */
    }
    CHECK_MPI(MPI_Type_indexed(K, bl, dp, MPI_DOUBLE, &idx));
    CHECK_MPI(MPI_Type_commit(&idx));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int tgt = 0; tgt < size; tgt++)
        CHECK_MPI(MPI_Accumulate(src, 1, vec, tgt, 0, 1, idx, MPI_SUM, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < K; i++) {
        CHECK(t[2 * K - 1 - 2 * i] == (double)((i + 1) * size));
        CHECK(t[2 * K - 2 - 2 * i] == 0.0);
    }
    /* Get_accumulate through the same types: fetch the old values into a vector-shaped result. */
    double res[2 * K], one[2 * K];
    for (int i = 0; i < 2 * K; i++) {
        res[i] = -5;
        one[i] = 1;
    }
    CHECK_MPI(MPI_Win_fence(0, win));
    if (rank == 0)
        CHECK_MPI(MPI_Get_accumulate(one, 1, vec, res, 1, vec, size - 1, 0, 1, idx, MPI_SUM, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    if (rank == 0)
        for (int i = 0; i < K; i++) {
            CHECK(res[2 * i] == (double)((i + 1) * size));
            CHECK(res[2 * i + 1] == -5.0);
        }
    if (rank == size - 1)
        for (int i = 0; i < K; i++)
            CHECK(t[2 * K - 1 - 2 * i] == (double)((i + 1) * size + 1));
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_MPI(MPI_Type_free(&idx));
    CHECK_MPI(MPI_Win_free(&win));
}

/* Many origins into one place: adds, unique fetch-and-add tickets, one compare-and-swap winner. */
static void atomicity(void)
{
    long *c;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(4 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &c, &win));
    for (int i = 0; i < 4; i++)
        c[i] = 0;
    long one = 1, tickets[REPS];
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int k = 0; k < REPS; k++) {
        CHECK_MPI(MPI_Accumulate(&one, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win));
        CHECK_MPI(MPI_Fetch_and_op(&one, &tickets[k], MPI_LONG, 0, 1, MPI_SUM, win));
    }
    long me = rank + 1, old = -7, zero = 0;
    if (HAVE_WORKING_CAS) {
        CHECK_MPI(MPI_Compare_and_swap(&me, &zero, &old, MPI_LONG, 0, 2, win));
        CHECK_MPI(MPI_Compare_and_swap(&me, &zero, &old, MPI_LONG, MPI_PROC_NULL, 2, win));
    }
    CHECK_MPI(MPI_Win_fence(0, win));
    /* Every ticket is unique over all ranks: gather them on rank 0. */
    long *all = rank == 0 ? tu_malloc(sizeof(long) * REPS * (size_t)size) : NULL;
    CHECK_MPI(MPI_Gather(tickets, REPS, MPI_LONG, all, REPS, MPI_LONG, 0, MPI_COMM_WORLD));
    long winner = old == 0 ? me : 0, winners = 0;
    CHECK_MPI(MPI_Reduce(&winner, &winners, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
    if (rank == 0) {
        CHECK_EQ((long)REPS * size, c[0]);
        CHECK_EQ((long)REPS * size, c[1]);
        bool *seen = calloc((size_t)REPS * (size_t)size, 1);
        for (int i = 0; i < REPS * size; i++) {
            CHECK(all[i] >= 0 && all[i] < (long)REPS * size);
            CHECK_MSG(!seen[all[i]], "ticket %ld handed out twice", all[i]);
            seen[all[i]] = true;
        }
        free(seen);
        free(all);
        if (HAVE_WORKING_CAS) {
            CHECK(c[2] >= 1 && c[2] <= size);
            CHECK_EQ(c[2], winners); /* exactly one winner: the value is its rank + 1 */
        }
    }
    /* MPI_NO_OP fetches without changing; MPI_REPLACE through Fetch_and_op swaps. */
    long got = -1, mine = 1000 + rank;
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Fetch_and_op(NULL, &got, MPI_LONG, 0, 0, MPI_NO_OP, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_EQ((long)REPS * size, got);
    if (rank == size - 1)
        CHECK_MPI(MPI_Fetch_and_op(&mine, &got, MPI_LONG, 0, 3, MPI_REPLACE, win));
    CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT, &old, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_NO_OP, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_EQ((long)REPS * size, old);
    if (rank == size - 1)
        CHECK_EQ(0L, got);
    if (rank == 0)
        CHECK_EQ(1000L + size - 1, c[3]);
    CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    every_op();
    pairs();
    derived();
    atomicity();
    if (rank == 0)
        printf("OK rma_acc\n");
    MPI_Finalize();
    return 0;
}
