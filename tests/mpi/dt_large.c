/* Non-contiguous messages of several MiB: far beyond the eager limit, so they travel by rendezvous
 * (single-copy pull or pipelined pieces, see the ENV variants in datatype.cmake) from and into packed
 * buffers. Vector, struct and mixed layouts; nonblocking, blocking, synchronous and combined calls. */
#include "testutil.h"

#include <stddef.h>

enum { N = 300000 }; /* elements: 2.4 MB of selected doubles */

static int rank, peer;

static double dval(int r, long i)
{
    return r * 1e7 + (double)i;
}

static void exchange(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                     int tag, MPI_Status *st)
{
    MPI_Request rq[2];
    MPI_Status sts[2];
    CHECK_MPI(MPI_Irecv(rbuf, rcount, rtype, peer, tag, MPI_COMM_WORLD, &rq[0]));
    CHECK_MPI(MPI_Isend(sbuf, scount, stype, peer, tag, MPI_COMM_WORLD, &rq[1]));
    CHECK_MPI(MPI_Waitall(2, rq, sts));
    if (st)
        *st = sts[0];
}

static MPI_Datatype strided(int stride)
{
    MPI_Datatype v;
    CHECK_MPI(MPI_Type_vector(N, 1, stride, MPI_DOUBLE, &v));
    CHECK_MPI(MPI_Type_commit(&v));
    return v;
}

static double *doubles(long n, int r)
{
    double *d = tu_malloc((size_t)n * sizeof *d);
    for (long i = 0; i < n; i++)
        d[i] = r < 0 ? -1.0 : dval(r, i);
    return d;
}

/* Element k of the message sits at index k * stride of the receive buffer; the gaps stay -1. */
static void check_strided(const double *d, int stride, int from_stride)
{
    long bad = 0, first = -1;
    for (long i = 0; i < (long)N * stride; i++) {
        double want = i % stride ? -1.0 : dval(peer, i / stride * from_stride);
        if (d[i] != want && bad++ == 0)
            first = i;
    }
    CHECK_MSG(bad == 0, "%ld of %ld doubles wrong, first at index %ld", bad, (long)N * stride, first);
}

static void vector_layouts(void)
{
    MPI_Datatype v2 = strided(2), v3 = strided(3);
    double *src = doubles(2L * N, rank), *dst = doubles(3L * N, -1);
    MPI_Status st;
    int n = 0;
    exchange(src, 1, v2, dst, N, MPI_DOUBLE, 1, &st); /* vector -> contiguous */
    check_strided(dst, 1, 2);
    CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &n));
    CHECK_EQ(N, n);
    free(src);
    src = doubles(N, rank);
    free(dst);
    dst = doubles(2L * N, -1);
    exchange(src, N, MPI_DOUBLE, dst, 1, v2, 2, &st); /* contiguous -> vector */
    check_strided(dst, 2, 1);
    CHECK_MPI(MPI_Get_elements(&st, v2, &n));
    CHECK_EQ(N, n);
    free(src);
    src = doubles(2L * N, rank);
    free(dst);
    dst = doubles(3L * N, -1);
    exchange(src, 1, v2, dst, 1, v3, 3, NULL); /* vector -> another vector */
    check_strided(dst, 3, 2);
    free(src);
    free(dst);
    CHECK_MPI(MPI_Type_free(&v2));
    CHECK_MPI(MPI_Type_free(&v3));
}

/* The blocking calls pack and unpack inside the call; pairs order their calls, a lone rank skips. */
static void blocking_calls(void)
{
    if (peer == rank)
        return;
    MPI_Datatype v2 = strided(2);
    double *src = doubles(2L * N, rank), *dst = doubles(2L * N, -1);
    for (int sync = 0; sync < 2; sync++) {
        for (long i = 0; i < 2L * N; i++)
            dst[i] = -1.0;
        if (rank < peer) {
            CHECK_MPI(sync ? MPI_Ssend(src, 1, v2, peer, 4, MPI_COMM_WORLD)
                           : MPI_Send(src, 1, v2, peer, 4, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Recv(dst, 1, v2, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Recv(dst, 1, v2, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_MPI(sync ? MPI_Ssend(src, 1, v2, peer, 4, MPI_COMM_WORLD)
                           : MPI_Send(src, 1, v2, peer, 4, MPI_COMM_WORLD));
        }
        check_strided(dst, 2, 2);
    }
    free(src);
    free(dst);
    CHECK_MPI(MPI_Type_free(&v2));
}

static void sendrecv_replace(void)
{
    MPI_Datatype v2 = strided(2);
    double *buf = doubles(2L * N, rank);
    CHECK_MPI(MPI_Sendrecv_replace(buf, 1, v2, peer, 5, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    long bad = 0;
    for (long i = 0; i < 2L * N; i++)
        bad += buf[i] != (i % 2 ? dval(rank, i) : dval(peer, i));
    CHECK_EQ(0, bad);
    free(buf);
    CHECK_MPI(MPI_Type_free(&v2));
}

struct rec {
    int id;
    double v;
    char c;
};

/* 100000 records of 13 data bytes in 24: a struct type whose blocks are not all one size. */
static void struct_records(void)
{
    enum { M = 100000 };
    const int bl[3] = {1, 1, 1};
    const MPI_Aint disp[3] = {offsetof(struct rec, id), offsetof(struct rec, v), offsetof(struct rec, c)};
    const MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    struct rec *src = tu_malloc(M * sizeof *src), *dst = tu_malloc(M * sizeof *dst);
    memset(src, 0, M * sizeof *src);
    memset(dst, 0, M * sizeof *dst);
    for (int i = 0; i < M; i++)
        src[i] = (struct rec){rank * M + i, dval(rank, i), (char)(i + rank)};
    MPI_Status st;
    exchange(src, M, t, dst, M, t, 6, &st);
    int bad = 0;
    for (int i = 0; i < M; i++)
        bad += dst[i].id != peer * M + i || dst[i].v != dval(peer, i) || dst[i].c != (char)(i + peer);
    CHECK_EQ(0, bad);
    int n = 0;
    CHECK_MPI(MPI_Get_elements(&st, t, &n));
    CHECK_EQ(3 * M, n);
    free(src);
    free(dst);
    CHECK_MPI(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    rank = tu_rank();
    peer = rank ^ 1;
    if (peer >= tu_size())
        peer = rank;
    vector_layouts();
    blocking_calls();
    sendrecv_replace();
    struct_records();
    return tu_finish("dt_large");
}
