/* bad_input rows: datatype constructors and queries, pack/unpack (see bad_input.h). */
#include <limits.h>
#include <stdint.h>

#include "bad_input.h"

static const int lens_ok[3] = {1, 1, 1}, lens_bad[3] = {1, -5, 1}, idispls[3] = {0, 2, 4};
static const MPI_Aint hdispls[3] = {0, 8, 16};

/* ---- MPI_Type_contiguous */

static int contiguous_count_negative(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_contiguous(-3, MPI_INT, &t);
}

static int contiguous_oldtype_null(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &t);
}

static int contiguous_oldtype_freed(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_contiguous(2, bad_freed_type(), &t);
}

static int contiguous_newtype_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_contiguous(2, MPI_INT, NULL);
}

/* 2^31 elements of 8 GiB each: more bytes than a displacement can hold. */
static int contiguous_too_large(struct bad_ctx *x)
{
    MPI_Datatype big = MPI_DATATYPE_NULL, t;
    (void)x;
    MPI_Type_contiguous(INT_MAX, MPI_DOUBLE, &big);
    int rc = MPI_Type_contiguous(INT_MAX, big, &t);
    MPI_Type_free(&big);
    return rc;
}

/* ---- MPI_Type_vector, MPI_Type_hvector, MPI_Type_create_hvector */

static int vector_count_negative(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_vector(-3, 1, 2, MPI_INT, &t);
}

static int vector_blocklength_negative(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_vector(2, -4, 2, MPI_INT, &t);
}

static int vector_oldtype_null(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_vector(2, 1, 2, MPI_DATATYPE_NULL, &t);
}

static int vector_newtype_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_vector(2, 1, 2, MPI_INT, NULL);
}

static int hvector_count_negative(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_hvector(-3, 1, 8, MPI_INT, &t);
}

static int hvector_blocklength_negative(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_hvector(2, -4, 8, MPI_INT, &t);
}

static int hvector_oldtype_freed(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_hvector(2, 1, 8, bad_freed_type(), &t);
}

static int hvector_newtype_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_hvector(2, 1, 8, MPI_INT, NULL);
}

static int create_hvector_count_negative(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_hvector(-3, 1, 8, MPI_INT, &t);
}

static int create_hvector_blocklength_negative(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_hvector(2, -4, 8, MPI_INT, &t);
}

static int create_hvector_oldtype_null(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_hvector(2, 1, 8, MPI_DATATYPE_NULL, &t);
}

static int create_hvector_newtype_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_create_hvector(2, 1, 8, MPI_INT, NULL);
}

/* ---- MPI_Type_indexed, MPI_Type_hindexed, MPI_Type_create_hindexed */

static int indexed_count_negative(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_indexed(-3, lens_ok, idispls, MPI_INT, &t);
}

static int indexed_blocklengths_null(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_indexed(3, NULL, idispls, MPI_INT, &t);
}

static int indexed_displacements_null(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_indexed(3, lens_ok, NULL, MPI_INT, &t);
}

static int indexed_blocklength_negative(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_indexed(3, lens_bad, idispls, MPI_INT, &t);
}

static int indexed_oldtype_null(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_indexed(3, lens_ok, idispls, MPI_DATATYPE_NULL, &t);
}

static int indexed_newtype_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_indexed(3, lens_ok, idispls, MPI_INT, NULL);
}

/* The MPI-1 prototype takes non-const arrays. */
static int hindexed(int count, int lens_neg, int null_displs, MPI_Datatype old, MPI_Datatype *newtype)
{
    int lens[3] = {1, lens_neg ? -5 : 1, 1};
    MPI_Aint displs[3] = {0, 8, 16};
    return MPI_Type_hindexed(count, lens, null_displs ? NULL : displs, old, newtype);
}

static int hindexed_count_negative(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return hindexed(-3, 0, 0, MPI_INT, &t);
}

static int hindexed_displacements_null(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return hindexed(3, 0, 1, MPI_INT, &t);
}

static int hindexed_blocklength_negative(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return hindexed(3, 1, 0, MPI_INT, &t);
}

static int hindexed_oldtype_freed(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return hindexed(3, 0, 0, bad_freed_type(), &t);
}

static int hindexed_newtype_null(struct bad_ctx *x)
{
    (void)x;
    return hindexed(3, 0, 0, MPI_INT, NULL);
}

static int create_hindexed_count_negative(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_hindexed(-3, lens_ok, hdispls, MPI_INT, &t);
}

static int create_hindexed_blocklengths_null(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_hindexed(3, NULL, hdispls, MPI_INT, &t);
}

static int create_hindexed_blocklength_negative(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_hindexed(3, lens_bad, hdispls, MPI_INT, &t);
}

static int create_hindexed_oldtype_null(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_hindexed(3, lens_ok, hdispls, MPI_DATATYPE_NULL, &t);
}

static int create_hindexed_newtype_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_create_hindexed(3, lens_ok, hdispls, MPI_INT, NULL);
}

/* ---- MPI_Type_create_indexed_block, MPI_Type_create_hindexed_block */

static int indexed_block_count_negative(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_indexed_block(-3, 1, idispls, MPI_INT, &t);
}

static int indexed_block_blocklength_negative(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_indexed_block(3, -4, idispls, MPI_INT, &t);
}

static int indexed_block_displacements_null(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_indexed_block(3, 1, NULL, MPI_INT, &t);
}

static int indexed_block_oldtype_null(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_indexed_block(3, 1, idispls, MPI_DATATYPE_NULL, &t);
}

static int indexed_block_newtype_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_create_indexed_block(3, 1, idispls, MPI_INT, NULL);
}

static int hindexed_block_count_negative(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_hindexed_block(-3, 1, hdispls, MPI_INT, &t);
}

static int hindexed_block_blocklength_negative(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_hindexed_block(3, -4, hdispls, MPI_INT, &t);
}

static int hindexed_block_displacements_null(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_hindexed_block(3, 1, NULL, MPI_INT, &t);
}

static int hindexed_block_oldtype_freed(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_hindexed_block(3, 1, hdispls, bad_freed_type(), &t);
}

static int hindexed_block_newtype_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_create_hindexed_block(3, 1, hdispls, MPI_INT, NULL);
}

/* ---- MPI_Type_create_struct, MPI_Type_struct */

enum struct_fault { S_COUNT, S_LENS_NULL, S_DISPLS_NULL, S_TYPES_NULL, S_LEN_NEG, S_TYPE_NULL, S_TYPE_FREED, S_OUT };

/* A three-block struct with one fault; mpi1 calls the MPI-1 name. */
static int bad_struct(enum struct_fault f, int mpi1)
{
    int lens[3] = {1, f == S_LEN_NEG ? -5 : 1, 1};
    MPI_Aint displs[3] = {0, 8, 16};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_INT}, t;
    if (f == S_TYPE_NULL)
        types[1] = MPI_DATATYPE_NULL;
    if (f == S_TYPE_FREED)
        types[1] = bad_freed_type();
    int count = f == S_COUNT ? -3 : 3;
    int *l = f == S_LENS_NULL ? NULL : lens;
    MPI_Aint *d = f == S_DISPLS_NULL ? NULL : displs;
    MPI_Datatype *ty = f == S_TYPES_NULL ? NULL : types, *out = f == S_OUT ? NULL : &t;
    return mpi1 ? MPI_Type_struct(count, l, d, ty, out) : MPI_Type_create_struct(count, l, d, ty, out);
}

static int create_struct_count_negative(struct bad_ctx *x)
{
    (void)x;
    return bad_struct(S_COUNT, 0);
}

static int create_struct_blocklengths_null(struct bad_ctx *x)
{
    (void)x;
    return bad_struct(S_LENS_NULL, 0);
}

