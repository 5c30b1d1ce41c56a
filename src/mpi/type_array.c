/* Array datatypes: MPI_Type_create_subarray and MPI_Type_create_darray. Both select, in each dimension of
 * a global array, runs of consecutive indices (one run for a subarray or a block, one per block for a
 * cyclic distribution), and their type map is the selected elements in the array's storage order. That
 * is built from the fastest dimension outwards, each dimension's type placing copies of the previous one
 * at its runs, then resized to the whole array: lb 0, extent the array's bytes, as MPI-4.1 5.1.3/5.1.4
 * define both (and MPICH and Open MPI build them). */
#include <stdlib.h>

#include "core/type_extra.h"
#include "mpi/coll_counts.h"
#include "mpi/mpi_impl.h"

/* Sizes, starts and global sizes are read through skiff_cnt_at (mpi/coll_counts.h): the int calls' arrays
 * and the large-count (_c) calls' MPI_Count ones go through the same code, neither copied. */
struct run {
    MPI_Count start, len;
};

/* The runs one dimension contributes. */
struct dim {
    MPI_Count nruns;
    struct run *runs;
};

/* Copies of inner at each run of d, index i at i * stride bytes; the fastest dimension's inner is the old
 * type itself (old notes the basic type even when nothing is selected). */
static int add_dim(const struct dim *d, ptrdiff_t stride, const struct skiff_type *inner, const struct skiff_type *old,
                   struct skiff_type **out)
{
    struct skiff_type_builder b;
    skiff_tb_init(&b);
    skiff_tb_add(&b, 0, 0, 0, old);
    for (MPI_Count i = 0; i < d->nruns; i++)
        skiff_tb_add(&b, (ptrdiff_t)d->runs[i].start * stride, (size_t)d->runs[i].len, stride, inner);
    return skiff_tb_finish(&b, 0, out);
}

/* Bytes per index step of each dimension (strides[d]) and of the whole array (*total); MPI_ERR_ARG when they
 * do not fit an address. fortran: dimension 0 varies fastest, else the last one. */
static int array_strides(int ndims, struct skiff_cnts gsizes, int fortran, ptrdiff_t extent, ptrdiff_t *strides,
                         ptrdiff_t *total)
{
    ptrdiff_t s = extent;
    for (int k = 0; k < ndims; k++) {
        int d = fortran ? k : ndims - 1 - k;
        MPI_Count g = skiff_cnt_at(gsizes, d);
        strides[d] = s;
        if (__builtin_mul_overflow(s, (ptrdiff_t)g, &s))
            return skiff_err(MPI_ERR_ARG, "the array's extent overflows an address-sized integer (dimension %d of "
                                          "%lld elements, %td bytes per index)", d, (long long)g, strides[d]);
    }
    *total = s;
    return MPI_SUCCESS;
}

static int build_array(int ndims, struct skiff_cnts gsizes, const struct dim *dims, int order,
                       const struct skiff_type *old, struct skiff_type **out)
{
    int fortran = order == MPI_ORDER_FORTRAN;
    ptrdiff_t *strides = malloc(sizeof *strides * (size_t)ndims), total = 0;
    if (!strides)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for a %d-dimensional array type", ndims);
    int rc = array_strides(ndims, gsizes, fortran, old->extent, strides, &total);
    struct skiff_type *cur = NULL;
    for (int k = 0; !rc && k < ndims; k++) {
        int d = fortran ? k : ndims - 1 - k;
        struct skiff_type *next = NULL;
        rc = add_dim(&dims[d], strides[d], cur ? cur : old, old, &next);
        if (cur)
            skiff_type_unref(cur);
        cur = next;
    }
    free(strides);
    if (!rc)
        rc = skiff_type_resized(cur, 0, total, out);
    if (cur)
        skiff_type_unref(cur);
    return rc;
}

static void free_dims(struct dim *dims, int ndims)
{
    for (int d = 0; d < ndims; d++)
        free(dims[d].runs);
    free(dims);
}

static int alloc_dims(int ndims, struct dim **dims)
{
    *dims = calloc((size_t)ndims, sizeof **dims);
    return *dims ? MPI_SUCCESS : skiff_err(MPI_ERR_NO_MEM, "out of memory for a %d-dimensional array type", ndims);
}

static int set_runs(struct dim *d, MPI_Count n)
{
    d->runs = malloc(sizeof *d->runs * (size_t)(n ? n : 1));
    if (!d->runs)
        return skiff_err(MPI_ERR_NO_MEM, "out of memory for %lld blocks of an array type", (long long)n);
    d->nruns = 0;
    return MPI_SUCCESS;
}

