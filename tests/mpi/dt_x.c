/* The MPI_Count forms of the datatype queries (MPI_Type_size_x, MPI_Type_get_extent_x,
 * MPI_Type_get_true_extent_x, MPI_Get_elements_x) against their int forms; MPI_Status_set_elements and
 * MPI_Status_set_elements_x read back through MPI_Get_elements and MPI_Get_count; MPI_Aint_add and
 * MPI_Aint_diff on real addresses. Also passes under MPICH (one check guarded: see set_elements) and
 * Open MPI. */
#include "testutil.h"

#include <stddef.h>

static void queries(void)
{
    MPI_Datatype v, r;
    CHECK_MPI(MPI_Type_vector(3, 2, 5, MPI_INT, &v));
    CHECK_MPI(MPI_Type_create_resized(v, -8, 100, &r));
    MPI_Count size = -1, lb = -1, extent = -1, tlb = -1, text = -1;
    CHECK_MPI(MPI_Type_size_x(v, &size));
    CHECK_EQ(24, (int)size);
    CHECK_MPI(MPI_Type_get_extent_x(v, &lb, &extent));
    CHECK_EQ(0, (int)lb);
    CHECK_EQ(48, (int)extent);
    CHECK_MPI(MPI_Type_get_extent_x(r, &lb, &extent));
    CHECK_EQ(-8, (int)lb);
    CHECK_EQ(100, (int)extent);
    CHECK_MPI(MPI_Type_get_true_extent_x(r, &tlb, &text));
    CHECK_EQ(0, (int)tlb);
    CHECK_EQ(48, (int)text);
    MPI_Aint alb, aext;
    int isize;
    CHECK_MPI(MPI_Type_get_true_extent(r, &alb, &aext));
    CHECK(alb == tlb && aext == text);
    CHECK_MPI(MPI_Type_size(r, &isize));
    CHECK_MPI(MPI_Type_size_x(r, &size));
    CHECK_EQ(isize, (int)size);
    CHECK_MPI(MPI_Type_size_x(MPI_DOUBLE, &size));
    CHECK_EQ((int)sizeof(double), (int)size);
    CHECK_MPI(MPI_Type_get_extent_x(MPI_DOUBLE_INT, &lb, &extent));
    CHECK_EQ(0, (int)lb);
    CHECK_EQ((int)sizeof(struct { double d; int i; }), (int)extent);
    CHECK_MPI(MPI_Type_free(&v));
    CHECK_MPI(MPI_Type_free(&r));
}

/* A received message that ends inside an element: whole basic elements counted, count undefined. */
static void received(void)
{
    MPI_Datatype two;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &two));
    CHECK_MPI(MPI_Type_commit(&two));
    int rank = 0, out[3] = {1, 2, 3}, in[4] = {0, 0, 0, 0};
    MPI_Status st;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Sendrecv(out, 3, MPI_INT, rank, 5, in, 2, two, rank, 5, MPI_COMM_WORLD, &st));
    MPI_Count n = -1;
    int c = -1;
    CHECK_MPI(MPI_Get_elements_x(&st, two, &n));
    CHECK_EQ(3, (int)n);
    CHECK_MPI(MPI_Get_elements_x(&st, MPI_INT, &n));
    CHECK_EQ(3, (int)n);
    CHECK_MPI(MPI_Get_count(&st, two, &c));
    CHECK_EQ(MPI_UNDEFINED, c);
    CHECK_MPI(MPI_Get_elements_x(&st, MPI_DOUBLE, &n)); /* 12 bytes: one double and a half */
    CHECK_EQ(MPI_UNDEFINED, (int)n);
    CHECK_MPI(MPI_Type_free(&two));
}

struct id {
    int i;
    double d;
};

