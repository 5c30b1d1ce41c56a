/* Sizes, bounds and extents of derived types (resized, structs with gaps, negative strides, empty
 * types, the pair types); MPI_Get_elements on partial elements; MPI_Type_dup, commit and free,
 * and the errors they give. Everything here is local to each rank (messages go to itself). */
#include "testutil.h"

#include <stddef.h>

static MPI_Datatype committed(MPI_Datatype t)
{
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

/* size, lb, extent, true lb, true extent, as MPI reports them */
#define CHECK_SHAPE(t, size, lb, extent, tlb, textent)                                                        \
    do {                                                                                                      \
        int s_ = -1;                                                                                          \
        MPI_Aint l_ = -1, e_ = -1, tl_ = -1, te_ = -1;                                                        \
        CHECK_MPI(MPI_Type_size((t), &s_));                                                                   \
        CHECK_MPI(MPI_Type_get_extent((t), &l_, &e_));                                                        \
        CHECK_MPI(MPI_Type_get_true_extent((t), &tl_, &te_));                                                 \
        CHECK_EQ((size), s_);                                                                                 \
        CHECK_EQ((lb), l_);                                                                                   \
        CHECK_EQ((extent), e_);                                                                               \
        CHECK_EQ((tlb), tl_);                                                                                 \
        CHECK_EQ((textent), te_);                                                                             \
    } while (0)

static void struct_with_gaps(void)
{
    const int bl[2] = {1, 1};
    MPI_Datatype t;
    /* int at 0, char at 4: 5 bytes of data, extent padded to int alignment */
    const MPI_Aint d1[2] = {0, 4};
    const MPI_Datatype ty1[2] = {MPI_INT, MPI_CHAR};
    CHECK_MPI(MPI_Type_create_struct(2, bl, d1, ty1, &t));
    CHECK_SHAPE(t, 5, 0, 8, 0, 5);
    CHECK_MPI(MPI_Type_free(&t));
    /* char at 0, double at 1: extent 9 rounds up to 16 */
    const MPI_Aint d2[2] = {0, 1};
    const MPI_Datatype ty2[2] = {MPI_CHAR, MPI_DOUBLE};
    CHECK_MPI(MPI_Type_create_struct(2, bl, d2, ty2, &t));
    CHECK_SHAPE(t, 9, 0, 16, 0, 9);
    CHECK_MPI(MPI_Type_free(&t));
    /* one double at 4: the lower bound is where the data starts */
    const MPI_Aint d3[1] = {4};
    const MPI_Datatype ty3[1] = {MPI_DOUBLE};
    CHECK_MPI(MPI_Type_create_struct(1, bl, d3, ty3, &t));
    CHECK_SHAPE(t, 8, 4, 8, 4, 8);
    CHECK_MPI(MPI_Type_free(&t));
}

static void resized_bounds(void)
{
    MPI_Datatype r, c;
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 16, &r));
    CHECK_SHAPE(r, 4, -4, 16, 0, 4);
    CHECK_MPI(MPI_Type_contiguous(2, r, &c));
    CHECK_SHAPE(c, 8, -4, 32, 0, 20);
    CHECK_MPI(MPI_Type_free(&c));
    /* a type resized to its own extent behaves as before */
    MPI_Datatype same;
    CHECK_MPI(MPI_Type_create_resized(MPI_DOUBLE, 0, sizeof(double), &same));
    CHECK_SHAPE(same, 8, 0, 8, 0, 8);
    CHECK_MPI(MPI_Type_free(&same));
    /* used with a count, the resized type strides by its new extent: send 3, receive contiguous */
    r = committed(r);
    int src[12], dst[3];
    for (int i = 0; i < 12; i++)
        src[i] = i;
    CHECK_MPI(MPI_Sendrecv(src + 1, 3, r, 0, 1, dst, 3, MPI_INT, 0, 1, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    CHECK_EQ(1, dst[0]);
    CHECK_EQ(5, dst[1]);
    CHECK_EQ(9, dst[2]);
    CHECK_MPI(MPI_Type_free(&r));
}

static void other_shapes(void)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_vector(3, 1, -2, MPI_INT, &t)); /* ints 0, -2, -4 */
    CHECK_SHAPE(t, 12, -16, 20, -16, 20);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_create_hvector(2, 1, 5, MPI_INT, &t)); /* byte strides are not padded */
    CHECK_SHAPE(t, 8, 0, 9, 0, 9);
    CHECK_MPI(MPI_Type_free(&t));
    const int disp[2] = {3, 0};
    CHECK_MPI(MPI_Type_create_indexed_block(2, 1, disp, MPI_INT, &t));
    CHECK_SHAPE(t, 8, 0, 16, 0, 16);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &t));
    CHECK_SHAPE(t, 0, 0, 0, 0, 0);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_SHAPE(MPI_DOUBLE_INT, sizeof(double) + sizeof(int), 0, 16, 0, 12);
    CHECK_SHAPE(MPI_SHORT_INT, sizeof(short) + sizeof(int), 0, 8, 0, 8);
    CHECK_SHAPE(MPI_2INT, 8, 0, 8, 0, 8);
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
    CHECK_MPI(MPI_Type_get_name(t, name, &len));
    CHECK_EQ(0, len); /* derived types have no name until given one */
    CHECK_MPI(MPI_Type_free(&t));
}

