/* Datatype names (predefined ones as the standard spells them, set and get), datatype attributes with copy
 * and delete callbacks (MPI_Type_dup copies, MPI_Type_free and MPI_Type_delete_attr delete), MPI_Type_match_size
 * and the Fortran 90 parameterized types (one handle per (p, r), the sizes of gfortran's kinds, usable in
 * messages and reductions). */
#include "testutil.h"

#include <stdint.h>

static int rank, size;

static void names(void)
{
    static const struct {
        MPI_Datatype t;
        const char *name;
    } named[] = {
        {MPI_INT, "MPI_INT"},         {MPI_DOUBLE, "MPI_DOUBLE"},     {MPI_CHAR, "MPI_CHAR"},
        {MPI_BYTE, "MPI_BYTE"},       {MPI_PACKED, "MPI_PACKED"},     {MPI_FLOAT_INT, "MPI_FLOAT_INT"},
        {MPI_2INT, "MPI_2INT"},       {MPI_SHORT, "MPI_SHORT"},       {MPI_UNSIGNED, "MPI_UNSIGNED"},
        {MPI_INTEGER, "MPI_INTEGER"}, {MPI_REAL, "MPI_REAL"},         {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION"},
        {MPI_INT64_T, "MPI_INT64_T"}, {MPI_C_BOOL, "MPI_C_BOOL"},     {MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT"},
        {MPI_AINT, "MPI_AINT"},       {MPI_UINT8_T, "MPI_UINT8_T"},   {MPI_WCHAR, "MPI_WCHAR"},
    };
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        CHECK_MPI(MPI_Type_get_name(named[i].t, name, &len));
        CHECK_MSG(strcmp(name, named[i].name) == 0 && len == (int)strlen(named[i].name),
                  "predefined type %zu is named \"%s\" (%d), expected %s", i, name, len, named[i].name);
    }
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
    CHECK_MPI(MPI_Type_get_name(t, name, &len));
    CHECK_EQ(0, len);
    CHECK_EQ(0, name[0]);
    CHECK_MPI(MPI_Type_set_name(t, "pair of ints"));
    CHECK_MPI(MPI_Type_get_name(t, name, &len));
    CHECK(strcmp(name, "pair of ints") == 0 && len == 12);
    CHECK_MPI(MPI_Type_set_name(t, "renamed"));
    CHECK_MPI(MPI_Type_get_name(t, name, &len));
    CHECK(strcmp(name, "renamed") == 0 && len == 7);
    CHECK_MPI(MPI_Type_free(&t));
    /* A predefined type may be renamed, and named back. */
    CHECK_MPI(MPI_Type_set_name(MPI_FLOAT, "single"));
    CHECK_MPI(MPI_Type_get_name(MPI_FLOAT, name, &len));
    CHECK(strcmp(name, "single") == 0 && len == 6);
    CHECK_MPI(MPI_Type_set_name(MPI_FLOAT, "MPI_FLOAT"));
}

/* ---- attributes */

static int copies, deletes;
static intptr_t last_deleted;

static int copy_plus_one(MPI_Datatype t, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)t;
    (void)keyval;
    CHECK(extra == &copies);
    copies++;
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Datatype t, int keyval, void *value, void *extra)
{
    (void)t;
    (void)keyval;
    CHECK(extra == &copies);
    deletes++;
    last_deleted = (intptr_t)value;
    return MPI_SUCCESS;
}

static intptr_t get_attr(MPI_Datatype t, int keyval, int *flag)
{
    void *v = NULL;
    CHECK_MPI(MPI_Type_get_attr(t, keyval, &v, flag));
    return (intptr_t)v;
}

static void attributes(void)
{
    int k, knull, kdup, flag = -1;
    MPI_Datatype t, d;
    CHECK_MPI(MPI_Type_create_keyval(copy_plus_one, count_delete, &k, &copies));
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &knull, NULL));
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kdup, NULL));
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &t));
    get_attr(t, k, &flag);
    CHECK_EQ(0, flag);
    CHECK_MPI(MPI_Type_set_attr(t, k, (void *)(intptr_t)10));
    CHECK_MPI(MPI_Type_set_attr(t, knull, (void *)(intptr_t)20));
    CHECK_MPI(MPI_Type_set_attr(t, kdup, (void *)(intptr_t)30));
    CHECK_EQ(10, get_attr(t, k, &flag));
    CHECK_EQ(1, flag);
    /* Setting again deletes the old value first. */
    CHECK_MPI(MPI_Type_set_attr(t, k, (void *)(intptr_t)11));
    CHECK_EQ(1, deletes);
    CHECK_EQ(10, last_deleted);
    CHECK_MPI(MPI_Type_dup(t, &d));
    CHECK_EQ(1, copies);
    CHECK_EQ(12, get_attr(d, k, &flag));
    CHECK_EQ(1, flag);
    get_attr(d, knull, &flag);
    CHECK_EQ(0, flag);
    CHECK_EQ(30, get_attr(d, kdup, &flag));
    CHECK_EQ(1, flag);
    CHECK_EQ(11, get_attr(t, k, &flag));
    CHECK_MPI(MPI_Type_delete_attr(t, k));
    CHECK_EQ(2, deletes);
    CHECK_EQ(11, last_deleted);
    get_attr(t, k, &flag);
    CHECK_EQ(0, flag);
    /* The keyval may go while attributes still use it: freeing the type runs its delete callback. */
    CHECK_MPI(MPI_Type_free_keyval(&k));
    CHECK_EQ(MPI_KEYVAL_INVALID, k);
    CHECK_MPI(MPI_Type_free(&d));
    CHECK_EQ(3, deletes);
    CHECK_EQ(12, last_deleted);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_EQ(3, deletes);
    /* Predefined types take attributes too. */
    CHECK_MPI(MPI_Type_set_attr(MPI_INT, knull, (void *)(intptr_t)5));
    CHECK_EQ(5, get_attr(MPI_INT, knull, &flag));
    CHECK_EQ(1, flag);
    CHECK_MPI(MPI_Type_delete_attr(MPI_INT, knull));
    get_attr(MPI_INT, knull, &flag);
    CHECK_EQ(0, flag);
    CHECK_MPI(MPI_Type_free_keyval(&knull));
    CHECK_MPI(MPI_Type_free_keyval(&kdup));
}