static int create_struct_displacements_null(struct bad_ctx *x)
{
    (void)x;
    return bad_struct(S_DISPLS_NULL, 0);
}

static int create_struct_types_null(struct bad_ctx *x)
{
    (void)x;
    return bad_struct(S_TYPES_NULL, 0);
}

static int create_struct_blocklength_negative(struct bad_ctx *x)
{
    (void)x;
    return bad_struct(S_LEN_NEG, 0);
}

static int create_struct_type_null(struct bad_ctx *x)
{
    (void)x;
    return bad_struct(S_TYPE_NULL, 0);
}

static int create_struct_type_freed(struct bad_ctx *x)
{
    (void)x;
    return bad_struct(S_TYPE_FREED, 0);
}

static int create_struct_newtype_null(struct bad_ctx *x)
{
    (void)x;
    return bad_struct(S_OUT, 0);
}

static int struct_count_negative(struct bad_ctx *x)
{
    (void)x;
    return bad_struct(S_COUNT, 1);
}

static int struct_types_null(struct bad_ctx *x)
{
    (void)x;
    return bad_struct(S_TYPES_NULL, 1);
}

static int struct_blocklength_negative(struct bad_ctx *x)
{
    (void)x;
    return bad_struct(S_LEN_NEG, 1);
}

static int struct_type_null(struct bad_ctx *x)
{
    (void)x;
    return bad_struct(S_TYPE_NULL, 1);
}

static int struct_newtype_null(struct bad_ctx *x)
{
    (void)x;
    return bad_struct(S_OUT, 1);
}

/* ---- MPI_Type_create_resized, MPI_Type_dup */

static int resized_oldtype_null(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_resized(MPI_DATATYPE_NULL, 0, 8, &t);
}

/* a negative extent is fine (dt_negative); an ub past the largest address is not */
static int resized_ub_overflows(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_resized(MPI_INT, PTRDIFF_MAX - 3, 8, &t);
}

static int resized_newtype_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_create_resized(MPI_INT, 0, 8, NULL);
}

static int dup_oldtype_freed(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_dup(bad_freed_type(), &t);
}

static int dup_newtype_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_dup(MPI_INT, NULL);
}

/* ---- MPI_Type_commit, MPI_Type_free */

static int commit_null_pointer(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_commit(NULL);
}

static int commit_datatype_null(struct bad_ctx *x)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    (void)x;
    return MPI_Type_commit(&t);
}

static int commit_freed(struct bad_ctx *x)
{
    MPI_Datatype t = bad_freed_type();
    (void)x;
    return MPI_Type_commit(&t);
}

static int free_null_pointer(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_free(NULL);
}

static int free_predefined(struct bad_ctx *x)
{
    MPI_Datatype t = MPI_INT;
    (void)x;
    return MPI_Type_free(&t);
}

static int free_datatype_null(struct bad_ctx *x)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    (void)x;
    return MPI_Type_free(&t);
}

static int free_twice(struct bad_ctx *x)
{
    MPI_Datatype t = bad_freed_type();
    (void)x;
    return MPI_Type_free(&t);
}

/* ---- queries: size, extents, bounds, name */

static int size_datatype_null(struct bad_ctx *x)
{
    int n;
    (void)x;
    return MPI_Type_size(MPI_DATATYPE_NULL, &n);
}

static int size_out_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_size(MPI_INT, NULL);
}

static int extent_freed(struct bad_ctx *x)
{
    MPI_Aint e;
    (void)x;
    return MPI_Type_extent(bad_freed_type(), &e);
}

static int extent_out_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_extent(MPI_INT, NULL);
}

static int get_extent_datatype_null(struct bad_ctx *x)
{
    MPI_Aint lb, e;
    (void)x;
    return MPI_Type_get_extent(MPI_DATATYPE_NULL, &lb, &e);
}

static int get_extent_lb_null(struct bad_ctx *x)
{
    MPI_Aint e;
    (void)x;
    return MPI_Type_get_extent(MPI_INT, NULL, &e);
}

static int get_true_extent_freed(struct bad_ctx *x)
{
    MPI_Aint lb, e;
    (void)x;
    return MPI_Type_get_true_extent(bad_freed_type(), &lb, &e);
}

static int get_true_extent_extent_null(struct bad_ctx *x)
{
    MPI_Aint lb;
    (void)x;
    return MPI_Type_get_true_extent(MPI_INT, &lb, NULL);
}

static int lb_datatype_null(struct bad_ctx *x)
{
    MPI_Aint d;
    (void)x;
    return MPI_Type_lb(MPI_DATATYPE_NULL, &d);
}

static int lb_out_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_lb(MPI_INT, NULL);
}

static int ub_freed(struct bad_ctx *x)
{
    MPI_Aint d;
    (void)x;
    return MPI_Type_ub(bad_freed_type(), &d);
}

static int ub_out_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_ub(MPI_INT, NULL);
}

static int get_name_datatype_null(struct bad_ctx *x)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    (void)x;
    return MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len);
}

static int get_name_name_null(struct bad_ctx *x)
{
    int len;
    (void)x;
    return MPI_Type_get_name(MPI_INT, NULL, &len);
}

static int get_name_resultlen_null(struct bad_ctx *x)
{
    char name[MPI_MAX_OBJECT_NAME];
    (void)x;
    return MPI_Type_get_name(MPI_INT, name, NULL);
}

/* ---- MPI_Type_create_subarray, MPI_Type_create_darray */

static const int g45[2] = {4, 5}, s22[2] = {2, 2}, o00[2] = {0, 0};

static int subarray_ndims_zero(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_subarray(0, g45, s22, o00, MPI_ORDER_C, MPI_INT, &t);
}

static int subarray_size_zero(struct bad_ctx *x)
{
    const int sizes[2] = {4, 0};
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_subarray(2, sizes, s22, o00, MPI_ORDER_C, MPI_INT, &t);
}

static int subarray_subsize_too_big(struct bad_ctx *x)
{
    const int sub[2] = {5, 2};
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_subarray(2, g45, sub, o00, MPI_ORDER_C, MPI_INT, &t);
}

static int subarray_start_outside(struct bad_ctx *x)
{
    const int starts[2] = {0, 4};
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_subarray(2, g45, s22, starts, MPI_ORDER_FORTRAN, MPI_INT, &t);
}

static int subarray_order_bad(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_subarray(2, g45, s22, o00, 7, MPI_INT, &t);
}

static int subarray_sizes_null(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_subarray(2, NULL, s22, o00, MPI_ORDER_C, MPI_INT, &t);
}

static int subarray_oldtype_null(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_subarray(2, g45, s22, o00, MPI_ORDER_C, MPI_DATATYPE_NULL, &t);
}

static int subarray_newtype_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_create_subarray(2, g45, s22, o00, MPI_ORDER_C, MPI_INT, NULL);
}

static const int block2[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK},
                 dflt2[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, p21[2] = {2, 1};

static int darray(int size, int rank, const int *gsizes, const int *distribs, const int *dargs, const int *psizes,
                  int order)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int rc = MPI_Type_create_darray(size, rank, 2, gsizes, distribs, dargs, psizes, order, MPI_INT, &t);
    if (rc == MPI_SUCCESS)
        MPI_Type_free(&t);
    return rc;
}

static int darray_size_zero(struct bad_ctx *x)
{
    (void)x;
    return darray(0, 0, g45, block2, dflt2, p21, MPI_ORDER_C);
}

static int darray_rank_outside(struct bad_ctx *x)
{
    (void)x;
    return darray(2, 99, g45, block2, dflt2, p21, MPI_ORDER_C);
}

static int darray_grid_not_size(struct bad_ctx *x)
{
    (void)x;
    return darray(6, 0, g45, block2, dflt2, (const int[2]){2, 2}, MPI_ORDER_C);
}