/* One whole {int, double, double} and an {int, double} of the next: 5 basic elements, no count. */
static void elements_of_partial_structs(void)
{
    const int bl3[3] = {1, 1, 1};
    const MPI_Aint d3[3] = {0, 8, 16};
    const MPI_Datatype ty3[3] = {MPI_INT, MPI_DOUBLE, MPI_DOUBLE};
    MPI_Datatype whole, part;
    CHECK_MPI(MPI_Type_create_struct(3, bl3, d3, ty3, &whole));
    whole = committed(whole);
    /* the sender's signature int double double int double: a prefix of two whole elements */
    const int bl5[5] = {1, 1, 1, 1, 1};
    const MPI_Aint d5[5] = {0, 8, 16, 24, 32};
    const MPI_Datatype ty5[5] = {MPI_INT, MPI_DOUBLE, MPI_DOUBLE, MPI_INT, MPI_DOUBLE};
    CHECK_MPI(MPI_Type_create_struct(5, bl5, d5, ty5, &part));
    part = committed(part);
    char src[64] = {0}, dst[2 * 24];
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(src, 1, part, 0, 2, dst, 2, whole, 0, 2, MPI_COMM_SELF, &st));
    int n = -2;
    CHECK_MPI(MPI_Get_count(&st, whole, &n));
    CHECK_EQ(MPI_UNDEFINED, n);
    CHECK_MPI(MPI_Get_elements(&st, whole, &n));
    CHECK_EQ(5, n);
    CHECK_MPI(MPI_Get_elements(&st, part, &n));
    CHECK_EQ(5, n);
    CHECK_MPI(MPI_Get_count(&st, part, &n));
    CHECK_EQ(1, n);
    CHECK_MPI(MPI_Type_free(&whole));
    CHECK_MPI(MPI_Type_free(&part));
}

