/* probe — Probe/Iprobe, receiving exactly the probed size, Get_count and Get_elements.
 *
 * Partners (0,1), (2,3), unpaired rank with itself. The receiver does not know sizes in
 * advance: it probes, allocates Get_count bytes and receives exactly that (including 0 bytes
 * and rendezvous-sized messages, whose size must be known before their data moves).
 *   - Iprobe reports nothing before the partner has our go (deterministic);
 *   - Probe does not consume: probing twice shows the same (first) message;
 *   - Probe with MPI_ANY_TAG / MPI_ANY_SOURCE fills the status;
 *   - Get_count / Get_elements for typed data, and MPI_UNDEFINED for partial elements.
 *
 * usage: probe [large_bytes]
 */
#include "testutil.h"

#define NAME "probe"
enum { TAG_GO = 1, TAG_SZ = 10, TAG_TYPED = 40, TAG_ODD = 41 };
#define NSIZES 6

static int sizes[NSIZES] = {0, 1, 333, 4096, 70000, 0 /* large, from argv */};

static void exchange_go(int partner)
{
    char out = 0, in = 0;
    MPI_Request r;
    CHECK_MPI(MPI_Isend(&out, 1, MPI_CHAR, partner, TAG_GO, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Recv(&in, 1, MPI_CHAR, partner, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
}

/* Receive the next message from partner of unknown size and tag. use_iprobe polls instead. */
static void probe_and_recv(int partner, int i, int use_iprobe, int any_source)
{
    MPI_Status st, st2;
    int n = -1, flag = 0;
    int src = any_source ? MPI_ANY_SOURCE : partner;
    int tag = any_source ? TAG_SZ + i : MPI_ANY_TAG; /* ANY_SOURCE needs a tag only partner uses */
    if (use_iprobe) {
        for (unsigned polls = 0;; tu_poll_pause(&polls)) {
            CHECK_MPI(MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, &st));
            if (flag)
                break;
        }
    } else {
        CHECK_MPI(MPI_Probe(src, tag, MPI_COMM_WORLD, &st));
    }
    CHECK_STATUS(st, partner, TAG_SZ + i, sizes[i]);

    /* Probing again sees the same message: probe does not dequeue. */
    CHECK_MPI(MPI_Probe(st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st2));
    CHECK_STATUS(st2, partner, TAG_SZ + i, sizes[i]);

    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
    uint8_t *buf = tu_malloc((size_t)n + TU_GUARD);
    tu_set_guard(buf, (size_t)n);
    CHECK_MPI(MPI_Recv(buf, n, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st2));
    CHECK_STATUS(st2, partner, TAG_SZ + i, n);
    CHECK_PATTERN(buf, (size_t)n, tu_seed((uint64_t)i, (uint64_t)partner, 3, 0));
    CHECK_GUARD(buf, (size_t)n);
    free(buf);
}

static void sized_messages(int rank, int partner, int use_iprobe, int any_source)
{
    MPI_Request req[NSIZES];
    uint8_t *sb[NSIZES];
    int flag = 1;
    /* The partner waits for our go before sending data (its own go may already be here). */
    CHECK_MPI(MPI_Iprobe(partner, TAG_SZ, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK_EQ(0, flag);
    CHECK_MPI(
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_SZ + NSIZES - 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK_EQ(0, flag);
    exchange_go(partner);
    for (int i = 0; i < NSIZES; i++) {
        sb[i] = tu_malloc((size_t)sizes[i]);
        tu_fill(sb[i], (size_t)sizes[i], tu_seed((uint64_t)i, (uint64_t)rank, 3, 0));
        CHECK_MPI(
            MPI_Isend(sb[i], sizes[i], MPI_BYTE, partner, TAG_SZ + i, MPI_COMM_WORLD, &req[i]));
    }
    for (int i = 0; i < NSIZES; i++)
        probe_and_recv(partner, i, use_iprobe, any_source);
    CHECK_MPI(MPI_Waitall(NSIZES, req, TU_STATUSES_IGNORE));
    for (int i = 0; i < NSIZES; i++)
        free(sb[i]);
}

static void typed_counts(int partner)
{
    double d[10] = {0}, din[10];
    unsigned char odd[6] = {0}, oddin[8];
    MPI_Request req[2];
    MPI_Status st;
    int n = -1;
    CHECK_MPI(MPI_Isend(d, 10, MPI_DOUBLE, partner, TAG_TYPED, MPI_COMM_WORLD, &req[0]));
    CHECK_MPI(MPI_Isend(odd, 6, MPI_BYTE, partner, TAG_ODD, MPI_COMM_WORLD, &req[1]));

    CHECK_MPI(MPI_Probe(partner, TAG_TYPED, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &n));
    CHECK_EQ(10, n);
    CHECK_MPI(MPI_Get_elements(&st, MPI_DOUBLE, &n));
    CHECK_EQ(10, n);
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &n));
    CHECK_EQ(10 * sizeof(double) / sizeof(int), n);
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
    CHECK_EQ(10 * sizeof(double), n);
    CHECK_MPI(MPI_Recv(din, 10, MPI_DOUBLE, partner, TAG_TYPED, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Get_elements(&st, MPI_DOUBLE, &n));
    CHECK_EQ(10, n);

    /* 6 bytes are not a whole number of 4-byte ints. */
    CHECK_MPI(MPI_Probe(partner, TAG_ODD, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &n));
    CHECK_EQ(MPI_UNDEFINED, n);
    CHECK_MPI(MPI_Get_elements(&st, MPI_INT, &n));
    CHECK_EQ(MPI_UNDEFINED, n);
    CHECK_MPI(MPI_Get_count(&st, MPI_SHORT, &n));
    CHECK_EQ(3, n);
    CHECK_MPI(MPI_Recv(oddin, 8, MPI_BYTE, partner, TAG_ODD, MPI_COMM_WORLD, &st));
    CHECK_STATUS(st, partner, TAG_ODD, 6);
    CHECK_MPI(MPI_Waitall(2, req, TU_STATUSES_IGNORE));
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    sizes[NSIZES - 1] = (int)tu_arg_long(argc, argv, 1, 2 * 1024 * 1024 + 1);
    int rank = tu_rank();
    int partner = rank ^ 1;
    if (partner >= tu_size())
        partner = rank;

    sized_messages(rank, partner, 0, 0); /* Probe, ANY_TAG */
    sized_messages(rank, partner, 1, 0); /* Iprobe, ANY_TAG */
    sized_messages(rank, partner, 0, 1); /* Probe, ANY_SOURCE */
    typed_counts(partner);
    return tu_finish(NAME);
}