static int check_order(int order)
{
    if (order == MPI_ORDER_C || order == MPI_ORDER_FORTRAN)
        return MPI_SUCCESS;
    return skiff_err(MPI_ERR_ARG, "invalid order %d (must be MPI_ORDER_C or MPI_ORDER_FORTRAN)", order);
}

static int check_ndims(int ndims)
{
    return ndims > 0 ? MPI_SUCCESS : skiff_err(MPI_ERR_DIMS, "invalid ndims %d (must be > 0)", ndims);
}

/* ---- subarray */

static int check_subarray_dim(int d, long long size, long long subsize, long long start)
{
    if (size <= 0)
        return skiff_err(MPI_ERR_ARG, "invalid array_of_sizes[%d] = %lld (must be > 0)", d, size);
    if (subsize < 0 || subsize > size)
        return skiff_err(MPI_ERR_ARG, "invalid array_of_subsizes[%d] = %lld (must be 0..%lld, the size)", d, subsize,
                         size);
    if (start < 0 || start > size - subsize)
        return skiff_err(MPI_ERR_ARG, "invalid array_of_starts[%d] = %lld (a subarray of %lld from it would not fit "
                                      "in %lld elements)", d, start, subsize, size);
    return MPI_SUCCESS;
}

/* The arguments of MPI_Type_create_subarray (int arrays) or MPI_Type_create_subarray_c (MPI_Count ones). */
struct subarray {
    int ndims;
    struct skiff_cnts sizes, subsizes, starts;
    int order;
};

static int check_subarray(const struct subarray *a, MPI_Datatype oldtype, const MPI_Datatype *newtype,
                          const struct skiff_type **old)
{
    int rc, n = a->ndims;
    if ((rc = check_ndims(n)) || (rc = skiff_check_array(n, skiff_cnts_ptr(a->sizes), "array_of_sizes")) ||
        (rc = skiff_check_array(n, skiff_cnts_ptr(a->subsizes), "array_of_subsizes")) ||
        (rc = skiff_check_array(n, skiff_cnts_ptr(a->starts), "array_of_starts")) || (rc = check_order(a->order)) ||
        (rc = skiff_check_dtype(oldtype, 0, old)) || (rc = skiff_check_ptr(newtype, "newtype")))
        return rc;
    for (int d = 0; d < n; d++)
        if ((rc = check_subarray_dim(d, skiff_cnt_at(a->sizes, d), skiff_cnt_at(a->subsizes, d),
                                     skiff_cnt_at(a->starts, d))))
            return rc;
    return MPI_SUCCESS;
}

static int subarray(const struct subarray *a, const struct skiff_type *old, struct skiff_type **out)
{
    struct dim *dims = NULL;
    int rc = alloc_dims(a->ndims, &dims), ndims = a->ndims;
    for (int d = 0; !rc && d < ndims; d++)
        if (!(rc = set_runs(&dims[d], 1)) && skiff_cnt_at(a->subsizes, d) > 0)
            dims[d].runs[dims[d].nruns++] = (struct run){skiff_cnt_at(a->starts, d), skiff_cnt_at(a->subsizes, d)};
    if (!rc)
        rc = build_array(ndims, a->sizes, dims, a->order, old, out);
    if (dims)
        free_dims(dims, ndims);
    return rc;
}

/* The new type remembers the call's arguments for MPI_Type_get_contents (and the nl lcounts of a _c call,
 * which only the _c decoders give back). */
static int publish(struct skiff_type *t, const struct skiff_type_record *r, const MPI_Count *lcounts, int nl,
                   MPI_Datatype *newtype)
{
    int rc = skiff_type_record_large(t, r, lcounts, nl);
    if (rc) {
        skiff_type_free(t);
        return skiff_fail_world(rc);
    }
    *newtype = skiff_type_handle(t);
    return MPI_SUCCESS;
}

/* The body of MPI_Type_create_subarray and MPI_Type_create_subarray_c (large: a's arrays are MPI_Count; the
 * record then holds ndims and order as integers and the three arrays as large counts, MPI-4.1 5.1.13). */
