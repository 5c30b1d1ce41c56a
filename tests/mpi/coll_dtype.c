/* coll_dtype — collectives on derived datatypes.
 *
 * vec = MPI_Type_vector(3, 2, 5, MPI_INT): 6 ints in 3 blocks of 2, stride 5; extent 12 ints.
 * 1. Bcast of k vecs (k = 1, 5, and 43691 = 1 MiB of payload) into vec layouts on every rank,
 *    and the same broadcast received as 6k contiguous MPI_INTs (same type signature). The gap
 *    ints of a vec layout must keep each rank's own sentinel.
 * 2. Gather: vecs out, contiguous ints in at the root; contiguous ints out, vecs in at the root
 *    (blocks one extent apart, gaps untouched). Small and 1 MiB in total; root = last rank.
 * 3. Scatter: vecs out of the root, contiguous ints in.
 * 4. Allreduce on MPI_Type_contiguous(3, MPI_DOUBLE) with user ops (commute = 1) adding and
 *    maxing 3-vectors, the second with MPI_IN_PLACE; 1, 7 and 43691 (1 MiB) elements. (The
 *    standard allows predefined ops only on predefined datatypes for reductions -- derived ones
 *    are an MPI_Accumulate feature -- and MPICH rejects MPI_SUM on this type, so user ops.)
 * 5. A user op on MPI_Type_contiguous(4, MPI_UNSIGNED) = 2x2 matrices mod 2^32, multiplied
 *    (commute = 0): Allreduce, Reduce (root 1 % np) and Scan must give M0*M1*...; the op is
 *    handed the derived datatype and counts matrices. Sizes 1, 5, 65537 matrices (1 MiB).
 *
 * usage: coll_dtype
 */
#include "testutil.h"

#define NAME "coll_dtype"
#define VEXT 12 /* extent of vec, in ints */
#define SENTINEL (-7)

static int g_rank, g_np;
static MPI_Datatype vec, dbl3, mat;
static int g_bad_type;

/* Is int index i (within one vec extent) part of the vec's data? */
static int in_vec(int i)
{
    return i < VEXT && i % 5 < 2;
}

/* The j-th data int (0..6k-1) of a message seeded by s. */
static int dval(uint32_t s, size_t j)
{
    return (int)tu_seed(s, j, 0, 0);
}

/* Fill k vecs' data ints with the message, gaps with SENTINEL. */
static void vec_fill(int *b, size_t k, uint32_t s, int data)
{
    size_t j = 0;
    for (size_t v = 0; v < k; v++)
        for (int i = 0; i < VEXT; i++)
            b[v * VEXT + (size_t)i] =
                in_vec(i) ? (data ? dval(s, j++) : SENTINEL + 1) : SENTINEL;
}

static void vec_check(const int *b, size_t k, uint32_t s, const char *what)
{
    size_t j = 0;
    for (size_t v = 0; v < k; v++)
        for (int i = 0; i < VEXT; i++) {
            int got = b[v * VEXT + (size_t)i];
            if (in_vec(i)) {
                int e = dval(s, j++);
                CHECK_MSG(got == e, "%s: vec %zu int %d: expected %d, got %d", what, v, i, e,
                          got);
            } else {
                CHECK_MSG(got == SENTINEL, "%s: gap int %d of vec %zu overwritten (%d)", what, i,
                          v, got);
            }
        }
}

static void ints_fill(int *b, size_t n, uint32_t s)
{
    for (size_t j = 0; j < n; j++)
        b[j] = dval(s, j);
}

static void ints_check(const int *b, size_t n, uint32_t s, const char *what)
{
    for (size_t j = 0; j < n; j++)
        CHECK_MSG(b[j] == dval(s, j), "%s: int %zu: expected %d, got %d", what, j, dval(s, j),
                  b[j]);
}

/* ---------------------------------------------------------------- 1-3: vec */

static void bcast(size_t k, int root)
{
    uint32_t s = tu_seed(k, (uint64_t)root, 1, 0);
    int *b = tu_malloc(k * VEXT * sizeof(int) + TU_GUARD);
    vec_fill(b, k, s, g_rank == root);
    tu_set_guard(b, k * VEXT * sizeof(int));
    CHECK_MPI(MPI_Bcast(b, (int)k, vec, root, MPI_COMM_WORLD));
    vec_check(b, k, s, "Bcast(vec)");
    CHECK_GUARD(b, k * VEXT * sizeof(int));

    /* root sends vecs, the others receive plain ints */
    int *c = tu_malloc(k * 6 * sizeof(int) + TU_GUARD);
    memset(c, 0, k * 6 * sizeof(int));
    tu_set_guard(c, k * 6 * sizeof(int));
    if (g_rank == root)
        CHECK_MPI(MPI_Bcast(b, (int)k, vec, root, MPI_COMM_WORLD));
    else
        CHECK_MPI(MPI_Bcast(c, (int)(6 * k), MPI_INT, root, MPI_COMM_WORLD));
    if (g_rank != root) {
        ints_check(c, 6 * k, s, "Bcast(vec -> int)");
        CHECK_GUARD(c, k * 6 * sizeof(int));
    }
    free(b);
    free(c);
}