static void dup_and_lifetimes(void)
{
    MPI_Datatype v, d, d2;
    CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &v));
    CHECK_MPI(MPI_Type_dup(v, &d)); /* dup of an uncommitted type: commit it to use it */
    d = committed(d);
    v = committed(v);
    CHECK_MPI(MPI_Type_dup(v, &d2)); /* dup of a committed type is committed */
    CHECK_MPI(MPI_Type_free(&v));
    CHECK_SHAPE(d2, 8, 0, 16, 0, 16);
    int src[4] = {1, 2, 3, 4}, dst[2] = {0, 0};
    CHECK_MPI(MPI_Sendrecv(src, 1, d2, 0, 3, dst, 2, MPI_INT, 0, 3, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    CHECK_EQ(1, dst[0]);
    CHECK_EQ(4, dst[1]);
    CHECK_MPI(MPI_Sendrecv(src, 1, d, 0, 3, dst, 2, MPI_INT, 0, 3, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    CHECK_EQ(4, dst[1]);
    MPI_Datatype dint;
    CHECK_MPI(MPI_Type_dup(MPI_INT, &dint));
    CHECK_SHAPE(dint, 4, 0, 4, 0, 4);
    CHECK_MPI(MPI_Type_commit(&dint)); /* committing twice is harmless */
    CHECK_MPI(MPI_Type_commit(&dint));
    int x = 7, y = 0;
    CHECK_MPI(MPI_Sendrecv(&x, 1, dint, 0, 4, &y, 1, MPI_INT, 0, 4, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    CHECK_EQ(7, y);
    MPI_Datatype pre = MPI_DOUBLE;
    CHECK_MPI(MPI_Type_commit(&pre)); /* predefined types are committed already */
    CHECK_MPI(MPI_Type_free(&d));
    CHECK_MPI(MPI_Type_free(&d2));
    CHECK_MPI(MPI_Type_free(&dint));
}

static int class_of(int rc)
{
    int cls = -1;
    CHECK_MPI(MPI_Error_class(rc, &cls));
    return cls;
}

static void errors(void)
{
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    MPI_Datatype t = MPI_INT, nul = MPI_DATATYPE_NULL, v;
    CHECK_EQ(MPI_ERR_TYPE, class_of(MPI_Type_free(&t)));
    CHECK(t == MPI_INT);
    CHECK_EQ(MPI_ERR_TYPE, class_of(MPI_Type_commit(&nul)));
    CHECK_EQ(MPI_ERR_TYPE, class_of(MPI_Type_free(&nul)));
    CHECK_EQ(MPI_ERR_TYPE, class_of(MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &v)));
    CHECK_EQ(MPI_ERR_COUNT, class_of(MPI_Type_contiguous(-1, MPI_INT, &v)));
    const int bl[1] = {-1}, disp[1] = {0};
    CHECK_EQ(MPI_ERR_COUNT, class_of(MPI_Type_indexed(1, bl, disp, MPI_INT, &v)));
    MPI_Aint lb, extent;
    CHECK_EQ(MPI_ERR_TYPE, class_of(MPI_Type_get_extent(MPI_DATATYPE_NULL, &lb, &extent)));
    /* an uncommitted type cannot carry data */
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &v));
    int buf[4] = {0}, n = 0;
    CHECK_EQ(MPI_ERR_TYPE, class_of(MPI_Send(buf, 1, v, 0, 5, MPI_COMM_SELF)));
    CHECK_MPI(MPI_Type_size(v, &n)); /* but it can be asked about */
    CHECK_EQ(8, n);
#ifdef SKIFF_MPI
    /* A freed handle is caught, not followed (MPI leaves this undefined). */
    MPI_Datatype stale = v;
    CHECK_MPI(MPI_Type_free(&v));
    CHECK(v == MPI_DATATYPE_NULL);
    CHECK_EQ(MPI_ERR_TYPE, class_of(MPI_Type_size(stale, &n)));
    CHECK_EQ(MPI_ERR_TYPE, class_of(MPI_Type_free(&stale)));
    CHECK_EQ(MPI_ERR_TYPE, class_of(MPI_Send(buf, 1, stale, 0, 5, MPI_COMM_SELF)));
    /* the message names the problem */
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &v));
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    CHECK_MPI(MPI_Error_string(MPI_Send(buf, 1, v, 0, 5, MPI_COMM_SELF), msg, &len));
    CHECK_MSG(strstr(msg, "MPI_Send") && strstr(msg, "not committed"), "message: %s", msg);
#endif
    CHECK_MPI(MPI_Type_free(&v));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    struct_with_gaps();
    resized_bounds();
    other_shapes();
    elements_of_partial_structs();
    dup_and_lifetimes();
    errors();
    return tu_finish("dt_extent");
}
