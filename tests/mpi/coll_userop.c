/* coll_userop — user-defined reduction ops (MPI_Op_create / MPI_Op_free) in every reduction
 * collective.
 *
 * Two ops on MPI_UNSIGNED, element by element:
 *   - "affine" (commute = 0): each element is an affine map x -> m*x + c mod 2^16 packed as
 *     m << 16 | c, and the op composes maps, a o b. Composition is associative but not
 *     commutative, so any result that does not combine the ranks in rank order
 *     (x0 o x1 o ... o x{n-1}) differs from the reference.
 *   - "wrapsum" (commute = 1): addition mod 2^32 of full-range values.
 * The ops count their calls and check the datatype handle they are given.
 *
 * Each op goes through Reduce (every root for small counts, the last rank for large ones),
 * Allreduce, Scan, Exscan, Reduce_scatter_block, Reduce_scatter (unequal counts, some 0) and
 * Reduce_local, with and without MPI_IN_PLACE, at counts 0, 1, 7, 1000 and 262147 (> 1 MiB).
 * Finally: Op_free sets the handle to MPI_OP_NULL, a freed op's slot can be reused, 100
 * create/free cycles work, and an op freed while an MPI_Iallreduce uses it is still applied.
 *
 * usage: coll_userop
 */
#include "testutil.h"

#define NAME "coll_userop"

static int g_rank, g_np;
static long g_calls;
static int g_bad_type;
/* Peers only: MPICH 4.0.x IN_PLACE bugs (see coll_reduce.c): Reduce at root != 0 and large
 * Reduce_scatter run without IN_PLACE under MPICH. Never under skiff. */
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

/* ---------------------------------------------------------------- the ops */

static uint32_t compose(uint32_t a, uint32_t b) /* a o b: x -> a(b(x)) */
{
    uint32_t ma = a >> 16, ca = a & 0xffff, mb = b >> 16, cb = b & 0xffff;
    uint32_t m = (ma * mb) & 0xffff, c = (ma * cb + ca) & 0xffff;
    return m << 16 | c;
}

static void op_affine(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const uint32_t *a = in;
    uint32_t *b = inout;
    g_calls++;
    if (*dt != MPI_UNSIGNED)
        g_bad_type++;
    for (int i = 0; i < *len; i++)
        b[i] = compose(a[i], b[i]);
}

static void op_wrapsum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const uint32_t *a = in;
    uint32_t *b = inout;
    g_calls++;
    if (*dt != MPI_UNSIGNED)
        g_bad_type++;
    for (int i = 0; i < *len; i++)
        b[i] = a[i] + b[i];
}

struct uop {
    MPI_Op op;
    int commute;
    const char *name;
    uint32_t seed;
};

static uint32_t combine(const struct uop *u, uint32_t a, uint32_t b)
{
    return u->commute ? a + b : compose(a, b);
}

/* Rank r's element i; affine maps get an odd multiplier so no information is lost. */
static uint32_t value(const struct uop *u, int r, size_t i)
{
    uint32_t h = tu_seed(u->seed, (uint64_t)r, i, 66);
    return u->commute ? h : h | 0x10000u;
}

static void fill(const struct uop *u, int r, uint32_t *b, size_t off, size_t n)
{
    for (size_t j = 0; j < n; j++)
        b[j] = value(u, r, off + j);
}

/* b[0..n) = x_rlo o ... o x_{rhi-1} at global elements off..off+n-1. */
static void check_red(const struct uop *u, const char *what, const uint32_t *b, size_t off,
                      size_t n, int rlo, int rhi)
{
    for (size_t j = 0; j < n; j++) {
        uint32_t e = value(u, rlo, off + j);
        for (int r = rlo + 1; r < rhi; r++)
            e = combine(u, e, value(u, r, off + j));
        CHECK_MSG(b[j] == e,
                  "%s with %s, np %d: element %zu of %zu (ranks %d..%d): expected 0x%08x, got "
                  "0x%08x",
                  what, u->name, g_np, off + j, n, rlo, rhi - 1, e, b[j]);
    }
}

static uint32_t *buf(size_t n)
{
    uint32_t *b = tu_malloc(n * 4 + TU_GUARD);
    memset(b, 0x77, n * 4);
    tu_set_guard(b, n * 4);
    return b;
}

static void trace(const char *what, const struct uop *u, size_t n, int root)
{
    if (getenv("COLL_TRACE"))
        fprintf(stderr, "[rank %d] %s %s n=%zu root=%d\n", g_rank, what, u->name, n, root);
}

/* ---------------------------------------------------------------- collectives */

