/* partitioned — MPI-4 partitioned point-to-point from one thread: MPI_Psend_init, MPI_Precv_init,
 * MPI_Pready, MPI_Pready_range, MPI_Pready_list, MPI_Parrived, with Start/Startall and Wait/Test/Waitall.
 *
 * Every rank sends to its right neighbour and receives from its left one (itself at np 1):
 *   - shapes: the two sides cut the same 48 ints differently (4x12 against 4x12, 8x6 against 3x16,
 *     3x16 against 8x6, 48x1 against 1x48, 2x24 against 6x8), 3 rounds each on the same requests, new data
 *     each round; partitions marked in reverse with MPI_Pready, in two MPI_Pready_range halves (upper
 *     first), and as an MPI_Pready_list of odd then even partitions. The receiver polls MPI_Parrived and
 *     checks each partition as soon as it has arrived, before MPI_Wait.
 *   - several at once: three pairs started by one MPI_Startall, two of them with the same tag (matched in
 *     init order, different sizes), partitions marked interleaved across the requests, completed by
 *     MPI_Waitall; meanwhile an ordinary MPI_Isend/MPI_Irecv pair on the same communicator, with the
 *     same tag and MPI_ANY_TAG, must get the ordinary message and nothing partitioned.
 *   - a vector datatype on the sending side against contiguous ints on the receiving side, and the
 *     other way round (each receive partition checked as soon as MPI_Parrived reports it).
 *   - a late receiver: every partition marked before the receiving side calls MPI_Precv_init (eager and
 *     rendezvous sizes).
 *   - partitions leave as they are marked: half the send partitions ready, the first receive partition
 *     arrives (and the second has not) before the sender marks the rest; eager and rendezvous sizes
 *     (not under MPICH 4.0, which sends a partitioned message only when all of it is ready).
 *   - MPI_PROC_NULL: rounds complete at once, every partition has arrived (not under MPICH 4.0, whose
 *     MPI_Psend_init crashes on it).
 *   - an intercommunicator (even and odd world ranks), at np >= 2.
 *   - MPI_Parrived on MPI_REQUEST_NULL and on an inactive request: flag true (MPI-4.1 and later only);
 *     MPI_Test completes a send.
 *
 * MPICH 4.0 implements these calls. Open MPI 4.1 (Debian 12's 4.1.4) is an MPI-3.1 library that neither
 * declares nor exports them (its part/persist component came with 5.0): below MPI_VERSION 4 the test
 * says so and has nothing to check.
 */
#include "testutil.h"

#define NAME "partitioned"
#define TOTAL 48
#define ROUNDS 3
enum { TAG_SHAPE = 10, TAG_SAME = 11, TAG_OTHER = 12, TAG_VEC = 13, TAG_NULL = 14, TAG_EARLY = 15, TAG_ACK = 16,
       TAG_LATE = 17, TAG_INTER = 18 };

#if MPI_VERSION >= 4

/* MPI-4.1 allows MPI_Parrived on a null or inactive request (flag true); MPICH 4.0, an MPI-4.0 library,
 * refuses it. */
#define INACTIVE_PARRIVED (MPI_VERSION > 4 || MPI_SUBVERSION >= 1)
/* MPICH 4.0's MPI_Psend_init crashes (in UCX) when dest is MPI_PROC_NULL, and it moves a partitioned
 * message only once every partition is ready, so the early-arrival check would wait forever. */
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40100000
#define PROC_NULL_PEER 0
#define EARLY_ARRIVAL 0
#else
#define PROC_NULL_PEER 1
#define EARLY_ARRIVAL 1
#endif

static int value(int sender, int round, int k, int salt)
{
    return salt * 1000000 + sender * 10000 + round * 1000 + k;
}

/* Marks all partitions of an active send, in the order style says. */
static void mark(MPI_Request req, int parts, int style)
{
    if (style == 0) {
        for (int i = parts - 1; i >= 0; i--)
            CHECK_MPI(MPI_Pready(i, req));
    } else if (style == 1) {
        int mid = parts / 2;
        CHECK_MPI(MPI_Pready_range(mid, parts - 1, req));
        if (mid > 0)
            CHECK_MPI(MPI_Pready_range(0, mid - 1, req));
    } else {
        int list[TOTAL], n = 0;
        for (int i = 1; i < parts; i += 2)
            list[n++] = i;
        for (int i = 0; i < parts; i += 2)
            list[n++] = i;
        CHECK_MPI(MPI_Pready_list(n, list, req));
    }
}

