/* Datatype constructors, MPI-2 names and the MPI-1 names real codes still call. Each one feeds the
 * builder (core/datatype.h) its pieces in type-map order; the builder flattens them. */
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi_impl.h"

#include "core/type_extra.h"

static int check_blocklen(MPI_Count len)
{
    return len >= 0 ? MPI_SUCCESS
                    : skiff_err(MPI_ERR_COUNT, "invalid blocklength %lld (must be >= 0)", (long long)len);
}

/* The checks every constructor from one old type makes; starts b with old, so even an empty result
 * knows its basic type. */
static int begin(MPI_Count count, MPI_Datatype oldtype, const MPI_Datatype *newtype, struct skiff_type_builder *b,
                 const struct skiff_type **old)
{
    int rc;
    if ((rc = skiff_check_count(count)) || (rc = skiff_check_dtype(oldtype, 0, old)) ||
        (rc = skiff_check_ptr(newtype, "newtype")))
        return rc;
    skiff_tb_init(b);
    skiff_tb_add(b, 0, 0, 0, *old);
    return MPI_SUCCESS;
}

/* The new type remembers its constructor's arguments (rec, and the nl lcounts of a large-count
 * constructor) for MPI_Type_get_contents. */
static int finish_large(struct skiff_type_builder *b, int pad, const struct skiff_type_record *rec,
                        const MPI_Count *lcounts, int nl, MPI_Datatype *newtype)
{
    struct skiff_type *t = NULL;
    int rc = skiff_tb_finish(b, pad, &t);
    if (!rc && (rc = skiff_type_record_large(t, rec, lcounts, nl)))
        skiff_type_free(t);
    if (rc)
        return skiff_fail_world(rc);
    *newtype = skiff_type_handle(t);
    return MPI_SUCCESS;
}

static int finish(struct skiff_type_builder *b, int pad, const struct skiff_type_record *rec, MPI_Datatype *newtype)
{
    return finish_large(b, pad, rec, NULL, 0, newtype);
}

/* large: MPI_Type_contiguous_c, whose count is recorded as a large count. */
static int contiguous(int large, MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct skiff_type_builder b;
    const struct skiff_type *old = NULL;
    SKIFF_ENTER_TWIN(MPI_Type_contiguous, large);
    int rc = begin(count, oldtype, newtype, &b, &old);
    if (rc)
        return skiff_fail_world(rc);
    skiff_tb_add(&b, 0, (size_t)count, old->extent, old);
    const int icount = (int)count;
    struct skiff_type_record r = {MPI_COMBINER_CONTIGUOUS, {{&icount, large ? 0 : 1}}, NULL, 0, &oldtype, 1};
    return finish_large(&b, 0, &r, &count, large, newtype);
}

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return contiguous(0, count, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_contiguous)

int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return contiguous(1, count, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_contiguous_c)

/* count blocks of blocklength old elements, block i at i * stride bytes. ivec: MPI_Type_vector's arguments
 * (stride in elements), else NULL. lvec: the large-count forms' (count, blocklength, stride as given), else
 * NULL; vector: which of the two combiners that is. */
static int hvector(MPI_Count count, MPI_Count blocklength, MPI_Aint stride, MPI_Datatype oldtype, const int *ivec,
                   const MPI_Count *lvec, int vector, MPI_Datatype *newtype)
{
    struct skiff_type_builder b;
    const struct skiff_type *old = NULL;
    int rc = check_blocklen(blocklength);
    if (rc || (rc = begin(count, oldtype, newtype, &b, &old)))
        return skiff_fail_world(rc);
    for (MPI_Count i = 0; i < count; i++)
        skiff_tb_add(&b, (ptrdiff_t)i * stride, (size_t)blocklength, old->extent, old);
    const int ihv[2] = {(int)count, (int)blocklength};
    struct skiff_type_record r = {MPI_COMBINER_HVECTOR, {{ihv, 2}}, &stride, 1, &oldtype, 1};
    if (ivec)
        r = (struct skiff_type_record){MPI_COMBINER_VECTOR, {{ivec, 3}}, NULL, 0, &oldtype, 1};
    if (lvec)
        r = (struct skiff_type_record){vector ? MPI_COMBINER_VECTOR : MPI_COMBINER_HVECTOR, {{0}}, NULL, 0, &oldtype,
                                       1};
    return finish_large(&b, 0, &r, lvec, lvec ? 3 : 0, newtype);
}

/* Elements to bytes; a bad oldtype is reported by hvector. */
static MPI_Aint stride_bytes(MPI_Datatype oldtype, MPI_Count stride)
{
    const struct skiff_type *old = skiff_type_get(oldtype);
    return old ? (MPI_Aint)stride * old->extent : 0;
}

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_vector);
    return hvector(count, blocklength, stride_bytes(oldtype, stride), oldtype,
                   (const int[3]){count, blocklength, stride}, NULL, 1, newtype);
}
SKIFF_ALIAS(MPI_Type_vector)

