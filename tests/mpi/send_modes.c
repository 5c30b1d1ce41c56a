/* send_modes — buffered (Bsend/Ibsend) and ready (Rsend/Irsend) sends.
 *
 * Buffered: with a buffer attached, Bsend/Ibsend complete locally. The sender finishes all its
 *   buffered sends (and scribbles over its own send buffers) before it tells the receiver to
 *   start receiving, so a Bsend that waited for the receiver would deadlock, and a Bsend that
 *   did not copy the data would deliver the scribbles. Buffer_detach must hand back the
 *   attached address and size (and wait until buffered data is gone).
 * Ready: the receiver posts its receives, then tells the sender; only then does the sender
 *   Rsend/Irsend, which is exactly the precondition ready mode requires.
 *
 * Pairs (0,1), (2,3) with rank 0/2 sending; an unpaired rank (np=1, odd np) sends to itself.
 * usage: send_modes [large_bytes]
 */
#include "testutil.h"

#define NAME "send_modes"
enum { TAG_GO = 1, TAG_B = 10, TAG_IB = 30, TAG_R = 50, TAG_IR = 70 };
#define NMSG 6

static int sizes[NMSG] = {0, 1, 100, 4096, 100000, 0 /* large, set in main */};

static void recv_one(int src, int tag, int n, uint32_t seed, uint8_t *buf)
{
    MPI_Status st;
    CHECK_MPI(MPI_Recv(buf, n, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st));
    CHECK_STATUS(st, src, tag, n);
    CHECK_PATTERN(buf, (size_t)n, seed);
}

/* Bsend then Ibsend every size; scribble over the user buffers as soon as each call returns. */
static void bsend_all(int receiver, uint8_t **sbuf)
{
    MPI_Request req[NMSG];
    for (int i = 0; i < NMSG; i++) {
        tu_fill(sbuf[i], (size_t)sizes[i], tu_seed(TAG_B, (uint64_t)i, 0, 0));
        CHECK_MPI(MPI_Bsend(sbuf[i], sizes[i], MPI_BYTE, receiver, TAG_B + i, MPI_COMM_WORLD));
        memset(sbuf[i], 0xEE, (size_t)sizes[i]); /* reusable at once: data must be copied */
    }
    for (int i = 0; i < NMSG; i++) {
        tu_fill(sbuf[i], (size_t)sizes[i], tu_seed(TAG_IB, (uint64_t)i, 0, 0));
        CHECK_MPI(
            MPI_Ibsend(sbuf[i], sizes[i], MPI_BYTE, receiver, TAG_IB + i, MPI_COMM_WORLD, &req[i]));
    }
    /* Ibsend completes locally: waiting must not need the receiver. */
    CHECK_MPI(MPI_Waitall(NMSG, req, TU_STATUSES_IGNORE));
    for (int i = 0; i < NMSG; i++)
        memset(sbuf[i], 0xEE, (size_t)sizes[i]);
}

/* Receive in another tag order than sent: buffered messages must wait for their receive. */
static void brecv_all(int sender, uint8_t *rbuf)
{
    for (int i = 0; i < NMSG; i++)
        recv_one(sender, TAG_IB + i, sizes[i], tu_seed(TAG_IB, (uint64_t)i, 0, 0), rbuf);
    for (int i = 0; i < NMSG; i++)
        recv_one(sender, TAG_B + i, sizes[i], tu_seed(TAG_B, (uint64_t)i, 0, 0), rbuf);
}