static void t_allreduce(const struct uop *u, size_t n, int ip)
{
    const char *what = ip ? "Allreduce(IN_PLACE)" : "Allreduce";
    uint32_t *sb = buf(n), *rb = buf(n);
    fill(u, g_rank, ip ? rb : sb, 0, n);
    trace(what, u, n, -1);
    CHECK_MPI(MPI_Allreduce(ip ? MPI_IN_PLACE : sb, rb, (int)n, MPI_UNSIGNED, u->op,
                            MPI_COMM_WORLD));
    check_red(u, what, rb, 0, n, 0, g_np);
    CHECK_GUARD(rb, n * 4);
    free(sb);
    free(rb);
}

static void t_reduce(const struct uop *u, size_t n, int root, int inplace)
{
    int me_root = g_rank == root;
    int ip = inplace && me_root && !(g_mpich && root != 0);
    const char *what = ip ? "Reduce(IN_PLACE)" : "Reduce";
    uint32_t *sb = buf(n), *rb = me_root ? buf(n) : NULL;
    fill(u, g_rank, ip ? rb : sb, 0, n);
    trace(what, u, n, root);
    CHECK_MPI(MPI_Reduce(ip ? MPI_IN_PLACE : sb, rb, (int)n, MPI_UNSIGNED, u->op, root,
                         MPI_COMM_WORLD));
    if (me_root) {
        check_red(u, what, rb, 0, n, 0, g_np);
        CHECK_GUARD(rb, n * 4);
    }
    if (!ip)
        check_red(u, "Reduce (send buffer unchanged)", sb, 0, n, g_rank, g_rank + 1);
    free(sb);
    free(rb);
}

static void t_scan(const struct uop *u, size_t n, int ip, int ex)
{
    const char *what = ex ? (ip ? "Exscan(IN_PLACE)" : "Exscan") : (ip ? "Scan(IN_PLACE)" : "Scan");
    uint32_t *sb = buf(n), *rb = buf(n);
    fill(u, g_rank, ip ? rb : sb, 0, n);
    trace(what, u, n, -1);
    if (ex)
        CHECK_MPI(MPI_Exscan(ip ? MPI_IN_PLACE : sb, rb, (int)n, MPI_UNSIGNED, u->op,
                             MPI_COMM_WORLD));
    else
        CHECK_MPI(MPI_Scan(ip ? MPI_IN_PLACE : sb, rb, (int)n, MPI_UNSIGNED, u->op,
                           MPI_COMM_WORLD));
    if (!ex)
        check_red(u, what, rb, 0, n, 0, g_rank + 1);
    else if (g_rank > 0)
        check_red(u, what, rb, 0, n, 0, g_rank);
    CHECK_GUARD(rb, n * 4);
    free(sb);
    free(rb);
}

static void t_rsb(const struct uop *u, size_t n, int ip)
{
    const char *what = ip ? "Reduce_scatter_block(IN_PLACE)" : "Reduce_scatter_block";
    size_t total = n * (size_t)g_np;
    uint32_t *sb = buf(total), *rb = buf(ip ? total : n);
    fill(u, g_rank, ip ? rb : sb, 0, total);
    trace(what, u, n, -1);
    CHECK_MPI(MPI_Reduce_scatter_block(ip ? MPI_IN_PLACE : sb, rb, (int)n, MPI_UNSIGNED, u->op,
                                       MPI_COMM_WORLD));
    check_red(u, what, rb, (size_t)g_rank * n, n, 0, g_np);
    CHECK_GUARD(rb, (ip ? total : n) * 4);
    free(sb);
    free(rb);
}

static void t_rs(const struct uop *u, size_t base, int ip)
{
    if (g_mpich && base > 1000)
        ip = 0;
    const char *what = ip ? "Reduce_scatter(IN_PLACE)" : "Reduce_scatter";
    int *counts = tu_malloc(sizeof(int) * (size_t)g_np);
    size_t total = 0, off = 0;
    for (int r = 0; r < g_np; r++) {
        counts[r] = r % 3 == 2 ? 0 : (int)base + 2 * r;
        if (r < g_rank)
            off += (size_t)counts[r];
        total += (size_t)counts[r];
    }
    size_t mine = (size_t)counts[g_rank];
    uint32_t *sb = buf(total), *rb = buf(ip ? total : mine);
    fill(u, g_rank, ip ? rb : sb, 0, total);
    trace(what, u, base, -1);
    CHECK_MPI(MPI_Reduce_scatter(ip ? MPI_IN_PLACE : sb, rb, counts, MPI_UNSIGNED, u->op,
                                 MPI_COMM_WORLD));
    check_red(u, what, rb, off, mine, 0, g_np);
    CHECK_GUARD(rb, (ip ? total : mine) * 4);
    free(counts);
    free(sb);
    free(rb);
}