static int darray_gsize_negative(struct bad_ctx *x)
{
    (void)x;
    return darray(2, 0, (const int[2]){-3, 5}, block2, dflt2, p21, MPI_ORDER_C);
}

static int darray_distrib_bad(struct bad_ctx *x)
{
    (void)x;
    return darray(2, 0, g45, (const int[2]){77, MPI_DISTRIBUTE_BLOCK}, dflt2, p21, MPI_ORDER_C);
}

static int darray_darg_bad(struct bad_ctx *x)
{
    (void)x;
    return darray(2, 0, g45, block2, (const int[2]){-5, 1}, p21, MPI_ORDER_C);
}

static int darray_none_split(struct bad_ctx *x)
{
    (void)x;
    return darray(2, 0, g45, (const int[2]){MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK}, dflt2, p21, MPI_ORDER_C);
}

static int darray_block_too_small(struct bad_ctx *x)
{
    (void)x;
    return darray(2, 0, (const int[2]){10, 5}, block2, (const int[2]){3, MPI_DISTRIBUTE_DFLT_DARG}, p21,
                  MPI_ORDER_C);
}

static int darray_order_bad(struct bad_ctx *x)
{
    (void)x;
    return darray(2, 0, g45, block2, dflt2, p21, 8);
}

static int darray_psizes_null(struct bad_ctx *x)
{
    (void)x;
    return darray(2, 0, g45, block2, dflt2, NULL, MPI_ORDER_C);
}

/* ---- MPI_Type_get_envelope, MPI_Type_get_contents, MPI_Type_set_name */

static int envelope_datatype_null(struct bad_ctx *x)
{
    int ni, na, nd, c;
    (void)x;
    return MPI_Type_get_envelope(MPI_DATATYPE_NULL, &ni, &na, &nd, &c);
}

static int envelope_combiner_null(struct bad_ctx *x)
{
    int ni, na, nd;
    (void)x;
    return MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, NULL);
}

static int contents_named(struct bad_ctx *x)
{
    int ints[1];
    MPI_Aint addrs[1];
    MPI_Datatype types[1];
    (void)x;
    return MPI_Type_get_contents(MPI_INT, 1, 1, 1, ints, addrs, types);
}

static int contents(MPI_Datatype t, int maxi, int maxd, int *ints, MPI_Datatype *types)
{
    MPI_Aint addrs[1];
    int rc = MPI_Type_get_contents(t, maxi, 0, maxd, ints, addrs, types);
    if (rc == MPI_SUCCESS && types && types[0] != MPI_INT)
        MPI_Type_free(&types[0]);
    return rc;
}

static int contents_max_integers(struct bad_ctx *x)
{
    MPI_Datatype t = bad_uncommitted_type(), types[1];
    int ints[3];
    (void)x;
    int rc = contents(t, 2, 1, ints, types);
    MPI_Type_free(&t);
    return rc;
}

static int contents_datatypes_null(struct bad_ctx *x)
{
    MPI_Datatype t = bad_uncommitted_type();
    int ints[3];
    (void)x;
    int rc = contents(t, 3, 1, ints, NULL);
    MPI_Type_free(&t);
    return rc;
}

static int contents_freed(struct bad_ctx *x)
{
    MPI_Datatype types[1];
    int ints[3];
    (void)x;
    return contents(bad_freed_type(), 3, 1, ints, types);
}

static int envelope_c_large_counts_null(struct bad_ctx *x)
{
    MPI_Count ni, na, nd;
    int c;
    (void)x;
    return MPI_Type_get_envelope_c(MPI_INT, &ni, &na, NULL, &nd, &c);
}

static int contents_c_max_negative(struct bad_ctx *x)
{
    MPI_Datatype t = bad_uncommitted_type(), types[1];
    MPI_Aint addrs[1];
    MPI_Count counts[1];
    int ints[3];
    (void)x;
    int rc = MPI_Type_get_contents_c(t, -4, 0, 0, 1, ints, addrs, counts, types);
    if (rc == MPI_SUCCESS)
        MPI_Type_free(&types[0]);
    MPI_Type_free(&t);
    return rc;
}

static int set_name_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_set_name(MPI_INT, NULL);
}

static int set_name_freed(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_set_name(bad_freed_type(), "stale");
}

/* ---- datatype attributes */

static int type_create_keyval_out_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, NULL, NULL);
}

static int type_free_keyval_invalid(struct bad_ctx *x)
{
    int k = MPI_KEYVAL_INVALID;
    (void)x;
    return MPI_Type_free_keyval(&k);
}

static int type_free_keyval_twice(struct bad_ctx *x)
{
    int k, stale;
    (void)x;
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k, NULL);
    stale = k;
    MPI_Type_free_keyval(&k);
    return MPI_Type_free_keyval(&stale);
}

static int type_set_attr_keyval_bad(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_set_attr(MPI_INT, 12345, NULL);
}

/* A communicator keyval on a datatype, and the other way round. */
static int type_set_attr_comm_keyval(struct bad_ctx *x)
{
    int k;
    (void)x;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL);
    int rc = MPI_Type_set_attr(MPI_INT, k, NULL);
    MPI_Comm_free_keyval(&k);
    return rc;
}

static int comm_set_attr_type_keyval(struct bad_ctx *x)
{
    int k;
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k, NULL);
    int rc = MPI_Comm_set_attr(x->comm, k, NULL);
    MPI_Type_free_keyval(&k);
    return rc;
}

static int type_set_attr_datatype_null(struct bad_ctx *x)
{
    int k;
    (void)x;
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k, NULL);
    int rc = MPI_Type_set_attr(MPI_DATATYPE_NULL, k, NULL);
    MPI_Type_free_keyval(&k);
    return rc;
}

static int type_get_attr_flag_null(struct bad_ctx *x)
{
    int k;
    void *v;
    (void)x;
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k, NULL);
    int rc = MPI_Type_get_attr(MPI_INT, k, &v, NULL);
    MPI_Type_free_keyval(&k);
    return rc;
}

static int type_delete_attr_keyval_invalid(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_delete_attr(MPI_INT, MPI_KEYVAL_INVALID);
}

/* ---- MPI_Type_match_size, MPI_Type_create_f90_* */

static int match_size_class_bad(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_match_size(99, 4, &t);
}

static int match_size_none(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &t);
}

static int match_size_out_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, NULL);
}

static int f90_real_precision(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_f90_real(40, MPI_UNDEFINED, &t);
}

static int f90_real_nothing_asked(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &t);
}

static int f90_complex_out_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_create_f90_complex(6, 30, NULL);
}

static int f90_integer_range(struct bad_ctx *x)
{
    MPI_Datatype t;
    (void)x;
    return MPI_Type_create_f90_integer(99, &t);
}

static int free_f90(struct bad_ctx *x)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    (void)x;
    MPI_Type_create_f90_real(6, MPI_UNDEFINED, &t);
    return MPI_Type_free(&t);
}

/* ---- MPI_Get_count, MPI_Get_elements */

static int get_count_datatype_null(struct bad_ctx *x)
{
    int n;
    return MPI_Get_count(&x->status, MPI_DATATYPE_NULL, &n);
}

static int get_count_status_ignore(struct bad_ctx *x)
{
    int n;
    (void)x;
    return MPI_Get_count(MPI_STATUS_IGNORE, MPI_INT, &n);
}

static int get_count_count_null(struct bad_ctx *x)
{
    return MPI_Get_count(&x->status, MPI_INT, NULL);
}

static int get_elements_freed(struct bad_ctx *x)
{
    int n;
    return MPI_Get_elements(&x->status, bad_freed_type(), &n);
}

