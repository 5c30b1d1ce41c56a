/* Datatype constructors, MPI-2 names and the MPI-1 names real codes still call. Each one feeds the
 * builder (core/datatype.h) its pieces in type-map order; the builder flattens them. */
#include "mpi/mpi_impl.h"

#include "core/type_extra.h"

static int check_blocklen(int len)
{
    return len >= 0 ? MPI_SUCCESS : skiff_err(MPI_ERR_COUNT, "invalid blocklength %d (must be >= 0)", len);
}

/* The checks every constructor from one old type makes; starts b with old, so even an empty result
 * knows its basic type. */
static int begin(int count, MPI_Datatype oldtype, const MPI_Datatype *newtype, struct skiff_type_builder *b,
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

/* The new type remembers its constructor's arguments (rec) for MPI_Type_get_contents. */
static int finish(struct skiff_type_builder *b, int pad, const struct skiff_type_record *rec, MPI_Datatype *newtype)
{
    struct skiff_type *t = NULL;
    int rc = skiff_tb_finish(b, pad, &t);
    if (!rc && (rc = skiff_type_record(t, rec)))
        skiff_type_free(t);
    if (rc)
        return skiff_fail_world(rc);
    *newtype = skiff_type_handle(t);
    return MPI_SUCCESS;
}

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct skiff_type_builder b;
    const struct skiff_type *old = NULL;
    SKIFF_ENTER(MPI_Type_contiguous);
    int rc = begin(count, oldtype, newtype, &b, &old);
    if (rc)
        return skiff_fail_world(rc);
    skiff_tb_add(&b, 0, (size_t)count, old->extent, old);
    return finish(&b, 0, &(struct skiff_type_record){MPI_COMBINER_CONTIGUOUS, {{&count, 1}}, NULL, 0, &oldtype, 1},
                  newtype);
}
SKIFF_ALIAS(MPI_Type_contiguous)

/* count blocks of blocklength old elements, block i at i * stride bytes. ivec: MPI_Type_vector's arguments
 * (stride in elements), else NULL. */
static int hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, const int *ivec,
                   MPI_Datatype *newtype)
{
    struct skiff_type_builder b;
    const struct skiff_type *old = NULL;
    int rc = check_blocklen(blocklength);
    if (rc || (rc = begin(count, oldtype, newtype, &b, &old)))
        return skiff_fail_world(rc);
    for (int i = 0; i < count; i++)
        skiff_tb_add(&b, (ptrdiff_t)i * stride, (size_t)blocklength, old->extent, old);
    const int ihv[2] = {count, blocklength};
    struct skiff_type_record r = {MPI_COMBINER_HVECTOR, {{ihv, 2}}, &stride, 1, &oldtype, 1};
    if (ivec)
        r = (struct skiff_type_record){MPI_COMBINER_VECTOR, {{ivec, 3}}, NULL, 0, &oldtype, 1};
    return finish(&b, 0, &r, newtype);
}

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_vector);
    const struct skiff_type *old = skiff_type_get(oldtype);
    MPI_Aint bytes = old ? (MPI_Aint)stride * old->extent : 0; /* a bad oldtype is reported below */
    return hvector(count, blocklength, bytes, oldtype, (const int[3]){count, blocklength, stride}, newtype);
}
SKIFF_ALIAS(MPI_Type_vector)

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_create_hvector);
    return hvector(count, blocklength, stride, oldtype, NULL, newtype);
}
SKIFF_ALIAS(MPI_Type_create_hvector)

int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_hvector);
    return hvector(count, blocklength, stride, oldtype, NULL, newtype);
}
SKIFF_ALIAS(MPI_Type_hvector)

/* The indexed family. Block i has blocklens[i] (or blocklen in the _block forms) elements at
 * displacement idispls[i] * extent (or hdispls[i] bytes in the h forms). The flags, not NULL arrays,
 * tell the forms apart: a NULL array is the user's error. */
struct indexed {
    int count;
    const int *blocklens;
    int blocklen;
    const int *idispls;
    const MPI_Aint *hdispls;
    int block, bytes;
};

static int check_indexed(const struct indexed *x)
{
    const void *displs = x->bytes ? (const void *)x->hdispls : (const void *)x->idispls;
    int rc = skiff_check_array(x->count, displs, "array_of_displacements");
    if (rc || x->block)
        return rc ? rc : check_blocklen(x->blocklen);
    return skiff_check_counts(x->count, x->blocklens, "array_of_blocklengths", NULL);
}