int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                       MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_vector_c);
    return hvector(count, blocklength, stride_bytes(oldtype, stride), oldtype, NULL,
                   (const MPI_Count[3]){count, blocklength, stride}, 1, newtype);
}
SKIFF_ALIAS(MPI_Type_vector_c)

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_create_hvector);
    return hvector(count, blocklength, stride, oldtype, NULL, NULL, 0, newtype);
}
SKIFF_ALIAS(MPI_Type_create_hvector)

int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                               MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_create_hvector_c);
    return hvector(count, blocklength, (MPI_Aint)stride, oldtype, NULL,
                   (const MPI_Count[3]){count, blocklength, stride}, 0, newtype);
}
SKIFF_ALIAS(MPI_Type_create_hvector_c)

int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_hvector);
    return hvector(count, blocklength, stride, oldtype, NULL, NULL, 0, newtype);
}
SKIFF_ALIAS(MPI_Type_hvector)

/* The indexed family. Block i has blocklens[i] (or blocklen in the _block forms) elements at
 * displacement idispls[i] * extent (or hdispls[i] bytes in the h forms). The flags, not NULL arrays,
 * tell the forms apart: a NULL array is the user's error. */
struct indexed {
    MPI_Count count;
    const int *blocklens;
    MPI_Count blocklen;
    const int *idispls;
    const MPI_Aint *hdispls;
    int block, bytes;
    /* The large-count (_c) forms: MPI_Count lengths and displacements (elements, or bytes in the h forms),
     * used instead of blocklens and idispls/hdispls when given. */
    const MPI_Count *lblocklens, *ldispls;
};

static int large_form(const struct indexed *x)
{
    return x->ldispls != NULL || x->lblocklens != NULL;
}

static MPI_Count blocklen_at(const struct indexed *x, MPI_Count i)
{
    return x->block ? x->blocklen : x->lblocklens ? x->lblocklens[i] : x->blocklens[i];
}

static ptrdiff_t disp_at(const struct indexed *x, MPI_Count i, ptrdiff_t extent)
{
    if (large_form(x))
        return x->bytes ? (ptrdiff_t)x->ldispls[i] : (ptrdiff_t)x->ldispls[i] * extent;
    return x->bytes ? x->hdispls[i] : (ptrdiff_t)x->idispls[i] * extent;
}

static int check_indexed(const struct indexed *x)
{
    const void *displs = large_form(x) ? (const void *)x->ldispls
                         : x->bytes    ? (const void *)x->hdispls
                                       : (const void *)x->idispls;
    int rc = skiff_check_array(x->count > INT_MAX ? INT_MAX : (int)x->count, displs, "array_of_displacements");
    if (rc || x->block)
        return rc ? rc : check_blocklen(x->blocklen);
    if (!large_form(x))
        return skiff_check_counts((int)x->count, x->blocklens, "array_of_blocklengths", NULL);
    rc = skiff_check_array(x->count > INT_MAX ? INT_MAX : (int)x->count, x->lblocklens, "array_of_blocklengths");
    for (MPI_Count i = 0; !rc && i < x->count; i++)
        if (x->lblocklens[i] < 0)
            rc = skiff_err(MPI_ERR_COUNT, "invalid array_of_blocklengths[%lld] = %lld (must be >= 0)", (long long)i,
                           (long long)x->lblocklens[i]);
    return rc;
}

/* A large-count form's record: count, the lengths (or the one length), the displacements. */
static MPI_Count *large_record(const struct indexed *x, int *nl)
{
    MPI_Count nb = x->block ? 1 : x->count, n = 1 + nb + x->count;
    MPI_Count *l = n <= INT_MAX ? malloc(sizeof *l * (size_t)n) : NULL;
    if (!l)
        return NULL;
    l[0] = x->count;
    for (MPI_Count i = 0; i < nb; i++)
        l[1 + i] = blocklen_at(x, i);
    for (MPI_Count i = 0; i < x->count; i++)
        l[1 + nb + i] = x->ldispls[i];
    *nl = (int)n;
    return l;
}

