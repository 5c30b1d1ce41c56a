/* coll_gather_scatter — MPI_Gather, Gatherv, Scatter, Scatterv, Allgather, Allgatherv, checked
 * byte by byte.
 *
 * Each rank's block carries a pattern seeded by (case, rank), so a block from the wrong rank, at
 * the wrong place, or stale from an earlier case fails. The rank-ordered buffer (gathered, or
 * the root's scatter source) starts as a fill byte and has guard bytes behind it: every byte no
 * block covers (the gaps of the v-variants) must keep the fill byte. Send buffers must come back
 * unchanged; a scattered block must be followed by intact guard bytes.
 *
 *   - per-rank sizes: 0, 1, 3, 1000 elements, 64 KiB+ and (1 MiB / np)+ bytes (so the whole
 *     rank-ordered buffer is >= 1 MiB); elements are MPI_BYTE, MPI_INT or MPI_DOUBLE in turn;
 *   - rooted calls at every root for small sizes, at the last rank for large ones; at non-roots
 *     the root-only arguments are NULL / 0 / MPI_DATATYPE_NULL (significant only at the root);
 *   - v-variants: unequal counts (every third rank gets nothing) placed in *reverse* rank order
 *     with gaps between blocks;
 *   - MPI_IN_PLACE: at the root for Gather(v) (its block is already in place) and Scatter(v)
 *     (its block stays in the send buffer), on every rank for Allgather(v); the ignored
 *     arguments are then 0 / MPI_DATATYPE_NULL.
 *
 * usage: coll_gather_scatter
 */
#include "testutil.h"

#define NAME "coll_gather_scatter"
#define FILL 0xEE

static int g_rank, g_np;
/* Peers only, never skiff: MPICH 4.0.2's Allgatherv on one rank ignores displs[0] and copies to
 * offset 0. Under MPICH at np=1 the Allgatherv block is therefore put at offset 0. */
static int g_mpich;

static void probe_peer(void)
{
#ifndef SKIFF_MPI
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    CHECK_MPI(MPI_Get_library_version(v, &len));
    g_mpich = strstr(v, "MPICH Version:") != NULL;
#endif
}
static const MPI_Datatype kinds[] = {MPI_BYTE, MPI_INT, MPI_DOUBLE};

/* Where each rank's block goes, in elements. */
struct layout {
    int *counts, *displs;
    size_t extent; /* elements the receive buffer needs */
};

static void layout_make(struct layout *L, size_t n, int varied, int all)
{
    L->counts = tu_malloc(sizeof(int) * (size_t)g_np);
    L->displs = tu_malloc(sizeof(int) * (size_t)g_np);
    size_t pos = varied && !(g_mpich && all && g_np == 1) ? 2 : 0;
    for (int k = g_np - 1; k >= 0; k--) { /* varied: reverse rank order, gaps of 3 */
        int r = varied ? k : g_np - 1 - k;
        L->counts[r] = varied ? (r % 3 == 1 ? 0 : (int)n + 5 * r) : (int)n;
        L->displs[r] = (int)pos;
        pos += (size_t)L->counts[r] + (varied ? 3 : 0);
    }
    L->extent = pos;
}

static void layout_free(struct layout *L)
{
    free(L->counts);
    free(L->displs);
}

static uint32_t block_seed(uint32_t cs, int r)
{
    return tu_seed(cs, (uint64_t)r, 44, 0);
}

/* Every block matches its rank's pattern and every other byte is FILL; guard intact. */
static void check_gathered(const uint8_t *buf, size_t es, const struct layout *L, uint32_t cs,
                           const char *what)
{
    size_t total = L->extent * es;
    uint8_t *covered = tu_malloc(total);
    memset(covered, 0, total);
    for (int r = 0; r < g_np; r++) {
        size_t off = (size_t)L->displs[r] * es, len = (size_t)L->counts[r] * es;
        CHECK_PATTERN(buf + off, len, block_seed(cs, r));
        memset(covered + off, 1, len);
    }
    for (size_t i = 0; i < total; i++)
        CHECK_MSG(covered[i] || buf[i] == FILL,
                  "%s: byte %zu lies between blocks but was overwritten (0x%02x)", what, i,
                  buf[i]);
    CHECK_GUARD(buf, total);
    free(covered);
}

static uint8_t *recv_buffer(size_t bytes)
{
    uint8_t *b = tu_malloc(bytes + TU_GUARD);
    memset(b, FILL, bytes);
    tu_set_guard(b, bytes);
    return b;
}

