/* pt2pt_unexpected — messages that arrive before their receive is posted, and empty messages.
 *
 * The sender sends everything first; the receiver sleeps ~50 ms so all of it lands in the
 * unexpected queue (or waits as a rendezvous request), then receives.
 *   part 1: many small/zero-byte blocking Sends, received in order.
 *   part 2: Isends of mixed sizes (incl. > 64 KiB and 0 bytes) over three tags; the receiver
 *           drains tag 2, then 1, then 0, so the unexpected queue is searched by tag while the
 *           order within each tag is kept.
 *   part 3: zero-byte messages with NULL buffers and a zero-byte message into a larger buffer.
 *
 * Ranks pair as (0,1), (2,3); roles swap so both directions are tested. An unpaired rank (np=1
 * or the last rank at odd np) does the same against itself, using Isend (a blocking send to
 * oneself before the receive is posted is unsafe MPI).
 *
 * usage: pt2pt_unexpected [small_count] [mixed_count]
 */
#include "testutil.h"

#define NAME "pt2pt_unexpected"
#define MAXMSG (96 * 1024)

static int small_size(int k)
{
    static const int s[] = {0, 1, 7, 64, 0, 255, 1024, 3};
    return s[k % 8];
}

static int mixed_size(int k)
{
    static const int s[] = {0, 65 * 1024 + 1, 12, 4096, 0, MAXMSG, 1, 70000};
    return s[k % 8];
}

static void recv_check(int src, int tag, int n, uint32_t seed, uint8_t *buf)
{
    MPI_Status st;
    tu_set_guard(buf, (size_t)n);
    CHECK_MPI(MPI_Recv(buf, MAXMSG, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st));
    CHECK_STATUS(st, src, tag, n);
    CHECK_PATTERN(buf, (size_t)n, seed);
    if (n + TU_GUARD <= MAXMSG)
        CHECK_GUARD(buf, (size_t)n);
}

/* Part 1: in-order stream of small blocking sends. */
static void part_small(int sender, int receiver, int rank, int count, uint8_t *buf)
{
    if (rank == sender) {
        int self = (sender == receiver);
        MPI_Request *req = tu_malloc(sizeof(MPI_Request) * (size_t)count);
        uint8_t *sb = tu_malloc((size_t)count * 1024);
        for (int k = 0; k < count; k++) {
            uint8_t *p = sb + (size_t)k * 1024;
            tu_fill(p, (size_t)small_size(k), tu_seed(1, (uint64_t)k, (uint64_t)sender, 0));
            if (self)
                CHECK_MPI(
                    MPI_Isend(p, small_size(k), MPI_BYTE, receiver, 3, MPI_COMM_WORLD, &req[k]));
            else
                CHECK_MPI(MPI_Send(p, small_size(k), MPI_BYTE, receiver, 3, MPI_COMM_WORLD));
        }
        if (self) {
            tu_sleep_ms(50);
            for (int k = 0; k < count; k++)
                recv_check(sender, 3, small_size(k), tu_seed(1, (uint64_t)k, (uint64_t)sender, 0),
                           buf);
            CHECK_MPI(MPI_Waitall(count, req, TU_STATUSES_IGNORE));
        }
        free(sb);
        free(req);
    } else if (rank == receiver) {
        tu_sleep_ms(50);
        for (int k = 0; k < count; k++)
            recv_check(sender, 3, small_size(k), tu_seed(1, (uint64_t)k, (uint64_t)sender, 0), buf);
    }
}

/* Part 2: mixed sizes over tags 0..2, drained in reverse tag order. */
static void part_mixed(int sender, int receiver, int rank, int count, uint8_t *buf)
{
    MPI_Request *req = NULL;
    uint8_t *sb = NULL;
    if (rank == sender) {
        req = tu_malloc(sizeof(MPI_Request) * (size_t)count);
        sb = tu_malloc((size_t)count * MAXMSG);
        for (int k = 0; k < count; k++) {
            uint8_t *p = sb + (size_t)k * MAXMSG;
            tu_fill(p, (size_t)mixed_size(k), tu_seed(2, (uint64_t)k, (uint64_t)sender, 0));
            CHECK_MPI(
                MPI_Isend(p, mixed_size(k), MPI_BYTE, receiver, k % 3, MPI_COMM_WORLD, &req[k]));
        }
    }
    if (rank == receiver) {
        tu_sleep_ms(50);
        for (int tag = 2; tag >= 0; tag--)
            for (int k = tag; k < count; k += 3)
                recv_check(sender, tag, mixed_size(k), tu_seed(2, (uint64_t)k, (uint64_t)sender, 0),
                           buf);
    }
    if (rank == sender) {
        CHECK_MPI(MPI_Waitall(count, req, TU_STATUSES_IGNORE));
        free(sb);
        free(req);
    }
}

/* Part 3: empty messages. NULL is a valid buffer for count 0; a zero-byte message into a larger
 * buffer must leave the buffer untouched and report count 0 in any datatype. */
static void part_zero(int sender, int receiver, int rank)
{
    MPI_Request req[3];
    if (rank == sender) {
        static double dummy;
        CHECK_MPI(MPI_Isend(NULL, 0, MPI_BYTE, receiver, 7, MPI_COMM_WORLD, &req[0]));
        CHECK_MPI(MPI_Isend(NULL, 0, MPI_INT, receiver, 8, MPI_COMM_WORLD, &req[1]));
        CHECK_MPI(MPI_Isend(&dummy, 0, MPI_DOUBLE, receiver, 9, MPI_COMM_WORLD, &req[2]));
    }
    if (rank == receiver) {
        MPI_Status st;
        MPI_Request r;
        unsigned char big[16];
        int n = -1;
        tu_sleep_ms(20);
        CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, sender, 7, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, sender, 7, 0);

        memset(big, 0x5A, sizeof big);
        CHECK_MPI(MPI_Recv(big, 4, MPI_INT, sender, 8, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, sender, 8, 0);
        CHECK_MPI(MPI_Get_count(&st, MPI_INT, &n));
        CHECK_EQ(0, n);
        for (size_t i = 0; i < sizeof big; i++)
            CHECK_EQ(0x5A, big[i]);

        CHECK_MPI(MPI_Irecv(NULL, 0, MPI_DOUBLE, sender, 9, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Wait(&r, &st));
        CHECK(r == MPI_REQUEST_NULL);
        CHECK_STATUS(st, sender, 9, 0);
        CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &n));
        CHECK_EQ(0, n);
        CHECK_MPI(MPI_Get_elements(&st, MPI_DOUBLE, &n));
        CHECK_EQ(0, n);
    }
    if (rank == sender)
        CHECK_MPI(MPI_Waitall(3, req, TU_STATUSES_IGNORE));
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    int small_count = (int)tu_arg_long(argc, argv, 1, 300);
    int mixed_count = (int)tu_arg_long(argc, argv, 2, 48);
    int rank = tu_rank(), size = tu_size();
    int partner = (rank % 2 == 0) ? rank + 1 : rank - 1;
    if (partner >= size)
        partner = rank; /* unpaired: talk to self */
    int lo = rank < partner ? rank : partner, hi = rank < partner ? partner : rank;
    uint8_t *buf = tu_malloc(MAXMSG + TU_GUARD);

    for (int dir = 0; dir < 2; dir++) {
        int sender = dir ? hi : lo, receiver = dir ? lo : hi;
        part_small(sender, receiver, rank, small_count, buf);
        part_mixed(sender, receiver, rank, mixed_count, buf);
        part_zero(sender, receiver, rank);
    }
    free(buf);
    return tu_finish(NAME);
}