static void gather(size_t k, int root)
{
    uint32_t base = tu_seed(k, (uint64_t)root, 2, 0);
    int is_root = g_rank == root;
    size_t np = (size_t)g_np;
    /* vecs out, ints in */
    int *sv = tu_malloc(k * VEXT * sizeof(int) + 1);
    vec_fill(sv, k, base + (uint32_t)g_rank, 1);
    int *ri = is_root ? tu_malloc(np * k * 6 * sizeof(int) + TU_GUARD) : NULL;
    if (is_root)
        tu_set_guard(ri, np * k * 6 * sizeof(int));
    CHECK_MPI(MPI_Gather(sv, (int)k, vec, ri, (int)(6 * k), MPI_INT, root, MPI_COMM_WORLD));
    if (is_root) {
        for (size_t r = 0; r < np; r++)
            ints_check(ri + r * k * 6, 6 * k, base + (uint32_t)r, "Gather(vec -> int)");
        CHECK_GUARD(ri, np * k * 6 * sizeof(int));
    }
    /* ints out, vecs in */
    int *si = tu_malloc(k * 6 * sizeof(int) + 1);
    ints_fill(si, 6 * k, base + 100 + (uint32_t)g_rank);
    int *rv = is_root ? tu_malloc(np * k * VEXT * sizeof(int) + TU_GUARD) : NULL;
    if (is_root) {
        vec_fill(rv, np * k, 0, 0);
        tu_set_guard(rv, np * k * VEXT * sizeof(int));
    }
    CHECK_MPI(MPI_Gather(si, (int)(6 * k), MPI_INT, rv, (int)k, vec, root, MPI_COMM_WORLD));
    if (is_root) {
        for (size_t r = 0; r < np; r++)
            vec_check(rv + r * k * VEXT, k, base + 100 + (uint32_t)r, "Gather(int -> vec)");
        CHECK_GUARD(rv, np * k * VEXT * sizeof(int));
    }
    free(sv);
    free(ri);
    free(si);
    free(rv);
}

static void scatter(size_t k, int root)
{
    uint32_t base = tu_seed(k, (uint64_t)root, 3, 0);
    size_t np = (size_t)g_np;
    int *sv = NULL;
    if (g_rank == root) {
        sv = tu_malloc(np * k * VEXT * sizeof(int));
        for (size_t r = 0; r < np; r++)
            vec_fill(sv + r * k * VEXT, k, base + (uint32_t)r, 1);
    }
    int *ri = tu_malloc(k * 6 * sizeof(int) + TU_GUARD);
    tu_set_guard(ri, k * 6 * sizeof(int));
    CHECK_MPI(MPI_Scatter(sv, (int)k, vec, ri, (int)(6 * k), MPI_INT, root, MPI_COMM_WORLD));
    ints_check(ri, 6 * k, base + (uint32_t)g_rank, "Scatter(vec -> int)");
    CHECK_GUARD(ri, k * 6 * sizeof(int));
    free(sv);
    free(ri);
}

/* ---------------------------------------------------------------- 4: contiguous doubles */

static double xval(int r, size_t j)
{
    return (double)((int)((r * 31 + (int)(j % 4093) * 7) % 101) - 50) * 0.25;
}

static void op_vsum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const double *x = in;
    double *y = inout;
    if (*dt != dbl3)
        g_bad_type++;
    for (int i = 0; i < 3 * *len; i++)
        y[i] += x[i];
}

static void op_vmax(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const double *x = in;
    double *y = inout;
    if (*dt != dbl3)
        g_bad_type++;
    for (int i = 0; i < 3 * *len; i++)
        y[i] = x[i] > y[i] ? x[i] : y[i];
}

static void allreduce_dbl3(size_t n, MPI_Op vsum, MPI_Op vmax)
{
    size_t m = 3 * n;
    double *s = tu_malloc(m * sizeof(double) + 1), *r = tu_malloc(m * sizeof(double) + TU_GUARD);
    for (size_t j = 0; j < m; j++)
        s[j] = xval(g_rank, j);
    tu_set_guard(r, m * sizeof(double));
    CHECK_MPI(MPI_Allreduce(s, r, (int)n, dbl3, vsum, MPI_COMM_WORLD));
    for (size_t j = 0; j < m; j++) {
        double e = 0;
        for (int q = 0; q < g_np; q++)
            e += xval(q, j);
        CHECK_MSG(r[j] == e, "Allreduce(contig3 double, vsum) double %zu: expected %g, got %g", j,
                  e, r[j]);
    }
    CHECK_GUARD(r, m * sizeof(double));
    for (size_t j = 0; j < m; j++)
        r[j] = xval(g_rank, j);
    CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, r, (int)n, dbl3, vmax, MPI_COMM_WORLD));
    for (size_t j = 0; j < m; j++) {
        double e = xval(0, j);
        for (int q = 1; q < g_np; q++)
            e = xval(q, j) > e ? xval(q, j) : e;
        CHECK_MSG(r[j] == e, "Allreduce(contig3 double, vmax, IN_PLACE) double %zu: expected %g, "
                  "got %g", j, e, r[j]);
    }
    CHECK_GUARD(r, m * sizeof(double));
    free(s);
    free(r);
}

