/* isendrecv — MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4).
 *
 * Each rank sends to the next and receives from the previous one (a ring; alone, a rank talks to itself)
 * with one request for both halves: eager and rendezvous sizes, contiguous and vector datatypes,
 * completed by Wait, by a Test loop and by Waitall over several at once; the status is the receive's.
 * MPI_PROC_NULL on either side or both leaves that half out (the status then names MPI_PROC_NULL).
 * _replace sends what the buffer held and leaves what arrived, also between a vector datatype's gaps
 * untouched. A freed request still completes (the data arrives).
 *
 * MPICH 4.0 implements both; Open MPI 4.1 (MPI 3.1) does not: built there, the test passes trivially.
 * usage: isendrecv [large_bytes]
 */
#include "testutil.h"

#define NAME "isendrecv"
enum { TAG_A = 1, TAG_B = 2, TAG_FREE = 3 };

#if MPI_VERSION >= 4
static uint32_t seed(int round, int from, size_t n)
{
    return tu_seed((uint64_t)round, (uint64_t)from, (uint64_t)n, 13);
}

static void wait_one(MPI_Request *r, MPI_Status *st, int how)
{
    if (how == 0) {
        CHECK_MPI(MPI_Wait(r, st));
        return;
    }
    int flag = 0;
    for (unsigned polls = 0; !flag; polls++) {
        CHECK_MPI(MPI_Test(r, &flag, st));
        if (!flag && polls > 64) {
            struct timespec ts = {0, 20000};
            nanosleep(&ts, NULL);
        }
    }
    CHECK(*r == MPI_REQUEST_NULL);
}

/* n bytes around the ring; strided: as n/4 ints, every other one of a vector type on both sides. */
static void ring(int rank, int next, int prev, size_t n, int strided, int how, int round)
{
    uint8_t *s = tu_malloc(2 * n), *r = tu_malloc(2 * n + TU_GUARD), *flat = tu_malloc(n);
    MPI_Datatype t = MPI_BYTE;
    int count = (int)n;
    if (strided) {
        CHECK_MPI(MPI_Type_vector((int)(n / 4), 1, 2, MPI_INT, &t));
        CHECK_MPI(MPI_Type_commit(&t));
        count = 1;
    }
    tu_fill(flat, n, seed(round, rank, n));
    for (size_t i = 0; i < n; i += 4)
        memcpy(strided ? s + 2 * i : s + i, flat + i, n - i < 4 ? n - i : 4);
    memset(r, 0, 2 * n);
    tu_set_guard(r, 2 * n);
    MPI_Request q;
    MPI_Status st;
    CHECK_MPI(MPI_Isendrecv(s, count, t, next, TAG_A, r, count, t, prev, TAG_A, MPI_COMM_WORLD, &q));
    /* The send buffer is the sender's again only at completion; change nothing before. */
    wait_one(&q, &st, how);
    CHECK_STATUS(st, prev, TAG_A, (int)n);
    for (size_t i = 0; i < n; i += 4)
        memcpy(flat + i, strided ? r + 2 * i : r + i, n - i < 4 ? n - i : 4);
    CHECK_PATTERN(flat, n, seed(round, prev, n));
    CHECK_GUARD(r, 2 * n);

    /* _replace: what s holds goes out, what arrives takes its place; a vector's gaps stay as they were. */
    memset(s + (strided ? 4 : n), 0x5a, strided ? 4 : n); /* a gap (strided) or the unused half */
    CHECK_MPI(MPI_Isendrecv_replace(s, count, t, next, TAG_B, prev, TAG_B, MPI_COMM_WORLD, &q));
    wait_one(&q, &st, 1 - how);
    CHECK_STATUS(st, prev, TAG_B, (int)n);
    for (size_t i = 0; i < n; i += 4)
        memcpy(flat + i, strided ? s + 2 * i : s + i, n - i < 4 ? n - i : 4);
    CHECK_PATTERN(flat, n, seed(round, prev, n));
    CHECK_EQ(0x5a, s[strided ? 4 : n]);
    if (strided)
        CHECK_MPI(MPI_Type_free(&t));
    free(s);
    free(r);
    free(flat);
}