/* Polls MPI_Parrived over every receive partition, checking each as it arrives. */
static void poll_arrivals(MPI_Request req, int parts, int per, const int *buf, int left, int round, int salt)
{
    int seen[TOTAL] = {0}, remaining = parts;
    unsigned polls = 0;
    while (remaining > 0) {
        int progress = 0;
        for (int i = 0; i < parts; i++) {
            int flag = 0;
            if (seen[i])
                continue;
            CHECK_MPI(MPI_Parrived(req, i, &flag));
            if (!flag)
                continue;
            for (int k = i * per; k < (i + 1) * per; k++)
                CHECK_MSG(buf[k] == value(left, round, k, salt), "round %d partition %d: buf[%d] = %d, expected %d",
                          round, i, k, buf[k], value(left, round, k, salt));
            seen[i] = 1;
            remaining--;
            progress = 1;
        }
        if (!progress)
            tu_poll_pause(&polls);
    }
}

static void shapes(int right, int left, int rank)
{
    static const int cuts[][2] = {{4, 4}, {8, 3}, {3, 8}, {48, 1}, {2, 6}};
    for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
        int sparts = cuts[c][0], rparts = cuts[c][1];
        int sbuf[TOTAL], rbuf[TOTAL];
        MPI_Request s, r;
        CHECK_MPI(MPI_Precv_init(rbuf, rparts, TOTAL / rparts, MPI_INT, left, TAG_SHAPE, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &r));
        CHECK_MPI(MPI_Psend_init(sbuf, sparts, TOTAL / sparts, MPI_INT, right, TAG_SHAPE, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &s));
        for (int round = 0; round < ROUNDS; round++) {
            int salt = (int)c + 1;
            for (int k = 0; k < TOTAL; k++) {
                sbuf[k] = value(rank, round, k, salt);
                rbuf[k] = -1;
            }
            CHECK_MPI(MPI_Start(&r));
            CHECK_MPI(MPI_Start(&s));
            mark(s, sparts, (round + (int)c) % 3);
            poll_arrivals(r, rparts, TOTAL / rparts, rbuf, left, round, salt);
            MPI_Status st;
            CHECK_MPI(MPI_Wait(&r, &st));
            if (round == ROUNDS - 1) {
                int flag = 0;
                unsigned polls = 0;
                while (!flag) {
                    CHECK_MPI(MPI_Test(&s, &flag, MPI_STATUS_IGNORE));
                    if (!flag)
                        tu_poll_pause(&polls);
                }
            } else {
                CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
            }
            for (int k = 0; k < TOTAL; k++)
                CHECK_EQ(value(left, round, k, salt), rbuf[k]);
#if INACTIVE_PARRIVED
            /* Inactive now: every partition counts as arrived. */
            int flag = 0;
            CHECK_MPI(MPI_Parrived(r, rparts - 1, &flag));
            CHECK_EQ(1, flag);
#endif
        }
        CHECK_MPI(MPI_Request_free(&s));
        CHECK_MPI(MPI_Request_free(&r));
        CHECK(s == MPI_REQUEST_NULL && r == MPI_REQUEST_NULL);
    }
}

