/* mprobe — matched probe: MPI_Mprobe, MPI_Improbe, MPI_Mrecv, MPI_Imrecv.
 *
 * The point of a matched probe is that the message it finds is its own: no other receive can take it.
 * Partners (0,1), (2,3), an unpaired last rank with itself:
 *   - stolen: the partner sends two messages with one tag; we Mprobe the first, then post a receive
 *     that matches both: it must get the second, and Mrecv the first (with Probe + Recv the receive
 *     would take the first). Eager and rendezvous sizes, Mprobe and Improbe, specific and wildcard
 *     source, Mrecv and Imrecv, a vector datatype on the receive side.
 *   - Improbe finds nothing before the partner has our go (deterministic).
 *   - MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC, which Mrecv/Imrecv complete at once with the empty status.
 *   - MPI_Message_c2f/f2c give back the handle while it is matched (and, in skiff, nothing after).
 * Then every rank sends ANY_SOURCE traffic to rank 0, which alternates Mprobe(ANY_SOURCE), a wildcard
 * MPI_Irecv and an Improbe: every message must arrive exactly once, and each sender's in order.
 *
 * MPICH 4.0 and Open MPI 4.1 implement all of it (MPI-3 calls).
 * usage: mprobe [large_bytes]
 */
#include "testutil.h"

#define NAME "mprobe"
enum { TAG_GO = 1, TAG_FAN = 2, TAG_PAIR = 10 };
#define FAN_MSGS 24

/* Waits for a message by Improbe, napping between polls once the sender is slow to come (ranks may
 * outnumber the cores: the sender must get one). */
static MPI_Message improbe_wait(int src, int tag, MPI_Status *st)
{
    MPI_Message m = MPI_MESSAGE_NULL;
    int flag = 0;
    for (unsigned polls = 0;; polls++) {
        CHECK_MPI(MPI_Improbe(src, tag, MPI_COMM_WORLD, &flag, &m, st));
        if (flag)
            return m;
        if (polls > 64) {
            struct timespec ts = {0, 20000};
            nanosleep(&ts, NULL);
        }
    }
}

static int is_skiff(void)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(v, &len);
    return strstr(v, "skiff") != NULL;
}