static void buffered(int rank, int sender, int receiver, uint8_t **sbuf, uint8_t *rbuf)
{
    char token = 0;
    if (rank == sender) {
        int total = 0;
        for (int i = 0; i < NMSG; i++)
            total += 2 * (sizes[i] + MPI_BSEND_OVERHEAD); /* Bsend + Ibsend copies */
        void *attach = tu_malloc((size_t)total);
        CHECK_MPI(MPI_Buffer_attach(attach, total));
        bsend_all(receiver, sbuf);
        if (sender != receiver) /* all sends done: only now may the receiver start */
            CHECK_MPI(MPI_Send(&token, 1, MPI_CHAR, receiver, TAG_GO, MPI_COMM_WORLD));
        else
            brecv_all(sender, rbuf); /* to self: receive first, detach waits for delivery */
        void *addr = NULL;
        int got = -1;
        CHECK_MPI(MPI_Buffer_detach(&addr, &got));
        CHECK(addr == attach);
        CHECK_EQ(total, got);
        free(attach);
    } else if (rank == receiver) {
        CHECK_MPI(MPI_Recv(&token, 1, MPI_CHAR, sender, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        brecv_all(sender, rbuf);
    }
}

static void ready(int rank, int sender, int receiver, uint8_t **sbuf, uint8_t **rbuf)
{
    char token = 0;
    MPI_Request rreq[2 * NMSG], sreq[NMSG];
    MPI_Status st[2 * NMSG];
    if (rank == receiver) { /* post every receive before the sender may start */
        for (int i = 0; i < NMSG; i++) {
            CHECK_MPI(MPI_Irecv(rbuf[i], sizes[i], MPI_BYTE, sender, TAG_R + i, MPI_COMM_WORLD,
                                &rreq[i]));
            CHECK_MPI(MPI_Irecv(rbuf[NMSG + i], sizes[i], MPI_BYTE, sender, TAG_IR + i,
                                MPI_COMM_WORLD, &rreq[NMSG + i]));
        }
        if (sender != receiver)
            CHECK_MPI(MPI_Send(&token, 1, MPI_CHAR, sender, TAG_GO, MPI_COMM_WORLD));
    }
    if (rank == sender) {
        if (sender != receiver)
            CHECK_MPI(
                MPI_Recv(&token, 1, MPI_CHAR, receiver, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int i = 0; i < NMSG; i++) {
            tu_fill(sbuf[i], (size_t)sizes[i], tu_seed(TAG_R, (uint64_t)i, 0, 0));
            CHECK_MPI(MPI_Rsend(sbuf[i], sizes[i], MPI_BYTE, receiver, TAG_R + i, MPI_COMM_WORLD));
        }
        for (int i = 0; i < NMSG; i++) { /* Rsend returned, so its buffer is ours again */
            tu_fill(sbuf[i], (size_t)sizes[i], tu_seed(TAG_IR, (uint64_t)i, 0, 0));
            CHECK_MPI(MPI_Irsend(sbuf[i], sizes[i], MPI_BYTE, receiver, TAG_IR + i, MPI_COMM_WORLD,
                                 &sreq[i]));
        }
        CHECK_MPI(MPI_Waitall(NMSG, sreq, TU_STATUSES_IGNORE));
    }
    if (rank == receiver) {
        CHECK_MPI(MPI_Waitall(2 * NMSG, rreq, st));
        for (int i = 0; i < NMSG; i++) {
            CHECK_STATUS(st[i], sender, TAG_R + i, sizes[i]);
            CHECK_PATTERN(rbuf[i], (size_t)sizes[i], tu_seed(TAG_R, (uint64_t)i, 0, 0));
            CHECK_STATUS(st[NMSG + i], sender, TAG_IR + i, sizes[i]);
            CHECK_PATTERN(rbuf[NMSG + i], (size_t)sizes[i], tu_seed(TAG_IR, (uint64_t)i, 0, 0));
        }
    }
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    sizes[NMSG - 1] = (int)tu_arg_long(argc, argv, 1, 1024 * 1024 + 3);
    int rank = tu_rank(), size = tu_size();
    int lo = rank & ~1, hi = (lo + 1 < size) ? lo + 1 : lo; /* hi == lo: unpaired, self */
    uint8_t *sbuf[NMSG], *rbuf[2 * NMSG], *big = tu_malloc((size_t)sizes[NMSG - 1]);
    for (int i = 0; i < NMSG; i++) {
        sbuf[i] = tu_malloc((size_t)sizes[i]);
        rbuf[i] = tu_malloc((size_t)sizes[i]);
        rbuf[NMSG + i] = tu_malloc((size_t)sizes[i]);
    }

    buffered(rank, lo, hi, sbuf, big);
    ready(rank, lo, hi, sbuf, rbuf);

    for (int i = 0; i < NMSG; i++) {
        free(sbuf[i]);
        free(rbuf[i]);
        free(rbuf[NMSG + i]);
    }
    free(big);
    return tu_finish(NAME);
}