/* Three pairs at once, two sharing a tag; an ordinary message with the same tag beside them. */
static void several(int right, int left, int rank)
{
    enum { A = 10, B = 20, C = 12 };
    int sa[A], sb[B], sc[C], ra[A], rb[B], rc[C], plain = 7 * rank + 3, got = -1;
    MPI_Request req[6], preq[2];
    /* Receives first on purpose: their inits are ordered among themselves, whatever the sends do. */
    CHECK_MPI(MPI_Precv_init(ra, 2, A / 2, MPI_INT, left, TAG_SAME, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]));
    CHECK_MPI(MPI_Precv_init(rb, 4, B / 4, MPI_INT, left, TAG_SAME, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]));
    CHECK_MPI(MPI_Precv_init(rc, 3, C / 3, MPI_INT, left, TAG_OTHER, MPI_COMM_WORLD, MPI_INFO_NULL, &req[2]));
    CHECK_MPI(MPI_Psend_init(sa, 5, A / 5, MPI_INT, right, TAG_SAME, MPI_COMM_WORLD, MPI_INFO_NULL, &req[3]));
    CHECK_MPI(MPI_Psend_init(sb, 2, B / 2, MPI_INT, right, TAG_SAME, MPI_COMM_WORLD, MPI_INFO_NULL, &req[4]));
    CHECK_MPI(MPI_Psend_init(sc, 6, C / 6, MPI_INT, right, TAG_OTHER, MPI_COMM_WORLD, MPI_INFO_NULL, &req[5]));
    for (int round = 0; round < 2; round++) {
        for (int k = 0; k < A; k++)
            sa[k] = value(rank, round, k, 11), ra[k] = -1;
        for (int k = 0; k < B; k++)
            sb[k] = value(rank, round, k, 12), rb[k] = -1;
        for (int k = 0; k < C; k++)
            sc[k] = value(rank, round, k, 13), rc[k] = -1;
        CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, left, MPI_ANY_TAG, MPI_COMM_WORLD, &preq[0]));
        CHECK_MPI(MPI_Startall(6, req));
        /* Interleaved: one partition of each send in turn. */
        for (int i = 0; i < 6; i++) {
            if (i < 5)
                CHECK_MPI(MPI_Pready(4 - i, req[3]));
            if (i < 2)
                CHECK_MPI(MPI_Pready(i, req[4]));
            CHECK_MPI(MPI_Pready(i, req[5]));
            if (i == 2)
                CHECK_MPI(MPI_Isend(&plain, 1, MPI_INT, right, TAG_SAME, MPI_COMM_WORLD, &preq[1]));
        }
        CHECK_MPI(MPI_Waitall(6, req, TU_STATUSES_IGNORE));
        MPI_Status st[2];
        CHECK_MPI(MPI_Waitall(2, preq, st));
        CHECK_EQ(7 * left + 3, got);
        CHECK_EQ(TAG_SAME, st[0].MPI_TAG);
        for (int k = 0; k < A; k++)
            CHECK_EQ(value(left, round, k, 11), ra[k]);
        for (int k = 0; k < B; k++)
            CHECK_EQ(value(left, round, k, 12), rb[k]);
        for (int k = 0; k < C; k++)
            CHECK_EQ(value(left, round, k, 13), rc[k]);
    }
    for (int i = 0; i < 6; i++)
        CHECK_MPI(MPI_Request_free(&req[i]));
}

/* 3 ints, every other one of 6: elements follow each other without gaps between them. */
static MPI_Datatype every_other_type(void)
{
    MPI_Datatype vec, every_other;
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_create_resized(vec, 0, (MPI_Aint)(6 * sizeof(int)), &every_other));
    CHECK_MPI(MPI_Type_commit(&every_other));
    CHECK_MPI(MPI_Type_free(&vec));
    return every_other;
}

/* Contiguous ints in 6 partitions go out; they land as every other int in 2 partitions of 8 elements,
 * each unpacked once all of it is in. */