static void exchange_go(int partner)
{
    char out = 0, in = 0;
    MPI_Request r;
    CHECK_MPI(MPI_Isend(&out, 1, MPI_CHAR, partner, TAG_GO, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Recv(&in, 1, MPI_CHAR, partner, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
}

/* The data of message `which` (0 the first, 1 the second) of a round. */
static void check_data(const uint8_t *got, size_t n, int partner, int round, int which)
{
    CHECK_PATTERN(got, n, tu_seed((uint64_t)round, (uint64_t)partner, (uint64_t)which, 7));
}

/* One round of "stolen": how = bit 0 Improbe instead of Mprobe, bit 1 wildcard source, bit 2 Imrecv,
 * bit 3 strided receive type. */
static void stolen_round(int rank, int partner, size_t n, int round, int how)
{
    uint8_t *out[2], *in[2];
    MPI_Request sr[2], rr;
    for (int k = 0; k < 2; k++) {
        out[k] = tu_malloc(n);
        in[k] = tu_malloc(2 * n + TU_GUARD);
        tu_fill(out[k], n, tu_seed((uint64_t)round, (uint64_t)rank, (uint64_t)k, 7));
        CHECK_MPI(MPI_Isend(out[k], (int)n, MPI_BYTE, partner, TAG_PAIR + round, MPI_COMM_WORLD, &sr[k]));
    }
    int src = (how & 2) ? MPI_ANY_SOURCE : partner;
    int tag = TAG_PAIR + round; /* only the partner uses it, so ANY_SOURCE still means the partner */
    MPI_Status st;
    MPI_Message m = MPI_MESSAGE_NULL;
    if (how & 1)
        m = improbe_wait(src, tag, &st);
    else
        CHECK_MPI(MPI_Mprobe(src, tag, MPI_COMM_WORLD, &m, &st));
    CHECK(m != MPI_MESSAGE_NULL && m != MPI_MESSAGE_NO_PROC);
    CHECK_STATUS(st, partner, tag, (int)n);
    /* The handle as an integer (Fortran, MPI-5's toint) comes back as the same handle. */
    MPI_Fint f = MPI_Message_c2f(m);
    CHECK(MPI_Message_f2c(f) == m);
    /* A receive that matches both messages: the probed one is spoken for, so it gets the second. */
    CHECK_MPI(MPI_Irecv(in[1], (int)n, MPI_BYTE, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &rr));
    MPI_Datatype strided = MPI_BYTE;
    int count = (int)n;
    if (how & 8) { /* n/4 ints, every other one: the message lands packed, then is spread out */
        CHECK_MPI(MPI_Type_vector((int)(n / 4), 1, 2, MPI_INT, &strided));
        CHECK_MPI(MPI_Type_commit(&strided));
        count = 1;
    }
    uint8_t *land = in[0];
    tu_set_guard(land, (how & 8) ? 2 * n : n);
    if (how & 4) {
        MPI_Request r;
        CHECK_MPI(MPI_Imrecv(land, count, strided, &m, &r));
        CHECK_EQ(1, m == MPI_MESSAGE_NULL);
        CHECK_MPI(MPI_Wait(&r, &st));
    } else {
        CHECK_MPI(MPI_Mrecv(land, count, strided, &m, &st));
        CHECK_EQ(1, m == MPI_MESSAGE_NULL);
    }
    CHECK_STATUS(st, partner, tag, (int)n);
    /* Received, the message is gone: its integer names nothing (other libraries give a stale handle). */
    if (is_skiff())
        CHECK(MPI_Message_f2c(f) == MPI_MESSAGE_NULL);
    if (how & 8) {
        uint8_t *packed = tu_malloc(n);
        for (size_t i = 0; i < n / 4; i++)
            memcpy(packed + 4 * i, land + 8 * i, 4);
        check_data(packed, n, partner, round, 0);
        free(packed);
        CHECK_MPI(MPI_Type_free(&strided));
        CHECK_GUARD(land, 2 * n);
    } else {
        check_data(land, n, partner, round, 0);
        CHECK_GUARD(land, n);
    }
    CHECK_MPI(MPI_Wait(&rr, &st));
    CHECK_STATUS(st, partner, tag, (int)n);
    check_data(in[1], n, partner, round, 1);
    CHECK_MPI(MPI_Waitall(2, sr, TU_STATUSES_IGNORE));
    for (int k = 0; k < 2; k++) {
        free(out[k]);
        free(in[k]);
    }
}

static void proc_null(void)
{
    MPI_Message m = MPI_MESSAGE_NULL;
    MPI_Status st;
    int flag = 0, n = -1, buf = 5;
    CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &m, &st));
    CHECK_EQ(1, m == MPI_MESSAGE_NO_PROC);
    CHECK_EQ(1, MPI_Message_f2c(MPI_Message_c2f(m)) == MPI_MESSAGE_NO_PROC);
    CHECK_EQ(MPI_PROC_NULL, st.MPI_SOURCE);
    CHECK_EQ(MPI_ANY_TAG, st.MPI_TAG);
    CHECK_MPI(MPI_Mrecv(&buf, 1, MPI_INT, &m, &st));
    CHECK_EQ(1, m == MPI_MESSAGE_NULL);
    CHECK_EQ(MPI_PROC_NULL, st.MPI_SOURCE);
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &n));
    CHECK_EQ(0, n);
    CHECK_EQ(5, buf);
    CHECK_MPI(MPI_Improbe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &m, &st));
    CHECK_EQ(1, flag);
    CHECK_EQ(1, m == MPI_MESSAGE_NO_PROC);
    MPI_Request r;
    CHECK_MPI(MPI_Imrecv(&buf, 1, MPI_INT, &m, &r));
    CHECK_EQ(1, m == MPI_MESSAGE_NULL);
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK_EQ(MPI_PROC_NULL, st.MPI_SOURCE);
    CHECK_EQ(5, buf);
}