/* all: Allgather(v); varied: the v-variant; root ignored for all. */
static void one(size_t n, int kind, int varied, int all, int root, int inplace, uint32_t cs)
{
    MPI_Datatype dt = kinds[kind];
    int ies = 0;
    CHECK_MPI(MPI_Type_size(dt, &ies));
    size_t es = (size_t)ies;
    struct layout L;
    layout_make(&L, n, varied, all);
    int mine = L.counts[g_rank];
    int is_root = all || g_rank == root;
    int ip = inplace && is_root;
    const char *what =
        all ? (varied ? "Allgatherv" : "Allgather") : (varied ? "Gatherv" : "Gather");

    uint8_t *sb = tu_malloc((size_t)mine * es + 1);
    tu_fill(sb, (size_t)mine * es, block_seed(cs, g_rank));
    uint8_t *rb = is_root ? recv_buffer(L.extent * es) : NULL;
    if (ip)
        tu_fill(rb + (size_t)L.displs[g_rank] * es, (size_t)mine * es, block_seed(cs, g_rank));

    if (getenv("COLL_TRACE"))
        fprintf(stderr, "[rank %d] %s n=%zu type=%d root=%d inplace=%d\n", g_rank, what, n, kind,
                all ? -1 : root, inplace);
    const void *s = ip ? MPI_IN_PLACE : sb;
    int scount = ip ? 0 : mine;
    MPI_Datatype stype = ip ? MPI_DATATYPE_NULL : dt;
    if (all && varied)
        CHECK_MPI(MPI_Allgatherv(s, scount, stype, rb, L.counts, L.displs, dt, MPI_COMM_WORLD));
    else if (all)
        CHECK_MPI(MPI_Allgather(s, scount, stype, rb, (int)n, dt, MPI_COMM_WORLD));
    else if (varied)
        CHECK_MPI(MPI_Gatherv(s, scount, stype, rb, is_root ? L.counts : NULL,
                              is_root ? L.displs : NULL, is_root ? dt : MPI_DATATYPE_NULL, root,
                              MPI_COMM_WORLD));
    else
        CHECK_MPI(MPI_Gather(s, scount, stype, rb, is_root ? (int)n : 0,
                             is_root ? dt : MPI_DATATYPE_NULL, root, MPI_COMM_WORLD));

    if (is_root)
        check_gathered(rb, es, &L, cs, what);
    CHECK_PATTERN(sb, (size_t)mine * es, block_seed(cs, g_rank));
    free(sb);
    free(rb);
    layout_free(&L);
}

/* Scatter(v): the root's send buffer is laid out like a gathered one. */
static void one_scatter(size_t n, int kind, int varied, int root, int inplace, uint32_t cs)
{
    MPI_Datatype dt = kinds[kind];
    int ies = 0;
    CHECK_MPI(MPI_Type_size(dt, &ies));
    size_t es = (size_t)ies;
    struct layout L;
    layout_make(&L, n, varied, 0);
    int mine = L.counts[g_rank];
    int is_root = g_rank == root;
    int ip = inplace && is_root;
    const char *what = varied ? "Scatterv" : "Scatter";

    uint8_t *sb = NULL;
    if (is_root) {
        sb = recv_buffer(L.extent * es);
        for (int r = 0; r < g_np; r++)
            tu_fill(sb + (size_t)L.displs[r] * es, (size_t)L.counts[r] * es, block_seed(cs, r));
    }
    uint8_t *rb = ip ? NULL : recv_buffer((size_t)mine * es);
    if (getenv("COLL_TRACE"))
        fprintf(stderr, "[rank %d] %s n=%zu type=%d root=%d inplace=%d\n", g_rank, what, n, kind,
                root, inplace);
    void *r = ip ? MPI_IN_PLACE : rb;
    int rcount = ip ? 0 : mine;
    MPI_Datatype rtype = ip ? MPI_DATATYPE_NULL : dt;
    if (varied)
        CHECK_MPI(MPI_Scatterv(sb, is_root ? L.counts : NULL, is_root ? L.displs : NULL,
                               is_root ? dt : MPI_DATATYPE_NULL, r, rcount, rtype, root,
                               MPI_COMM_WORLD));
    else
        CHECK_MPI(MPI_Scatter(sb, is_root ? (int)n : 0, is_root ? dt : MPI_DATATYPE_NULL, r,
                              rcount, rtype, root, MPI_COMM_WORLD));
    if (!ip) {
        CHECK_PATTERN(rb, (size_t)mine * es, block_seed(cs, g_rank));
        CHECK_GUARD(rb, (size_t)mine * es);
    }
    if (is_root)
        check_gathered(sb, es, &L, cs, what); /* the source is untouched */
    free(sb);
    free(rb);
    layout_free(&L);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    g_rank = tu_rank();
    g_np = tu_size();
    probe_peer();
    size_t bytes_large = (1u << 20) / (size_t)g_np + 24;
    /* per-rank sizes in bytes; elements = bytes / element size (at least the small ones exact) */
    const size_t sizes[] = {0, 1, 3, 1000, (64u << 10) + 40, bytes_large};
    const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
    uint32_t cs = 1;
    int k = 0;
    for (int s = 0; s < nsizes; s++) {
        int large = s >= 4;
        /* Gather, Gatherv, Allgather, Allgatherv, Scatter, Scatterv */
        for (int variant = 0; variant < 6; variant++) {
            int all = variant == 2 || variant == 3, varied = variant & 1, scatter = variant >= 4;
            for (int inplace = 0; inplace < 2; inplace++) {
                int kind = k++ % 3;
                int es = kind == 0 ? 1 : kind == 1 ? 4 : 8;
                size_t n = s < 4 ? sizes[s] : sizes[s] / (size_t)es;
                if (all) {
                    one(n, kind, varied, 1, 0, inplace, cs++);
                    continue;
                }
                for (int root = large ? g_np - 1 : 0; root < g_np; root++) {
                    if (scatter)
                        one_scatter(n, kind, varied, root, inplace, cs++);
                    else
                        one(n, kind, varied, 0, root, inplace, cs++);
                }
            }
        }
    }
    return tu_finish(NAME);
}
