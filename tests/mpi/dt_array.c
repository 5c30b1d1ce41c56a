/* MPI_Type_create_subarray and MPI_Type_create_darray against layouts computed here by other means: each
 * array holds its own global index, so packing one element of the type lists the indices it selects, in
 * type-map order, which must be the selected (owned) elements in the array's storage order. Every rank
 * checks every rank's darray; then each sends its part, with its darray type, to rank 0, which receives
 * each part with the sender's darray type into one array that must come out whole. */
#include "testutil.h"

static int rank, size;

/* The ints one element of t selects from buf (at most max). */
static int pack_ints(const int *buf, MPI_Datatype t, int *out, int max)
{
    int bytes = 0, pos = 0;
    CHECK_MPI(MPI_Pack_size(1, t, MPI_COMM_WORLD, &bytes));
    char *packed = tu_malloc((size_t)bytes);
    CHECK_MPI(MPI_Pack(buf, 1, t, packed, bytes, &pos, MPI_COMM_WORLD));
    CHECK_EQ(0, pos % (int)sizeof(int));
    CHECK_LE(max, pos / (int)sizeof(int));
    memcpy(out, packed, (size_t)pos);
    free(packed);
    return pos / (int)sizeof(int);
}

static int *iota(int n)
{
    int *a = tu_malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        a[i] = i;
    return a;
}

static void check_list(const char *what, const int *expected, int n, const int *got, int m)
{
    CHECK_MSG(n == m, "%s: %d elements selected, expected %d", what, m, n);
    for (int i = 0; i < n; i++)
        CHECK_MSG(expected[i] == got[i], "%s: element %d is index %d, expected %d", what, i, got[i], expected[i]);
}

/* Linear index of coordinates x in an array of dims g: C order (last fastest) or Fortran (first fastest). */
static int linear(int nd, const int *g, const int *x, int order)
{
    int idx = 0;
    for (int k = 0; k < nd; k++) {
        int d = order == MPI_ORDER_C ? k : nd - 1 - k;
        idx = idx * g[d] + x[d];
    }
    return idx;
}

/* Steps x through every coordinate of dims g in storage order; 0 when done. */
static int next(int nd, const int *g, int *x, int order)
{
    for (int k = 0; k < nd; k++) {
        int d = order == MPI_ORDER_C ? nd - 1 - k : k;
        if (++x[d] < g[d])
            return 1;
        x[d] = 0;
    }
    return 0;
}

static void check_bounds(MPI_Datatype t, MPI_Aint extent, int selected, int elem_ints)
{
    MPI_Aint lb = -1, ext = -1;
    int sz = -1;
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &ext));
    CHECK_EQ(0, lb);
    CHECK_EQ(extent, ext);
    CHECK_MPI(MPI_Type_size(t, &sz));
    CHECK_EQ(selected * elem_ints * (int)sizeof(int), sz);
}

/* ---- subarray */

/* The indices a subarray selects, found by walking the whole array in storage order. */
static int subarray_expected(int nd, const int *g, const int *sub, const int *start, int order, int *out)
{
    int x[4] = {0}, n = 0;
    do {
        int in = 1;
        for (int d = 0; d < nd; d++)
            in = in && x[d] >= start[d] && x[d] < start[d] + sub[d];
        if (in)
            out[n++] = linear(nd, g, x, order);
    } while (next(nd, g, x, order));
    return n;
}