/* What MPI_Status_set_elements puts in a status reads back through the same and other datatypes. */
static void set_elements(void)
{
    MPI_Status st;
    MPI_Datatype two, s;
    MPI_Count n = -1;
    int bl[2] = {1, 1}, c = -1;
    MPI_Aint d[2] = {offsetof(struct id, i), offsetof(struct id, d)};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &two));
    CHECK_MPI(MPI_Type_commit(&two));
    CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &s));
    CHECK_MPI(MPI_Type_commit(&s));
    memset(&st, 0, sizeof st);
    CHECK_MPI(MPI_Status_set_elements(&st, MPI_INT, 7));
    CHECK_MPI(MPI_Get_elements(&st, MPI_INT, &c));
    CHECK_EQ(7, c);
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &c));
    CHECK_EQ(7, c);
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &c));
    CHECK_EQ(7 * (int)sizeof(int), c);
    CHECK_MPI(MPI_Get_count(&st, two, &c));
    CHECK_EQ(MPI_UNDEFINED, c);
    CHECK_MPI(MPI_Get_elements(&st, two, &c));
    CHECK_EQ(7, c);
    /* a struct of int and double: 3 basic elements are one and a half structs. MPICH takes the count
     * for whole elements of the datatype here (3 structs, 6 basic elements), not basic elements. */
#if !defined(MPICH) && !defined(MPICH_VERSION)
    CHECK_MPI(MPI_Status_set_elements_x(&st, s, 3));
    CHECK_MPI(MPI_Get_elements_x(&st, s, &n));
    CHECK_EQ(3, (int)n);
    CHECK_MPI(MPI_Get_count(&st, s, &c));
    CHECK_EQ(MPI_UNDEFINED, c);
    CHECK_MPI(MPI_Status_set_elements(&st, s, 4));
    CHECK_MPI(MPI_Get_count(&st, s, &c));
    CHECK_EQ(2, c);
    CHECK_MPI(MPI_Get_elements(&st, s, &c));
    CHECK_EQ(4, c);
#endif
    /* beyond an int: the int forms say MPI_UNDEFINED, the _x form the count */
    MPI_Count big = (MPI_Count)3 << 30;
    CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_CHAR, big));
    CHECK_MPI(MPI_Get_elements_x(&st, MPI_CHAR, &n));
    CHECK(n == big);
    CHECK_MPI(MPI_Get_elements(&st, MPI_CHAR, &c));
    CHECK_EQ(MPI_UNDEFINED, c);
    CHECK_MPI(MPI_Status_set_elements(&st, MPI_DOUBLE, 0));
    CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &c));
    CHECK_EQ(0, c);
    CHECK_MPI(MPI_Type_free(&two));
    CHECK_MPI(MPI_Type_free(&s));
}

static void aint(void)
{
    double a[10] = {0};
    MPI_Aint base, fifth, moved;
    CHECK_MPI(MPI_Get_address(&a[0], &base));
    CHECK_MPI(MPI_Get_address(&a[5], &fifth));
    CHECK_EQ(5 * (int)sizeof(double), (int)MPI_Aint_diff(fifth, base));
    CHECK_EQ(-5 * (int)sizeof(double), (int)MPI_Aint_diff(base, fifth));
    moved = MPI_Aint_add(base, 3 * (MPI_Aint)sizeof(double));
    CHECK_MPI(MPI_Get_address(&a[3], &fifth));
    CHECK(moved == fifth);
    CHECK(MPI_Aint_add(fifth, -3 * (MPI_Aint)sizeof(double)) == base);
    /* the usual idiom: displacements as differences of addresses, here of a[2] and a[7] from a */
    MPI_Aint d[2];
    CHECK_MPI(MPI_Get_address(&a[2], &d[0]));
    CHECK_MPI(MPI_Get_address(&a[7], &d[1]));
    d[0] = MPI_Aint_diff(d[0], base);
    d[1] = MPI_Aint_diff(d[1], base);
    int bl[2] = {1, 1};
    MPI_Datatype ty[2] = {MPI_DOUBLE, MPI_DOUBLE}, t;
    CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    for (int i = 0; i < 10; i++)
        a[i] = i;
    double packed[2];
    int pos = 0;
    CHECK_MPI(MPI_Pack(a, 1, t, packed, (int)sizeof packed, &pos, MPI_COMM_WORLD));
    CHECK(packed[0] == 2.0 && packed[1] == 7.0);
    CHECK_MPI(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    queries();
    received();
    set_elements();
    aint();
    return tu_finish("dt_x");
}
