/* Packing for the user (MPI_Pack, MPI_Unpack, MPI_Pack_size) and addresses for MPI_BOTTOM types.
 * The packed form is the bare data in type-map order: no header, so MPI_Pack_size is exact. */
#include "mpi/mpi_impl.h"

/* Pack and Unpack seen alike: count elements of a type on the typed side, a buffer of size bytes
 * with a position on the packed side. */
struct pack_args {
    MPI_Comm comm;
    const void *typed; /* Pack's inbuf, Unpack's outbuf */
    int count;
    MPI_Datatype dt;
    const void *packed; /* Pack's outbuf, Unpack's inbuf */
    int size;
    const int *position;
    int unpack;
};

/* Whether the packed bytes [p, p + bytes) touch the data of count > 0 elements of t at buf. Exact for
 * contiguous data; otherwise only the lowest and highest data bytes are tested (the first and last
 * element's, or the other way round with a negative extent), as packed bytes may legally sit in the
 * gaps between blocks and walking the blocks would cost as much as packing. */
static int overlaps(const void *buf, size_t count, const struct skiff_type *t, const void *p, size_t bytes)
{
    ptrdiff_t from, to;
    if (!skiff_type_reach(t, count, &from, &to))
        return 0; /* no buffer spans that much: it cannot overlap */
    uintptr_t lo = (uintptr_t)buf + (uintptr_t)from, last = (uintptr_t)buf + (uintptr_t)to - 1;
    uintptr_t a = (uintptr_t)p, b = a + bytes;
    if (t->contiguous)
        return lo < b && a <= last;
    return (lo >= a && lo < b) || (last >= a && last < b);
}

/* The packed side: a position inside the buffer, room for bytes from there, no overlap with the data. */
static int check_packed(const struct pack_args *a, const struct skiff_type *t, size_t bytes)
{
    const char *name = a->unpack ? "inbuf" : "outbuf", *tname = a->unpack ? "outbuf" : "inbuf";
    if (a->size < 0)
        return skiff_err(MPI_ERR_ARG, "invalid %s size %d (must be >= 0)", name, a->size);
    int rc = skiff_check_ptr(a->position, "position");
    if (rc)
        return rc;
    int pos = *a->position;
    if (pos < 0 || pos > a->size)
        return skiff_err(MPI_ERR_ARG, "position %d is outside the %d-byte %s", pos, a->size, name);
    if (bytes > (size_t)(a->size - pos))
        return skiff_err(MPI_ERR_TRUNCATE, "%d elements are %zu packed bytes, but only %d of the %d-byte %s are left",
                         a->count, bytes, a->size - pos, a->size, name);
    if (bytes && !a->packed)
        return skiff_err(MPI_ERR_BUFFER, "%s is NULL", name);
    if (bytes && overlaps(a->typed, (size_t)a->count, t, (const char *)a->packed + pos, bytes))
        return skiff_err(MPI_ERR_BUFFER, "%s %p + position %d overlaps the %d elements at %s %p", name, a->packed,
                         pos, a->count, tname, a->typed);
    return MPI_SUCCESS;
}

/* All the checks of Pack or Unpack; on success *t and *bytes describe the data. */
static int check_pack(const struct pack_args *a, const struct skiff_type **t, size_t *bytes)
{
    struct skiff_comm *c;
    int rc;
    if ((rc = skiff_check_comm(a->comm, &c)) || (rc = skiff_check_count(a->count)) ||
        (rc = skiff_check_dtype(a->dt, 1, t)) ||
        (rc = skiff_check_named_buf(a->typed, (size_t)a->count, *t, a->unpack ? "outbuf" : "inbuf")))
        return rc;
    *bytes = skiff_type_packed_size(*t, (size_t)a->count);
    return check_packed(a, *t, *bytes);
}

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize, int *position,
              MPI_Comm comm)
{
    const struct skiff_type *t = NULL;
    size_t bytes = 0;
    SKIFF_ENTER(MPI_Pack);
    struct pack_args a = {comm, inbuf, incount, datatype, outbuf, outsize, position, 0};
    int rc = check_pack(&a, &t, &bytes);
    if (rc)
        return skiff_fail(comm, rc);
    *position += (int)skiff_type_pack(inbuf, (size_t)incount, t, (char *)outbuf + *position);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Pack)

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype datatype,
                MPI_Comm comm)
{
    const struct skiff_type *t = NULL;
    size_t bytes = 0;
    SKIFF_ENTER(MPI_Unpack);
    struct pack_args a = {comm, outbuf, outcount, datatype, inbuf, insize, position, 1};
    int rc = check_pack(&a, &t, &bytes);
    if (rc)
        return skiff_fail(comm, rc);
    *position += (int)skiff_type_unpack((const char *)inbuf + *position, bytes, outbuf, (size_t)outcount, t);
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Unpack)

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    struct skiff_comm *c;
    const struct skiff_type *t = NULL;
    SKIFF_ENTER(MPI_Pack_size);
    int rc;
    if ((rc = skiff_check_comm(comm, &c)) || (rc = skiff_check_count(incount)) ||
        (rc = skiff_check_dtype(datatype, 0, &t)) || (rc = skiff_check_ptr(size, "size")))
        return skiff_fail(comm, rc);
    size_t bytes = skiff_type_packed_size(t, (size_t)incount);
    if (bytes > INT_MAX)
        return skiff_fail(comm, skiff_err(MPI_ERR_COUNT, "%d elements pack into %zu bytes, more than an int can count",
                                          incount, bytes));
    *size = (int)bytes;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Pack_size)

int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    SKIFF_ENTER(MPI_Get_address);
    int rc = skiff_check_ptr(address, "address");
    if (rc)
        return skiff_fail_world(rc);
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Get_address)

/* MPI-1 name of MPI_Get_address. */
int PMPI_Address(void *location, MPI_Aint *address)
{
    SKIFF_ENTER(MPI_Address);
    int rc = skiff_check_ptr(address, "address");
    if (rc)
        return skiff_fail_world(rc);
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}
SKIFF_ALIAS(MPI_Address)