/* ---------------------------------------------------------------- 5: matrices */

typedef struct {
    uint32_t a, b, c, d; /* [a b; c d] */
} m2;

static m2 mmul(m2 x, m2 y)
{
    m2 z = {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
            x.c * y.b + x.d * y.d};
    return z;
}

static void op_mat(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const m2 *x = in;
    m2 *y = inout;
    if (*dt != mat)
        g_bad_type++;
    for (int i = 0; i < *len; i++)
        y[i] = mmul(x[i], y[i]);
}

static m2 mval(int r, size_t j)
{
    m2 z = {tu_seed((uint64_t)r, j, 1, 5), tu_seed((uint64_t)r, j, 2, 5),
            tu_seed((uint64_t)r, j, 3, 5), tu_seed((uint64_t)r, j, 4, 5)};
    return z;
}

static void check_prod(const m2 *got, size_t n, int upto, const char *what)
{
    for (size_t j = 0; j < n; j++) {
        m2 e = mval(0, j);
        for (int r = 1; r < upto; r++)
            e = mmul(e, mval(r, j));
        CHECK_MSG(got[j].a == e.a && got[j].b == e.b && got[j].c == e.c && got[j].d == e.d,
                  "%s: matrix %zu is not M0*...*M%d (rank order)", what, j, upto - 1);
    }
}

static void matrices(size_t n, MPI_Op op)
{
    m2 *s = tu_malloc(n * sizeof(m2) + 1), *r = tu_malloc(n * sizeof(m2) + TU_GUARD);
    for (size_t j = 0; j < n; j++)
        s[j] = mval(g_rank, j);
    tu_set_guard(r, n * sizeof(m2));
    CHECK_MPI(MPI_Allreduce(s, r, (int)n, mat, op, MPI_COMM_WORLD));
    check_prod(r, n, g_np, "Allreduce(2x2 matmul)");
    CHECK_GUARD(r, n * sizeof(m2));
    int root = 1 % g_np;
    CHECK_MPI(MPI_Reduce(s, g_rank == root ? r : NULL, (int)n, mat, op, root, MPI_COMM_WORLD));
    if (g_rank == root)
        check_prod(r, n, g_np, "Reduce(2x2 matmul)");
    CHECK_MPI(MPI_Scan(s, r, (int)n, mat, op, MPI_COMM_WORLD));
    check_prod(r, n, g_rank + 1, "Scan(2x2 matmul)");
    CHECK_GUARD(r, n * sizeof(m2));
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    g_rank = tu_rank();
    g_np = tu_size();
    CHECK_MPI(MPI_Type_vector(3, 2, 5, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    CHECK_MPI(MPI_Type_contiguous(3, MPI_DOUBLE, &dbl3));
    CHECK_MPI(MPI_Type_commit(&dbl3));
    CHECK_MPI(MPI_Type_contiguous(4, MPI_UNSIGNED, &mat));
    CHECK_MPI(MPI_Type_commit(&mat));

    const size_t big = (1u << 20) / 24 + 1; /* vecs (6 ints) or dbl3s: >= 1 MiB of data */
    const size_t ks[] = {1, 5, big};
    for (int i = 0; i < 3; i++) {
        bcast(ks[i], i == 2 ? g_np - 1 : 0);
        if (i < 2)
            bcast(ks[i], g_np - 1);
        gather(i == 2 ? big / (size_t)g_np + 1 : ks[i], g_np - 1);
        scatter(i == 2 ? big / (size_t)g_np + 1 : ks[i], i == 2 ? 0 : g_np - 1);
    }
    MPI_Op vsum, vmax;
    CHECK_MPI(MPI_Op_create(op_vsum, 1, &vsum));
    CHECK_MPI(MPI_Op_create(op_vmax, 1, &vmax));
    const size_t ds[] = {1, 7, big};
    for (int i = 0; i < 3; i++)
        allreduce_dbl3(ds[i], vsum, vmax);
    CHECK_MPI(MPI_Op_free(&vsum));
    CHECK_MPI(MPI_Op_free(&vmax));

    MPI_Op op;
    CHECK_MPI(MPI_Op_create(op_mat, 0, &op));
    const size_t ms[] = {1, 5, (1u << 20) / 16 + 1};
    for (int i = 0; i < 3; i++)
        matrices(ms[i], op);
    CHECK_EQ(0, g_bad_type);
    CHECK_MPI(MPI_Op_free(&op));

    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_MPI(MPI_Type_free(&dbl3));
    CHECK_MPI(MPI_Type_free(&mat));
    CHECK(vec == MPI_DATATYPE_NULL && dbl3 == MPI_DATATYPE_NULL && mat == MPI_DATATYPE_NULL);
    return tu_finish(NAME);
}