static void proc_null(int rank)
{
    int a = rank, b = -5;
    MPI_Request q[3];
    MPI_Status st[3];
    /* Both sides null; a send to null with a receive from ourselves; the receive side null. */
    CHECK_MPI(MPI_Isendrecv(&a, 1, MPI_INT, MPI_PROC_NULL, 0, &b, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &q[0]));
    CHECK_MPI(MPI_Isendrecv_replace(&b, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &q[1]));
    int c = 11;
    CHECK_MPI(MPI_Isendrecv(&c, 1, MPI_INT, 0, 5, &b, 1, MPI_INT, MPI_PROC_NULL, 5,
                            MPI_COMM_SELF, &q[2]));
    CHECK_MPI(MPI_Waitall(3, q, st));
    for (int i = 0; i < 3; i++) {
        int n = -1;
        CHECK_EQ(MPI_PROC_NULL, st[i].MPI_SOURCE);
        CHECK_EQ(MPI_ANY_TAG, st[i].MPI_TAG);
        CHECK_MPI(MPI_Get_count(&st[i], MPI_INT, &n));
        CHECK_EQ(0, n);
    }
    CHECK_EQ(-5, b);
    /* The send to ourselves above is waiting: take it. */
    CHECK_MPI(MPI_Recv(&b, 1, MPI_INT, 0, 5, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    CHECK_EQ(11, b);
}

/* Several at once, one Waitall; then one freed before it completes. */
static void many(int rank, int next, int prev)
{
    enum { K = 8 };
    int out[K], in[K];
    MPI_Request q[K];
    MPI_Status st[K];
    for (int i = 0; i < K; i++) {
        out[i] = rank * 100 + i;
        in[i] = -1;
        CHECK_MPI(MPI_Isendrecv(&out[i], 1, MPI_INT, next, TAG_A + 10 + i, &in[i], 1, MPI_INT, prev, TAG_A + 10 + i,
                                MPI_COMM_WORLD, &q[i]));
    }
    CHECK_MPI(MPI_Waitall(K, q, st));
    for (int i = 0; i < K; i++) {
        CHECK_EQ(prev * 100 + i, in[i]);
        CHECK_STATUS(st[i], prev, TAG_A + 10 + i, (int)sizeof(int));
    }
    int v = rank, w = -1;
    MPI_Request f;
    CHECK_MPI(MPI_Isendrecv(&v, 1, MPI_INT, next, TAG_FREE, &w, 1, MPI_INT, prev, TAG_FREE, MPI_COMM_WORLD, &f));
    CHECK_MPI(MPI_Request_free(&f));
    CHECK(f == MPI_REQUEST_NULL);
    /* A second message from the same sender with the same tag goes to a receive posted after the freed
     * one's (no overtaking): once it is here, so is the first, which is 4 bytes, delivered on matching. */
    int z = -1;
    CHECK_MPI(MPI_Sendrecv(&v, 1, MPI_INT, next, TAG_FREE, &z, 1, MPI_INT, prev, TAG_FREE, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    CHECK_EQ(prev, z);
    CHECK_EQ(prev, w);
}
#endif

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
#if MPI_VERSION >= 4
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    size_t large = (size_t)tu_arg_long(argc, argv, 1, 1 << 20);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    proc_null(rank);
    size_t sizes[3] = {8, 4096, large};
    int round = 0;
    for (int s = 0; s < 3; s++)
        for (int strided = 0; strided < 2; strided++)
            for (int how = 0; how < 2; how++)
                ring(rank, next, prev, sizes[s], strided, how, round++);
    many(rank, next, prev);
#else
    if (tu_rank() == 0)
        printf("%s: MPI_VERSION %d has no MPI_Isendrecv: nothing to check (trivial pass)\n", NAME, MPI_VERSION);
#endif
    return tu_finish(NAME);
}