/* inoutbuf = inbuf o inoutbuf: the input buffer is the left operand. */
static void t_local(const struct uop *u, size_t n)
{
    uint32_t *in = buf(n), *io = buf(n);
    fill(u, 0, in, 0, n);
    fill(u, 1, io, 0, n);
    trace("Reduce_local", u, n, -1);
    CHECK_MPI(MPI_Reduce_local(in, io, (int)n, MPI_UNSIGNED, u->op));
    for (size_t j = 0; j < n; j++)
        CHECK_MSG(io[j] == combine(u, value(u, 0, j), value(u, 1, j)),
                  "Reduce_local with %s: element %zu: operands in the wrong order?", u->name, j);
    CHECK_GUARD(io, n * 4);
    free(in);
    free(io);
}

static void all_collectives(struct uop *u)
{
    const size_t ns[] = {0, 1, 7, 1000, 262147};
    for (int s = 0; s < 5; s++) {
        size_t n = ns[s];
        int large = s == 4;
        for (int ip = 0; ip < 2; ip++) {
            u->seed = tu_seed((uint64_t)s, (uint64_t)ip, (uint64_t)u->commute, 9);
            t_allreduce(u, n, ip);
            if (large)
                t_reduce(u, n, g_np - 1, ip);
            else
                for (int root = 0; root < g_np; root++)
                    t_reduce(u, n, root, ip);
            t_scan(u, n, ip, 0);
            t_scan(u, n, ip, 1);
            t_rsb(u, large ? n / (size_t)g_np + 1 : n, ip);
            t_rs(u, large ? n / (size_t)g_np : n, ip);
        }
        t_local(u, n);
    }
}

/* MPI_Op_free while a nonblocking reduction still uses the op: the standard lets the user free it at
 * once, and the reduction must still apply it (skiff once skipped it silently). */
static void freed_while_pending(void)
{
    MPI_Op op = MPI_OP_NULL;
    MPI_Request req;
    const size_t n = 1000;
    CHECK_MPI(MPI_Op_create(op_affine, 0, &op));
    struct uop u = {op, 0, "affine (freed while pending)", 321};
    uint32_t *sb = buf(n), *rb = buf(n);
    fill(&u, g_rank, sb, 0, n);
    CHECK_MPI(MPI_Iallreduce(sb, rb, (int)n, MPI_UNSIGNED, op, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Op_free(&op));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    check_red(&u, "Iallreduce", rb, 0, n, 0, g_np);
    free(sb);
    free(rb);
}

static void lifecycle(void)
{
    MPI_Op a = MPI_OP_NULL, b = MPI_OP_NULL;
    CHECK_MPI(MPI_Op_create(op_affine, 0, &a));
    CHECK_MPI(MPI_Op_free(&a));
    CHECK(a == MPI_OP_NULL);
    CHECK_MPI(MPI_Op_create(op_wrapsum, 1, &b)); /* may reuse a's slot */
    struct uop u = {b, 1, "wrapsum (recreated)", 123};
    t_allreduce(&u, 5, 0);
    t_scan(&u, 5, 0, 0);
    CHECK_MPI(MPI_Op_free(&b));
    CHECK(b == MPI_OP_NULL);
    for (int i = 0; i < 100; i++) {
        MPI_Op t;
        CHECK_MPI(MPI_Op_create(i & 1 ? op_affine : op_wrapsum, i & 1 ? 0 : 1, &t));
        CHECK(t != MPI_OP_NULL);
        CHECK_MPI(MPI_Op_free(&t));
        CHECK(t == MPI_OP_NULL);
    }
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    g_rank = tu_rank();
    g_np = tu_size();
    probe_peer();
    struct uop ops[2] = {{MPI_OP_NULL, 0, "affine (non-commutative)", 0},
                         {MPI_OP_NULL, 1, "wrapsum (commutative)", 0}};
    CHECK_MPI(MPI_Op_create(op_affine, 0, &ops[0].op));
    CHECK_MPI(MPI_Op_create(op_wrapsum, 1, &ops[1].op));
    for (int i = 0; i < 2; i++)
        all_collectives(&ops[i]);
    CHECK_EQ(0, g_bad_type);
    long calls = 0;
    CHECK_MPI(MPI_Allreduce(&g_calls, &calls, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    CHECK_MSG(calls > 0, "the user ops were never called"); /* Reduce_local calls them at np=1 */
    for (int i = 0; i < 2; i++) {
        CHECK_MPI(MPI_Op_free(&ops[i].op));
        CHECK(ops[i].op == MPI_OP_NULL);
    }
    lifecycle();
    freed_while_pending();
    return tu_finish(NAME);
}