static int create_subarray(int large, const struct subarray *a, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    const struct skiff_type *old = NULL;
    struct skiff_type *t = NULL;
    SKIFF_ENTER_TWIN(MPI_Type_create_subarray, large);
    int rc = check_subarray(a, oldtype, newtype, &old);
    if (rc || (rc = subarray(a, old, &t)))
        return skiff_fail_world(rc);
    int n = a->ndims;
    if (!large) {
        struct skiff_type_record r = {MPI_COMBINER_SUBARRAY,
                                      {{&a->ndims, 1}, {a->sizes.i, n}, {a->subsizes.i, n}, {a->starts.i, n},
                                       {&a->order, 1}},
                                      NULL, 0, &oldtype, 1};
        return publish(t, &r, NULL, 0, newtype);
    }
    MPI_Count *l = malloc(sizeof *l * 3 * (size_t)n);
    if (!l) {
        skiff_type_free(t);
        return skiff_fail_world(skiff_err(MPI_ERR_NO_MEM, "out of memory recording how a datatype was made"));
    }
    for (int d = 0; d < n; d++) {
        l[d] = a->sizes.l[d];
        l[n + d] = a->subsizes.l[d];
        l[2 * n + d] = a->starts.l[d];
    }
    struct skiff_type_record r = {MPI_COMBINER_SUBARRAY, {{&a->ndims, 1}, {&a->order, 1}}, NULL, 0, &oldtype, 1};
    rc = publish(t, &r, l, 3 * n, newtype);
    free(l);
    return rc;
}

int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                              const int array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct subarray a = {ndims, skiff_icnts(array_of_sizes), skiff_icnts(array_of_subsizes),
                         skiff_icnts(array_of_starts), order};
    return create_subarray(0, &a, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_create_subarray)