static int get_elements_status_ignore(struct bad_ctx *x)
{
    int n;
    (void)x;
    return MPI_Get_elements(MPI_STATUS_IGNORE, MPI_INT, &n);
}

static int get_elements_count_null(struct bad_ctx *x)
{
    return MPI_Get_elements(&x->status, MPI_INT, NULL);
}

/* ---- MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size, the _x queries,
 * MPI_Status_set_elements(_x) */

static int pack_external_datarep_native(struct bad_ctx *x)
{
    MPI_Aint pos = 0;
    return MPI_Pack_external("native", x->ibuf, 2, MPI_INT, x->ibuf2, 64, &pos);
}

static int pack_external_datarep_null(struct bad_ctx *x)
{
    MPI_Aint pos = 0;
    return MPI_Pack_external(NULL, x->ibuf, 2, MPI_INT, x->ibuf2, 64, &pos);
}

static int pack_external_count_negative(struct bad_ctx *x)
{
    MPI_Aint pos = 0;
    return MPI_Pack_external("external32", x->ibuf, -1, MPI_INT, x->ibuf2, 64, &pos);
}

static int pack_external_uncommitted(struct bad_ctx *x)
{
    MPI_Aint pos = 0;
    MPI_Datatype t = bad_uncommitted_type();
    int rc = MPI_Pack_external("external32", x->ibuf, 1, t, x->ibuf2, 64, &pos);
    MPI_Type_free(&t);
    return rc;
}

static int pack_external_too_small(struct bad_ctx *x)
{
    MPI_Aint pos = 0;
    return MPI_Pack_external("external32", x->ibuf, 3, MPI_INT, x->ibuf2, 11, &pos);
}

static int pack_external_position_null(struct bad_ctx *x)
{
    return MPI_Pack_external("external32", x->ibuf, 2, MPI_INT, x->ibuf2, 64, NULL);
}

static int pack_external_position_outside(struct bad_ctx *x)
{
    MPI_Aint pos = 65;
    return MPI_Pack_external("external32", x->ibuf, 2, MPI_INT, x->ibuf2, 64, &pos);
}

static int pack_external_outbuf_null(struct bad_ctx *x)
{
    MPI_Aint pos = 0;
    return MPI_Pack_external("external32", x->ibuf, 2, MPI_INT, NULL, 64, &pos);
}

static int unpack_external_datarep_bad(struct bad_ctx *x)
{
    MPI_Aint pos = 0;
    return MPI_Unpack_external("internal", x->ibuf, 64, &pos, x->ibuf2, 2, MPI_INT);
}

static int unpack_external_truncated(struct bad_ctx *x)
{
    MPI_Aint pos = 0;
    return MPI_Unpack_external("external32", x->ibuf, 7, &pos, x->ibuf2, 2, MPI_INT);
}

static int unpack_external_datatype_freed(struct bad_ctx *x)
{
    MPI_Aint pos = 0;
    return MPI_Unpack_external("external32", x->ibuf, 64, &pos, x->ibuf2, 2, bad_freed_type());
}

static int pack_external_size_datarep_bad(struct bad_ctx *x)
{
    MPI_Aint n;
    (void)x;
    return MPI_Pack_external_size("external64", 2, MPI_INT, &n);
}

static int pack_external_size_out_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Pack_external_size("external32", 2, MPI_INT, NULL);
}

static int pack_external_size_datatype_null(struct bad_ctx *x)
{
    MPI_Aint n;
    (void)x;
    return MPI_Pack_external_size("external32", 2, MPI_DATATYPE_NULL, &n);
}

static int type_size_x_out_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Type_size_x(MPI_INT, NULL);
}

static int type_size_x_freed(struct bad_ctx *x)
{
    MPI_Count n;
    (void)x;
    return MPI_Type_size_x(bad_freed_type(), &n);
}

static int type_get_extent_x_extent_null(struct bad_ctx *x)
{
    MPI_Count lb;
    (void)x;
    return MPI_Type_get_extent_x(MPI_INT, &lb, NULL);
}

static int type_get_extent_x_datatype_null(struct bad_ctx *x)
{
    MPI_Count lb, ext;
    (void)x;
    return MPI_Type_get_extent_x(MPI_DATATYPE_NULL, &lb, &ext);
}

static int type_get_true_extent_x_lb_null(struct bad_ctx *x)
{
    MPI_Count ext;
    (void)x;
    return MPI_Type_get_true_extent_x(MPI_INT, NULL, &ext);
}

static int get_elements_x_status_ignore(struct bad_ctx *x)
{
    MPI_Count n;
    (void)x;
    return MPI_Get_elements_x(MPI_STATUS_IGNORE, MPI_INT, &n);
}

static int get_elements_x_count_null(struct bad_ctx *x)
{
    return MPI_Get_elements_x(&x->status, MPI_INT, NULL);
}

static int status_set_elements_status_null(struct bad_ctx *x)
{
    (void)x;
    return MPI_Status_set_elements(NULL, MPI_INT, 2);
}

static int status_set_elements_count_negative(struct bad_ctx *x)
{
    MPI_Status st = x->status;
    return MPI_Status_set_elements(&st, MPI_INT, -2);
}

static int status_set_elements_datatype_freed(struct bad_ctx *x)
{
    MPI_Status st = x->status;
    return MPI_Status_set_elements(&st, bad_freed_type(), 2);
}

static int status_set_elements_x_count_negative(struct bad_ctx *x)
{
    MPI_Status st = x->status;
    return MPI_Status_set_elements_x(&st, MPI_DOUBLE, -5);
}

static int status_set_elements_x_datatype_null(struct bad_ctx *x)
{
    MPI_Status st = x->status;
    return MPI_Status_set_elements_x(&st, MPI_DATATYPE_NULL, 1);
}

/* ---- MPI_Pack, MPI_Unpack, MPI_Pack_size */

static int pack_comm_null(struct bad_ctx *x)
{
    int pos = 0;
    return MPI_Pack(x->ibuf, 2, MPI_INT, x->ibuf2, 64, &pos, MPI_COMM_NULL);
}

static int pack_count_negative(struct bad_ctx *x)
{
    int pos = 0;
    return MPI_Pack(x->ibuf, -3, MPI_INT, x->ibuf2, 64, &pos, x->comm);
}

static int pack_uncommitted(struct bad_ctx *x)
{
    int pos = 0;
    MPI_Datatype t = bad_uncommitted_type();
    int rc = MPI_Pack(x->ibuf, 2, t, x->ibuf2, 64, &pos, x->comm);
    MPI_Type_free(&t);
    return rc;
}

static int pack_datatype_null(struct bad_ctx *x)
{
    int pos = 0;
    return MPI_Pack(x->ibuf, 2, MPI_DATATYPE_NULL, x->ibuf2, 64, &pos, x->comm);
}

static int pack_outsize_negative(struct bad_ctx *x)
{
    int pos = 0;
    return MPI_Pack(x->ibuf, 2, MPI_INT, x->ibuf2, -6, &pos, x->comm);
}

static int pack_position_null(struct bad_ctx *x)
{
    return MPI_Pack(x->ibuf, 2, MPI_INT, x->ibuf2, 64, NULL, x->comm);
}

static int pack_position_outside(struct bad_ctx *x)
{
    int pos = 99;
    return MPI_Pack(x->ibuf, 2, MPI_INT, x->ibuf2, 64, &pos, x->comm);
}

static int pack_truncate(struct bad_ctx *x)
{
    int pos = 4;
    return MPI_Pack(x->ibuf, 8, MPI_INT, x->ibuf2, 20, &pos, x->comm);
}

static int pack_inbuf_null(struct bad_ctx *x)
{
    int pos = 0;
    return MPI_Pack(NULL, 2, MPI_INT, x->ibuf2, 64, &pos, x->comm);
}