static void pairs(int rank, int size, size_t large)
{
    int partner = rank % 2 == 0 ? rank + 1 : rank - 1;
    if (partner >= size)
        partner = rank; /* the unpaired rank talks to itself */
    MPI_Message m = MPI_MESSAGE_NO_PROC;
    int flag = 1;
    /* Nothing is sent to us before our go reaches the partner. */
    CHECK_MPI(MPI_Improbe(partner, TAG_PAIR, MPI_COMM_WORLD, &flag, &m, MPI_STATUS_IGNORE));
    CHECK_EQ(0, flag);
    exchange_go(partner);
    size_t sizes[2] = {64, large};
    int round = 0;
    for (int s = 0; s < 2; s++)
        for (int how = 0; how < 16; how++)
            stolen_round(rank, partner, sizes[s], round++, how);
}

struct fan_msg {
    int from, seq;
};

/* Every other rank sends FAN_MSGS messages to rank 0, which takes them three ways in turn. */
static void fan_in(int rank, int size)
{
    if (rank != 0) {
        struct fan_msg out[FAN_MSGS];
        MPI_Request r[FAN_MSGS];
        for (int i = 0; i < FAN_MSGS; i++) {
            out[i] = (struct fan_msg){rank, i};
            CHECK_MPI(MPI_Isend(&out[i], 2, MPI_INT, 0, TAG_FAN, MPI_COMM_WORLD, &r[i]));
        }
        CHECK_MPI(MPI_Waitall(FAN_MSGS, r, TU_STATUSES_IGNORE));
        return;
    }
    int total = (size - 1) * FAN_MSGS, got = 0;
    int *next = calloc((size_t)size, sizeof *next);
    while (got < total) {
        struct fan_msg a = {-1, -1}, b = {-1, -1}, c = {-1, -1};
        MPI_Message m;
        MPI_Request r = MPI_REQUEST_NULL;
        MPI_Status st;
        CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, TAG_FAN, MPI_COMM_WORLD, &m, &st));
        int left = total - got - 1;
        if (left > 0)
            CHECK_MPI(MPI_Irecv(&b, 2, MPI_INT, MPI_ANY_SOURCE, TAG_FAN, MPI_COMM_WORLD, &r));
        MPI_Message m2 = MPI_MESSAGE_NULL;
        if (left > 1)
            m2 = improbe_wait(MPI_ANY_SOURCE, TAG_FAN, MPI_STATUS_IGNORE);
        CHECK_MPI(MPI_Mrecv(&a, 2, MPI_INT, &m, &st));
        CHECK_EQ(a.from, st.MPI_SOURCE);
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        if (m2 != MPI_MESSAGE_NULL)
            CHECK_MPI(MPI_Mrecv(&c, 2, MPI_INT, &m2, MPI_STATUS_IGNORE));
        /* Per sender, the probe's message is the oldest, then the receive's, then the Improbe's. */
        struct fan_msg *order[3] = {&a, &b, &c};
        for (int k = 0; k < 3; k++) {
            struct fan_msg *x = order[k];
            if (x->from < 0)
                continue;
            CHECK(x->from > 0 && x->from < size);
            CHECK_EQ(next[x->from], x->seq);
            next[x->from]++;
            got++;
        }
    }
    for (int p = 1; p < size; p++)
        CHECK_EQ(FAN_MSGS, next[p]);
    free(next);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    size_t large = (size_t)tu_arg_long(argc, argv, 1, 1 << 20);
    proc_null();
    pairs(rank, size, large);
    tu_barrier();
    fan_in(rank, size);
    tu_barrier();
    MPI_Message m = MPI_MESSAGE_NO_PROC;
    int flag = 1;
    /* Every message was taken once (the barrier's own traffic uses other tags). */
    CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, TAG_FAN, MPI_COMM_WORLD, &flag, &m, MPI_STATUS_IGNORE));
    CHECK_MSG(!flag, "a message is left over after the test");
    return tu_finish(NAME);
}