int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[], const MPI_Count array_of_subsizes[],
                                const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype,
                                MPI_Datatype *newtype)
{
    struct subarray a = {ndims, skiff_lcnts(array_of_sizes), skiff_lcnts(array_of_subsizes),
                         skiff_lcnts(array_of_starts), order};
    return create_subarray(1, &a, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_create_subarray_c)

/* ---- darray */

/* gsizes: an int call's or (MPI_Type_create_darray_c) MPI_Count ones. */
struct darray {
    int size, rank, ndims;
    struct skiff_cnts gsizes;
    const int *distribs, *dargs, *psizes;
    int order;
};

static int check_darray_dim(const struct darray *a, int d)
{
    long long g = skiff_cnt_at(a->gsizes, d);
    int dist = a->distribs[d], darg = a->dargs[d], p = a->psizes[d];
    if (g <= 0)
        return skiff_err(MPI_ERR_ARG, "invalid array_of_gsizes[%d] = %lld (must be > 0)", d, g);
    if (p <= 0)
        return skiff_err(MPI_ERR_ARG, "invalid array_of_psizes[%d] = %d (must be > 0)", d, p);
    if (dist != MPI_DISTRIBUTE_BLOCK && dist != MPI_DISTRIBUTE_CYCLIC && dist != MPI_DISTRIBUTE_NONE)
        return skiff_err(MPI_ERR_ARG, "invalid array_of_distribs[%d] = %d (must be MPI_DISTRIBUTE_BLOCK, _CYCLIC "
                                      "or _NONE)", d, dist);
    if (darg != MPI_DISTRIBUTE_DFLT_DARG && darg <= 0)
        return skiff_err(MPI_ERR_ARG, "invalid array_of_dargs[%d] = %d (must be > 0 or MPI_DISTRIBUTE_DFLT_DARG)", d,
                         darg);
    if (dist == MPI_DISTRIBUTE_NONE && p != 1)
        return skiff_err(MPI_ERR_ARG, "array_of_psizes[%d] = %d, but a dimension distributed MPI_DISTRIBUTE_NONE "
                                      "must have 1 process", d, p);
    if (dist == MPI_DISTRIBUTE_BLOCK && darg != MPI_DISTRIBUTE_DFLT_DARG && (long long)darg * p < g)
        return skiff_err(MPI_ERR_ARG, "array_of_dargs[%d] = %d: %d blocks of it cannot hold the dimension's %lld "
                                      "elements", d, darg, p, g);
    return MPI_SUCCESS;
}

static int check_darray_arrays(const struct darray *a)
{
    int rc;
    if ((rc = skiff_check_array(a->ndims, skiff_cnts_ptr(a->gsizes), "array_of_gsizes")) ||
        (rc = skiff_check_array(a->ndims, a->distribs, "array_of_distribs")) ||
        (rc = skiff_check_array(a->ndims, a->dargs, "array_of_dargs")) ||
        (rc = skiff_check_array(a->ndims, a->psizes, "array_of_psizes")))
        return rc;
    long long procs = 1;
    for (int d = 0; d < a->ndims; d++) {
        if ((rc = check_darray_dim(a, d)))
            return rc;
        procs *= a->psizes[d];
        if (procs > a->size)
            break;
    }
    if (procs != a->size)
        return skiff_err(MPI_ERR_ARG, "the process grid (array_of_psizes) has %s%lld processes, not size = %d",
                         procs > a->size ? "more than " : "", procs, a->size);
    return MPI_SUCCESS;
}

static int check_darray(const struct darray *a, MPI_Datatype oldtype, const MPI_Datatype *newtype,
                        const struct skiff_type **old)
{
    int rc;
    if (a->size <= 0)
        return skiff_err(MPI_ERR_ARG, "invalid size %d (must be > 0)", a->size);
    if (a->rank < 0 || a->rank >= a->size)
        return skiff_err(MPI_ERR_RANK, "invalid rank %d (must be 0..%d)", a->rank, a->size - 1);
    if ((rc = check_ndims(a->ndims)) || (rc = check_darray_arrays(a)) || (rc = check_order(a->order)) ||
        (rc = skiff_check_dtype(oldtype, 0, old)) || (rc = skiff_check_ptr(newtype, "newtype")))
        return rc;
    return MPI_SUCCESS;
}

/* The indices of a dimension of g elements that process coordinate c of p holds. */
static int distribute(struct dim *d, int dist, int darg, MPI_Count g, int c, int p)
{
    int rc;
    if (dist == MPI_DISTRIBUTE_NONE) {
        if (!(rc = set_runs(d, 1)))
            d->runs[d->nruns++] = (struct run){0, g};
        return rc;
    }
    if (dist == MPI_DISTRIBUTE_BLOCK) {
        long long blk = darg == MPI_DISTRIBUTE_DFLT_DARG ? ((long long)g + p - 1) / p : darg;
        long long start = blk * c, len = g - start < blk ? g - start : blk;
        if (!(rc = set_runs(d, 1)) && len > 0)
            d->runs[d->nruns++] = (struct run){start, len};
        return rc;
    }
    long long blk = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg, step = blk * p, first = blk * c;
    long long n = first < g ? (g - first + step - 1) / step : 0;
    if ((rc = set_runs(d, n)))
        return rc;
    for (long long s = first; s < g; s += step)
        d->runs[d->nruns++] = (struct run){s, g - s < blk ? g - s : blk};
    return MPI_SUCCESS;
}

/* The process grid is row-major whatever the array's order (MPI-4.1 5.1.4, as for Cartesian topologies). */
static int darray(const struct darray *a, const struct skiff_type *old, struct skiff_type **out)
{
    struct dim *dims = NULL;
    int rc = alloc_dims(a->ndims, &dims), rest = a->rank, procs = a->size;
    for (int d = 0; !rc && d < a->ndims; d++) {
        procs /= a->psizes[d];
        int c = rest / procs;
        rest %= procs;
        rc = distribute(&dims[d], a->distribs[d], a->dargs[d], skiff_cnt_at(a->gsizes, d), c, a->psizes[d]);
    }
    if (!rc)
        rc = build_array(a->ndims, a->gsizes, dims, a->order, old, out);
    if (dims)
        free_dims(dims, a->ndims);
    return rc;
}

/* The body of MPI_Type_create_darray and MPI_Type_create_darray_c (large: the gsizes are MPI_Count, and the
 * record holds them as large counts, the rest as integers, MPI-4.1 5.1.13). */
static int create_darray(int large, const struct darray *a, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    const struct skiff_type *old = NULL;
    struct skiff_type *t = NULL;
    SKIFF_ENTER_TWIN(MPI_Type_create_darray, large);
    int rc = check_darray(a, oldtype, newtype, &old);
    if (rc || (rc = darray(a, old, &t)))
        return skiff_fail_world(rc);
    const int head[3] = {a->size, a->rank, a->ndims}, n = a->ndims;
    struct skiff_type_record r = {MPI_COMBINER_DARRAY,
                                  {{head, 3}, {a->gsizes.i, large ? 0 : n}, {a->distribs, n}, {a->dargs, n},
                                   {a->psizes, n}, {&a->order, 1}},
                                  NULL, 0, &oldtype, 1};
    return publish(t, &r, a->gsizes.l, large ? n : 0, newtype);
}

int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[], const int array_of_distribs[],
                            const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype *newtype)
{
    struct darray a = {
        size, rank, ndims, skiff_icnts(array_of_gsizes), array_of_distribs, array_of_dargs, array_of_psizes, order};
    return create_darray(0, &a, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_create_darray)

int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                              const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[],
                              int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct darray a = {
        size, rank, ndims, skiff_lcnts(array_of_gsizes), array_of_distribs, array_of_dargs, array_of_psizes, order};
    return create_darray(1, &a, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_create_darray_c)