static int indexed(const struct indexed *x, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct skiff_type_builder b;
    const struct skiff_type *old = NULL;
    int rc = skiff_check_count(x->count);
    if (rc || (rc = check_indexed(x)) || (rc = begin(x->count, oldtype, newtype, &b, &old)))
        return skiff_fail_world(rc);
    for (MPI_Count i = 0; i < x->count; i++)
        skiff_tb_add(&b, disp_at(x, i, old->extent), (size_t)blocklen_at(x, i), old->extent, old);
    static const int combiner[2][2] = {{MPI_COMBINER_INDEXED, MPI_COMBINER_HINDEXED},
                                       {MPI_COMBINER_INDEXED_BLOCK, MPI_COMBINER_HINDEXED_BLOCK}};
    if (large_form(x)) {
        int nl = 0;
        MPI_Count *l = large_record(x, &nl);
        struct skiff_type_record r = {combiner[x->block][x->bytes], {{0}}, NULL, 0, &oldtype, 1};
        rc = l ? finish_large(&b, 0, &r, l, nl, newtype)
               : skiff_fail_world(skiff_err(MPI_ERR_NO_MEM, "out of memory recording how a datatype was made"));
        free(l);
        return rc;
    }
    const int head[2] = {(int)x->count, (int)x->blocklen};
    struct skiff_type_record r = {combiner[x->block][x->bytes],
                                  {{head, x->block ? 2 : 1}, {x->block ? NULL : x->blocklens, x->block ? 0 : x->count},
                                   {x->idispls, x->bytes ? 0 : x->count}},
                                  x->hdispls, x->bytes ? x->count : 0, &oldtype, 1};
    return finish(&b, 0, &r, newtype);
}

int PMPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[],
                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_indexed);
    struct indexed x = {count, array_of_blocklengths, 0, array_of_displacements, NULL, 0, 0, NULL, NULL};
    return indexed(&x, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_indexed)

int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_indexed_c);
    struct indexed x = {count, NULL, 0, NULL, NULL, 0, 0, array_of_blocklengths, array_of_displacements};
    return indexed(&x, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_indexed_c)

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                              MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_create_hindexed);
    struct indexed x = {count, array_of_blocklengths, 0, NULL, array_of_displacements, 0, 1, NULL, NULL};
    return indexed(&x, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_create_hindexed)

int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_create_hindexed_c);
    struct indexed x = {count, NULL, 0, NULL, NULL, 0, 1, array_of_blocklengths, array_of_displacements};
    return indexed(&x, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_create_hindexed_c)

int PMPI_Type_hindexed(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_hindexed);
    struct indexed x = {count, array_of_blocklengths, 0, NULL, array_of_displacements, 0, 1, NULL, NULL};
    return indexed(&x, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_hindexed)

int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_create_indexed_block);
    struct indexed x = {count, NULL, blocklength, array_of_displacements, NULL, 1, 0, NULL, NULL};
    return indexed(&x, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_create_indexed_block)

int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                     MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_create_indexed_block_c);
    struct indexed x = {count, NULL, blocklength, NULL, NULL, 1, 0, NULL, array_of_displacements};
    return indexed(&x, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_create_indexed_block_c)

int PMPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[],
                                    MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_create_hindexed_block);
    struct indexed x = {count, NULL, blocklength, NULL, array_of_displacements, 1, 1, NULL, NULL};
    return indexed(&x, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_create_hindexed_block)

int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                      const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                      MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_create_hindexed_block_c);
    struct indexed x = {count, NULL, blocklength, NULL, NULL, 1, 1, NULL, array_of_displacements};
    return indexed(&x, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_create_hindexed_block_c)

/* The arguments of the struct constructors: int lengths and MPI_Aint displacements, or (the _c form)
 * MPI_Count lengths and byte displacements. */
struct fields {
    MPI_Count count;
    const int *blocklens;
    const MPI_Aint *displs;
    const MPI_Count *lblocklens, *ldispls;
    const MPI_Datatype *types;
};

static MPI_Count field_len(const struct fields *f, MPI_Count i)
{
    return f->lblocklens ? f->lblocklens[i] : f->blocklens[i];
}

static ptrdiff_t field_disp(const struct fields *f, MPI_Count i)
{
    return f->ldispls ? (ptrdiff_t)f->ldispls[i] : f->displs[i];
}