static int indexed(const struct indexed *x, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct skiff_type_builder b;
    const struct skiff_type *old = NULL;
    int rc = skiff_check_count(x->count);
    if (rc || (rc = check_indexed(x)) || (rc = begin(x->count, oldtype, newtype, &b, &old)))
        return skiff_fail_world(rc);
    for (int i = 0; i < x->count; i++) {
        ptrdiff_t disp = x->bytes ? x->hdispls[i] : (ptrdiff_t)x->idispls[i] * old->extent;
        skiff_tb_add(&b, disp, (size_t)(x->block ? x->blocklen : x->blocklens[i]), old->extent, old);
    }
    static const int combiner[2][2] = {{MPI_COMBINER_INDEXED, MPI_COMBINER_HINDEXED},
                                       {MPI_COMBINER_INDEXED_BLOCK, MPI_COMBINER_HINDEXED_BLOCK}};
    const int head[2] = {x->count, x->blocklen};
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
    struct indexed x = {count, array_of_blocklengths, 0, array_of_displacements, NULL, 0, 0};
    return indexed(&x, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_indexed)

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                              MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_create_hindexed);
    struct indexed x = {count, array_of_blocklengths, 0, NULL, array_of_displacements, 0, 1};
    return indexed(&x, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_create_hindexed)

int PMPI_Type_hindexed(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_hindexed);
    struct indexed x = {count, array_of_blocklengths, 0, NULL, array_of_displacements, 0, 1};
    return indexed(&x, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_hindexed)

int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_create_indexed_block);
    struct indexed x = {count, NULL, blocklength, array_of_displacements, NULL, 1, 0};
    return indexed(&x, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_create_indexed_block)

int PMPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[],
                                    MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_create_hindexed_block);
    struct indexed x = {count, NULL, blocklength, NULL, array_of_displacements, 1, 1};
    return indexed(&x, oldtype, newtype);
}
SKIFF_ALIAS(MPI_Type_create_hindexed_block)

static int check_struct(int count, const int blocklens[], const MPI_Aint displs[], const MPI_Datatype types[],
                        const MPI_Datatype *newtype)
{
    int rc;
    if ((rc = skiff_check_count(count)) || (rc = skiff_check_array(count, blocklens, "array_of_blocklengths")) ||
        (rc = skiff_check_array(count, displs, "array_of_displacements")) ||
        (rc = skiff_check_array(count, types, "array_of_types")) || (rc = skiff_check_ptr(newtype, "newtype")) ||
        (rc = skiff_check_counts(count, blocklens, "array_of_blocklengths", NULL)))
        return rc;
    for (int i = 0; i < count; i++)
        if (!skiff_type_get(types[i]))
            return skiff_err(MPI_ERR_TYPE, "array_of_types[%d] is %s", i,
                             types[i] == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL" : "not a datatype, or freed");
    return MPI_SUCCESS;
}

/* Block i: blocklens[i] elements of types[i] at displs[i] bytes; the extent is padded like a C struct's. */
static int create_struct(int count, const int blocklens[], const MPI_Aint displs[], const MPI_Datatype types[],
                         MPI_Datatype *newtype)
{
    int rc = check_struct(count, blocklens, displs, types, newtype);
    if (rc)
        return skiff_fail_world(rc);
    struct skiff_type_builder b;
    skiff_tb_init(&b);
    for (int i = 0; i < count; i++) {
        const struct skiff_type *t = skiff_type_get(types[i]);
        skiff_tb_add(&b, displs[i], (size_t)blocklens[i], t->extent, t);
    }
    return finish(&b, 1,
                  &(struct skiff_type_record){MPI_COMBINER_STRUCT, {{&count, 1}, {blocklens, count}}, displs, count,
                                              types, count},
                  newtype);
}

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_create_struct);
    return create_struct(count, array_of_blocklengths, array_of_displacements, array_of_types, newtype);
}
SKIFF_ALIAS(MPI_Type_create_struct)

int PMPI_Type_struct(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                     MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    SKIFF_ENTER(MPI_Type_struct);
    return create_struct(count, array_of_blocklengths, array_of_displacements, array_of_types, newtype);
}
SKIFF_ALIAS(MPI_Type_struct)

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype)
{
    const struct skiff_type *old = NULL;
    struct skiff_type *t = NULL;
    SKIFF_ENTER(MPI_Type_create_resized);
    int rc;
    if ((rc = skiff_check_dtype(oldtype, 0, &old)) || (rc = skiff_check_ptr(newtype, "newtype")) ||
        (rc = skiff_type_resized(old, lb, extent, &t)))
        return skiff_fail_world(rc);
    const MPI_Aint bounds[2] = {lb, extent};
    if ((rc = skiff_type_record(t, &(struct skiff_type_record){MPI_COMBINER_RESIZED, {{0}}, bounds, 2, &oldtype, 1}))) {
        skiff_type_free(t);
        return skiff_fail_world(rc);
    }
    *newtype = skiff_type_handle(t);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Type_create_resized)