/* A communicator keyval is no datatype keyval. */
static void keyval_kinds(void)
{
    int ck, cls;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ck, NULL));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Error_class(MPI_Type_set_attr(MPI_INT, ck, NULL), &cls));
#ifdef OPEN_MPI
    CHECK_NE(MPI_SUCCESS, cls); /* Open MPI 4.1 refuses it as MPI_ERR_OTHER */
#else
    CHECK_EQ(MPI_ERR_KEYVAL, cls);
#endif
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    CHECK_MPI(MPI_Comm_free_keyval(&ck));
}

/* ---- sizes and Fortran kinds */

static int size_of(MPI_Datatype t)
{
    int s = -1;
    CHECK_MPI(MPI_Type_size(t, &s));
    return s;
}

static void match_size(void)
{
    static const struct {
        int cls, size;
    } ok[] = {{MPI_TYPECLASS_INTEGER, 1}, {MPI_TYPECLASS_INTEGER, 2}, {MPI_TYPECLASS_INTEGER, 4},
              {MPI_TYPECLASS_INTEGER, 8}, {MPI_TYPECLASS_REAL, 4},    {MPI_TYPECLASS_REAL, 8},
              {MPI_TYPECLASS_COMPLEX, 8}, {MPI_TYPECLASS_COMPLEX, 16}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        MPI_Datatype t = MPI_DATATYPE_NULL;
        CHECK_MPI(MPI_Type_match_size(ok[i].cls, ok[i].size, &t));
        CHECK_EQ(ok[i].size, size_of(t));
        int ni, na, nd, combiner;
        CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner));
        CHECK_EQ(MPI_COMBINER_NAMED, combiner);
    }
}

static void f90_kinds(void)
{
    MPI_Datatype a, b, c;
    CHECK_MPI(MPI_Type_create_f90_real(6, MPI_UNDEFINED, &a));
    CHECK_MPI(MPI_Type_create_f90_real(6, MPI_UNDEFINED, &b));
    CHECK(a == b);
    CHECK_EQ(4, size_of(a));
    CHECK_MPI(MPI_Type_create_f90_real(15, MPI_UNDEFINED, &c));
    CHECK(c != a);
    CHECK_EQ(8, size_of(c));
    CHECK_MPI(MPI_Type_create_f90_real(MPI_UNDEFINED, 300, &b));
    CHECK_EQ(8, size_of(b));
    CHECK_MPI(MPI_Type_create_f90_complex(6, 30, &b));
    CHECK_EQ(8, size_of(b));
    CHECK_MPI(MPI_Type_create_f90_complex(12, MPI_UNDEFINED, &b));
    CHECK_EQ(16, size_of(b));
    static const int ranges[4] = {2, 4, 9, 18}, bytes[4] = {1, 2, 4, 8};
    for (int i = 0; i < 4; i++) {
        CHECK_MPI(MPI_Type_create_f90_integer(ranges[i], &b));
        CHECK_EQ(bytes[i], size_of(b));
    }
    /* REAL(8) in a ring and a reduction. */
    double out[3] = {rank, rank + 0.5, -rank}, in[3] = {-1, -1, -1}, sum[3];
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    CHECK_MPI(MPI_Sendrecv(out, 3, c, to, 1, in, 3, c, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(in[0] == from && in[1] == from + 0.5 && in[2] == -from);
    CHECK_MPI(MPI_Allreduce(out, sum, 3, c, MPI_SUM, MPI_COMM_WORLD));
    double s = size * (size - 1) / 2.0;
    CHECK(sum[0] == s && sum[1] == s + 0.5 * size && sum[2] == -s);
}

#ifdef SKIFF_MPI
static void skiff_details(void)
{
    int cls;
    MPI_Datatype t;
    char name[MPI_MAX_OBJECT_NAME], longname[300];
    int len;
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = 0;
    CHECK_MPI(MPI_Type_contiguous(1, MPI_INT, &t));
    CHECK_MPI(MPI_Type_set_name(t, longname));
    CHECK_MPI(MPI_Type_get_name(t, name, &len));
    CHECK_EQ(MPI_MAX_OBJECT_NAME - 1, len);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Type_create_f90_real(6, MPI_UNDEFINED, &t));
    CHECK_MPI(MPI_Error_class(MPI_Type_free(&t), &cls));
    CHECK_EQ(MPI_ERR_TYPE, cls);
    CHECK_MPI(MPI_Error_class(MPI_Type_create_f90_real(40, MPI_UNDEFINED, &t), &cls));
    CHECK_EQ(MPI_ERR_ARG, cls);
    CHECK_MPI(MPI_Error_class(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &t), &cls));
    CHECK_EQ(MPI_ERR_ARG, cls);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}
#endif

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    rank = tu_rank();
    size = tu_size();
    names();
    attributes();
    keyval_kinds();
    match_size();
    f90_kinds();
#ifdef SKIFF_MPI
    skiff_details();
#endif
    return tu_finish("dt_attr");
}
