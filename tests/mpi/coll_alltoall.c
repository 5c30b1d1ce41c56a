/* coll_alltoall — MPI_Alltoall and MPI_Alltoallv, with and without MPI_IN_PLACE.
 *
 * The block rank i sends to rank j carries a pattern seeded by (case, i, j), so a block delivered
 * to the wrong rank, put in the wrong slot, or left from an earlier case fails byte by byte.
 *   - per-pair sizes: 0, 1, 3, 1000 elements, 64 KiB+ bytes and (1 MiB / np)+ bytes (each rank
 *     then sends and receives >= 1 MiB); elements MPI_BYTE, MPI_INT or MPI_DOUBLE in turn;
 *   - Alltoallv: counts differ per pair (rank i sends f(i,j) elements to j, some are 0); send
 *     blocks sit in reverse order with gaps, receive blocks in rank order with other gaps; gap
 *     bytes and the guard behind the receive buffer must keep their fill, send buffers must be
 *     unchanged;
 *   - MPI_IN_PLACE: the outgoing blocks are in the receive buffer (for Alltoallv the counts are
 *     then symmetric, f(i,j) = f(j,i), as the standard requires).
 *
 * usage: coll_alltoall
 */
#include "testutil.h"

#define NAME "coll_alltoall"
#define FILL 0xD7

static int g_rank, g_np;
static const MPI_Datatype kinds[] = {MPI_BYTE, MPI_INT, MPI_DOUBLE};

static uint32_t pair_seed(uint32_t cs, int from, int to)
{
    return tu_seed(cs, (uint64_t)from, (uint64_t)to, 55);
}

/* Elements rank i sends to rank j. */
static int pair_count(size_t n, int varied, int sym, int i, int j)
{
    if (!varied)
        return (int)n;
    if (sym)
        return (i + j) % 4 == 1 ? 0 : (int)n + (i + j);
    return (i + 2 * j) % 4 == 1 ? 0 : (int)n + i + 3 * j;
}

struct side {
    int *counts, *displs;
    size_t extent; /* elements */
};

/* me's send (send = 1) or receive layout. Send: reverse order, gaps of 2; receive: rank order,
 * gaps of 1 after a leading 1. Plain Alltoall: contiguous blocks in rank order. */
static void side_make(struct side *S, size_t n, int varied, int sym, int send)
{
    S->counts = tu_malloc(sizeof(int) * (size_t)g_np);
    S->displs = tu_malloc(sizeof(int) * (size_t)g_np);
    size_t pos = varied ? 1 : 0;
    for (int k = 0; k < g_np; k++) {
        int peer = varied && send ? g_np - 1 - k : k;
        S->counts[peer] = send ? pair_count(n, varied, sym, g_rank, peer)
                               : pair_count(n, varied, sym, peer, g_rank);
        S->displs[peer] = (int)pos;
        pos += (size_t)S->counts[peer] + (varied ? (send ? 2 : 1) : 0);
    }
    S->extent = pos;
}

static void side_free(struct side *S)
{
    free(S->counts);
    free(S->displs);
}

static uint8_t *filled(size_t bytes)
{
    uint8_t *b = tu_malloc(bytes + TU_GUARD);
    memset(b, FILL, bytes);
    tu_set_guard(b, bytes);
    return b;
}

/* Blocks of S in buf carry seed(from, to) with me as sender (outgoing) or receiver; the rest is
 * FILL, and the guard is intact. */
static void check_side(const uint8_t *buf, size_t es, const struct side *S, uint32_t cs,
                       int outgoing, const char *what)
{
    size_t total = S->extent * es;
    uint8_t *covered = tu_malloc(total);
    memset(covered, 0, total);
    for (int p = 0; p < g_np; p++) {
        size_t off = (size_t)S->displs[p] * es, len = (size_t)S->counts[p] * es;
        uint32_t seed = outgoing ? pair_seed(cs, g_rank, p) : pair_seed(cs, p, g_rank);
        CHECK_PATTERN(buf + off, len, seed);
        memset(covered + off, 1, len);
    }
    for (size_t i = 0; i < total; i++)
        CHECK_MSG(covered[i] || buf[i] == FILL, "%s: gap byte %zu overwritten (0x%02x)", what, i,
                  buf[i]);
    CHECK_GUARD(buf, total);
    free(covered);
}

static void fill_outgoing(uint8_t *buf, size_t es, const struct side *S, uint32_t cs)
{
    for (int p = 0; p < g_np; p++)
        tu_fill(buf + (size_t)S->displs[p] * es, (size_t)S->counts[p] * es,
                pair_seed(cs, g_rank, p));
}

static void one(size_t n, int kind, int varied, int inplace, uint32_t cs)
{
    MPI_Datatype dt = kinds[kind];
    int ies = 0;
    CHECK_MPI(MPI_Type_size(dt, &ies));
    size_t es = (size_t)ies;
    const char *what = varied ? (inplace ? "Alltoallv(IN_PLACE)" : "Alltoallv")
                              : (inplace ? "Alltoall(IN_PLACE)" : "Alltoall");
    struct side S, R;
    side_make(&S, n, varied, inplace, 1);
    side_make(&R, n, varied, inplace, 0);
    uint8_t *sb = inplace ? NULL : filled(S.extent * es);
    uint8_t *rb = filled(R.extent * es);
    if (inplace) /* outgoing blocks, in the receive layout (symmetric counts: same sizes) */
        fill_outgoing(rb, es, &R, cs);
    else
        fill_outgoing(sb, es, &S, cs);
    if (getenv("COLL_TRACE"))
        fprintf(stderr, "[rank %d] %s n=%zu type=%d\n", g_rank, what, n, kind);

    if (varied && inplace)
        CHECK_MPI(MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, rb, R.counts,
                                R.displs, dt, MPI_COMM_WORLD));
    else if (varied)
        CHECK_MPI(MPI_Alltoallv(sb, S.counts, S.displs, dt, rb, R.counts, R.displs, dt,
                                MPI_COMM_WORLD));
    else if (inplace)
        CHECK_MPI(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rb, (int)n, dt,
                               MPI_COMM_WORLD));
    else
        CHECK_MPI(MPI_Alltoall(sb, (int)n, dt, rb, (int)n, dt, MPI_COMM_WORLD));

    check_side(rb, es, &R, cs, 0, what);
    if (!inplace)
        check_side(sb, es, &S, cs, 1, what);
    free(sb);
    free(rb);
    side_free(&S);
    side_free(&R);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    g_rank = tu_rank();
    g_np = tu_size();
    /* per-pair sizes: element counts, then bytes */
    const size_t elems[] = {0, 1, 3, 1000};
    const size_t bytes[] = {(64u << 10) + 24, (1u << 20) / (size_t)g_np + 40};
    uint32_t cs = 1;
    int k = 0;
    for (int s = 0; s < 6; s++) {
        for (int variant = 0; variant < 4; variant++) {
            int kind = k++ % 3, es = kind == 0 ? 1 : kind == 1 ? 4 : 8;
            size_t n = s < 4 ? elems[s] : bytes[s - 4] / (size_t)es;
            one(n, kind, variant & 1, variant >> 1, cs++);
        }
    }
    return tu_finish(NAME);
}