static int pack_outbuf_null(struct bad_ctx *x)
{
    int pos = 0;
    return MPI_Pack(x->ibuf, 2, MPI_INT, NULL, 64, &pos, x->comm);
}

static int pack_aliased(struct bad_ctx *x)
{
    int pos = 0;
    return MPI_Pack(x->ibuf, 4, MPI_INT, x->ibuf, (int)sizeof x->ibuf, &pos, x->comm);
}

static int unpack_comm_freed(struct bad_ctx *x)
{
    int pos = 0;
    return MPI_Unpack(x->ibuf2, 64, &pos, x->ibuf, 2, MPI_INT, bad_freed_comm());
}

static int unpack_count_negative(struct bad_ctx *x)
{
    int pos = 0;
    return MPI_Unpack(x->ibuf2, 64, &pos, x->ibuf, -3, MPI_INT, x->comm);
}

static int unpack_uncommitted(struct bad_ctx *x)
{
    int pos = 0;
    MPI_Datatype t = bad_uncommitted_type();
    int rc = MPI_Unpack(x->ibuf2, 64, &pos, x->ibuf, 2, t, x->comm);
    MPI_Type_free(&t);
    return rc;
}

static int unpack_insize_negative(struct bad_ctx *x)
{
    int pos = 0;
    return MPI_Unpack(x->ibuf2, -6, &pos, x->ibuf, 2, MPI_INT, x->comm);
}

static int unpack_position_null(struct bad_ctx *x)
{
    return MPI_Unpack(x->ibuf2, 64, NULL, x->ibuf, 2, MPI_INT, x->comm);
}

static int unpack_position_outside(struct bad_ctx *x)
{
    int pos = -9;
    return MPI_Unpack(x->ibuf2, 64, &pos, x->ibuf, 2, MPI_INT, x->comm);
}

static int unpack_truncate(struct bad_ctx *x)
{
    int pos = 4;
    return MPI_Unpack(x->ibuf2, 20, &pos, x->ibuf, 8, MPI_INT, x->comm);
}

static int unpack_inbuf_null(struct bad_ctx *x)
{
    int pos = 0;
    return MPI_Unpack(NULL, 64, &pos, x->ibuf, 2, MPI_INT, x->comm);
}

static int unpack_outbuf_null(struct bad_ctx *x)
{
    int pos = 0;
    return MPI_Unpack(x->ibuf2, 64, &pos, NULL, 2, MPI_INT, x->comm);
}

static int unpack_aliased(struct bad_ctx *x)
{
    int pos = 0;
    return MPI_Unpack(x->ibuf, (int)sizeof x->ibuf, &pos, x->ibuf + 2, 4, MPI_INT, x->comm);
}

static int pack_size_comm_null(struct bad_ctx *x)
{
    int n;
    (void)x;
    return MPI_Pack_size(2, MPI_INT, MPI_COMM_NULL, &n);
}

static int pack_size_count_negative(struct bad_ctx *x)
{
    int n;
    return MPI_Pack_size(-3, MPI_INT, x->comm, &n);
}

static int pack_size_datatype_freed(struct bad_ctx *x)
{
    int n;
    return MPI_Pack_size(2, bad_freed_type(), x->comm, &n);
}

static int pack_size_out_null(struct bad_ctx *x)
{
    return MPI_Pack_size(2, MPI_INT, x->comm, NULL);
}

/* ---- MPI_Get_address, MPI_Address */

static int get_address_out_null(struct bad_ctx *x)
{
    return MPI_Get_address(x->ibuf, NULL);
}

static int address_out_null(struct bad_ctx *x)
{
    return MPI_Address(x->ibuf, NULL);
}