static void vector_recv(int right, int left, int rank)
{
    int sbuf[TOTAL], rbuf[2 * TOTAL];
    MPI_Datatype every_other = every_other_type();
    MPI_Request s, r;
    CHECK_MPI(MPI_Precv_init(rbuf, 2, 8, every_other, left, TAG_VEC, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Type_free(&every_other));
    CHECK_MPI(MPI_Psend_init(sbuf, 6, TOTAL / 6, MPI_INT, right, TAG_VEC, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    for (int round = 0; round < 2; round++) {
        for (int k = 0; k < TOTAL; k++)
            sbuf[k] = value(rank, round, k, 22);
        for (int k = 0; k < 2 * TOTAL; k++)
            rbuf[k] = -7;
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Start(&s));
        mark(s, 6, round);
        int seen[2] = {0, 0}, remaining = 2;
        unsigned polls = 0;
        while (remaining) {
            int got = 0;
            for (int i = 0; i < 2; i++) {
                int flag = 0;
                if (seen[i])
                    continue;
                CHECK_MPI(MPI_Parrived(r, i, &flag));
                if (!flag)
                    continue;
                for (int k = i * TOTAL; k < (i + 1) * TOTAL; k++)
                    CHECK_EQ(k % 2 ? -7 : value(left, round, k / 2, 22), rbuf[k]);
                seen[i] = 1;
                remaining--;
                got = 1;
            }
            if (!got)
                tu_poll_pause(&polls);
        }
        CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        for (int k = 0; k < 2 * TOTAL; k++)
            CHECK_EQ(k % 2 ? -7 : value(left, round, k / 2, 22), rbuf[k]);
    }
    CHECK_MPI(MPI_Request_free(&s));
    CHECK_MPI(MPI_Request_free(&r));
}

/* Every other int of 2*TOTAL leaves; the receiver takes TOTAL contiguous ints in 6 partitions. */
static void vector(int right, int left, int rank)
{
    int sbuf[2 * TOTAL], rbuf[TOTAL];
    MPI_Datatype every_other = every_other_type();
    MPI_Request s, r;
    CHECK_MPI(MPI_Precv_init(rbuf, 6, TOTAL / 6, MPI_INT, left, TAG_VEC, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    /* 4 partitions of 4 elements of 3 ints each. */
    CHECK_MPI(MPI_Psend_init(sbuf, 4, 4, every_other, right, TAG_VEC, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    CHECK_MPI(MPI_Type_free(&every_other)); /* the requests hold it */
    for (int round = 0; round < 2; round++) {
        for (int k = 0; k < 2 * TOTAL; k++)
            sbuf[k] = k % 2 ? -7 : value(rank, round, k / 2, 21);
        for (int k = 0; k < TOTAL; k++)
            rbuf[k] = -1;
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Start(&s));
        mark(s, 4, round + 1);
        poll_arrivals(r, 6, TOTAL / 6, rbuf, left, round, 21);
        CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    CHECK_MPI(MPI_Request_free(&s));
    CHECK_MPI(MPI_Request_free(&r));
}

/* Partitions leave as they are marked: with only the first half of the send partitions ready, the first
 * receive partition arrives (and the second cannot have); the receiver says so with an ordinary message
 * before the sender marks the rest. per ints per send partition: small (eager) or large (rendezvous). */
static void early(int right, int left, int rank, int per)
{
    int total = 4 * per, flag = 0, ack = 0;
    int *sbuf = tu_malloc((size_t)total * sizeof(int)), *rbuf = tu_malloc((size_t)total * sizeof(int));
    MPI_Request s, r;
    CHECK_MPI(MPI_Precv_init(rbuf, 2, 2 * per, MPI_INT, left, TAG_EARLY, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Psend_init(sbuf, 4, per, MPI_INT, right, TAG_EARLY, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    for (int round = 0; round < 2; round++) {
        for (int k = 0; k < total; k++) {
            sbuf[k] = value(rank, round, k, 31);
            rbuf[k] = -1;
        }
        CHECK_MPI(MPI_Start(&s));
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Pready_range(0, 1, s));
        unsigned polls = 0;
        for (flag = 0; !flag;) {
            CHECK_MPI(MPI_Parrived(r, 0, &flag));
            if (!flag)
                tu_poll_pause(&polls);
        }
        for (int k = 0; k < 2 * per; k++)
            CHECK_EQ(value(left, round, k, 31), rbuf[k]);
        CHECK_MPI(MPI_Parrived(r, 1, &flag));
        CHECK_EQ(0, flag);
        CHECK_MPI(MPI_Sendrecv(&round, 1, MPI_INT, left, TAG_ACK, &ack, 1, MPI_INT, right, TAG_ACK, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
        CHECK_EQ(round, ack);
        CHECK_MPI(MPI_Pready(3, s));
        CHECK_MPI(MPI_Pready(2, s));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
        for (int k = 0; k < total; k++)
            CHECK_EQ(value(left, round, k, 31), rbuf[k]);
    }
    CHECK_MPI(MPI_Request_free(&s));
    CHECK_MPI(MPI_Request_free(&r));
    free(sbuf);
    free(rbuf);
}

/* Every partition is marked before the receiver even exists: the hello and the data wait for it. The send
 * completes after the receive, as a rendezvous-sized one may need the receiver. */
static void late_receiver(int right, int left, int rank, int per)
{
    int total = 3 * per;
    int *sbuf = tu_malloc((size_t)total * sizeof(int)), *rbuf = tu_malloc((size_t)total * sizeof(int));
    MPI_Request s, r;
    for (int k = 0; k < total; k++) {
        sbuf[k] = value(rank, 0, k, 41);
        rbuf[k] = -1;
    }
    CHECK_MPI(MPI_Psend_init(sbuf, 3, per, MPI_INT, right, TAG_LATE, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    CHECK_MPI(MPI_Start(&s));
    CHECK_MPI(MPI_Pready_range(0, 2, s));
    tu_barrier();
    CHECK_MPI(MPI_Precv_init(rbuf, 1, total, MPI_INT, left, TAG_LATE, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    for (int k = 0; k < total; k++)
        CHECK_EQ(value(left, 0, k, 41), rbuf[k]);
    CHECK_MPI(MPI_Request_free(&s));
    CHECK_MPI(MPI_Request_free(&r));
    free(sbuf);
    free(rbuf);
}

/* Across an intercommunicator (even and odd world ranks): local rank i pairs with remote rank i, where both
 * exist, 2 send partitions against 3 receive partitions. */
static void intercomm(int rank)
{
    MPI_Comm half, inter;
    int color = rank % 2, lrank = 0, rsize = 0, rb[12], sb[12];
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half));
    CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, TAG_INTER, &inter));
    CHECK_MPI(MPI_Comm_rank(inter, &lrank));
    CHECK_MPI(MPI_Comm_remote_size(inter, &rsize));
    if (lrank < rsize) {
        MPI_Request req[2];
        for (int k = 0; k < 12; k++)
            sb[k] = value(rank, 0, k, 51), rb[k] = -1;
        CHECK_MPI(MPI_Precv_init(rb, 3, 4, MPI_INT, lrank, TAG_INTER, inter, MPI_INFO_NULL, &req[0]));
        CHECK_MPI(MPI_Psend_init(sb, 2, 6, MPI_INT, lrank, TAG_INTER, inter, MPI_INFO_NULL, &req[1]));
        CHECK_MPI(MPI_Startall(2, req));
        CHECK_MPI(MPI_Pready(1, req[1]));
        CHECK_MPI(MPI_Pready(0, req[1]));
        CHECK_MPI(MPI_Waitall(2, req, TU_STATUSES_IGNORE));
        /* Remote rank lrank is world rank 2 * lrank + 1 - color. */
        for (int k = 0; k < 12; k++)
            CHECK_EQ(value(2 * lrank + 1 - color, 0, k, 51), rb[k]);
        CHECK_MPI(MPI_Request_free(&req[0]));
        CHECK_MPI(MPI_Request_free(&req[1]));
    }
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&half));
}

static void proc_null(void)
{
    int sbuf[8] = {0}, rbuf[8] = {0}, flag = 0;
    MPI_Request s, r;
    CHECK_MPI(MPI_Psend_init(sbuf, 4, 2, MPI_INT, MPI_PROC_NULL, TAG_NULL, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    CHECK_MPI(MPI_Precv_init(rbuf, 2, 4, MPI_INT, MPI_PROC_NULL, TAG_NULL, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    for (int round = 0; round < 2; round++) {
        CHECK_MPI(MPI_Start(&s));
        CHECK_MPI(MPI_Start(&r));
        mark(s, 4, round);
        for (int i = 0; i < 2; i++) {
            unsigned polls = 0;
            for (flag = 0; !flag;) {
                CHECK_MPI(MPI_Parrived(r, i, &flag));
                if (!flag)
                    tu_poll_pause(&polls);
            }
        }
        CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    CHECK_MPI(MPI_Request_free(&s));
    CHECK_MPI(MPI_Request_free(&r));
#if INACTIVE_PARRIVED
    flag = 0;
    CHECK_MPI(MPI_Parrived(MPI_REQUEST_NULL, 0, &flag));
    CHECK_EQ(1, flag);
#endif
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    int rank = tu_rank(), size = tu_size();
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    shapes(right, left, rank);
    several(right, left, rank);
    vector(right, left, rank);
    vector_recv(right, left, rank);
    late_receiver(right, left, rank, 8);
    late_receiver(right, left, rank, 64 * 1024);
    if (EARLY_ARRIVAL) {
        early(right, left, rank, 16);
        early(right, left, rank, 64 * 1024);
    }
    if (PROC_NULL_PEER)
        proc_null();
    if (size >= 2)
        intercomm(rank);
    return tu_finish(NAME);
}

#else

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    if (tu_rank() == 0)
        printf("%s: MPI_VERSION %d has no partitioned communication: nothing to check\n", NAME, MPI_VERSION);
    return tu_finish(NAME);
}

#endif
