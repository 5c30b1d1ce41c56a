/* comm_group — group construction and queries, checked against lists computed here.
 *   - size and rank of MPI_COMM_WORLD's group and of MPI_GROUP_EMPTY;
 *   - incl (reversed, every other rank), excl, range_incl / range_excl with positive and negative
 *     strides, union / intersection / difference with their orders;
 *   - translate_ranks: members, non-members (MPI_UNDEFINED), MPI_PROC_NULL;
 *   - compare: IDENT, SIMILAR, UNEQUAL, empty groups;
 *   - every group freed is set to MPI_GROUP_NULL.
 */
#include "testutil.h"

#define NAME "comm_group"

/* World ranks of the members of g, in group order. */
static int members(MPI_Group world, MPI_Group g, int *out)
{
    int n;
    CHECK_MPI(MPI_Group_size(g, &n));
    int *r = tu_malloc(sizeof(int) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        r[i] = i;
    CHECK_MPI(MPI_Group_translate_ranks(g, n, r, world, out));
    free(r);
    return n;
}

static void expect_members(MPI_Group world, MPI_Group g, int n, const int *want, int rank)
{
    int *got = tu_malloc(sizeof(int) * (size_t)(n + 1)), myrank, expect_rank = MPI_UNDEFINED;
    CHECK_EQ(n, members(world, g, got));
    for (int i = 0; i < n; i++) {
        CHECK_EQ(want[i], got[i]);
        if (want[i] == rank)
            expect_rank = i;
    }
    CHECK_MPI(MPI_Group_rank(g, &myrank));
    CHECK_EQ(expect_rank, myrank);
    free(got);
}

static void release(MPI_Group *g)
{
    CHECK_MPI(MPI_Group_free(g));
    CHECK(*g == MPI_GROUP_NULL);
}

static void basics(MPI_Group w, int rank, int size)
{
    int n, r, res;
    CHECK_MPI(MPI_Group_size(w, &n));
    CHECK_MPI(MPI_Group_rank(w, &r));
    CHECK_EQ(size, n);
    CHECK_EQ(rank, r);
    CHECK_MPI(MPI_Group_size(MPI_GROUP_EMPTY, &n));
    CHECK_MPI(MPI_Group_rank(MPI_GROUP_EMPTY, &r));
    CHECK_EQ(0, n);
    CHECK_EQ(MPI_UNDEFINED, r);
    CHECK_MPI(MPI_Group_compare(w, w, &res));
    CHECK_EQ(MPI_IDENT, res);
    CHECK_MPI(MPI_Group_compare(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, &res));
    CHECK_EQ(MPI_IDENT, res);
    CHECK_MPI(MPI_Group_compare(w, MPI_GROUP_EMPTY, &res));
    CHECK_EQ(MPI_UNEQUAL, res);
    MPI_Group self;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_SELF, &self));
    int zero = 0, t = -1;
    CHECK_MPI(MPI_Group_translate_ranks(self, 1, &zero, w, &t));
    CHECK_EQ(rank, t);
    release(&self);
}

static void incl_excl(MPI_Group w, int rank, int size)
{
    int *list = tu_malloc(sizeof(int) * (size_t)size), *want = tu_malloc(sizeof(int) * (size_t)size);
    MPI_Group g, h;
    int res, k = 0;
    for (int i = 0; i < size; i++)
        list[i] = want[i] = size - 1 - i;
    CHECK_MPI(MPI_Group_incl(w, size, list, &g));
    expect_members(w, g, size, want, rank);
    CHECK_MPI(MPI_Group_compare(w, g, &res));
    CHECK_EQ(size == 1 ? MPI_IDENT : MPI_SIMILAR, res);
    release(&g);

    for (int i = 1; i < size; i += 2)
        list[k++] = i;
    CHECK_MPI(MPI_Group_excl(w, k, list, &g)); /* the even ranks remain */
    int ne = 0;
    for (int i = 0; i < size; i += 2)
        want[ne++] = i;
    expect_members(w, g, ne, want, rank);
    CHECK_MPI(MPI_Group_compare(w, g, &res));
    CHECK_EQ(size == 1 ? MPI_IDENT : MPI_UNEQUAL, res);

    /* The odd ranks: the same set from a range, compared IDENT. */
    int ranges[1][3] = {{1, size - 1, 2}};
    if (size > 1) {
        CHECK_MPI(MPI_Group_range_incl(w, 1, ranges, &h));
        expect_members(w, h, k, list, rank);
        release(&h);
    }
    CHECK_MPI(MPI_Group_range_excl(w, size > 1 ? 1 : 0, ranges, &h));
    CHECK_MPI(MPI_Group_compare(g, h, &res));
    CHECK_EQ(MPI_IDENT, res);
    release(&h);

    /* A negative stride from the top down to 1, then a second range {0}. */
    if (size > 1) {
        int two[2][3] = {{size - 1, 1, -2}, {0, 0, 1}};
        int n2 = 0;
        for (int i = size - 1; i >= 1; i -= 2)
            want[n2++] = i;
        want[n2++] = 0;
        CHECK_MPI(MPI_Group_range_incl(w, 2, two, &h));
        expect_members(w, h, n2, want, rank);
        release(&h);
    }

    CHECK_MPI(MPI_Group_incl(w, 0, list, &h));
    CHECK_MPI(MPI_Group_compare(h, MPI_GROUP_EMPTY, &res));
    CHECK_EQ(MPI_IDENT, res);
    release(&h);
    release(&g);
    free(list);
    free(want);
}