const struct bad_case bad_dtype[] = {
    {"contiguous_count_negative", "MPI_Type_contiguous", MPI_ERR_COUNT, "-3", contiguous_count_negative},
    {"contiguous_oldtype_null", "MPI_Type_contiguous", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", contiguous_oldtype_null},
    {"contiguous_oldtype_freed", "MPI_Type_contiguous", MPI_ERR_TYPE, "freed", contiguous_oldtype_freed},
    {"contiguous_newtype_null", "MPI_Type_contiguous", MPI_ERR_ARG, "newtype is NULL", contiguous_newtype_null},
    {"contiguous_too_large", "MPI_Type_contiguous", MPI_ERR_ARG, "too large", contiguous_too_large},
    {"vector_count_negative", "MPI_Type_vector", MPI_ERR_COUNT, "-3", vector_count_negative},
    {"vector_blocklength_negative", "MPI_Type_vector", MPI_ERR_COUNT, "blocklength -4", vector_blocklength_negative},
    {"vector_oldtype_null", "MPI_Type_vector", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", vector_oldtype_null},
    {"vector_newtype_null", "MPI_Type_vector", MPI_ERR_ARG, "newtype is NULL", vector_newtype_null},
    {"hvector_count_negative", "MPI_Type_hvector", MPI_ERR_COUNT, "-3", hvector_count_negative},
    {"hvector_blocklength_negative", "MPI_Type_hvector", MPI_ERR_COUNT, "blocklength -4",
     hvector_blocklength_negative},
    {"hvector_oldtype_freed", "MPI_Type_hvector", MPI_ERR_TYPE, "freed", hvector_oldtype_freed},
    {"hvector_newtype_null", "MPI_Type_hvector", MPI_ERR_ARG, "newtype is NULL", hvector_newtype_null},
    {"create_hvector_count_negative", "MPI_Type_create_hvector", MPI_ERR_COUNT, "-3", create_hvector_count_negative},
    {"create_hvector_blocklength_negative", "MPI_Type_create_hvector", MPI_ERR_COUNT, "blocklength -4",
     create_hvector_blocklength_negative},
    {"create_hvector_oldtype_null", "MPI_Type_create_hvector", MPI_ERR_TYPE, "MPI_DATATYPE_NULL",
     create_hvector_oldtype_null},
    {"create_hvector_newtype_null", "MPI_Type_create_hvector", MPI_ERR_ARG, "newtype is NULL",
     create_hvector_newtype_null},
    {"indexed_count_negative", "MPI_Type_indexed", MPI_ERR_COUNT, "-3", indexed_count_negative},
    {"indexed_blocklengths_null", "MPI_Type_indexed", MPI_ERR_ARG, "array_of_blocklengths is NULL",
     indexed_blocklengths_null},
    {"indexed_displacements_null", "MPI_Type_indexed", MPI_ERR_ARG, "array_of_displacements is NULL",
     indexed_displacements_null},
    {"indexed_blocklength_negative", "MPI_Type_indexed", MPI_ERR_COUNT,
     "array_of_blocklengths[1] = -5", indexed_blocklength_negative},
    {"indexed_oldtype_null", "MPI_Type_indexed", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", indexed_oldtype_null},
    {"indexed_newtype_null", "MPI_Type_indexed", MPI_ERR_ARG, "newtype is NULL", indexed_newtype_null},
    {"hindexed_count_negative", "MPI_Type_hindexed", MPI_ERR_COUNT, "-3", hindexed_count_negative},
    {"hindexed_displacements_null", "MPI_Type_hindexed", MPI_ERR_ARG, "array_of_displacements is NULL",
     hindexed_displacements_null},
    {"hindexed_blocklength_negative", "MPI_Type_hindexed", MPI_ERR_COUNT, "array_of_blocklengths[1] = -5",
     hindexed_blocklength_negative},
    {"hindexed_oldtype_freed", "MPI_Type_hindexed", MPI_ERR_TYPE, "freed", hindexed_oldtype_freed},
    {"hindexed_newtype_null", "MPI_Type_hindexed", MPI_ERR_ARG, "newtype is NULL", hindexed_newtype_null},
    {"create_hindexed_count_negative", "MPI_Type_create_hindexed", MPI_ERR_COUNT, "-3",
     create_hindexed_count_negative},
    {"create_hindexed_blocklengths_null", "MPI_Type_create_hindexed", MPI_ERR_ARG, "array_of_blocklengths is NULL",
     create_hindexed_blocklengths_null},
    {"create_hindexed_blocklength_negative", "MPI_Type_create_hindexed", MPI_ERR_COUNT, "array_of_blocklengths[1] = -5",
     create_hindexed_blocklength_negative},
    {"create_hindexed_oldtype_null", "MPI_Type_create_hindexed", MPI_ERR_TYPE, "MPI_DATATYPE_NULL",
     create_hindexed_oldtype_null},
    {"create_hindexed_newtype_null", "MPI_Type_create_hindexed", MPI_ERR_ARG, "newtype is NULL",
     create_hindexed_newtype_null},
    {"indexed_block_count_negative", "MPI_Type_create_indexed_block", MPI_ERR_COUNT, "-3",
     indexed_block_count_negative},
    {"indexed_block_blocklength_negative", "MPI_Type_create_indexed_block", MPI_ERR_COUNT, "blocklength -4",
     indexed_block_blocklength_negative},
    {"indexed_block_displacements_null", "MPI_Type_create_indexed_block", MPI_ERR_ARG,
     "array_of_displacements is NULL", indexed_block_displacements_null},
    {"indexed_block_oldtype_null", "MPI_Type_create_indexed_block", MPI_ERR_TYPE, "MPI_DATATYPE_NULL",
     indexed_block_oldtype_null},
    {"indexed_block_newtype_null", "MPI_Type_create_indexed_block", MPI_ERR_ARG, "newtype is NULL",
     indexed_block_newtype_null},
    {"hindexed_block_count_negative", "MPI_Type_create_hindexed_block", MPI_ERR_COUNT, "-3",
     hindexed_block_count_negative},
    {"hindexed_block_blocklength_negative", "MPI_Type_create_hindexed_block", MPI_ERR_COUNT, "blocklength -4",
     hindexed_block_blocklength_negative},
    {"hindexed_block_displacements_null", "MPI_Type_create_hindexed_block", MPI_ERR_ARG,
     "array_of_displacements is NULL", hindexed_block_displacements_null},
    {"hindexed_block_oldtype_freed", "MPI_Type_create_hindexed_block", MPI_ERR_TYPE, "freed",
     hindexed_block_oldtype_freed},
    {"hindexed_block_newtype_null", "MPI_Type_create_hindexed_block", MPI_ERR_ARG, "newtype is NULL",
     hindexed_block_newtype_null},
    {"create_struct_count_negative", "MPI_Type_create_struct", MPI_ERR_COUNT, "-3", create_struct_count_negative},
    {"create_struct_blocklengths_null", "MPI_Type_create_struct", MPI_ERR_ARG, "array_of_blocklengths is NULL",
     create_struct_blocklengths_null},
    {"create_struct_displacements_null", "MPI_Type_create_struct", MPI_ERR_ARG, "array_of_displacements is NULL",
     create_struct_displacements_null},
    {"create_struct_types_null", "MPI_Type_create_struct", MPI_ERR_ARG, "array_of_types is NULL",
     create_struct_types_null},
    {"create_struct_blocklength_negative", "MPI_Type_create_struct", MPI_ERR_COUNT, "array_of_blocklengths[1] = -5",
     create_struct_blocklength_negative},
    {"create_struct_type_null", "MPI_Type_create_struct", MPI_ERR_TYPE, "array_of_types[1] is MPI_DATATYPE_NULL",
     create_struct_type_null},
    {"create_struct_type_freed", "MPI_Type_create_struct", MPI_ERR_TYPE, "array_of_types[1] is not a datatype",
     create_struct_type_freed},
    {"create_struct_newtype_null", "MPI_Type_create_struct", MPI_ERR_ARG, "newtype is NULL",
     create_struct_newtype_null},
    {"struct_count_negative", "MPI_Type_struct", MPI_ERR_COUNT, "-3", struct_count_negative},
    {"struct_types_null", "MPI_Type_struct", MPI_ERR_ARG, "array_of_types is NULL", struct_types_null},
    {"struct_blocklength_negative", "MPI_Type_struct", MPI_ERR_COUNT,
     "array_of_blocklengths[1] = -5", struct_blocklength_negative},
    {"struct_type_null", "MPI_Type_struct", MPI_ERR_TYPE, "array_of_types[1] is MPI_DATATYPE_NULL", struct_type_null},
    {"struct_newtype_null", "MPI_Type_struct", MPI_ERR_ARG, "newtype is NULL", struct_newtype_null},
    {"resized_oldtype_null", "MPI_Type_create_resized", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", resized_oldtype_null},
    {"resized_ub_overflows", "MPI_Type_create_resized", MPI_ERR_ARG, "+ extent 8 overflows", resized_ub_overflows},
    {"resized_newtype_null", "MPI_Type_create_resized", MPI_ERR_ARG, "newtype is NULL", resized_newtype_null},
    {"dup_oldtype_freed", "MPI_Type_dup", MPI_ERR_TYPE, "freed", dup_oldtype_freed},
    {"dup_newtype_null", "MPI_Type_dup", MPI_ERR_ARG, "newtype is NULL", dup_newtype_null},
    {"commit_null_pointer", "MPI_Type_commit", MPI_ERR_ARG, "datatype is NULL", commit_null_pointer},
    {"commit_datatype_null", "MPI_Type_commit", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", commit_datatype_null},
    {"commit_freed", "MPI_Type_commit", MPI_ERR_TYPE, "freed", commit_freed},
    {"free_null_pointer", "MPI_Type_free", MPI_ERR_ARG, "datatype is NULL", free_null_pointer},
    {"free_predefined", "MPI_Type_free", MPI_ERR_TYPE, "predefined datatype MPI_INT", free_predefined},
    {"free_datatype_null", "MPI_Type_free", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", free_datatype_null},
    {"free_twice", "MPI_Type_free", MPI_ERR_TYPE, "freed", free_twice},
    {"size_datatype_null", "MPI_Type_size", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", size_datatype_null},
    {"size_out_null", "MPI_Type_size", MPI_ERR_ARG, "size is NULL", size_out_null},
    {"extent_freed", "MPI_Type_extent", MPI_ERR_TYPE, "freed", extent_freed},
    {"extent_out_null", "MPI_Type_extent", MPI_ERR_ARG, "extent is NULL", extent_out_null},
    {"get_extent_datatype_null", "MPI_Type_get_extent", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", get_extent_datatype_null},
    {"get_extent_lb_null", "MPI_Type_get_extent", MPI_ERR_ARG, "lb is NULL", get_extent_lb_null},
    {"get_true_extent_freed", "MPI_Type_get_true_extent", MPI_ERR_TYPE, "freed", get_true_extent_freed},
    {"get_true_extent_extent_null", "MPI_Type_get_true_extent", MPI_ERR_ARG, "true_extent is NULL",
     get_true_extent_extent_null},
    {"lb_datatype_null", "MPI_Type_lb", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", lb_datatype_null},
    {"lb_out_null", "MPI_Type_lb", MPI_ERR_ARG, "displacement is NULL", lb_out_null},
    {"ub_freed", "MPI_Type_ub", MPI_ERR_TYPE, "freed", ub_freed},
    {"ub_out_null", "MPI_Type_ub", MPI_ERR_ARG, "displacement is NULL", ub_out_null},
    {"get_name_datatype_null", "MPI_Type_get_name", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", get_name_datatype_null},
    {"get_name_name_null", "MPI_Type_get_name", MPI_ERR_ARG, "type_name is NULL", get_name_name_null},
    {"get_name_resultlen_null", "MPI_Type_get_name", MPI_ERR_ARG, "resultlen is NULL", get_name_resultlen_null},
    {"subarray_ndims_zero", "MPI_Type_create_subarray", MPI_ERR_DIMS, "ndims 0", subarray_ndims_zero},
    {"subarray_size_zero", "MPI_Type_create_subarray", MPI_ERR_ARG, "array_of_sizes[1] = 0", subarray_size_zero},
    {"subarray_subsize_too_big", "MPI_Type_create_subarray", MPI_ERR_ARG, "array_of_subsizes[0] = 5",
     subarray_subsize_too_big},
    {"subarray_start_outside", "MPI_Type_create_subarray", MPI_ERR_ARG, "array_of_starts[1] = 4",
     subarray_start_outside},
    {"subarray_order_bad", "MPI_Type_create_subarray", MPI_ERR_ARG, "order 7", subarray_order_bad},
    {"subarray_sizes_null", "MPI_Type_create_subarray", MPI_ERR_ARG, "array_of_sizes is NULL", subarray_sizes_null},
    {"subarray_oldtype_null", "MPI_Type_create_subarray", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", subarray_oldtype_null},
    {"subarray_newtype_null", "MPI_Type_create_subarray", MPI_ERR_ARG, "newtype is NULL", subarray_newtype_null},
    {"darray_size_zero", "MPI_Type_create_darray", MPI_ERR_ARG, "size 0", darray_size_zero},
    {"darray_rank_outside", "MPI_Type_create_darray", MPI_ERR_RANK, "rank 99", darray_rank_outside},
    {"darray_grid_not_size", "MPI_Type_create_darray", MPI_ERR_ARG, "has 4 processes, not size = 6",
     darray_grid_not_size},
    {"darray_gsize_negative", "MPI_Type_create_darray", MPI_ERR_ARG, "array_of_gsizes[0] = -3", darray_gsize_negative},
    {"darray_distrib_bad", "MPI_Type_create_darray", MPI_ERR_ARG, "array_of_distribs[0] = 77", darray_distrib_bad},
    {"darray_darg_bad", "MPI_Type_create_darray", MPI_ERR_ARG, "array_of_dargs[0] = -5", darray_darg_bad},
    {"darray_none_split", "MPI_Type_create_darray", MPI_ERR_ARG, "MPI_DISTRIBUTE_NONE", darray_none_split},
    {"darray_block_too_small", "MPI_Type_create_darray", MPI_ERR_ARG, "array_of_dargs[0] = 3", darray_block_too_small},
    {"darray_order_bad", "MPI_Type_create_darray", MPI_ERR_ARG, "order 8", darray_order_bad},
    {"darray_psizes_null", "MPI_Type_create_darray", MPI_ERR_ARG, "array_of_psizes is NULL", darray_psizes_null},
    {"envelope_datatype_null", "MPI_Type_get_envelope", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", envelope_datatype_null},
    {"envelope_combiner_null", "MPI_Type_get_envelope", MPI_ERR_ARG, "combiner is NULL", envelope_combiner_null},
    {"contents_named", "MPI_Type_get_contents", MPI_ERR_TYPE, "MPI_COMBINER_NAMED", contents_named},
    {"contents_max_integers", "MPI_Type_get_contents", MPI_ERR_ARG, "max_integers = 2", contents_max_integers},
    {"contents_datatypes_null", "MPI_Type_get_contents", MPI_ERR_ARG, "array_of_datatypes is NULL",
     contents_datatypes_null},
    {"contents_freed", "MPI_Type_get_contents", MPI_ERR_TYPE, "freed", contents_freed},
    {"envelope_c_large_counts_null", "MPI_Type_get_envelope_c", MPI_ERR_ARG, "num_large_counts is NULL",
     envelope_c_large_counts_null},
    {"contents_c_max_negative", "MPI_Type_get_contents_c", MPI_ERR_ARG, "max_integers = -4", contents_c_max_negative},
    {"set_name_null", "MPI_Type_set_name", MPI_ERR_ARG, "type_name is NULL", set_name_null},
    {"set_name_freed", "MPI_Type_set_name", MPI_ERR_TYPE, "freed", set_name_freed},
    {"type_create_keyval_out_null", "MPI_Type_create_keyval", MPI_ERR_ARG, "type_keyval is NULL",
     type_create_keyval_out_null},
    {"type_free_keyval_invalid", "MPI_Type_free_keyval", MPI_ERR_KEYVAL, "MPI_KEYVAL_INVALID",
     type_free_keyval_invalid},
    {"type_free_keyval_twice", "MPI_Type_free_keyval", MPI_ERR_KEYVAL, "or freed", type_free_keyval_twice},
    {"type_set_attr_keyval_bad", "MPI_Type_set_attr", MPI_ERR_KEYVAL, "12345", type_set_attr_keyval_bad},
    {"type_set_attr_comm_keyval", "MPI_Type_set_attr", MPI_ERR_KEYVAL, "made for a communicator",
     type_set_attr_comm_keyval},
    {"comm_set_attr_type_keyval", "MPI_Comm_set_attr", MPI_ERR_KEYVAL, "made for a datatype",
     comm_set_attr_type_keyval},
    {"type_set_attr_datatype_null", "MPI_Type_set_attr", MPI_ERR_TYPE, "MPI_DATATYPE_NULL",
     type_set_attr_datatype_null},
    {"type_get_attr_flag_null", "MPI_Type_get_attr", MPI_ERR_ARG, "flag is NULL", type_get_attr_flag_null},
    {"type_delete_attr_keyval_invalid", "MPI_Type_delete_attr", MPI_ERR_KEYVAL, "MPI_KEYVAL_INVALID",
     type_delete_attr_keyval_invalid},
    {"match_size_class_bad", "MPI_Type_match_size", MPI_ERR_ARG, "typeclass 99", match_size_class_bad},
    {"match_size_none", "MPI_Type_match_size", MPI_ERR_ARG, "has 3 bytes", match_size_none},
    {"match_size_out_null", "MPI_Type_match_size", MPI_ERR_ARG, "datatype is NULL", match_size_out_null},
    {"f90_real_precision", "MPI_Type_create_f90_real", MPI_ERR_ARG, "p = 40", f90_real_precision},
    {"f90_real_nothing_asked", "MPI_Type_create_f90_real", MPI_ERR_ARG, "r = -32766", f90_real_nothing_asked},
    {"f90_complex_out_null", "MPI_Type_create_f90_complex", MPI_ERR_ARG, "newtype is NULL", f90_complex_out_null},
    {"f90_integer_range", "MPI_Type_create_f90_integer", MPI_ERR_ARG, "r = 99", f90_integer_range},
    {"free_f90", "MPI_Type_free", MPI_ERR_TYPE, "MPI_Type_create_f90", free_f90},
    {"get_count_datatype_null", "MPI_Get_count", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", get_count_datatype_null},
    {"get_count_status_ignore", "MPI_Get_count", MPI_ERR_ARG, "MPI_STATUS_IGNORE", get_count_status_ignore},
    {"get_count_count_null", "MPI_Get_count", MPI_ERR_ARG, "count is NULL", get_count_count_null},
    {"get_elements_freed", "MPI_Get_elements", MPI_ERR_TYPE, "freed", get_elements_freed},
    {"get_elements_status_ignore", "MPI_Get_elements", MPI_ERR_ARG, "MPI_STATUS_IGNORE", get_elements_status_ignore},
    {"get_elements_count_null", "MPI_Get_elements", MPI_ERR_ARG, "count is NULL", get_elements_count_null},
    {"pack_comm_null", "MPI_Pack", MPI_ERR_COMM, "MPI_COMM_NULL", pack_comm_null},
    {"pack_count_negative", "MPI_Pack", MPI_ERR_COUNT, "-3", pack_count_negative},
    {"pack_uncommitted", "MPI_Pack", MPI_ERR_TYPE, "not committed", pack_uncommitted},
    {"pack_datatype_null", "MPI_Pack", MPI_ERR_TYPE, "MPI_DATATYPE_NULL", pack_datatype_null},
    {"pack_outsize_negative", "MPI_Pack", MPI_ERR_ARG, "size -6", pack_outsize_negative},
    {"pack_position_null", "MPI_Pack", MPI_ERR_ARG, "position is NULL", pack_position_null},
    {"pack_position_outside", "MPI_Pack", MPI_ERR_ARG, "position 99", pack_position_outside},
    {"pack_truncate", "MPI_Pack", MPI_ERR_TRUNCATE, "only 16 of the 20-byte outbuf", pack_truncate},
    {"pack_inbuf_null", "MPI_Pack", MPI_ERR_BUFFER, "inbuf is NULL but is to hold 2 elements", pack_inbuf_null},
    {"pack_outbuf_null", "MPI_Pack", MPI_ERR_BUFFER, "outbuf is NULL", pack_outbuf_null},
    {"pack_aliased", "MPI_Pack", MPI_ERR_BUFFER, "overlaps", pack_aliased},
    {"unpack_comm_freed", "MPI_Unpack", MPI_ERR_COMM, "invalid communicator", unpack_comm_freed},
    {"unpack_count_negative", "MPI_Unpack", MPI_ERR_COUNT, "-3", unpack_count_negative},
    {"unpack_uncommitted", "MPI_Unpack", MPI_ERR_TYPE, "not committed", unpack_uncommitted},
    {"unpack_insize_negative", "MPI_Unpack", MPI_ERR_ARG, "size -6", unpack_insize_negative},
    {"unpack_position_null", "MPI_Unpack", MPI_ERR_ARG, "position is NULL", unpack_position_null},
    {"unpack_position_outside", "MPI_Unpack", MPI_ERR_ARG, "position -9", unpack_position_outside},
    {"unpack_truncate", "MPI_Unpack", MPI_ERR_TRUNCATE, "only 16 of the 20-byte inbuf", unpack_truncate},
    {"unpack_inbuf_null", "MPI_Unpack", MPI_ERR_BUFFER, "inbuf is NULL", unpack_inbuf_null},
    {"unpack_outbuf_null", "MPI_Unpack", MPI_ERR_BUFFER,
     "outbuf is NULL but is to hold 2 elements", unpack_outbuf_null},
    {"unpack_aliased", "MPI_Unpack", MPI_ERR_BUFFER, "overlaps", unpack_aliased},
    {"pack_size_comm_null", "MPI_Pack_size", MPI_ERR_COMM, "MPI_COMM_NULL", pack_size_comm_null},
    {"pack_size_count_negative", "MPI_Pack_size", MPI_ERR_COUNT, "-3", pack_size_count_negative},
    {"pack_size_datatype_freed", "MPI_Pack_size", MPI_ERR_TYPE, "freed", pack_size_datatype_freed},
    {"pack_size_out_null", "MPI_Pack_size", MPI_ERR_ARG, "size is NULL", pack_size_out_null},
    {"get_address_out_null", "MPI_Get_address", MPI_ERR_ARG, "address is NULL", get_address_out_null},
    {"address_out_null", "MPI_Address", MPI_ERR_ARG, "address is NULL", address_out_null},
    {"pack_external_datarep_native", "MPI_Pack_external", MPI_ERR_UNSUPPORTED_DATAREP, "\"native\" is not supported",
     pack_external_datarep_native},
    {"pack_external_datarep_null", "MPI_Pack_external", MPI_ERR_ARG, "datarep is NULL", pack_external_datarep_null},
    {"pack_external_count_negative", "MPI_Pack_external", MPI_ERR_COUNT, "-1", pack_external_count_negative},
    {"pack_external_uncommitted", "MPI_Pack_external", MPI_ERR_TYPE, "not committed", pack_external_uncommitted},
    {"pack_external_too_small", "MPI_Pack_external", MPI_ERR_TRUNCATE, "12 external32 bytes, but only 11",
     pack_external_too_small},
    {"pack_external_position_null", "MPI_Pack_external", MPI_ERR_ARG, "position is NULL",
     pack_external_position_null},
    {"pack_external_position_outside", "MPI_Pack_external", MPI_ERR_ARG, "position 65 is outside the 64-byte outbuf",
     pack_external_position_outside},
    {"pack_external_outbuf_null", "MPI_Pack_external", MPI_ERR_BUFFER, "outbuf is NULL", pack_external_outbuf_null},
    {"unpack_external_datarep_bad", "MPI_Unpack_external", MPI_ERR_UNSUPPORTED_DATAREP, "\"internal\"",
     unpack_external_datarep_bad},
    {"unpack_external_truncated", "MPI_Unpack_external", MPI_ERR_TRUNCATE, "8 external32 bytes, but only 7",
     unpack_external_truncated},
    {"unpack_external_datatype_freed", "MPI_Unpack_external", MPI_ERR_TYPE, "freed", unpack_external_datatype_freed},
    {"pack_external_size_datarep_bad", "MPI_Pack_external_size", MPI_ERR_UNSUPPORTED_DATAREP, "\"external64\"",
     pack_external_size_datarep_bad},
    {"pack_external_size_out_null", "MPI_Pack_external_size", MPI_ERR_ARG, "size is NULL",
     pack_external_size_out_null},
    {"pack_external_size_datatype_null", "MPI_Pack_external_size", MPI_ERR_TYPE, "MPI_DATATYPE_NULL",
     pack_external_size_datatype_null},
    {"type_size_x_out_null", "MPI_Type_size_x", MPI_ERR_ARG, "size is NULL", type_size_x_out_null},
    {"type_size_x_freed", "MPI_Type_size_x", MPI_ERR_TYPE, "freed", type_size_x_freed},
    {"type_get_extent_x_extent_null", "MPI_Type_get_extent_x", MPI_ERR_ARG, "extent is NULL",
     type_get_extent_x_extent_null},
    {"type_get_extent_x_datatype_null", "MPI_Type_get_extent_x", MPI_ERR_TYPE, "MPI_DATATYPE_NULL",
     type_get_extent_x_datatype_null},
    {"type_get_true_extent_x_lb_null", "MPI_Type_get_true_extent_x", MPI_ERR_ARG, "true_lb is NULL",
     type_get_true_extent_x_lb_null},
    {"get_elements_x_status_ignore", "MPI_Get_elements_x", MPI_ERR_ARG, "MPI_STATUS_IGNORE",
     get_elements_x_status_ignore},
    {"get_elements_x_count_null", "MPI_Get_elements_x", MPI_ERR_ARG, "count is NULL", get_elements_x_count_null},
    {"status_set_elements_status_null", "MPI_Status_set_elements", MPI_ERR_ARG, "status is NULL",
     status_set_elements_status_null},
    {"status_set_elements_count_negative", "MPI_Status_set_elements", MPI_ERR_COUNT, "-2",
     status_set_elements_count_negative},
    {"status_set_elements_datatype_freed", "MPI_Status_set_elements", MPI_ERR_TYPE, "freed",
     status_set_elements_datatype_freed},
    {"status_set_elements_x_count_negative", "MPI_Status_set_elements_x", MPI_ERR_COUNT, "-5",
     status_set_elements_x_count_negative},
    {"status_set_elements_x_datatype_null", "MPI_Status_set_elements_x", MPI_ERR_TYPE, "MPI_DATATYPE_NULL",
     status_set_elements_x_datatype_null},
    {0},
};