static void subarray_case(int nd, const int *g, const int *sub, const int *start, int order)
{
    int total = 1;
    for (int d = 0; d < nd; d++)
        total *= g[d];
    int *buf = iota(2 * total), *expected = tu_malloc(sizeof(int) * (size_t)total * 2),
        *got = tu_malloc(sizeof(int) * (size_t)total * 4);
    int n = subarray_expected(nd, g, sub, start, order, expected);
    MPI_Datatype t, pair, t2;
    CHECK_MPI(MPI_Type_create_subarray(nd, g, sub, start, order, MPI_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    check_bounds(t, (MPI_Aint)total * (MPI_Aint)sizeof(int), n, 1);
    check_list("subarray", expected, n, got, pack_ints(buf, t, got, total));
    /* A second element starts one whole array further on. */
    MPI_Datatype two;
    CHECK_MPI(MPI_Type_contiguous(2, t, &two));
    CHECK_MPI(MPI_Type_commit(&two));
    int m = pack_ints(buf, two, got, 2 * total);
    CHECK_EQ(2 * n, m);
    for (int i = 0; i < n; i++)
        CHECK_EQ(expected[i] + total, got[n + i]);
    /* An element of two ints: indices scale by the old type's extent. */
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
    CHECK_MPI(MPI_Type_create_subarray(nd, g, sub, start, order, pair, &t2));
    CHECK_MPI(MPI_Type_commit(&t2));
    check_bounds(t2, (MPI_Aint)total * 2 * (MPI_Aint)sizeof(int), n, 2);
    m = pack_ints(buf, t2, got, 2 * total);
    CHECK_EQ(2 * n, m);
    for (int i = 0; i < n; i++) {
        CHECK_EQ(2 * expected[i], got[2 * i]);
        CHECK_EQ(2 * expected[i] + 1, got[2 * i + 1]);
    }
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_free(&two));
    CHECK_MPI(MPI_Type_free(&pair));
    CHECK_MPI(MPI_Type_free(&t2));
    free(buf);
    free(expected);
    free(got);
}

static void subarrays(void)
{
    const int g3[3] = {4, 5, 6}, s3[3] = {2, 3, 4}, o3[3] = {1, 2, 1};
    const int whole[3] = {4, 5, 6}, zero[3] = {0, 0, 0}, one[3] = {1, 1, 1}, corner[3] = {3, 4, 5};
    const int g1[1] = {10}, s1[1] = {4}, o1[1] = {6};
    for (int order = MPI_ORDER_C; order <= MPI_ORDER_FORTRAN; order += MPI_ORDER_FORTRAN - MPI_ORDER_C) {
        subarray_case(3, g3, s3, o3, order);
        subarray_case(3, g3, whole, zero, order);
        subarray_case(3, g3, one, corner, order);
        subarray_case(1, g1, s1, o1, order);
        subarray_case(2, g3, s3, o3, order);
    }
}

/* ---- darray */

struct dcase {
    int nd, g[3], dist[3], darg[3], order;
};

static void coords_of(int r, int nd, const int *p, int *c)
{
    int procs = size;
    for (int d = 0; d < nd; d++) {
        procs /= p[d];
        c[d] = r / procs;
        r %= procs;
    }
}

/* Which coordinate of p processes owns index i of a dimension of g: the definitions of the distributions. */
static int owner(int i, int g, int dist, int darg, int p)
{
    if (dist == MPI_DISTRIBUTE_NONE)
        return 0;
    if (dist == MPI_DISTRIBUTE_BLOCK) {
        int blk = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
        return i / blk;
    }
    int blk = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    return (i / blk) % p;
}

static int darray_expected(const struct dcase *k, const int *p, const int *dargs, int r, int *out)
{
    int c[3], x[3] = {0}, n = 0;
    coords_of(r, k->nd, p, c);
    do {
        int mine = 1;
        for (int d = 0; d < k->nd; d++)
            mine = mine && owner(x[d], k->g[d], k->dist[d], dargs[d], p[d]) == c[d];
        if (mine)
            out[n++] = linear(k->nd, k->g, x, k->order);
    } while (next(k->nd, k->g, x, k->order));
    return n;
}

/* dargs < 0 in a case mean "the default block size plus -darg": still valid for any process count. */
static void resolve(const struct dcase *k, const int *p, int *dargs)
{
    for (int d = 0; d < k->nd; d++)
        dargs[d] = k->darg[d] >= 0 || k->darg[d] == MPI_DISTRIBUTE_DFLT_DARG ? k->darg[d]
                                                                             : (k->g[d] + p[d] - 1) / p[d] - k->darg[d];
}

static MPI_Datatype darray_of(const struct dcase *k, const int *p, const int *dargs, int r)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_create_darray(size, r, k->nd, k->g, k->dist, dargs, p, k->order, MPI_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

static void darray_exchange(const struct dcase *k, const int *p, const int *dargs, int total)
{
    int *src = iota(total), *dst = tu_malloc(sizeof(int) * (size_t)total);
    MPI_Datatype mine = darray_of(k, p, dargs, rank);
    if (rank != 0) {
        CHECK_MPI(MPI_Send(src, 1, mine, 0, 7, MPI_COMM_WORLD));
    } else {
        for (int i = 0; i < total; i++)
            dst[i] = -1;
        CHECK_MPI(MPI_Sendrecv(src, 1, mine, 0, 7, dst, 1, mine, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int r = 1; r < size; r++) {
            MPI_Datatype theirs = darray_of(k, p, dargs, r);
            CHECK_MPI(MPI_Recv(dst, 1, theirs, r, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Type_free(&theirs));
        }
        for (int i = 0; i < total; i++)
            CHECK_MSG(dst[i] == i, "darray gather: element %d holds %d (np %d)", i, dst[i], size);
    }
    CHECK_MPI(MPI_Type_free(&mine));
    free(src);
    free(dst);
}

static void darray_case(const struct dcase *k)
{
    int p[3] = {0, 0, 0}, dargs[3], total = 1;
    for (int d = 0; d < k->nd; d++) {
        if (k->dist[d] == MPI_DISTRIBUTE_NONE)
            p[d] = 1;
        total *= k->g[d];
    }
    CHECK_MPI(MPI_Dims_create(size, k->nd, p));
    resolve(k, p, dargs);
    int *buf = iota(total), *expected = tu_malloc(sizeof(int) * (size_t)total),
        *got = tu_malloc(sizeof(int) * (size_t)total);
    int covered = 0;
    for (int r = 0; r < size; r++) {
        MPI_Datatype t = darray_of(k, p, dargs, r);
        int n = darray_expected(k, p, dargs, r, expected);
        covered += n;
        check_bounds(t, (MPI_Aint)total * (MPI_Aint)sizeof(int), n, 1);
        char what[64];
        snprintf(what, sizeof what, "darray case nd=%d order=%d rank %d of %d", k->nd, k->order, r, size);
        check_list(what, expected, n, got, pack_ints(buf, t, got, total));
        CHECK_MPI(MPI_Type_free(&t));
    }
    CHECK_EQ(total, covered);
    darray_exchange(k, p, dargs, total);
    free(buf);
    free(expected);
    free(got);
}

static void darrays(void)
{
    enum { B = MPI_DISTRIBUTE_BLOCK, C = MPI_DISTRIBUTE_CYCLIC, N = MPI_DISTRIBUTE_NONE, D = MPI_DISTRIBUTE_DFLT_DARG };
    const struct dcase cases[] = {
        {1, {10}, {B}, {D}, MPI_ORDER_C},
        {1, {10}, {C}, {D}, MPI_ORDER_FORTRAN},
        {1, {11}, {C}, {3}, MPI_ORDER_C},
        {1, {9}, {B}, {-1}, MPI_ORDER_C},
        {2, {7, 9}, {B, C}, {D, 2}, MPI_ORDER_C},
        {2, {7, 9}, {B, C}, {D, 2}, MPI_ORDER_FORTRAN},
        {2, {6, 5}, {C, C}, {D, 3}, MPI_ORDER_C},
        {2, {6, 5}, {N, B}, {D, D}, MPI_ORDER_FORTRAN},
        {3, {8, 3, 5}, {C, N, B}, {3, D, D}, MPI_ORDER_FORTRAN},
        {3, {5, 4, 6}, {B, C, N}, {-1, 1, D}, MPI_ORDER_C},
        {3, {4, 4, 4}, {C, B, C}, {D, D, 2}, MPI_ORDER_FORTRAN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        darray_case(&cases[i]);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    rank = tu_rank();
    size = tu_size();
    subarrays();
    darrays();
    return tu_finish("dt_array");
}