static void set_ops(MPI_Group w, int rank, int size)
{
    /* a = the first two thirds in reverse, b = the last two thirds in order. */
    int na = (2 * size + 2) / 3, lo = size / 3;
    int *la = tu_malloc(sizeof(int) * (size_t)size), *lb = tu_malloc(sizeof(int) * (size_t)size);
    int *want = tu_malloc(sizeof(int) * (size_t)(2 * size));
    int nb = 0, n = 0, res;
    for (int i = 0; i < na; i++)
        la[i] = na - 1 - i;
    for (int i = lo; i < size; i++)
        lb[nb++] = i;
    MPI_Group a, b, g;
    CHECK_MPI(MPI_Group_incl(w, na, la, &a));
    CHECK_MPI(MPI_Group_incl(w, nb, lb, &b));

    CHECK_MPI(MPI_Group_union(a, b, &g)); /* a's order, then b's members not in a */
    for (int i = 0; i < na; i++)
        want[n++] = la[i];
    for (int i = 0; i < nb; i++)
        if (lb[i] >= na)
            want[n++] = lb[i];
    expect_members(w, g, n, want, rank);
    CHECK_MPI(MPI_Group_compare(w, g, &res));
    CHECK_EQ(size == 1 ? MPI_IDENT : MPI_SIMILAR, res);
    release(&g);

    CHECK_MPI(MPI_Group_intersection(a, b, &g)); /* in a's order */
    n = 0;
    for (int i = 0; i < na; i++)
        if (la[i] >= lo)
            want[n++] = la[i];
    expect_members(w, g, n, want, rank);
    release(&g);

    CHECK_MPI(MPI_Group_difference(a, b, &g));
    n = 0;
    for (int i = 0; i < na; i++)
        if (la[i] < lo)
            want[n++] = la[i];
    expect_members(w, g, n, want, rank);
    release(&g);

    CHECK_MPI(MPI_Group_difference(a, a, &g));
    CHECK_MPI(MPI_Group_compare(g, MPI_GROUP_EMPTY, &res));
    CHECK_EQ(MPI_IDENT, res);
    release(&g);

    /* translate: b's ranks into a, with MPI_PROC_NULL passed through. */
    int *rb = tu_malloc(sizeof(int) * (size_t)(nb + 1)), *ra = tu_malloc(sizeof(int) * (size_t)(nb + 1));
    for (int i = 0; i < nb; i++)
        rb[i] = i;
    rb[nb] = MPI_PROC_NULL;
    CHECK_MPI(MPI_Group_translate_ranks(b, nb + 1, rb, a, ra));
    for (int i = 0; i < nb; i++)
        CHECK_EQ(lb[i] < na ? na - 1 - lb[i] : MPI_UNDEFINED, ra[i]);
    CHECK_EQ(MPI_PROC_NULL, ra[nb]);
    free(rb);
    free(ra);
    release(&a);
    release(&b);
    free(la);
    free(lb);
    free(want);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    int rank = tu_rank(), size = tu_size();
    MPI_Group w;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &w));
    basics(w, rank, size);
    incl_excl(w, rank, size);
    set_ops(w, rank, size);
    release(&w);
    return tu_finish(NAME);
}
