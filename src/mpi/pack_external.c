/* MPI_Pack_external and friends: packing in the portable "external32" representation
 * (core/datatype_external.h). There is no communicator: errors go to MPI_COMM_WORLD's handler. */
#include <string.h>

#include "core/datatype_external.h"
#include "mpi/mpi_impl.h"

/* "external32" is the only representation the standard defines for these calls. */
static int check_datarep(const char *datarep)
{
    int rc = skiff_check_ptr(datarep, "datarep");
    if (rc || strcmp(datarep, "external32") == 0)
        return rc;
    return skiff_err(MPI_ERR_UNSUPPORTED_DATAREP, "datarep \"%.64s\" is not supported (only \"external32\" is)",
                     datarep);
}

/* Pack and Unpack alike: count elements of dt on the typed side; a buffer of size bytes with a position
 * on the external side, which must have room for *bytes from there. */
struct ext_args {
    const char *datarep;
    const void *typed;
    MPI_Count count;
    MPI_Datatype dt;
    const void *packed;
    MPI_Aint size;
    const MPI_Aint *position;
    int unpack;
};

static int check_room(const struct ext_args *a, size_t bytes)
{
    const char *name = a->unpack ? "inbuf" : "outbuf";
    if (a->size < 0)
        return skiff_err(MPI_ERR_ARG, "invalid %s size %td (must be >= 0)", a->unpack ? "insize" : "outsize", a->size);
    int rc = skiff_check_ptr(a->position, "position");
    if (rc)
        return rc;
    MPI_Aint pos = *a->position;
    if (pos < 0 || pos > a->size)
        return skiff_err(MPI_ERR_ARG, "position %td is outside the %td-byte %s", pos, a->size, name);
    if (bytes > (size_t)(a->size - pos))
        return skiff_err(MPI_ERR_TRUNCATE, "%lld elements are %zu external32 bytes, but only %td of the %td-byte %s "
                         "are left", (long long)a->count, bytes, a->size - pos, a->size, name);
    if (bytes && !a->packed)
        return skiff_err(MPI_ERR_BUFFER, "%s is NULL", name);
    return MPI_SUCCESS;
}

static int check_ext(const struct ext_args *a, const struct skiff_type **t, size_t *bytes)
{
    int rc;
    if ((rc = check_datarep(a->datarep)) || (rc = skiff_check_count(a->count)) ||
        (rc = skiff_check_dtype(a->dt, 1, t)) ||
        (rc = skiff_check_named_buf(a->typed, (size_t)a->count, *t, a->unpack ? "outbuf" : "inbuf")) ||
        (rc = skiff_external_size(*t, (size_t)a->count, bytes)))
        return rc;
    return check_room(a, *bytes);
}

/* The bodies of the three calls, shared with their large-count (_c) twins; large says which was called. The
 * _c calls' MPI_Count sizes and positions travel as MPI_Aint, which is as wide (asserted below). */
_Static_assert(sizeof(MPI_Aint) == sizeof(MPI_Count), "external32 sizes and positions fit MPI_Aint");

static int pack_external(int large, const char datarep[], const void *inbuf, MPI_Count incount,
                         MPI_Datatype datatype, void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
    const struct skiff_type *t = NULL;
    size_t bytes = 0;
    SKIFF_ENTER_TWIN(MPI_Pack_external, large);
    struct ext_args a = {datarep, inbuf, incount, datatype, outbuf, outsize, position, 0};
    int rc = check_ext(&a, &t, &bytes);
    if (!rc && bytes)
        rc = skiff_external_pack(inbuf, (size_t)incount, t, (char *)outbuf + *position);
    if (rc)
        return skiff_fail_world(rc);
    *position += (MPI_Aint)bytes;
    return MPI_SUCCESS;
}

int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf,
                       MPI_Aint outsize, MPI_Aint *position)
{
    return pack_external(0, datarep, inbuf, incount, datatype, outbuf, outsize, position);
}
SKIFF_ALIAS(MPI_Pack_external)

int PMPI_Pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
                         void *outbuf, MPI_Count outsize, MPI_Count *position)
{
    return pack_external(1, datarep, inbuf, incount, datatype, outbuf, (MPI_Aint)outsize, (MPI_Aint *)position);
}
SKIFF_ALIAS(MPI_Pack_external_c)

static int unpack_external(int large, const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position,
                           void *outbuf, MPI_Count outcount, MPI_Datatype datatype)
{
    const struct skiff_type *t = NULL;
    size_t bytes = 0;
    SKIFF_ENTER_TWIN(MPI_Unpack_external, large);
    struct ext_args a = {datarep, outbuf, outcount, datatype, inbuf, insize, position, 1};
    int rc = check_ext(&a, &t, &bytes);
    if (!rc && bytes)
        rc = skiff_external_unpack((const char *)inbuf + *position, outbuf, (size_t)outcount, t);
    if (rc)
        return skiff_fail_world(rc);
    *position += (MPI_Aint)bytes;
    return MPI_SUCCESS;
}

int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position, void *outbuf,
                         int outcount, MPI_Datatype datatype)
{
    return unpack_external(0, datarep, inbuf, insize, position, outbuf, outcount, datatype);
}
SKIFF_ALIAS(MPI_Unpack_external)

int PMPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position,
                           void *outbuf, MPI_Count outcount, MPI_Datatype datatype)
{
    return unpack_external(1, datarep, inbuf, (MPI_Aint)insize, (MPI_Aint *)position, outbuf, outcount, datatype);
}
SKIFF_ALIAS(MPI_Unpack_external_c)

/* Exact, not an upper bound: external32 has no header. */
static int pack_external_size(int large, const char datarep[], MPI_Count incount, MPI_Datatype datatype,
                              MPI_Aint *size)
{
    const struct skiff_type *t = NULL;
    size_t bytes = 0;
    SKIFF_ENTER_TWIN(MPI_Pack_external_size, large);
    int rc;
    if ((rc = check_datarep(datarep)) || (rc = skiff_check_count(incount)) ||
        (rc = skiff_check_dtype(datatype, 0, &t)) || (rc = skiff_check_ptr(size, "size")) ||
        (rc = skiff_external_size(t, (size_t)incount, &bytes)))
        return skiff_fail_world(rc);
    *size = (MPI_Aint)bytes;
    return MPI_SUCCESS;
}

int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint *size)
{
    return pack_external_size(0, datarep, incount, datatype, size);
}
SKIFF_ALIAS(MPI_Pack_external_size)

int PMPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype datatype, MPI_Count *size)
{
    return pack_external_size(1, datarep, incount, datatype, (MPI_Aint *)size);
}
SKIFF_ALIAS(MPI_Pack_external_size_c)
