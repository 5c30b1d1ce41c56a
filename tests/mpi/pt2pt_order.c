/* pt2pt_order — message ordering and wildcard matching.
 *
 * Every rank > 0 sends streams to rank 0. Within one (source, tag, comm) MPI guarantees
 * non-overtaking, even when the stream mixes eager-sized and rendezvous-sized (> 64 KiB)
 * messages, which travel by different protocols inside an implementation.
 *
 * Phases (each followed by a barrier):
 *   1. mixed sizes, one tag, receiver names the source     -> order per source
 *   2. same streams, receiver uses MPI_ANY_SOURCE          -> order per source, status source
 *   3. varying tags, receiver uses MPI_ANY_TAG per source   -> order, status tag
 *   4. fully wildcard (ANY_SOURCE + ANY_TAG)               -> per-source order, status fields
 *   5. selection by tag: a later small message is received before an earlier large one
 *
 * usage: pt2pt_order [messages_per_sender]
 */
#include "testutil.h"

#define NAME "pt2pt_order"
#define BIG (256 * 1024 + 5)

/* Size pattern of the k-th message from source src: small, large, empty, medium, large. */
static int msg_size(int src, int k)
{
    static const int sizes[] = {16, BIG, 0, 1000, 70 * 1024};
    int s = sizes[k % 5];
    return s == BIG ? s + src : s; /* sources differ so misrouting changes the count */
}

static uint32_t msg_seed(int phase, int src, int k)
{
    return tu_seed((uint64_t)phase, (uint64_t)src, (uint64_t)k, 7);
}

/* Sender side: nonblocking sends so later small messages are queued behind earlier large ones. */
static void send_stream(int phase, int rank, int nmsg, int vary_tag, uint8_t **bufs)
{
    MPI_Request *req = tu_malloc(sizeof(MPI_Request) * (size_t)nmsg);
    for (int k = 0; k < nmsg; k++) {
        int n = msg_size(rank, k);
        tu_fill(bufs[k], (size_t)n, msg_seed(phase, rank, k));
        int tag = vary_tag ? 100 + k : 5;
        CHECK_MPI(MPI_Isend(bufs[k], n, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &req[k]));
    }
    CHECK_MPI(MPI_Waitall(nmsg, req, TU_STATUSES_IGNORE));
    free(req);
}

/* Receive one message with the given (source, tag) selectors and check it is message k of
 * its sender. Returns the actual source. */
static int recv_expect(int phase, int src_sel, int tag_sel, int *next_k, int vary_tag, uint8_t *buf)
{
    MPI_Status st;
    CHECK_MPI(MPI_Recv(buf, BIG + 64, MPI_BYTE, src_sel, tag_sel, MPI_COMM_WORLD, &st));
    int src = st.MPI_SOURCE;
    CHECK_MSG(src >= 1 && src < tu_size(), "status.MPI_SOURCE %d out of range", src);
    if (src_sel != MPI_ANY_SOURCE)
        CHECK_EQ(src_sel, src);
    int k = next_k[src]++;
    CHECK_STATUS(st, src, vary_tag ? 100 + k : 5, msg_size(src, k));
    CHECK_PATTERN(buf, (size_t)msg_size(src, k), msg_seed(phase, src, k));
    return src;
}

static void receive_phase(int phase, int nmsg, int src_wild, int tag_wild, int vary_tag,
                          uint8_t *buf)
{
    int size = tu_size();
    int *next_k = calloc((size_t)size, sizeof(int));
    CHECK(next_k != NULL);
    /* Round-robin over sources so messages from different senders interleave. */
    for (int k = 0; k < nmsg; k++)
        for (int s = 1; s < size; s++)
            recv_expect(phase, src_wild ? MPI_ANY_SOURCE : s,
                        tag_wild ? MPI_ANY_TAG : (vary_tag ? 100 + next_k[s] : 5), next_k, vary_tag,
                        buf);
    for (int s = 1; s < size; s++)
        CHECK_EQ(nmsg, next_k[s]);
    free(next_k);
}

/* Phase 5: sender posts A (large, tag 1) then B (small, tag 2); receiver takes B first. Works
 * only if A waits in the unexpected/rendezvous queue without blocking B. */
static void selective_by_tag(int rank, uint8_t *buf)
{
    const int na = BIG, nb = 32;
    if (rank == 1) {
        uint8_t *a = tu_malloc((size_t)na), *b = tu_malloc((size_t)nb);
        MPI_Request req[2];
        tu_fill(a, (size_t)na, 1);
        tu_fill(b, (size_t)nb, 2);
        CHECK_MPI(MPI_Isend(a, na, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &req[0]));
        CHECK_MPI(MPI_Isend(b, nb, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &req[1]));
        CHECK_MPI(MPI_Waitall(2, req, TU_STATUSES_IGNORE));
        free(a);
        free(b);
    } else if (rank == 0) {
        MPI_Status st;
        CHECK_MPI(MPI_Recv(buf, BIG + 64, MPI_BYTE, 1, 2, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, 1, 2, nb);
        CHECK_PATTERN(buf, (size_t)nb, 2);
        CHECK_MPI(MPI_Recv(buf, BIG + 64, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &st));
        CHECK_STATUS(st, 1, 1, na);
        CHECK_PATTERN(buf, (size_t)na, 1);
    }
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    int nmsg = (int)tu_arg_long(argc, argv, 1, 25);
    int rank = tu_rank();

    if (!tu_need_ranks(2, NAME)) {
        uint8_t **bufs = tu_malloc(sizeof(uint8_t *) * (size_t)nmsg);
        for (int k = 0; k < nmsg; k++)
            bufs[k] = tu_malloc(BIG + 64);
        /* phase: {src wildcard, tag wildcard, tags vary per message} */
        static const int phases[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 1}, {1, 1, 1}};
        for (int p = 0; p < 4; p++) {
            if (rank == 0)
                receive_phase(p, nmsg, phases[p][0], phases[p][1], phases[p][2], bufs[0]);
            else
                send_stream(p, rank, nmsg, phases[p][2], bufs);
            tu_barrier();
        }
        selective_by_tag(rank, bufs[0]);
        for (int k = 0; k < nmsg; k++)
            free(bufs[k]);
        free(bufs);
    }
    return tu_finish(NAME);
}
