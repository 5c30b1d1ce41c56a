/* Large messages over the ucx transport land straight in the receive's buffer (skiff_core_data_target):
 * UCX's rendezvous writes each piece there and the core copies nothing, except a piece that reaches past
 * what a truncated receive keeps, which lands in a buffer of the transport's and is copied in part.
 * Checks the data in every case (contiguous, truncated with the bytes after the buffer untouched (skiff
 * only), a strided datatype, and large messages interleaved with small ones in order), and, under skiff with
 * SKIFF_TRANSPORTS naming ucx, how many pieces arrived in place (MPI_T skiff_data_in_place, pieces of
 * SKIFF_UCX_PIECE = 4 MiB by default). Two ranks: 0 sends, 1 receives. Also runs under MPICH and Open
 * MPI (the counts are then not checked). */
#include "testutil.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG (8u << 20)      /* two 4 MiB pieces */
#define SHORT (6u << 20)    /* a truncating receive keeps the first piece whole, the second in part */
#define GUARD (1u << 20)

static struct tu_counter in_place;
static int over_ucx;

static void counter_open(void)
{
    const char *tr = getenv("SKIFF_TRANSPORTS");
    tu_counter_open(&in_place, "skiff_data_in_place");
    over_ucx = tu_counter_on(&in_place) && tr && strstr(tr, "ucx");
}

/* Pieces that must have arrived in place: that many over ucx, none over shm or tcp. */
static void expect_in_place(unsigned long long before, unsigned long long pieces, const char *what)
{
    if (!tu_counter_on(&in_place))
        return;
    unsigned long long got = tu_counter_read(&in_place) - before, want = over_ucx ? pieces : 0;
    CHECK_MSG(got == want, "%s: %llu pieces in place, expected %llu", what, got, want);
}

static unsigned char byte_at(size_t i, int salt)
{
    return (unsigned char)(i * 131u + (i >> 12) + (unsigned)salt);
}

static void fill(unsigned char *b, size_t n, int salt)
{
    for (size_t i = 0; i < n; i++)
        b[i] = byte_at(i, salt);
}

static void check_bytes(const unsigned char *b, size_t n, int salt, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != byte_at(i, salt)) {
            CHECK_MSG(0, "%s: byte %zu is %u, expected %u", what, i, b[i], byte_at(i, salt));
            return;
        }
}

static void sender(unsigned char *buf)
{
    fill(buf, BIG, 1);
    CHECK_MPI(MPI_Send(buf, (int)BIG, MPI_BYTE, 1, 1, MPI_COMM_WORLD));
    fill(buf, BIG, 2);
    CHECK_MPI(MPI_Send(buf, (int)BIG, MPI_BYTE, 1, 2, MPI_COMM_WORLD));
    fill(buf, BIG, 3);
    CHECK_MPI(MPI_Send(buf, (int)BIG, MPI_BYTE, 1, 3, MPI_COMM_WORLD));
    /* large, small, large, small on one tag: received in that order */
    unsigned char *b2 = tu_malloc(BIG);
    int small[2] = {41, 42};
    MPI_Request r[4];
    fill(buf, BIG, 4);
    fill(b2, BIG, 5);
    CHECK_MPI(MPI_Isend(buf, (int)BIG, MPI_BYTE, 1, 4, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Isend(&small[0], 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &r[1]));
    CHECK_MPI(MPI_Isend(b2, (int)BIG, MPI_BYTE, 1, 4, MPI_COMM_WORLD, &r[2]));
    CHECK_MPI(MPI_Isend(&small[1], 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &r[3]));
    MPI_Status st[4];
    CHECK_MPI(MPI_Waitall(4, r, st));
    free(b2);
}

static void receiver(unsigned char *buf)
{
    unsigned long long c = tu_counter_read(&in_place);
    MPI_Status st;
    int n;
    CHECK_MPI(MPI_Recv(buf, (int)BIG, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &st));
    check_bytes(buf, BIG, 1, "contiguous");
    expect_in_place(c, 2, "contiguous");

    /* Truncated: the first piece in place, the second through the transport's buffer, in part. */
    c = tu_counter_read(&in_place);
    memset(buf, 0xee, SHORT + GUARD);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int rc = MPI_Recv(buf, (int)SHORT, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &st);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    int cls;
    MPI_Error_class(rc, &cls);
    CHECK_MSG(cls == MPI_ERR_TRUNCATE, "truncated receive gave error class %d", cls);
    /* The standard leaves the buffer's contents open here (MPICH leaves it untouched, Open MPI's
     * shared memory writes past it); skiff keeps what fits and writes nothing after it. */
    if (tu_counter_on(&in_place)) {
        check_bytes(buf, SHORT, 2, "truncated");
        for (size_t i = SHORT; i < SHORT + GUARD; i++)
            if (buf[i] != 0xee) {
                CHECK_MSG(0, "truncated: byte %zu past the buffer was written", i);
                break;
            }
    }
    expect_in_place(c, 1, "truncated");

    /* Strided: every other int of a buffer twice the message's size. */
    c = tu_counter_read(&in_place);
    MPI_Datatype every_other;
    CHECK_MPI(MPI_Type_vector((int)(BIG / sizeof(int)), 1, 2, MPI_INT, &every_other));
    CHECK_MPI(MPI_Type_commit(&every_other));
    unsigned char *wide = tu_malloc(2 * (size_t)BIG);
    CHECK_MPI(MPI_Recv(wide, 1, every_other, 0, 3, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
    CHECK_EQ((int)BIG, n);
    for (size_t i = 0; i < BIG / sizeof(int); i++) {
        unsigned char expect[sizeof(int)];
        for (size_t k = 0; k < sizeof(int); k++)
            expect[k] = byte_at(i * sizeof(int) + k, 3);
        if (memcmp(wide + 2 * i * sizeof(int), expect, sizeof(int)) != 0) {
            CHECK_MSG(0, "strided: int %zu differs", i);
            break;
        }
    }
    free(wide);
    MPI_Type_free(&every_other);
    expect_in_place(c, 2, "strided (packed landing buffer)");

    /* In order: large, small, large, small on one tag. */
    unsigned char *b2 = tu_malloc(BIG);
    int small[2] = {0, 0};
    CHECK_MPI(MPI_Recv(buf, (int)BIG, MPI_BYTE, 0, 4, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Recv(&small[0], 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Recv(b2, (int)BIG, MPI_BYTE, 0, 4, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Recv(&small[1], 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &st));
    check_bytes(buf, BIG, 4, "first large of four");
    check_bytes(b2, BIG, 5, "second large of four");
    CHECK_EQ(41, small[0]);
    CHECK_EQ(42, small[1]);
    free(b2);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    counter_open();
    unsigned char *buf = tu_malloc(BIG + GUARD);
    if (size >= 2 && rank == 0)
        sender(buf);
    else if (size >= 2 && rank == 1)
        receiver(buf);
    free(buf);
    tu_counter_close(&in_place);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("ucx_in_place: done\n");
    MPI_Finalize();
    return 0;
}
