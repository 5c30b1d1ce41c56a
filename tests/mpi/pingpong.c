/* pingpong — payload integrity over message sizes 0 .. max (default 16 MiB).
 *
 * Sizes: 0, then every power of two p up to max together with the NetPIPE-style perturbations
 * p-3 and p+3, so protocol thresholds (eager/rendezvous, pipeline chunk sizes) are crossed from
 * both sides with unaligned tails. Every byte is checked against a pattern that depends on size,
 * sender rank and iteration, and a guard zone after the receive buffer catches overruns.
 *
 * Ranks pair up as (0,1), (2,3); an odd last rank has no partner and only joins the barriers.
 *   blocking:    even rank Sends then Recvs, odd rank Recvs then Sends its own pattern back.
 *   nonblocking: both sides Irecv + Isend at once, so both directions are in flight together.
 *
 * usage: pingpong [max_bytes] [blocking|nonblocking|both]
 */
#include "testutil.h"

#define NAME "pingpong"

/* Big messages cost the most time at np=4 on 2 cores: few iterations for them. */
static int iterations_for(size_t n)
{
    if (n <= 64 * 1024)
        return 4;
    if (n <= 1024 * 1024)
        return 2;
    return 1;
}

/* One exchange of n bytes with partner; sbuf/rbuf have room for n + TU_GUARD bytes. */
static void exchange(int nonblocking, int rank, int partner, size_t n, int iter, uint8_t *sbuf,
                     uint8_t *rbuf)
{
    const int tag = iter % 100;
    const int cnt = (int)n;
    uint32_t my_seed = tu_seed(n, (uint64_t)rank, (uint64_t)iter, (uint64_t)nonblocking);
    uint32_t peer_seed = tu_seed(n, (uint64_t)partner, (uint64_t)iter, (uint64_t)nonblocking);
    MPI_Status st;

    tu_fill(sbuf, n, my_seed);
    memset(rbuf, 0, n);
    tu_set_guard(rbuf, n);

    if (nonblocking) {
        MPI_Request req[2];
        MPI_Status sts[2];
        CHECK_MPI(MPI_Irecv(rbuf, cnt, MPI_BYTE, partner, tag, MPI_COMM_WORLD, &req[0]));
        CHECK_MPI(MPI_Isend(sbuf, cnt, MPI_BYTE, partner, tag, MPI_COMM_WORLD, &req[1]));
        CHECK_MPI(MPI_Waitall(2, req, sts));
        CHECK(req[0] == MPI_REQUEST_NULL && req[1] == MPI_REQUEST_NULL);
        st = sts[0];
    } else if (rank % 2 == 0) {
        CHECK_MPI(MPI_Send(sbuf, cnt, MPI_BYTE, partner, tag, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(rbuf, cnt, MPI_BYTE, partner, tag, MPI_COMM_WORLD, &st));
    } else {
        CHECK_MPI(MPI_Recv(rbuf, cnt, MPI_BYTE, partner, tag, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Send(sbuf, cnt, MPI_BYTE, partner, tag, MPI_COMM_WORLD));
    }
    CHECK_STATUS(st, partner, tag, cnt);
    CHECK_PATTERN(rbuf, n, peer_seed);
    CHECK_GUARD(rbuf, n);
    /* The send buffer must be untouched by the library. */
    CHECK_PATTERN(sbuf, n, my_seed);
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Sizes in increasing order without duplicates: 0 and every p-3, p, p+3 (p a power of two)
 * that lies in 0..max. */
static size_t build_sizes(size_t max, size_t *out)
{
    size_t k = 0;
    out[k++] = 0;
    for (size_t p = 1; p <= max; p *= 2) {
        if (p > 3)
            out[k++] = p - 3;
        out[k++] = p;
        if (p + 3 <= max)
            out[k++] = p + 3;
    }
    qsort(out, k, sizeof *out, cmp_size);
    size_t u = 1;
    for (size_t i = 1; i < k; i++)
        if (out[i] != out[u - 1])
            out[u++] = out[i];
    return u;
}

static void run(int nonblocking, int rank, int partner, size_t max, uint8_t *sbuf, uint8_t *rbuf)
{
    size_t sizes[256];
    size_t nsizes = build_sizes(max, sizes);
    for (size_t s = 0; s < nsizes; s++)
        for (int it = 0; it < iterations_for(sizes[s]); it++)
            exchange(nonblocking, rank, partner, sizes[s], it, sbuf, rbuf);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    size_t max = (size_t)tu_arg_long(argc, argv, 1, 16L * 1024 * 1024);
    const char *mode = argc > 2 ? argv[2] : "both";
    int rank = tu_rank(), size = tu_size();
    int partner = (rank % 2 == 0) ? rank + 1 : rank - 1;

    if (!tu_need_ranks(2, NAME) && partner < size) {
        uint8_t *sbuf = tu_malloc(max + TU_GUARD);
        uint8_t *rbuf = tu_malloc(max + TU_GUARD);
        if (strcmp(mode, "nonblocking") != 0)
            run(0, rank, partner, max, sbuf, rbuf);
        if (strcmp(mode, "blocking") != 0)
            run(1, rank, partner, max, sbuf, rbuf);
        free(sbuf);
        free(rbuf);
    }
    return tu_finish(NAME);
}