static int check_struct(const struct fields *f, const MPI_Datatype *newtype)
{
    int rc, n = f->count > INT_MAX ? INT_MAX : (int)f->count;
    const void *lens = f->lblocklens ? (const void *)f->lblocklens : (const void *)f->blocklens;
    const void *displs = f->ldispls ? (const void *)f->ldispls : (const void *)f->displs;
    if ((rc = skiff_check_count(f->count)) || (rc = skiff_check_array(n, lens, "array_of_blocklengths")) ||
        (rc = skiff_check_array(n, displs, "array_of_displacements")) ||
        (rc = skiff_check_array(n, f->types, "array_of_types")) || (rc = skiff_check_ptr(newtype, "newtype")))
        return rc;
    if (!f->lblocklens && (rc = skiff_check_counts(n, f->blocklens, "array_of_blocklengths", NULL)))
        return rc;
    for (MPI_Count i = 0; f->lblocklens && i < f->count; i++)
        if (f->lblocklens[i] < 0)
            return skiff_err(MPI_ERR_COUNT, "invalid array_of_blocklengths[%lld] = %lld (must be >= 0)",
                             (long long)i, (long long)f->lblocklens[i]);
    for (MPI_Count i = 0; i < f->count; i++)
        if (!skiff_type_get(f->types[i]))
            return skiff_err(MPI_ERR_TYPE, "array_of_types[%lld] is %s", (long long)i,
                             f->types[i] == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL" : "not a datatype, or freed");
    return MPI_SUCCESS;
}

/* The _c form's record: count, the lengths, the displacements. */
static int record_struct_c(struct skiff_type_builder *b, const struct fields *f, MPI_Datatype *newtype)
{
    MPI_Count n = 1 + 2 * f->count;
    MPI_Count *l = n <= INT_MAX ? malloc(sizeof *l * (size_t)n) : NULL;
    if (!l)
        return skiff_fail_world(skiff_err(MPI_ERR_NO_MEM, "out of memory recording how a datatype was made"));
    l[0] = f->count;
    memcpy(l + 1, f->lblocklens, sizeof *l * (size_t)f->count);
    memcpy(l + 1 + f->count, f->ldispls, sizeof *l * (size_t)f->count);
    struct skiff_type_record r = {MPI_COMBINER_STRUCT, {{0}}, NULL, 0, f->types, (int)f->count};
    int rc = finish_large(b, 1, &r, l, (int)n, newtype);
    free(l);
    return rc;
}

/* Block i: blocklens[i] elements of types[i] at displs[i] bytes; the extent is padded like a C struct's. */
static int create_struct(const struct fields *f, MPI_Datatype *newtype)
{
    int rc = check_struct(f, newtype);
    if (rc)
        return skiff_fail_world(rc);
    struct skiff_type_builder b;
    skiff_tb_init(&b);
    for (MPI_Count i = 0; i < f->count; i++) {
        const struct skiff_type *t = skiff_type_get(f->types[i]);
        skiff_tb_add(&b, field_disp(f, i), (size_t)field_len(f, i), t->extent, t);
    }
    if (f->lblocklens)
        return record_struct_c(&b, f, newtype);
    const int count = (int)f->count;
    return finish(&b, 1,
                  &(struct skiff_type_record){MPI_COMBINER_STRUCT, {{&count, 1}, {f->blocklens, count}}, f->displs,
                                              count, f->types, count},
                  newtype);
}

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_create_struct);
    struct fields f = {count, array_of_blocklengths, array_of_displacements, NULL, NULL, array_of_types};
    return create_struct(&f, newtype);
}
SKIFF_ALIAS(MPI_Type_create_struct)

int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[], const MPI_Datatype array_of_types[],
                              MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_create_struct_c);
    struct fields f = {count, NULL, NULL, array_of_blocklengths, array_of_displacements, array_of_types};
    return create_struct(&f, newtype);
}
SKIFF_ALIAS(MPI_Type_create_struct_c)

int PMPI_Type_struct(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                     MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_struct);
    struct fields f = {count, array_of_blocklengths, array_of_displacements, NULL, NULL, array_of_types};
    return create_struct(&f, newtype);
}
SKIFF_ALIAS(MPI_Type_struct)

/* large: MPI_Type_create_resized_c, whose lb and extent are recorded as large counts. */
static int resized(int large, MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype)
{
    const struct skiff_type *old = NULL;
    struct skiff_type *t = NULL;
    SKIFF_ENTER_TWIN(MPI_Type_create_resized, large);
    int rc;
    if ((rc = skiff_check_dtype(oldtype, 0, &old)) || (rc = skiff_check_ptr(newtype, "newtype")) ||
        (rc = skiff_type_resized(old, lb, extent, &t)))
        return skiff_fail_world(rc);
    const MPI_Aint bounds[2] = {lb, extent};
    const MPI_Count lbounds[2] = {lb, extent};
    struct skiff_type_record r = {MPI_COMBINER_RESIZED, {{0}}, bounds, large ? 0 : 2, &oldtype, 1};
    if ((rc = skiff_type_record_large(t, &r, lbounds, large ? 2 : 0))) {
        skiff_type_free(t);
        return skiff_fail_world(rc);
    }
    *newtype = skiff_type_handle(t);
    return MPI_SUCCESS;
}

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype)
{
    return resized(0, oldtype, lb, extent, newtype);
}
SKIFF_ALIAS(MPI_Type_create_resized)

int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype)
{
    return resized(1, oldtype, (MPI_Aint)lb, (MPI_Aint)extent, newtype);
}
SKIFF_ALIAS(MPI_Type_create_resized_c)
