/* large — rendezvous-sized transfers. CTest runs this twice: as is (single-copy CMA path where
 * available) and with SKIFF_SHM_CMA=0 (pipelined copy through shared memory), so both large
 * message paths see the same checks:
 *   - sizes just above 64 KiB up to max, with send/recv buffers at odd offsets (alignment);
 *   - both directions at once;
 *   - several large messages in flight to one peer on one tag (order + concurrency);
 *   - the receive posted late (sender waits in rendezvous);
 *   - a receive buffer larger than the message (count = message size, nothing beyond written).
 * Pairs (0,1), (2,3); an unpaired rank runs the same against itself.
 *
 * usage: large [max_bytes]   (default 16 MiB)
 */
#include "testutil.h"

#define NAME "large"

struct pair {
    int rank, partner, lo; /* lo: the lower rank of the pair sends first in blocking mode */
    uint8_t *sraw, *rraw;  /* max + 64 + TU_GUARD bytes each */
};

static uint32_t seed_of(int sender, size_t n, int variant)
{
    return tu_seed(n, (uint64_t)sender, (uint64_t)variant, 17);
}

/* One message each way; blocking unless it is a self pair (a blocking self-send is unsafe). */
static void aligned_exchange(struct pair *p, size_t n, int soff, int roff, int nonblocking)
{
    uint8_t *sb = p->sraw + soff, *rb = p->rraw + roff;
    MPI_Status st;
    tu_fill(sb, n, seed_of(p->rank, n, soff * 8 + roff));
    tu_set_guard(rb, n);
    if (nonblocking || p->partner == p->rank) {
        MPI_Request req[2];
        MPI_Status sts[2];
        CHECK_MPI(MPI_Irecv(rb, (int)n, MPI_BYTE, p->partner, 1, MPI_COMM_WORLD, &req[0]));
        CHECK_MPI(MPI_Isend(sb, (int)n, MPI_BYTE, p->partner, 1, MPI_COMM_WORLD, &req[1]));
        CHECK_MPI(MPI_Waitall(2, req, sts));
        st = sts[0];
    } else if (p->lo) {
        CHECK_MPI(MPI_Send(sb, (int)n, MPI_BYTE, p->partner, 1, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(rb, (int)n, MPI_BYTE, p->partner, 1, MPI_COMM_WORLD, &st));
    } else {
        CHECK_MPI(MPI_Recv(rb, (int)n, MPI_BYTE, p->partner, 1, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Send(sb, (int)n, MPI_BYTE, p->partner, 1, MPI_COMM_WORLD));
    }
    CHECK_STATUS(st, p->partner, 1, (int)n);
    CHECK_PATTERN(rb, n, seed_of(p->partner, n, soff * 8 + roff));
    CHECK_GUARD(rb, n);
}

/* NMULTI messages of different sizes on one tag, all in flight together. */
#define NMULTI 4
static void multi_inflight(struct pair *p, size_t each)
{
    MPI_Request req[2 * NMULTI];
    MPI_Status st[2 * NMULTI];
    size_t off = 0, offs[NMULTI], lens[NMULTI];
    for (int i = 0; i < NMULTI; i++) {
        offs[i] = off;
        lens[i] = each + (size_t)i * 4097;
        off += lens[i] + TU_GUARD;
    }
    for (int i = 0; i < NMULTI; i++) {
        tu_set_guard(p->rraw + offs[i], lens[i]);
        CHECK_MPI(MPI_Irecv(p->rraw + offs[i], (int)lens[i], MPI_BYTE, p->partner, 2,
                            MPI_COMM_WORLD, &req[i]));
    }
    for (int i = 0; i < NMULTI; i++) {
        tu_fill(p->sraw + offs[i], lens[i], seed_of(p->rank, lens[i], 100 + i));
        CHECK_MPI(MPI_Isend(p->sraw + offs[i], (int)lens[i], MPI_BYTE, p->partner, 2,
                            MPI_COMM_WORLD, &req[NMULTI + i]));
    }
    CHECK_MPI(MPI_Waitall(2 * NMULTI, req, st));
    for (int i = 0; i < NMULTI; i++) {
        CHECK_STATUS(st[i], p->partner, 2, (int)lens[i]); /* i-th receive got i-th send */
        CHECK_PATTERN(p->rraw + offs[i], lens[i], seed_of(p->partner, lens[i], 100 + i));
        CHECK_GUARD(p->rraw + offs[i], lens[i]);
    }
}

/* Sender goes first; the receive is posted ~30 ms later. Message shorter than the buffer. */
static void late_receive_short_message(struct pair *p, size_t n, size_t bufsize)
{
    MPI_Request req;
    MPI_Status st;
    tu_fill(p->sraw, n, seed_of(p->rank, n, 200));
    memset(p->rraw, 0x5A, bufsize + TU_GUARD);
    CHECK_MPI(MPI_Isend(p->sraw, (int)n, MPI_BYTE, p->partner, 3, MPI_COMM_WORLD, &req));
    tu_sleep_ms(30);
    CHECK_MPI(MPI_Recv(p->rraw, (int)bufsize, MPI_BYTE, p->partner, 3, MPI_COMM_WORLD, &st));
    CHECK_STATUS(st, p->partner, 3, (int)n);
    CHECK_PATTERN(p->rraw, n, seed_of(p->partner, n, 200));
    for (size_t i = n; i < bufsize + TU_GUARD; i += 997) /* sampled: beyond the message */
        CHECK_MSG(p->rraw[i] == 0x5A, "byte %zu beyond a %zu-byte message was written", i, n);
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    size_t max = (size_t)tu_arg_long(argc, argv, 1, 16L * 1024 * 1024);
    CHECK_MSG(max >= 1024 * 1024, "max_bytes must be at least 1 MiB, got %zu", max);
    struct pair p;
    p.rank = tu_rank();
    p.partner = p.rank ^ 1;
    if (p.partner >= tu_size())
        p.partner = p.rank;
    p.lo = p.rank < p.partner;
    p.sraw = tu_malloc(max + 64 + TU_GUARD);
    p.rraw = tu_malloc(max + 64 + TU_GUARD);

    /* sizes: just over 64 KiB, odd middle sizes, max */
    const size_t sizes[] = {64 * 1024 + 1, 256 * 1024 - 1, 1024 * 1024, 4 * 1024 * 1024 + 3, max};
    const int offsets[][2] = {{0, 0}, {1, 3}, {7, 0}, {0, 5}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        if (sizes[i] > max)
            continue;
        int k = (int)(i % 4); /* rotate alignments so each size gets one, cheaply */
        aligned_exchange(&p, sizes[i], offsets[k][0], offsets[k][1], 0);
        aligned_exchange(&p, sizes[i], offsets[(k + 1) % 4][0], offsets[(k + 1) % 4][1], 1);
    }
    multi_inflight(&p, max / 8 > 65537 ? max / 8 : 65537);
    late_receive_short_message(&p, max / 4, max / 2);
    free(p.sraw);
    free(p.rraw);
    return tu_finish(NAME);
}
